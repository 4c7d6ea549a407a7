"""A why-question of a profit answered with figures (issue 46): "华润三九2025年前三季度归母净利润下降的原因是什么？",
"分析…净利润增长的驱动因素". After the change itself (the premise check says it), each line of the income statement
(rules/drivers.yaml `lines`) over the same period a year before — asked of the same router as "<company, period>
<line>同比增长了多少？", so every value is one the router reads and cites — and the lines that moved the profit most
each way: a line's effect is its change as stored, turned over for an item the statement subtracts (items.yaml
`subtracted`); a line stored positive on both sides the statement does not subtract (an old format's impairment)
has no effect said. Nothing is said when fewer than two lines are read.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Callable

from ..catalog import Catalog
from ..catalog.normalize import normalize_question
from ..understand.question import Understanding
from .compose import format_amount, render
from .model import Answer, Evidence, Method, extended
from .premise import _two_values


@dataclass
class Line:
    item: str
    now: Decimal
    before: Decimal
    effect: Decimal | None        # on the profit (None: not told)
    period: str                   # as the answer labels it: 2025年前三季度（1-9月）


@dataclass
class Breakdown:
    said: str
    evidence: list[Evidence] = field(default_factory=list)


def _amount(x: Decimal) -> str:
    return format_amount(abs(x), "human")


class Drivers:
    def __init__(self, catalog: Catalog, answer: Callable[[str], Answer], understand: Callable[[str], Understanding]):
        self.rules = catalog.drivers
        self.subtracted = catalog.items.subtracted
        self.t = catalog.templates
        self.answer = answer
        self.understand = understand
        self._minus = {x for lines in self.rules.minus.values() for x in lines}   # (taken from a profit: 少数股东损益)

    def _head(self, norm: str, u: Understanding) -> tuple[str, str] | None:
        """(the question's words before its profit item: company and period, the profit item) — None when it asks
        no profit's change."""
        for k in u.keywords:
            if k.kind == "item" and k.name in self.rules.profits:
                at = norm.find(k.text)
                if at >= 2:
                    head = norm[:at]
                    for rx in self.rules.lead:
                        head = rx.sub("", head)
                    return head, k.name
        return None

    def _line(self, head: str, item: str) -> tuple[Line, list[Evidence]] | None:
        ans = self.answer(f"{head}{item}同比增长了多少？")
        if not ans.found or ans.method != Method.CHANGE:
            return None
        got = _two_values(ans)
        if got is None or got[2][0].item != item:
            return None
        now, before, facts = got
        delta = now - before
        if item in self.rules.profits:
            effect: Decimal | None = None   # (the profit itself)
        elif item in self.subtracted or item in self._minus:
            effect = -delta
        elif now > 0 and before > 0 and "损失" in item:
            effect = None   # (a loss line stored positive: an old format's cost, its sign not told)
        else:
            effect = delta
        first = facts[0]
        return Line(item, now, before, effect, f"{first.year}年{first.within or ''}"), list(facts)

    def check(self, question: str) -> Breakdown | None:
        if not self.rules.asks_why(question):   # (the why-words are CJK: read before any normalizing)
            return None
        norm = normalize_question(question)
        u = self.understand(question)
        if not u.companies:
            return None
        found = self._head(norm, u)
        if found is None:
            return None
        head, profit = found
        lines: list[Line] = []
        evidence: list[Evidence] = []
        unread: list[str] = []
        for item in (profit, *self.rules.lines_of(profit)):
            got = self._line(head, item)
            if got is not None:
                lines.append(got[0])
                evidence += got[1]
            elif item != profit:
                unread.append(item)
        if len(lines) < 3 or lines[0].item != profit:
            return None   # (the profit's own change and at least two of its lines)
        parts = []
        for x in lines:
            delta = x.now - x.before
            rate = f"，{'+' if delta >= 0 else '-'}{abs(delta) / abs(x.before) * 100:.2f}%" if x.before else ""
            moved = "持平" if delta == 0 else f"{'增加' if delta > 0 else '减少'}{_amount(delta)}"
            parts.append(f"{x.item}{moved}（{format_amount(x.now, 'human')}，上年同期{format_amount(x.before, 'human')}{rate}）")
        told = [x for x in lines[1:] if x.effect]
        ups = sorted((x for x in told if x.effect and x.effect > 0), key=lambda x: -(x.effect or 0))[:self.rules.shown]
        downs = sorted((x for x in told if x.effect and x.effect < 0), key=lambda x: x.effect or 0)[:self.rules.shown]
        said = render(self.t, "drivers_lines", period=lines[0].period, parts="；".join(parts))
        if ups:
            said += render(self.t, "drivers_up", parts="、".join(f"{x.item}（+{_amount(x.effect or Decimal(0))}）" for x in ups))
        if downs:
            said += render(self.t, "drivers_down", parts="、".join(f"{x.item}（-{_amount(x.effect or Decimal(0))}）" for x in downs))
        if unread:   # (a line the statements print none of, or not read: said, the ranking is of those read)
            said += render(self.t, "drivers_unread", items="、".join(unread))
        if any(getattr(e, "source", "") == "derived" for e in evidence):
            said += render(self.t, "drivers_derived")   # (a quarter alone: its filings' periods subtracted)
        return Breakdown(said, evidence)


def with_breakdown(ans: Answer, b: Breakdown) -> Answer:
    """The answer with the profit's lines after what it said (before a note's explanation)."""
    return extended(ans, b.said, b.evidence)

