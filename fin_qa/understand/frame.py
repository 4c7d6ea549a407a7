"""The question frame: what a value question asks beyond its company, year and items, read with the
cues of rules/understanding.yaml `frame:` — and the words it could not use.

Slots: scope (合并 default | 母公司), period (opening 期初/年初/上年末, closing 期末/年末/12月31日, previous
上年/去年/上年同期, current 本期/本年), operation (value | change | growth | sum | difference | average |
share | spelled), the base of a change (期初 or 上年 — both the previous-period column), the unit asked
(万/亿/千/百万 元), 约, decimals (保留N位, 精确到0.01), each year on its own (分别), and a formula the
question spells out ("用归母净利润除以期末归属于母公司所有者权益来算") with its numerator and denominator
items.

Every slot marks the characters it used. The words of the question that no slot (nor a company, a
year, an item or formula name) used are then searched for the meaning-bearing cues of `frame.cues`;
each one found is an unused cue: the answerers decline rather than answer as if it were absent.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..catalog.frame_rules import FrameRules
from ..numbers import cn_number
from .. import prefilter

USED = "#"   # a used character of the working copy of the question


@dataclass
class Frame:
    scope: str = "consolidated"          # consolidated | parent
    scope_word: str = ""
    period: str | None = None            # opening | closing | previous | current | None (not said)
    period_word: str = ""
    operation: str = "value"             # value | change | growth | times | sum | difference | average | share | spelled
    operation_word: str = ""
    base_word: str = ""                  # what a change is measured against (较年初, 同比 …)
    unit: str | None = None              # scale asked: "" (元), 万, 亿, 千, 百万, 千万; None: not said
    approx: bool = False
    decimals: int | None = None
    each_year: str = ""                  # 分别 / 各年 / 每年: every year asked on its own (the words)
    trend: str = ""                      # 变化趋势 / 走势: how a series moves (the words)
    series: dict[str, Any] | None = None   # a series asked: kind (recent | every | range), n, word (Understanding)
    spelled: tuple[list[str], list[str]] | None = None   # (numerator items, denominator items)
    spelled_text: str = ""
    unused: list[tuple[str, str]] = field(default_factory=list)   # (slot, word) no slot used

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"scope": self.scope, "operation": self.operation}
        for key in ("period", "unit", "decimals", "spelled_text"):
            if getattr(self, key) not in (None, ""):
                out[key] = getattr(self, key)
        if self.approx:
            out["approx"] = True
        if self.each_year:
            out["each_year"] = True
        if self.series:
            out["series"] = dict(self.series)
        if self.base_word:
            out["base"] = self.base_word
        if self.unused:
            out["unused"] = [w for _, w in self.unused]
        return out


CURRENCY = "人民币"   # written before a unit asked: the unit's own word


def mask(text: str, start: int, end: int) -> str:
    return text[:start] + USED * (end - start) + text[end:]


def take(text: str, rx: re.Pattern) -> tuple[str, list[re.Match]]:
    """Every match of rx over the unused characters, marked as used."""
    if prefilter.search(rx, text) is None:
        return text, []   # (most rules read nothing in a question: its needles, or one search, say so)
    found = [m for m in rx.finditer(text) if m.group(0) and USED not in m.group(0)]
    for m in found:
        text = mask(text, m.start(), m.end())
    return text, found


@lru_cache(maxsize=4096)
def _phrase_rx(phrase: str) -> re.Pattern:
    """A keyword phrase as found in a question: 的 allowed between its characters (kept per phrase: re's own
    cache of 512 patterns is shared with every other pattern)."""
    return re.compile("的?".join(re.escape(c) for c in phrase))


def mask_phrase(text: str, phrase: str) -> str:
    """Mark the first unused occurrence of a keyword phrase (found with 的 removed) as used."""
    if not phrase:
        return text
    for m in _phrase_rx(phrase).finditer(text):
        if USED not in m.group(0):
            return mask(text, m.start(), m.end())
    return text


def read_years_more(q: str, rules: FrameRules) -> list[tuple[int, int, int]]:
    """(year, start, end) written as 19年 or 二〇一九年."""
    out = []
    for m in rules.year_short.finditer(q):
        out.append((2000 + int(m.group(1)), m.start(), m.end()))
    for m in rules.year_chinese.finditer(q):
        digits = "".join(str(int(cn_number(c) or 0)) if c not in "〇零" else "0" for c in m.group(1))
        if digits.isdigit():
            out.append((int(digits), m.start(), m.end()))
    return out


def read_frame(rest: str, norm: str, rules: FrameRules, operands: int, years: int,
               unit_rx: re.Pattern | None, decimals_rx: list[re.Pattern]) -> tuple[Frame, str]:
    """The frame of a question. `rest` is the question with companies, years and item/formula names
    already marked used; `operands` is how many items/compound items it names, `years` how many years.
    Returns the frame and `rest` with every slot's words marked."""
    f = Frame()
    # scope first: 母公司 outside item names (those are marked already)
    said: dict[str, str] = {}
    for scope, rx in rules.scope:
        rest, found = take(rest, rx)
        if found:
            said[scope] = found[0].group(0)
        if found and (scope == "parent" or not f.scope_word):
            f.scope, f.scope_word = scope, found[0].group(0)
    if len(said) > 1:
        # 合并报表和母公司报表的…: two scopes at once, not one value
        f.unused.append(("scope", said["consolidated"]))
    # the unit asked, 约, decimals
    for rx in [r for r in (unit_rx, rules.unit_more, rules.unit_bare) if r is not None]:
        for m in prefilter.finditer(rx, rest):
            if USED in m.group(0):
                continue
            if f.unit is None:
                f.unit = m.group(1) or ""
            # only the unit is used: "精确到0.01亿元" keeps its step for decimals_step; its currency written
            # right before it is the unit's ("用人民币亿元", "（人民币百万元）")
            start = m.start(1) if m.group(1) else m.end() - 1
            if rest.endswith(CURRENCY, 0, start):
                start -= len(CURRENCY)
            rest = mask(rest, start, max(m.end(), m.end(1)))
    rest, found = take(rest, rules.decimals_step)
    if found:
        f.decimals = len(found[0].group(1)) + 1
    rest, found = take(rest, rules.integer)
    if found:
        f.decimals = 0
    for rx in decimals_rx:
        d = prefilter.search(rx, norm)
        if d and f.decimals is None:
            n = cn_number(d.group(1))
            f.decimals = int(n) if n is not None else None
        rest, _ = take(rest, rx)
    rest, found = take(rest, rules.approx)
    f.approx = bool(found)
    # (分别 right after a base — "跟年初比分别是多少" — asks the comparison's two values: compared_how's, no year's)
    after_base = {b.end() for b in prefilter.finditer(rules.base, rest)}
    found = [m for m in prefilter.finditer(rules.each_year, rest)
             if m.group(0) and USED not in m.group(0) and m.start() not in after_base]
    for m in found:
        rest = mask(rest, m.start(), m.end())
    f.each_year = found[0].group(0) if found else ""
    rest, found = take(rest, rules.trend)
    f.trend = found[0].group(0) if found else ""
    # operations: a change against a base (期初, 上年, 同比), or over two operands
    ops = rules.operations
    base = [m for m in prefilter.finditer(rules.base, rest) if USED not in m.group(0)]
    if years >= 2:   # (年均复合增长率 over the years asked: read before its 增长率 is taken for a growth)
        rest, found = take(rest, ops["cagr"])
        if found:
            f.operation, f.operation_word = "cagr", found[0].group(0)
    for op in ("growth", "change"):
        rest, found = take(rest, ops[op])
        if found and f.operation == "value":
            f.operation, f.operation_word = op, found[0].group(0)
    if f.operation == "value":
        for op, rx in (("change", ops["verb_amount"]), ("growth", ops["verb_rate"])):
            v = next((x for x in prefilter.finditer(rx, rest) if USED not in x.group(0)), None)
            if v is None or not (base or years >= 2 or v.group(0).endswith(("多少", "几"))):
                continue
            amount = ops["amount_words"].match(rest[v.end():])
            f.operation = "change" if amount or op == "change" else "growth"
            f.operation_word = v.group(0)
            rest = mask(rest, v.start(), v.end() + (amount.end() if amount else 0))
            break
    if f.operation == "value":
        # "和上年末比怎么样": how the value compares with a base is its change
        how = next((h for b in base for h in [ops["compared_how"].match(rest, b.end())]
                    if h is not None and h.group(0).strip() and USED not in h.group(0)), None)
        if how is not None:
            f.operation, f.operation_word = "change", how.group(0).strip()
            rest = mask(rest, how.start(), how.end())
    if f.operation in ("change", "growth") and base:
        f.base_word = base[0].group(0)
        for b in base:
            rest = mask(rest, b.start(), b.end())
    if f.operation in ("change", "growth"):
        # the amount and the rate of a change are both printed: the other's words are read too ("增加了多少、
        # 增幅多大", "减少了多少金额、多大比例")
        for rx in (ops["verb_amount"], ops["verb_rate"]):
            rest, _ = take(rest, rx)
        rest, _ = take(rest, ops["amount_words"])
        rest, _ = take(rest, ops["rate_words"])
    elif operands >= 2:
        for op in ("difference", "sum"):
            rest, found = take(rest, ops[op])
            if found and f.operation == "value":
                f.operation, f.operation_word = op, found[0].group(0)
    elif (base or years == 2) and f.operation == "value":
        # 较年初 / 同比 / two years with a difference word and one item (与2018年相比差多少): the change; with 几倍
        # ("2024年扣非是2023年的几倍", "是上年的多少倍"): the multiple
        rest, found = take(rest, ops["difference"])
        if not found:
            rest, found = take(rest, ops["times"])
            if found:
                f.operation, f.operation_word = "times", found[0].group(0)
                f.base_word = base[0].group(0) if base else ""
                for b in base:
                    rest = mask(rest, b.start(), b.end())
                found = []
        if found:
            f.operation, f.operation_word = "change", found[0].group(0)
            f.base_word = base[0].group(0) if base else ""
            for b in base:
                rest = mask(rest, b.start(), b.end())
    if f.operation == "value" and operands == 1:
        # 一共 / 合计 over one item is the item itself; over the years asked, their total
        rest, found = take(rest, ops["sum"])
        if found and years >= 2:
            f.operation, f.operation_word = "sum", found[0].group(0)
    if f.operation == "value":
        # over the years asked (a company) or over the companies (statistics); one year of one company: unused
        rest, found = take(rest, ops["average"])
        if found:
            f.operation, f.operation_word = "average", found[0].group(0)
    if f.operation == "value" and operands == 1:
        # "是上年的几倍": the multiple of the year before's value (the relative word its base)
        t = next((x for x in prefilter.finditer(ops["times"], rest) if x.group(0).startswith("是")
                  and USED not in x.group(0)), None)
        if t is not None:
            f.operation, f.operation_word = "times", t.group(0)
            f.base_word = t.group(0)[1:t.group(0).index("的")]
            rest = mask(rest, t.start(), t.end())
    rest, found = take(rest, rules.relative)
    f.unused += [("operation", m.group(0)) for m in found]
    rest, _ = take(rest, rules.restated)
    # the period asked; a base (较年初) is not a period
    for period, rx in rules.periods:
        rest, found = take(rest, rx)
        for m in found:
            if m.start() > 0 and rest[m.start() - 1] in "和及与、" and rest[m.end():m.end() + 1] != USED:
                # one of several periods listed ("营业收入及上年同期数"): not one value — unless it is the
                # period of the item after it ("营业收入与年末资产总计的比值")
                f.unused.append(("period", m.group(0)))
        if found and f.period is None:
            f.period, f.period_word = period, found[0].group(0)
        elif found and f.period != period:
            # two periods asked at once (期初和期末): not one value — leave the second unused
            f.unused.append(("period", found[0].group(0)))
    if f.each_year and years < 2 and f.operation != "value":
        # 分别 over items ("销售费用和管理费用分别占营业收入的比例"): one computation each, not supported
        f.unused.append(("operation", "分别"))
    return f, rest


def read_series(f: Frame, years: Any) -> None:
    """The series a question asks, if any (Frame.series): 近N年 (kind recent, its N), a range written out
    (2017—2019年), years listed with 变化趋势, or 每年 / 历年 / a trend with no year named (kind every: every
    year held). A trend of one year names no series: its words are unused."""
    if years.recent:
        f.series = {"kind": "recent", "n": years.recent, "word": years.recent_word}
    elif len(years.years) >= 2 and (years.ranged or f.trend):
        f.series = {"kind": "range", "word": f"{years.years[0]}—{years.years[-1]}年"}
    elif not years.years and ("年" in f.each_year or f.trend):
        # (每年, 历年, 各年度 — not 分别 / 各自, which list items, not years)
        f.series = {"kind": "every", "word": f.each_year if "年" in f.each_year else f.trend}
    elif f.trend and len(years.years) < 2:
        f.unused.append(("operation", f.trend))


def unused_cues(rest: str, rules: FrameRules) -> list[tuple[str, str]]:
    """Meaning-bearing cues in the words no slot used: (slot, word)."""
    rest, _ = take(rest, rules.harmless)
    out: list[tuple[str, str]] = []
    for slot, rx in rules.cues:
        if prefilter.search(rx, rest) is None:
            continue
        for m in rx.finditer(rest):
            if m.group(0) and USED not in m.group(0):
                out.append((slot, m.group(0)))
    return out
