"""A question's premise checked against the figures (issue 46): a question that takes a change or a result for
granted — "…营业收入同比下降了，主要原因是什么？", "…净利润为什么同比下滑？", "…全年应该是盈利的吧？",
"…比去年同期翻了一倍吧？" — has it checked first, with the values read, and the answer says so before anything else:
"问题的前提与报表不符：…营业收入并未下降，同比增长36.83%（2023年24,738,963,319.76元，2022年…）". A premise the
figures bear out is said with them too ("…同比下降24.31%（…）"), so a why-question is answered with its figures.

What is checked (two patterns here: the direction words are few and fixed):
- a change: an item followed by a direction (下降, 下滑, 减少, 增长, 上升, 翻倍 …), asked as a why or as a
  confirmation (原因, 为什么, 吧, 吗 …): the question before the direction, asked as "…同比增长了多少", answered by the
  same router — the item's change over the same period a year before, its two values cited;
- a result: 盈利 / 亏损 asked as a confirmation ("应该是盈利的吧"): the net profit of the period asked, its sign.
Nothing is said when the check cannot be made (no change read, two values not found): the answer is as before.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Callable

from ..catalog.normalize import normalize_question
from ..numbers import parse_number
from .model import Answer, Evidence, FactEvidence, Method, shown_number

_DOWN = "下降|下滑|减少|降低|下跌|回落|萎缩|缩水"
_UP = "增长|上升|提高|增加|上涨|提升|攀升"
_DOUBLE = "翻了?一倍|翻倍|翻番"
# an item's change taken for granted: what stands before it (the company, the period, the item) and its direction
_CHANGE = re.compile(rf"^(?P<head>.+?)(?:同比|较上年同期|较去年同期|比上年同期|比去年同期|比上年|比去年|较上年|相比上年|也)?"
                     rf"(?:出现了?|有所|实现了?|大幅|明显|显著|持续|跟[^，,？?]{{1,12}}一样大幅|一样)?"
                     rf"(?P<dir>{_DOWN}|{_UP}|{_DOUBLE})了?")
# … asked as a why or as a confirmation (not a plain "增长了多少", answered as a change already)
_ASKED = re.compile(r"原因|为什么|为何|因素|导致|怎么回事|何故|驱动|吧|吗|是不是|对吧|是否|没错")
# a result taken for granted: 盈利 / 亏损 asked as a confirmation
_RESULT = re.compile(r"^(?P<head>.+?)(?:应该|应当|肯定|一定)?(?:是|都是|是在)?(?P<dir>盈利|赚钱|亏损|亏钱)(?:的|了)?"
                     r"(?:吧|吗|对吧|没错吧|是不是)")
_WHY_TAIL = re.compile(r"(?:为什么|为何|是不是|是否|怎么|因何)(?:会|能)?$")
_HEAD_TAIL = re.compile(r"(?:应该|应当|肯定|一定|是|都|也|的|，|,)+$")
_NET_PROFIT = "归属于母公司所有者的净利润"


@dataclass
class Premise:
    """A premise checked: what the answer says first, the values it read, and whether the premise holds."""
    said: str
    evidence: list[Evidence] = field(default_factory=list)
    holds: bool = True
    method: str = Method.CHANGE


def _two_values(ans: Answer) -> tuple[Decimal, Decimal, list[FactEvidence]] | None:
    """The later and the earlier value a change answer read (its item's two values, by year)."""
    facts = [e for e in ans.evidence if isinstance(e, FactEvidence) and e.year is not None]
    by_year: dict[int, FactEvidence] = {}
    for e in facts:
        if e.item == facts[0].item and e.year is not None:
            by_year.setdefault(e.year, e)   # (the first read of each year: the value itself, not a derivation's input)
    if len(by_year) != 2:
        return None
    early, late = (by_year[y] for y in sorted(by_year))
    a, b = (parse_number(e.stored) if e.stored else shown_number(e.value)[0] for e in (late, early))
    if a is None or b is None:
        return None
    return a, b, [late, early]


class Premises:
    """Checks the premise of a question with the router's own answers (`answer`: a question → its Answer)."""

    def __init__(self, answer: Callable[[str], Answer]):
        self.answer = answer

    def check(self, question: str) -> Premise | None:
        norm = normalize_question(question)
        if not _ASKED.search(norm):
            return None
        m = _RESULT.search(norm)
        if m:
            return self._result(m.group("head"), m.group("dir"))
        m = _CHANGE.search(norm)
        if m is None:
            return None
        return self._change(_WHY_TAIL.sub("", m.group("head")), m.group("dir"))

    def _change(self, head: str, word: str) -> Premise | None:
        head = _HEAD_TAIL.sub("", head)
        if len(head) < 4:
            return None
        ans = self.answer(f"{head}同比增长了多少？")
        if not ans.found or ans.method != Method.CHANGE:
            return None
        got = _two_values(ans)
        if got is None:
            return None
        now, before, facts = got
        if before == 0:
            return None
        rate = (now - before) / abs(before) * 100
        said_rate = f"{'增长' if rate >= 0 else '下降'}{abs(rate):.2f}%"
        values = f"{facts[0].year}年{facts[0].within or ''}{facts[0].value}，{facts[1].year}年{facts[1].within or ''}{facts[1].value}"
        down, double = re.fullmatch(_DOWN, word) is not None, re.fullmatch(_DOUBLE, word) is not None
        item = facts[0].item
        if double:
            holds = rate >= 100
            claim = "翻倍"
        else:
            holds = (rate < 0) if down else (rate > 0)
            claim = word
        if holds:
            return Premise(f"{head}同比{said_rate}（{values}）。", list(facts), True)
        return Premise(f"问题的前提与报表不符：{item}并未{claim}，同比{said_rate}（{values}）。", list(facts), False)

    def _result(self, head: str, word: str) -> Premise | None:
        head = _HEAD_TAIL.sub("", re.sub(r"(?:的)?全年$", "", head))
        if len(head) < 4:
            return None
        ans = self.answer(f"{head}的{_NET_PROFIT}是多少？")
        value = ans.value if ans.found else None
        first = next((e for e in ans.evidence if isinstance(e, FactEvidence)), None)
        if value is None or first is None:
            return None
        facts: list[Evidence] = [first]
        profit = word in ("盈利", "赚钱")
        result = "盈利" if value > 0 else "亏损" if value < 0 else "盈亏持平"
        said = f"{head}{_NET_PROFIT}为{first.value}（{result}）。"
        if (value > 0) == profit and value != 0:
            return Premise(said, facts, True, Method.LOOKUP)
        return Premise(f"问题的前提与报表不符：并未{word}，{said}", facts, False, Method.LOOKUP)
