"""fin-qa import-tables: wide CSV/XLSX tables, one row per company-year, as facts.

Key columns are found by name (股票代码/证券代码, 公司名称/企业名称, 股票简称/证券简称, 年份/报告年份 and
the English names of the FinGLM report list). Every other column is an item: its name goes through the
keyword tables (items.yaml, profile.yaml, employees.yaml synonyms) to the canonical item, an unknown
column is kept under its own name. -1 or a blank cell is missing. Facts get source "import:FILE".
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path

import pandas as pd

from ..base import FinQAError
from ..catalog import Catalog
from ..catalog.vocabulary import Vocabulary
from ..numbers import decimal_str, parse_number
from ..store import FactRow, ReportMeta, Store

KEY_COLUMNS = {
    "stock_code": ("股票代码", "证券代码", "stock_code", "代码"),
    "full_name": ("公司名称", "企业名称", "公司全称", "company_full_name"),
    "short_name": ("股票简称", "证券简称", "公司简称", "company_short_name"),
    "year": ("年份", "报告年份", "年度", "report_year", "year"),
    "publish_date": ("report_date", "公告日期", "发布日期"),
}
_NUMERIC_TEXT = re.compile(r"[-+]?[\d,]+(?:\.\d+)?(?:元|人|%)?")
# what a cell prints for no value: missing, like a blank (not a bad cell)
_MISSING = {"-1", "-1.0", "nan", "NaN", "None", "-", "--", "—", "——", "/", "不适用", "无", "N/A", "n/a", "NA"}
IGNORED = {"信息来源", "report_type", "file_name", "文件名", "报告类型"}


def map_column(name: str, vocab: Vocabulary) -> tuple[str, str | None, str | None]:
    """(canonical item, statement, unit) of a column name; an unknown column keeps its own name."""
    item = vocab.canonical(str(name))
    if item is None:
        return str(name).strip(), None, None
    info = vocab.items[item]
    return item, info.statement, info.unit


@dataclass
class BadCell:
    path: Path
    row: int        # the file's row (the header is row 1)
    column: str
    value: str
    kind: str

    def __str__(self) -> str:
        return f"{self.path}: row {self.row}, column {self.column}: {self.value[:40]!r} is not a {self.kind} — not imported"


@dataclass
class ImportResult:
    reports: int
    facts: int
    bad: list[BadCell] = field(default_factory=list)


def _year(v) -> int | None:
    m = re.search(r"(\d{4})", str(v))
    return int(m.group(1)) if m else None


def _code(v) -> str | None:
    if v is None or (isinstance(v, float) and pd.isna(v)):
        return None
    s = str(v).strip()
    if re.fullmatch(r"\d+(\.0)?", s):
        return s.split(".")[0].zfill(6)
    return s or None


def _value(v) -> tuple[str, float | None] | None:
    if v is None or (isinstance(v, float) and pd.isna(v)):
        return None
    if isinstance(v, (int, float)):
        if v == -1:
            return None
        if isinstance(v, float) and not math.isfinite(v):
            return str(v), None   # inf is no value: a number item's cell is reported, not imported
        try:
            d = Decimal(repr(float(v)))
        except InvalidOperation:
            return None
        return decimal_str(d), float(v)
    s = str(v).strip()
    if not s or s in _MISSING:
        return None
    # a number written as text, with or without its unit ("12338146.84元", "1,406人")
    if _NUMERIC_TEXT.fullmatch(s) and not re.match(r"0\d", s):  # 0-led digits are codes, not numbers
        num = parse_number(s.rstrip("元人%"))
        if num is not None:
            return decimal_str(num), float(num)
    return s, None


def read_table(path: Path) -> pd.DataFrame:
    try:
        if path.suffix.lower() in (".xlsx", ".xlsm", ".xls"):
            return pd.read_excel(path, engine="openpyxl" if path.suffix.lower() != ".xls" else None)
        if path.suffix.lower() in (".csv", ".tsv", ".txt"):
            # blank lines kept (as empty rows): a bad cell's row number is the file's
            return pd.read_csv(path, sep="\t" if path.suffix.lower() == ".tsv" else ",", encoding="utf-8-sig",
                               skip_blank_lines=False)
    except Exception as exc:  # pandas/openpyxl raise many types for a broken file
        raise FinQAError(f"{path}: cannot read table ({type(exc).__name__}: {exc})") from None
    raise FinQAError(f"{path}: unsupported table type {path.suffix} (expected .xlsx or .csv)")


def import_table(path: str | Path, store: Store, catalog: Catalog) -> ImportResult:
    """Import one table file: its reports, facts and the cells not imported — a value that is no number
    in a column of a number item (净利润 = abc), each said by row and column; the rest is imported."""
    path = Path(path)
    if not path.is_file():
        raise FinQAError(f"{path}: no such file")
    df = read_table(path)
    cols = {str(c).strip(): c for c in df.columns}
    keys: dict[str, object] = {}
    for key, names in KEY_COLUMNS.items():
        for n in names:
            if n in cols:
                keys[key] = cols[n]
                break
    if "year" not in keys or not ({"stock_code", "full_name", "short_name"} & keys.keys()):
        raise FinQAError(
            f"{path}: needs a year column ({'/'.join(KEY_COLUMNS['year'][:2])}) and a company column "
            f"({'/'.join(KEY_COLUMNS['stock_code'][:2])} or {'/'.join(KEY_COLUMNS['short_name'][:2])})"
        )
    # the key columns, and a second spelling of a key column (年份 beside 报告年份, 证券代码 beside 股票代码) is not an item
    dup = {cols[n] for names in KEY_COLUMNS.values() for n in names if n in cols}
    item_cols = [c for c in df.columns if c not in dup and str(c).strip() not in IGNORED]
    mapped = {c: map_column(str(c), catalog.vocabulary) for c in item_cols}
    zero_missing = set(catalog.employees.get("zero_is_missing") or ())
    rows: dict[str, tuple[ReportMeta, list[FactRow]]] = {}
    records = df.to_dict("records")
    bad: list[BadCell] = []
    for rowno, rec in enumerate(records, 2):
        year = _year(rec.get(keys["year"]))
        if year is None:
            continue
        code = _code(rec.get(keys["stock_code"])) if "stock_code" in keys else None
        full = rec.get(keys["full_name"]) if "full_name" in keys else None
        short = rec.get(keys["short_name"]) if "short_name" in keys else None
        full = None if full is None or (isinstance(full, float) and pd.isna(full)) else str(full).strip()
        short = None if short is None or (isinstance(short, float) and pd.isna(short)) else str(short).strip()
        date = rec.get(keys["publish_date"]) if "publish_date" in keys else None
        date = None if date is None or (isinstance(date, float) and pd.isna(date)) else str(date)[:10]
        if not (code or full or short):
            continue
        meta = ReportMeta(code, year, full, short, date)
        entry = rows.setdefault(meta.key, (meta, []))
        for c in item_cols:
            got = _value(rec.get(c))
            if got is None:
                continue
            item, statement, unit = mapped[c]
            info = catalog.vocabulary.items.get(item)
            if info is not None and info.kind != "text" and got[1] is None:
                bad.append(BadCell(path, rowno, str(c), got[0], f"number ({info.kind} of {item})"))
                continue
            if got[1] == 0 and item in zero_missing:
                continue
            entry[1].append(FactRow(item, got[0], got[1], unit, "current", statement, None, "", str(c)))
    facts = store.write_import(f"import:{path.name}", list(rows.values()))
    return ImportResult(len(rows), facts, bad)
