"""Reading and computing values for the answerers: one report's facts (derived items, absent
categories), how a fact is printed, a formula's inputs and result, which report a question is about.

- An absent item with a `derived:` entry in formulas/*.yaml is computed from its parts (硕士及以上 =
  硕士 + 博士及以上) and cited with both.
- An absent 专业构成/教育程度 category is 0 when the report's own table (a document, not an imported
  table) lists others — or, for the inputs of one computation, when another asked category is there.
- A formula's previous-year input comes from the previous year's report, else from the previous-period
  column of the asked report (noted in the answer).
- A value the report (or an imported table) states under the formula's name wins over computing it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from ..catalog import Catalog
from ..catalog.formulas import Formula, FormulaError
from ..catalog.vocabulary import ItemInfo
from ..store import Report
from ..understand.entities import CompanyMatch
from ..understand.question import Understanding
from .compose import format_result, format_scaled, format_value, render
from .facts import Fact, FactSource
from .model import FactEvidence


def fact_evidence(fact: Fact, shown: str | None = None, label: str | None = None) -> FactEvidence:
    """The evidence of a fact, with the value as the answer printed it."""
    # a previous-period column holds the year before the report's (the opening balance, or last year's flow);
    # the summary table's third column the year before that
    back = {"previous": 1, "previous2": 2}.get(fact.period, 0)
    year = fact.year - back if fact.year is not None else None
    return FactEvidence(fact.item, shown if shown is not None else fact.value, year, fact.page, fact.source,
                        fact.period, label, report=fact.report, printed_label=fact.label, stored=fact.value)


def growth_of(f: Formula) -> tuple[str, str] | None:
    """(this year's label, the year before's) of a growth rate of one item — (X − 上年X) / 上年X —, else None."""
    ins = list(f.inputs.values())
    if len(ins) != 2 or {i.offset for i in ins} != {0, -1} or ins[0].item != ins[1].item:
        return None
    now, before = sorted(f.inputs, key=lambda k: -f.inputs[k].offset)
    return (now, before) if f.tree == ("/", ("-", ("var", now), ("var", before)), ("var", before)) else None


@dataclass
class Reading:
    """Values of one year read for a question: from which report and column, and how (a note)."""
    facts: dict[str, Fact]
    year: int
    rep: Report | None
    note: str = ""


@dataclass
class Computed:
    """A formula over one report: the value (None when it could not be computed) and why not."""
    value: Decimal | None
    evidence: list[FactEvidence]
    missing: list[tuple[str, int]]   # (input label, year) without a value
    notes: list[str]
    error: str | None = None


@dataclass
class FormulaValue:
    """A formula's printed value for a report, or the problem: ("missing", year, item) | ("error", reason)."""
    shown: str | None
    evidence: list[FactEvidence]
    problem: tuple | None
    notes: list[str]
    method: str                      # lookup (stated by the report) | formula | not_found


# how a category the report's 专业构成/教育程度 table does not print is said to count as 0
ZERO_FILLED = "按0计"


def _label_key(label: str) -> str:
    """A row label as compared with the words a question wrote: no spaces, no （人）, no closing 学历/人数."""
    key = re.sub(r"\s|[（(]人[)）]", "", label)
    return re.sub(r"(?:学历|人数)$", "", key)


def _zero_filled(fact: Fact) -> bool:
    """A category counted as 0 because its table does not print it (no row read)."""
    return fact.page is None and (fact.source or "").endswith(ZERO_FILLED)


class Values:
    def __init__(self, source: FactSource, catalog: Catalog, style: str):
        self.source = source
        self.formulas = catalog.formulas
        self.vocab = catalog.vocabulary
        self.point_in_time = catalog.items.point_in_time
        self.t = catalog.templates
        self.style = style
        self.contains: dict[str, list[str]] = dict(catalog.employees.get("contains") or {})
        self.places = catalog.places

    # --------------------------------------------------------------------------- which report

    def company(self, u: Understanding) -> tuple[CompanyMatch, str]:
        """(company match, its display name) — the first company named that the store has."""
        for m in u.companies:
            if self.source.years_of(m.company.key):
                return m, self._display(m)
        m = u.companies[0]
        return m, self._display(m)

    def _display(self, m: CompanyMatch) -> str:
        """finglm: the name as the question wrote it (the contest's references do); human: 简称（全称，代码）."""
        asked = m.text if m.score == 100 and not m.text.isdigit() else (m.company.short_name or m.company.full_name or m.text)
        if self.style == "finglm":
            return asked
        return display_name(m.company.short_name or asked, m.company.full_name, m.company.stock_code)

    def report(self, u: Understanding) -> tuple[Report | None, str, int | None, str]:
        """(report, company display name, year, note) for a single-report question; no year asked → the latest."""
        m, name = self.company(u)
        year = u.years.asked
        note = ""
        if year is None:
            years = self.source.years_of(m.company.key, m.text)
            if years:
                year = years[-1]
                note = render(self.t, "no_year", company=name, year=year)
        rep = self.source.report(m.company.key, year) if year is not None else None
        return rep, name, year, note

    def read_year(self, company: str, items: list[str], year: int, opening: bool = False,
                  restated: str | None = None) -> Reading:
        """The items' values of one year: the year's own report, else the previous-period column of the next
        year's report, else the summary table of the report two years on (主要会计数据, three years; said
        in the note). `opening`: the opening balances of the year (期初) — the year's report's
        previous-period column, else the year before's report. `restated`: "after" — as a later report restated
        them (调整后: its previous-period column, never the year's own report); "comparative" — the same column, said as
        any previous-period column is (a per-share figure compared with the year's)."""
        if opening:
            order = self.source.opening_order(year)
        elif restated in ("after", "comparative"):
            order = [(year + 1, "previous"), (year + 2, "previous2")]
        else:
            order = [(year, "current"), (year + 1, "previous"), (year + 2, "previous2")]
        own = self.source.report(company, year)
        for y, period in order:
            rep = own if y == year else self.source.report(company, y)
            if rep is None:
                continue
            got = self.facts(rep, items, period)
            if not got:
                continue
            note = ""
            if opening and all(f.report in (None, rep.key) for f in got.values()):
                column = render(self.t, "note_opening_column" if period in ("previous", "opening")
                                else "note_closing_column")
                note = render(self.t, "note_opening", year=year - 1, report=y, column=column)
            elif opening:
                note = ""   # (read from another report — a count at the year end before —: its own note says which)
            elif y != year:
                key = "note_summary_column" if period == "previous2" else \
                    "note_restated_column" if restated == "after" else "note_previous_column"
                note = render(self.t, key, year=year, report=y)
            return Reading(got, year, rep, note)
        # nothing found: the year's own report, when there is one, is the one that lacks the value
        return Reading({}, year, own, "")

    def definition(self, item: str, fact: Fact | None = None) -> list[str]:
        """What the answer says of how an item was read: a compound item's definition (三费 = …), or the
        note of a report-dependent equivalence when the fact was derived by it (按营业总收入回答)."""
        d = self.formulas.derived.get(item)
        if d is None:
            return []
        if fact is not None:   # (the way the value was derived: a further way's, where it was)
            d = next((w for w in (d, *self.formulas.derived_else.get(item, ()))
                      if fact.source.endswith("; " + w.expr.replace(" ", ""))), d)
        if self.info(item).statement == "组合项目":
            return [f"{item} = {d.expr.replace(' ', '')}"]
        note = self.formulas.derived_notes.get(item)
        if note and fact is not None and fact.source.endswith("; " + d.expr.replace(" ", "")):
            return [note]   # (a note is the item's: said of a value derived any of its ways)
        return []

    def scaled(self, fact: Fact, unit: str | None, decimals: int | None) -> str:
        """A fact printed in the unit the question asked (万元, 亿元 …); as stated when none or not an amount."""
        number = fact.number
        if not unit or number is None or self.info(fact.item).kind != "amount" or fact.unit not in (None, "元"):
            return self.show(fact)
        return format_scaled(number, unit, decimals, self.style)

    # --------------------------------------------------------------------------- facts

    def facts(self, rep: Report, items: list[str], period: str = "current", together: bool = False,
              deriving: frozenset[str] = frozenset()) -> dict[str, Fact]:
        """Facts of the report, absent items derived and absent categories 0 (see the module docstring).
        (`deriving`: the items being derived already, never derived again from their own parts: 每股 from
        每10股 and 每10股 from 每股 where a report prints neither.)"""
        got = self.source.facts(rep, items, period)
        for item in items:
            d = self.formulas.derived.get(item)
            if item in got or d is None or item in deriving:
                continue
            unless = self.formulas.derived_unless.get(item)
            if unless and self.source.facts(rep, list(unless), period):
                continue   # 营业总收入 with 利息收入 in it is not 营业收入
            # its ways in order, the first giving a value (本科及以上: 本科 + 硕士 + 博士及以上, else 本科 + 硕士及以上
            # where the table prints that row)
            for way in (d, *self.formulas.derived_else.get(item, ())):
                fact = self._derived(rep, item, way, period, deriving)
                if fact is not None:
                    got[item] = fact
                    break
        got.update(self._zero_categories(rep, items, got, period, together))
        return got

    def _derived(self, rep: Report, item: str, d: Formula, period: str, deriving: frozenset[str]) -> Fact | None:
        """An absent item computed one way from the report's facts of its parts (None: a part has no value)."""
        names = [i.item for i in d.inputs.values()]
        parts = self.facts(rep, names, period, together=True, deriving=deriving | {item})
        if all(n in parts and _zero_filled(parts[n]) for n in names):
            return None   # a sum of rows the report's table does not print (硕士 + 博士 of a table naming them
            # otherwise) matched nothing: no value, never 0
        if not all(n in parts and parts[n].number is not None for n in names):
            return None
        try:
            value = d.evaluate({lbl: parts[i.item].number for lbl, i in d.inputs.items()})
        except (FormulaError, ArithmeticError):
            return None
        pages = sorted({p for n in names if (p := parts[n].page)})
        first = parts[names[0]]
        # (a part the table does not print, counted 0, is said: 硕士 + 博士及以上 where no 博士 row is printed)
        zero = [n for n in names if _zero_filled(parts[n])]
        said = f"{'、'.join(zero)}{ZERO_FILLED}; " if zero else ""
        return Fact(item, str(value), first.unit, period, first.statement, pages[0] if pages else None,
                    f"{first.source}; {said}{d.expr.replace(' ', '')}", rep.year, report=rep.key)

    def _zero_categories(self, rep: Report, items: list[str], got: dict[str, Fact], period: str,
                         together: bool) -> dict[str, Fact]:
        out: dict[str, Fact] = {}
        if self.source.parent:
            return out  # the parent's statements have no employee tables: nothing is 0 there
        for item in items:
            info = self.vocab.items.get(item)
            if item in got or info is None or info.statement not in ("教育程度", "专业构成"):
                continue
            if item in self.formulas.derived:
                continue   # a sum of categories (硕士及以上): only of rows read, never 0 for rows that matched none
            sibling = together and any(f.statement == info.statement and f.number for f in got.values())
            rows = self.source.statement_items(rep, info.statement)
            if (sibling or rows) and not self._held_by_wider_row(item, rows):
                out[item] = Fact(item, "0", "人", period, info.statement, None,
                                 f"{info.statement}表未列此类别，{ZERO_FILLED}", rep.year, report=rep.key)
        return out

    def printed_row(self, rep: Report, item: str, said: str | None) -> Fact | None:
        """The row of a 专业构成/教育程度 table printed with the words the question wrote for an item, where the
        report reads that row as another category (苏常柴 2019 prints 本科以上 beside 本科: those above 本科, its
        硕士及以上): a question quoting the report's own label asks that row, not the item it is a synonym of."""
        info = self.vocab.items.get(item)
        if not said or said == item or info is None or info.statement not in ("教育程度", "专业构成") \
                or self.source.parent:
            return None
        others = sorted(self.source.statement_items(rep, info.statement) - {item})
        key = _label_key(said)
        return next((f for f in self.source.facts(rep, others).values()
                     if f.statement == info.statement and f.label and _label_key(f.label) == key), None)

    def _held_by_wider_row(self, item: str, rows: set[str]) -> bool:
        """Whether a row of the report's 专业构成/教育程度 table is a wider category holding `item` (张家界
        2016 prints 本科及以上: its 博士 are in that row, not 0)."""
        return any(item in self.contains.get(r, ()) for r in rows)

    def at_a_date(self, item: str) -> bool:
        """Whether an item is read at a date (a balance-sheet line, a bank's 不良贷款率): it has a 期初."""
        return self.info(item).statement == "资产负债表" or item in self.point_in_time

    def info(self, item: str) -> ItemInfo:
        return self.vocab.items.get(item) or ItemInfo(item, "amount", None, "元")

    def printed_change(self, rep: Report, item: str, of: Fact) -> Fact | None:
        """The filing's own printed change of an item on the same period a year before (an interim filing's
        本报告期比上年同期增减变动幅度: period `change`), where the filing of the value `of` prints one; else None."""
        got = self.source.facts(rep, [item], "change").get(item)
        return got if got is not None and got.number is not None and got.report == of.report else None

    def printed_rate(self, change: Fact, decimals: int | None) -> str:
        """A printed change (in %) as an answer says a rate: two decimals unless asked."""
        assert change.number is not None
        return format_result(change.number / 100, "percent", decimals if decimals is not None else 2, self.style)

    def show(self, fact: Fact) -> str:
        """A fact as the answer prints it (its own unit says how it was printed)."""
        number = fact.number
        kind = "text" if number is None else self.info(fact.item).kind
        if kind != "text":
            kind = {"%": "percent", "人": "count", "元/股": "per_share"}.get(fact.unit or "", kind)
        if kind == "text" or number is None:   # no number: kind is "text"
            return format_value(fact.value, kind, self.style, fact.unit)
        return format_value(number, kind, self.style, fact.unit)

    # --------------------------------------------------------------------------- formulas

    def _inputs(self, f: Formula, rep: Report, column: str = "current") -> tuple[dict[str, Decimal], list[FactEvidence],
                                                                                list[tuple[str, int]], list[str]]:
        """Values of a formula's inputs for a report: (values, evidence, missing (label, year), notes).
        column "previous": the formula for the year before the report's, from its previous-period column."""
        values: dict[str, Decimal] = {}
        evidence: list[FactEvidence] = []
        missing: list[tuple[str, int]] = []
        notes: list[str] = []
        shift = 1 if column == "previous" else 0
        now = self.facts(rep, list({i.item for i in f.inputs.values() if i.offset == 0}), column, together=True)
        prev_rep = self.source.report(rep.company, rep.year - 1 - shift)
        prev_items = list({i.item for i in f.inputs.values() if i.offset == -1})
        # a per-share figure of the year before as the report restates it (a bonus issue changes the shares: its
        # previous-period column first, as a change of it is computed — answer/change.py)
        per_share = [i for i in prev_items if self.info(i).kind == "per_share"]
        restated = self.facts(rep, per_share, "previous") if per_share and not shift else {}
        prev_items = [i for i in prev_items if i not in restated]
        prev = self.facts(prev_rep, prev_items) if prev_rep and prev_items else {}
        prev.update(restated)
        # the asked report's previous-period column, only for what the previous year's report lacks
        prev_col = self.facts(rep, [i for i in prev_items if i not in prev], "previous") if not shift else {}
        for label, inp in f.inputs.items():
            fact = now.get(inp.item) if inp.offset == 0 else (prev.get(inp.item) or prev_col.get(inp.item))
            year = rep.year - shift + inp.offset
            number = fact.number if fact is not None else None
            if fact is None or number is None:
                missing.append((label, year))
                continue
            values[label] = number
            ev = fact_evidence(fact, self.show(fact), label)
            if inp.offset and fact.period == "previous":
                ev.year = year
                notes.append(render(self.t, "note_input_previous", label=label, report=rep.year))
            evidence.append(ev)
        return values, evidence, missing, notes

    def compute(self, f: Formula, rep: Report, column: str = "current") -> Computed:
        """A formula over one report (also what statistics ranks)."""
        values, evidence, missing, notes = self._inputs(f, rep, column)
        if missing:
            return Computed(None, evidence, missing, notes)
        try:
            return Computed(f.evaluate(values), evidence, [], notes)
        except (FormulaError, ArithmeticError) as exc:
            return Computed(None, evidence, [], notes, str(exc) or "无法计算")

    def formula_value(self, f: Formula, rep: Report, decimals: int | None, reported: bool = True,
                      unit: str | None = None, column: str = "current") -> FormulaValue:
        """A formula's printed value for a report; a value the report states under its name wins (每股净资产)
        unless `reported` is False (a formula the question spells out). An amount is printed in `unit`.
        column "previous": the year before the report's, from its previous-period column."""
        stated = self.source.fact(rep, f.name, column) if reported else None
        if stated is not None and stated.number is not None:
            reported_fact = stated
            kind = "per_share" if f.output == "per_share" else ("amount" if f.output == "amount" else None)
            assert reported_fact.number is not None
            shown = format_value(reported_fact.number, kind, self.style) if kind else self.show(reported_fact)
            return FormulaValue(shown, [fact_evidence(reported_fact, shown)], None, [], "lookup")
        c = self.compute(f, rep, column)
        if c.missing:
            label, y = c.missing[0]
            item = label[2:] if label.startswith("上年") and f.inputs[label].offset else label
            return FormulaValue(None, c.evidence, ("missing", y, item), c.notes, "not_found")
        if c.error or c.value is None:
            return FormulaValue(None, c.evidence, ("error", c.error), c.notes, "formula")
        return FormulaValue(self.formula_shown(f, c.value, decimals, unit), c.evidence, None, c.notes, "formula")

    def formula_shown(self, f: Formula, value: Decimal, decimals: int | None, unit: str | None = None) -> str:
        """A computed formula value as printed: an amount in `unit` when one is asked, else by its output
        (percent, ratio …) to `decimals` (the formula's own when None)."""
        if unit and f.output == "amount":
            return format_scaled(value, unit, decimals, self.style)
        return format_result(value, f.output, decimals if decimals is not None else f.decimals, self.style)

    def problem_text(self, problem: tuple, name: str, year: int | None, fname: str) -> str:
        if problem[0] == "missing":
            return render(self.t, "not_found_prev", company=name, year=problem[1], item=problem[2], name=fname)
        return render(self.t, "not_computable", company=name, year=year, name=fname, reason=problem[1])


def display_name(short: str, full: str | None, code: str | None) -> str:
    """简称（全称，代码） — the parts known and different from the short name."""
    extra = [x for x in (full, code) if x and x != short]
    return f"{short}（{'，'.join(extra)}）" if extra else short


def label_of(item: str, words: str | None) -> str:
    """How the answer names an item: the canonical name, with the question's words when they differ (and name it:
    a question's own phrase — 赚了多少钱 — is no name)."""
    if not words or words.replace("的", "") == item.replace("的", "") or "多少" in words:
        return item
    return f"{words}（{item}）"
