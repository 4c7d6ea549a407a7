"""Series answers: one company's items over several years — 近三年 / 近五年 (counted back from the year
named, else from the company's latest report), a range written out (2017—2019年), 每年 / 历年 (every year
the store holds a value of), and a trend asked of them (变化趋势, 走势).

Each year's value is read as a lookup reads it (answer/values.py `read_year`): the year's own report, else
the previous-period column of the next year's report, else the summary table (主要会计数据) of the
report two years on — the answer says which for each value, and cites it. A formula (毛利率) is computed
from the year's own report, else from the next report's previous-period column. Between two years that
both have a value the change is given: the rate against the earlier value (for a percent, the change in
percentage points; against a negative or zero value, the amount only). A year asked that nothing holds
is said (the answer is `partial`), never filled in. The series travels as data (Answer.series): what
`--json`, the API, the Excel export and the page's chart read.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from ..catalog.formulas import FormulaError
from ..understand.question import Understanding
from .compose import format_result, format_scaled, format_value, render, signed
from .lookup import declined, interpretation, not_found, understood, unit_note
from .model import Answer, FactEvidence, shown_value
from .values import Values, fact_evidence, label_of


@dataclass
class Point:
    year: int
    number: Decimal          # in the unit printed (元 for an amount, % for a percent)
    shown: str               # as the answer prints it
    evidence: list[FactEvidence]
    note: str                # where it was read, when not from the year's own report
    read_from: dict[str, Any]   # report year, column, page, source


class SeriesAnswerer:
    # the frame's operations this answerer implements (the router declines any other)
    operations = frozenset({"value", "change", "growth", "sum", "average", "cagr"})
    periods = frozenset({None, "closing", "current"})

    def __init__(self, values: Values):
        self.v = values
        self.t = values.t

    def years(self, u: Understanding, company: str, named: str | None,
              given: list[int] | None = None) -> tuple[list[int], bool, str]:
        """(years asked, whether each one missing is to be said, a note on how they were counted); `given`:
        the years a change between two of them asks (answer/change.py)."""
        if given:
            return list(given), True, ""
        s = u.frame.series or {}
        held = self.v.source.years_of(company, named)
        if s.get("kind") == "recent":
            n = int(s["n"])
            if u.years.asked is not None:
                return list(range(u.years.asked - n + 1, u.years.asked + 1)), True, ""
            if not held:
                return [], True, ""
            last = held[-1]
            years = list(range(last - n + 1, last + 1))
            return years, True, render(self.t, "series_counted", word=s["word"], year=last,
                                       span=_span(years))
        if s.get("kind") == "every":
            if not held:
                return [], False, ""
            # every year a report holds: its own and the two its summary table prints before it
            years = sorted({y - back for y in held for back in (0, 1, 2)})
            return years, False, render(self.t, "series_every", span=_span(years))
        return list(u.years.years), True, ""

    def answer(self, u: Understanding, years: list[int] | None = None) -> Answer:
        m, name = self.v.company(u)
        f = u.frame
        company = m.company.key
        years, say_missing, counted = self.years(u, company, m.text if m.company.key == company else None, years)
        if not years:
            return not_found(u, render(self.t, "not_found_report", company=name, year=""))
        asked = u.asked
        asked = [(k, n) for k, n in asked if k in ("item", "formula")]
        if not asked or f.operation not in self.operations or f.period not in self.periods:
            return declined(u, render(self.t, "declined", words=f.operation_word or f.period_word or
                                      (f.series or {}).get("word", ""), understood=understood(u)))
        texts: list[str] = []
        evidence: list[FactEvidence] = []
        notes: list[str] = [counted] if counted else []
        missing: list[str] = []
        series: list[dict[str, Any]] = []
        for kind, item in asked:
            label = label_of(item, u.item_words.get(item))
            points = [p for p in (self._point(company, kind, item, y, u) for y in years) if p is not None]
            held = {p.year for p in points}
            gaps = [y for y in years if y not in held]
            if say_missing:
                missing += [f"{y}年{label}" for y in gaps]
            if not points:
                continue
            unit_kind = self._kind(kind, item, points)
            parts = []
            data_points = []
            for prev, p in zip([None, *points[:-1]], points):
                change = self._change(prev, p, unit_kind, f) if prev is not None and prev.year == p.year - 1 else None
                parts.append(render(self.t, "series_point", year=p.year, value=p.shown) +
                             (render(self.t, "series_change", change=change["text"]) if change else ""))
                evidence.extend(e for e in p.evidence if e not in evidence)
                if p.note:
                    notes.append(p.note)
                data_points.append({"year": p.year, "value": float(p.number), "shown": p.shown,
                                    "change": change["change"] if change else None,
                                    "change_rate": change["rate"] if change else None,
                                    "read_from": p.read_from})
            text = render(self.t, "series", item=label, span=_span([p.year for p in points]),
                          points="；".join(parts))
            if f.trend and len(points) >= 2:
                text += render(self.t, "series_trend", shape=self._shape(points),
                               whole=self._whole(points[0], points[-1], unit_kind, f))
            if f.operation in ("sum", "average") and len(points) == len(years) and unit_kind != "percent":
                total = sum((p.number for p in points), Decimal(0))
                value = total / len(points) if f.operation == "average" else total
                shown = self._format(value, unit_kind, f, points[0])
                text += render(self.t, "years_average" if f.operation == "average" else "years_total",
                               years=_span(years).rstrip("年"), item=label, value=shown) + "。"
            if f.operation == "cagr":
                rate = self._cagr(points, years, label, unit_kind, f.decimals)
                if not rate:
                    # (a year asked at either end not held: the rate said not computed, never left unsaid)
                    ends = [y for y in (years[0], years[-1]) if y not in {p.year for p in points}]
                    rate = render(self.t, "years_cagr_missing", years=f"{years[0]}—{years[-1]}", item=label,
                                  missing="、".join(f"{y}年" for y in ends)) + "。"
                    missing.append(f"{label}的年均复合增长率")
                text += rate
            if gaps and say_missing:
                text += render(self.t, "series_missing", years="、".join(f"{y}年" for y in gaps), item=label)
            texts.append(text)
            notes += self.v.definition(item) if kind == "item" else []
            fm = self.v.formulas.get(item) if kind == "formula" else None
            if fm is not None and fm.printed and f.spelled is None:
                # the measure the report prints on its own basis (加权平均净资产收益率), beside the computed line
                printed = [p for p in (self._point(company, "item", fm.printed, y, u) for y in years) if p is not None]
                if printed:
                    # (each with its change from the year before, as the computed line says it: 比上年下降了8.79个百分点)
                    said = []
                    for prev, p in zip([None, *printed[:-1]], printed):
                        change = self._change(prev, p, self._kind("item", fm.printed, printed), f) \
                            if prev is not None and prev.year == p.year - 1 else None
                        said.append(render(self.t, "series_point", year=p.year, value=p.shown) +
                                    (render(self.t, "series_change", change=change["text"]) if change else ""))
                    notes.append(render(self.t, "note_printed_series", item=label, expr=fm.expr.replace(" ", ""),
                                        printed=fm.printed, points="；".join(said)))
                    evidence.extend(e for p in printed for e in p.evidence if e not in evidence)
            series.append({"item": item, "label": label, "unit": _unit_of(points[0].shown),
                           "kind": unit_kind, "points": data_points, "missing": gaps if say_missing else []})
        if not series:
            label = "、".join(label_of(n, u.item_words.get(n)) for _, n in asked)
            return not_found(u, render(self.t, "series_none", company=name, span=_span(years), item=label))
        if f.unit and any(s["kind"] == "amount" for s in series):
            notes.append(unit_note(self.t, f))
        answer = render(self.t, "series_head", company=name) + "".join(texts) + interpretation(self.t, notes)
        out = Answer(u.question, answer, "1-2", "series", list(evidence), partial=missing)
        out.series = series
        return out

    def _cagr(self, points: list[Point], years: list[int], label: str, unit_kind: str, decimals: int | None) -> str:
        """The compound annual growth rate between the first and the last year asked, both read: (last / first)^(1/n)
        − 1 over their n years apart; none of a rate (its change is in points), nor between values not both above
        zero (said)."""
        first, last = points[0], points[-1]
        if first.year != years[0] or last.year != years[-1] or last.year <= first.year:
            return ""   # (a year asked at either end is not held: said as missing below, no rate of other years)
        n = last.year - first.year
        if unit_kind == "percent" or first.number <= 0 or last.number <= 0:
            return render(self.t, "years_cagr_none", years=f"{first.year}—{last.year}", item=label) + "。"
        rate = (float(last.number) / float(first.number)) ** (1 / n) - 1
        shown = format_result(Decimal(str(rate)), "percent", 2 if decimals is None else decimals,
                              self.v.style)
        return render(self.t, "years_cagr", years=f"{first.year}—{last.year}", item=label, value=shown,
                      last=last.shown, first=first.shown, n=n) + "。"

    # --------------------------------------------------------------------------- one year's value

    def _point(self, company: str, kind: str, item: str, year: int, u: Understanding) -> Point | None:
        """The year's value of an item or formula (None when nothing holds it): `number` in the unit stored
        (元 for an amount, % for a percent), `shown` in the unit asked."""
        f = u.frame
        if kind == "item":
            r = self.v.read_year(company, [item], year)
            fact = r.facts.get(item)
            if fact is None or fact.number is None:
                return None
            read = {"report_year": fact.year, "column": fact.period, "page": fact.page, "source": fact.source,
                    "report": fact.report, "statement": fact.statement}
            return Point(year, fact.number, self.v.scaled(fact, f.unit, f.decimals),
                         [fact_evidence(fact, self.v.show(fact))], r.note, read)
        fm = self.v.formulas.get(item)
        if fm is None:
            return None
        for rep_year, column in ((year, "current"), (year + 1, "previous")):
            rep = self.v.source.report(company, rep_year)
            if rep is None:
                continue
            fv = self.v.formula_value(fm, rep, f.decimals, column=column)
            number = shown_value(fv.shown)[0] if not fv.problem and fv.shown is not None else None
            if number is None:
                continue
            shown = self.v.formula_value(fm, rep, f.decimals, unit=f.unit, column=column).shown \
                if f.unit and fm.output == "amount" else fv.shown
            note = render(self.t, "note_previous_column", year=year, report=rep_year) if column == "previous" else ""
            pages = [e.page for e in fv.evidence if e.page]
            read = {"report_year": rep_year, "column": column, "page": pages[0] if pages else None,
                    "source": "formula" if fv.method == "formula" else "report", "report": rep.key, "statement": None}
            return Point(year, Decimal(str(number)), shown or fv.shown or "", list(fv.evidence), note, read)
        return self._computed(company, fm, year, f)

    def _computed(self, company: str, fm, year: int, f) -> Point | None:
        """A formula of a year no one report holds every input of (营业收入增长率 of 2018: 2018's value from
        the 2019 report's previous column, 2017's from its summary table): each input read for its own year
        as a lookup reads it, then evaluated."""
        values: dict[str, Decimal] = {}
        evidence: list[FactEvidence] = []
        notes: list[str] = []
        for label, inp in fm.inputs.items():
            r = self.v.read_year(company, [inp.item], year + inp.offset)
            fact = r.facts.get(inp.item)
            if fact is None or fact.number is None:
                return None
            values[label] = fact.number
            evidence.append(fact_evidence(fact, self.v.show(fact), label))
            notes += [r.note] if r.note else []
        try:
            value = fm.evaluate(values)
        except (FormulaError, ArithmeticError):   # (a 0 denominator: no value)
            return None
        if value is None:
            return None
        shown = self.v.formula_shown(fm, value, f.decimals, f.unit)
        number = shown_value(format_result(value, fm.output, 6, self.v.style))[0] if fm.output != "amount" else value
        if number is None:
            return None
        read = {"report_year": None, "column": "computed", "page": None, "source": "formula", "report": None,
                "statement": None}
        return Point(year, Decimal(str(number)), shown, evidence, "；".join(dict.fromkeys(notes)), read)

    # --------------------------------------------------------------------------- changes

    def _kind(self, kind: str, item: str, points: list[Point]) -> str:
        unit = _unit_of(points[0].shown)
        if unit == "%":
            return "percent"
        if kind == "item":
            return self.v.info(item).kind
        return "amount" if unit and unit.endswith("元") and "/" not in unit else "plain"

    def _format(self, d: Decimal, unit_kind: str, f, like: Point) -> str:
        if f.unit and unit_kind == "amount":
            return format_scaled(d, f.unit, f.decimals, self.v.style)
        if unit_kind == "amount":
            return format_value(d.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP), "amount", self.v.style)
        unit = _unit_of(like.shown) or ""
        places = len(str(like.number).partition(".")[2])
        q = Decimal(1).scaleb(-places) if places else Decimal(1)
        return f"{d.quantize(q, rounding=ROUND_HALF_UP)}{unit}"

    def _change(self, prev: Point, p: Point, unit_kind: str, f) -> dict[str, Any]:
        """The change from one value to a later one: its words (rate and amount; percentage points for a
        percent; the amount alone against a base of 0 or below), the amount and the rate as numbers."""
        diff = p.number - prev.number
        places = f.decimals if f.decimals is not None else 2
        if unit_kind == "percent":
            points = str(abs(diff).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
            verb = render(self.t, "series_up_points" if diff >= 0 else "series_down_points")
            return {"text": render(self.t, "series_by_points", verb=verb, points=points), "change": float(diff),
                    "rate": None}
        if prev.number <= 0:
            verb = render(self.t, "change_up_amount" if diff >= 0 else "change_down_amount")
            return {"text": render(self.t, "series_by_amount", verb=verb, amount=self._format(abs(diff), unit_kind, f, p)),
                    "change": float(diff), "rate": None}
        rate = format_result(diff / prev.number, "percent", places, self.v.style)
        verb = render(self.t, "change_up_rate" if diff >= 0 else "change_down_rate")
        text = render(self.t, "series_by_rate", verb=verb, rate=rate.lstrip("-"),
                      amount=signed(self._format(diff, unit_kind, f, p), diff))
        return {"text": text, "change": float(diff), "rate": float(Decimal(rate.rstrip("%")))}

    def _shape(self, points: list[Point]) -> str:
        """How the values move year on year: 逐年上升 / 逐年下降 / 先升后降 / 先降后升 / 有升有降 / 保持不变."""
        steps = [(b.number > a.number) - (b.number < a.number) for a, b in zip(points, points[1:])]
        moves = [s for s in steps if s]
        if not moves:
            return render(self.t, "series_flat")
        if all(s > 0 for s in moves):
            return render(self.t, "series_rising")
        if all(s < 0 for s in moves):
            return render(self.t, "series_falling")
        turns = sum(1 for a, b in zip(moves, moves[1:]) if a != b)
        if turns == 1:
            return render(self.t, "series_up_down" if moves[0] > 0 else "series_down_up")
        return render(self.t, "series_mixed")

    def _whole(self, first: Point, last: Point, unit_kind: str, f) -> str:
        """The change from the first year to the last."""
        c = self._change(first, last, unit_kind, f)
        return render(self.t, "series_whole", first=first.year, last=last.year, change=c["text"])


def _span(years: list[int]) -> str:
    if not years:
        return ""
    return f"{years[0]}年" if len(years) == 1 else f"{years[0]}—{years[-1]}年"


def _unit_of(shown: str) -> str | None:
    return shown_value(shown)[1]
