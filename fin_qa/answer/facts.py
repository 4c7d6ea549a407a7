"""The facts an answer reads: reports of the store (optionally limited to a scope list) and their facts.

Loading reads only the reports table (11,588 rows load in a fraction of a second); facts are read per
report through the (report_id, item) index, and per item across reports into pandas for statistics.
A fact read from a document (pdf/txt) wins over an imported one; the current-period column wins
over the previous-period one.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

import pandas as pd

from ..base import FinQAError
from ..catalog.periods import PERIOD_ORDER
from ..catalog.report_names import ReportNames
from ..store import PARENT_STATEMENT_PREFIX as PARENT_PREFIX
from ..store import Report, Store

_LINE_KEY = re.compile(r"^(?P<code>\d{6})\D+(?P<year>\d{4})")
# report fields every report has even without a profile section
REPORT_FIELDS = {"中文名称": "full_name", "股票简称": "short_name", "中文简称": "short_name", "股票代码": "stock_code"}


@dataclass
class Fact:
    item: str
    value: str
    unit: str | None
    period: str
    statement: str | None
    page: int | None
    source: str
    year: int
    label: str | None = None      # the row label as printed
    report: str | None = None     # the key of the report it was read from

    @property
    def number(self) -> Decimal | None:
        try:
            return Decimal(self.value)
        except (InvalidOperation, TypeError, ValueError):
            return None



def read_scope(path: str | Path, names: ReportNames) -> set[tuple[str, int]]:
    """A report list: FinGLM file names (…__公司__600000__简称__2019年__…) or "600000 2019" lines.
    Returns {(stock code or full name, year)}."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise FinQAError(f"{p}: cannot read scope list ({exc.strerror or exc})") from None
    out: set[tuple[str, int]] = set()
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        named = names.key_of(line)
        if named:
            full, code, _, year = named
            out.add((code, year))
            out.add((full, year))
            continue
        m = _LINE_KEY.match(line)
        if m:
            out.add((m.group("code"), int(m.group("year"))))
            continue
        if n == 1 and "," in line:  # a CSV header
            continue
        raise FinQAError(f"{p}:{n}: not a report name (expected a FinGLM file name or 'stock_code year')")
    if not out:
        raise FinQAError(f"{p}: the scope list names no report")
    return out


COLUMNS_KEPT = 256   # (item, year) columns kept for rankings (each a row per report of the year)


# a company's Latin abbreviation as a name questions use (CATL, HitGen): one word of 3–10 letters
_LATIN_NAME = re.compile(r"[A-Za-z]{3,10}")


class FactSource:
    """The reports answers may read (the scope) and their facts, read through the store's methods."""

    def __init__(self, store: Store, scope: set[tuple[str, int]] | None = None) -> None:
        self.store = store
        self.reports: list[Report] = []          # the reports answers may read (the scope): one a company-year
        self.known: list[Report] = []            # every filing of the store: names for understanding
        self.by_key: dict[tuple[str, int], Report] = {}
        self.keys: dict[int, str] = {}           # report id → key (stock_code:year)
        self._years: dict[str, list[int]] = {}
        self._named_years: dict[tuple[str, str], list[int]] | None = None   # (company, a name it printed) → years
        # every filing in scope by (company, year, period): the full report first, then its summary (issue 44)
        self.filings: dict[tuple[str, int, str], list[Report]] = {}
        every = store.report_list()
        for r in sorted(every, key=lambda r: r.kind != "report"):
            self.known.append(r)
            self.keys[r.id] = r.key
            if scope is not None and (r.stock_code, r.year) not in scope and (r.full_name, r.year) not in scope:
                continue
            self.filings.setdefault((r.company, r.year, r.period), []).append(r)
        # the reports of the annual path: a year's 年度报告, else its 摘要 — never a quarter's or a half year's
        # filing (a first quarter's report stored as the year before's annual report answered its revenue)
        for r in every:
            if r.period != "FY" or self.filings.get((r.company, r.year, r.period), [None])[0] is not r:
                continue
            self.reports.append(r)
            self.by_key[(r.company, r.year)] = r
            self._years.setdefault(r.company, []).append(r.year)
        for ys in self._years.values():
            ys.sort()
        self.scope = scope
        self.parent = False   # True: the parent company's own statements (母公司…), see parent_view
        self._columns: tuple[tuple[int, int] | None, dict[tuple[str, int], pd.DataFrame]] = (None, {})
        self._documented: tuple[tuple[int, int] | None, frozenset[str]] = (None, frozenset())

    def report(self, company: str, year: int) -> Report | None:
        return self.by_key.get((company, year))

    def filing(self, company: str, year: int, period: str) -> list[Report]:
        """The company's filings of a period (Q1 | HY | Q3 | FY) of a year: the full report first, then its
        summary."""
        return self.filings.get((company, year, period), [])

    def opening_order(self, year: int) -> list[tuple[int, str]]:
        """Where a year's opening balances (期初) are read, in turn: (report year, column) — the year's report's
        previous-period column, else the year before's report's own."""
        return [(year, "previous"), (year - 1, "current")]

    def periods_of(self, company: str) -> list[tuple[int, str]]:
        """(year, period) of every filing of the company, in time order."""
        return sorted({(y, p) for (c, y, p) in self.filings if c == company},
                      key=lambda yp: (yp[0], PERIOD_ORDER[yp[1]]))

    def years_of(self, company: str, named: str | None = None) -> list[int]:
        """The company's report years; with `named`, the name a question gave it: the years of the reports
        printing that name when only some do (深发展A: its 2008 report, not 平安银行's 2013)."""
        years = self._years.get(company, [])
        if named and len(years) > 1:
            if self._named_years is None:
                self._named_years = {}
                for r in self.known:
                    for n in {r.short_name, r.full_name}:
                        if n:
                            self._named_years.setdefault((r.company, n), []).append(r.year)
            under = [y for y in self._named_years.get((company, named)) or () if y in years]
            if under and len(under) < len(years):
                return sorted(under)
        return years

    def parent_view(self) -> "FactSource":
        """The same reports, their facts read from the parent company's own statements (scope parent)."""
        view = copy.copy(self)
        view.parent = True
        return view

    def has_parent_statements(self, report: Report) -> bool:
        return any(self.store.has_statement(report.id, PARENT_PREFIX + s) for s in ("资产负债表", "利润表", "现金流量表"))

    def facts(self, report: Report, items: list[str], period: str = "current") -> dict[str, Fact]:
        """The best fact of each item in the report (document before import), in the source's scope."""
        if not items:
            return {}
        out: dict[str, Fact] = {}
        for f in self.store.report_facts(report.id, items, period, parent=self.parent):
            out.setdefault(f.item, Fact(f.item, f.value, f.unit, f.period, f.statement, f.page, f.source, report.year,
                                        f.raw_label, report.key))
        if period == "current" and report.kind == "summary" and report.period == "FY" and len(out) < len(items):
            # a year-end balance an annual summary does not print (it prints no balance sheet): the next year's
            # interim filing's 上年度末 column is that year end (its balance sheet's previous column), cited — of
            # an annual summary only (a half-year summary's 6月30日 is no year end)
            for p in ("Q1", "HY", "Q3"):
                for r in self.filings.get((report.company, report.year + 1, p), []):
                    missing = [i for i in items if i not in out]
                    for f in self.store.report_facts(r.id, missing, "previous", parent=self.parent):
                        if f.statement and f.statement.endswith("资产负债表"):
                            out.setdefault(f.item, Fact(f.item, f.value, f.unit, "current", f.statement, f.page,
                                                        f.source, report.year, f.raw_label, r.key))
        if period == "current" and not self.parent:
            for item in items:
                col = REPORT_FIELDS.get(item)
                value = getattr(report, col) if col else None
                if item not in out and value:
                    out[item] = Fact(item, value, None, "current", "公司信息", None, "report list", report.year,
                                     report=report.key)
        return out

    def fact(self, report: Report, item: str, period: str = "current") -> Fact | None:
        return self.facts(report, [item], period).get(item)

    def has_statement(self, report: Report, statement: str) -> bool:
        """Whether a document (not an imported table) of the report printed this table."""
        return self.store.has_statement(report.id, statement)

    def former_names(self) -> dict[str, set[str]]:
        """company key → the other names its reports print: former short names (变更前股票简称) and its Latin
        abbreviation (公司的外文名称缩写: CATL, JOINN — one word of letters)."""
        by_id = {r.id: r.company for r in self.known}
        out: dict[str, set[str]] = {}
        for rid, value in self.store.text_values("变更前股票简称"):
            key = by_id.get(rid)
            for name in re.split(r"[、,，;；/\s]+", value or ""):
                if key and len(name) >= 2 and name not in ("无", "不适用"):
                    out.setdefault(key, set()).add(name)
        for rid, value in self.store.text_values("外文名称缩写"):
            key = by_id.get(rid)
            if key and _LATIN_NAME.fullmatch((value or "").strip()):
                # (as printed, and in capitals and small letters: "catl" is CATL)
                out.setdefault(key, set()).update({value.strip(), value.strip().upper(), value.strip().lower()})
        return out

    def documented(self) -> frozenset[str]:
        """The companies with a filing read from its document (its tables or sections in the store), as of the
        store's state: a company of imported values only (FinGLM's tables) has no table, sentence or
        subsidiary to read."""
        state = self.store.state()
        if self._documented[0] != state:
            having = self.store.documented_reports()
            self._documented = (state, frozenset(r.company for r in self.known if r.id in having))
        return self._documented[1]

    def statement_items(self, report: Report, statement: str) -> set[str]:
        """The items a document of the report printed in this table (its rows, as canonical items)."""
        return self.store.statement_items(report.id, statement)

    def has_text(self, report: Report) -> bool:
        """Whether the report's text is in the store (an ingested document, not only imported values)."""
        return self.store.has_text(report.id)

    def column(self, item: str, year: int) -> pd.DataFrame:
        """One row per report of the year (in scope) with a numeric value of the item: columns
        report_id, company, short_name, full_name, value (str), num (float), page, source. (A copy of the
        one made for the item and year while the store stays the same: every ranking of them reads it.)"""
        state = self.store.state()
        if self._columns[0] != state:
            self._columns = (state, {})
        got = self._columns[1].get((item, year))
        if got is None:
            if len(self._columns[1]) >= COLUMNS_KEPT:
                self._columns[1].clear()
            got = self._columns[1][(item, year)] = self._column(item, year)
        return got.copy()

    def _column(self, item: str, year: int) -> pd.DataFrame:
        df = pd.DataFrame(self.store.item_values(item), columns=["report_id", "value", "num", "page", "source"])
        df = df.drop_duplicates("report_id", keep="first")
        reps = pd.DataFrame([{"report_id": r.id, "company": r.company, "short_name": r.short_name,
                              "full_name": r.full_name} for r in self.reports if r.year == year])
        if reps.empty or df.empty:
            return pd.DataFrame(columns=["report_id", "company", "short_name", "full_name", "value", "num",
                                         "page", "source"])
        return reps[["report_id", "company", "short_name", "full_name"]].merge(df, on="report_id", how="inner")

    def text_column(self, item: str, year: int) -> dict[int, str]:
        """report_id → text value of a field (注册地址, 办公地址) for the reports of the year in scope."""
        ids = {r.id for r in self.reports if r.year == year}
        out: dict[int, str] = {}
        for rid, value in self.store.text_values(item):
            if rid in ids:
                out.setdefault(rid, value)
        return out
