#!/usr/bin/env python3
"""Section finding: for each text question, is the first retrieved section the right one?

    python scripts/eval_sections.py --store STORE [--search sqlite|elasticsearch] [--questions FILE]

FILE (default tests/data/section_questions.yaml): `questions: [{q, expect}]`, expect being a regex over
the heading path of the first section (" > "-joined). Prints each question's first section, then the
hit rate, per backend. Questions whose company/year the store lacks are counted as skipped.
"""
from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fin_qa.answer.router import Router  # noqa: E402
from fin_qa.catalog import Catalog  # noqa: E402
from fin_qa.config import es_index, es_url  # noqa: E402
from fin_qa.answer.facts import FactSource  # noqa: E402
from fin_qa.search.retrieve import Retriever, make_backend  # noqa: E402
from fin_qa.store import Store  # noqa: E402


def evaluate(store: Store, backend_name: str, questions: list[dict], verbose: bool = True) -> dict:
    catalog = Catalog.shipped()
    backend = make_backend(backend_name, store, catalog, es_url(), es_index())  # $FIN_QA_ES_URL / _INDEX
    engine = Router(FactSource(store), catalog, retriever=Retriever(store, backend, catalog.topics, catalog.search))
    hits = misses = skipped = routed = 0
    failed = []
    firsts: list[str] = []
    t0 = time.perf_counter()
    for q in questions:
        u = engine.understander.understand(q["q"])
        if not u.companies:
            skipped += 1
            continue
        rep, *_ = engine.values.report(u)
        if rep is None:
            skipped += 1
            continue
        routed += u.type == "text"
        _, _, passages = engine.text.passages(u, rep)
        first = passages[0].heading if passages else ""
        ok = bool(passages) and re.search(q["expect"], first) is not None
        hits += ok
        misses += not ok
        firsts.append(first)
        if not ok:
            failed.append((q["q"], q["expect"], first))
        if verbose:
            print(f"{'ok ' if ok else 'MISS'} [{u.type:6}] {q['q'][:40]:42} → {first[-60:]}")
    n = hits + misses
    return {"backend": backend.name, "n": n, "hits": hits, "rate": hits / n if n else 0.0, "skipped": skipped,
            "routed_text": routed, "failed": failed, "firsts": firsts, "seconds": time.perf_counter() - t0}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", required=True, type=Path)
    ap.add_argument("--search", action="append", default=None, help="sqlite and/or elasticsearch (repeatable)")
    ap.add_argument("--questions", type=Path, default=ROOT / "tests" / "data" / "section_questions.yaml")
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args()
    questions = yaml.safe_load(args.questions.read_text(encoding="utf-8"))["questions"]
    with Store(args.store, create=False) as store:
        results = [evaluate(store, name, questions, not args.quiet) for name in (args.search or ["sqlite"])]
    print()
    print(f"{'backend':14} {'questions':>9} {'first section right':>20} {'rate':>7} {'skipped':>8} {'routed as text':>15}")
    for r in results:
        print(f"{r['backend']:14} {r['n']:9d} {r['hits']:20d} {r['rate']:7.1%} {r['skipped']:8d} {r['routed_text']:15d}")
    if len(results) > 1:
        a, b = results[0]["firsts"], results[1]["firsts"]
        same = sum(x == y for x, y in zip(a, b))
        print(f"same first section on {results[0]['backend']} and {results[1]['backend']}: {same}/{len(a)}")
    for r in results:
        for q, exp, got in r["failed"]:
            print(f"  {r['backend']} miss: {q}  (want /{exp}/, got: {got or 'nothing'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
