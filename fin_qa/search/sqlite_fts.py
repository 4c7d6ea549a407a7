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
from ..store.fts_rank import HEADING, Phrase, fts_tokens


def _phrase(toks: list[str]) -> str:
    return '"' + " ".join(toks) + '"'


def _parts(query: SearchQuery) -> dict[str, Phrase]:
    """The phrases OR'ed, in order, each once: text tokens, keyword phrases, heading:title phrases — as the
    MATCH string writes them → as FTS5 reads them (its tokens, and the column it is limited to)."""
    parts: dict[str, Phrase] = {}
    for t in dict.fromkeys(tokens(query.text)):
        parts.setdefault(_phrase([t]), Phrase(tuple(fts_tokens(t))))
    for p in query.phrases:
        toks = tokens(p)
        if toks:
            parts.setdefault(_phrase(toks), Phrase(tuple(fts_tokens(" ".join(toks)))))
    for t in query.titles:
        toks = tokens(t)
        if toks:
            parts.setdefault("heading : " + _phrase(toks), Phrase(tuple(fts_tokens(" ".join(toks))), HEADING))
    return parts


def match_expression(query: SearchQuery) -> str | None:
    """The FTS5 MATCH string: text tokens OR keyword phrases OR heading:title phrases (None: nothing to match)."""
    return " OR ".join(_parts(query)) or None


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
        parts = _parts(query)
        if not parts:
            return []
        if filters.report_keys is None:
            rows = self.store.fts_match(" OR ".join(parts), self.heading_weight, size)
        else:
            # each report's chunks (from its k-th search on: ranked from its own, held — FTS5's bm25
            # without its pass over every report's postings; Store.chunk_match)
            rows = []
            for key in filters.report_keys:
                within = self.store.chunk_range(key)
                if within is not None:
                    rows += self.store.chunk_match(parts, self.heading_weight, size, within)
            rows.sort(key=lambda r: -r.score)
            rows = rows[:size]
        return rows
