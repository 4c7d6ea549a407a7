"""Benchmark answering: store load time and questions per second (no chat model).

    python scripts/bench_answer.py [--store DIR] [--tables ../shared/data/finglm_tables]
                                   [--questions ../shared/data/finglm/A-list-question.json]
                                   [--scope ../shared/data/finglm/A-list-txt-name.txt] [--rounds 3]
    python scripts/bench_answer.py --store REPORTS_STORE --sets tests/data/paraphrases.jsonl \
                                   tests/data/table_questions.jsonl tests/data/compound_questions.jsonl

--sets FILE…: on a store of ingested reports (the shared ten), each question of each set (JSON lines with
"question") answered --rounds times after one warm-up pass; prints per set the median and p95 of one
question's time in ms and the questions per second (structured, table and compound questions).

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
    ap.add_argument("--sets", type=Path, nargs="+", metavar="FILE",
                    help="question sets timed one question at a time on --store (a store of ingested reports)")
    args = ap.parse_args(argv)

    from fin_qa import gc_tuning
    from fin_qa.store import Store

    if args.sets:
        if args.store is None:
            print("--sets needs --store (a store of ingested reports)", file=sys.stderr)
            return 2
        return bench_sets(args.store, args.sets, args.rounds)
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
        gc_tuning.for_answering()   # as fin-qa batch and serve set it
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


def bench_sets(store_dir: Path, sets: list[Path], rounds: int) -> int:
    """Per-question latency of each set on a store of ingested reports."""
    from fin_qa import gc_tuning
    from fin_qa.answer.facts import FactSource
    from fin_qa.answer.router import Router
    from fin_qa.catalog import Catalog
    from fin_qa.store import Store

    store = Store(store_dir, create=False)
    engine = Router(FactSource(store), Catalog.shipped())
    gc_tuning.for_answering()   # as fin-qa batch and serve set it
    for path in sets:
        questions = [json.loads(l)["question"] for l in path.read_text(encoding="utf-8").splitlines() if l.strip()]
        if not questions or rounds < 1:
            print(f"{path.name}: no questions to time (or --rounds below 1)")
            continue
        for q in questions:   # warm-up: caches filled as a serving process has them
            engine.answer(q)
        times: list[float] = []
        for _ in range(rounds):
            for q in questions:
                t = time.perf_counter()
                engine.answer(q)
                times.append(time.perf_counter() - t)
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(f"{path.name}: {len(questions)} questions x {rounds}: median {1000 * statistics.median(times):.2f} ms, "
              f"p95 {1000 * p95:.2f} ms, {len(times) / sum(times):.0f} questions/s")
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
