"""The facts an answer reads: reports of the store (optionally limited to a scope list) and their facts.

Loading reads only the reports table (11,588 rows load in a fraction of a second); facts are read per
report through the (report_id, item) index, and per item across reports into pandas for statistics.
A fact read from a document (pdf/txt) wins over an imported one; the current-period column wins
over the previous-period one.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

import pandas as pd

from .. import FinQAError
from ..ingest.pipeline import FINGLM_REPORT
from ..store import Store

_LINE_KEY = re.compile(r"^(?P<code>\d{6})\D+(?P<year>\d{4})")
# report fields every report has even without a profile section
REPORT_FIELDS = {"中文名称": "full_name", "股票简称": "short_name", "中文简称": "short_name", "股票代码": "stock_code"}
_SOURCE_ORDER = "CASE WHEN source LIKE 'import:%' THEN 1 ELSE 0 END"


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
    label: str | None = None

    @property
    def number(self) -> Decimal | None:
        try:
            return Decimal(self.value)
        except (InvalidOperation, TypeError, ValueError):
            return None

    def evidence(self, shown: str | None = None) -> dict:
        ev = {"item": self.item, "value": shown if shown is not None else self.value, "year": self.year,
              "page": self.page, "source": self.source}
        if self.period == "previous":
            ev["period"] = "previous"
        return ev


def read_scope(path: str | Path) -> set[tuple[str, int]]:
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
        m = FINGLM_REPORT.search(line)
        if m:
            out.add((m.group("code"), int(m.group("year"))))
            out.add((m.group("full"), int(m.group("year"))))
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


class FactSource:
    def __init__(self, store: Store, scope: set[tuple[str, int]] | None = None):
        self.store = store
        self.db = store.db
        rows = self.db.execute(
            "SELECT id, stock_code, year, full_name, short_name, key FROM reports").fetchall()
        self.reports: list[dict] = []          # the reports answers may read (the scope)
        self.known: list[dict] = []            # every report of the store: names for understanding
        self.by_key: dict[tuple[str, int], dict] = {}
        self._years: dict[str, list[int]] = {}
        for rid, code, year, full, short, key in rows:
            company = code or f"name:{full or short}"
            r = {"id": rid, "stock_code": code, "year": year, "full_name": full, "short_name": short,
                 "company": company, "key": key}
            self.known.append(r)
            if scope is not None and (code, year) not in scope and (full, year) not in scope:
                continue
            self.reports.append(r)
            self.by_key[(company, year)] = r
            self._years.setdefault(company, []).append(year)
        for ys in self._years.values():
            ys.sort()
        self.scope = scope

    def report(self, company: str, year: int) -> dict | None:
        return self.by_key.get((company, year))

    def years_of(self, company: str) -> list[int]:
        return self._years.get(company, [])

    def facts(self, report: dict, items: list[str], period: str = "current") -> dict[str, Fact]:
        """The best fact of each item in the report (document before import)."""
        if not items:
            return {}
        q = (f"SELECT item, value, unit, period, statement, page, source, raw_label FROM facts INDEXED BY facts_report "
             f"WHERE report_id=? AND period=? AND item IN ({','.join('?' * len(items))}) ORDER BY {_SOURCE_ORDER}, id")
        out: dict[str, Fact] = {}
        for item, value, unit, per, stmt, page, source, raw in self.db.execute(q, (report["id"], period, *items)):
            out.setdefault(item, Fact(item, value, unit, per, stmt, page, source, report["year"], raw))
        if period == "current":
            for item in items:
                col = REPORT_FIELDS.get(item)
                if item not in out and col and report.get(col):
                    out[item] = Fact(item, report[col], None, "current", "公司信息", None, "report list", report["year"])
        return out

    def fact(self, report: dict, item: str, period: str = "current") -> Fact | None:
        return self.facts(report, [item], period).get(item)

    def has_statement(self, report: dict, statement: str) -> bool:
        """Whether a document (not an imported table) of the report printed this table."""
        return self.db.execute("SELECT 1 FROM facts INDEXED BY facts_report WHERE report_id=? AND statement=? "
                               "AND source NOT LIKE 'import:%' LIMIT 1",
                               (report["id"], statement)).fetchone() is not None

    def has_text(self, report: dict) -> bool:
        """Whether the report's text is in the store (an ingested document, not only imported values)."""
        return self.db.execute("SELECT 1 FROM chunks WHERE report_id=? LIMIT 1", (report["id"],)).fetchone() is not None

    def column(self, item: str, year: int) -> pd.DataFrame:
        """One row per report of the year (in scope) with a numeric value of the item: columns
        report_id, company, short_name, full_name, value (str), num (float), page, source."""
        q = (f"SELECT report_id, value, num, page, source FROM facts WHERE item=? AND period='current' "
             f"AND num IS NOT NULL ORDER BY {_SOURCE_ORDER}, id")
        df = pd.DataFrame(self.db.execute(q, (item,)).fetchall(),
                          columns=["report_id", "value", "num", "page", "source"])
        df = df.drop_duplicates("report_id", keep="first")
        reps = pd.DataFrame([r for r in self.reports if r["year"] == year])
        if reps.empty or df.empty:
            return pd.DataFrame(columns=["report_id", "company", "short_name", "full_name", "value", "num",
                                         "page", "source"])
        reps = reps.rename(columns={"id": "report_id"})
        return reps[["report_id", "company", "short_name", "full_name"]].merge(df, on="report_id", how="inner")

    def text_column(self, item: str, year: int) -> dict[int, str]:
        """report_id → text value of a field (注册地址, 办公地址) for the reports of the year in scope."""
        ids = {r["id"] for r in self.reports if r["year"] == year}
        q = f"SELECT report_id, value FROM facts WHERE item=? AND period='current' ORDER BY {_SOURCE_ORDER}, id"
        out: dict[int, str] = {}
        for rid, value in self.db.execute(q, (item,)):
            if rid in ids:
                out.setdefault(rid, value)
        return out
