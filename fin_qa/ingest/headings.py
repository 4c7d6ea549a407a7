"""Heading detection with a heading stack, and chunking with heading paths.

Heading patterns, outermost first (relative levels: a report skipping one still nests right):
  第X节 …  >  一、…  >  （一）…  >  1、… / 1. …  >  7.1 …  >  7.2.1 …  >  （1）…
plus the statement titles (合并资产负债表 …) at the level of （一）. A heading line is short (60 characters
for 第X节/一、/（一）, 40 for the looser numbered patterns) and does not end like a sentence; a long
"1、…。" line is a list item of the text, not a heading.

Each section keeps its text as paragraphs and table rows (hard-wrapped PDF lines joined again) and the
page of every line. It is cut into chunks of about CHUNK_CHARS characters at sentence or paragraph
ends; a chunk carries its heading path (indexed as a field of its own), the pages its text spans and
the id of its section, so that a search hit can be widened to the enclosing section.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

from ..numbers import cn_number
from .pages import Document

CHUNK_CHARS = 400
MAX_HEADING_CHARS = 40
NESTED = 9   # the level stored of a numbered heading off its numbering's chain, nested in the heading above it

_PATTERNS: list[tuple[int, re.Pattern]] = [
    (1, re.compile(r"^第[一二三四五六七八九十]+[节章]\s*\S")),
    (2, re.compile(r"^[一二三四五六七八九十]+\s*[、.．]\s*\S")),
    (3, re.compile(r"^[（(]\s*[一二三四五六七八九十]+\s*[)）]\s*[、.．]?\s*\S")),
    (3, re.compile(r"^(?:\d{1,2}[、.．]\s*)?(?:合并|母公司)(?:资产负债表|利润表|现金流量表|所有者权益变动表|股东权益变动表)$")),
    (4, re.compile(r"^\d{1,2}\s*[、.．](?!\d)\s*\S")),
    (6, re.compile(r"^\d{1,2}\.\d{1,2}\.\d{1,2}\s*[\u4e00-\u9fff]")),   # 7.2.1利润表分析 (bank/HK style)
    (5, re.compile(r"^\d{1,2}\.\d{1,2}\s*[\u4e00-\u9fff]")),             # 7.1 环境与展望
    (7, re.compile(r"^[（(]\s*\d{1,2}\s*[)）]\s*[、.．]?\s*\S")),
]
_RUN_IN = re.compile(r"(?<=[。；])\s+(?=(?:第[一二三四五六七八九十]+节|[一二三四五六七八九十]{1,3}、)\S)")
_ORDINAL = re.compile(r"^[（(]?\s*([一二三四五六七八九十]{1,3}|\d{1,2})")
# a table's row under a row label: numbered itself ("1.期末账面价值 24,172,328.28", "八、职工奖励及福利基金 5,717,707.03")
# or numbers alone ("4,233,391.76 1,724,098,730.43")
_ROW_AFTER = re.compile(r"\s*(?:\d{1,2}\s*[.．、]|[（(]\s*\d{1,2}\s*[)）]|[一二三四五六七八九十]{1,3}\s*、|[-\d,.%\s]+$)")
CONTINUED = re.compile(r"[（(]\s*续\s*[)）]\s*$")   # a heading or a title printed again on the next page (…(续))
_BARE_NUMBER = re.compile(r"^\d{1,2}(?:\.\d{1,2}){1,2}$")  # "7.1" on its own line, its title on the next
_SENTENCE_END = re.compile(r"[。；;，,：:]$")
_AMOUNT = re.compile(r"\d{1,3},\d{3}")  # a heading never carries an amount
_NUMBERISH = re.compile(r"[\d,.%]+\s*$")
_SPLIT = re.compile(r"(?<=[。！？；\n])")
_PARA_END = re.compile(r"[。！？；：:]\s*$")
_ITEM_START = re.compile(r"^(?:[（(]\s*[\d一二三四五六七八九十]{1,3}\s*[)）]|\d{1,2}\s*[、.．](?!\d)|[□√■●◆①-⑳]|注\s*\d*\s*[：:])")
_CHECKBOX = re.compile(r"[□√■☑]")  # "□适用 √不适用" lines stand alone
# a text line that is a table row: a label, then numbers in columns ("研发投入合计 48,428,964.78")
_ROW = re.compile(r"^\S.*?(?:\s+-?[\d,]*\d(?:\.\d+)?%?)+\s*$")


def heading_level(line: str) -> int | None:
    s = line.strip()
    if not s or len(s) > MAX_HEADING_CHARS * 1.5 or _SENTENCE_END.search(s) or _AMOUNT.search(s):
        return None
    if s.count("（") + s.count("(") > s.count("）") + s.count(")"):
        return None  # an open bracket: the line goes on, it is the first line of a wrapped sentence
    for level, rx in _PATTERNS:
        if rx.match(s):
            # 第X节/一、/（一） headings may run to 60 characters; the looser numbered ones stay short
            if level >= 4 and len(s) > MAX_HEADING_CHARS:
                return None
            # "1、2019年…" style list items that end with a number are table rows, not headings ("(三) 股东投入资本 - - 1")
            if level >= 3 and _NUMBERISH.search(s) and len(s) > 12:
                return None
            return level
    return None


@dataclass
class Section:
    sid: int
    parent: int | None
    level: int
    title: str
    path: list[str]
    page_start: int
    page_end: int
    lines: list[str] = field(default_factory=list)
    pages: list[int] = field(default_factory=list)  # the page of each line
    rows: list[bool] = field(default_factory=list)  # each line: a table row (kept on a line of its own)


@dataclass
class Chunk:
    section: int
    path: list[str]
    text: str  # without the heading path (search indexes path and text separately)
    page_start: int | None
    page_end: int | None


def _lines(doc: Document):
    """(text, cells, page) of every non-empty line; a bare "7.1" joins its title on the next line, and a
    heading run into the end of a sentence ("…事项。 十二、重大诉讼、仲裁事项") is split off."""
    for page in doc.pages:
        lines = [ln for ln in page.lines if ln.text.strip()]
        skip = False
        for n, line in enumerate(lines):
            if skip:
                skip = False
                continue
            text = line.text.strip().replace("｡", "。")  # the half-width ideographic full stop of some PDFs
            if line.cells is not None:
                yield text, line.cells, page.number
                continue
            if _BARE_NUMBER.match(text) and n + 1 < len(lines) and lines[n + 1].cells is None:
                joined = f"{text} {lines[n + 1].text.strip()}"
                if heading_level(joined) is not None:
                    text, skip = joined, True
            for part in _RUN_IN.split(text):
                if part.strip():
                    yield part.strip(), None, page.number


def _ordinal(text: str, level: int) -> int | None:
    """The number of a numbered heading (十二、 → 12, （3） → 3); None for other patterns."""
    if level not in (2, 3, 4, 7):
        return None
    m = _ORDINAL.match(text)
    n = cn_number(m.group(1)) if m else None
    return int(n) if n is not None else None


def _listed(lines: list[tuple[str, list[str] | None, int]], levels: list[int | None]) -> set[int]:
    """The lines of a numbered list printed one item a line with nothing between them — three or more in a
    row, numbered one after another at one level ("三、可供出售金融资产减值损失" / "四、持有至到期投资减值损失" / …
    of a table's rows): items, not headings (a heading has a body before the next one)."""
    out: set[int] = set()
    run: list[int] = []
    prev: tuple[int, int] | None = None   # (level, number) of the line before, a numbered candidate

    def close(n: int) -> None:
        # (the run's last line followed by words, not a table's amounts, is a heading with its body: "45、长期借款"
        # after the notes 42、… 44、 the report does not use)
        last_has_body = n < len(lines) and lines[n][1] is None and not _AMOUNT.search(lines[n][0]) \
            and levels[n] is None
        if len(run) >= 3:
            out.update(run[:-1] if last_has_body else run)

    for n, (text, level) in enumerate(zip((t for t, _, _ in lines), levels)):
        num = _ordinal(text, level) if level in (2, 4) else None
        here = (level, num) if level is not None and num is not None else None
        if here is not None and prev is not None and here[0] == prev[0] and here[1] == prev[1] + 1:
            run.append(n)
        else:
            close(n)
            run = [n] if here is not None else []
        prev = here
    close(len(lines))
    return out


def _off_chain(lines: list[tuple[str, list[str] | None, int]], levels: list[int | None], listed: set[int]) -> set[int]:
    """The 一、 and 1、 headings (levels 2 and 4) that fall outside their numbering: within each stretch under one
    heading above them, the headings kept are the heaviest chain numbered one after another (a step of 1 to 3) —
    a heading with a table's numbered rows right after it ("四、账面价值" / "1.期末账面价值 24,172,328.28"; "七、短期利润
    分享计划" / "八、职工奖励及福利基金 5,717,707.03") or a title printed several times in the stretch (the equity
    statement's "三、本期增减变动金额") weighing less, a long body more; of two chains as heavy, the one that starts
    first. The lines of a list printed one item a line (`listed`: "42、持有待售负债 / 43、… / 44、…", notes that do not
    apply) carry a chain over them but are no headings. Before and after the chain, a list starting anew (一、, 1、 …
    3、: a section whose own heading was not read) is a chain of its own. The others are nested in the heading above
    them — a list in a heading's body ("1、基层培训" under "3、培训计划"), a table's row label — never closing the headings
    of the chain after them. A heading printed again (续) is left to build_sections."""
    cand = [(n, level, _ordinal(text, level)) for n, ((text, _, _), level) in enumerate(zip(lines, levels))
            if level is not None and not CONTINUED.search(text)]   # (line, level, number)
    # each candidate's body: its lines up to the next candidate of its level or above (a listed line has none)
    body: dict[int, int] = {}
    for k, (n, lv, _) in enumerate(cand):
        body[n] = next((m for m, lv2, _ in cand[k + 1:] if lv2 <= lv and m not in listed), len(lines)) - n
    nested: set[int] = set()
    for level in (2, 4):
        block: list[tuple[int, int]] = []
        for n, lv, num in cand + [(len(lines), 0, None)]:
            if n in nested:
                continue
            if lv < level and n not in listed:
                weight = _weights(block, lines, body, listed)
                nested |= _off(block, weight, listed) - listed
                block = []
            elif lv == level and num is not None:
                block.append((n, num))
    return nested


def _weights(block: list[tuple[int, int]], lines: list[tuple[str, list[str] | None, int]], body: dict[int, int],
             listed: set[int]) -> list[float]:
    """Each heading's weight in its stretch's chain (_off_chain)."""
    # (a title's first six characters: a row label printed again may be cut short by its column)
    keys = [re.sub(r"\s+", "", lines[n][0])[:6] for n, _ in block]
    titles = Counter(keys)
    out = []
    for (n, _), key in zip(block, keys):
        if n in listed:
            out.append(0.05)
            continue
        w = 1 + 0.1 * math.log2(1 + body[n])
        if any(c is None and _AMOUNT.search(t) and _ROW_AFTER.match(t) for t, c, _ in lines[n + 1:n + 3]):
            w *= 0.4
        if titles[key] > 1:
            w *= 0.3
        out.append(w)
    return out


def _off(block: list[tuple[int, int]], weight: list[float], listed: set[int]) -> set[int]:
    """The lines of a stretch's numbered headings off its chains (_off_chain)."""
    if len(block) < 2:
        return set()
    best: list[tuple[float, int]] = []   # per heading: (weight, -its first line) of the best chain ending at it
    back: list[int | None] = []
    for i, (n, num) in enumerate(block):
        score, came = (weight[i], -n), None
        for j in range(i):
            if 1 <= num - block[j][1] <= 3:
                cand = (best[j][0] + weight[i], best[j][1])
                if cand > score:
                    score, came = cand, j
        best.append(score)
        back.append(came)
    at: int | None = max(range(len(block)), key=lambda i: best[i])
    keep: list[int] = []
    while at is not None:
        keep.append(at)
        at = back[at]
    first, last = min(keep), max(keep)
    off = {block[i][0] for i in range(first, last + 1) if i not in keep}
    # before and after the chain: a list starting anew is a chain of its own, the rest nested
    for part in (range(first), range(last + 1, len(block))):
        rest = [block[i] for i in part]
        start = next((k for k, (n, num) in enumerate(rest) if num <= 3 and n not in listed), len(rest))
        off |= {n for n, _ in rest[:start]}
        if rest[start:]:
            off |= _off(rest[start:], [weight[i] for i in part][start:], listed) if len(rest) - start > 1 else set()
    return off


def build_sections(doc: Document) -> list[Section]:
    """The heading tree. A numbered heading may not jump ahead of its siblings' numbering by more than
    three (a first one is 一/1/2/3): "（十二）审核…方案等" inside a list, or a statement row such as
    "五、现金及现金等价物净增加额", is text, not a heading. A restart (a nested list reusing the
    pattern) is allowed. 一、 and 1、 headings off their numbering's longest chain (_off_chain: "四、账面价值",
    "3.本期减少金额", a list in a heading's body) are nested in the heading above; three or more numbered lines in a
    row with no body between them (_listed) and a heading printed again with (续) on the next page are text."""
    root = Section(0, None, 0, "", [], doc.pages[0].number if doc.pages else 1, 1)
    sections = [root]
    stack = [root]
    last: dict[int, int] = {}  # level → the number of the last heading at that level under the current parent
    ranks: list[float] = [0.0]   # the stack's headings' ranks (their levels; a nested one's just below its parent's)
    lines = list(_lines(doc))
    levels = [heading_level(text) if cells is None else None for text, cells, _ in lines]
    off = _listed(lines, levels)
    nested = _off_chain(lines, levels, off)
    for n, (text, cells, page) in enumerate(lines):
        level = levels[n] if n not in off else None
        num = _ordinal(text, level) if level is not None else None
        if level is not None and n in nested:
            level, num = NESTED, None   # (a list of its own under the heading above: none of the chain's numbering)
        elif level is not None and num is not None and last.get(level) == num and CONTINUED.search(text):
            level = None   # "(七) 合并财务报表项目附注 (续)" atop a page: the open heading goes on, its notes' numbering too
        elif level is not None and num is not None and num > last.get(level, 0) + 3 \
                and (level not in (2, 4) or CONTINUED.search(text)):
            level = None   # (一、 and 1、 headings: their chain decided, _off_chain)
        if level is not None:
            # (a nested heading ranks just below the heading it is in: its own sub-headings stay in it, the next
            # heading of that heading's level or above closes it)
            rank = ranks[-1] + 0.5 if level == NESTED else float(level)
            while ranks[-1] >= rank:
                stack.pop()
                ranks.pop()
            for deeper in [lv for lv in last if lv > level]:
                del last[deeper]
            if num is not None:
                last[level] = num
            parent = stack[-1]
            title = re.sub(r"\s+", " ", text)
            sec = Section(len(sections), parent.sid, level, title, parent.path + [title], page, page)
            sections.append(sec)
            stack.append(sec)
            ranks.append(rank)
            continue
        cur = stack[-1]
        cur.lines.append(" | ".join(c.strip() for c in cells if c and c.strip()) if cells else text)
        cur.pages.append(page)
        cur.rows.append(cells is not None or bool((len(text) < 200 and _ROW.search(text)) or _CHECKBOX.search(text)))
        for s in stack:
            s.page_end = page
    return [s for s in sections if s.lines or s.sid == 0 or any(x.parent == s.sid for x in sections)]


def _paragraphs(sec: Section) -> list[tuple[str, int, int]]:
    """The section's lines joined into paragraphs (text, first page, last page).

    PDF text is hard-wrapped: a line continues the previous one unless the previous one ended a
    sentence, or either is a table row, or the line starts a list item (（1）, 1、, □/√ …).
    CJK characters join without a space, Latin words with one.
    """
    out: list[list] = []
    prev_row = True
    # a prose line well short of the usual width ended its paragraph
    widths = sorted(len(t) for t, r in zip(sec.lines, sec.rows) if not r)
    full = widths[int(len(widths) * 0.8)] if len(widths) >= 3 else 0
    prev_len = 0
    for text, page, row in zip(sec.lines, sec.pages, sec.rows):
        new = (not out or row or prev_row or _PARA_END.search(out[-1][0]) is not None or _ITEM_START.match(text)
               or prev_len < full * 0.7)
        prev_len = len(text)
        if new:
            out.append([text, page, page])
        else:
            last = out[-1]
            if last[0][-1:].isascii() and last[0][-1:].isalnum() and text[:1].isascii() and text[:1].isalnum():
                last[0] += " "
            last[0] += text
            last[2] = page
        prev_row = row
    return [(t, a, b) for t, a, b in out]


def chunk_sections(sections: list[Section], size: int = CHUNK_CHARS) -> list[Chunk]:
    """Chunks of about `size` characters, cut at sentence or paragraph ends, with their own pages."""
    chunks: list[Chunk] = []
    for sec in sections:
        if not sec.lines:
            continue
        buf, first, last = "", None, None

        def flush():
            nonlocal buf, first, last
            if buf.strip():
                chunks.append(Chunk(sec.sid, sec.path, buf.strip(), first, last))
            buf, first, last = "", None, None

        for para, p0, p1 in _paragraphs(sec):
            for piece in _SPLIT.split(para + "\n"):
                if not piece:
                    continue
                while len(piece) > size * 2:  # a huge sentence (a flattened table): hard cut
                    if first is None:
                        first = p0
                    buf, last = buf + piece[:size], p1
                    flush()
                    piece = piece[size:]
                if buf and len(buf) + len(piece) > size:
                    flush()
                if first is None:
                    first = p0
                buf, last = buf + piece, p1
        flush()
    return chunks


def section_text(sec: Section) -> str:
    """The section's own text: one paragraph or table row a line."""
    return "\n".join(t for t, _, _ in _paragraphs(sec))
