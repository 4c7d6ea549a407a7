"""A bank's indicators as facts (不良贷款率, 资本充足率, 净息差 …: keyword_tables/items.yaml 监管指标), read from
the tables that print them — 主要会计数据和财务指标 and its supplements (补充财务指标, 监管指标, 资本充足率) — each
with its page: the first table row naming the indicator, in the report year's column (the first value
column whose header names that year, or names no year; 本集团 before 本行, a change column never)."""
from __future__ import annotations

import re
from decimal import Decimal

from ..catalog.items import ItemTable
from ..catalog.vocabulary import BANK_AMOUNTS, INDICATORS
from ..numbers import decimal_str, parse_number, to_yuan
from ..store import PARENT_STATEMENT_PREFIX, FactRow
from .tables import Table, is_number

_YEAR = re.compile(r"(?:19|20)\d\d")
_CHANGE = re.compile(r"增减|变动|变化|比上年|较上年")
_STANDARD = re.compile(r"标准|监管要求|要求|限值")   # a column of the regulator's threshold (≥100), no value
_OWN = re.compile(r"本行|银行|母公司")   # a column of the bank's own (本集团 | 本行, 集团 | 银行)
# the tables whose amounts are the bank's own totals (not a segment's, a region's or a programme's:
# 精准扶贫 prints 贷款余额 too)
_SUMMARY_TABLE = re.compile(r"主要会计数据|财务指标|补充财务|财务数据|主要指标|经营指标|贷款五级分类|五级分类")
_PERCENT_CAP = Decimal(1000)   # a rate above 1,000% is an amount read in the wrong column


_UNIT_IN_HEADER = re.compile(r"[（(](?:人民币|金额单位[:：]?|单位[:：]?)?(元|千元|万元|百万元|亿元)[)）]")


def _header_unit(t: Table) -> str | None:
    """The unit a table's header names ("规模指标（人民币百万元）") when no line above it does."""
    m = _UNIT_IN_HEADER.search("".join(t.header).replace(" ", ""))
    return m.group(1) if m else None


def _value(cell: str, percent: bool = True) -> Decimal | None:
    v = parse_number(cell.replace("%", "").strip())
    if v is None or (percent and abs(v) >= _PERCENT_CAP) or (not percent and "%" in cell):
        return None
    return Decimal(str(v))


def _indicator(label: str, items: ItemTable) -> str | None:
    """The indicator a row's label names: as printed less its "(%)", or the words after a group heading run
    into it ("资产质量指标(%)不良贷款率")."""
    bare = re.sub(r"[（(]\s*%\s*[)）]", "", label)
    for text in (bare, re.split(r"[)）]", label)[-1]):
        item = items.canonical(text) if text else None
        if item is not None:
            return item
    return None


def _header_years(header: list[str]) -> list[list[str]]:
    """The year each header cell names. A header read without ruling lines splits a date across cells
    ("2022年 12月 31日 2021" | "年12月31日"): a year at a cell's end with no 年 after it is the next cell's,
    and a cell naming no year (集团 2022 | 银行) is of the last year named before it."""
    out: list[list[str]] = []
    last: list[str] = []
    carried: list[str] = []
    cells = [h.replace(" ", "") for h in header]
    for k, text in enumerate(cells):
        # (a bare year, "2022" | "2021", is its own cell's: only a 年 opening the next cell takes it there)
        tail = re.search(r"((?:19|20)\d\d)$", text) if k + 1 < len(cells) and cells[k + 1].startswith("年") else None
        if tail:
            text = text[:tail.start()]
        years = carried if text.startswith("年") and carried else _YEAR.findall(text)
        if not years and not _CHANGE.search(text):
            years = last
        out.append(years)
        last = years or last
        carried = [tail.group(1)] if tail else []
        if carried:
            last = carried
    return out


# the direction word of a change column run into the value before it ("25.68 上升" | "3.69个百分点")
_DIRECTION = re.compile(r"\s*(?:上升|下降|增加|减少|提高|降低|持平)$")


def _cell(cell: str) -> str:
    return _DIRECTION.sub("", cell) if cell else cell


def _columns(header: list[str], row: list[str], year: int) -> dict[str, int]:
    """The row's columns of the report year (本集团's, and the bank's own: 本行/银行), and of the year before."""
    out: dict[str, int] = {}
    named = _header_years(header)
    for k, cell in enumerate(_cell(c) for c in row):
        head = header[k] if k < len(header) else ""
        if not cell or not is_number(cell) or _CHANGE.search(head) or _STANDARD.search(head):
            continue
        years = named[k] if k < len(named) else []
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
    """The indicators of the report's tables (FactRow, statement 监管指标, unit %; the principal amounts of
    补充财务数据 in 元, from a table whose unit is printed): the report year's and the year before's of 本集团,
    and the bank's own (本行) as parent-scope facts (母公司监管指标)."""
    if year is None:
        return []
    words = [w for it in items.items.values() if it.statement in (INDICATORS, BANK_AMOUNTS)
             for w in (it.name, *it.synonyms)]
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
            kind = items.statement_of(item) or INDICATORS
            percent = kind == INDICATORS
            unit = t.unit or _header_unit(t)
            if not percent and (unit is None or not _SUMMARY_TABLE.search(t.caption + " ".join(t.header))):
                continue   # an amount whose unit the table does not say, or of a table not the bank's totals
            for which, k in columns.items():
                value = _value(_cell(row[k]), percent)
                if value is None:
                    continue
                if not percent:
                    value = to_yuan(value, unit or "元")
                period, statement = ("current", PARENT_STATEMENT_PREFIX + kind) if which == "parent" else \
                    (which, kind)
                key = (item, which)
                if key not in out:
                    text = str(value) if percent else decimal_str(value)
                    out[key] = FactRow(item, text, float(value), "%" if percent else "元", period, statement, page,
                                       source, label)
    return list(out.values())
