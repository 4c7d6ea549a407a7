"""Locate and parse the three consolidated statements (合并资产负债表, 合并利润表, 合并现金流量表), and the
parent company's own ones (母公司资产负债表 …, scope parent) of a report that has consolidated ones.

The parser is source-agnostic: it reads positioned rows (Document.table_rows) — words with PDFium
character positions for PDFs (pages.page_words), cell lists for FinGLM txt — so ruled and unruled tables
go the same way.

What real reports bring, and where it is handled:
- the title: "合并资产负债表", "1、合并资产负债表", "2019年12月31日合并及银行资产负债表" (_title_kind);
  母公司 statements and "(续)" continuations; a report without subsidiaries has only "资产负债表".
- the header row fixes the columns: dates (2019年12月31日 / 2018年12月31日), 期末余额/期初余额,
  本期发生额/上期发生额, 本年金额/上年金额, a 附注 column (_classify_header_cell). A header with an
  调整数 column, or a 1月1日 column beside the year end it restates, is a "首次执行新准则调整" table: that
  candidate is rejected; a 1月1日 column alone beside the current one is the previous period (parse_header).
  本集团 | 本行 side by side: column groups 0 | 1, the second read as the parent's (extract_statements).
- units 元/千元/万元/百万元 on a line near the title, or in brackets in the header ("2019年12月31日（千元）");
  amounts are stored in 元 (per-share items are not scaled).
- side-by-side balance sheets (资产 | 期末 | 期初 | 负债和所有者权益 | 期末 | 期初 on the same rows) are cut
  into their halves, each read as a statement of its own rows (sides).
- values: "1,234.00", "-1,234.00", "(1,234.00)", empty cells "-"/"—"; a value is put in the column
  whose header is nearest (positions), so a row with one value lands in the right period.
- labels wrapped over two lines, with the numbers on the first, the second or a line of their own
  (_merge_wrapped).
- the statement runs over pages until the next statement title or the signature line — unless the next
  page opens with its own title again, as is or "(续)" (_title_opens): then it goes on.
- a title whose rows are not positioned tables (numbers run together in text) goes to bank_text.
Rows → facts (item names via the ItemTable, 元, the first row of an item) and the cross-footing checks
are statement_model's, shared with bank_text.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from ..catalog.items import ItemTable, normalize_label
from ..numbers import find_unit, is_empty_marker, parse_number
from .bank_text import parse_text_statement
from .headings import CONTINUED
from .pages import Cell, Document, Row
from .statement_model import LABEL_NOTE, NOTE_REF, Statement, StatementRow, build_statement

STATEMENT_KINDS = ("资产负债表", "利润表", "现金流量表")

_TITLE_CLEAN = re.compile(
    r"^(?:[一二三四五六七八九十]+[、.．]|[（(][一二三四五六七八九十\d]+[)）][、.．]?|\d{1,2}[、.．])?"
    r"(?:\d{4}年(?:\d{1,2}月\d{1,2}日|度)?)?"
)
# consolidated titles (the one we want) and other statement titles (which end a statement)
_CONSOLIDATED = {
    "资产负债表": re.compile(r"^合并(?:及(?:母公司|公司|银行|本行))?资产负债表$"),
    # (a Shenzhen interim filing's: 合并年初到报告期末利润表)
    "利润表": re.compile(r"^合并(?:及(?:母公司|公司|银行|本行))?(?:年初[到至]报告期末)?(?:利润表|损益表|利润及利润分配表)$"),
    "现金流量表": re.compile(r"^合并(?:及(?:母公司|公司|银行|本行))?(?:年初[到至]报告期末)?现金流量表$"),
}
# the parent company's own statements, printed after the consolidated ones (scope parent)
_PARENT = {
    "资产负债表": re.compile(r"^(?:母公司|公司)资产负债表$"),
    "利润表": re.compile(r"^(?:母公司|公司)(?:年初[到至]报告期末)?(?:利润表|损益表)$"),
    "现金流量表": re.compile(r"^(?:母公司|公司)(?:年初[到至]报告期末)?现金流量表$"),
}
_PLAIN = {
    "资产负债表": re.compile(r"^资产负债表$"),
    "利润表": re.compile(r"^(?:利润表|损益表)$"),
    "现金流量表": re.compile(r"^现金流量表$"),
}
_ANY_TITLE = re.compile(
    r"^(?:合并|母公司|公司|银行|本行)?(?:及(?:母公司|公司|银行|本行))?"
    r"(?:年初[到至]报告期末)?(?:资产负债表|利润表|损益表|现金流量表|所有者权益变动表|股东权益变动表|现金流量表补充资料)$"
)
_SIGNATURE = re.compile(r"^(?:法定代表人|公司负责人|企业负责人|单位负责人|董事长|后附|财务报表附注|载于第|此财务报表|本财务报表已|此等财务报表)")
# a column's date: "2019年12月31日", "2019年度", "2019年", and the ISO forms older bank reports print
# ("2008-12-31", "2008/12/31", "2008.12.31")
_DATE = re.compile(r"((?:19|20)\d{2})(?:年(?:(\d{1,2})月(\d{1,2})日|度)?|[-/.](\d{1,2})[-/.](\d{1,2})(?!\d))")
# an amount whose digits are grouped wrong ("63,075477.25"): read as the digits it prints
_MISGROUPED = re.compile(r"^-?[\d,]*\d[.]\d{2}$")
_SECTION_ROW = re.compile(r"[:：]$")
# the words of a column header carried into a row's label on a continued page: dates, scope words,
# 附注, the unit remark ("2021年12月31日本行", "本行2021度本行", "(除特别注明外，金额单位为人民币百万元)本集团")
_HEADER_WORDS = re.compile(
    r"\d{4}年?度?|\d{1,2}月\d{1,2}日|年度|本集团|本银行|本行|本公司|合并|母公司|附注[一二三四五六七八九十\d]*"
    r"|[（(][^（()）]*(?:金额单位|单位)[^（()）]*[)）]"
)
# a title of a statement printing both scopes side by side (本集团 | 本行, 合并 | 母公司)
_BOTH_SCOPES = re.compile(r"合并及(?:银行|本行|母公司|公司)|本集团及本行")
# a unit in brackets anywhere above the first row: "2019年12月31日（千元）", "（人民币百万元）", "金额单位：万元"
_BRACKET_UNIT = re.compile(r"[（(](?:人民币|金额单位[:：]?|单位[:：]?)?(千元|万元|百万元|亿元)[)）]")


def _bracket_unit(text: str) -> str | None:
    m = _BRACKET_UNIT.search(text.replace(" ", ""))
    return m.group(1) if m else None


def _clean_title(text: str) -> str:
    s = text.replace(" ", "").replace("\u3000", "")
    s = _TITLE_CLEAN.sub("", s)
    return CONTINUED.sub("", s)


def _title_kind(text: str, consolidated: bool | None) -> str | None:
    """The statement a title line names: consolidated (True), plain (False) or the parent's (None)."""
    s = _clean_title(text)
    if len(s) > 20:
        return None
    table = _PARENT if consolidated is None else (_CONSOLIDATED if consolidated else _PLAIN)
    for kind, rx in table.items():
        if rx.match(s):
            return kind
    return None


# FinGLM txt runs a statement's title into the signature line of the one before:
# "法定代表人：陈晓晖主管会计工作负责人：陈晓凌会计机构负责人：王春梅2、母公司资产负债表"
_TITLE_AFTER_SIGNATURE = re.compile(
    r"(?:[一二三四五六七八九十]+[、.．]|\d{1,2}[、.．])?(?:合并|母公司|公司)?(?:资产负债表|利润表|损益表|现金流量表)$")


def find_title_candidates(doc: Document, kind: str, consolidated: bool | None) -> list[tuple[int, str]]:
    """The (page, title) lines naming a statement of this kind and scope, in page order (kept on the
    document: identification, the statements and the parent's ask for them)."""
    cache = doc.__dict__.setdefault("_title_candidates", {})
    if consolidated not in cache:
        cache[consolidated] = _title_candidates(doc, consolidated)   # (every kind's titles in one pass)
    return [(page, text) for page, text, k in cache[consolidated] if k == kind]


def _title_candidates(doc: Document, consolidated: bool | None) -> list[tuple[int, str, str]]:
    """(page, title, kind) of every line naming a statement of the scope, in page order."""
    out = []
    for page in doc.pages:
        for line in page.lines:
            if line.cells is not None:
                continue
            text = line.text
            if len(text) > 40 and _SIGNATURE.match(text.replace(" ", "")):
                m = _TITLE_AFTER_SIGNATURE.search(text.replace(" ", ""))
                text = m.group(0) if m else text
            if len(text) <= 40 and "表" in text:   # (every statement title ends in 表)
                kind = _title_kind(text, consolidated)
                if kind is not None and not CONTINUED.search(text.replace(" ", "")):
                    out.append((page.number, text, kind))
    return out


# the statements' own dates: a balance sheet's year end, an income statement's year
_YEAR_END_WORDS = re.compile(r"((?:19|20)\d{2})(?:年12月31日|[-/.]12[-/.]31(?!\d))")
_YEAR_WORDS = re.compile(r"((?:19|20)\d{2})年(?:度|1月?[-—–~至－]12月)")
_HEADER_ROWS = 8   # a statement's header lies within these rows after its title


def statement_year(doc: Document) -> int | None:
    """The report year as its statements print it: the current (the later) year end of the balance sheet's
    header or of the date line under its title ("2021年12月31日 | 2020年12月31日", "2008-12-31",
    "2021年 12月 31日"), else the income statement's ("2021年度 | 2020年度", "2021年1—12月"); the consolidated
    statements first, then a report's only ones. None when no statement prints its dates."""
    for kind, rx in (("资产负债表", _YEAR_END_WORDS), ("利润表", _YEAR_WORDS)):
        for consolidated in (True, False):
            for page_no, title in find_title_candidates(doc, kind, consolidated)[:3]:
                year = _header_year(doc, page_no, title, rx)
                if year is not None:
                    return year
    return None


def _header_dates(doc: Document, page_no: int, title: str, rx: re.Pattern) -> list[re.Match]:
    """The dates (matches of rx) of the first row between a statement's title and its first amounts that
    prints one (the title at a page's foot: its header on the next page); [] when none does."""
    rows = doc.table_rows(page_no)
    rows = rows[_start_index(rows, title):]
    if len(rows) < _HEADER_ROWS and doc.page(page_no + 1) is not None:
        rows = rows + doc.table_rows(page_no + 1)
    for row in rows[:_HEADER_ROWS]:
        if any(parse_number(c.text.strip()) is not None and re.search(r"\d,\d{3}", c.text) for c in row.cells):
            return []   # the first amounts: no date above them
        found = list(rx.finditer(row.text.replace(" ", "").replace("\u3000", "")))
        if found:
            return found
    return []


def _header_year(doc: Document, page_no: int, title: str, rx: re.Pattern) -> int | None:
    """The latest year the rows between a statement's title and its first amounts print."""
    years = [int(m.group(1)) for m in _header_dates(doc, page_no, title, rx)]
    return max(years) if years else None


# a balance sheet's header date of any period end: 2025年9月30日, 2025-06-30
_PERIOD_END_WORDS = re.compile(r"((?:19|20)\d{2})(?:年(\d{1,2})月(\d{1,2})日|[-/.](\d{1,2})[-/.](\d{1,2})(?!\d))")


def statement_period_end(doc: Document) -> tuple[int, int, int] | None:
    """(year, month, day) of the latest date the balance sheet's header prints — the period end of the
    filing ("2025年9月30日 | 2024年12月31日": 2025-09-30); the consolidated statement first, then a
    report's only one. None when no balance sheet prints its dates."""
    for consolidated in (True, False):
        for page_no, title in find_title_candidates(doc, "资产负债表", consolidated)[:3]:
            dates = []
            for m in _header_dates(doc, page_no, title, _PERIOD_END_WORDS):
                month, day = int(m.group(2) or m.group(4)), int(m.group(3) or m.group(5))
                if 1 <= month <= 12 and 1 <= day <= 31:
                    dates.append((int(m.group(1)), month, day))
            if dates:
                return max(dates)
    return None


# ------------------------------------------------------------------------------------- header


@dataclass
class Column:
    kind: str  # current | previous | note | adjust | other | label (| opening, before parse_header decides)
    xc: float
    x0: float = 0.0
    x1: float = 0.0
    group: int = 0   # which of the header's column groups (本集团 | 本行: 0 | 1) a period column is
    scoped: bool = False   # its group named by a line of scopes under the periods (合并 | 公司 | 合并 | 公司)


# a line of scopes under the periods' header: each period printed for the group and for the parent
_SCOPE_WORDS = {"合并": 0, "本集团": 0, "集团": 0, "公司": 1, "母公司": 1, "本公司": 1, "本行": 1, "银行": 1}


def _split_by_scopes(row: Row, halves: list[tuple[float, list[Column]]]) -> list[tuple[float, list[Column]]] | None:
    """The halves with each period column split in two at a line of scopes under it ("本期金额 | 上期金额" over
    "合并 | 公司 | 合并 | 公司"): the group's (0) and the parent's (1); None when the row is no such line."""
    words = [c.text.replace(" ", "") for c in row.cells]
    if len(words) < 4 or not all(w in _SCOPE_WORDS for w in words) or len(halves) != 1:
        return None
    left, cols = halves[0]
    periods = sorted((c for c in cols if c.kind in ("current", "previous", "other")), key=lambda c: c.xc)
    cells = sorted(row.cells, key=lambda c: c.x0)
    if len(cells) != 2 * len(periods) or {_SCOPE_WORDS[w] for w in words} != {0, 1}:
        return None
    split: list[Column] = []
    for k, p in enumerate(periods):
        for cell in cells[2 * k:2 * k + 2]:
            split.append(Column(p.kind, cell.xc, cell.x0, cell.x1, _SCOPE_WORDS[cell.text.replace(" ", "")], True))
    others = [c for c in cols if c not in periods]
    return [(left, sorted(others + split, key=lambda c: c.xc))]


# a column of a quarter alone beside the year to date (older third-quarter reports: "本期金额(7-9月)" |
# "年初至报告期末金额(1-9月)"): a month range not starting in January is no period the statement's facts keep
_QUARTER_ALONE = re.compile(r"(?<!\d)(?:[2-9]|1[0-2])\s*[-—－~至到]\s*(?:[3-9]|1[0-2])\s*月")


def _classify_header_cell(text: str, year: int | None) -> str:
    s = text.replace(" ", "")
    if "调整" in s:
        return "adjust"
    if _QUARTER_ALONE.search(s):
        return "other"
    if re.match(r"(?:本年)?年初[至到]报告期末", s):   # (an interim statement's year to date, not an opening)
        return "current"
    if "附注" in s or "注释" in s:
        return "note"
    if s in ("项目", "科目", "资产", "负债", "负债和所有者权益", "负债和股东权益", "行次"):
        return "label"
    m = _DATE.search(s)
    if m:
        y = int(m.group(1))
        month, day = m.group(2) or m.group(4), m.group(3) or m.group(5)
        if month and int(month) == 1 and int(day) == 1:
            return "opening"  # 1月1日: the opening balance (parse_header tells a restated one from a previous column)
        if year is None:
            return f"year:{y}"
        if y == year:
            return "current"
        if y == year - 1:
            return "previous"
        return "other"
    if any(k in s for k in ("上期", "上年", "期初", "年初", "上年同期")):
        return "previous"
    if any(k in s for k in ("本期", "本年", "期末", "年末", "本报告期")):
        return "current"
    return "label" if not parse_number(s) else "other"


_YEAR_WORD, _MONTH_WORD, _DAY_WORD = (re.compile(r"^(?:19|20)\d{2}年$"), re.compile(r"^\d{1,2}月$"),
                                     re.compile(r"^\d{1,2}日"))


def _join_split_dates(cells: list[Cell]) -> list[Cell]:
    """A date printed as words apart ("2020年 | 12月 | 31日", "2013年 | 12月 | 31日余额") is one header cell."""
    out: list[Cell] = []
    i = 0
    while i < len(cells):
        words = [c.text.replace(" ", "") for c in cells[i:i + 3]]
        if len(words) == 3 and _YEAR_WORD.match(words[0]) and _MONTH_WORD.match(words[1]) \
                and _DAY_WORD.match(words[2]):
            out.append(Cell("".join(words), cells[i].x0, cells[i + 2].x1))
            i += 3
            continue
        out.append(cells[i])
        i += 1
    return out


def parse_header(row: Row, year: int | None) -> list[Column] | None:
    """The columns a header row names, or None when the row is no statement header: it prints amounts,
    or names no current period, or names one period and nothing else (a title's date line "2008年12月31日")."""
    if any(parse_number(c.text.strip()) is not None and re.search(r"\d[,.]\d", c.text) for c in row.cells):
        return None   # a row printing amounts ("六、年末现金及现金等价物余额 46(5) 51,120,223,950.88 …") is no header
    cells = _join_split_dates(row.cells)
    cols = [Column(_classify_header_cell(c.text, year), c.xc, c.x0, c.x1) for c in cells]
    # a "YYYY年1月1日" column: the restated opening of a 首次执行新准则调整 table (beside 调整数, or beside the
    # previous year end it restates) — else the statement's previous period, named by its opening date
    # ("2022年12月31日 | 2022年1月1日")
    # A statement's own three columns (restated comparatives: "2022年12月31日 | 2021年12月31日（已重述）|
    # 2021年1月1日", or "2022年12月31日 | 2022年1月1日 | 2021年12月31日"): its current and previous year
    # ends are the periods, the opening column a third one (other)
    adjusting = any(c.kind == "adjust" for c in cols) or any(c.kind == "previous" for c in cols)
    statement = any(c.kind == "current" for c in cols) and any(c.kind == "previous" for c in cols) \
        and not any(c.kind == "adjust" for c in cols)
    for c in cols:
        if c.kind == "opening":
            c.kind = "other" if statement else ("adjust" if adjusting else "previous")
    # without a known report year the later year is the current one
    years = sorted({int(c.kind[5:]) for c in cols if c.kind.startswith("year:")})
    if years:
        for c in cols:
            if c.kind.startswith("year:"):
                y = int(c.kind[5:])
                c.kind = "current" if y == years[-1] else ("previous" if y == years[-1] - 1 else "other")
    periods = [c for c in cols if c.kind in ("current", "previous", "adjust")]
    if len(periods) < 2 and not (periods and any(c.kind in ("label", "note") for c in cols)):
        return None
    if not any(c.kind == "current" for c in cols):
        return None
    seen: dict[str, int] = {}
    for c in cols:   # 本期 | 上期 | 本期 | 上期 (本集团 | 本行): the second of a kind is of the second group
        if c.kind in ("current", "previous"):
            c.group = seen.get(c.kind, 0)
            seen[c.kind] = c.group + 1
    return cols


def sides(cols: list[Column]) -> list[tuple[float, list[Column]]]:
    """The statement's halves as (left edge, columns): one for most statements; two for a side-by-side
    balance sheet (资产 | 期末 | 期初 | 负债及所有者权益 | 期末 | 期初), split where a label column follows a
    period column (a wrapped label of the right half may be indented a little: the edge is left of it)."""
    out: list[tuple[float, list[Column]]] = [(float("-inf"), [])]
    for i, c in enumerate(cols):
        seen = [x.kind for x in out[-1][1] if x.kind in ("current", "previous")]
        if c.kind == "label" and seen:
            out.append((c.x0 - 8, []))
        elif c.kind == "current" and "current" in seen and "previous" in seen:
            # a second 期末 | 期初 pair with the right half's label wrapped above and below the header row
            # (万科A 2012 母公司资产负债表 "负债及 / 股东权益"): the half begins after the first pair
            left = out[-1][1][-1]
            out.append((left.x1 + 4, []))
        out[-1][1].append(c)
    return out if all(any(x.kind == "current" for x in cs) for _, cs in out) else [(float("-inf"), cols)]


def _side_rows(row: Row, halves: list[tuple[float, list[Column]]]) -> list[Row]:
    """The row cut at the halves' edges (one row per half, empty ones included)."""
    edges = [lo for lo, _ in halves[1:]] + [float("inf")]
    return [Row([c for c in row.cells if lo <= c.x0 < hi], row.top, row.bottom, row.page)
            for (lo, _), hi in zip(halves, edges)]


# ------------------------------------------------------------------------------------- rows


def _nearest(cols: list[Column], x: float) -> Column:
    return min(cols, key=lambda c: abs(c.xc - x))


def _parse_row(row: Row, cols: list[Column], group: int = 0) -> StatementRow:
    value_cols = [c for c in cols if c.kind in ("current", "previous", "note", "adjust", "other")]
    first_value_x = min(c.xc for c in value_cols)
    note_col = next((c for c in cols if c.kind == "note"), None)
    label_parts: list[str] = []
    values: dict[str, Decimal | None] = {}
    seen_value = False
    # more numbers than period columns, the first a bare 1-3 digit number: a 附注 number whose column
    # header is on a line of its own ("股本 30 10,995,553,118.00 10,995,210,218.00")
    numeric = [i for i, c in enumerate(row.cells) if i > 0 and (parse_number(c.text.strip()) is not None
                                                                 or is_empty_marker(c.text.strip()))]
    periods = sum(1 for c in value_cols if c.kind in ("current", "previous", "other", "adjust"))
    note_at = numeric[0] if len(numeric) > periods and re.fullmatch(r"\d{1,3}", row.cells[numeric[0]].text.strip()) else -1
    # the second column group (本行 beside 本集团): a row printing a value in every period column gives them in
    # the header's order
    ordered = [c for c in value_cols if c.kind in ("current", "previous", "other", "adjust")]
    by_order: dict[int, Column] = {}
    if group:
        cells = [i for i in numeric if i != note_at and row.cells[i].x1 >= first_value_x - 40]
        if len(cells) == len(ordered):
            by_order = dict(zip(cells, ordered))
    for i, cell in enumerate(row.cells):
        if i == note_at:
            continue
        text = cell.text.strip()
        num = parse_number(text)
        empty = is_empty_marker(text)
        if num is None and not empty and i > 0 and cell.x1 >= first_value_x - 40 and _MISGROUPED.match(text):
            num = parse_number(text.replace(",", ""))   # "63,075,477.25" printed "63,075477.25"
        if num is None and not empty:
            if NOTE_REF.match(text.replace(" ", "")) and (
                (i > 0 and (note_col is not None or cell.xc > first_value_x - 60))
                # the first cell of a wrapped label's middle line, in the note column ("七、79")
                or (i == 0 and note_col is not None and cell.xc >= note_col.x0 - 25)
            ):
                continue  # a 附注 note reference
            if not seen_value:
                label_parts.append(text)
            continue
        # a number (or an empty marker) in a value column; a small integer in the label area is
        # part of the label or a note number, never a value
        if cell.x1 < first_value_x - 40 and not seen_value and (i == 0 or num is None or "," not in text):
            if i == 0:
                label_parts.append(text)
            continue
        col = by_order.get(i) or _nearest(value_cols, cell.xc)
        seen_value = True
        if col.kind in ("current", "previous") and col.kind not in values and (
                (group == 0 and not col.scoped) or col.group == group):
            values[col.kind] = num
    label = "".join(label_parts).strip()
    return StatementRow(LABEL_NOTE.sub("", label).strip() if label else label, values, row.page)


def _align_right(row: Row, header: Row) -> Row:
    """A FinGLM txt row with another number of cells than its header (a page break re-splits the columns:
    "label | '' | 本期 | 上期" under "项目 | 本期 | 上期") has no positions to go by: its cells are aligned
    to the header's from the right (the value columns are the last ones); the label keeps its place."""
    xs = [c.x0 for c in header.cells]
    shift = len(header.cells) - len(row.cells)
    cells = [Cell(c.text, xs[i + shift], xs[i + shift] + 90) if i > 0 and i + shift >= 0 else c
             for i, c in enumerate(row.cells)]
    return Row(cells, row.top, row.bottom, row.page)


def _balanced(s: str) -> bool:
    return s.count("(") + s.count("（") <= s.count(")") + s.count("）")


def _continues(prev: StatementRow, cur: StatementRow, known: Callable[[str], bool]) -> bool:
    """Is cur's label the wrapped second line of prev's label?"""
    if not prev.label or not cur.label or _SECTION_ROW.search(prev.label):
        return False
    if prev.has_values and cur.has_values:
        return False
    if not _balanced(prev.label):
        return True
    if known(prev.label + cur.label):
        return True
    if known(prev.label) or known(cur.label):
        return False
    if _ANY_TITLE.match(_clean_title(cur.label)) or _SIGNATURE.match(cur.label):
        return False
    if not prev.has_values:
        # an unknown long label that wrapped; short unknown labels are items of their own
        return len(normalize_label(prev.label)) >= 10 and len(normalize_label(cur.label)) <= 12
    return len(normalize_label(cur.label)) <= 5 and not cur.label.endswith(("：", ":"))


def _header_label(label: str) -> bool:
    """A row whose label is a column header carried over a page ("2021年12月31日本行"), or a line printed
    again as the continued page's heading ("五、净利润（续）"): it repeats values read elsewhere and names
    no line of its own."""
    s = label.replace(" ", "").replace("\u3000", "")
    if CONTINUED.search(s):
        return True
    return bool(s) and not _HEADER_WORDS.sub("", s)


def _merge_wrapped(recs: list[StatementRow], table: ItemTable) -> list[StatementRow]:
    def known(label: str) -> bool:
        return table.canonical(label) is not None

    out: list[StatementRow] = []
    pending: dict[str, Decimal | None] | None = None
    for r in recs:
        if not r.label:
            if not r.has_values:
                continue
            if out and not out[-1].has_values and not _SECTION_ROW.search(out[-1].label):
                out[-1].values = r.values  # numbers on a line of their own, below their label
            else:
                pending = r.values  # numbers above the label (vertically centred in a tall cell)
            continue
        if out and _continues(out[-1], r, known):
            prev = out[-1]
            prev.label += r.label
            if r.has_values and not prev.has_values:
                prev.values = r.values
            continue
        if pending is not None and not r.has_values and not _SECTION_ROW.search(r.label):
            r.values, pending = pending, None
        pending = None if r.has_values else pending
        out.append(r)
    return out


# ------------------------------------------------------------------------------------- parse


def _title_opens(rows: list[Row], title: str) -> bool:
    """Whether a page starts with this title, or with it continued ("…资产负债表(续)"), within its first lines."""
    key = title.replace(" ", "")
    return any(t == key or (t.startswith(key) and CONTINUED.search(t))
               for t in (r.text.replace(" ", "") for r in rows[:4]))


def _start_index(rows: list[Row], title: str) -> int:
    key = title.replace(" ", "")
    for i, r in enumerate(rows):
        if r.text.replace(" ", "") == key:
            return i + 1
    for i, r in enumerate(rows):
        if key in r.text.replace(" ", ""):
            return i + 1
    return 0


def _is_end(row_text: str) -> bool:
    s = row_text.replace(" ", "")
    if _SIGNATURE.match(s):
        return True
    cleaned = _clean_title(s)
    if _ANY_TITLE.match(cleaned) and not CONTINUED.search(s):
        return True
    return False


_NOTE_HEADS = {"附注", "注释", "附注号", "附注编号", "注释号", "注"}


def _add_note_column(halves: list[tuple[float, list[Column]]], cell: Cell) -> None:
    """A 附注 column named apart from the periods' header joins the half it stands in."""
    for lo, cols in reversed(halves):
        if cell.x0 >= lo:
            if not any(c.kind == "note" for c in cols):
                cols.append(Column("note", cell.xc, cell.x0, cell.x1))
                cols.sort(key=lambda c: c.xc)
            return


def parse_statement_at(
    doc: Document, kind: str, page_no: int, title: str, year: int | None, table: ItemTable, max_pages: int = 8,
    group: int = 0,
) -> Statement | None:
    """Parse the statement whose title line is on page_no; None when it is not a usable statement."""
    unit: str | None = None
    first_page = doc.page(page_no)
    if first_page is not None:
        for line in first_page.lines:  # "财务附注中报表的单位为：元" above the title counts
            unit = unit or find_unit(line.text)
    halves: list[tuple[float, list[Column]]] | None = None
    both_scopes = False
    under_header = False   # no row with values since the periods' header
    header_row: Row | None = None
    recs: list[list[StatementRow]] = []  # the rows of each half, in order
    pages: list[int] = []
    unit_near_title: str | None = None
    note_heads: list[Cell] = []
    last_page = max(p.number for p in doc.pages)
    done = False
    for pn in range(page_no, min(page_no + max_pages, last_page) + 1):
        rows = doc.table_rows(pn)
        start = _start_index(rows, title) if pn == page_no else 0
        pages.append(pn)
        for row in rows[start:]:
            text = row.text
            if pn > page_no and any(recs) and text.replace(" ", "") == title.replace(" ", ""):
                continue   # the title printed again on each page of the statement (合并及银行资产负债表: its
                # assets, liabilities and equity a page each): the same statement goes on
            if _is_end(text):
                # the page's end ("后附财务报表附注…") of a statement whose title the next page prints again
                # (its liabilities, then its equity): read on there
                done = pn >= last_page or not _title_opens(doc.table_rows(pn + 1), title)
                break
            u = find_unit(text) or _bracket_unit(text)
            if u and not any(recs):
                unit_near_title = u
            # (right under the periods' header: the first page's, or its repeat on a page the statement goes on to)
            scoped = _split_by_scopes(row, halves) if halves is not None and under_header else None
            if scoped is not None:
                halves, both_scopes = scoped, True
                continue
            header = parse_header(row, year)
            if header is not None:
                if any(c.kind == "adjust" for c in header):
                    return None  # 首次执行新准则调整 table, not the statement
                halves = sides(header)
                under_header = True
                if group and len(halves) == 2 and not any(c.kind in ("label", "note") for c in halves[1][1]):
                    # 本集团 | 本行 side by side under one label column: one statement, its second column group
                    halves = [(halves[0][0], halves[0][1] + halves[1][1])]
                recs.extend([] for _ in range(len(halves) - len(recs)))
                header_row = row
                for cell in note_heads:
                    _add_note_column(halves, cell)
                continue
            heads = [c for c in row.cells if c.text.replace(" ", "") in _NOTE_HEADS]
            if heads and not any(r.has_values for half in recs for r in half) \
                    and not any(parse_number(c.text) is not None for c in row.cells):
                # the 附注 column named on a header line of its own, below or above the periods' ("本期金额 |
                # 上期金额" over "项 目 | 附注")
                if halves is None:
                    note_heads = heads
                else:
                    for cell in heads:
                        _add_note_column(halves, cell)
                continue
            if halves is None or header_row is None:
                continue
            if doc.kind == "txt" and len(row.cells) != len(header_row.cells):
                row = _align_right(row, header_row)
            for k, (part, (_, cols)) in enumerate(zip(_side_rows(row, halves), halves)):
                if part.cells:
                    recs[k].append(_parse_row(part, cols, group))
                    under_header = under_header and not recs[k][-1].has_values
        if done:
            break
    if halves is None:
        return None
    unit = unit_near_title or unit or "元"
    # rows without values (section headings such as "流动资产：", labels whose values never came) name nothing
    merged = [r for half in recs for r in _merge_wrapped(half, table)
              if r.has_values and not _SECTION_ROW.search(r.label) and not _header_label(r.label)]
    st = build_statement(kind, title, unit, pages, merged, table)
    if st is not None:
        st.both_scopes = both_scopes
    return st


def extract_statements(doc: Document, year: int | None, table: ItemTable, parent: bool = False) -> dict[str, Statement]:
    """The consolidated statements of a report (a report without subsidiaries: its only statements);
    with parent=True the parent company's own statements (母公司资产负债表 …), which only a report with
    consolidated ones prints.

    table names the items (keyword_tables/items.yaml); a positioned-table parse that fails is retried
    as run-together text (bank_text).
    """
    found: dict[str, Statement] = {}
    for kind in STATEMENT_KINDS:
        for consolidated in ((None,) if parent else (True, False)):
            for page_no, title in find_title_candidates(doc, kind, consolidated):
                st = parse_statement_at(doc, kind, page_no, title, year, table)
                if st is None:  # rows flattened to text with the numbers run together
                    st = parse_text_statement(doc, kind, page_no, title, year, table)
                if st is not None:
                    found[kind] = st
                    break
            if kind in found:
                break
        if parent and kind not in found:
            # one statement for both scopes (合并及银行资产负债表: 本集团 | 本行 columns): the second group is the
            # parent's (the bank's own)
            for page_no, title in find_title_candidates(doc, kind, True):
                if _BOTH_SCOPES.search(title.replace(" ", "")):
                    st = parse_statement_at(doc, kind, page_no, title, year, table, group=1)
                    if st is not None and st.facts:
                        found[kind] = st
                    break
        if parent and kind not in found:
            # a plain title over columns of both scopes (利润表: 本期金额 | 上期金额 over 合并 | 公司 | 合并 | 公司):
            # the parent's columns
            for page_no, title in find_title_candidates(doc, kind, False):
                st = parse_statement_at(doc, kind, page_no, title, year, table, group=1)
                if st is not None and st.both_scopes and st.facts:
                    found[kind] = st
                break
    return found
