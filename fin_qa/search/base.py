"""The search protocol every backend implements, and the values that cross it.

A backend indexes chunks (analysed once in Python by fin_qa/bigrams.py, so every backend sees the same
tokens) and answers a SearchQuery under Filters with ranked Hits. Ranking inside a backend is its own
BM25; what the answerer receives is decided by retrieve.py, identically for every backend.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Protocol

from ..base import FinQAError
# the values a backend indexes and returns are the store's own rows (one definition each):
# ChunkDoc — one chunk as a backend indexes it; Hit — a matched chunk with the backend's score, higher is better
from ..store.models import ChunkMatch as Hit
from ..store.models import ChunkRecord as ChunkDoc

__all__ = ["ChunkDoc", "Filters", "Hit", "SearchBackend", "SearchError", "SearchQuery"]


class SearchError(FinQAError):
    """A search backend cannot serve (node unreachable, index missing, index out of date)."""


@dataclass
class SearchQuery:
    text: str                                           # free text: the question without company/year/fillers
    phrases: list[str] = field(default_factory=list)    # keywords, matched as phrases in heading or body
    titles: list[str] = field(default_factory=list)     # section-title aliases, matched as phrases in the heading


@dataclass
class Filters:
    report_keys: list[str] | None = None                # None: the whole index


class SearchBackend(Protocol):
    name: str

    def check(self) -> None:
        """Raise SearchError when the backend cannot answer (node unreachable, index missing)."""

    def ensure_index(self, recreate: bool = False) -> None:
        """Create the index when it does not exist (drop it first with recreate=True)."""

    def delete(self, report_keys: list[str]) -> None:
        """Remove every chunk of these reports."""

    def index(self, chunks: Iterable[ChunkDoc]) -> int:
        """Add or replace these chunks; returns how many were indexed."""

    def search(self, query: SearchQuery, filters: Filters, size: int = 20) -> list[Hit]:
        """The best `size` chunks for the query under the filters, best first."""
