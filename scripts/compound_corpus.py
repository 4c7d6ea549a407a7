#!/usr/bin/env python3
"""Write the compound-question set (tests/data/compound_questions.jsonl) from values read off the PDFs.

Every expected value here comes from the notes of the single-question sets in tests/data (written from
the reports' pages by hand, before this engine answered them: "四方科技 2019 (603339:2019), 资产总计,
previous = 2051223456.86") or from their own expectations; growth rates, shares and which of two is
higher are computed here from those values, never from fin-qa's answers. The questions combine two to
four asks of every kind (value lists, value + growth, back-references, clarifying brackets, which is
higher, a share of the value before, and joins of table, disclosure and yes/no questions with value
questions), over every shared report.

    python scripts/compound_corpus.py [-o tests/data/compound_questions.jsonl]

A third of the questions (chosen by a hash of the question, not by how fin-qa does) is marked
`"split": "heldout"`: those are never looked at while tuning, and scripts/eval_paraphrases.py reports them
apart.
"""
from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import random
import re
from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
HEAD = re.compile(r"^(?P<co>\S+) (?P<year>\d{4}) \((?P<key>[^)]+)\)")
BS_SLOTS = ("period/opening", "period/prev_year_end", "period/year_end", "change/amount_bs", "change/rate_bs",
            "multi_year/bs")
FLOW_SLOTS = ("period/prev_year", "period/prev_rel", "period/current", "change/amount_flow", "change/rate_flow",
              "multi_year/flow")
NUM = r"(-?\d+(?:\.\d+)?)"


def facts_from_notes() -> tuple[dict, dict]:
    """{(company, year): {item: {"current": Decimal, "previous": Decimal}}} and {item: "bs" | "flow"}."""
    facts: dict = defaultdict(lambda: defaultdict(dict))
    kind: dict[str, str] = {}
    for line in (DATA / "paraphrases.jsonl").read_text(encoding="utf-8").splitlines():
        q = json.loads(line)
        note, slot = q.get("note", ""), q.get("slot", "")
        head = HEAD.match(note)
        if not head or slot.startswith(("filter", "scope", "compound", "company/employees")):
            continue
        key = (head["co"], int(head["year"]))
        rest = note[head.end():].lstrip(", ")
        rest = re.sub(r"^as \S+, ", "", rest)
        m = re.match(r"(?P<item>[^,]+), (?P<body>.*)$", rest)
        if not m:
            continue
        item, body = m["item"], m["body"]
        got = {}
        if (x := re.match(rf"(current|previous) = {NUM}$", body)):
            got[x[1]] = x[2]
        elif (x := re.match(rf"previous {NUM} \(\d+\), current {NUM} \(\d+\)$", body)):
            got = {"previous": x[1], "current": x[2]}
        elif (x := re.match(rf"{NUM} - {NUM}$", body)):
            got = {"current": x[1], "previous": x[2]}
        elif (x := re.match(rf"\({NUM} - {NUM}\) / {NUM} \* 100$", body)):
            got = {"current": x[1], "previous": x[2]}
        elif (x := re.match(rf"current {NUM} / \d+ ->", body)):
            got = {"current": x[1]}
        for period, value in got.items():
            facts[key][item][period] = Decimal(value)
        if slot in BS_SLOTS:
            kind[item] = "bs"
        elif slot in FLOW_SLOTS:
            kind.setdefault(item, "flow")
    return facts, kind


def money(d: Decimal) -> str:
    return str(d.quantize(Decimal("0.01")))


def pct(d: Decimal) -> str:
    return str(d.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)) + "%"


def growth(cur: Decimal, prev: Decimal) -> str | None:
    if prev <= 0:
        return None
    return pct((cur - prev) / prev * 100)


def generated(facts: dict, kind: dict, rng: random.Random) -> list[dict]:
    out: list[dict] = []

    def add(family: str, question: str, numbers: list, text: list | None = None, note: str = ""):
        expect: dict = {"numbers": numbers}
        if text:
            expect["text"] = text
        out.append({"question": question, "kind": family, "expect": expect, "note": note})

    for (co, year), items in sorted(facts.items()):
        cur = {i: v["current"] for i, v in items.items() if "current" in v}
        both = {i: v for i, v in items.items() if "current" in v and "previous" in v}
        names = sorted(cur)
        rng.shuffle(names)
        # value lists: "A和B分别是多少？", "A、B和C各是多少？"
        for a, b in list(zip(names[::2], names[1::2]))[:4]:
            add("list", f"{co}{year}年的{a}和{b}分别是多少？", [money(cur[a]), money(cur[b])])
        for a, b, c in list(zip(names[::3], names[1::3], names[2::3]))[:2]:
            add("list", f"{co}{year}年{a}、{b}和{c}各是多少元？", [money(cur[a]), money(cur[b]), money(cur[c])])
        # which is higher / lower
        pairs = [(a, b) for a, b in zip(names[1::2], names[2::2]) if cur[a] != cur[b]][:4]
        for n, (a, b) in enumerate(pairs):
            order, pick = ("更高", max) if n % 2 == 0 else ("更低", min)
            winner = pick((a, b), key=lambda i: cur[i])
            ask = rng.choice(["哪一项", "哪个", "哪项"])
            add("list+compare", f"{co}{year}年{a}和{b}分别是多少？{ask}{order}？", [money(cur[a]), money(cur[b])],
                [f"{winner}{order}"])
        # value + growth, one item and two; 同比 for flows, 较年初 for balances
        grown = [i for i in sorted(both) if growth(both[i]["current"], both[i]["previous"]) is not None]
        rng.shuffle(grown)
        for i in grown[:4]:
            g = growth(both[i]["current"], both[i]["previous"])
            c = money(both[i]["current"])
            if kind.get(i) == "bs":
                add("value+growth", f"{co}{year}年末{i}是多少？较年初增长了百分之几？", [c, g])
                add("value+bracket", f"{co}{year}年末{i}是多少？年初（即{year - 1}年末）呢？",
                    [c, money(both[i]["previous"])])
            else:
                add("value+growth", f"{co}{year}年{i}是多少？同比增长了多少？", [c, g])
                add("value+reference", f"{co}{year}年的{i}是多少？其同比增长率是多少？", [c, g])
        flows = [i for i in grown if kind.get(i) != "bs"]
        for a, b in list(zip(flows[::2], flows[1::2]))[:3]:
            ga = growth(both[a]["current"], both[a]["previous"])
            gb = growth(both[b]["current"], both[b]["previous"])
            add("list+growth", f"{co}{year}年的{a}和{b}分别是多少？同比分别增长了多少？",
                [money(both[a]["current"]), money(both[b]["current"]), ga, gb])
        # a share of the value before
        if "营业收入" in cur and cur["营业收入"] > 0:
            for i in [x for x in names if x != "营业收入" and kind.get(x) == "flow" and cur[x] > 0][:3]:
                add("value+share", f"{co}{year}年{i}是多少？占营业收入的比重是多少？",
                    [money(cur[i]), pct(cur[i] / cur["营业收入"] * 100)])
    return out


_PREFIX = re.compile(r"^(?:请问|根据)?[，,]?(?P<co>[^0-9，,。？?]{2,20}?)(?:在)?(?P<year>\d{4})年(?:度)?(?:年报中|报告期内)?[，,]?(?:的)?")


def joined(rng: random.Random) -> list[dict]:
    """Two or three verified single questions of one report as one question: the later ones without
    their company and year (the context carries them)."""
    by_report: dict = defaultdict(list)
    sources = ["paraphrases.jsonl", "table_questions.jsonl", "table_questions_dev2.jsonl",
               "table_questions_dev3.jsonl"]
    for name in sources:
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            q = json.loads(line)
            slot = q.get("slot") or q.get("kind", "")
            if str(slot).startswith(("filter", "scope", "company", "year", "multi_year")) or q["expect"].get("decline"):
                continue
            if q.get("split") == "heldout":
                continue   # the single sets' never-tuned parts stay so
            m = _PREFIX.match(q["question"])
            if not m or "？" not in q["question"][-1:] + "？":
                continue
            head = HEAD.match(q.get("note", ""))
            report = (head["co"], head["year"]) if head else (m["co"], m["year"])
            by_report[(report[0] if head else m["co"], m["year"])].append((q, m))
    out: list[dict] = []
    joins = ["", "", "另外，", "还有，", "同时，"]
    for (co, year), qs in sorted(by_report.items()):
        rng.shuffle(qs)
        for n in (2, 2, 3, 2, 3, 2, 2, 3, 4):
            if len(qs) < n:
                break
            group, qs = qs[:n], qs[n:]
            first = group[0][0]["question"].rstrip("？?。") + "？"
            parts = [first]
            for q, m in group[1:]:
                rest = q["question"][m.end():].lstrip("，,的").rstrip("？?。")
                if rest[:1] in "末初底":   # "2019年末…": the period word keeps its year
                    rest = f"{m['year']}年{rest}"
                if not rest:
                    break
                parts.append(rng.choice(joins) + rest + "？")
            if len(parts) != n:
                continue
            numbers = [x for q, _ in group for x in q["expect"].get("numbers", [])]
            text = [x for q, _ in group for x in q["expect"].get("text", []) + q["expect"].get("names", [])]
            kinds = "+".join(str(q.get("slot") or q.get("kind")).split("/")[0] for q, _ in group)
            expect: dict = {"numbers": numbers}
            if text:
                expect["text"] = text
            out.append({"question": "".join(parts), "kind": f"join:{kinds}", "expect": expect,
                        "note": " | ".join(q["id"] for q, _ in group)})
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--output", type=Path, default=DATA / "compound_questions.jsonl")
    args = ap.parse_args()
    rng = random.Random(23)
    facts, kind = facts_from_notes()
    rows = generated(facts, kind, rng) + joined(rng)
    seen = set()
    lines = []
    for n, r in enumerate(r for r in rows if not (r["question"] in seen or seen.add(r["question"]))):
        digest = int(hashlib.sha1(r["question"].encode("utf-8")).hexdigest(), 16)
        r = {"id": f"c{n + 1:03d}", "question": r["question"], "kind": r["kind"],
             "split": "heldout" if digest % 3 == 0 else "dev", "expect": r["expect"], "note": r["note"]}
        lines.append(json.dumps(r, ensure_ascii=False))
    args.output.write_text("\n".join(lines) + "\n", encoding="utf-8")
    by_kind: dict[str, int] = defaultdict(int)
    for l in lines:
        by_kind[json.loads(l)["kind"].split(":")[0]] += 1
    print(f"{len(lines)} questions → {args.output}: " + ", ".join(f"{k} {v}" for k, v in sorted(by_kind.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
