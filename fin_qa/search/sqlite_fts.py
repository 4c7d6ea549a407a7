"""The embedded backend: SQLite FTS5 inside the store (chunks_fts: heading, body), BM25 with column weights.

The store writes a report's chunks and their FTS rows in the same transaction as its facts, so this
index is never behind the store. A report's chunks are written together and get consecutive ids: the
report filter is a rowid range, which FTS5 seeks to instead of scanning every matching chunk of the
corpus (measured: 3 ms instead of 34 ms median over 200 reports; scripts/bench_search.py).
This module builds the MATCH expression; the SQL (writing chunks_fts, the MATCH query with BM25, a
report's chunk-id range) is the store's: Store.fts_index / fts_delete_reports / fts_match / chunk_range.
"""
from __future__ import annotations

from typing import Iterable

from ..store import Store
from .base import ChunkDoc, Filters, Hit, SearchQuery
from ..bigrams import tokens


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
    """Search through the store's FTS5 methods (the store writes and queries chunks_fts; no SQL here)."""

    name = "sqlite"

    def __init__(self, store: Store, heading_weight: float = 4.0) -> None:
        self.store = store
        self.heading_weight = float(heading_weight)

    def check(self) -> None:
        """The FTS5 table is part of the store's schema: nothing can be missing."""

    def ensure_index(self, recreate: bool = False) -> None:
        if recreate:
            self.store.reset_search()

    def delete(self, report_keys: list[str]) -> None:
        self.store.fts_delete_reports(report_keys)

    def index(self, chunks: Iterable[ChunkDoc]) -> int:
        n = self.store.fts_index((c.chunk_id, c.path, c.text) for c in chunks)
        self.store.optimize_search()
        return n

    def search(self, query: SearchQuery, filters: Filters, size: int = 20) -> list[Hit]:
        expr = match_expression(query)
        if expr is None:
            return []
        if filters.report_keys is None:
            rows = self.store.fts_match(expr, self.heading_weight, size)
        else:
            rows = []
            for key in filters.report_keys:
                within = self.store.chunk_range(key)
                if within is not None:
                    rows += self.store.fts_match(expr, self.heading_weight, size, within)
            rows.sort(key=lambda r: -r.score)
            rows = rows[:size]
        return rows
