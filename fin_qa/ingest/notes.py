"""A research note read (个股研报, 行业研报; issue 46): its identity — from an info sheet beside it (附件5's
个股_研报信息.xlsx / 行业_研报信息.xlsx), else from its own pages —, its prose as paragraphs under their headings,
and its figures' titles. Rules: rules/notes.yaml. A note's figures are never read as facts: it is quoted.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from ..catalog.notes import NoteRules
from ..store.notes import NoteChunk, NoteMeta, title_key as _key
from .pages import Document

NOTE_PARSER = 1          # a note read with an older parser is read again
CHUNK_CHARS = 600        # a paragraph longer than this is cut at a sentence's end
INFO_DEPTH = 2           # the info sheets are looked for in the note's folder and this many folders above
_CJK = re.compile(r"[\u4e00-\u9fff]")
_LAYOUT_TAG = re.compile(r"\[[\s\ue000-\uf8ff]*T\s*able_[A-Za-z]+\s*\]?|(?<=[\u4e00-\u9fff])\]")   # a note template's field tags
_BULLET = re.compile(r"^[\u2022\u25cf\u25a0\u25c6\u25aa\u2605\u2606\ue000-\uf8ff]\s*")
_SPACE_CJK = re.compile(r"(?<=[\u4e00-\u9fff，。、：；（）“”％%])\s+|\s+(?=[\u4e00-\u9fff，。、：；（）“”])")
_ENDS = ("。", "！", "？", "；")
SHORT = 8                # a line this short with no punctuation is a label, not prose
_PUNCT = re.compile(r"[，。：；、！？,;:]")


@dataclass
class ParsedNote:
    """What ingest stores of a note (Store.notes.write)."""
    path: str
    sha256: str
    pages: int
    meta: NoteMeta
    chunks: list[NoteChunk]
    figures: list[tuple[int, str]]
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0


def _noise(rules: NoteRules, line: str) -> bool:
    return any(rx.search(line) or rx.search(line[::-1]) for rx in rules.noise)   # (a watermark written backwards)


def _heading(rules: NoteRules, line: str) -> bool:
    return len(line) <= 26 and any(rx.search(line) for rx in rules.headings)


def _figures(rules: NoteRules, line: str) -> list[str]:
    """The titles of the figures a line starts with (two side by side: both)."""
    for rx in rules.figures:
        found = list(rx.finditer(line))
        if found and found[0].start() == 0:
            return [re.sub(r"\s+", "", m.group("title")) for m in found]
    return []


def _joined(lines: list[str]) -> str:
    """A paragraph's lines joined as printed: no space where a line was wrapped (中文, 0.60), one between two
    Latin words."""
    out = ""
    for line in lines:
        out += (" " if out and out[-1].isascii() and out[-1].isalpha() and line[:1].isascii() and line[:1].isalpha()
                else "") + line
    return out


def _tidy(text: str) -> str:
    return _SPACE_CJK.sub("", re.sub(r"\s+", " ", text)).strip()


def _cut(text: str, size: int = CHUNK_CHARS) -> list[str]:
    """A paragraph in pieces of at most `size` characters, each ending at a sentence's end where one falls."""
    out: list[str] = []
    while len(text) > size:
        k = max(text.rfind(e, 0, size) for e in _ENDS)
        k = k + 1 if k > size // 3 else size
        out.append(text[:k])
        text = text[k:]
    return out + ([text] if text else [])


def read_note(doc: Document, rules: NoteRules, title: str) -> tuple[list[NoteChunk], list[tuple[int, str]]]:
    """The note's paragraphs under their headings (its back matter left out) and its figures' titles."""
    chunks: list[NoteChunk] = []
    figures: list[tuple[int, str]] = []
    heading = ""
    para: list[str] = []
    page_of = 0

    def close() -> None:
        nonlocal para
        text = _tidy(_joined(para))
        para = []
        cjk = len(_CJK.findall(text))
        if cjk >= 8 and (any(p in text for p in "，。：；") or cjk >= 30) and _key(text) != _key(title):
            for piece in _cut(text):
                chunks.append(NoteChunk([title, heading] if heading else [title], piece, page_of))

    ended = False
    for page in doc.pages:
        for raw in page.lines:
            if any(rx.search(raw.text.strip()) for rx in rules.back_matter):
                ended = True   # (the back matter's heading: it and everything after it unread)
                break
            line = _LAYOUT_TAG.sub("", raw.text).strip()
            if not line or _noise(rules, line):
                continue
            titles = _figures(rules, line)
            if titles:
                close()
                figures.extend((page.number, t) for t in titles)
                continue
            if _heading(rules, line):
                close()
                heading = line.split()[0].rstrip("：:")
                continue
            if len(line) <= SHORT and not _PUNCT.search(line):
                close()   # (a chart's label, a side panel's caption: no prose)
                continue
            bullet = _BULLET.match(line)
            if bullet:
                close()
                line = line[bullet.end():]
            if not para:
                page_of = page.number
            para.append(line)
            if line.endswith(_ENDS):
                close()
        close()   # (a paragraph running over a page break is cut there: its page is cited)
        if ended:
            break
    return chunks, figures


# ------------------------------------------------------------------------------------------- identity

def _cell(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, (datetime, date)):
        return value.strftime("%Y-%m-%d")
    if isinstance(value, float):
        value = repr(value)
    text = str(value).strip()
    if re.fullmatch(r"-?\d+\.\d+", text):   # (a number written with trailing zeros: 2.2600000000)
        text = text.rstrip("0").rstrip(".")
    return text or None


_SHEETS: dict[tuple[str, int, int], list[dict[str, Any]]] = {}   # an xlsx read once a process (path, size, mtime)


def info_rows(folder: Path, rules: NoteRules) -> list[dict[str, Any]]:
    """Every row of the info sheets (xlsx with the title column and a broker column) in the folder and the
    folders above it (INFO_DEPTH), each with its sheet's kind: stock when the sheet has a stock code column, and its
    file (_sheet). Each workbook is read once a process while it stays the same."""
    out: list[dict[str, Any]] = []
    seen: set[Path] = set()
    for d in [folder, *list(folder.parents)[:INFO_DEPTH]]:
        for path in sorted(d.glob("*.xlsx")):
            if path in seen or path.name.startswith("~$"):
                continue
            seen.add(path)
            try:
                st = path.stat()
            except OSError:
                continue
            key = (str(path), st.st_size, st.st_mtime_ns)
            if key not in _SHEETS:
                if len(_SHEETS) > 256:
                    _SHEETS.clear()
                _SHEETS[key] = _sheet_rows(path, rules)
            out += _SHEETS[key]
    return out


def _sheet_rows(path: Path, rules: NoteRules) -> list[dict[str, Any]]:
    """The rows of a workbook's info sheets (none where it is no workbook this reads)."""
    from openpyxl import load_workbook  # type: ignore[import-untyped]

    cols = rules.info
    out: list[dict[str, Any]] = []
    try:
        wb = load_workbook(path, read_only=True, data_only=True)
    except Exception:   # noqa: BLE001 — not a workbook this reads: no info sheet
        return out
    try:
        for ws in wb.worksheets:
            rows = ws.iter_rows(values_only=True)
            header = [str(x).strip() if x is not None else "" for x in next(rows, ())]
            if not any(c in header for c in cols["title"]) or not any(c in header for c in cols["broker"]):
                continue
            stock = any(c in header for c in cols["stock_code"])
            for values in rows:
                row = {h: _cell(v) for h, v in zip(header, values) if h}
                row["_kind"] = "stock" if stock and any(row.get(c) for c in cols["stock_code"]) else "industry"
                row["_sheet"] = path.name
                out.append(row)
    finally:
        wb.close()
    return out


def _first(row: dict[str, Any], names: tuple[str, ...]) -> str | None:
    return next((row[n] for n in names if row.get(n)), None)


def _date(value: str | None) -> str | None:
    """An info sheet's date as YYYY-MM-DD (2025-10-30 00:00:00.000, 2025/10/30, 20251030), else None."""
    if not value:
        return None
    m = re.match(r"\s*(20\d{2}|19\d{2})\D?(\d{1,2})\D?(\d{1,2})(?!\d)", value)
    if m is None:
        return None
    y, mo, d = (int(x) for x in m.groups())
    try:
        return date(y, mo, d).isoformat()
    except ValueError:
        return None


def _code(value: str | None) -> str | None:
    if not value:
        return None
    digits = re.sub(r"\D", "", value.split(".")[0])
    return digits.zfill(6) if digits and len(digits) <= 6 else None


def identify_note(doc: Document, path: Path, rules: NoteRules, rows: list[dict[str, Any]]) -> tuple[NoteMeta, list[str]]:
    """The note's identity: its info sheet's row (matched by title: the file's name), else its pages'."""
    stem = _key(path.stem)
    cols = rules.info
    titled = [(row, _key(t)) for row in rows for t in [_first(row, cols["title"])] if t]
    exact = [row for row, t in titled if t == stem]
    near = [row for row, t in titled if len(t) >= 8 and t in stem and t != stem]
    found = exact or near
    if found:
        row, warnings = found[0], []
        if len(found) > 1:   # (two rows for one note: the first sheet's, said)
            warnings.append(f"{len(found)} info-sheet rows name this note ({', '.join(r['_sheet'] for r in found)}): "
                            f"the first ({row['_sheet']}) is read")
        day = _date(_first(row, cols["date"]))
        if _first(row, cols["date"]) and day is None:
            warnings.append(f"the info sheet's date {_first(row, cols['date'])!r} is no date: the note's date unknown")
        title = _first(row, cols["title"]) or path.stem
        meta = NoteMeta(title, row["_kind"], _first(row, cols["broker"]), day,
                        _code(_first(row, cols["stock_code"])), _first(row, cols["stock_name"]),
                        _first(row, cols["industry"]), _first(row, cols["rating"]),
                        {k: v for k, v in row.items() if not k.startswith("_") and v is not None})
        return meta, warnings
    text = "\n".join(p.text for p in doc.pages[:2])
    brokers = Counter(m.group("broker") for p in doc.pages for rx in rules.broker for m in rx.finditer(p.text))
    # the note's own date: one on a line of its own first (a header's "2025 年 10 月 29 日"), else the first printed
    alone = [line.text.strip() for p in doc.pages[:1] for line in p.lines]
    dated = next((m for line in alone for rx in rules.date for m in [rx.fullmatch(line)] if m), None) or \
        next((m for rx in rules.date for m in [rx.search(text)] if m), None)
    code = next((m.group("code") for rx in rules.code for m in [rx.search(text)] if m), None)
    meta = NoteMeta(path.stem, "stock" if code else "industry", brokers.most_common(1)[0][0] if brokers else None,
                    f"{int(dated['year']):04d}-{int(dated['month']):02d}-{int(dated['day']):02d}" if dated else None,
                    code)
    return meta, ["no info sheet names this note: its title is its file's name, its broker, date and company read "
                  "from its pages"]
