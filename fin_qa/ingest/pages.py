"""Report files → pages of text lines, and positioned table rows on the pages whose tables we parse.

PDF: pypdfium2 gives the text of every page (fast) and, for the pages whose tables are parsed, the word
positions (page_words: PDFium's character boxes grouped as pdfplumber's extract_words groups them) →
rows and cells, so tables without ruling lines work too.
FinGLM txt: one JSON object a line {"page","allrow","type","inside"}; "excel" rows carry a Python-list
string of cells, which become table rows directly.
"""
from __future__ import annotations

import ast
import functools
import json
import operator
import re
import struct
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..base import FinQAError

if TYPE_CHECKING:
    import ctypes

    from pypdfium2 import PdfTextPage
    from pypdfium2 import PdfPage

    from ..catalog.glyphs import GlyphRepairs


class IngestError(FinQAError):
    """A report file that cannot be ingested; the message is the reason shown to the user."""


@dataclass
class Cell:
    text: str
    x0: float
    x1: float
    parts: tuple["Cell", ...] = ()   # the words it was joined from (a narrow table's two cells may touch)

    @property
    def xc(self) -> float:
        return (self.x0 + self.x1) / 2


@dataclass
class Row:
    """One table row (or one text line) with positioned cells."""

    cells: list[Cell]
    top: float = 0.0
    bottom: float = 0.0
    page: int = 0

    @property
    def text(self) -> str:
        return " ".join(c.text for c in self.cells)


@dataclass
class Line:
    text: str
    cells: list[str] | None = None  # a table row of a FinGLM txt report


@dataclass
class Page:
    number: int  # 1-based, as printed by the reader (PDF page index + 1, FinGLM "page")
    lines: list[Line] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


class Document:
    """A report's pages; table_rows(n) gives positioned rows of page n (parsed lazily)."""

    kind = "?"

    def __init__(self, path: Path, pages: list[Page]):
        self.path = path
        self.pages = pages
        self._rows: dict[int, list[Row]] = {}

    def page(self, number: int) -> Page | None:
        idx = number - self.pages[0].number if self.pages else -1
        if 0 <= idx < len(self.pages) and self.pages[idx].number == number:
            return self.pages[idx]
        return next((p for p in self.pages if p.number == number), None)

    def table_rows(self, number: int) -> list[Row]:
        if number not in self._rows:
            self._rows[number] = self._load_rows(number)
        return self._rows[number]

    def rows(self, number: int) -> list[Row]:
        """table_rows(number) without keeping them (a pass over every page: the table records)."""
        return self._rows[number] if number in self._rows else self._load_rows(number)

    def page_layouts(self) -> Iterator[tuple[int, float, float, list[dict]]]:
        """Each page's number, width and height as displayed (points) and its positioned words — what the
        page image's highlight is placed with; none for a text-only document (FinGLM txt)."""
        return iter(())

    def _load_rows(self, number: int) -> list[Row]:  # pragma: no cover - overridden
        raise NotImplementedError

    def close(self) -> None:
        pass

    @property
    def table_pages_parsed(self) -> int:
        return len(self._rows)


# ---------------------------------------------------------------------------------------------- PDF

_PAGE_NO = re.compile(r"^[-—\s]*\d{1,4}\s*(?:/\s*\d{1,4})?[-—\s]*$|^第\s*\d+\s*页(?:\s*共\s*\d+\s*页)?$")


def _running_key(s: str) -> str:
    return re.sub(r"\d+", "#", s.replace(" ", ""))


def _strip_running_lines(pages: list[list[str]]) -> tuple[list[list[str]], set[str]]:
    """Remove page headers/footers: page numbers and lines repeated at the top/bottom of many pages."""
    key = _running_key
    edge: Counter[str] = Counter()
    for lines in pages:
        for s in {key(x) for x in lines[:2] + lines[-2:] if x.strip()}:
            edge[s] += 1
    threshold = max(3, int(len(pages) * 0.3))
    running = {k for k, n in edge.items() if n >= threshold}
    out = []
    for lines in pages:
        keep = list(lines)
        for pos in (0, 0, -1, -1):  # up to two lines at each edge
            if keep and (key(keep[pos]) in running or _PAGE_NO.match(keep[pos].strip())):
                keep.pop(pos)
        out.append(keep)
    return out, running


class PdfDocument(Document):
    kind = "pdf"

    def __init__(self, path: Path, glyphs: "GlyphRepairs | None" = None):
        import pypdfium2 as pdfium

        try:
            pdf = pdfium.PdfDocument(str(path))
        except pdfium.PdfiumError as exc:
            msg = str(exc)
            if "password" in msg.lower():
                raise IngestError("encrypted PDF (password required)") from None
            # PDFium's own reason is its library-wide last error: "Success", or the code of the file read
            # before — the file's bytes say what is wrong instead
            raise IngestError(_pdf_problem(path)) from None
        raw: list[list[str]] = []
        # every page's word boxes are read in the same pass as its text (every table of the report is
        # parsed: loading a page twice cost a quarter of the time); rows are made from them on demand
        self._words: list[list[dict]] = []
        self._sizes: list[tuple[float, float]] = []   # each page's width and height as displayed
        fixer = GlyphFixer(glyphs.repairs, set(glyphs.signature), glyphs.min_signature) \
            if glyphs is not None and glyphs.signature else None
        texts: list[str] = []
        # pages whose signature characters came before their font was known broken: read back at the end
        pending: dict[int, tuple[list[tuple], dict[int, str]]] = {}
        try:
            for i in range(len(pdf)):
                page = pdf[i]
                tp = page.get_textpage()
                codes, text = _char_codes(tp)
                chars = page_chars(page, tp, codes)
                if fixer is not None:
                    was_broken = bool(fixer.broken)
                    fonts = fixer.note(tp, codes)
                    if fonts and not was_broken:
                        # its signature characters noted before any font was known broken: the fonts of its
                        # other listed characters, to read them back when it turns out to be
                        fonts = fixer.pending_fonts(tp, codes, fonts)
                    if fonts and fixer.broken & set(fonts.values()):
                        text = fixer.fix(text, fonts, fixer.broken)
                        fixer.fix_chars(chars, fonts, fixer.broken)
                    elif fonts:
                        pending[i] = (chars, fonts)
                self._words.append(group_words(chars))
                self._sizes.append((page.get_width(), page.get_height()))
                texts.append(text)
                tp.close()
                page.close()
        except pdfium.PdfiumError as exc:
            raise IngestError(f"corrupt PDF page {len(texts) + 1} ({exc})") from None
        finally:
            pdf.close()
        if fixer is not None and fixer.broken:
            for i, (chars, fonts) in pending.items():
                if fixer.broken & set(fonts.values()):
                    texts[i] = fixer.fix(texts[i], fonts, fixer.broken)
                    fixer.fix_chars(chars, fonts, fixer.broken)
                    self._words[i] = group_words(chars)
        self.glyphs_fixed = sorted(fixer.broken) if fixer is not None else []
        for text in texts:
            text = _no_surrogates(text)
            raw.append([s.strip() for s in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")])
        if not raw:
            raise IngestError("PDF has no pages")
        n_chars = sum(len(s) for lines in raw for s in lines)
        if n_chars < 20 * len(raw):
            raise IngestError(
                f"no text layer ({n_chars} characters on {len(raw)} pages): a scanned PDF needs OCR first"
            )
        cleaned, self._running = _strip_running_lines([[s for s in lines if s] for lines in raw])
        pages = [Page(i + 1, [Line(s) for s in lines]) for i, lines in enumerate(cleaned)]
        super().__init__(path, pages)

    def page_layouts(self) -> Iterator[tuple[int, float, float, list[dict]]]:
        for i, (words, (width, height)) in enumerate(zip(self._words, self._sizes)):
            yield i + 1, width, height, words

    def _load_rows(self, number: int) -> list[Row]:
        rows = rows_from_words(self._words[number - 1], number)
        # page headers/footers are not table rows
        return [r for r in rows if not _PAGE_NO.match(r.text) and _running_key(r.text) not in self._running]



_LINE_BREAKS = {0x0D, 0x0A, 0x02, 0xFFFE}


def _char_codes(textpage) -> tuple[list[int], str]:
    """The code of every character of a text page and the page's text: both from one call (UTF-16, a unit a
    character) — when it gives one unit a character; else the codes one call a character (characters beyond
    the BMP take two units) and the text as pypdfium2 reads it (it handles characters PDFium leaves out)."""
    import ctypes

    import pypdfium2.raw as raw

    n = textpage.count_chars()
    buf = (ctypes.c_ushort * (n + 1))()
    out = raw.FPDFText_GetText(textpage.raw, 0, n, buf)
    codes = list(buf[:n])
    if any(0xD800 <= c <= 0xDFFF for c in codes):
        codes = [raw.FPDFText_GetUnicode(textpage.raw, i) for i in range(n)]
        return codes, textpage.get_text_range()
    if out != n + 1:
        return codes, textpage.get_text_range()
    return codes, memoryview(buf)[:n].tobytes().decode("utf-16-le", errors="ignore") if n else ""


def _font_name(textpage, i: int) -> str:
    import ctypes

    import pypdfium2.raw as raw

    buf = ctypes.create_string_buffer(128)
    flags = ctypes.c_int()
    raw.FPDFText_GetFontInfo(textpage.raw, i, buf, 128, ctypes.byref(flags))
    return buf.value.decode("latin-1", "replace")


class GlyphFixer:
    """Reads back what a broken font draws (catalog/glyphs.py): over a document's pages, the fonts of the
    characters the repair table lists are noted; a font showing its `signature` characters is broken, and
    the listed characters of a broken font are read as the ones they stand for — the report's other fonts
    are left as they are."""

    def __init__(self, repairs: dict[str, str], signature: set[str], min_signature: int = 3):
        self.repairs = repairs
        self.listed = frozenset(repairs)
        self.signature = signature
        self.min_signature = min_signature
        self.seen: dict[str, set[str]] = {}   # font → the distinct signature characters seen in it

    def note(self, textpage, codes: list[int]) -> dict[int, str]:
        """The page's listed characters: index → font (their fonts' signature counts kept) — only its
        signature characters until a font is known broken (a report in sound fonts asks for no font)."""
        fonts: dict[int, str] = {}
        listed = self.listed if self.broken else self.signature
        if listed.isdisjoint(map(chr, codes)):
            return fonts   # (most pages of most reports: none of its characters is listed)
        for i, code in enumerate(codes):
            ch = chr(code) if code < 0xD800 or code > 0xDFFF else ""
            if ch in listed:
                font = fonts[i] = _font_name(textpage, i)
                if ch in self.signature:
                    self.seen.setdefault(font, set()).add(ch)
        return fonts

    @property
    def broken(self) -> set[str]:
        # (distinct characters: a sound font printing 丨 as a separator again and again is not broken)
        return {f for f, chars in self.seen.items() if len(chars) >= self.min_signature}

    def pending_fonts(self, textpage, codes: list[int], fonts: dict[int, str]) -> dict[int, str]:
        """A page noted before its font was known broken: the fonts of its other listed characters too."""
        for i, code in enumerate(codes):
            ch = chr(code) if code < 0xD800 or code > 0xDFFF else ""
            if ch in self.repairs and i not in fonts:
                fonts[i] = _font_name(textpage, i)
        return fonts

    def fix_chars(self, chars: list[tuple], fonts: dict[int, str], broken: set[str]) -> None:
        """page_chars' characters of broken fonts read back, in place."""
        for n, c in enumerate(chars):
            if fonts.get(c[6]) in broken and c[0] in self.repairs:
                chars[n] = (self.repairs[c[0]], *c[1:])

    def fix(self, text: str, fonts: dict[int, str], broken: set[str]) -> str:
        """The text of a page (indexed as its characters) with the listed characters of broken fonts read
        back."""
        if not fonts or not broken:
            return text
        chars = list(text)
        for i, font in fonts.items():
            if font in broken and i < len(chars) and chars[i] in self.repairs:
                chars[i] = self.repairs[chars[i]]
        return "".join(chars)


def page_words(page: "PdfPage", x_tolerance: float = 2.0, y_tolerance: float = 2.0,
               textpage: "PdfTextPage | None" = None, codes: list[int] | None = None) -> list[dict]:
    """The words of a PDF page with their boxes ({text, x0, x1, top, bottom}, top from the page's top),
    from PDFium's character boxes — what pdfplumber's extract_words(x_tolerance=2, y_tolerance=2) gives,
    at a fraction of its time: characters are grouped into lines by their top (within y_tolerance), a
    line's characters sorted left to right, and a word ends at a space or a gap wider than x_tolerance.
    The loose (font) box of each character is used, so a comma and a Chinese character of one line share
    their top and bottom as they do in pdfplumber."""
    own = textpage is None   # the caller's text page stays open
    if textpage is None:
        textpage = page.get_textpage()
    try:
        chars = page_chars(page, textpage, codes)
    finally:
        if own:
            textpage.close()
    return group_words(chars, x_tolerance, y_tolerance)


def page_chars(page: "PdfPage", textpage: "PdfTextPage", codes: list[int] | None = None) -> list[tuple]:
    """A page's characters as displayed: (text, x0, x1, top, bottom, cut, index) (cut: a gap PDFium saw
    before it; index: its place among the text page's characters)."""
    import ctypes

    # PDFium's boxes are in the page's own space; a page shown rotated (/Rotate 90: landscape tables such
    # as 所有者权益变动表) is read as displayed, as pdfplumber reads it: (x0, x1, top, bottom) from the box
    # (left, top, right, bottom)
    rotation = page.get_rotation() % 360
    width, height = page.get_width(), page.get_height()   # as displayed
    if rotation == 90:
        box = lambda l, t, r, b: (b, t, l, r)  # noqa: E731,E741
    elif rotation == 180:
        box = lambda l, t, r, b: (width - r, width - l, b, t)  # noqa: E731,E741
    elif rotation == 270:
        box = lambda l, t, r, b: (width - t, width - b, height - r, height - l)  # noqa: E731,E741
    else:
        box = lambda l, t, r, b: (l, r, height - t, height - b)  # noqa: E731,E741
    fast = _fast_calls()
    rect = fast.rect_type()
    read = _RECT.unpack_from
    chars: list[tuple] = []
    append = chars.append
    cut = False
    codes = _char_codes(textpage)[0] if codes is None else codes
    # the hot loop of ingest, once a character (fast.char_box: see _FastCalls)
    tp, char_box, generated, at = fast.pointer(textpage), fast.char_box, fast.generated, ctypes.byref(rect)
    for i, code in enumerate(codes):
        if code in _LINE_BREAKS or (code == 32 and generated(tp, i) == 1):
            # a space PDFium inferred from a gap is not in the page (pdfplumber has none); it still
            # marks where a word may be cut (two table cells set closer than x_tolerance)
            cut = code == 32
            continue
        char_box(tp, i, at)
        # a UTF-16 surrogate alone is no character (a damaged font map): the replacement character
        append(("\ufffd" if 0xD800 <= code <= 0xDFFF else chr(code), *box(*read(rect)), cut, i))
        cut = False
    return chars


_RECT = struct.Struct("4f")   # FS_RECTF: left, top, right, bottom (C floats, read as the fields read them)


class _FastCalls:
    """PDFium's two per-character calls without ctypes' argument conversion: pypdfium2's bindings convert
    each argument through its declared type, about 60% of a call's time and a third of ingest's
    per-character loop. The same functions of the same library, undeclared: the text page passed as a
    c_void_p, the index as a C int (ctypes' default for an int), the box by reference; an int result.
    They are new function pointers of the library pypdfium2 loaded (a private name of its bindings): where a
    pypdfium2 release names it otherwise, its declared functions are used, as before (`fast` False)."""

    def __init__(self) -> None:
        import ctypes

        import pypdfium2.raw as raw

        self.rect_type = raw.FS_RECTF
        assert ctypes.sizeof(self.rect_type) == _RECT.size
        try:
            import pypdfium2_raw.bindings as bindings  # type: ignore[import-untyped]

            lib = bindings._libs["pdfium"]
            self.char_box = lib["FPDFText_GetLooseCharBox"]
            self.generated = lib["FPDFText_IsGenerated"]
            for fn in (self.char_box, self.generated):
                fn.argtypes = None
                fn.restype = ctypes.c_int
            self.fast = True
        except Exception:   # (any change of the private name: the declared functions)
            self.char_box, self.generated = raw.FPDFText_GetLooseCharBox, raw.FPDFText_IsGenerated
            self.fast = False

    def pointer(self, textpage: "PdfTextPage") -> Any:
        """The text page as the calls take it."""
        import ctypes

        return ctypes.c_void_p(ctypes.cast(textpage.raw, ctypes.c_void_p).value) if self.fast else textpage.raw


@functools.lru_cache(maxsize=1)
def _fast_calls() -> _FastCalls:
    return _FastCalls()


def group_words(chars: list[tuple], x_tolerance: float = 2.0, y_tolerance: float = 2.0) -> list[dict]:
    """Characters (page_chars, sorted here in place) grouped into words: lines by their top, a word ending
    at a space or a gap."""
    chars.sort(key=_TOP)
    lines: list[list[tuple]] = []
    line_top = 0.0
    line: list[tuple] = []
    for ch in chars:
        if lines and abs(ch[3] - line_top) <= y_tolerance:
            line.append(ch)
        else:
            line = [ch]
            lines.append(line)
            line_top = ch[3]
    words: list[dict] = []
    add = words.append
    for line in lines:
        line.sort(key=_X0)
        # the word being read, in locals (a dict once it ends): its text, box and the gaps PDFium saw in it
        text = ""
        wx0 = wx1 = wtop = wbottom = 0.0
        cuts: list | None = None
        for ch, x0, x1, top, bottom, cut, _ in line:
            if ch.isspace():
                if text:
                    add(_word(text, wx0, wx1, wtop, wbottom, cuts))
                    text = ""
                continue
            if text and x0 - wx1 <= x_tolerance:
                if cut and x0 > wx1:
                    if cuts is None:
                        cuts = []
                    cuts.append((len(text), wx1, x0))
                text += ch
                # (as max and min: the word's own value where they are equal)
                if x1 > wx1:
                    wx1 = x1
                if top < wtop:
                    wtop = top
                if bottom > wbottom:
                    wbottom = bottom
                continue
            if text:
                add(_word(text, wx0, wx1, wtop, wbottom, cuts))
            text, wx0, wx1, wtop, wbottom, cuts = ch, x0, x1, top, bottom, None
        if text:
            add(_word(text, wx0, wx1, wtop, wbottom, cuts))
    return words


_TOP = operator.itemgetter(3)
_X0 = operator.itemgetter(1)


def _word(text: str, x0: float, x1: float, top: float, bottom: float, cuts: list | None) -> dict:
    word = {"text": text, "x0": x0, "x1": x1, "top": top, "bottom": bottom}
    if cuts:
        word["cuts"] = cuts
    return word


def _word_cell(w: dict) -> Cell:
    """A word as a cell; where PDFium saw a gap inside it (its `cuts`), its parts too."""
    cuts = w.get("cuts")
    if not cuts:
        return Cell(w["text"], w["x0"], w["x1"])
    parts, start, x0 = [], 0, w["x0"]
    for at, end, nxt in cuts:
        parts.append(Cell(w["text"][start:at], x0, end))
        start, x0 = at, nxt
    parts.append(Cell(w["text"][start:], x0, w["x1"]))
    return Cell(w["text"], w["x0"], w["x1"], tuple(parts))


def rows_from_words(words: list[dict], page_no: int, y_tol: float = 3.0, gap: float = 4.5) -> list[Row]:
    """Group positioned words into rows (by vertical centre) and cells (by horizontal gaps)."""
    rows: list[Row] = []
    for w in sorted(words, key=lambda w: ((w["top"] + w["bottom"]) / 2, w["x0"])):
        mid = (w["top"] + w["bottom"]) / 2
        if rows and abs(mid - (rows[-1].top + rows[-1].bottom) / 2) <= y_tol:
            row = rows[-1]
            row.cells.append(_word_cell(w))
            row.bottom = max(row.bottom, w["bottom"])
        else:
            rows.append(Row([_word_cell(w)], w["top"], w["bottom"], page_no))
    for row in rows:
        row.cells.sort(key=lambda c: c.x0)
        merged: list[Cell] = []
        for c in row.cells:
            if merged and c.x0 - merged[-1].x1 <= gap and not _is_numeric_token(c.text):
                last = merged[-1]
                if not _is_numeric_token(last.text) or _joins_number(last.text, c.text):
                    merged[-1] = Cell(last.text + _space(last.text, c.text) + c.text, last.x0, c.x1,
                                      (last.parts or (last,)) + (c.parts or (c,)))
                    continue
            merged.append(c)
        row.cells = merged
    return rows


_NUMERIC = re.compile(r"^[\(（]?[-－—–−]?[\d,]+(?:\.\d+)?[\)）]?%?$")


def _is_numeric_token(s: str) -> bool:
    return bool(_NUMERIC.match(s))


def _joins_number(left: str, right: str) -> bool:
    # "2019" + "年" (a date header) joins; two numbers never do
    return not _is_numeric_token(right)


def _space(left: str, right: str) -> str:
    return " " if (left[-1:].isascii() and left[-1:].isalnum() and right[:1].isascii() and right[:1].isalnum()) else ""


def open_pdf(path: Path, glyphs: "GlyphRepairs | None" = None) -> PdfDocument:
    with open(path, "rb") as fh:
        head = fh.read(1024)
    if not head:
        raise IngestError("empty file")
    if b"%PDF-" not in head:
        raise IngestError("not a PDF (no %PDF- header)")
    return PdfDocument(path, glyphs)


# ----------------------------------------------------------------------------------- FinGLM txt


class FinglmTxtDocument(Document):
    kind = "txt"

    def _load_rows(self, number: int) -> list[Row]:
        page = self.page(number)
        rows: list[Row] = []
        for i, line in enumerate(page.lines if page else []):
            cells = line.cells if line.cells is not None else [line.text]
            rows.append(Row([Cell(t, 100.0 * k, 100.0 * k + 90) for k, t in enumerate(cells)], i, i + 0.5, number))
        return rows


def _excel_cells(inside: str) -> list[str]:
    try:
        value = ast.literal_eval(inside)
    except (ValueError, SyntaxError):
        return [inside]
    if isinstance(value, (list, tuple)):
        return ["" if v is None else str(v).strip() for v in value]
    return [str(value)]


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, text) of a txt file, read a line at a time (a 425 MB report is never held whole)."""
    with open(path, "rb") as fh:
        for n, data in enumerate(fh, 1):
            try:
                yield n, data.decode("utf-8")
            except UnicodeDecodeError:
                raise IngestError(f"line {n}: not UTF-8 text: not a FinGLM txt report") from None


def _no_surrogates(text: str) -> str:
    """Surrogate pairs joined, a lone surrogate (a damaged PDF's text) replaced: the text can be stored."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


# a page tree of no pages (<</Count 0/Kids[]/Type/Pages>>), its keys in either order
_EMPTY_PAGE_TREE = re.compile(rb"<<[^>]*?/Count\s*0\b[^>]*?/Type\s*/Pages\b|<<[^>]*?/Type\s*/Pages\b[^>]*?/Count\s*0\b")


def _pdf_problem(path: Path) -> str:
    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:
            head = fh.read(1024)
            fh.seek(max(0, size - 2048))
            tail = fh.read()
    except OSError as exc:
        return f"cannot read the file ({exc.strerror or exc})"
    if size == 0:
        return "empty file (0 bytes)"
    if b"%PDF-" not in head:
        return "not a PDF (no %PDF- header)"
    if b"%%EOF" not in tail:
        return "corrupt or truncated PDF (no %%EOF at its end)"
    if _EMPTY_PAGE_TREE.search(head + tail):
        return "PDF has no pages"
    return "corrupt PDF (PDFium cannot read its structure)"


def open_finglm_txt(path: Path) -> FinglmTxtDocument:
    pages: dict[int, Page] = {}
    running: set[str] = set()
    good = bad = first_bad = 0
    for n, raw in _lines(path):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
            page_no = int(obj["page"])
            kind = obj.get("type", "text")
            inside = obj.get("inside", "")
            if not isinstance(inside, str):
                raise TypeError
        except (ValueError, KeyError, TypeError, AttributeError):
            bad += 1
            first_bad = first_bad or n
            if good == 0 and bad >= 3:
                raise IngestError(f"line {first_bad}: not FinGLM JSON lines ({{\"page\",\"type\",\"inside\"}}; "
                                  f"its first {bad} lines are not)") from None
            continue
        good += 1
        if kind in ("页眉", "页脚"):
            running.add(inside.strip())
            continue
        page = pages.setdefault(page_no, Page(page_no))
        if kind == "excel":
            cells = _excel_cells(inside)
            page.lines.append(Line(" ".join(c for c in cells if c), cells))
        elif inside.strip():
            page.lines.append(Line(inside.strip()))
    if good == 0 and bad == 0:
        raise IngestError("empty file")
    for page in pages.values():   # a running header some pages type as text ("…2019年年度报告全文")
        page.lines = [ln for ln in page.lines if ln.cells is not None or ln.text not in running]
    if good == 0:
        raise IngestError("not FinGLM JSON lines: no line has {\"page\",\"type\",\"inside\"}")
    if bad > good:
        raise IngestError(f"not FinGLM JSON lines: {bad} of {good + bad} lines malformed, the first line {first_bad}")
    return FinglmTxtDocument(path, [pages[k] for k in sorted(pages)])


def open_document(path: Path, glyphs: "GlyphRepairs | None" = None) -> Document:
    """Open a report file by its content (PDF magic) or its suffix (.txt/.jsonl = FinGLM txt); a PDF's
    broken font maps read back with `glyphs` (keyword_tables/glyphs.yaml)."""
    path = Path(path)
    if not path.is_file():
        raise IngestError("not a file")
    if path.stat().st_size == 0:
        raise IngestError("empty file")
    with open(path, "rb") as fh:
        head = fh.read(1024)
    if b"%PDF-" in head:
        return open_pdf(path, glyphs)
    if path.suffix.lower() == ".pdf":
        raise IngestError("not a PDF (no %PDF- header)")
    if path.suffix.lower() in (".txt", ".jsonl", ".json"):
        return open_finglm_txt(path)
    raise IngestError(f"unsupported file type {path.suffix or '(no suffix)'}: expected a PDF or a FinGLM txt")
