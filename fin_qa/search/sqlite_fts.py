"""The embedded backend: SQLite FTS5 inside the store (chunks_fts: heading, body), BM25 with column weights.

The store writes a report's chunks and their FTS rows in the same transaction as its facts, so this
index is never behind the store. A report's chunks are written together and get consecutive ids: the
report filter is a rowid range, which FTS5 seeks to instead of scanning every matching chunk of the
corpus (measured: 3 ms instead of 34 ms median over 200 reports; scripts/bench_search.py).
"""
from __future__ import annotations

import json
from typing import Iterable

from ..store import Store
from .base import ChunkDoc, Filters, Hit, SearchQuery
from .tokenize import analyze, tokens


def _phrase(toks: list[str]) -> str:
    return '"' + " ".join(toks) + '"'


def match_expression(query: SearchQuery) -> str | None:
    """The FTS5 MATCH string: text tokens OR keyword phrases OR heading:title phrases (None: nothing to match)."""
    parts = [_phrase([t]) for t in dict.fromkeys(tokens(query.text))]
    for p in query.phrases:
        toks = tokens(p)
        if toks:
            parts.append(_phrase(toks))
    for t in query.titles:
        toks = tokens(t)
        if toks:
            parts.append("heading : " + _phrase(toks))
    return " OR ".join(dict.fromkeys(parts)) or None


class SqliteFtsBackend:
    name = "sqlite"

    def __init__(self, store: Store, heading_weight: float = 4.0):
        self.store = store
        self.db = store.db
        self.heading_weight = float(heading_weight)

    def check(self) -> None:
        """The FTS5 table is part of the store's schema: nothing can be missing."""

    def ensure_index(self, recreate: bool = False) -> None:
        if recreate:
            self.store.reset_search()

    def delete(self, report_keys: list[str]) -> None:
        for key in report_keys:
            self.db.execute("DELETE FROM chunks_fts WHERE rowid IN (SELECT c.id FROM chunks c JOIN reports r"
                            " ON r.id = c.report_id WHERE r.key=?)", (key,))

    def index(self, chunks: Iterable[ChunkDoc]) -> int:
        n = 0
        self.db.execute("BEGIN IMMEDIATE")
        try:
            for c in chunks:
                self.db.execute("DELETE FROM chunks_fts WHERE rowid=?", (c.chunk_id,))
                self.db.execute("INSERT INTO chunks_fts(rowid, heading, body) VALUES(?,?,?)",
                                (c.chunk_id, analyze(" ".join(c.path)), analyze(c.text)))
                n += 1
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.store.optimize_search()
        return n

    def _ranges(self, keys: list[str]) -> list[tuple[int, int, int]]:
        """(report id, first chunk id, last chunk id) for each report key the store has."""
        out = []
        for key in keys:
            row = self.db.execute(
                "SELECT r.id, MIN(c.id), MAX(c.id), COUNT(c.id) FROM reports r JOIN chunks c ON c.report_id=r.id"
                " WHERE r.key=?", (key,)).fetchone()
            if row and row[0] is not None and row[3]:
                out.append(row[:3])
        return out

    def search(self, query: SearchQuery, filters: Filters, size: int = 20) -> list[Hit]:
        expr = match_expression(query)
        if expr is None:
            return []
        sql = ("SELECT c.id, r.key, c.section_id, c.path, c.text, c.page_start, c.page_end, -bm25(chunks_fts, ?, 1.0) AS s"
               " FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN reports r ON r.id = c.report_id"
               " WHERE chunks_fts MATCH ?")
        rows = []
        if filters.report_keys is None:
            rows = self.db.execute(sql + " ORDER BY s DESC LIMIT ?", (self.heading_weight, expr, size)).fetchall()
        else:
            for rid, lo, hi in self._ranges(filters.report_keys):
                # the rowid range lets FTS5 seek; the report_id test keeps it right if ids ever interleave
                rows += self.db.execute(
                    sql + " AND chunks_fts.rowid BETWEEN ? AND ? AND c.report_id = ? ORDER BY s DESC LIMIT ?",
                    (self.heading_weight, expr, lo, hi, rid, size)).fetchall()
            rows.sort(key=lambda r: -r[7])
            rows = rows[:size]
        return [Hit(r[0], r[1], r[2], json.loads(r[3]) if r[3] else [], r[4], r[5], r[6], float(r[7])) for r in rows]
