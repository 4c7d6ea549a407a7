"""The structured database of the Teddy Cup 2026 problem B (`fin-qa export --schema teddy -o OUT`): its four
tables (附件3: core_performance_indicators_sheet, balance_sheet, income_sheet, cash_flow_sheet), one row per filing
of the store, written as OUT.sqlite and OUT.xlsx.

What each field is lives in keyword_tables/teddy.yaml (catalog/teddy.py): an item the filing prints, a formula of
formulas/*.yaml over its items, a change on its comparison column, a quarter alone against the quarter before it
(answer/periods.py derives a quarter no filing prints), or one item's share of another. A filing is a company's
(year, period): its full report, else its 摘要 (which prints the summary table only). Every value is read from a
filing or computed from read values; one no filing prints is left empty (NULL), never guessed — but for a field
the schema says to fill with 0 when its statement prints no such line (预收账款). A sixth table, teddy_sources
(a sheet 来源 in the workbook), says for every value written where it was read (filing, page, item) or how it
was computed.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from .answer.facts import FactSource
from .answer.periods import PeriodView
from .base import FinQAError
from .catalog import Catalog
from .catalog.formulas import FormulaError, evaluate
from .catalog.teddy import TeddyField
from .store import Report, Store
from .store.tables_file import write_tables_file

KEYS = ("serial_number", "stock_code", "stock_abbr")
TAIL = ("report_period", "report_year")
PERIOD_ORDER = {"Q1": 0, "HY": 1, "Q3": 2, "FY": 3}
# the quarter alone of a filing's period, and the quarter before it (the view of each: answer/periods.py)
QUARTER_OF = {"HY": ("Q2", "quarter"), "Q3": ("Q3", "quarter"), "FY": ("Q4", "quarter")}
BEFORE = {"HY": ("Q1", "ytd"), "Q3": ("Q2", "quarter"), "FY": ("Q3", "quarter")}
STATEMENT_OF = {"balance_sheet": "资产负债表", "income_sheet": "利润表", "cash_flow_sheet": "现金流量表"}
SHEETS = {"core_performance_indicators_sheet": "业绩指标表", "balance_sheet": "资产负债表", "income_sheet": "利润表",
          "cash_flow_sheet": "现金流量表", "teddy_sources": "来源"}


@dataclass
class Value:
    number: Decimal
    source: str        # where it was read, or how it was computed
    unit: str | None = None   # as read (元, %, 元/股); None for a computed value


def outputs(out: Path) -> tuple[Path, Path]:
    """OUT.sqlite and OUT.xlsx (OUT's own suffix, if any, left off)."""
    base = out.with_suffix("") if out.suffix.lower() in (".sqlite", ".xlsx", ".db") else out
    return base.with_name(base.name + ".sqlite"), base.with_name(base.name + ".xlsx")


def writable(out: Path, force: bool) -> tuple[Path, Path]:
    paths = outputs(out)
    for p in paths:
        if p.is_dir():
            raise FinQAError(f"{p} is a folder: name the files to write (-o result/teddy writes teddy.sqlite, teddy.xlsx)")
        if p.exists() and not force:
            raise FinQAError(f"{p} exists: give --force to replace it")
        if not p.parent.is_dir():
            raise FinQAError(f"cannot write {p}: the folder {p.parent} does not exist")
    return paths


class TeddyExport:
    def __init__(self, store: Store, catalog: Catalog):
        self.catalog = catalog
        self.schema = catalog.teddy
        self.source = FactSource(store)
        self._views: dict[tuple[str, str], PeriodView] = {}

    # ------------------------------------------------------------------------- reading a filing
    def _fact(self, reps: list[Report], item: str, column: str = "current") -> Value | None:
        for r in reps:
            f = self.source.facts(r, [item], column).get(item)
            if f is not None and f.number is not None:
                key = f.report or r.key   # (an annual 摘要's balance: the next interim filing's 上年度末 column)
                return Value(f.number, f"{key} 第{f.page}页 {f.label or item}" if f.page else f"{key} {item}", f.unit)
        return None

    def _first(self, reps: list[Report], items: tuple[str, ...], column: str = "current") -> tuple[str, Value] | None:
        for item in items:
            v = self._fact(reps, item, column)
            if v is not None:
                return item, v
        return None

    def _quarter(self, company: str, year: int, period: str, span: str, item: str) -> Value | None:
        view = self._views.get((period, span))
        if view is None:
            view = self._views[(period, span)] = PeriodView(self.source, period, span, self.catalog)
        rep = view.by_key.get((company, year))
        f = view.facts(rep, [item]).get(item) if rep is not None else None
        if f is None or f.number is None or f.unit != "元":
            return None
        if f.source == "derived":   # (a quarter no filing prints: how it was derived, both filings and pages)
            how = next((n for n in reversed(view.derived) if n.startswith(f"{year}年") and item in n), "")
            return Value(f.number, how or f"{f.report} {item}（推算）", "元")
        return Value(f.number, f"{f.report} 第{f.page}页 {f.label or item}" if f.page else f"{f.report} {item}", "元")

    def value(self, fd: TeddyField, reps: list[Report], company: str, year: int, period: str,
              statement_read: bool) -> Value | None:
        if fd.kind == "item":
            got = self._first(reps, fd.items)
            if got is None:
                return Value(Decimal(str(fd.blank)), "报表未列示该项目，按字段说明填0") \
                    if fd.blank is not None and statement_read else None
            return _in_unit(got[1], fd.unit)
        if fd.kind == "growth":
            for item in fd.items:
                now, before = self._fact(reps, item), self._fact(reps, item, "previous")
                if now is not None and before is not None and now.unit == before.unit:
                    return _growth(now, before, "上年同期/上年期末列")
            return None
        if fd.kind == "quarter_growth":
            if period not in QUARTER_OF:
                return None   # (a first quarter has no quarter before it in its year)
            for item in fd.items:
                now = self._quarter(company, year, *QUARTER_OF[period], item)
                before = self._quarter(company, year, *BEFORE[period], item)
                if now is not None and before is not None:
                    return _growth(now, before, "单季环比")
            return None
        if fd.kind == "share":
            a, b = self._first(reps, fd.items), self._first(reps, fd.over)
            if a is None or b is None or b[1].number == 0 or a[1].unit != b[1].unit:
                return None
            return Value(a[1].number / b[1].number * 100, f"{a[0]} / {b[0]} × 100%：{a[1].source}；{b[1].source}")
        if fd.kind == "expr":
            return self._computed(reps, fd.tree, {i: i for i in fd.items}, f"{fd.formula}（keyword_tables/teddy.yaml）")
        formula = self.catalog.formulas.get(fd.formula)
        if formula is None or any(i.offset for i in formula.inputs.values()):
            return None
        return self._computed(reps, formula.tree, {label: inp.item for label, inp in formula.inputs.items()},
                              f"{formula.name} = {formula.expr}（formulas/{Path(formula.file).name}）",
                              100 if formula.output == "percent" else 1)

    def _computed(self, reps: list[Report], tree: tuple, inputs: dict[str, str], how: str,
                  scale: int = 1) -> Value | None:
        """An expression (`expr:` of teddy.yaml, or a formula of formulas/) over the filing's amounts — each input
        (its label → the item) read, in 元 — said how, with where each input was read."""
        read: dict[str, Value] = {}
        for label, item in inputs.items():
            v = self._fact(reps, item)
            if v is None or v.unit != "元":
                return None   # (expressions over amounts: each one read, in 元)
            read[label] = v
        try:
            result = Decimal(evaluate(tree, {label: v.number for label, v in read.items()})) * scale
        except (ArithmeticError, InvalidOperation, ValueError, TypeError, FormulaError):
            return None   # (a denominator of 0: no value)
        return Value(result, how + "：" + "；".join(v.source for v in read.values()))

    # ------------------------------------------------------------------------- the tables
    def rows(self) -> tuple[dict[str, list[dict[str, Any]]], list[dict[str, Any]]]:
        """Each table's rows (dicts in the schema's column order) and the sources of every value written."""
        filings = sorted(((key, reps) for key, reps in self.source.filings.items() if key[2] in PERIOD_ORDER),
                         key=lambda kv: (kv[1][0].stock_code or kv[0][0], kv[0][1], PERIOD_ORDER[kv[0][2]]))
        out: dict[str, list[dict[str, Any]]] = {t: [] for t in self.schema.tables}
        sources: list[dict[str, Any]] = []
        for (company, year, period), reps in filings:
            first = reps[0]
            for table, fields in self.schema.tables.items():
                statement = STATEMENT_OF.get(table)
                read = statement is not None and any(self.source.has_statement(r, statement) for r in reps)
                row: dict[str, Any] = {"serial_number": len(out[table]) + 1, "stock_code": first.stock_code or "",
                                       "stock_abbr": first.short_name or ""}
                got: list[tuple[str, Value]] = []
                for fd in fields:
                    v = self.value(fd, reps, company, year, period, read)
                    row[fd.name] = None if v is None else float(_rounded(v.number, fd.decimals))
                    if v is not None:
                        got.append((fd.name, v))
                row.update(report_period=period, report_year=year)
                if not got:
                    continue   # (a 摘要 prints no statement: no row of them)
                out[table].append(row)
                sources += [{"table_name": table, "serial_number": row["serial_number"], "field": name,
                             "value": row[name], "source": v.source} for name, v in got]
        return out, sources

    def write(self, out: Path, force: bool = False) -> tuple[Path, Path, dict[str, int]]:
        db_path, xlsx_path = writable(out, force)
        tables, sources = self.rows()
        columns = {t: [*KEYS, *(f.name for f in fields), *TAIL] for t, fields in self.schema.tables.items()}
        columns["teddy_sources"] = ["table_name", "serial_number", "field", "value", "source"]
        tables["teddy_sources"] = sources
        write_tables_file(db_path, {t: ([(c, _sql_type(c)) for c in cols], [[r.get(c) for c in cols] for r in tables[t]])
                                    for t, cols in columns.items()})
        _write_xlsx(xlsx_path, columns, tables)
        return db_path, xlsx_path, {t: len(rows) for t, rows in tables.items()}


def _sql_type(column: str) -> str:
    if column in ("serial_number", "report_year"):
        return "INTEGER"
    if column in ("stock_code", "stock_abbr", "report_period", "table_name", "field", "source"):
        return "TEXT"
    return "REAL"


def _write_xlsx(path: Path, columns: dict[str, list[str]], tables: dict[str, list[dict[str, Any]]]) -> None:
    from openpyxl import Workbook  # type: ignore[import-untyped]
    from openpyxl.styles import Font  # type: ignore[import-untyped]

    wb = Workbook()
    wb.remove(wb.active)
    for t, cols in columns.items():
        ws = wb.create_sheet(SHEETS.get(t, t)[:31])
        ws.append(cols)
        for c in ws[1]:
            c.font = Font(bold=True)
        for r in tables[t]:
            ws.append([r.get(c) for c in cols])
        ws.freeze_panes = "A2"
    tmp = path.with_name(path.name + ".part.xlsx")
    wb.save(tmp)
    tmp.replace(path)


# the unit a value must be read in for a field of each unit (a figure of another unit is no value of it)
_READ_IN = {"万元": ("元",), "元": ("元",), "%": ("%",), "元/股": ("元/股", "元")}


def _in_unit(v: Value, unit: str) -> Value | None:
    if v.unit not in _READ_IN[unit]:
        return None
    return Value(v.number / 10000, v.source, unit) if unit == "万元" else v


def _growth(now: Value, before: Value, how: str) -> Value | None:
    if before.number == 0:
        return None
    return Value((now.number - before.number) / abs(before.number) * 100,
                 f"({how}) (本期 − 上期) / |上期| × 100%：{now.source}；{before.source}")


def _rounded(x: Decimal, places: int) -> Decimal:
    return x.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
