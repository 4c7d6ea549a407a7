"""Excel export (`fin-qa export`, FinQA.export, `fin-qa batch -o ANSWERS.xlsx`), written with openpyxl.

A report's workbook: one sheet per statement read (consolidated, then the parent company's), the
主要会计数据 summary, the key disclosures, the `fin-qa check` outcome, and the tables read (all, or those
holding the words asked) as blocks on one sheet, each under its caption and page. Numbers are numbers with
a thousands-separated format, the unit in the header; pages are a column; the header row is frozen and
the columns are as wide as what they hold (within bounds).
"""
from __future__ import annotations

import math
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from openpyxl import Workbook  # type: ignore[import-untyped]
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE  # type: ignore[import-untyped]
from openpyxl.styles import Font  # type: ignore[import-untyped]
from openpyxl.utils import get_column_letter  # type: ignore[import-untyped]

from .base import FinQAError

if TYPE_CHECKING:
    import pandas as pd

    from .api import FinQA, Table

AMOUNT = "#,##0.00"
COUNT = "#,##0"
SMALL = "0.00####"   # a number under 1 (a ratio, 0.0012): its digits, not 0.00
TABLES_SHEET = "表格"
PERIODS = {"current": "本期", "previous": "上期"}
_BAD = set('[]:*?/\\')


def writable(path: Path, force: bool) -> None:
    """Say before any work when the output cannot be written: an existing file without force, a folder
    that is not there or not writable, a name that is not .xlsx."""
    if path.suffix.lower() != ".xlsx":
        raise FinQAError(f"{path}: an Excel export is written to a .xlsx file")
    if path.is_dir():
        raise FinQAError(f"{path} is a folder: name the .xlsx file to write")
    if path.exists() and not force:
        raise FinQAError(f"{path} exists: give --force to replace it")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise FinQAError(f"cannot write {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise FinQAError(f"cannot write {path}: permission denied")


def _sheet_name(name: str, taken: set[str]) -> str:
    """An Excel sheet name: at most 31 characters, none of []:*?/\\, unique in the workbook."""
    base = "".join("_" if c in _BAD else c for c in name)[:31] or "Sheet"
    out, k = base, 2
    while out in taken:
        suffix = f"_{k}"
        out, k = base[:31 - len(suffix)] + suffix, k + 1
    taken.add(out)
    return out


def _width(value: Any) -> int:
    """Display width of a cell: CJK characters count twice."""
    if value is None:
        return 0
    if isinstance(value, float):
        return len(f"{value:,.2f}")
    text = str(value)
    return sum(2 if ord(c) > 0x2E7F else 1 for c in text)


def _fit(ws: Any, widths: dict[int, int], floor: int = 6, ceiling: int = 60) -> None:
    for col, w in widths.items():
        ws.column_dimensions[get_column_letter(col)].width = max(floor, min(ceiling, w + 2))


def write_frame(ws: Any, frame: pd.DataFrame, units: dict[str, str | None] | None = None,
                number_columns: Sequence[str] = (), start_row: int = 1, widths: dict[int, int] | None = None,
                freeze: bool = True) -> int:
    """A DataFrame written from start_row: its header (a number column's unit in brackets), then its rows,
    numbers as numbers with a thousands format. The header frozen when it is the first row. Returns the
    next free row."""
    widths = widths if widths is not None else {}
    cols = list(frame.columns)
    for j, c in enumerate(cols, 1):
        unit = (units or {}).get(c)
        head = f"{c}（{unit}）" if unit else str(c)
        cell = ws.cell(row=start_row, column=j, value=head)
        cell.font = Font(bold=True)
        widths[j] = max(widths.get(j, 0), _width(head))
    for i, row in enumerate(frame.itertuples(index=False), start_row + 1):
        for j, (c, v) in enumerate(zip(cols, row), 1):
            v = _plain(v)
            cell = ws.cell(row=i, column=j, value=v)
            if isinstance(v, str) and v.startswith("="):
                cell.data_type = "s"   # (text, never a formula: a question or a label may start with '=')
            if isinstance(v, (int, float)) and not isinstance(v, bool) and c in number_columns:
                # thousands separated; two decimals unless a whole count (人, 股); a small one its own digits
                cell.number_format = COUNT if float(v).is_integer() and abs(v) < 1e6 else \
                    AMOUNT if abs(v) >= 1 else SMALL
            widths[j] = max(widths.get(j, 0), _width(v))
    if freeze and start_row == 1:
        ws.freeze_panes = "A2"
    _fit(ws, widths)
    return start_row + len(frame) + 1


def _plain(v: Any) -> Any:
    """A cell value openpyxl writes: NaN blank, numpy numbers as Python ones, text without the control
    characters a workbook cannot hold."""
    if isinstance(v, float) and math.isnan(v):   # (numpy's float64 is a float)
        return None
    if isinstance(v, str):
        return ILLEGAL_CHARACTERS_RE.sub("", v)
    if hasattr(v, "item") and not isinstance(v, (str, bytes)):
        return v.item()
    return v


def _statement_sheet(wb: Any, name: str, frame: pd.DataFrame, taken: set[str]) -> None:
    ws = wb.create_sheet(_sheet_name(name, taken))
    periods = [c for c in frame.columns if c not in ("label", "item", "unit", "page")]
    units = frame["unit"].dropna().unique().tolist()
    unit = units[0] if len(units) == 1 else None
    out = frame.rename(columns={"label": "项目", "item": "标准项目", "unit": "单位", "page": "页码"})
    write_frame(ws, out, {p: unit for p in periods}, periods)


def export_report(qa: FinQA, company: str, year: int, path: Path, tables: str | None = None,
                  force: bool = False) -> Path:
    """Write the report's workbook to path (see the module's doc): the output checked before any work,
    the file written whole to a temporary name, then moved over path."""
    writable(path, force)
    rep = qa.report_data(company, year)   # (an unknown company or year: one FinQAError, before any work)
    info = rep.info
    found = rep.tables(tables)
    if tables and not found:
        raise FinQAError(f"no table of {info['short_name'] or company} {info['year']} holds {tables!r}")
    wb = Workbook()
    wb.remove(wb.active)
    taken: set[str] = set()
    for name, frame in rep.statements():
        _statement_sheet(wb, name, frame, taken)
    summary = rep.summary()
    if len(summary):
        _statement_sheet(wb, "主要会计数据", summary, taken)
    disclosures = rep.disclosures()
    if len(disclosures):
        ws = wb.create_sheet(_sheet_name("关键披露", taken))
        write_frame(ws, disclosures.rename(columns={"section": "类别", "item": "项目", "label": "报告用语",
                                                    "value": "内容", "number": "数值", "unit": "单位",
                                                    "page": "页码"}), None, ["数值"])
    checks = qa.check(info["stock_code"] or info["short_name"], info["year"])
    ws = wb.create_sheet(_sheet_name("勾稽检查", taken))
    checks = checks.assign(period=checks["period"].map(PERIODS).fillna(checks["period"]))
    write_frame(ws, checks.drop(columns=["report", "stock_code", "year"]).rename(
        columns={"check": "检查", "period": "期间", "ok": "通过", "left": "左边", "right": "右边",
                 "difference": "差额", "pages": "页码", "missing": "未读到"}),
        None, ["左边", "右边", "差额"])
    if found:
        write_tables(wb.create_sheet(_sheet_name(TABLES_SHEET, taken)), found)
    meta = wb.create_sheet(_sheet_name("说明", taken), 0)
    files = rep.files()
    for r, (k, v) in enumerate([("公司", info["short_name"]), ("全称", info["full_name"]), ("代码", info["stock_code"]),
                                ("年度", info["year"]), ("文件", files),
                                ("说明", "数值读自报告，金额统一换算为元（单位见表头或单位列）；"
                                         "页码为PDF页码；由 fin-qa export 导出")], 1):
        meta.cell(row=r, column=1, value=k)
        meta.cell(row=r, column=2, value=v)
    _fit(meta, {1: 6, 2: max(_width(files), 30)}, ceiling=100)
    _save(wb, path)
    return path


def write_tables(ws: Any, tables: Iterable[Table]) -> None:
    """Tables as blocks on one sheet: a title line (caption, heading path, unit, pages), the header, the
    rows with numbers as numbers, a blank line."""
    row, widths = 1, {}   # type: ignore[var-annotated]
    for t in tables:
        pages = f"第{t.page_start}页" + (f"至第{t.page_end}页" if t.page_end and t.page_end != t.page_start else "")
        where = " > ".join(t.path[-2:])
        title = f"{t.title}（{pages}" + (f"，单位：{t.unit}" if t.unit else "") + (f"；{where}" if where else "") + "）"
        ws.cell(row=row, column=1, value=title).font = Font(bold=True)
        frame = t.to_frame()
        row = write_frame(ws, frame, None, [c for c in frame.columns[1:]], start_row=row + 1, widths=widths,
                          freeze=False) + 1


def write_answers(frame: pd.DataFrame, path: Path) -> int:
    """A batch's answers (FinQA.batch's frame: id, question, answer, value, unit, year, page, method, found)
    as one sheet, written whole to a temporary name, then moved over path. Returns the rows written."""
    wb = Workbook()
    ws = wb.active
    ws.title = "answers"
    write_frame(ws, frame, None, ["value"])
    for col in ("B", "C"):
        ws.column_dimensions[col].width = 60
    _save(wb, path)
    return len(frame)


def _save(wb: Any, path: Path) -> None:
    tmp = path.with_name(f".{path.name}.part")
    try:
        wb.save(tmp)
        os.replace(tmp, path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise FinQAError(f"cannot write {path}: {e.strerror or e}") from None
