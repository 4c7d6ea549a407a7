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
from dataclasses import dataclass, field

from ..numbers import find_unit, parse_number
from .headings import heading_level
from .pages import Cell, Document, Row

_NUMBER = re.compile(r"^[\(（]?[-－—–−]?\d[\d,]*(?:\.\d+)?[\)）]?%?$")
_OPTION = re.compile(r"[□☑■√]")
_SENTENCE = re.compile(r"[。；;]\s*$")
_ENUMERATOR = re.compile(r"^[（(]?[\d一二三四五六七八九十]{1,3}[)）]?[.、．]?$")
_SEPARATOR = re.compile(r"^[-－—–\s]*$")
MAX_HEADER_ROWS = 6
WRAP_CHARS = 30     # a one-cell row longer than this is text, not a wrapped cell


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

    @property
    def width(self) -> int:
        return len(self.header)


def is_number(cell: str) -> bool:
    return bool(_NUMBER.match(cell.replace(" ", "")))


def _is_text_line(row: Row) -> bool:
    """A row that is running text, a heading ("(1). 研发投入情况表", split into cells by its gap) or an
    option line, never part of a table."""
    text = row.text
    if _OPTION.search(text) or (len(row.cells) == 1 and (len(text) > WRAP_CHARS or _SENTENCE.search(text))):
        return True
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
    for c in heads:
        if any(_overlap(c.x0, c.x1, t.x0, t.x1) > 0 for t in cells):
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


def _place(row: Row, bands: list[tuple[float, float]], spread: bool) -> list[str]:
    """The row's cells placed in the bands: by the largest overlap (the nearest band when none overlaps);
    `spread` (header rows): a cell also names every band whose middle it covers."""
    out = [""] * len(bands)
    for c in row.cells:
        targets: list[int] = []
        if spread:
            targets = [i for i, (b0, b1) in enumerate(bands)
                       if b0 > float("-inf") and b1 < float("inf") and c.x0 <= (b0 + b1) / 2 <= c.x1]
        if not targets:
            best = max(range(len(bands)), key=lambda i: (_overlap(c.x0, c.x1, *bands[i]),
                                                          -abs((c.x0 + c.x1) / 2 - _mid(bands[i]))))
            targets = [best]
        for i in targets:
            out[i] = f"{out[i]} {c.text}".strip() if out[i] else c.text
    return out


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
            cells[-1] = Cell(f"{last.text} {c.text}", last.x0, c.x1)
        else:
            cells.append(c)
    return row if len(cells) == len(row.cells) else Row(cells, row.top, row.bottom, row.page)


def _numeric(row: Row) -> bool:
    return any(is_number(c.text) for c in row.cells)


def _blocks(rows: list[Row], wraps: bool) -> list[tuple[int, int]]:
    """(first, last) indexes of the runs of table rows on a page (`wraps`: a PDF's, where short one-cell
    rows between table rows — a label row without values, a wrapped cell — belong to the table)."""
    blocks: list[tuple[int, int]] = []
    i, n = 0, len(rows)
    while i < n:
        if len(rows[i].cells) < 2 or _is_text_line(rows[i]):
            i += 1
            continue
        j = i
        while j + 1 < n and not _is_text_line(rows[j + 1]):
            if len(rows[j + 1].cells) >= 2:
                j += 1
                continue
            k = j + 1   # one-cell rows: part of the table when a table row follows them
            while wraps and k < n and k - j <= 3 and len(rows[k].cells) == 1 and not _is_text_line(rows[k]):
                k += 1
            if wraps and k < n and k - j <= 4 and len(rows[k].cells) >= 2 and not _is_text_line(rows[k]):
                j = k
            else:
                break
        blocks.extend(_split(rows, i, j))
        i = j + 1
    return blocks


def _split(rows: list[Row], first: int, last: int) -> list[tuple[int, int]]:
    """A block cut where a new table starts, after rows with numbers: at a header row (several cells, no
    number) above rows whose number of cells differs ("前五名客户合计销售金额 | 9,344,898,794.54" rows,
    then "序号 | 客户名称 | 销售额 | 比例" and its rows) — or at the last one-cell title above a header
    before those rows. One-cell rows just above the cut go with the new table."""
    out = []
    start, width = first, 0

    def titled(m: int) -> bool:   # a one-cell row (a title) above a header row
        return (len(rows[m].cells) == 1 and not _numeric(rows[m]) and m + 1 <= last
                and len(rows[m + 1].cells) >= 2 and not _numeric(rows[m + 1]))

    for k in range(first, last + 1):
        r = rows[k]
        if _numeric(r):
            width = len(r.cells)
            continue
        if not width:
            continue
        at = next((m for m in range(k + 1, last + 1) if _numeric(rows[m])), None)
        if at is None:
            continue
        if len(r.cells) >= 2 and len(rows[at].cells) != width:
            # the new table starts at its title: the last one before its first row with numbers
            # ("持股5%以上的股东或前10名股东持股情况" under the shareholder counts), else at the header row
            titles = [m for m in range(k + 1, at) if titled(m)]
            cut = titles[-1] if titles else k
        else:
            continue
        while cut - 1 > start and len(rows[cut - 1].cells) == 1 and not _numeric(rows[cut - 1]):
            cut -= 1
        out.append((start, cut - 1))
        start, width = cut, 0
    out.append((start, last))
    return out


def _above(rows: list[Row], first: int) -> tuple[str, str | None]:
    """The caption and the unit from the (at most three) rows above a block."""
    caption, unit = "", None
    for k in range(first - 1, max(first - 4, -1), -1):
        text = rows[k].text.strip()
        u = find_unit(text)
        if u:
            unit = unit or u
            rest = re.split(r"(?:金额)?单位", text)[0].strip(" ：:")
            if rest and not caption and len(rows[k].cells) <= 2:
                caption = rest
            continue
        if _OPTION.search(text) or len(rows[k].cells) >= 2 or _SENTENCE.search(text):
            break
        caption = text
        break
    return caption, unit


def _table_of_block(rows: list[Row], page: int, caption: str, unit: str | None,
                    columns: list[tuple[float, float]] | None = None) -> Table | None:
    """The table of a block of rows; `columns`: the bands of the table it continues (no header here)."""
    lead = 0
    while lead < len(rows) - 1 and len(rows[lead].cells) == 1 and not _numeric(rows[lead]):
        lead += 1   # one-cell rows above the header (a block cut by _split): the caption
    if lead:
        caption = " ".join(r.text for r in rows[:lead])
        unit = find_unit(caption) or unit
        rows = rows[lead:]
    # the columns: the row with numbers with the most cells (a header's wrapped words can split more)
    template = max(rows, key=lambda r: (_numeric(r), len(r.cells)))
    heads: list[Row] = []
    for r in rows:
        if _numeric(r) or len(heads) == MAX_HEADER_ROWS:
            break
        heads.append(r)
    bands = columns or _bands(template, [r for r in heads if r is not template])
    placed: list[list[str]] = []
    numeric_seen = False
    header_rows = 0
    prev: Row | None = None
    for r in rows:
        numeric = _numeric(r)
        if not numeric_seen and not numeric and header_rows < MAX_HEADER_ROWS and r is not template \
                and columns is None:
            placed.append(_place(r, bands, spread=True))
            header_rows += 1
            continue
        numeric_seen = numeric_seen or numeric
        cells = _place(r, bands, spread=False)
        if (prev is not None and len(placed) > header_rows and len(r.cells) == 1 and not numeric
                and r.top - prev.bottom < WRAP_GAP):
            # a wrapped cell: joins the cell above it
            k = next(i for i, c in enumerate(cells) if c)
            placed[-1][k] = f"{placed[-1][k]}{cells[k]}"
            prev = r
            continue
        prev = r
        if len(placed) > header_rows and _number_tails(placed[-1], cells):
            # numbers wrapped in narrow columns: their last digits on the line below ("260,760,875.5" / "0")
            placed[-1] = [a + b for a, b in zip(placed[-1], cells)]
            continue
        if len(placed) > header_rows and _completes(placed[-1], cells):
            # a label centred in a two-line cell, its values on the line below ("冷冻设备" / "371,318,215.91 …")
            placed[-1] = [f"{a} {b}".strip() if a and b else a or b for a, b in zip(placed[-1], cells)]
            continue
        placed.append(cells)
    if not numeric_seen:
        header_rows = 1 if len(placed) > 1 else 0   # a table of text: its first row is the header
    elif header_rows >= 2 and len(placed) > header_rows and _label_first_line(placed[:header_rows], placed[header_rows]):
        # the first line of the first row's label ("常州投资集团有" / "限公司 国有法人 30.43% …")
        header_rows -= 1
        first = placed.pop(header_rows)
        placed[header_rows][0] = first[0] + placed[header_rows][0]
    header = _merge_header(placed[:header_rows], len(bands))
    if unit is None:   # "单位：元" printed in a header row
        unit = next((u for u in map(find_unit, header) if u), None)
    body = placed[header_rows:]
    if not body:
        return None
    return Table(page, page, caption, unit, header, body, [page] * len(body),
                 [" ".join(c.text for c in r.cells) for r in rows[:4]] + ([caption] if caption else []),
                 bands=bands, block=rows)


def _label_first_line(header: list[list[str]], first: list[str]) -> bool:
    """The last header row is only a first-column cell, the first column is named by a header row above
    it, and the first body row has a label: the last header row is that label's first line."""
    last = header[-1]
    return bool(last[0]) and not any(last[1:]) and any(r[0] for r in header[:-1]) and bool(first[0])


_FRAGMENT = re.compile(r"^[,.]?\d[\d,]*(?:\.\d*)?$")       # the rest of a number cut by a narrow column
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
        if len(block) < 2 and not (len(block) == 1 and _numeric(block[0])):
            continue
        caption, unit = _above(rows, first)
        t = _table_of_block(block, page, caption, unit)
        if t is not None:
            # a table at the top of its page, under at most two one-cell lines (a name's last line, "续"),
            # may continue the last page's table
            t.starts_page = first <= 2 and all(len(r.cells) == 1 and not _numeric(r) for r in rows[:first])
            t.ends_page = last == len(rows) - 1
            out.append(t)
    return out


def _continues(prev: Table, nxt: Table, any_width: bool = False) -> bool:
    return (prev.ends_page and nxt.starts_page and nxt.page_start == prev.page_end + 1
            and (any_width or nxt.width == prev.width))


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
            if out and _continues(out[-1], t):
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
                    and t.page_start - out[-1].page_end <= 1:
                # a part of the table above under its own one-cell title (分行业 / 分产品 / 分地区):
                # the columns of the header above
                t.header = list(out[-1].header)
            out.append(t)
    return out


def _key(text: str) -> str:
    return re.sub(r"[\s|]+", "", text)


def table_records(tables: list[Table], sections: list) -> list[dict]:
    """The tables as the store writes them, each with its section: the one holding its first row's line
    (the headings' sections keep every line with its page), else the last section that has a line on
    its first page."""
    where: dict[tuple[int, str], int] = {}
    on_page: dict[int, int] = {}
    by_sid = {sec.sid: sec for sec in sections}
    for sec in sections:
        for line, page in zip(sec.lines, sec.pages):
            where.setdefault((page, _key(line)), sec.sid)
            on_page[page] = sec.sid
    out = []
    last = 0
    for t in tables:
        sid = next((where[(t.page_start, _key(x))] for x in t.lines if (t.page_start, _key(x)) in where), None)
        if sid is None:
            sid = on_page.get(t.page_start, last)
        last = sid
        sec = by_sid.get(sid)
        out.append({"section": sid, "path": sec.path if sec else [], "caption": t.caption, "unit": t.unit,
                    "page_start": t.page_start, "page_end": t.page_end, "header": t.header, "rows": t.rows,
                    "pages": t.pages})
    return out
