"""The report's own words in a question: a row of the report's tables named by words no slot used.

"四方科技2019年存货中库存商品的账面余额是多少" names the item 存货; 库存商品 is no item of the catalog, but a
row of the report's 存货分类 table (its vocabulary, fin_qa/vocab.py, indexed at ingest). Such a word
narrows the ask to that row: the company's total (存货) does not answer it. The router then answers from
the row's cells or declines naming the word and where the report prints it — never with the total.

A word the report prints only as a column header (账面余额), a generic label (合计, 其他), or a neutral word
of the question (keyword_tables/cells.yaml neutral_words, value_suffixes) narrows nothing here.
"""
from __future__ import annotations

import re
from collections import OrderedDict
from typing import Callable, NamedTuple

from ..catalog.cells import CellWords
from ..store import Store
from ..store.models import TableRecord
from ..vocab import MAX_CHARS, VocabEntry, label_key
from .tables import SKIP_TABLE

_SPLIT = re.compile(r"#+|[,，、;；?？。:：!！()（）]")
REPORTS_KEPT = 64     # reports whose words are kept in memory (a store's reports are met again and again)
TABLES_KEPT = 4096    # tables a question's words were found in, kept


class NamedRow(NamedTuple):
    word: str          # as the question wrote it (label_key spelling)
    caption: str       # the table's caption or section title
    page: int


class _Table(NamedTuple):
    title: str         # caption or section, as shown
    context: str       # its sections, caption and header, as label_key spells them
    skipped: bool      # a statement (the lookup's) or a 释义 table
    pages: list[int]
    page_start: int


def _table(t: TableRecord) -> _Table:
    return _Table((t.caption or (t.path[-1] if t.path else "")).strip(),
                  label_key(" ".join(t.path[-2:]) + t.caption + "".join(t.header)),
                  any(SKIP_TABLE.search(x) for x in [*t.path[-1:], t.caption]), t.pages, t.page_start)


class ReportWords:
    def __init__(self, store: Store, cells: CellWords):
        self.store = store
        self._plain = frozenset(cells.generic_labels) | frozenset(cells.neutral_words) | \
            frozenset(cells.value_suffixes) | frozenset(cells.ask_words) | frozenset(cells.change_words)
        self._neutral = tuple(sorted(set(cells.neutral_words) | set(cells.value_suffixes) | set(cells.ask_words),
                                     key=len, reverse=True))
        self._reports: OrderedDict[int, tuple[dict[str, list[VocabEntry]], dict[int, _Table]]] = OrderedDict()
        # table id → (the table as the store holds it, what named_row needs of it); least recently used out
        self._tables: OrderedDict[int, tuple[TableRecord, _Table]] = OrderedDict()

    def _report(self, report_id: int) -> tuple[dict[str, list[VocabEntry]], dict[int, _Table]]:
        """A report's whole vocabulary and tables (a store whose words are not indexed: read from its tables)."""
        got = self._reports.get(report_id)
        if got is None:
            tables = {t.id: _table(t) for t in self.store.report_tables(report_id)}
            if not tables:
                return {}, {}   # (imported values only: no table, so no table word; nothing to hold)
            got = self._reports[report_id] = (self.store.vocabulary(report_id), tables)
            if len(self._reports) > REPORTS_KEPT:
                self._reports.popitem(last=False)
        else:
            self._reports.move_to_end(report_id)
        return got

    def _words(self, report_id: int, rest: str) -> tuple[dict[str, list[VocabEntry]], Callable[[int], _Table | None]]:
        """The report's table words among the question's unused runs (every piece named_row may look up),
        and its tables by id: read for these words only, when the store indexes them."""
        pieces = []
        for run in _SPLIT.split(rest):
            run = label_key(run)
            pieces += [run[i:j] for i in range(len(run) - 1) for j in range(i + 2, min(len(run), i + MAX_CHARS) + 1)]
        vocab = self.store.vocabulary_of(report_id, pieces)
        if vocab is None:
            words, tables = self._report(report_id)
            return words, tables.get

        def table(tid: int) -> _Table | None:
            # (the store holds its tables: the same record until the store changes, then a new one)
            found = self.store.report_tables(report_id, [tid])
            if not found:
                return None
            held = self._tables.get(tid)
            if held is not None and held[0] is found[0]:
                self._tables.move_to_end(tid)
                return held[1]
            got = _table(found[0])
            self._tables[tid] = (found[0], got)
            if len(self._tables) > TABLES_KEPT:
                self._tables.popitem(last=False)
            return got
        return vocab, table

    def _narrows(self, word: str) -> bool:
        """Whether a label says something of its own: not a generic or neutral word, nor made of them."""
        if word in self._plain:
            return False
        rest = word
        for w in self._neutral:
            rest = rest.replace(w, "")
        return len(rest) >= 2

    def named_row(self, report_id: int, rest: str, topics: tuple[str, ...]) -> NamedRow | None:
        """The first row label of the report's tables that the unused words of a question hold (`rest`: its
        used characters '#'; the longest label at each place), in a table about what the question asks
        (its sections, caption or header hold one of the `topics`: 存货 over 库存商品, 净利润 over a
        subsidiary's name) — the statements and 释义 tables aside."""
        keys = [k for k in (label_key(x) for x in topics) if len(k) >= 2]
        if not keys or report_id not in self.store.table_index.reports_having("tables"):
            return None   # (a report of imported values only prints no table: no row of one is named)
        vocab, tables = self._words(report_id, rest)
        if not vocab:
            return None
        for run in _SPLIT.split(rest):
            run = label_key(run)
            i = 0
            while i < len(run) - 1:
                hit = None
                for j in range(min(len(run), i + MAX_CHARS), i + 1, -1):
                    w = run[i:j]
                    if w in vocab and self._narrows(w):
                        hit = self._where(w, vocab[w], tables, keys)
                        if hit is not None:
                            return hit
                i += 1
        return None

    @staticmethod
    def _where(word: str, entries: list[VocabEntry], tables: Callable[[int], _Table | None],
               keys: list[str]) -> NamedRow | None:
        for e in entries:
            t = tables(e.table_id)
            if e.kind == "row" and t is not None and not t.skipped and any(k in t.context for k in keys):
                page = t.pages[e.row] if e.row < len(t.pages) else t.page_start
                return NamedRow(word, t.title, page)
        return None
