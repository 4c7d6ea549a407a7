#!/usr/bin/env python3
"""Known-answer questions asked with harmless words added, and the kind of a ratio or share asked.

    python scripts/filler_corpus.py --store STORE -o tests/data/filler_paraphrases.jsonl

Part one: every single-value question of tests/data/paraphrases.jsonl (a company's value, a period, a
change, a unit …; the filter questions over the imported tables left out), asked again with one to three
phrases that say how it is asked and not what — a request before it (请问, 麻烦帮我查一下), a verb of
saying or the report itself before the item (年报里记载的, 财报上显示的), a time word after the year
(那一年, 当时), a tail (谢谢) — drawn from two disjoint phrase lists: `dev` (looked at while building) and
`heldout` (never tuned on; its figure is reported apart). The expected answer is the source question's.

Part two, the kind cases: two statement values of a report (STORE's facts read from the PDFs, both checked
by the report's identities) asked as a plain ratio (比值, 之比, 是…的多少倍 → "2.85") and as a share
(占…的比例/比重/占比 → "4.12%"; a share the report prints itself may differ from the computed one by a
rounding step: 36.73% or 36.74%), computed here with decimal (ROUND_HALF_UP), with and without filler.

Each line: {"id", "question", "slot", "split", "expect", "note"}; scored by scripts/eval_paraphrases.py.
The output is deterministic.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import sqlite3
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# how a question is asked, by kind; the dev and held-out phrases never overlap
PHRASES = {
    "dev": {
        "request": ["请问", "麻烦帮我查一下，", "我想知道", "帮我看看", "麻烦告诉我"],
        "said": ["年报里记载的", "财报上显示的", "报告中披露的", "年报中列示的"],
        "time": ["那一年", "当时"],
        "tail": ["，谢谢", "？谢谢！"],
    },
    "heldout": {
        "request": ["劳驾问一下，", "我想了解一下", "烦请告知", "能不能告诉我"],
        "said": ["年度报告里面写的", "年报上提到的", "财报中所列的"],
        "time": ["在那年", "那时候"],
        "tail": ["，多谢", "，感谢！"],
    },
}
# after a year's 年, a character that is part of the period or the report (2019年末, 2019年度, 2019年报)
_PERIOD_AFTER_YEAR = re.compile(r"(?:19|20)\d\d年(?![末初底度报内中同以来])")
_ASKING = re.compile(r"请|麻烦|我想|帮|劳驾|烦请|能不能|能否")
_END = re.compile(r"[？?。！!]*$")


def fillers(question: str, rng: random.Random, phrases: dict[str, list[str]]) -> tuple[str, list[str]] | None:
    """The question with one to three phrases added at the places each kind goes; None if none fits."""
    kinds = ["request", "said", "time", "tail"]
    rng.shuffle(kinds)
    want = rng.choice([1, 2, 2, 3])
    added: list[str] = []
    q = question
    for kind in kinds:
        if len(added) >= want:
            break
        p = rng.choice(phrases[kind])
        if kind == "request":
            if _ASKING.match(q):
                continue   # (a question asking already: not 请问请问)
            q = p + q
        elif kind == "tail":
            q = _END.sub("", q) + p
        else:
            m = _PERIOD_AFTER_YEAR.search(q)
            if m is None or "年报" in q[m.end():m.end() + 3]:
                continue
            rest = q[m.end():]
            if kind == "said":
                if rest.startswith("的"):
                    rest = rest[1:]
                q = q[:m.end()] + p + rest
            else:
                q = q[:m.end()] + p + ("" if rest.startswith("的") else "的") + rest
        added.append(p)
    return (q, added) if added else None


def part_one(rng: random.Random) -> list[dict]:
    src = [json.loads(line) for line in (ROOT / "tests" / "data" / "paraphrases.jsonl").read_text(encoding="utf-8")
           .splitlines() if line.strip()]
    out = []
    for i, s in enumerate(x for x in src if not x["slot"].startswith("filter/")):
        split = "heldout" if i % 3 == 2 else "dev"
        made = fillers(s["question"], rng, PHRASES[split])
        if made is None:
            continue
        q, added = made
        out.append({"question": q, "slot": "filler/" + s["slot"].split("/")[0], "split": split,
                    "expect": s["expect"], "note": f"{s['id']} + {' + '.join(added)}: {s['note']}"})
    return out


PAIRS = [
    # (numerator, denominator, how the question names each)
    ("经营活动产生的现金流量净额", "净利润", "经营活动现金流量净额", "净利润"),
    ("营业收入", "营业成本", "营业收入", "营业成本"),
    ("流动资产合计", "流动负债合计", "流动资产", "流动负债"),
    ("货币资金", "短期借款", "货币资金", "短期借款"),
    ("销售费用", "管理费用", "销售费用", "管理费用"),
]
SHARES = [
    ("研发费用", "营业收入", "研发费用", "营收"),
    ("销售费用", "营业收入", "销售费用", "营业收入"),
    ("货币资金", "资产总计", "货币资金", "总资产"),
    ("净利润", "营业收入", "净利润", "营业收入"),
    ("负债合计", "资产总计", "总负债", "资产总计"),
]
RATIO_ASKS = ["{co}{Y}年{a}与{b}的比值是多少？", "{co}{Y}年{a}和{b}之比为多少？", "{co}{Y}年{a}是{b}的多少倍？",
              "{Y}年{co}的{a}相当于{b}的几倍？"]
SHARE_ASKS = ["{co}{Y}年{a}占{b}的比例是多少？", "{co}{Y}年{a}占{b}的比重为多少？", "{Y}年{co}{a}在{b}中的占比是多少？"]


def part_two(store: Path, rng: random.Random) -> list[dict]:
    db = sqlite3.connect(f"file:{store / 'fin_qa.sqlite'}?mode=ro", uri=True)
    reports = db.execute("SELECT id, year, short_name FROM reports ORDER BY key").fetchall()
    out = []
    for rid, year, short in reports:
        facts = {item: Decimal(str(v)) for item, v in db.execute(
            "SELECT item, value FROM facts WHERE report_id = ? AND period = 'current' AND source IN ('pdf', 'txt') "
            "AND statement IN ('资产负债表', '利润表', '现金流量表')", (rid,)) if v is not None}
        for kind, pairs, asks in (("ratio", PAIRS, RATIO_ASKS), ("share", SHARES, SHARE_ASKS)):
            for a, b, la, lb in pairs:
                if a not in facts or b not in facts or facts[b] == 0:
                    continue
                value = facts[a] / facts[b]
                want = (value * 100 if kind == "share" else value).quantize(Decimal("0.01"), ROUND_HALF_UP)
                if kind == "share":
                    # a share the report prints itself (资产及负债状况: 占总资产的比例) was computed there from
                    # its own rounding: one step either way is the same share
                    step = Decimal("0.01")
                    expect: str | list[str] = [f"{want}%", f"{want - step}%", f"{want + step}%"]
                else:
                    expect = f"{want}"
                ask = rng.choice(asks)
                q = ask.format(co=short, Y=year, a=la, b=lb)
                split = "heldout" if rng.random() < 1 / 3 else "dev"
                note = f"{short} {year}: {a} {facts[a]} / {b} {facts[b]}"
                out.append({"question": q, "slot": f"kind/{kind}", "split": split,
                            "expect": {"numbers": [expect]}, "note": note})
                made = fillers(q, rng, PHRASES[split])
                if made is not None:
                    out.append({"question": made[0], "slot": f"kind/{kind}+filler", "split": split,
                                "expect": {"numbers": [expect]}, "note": note + " + " + " + ".join(made[1])})
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", type=Path, required=True, help="a store of ../shared/data/reports and reports_more")
    ap.add_argument("-o", "--output", type=Path, required=True)
    args = ap.parse_args(argv)
    rng = random.Random(20261127)
    rows = part_one(rng) + part_two(args.store, rng)
    with args.output.open("w", encoding="utf-8") as f:
        for i, r in enumerate(rows, 1):
            f.write(json.dumps({"id": f"l{i:04d}", **r}, ensure_ascii=False) + "\n")
    print(f"{len(rows)} questions → {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
