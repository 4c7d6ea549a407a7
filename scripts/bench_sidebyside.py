#!/usr/bin/env python3
"""Two checkouts' answering speed side by side, in one period of the machine: each figure measured for the
one checkout, then the other, in turn (--repeat times, the best kept), every run a subprocess with
PYTHONPATH set to its checkout and pinned with taskset.

    python scripts/bench_sidebyside.py --before /tmp/base --after . [--stores DIR] [--shared ../shared] [--repeat 2] [--cpus 1]
        [--serve-cpus 0,1] [--processes N] [--only answer questions serve instructions]

    (a) answer   FinGLM round A's 2,000 questions over its gold values imported as a table (store A):
                 scripts/bench_answer.py --store A, the checkout's own copy (it puts its checkout first on
                 sys.path): the median questions/s of 3 rounds, each paying its own load, and the first
                 round's (a fresh process: later rounds find what it keeps for the same questions)
    (b) questions  real-report questions after load (store S: ../shared/data/reports, reports_more and
                 corpus ingested): scripts/bench_questions.py over the question sets (--sets; by default
                 the tests/data sets of those reports), questions/s of the first pass (each question seen
                 for the first time) and again (best of 3)
    (c) serve    `fin-qa serve` over S: scripts/bench_serve.py --only structured (--serve-kinds), q/s, p50
                 and p95 at 1, 4 and 16 clients (server and clients pinned to --serve-cpus)
    (d) instructions  (a) and (b) counted in machine instructions a question (scripts/bench_instructions.py,
                 under valgrind): the same count however busy the machine, where a time swings by ±25% from run to
                 run on a shared machine; measured once (a count does not vary), not pinned

Each checkout's bytecode is written first (`python -m compileall`), as a user's Python writes it on the first
import: where PYTHONDONTWRITEBYTECODE is set (this machine sets it) a first round importing a module would otherwise
count compiling its source — the figures of issue 45's stops before the ninth include that. A checkout where it
cannot be written is measured as it is, said on stderr.

The stores are each checkout's own (its parser reads the reports), built under --stores DIR (before/,
after/) when missing: `scripts/finglm_gold_facts.py A-list-answer.json -o gold.csv --reports-list
reports_list.csv` then `fin-qa import-tables gold.csv --store A`; `fin-qa ingest reports reports_more corpus
--store S`. The question sets and bench_questions.py / bench_serve.py are this checkout's (the same for
both). Prints one table: before, after, after/before (for latencies before/after: above 1 is faster).
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_instructions import write_bytecode   # (this folder, first on the path of a script run)

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("FIN_QA_SHARED") or ROOT.parent / "shared") / "data"
SETS = ["paraphrases", "table_questions", "compound_questions", "frame_questions", "series_questions",
        "corpus_heldout"]


def run(checkout: Path, args: list[str], cpus: str, timeout: float = 3600) -> str:
    """`python ARGS` with the checkout first on the path, pinned to `cpus`; its stdout (stderr shown on a
    failure)."""
    env = dict(os.environ, PYTHONPATH=str(checkout), PYTHONHASHSEED="0")
    cmd = (["taskset", "-c", cpus] if cpus else []) + [sys.executable, *args]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout, cwd=str(checkout))
    if r.returncode != 0:
        sys.stderr.write(r.stdout[-3000:] + r.stderr[-3000:])
        raise SystemExit(f"failed ({r.returncode}): {' '.join(cmd)}")
    return r.stdout


def cli(checkout: Path, *args: str) -> str:
    return run(checkout, ["-c", "import sys; from fin_qa.cli import main; sys.exit(main())", *args], "")


def build_stores(checkout: Path, folder: Path) -> None:
    """Store A (round A's gold values imported) and S (the shared reports ingested) with this checkout."""
    folder.mkdir(parents=True, exist_ok=True)
    a, s = folder / "A", folder / "S"
    if not (a / "fin_qa.sqlite").is_file():
        gold = folder / "gold.csv"
        run(checkout, [str(checkout / "scripts" / "finglm_gold_facts.py"), str(SHARED / "finglm" / "A-list-answer.json"),
                       "-o", str(gold), "--reports-list", str(SHARED / "finglm" / "reports_list.csv")], "")
        cli(checkout, "import-tables", str(gold), "--store", str(a))
        print(f"  built {a}", file=sys.stderr)
    if not (s / "fin_qa.sqlite").is_file():
        cli(checkout, "ingest", *(str(SHARED / d) for d in ("reports", "reports_more", "corpus")), "--store", str(s),
            "-q")
        print(f"  built {s}", file=sys.stderr)


def bench_answer(checkout: Path, store: Path, cpus: str) -> dict[str, float]:
    out = run(checkout, [str(checkout / "scripts" / "bench_answer.py"), "--store", str(store), "--rounds", "3",
                         "--questions", str(SHARED / "finglm" / "A-list-question.json"),
                         "--scope", str(SHARED / "finglm" / "A-list-txt-name.txt")], cpus)
    m = re.search(r"median (\d+) questions/s\s+\(rounds: (\d+)", out)
    load = re.search(r"load .*?median ([\d.]+) s", out)
    if m is None:
        raise SystemExit("bench_answer.py printed no rate:\n" + out)
    # (the first round as a fresh `fin-qa batch` answers; the later ones find what the process keeps for the
    # same questions across routers — the generalizer's verdicts, the lexicon's cuts)
    return {"A: round A questions/s": float(m.group(1)), "A: round A, first round questions/s": float(m.group(2)),
            "A: load s": float(load.group(1)) if load else float("nan")}


def bench_questions(checkout: Path, store: Path, sets: list[str], cpus: str) -> dict[str, float]:
    out = run(checkout, [str(ROOT / "scripts" / "bench_questions.py"), "--store", str(store), *sets], cpus)
    m = re.search(r"(\d+) questions: first pass ([\d.]+) ms a question; again ([\d.]+) ms", out)
    if m is None:
        raise SystemExit("bench_questions.py printed no times:\n" + out)
    n = m.group(1)
    return {f"S: {n} questions, first pass q/s": 1000 / float(m.group(2)),
            f"S: {n} questions, again q/s": 1000 / float(m.group(3))}


def bench_serve(checkout: Path, store: Path, cpus: str, seconds: float, kinds: list[str],
                processes: int | None) -> dict[str, float]:
    args = [str(ROOT / "scripts" / "bench_serve.py"), "--store", str(store), "--seconds", str(seconds),
            "--clients", "1", "4", "16", "--only", *kinds]
    if processes:
        args += ["--processes", str(processes)]
    out = run(checkout, args, cpus)
    got: dict[str, float] = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[1].isdigit():
            kind, clients = cells[0], cells[1]
            got[f"serve {kind}, {clients} clients: q/s"] = float(cells[3])
            got[f"serve {kind}, {clients} clients: p50 ms"] = float(cells[4])
            got[f"serve {kind}, {clients} clients: p95 ms"] = float(cells[5])
            if int(cells[6]):
                got[f"serve {kind}, {clients} clients: errors"] = float(cells[6])
    if not got:
        raise SystemExit("bench_serve.py printed no table:\n" + out)
    return got


def bench_instructions(checkout: Path, stores: Path, sets: list[str]) -> dict[str, float]:
    """(d): round A's fresh process and a round after the first, and the real-report questions' first pass and
    again, in M instructions a question (this checkout's scripts/bench_instructions.py, the same for both)."""
    script = str(ROOT / "scripts" / "bench_instructions.py")
    out = run(checkout, [script, "answer", "--store", str(stores / "A"), "--questions",
                         str(SHARED / "finglm" / "A-list-question.json"),
                         "--scope", str(SHARED / "finglm" / "A-list-txt-name.txt")], "", timeout=7200)
    a = re.search(r"first round\) ([\d.]+) M instructions a question; a round after the first ([\d.]+) M", out)
    out2 = run(checkout, [script, "questions", "--store", str(stores / "S"), *sets], "", timeout=7200)
    q = re.search(r"(\d+) questions, first pass ([\d.]+) M instructions a question; again ([\d.]+) M", out2)
    if a is None or q is None:
        raise SystemExit("bench_instructions.py printed no counts:\n" + out + out2)
    return {"A: round A, a fresh process, M instructions a question": float(a.group(1)),
            "A: round A, a round after the first, M instructions a question": float(a.group(2)),
            f"S: {q.group(1)} questions, first pass, M instructions a question": float(q.group(2)),
            f"S: {q.group(1)} questions, again, M instructions a question": float(q.group(3))}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, required=True, help="the checkout to compare against (a worktree)")
    ap.add_argument("--after", type=Path, default=ROOT, help="the checkout measured (default: this one)")
    ap.add_argument("--stores", type=Path, help="folder of the stores (before/A, before/S, after/A, after/S), "
                                                "built there when missing (default: a temporary folder)")
    ap.add_argument("--repeat", type=int, default=2, help="runs of each figure for each checkout, in turn (best kept)")
    ap.add_argument("--cpus", default="1", help="taskset -c list for (a) and (b) ('' : not pinned)")
    ap.add_argument("--serve-cpus", default="0,1", help="taskset -c list for (c): the server and its clients")
    ap.add_argument("--processes", type=int, help="fin-qa serve --processes (default: serve's own)")
    ap.add_argument("--seconds", type=float, default=5.0, help="seconds of each serve cell")
    ap.add_argument("--serve-kinds", nargs="+", default=["structured"], choices=["structured", "text", "images"])
    ap.add_argument("--sets", nargs="+", help="question sets of (b) (default: tests/data/{%s}.jsonl)" % ",".join(SETS))
    ap.add_argument("--shared", type=Path, help="the shared folder holding data/ (default: $FIN_QA_SHARED, else "
                                                "../shared beside this checkout)")
    ap.add_argument("--only", nargs="+", choices=["answer", "questions", "serve", "instructions"],
                    default=["answer", "questions", "serve"])
    args = ap.parse_args(argv)
    global SHARED
    if args.shared is not None:
        SHARED = args.shared.resolve() / "data"
    if not (SHARED / "finglm" / "A-list-question.json").is_file():
        print(f"no FinGLM round A under {SHARED} (--shared)", file=sys.stderr)
        return 2
    sides = {"before": args.before.resolve(), "after": args.after.resolve()}
    tmp = None
    if args.stores is None:
        tmp = tempfile.TemporaryDirectory(prefix="sidebyside-")
        args.stores = Path(tmp.name)
    for side, checkout in sides.items():
        build_stores(checkout, args.stores / side)
        write_bytecode(checkout / "fin_qa")
    sets = args.sets or [str(ROOT / "tests" / "data" / f"{s}.jsonl") for s in SETS]
    figures: dict[str, dict[str, float]] = {"before": {}, "after": {}}
    lower_better = ("ms", " s", "a question")

    def keep(side: str, got: dict[str, float]) -> None:
        for k, v in got.items():
            old = figures[side].get(k)
            better = min if k.endswith(lower_better) else max
            figures[side][k] = v if old is None else better(old, v)

    for i in range(args.repeat):
        order = list(sides.items()) if i % 2 == 0 else list(sides.items())[::-1]
        for side, checkout in order:
            store = args.stores / side
            if "answer" in args.only:
                keep(side, bench_answer(checkout, store / "A", args.cpus))
            if "questions" in args.only:
                keep(side, bench_questions(checkout, store / "S", sets, args.cpus))
            if "serve" in args.only:
                keep(side, bench_serve(checkout, store / "S", args.serve_cpus, args.seconds, args.serve_kinds,
                                       args.processes))
            if "instructions" in args.only and i == 0:
                keep(side, bench_instructions(checkout, store, sets))   # (a count: once is enough)
            print(f"  run {i + 1}/{args.repeat}, {side} done", file=sys.stderr, flush=True)
    print(f"before: {sides['before']}  after: {sides['after']}  (best of {args.repeat} alternate runs; "
          f"taskset -c {args.cpus or '-'}, serve {args.serve_cpus or '-'}, processes {args.processes or 'default'})")
    print()
    print("| figure | before | after | after/before |")
    print("|---|---|---|---|")
    for k in figures["after"]:
        b, a = figures["before"].get(k, float("nan")), figures["after"][k]
        ratio = (b / a if k.endswith(lower_better) else a / b) if a and b else float("nan")
        digits = 3 if k.endswith("a question") else 1   # (M instructions: 4.359, not 4.4)
        print(f"| {k} | {b:.{digits}f} | {a:.{digits}f} | {ratio:.2f}× |")
    print()
    print("(ratio: above 1 is the after checkout faster — for times and latencies, before/after)")
    if tmp:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
