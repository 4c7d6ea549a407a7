#!/usr/bin/env python3
"""Follow-up question chains, asked in turn through the Python API (each question with the previous
answer as its context), and scored per turn. Prints each set's figure, and the turns that were not right.

    python scripts/eval_followups.py --store STORE tests/data/followups/chains.jsonl tests/data/followups/heldout.jsonl
    python scripts/eval_followups.py --store STORE tests/data/multi_company/heldout.jsonl

A chain file holds one chain a line: {"id", "companies"?, "turns": [{"q", "expect"}]}. An expectation is
- a text the answer must hold ("1,175,301,034.32", "19.79%");
- {"ask_which": [A, B]}: the answer must ask which of these companies is meant;
- {"value": "…", "unit": "元|千元|万元|百万元|亿元|%|人…"}: the answer's one value (Answer.value: a value
  read, a formula's result, a change's rate) must equal it — or, for an answer of several values, one
  of them (amounts compared in 元, to the cent; percentages and ratios to their printed decimals);
  "value": null: the answer must say it has no value;
- {"answers": [{…}, …], "higher"|"lower": NAME?}: each of them (and, for a comparison, NAME named as the
  higher or lower one);
- null: not scored (a chain's opening, asked for its context only).
followups/heldout.jsonl and multi_company/heldout.jsonl (questions naming two companies, one turn each) were
written by helpers that never saw the code: their figures are reported apart and never tuned on.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SCALE = {"元": 1, "千元": 1_000, "万元": 10_000, "百万元": 1_000_000, "亿元": 100_000_000}
_NUM = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def numbers(text: str) -> list[Decimal]:
    out = []
    for m in _NUM.finditer(text):
        try:
            out.append(Decimal(m.group(0).replace(",", "")))
        except InvalidOperation:
            pass
    return out


def right(expect: Any, ans: Any) -> bool:
    """Whether the answer meets the expectation (see the module's doc)."""
    if expect is None:
        return True
    if isinstance(expect, str):
        return expect in ans.answer
    if "ask_which" in expect:
        return bool(ans.ask_which) and set(ans.ask_which) == set(expect["ask_which"])
    if "answers" in expect:
        # a comparison asked ("谁的…更高"): its winner named before 更 in the answer's comparison
        winner = expect.get("higher") or expect.get("lower")
        if winner and not re.search(rf"（\d+）{re.escape(winner)}[^（]*?更", ans.answer):
            return False
        return all(right(e, ans) for e in expect["answers"])
    if expect.get("value") is None:
        return not ans.found
    if not ans.found:
        return False
    text = str(expect["value"]).replace(",", "").rstrip("%")
    want = Decimal(text)
    unit = expect.get("unit") or ""
    if ans.value is not None:   # the one value it gives (a value read, a formula's result, a change's rate)
        if (unit in SCALE) != ((ans.unit or "") in SCALE) or (unit == "%") != (ans.unit == "%"):
            return False   # (an amount for a rate, a rate for a ratio …)
        got = [Decimal(repr(ans.value)) * (SCALE[ans.unit] if unit in SCALE else 1)]
    elif sum(1 for e in ans.evidence if getattr(e, "value", None) is not None) > 1:
        got = numbers(ans.answer.split("计算公式")[0])   # several values (两年分别…): one of them
    else:
        return False   # found, but no value (a passage of text)
    if unit in SCALE:
        want_yuan = want * SCALE[unit]
        return any(abs(g - want_yuan) <= Decimal("0.01") * max(1, SCALE[unit] // 100) for g in got)
    places = -want.as_tuple().exponent if isinstance(want.as_tuple().exponent, int) else 2
    return any(round(g, places) == want for g in got)


def run(qa: Any, path: Path, show: bool, companies: set[str] | None = None) -> tuple[int, int, int, int]:
    """(chains, chains whose every turn is right, turns scored, turns right); with `companies`, only the
    chains whose `companies` (when the file names them) are all among them."""
    chains = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if companies is not None:
        chains = [c for c in chains if set(c.get("companies") or ()) <= companies]
    whole = scored = ok = 0
    for chain in chains:
        prev = None
        all_right = True
        for turn in chain["turns"]:
            ans = qa.ask(turn["q"], context=prev)
            prev = ans
            if turn["expect"] is None:
                continue
            scored += 1
            good = right(turn["expect"], ans)
            ok += good
            all_right &= good
            if not good and show:
                print(f"  {chain['id']}  {turn['q']}\n      got: {ans.answer[:160]}\n      want: {turn['expect']}")
        whole += all_right
    return len(chains), whole, scored, ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("chains", nargs="+", type=Path)
    ap.add_argument("--store", required=True)
    ap.add_argument("--quiet", action="store_true", help="figures only, not the turns that were not right")
    args = ap.parse_args()
    import fin_qa

    with fin_qa.open(args.store) as qa:
        for path in args.chains:
            n, whole, scored, ok = run(qa, path, not args.quiet)
            print(f"{path.name:<28} {n} chains: {whole} right throughout; {ok}/{scored} turns right "
                  f"({100 * ok / max(1, scored):.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
