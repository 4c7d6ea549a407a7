"""The fuzz campaign, run for longer than CI does: the strategies and checks of tests/fuzzing.py (the same
ones tests/test_fuzz.py runs) over each target in turn for its share of --minutes, with Hypothesis
generating (random seeds, no shrinking). Prints, per target, the inputs tried and the failures by kind,
with one example input of each kind; exits 1 when anything failed.

    python scripts/fuzz.py --minutes 30                 # all targets, 5 minutes each
    python scripts/fuzz.py --minutes 2 --target pdf     # one target
    python scripts/fuzz.py --minutes 30 --pdfs ../shared/data/reports   # real reports bit-flipped too

An input "fails" when fin-qa ends it in something other than an answer or a one-line message: a traceback
(any exception but FinQAError), a message of several lines, a time past the target's bound, a changed
store, lost or redone batch lines, text imported into a number column.
"""
from __future__ import annotations

import argparse
import collections
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402

import fuzzing as fz  # noqa: E402


class _TimeUp(Exception):
    pass


def run_target(ctx: fz.Context, name: str, seconds: float) -> tuple[int, collections.Counter, dict[str, str]]:
    tried = 0
    kinds: collections.Counter = collections.Counter()
    examples: dict[str, str] = {}
    end = time.monotonic() + seconds

    def record(value, check) -> None:
        nonlocal tried
        if time.monotonic() > end:
            raise _TimeUp
        tried += 1
        try:
            check()
        except fz.Failure as f:
            kinds[f.kind] += 1
            examples.setdefault(f.kind, f"{fz.describe(value)} → {f.detail[:200]}")

    strategy, check = fz.target(ctx, name)

    @settings(max_examples=10**9, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def go(value):
        record(value, lambda: check(value))

    while time.monotonic() < end:
        try:
            go()
        except _TimeUp:
            break
        except Exception as exc:   # Hypothesis itself gave up (e.g. an exhausted strategy): go again
            if time.monotonic() > end:
                break   # (the time-up replayed by Hypothesis as a failure: no finding)
            kinds[f"harness:{type(exc).__name__}"] += 1
            examples.setdefault(f"harness:{type(exc).__name__}", str(exc)[:200])
    return tried, kinds, examples


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=5.0, help="the whole campaign's time, shared by the targets")
    ap.add_argument("--target", action="append", choices=fz.TARGETS, help="only these targets (repeatable)")
    ap.add_argument("--pdfs", type=Path, default=None, help="a folder of real reports to mutate as well (4 of them)")
    ap.add_argument("--work", type=Path, default=None, help="scratch folder (default: a temporary one)")
    args = ap.parse_args()
    targets = args.target or fz.TARGETS
    pdfs = sorted(args.pdfs.glob("*.pdf"))[:4] if args.pdfs else []
    with tempfile.TemporaryDirectory(prefix="fin-qa-fuzz-") as tmp:
        ctx = fz.make_context(args.work or Path(tmp), pdfs)
        share = args.minutes * 60 / len(targets)
        rows = []
        t0 = time.perf_counter()
        for name in targets:
            tried, kinds, examples = run_target(ctx, name, share)
            rows.append((name, tried, kinds, examples))
            print(f"{name:14} {tried:8d} inputs  {sum(kinds.values()):5d} failures", file=sys.stderr, flush=True)
        ctx.store.close()
    total_s = time.perf_counter() - t0
    print(f"\nfuzz campaign: {args.minutes:g} minutes over {len(targets)} targets ({total_s:.0f} s)\n")
    print(f"{'target':14} {'inputs':>8} {'failures':>9}  by kind")
    for name, tried, kinds, _ in rows:
        by = ", ".join(f"{k} {n}" for k, n in kinds.most_common()) or "-"
        print(f"{name:14} {tried:8d} {sum(kinds.values()):9d}  {by}")
    failed = [(name, k, ex) for name, _, _, examples in rows for k, ex in examples.items()]
    if failed:
        print("\nan example of each kind:")
        for name, k, ex in failed:
            print(f"  {name} / {k}: {ex}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
