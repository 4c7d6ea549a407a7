"""Statements whose rows reached us as text with the numbers run together.

The FinGLM converter flattened some statements (banks' 合并及银行 statements in particular) into text
lines where label, note and four value columns touch: "利息收入八、33388,238360,166383,647357,291", and
several rows may share a line. The header says how many value columns there are ("2019年度2018年度
2019年度2018年度合并合并银行银行": four, the first two consolidated); the line is split by enumerating
the ways to read exactly that many thousands-grouped numbers (with an optional 附注 number in front).
When more than one reading is possible the one where consolidated and parent columns agree wins; a row
still ambiguous after that gets no value (never a guessed one) and is reported as a warning.
A "-" in front of a label is a sub-item bullet ("-公司贷款和垫款"): it is not part of the item's name.
The rows become facts in statement_model (shared with the positioned-table parser, statements.py).
"""
from __future__ import annotations

import re
from decimal import Decimal

from ..catalog.items import ItemTable, normalize_label
from ..numbers import find_unit
from .pages import Document
from .statement_model import LABEL_NOTE, Statement, StatementRow, build_statement

_YEAR = re.compile(r"(\d{4})年")
_HEADER_END = re.compile(r"(?:合并|银行|本行|公司|母公司){2,}|(?:\d{1,2}月\d{1,2}日)+|(?:\d{4}年度?)+")
_CJK = re.compile(r"[\u4e00-\u9fff]")
# a note number's head run into the label, its number before the values ("利息收入八、33388,238…", "六.3…")
_NOTE_TAIL = re.compile(r"[一二三四五六七八九十]+[、.．]$")
# a bracketed note number after a note's head ("货币资金五(1)1,234.56"): part of the note, never a value
_NOTE_BRACKET = re.compile(r"[（(]\d{1,2}[)）]")
_END = re.compile(r"(?:后附财务报表附注|董事长|法定代表人|财务报表附注为)")
_SECTION = re.compile(r"^[一二三四五六七八九十]+、")
_MAX_SPLITS = 200


def _value_prefixes(s: str, i: int) -> list[tuple[Decimal | None, int]]:
    """Every way one value can be read at s[i:]: (value, end)."""
    out: list[tuple[Decimal | None, int]] = []
    if s.startswith("不适用", i):
        out.append((None, i + 3))
    if i < len(s) and s[i] == "-":
        out.append((None, i + 1))  # an empty cell
    neg = i < len(s) and s[i] == "("
    j = i + 1 if neg else i
    m = re.match(r"\d{1,3}", s[j:])
    if not m:
        return out
    zero = m.group(0).startswith("0")  # no leading zeros: "0" alone, or "0.72"
    # first group of 1-3 digits, then ,ddd groups, then an optional fraction; every stop is a candidate
    for first in range(1, 2 if zero else len(m.group(0)) + 1):
        k = j + first
        stops = [k]
        while not zero and re.match(r",\d{3}", s[k:]):
            k += 4
            stops.append(k)
        for stop in stops:
            ends = [stop]
            fm = re.match(r"\.(\d+)", s[stop:])
            if fm:
                ends = [stop + 1 + n for n in range(1, len(fm.group(1)) + 1)]
            for end in ends:
                text = s[j:end].replace(",", "")
                if neg:
                    if end < len(s) and s[end] == ")":
                        out.append((-Decimal(text), end + 1))
                else:
                    out.append((Decimal(text), end))
    return out


_Reading = tuple[list[Decimal | None], int]  # values, end


def _splits(s: str, i: int, n: int, acc: list[Decimal | None], out: list[_Reading]) -> None:
    if len(out) >= _MAX_SPLITS:
        return
    if n == 0:
        out.append((list(acc), i))
        return
    for value, end in _value_prefixes(s, i):
        acc.append(value)
        _splits(s, end, n - 1, acc, out)
        acc.pop()


def _score(values: list[Decimal | None], ncols: int, s: str, end: int) -> int:
    # a reading that stops where a label starts beats one that stops inside a run of values
    if end == len(s) or _CJK.match(s[end]):
        score = 3
    elif s[end] == "-" and _CJK.match(s[end + 1:end + 2]):  # "-" as the bullet of the next label
        score = 2
    else:
        score = 0
    for v in values:
        if v is not None and v.as_tuple().exponent not in (0, -2):
            score -= 1
    if ncols == 4:  # consolidated and parent columns: equal, or at least of one magnitude
        for a, b in ((values[0], values[2]), (values[1], values[3])):
            if a is not None and b is not None:
                score += 3 if a == b else (1 if len(str(abs(int(a)))) == len(str(abs(int(b)))) else 0)
    return score


def read_values(
    s: str, i: int, ncols: int, note: bool, last_note: int = 0
) -> tuple[list[Decimal | None], int, int] | None:
    """Read exactly ncols values at s[i:] (after 1-2 note digits when note); None if ambiguous/none.

    Returns (values, end, note number). Note numbers run in order through a statement, so among
    equally good readings the one whose note follows last_note wins.
    """
    cands: list[tuple[list[Decimal | None], int, int]] = []
    starts = [(i, 0)]
    if note:
        starts = []
        for k in (1, 2):
            if s[i:i + k].isdigit():
                j = i + k
                pm = re.match(r"\(\d{1,2}\)", s[j:])
                starts.append((j + pm.end() if pm else j, int(s[i:i + k])))
    for st, n in starts:
        found: list[_Reading] = []
        _splits(s, st, ncols, [], found)
        cands.extend((v, e, n) for v, e in found)
    # a reading must end at the end of the line or before a label (not in the middle of a number)
    cands = [(v, e, n) for v, e, n in cands if e == len(s) or not (s[e].isdigit() or s[e] in ",.)")]
    if not cands:
        return None

    def key(c: tuple[list[Decimal | None], int, int]) -> tuple[int, int]:
        v, e, n = c
        order = 0 if not note else (-(n - last_note) if n >= last_note else -100)
        return (_score(v, ncols, s, e), order)

    best = max(key(c) for c in cands)
    top = {(tuple(v), e, n) for v, e, n in cands if key((v, e, n)) == best}
    if len(top) != 1:
        return None
    values, end, n = next(iter(top))
    return list(values), end, n


def _by_period(values: list[Decimal | None]) -> dict[str, Decimal | None]:
    """The first column is the current period, the second the previous one (the rest: parent company)."""
    return {"current": values[0], "previous": values[1] if len(values) > 1 else None}


def _collect_lines(doc: Document, page_no: int, title: str, max_pages: int = 6) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    started = False
    key = title.replace(" ", "")
    for pn in range(page_no, page_no + max_pages):
        page = doc.page(pn)
        if page is None:
            break
        for line in page.lines:
            text = line.text.replace(" ", "")
            if not started:
                started = text == key
                continue
            if _END.search(text):
                return out
            if out and re.search(r"(?:资产负债表|利润表|现金流量表|权益变动表)(?:\(续\))?$", text):
                if "(续)" not in text and "（续）" not in text:
                    return out
                continue
            out.append((pn, text))
    return out


def parse_text_statement(
    doc: Document, kind: str, page_no: int, title: str, year: int | None, table: ItemTable
) -> Statement | None:
    """The statement titled `title` on page_no read as run-together text; None when it is not one."""
    lines = _collect_lines(doc, page_no, title)
    if not lines:
        return None
    unit = "元"
    ncols = 0
    rows: list[StatementRow] = []
    warnings: list[str] = []
    label = ""
    last_note = 0
    section = ""
    for pn, text in lines:
        u = find_unit(text)
        if u and len(text) < 60 and not ncols:
            unit = u
            continue
        if text.startswith("(") and "单位" in text:
            continue
        years = _YEAR.findall(text)
        if len(years) >= 2:  # a header line: it fixes the number of value columns
            ncols = len(years)
            ends = [m.end() for m in _HEADER_END.finditer(text)]
            text = text[max(ends):] if ends else ""
            label = ""
            if not text:
                continue
        if not ncols:
            continue
        i = 0
        carried = len(label)  # label text carried over from the previous line (a wrapped label?)
        while i < len(text):
            ch = text[i]
            starts_value = ch.isdigit() or (ch in "(-" and i + 1 < len(text) and (text[i + 1].isdigit() or text[i + 1] in "-(")) \
                or (ch == "-" and (i + 1 == len(text))) or text.startswith("不适用", i)
            if ch in "(（" and re.search(r"[一二三四五六七八九十]$", label):
                m = _NOTE_BRACKET.match(text, i)
                if m:   # "五(1)": the note goes on
                    label += m.group(0)
                    i = m.end()
                    continue
            if starts_value and len(_CJK.findall(label)) >= 2:
                note = bool(_NOTE_TAIL.search(label))
                got = read_values(text, i, ncols, note, last_note)
                if got is not None:
                    values, end, n = got
                    last_note = n or last_note
                    clean = LABEL_NOTE.sub("", _NOTE_TAIL.sub("", label))
                    if 0 < carried < len(clean):  # a label begun on the line before
                        carry, rest = clean[:carried], clean[carried:]
                        if not table.canonical(clean) and (
                            table.canonical(rest) or rest.startswith("-") or table.canonical(carry)
                        ):
                            if _SECTION.match(carry):
                                section = normalize_label(carry)
                            clean = rest
                    if normalize_label(clean) in ("小计", "合计") and section:
                        clean = section  # "一、营业收入 … 小计" is the 营业收入 total
                    carried = 0
                    rows.append(StatementRow(clean, _by_period(values), pn))
                    label = ""
                    i = end
                    continue
                if note or ch.isdigit():
                    warnings.append(f"page {pn}: values of {normalize_label(_NOTE_TAIL.sub('', label))!r} ambiguous")
                    # skip this run of value characters
                    while i < len(text) and not _CJK.match(text[i]):
                        i += 1
                    label = ""
                    carried = 0
                    continue
            label += ch
            i += 1
        # a label that ends the line: keep it when it wraps, drop it when it is a section or an empty item
        if label and label.endswith(("：", ":")):
            label = ""
    if not rows:
        return None
    return build_statement(kind, title, unit, sorted({pn for pn, _ in lines}), rows, table, warnings, bullets="-")
