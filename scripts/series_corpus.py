#!/usr/bin/env python3
"""Write the series-question set (tests/data/series_questions.jsonl) from a store's summary tables.

Each expected series is the 主要会计数据 row of a company's reports as the store read it — the latest
report's three columns (current, previous, previous2), and for a company with two reports two years
apart, the earlier report's columns too — never a fin-qa answer. The questions ask the series in words of
this script's own (近三年, 最近三个会计年度, a range written out, 历年, 每年, 变化趋势, 走势 …), a few items by
their common short names, and add the cases a series must not be answered as: a ranking across companies
over 近三年, and a trend of one year (both declined).

    python scripts/series_corpus.py --store SC [-o tests/data/series_questions.jsonl]

SC: the shared reports and the corpus (the store of tests/data/corpus_heldout.jsonl). A third of the
questions (by a hash of the question, not by how fin-qa does) is marked "split": "heldout" and never
tuned on; tests/data/series_heldout.jsonl is a set written by someone who never saw fin-qa's rules.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (item in the store, the words the questions use for it)
ITEMS = [
    ("营业收入", ["营业收入", "营收"]),
    ("归属于母公司所有者的净利润", ["归属于上市公司股东的净利润", "归母净利润"]),
    ("经营活动产生的现金流量净额", ["经营活动产生的现金流量净额", "经营活动现金流量净额"]),
    ("资产总计", ["总资产", "资产总额"]),
    ("基本每股收益", ["基本每股收益"]),
    ("加权平均净资产收益率", ["加权平均净资产收益率"]),
    ("归属于上市公司股东的扣除非经常性损益的净利润", ["扣非后归母净利润", "扣除非经常性损益后的净利润"]),
]

# {c} company, {w} item words, {a} {b} first and last year, {n} the number of years in Chinese
TEMPLATES = [
    "{c}近{n}年的{w}是多少？",
    "{c}最近{n}年{w}分别为多少",
    "请列出{c}过去{n}年的{w}",
    "{c}最近{n}个会计年度的{w}",
    "{c}{a}—{b}年的{w}",
    "{c}{a}年至{b}年{w}各是多少？",
    "{c}{a}-{b}年{w}的变化趋势如何？",
    "{c}近{n}年{w}的走势怎样",
    "{c}历年的{w}",
    "{c}每年的{w}是多少？",
    "{c}近{n}年{w}有什么变化？",
    "{c}在{a}到{b}年间的{w}",
]
CN = {2: "两", 3: "三", 4: "四", 5: "五"}
DECLINE = [
    "近三年{w}最高的公司是哪家？",
    "{c}{b}年{w}的变化趋势",
]


def facts(store: str) -> list[dict]:
    exe = Path(sys.executable).with_name("fin-qa")
    out = subprocess.run([str(exe) if exe.exists() else "fin-qa", "facts", "--store", store, "--json"],
                         capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


STATEMENTS = ("资产负债表", "利润表", "现金流量表")


def series_of(rows: list[dict]) -> dict[tuple[str, str], dict[int, str]]:
    """(company, item) → {year: value} from the summary tables' columns; a series whose summary value
    of a year differs from what a statement prints for it (a restated year: the summary's 调整前 column
    read) is left out — its expected value would be in doubt."""
    back = {"current": 0, "previous": 1, "previous2": 2}
    out: dict[tuple[str, str], dict[int, str]] = defaultdict(dict)
    printed: dict[tuple[str, str, int], set[float]] = defaultdict(set)
    for f in rows:
        if f["statement"] in STATEMENTS and f["period"] in back:
            printed[(f["short_name"], f["item"], int(f["year"]) - back[f["period"]])].add(float(f["value"]))
    doubtful: set[tuple[str, str]] = set()
    for f in rows:
        if f["statement"] != "主要会计数据" or f["period"] not in back:
            continue
        year = int(f["year"]) - back[f["period"]]
        said = printed.get((f["short_name"], f["item"], year))
        if said and all(abs(v - float(f["value"])) > 0.011 for v in said):
            doubtful.add((f["short_name"], f["item"]))
        value = f["value"] + ("%" if f["unit"] == "%" else "")
        out[(f["short_name"], f["item"])].setdefault(year, value)
    return {k: v for k, v in out.items() if k not in doubtful}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", required=True)
    ap.add_argument("-o", "--out", default=str(ROOT / "tests" / "data" / "series_questions.jsonl"))
    args = ap.parse_args()
    rows = facts(args.store)
    banks = {f["short_name"] for f in rows if f["item"] in ("吸收存款", "客户存款", "发放贷款和垫款")}
    latest: dict[str, int] = {}
    for f in rows:
        latest[f["short_name"]] = max(latest.get(f["short_name"], 0), int(f["year"]))
    series = series_of(rows)
    out: list[dict] = []
    n = 0
    for c, company in enumerate(sorted(latest)):
        if company in banks:
            continue
        last = latest[company]
        made = 0
        for k, (item, words) in enumerate(ITEMS[c % len(ITEMS):] + ITEMS[:c % len(ITEMS)]):
            values = series.get((company, item), {})
            years = [y for y in range(last - 4, last + 1) if y in values]
            run = [y for y in years if y > last - 5]
            span = 5 if len(run) == 5 else 3
            want = list(range(last - span + 1, last + 1))
            if not all(y in values for y in want) or made >= 4:
                continue
            n += 1
            template = TEMPLATES[(n * 7 + k) % len(TEMPLATES)]
            if span == 5 and "{n}" not in template:
                template = "{c}近{n}年的{w}是多少？"
            if "历年" in template or "每年" in template:
                # every year held: the latest report's three and any earlier one's
                want = sorted(values)
            word = words[n % len(words)]
            q = template.format(c=company, w=word, a=want[0], b=want[-1], n=CN[len(want)] if len(want) in CN else len(want))
            out.append({"question": q, "kind": "series", "expect": {"numbers": [values[y] for y in want]},
                        "note": f"{company} {item} {want[0]}-{want[-1]}: 主要会计数据 of the {last} report"
                                + (" and the earlier one" if want[0] < last - 2 else "")})
            made += 1
    for i, template in enumerate(DECLINE):
        for company, word in (("四方科技", "营业收入"), ("贵州茅台", "归母净利润"), ("宝信软件", "经营活动现金流量净额")):
            q = template.format(c=company, w=word, b=latest.get(company, 2019))
            out.append({"question": q, "kind": "series_decline", "expect": {"decline": True},
                        "note": "a series is no ranking across companies; a trend of one year is no series"})
    with open(args.out, "w", encoding="utf-8") as fh:
        for i, rec in enumerate(out, 1):
            split = "heldout" if int(hashlib.sha1(rec["question"].encode()).hexdigest(), 16) % 3 == 0 else "dev"
            fh.write(json.dumps({"id": f"sq{i:03d}", "question": rec["question"], "kind": rec["kind"], "split": split,
                                 "expect": rec["expect"], "note": rec["note"]}, ensure_ascii=False) + "\n")
    print(f"{len(out)} questions → {args.out}")


if __name__ == "__main__":
    main()
