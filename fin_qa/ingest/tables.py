"""Every table of a report as a record: caption, unit, header (multi-row headers merged), rows of cells
aligned to the header's columns, pages — continued across page breaks.

A PDF page's positioned rows (Document.table_rows: PDFium word boxes grouped into rows and cells) are
cut into blocks: runs of rows with two or more cells. A row with one short cell between them is a
wrapped cell and joins the row above; a □/√ option line, a heading or a sentence ends the block. The
columns are those of the block's row with the most cells; every other row's cells are placed by their
horizontal overlap with them (a header cell spanning several columns, such as 质押或冻结情况 above
股份状态 | 数量, names each of them). The leading rows with no number are the header; two or three such
rows are merged column by column ("质押或冻结情况 股份状态"). A FinGLM txt report's `excel` lines are
rows already, one cell per column.

A block that ends a page and one that starts the next with as many columns is one table; the next
page's repeat of the header is dropped. The caption is the text line just above the table (not a unit
line, not an option line); the unit is the "单位：万元" line above it, when there is one.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from dataclasses import dataclass, field

from ..numbers import find_unit, parse_number
from .headings import heading_level
from .pages import Cell, Document, Row

_NUMBER = re.compile(r"^[\(（]?[-－—–−]?\d[\d,]*(?:\.\d+)?[\)）]?%?$")
_OPTION = re.compile(r"[□☑■√]")
_SENTENCE = re.compile(r"[。；;]\s*$")
_BARE_UNIT = re.compile(r"^(?:金额)?(?:单位[:：]?)?[(（]?(?:人民币)?(百万元|千元|万元|亿元|元|股|万股|亿股|人|户|家|%)[)）]?$")
_CLAUSE = re.compile(r"[，。；]")
_ENUMERATOR = re.compile(r"^[（(]?[\d一二三四五六七八九十]{1,3}[)）]?[.、．]?$")
_SEPARATOR = re.compile(r"^[-－—–\s]*$")
MAX_HEADER_ROWS = 6
MAX_HEADER_LINES = 16   # a PDF header's lines (its words wrapped in narrow columns)
WRAP_CHARS = 30     # a one-cell row longer than this is text, not a wrapped cell
MAX_WRAPPED = 8     # lines one cell may wrap over
INSET = 10.0        # points right of a table's left edge where its inner columns' words start
HEADER_WORD_CHARS = 8   # a header's words wrapped in a narrow column: this many characters a line at most
ALIGN = 40.0        # points two pages' column edges may differ by for one table
EDGE = 4.0          # points apart two lines of one cell may start and end
TIGHT = 0.7         # a line nearer than this share of its height to the one above: one cell's lines
SAME_GAP = 1.5      # gaps between lines within this many points of the widest are as wide


@dataclass
class Table:
    page_start: int
    page_end: int
    caption: str                 # the text line above the table ("公司前 5 大客户资料"), or ""
    unit: str | None             # from a "单位：万元" line above it
    header: list[str]            # one text per column ("" where the header row left it empty)
    rows: list[list[str]]        # body rows, as many cells as header columns
    pages: list[int] = field(default_factory=list)   # the page of each body row
    lines: list[str] = field(default_factory=list)   # its first rows and caption, to find its section
    starts_page: bool = False    # its first row is the page's first: it may continue the last page's table
    ends_page: bool = False      # its last row is the page's last: the next page's table may continue it
    bands: list[tuple[float, float]] = field(default_factory=list)   # its columns' x ranges (a PDF's)
    block: list[Row] = field(default_factory=list)                   # the rows it was read from
    trail: list[Row] = field(default_factory=list)   # one-cell label lines after it at the page's foot (分行业)
    section_page: int | None = None   # a part of a table read as one (_parts): the page its lines are on
    foot_header: bool = False   # one header line alone at the page's foot: kept only where the next page's rows follow it

    @property
    def width(self) -> int:
        return len(self.header)


@lru_cache(maxsize=1 << 16)
def is_number(cell: str) -> bool:
    # (asked of the same cells again and again: by the block finder, the table reader, the answerers)
    return bool(_NUMBER.match(cell.replace(" ", "")))


def _is_text_line(row: Row) -> bool:
    """A row that is running text, a heading ("(1). 研发投入情况表", split into cells by its gap) or an
    option line, never part of a table."""
    text = row.text
    if _OPTION.search(text) or (len(row.cells) == 1 and (len(text) > WRAP_CHARS or _SENTENCE.search(text))):
        return True
    if len(row.cells) >= 2 and sum(bool(_CLAUSE.search(c.text)) for c in row.cells) >= 2:
        return True   # a sentence set apart around its numbers ("公司从前 | 5 | 名…采购额合计 | 26.4 | 亿元，比")
    return len(row.cells) <= 3 and bool(_ENUMERATOR.match(row.cells[0].text)) and heading_level(
        "".join(c.text for c in row.cells)) is not None


# --------------------------------------------------------------------------------------------- PDF


def _overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return min(a1, b1) - max(a0, b0)


def _bands(template: Row, others: list[Row]) -> list[tuple[float, float]]:
    """Column bands from the template row's cells, plus a header cell over no template cell when the
    nearest template cell has a header cell of its own (in any header row) (重大变动说明 beside 同比增减 over the numbers; a
    header over a right-aligned number column just left of it names that column): each band reaches
    halfway to its neighbours."""
    cells = list(template.cells)
    heads = [c for r in others for c in r.cells]
    # (a header cell's last line, under its wider first line standing alone, the two set around a header line of
    # words alone: "计入当期非经常性损益的金" / "项目 本期发生额 上期发生额" / "额")
    last_lines = {id(c) for r in others if len(r.cells) == 1 for c in r.cells
                  if any(len(o.cells) == 1 and o.top < r.top and o.cells[0].x0 <= c.x0 and c.x1 <= o.cells[0].x1
                         and any(len(m.cells) >= 2 and not re.search(r"\d", m.text) and o.bottom > m.top
                                 and m.bottom > r.top for m in others)
                         for o in others)}
    for c in heads:
        if any(_overlap(c.x0, c.x1, t.x0, t.x1) > 0 for t in cells) or id(c) in last_lines:
            continue
        near = min(template.cells, key=lambda t: abs((t.x0 + t.x1) / 2 - (c.x0 + c.x1) / 2))
        if any(o is not c and _overlap(o.x0, o.x1, near.x0, near.x1) > 0 for o in heads):
            cells.append(c)
    cells.sort(key=lambda c: c.x0)
    bands = []
    for i, c in enumerate(cells):
        left = (cells[i - 1].x1 + c.x0) / 2 if i else float("-inf")
        right = (c.x1 + cells[i + 1].x0) / 2 if i + 1 < len(cells) else float("inf")
        bands.append((left, right))
    return bands


# a header cell naming a year alone ("2022年", "2021 年末", "2022年12月31日"): over the group of columns it heads
_YEAR_HEAD = re.compile(r"(?:19|20)\d\d\s*年(?:度|末)?(?:\s*\d{1,2}\s*月\s*\d{1,2}\s*日)?")


def _year_groups(row: Row, bands: list[tuple[float, float]]) -> list[str] | None:
    """A header line of two or more years alone, each centred over a group of columns ("2022年 | 2021年" over
    "金额 | 占比(%) | 金额 | 占比(%)"): each year over every column whose middle lies nearer to it than to the next
    year (and no further out than the halfway to it) — None for any other line."""
    cells = sorted(row.cells, key=lambda c: c.x0)
    if len(cells) < 2 or not all(_YEAR_HEAD.fullmatch(c.text.strip()) for c in cells):
        return None
    xs = [(c.x0 + c.x1) / 2 for c in cells]
    cuts = [(a + b) / 2 for a, b in zip(xs, xs[1:])]
    lo, hi = xs[0] - (cuts[0] - xs[0]), xs[-1] + (xs[-1] - cuts[-1])
    out = [""] * len(bands)
    for i, (b0, b1) in enumerate(bands):
        if b0 == float("-inf") or b1 == float("inf"):
            continue
        mid = (b0 + b1) / 2
        if lo <= mid <= hi:
            out[i] = cells[sum(mid > c for c in cuts)].text
    taken = [t for t in out if t]
    # (each year over one column or more, the same number of columns each: one grid of groups)
    counts = [taken.count(c.text) for c in cells]
    return out if all(counts) and len(set(counts)) == 1 and counts[0] >= 2 else None


def _place(row: Row, bands: list[tuple[float, float]], spread: bool) -> list[str]:
    """The row's cells placed in the bands: by the largest overlap (the nearest band when none overlaps);
    `spread` (header rows): a cell also names every band whose middle it covers — and a line of years alone, each
    names the columns of the group it heads that no cell was placed over (_year_groups)."""
    out = [""] * len(bands)
    mids = [_mid(b) for b in bands]
    for c in _split_cells(row.cells, bands, mids):
        targets: list[int] = []
        if spread:
            targets = [i for i, (b0, b1) in enumerate(bands)
                       if b0 > float("-inf") and b1 < float("inf") and c.x0 <= (b0 + b1) / 2 <= c.x1]
        if not targets:
            targets = [_best_band(c.x0, c.x1, (c.x0 + c.x1) / 2, bands, mids)]
        for i in targets:
            out[i] = f"{out[i]} {c.text}".strip() if out[i] else c.text
    groups = _year_groups(row, bands) if spread else None
    if groups is not None:   # (the columns of a group no year was placed over: its year)
        out = [o or g for o, g in zip(out, groups)]
    return out


def _split_cells(cells: list[Cell], bands: list[tuple[float, float]], mids: list[float]) -> list[Cell]:
    """Cells as placed: one joined from words (parts) that lie in different columns is cut where the columns
    part ("北方华锦化学工业集团有限公司" | "国有法人", set too close in a narrow table)."""
    out: list[Cell] = []
    for c in cells:
        if len(c.parts) < 2:
            out.append(c)
            continue
        cols = [_best_band(p.x0, p.x1, p.xc, bands, mids) for p in c.parts]
        if len(set(cols)) == 1:
            out.append(c)
            continue
        start = 0
        for k in range(1, len(c.parts) + 1):
            if k == len(c.parts) or cols[k] != cols[start]:
                ps = c.parts[start:k]
                text = ps[0].text
                for p in ps[1:]:
                    text += (" " if text[-1:].isascii() and text[-1:].isalnum() and p.text[:1].isascii() else "") + p.text
                out.append(Cell(text, ps[0].x0, ps[-1].x1))
                start = k
    return out


def _band_of(c: Cell, bands: list[tuple[float, float]]) -> int:
    return _best_band(c.x0, c.x1, c.xc, bands, [_mid(b) for b in bands])


def _best_band(x0: float, x1: float, xc: float, bands: list[tuple[float, float]], mids: list[float]) -> int:
    """The band a cell (x0..x1, centre xc) lies in: the largest overlap, then the nearest middle (`mids`,
    the bands' _mid); the first of equals — max over (overlap, -distance), written out (ingest's hot path)."""
    best, best_ov, best_d = 0, 0.0, 0.0
    for i, (b0, b1) in enumerate(bands):
        # _overlap: min(x1, b1) - max(x0, b0), as min and max choose (the first unless the second is
        # smaller, larger: a NaN coordinate of a damaged page chooses as it did)
        ov = (b1 if b1 < x1 else x1) - (b0 if b0 > x0 else x0)
        d = -abs(xc - mids[i])
        if not i or ov > best_ov or (ov == best_ov and d > best_d):
            best, best_ov, best_d = i, ov, d
    return best


def _mid(band: tuple[float, float]) -> float:
    b0, b1 = band
    if b0 == float("-inf"):
        return b1 - 1
    if b1 == float("inf"):
        return b0 + 1
    return (b0 + b1) / 2


WRAP_GAP = 3.5      # points between a row and the one-cell row below it that continues one of its cells
JOIN_GAP = 4.5      # points between two words of one cell ("公司前" "5大客户资料")


def _joined(row: Row) -> Row:
    """The row with cells closer than JOIN_GAP joined when one of them is text ("公司前 5大客户资料")."""
    cells: list[Cell] = []
    for c in row.cells:
        if cells and c.x0 - cells[-1].x1 <= JOIN_GAP and not (is_number(c.text) and is_number(cells[-1].text)):
            last = cells[-1]
            cells[-1] = Cell(f"{last.text} {c.text}", last.x0, c.x1, (last.parts or (last,)) + (c.parts or (c,)))
        else:
            cells.append(c)
    return row if len(cells) == len(row.cells) else Row(cells, row.top, row.bottom, row.page)


def _numeric(row: Row) -> bool:
    return any(is_number(c.text) for c in row.cells)


def _valued(row: Row) -> bool:
    """A row holding a number — or a number cut at its point by a narrow column ("81,887,220." over "36"), the
    rest on the line below: a row of values, never a header that starts a table."""
    return any(is_number(c.text) or _CUT_AT_POINT.match(c.text) for c in row.cells)


_CUT_AT_POINT = re.compile(r"^[-－—–−]?\d{1,3}(?:,\d{3})+\.$")


def _blocks(rows: list[Row], wraps: bool) -> list[tuple[int, int]]:
    """(first, last) indexes of the runs of table rows on a page (`wraps`: a PDF's, where short one-cell
    rows between table rows — a label row without values, a wrapped cell — belong to the table, and a
    line of one number is a table row: the one value of a row whose label is on lines of its own)."""
    blocks: list[tuple[int, int]] = []
    i, n = 0, len(rows)
    # each row's verdicts, asked again and again below, worked out once (the rows stay as they are here)
    text_lines: dict[int, bool] = {}
    table_rows: dict[int, bool] = {}

    def text_line(r: Row) -> bool:
        got = text_lines.get(id(r))
        if got is None:
            got = text_lines[id(r)] = _is_text_line(r)
        return got

    def table_row(r: Row) -> bool:
        got = table_rows.get(id(r))
        if got is None:
            got = table_rows[id(r)] = (len(r.cells) >= 2 or (wraps and _numeric(r))) and not text_line(r)
        return got

    gap = _row_gap(rows, table_row)

    def tight(a: Row, b: Row) -> bool:
        return _tight(a, b, gap)

    # a cell's last line that ends a sentence, set close under the line above, is no running text
    soft = {id(rows[m]) for m in range(1, n)
            if not _ends_table(rows[m - 1], rows[m], gap, text_line) and text_line(rows[m])}

    def one_cell(r: Row) -> bool:
        return len(r.cells) == 1 and not table_row(r) and (not text_line(r) or id(r) in soft)

    while i < n:
        if not table_row(rows[i]):
            i += 1
            continue
        j = i
        while j + 1 < n and not _ends_table(rows[j], rows[j + 1], gap, text_line):
            if table_row(rows[j + 1]):
                j += 1
                continue
            # one-cell rows: part of the table when a table row follows them — up to 3 (label rows: 分行业),
            # or any number set close together (a wrapped label's last lines, the next label's first ones)
            k = j + 1
            while wraps and k < n and one_cell(rows[k]) and k - j <= 2 * MAX_WRAPPED:
                k += 1
            run = rows[j:k + 1] if k < n else rows[j:k]
            wrapped = all(tight(a, b) or (m + 2 < len(run) and tight(b, run[m + 2]))
                          for m, (a, b) in enumerate(zip(run, run[1:])))
            if wraps and k < n and table_row(rows[k]) and (k - j <= 4 or wrapped):
                j = k
                continue
            while wraps and j + 1 < k and tight(rows[j], rows[j + 1]):
                j += 1   # the last lines of the last row's label
            break
        first = i
        left = min(c.x0 for r in rows[i:j + 1] for c in r.cells)   # the table's left edge
        while wraps and first > 0 and i - first < MAX_WRAPPED and one_cell(rows[first - 1]) \
                and tight(rows[first - 1], rows[first]) \
                and (_beside(rows[first - 1], rows[i]) if _numeric(rows[i]) else _header_words(rows[first - 1], left)):
            # the first lines of a label set on its values' line ("计入当期损益的对非金融企业收"), or of a
            # header's words wrapped in narrow columns, over a column inside the table ("现金分红金" /
            # "额占合并报" …) — not a caption at the table's left edge ("公司前5大客户资料")
            first -= 1
        blocks.extend(_split(rows, first, j))
        i = j + 1
    return blocks


def _ends_table(above: Row, row: Row, row_gap: float | None = None,
               text_line: Callable[[Row], bool] = _is_text_line) -> bool:
    """A line of running text after a table row — not a short line set close under it, the last line of
    a wrapped cell that ends a sentence ("…附属产品生产销售。") (`text_line`: _is_text_line, or its kept
    verdicts)."""
    return text_line(row) and not (len(row.cells) == 1 and len(row.text) <= WRAP_CHARS
                                       and _tight(above, row, row_gap) and not _OPTION.search(row.text))


def _header_words(line: Row, left: float, below: Row | None = None) -> bool:
    """A one-cell line of a header's words wrapped in a narrow column: a few words over a column inside the
    table (not a caption at its left edge, nor a title set over it) — or any words of a header cell whose
    lines are set around the header's line below (the line reaching into it: "计入当期非经常性损益的金" /
    "项目 本期发生额 上期发生额" / "额"; a caption stands clear above its table)."""
    if line.cells[0].x0 <= left + INSET:
        return False
    return len(line.text) <= HEADER_WORD_CHARS or (below is not None and below.top < line.bottom
                                                   and len(below.cells) >= 2 and not _numeric(below))


def _beside(line: Row, values: Row) -> bool:
    """The one-cell line is a label's first line: it stands over no cell of the value line below it (the
    label set on its values' line in a column the value line leaves empty), or over its label cell filled
    to the same right edge (a long label wrapped at its column's edge) — not a caption over the label
    column, which ends short of it."""
    c = line.cells[0]
    over = [v for v in values.cells if _overlap(c.x0, c.x1, v.x0, v.x1) > 0]
    return not over or (len(over) == 1 and not is_number(over[0].text) and abs(c.x0 - over[0].x0) <= EDGE
                        and abs(c.x1 - over[0].x1) <= EDGE)


def _tight(above: Row, below: Row, row_gap: float | None = None) -> bool:
    """Two lines closer than a table's rows are to each other (`row_gap`: the page's typical gap between
    two table rows, less SAME_GAP), else than TIGHT × a line's height: one cell's lines wrapped (or a
    label centred on its values)."""
    gap = below.top - above.bottom
    if row_gap is not None:
        return gap < row_gap - SAME_GAP
    h = min(above.bottom - above.top, below.bottom - below.top) or 1.0
    return gap < TIGHT * h


def _row_gap(rows: list[Row], table_row) -> float | None:
    """The median gap between two table rows one under the other on a page (None with fewer than two)."""
    gaps = sorted(b.top - a.bottom for a, b in zip(rows, rows[1:])
                  if a.page == b.page and table_row(a) and table_row(b) and b.top - a.bottom >= 0)
    return gaps[len(gaps) // 2] if len(gaps) >= 2 else None


def _split(rows: list[Row], first: int, last: int) -> list[tuple[int, int]]:
    """A block cut where a new table starts, after rows with numbers: at a header row (several cells, no
    number) above rows whose number of cells differs ("前五名客户合计销售金额 | 9,344,898,794.54" rows,
    then "序号 | 客户名称 | 销售额 | 比例" and its rows) — or at the last one-cell title above a header
    before those rows. One-cell rows just above the cut go with the new table."""
    out = []
    start, width = first, 0

    def titled(m: int) -> bool:   # a one-cell row (a title) above a header row — not a header's wrapped words
        n = m + 1
        if n < last and _filled(rows[n]) == 1 and _UNIT_LINE.match(rows[n].text.strip()):
            n += 1   # (a heading, its 单位 line, then the header: "（2）短期薪酬列示" | "单位：元" | "项目 | 期初余额 …")
        return (_filled(rows[m]) == 1 and not _valued(rows[m]) and n <= last
                and _filled(rows[n]) >= 2 and not _valued(rows[n])
                and (len(rows[m].text) > HEADER_WORD_CHARS or _heading_title(rows[m], rows[n])))

    for k in range(first, last + 1):
        r = rows[k]
        if _valued(r):
            width = _filled(r)
            continue
        at = next((m for m in range(k + 1, last + 1) if _valued(rows[m])), None)
        if at is None:
            continue
        if not width:
            if k > start and titled(k) and at > k + 1 and not re.search(r"\d", rows[k + 1].text) \
                    and any(_filled(x) >= 2 for x in rows[start:k]):
                # a title above a header, under rows of another table without numbers ("2012年末股东总数
                # | 767,659户 …" over "前10名股东持股情况" / "股东名称 | 股东性质 …")
                out.append((start, k - 1))
                start = k
            continue
        if _filled(r) >= 2 and _filled(rows[at]) != width:
            # the new table starts at its title: the last one before its first row with numbers
            # ("持股5%以上的股东或前10名股东持股情况" under the shareholder counts), else at the header row
            titles = [m for m in range(k + 1, at) if titled(m)]
            cut = titles[-1] if titles else k
        elif titled(k) and at > k + 1 and not re.search(r"\d", rows[k + 1].text):
            # a title above a header of words only, after rows with numbers: a new table, whatever its width
            cut = k
        else:
            continue
        while cut - 1 > start and _filled(rows[cut - 1]) == 1 and not _valued(rows[cut - 1]):
            cut -= 1
        out.append((start, cut - 1))
        start, width = cut, 0
    out.append((start, last))
    return out


def _heading_title(row: Row, below: Row) -> bool:
    """A one-cell row numbered as a heading ("28、管理费用"), set apart above a header of words ("项目 | 本期发生额
    | 上期发生额"): a note's heading between two tables printed close together, however short — not a group's
    label over its wrapped first row ("二、联营公司" over "北京金隅万科房地 | 房地产开", set close), nor a label's
    first line over a row of dashes ("1、国家持" over "股 | - | -")."""
    return (heading_level(row.text) is not None and not _tight(row, below)
            and all(_WORDS.search(c.text) for c in below.cells if c.text.strip()))


_WORDS = re.compile(r"[\u4e00-\u9fffA-Za-z]")
_UNIT_LINE = re.compile(r"^(?:金额)?单位[:：]\s*(?:人民币)?\s*(?:百万|千|万|亿)?元(?:\s*币种[:：]\s*\S+)?$")


def _filled(row: Row) -> int:
    """The row's cells that hold words (a FinGLM txt row keeps its empty ones)."""
    return sum(1 for c in row.cells if c.text.strip())


def _above(rows: list[Row], first: int) -> tuple[str, str | None]:
    """The caption and the unit from the (at most three) rows above a block."""
    caption, unit = "", None
    for k in range(first - 1, max(first - 4, -1), -1):
        text = rows[k].text.strip()
        bare = _BARE_UNIT.match(re.sub(r"\s", "", text))
        if bare:   # "股", "单位：人" (a FinGLM txt keeps a unit line's word alone): a unit, no caption
            unit = unit or find_unit("单位" + bare.group(1))
            continue
        u = find_unit(text)
        if u:
            unit = unit or u
            rest = re.split(r"(?:金额)?单位", text)[0].strip(" ：:")
            if rest and not caption and len(rows[k].cells) <= 2:
                caption = rest
            continue
        if _OPTION.search(text) or len(rows[k].cells) >= 2 or _SENTENCE.search(text) or text in ("是", "否"):
            break   # (a 是/否 alone: the answer of a question line above, no caption)
        caption = text
        break
    return caption, unit


def _whole_numbers(row: Row) -> bool:
    """A value line: a whole number, or one cut at its point by a narrow column ("997,160,375." over "65"), not
    the cut-off rest of one."""
    return any(is_number(c.text) and not _FRAGMENT_CELL.match(c.text) or _CUT_AT_POINT.match(c.text)
               for c in row.cells)


def _conflict(group: list[Row], row: Row) -> bool:
    """A number of the row under a number of the group's (not the rest of it, "236,072,490." / "00"):
    the row is a row of its own."""
    for c in row.cells:
        if not is_number(c.text):
            continue
        for g in group:
            for d in g.cells:
                if is_number(d.text) and _overlap(c.x0, c.x1, d.x0, d.x1) > 0 and not _tail(d.text, c.text) \
                        and not _run_on(d, c):
                    return True
    return False


def _rests(row: Row, group: list[Row]) -> bool:
    """Every number of the line completes a cut number of the group's in its column ("37,250," / "000.00")."""
    numbers = [c for c in row.cells if is_number(c.text)]
    return bool(numbers) and all(any(_overlap(c.x0, c.x1, d.x0, d.x1) > 0 and _tail(d.text, c.text)
                                     for g in group for d in g.cells) for c in numbers)


def _run_on(above: Cell, below: Cell) -> bool:
    """Digits printed without separators running on under a number from its left edge ("-2201741" / "3")."""
    return bool(re.fullmatch(r"[-−]?\d{4,}", above.text) and re.fullmatch(r"\d{1,3}", below.text)
                and abs(above.x0 - below.x0) <= 1.5)


def _groups(rows: list[Row], bands: list[tuple[float, float]]) -> tuple[int, list[list[Row]]]:
    """(header lines, rows): the lines of a PDF table grouped into its rows around their value lines.

    A value line holds whole numbers; value lines next to each other whose numbers stand in different
    columns are one row's (a 个百分点 change printed a line above the amounts). The text lines between
    two rows' value lines are parted at their widest gap (or gaps: a line alone between two equal gaps,
    such as 分产品, is a row of its own) — a label wrapped under its values goes with them, the next
    label's first lines with the next values, however the labels are set (top or centred). Lines above
    the first value line are the header, but for the first row's own label lines: lines with no word
    over a column of its numbers, below the widest gap. A row's last lines after the last value line
    stay with it while closer than the table's row gap."""
    value = [i for i, r in enumerate(rows) if _whole_numbers(r)]
    if not value:
        return 0, [[r] for r in rows]
    anchors: list[list[int]] = [[value[0]]]
    rested = False   # the last anchor's cut numbers already completed by a line below
    for i in value[1:]:
        last = anchors[-1][-1]
        if not rested and rows[i].page == rows[last].page and _rests(rows[i], [rows[k] for k in anchors[-1]]):
            rested = True
            continue   # the second lines of numbers cut by narrow columns ("8,591,28" / "7.04"): no row's own
        rested = False
        if i == last + 1 and rows[i].page == rows[last].page and _tight(rows[last], rows[i]) \
                and not _conflict([rows[k] for k in anchors[-1]], rows[i]):
            anchors[-1].append(i)
        else:
            anchors.append([i])

    def gap(i: int) -> float:   # between line i-1 and line i, top to top (a line of digits may stand taller)
        return rows[i].top - rows[i - 1].top if rows[i].page == rows[i - 1].page else 1e9

    def cuts(lo: int, hi: int) -> list[int]:
        """The widest gaps among the line boundaries lo..hi (a boundary i: between line i-1 and i)."""
        widest = max(gap(i) for i in range(lo, hi + 1))
        return [i for i in range(lo, hi + 1) if gap(i) >= widest - SAME_GAP]

    starts: list[int] = []
    # the first row's label lines above its first value line: no word in a column of its numbers
    first = anchors[0][0]
    value_cols = {_band_of(c, bands) for k in anchors[0] for c in rows[k].cells if is_number(c.text)}
    top = first
    while top > 0 and not any(_band_of(c, bands) in value_cols for c in rows[top - 1].cells):
        top -= 1
    starts.append(0 if top == 0 else max(cuts(top, first)) if top < first else first)
    row_gaps: list[float] = []
    for a, b in zip(anchors, anchors[1:]):
        lo, hi = a[-1] + 1, b[0]
        found = cuts(lo, hi)
        row_gaps.append(gap(found[0]))
        starts.extend(found)
    header = starts[0]
    bounds = sorted(set(starts))
    # lines after the last value line: the last row's while nearer than its row gap
    end = anchors[-1][-1] + 1
    limit = sorted(row_gaps)[len(row_gaps) // 2] - SAME_GAP if row_gaps else None
    while end < len(rows) and (gap(end) < limit if limit is not None else _tight(rows[end - 1], rows[end])):
        end += 1
    bounds.append(end)
    groups: list[list[Row]] = []
    for s, e in zip(bounds, bounds[1:]):
        for r in rows[s:e]:
            # a number under one of the row's that does not complete it ("3" under "108,622,006.86"): not its
            if groups and r is not rows[s] and not _conflict(groups[-1], r):
                groups[-1].append(r)
            else:
                groups.append([r])
    groups += [[r] for r in rows[end:]]
    return header, groups


def _merge_lines(lines: list[list[str]]) -> list[str]:
    """The cells of one row's lines, column by column: wrapped words joined, a number's cut tail added."""
    out = list(lines[0])
    for cells in lines[1:]:
        for k, v in enumerate(cells):
            if not v:
                continue
            if not out[k]:
                out[k] = v
            elif _tail(out[k], v) or (re.fullmatch(r"[-−]?\d{4,}", out[k]) and re.fullmatch(r"\d{1,3}", v)):
                out[k] += v
            else:
                out[k] += _space(out[k], v) + v
    return out


def _space(left: str, right: str) -> str:
    return " " if left[-1:].isascii() and left[-1:].isalnum() and right[:1].isascii() and right[:1].isalnum() else ""


def _table_of_block(rows: list[Row], page: int, caption: str, unit: str | None,
                    columns: list[tuple[float, float]] | None = None, wraps: bool = True) -> Table | None:
    """The table of a block of rows; `columns`: the bands of the table it continues (no header here);
    `wraps`: a PDF's lines, grouped into rows (_groups) — a FinGLM txt's rows are rows already."""
    lead = 0
    left = min(c.x0 for r in rows for c in r.cells)
    gap = _row_gap(rows, lambda r: len(r.cells) >= 2 or _numeric(r))
    def label_line(k: int) -> bool:
        """rows[k] is one of the lines of a label set on the value line below (tight one under the other)."""
        m = k
        while m + 1 < len(rows) and len(rows[m].cells) == 1 and not _numeric(rows[m]) and _tight(rows[m], rows[m + 1], gap):
            m += 1
        return m > k and _numeric(rows[m]) and all(_beside(rows[x], rows[m]) for x in range(k, m))

    numbered = any(_numeric(r) for r in rows)   # (a table of text: its first row is its header, no line around it)
    while lead < len(rows) - 1 and len(rows[lead].cells) == 1 and not _numeric(rows[lead]) \
            and not (wraps and (label_line(lead) or (_tight(rows[lead], rows[lead + 1], gap)
                                                     and _header_words(rows[lead], left, rows[lead + 1] if numbered else None)))):
        lead += 1   # one-cell rows above the header (a block cut by _split): the caption — not the first
        # lines of a header's words wrapped in narrow columns, nor a label's set on its values' line
    if lead:
        caption = " ".join(r.text for r in rows[:lead])
        unit = find_unit(caption) or unit
        rows = rows[lead:]
    # the columns: the row with numbers with the most cells (a header's wrapped words can split more),
    # with the whole numbers of other lines standing where it has no cell (a row's values set on two lines)
    template = max(rows, key=lambda r: (_numeric(r), len(r.cells)))
    extra = [c for r in rows if r is not template and _whole_numbers(r) for c in r.cells
             if is_number(c.text) and not _FRAGMENT_CELL.match(c.text)
             and not any(_overlap(c.x0, c.x1, t.x0, t.x1) > 0 for t in template.cells)]
    if extra:
        kept: list[Cell] = []
        for c in sorted(extra, key=lambda c: c.x0):
            if not any(_overlap(c.x0, c.x1, k.x0, k.x1) > 0 for k in kept):
                kept.append(c)
        template = Row(sorted([*template.cells, *kept], key=lambda c: c.x0), template.top, template.bottom, template.page)
    heads: list[Row] = []
    for r in rows:
        if _numeric(r) or len(heads) == MAX_HEADER_ROWS:
            break
        heads.append(r)
    bands = columns or _bands(template, [r for r in heads if r is not template])
    if wraps and any(_whole_numbers(r) for r in rows):
        lead, groups = _groups(rows, bands)
        groups = [[r] for r in rows[:lead]] + groups
    else:
        groups = [[r] for r in rows]
    placed: list[list[str]] = []
    row_pages: list[int] = []
    numeric_seen = False
    header_rows = 0
    prev: Row | None = None
    for g in groups:
        numeric = any(_numeric(r) for r in g)
        if not numeric_seen and not numeric and header_rows < MAX_HEADER_LINES and columns is None \
                and all(r is not template for r in g):
            for r in g:
                placed.append(_place(r, bands, spread=True))
                row_pages.append(r.page or page)
                header_rows += 1
            prev = g[-1]
            continue
        numeric_seen = numeric_seen or numeric
        cells = _merge_lines([_place(r, bands, spread=False) for r in g])
        first = g[0]
        k = next((i for i, c in enumerate(cells) if c), 0)
        if (prev is not None and len(placed) > header_rows and len(g) == 1 and len(first.cells) == 1 and not numeric
                and first.top - prev.bottom < WRAP_GAP and not is_number(placed[-1][k])):
            # a wrapped cell: joins the (text) cell above it
            placed[-1][k] = f"{placed[-1][k]}{cells[k]}"
            prev = g[-1]
            continue
        prev = g[-1]
        if len(placed) > header_rows and _number_tails(placed[-1], cells):
            # numbers wrapped in narrow columns: their last digits on the line below ("260,760,875.5" / "0")
            placed[-1] = [a + b for a, b in zip(placed[-1], cells)]
            continue
        if len(placed) > header_rows and _completes(placed[-1], cells):
            # a label centred in a two-line cell, its values on the line below ("冷冻设备" / "371,318,215.91 …")
            placed[-1] = [f"{a} {b}".strip() if a and b else a or b for a, b in zip(placed[-1], cells)]
            continue
        placed.append(cells)
        row_pages.append(first.page or page)
    if not numeric_seen:
        header_rows = 1 if len(placed) > 1 else 0   # a table of text: its first row is the header
    elif header_rows >= 2 and len(placed) > header_rows and _label_first_line(placed[:header_rows], placed[header_rows]):
        # the first line of the first row's label ("常州投资集团有" / "限公司 国有法人 30.43% …")
        header_rows -= 1
        first_line = placed.pop(header_rows)
        row_pages.pop(header_rows)
        placed[header_rows][0] = first_line[0] + placed[header_rows][0]
    header = _merge_header(placed[:header_rows], len(bands))
    if unit is None:   # "单位：元" printed in a header row
        unit = next((u for u in map(find_unit, header) if u), None)
    body = placed[header_rows:]
    if not wraps:
        header = _realigned(header, body)
    header = _grouped(header)
    pages = row_pages[header_rows:]
    if not body:
        return None
    return Table(page, max(pages, default=page), caption, unit, header, body, pages,
                 [" ".join(c.text for c in r.cells) for r in rows[:4]] + ([caption] if caption else []),
                 bands=bands, block=rows)


def _realigned(header: list[str], body: list[list[str]]) -> list[str]:
    """A FinGLM txt table's header words moved onto the column next to them where its rows hold their
    values: the source's merged header cells can stand one column off the rows' (持股比例 over an empty
    column, 28.50% in the one before it)."""
    def filled(k: int) -> int:
        return sum(1 for r in body if k < len(r) and r[k].strip())
    out = list(header)
    for k, h in enumerate(header):
        if not h or filled(k):
            continue
        for j in (k - 1, k + 1):
            if 0 <= j < len(out) and not out[j] and filled(j) * 2 >= len(body):
                out[j], out[k] = h, ""
                break
    return out


def _label_first_line(header: list[list[str]], first: list[str]) -> bool:
    """The last header row is only a first-column cell, the first column is named by a header row above
    it, and the first body row has a label: the last header row is that label's first line."""
    last = header[-1]
    return bool(last[0]) and not any(last[1:]) and any(r[0] for r in header[:-1]) and bool(first[0])


_FRAGMENT = re.compile(r"^[,.]?\d[\d,]*(?:\.\d*)?$")       # the rest of a number cut by a narrow column
_FRAGMENT_CELL = re.compile(r"^[,.]\d*$|^\d{1,2}$")          # a line's cell that is only such a rest ("00", ".30")
_CUT = re.compile(r"(?:\.\d?|[.,]|,\d{1,2})$")               # a number stopped short


def _tail(a: str, b: str) -> bool:
    """b, on the line below, completes the number a: a stops short (or b starts with "," / "."), and the two
    together are a number as printed with two decimals or none ("312,862,6" + "89.63")."""
    if not (_FRAGMENT.match(b) and re.match(r"^[-(（]?\d", a)) or re.search(r"\.\d\d%?$", a):
        return False
    if not (_CUT.search(a) or b[0] in ",."):
        return False
    joined = a + b
    return parse_number(joined) is not None and not re.search(r"\.(?:\d|\d{3,})$", joined)


def _number_tails(above: list[str], row: list[str]) -> bool:
    """The row is the second line of the row above, in columns too narrow for its numbers: every value
    cell of it completes the number above it ("1,949,737" / ",547.92"), its label (if any) the label."""
    filled = [(a, b) for a, b in zip(above[1:], row[1:]) if b]
    return bool(filled) and all(_tail(a, b) for a, b in filled) and (not row[0] or bool(above[0]))


def _completes(above: list[str], row: list[str]) -> bool:
    """The row is the value line of the label above it: it has no label, the row above has one and no
    number where the row has one."""
    return (not row[0] and bool(above[0]) and any(is_number(c) for c in row)
            and not any(is_number(a) for a, b in zip(above, row) if is_number(b))
            and not any(is_number(a) for a in above[1:] if a))


# a group's label printed over its columns (质押或冻结情况 over 股份状态 | 数量) that the reading gave to its first column
# alone, and the bare label of a column after it, which the group names
_GROUP_LABEL = re.compile(r"^(\S+情况)\s+\S")
_SUB_LABEL = re.compile(r"^(?:数量|金额|比例|股份状态|股份数量)$")


def _grouped(header: list[str]) -> list[str]:
    """The header with a group's label given to each column of the group: "质押或冻结情况 股份状态" | "数量" → … |
    "质押或冻结情况 数量" (a bare 数量 there is no 持股数量)."""
    out = list(header)
    for k in range(1, len(out)):
        m = _GROUP_LABEL.match(out[k - 1]) if _SUB_LABEL.match(out[k].replace(" ", "")) else None
        if m is not None:
            out[k] = f"{m.group(1)} {out[k]}"
    return out


def _merge_header(rows: list[list[str]], width: int) -> list[str]:
    out = []
    for k in range(width):
        parts: list[str] = []
        for r in rows:
            if r[k] and (not parts or parts[-1] != r[k]):
                parts.append(r[k])
        out.append(" ".join(parts))
    return out


def page_tables(rows: list[Row], page: int, wraps: bool = True) -> list[Table]:
    """The tables of one page's positioned rows (a FinGLM txt page: its `excel` rows, wraps=False)."""
    out: list[Table] = []
    rows = [_joined(r) for r in rows]
    for first, last in _blocks(rows, wraps):
        block = [r for r in rows[first:last + 1] if not _SEPARATOR.match(r.text)]
        foot_header = (wraps and len(block) == 1 and last == len(rows) - 1 and len(block[0].cells) >= 3
                       and not any(is_number(c.text) for c in block[0].cells))   # ("项目 第一季度 … 第四季度" | next page)
        if len(block) < 2 and not (len(block) == 1 and _numeric(block[0])) and not foot_header:
            continue
        caption, unit = _above(rows, first)
        t = _table_of_block(block, page, caption, unit, wraps=wraps)
        if t is not None:
            # a table at the top of its page, under at most two one-cell lines (a name's last line, "续"),
            # may continue the last page's table
            t.starts_page = first <= 2 and all(len(r.cells) == 1 and not _numeric(r) and heading_level(r.text) is None
                                               for r in rows[:first])   # not under a heading of its own
            trail = rows[last + 1:]
            t.ends_page = last == len(rows) - 1 or (wraps and len(trail) <= 2 and all(
                len(r.cells) == 1 and not _numeric(r) and not _is_text_line(r) for r in trail))
            t.trail = trail if t.ends_page else []
            t.foot_header = foot_header
            out.append(t)
    return out


def _continues(prev: Table, nxt: Table, any_width: bool = False) -> bool:
    return (prev.ends_page and nxt.starts_page and nxt.page_start == prev.page_end + 1
            and (any_width or (nxt.width == prev.width and _aligned(prev, nxt))))


def _aligned(prev: Table, nxt: Table) -> bool:
    """Two PDF tables' columns part at about the same places (a FinGLM txt table has no positions)."""
    if not prev.bands or not nxt.bands:
        return True
    edges = [(a[1], b[1]) for a, b in zip(prev.bands[:-1], nxt.bands[:-1])]
    return all(abs(x - y) <= ALIGN for x, y in edges)


def _join(prev: Table, nxt: Table) -> None:
    body = nxt.rows
    if any(nxt.header) and nxt.header != prev.header:
        body = [nxt.header] + body   # the next page has no repeat of the header: its first rows are rows
    prev.rows.extend(body)
    prev.pages.extend([nxt.page_start] * (len(body) - len(nxt.rows)) + nxt.pages)
    prev.page_end = nxt.page_end
    prev.ends_page = nxt.ends_page


def extract_tables(doc: Document) -> list[Table]:
    """Every table of the document, in page order, joined across page breaks."""
    out: list[Table] = []
    for page in doc.pages:
        if doc.kind == "txt" and not any(ln.cells is not None for ln in page.lines):
            continue
        for t in page_tables(doc.rows(page.number), page.number, wraps=doc.kind != "txt"):
            header_above = bool(out) and doc.kind != "txt" and _header_only(out[-1]) and _continues(
                out[-1], t, any_width=True) and not any(t.header) and bool(t.rows) and any(map(is_number, t.rows[0]))
            if out and out[-1].foot_header and not header_above:
                out.pop()   # a header line alone at a page's foot that no rows follow: no table
            if header_above:
                # a header left at the foot of the last page, its rows on this one (分行业 … 营业收入 | 营业成本)
                again = _table_of_block(out[-1].block + out[-1].trail + t.block, out[-1].page_start,
                                        out[-1].caption, out[-1].unit)
                if again is not None:
                    again.ends_page = t.ends_page
                    out[-1] = again
                    continue
                if out[-1].foot_header:
                    out.pop()
            if out and _continues(out[-1], t):
                _join(out[-1], t)
                continue
            if out and doc.kind == "txt" and _continues(out[-1], t, any_width=True) and not any(t.header):
                # a FinGLM txt table's rows on the next page, without a header, split in other cells (its
                # merged cells kept as empty ones): the rows of the table above
                _join(out[-1], t)
                continue
            if out and doc.kind != "txt" and _continues(out[-1], t, any_width=True) and not any(t.header):
                # the next page's rows without a header, fewer columns filled: read in the columns above
                again = _table_of_block(t.block, t.page_start, "", t.unit, columns=out[-1].bands)
                if again is not None:
                    again.ends_page = t.ends_page
                    _join(out[-1], again)
                    continue
            if out and not any(t.header) and any(out[-1].header) and out[-1].width == t.width \
                    and t.page_start - out[-1].page_end <= 1 and _aligned(out[-1], t):
                # a part of the table above under its own one-cell title (分行业 / 分产品 / 分地区):
                # the columns of the header above
                t.header = list(out[-1].header)
            out.append(t)
    out = [t for t in out if not t.foot_header]   # (one left at the document's end)
    parts = [part for t in out for part in _parts(t)]
    for above, t in zip(parts, parts[1:]):
        if t.unit is None and above.unit and t.page_start - above.page_end <= 1 and len(t.header) == len(above.header) \
                and all(_SEGMENT_HEAD.match(re.sub(r"\s+", "", x.header[0] if x.header else "")) for x in (t, above)) \
                and _repeats_header(above.header, t.header):
            # the next part of one grid of segments (分地区 under 分行业's 单位：元): the unit line above
            t.unit = above.unit
    return parts


_SEGMENT_HEAD = re.compile(r"^[分按][\u4e00-\u9fff]{2,4}$")   # a grid's part named by its dimension (分地区)


def _same_words(a: str, b: str) -> bool:
    return bool(a) and re.sub(r"\s+", "", a) == re.sub(r"\s+", "", b)


def _repeats_header(header: list[str], row: list[str]) -> bool:
    """A body row of words only that prints at least half of the header's column names again (two at the
    least): the header of the next part of the table (分行业 … then 分地区 | 营业收入 | 营业成本 …)."""
    if any(is_number(c) for c in row) or not row or not row[0]:
        return False
    named = [(h, c) for h, c in zip(header[1:], row[1:]) if h]
    same = sum(_same_words(h, c) for h, c in named)
    return same >= 2 and 2 * same >= len(named)


def _parts(t: Table) -> list[Table]:
    """A table read as one whose body repeats its header: a row naming the same columns under another
    first word (分产品 …, 分地区 …) starts a table of its own under that row as its header (a table of
    主营业务分行业/分产品/分地区 set as one grid, or joined across a page); the same header again (its
    first word too) is dropped, a repeat across a page break."""
    cuts = [k for k, r in enumerate(t.rows) if k and _repeats_header(t.header, r)]
    if not cuts:
        return [t]
    parts: list[Table] = []
    start, header, caption = 0, t.header, t.caption
    for k in [*cuts, len(t.rows)]:
        body, pages = t.rows[start:k], t.pages[start:k]
        if body and any(is_number(c) for r in body for c in r):
            if parts and _same_words(header[0], parts[-1].header[0]):
                parts[-1].rows += body
                parts[-1].pages += pages
                parts[-1].page_end = max(parts[-1].page_end, pages[-1] if pages else t.page_end)
            else:
                first = pages[0] if pages else t.page_start
                parts.append(Table(first, pages[-1] if pages else t.page_end, caption, t.unit, list(header),
                                   list(body), list(pages), t.lines,
                                   bands=t.bands, section_page=t.section_page or t.page_start))
        if k < len(t.rows):
            start, header, caption = k + 1, t.rows[k], t.rows[k][0]
    return parts or [t]


def _header_only(t: Table) -> bool:
    """A table of words only (no number) set as one header: its lines close together (a header's words
    wrapped in narrow columns) — the header of a table whose rows follow."""
    return (len(t.block) <= MAX_HEADER_LINES and not any(_numeric(r) for r in t.block)
            and all(_tight(a, b) for a, b in zip(t.block, t.block[1:])))


def _key(text: str) -> str:
    return re.sub(r"[\s|]+", "", text)


def table_records(tables: list[Table], sections: list) -> list[dict]:
    """The tables as the store writes them, each with its section: the one its caption titles, else the one
    holding its first rows' line (the headings' sections keep every line with its page; a line printed by several
    sections of the page is each table's in turn), else the last section that has a line on its first page."""
    where: dict[tuple[int, str], list[int]] = {}
    on_page: dict[int, int] = {}
    by_sid = {sec.sid: sec for sec in sections}
    for sec in sections:
        for line, page in zip(sec.lines, sec.pages):
            where.setdefault((page, _key(line)), []).append(sec.sid)
            on_page[page] = sec.sid
    titles = {(sec.page_start, _key(sec.title)): sec.sid for sec in sections}
    # a line printed several times on a page (each note's header "项目 本期发生额 上期发生额") is each table's in
    # turn, the tables before having taken the first, and never a section before the table above's (tables
    # and sections both run in the document's order); a table under a heading's title (its caption), that
    # heading's
    taken: dict[tuple[int, str], int] = {}
    seen: set[int] = set()
    out = []
    last = 0
    for t in tables:
        page = t.section_page or t.page_start
        keys = list(dict.fromkeys((page, _key(x)) for x in t.lines))
        sid = titles.get((page, _key(t.caption))) if t.caption else None
        if sid is None:
            sid = next((next((s for s in where[k][taken.get(k, 0):] if s >= last), where[k][-1])
                        for k in keys if k in where), None)
        if id(t.lines) not in seen:   # (the parts of one table read as several share its lines)
            seen.add(id(t.lines))
            for k in keys:
                taken[k] = taken.get(k, 0) + 1
        if sid is None:
            sid = on_page.get(page, last)
        last = sid
        sec = by_sid.get(sid)
        out.append({"section": sid, "path": sec.path if sec else [], "caption": t.caption, "unit": t.unit,
                    "page_start": t.page_start, "page_end": t.page_end, "header": t.header, "rows": t.rows,
                    "pages": t.pages})
    return out
