"""The text chunks of a report ranked for a search with FTS5's own bm25 (store/fts_rank.py), from the report's
words indexed at ingest (chunk_words: StoredRows) — the cost of the search's own words, whatever the store's
size. A report ingested before they were (until `fin-qa index` indexes it) is searched as follows: its
chunks held in memory once searched often enough, an inverted index of their words.

FTS5 answers `chunks_fts MATCH … AND rowid BETWEEN …` by seeking the report's chunks, but its bm25 counts
each phrase's documents over the whole store on every query: measured, a text question took 2.3 ms at 10
reports and 4.9 ms at 1,000. Ranked here, a search costs the report's chunks and the question's phrases;
each phrase's count over the store is read once per connection (while the store stays the same) from
FTS5's vocabulary tables — a phrase of several tokens by a count of its MATCH, which does pass over the
store, once. The same chunks come back in the same order with the same scores as the SQL
(tests/test_scale.py compares queries on the sample and every shared report).

Holding a report's chunks costs memory (about 8 MB for 800 chunks) and time (about 25 ms to read and
index them, ~0.03 ms a chunk), and pays back FTS5's pass over the store on every later search (measured:
about 2.6 ms a search at 800,000 chunks, ~3.3 µs per 1,000 chunks of the store). So a report's chunks are
held from the search where they have paid back on:

    k = max(2, ceil(HOLD × report's chunks / store's chunks)),   HOLD = 10,000

At 1,000 reports (800,000 chunks) that is a report's 10th search; at 10,000 reports, its 2nd; at 12
reports, its 800th (a small store keeps FTS5's query, which is cheap there). Either way the same chunks
come back in the same order with the same scores. The 16 reports last held are kept per connection, and
dropped when the store changes.

A search of a report not (yet) held is ranked here from the report's rows it matches (fts_rank.MatchedRows)
when reading them costs less than FTS5's query would (FTS_PER_CHUNK, FTS_PER_DOC, PER_SEARCH, PER_ROW
below): never in a store of 10 reports unless a search's phrases are held by some 30,000 of its rows; in one
of 1,000 reports for a search matching up to about 100–250 of the report's chunks. The same chunks, order
and scores as FTS5's query.
"""
from __future__ import annotations

import math
import sqlite3
from collections import OrderedDict

from .fts_rank import FtsRanker, MatchedRows, Phrase, ReportRows, StoredRows, indexed

REPORTS_KEPT = 16
STORED_KEPT = 64   # reports whose indexed words (their chunks' sizes, the tokens read) are kept
SEARCHES_COUNTED = 4096   # reports whose searches are counted (the least recently searched forgotten)
HOLD = 10_000
# what a search costs, measured here at 1,000 reports (800,000 chunks) and 10 (8,000): FTS5's query
# about 3.4 µs per 1,000 chunks of the store plus 16 ns per row of the store holding one of its phrases
# (bm25's pass over each phrase's rows); ranking the report's own matched rows here about 450 µs (their
# ids found, the best chunks read) plus 35 µs a row (its text read and counted for the question's tokens;
# a straight-line fit over 45 searches of 9 to 171 rows). Only the ratios decide, so the rule does not
# depend on the machine's speed.
FTS_PER_CHUNK = 3.4e-3     # µs per chunk of the store
FTS_PER_DOC = 16e-3        # µs per store row holding a phrase
PER_SEARCH = 450.0         # µs a search ranked from its matched rows, whatever their number
PER_ROW = 35.0             # µs per matched row of the report


class ChunkIndex:
    def __init__(self, db: sqlite3.Connection):
        self.db = db
        self.ranker = FtsRanker(db, "chunks_fts", REPORTS_KEPT)

    def _stored(self, report_id: int) -> StoredRows | None:
        """The report's chunk words as indexed at ingest (None: a report ingested before they were), the
        STORED_KEPT reports last searched kept (what they read of their words with them)."""
        if not indexed(self.ranker, "chunk_sizes"):
            return None
        kept: OrderedDict[int, StoredRows | None] = self.ranker.cache("stored", OrderedDict)
        if report_id in kept:
            kept.move_to_end(report_id)
            return kept[report_id]
        got = self.db.execute("SELECT first, buckets, sizes FROM chunk_sizes WHERE report_id=?", (report_id,)).fetchone()
        rows = kept[report_id] = StoredRows(self.db, "chunk_words", report_id, *got) if got else None
        if len(kept) > STORED_KEPT:
            kept.popitem(last=False)
        return rows

    def match(self, phrases: list[Phrase], expression: str, report_id: int, first: int, last: int, size: int,
              heading_weight: float) -> list[tuple[float, int]] | None:
        """The report's best `size` chunks (its chunk ids run from `first` to `last`) for any of the phrases
        (`expression`: their MATCH string): (score, chunk id), best first, the score FTS5's -bm25; None for a
        report ingested before its words were indexed, while it is not held and the store is small (FTS5's
        query answers it: see above)."""
        return self.ranker.steady(lambda: self._match(phrases, expression, report_id, first, last, size,
                                                      heading_weight))

    def _match(self, phrases: list[Phrase], expression: str, report_id: int, first: int, last: int, size: int,
               heading_weight: float) -> list[tuple[float, int]] | None:
        stored = self._stored(report_id)
        if stored is not None:
            return self.ranker.rank(stored, phrases, size, heading_weight)
        if report_id not in self.ranker.reports:
            # report id → its searches not ranked here (the least recently searched forgotten)
            searched: OrderedDict[int, int] = self.ranker.cache("searched", OrderedDict)
            n = searched.pop(report_id, 0) + 1
            if n < self.searches_to_hold(last - first + 1):
                searched[report_id] = n
                if len(searched) > SEARCHES_COUNTED:
                    searched.popitem(last=False)
                return self._matched(phrases, expression, report_id, first, last, size, heading_weight)

        def load() -> ReportRows:
            return ReportRows(self.db.execute(
                "SELECT f.rowid, f.heading, f.body FROM chunks_fts f JOIN chunks c ON c.id = f.rowid"
                " WHERE f.rowid BETWEEN ? AND ? AND c.report_id = ? ORDER BY f.rowid", (first, last, report_id)))

        return self.ranker.rank(self.ranker.held(report_id, load), phrases, size, heading_weight)

    def _matched(self, phrases: list[Phrase], expression: str, report_id: int, first: int, last: int, size: int,
                 heading_weight: float) -> list[tuple[float, int]] | None:
        """A search of a report not held: ranked here from the report's rows the expression matches when
        reading them costs less than FTS5's query would (its pass over the store: see the costs above),
        else None (FTS5's query). The same chunks, order and scores either way. (The phrases' counts over
        the store that the estimate needs are those the ranking needs: read once per phrase while the store
        stays the same.)"""
        fts = FTS_PER_CHUNK * self.ranker.store_totals()[0] + \
            FTS_PER_DOC * sum(self.ranker.documents_with(p) for p in phrases if p.tokens)
        most = int((fts - PER_SEARCH) / PER_ROW)   # the matched rows worth reading
        if most < 1:
            return None
        ids = [r[0] for r in self.db.execute(
            "SELECT f.rowid FROM chunks_fts f JOIN chunks c ON c.id = f.rowid"
            " WHERE chunks_fts MATCH ? AND f.rowid BETWEEN ? AND ? AND c.report_id = ? ORDER BY f.rowid LIMIT ?",
            (expression, first, last, report_id, most + 1))]
        if len(ids) > most:
            return None   # (their ids alone read: a few of the query's cost)
        found = [row for k in range(0, len(ids), 500) for row in self.db.execute(
            f"SELECT rowid, heading, body FROM chunks_fts WHERE rowid IN ({','.join('?' * len(ids[k:k + 500]))})"
            " ORDER BY rowid", ids[k:k + 500])]   # (500 at a time: an old SQLite takes at most 999 parameters)
        rows = MatchedRows(found, {tok for p in phrases for tok in p.tokens},
                           keep_texts=any(len(p.tokens) > 1 for p in phrases))
        return self.ranker.rank(rows, phrases, size, heading_weight)

    def searches_to_hold(self, report_chunks: int) -> int:
        """The search of a report of this many chunks from which its chunks are held (see above)."""
        store_chunks = self.ranker.store_totals()[0]
        return max(2, math.ceil(HOLD * report_chunks / store_chunks)) if store_chunks else 2
