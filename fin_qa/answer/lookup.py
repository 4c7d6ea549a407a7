"""Lookup answers (FinGLM types 1 and 1-2): items of one company, for the year(s) and period the
question frame asks, in the unit it asks; formula names asked beside items ("每股收益和每股净资产")
are computed. Every value is cited with item, page and source.

- period: 期初/年初/上年末 → the opening balance (balance-sheet items only: the year's report's
  previous-period column, else the year before's report); 上年/去年/上年同期 → the year before the one
  asked; a year without its own report → the previous-period column of the next year's report.
- years: "2019年和2020年…分别", "2019至2021年" → every year asked; 平均 over them → their mean.
- unit: 万元/亿元/千元/百万元 asked → converted and rounded (保留N位 / 2), 约 said.
- compound items (三费, 期间费用, 毛利) → computed from their parts, the definition stated.
"""
from __future__ import annotations

from decimal import Decimal

from ..understand.question import Understanding
from .compose import format_scaled, format_value, render
from .model import Answer, FactEvidence
from .values import Values, fact_evidence, label_of

BALANCE = "资产负债表"


class LookupAnswerer:
    # the frame's operations and periods this answerer implements (the router declines any other)
    operations = frozenset({"value", "average", "sum"})
    periods = frozenset({None, "opening", "closing", "previous", "current"})

    def __init__(self, values: Values):
        self.v = values
        self.t = values.t

    def years(self, u: Understanding, company: str) -> tuple[list[int], str]:
        """The years whose values the question asks, and a note when none was named."""
        f = u.frame
        explicit = u.years.explicit
        if len(explicit) >= 2 and f.operation in ("value", "average", "sum"):
            return list(explicit), ""
        if u.years.asked is None:
            m, name = self.v.company(u)
            years = self.v.source.years_of(company, m.text if m.company.key == company else None)
            if not years:
                return [], ""
            note = render(self.t, "no_year", company=name, year=years[-1])
            return ([years[-1] - 1] if f.period == "previous" else [years[-1]]), note
        return ([u.years.asked - 1] if f.period == "previous" else [u.years.asked]), ""

    def answer(self, u: Understanding) -> Answer:
        m, name = self.v.company(u)
        f = u.frame
        years, note = self.years(u, m.company.key)
        if not years:
            return not_found(u, render(self.t, "not_found_report", company=name, year=u.years.asked or ""))
        words = u.item_words
        asked = u.asked
        items = [n for k, n in asked if k == "item"]
        opening = f.period == "opening"
        if opening:
            flows = [i for i in items if not self.v.at_a_date(i)]
            if flows:
                label = "、".join(label_of(i, words.get(i)) for i in flows)
                return declined(u, render(self.t, "opening_flow", item=label, word=f.period_word))
        if len(years) > 1:
            return self._years(u, m.company.key, name, years, asked, note)
        if f.operation == "average":   # the mean of one value: the question meant something else
            return declined(u, render(self.t, "declined", words=f.operation_word, understood=understood(u)))
        year = years[0]
        reading = self.v.read_year(m.company.key, items, year, opening, u.years.restated.get(year))
        rep = reading.rep
        if rep is None:
            return not_found(u, render(self.t, "not_found_report", company=name, year=year))
        got = reading.facts
        for item in items:   # (a category row the question names by the report's own label: that row)
            printed = self.v.printed_row(rep, item, words.get(item)) if rep.year == year else None
            if printed is not None:
                got[item] = printed
        parts: list[tuple[str, str]] = []
        evidence: list[FactEvidence] = []
        missing: list[str] = []
        notes = [reading.note] if reading.note else []
        for kind, item in asked:
            if kind == "formula":
                fm = self.v.formulas.get(item)
                if opening:
                    # 上年末 of a value computed from balances (流动比率): over the opening column, never the
                    # year's own value under its name; a flow in it has none (missing)
                    fv = self.v.formula_value(fm, rep, u.decimals, reported=False, column="previous") \
                        if fm is not None and rep.year == year and all(self.v.at_a_date(i.item)
                                                                      for i in fm.inputs.values()) else None
                else:
                    fv = self.v.formula_value(fm, rep, u.decimals) if fm is not None and rep.year == year else None
                if fv is None or fv.problem or fv.shown is None:
                    missing.append(item)
                    continue
                parts.append((item, fv.shown))
                evidence.extend(fv.evidence)
                continue
            fact = got.get(item)
            if fact is None:
                missing.append(item)
                continue
            shown = self.v.scaled(fact, f.unit, f.decimals)
            # (the fact's own item: a printed row read for the words asked says what it is — 本科以上（硕士及以上）)
            parts.append((label_of(fact.item, words.get(item)), shown))
            evidence.append(fact_evidence(fact, self.v.show(fact)))
            notes += self.v.definition(item, fact)
        if f.unit and any(self.v.info(i).kind == "amount" for _, i in asked):
            notes.append(unit_note(self.t, f))
        elif f.unit is not None and parts:
            # a unit of money asked of a rate or a count ("加权平均净资产收益率是多少万元"): said, never dropped
            other = [label_of(i, words.get(i)) for _, i in asked if self.v.info(i).kind in ("percent", "count")
                     or (self.v.info(i).kind == "per_share" and f.unit)]
            if other:
                notes.append(render(self.t, "note_unit_not_amount", items="、".join(other), unit=f"{f.unit}元"))
        if not parts:
            label = "、".join(label_of(i, words.get(i)) for i in missing)
            if opening:   # (the year's own value may be there: what is missing is its opening one)
                label = f"{f.period_word or '期初'}{label}"
            return not_found(u, render(self.t, "not_found_value", company=name, year=year, item=label))
        if len(parts) == 1 and not missing and parts[0][1] in ("是", "否") and asked[0][1].startswith("是否"):
            # a yes/no disclosure (是否存在重大诉讼仲裁事项): the answer first, then what it answers
            text = render(self.t, "lookup_yesno", company=name, year=year, item=asked[0][1][2:], value=parts[0][1])
        elif len(parts) == 1 and not missing:
            text = render(self.t, "lookup", company=name, year=year, item=parts[0][0], value=parts[0][1])
        else:
            joined = "，".join(render(self.t, "lookup_part", item=i, value=v) for i, v in parts)
            text = render(self.t, "lookup_many", company=name, year=year, parts=joined)
            if missing:
                label = "、".join(label_of(i, words.get(i)) for i in missing)
                text += render(self.t, "not_found_value", company=name, year=year, item=label)
        if opening:
            text = text.replace(f"{year}年的", f"{year}年{f.period_word}的", 1)
        ftype = "1-2" if len(asked) > 1 else "1"
        return Answer(u.question, note + text + interpretation(self.t, notes), ftype, "lookup", list(evidence),
                      partial=[label_of(i, words.get(i)) for i in missing])

    def _years(self, u: Understanding, company: str, name: str, years: list[int], asked: list[tuple[str, str]],
               note: str) -> Answer:
        """One value per year asked (分别), or their mean (平均)."""
        f = u.frame
        words = u.item_words
        items = [n for k, n in asked if k == "item"]
        if len(items) != len(asked):   # a formula over several years: not a lookup
            return declined(u, render(self.t, "declined", words="多个年份的计算指标", understood=understood(u)))
        parts: list[str] = []
        evidence: list[FactEvidence] = []
        notes: list[str] = []
        for item in items:
            label = label_of(item, words.get(item))
            numbers: list[Decimal] = []
            for y in years:
                r = self.v.read_year(company, [item], y, f.period == "opening", u.years.restated.get(y))
                fact = r.facts.get(item)
                if fact is None:
                    if r.rep is None:
                        return not_found(u, render(self.t, "not_found_report", company=name, year=y))
                    return not_found(u, render(self.t, "not_found_value", company=name, year=y, item=label))
                if r.note:
                    notes.append(r.note)
                notes += self.v.definition(item, fact)
                parts.append(render(self.t, "compare_part", year=y, item=label,
                                    value=self.v.scaled(fact, f.unit, f.decimals)))
                evidence.append(fact_evidence(fact, self.v.show(fact)))
                if fact.number is not None:
                    numbers.append(fact.number)
            notes += self.v.definition(item)
            if f.operation in ("average", "sum"):
                if len(numbers) != len(years):
                    return not_found(u, render(self.t, "not_found_value", company=name, year=years[0], item=label))
                total = sum(numbers, Decimal(0))
                value_of = total / len(numbers) if f.operation == "average" else total
                kind = self.v.info(item).kind
                value = (format_scaled(value_of, f.unit, f.decimals, self.v.style) if f.unit and kind == "amount"
                         else format_value(value_of.quantize(Decimal("0.01")), kind, self.v.style))
                parts.append(render(self.t, "years_average" if f.operation == "average" else "years_total",
                                    years=f"{years[0]}-{years[-1]}", item=label, value=value))
        if f.unit:
            notes.append(unit_note(self.t, f))
        text = render(self.t, "lookup_years", company=name, parts="，".join(parts))
        ftype = "1-2" if len(parts) > 1 else "1"
        return Answer(u.question, note + text + interpretation(self.t, notes), ftype, "lookup", list(evidence))


def interpretation(templates: dict[str, str], notes: list[str]) -> str:
    """The short restatement of what was understood, appended to an answer (empty when nothing to say)."""
    notes = list(dict.fromkeys(n for n in notes if n))
    return render(templates, "interpretation", notes="；".join(notes)) if notes else ""


def unit_note(templates: dict[str, str], f) -> str:
    """How an amount was converted to the unit asked."""
    places = 2 if f.decimals is None else f.decimals
    return render(templates, "note_unit", unit=f.unit, approx=render(templates, "note_approx") if f.approx else "",
                  places=places)


def understood(u: Understanding) -> str:
    """What was understood of a question, for a declining answer."""
    parts = []
    if u.companies:
        parts.append(u.companies[0].company.short_name or u.companies[0].text)
    if u.years.years:
        parts.append("、".join(f"{y}年" for y in u.years.years))
    parts += u.items + u.formulas
    return "，".join(parts) or "无"


def not_found(u: Understanding, msg: str) -> Answer:
    """An answer that admits it has no value, with the question's contest type."""
    return Answer(u.question, msg, u.finglm_type(), "not_found", found=False)


def declined(u: Understanding, msg: str) -> Answer:
    """An answer that declines: the question asks something fin-qa understood only in part."""
    return Answer(u.question, msg, u.finglm_type(), "declined", found=False)
