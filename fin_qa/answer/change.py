"""Change answers: how much an item changed against its base — 较年初 (the opening balance), 比上年 / 同比
(the year before), or between two years asked ("2019年到2020年"). Both the amount (current − base) and
the rate ((current − base) / |base|) are printed, the one asked first; both values are cited.

The base value comes from the base year's own report, else the previous-period column of the asked
report (the answer says which) — for balance-sheet items that is the opening balance either way.
"""
from __future__ import annotations

import re

from decimal import ROUND_HALF_UP, Decimal

from ..understand.question import Understanding
from .compose import format_result, format_scaled, format_value, render, signed
from .lookup import declined, interpretation, not_found, understood, unit_note
from .model import Answer
from .series import SeriesAnswerer
from .values import Fact, Reading, Values, fact_evidence, label_of

_SAME_PERIOD = re.compile(r"同期")
_POINTS = re.compile(r"百分点|个点|基点|[bB][pP][sS]?(?![A-Za-z])")
_BASIS_POINTS = re.compile(r"基点|[bB][pP][sS]?(?![A-Za-z])")


class ChangeAnswerer:
    # the frame's operations and periods this answerer implements (the router declines any other)
    operations = frozenset({"change", "growth", "times"})
    periods = frozenset({None, "opening", "closing", "previous", "current"})

    def __init__(self, values: Values, series: SeriesAnswerer | None = None):
        self.v = values
        self.t = values.t
        self.series = series   # a computed value's change: its two years as a series, each computed

    def answer(self, u: Understanding) -> Answer:
        m, name = self.v.company(u)
        f = u.frame
        items = u.items
        if self.series is not None and not items and len(u.formulas) == 1 and not f.each_year \
                and len(u.years.explicit) <= 2 and f.period in (None, "closing", "current", "previous"):
            # 毛利率比2018年变化了多少: the formula computed for each year, the change between them (percentage
            # points for a percent), every input cited
            explicit = u.years.explicit
            if len(explicit) == 2:
                years = [explicit[0], explicit[-1]]
            else:
                known = self.v.source.years_of(m.company.key)
                year = u.years.asked if u.years.asked is not None else (known[-1] if known else None)
                if year is None:
                    return not_found(u, render(self.t, "not_found_report", company=name, year=""))
                years = [year - 1, year]
            return self.series.answer(u, years=years)
        if len(items) != 1 or u.formulas or u.frame.each_year or len(u.years.explicit) > 2:
            # several items, a computed value, or a change for each of several years: not one change
            return declined(u, render(self.t, "declined", words=f.operation_word or f.base_word,
                                      understood=understood(u)))
        item = items[0]
        label = label_of(item, u.item_words.get(item))
        explicit = u.years.explicit
        if len(explicit) >= 2:
            base_year, year = explicit[0], explicit[-1]
        else:
            known = self.v.source.years_of(m.company.key)
            if u.years.asked is None and not known:
                return not_found(u, render(self.t, "not_found_report", company=name, year=""))
            year = u.years.asked if u.years.asked is not None else known[-1]
            base_year = year - 1
        restated = u.years.restated   # (a year asked as restated — 调整后 — or as first reported)
        now = self.v.read_year(m.company.key, [item], year, restated=restated.get(year))
        if now.rep is None:
            return not_found(u, render(self.t, "not_found_report", company=name, year=year))
        balance = self.v.at_a_date(item)   # (a balance, or an item read at a date: its base is the opening)
        # the base: the year before's value (for a balance item, the asked year's opening balance)
        base = None
        if base_year == year - 1 and base_year not in restated and self.v.info(item).kind == "per_share":
            # a per-share figure of the year before as the year's report restates it (a bonus issue or a conversion
            # changes the shares: 华润三九 2024's 基本每股收益 2.63 against 2023's restated 2.24, never its first 2.90)
            base = self.v.read_year(m.company.key, [item], base_year, restated="comparative")
            if base.facts.get(item) is None or base.facts[item].number is None:
                base = None   # (not printed there: read as any year before is)
        if base is None and base_year == year - 1 and base_year not in restated:
            # (上年同期 of a value at a date is the same date a year before — a quarter's end's, not the year end's)
            base = self.v.read_year(m.company.key, [item], year, opening=True) \
                if balance and not _SAME_PERIOD.search(u.norm) else self.v.read_year(m.company.key, [item], year - 1)
        elif base is None:
            base = self.v.read_year(m.company.key, [item], base_year, restated=restated.get(base_year))
        cur, prev = now.facts.get(item), base.facts.get(item)
        if cur is None or cur.number is None:
            return not_found(u, render(self.t, "not_found_value", company=name, year=year, item=label))
        if prev is None or prev.number is None:
            as_printed = self._printed(u, item, now, cur, year, base_year, balance)
            if as_printed is not None:
                return as_printed
            return not_found(u, render(self.t, "not_found_value", company=name, year=base_year, item=label))
        a, b = cur.number, prev.number
        if f.operation == "times":
            return self._times(u, name, year, base_year, label, cur, prev, [n for n in (now.note, base.note) if n],
                               balance and base_year == year - 1)
        diff = a - b
        notes = [n for n in (now.note, base.note) if n]
        notes += self.v.definition(item, cur) + self.v.definition(item, prev)
        kind = self.v.info(item).kind
        in_points = kind == "percent" or cur.unit == "%"   # (a rate: its change in percentage points)
        if f.unit and kind == "amount":
            amount = format_scaled(abs(diff), f.unit, f.decimals, self.v.style)
            signed_amount = signed(format_scaled(diff, f.unit, f.decimals, self.v.style), diff)
            notes.append(unit_note(self.t, f))
        elif in_points:
            # a rate's change is in percentage points (7.64% → 11.71%: 4.07个百分点), never "4.07%"
            points = str(abs(diff).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
            amount = render(self.t, "change_points", points=points)
            signed_amount = render(self.t, "change_points", points=("-" if diff < 0 else "") + points)
        else:
            amount = format_value(abs(diff), kind, self.v.style, cur.unit)
            signed_amount = signed(format_value(diff, kind, self.v.style, cur.unit), diff)
        printed = self.v.printed_change(now.rep, item, cur) \
            if kind == "per_share" and f.operation == "growth" and not restated and base_year == year - 1 and now.rep else None
        if printed is not None:
            # a per-share figure's change as the filing computes it from its unrounded values (0.0579 against 0.0009
            # rounded: 6,333.33% computed, 6,003.93% printed)
            rate = self.v.printed_rate(printed, f.decimals)
            notes.append(render(self.t, "note_printed_rate"))
        elif b == 0:
            rate = render(self.t, "change_zero_base")
        else:
            rate = format_result(diff / abs(b), "percent", f.decimals if f.decimals is not None else 2, self.v.style)
            if b < 0:
                notes.append(render(self.t, "note_negative_base"))
        up = diff >= 0
        growth = f.operation == "growth"
        verb = render(self.t, f"change_{'up' if up else 'down'}_{'rate' if growth else 'amount'}")
        if growth and not up and b != 0 and not in_points:
            # "同比下降了多少": the fall as a rate too, with no sign ("下降了…元，降幅32.64%")
            amount += render(self.t, "change_down_by", rate=format_result(abs(diff) / abs(b), "percent",
                                                                          f.decimals if f.decimals is not None else 2,
                                                                          self.v.style))
        if balance and base_year == year - 1:
            base_text = f.base_word or render(self.t, "change_base_opening")
            whens = (render(self.t, "change_when_closing"), render(self.t, "change_when_opening"))
        else:
            base_text = f.base_word or render(self.t, "change_base_year", year=base_year)
            whens = (render(self.t, "change_when_year", year=year), render(self.t, "change_when_year", year=base_year))
        parts = "，".join(render(self.t, "change_part", when=w, value=self.v.show(x))
                         for w, x in zip(whens, (cur, prev)))
        # a rate's change asked in points (降了多少个百分点, 几个点, 几个bp): the points first, the relative change after
        points_asked = growth and in_points and _POINTS.search(u.norm) is not None
        if points_asked and _BASIS_POINTS.search(u.norm):
            amount += render(self.t, "change_basis_points", bp=str((abs(diff) * 100).quantize(Decimal("0.1")).normalize()))
        text = render(self.t, "change_points_rate" if points_asked else "change_rate" if growth else "change_amount",
                      company=name, year=year, item=label, base=base_text, verb=verb, amount=amount,
                      signed_amount=signed_amount, rate=rate, parts=parts)
        evidence = [fact_evidence(cur, self.v.show(cur)),
                    fact_evidence(prev, self.v.show(prev), (whens[1] if balance and base_year == year - 1 else "") + label)]
        # its one value: the rate asked (none where the base is zero), else the signed amount
        shown = signed_amount if points_asked or not growth else (rate if b != 0 else None)
        return Answer(u.question, text + interpretation(self.t, notes), "2-1", "change", list(evidence),
                      shown=shown)

    def _printed(self, u: Understanding, item: str, now: Reading, cur: Fact, year: int, base_year: int,
                 balance: bool) -> Answer | None:
        """A rate of change asked of a flow whose value a year before no stored filing holds: the filing's own printed
        change on the same period a year before (本报告期比上年同期增减变动幅度, an interim filing's; None where it
        prints none), said as printed, both figures cited — never an amount, which needs the base."""
        f = u.frame
        if f.operation != "growth" or balance or base_year != year - 1 or u.years.restated or now.rep is None:
            return None
        got = self.v.printed_change(now.rep, item, cur)
        if got is None:
            return None
        _, name = self.v.company(u)
        label = label_of(item, u.item_words.get(item))
        rate = self.v.printed_rate(got, f.decimals)
        text = render(self.t, "change_rate_printed", company=name, year=year, item=label,
                      base=f.base_word or render(self.t, "change_base_year", year=base_year), rate=rate,
                      value=self.v.show(cur), base_year=base_year)
        evidence: list = [fact_evidence(cur, self.v.show(cur)), fact_evidence(got, self.v.show(got), render(
            self.t, "change_printed_label", item=label))]
        notes = [n for n in (now.note,) if n]
        return Answer(u.question, text + interpretation(self.t, notes), "2-1", "change", evidence, shown=rate)

    def _times(self, u: Understanding, name: str, year: int, base_year: int, label: str, cur: Fact,
               prev: Fact, notes: list[str], opening: bool = False) -> Answer:
        """The value as a multiple of its base (current / base, two decimals unless asked), both values cited; a
        base not above zero, or a value below zero, makes no multiple (said so, with both values)."""
        a, b = cur.number, prev.number
        assert a is not None and b is not None   # (read as numbers by answer())
        if opening:   # (a balance against the year's opening balance: 期末 over 期初)
            whens = (render(self.t, "change_when_closing"), render(self.t, "change_when_opening"))
        else:
            whens = (render(self.t, "change_when_year", year=year), render(self.t, "change_when_year", year=base_year))
        base_when = whens[1]
        parts = "，".join(render(self.t, "change_part", when=w, value=self.v.show(x)) for w, x in zip(whens, (cur, prev)))
        evidence: list = [fact_evidence(cur, self.v.show(cur)), fact_evidence(prev, self.v.show(prev))]
        if b <= 0 or a < 0:   # (a multiple of a base not above zero, or of a value below it, says nothing)
            text = render(self.t, "change_times_base", year=base_when if b <= 0 else whens[0],
                          value=self.v.show(prev if b <= 0 else cur))
            return not_found(u, text + "。" + parts + "。")
        places = u.frame.decimals if u.frame.decimals is not None else 2
        times = format_result(a / b, "ratio", places, self.v.style)
        ratio = format_result((a - b) / b, "percent", places, self.v.style)
        ratio = render(self.t, "change_rate_said", rate=signed(ratio, a - b))
        text = render(self.t, "change_times", company=name, year=year, item=label, base_year=base_when, times=times,
                      ratio=ratio, parts=parts)
        return Answer(u.question, text + interpretation(self.t, notes), "2-1", "change", evidence, shown=f"{times}倍")
