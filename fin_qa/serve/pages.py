"""A cited page of a report as a PNG, with what the answer cites boxed on it.

Where to draw comes from the word boxes ingest stored for every PDF page (store.page_words); the page
itself is rendered from the report's PDF with pypdfium2. A highlight is a list of strings:
- a number ("119653068.38", "37.85%") is boxed where the page prints it in any unit (元, 千元, 万元,
  百万元, 亿元: the stored amount is in 元, the page may print 119,653.07 in 千元), sign aside (a cost
  printed in parentheses);
- any other text (a row label, a quoted passage) is boxed where its characters stand, whitespace
  aside; a passage that runs on to the next page is boxed as far as this page holds it;
- a text and a number together are a row: the number is boxed on a line the text stands on, when the
  page has one (the label's own row, not the same amount elsewhere on the page).
"""
from __future__ import annotations

import io
import re
import threading
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from ..numbers import UNIT_FACTORS, parse_number
from ..store import PageWords, Word

# the larger units a page may print an amount in (千元 … 亿元), by their factor to 元
_LARGER = tuple(sorted(f for f in UNIT_FACTORS.values() if f > 1))
_SPACE = re.compile(r"\s+")
_NUMBER_BODY = r"[-(（]?[\d,]+(?:\.\d+)?[)）]?%?"
_NUMBER = re.compile(_NUMBER_BODY)
_NUMBER_TAIL = re.compile(_NUMBER_BODY + "$")
_CJK = re.compile(r"[\u4e00-\u9fff]")
MIN_PART = 6          # the fewest characters of a passage boxed when the page holds only part of it
MAX_BOXES = 12        # boxes of one highlight string (a label printed in many rows)
DEFAULT_SCALE = 1.5   # pixels per point (a 595-point A4 page: 893 pixels wide)

# PDFium is not thread-safe: every call into it (open, render, close) holds this lock
PDFIUM_LOCK = threading.Lock()


@dataclass(frozen=True)
class Box:
    x0: float
    top: float
    x1: float
    bottom: float
    what: str            # the highlight string it boxes


def _norm(text: str) -> str:
    """Compared text: NFKC (full-width digits and brackets as half-width), no whitespace."""
    return _SPACE.sub("", unicodedata.normalize("NFKC", text))


def _width(ch: str) -> float:
    return 1.0 if unicodedata.east_asian_width(ch) in ("W", "F") else 0.55


def _sub_box(w: Word, start: int, end: int, what: str) -> Box:
    """The part of a word holding its characters start..end (by their printed widths)."""
    weights = [_width(c) for c in w.text] or [1.0]
    total = sum(weights)
    left = sum(weights[:start]) / total
    right = sum(weights[:end]) / total
    span = w.x1 - w.x0
    return Box(w.x0 + span * left, w.top, w.x0 + span * right, w.bottom, what)


class _Flat:
    """The page's words run together (compared form) with each character's word and place in it."""

    def __init__(self, words: list[Word]):
        self.words = words
        chars: list[str] = []
        self.where: list[tuple[int, int]] = []
        for i, w in enumerate(words):
            for j, ch in enumerate(w.text):
                n = _norm(ch)
                for c in n:
                    chars.append(c)
                    self.where.append((i, j))
        self.text = "".join(chars)

    def boxes(self, start: int, end: int, what: str) -> list[Box]:
        """The boxes of the characters start..end of the run: one per word touched."""
        spans: dict[int, list[int]] = {}
        for i, j in self.where[start:end]:
            spans.setdefault(i, []).append(j)
        return [_sub_box(self.words[i], min(js), max(js) + 1, what) for i, js in spans.items()]

    def find_all(self, needle: str) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        at = self.text.find(needle)
        while at >= 0 and len(out) < MAX_BOXES:
            out.append((at, at + len(needle)))
            at = self.text.find(needle, at + len(needle))
        return out

    def find_part(self, needle: str) -> tuple[int, int] | None:
        """The longest head or tail of a passage that the page holds (at least MIN_PART characters): a
        passage begun on the page before, or going on to the next one."""
        lo, hi = MIN_PART, len(needle) - 1
        best: tuple[int, int] | None = None
        while lo <= hi:   # the head: a longer head found means every shorter one is too
            mid = (lo + hi) // 2
            at = self.text.find(needle[:mid])
            if at >= 0:
                best, lo = (at, at + mid), mid + 1
            else:
                hi = mid - 1
        lo, hi = MIN_PART, len(needle) - 1
        while lo <= hi:   # the tail
            mid = (lo + hi) // 2
            at = self.text.find(needle[-mid:])
            if at >= 0:
                if best is None or mid > best[1] - best[0]:
                    best = (at, at + mid)
                lo = mid + 1
            else:
                hi = mid - 1
        return best


def _as_number(text: str) -> Decimal | None:
    s = text.strip()
    if not _NUMBER.fullmatch(s):
        return None
    return parse_number(s)


def _matches(text: str, printed: Decimal, target: Decimal) -> bool:
    """Whether a printed number is the target: itself at the printed precision (1,516,034,246.28 for
    1516034246.28; 37.85% for 37.85), or the target in 元 printed in a larger unit (12,345.67 in 万元 for
    123456700) — only a number printed as an amount is (grouped or with decimals, 4 significant digits or
    more): a note number "五、1", a count "123" or a year "2021" is never 1亿元 or 2021万元."""
    printed, target = abs(printed), abs(target)
    decimals = len(text.split(".", 1)[1].rstrip("%)）")) if "." in text else 0
    half = Decimal(5) / Decimal(10) ** (decimals + 1)
    if abs(printed - target) <= half:
        return printed == target or len(printed.normalize().as_tuple().digits) >= 3
    amount = ("," in text or "." in text) and not text.endswith(("%", "％")) \
        and len(printed.normalize().as_tuple().digits) >= 4
    return amount and any(abs(printed - target / f) <= half for f in _LARGER)


def _merged(boxes: list[Box]) -> list[Box]:
    """Boxes of one string standing side by side on a line (words of one passage) as one box."""
    out: list[Box] = []
    for b in sorted(boxes, key=lambda b: (round(b.top), b.x0)):
        last = out[-1] if out else None
        if last is not None and last.what == b.what and abs(last.top - b.top) < 2 and b.x0 - last.x1 < 12:
            out[-1] = Box(last.x0, min(last.top, b.top), max(last.x1, b.x1), max(last.bottom, b.bottom), b.what)
        else:
            out.append(b)
    return out


def _same_row(a: Box, b: Box) -> bool:
    """Whether a number stands on a label's line: its middle within the label's height."""
    mid = (b.top + b.bottom) / 2
    return a.top - 1 <= mid <= a.bottom + 1


def _wrapped_rows(words: list[Word], text_boxes: dict[str, list[Box]],
                  number_boxes: dict[str, list[Box]]) -> list[Box]:
    """A label wrapped over lines beside its value (所有者权益（或股东权 / 益）合计, the value set between the
    lines): the words left of a number found, their middles within a line of its, that are pieces of the
    label — as many of its characters as MIN_PART, or all of them. Of several numbers, the one whose pieces
    hold most of the label, then the nearest to them."""
    out: list[Box] = []
    for t in text_boxes:
        needle = _norm(t)
        best: tuple[tuple[int, float], list[Word], Box] | None = None
        for nbs in number_boxes.values():
            for nb in nbs:
                h = nb.bottom - nb.top
                mid = (nb.top + nb.bottom) / 2
                pieces = [w for w in words if w.x1 <= nb.x0 and abs((w.top + w.bottom) / 2 - mid) <= max(h, w.bottom - w.top)
                          and _norm(w.text) and _norm(w.text) in needle]
                held = sum(len(_norm(w.text)) for w in pieces)
                if held < min(len(needle), MIN_PART):
                    continue
                centre = sum((w.top + w.bottom) / 2 for w in pieces) / len(pieces)
                rank = (-held, abs(centre - mid))
                if best is None or rank < best[0]:
                    best = (rank, pieces, nb)
        if best is not None:
            out += [Box(w.x0, w.top, w.x1, w.bottom, t) for w in best[1]] + [best[2]]
    return out


def locate(page: PageWords, highlights: list[str]) -> tuple[list[Box], str]:
    """The boxes of the highlight strings on the page, and how they were placed: "row" (a number on its
    label's line), "found" (every string, whole), "partial" (some strings not found, or a passage's head
    or tail only) or "none"."""
    flat = _Flat(page.words)
    numbers: list[tuple[str, Decimal]] = []
    texts: list[str] = []
    for h in highlights:
        n = _as_number(h)
        if n is not None:
            numbers.append((h, n))
        elif _norm(h):
            texts.append(h)
    text_boxes: dict[str, list[Box]] = {}
    whole: set[str] = set()   # the texts found whole (a row's label must be, on the strict path)
    fragments = 0    # passages of which the page holds a head or a tail only
    for t in texts:
        needle = _norm(t)
        spans = flat.find_all(needle)
        if spans:
            whole.add(t)
        elif len(needle) > MIN_PART:
            part = flat.find_part(needle)
            spans = [part] if part else []
            fragments += part is not None
        text_boxes[t] = _merged([b for s, e in spans for b in flat.boxes(s, e, t)])
    number_boxes: dict[str, list[Box]] = {}
    for h, n in numbers:
        found = []
        for w in page.words:
            # a number is a word of its own, or the tail of a label's word it was printed into without a
            # gap ("货币资金1,234.56": grouped or with decimals, after a character that is no digit or mark)
            m = _NUMBER_TAIL.search(w.text)
            if m is None or (m.start() and not (_CJK.match(w.text[m.start() - 1]) and re.search(r"[,.]", m.group(0)))):
                continue
            printed = _as_number(m.group(0))
            if printed is not None and printed != 0 and _matches(m.group(0), printed, n):
                found.append(_sub_box(w, m.start(), len(w.text), h) if m.start() else Box(w.x0, w.top, w.x1, w.bottom, h))
        number_boxes[h] = found[:MAX_BOXES]
    # a label and a number: the number on the label's row (the first to its right)
    rows: list[Box] = []
    for t, tbs in text_boxes.items():
        if t not in whole:
            continue
        for tb in tbs:
            for h, nbs in number_boxes.items():
                on_row = sorted((nb for nb in nbs if _same_row(tb, nb) and nb.x0 >= tb.x0), key=lambda b: b.x0)
                if on_row:
                    rows += [tb, on_row[0]]
    if not rows:
        rows = _wrapped_rows(page.words, text_boxes, number_boxes)
    if rows:
        return list(dict.fromkeys(rows)), "row"
    boxes = [b for bs in text_boxes.values() for b in bs] + [b for bs in number_boxes.values() for b in bs]
    wanted = len(text_boxes) + len(number_boxes)
    hit = sum(bool(bs) for bs in text_boxes.values()) + sum(bool(bs) for bs in number_boxes.values())
    status = "none" if not boxes else ("found" if hit == wanted and not fragments else "partial")
    return boxes, status


def render_png(pdf: Path, page: int, boxes: list[Box], scale: float = DEFAULT_SCALE) -> bytes:
    """The page rendered at `scale` pixels per point with each box drawn (a translucent yellow fill and a
    red frame), as PNG bytes."""
    import pypdfium2 as pdfium
    from PIL import Image, ImageDraw

    with PDFIUM_LOCK:
        doc = pdfium.PdfDocument(str(pdf))
        try:
            pg = doc[page - 1]
            try:
                image = pg.render(scale=scale).to_pil().convert("RGB")
                # the words were measured from the page's origin, the image shows its crop box
                left, bottom = (pg.get_cropbox()[:2] if pg.get_rotation() % 360 == 0 else (0.0, 0.0))
            finally:
                pg.close()
        finally:
            doc.close()
    if boxes:
        overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
        draw = ImageDraw.Draw(overlay)
        pad = 2
        for b in boxes:
            rect = ((b.x0 - left) * scale - pad, (b.top + bottom) * scale - pad, (b.x1 - left) * scale + pad,
                    (b.bottom + bottom) * scale + pad)
            draw.rectangle(rect, fill=(255, 230, 0, 90), outline=(220, 0, 0, 255), width=3)
        image = Image.alpha_composite(image.convert("RGBA"), overlay).convert("RGB")
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()

