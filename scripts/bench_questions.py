#!/usr/bin/env python3
"""Per question, in one process: the whole answer (Router.answer) of every question of some sets, a first
pass (each question seen for the first time: the caches of the lexicon, the generalizer and the fuzzy
verdicts cold for it) and again (best and median of 3 rounds), the engine set up as fin-qa batch and serve
set it (a read-only store; the collector as gc_tuning.for_answering sets it). Prints its figures.

    PYTHONPATH=CHECKOUT taskset -c 1 python scripts/bench_questions.py --store S tests/data/paraphrases.jsonl

Run it for two checkouts alternately, pinned to one core, to compare them in one period of the machine.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", required=True)
    ap.add_argument("sets", nargs="+")
    args = ap.parse_args(argv)
    from fin_qa import gc_tuning
    from fin_qa.answer.facts import FactSource
    from fin_qa.answer.router import Router
    from fin_qa.catalog import Catalog
    from fin_qa.store import Store

    # as fin-qa batch and serve answer (and scripts/bench_instructions.py counts): the store read-only, the
    # collector set for answering once the engine is built
    router = Router(FactSource(Store(args.store, create=False, readonly=True)), Catalog.shipped())
    gc_tuning.for_answering()
    qs = [json.loads(line)["question"] for f in args.sets for line in open(f, encoding="utf-8") if line.strip()]
    router.answer("四方科技2019年的货币资金是多少")   # (the store and the lexicon's index opened)
    t = time.perf_counter()
    for q in qs:
        router.answer(q)
    first = (time.perf_counter() - t) / len(qs) * 1000
    rounds = []
    for _ in range(3):
        t = time.perf_counter()
        for q in qs:
            router.answer(q)
        rounds.append((time.perf_counter() - t) / len(qs) * 1000)
    print(f"{len(qs)} questions: first pass {first:.3f} ms a question; again {min(rounds):.3f} ms (best of 3), "
          f"{statistics.median(rounds):.3f} median")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
