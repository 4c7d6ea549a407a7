#!/usr/bin/env python3
"""The work of answering counted in machine instructions, not seconds: the same count on a busy machine as on
a quiet one (time on a shared 2-core machine swings by ±25% from run to run; the instructions a program
executes do not). Needs valgrind (cachegrind); prints one line of figures.

    PYTHONPATH=CHECKOUT python scripts/bench_instructions.py answer --store A --questions Q.json [--scope S.txt]
    PYTHONPATH=CHECKOUT python scripts/bench_instructions.py questions --store S SETS...

    answer     FinGLM round A's questions over its imported gold values, as scripts/bench_answer.py answers them
               (each round pays its own load), per question: a fresh process's load and first round (rounds 1 −
               rounds 0: the imports left out) — what `fin-qa batch` of these questions does —, and a round
               after the first (rounds 2 − rounds 1), which also pays its own load but finds what the process
               keeps for the same texts across routers (the generalizer's verdicts, the lexicon's cuts, the
               rules' compiled guards) made by the first round.
    questions  real-report questions over an ingested store, as scripts/bench_questions.py answers them: the
               first pass per question (passes 1 − passes 0: each question seen for the first time) and again
               (passes 2 − passes 1).

The checkout's bytecode is written first (`python -m compileall`), as a user's Python writes it on the first import
(where PYTHONDONTWRITEBYTECODE is set, a first round importing a module would count compiling its source; counts of
issue 45's stops before the ninth include that). Each count is a run of this script's `work` under `valgrind --tool=cachegrind --cache-sim=no` (about 30× slower
than a plain run); the runs of a figure run side by side (a count does not depend on what else runs).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def work(argv: list[str]) -> int:
    """What is counted: `answer STORE QUESTIONS SCOPE ROUNDS` or `questions STORE PASSES SETS...`."""
    from fin_qa import gc_tuning
    from fin_qa.answer.facts import FactSource, read_scope
    from fin_qa.answer.router import Router
    from fin_qa.catalog import Catalog
    from fin_qa.store import Store

    if argv[0] == "answer":
        store_dir, questions, scope_file, rounds = argv[1], argv[2], argv[3], int(argv[4])
        qs = [json.loads(line)["question"] for line in open(questions, encoding="utf-8") if line.strip()]
        for _ in range(rounds):
            catalog = Catalog.shipped()
            store = Store(store_dir, create=False)
            scope = read_scope(Path(scope_file), catalog.report_names) if scope_file else None
            router = Router(FactSource(store, scope), catalog, style="finglm")
            gc_tuning.for_answering()
            for q in qs:
                router.answer(q)
            store.close()
        return 0
    store_dir, passes, sets = argv[1], int(argv[2]), argv[3:]
    qs = [json.loads(line)["question"] for f in sets for line in open(f, encoding="utf-8") if line.strip()]
    router = Router(FactSource(Store(store_dir, create=False, readonly=True)), Catalog.shipped())
    gc_tuning.for_answering()
    router.answer(qs[0])   # (the store and the lexicon's index opened; not counted: passes 0 pays it too)
    for _ in range(passes):
        for q in qs:
            router.answer(q)
    return 0


def write_bytecode(package: Path) -> None:
    """A package's bytecode written, as a user's Python writes it on the first import: where
    PYTHONDONTWRITEBYTECODE is set (this machine sets it), every fresh process — and a first round importing a
    module — would otherwise compile its source again, and the bigger checkout pay more for it. Where it cannot
    be written (a read-only checkout, a file that does not compile) the package is measured as it is, said on
    stderr. (scripts/bench_sidebyside.py writes each checkout's with it.)"""
    done = subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], capture_output=True, text=True)
    if done.returncode != 0:
        print(f"could not write all of {package}'s bytecode (a first round will count compiling its source):\n"
              + (done.stdout + done.stderr).strip()[-1500:], file=sys.stderr)


def count(args: list[str]) -> int:
    """The instructions executed by `python THIS --work ARGS` (the checkout as PYTHONPATH says)."""
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
           sys.executable, str(Path(__file__).resolve()), "--work", *args]
    r = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, PYTHONHASHSEED="0"))
    m = re.search(r"I\s+refs:\s+([\d,]+)", r.stderr)
    if r.returncode != 0 or m is None:
        sys.stderr.write(r.stderr[-3000:])
        raise SystemExit(f"failed ({r.returncode}): {' '.join(cmd)}")
    return int(m.group(1).replace(",", ""))


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--work"]:
        return work(argv[1:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=["answer", "questions"])
    ap.add_argument("--store", required=True)
    ap.add_argument("--questions", help="answer: the question file (FinGLM JSON lines)")
    ap.add_argument("--scope", default="", help="answer: the report list the questions are answered within")
    ap.add_argument("sets", nargs="*", help="questions: the question sets (JSON lines with a question)")
    args = ap.parse_intermixed_args(argv)   # (the sets after the options: questions --store S SETS…)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind): no instructions to count", file=sys.stderr)
        return 2
    import fin_qa

    write_bytecode(Path(fin_qa.__file__).parent)
    if args.what == "answer":
        if not args.questions:
            ap.error("answer needs --questions")
        n = sum(1 for line in open(args.questions, encoding="utf-8") if line.strip())
        runs = [["answer", args.store, args.questions, args.scope, str(k)] for k in (0, 1, 2)]
        with ThreadPoolExecutor(len(runs)) as pool:
            zero, one, two = pool.map(count, runs)
        print(f"answer: {n} questions, a fresh process (load and first round) {(one - zero) / n / 1e6:.3f} M "
              f"instructions a question; a round after the first {(two - one) / n / 1e6:.3f} M")
        return 0
    if not args.sets:
        ap.error("questions needs the question sets")
    n = sum(1 for f in args.sets for line in open(f, encoding="utf-8") if line.strip())
    runs = [["questions", args.store, str(k), *args.sets] for k in (0, 1, 2)]
    with ThreadPoolExecutor(len(runs)) as pool:
        zero, one, two = pool.map(count, runs)
    print(f"questions: {n} questions, first pass {(one - zero) / n / 1e6:.3f} M instructions a question; "
          f"again {(two - one) / n / 1e6:.3f} M")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
