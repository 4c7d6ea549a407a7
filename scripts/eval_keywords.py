#!/usr/bin/env python3
"""Keyword extraction quality: does a question whose wording is in no keyword table reach its item?

    python scripts/eval_keywords.py --store STORE [--llm none] [--llm default] [--llm PATH] [--questions FILE]

FILE (default tests/data/keyword_questions.yaml): `questions: [{q, expect}]`, expect a canonical item or
formula name. A question counts as right when expect is among the items/formulas the understanding
reached (regex keywords, thefuzz generalisation, and — with a model — its few-shot keywords). Questions
where the keyword tables' regex already matches a phrase are reported (they would not test anything).
Prints one line per question per --llm, then the share right per --llm and seconds per question.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fin_qa.answer.router import Router  # noqa: E402
from fin_qa.catalog import Catalog  # noqa: E402
from fin_qa.answer.facts import FactSource  # noqa: E402
from fin_qa.llm.load import load_chat_model  # noqa: E402
from fin_qa.store import Store  # noqa: E402


def evaluate(store: Store, llm: str, questions: list[dict], verbose: bool = True) -> dict:
    t = time.perf_counter()
    catalog = Catalog.shipped()
    model = load_chat_model(llm, catalog.llm)
    load = time.perf_counter() - t
    engine = Router(FactSource(store), catalog, model=model)
    right, in_tables, rows = 0, 0, []
    t = time.perf_counter()
    for q in questions:
        u = engine.understander.understand(q["q"])
        if u.keywords:
            in_tables += 1
        reached = u.items + u.formulas
        ok = q["expect"] in reached
        right += ok
        rows.append((q["q"], q["expect"], reached, u.model_keywords))
        if verbose:
            print(f"{'ok ' if ok else 'no '} [{llm}] {q['q'][:34]:36} want {q['expect']:12} got {reached or '-'}"
                  + (f"  model: {u.model_keywords}" if model is not None else ""))
    n = len(questions)
    return {"llm": llm, "n": n, "right": right, "rate": right / n if n else 0.0, "in_tables": in_tables,
            "load_s": load, "per_q_s": (time.perf_counter() - t) / n if n else 0.0, "rows": rows}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", required=True, type=Path)
    ap.add_argument("--llm", action="append", default=None)
    ap.add_argument("--questions", type=Path, default=ROOT / "tests" / "data" / "keyword_questions.yaml")
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args(argv)
    questions = yaml.safe_load(args.questions.read_text(encoding="utf-8"))["questions"]
    with Store(args.store, create=False) as store:
        results = [evaluate(store, llm, questions, not args.quiet) for llm in (args.llm or ["none"])]
    print()
    print(f"{'--llm':10} {'questions':>9} {'right item':>11} {'share':>7} {'load s':>7} {'s/question':>11}")
    for r in results:
        print(f"{r['llm']:10} {r['n']:9d} {r['right']:11d} {r['rate']:7.1%} {r['load_s']:7.1f} {r['per_q_s']:11.2f}")
    if results and results[0]["in_tables"]:
        print(f"warning: {results[0]['in_tables']} question(s) contain a keyword-table phrase")
    return 0


if __name__ == "__main__":
    sys.exit(main())
