"""Benchmark answering: store load time and questions per second (no chat model).

    python scripts/bench_answer.py [--store DIR] [--tables ../shared/data/finglm_tables]
                                   [--questions ../shared/data/finglm/A-list-question.json]
                                   [--scope ../shared/data/finglm/A-list-txt-name.txt] [--rounds 3]

Without --store (or with an empty one) the FinGLM tables are imported into a temporary store first
(11,587 reports); that import is timed and printed too. Load = opening the store, reading the report
list and building the company index, keyword regex and formulas, i.e. everything before the first
answer. Prints one line per figure.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared" / "data"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", type=Path)
    ap.add_argument("--tables", type=Path, default=SHARED / "finglm_tables")
    ap.add_argument("--questions", type=Path, default=SHARED / "finglm" / "A-list-question.json")
    ap.add_argument("--scope", type=Path, default=SHARED / "finglm" / "A-list-txt-name.txt")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)

    from fin_qa.store import Store

    if not args.questions.is_file():
        print(f"no question file at {args.questions}", file=sys.stderr)
        return 2
    tmp = None
    store_dir = args.store
    if store_dir is None or not (store_dir / "fin_qa.sqlite").is_file():
        from fin_qa.catalog import Catalog
        from fin_qa.ingest.tables_import import import_table

        catalog = Catalog.shipped()

        if store_dir is None:
            tmp = tempfile.TemporaryDirectory()
            store_dir = Path(tmp.name)
        files = sorted(args.tables.glob("*.xlsx"))
        if not files:
            print(f"no tables in {args.tables}", file=sys.stderr)
            return 2
        t = time.perf_counter()
        with Store(store_dir) as s:
            for f in files:
                import_table(f, s, catalog)
        print(f"import {len(files)} tables: {time.perf_counter() - t:.1f} s")

    questions = [json.loads(l)["question"] for l in args.questions.read_text(encoding="utf-8").splitlines() if l.strip()]
    loads, rates = [], []
    for _ in range(args.rounds):
        # every round pays the full load: the catalog (all rule files), the store, the understanding
        from fin_qa.answer.facts import FactSource, read_scope
        from fin_qa.answer.router import Router
        from fin_qa.catalog import Catalog

        t = time.perf_counter()
        catalog = Catalog.shipped()
        store = Store(store_dir, create=False)
        scope = read_scope(args.scope, catalog.report_names) if args.scope and args.scope.is_file() else None
        engine = Router(FactSource(store, scope), catalog, style="finglm")
        loads.append(time.perf_counter() - t)
        t = time.perf_counter()
        for q in questions:
            engine.answer(q)
        rates.append(len(questions) / (time.perf_counter() - t))
        store.close()
    counts = Store(store_dir, create=False).counts()
    print(f"store: {counts['reports']} reports, {counts['facts']} facts")
    print(f"load (store + understanding + rules): median {statistics.median(loads):.2f} s  "
          f"(rounds: {', '.join(f'{x:.2f}' for x in loads)})")
    print(f"answer {len(questions)} questions (--llm none): median {statistics.median(rates):.0f} questions/s  "
          f"(rounds: {', '.join(f'{x:.0f}' for x in rates)})")
    if tmp:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
