#!/usr/bin/env python3
"""Score fin-qa on a set of conversations (tests/data/conversations/*.jsonl: 编号, 问题类型, 问题 = turns, expect =
per turn {numbers, text, ask_back, decline}, split): each turn answered in the context of the ones before it
(fin_qa/conversations.py), then judged per turn —
- right: every expected number (`numbers` a list of numbers: each of them — an element that is itself a list among
  numbers: any one of it; a list of lists only: every number of one of those alternatives; commas and spaces removed, compared by value, a sign optional) and every expected text
  in the answer; ask_back: the answer asks back (a question, no figure of the item); decline: the answer says it has no value;
- declined: the engine said it cannot answer where a value was expected (an answer not found);
- partly: an expected figure, but not every one expected (a value without its change) or not the text;
- wrong: everything else (a figure that is not the expected one, an answer where none exists).
Prints a table per 问题类型 and split, and the wrong turns with --show-wrong. Always exits 0: a measurement.

    python scripts/eval_conversations.py --store STORE tests/data/conversations/teddy_heldout.jsonl [--show-wrong 20]
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from decimal import Decimal, InvalidOperation
from pathlib import Path

_NUM = re.compile(r"-?\d+(?:\.\d+)?")
_DECLINED = ("not_found", "declined", "bad_input", "ask_year", "ask_which", "ask_period")


def numbers_in(text: str) -> list[Decimal]:
    out = []
    for m in _NUM.finditer(text.replace(",", "")):   # (a space parts two numbers of a quoted row)
        try:
            out.append(Decimal(m.group(0)))
        except InvalidOperation:
            pass
    return out


def has_number(text: str, want: str) -> bool:
    try:
        w = Decimal(want.replace(",", ""))
    except InvalidOperation:
        return want in text
    got = numbers_in(text)
    return any(g == w or abs(g) == abs(w) for g in got)


def judge(answer: str, method: str, found: bool, expect: dict) -> str:
    """The verdict of one turn (found: the answer gives a value — all asked, or a part of it)."""
    if expect.get("ask_back"):
        return "right" if ("请问" in answer or "哪一" in answer or "？" in answer[:80]) and not found else "wrong"
    if expect.get("decline"):
        return "right" if not found else "wrong"
    nums = expect.get("numbers") or []
    alternatives = nums if nums and all(isinstance(n, list) for n in nums) else [nums]
    # (within one: a number, or a list of numbers any one of which will do — one figure in several units)
    hits = [sum(any(has_number(answer, x) for x in n) if isinstance(n, list) else has_number(answer, n) for n in alt)
            for alt in alternatives]
    texts = all(t in answer for t in expect.get("text") or [])
    if any(h == len(alt) for h, alt in zip(hits, alternatives)) and texts:
        return "right"
    if not found or method in _DECLINED or "未查询到" in answer or "无法回答" in answer:
        return "declined"
    if any(hits):   # the expected figure, without all the rest asked (its change, the word 亏损)
        return "partly"
    return "wrong"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", required=True)
    ap.add_argument("sets", nargs="+")
    ap.add_argument("--show-wrong", type=int, default=0)
    ap.add_argument("--show-declined", type=int, default=0, help="print this many turns declined (or partly)")
    args = ap.parse_args(argv)
    from fin_qa.answer.followup import Context
    from fin_qa.answer.facts import FactSource
    from fin_qa.answer.router import Router
    from fin_qa.catalog import Catalog
    from fin_qa.store import Store

    router = Router(FactSource(Store(args.store, create=False, readonly=True)), Catalog.shipped())
    table: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    wrong = []
    declined = []
    for path in args.sets:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            conv = json.loads(line)
            context = None
            for n, (turn, expect) in enumerate(zip(conv["问题"], conv["expect"]), 1):
                ans = router.follow(turn["Q"], context)
                context = Context.from_dict(ans.record())
                verdict = judge(ans.answer, str(ans.method), ans.answered, expect)
                for key in ((conv["问题类型"], conv.get("split", "")), ("total", conv.get("split", "")), ("total", "")):
                    table[key][verdict] += 1
                    table[key]["turns"] += 1
                if verdict == "wrong":
                    wrong.append((conv["编号"], n, turn["Q"], ans.answer[:200], expect))
                elif verdict in ("declined", "partly"):
                    declined.append((conv["编号"], n, turn["Q"], ans.answer[:200], expect))
    print(f"{'kind':<14}{'split':<9}{'turns':>6}{'right':>7}{'partly':>7}{'declined':>9}{'wrong':>7}")
    for (kind, split), c in sorted(table.items(), key=lambda kv: (kv[0][0] == "total", kv[0])):
        print(f"{kind:<14}{split or 'all':<9}{c['turns']:>6}{c['right']:>7}{c['partly']:>7}{c['declined']:>9}"
              f"{c['wrong']:>7}")
    for w in wrong[:args.show_wrong]:
        print("WRONG", *w, sep="\n  ")
    for w in declined[:args.show_declined]:
        print("DECLINED", *w, sep="\n  ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
