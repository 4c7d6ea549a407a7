"""The chart that suits an answer's numbers (issue 46), as data: what `ask --json`, the API and the page carry
(`chart`), what the page draws and what `fin_qa/chart_image.py` draws as an image — one chart for all of them.

Which kind, from what the answer holds (never from its words alone):
- a series over years (answer/series.py: the items of the first one's unit and kind, one axis), or one item of one
  company over several years or periods of one span (years; quarters alone, 各季度; years to date; period ends —
  never 7–9月 and 1–9月 on one line), in time order → a line;
- one item of one year and period compared across companies (a ranking, several companies' values) or a table's
  rows of one column (its total rows left out) → bars; those rows as parts of a whole (the question asks 构成, 占比,
  结构, 分布, 比重, every part positive, and the table's total row printed and equal to their sum) → a pie;
- several items or columns of one company and period (a row's cells, several items asked) → a table.
A kind the question names (折线图, 柱状图, 表格; 饼图 only of parts of a whole) is drawn. One number, or numbers of
different units or kinds on one axis, is no chart. Amounts in 元 are drawn in 万元 or 亿元 (by the largest), said on
the axis — a per-share figure never scaled; every point keeps the value as the answer gives it (`shown`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Callable

from .model import Answer, CellEvidence, FactEvidence, shown_number

KINDS = {"line": "折线图", "bar": "柱状图", "pie": "饼图", "table": "表格"}
# a kind asked for by name
_ASKED = [("line", re.compile(r"折线图|趋势图|走势图|曲线")), ("bar", re.compile(r"柱状图|柱形图|条形图|直方图")),
          ("pie", re.compile(r"饼图|饼状图|环形图")), ("table", re.compile(r"表格|列表"))]
_PARTS = re.compile(r"构成|占比|结构|分布|比重|份额|组成")
MAX_POINTS = 40    # a bar or a line of more than this many points is a table
MAX_PARTS = 10     # a pie of more parts is bars


@dataclass
class Chart:
    kind: str                                   # line | bar | pie | table
    title: str
    labels: list[str] = field(default_factory=list)     # the x axis (years, periods, companies, rows)
    datasets: list[dict[str, Any]] = field(default_factory=list)   # {"label", "data": [float | None], "shown": [str]}
    unit: str = ""                              # of the data as drawn (万元, 亿元, %, 元/股 …)
    columns: list[str] = field(default_factory=list)    # a table's header
    rows: list[list[str]] = field(default_factory=list)  # a table's rows, as the answer gives them
    whole: bool = False   # its points are the parts of a whole (a table's rows adding up to its total row)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "name": KINDS[self.kind], "title": self.title}
        if self.kind == "table":
            out.update(columns=list(self.columns), rows=[list(r) for r in self.rows])
        else:
            out.update(labels=list(self.labels), datasets=[dict(d) for d in self.datasets], unit=self.unit)
        return out


def _scaled(values: list[Decimal | None], unit: str) -> tuple[list[float | None], str]:
    """Amounts in 元 drawn in 万元 or 亿元 by the largest (an axis of 10-digit numbers cannot be read)."""
    top = max((abs(v) for v in values if v is not None), default=Decimal(0))
    scale, shown = Decimal(1), unit
    if unit == "元" and top >= Decimal("1e8"):
        scale, shown = Decimal("1e8"), "亿元"
    elif unit == "元" and top >= Decimal("1e4"):
        scale, shown = Decimal("1e4"), "万元"
    return [float(v / scale) if v is not None else None for v in values], shown


def _asked_kind(question: str) -> str | None:
    return next((k for k, rx in _ASKED if rx.search(question)), None)


def chart_of(ans: Answer, name_of: Callable[[str | None], str] = lambda key: "") -> Chart | None:
    """The chart of an answer's numbers; None when they make none. name_of: a report key → its company's name."""
    if not ans.answered or not ans.series and sum(isinstance(e, (FactEvidence, CellEvidence))
                                                  for e in ans.evidence) < 2:
        return None   # (one number, or none: no chart — most answers, told at once)
    asked = _asked_kind(ans.question or "")
    chart = _series(ans, name_of) or _periods(ans, name_of) or _companies(ans, name_of) or _rows(ans) \
        or _table(ans, name_of)
    if chart is None:
        return None
    return _as_asked(chart, asked, ans.question or "")


def _as_asked(chart: Chart, asked: str | None, question: str) -> Chart:
    """The chart as the question asks it: a kind named, or parts of a whole as a pie, when its numbers allow."""
    if chart.kind == "table":
        return chart
    values = [v for d in chart.datasets for v in d["data"]]
    parts = chart.whole and len(chart.datasets) == 1 and 2 <= len(values) <= MAX_PARTS \
        and all(v is not None and v > 0 for v in values)
    if parts and (asked == "pie" or asked is None and _PARTS.search(question)):
        chart.kind = "pie"
    elif asked in ("line", "bar"):
        chart.kind = asked
    elif asked == "table" or len(chart.labels) > MAX_POINTS:
        chart = _tabled(chart)
    return chart


def _tabled(chart: Chart) -> Chart:
    cols = [""] + [d["label"] for d in chart.datasets]
    rows = [[label] + [d["shown"][i] for d in chart.datasets] for i, label in enumerate(chart.labels)]
    return Chart("table", chart.title, columns=cols, rows=rows)


def _series(ans: Answer, name_of: Callable[[str | None], str]) -> Chart | None:
    """answer/series.py's series: each item a line over its years (the first item's unit: one axis)."""
    if not ans.series:
        return None
    unit, kind = ans.series[0].get("unit") or "", ans.series[0].get("kind") or ""
    lines = [s for s in ans.series if (s.get("unit") or "") == unit and (s.get("kind") or "") == kind]
    years = sorted({p["year"] for s in lines for p in s.get("points", [])})
    if len(years) < 2:
        return None
    raw: list[list[Decimal | None]] = []
    shown: list[list[str]] = []
    for s in lines:
        at = {p["year"]: p for p in s.get("points", [])}
        raw.append([Decimal(str(at[y]["value"])) if y in at and at[y].get("value") is not None else None for y in years])
        shown.append([at[y].get("shown", "") if y in at else "" for y in years])
    flat, drawn = _scaled([v for r in raw for v in r], unit if kind == "amount" else "")
    drawn = drawn or unit
    n = len(years)
    first = next((p.get("read_from", {}).get("report") for s in lines for p in s.get("points", [])), None)
    company = name_of(first)
    title = f"{company}{'、'.join(s.get('label') or s['item'] for s in lines)}（{years[0]}—{years[-1]}年）"
    return Chart("line", title, [f"{y}年" for y in years],
                 [{"label": s.get("label") or s["item"], "item": s["item"], "data": flat[i * n:(i + 1) * n],
                   "shown": shown[i]} for i, s in enumerate(lines)], drawn)


def _facts(ans: Answer) -> list[FactEvidence]:
    """The values an answer gives (not the inputs of a formula, not a previous year's column read for a change)."""
    return [e for e in ans.evidence if isinstance(e, FactEvidence) and e.label is None
            and e.period in ("current", "quarter", "previous")]


def _one_unit(values: list[str]) -> tuple[list[Decimal], str] | None:
    nums = [shown_number(v) for v in values]
    if any(n is None for n, _ in nums):
        return None
    units = {unit or "" for _, unit in nums}
    if len(units) != 1:
        return None
    return [n for n, _ in nums if n is not None], units.pop()


def _bars(kind: str, title: str, labels: list[str], label: str, values: list[str], whole: bool = False) -> Chart | None:
    got = _one_unit(values)
    if got is None or len(labels) < 2:
        return None
    data, unit = _scaled(list(got[0]), got[1])
    return Chart(kind, title, labels, [{"label": label, "item": label, "data": data, "shown": list(values)}], unit,
                 whole=whole)


# a period within a year, as an answer says it: its span (the quarter alone, the year to date, the period's end; a
# first quarter is both its quarter and its year to date) and its place in the year
_SPANS = [("end", re.compile(r"末")), ("quarter", re.compile(r"单季")), ("q1", re.compile(r"^第一季度")),
          ("ytd", re.compile(r"上半年|前三季度|全年"))]
_ORDER = [("第一季度", 1), ("第二季度", 2), ("上半年", 2), ("半年末", 2), ("第三季度", 3), ("前三季度", 3),
          ("第四季度", 4), ("下半年", 4), ("全年", 4), ("年末", 4)]


def _span(within: str | None) -> str:
    if not within:
        return "year"
    return next((name for name, rx in _SPANS if rx.search(within)), "other")


def _place(e: FactEvidence) -> tuple[int, int]:
    return (e.year or 0, next((n for word, n in _ORDER if (e.within or "").startswith(word)), 5))


def _periods(ans: Answer, name_of: Callable[[str | None], str]) -> Chart | None:
    """One item of one company over several years or periods within them (2023年和2024年, 各季度, 一季度、半年度、
    三季度): a line."""
    facts = [e for e in _facts(ans) if e.company is None and e.year is not None]
    if any(e.within for e in facts):   # (periods asked: a year's whole the answer read for a derivation is none)
        facts = [e for e in facts if e.within]
    if len(facts) < 2 or len({e.item for e in facts}) != 1 or len({(e.year, e.within) for e in facts}) != len(facts):
        return None
    companies = {(e.report or "").split(":")[0] for e in facts}
    spans = {_span(e.within) for e in facts}
    kinds = spans - {"q1"}   # (a first quarter is its quarter alone and its year to date)
    if len(companies) != 1 or len(kinds) > 1 or kinds & {"other"} or "q1" in spans and kinds & {"year", "end"}:
        return None   # (never 7–9月 and 1–9月, nor a period's flow and its end's balance, on one line)
    facts.sort(key=_place)
    item = facts[0].item
    title = f"{name_of(facts[0].report)}{item}"
    return _bars("line", title, [f"{e.year}年{_short(e.within or '')}" for e in facts], item, [e.value for e in facts])


def _short(within: str) -> str:
    """第三季度单季（7-9月） → 第三季度单季 (the months said in the answer, not on an axis)."""
    return re.sub(r"（[^）]*）$", "", within)


def _companies(ans: Answer, name_of: Callable[[str | None], str]) -> Chart | None:
    """One item of one year across companies (a ranking, several companies asked): bars."""
    facts = _facts(ans)
    if len(facts) < 2 or len({e.item for e in facts}) != 1 or len({(e.year, e.within) for e in facts}) != 1:
        return None
    names = [e.company or name_of(e.report) for e in facts]
    if not all(names) or len(set(names)) != len(names):
        return None
    year = f"（{facts[0].year}年{_short(facts[0].within or '')}）" if facts[0].year else ""
    return _bars("bar", f"{facts[0].item}{year}", names, facts[0].item, [e.value for e in facts])


def _rows(ans: Answer) -> Chart | None:
    """A table's rows of one column (各产品的营业收入, 前五名客户): bars (a pie when asked as parts of a whole)."""
    cells = [e for e in ans.evidence if isinstance(e, CellEvidence)]
    if len(cells) < 2 or len({(e.table, e.column) for e in cells}) != 1 or len({e.row for e in cells}) != len(cells):
        return None
    totals = [e for e in cells if _TOTAL_ROW.search(e.row)]
    parts = [e for e in cells if not _TOTAL_ROW.search(e.row) and not _WITHIN_ROW.match(e.row)]
    column = cells[0].column or "数值"
    title = f"{_heading(cells[0].table)}：{column}"
    # parts of a whole only where the table's total row is printed and equals their sum
    whole = False
    if len(totals) == 1 and (got := _one_unit([e.value for e in parts + totals])) is not None:
        nums = got[0]
        whole = nums[-1] != 0 and abs(sum(nums[:-1]) - nums[-1]) <= abs(nums[-1]) * Decimal("0.005")
    return _bars("bar", title, [e.row for e in parts], column, [e.value for e in parts], whole)


# a table's total rows (合计, 小计, 总计) and the rows it breaks one of them into (其中：…)
_TOTAL_ROW = re.compile(r"合计|小计|总计|总额$")
_WITHIN_ROW = re.compile(r"^其中")


_NUMBERING = re.compile(r"^\s*(?:[(（]?[0-9一二三四五六七八九十]+(?:[)）][.、．]?|[.、．])\s*)+")


def _heading(path: str) -> str:
    """A table's last heading without its numbering ("(4). 主要销售客户…" → "主要销售客户…")."""
    last = path.split(" > ")[-1]
    return _NUMBERING.sub("", last).strip() or last


def _table(ans: Answer, name_of: Callable[[str | None], str]) -> Chart | None:
    """Several items or columns of one company and period (a row's cells, several items asked): a table."""
    cells = [e for e in ans.evidence if isinstance(e, CellEvidence)]
    if len(cells) >= 3 and len({e.row for e in cells}) == 1:
        return Chart("table", f"{_heading(cells[0].table)}：{cells[0].row}", columns=["项目", "数值", "页码"],
                     rows=[[e.column or e.row, e.value, str(e.page or "")] for e in cells])
    facts = _facts(ans)
    if len(facts) >= 3 and len({e.item for e in facts}) == len(facts) and len({e.year for e in facts}) == 1:
        year = f"{facts[0].year}年{_short(facts[0].within or '')}" if facts[0].year else ""
        return Chart("table", f"{name_of(facts[0].report)}{year}", columns=["项目", "数值", "页码"],
                     rows=[[e.item, e.value, str(e.page or "")] for e in facts])
    return None
