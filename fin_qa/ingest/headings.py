"""Heading detection with a heading stack, and chunking with heading paths.

Heading patterns, outermost first (relative levels: a report skipping one still nests right):
  第X节 …  >  一、…  >  （一）…  >  1、… / 1. …  >  （1）…
plus the statement titles (合并资产负债表 …) at the level of （一）. A heading line is short and does not
end like a sentence; a long "1、…。" line is a list item of the text, not a heading.

Each section keeps its text; it is cut into chunks of about CHUNK_CHARS characters at sentence ends.
A chunk's text is prefixed with its heading path ("第三节 公司业务概要 > 二、…"), and it carries the id
of its section so that a search hit can be widened to the enclosing section.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .pages import Document

CHUNK_CHARS = 400
MAX_HEADING_CHARS = 40

_PATTERNS: list[tuple[int, re.Pattern]] = [
    (1, re.compile(r"^第[一二三四五六七八九十]+[节章]\s*\S")),
    (2, re.compile(r"^[一二三四五六七八九十]+\s*[、.．]\s*\S")),
    (3, re.compile(r"^[（(]\s*[一二三四五六七八九十]+\s*[)）]\s*[、.．]?\s*\S")),
    (3, re.compile(r"^(?:\d{1,2}[、.．]\s*)?(?:合并|母公司)(?:资产负债表|利润表|现金流量表|所有者权益变动表|股东权益变动表)$")),
    (4, re.compile(r"^\d{1,2}\s*[、.．](?!\d)\s*\S")),
    (5, re.compile(r"^[（(]\s*\d{1,2}\s*[)）]\s*[、.．]?\s*\S")),
]
_SENTENCE_END = re.compile(r"[。；;，,：:]$")
_AMOUNT = re.compile(r"\d{1,3},\d{3}")  # a heading never carries an amount
_NUMBERISH = re.compile(r"[\d,.%]+\s*$")
_SPLIT = re.compile(r"(?<=[。！？；])")


def heading_level(line: str) -> int | None:
    s = line.strip()
    if not s or len(s) > MAX_HEADING_CHARS or _SENTENCE_END.search(s) or _AMOUNT.search(s):
        return None
    for level, rx in _PATTERNS:
        if rx.match(s):
            # "1、2019年…" style list items that end with a number are table rows, not headings
            if level >= 4 and _NUMBERISH.search(s) and len(s) > 12:
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


@dataclass
class Chunk:
    section: int
    path: list[str]
    text: str  # without the heading path (search indexes path and text separately)
    page_start: int
    page_end: int


def build_sections(doc: Document) -> list[Section]:
    root = Section(0, None, 0, "", [], doc.pages[0].number if doc.pages else 1, 1)
    sections = [root]
    stack = [root]
    for page in doc.pages:
        for line in page.lines:
            text = line.text.strip()
            level = heading_level(text) if line.cells is None else None
            if level is not None:
                while stack[-1].level >= level:
                    stack.pop()
                parent = stack[-1]
                title = re.sub(r"\s+", " ", text)
                sec = Section(len(sections), parent.sid, level, title, parent.path + [title], page.number, page.number)
                sections.append(sec)
                stack.append(sec)
                continue
            cur = stack[-1]
            cur.lines.append(text)
            for s in stack:
                s.page_end = page.number
            cur.page_end = page.number
    return [s for s in sections if s.lines or s.sid == 0 or any(x.parent == s.sid for x in sections)]


def _join(lines: list[str]) -> str:
    """Join hard-wrapped lines: no space between CJK characters, one between Latin words."""
    out = ""
    for s in lines:
        if out and out[-1].isascii() and out[-1].isalnum() and s[:1].isascii() and s[:1].isalnum():
            out += " "
        out += s
    return out


def chunk_sections(sections: list[Section], size: int = CHUNK_CHARS) -> list[Chunk]:
    chunks: list[Chunk] = []
    for sec in sections:
        if not sec.lines:
            continue
        text = _join(sec.lines)
        buf = ""
        for piece in _SPLIT.split(text):
            while len(piece) > size * 2:  # a huge sentence (a flattened table): hard cut
                chunks.append(Chunk(sec.sid, sec.path, (buf + piece[:size]).strip(), sec.page_start, sec.page_end))
                buf, piece = "", piece[size:]
            if buf and len(buf) + len(piece) > size:
                chunks.append(Chunk(sec.sid, sec.path, buf.strip(), sec.page_start, sec.page_end))
                buf = ""
            buf += piece
        if buf.strip():
            chunks.append(Chunk(sec.sid, sec.path, buf.strip(), sec.page_start, sec.page_end))
    return chunks


def section_text(sec: Section) -> str:
    return _join(sec.lines)
