#!/usr/bin/env python3
"""Ingest speed of periodic filings, by period and kind (issue 44).

For every PDF under FOLDER (default ../shared/data/periodic/附件2：财务报告 and ../shared/data/periodic_more):
its parse (fin_qa.ingest.pipeline.parse_file: identification, statements, key figures, tables, text) timed
--rounds times in this one process, the median kept; then per period and kind (Q1 report, HY summary, …)
the filings, pages, median seconds a filing and pages/s. Research notes and other documents are refused
and counted apart. The question time over such a store: scripts/bench_answer.py --store S --sets
tests/data/periodic_questions.jsonl.

usage: python scripts/bench_periods.py [FOLDER…] [--rounds 3]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared" / "data"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="*", type=Path,
                    default=[SHARED / "periodic" / "附件2：财务报告", SHARED / "periodic_more"])
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()

    from fin_qa.catalog import Catalog
    from fin_qa.ingest.pages import IngestError
    from fin_qa.ingest.period import filing_name
    from fin_qa.ingest.pipeline import collect_files, parse_file

    files, problems = collect_files(args.folders)
    if problems or not files:
        print(f"no filings under {', '.join(map(str, args.folders))}", file=sys.stderr)
        return 2
    catalog = Catalog.shipped()
    groups: dict[tuple[str, str], list[tuple[int, float]]] = {}
    refused = 0
    for path in files:
        times = []
        rep = None
        for _ in range(args.rounds):
            t = time.perf_counter()
            try:
                rep = parse_file(path, catalog)
            except IngestError:
                rep = None
                break
            times.append(time.perf_counter() - t)
        if rep is None:
            refused += 1
            continue
        groups.setdefault((rep.meta.period, rep.meta.kind), []).append((rep.pages, statistics.median(times)))
    order = {"Q1": 0, "HY": 1, "Q3": 2, "FY": 3}
    print(f"{'filing':<16}{'files':>6}{'pages':>7}{'s/filing':>10}{'pages/s':>9}")
    for (period, kind), rows in sorted(groups.items(), key=lambda kv: (order[kv[0][0]], kv[0][1])):
        pages = sum(p for p, _ in rows)
        seconds = sum(s for _, s in rows)
        print(f"{period + ' ' + filing_name(period, kind):<16}{len(rows):>6}{pages:>7}"
              f"{statistics.median(s for _, s in rows):>10.3f}{pages / seconds:>9.0f}")
    every = [r for rows in groups.values() for r in rows]
    print(f"{len(every)} filings, {sum(p for p, _ in every)} pages in {sum(s for _, s in every):.1f} s "
          f"(median of {args.rounds} parses each, one process); {refused} documents refused")
    return 0


if __name__ == "__main__":
    sys.exit(main())
