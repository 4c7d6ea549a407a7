"""The report's own vocabulary: the words its tables use, indexed at ingest (store table `vocab`).

Every text cell of a table is a word of the report: a row's label (库存商品 in the 存货 note, 罐式集装箱 of
the revenue by segment, a subsidiary's, shareholder's, customer's or region's name) or a column header
(账面余额, 持股比例). A question word the rule catalog does not know is looked up here: when a row of the
report's tables is named by it, the question is about that row, never about the company's total
(answer/router.py). Words are kept as `label_key` spells them, so the question's words compare the same way.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import NamedTuple

from .numbers import is_number

# an enumerator before a label ("1、", "(一)", "其中：", "减：") and a bracketed part ("（含税）")
_ENUM = re.compile(r"^(?:[（(]?[一二三四五六七八九十\d]{1,3}[)）]?[、.．]|[（(][一二三四五六七八九十\d]{1,3}[)）]|"
                   r"其中\s*[:：]|减\s*[:：]|加\s*[:：])\s*")
_BRACKETS = re.compile(r"[（(][^（()）]*[)）]")
_NOT_WORD = re.compile(r"[^\u3400-\u9fffa-z0-9%]")
_YEAR = re.compile(r"^(?:19|20)\d\d年?度?$")
MAX_CHARS = 30     # a longer cell is a sentence, not a word


class VocabEntry(NamedTuple):
    table_id: int
    row: int        # -1: a column header
    col: int
    kind: str       # row (the label of a row holding a number) | text (a row without one) | header


def label_key(cell: str) -> str:
    """A cell's words as they are compared with a question's: NFKC, lower case, no enumerator, bracketed
    part, 的, space or punctuation."""
    s = unicodedata.normalize("NFKC", cell or "").strip()
    s = _ENUM.sub("", s)
    s = _BRACKETS.sub("", s) or s
    return _NOT_WORD.sub("", s.lower().replace("的", ""))


def table_vocabulary(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[tuple[str, int, int, str]]:
    """The words of one table: (word, row, column, kind), each (word, row) once."""
    out: list[tuple[str, int, int, str]] = []
    seen: set[tuple[str, int]] = set()

    def add(cell: str, r: int, k: int, kind: str) -> None:
        if not cell or is_number(cell):
            return
        w = label_key(cell)
        if len(w) < 2 or len(w) > MAX_CHARS or w.isdigit() or _YEAR.match(w) or (w, r) in seen:
            return
        seen.add((w, r))
        out.append((w, r, k, kind))

    for k, h in enumerate(header):
        add(h, -1, k, "header")
    for r, row in enumerate(rows):
        kind = "row" if any(c and is_number(c) for c in row) else "text"
        for k, cell in enumerate(row):
            add(cell, r, k, kind)
    return out
