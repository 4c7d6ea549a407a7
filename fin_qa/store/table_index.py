"""The tables of a report, held in memory once read: decoded records and an inverted index of their words.

A question's cells are looked for in its report's tables only (answer/cells.py). SQLite's FTS5 answers
`tables_fts MATCH … AND t.report_id = ?` by reading every matching row of every report, and computes
each phrase's document frequency over the whole store on every query: the cost grows with the store.
Here a report's table words are an inverted index written at ingest (table_words, table_sizes:
fts_rank.report_postings), of which a question reads its own words' rows only, and ranked with FTS5's own
bm25, in its order of operations, with the store's statistics (store/fts_rank.py): the same tables in the
same order, for the cost of the question's words — neither the report's every table nor the store. Only
the tables ranked are then read (and decoded when used). A report ingested before the index existed has
its tables' words read from tables_fts when first asked (until `fin-qa index` indexes them).
"""
from __future__ import annotations

import json
import sqlite3
from functools import lru_cache
from typing import Any, Iterable, Sequence

from .fts_rank import FtsRanker, Phrase, ReportRows, StoredRows, fts_tokens, indexed
from .models import TableRecord

REPORTS_KEPT = 64   # reports whose tables are held (a serving process answers many questions per report)

__all__ = ["TableIndex", "fts_tokens", "stored_path"]


_COLUMNS = "id, report_id, section_id, path, caption, unit, page_start, page_end, header, rows, pages"


class _Report:
    """A report's tables as read: their rows of `tables` read when first asked for (all of them, or some
    by id) and decoded when first used, their words (ReportRows)."""

    def __init__(self, db: sqlite3.Connection, report_id: int, words: ReportRows):
        self.db, self.report_id = db, report_id
        self.words = words
        self.raw: dict[int, tuple] = {}      # table id → its row of `tables`, undecoded
        self.complete = False                # every table of the report read into raw
        self.decoded: dict[int, TableRecord] = {}

    def read(self, ids: Iterable[int] | None = None) -> None:
        """Read the report's tables of these ids (of the report: others are left out), or all of them."""
        if self.complete:
            return
        if ids is None:
            self.raw.update((r[0], r) for r in self.db.execute(f"SELECT {_COLUMNS} FROM tables WHERE report_id=?",
                                                               (self.report_id,)))
            self.complete = True
            return
        missing = [i for i in set(ids) if i not in self.raw]
        for k in range(0, len(missing), 500):
            part = missing[k:k + 500]
            self.raw.update((r[0], r) for r in self.db.execute(
                f"SELECT {_COLUMNS} FROM tables WHERE report_id=? AND id IN ({','.join('?' * len(part))})",
                (self.report_id, *part)))

    def table(self, tid: int) -> TableRecord:
        got = self.decoded.get(tid)
        if got is None:
            r = self.raw[tid]
            got = self.decoded[tid] = TableRecord(r[0], r[1], r[2], stored_path(r[3]), r[4] or "", r[5], r[6], r[7],
                                                  json.loads(r[8]), json.loads(r[9]), json.loads(r[10]))
        return got


class TableIndex:
    def __init__(self, db: sqlite3.Connection):
        self.db = db
        self.ranker = FtsRanker(db, "tables_fts", REPORTS_KEPT)

    def _report(self, report_id: int) -> _Report:
        def load() -> _Report:
            got = self.db.execute("SELECT first, buckets, sizes FROM table_sizes WHERE report_id=?",
                                  (report_id,)).fetchone() if indexed(self.ranker, "table_sizes") else None
            if got is not None:   # its words indexed at ingest: the question's words read, not every table
                return _Report(self.db, report_id, StoredRows(self.db, "table_words", report_id, *got))
            rep = _Report(self.db, report_id, ReportRows([]))
            rep.read()   # (ingested before table_words: every table's words read from tables_fts)
            if rep.raw:
                rep.words = ReportRows(r for r in self.db.execute(
                    "SELECT rowid, heading, body FROM tables_fts WHERE rowid BETWEEN ? AND ?",
                    (min(rep.raw), max(rep.raw))) if r[0] in rep.raw)
            return rep

        if report_id not in self.reports_having("tables"):
            empty = _Report(self.db, report_id, ReportRows([]))   # (imported values: empty, nothing shared)
            empty.complete = True
            return empty
        return self.ranker.held(report_id, load)

    def reports_having(self, table: str) -> frozenset[int]:
        """The ids of the reports with rows in `table` (tables, chunks: an ingested document, not only
        imported values; vocab: the store indexes its table words), as of now: read once while the store stays the same (one probe of the table's
        report index a report: about 1 ms for 11,588 reports), so that a question of a report without
        any asks no query of them."""
        self.ranker.fresh()
        known: dict[str, frozenset[int]] = self.ranker.cache("reports_having", dict)
        got = known.get(table)
        if got is None:
            got = known[table] = frozenset(r[0] for r in self.db.execute(
                f"SELECT r.id FROM reports r WHERE EXISTS (SELECT 1 FROM {table} x WHERE x.report_id = r.id)"))
        return got

    def documented(self) -> frozenset[int]:
        """The ids of the reports read from a document — tables or sections (chunks) in the store, not only
        imported values — as of now (read once while the store stays the same)."""
        tables, chunks = self.reports_having("tables"), self.reports_having("chunks")   # (as of now: fresh)
        known: dict[str, frozenset[int]] = self.ranker.cache("documented", dict)
        got = known.get("ids")
        if got is None:
            got = known["ids"] = tables | chunks
        return got

    # --------------------------------------------------------------------------- reads

    def tables(self, report_id: int, ids: Iterable[int] | None = None) -> list[TableRecord]:
        """The report's tables (these ids only, when given), in reading order (shared: never changed)."""
        rep = self._report(report_id)
        rep.read(ids)
        wanted = sorted(rep.raw) if ids is None else sorted(i for i in set(ids) if i in rep.raw)
        return [rep.table(i) for i in wanted]

    def match(self, words: Sequence[str], report_id: int, size: int, heading_weight: float = 2.0) -> list[int]:
        """The ids of the report's best `size` tables for any of the words (each a phrase, as FTS5 reads
        `"w1" OR "w2" …`), best first: FTS5's bm25 with the heading weighted."""
        phrases = [Phrase(tuple(fts_tokens(w))) for w in words]
        return self.ranker.steady(lambda: [tid for _, tid in self.ranker.rank(self._report(report_id).words, phrases,
                                                                              size, heading_weight)])


def stored_path(text: str | None) -> list[str]:
    """A heading path as stored (a JSON list) → the list (a list of its own: the caller may change it)."""
    if not text:
        return []
    got = _decoded_path(text)
    # (a list is held as a tuple, each caller given its own list; anything else — never stored — decoded anew,
    # as it always was, so that no caller is handed an object the cache holds)
    return list(got) if isinstance(got, tuple) else json.loads(text)


@lru_cache(maxsize=8192)
def _decoded_path(text: str) -> Any:
    # (a report's chunks share a few hundred paths: each decoded once; a list kept as a tuple)
    got = json.loads(text)
    return tuple(got) if isinstance(got, list) else got
