"""A bank's indicators as facts (不良贷款率, 资本充足率, 净息差 …: keyword_tables/items.yaml 监管指标), read from
the tables that print them — 主要会计数据和财务指标 and its supplements (补充财务指标, 监管指标, 资本充足率) — each
with its page: the first table row naming the indicator, in the report year's column (the first value
column whose header names that year, or names no year; 本集团 before 本行, a change column never)."""
from __future__ import annotations

import re
from decimal import Decimal

from ..catalog.items import ItemTable
from ..catalog.vocabulary import INDICATORS
from ..numbers import parse_number
from ..store import PARENT_STATEMENT_PREFIX, FactRow
from .tables import Table, is_number

_YEAR = re.compile(r"(?:19|20)\d\d")
_CHANGE = re.compile(r"增减|变动|变化|比上年|较上年")
_STANDARD = re.compile(r"标准|监管要求|要求|限值")   # a column of the regulator's threshold (≥100), no value
_OWN = re.compile(r"本行|银行|母公司")   # a column of the bank's own (本集团 | 本行, 集团 | 银行)
_PERCENT_CAP = Decimal(1000)   # a rate above 1,000% is an amount read in the wrong column


def _value(cell: str) -> Decimal | None:
    v = parse_number(cell.replace("%", "").strip())
    return None if v is None or abs(v) >= _PERCENT_CAP else Decimal(str(v))


def _indicator(label: str, items: ItemTable) -> str | None:
    """The indicator a row's label names: as printed less its "(%)", or the words after a group heading run
    into it ("资产质量指标(%)不良贷款率")."""
    bare = re.sub(r"[（(]\s*%\s*[)）]", "", label)
    for text in (bare, re.split(r"[)）]", label)[-1]):
        item = items.canonical(text) if text else None
        if item is not None:
            return item
    return None


def _columns(header: list[str], row: list[str], year: int) -> dict[str, int]:
    """The row's columns of the report year (本集团's, and the bank's own: 本行/银行), and of the year before."""
    out: dict[str, int] = {}
    for k, cell in enumerate(row):
        head = header[k] if k < len(header) else ""
        if not cell or not is_number(cell) or _CHANGE.search(head) or _STANDARD.search(head):
            continue
        years = _YEAR.findall(head)
        own = bool(_OWN.search(head)) and "集团" not in head
        if "current" not in out:
            if not own and (not years or str(year) in years):
                out["current"] = k
            continue
        # the bank's own: its header naming the report year, or no year while no earlier year was met
        # (集团 2022 | 银行 | 集团 2021 | 银行: the second 银行 is 2021's)
        if own and "parent" not in out and (str(year) in years or (not years and "previous" not in out)):
            out["parent"] = k
        elif not own and "previous" not in out and str(year - 1) in years and str(year) not in years:
            out["previous"] = k
    return out


def extract_indicators(tables: list[Table], year: int | None, items: ItemTable, source: str) -> list[FactRow]:
    """The indicators of the report's tables (FactRow, statement 监管指标, unit %): the report year's and the
    year before's of 本集团, and the bank's own (本行) as parent-scope facts (母公司监管指标)."""
    if year is None:
        return []
    words = [w for it in items.items.values() if it.statement == INDICATORS for w in (it.name, *it.synonyms)]
    if not words:
        return []
    named = re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)))
    out: dict[tuple[str, str], FactRow] = {}
    for t in tables:
        for r, row in enumerate(t.rows):
            label = next((c for c in row if c and not is_number(c)), "")
            # (a row naming no indicator's words is not looked up: most rows of most reports)
            item = _indicator(label, items) if label and named.search(label.replace(" ", "")) else None
            if item is None or all((item, w) in out for w in ("current", "parent")):
                continue   # (a later table may print the bank's own beside the group's: 本集团 | 本行)
            page = t.pages[r] if r < len(t.pages) else t.page_start
            columns = _columns(t.header, row, year)
            if (item, "current") in out and "parent" not in columns:
                continue
            for which, k in columns.items():
                value = _value(row[k])
                if value is None:
                    continue
                period, statement = ("current", PARENT_STATEMENT_PREFIX + INDICATORS) if which == "parent" else \
                    (which, INDICATORS)
                key = (item, which)
                if key not in out:
                    out[key] = FactRow(item, str(value), float(value), "%", period, statement, page, source, label)
    return list(out.values())
