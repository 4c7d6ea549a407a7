"""How the page images of `fin-qa serve` box what answers cite, over every fact and table cell of a store's
PDF reports: the share placed on its row (label and value on one line), found unanchored, partial or not
at all — the strings the server asks for (service.highlight of each fact's or cell's evidence), from the
word boxes ingest stored.

    python scripts/eval_highlight.py --store S [--cells 2000]

Prints one table (markdown) per kind of evidence, and the time a page takes to be located.
"""
from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from pathlib import Path

from fin_qa.answer.model import CellEvidence, FactEvidence
from fin_qa.numbers import is_number
from fin_qa.serve.pages import locate
from fin_qa.serve.service import highlight
from fin_qa.store import Store


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", type=Path, required=True)
    ap.add_argument("--cells", type=int, default=2000, help="Table cells sampled per report (seeded).")
    ap.add_argument("--reports", nargs="+", metavar="KEY", help="Only these reports (stock_code:year).")
    ap.add_argument("--skip", nargs="+", metavar="KEY", default=[], help="Leave these reports out.")
    args = ap.parse_args()
    store = Store(args.store, readonly=True)
    rnd = random.Random(0)
    tallies: dict[str, Counter] = {"statement facts": Counter(), "other facts": Counter(), "table cells": Counter()}
    examples: dict[tuple[str, str], str] = {}
    seconds = calls = 0.0
    for rep in store.report_list():
        if (args.reports and rep.key not in args.reports) or rep.key in args.skip:
            continue
        rid = rep.id
        if not any(f["kind"] == "pdf" for f in store.report_files(rid)):
            continue
        pages: dict[int, object] = {}

        def page(n: int):
            if n not in pages:
                pages[n] = store.page_words(rid, n)
            return pages[n]

        def tally(kind: str, n: int | None, strings: list[str]) -> None:
            nonlocal seconds, calls
            words = page(n) if n else None
            if words is None:
                tallies[kind]["no page"] += 1
                return
            t = time.perf_counter()
            _, how = locate(words, strings)  # type: ignore[arg-type]
            seconds += time.perf_counter() - t
            calls += 1
            tallies[kind][how] += 1
            examples.setdefault((kind, how), f"{rep.key} p.{n} {strings}")

        for f in store.facts(rep.stock_code, rep.year):
            if f["source"] != "pdf" or not f["page"]:
                continue
            kind = "statement facts" if f["statement"] and ("表" in f["statement"] or f["statement"] == "主要会计数据") \
                else "other facts"
            ev = FactEvidence(f["item"], f["value"], f["year"], f["page"], f["source"], report=rep.key,
                              printed_label=f["raw_label"], stored=f["value"])
            tally(kind, f["page"], highlight(ev))
        cells = [(t, r, k) for t in store.report_tables(rid) for r, row in enumerate(t.rows)
                 for k, cell in enumerate(row) if k and is_number(cell) and row[0] and not is_number(row[0])]
        for t, r, k in rnd.sample(cells, min(args.cells, len(cells))):
            page_no = t.pages[r] if r < len(t.pages) else t.page_start
            ev = CellEvidence("", t.rows[r][0], "", t.rows[r][k], page_no, rep.key, t.rows[r][k])
            tally("table cells", page_no, highlight(ev))
    print(f"| evidence | n | row | found | partial | none |")
    print("|---|---|---|---|---|---|")
    for kind, c in tallies.items():
        n = sum(v for k, v in c.items() if k != "no page")
        if not n:
            continue
        share = lambda k: f"{c[k]} ({100 * c[k] / n:.1f}%)"  # noqa: E731
        print(f"| {kind} | {n} | {share('row')} | {share('found')} | {share('partial')} | {share('none')} |")
    print(f"\nlocate: {1000 * seconds / max(calls, 1):.2f} ms a call ({int(calls)} calls)")
    for (kind, how), ex in sorted(examples.items()):
        if how in ("none", "partial"):
            print(f"  e.g. {kind} / {how}: {ex}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
