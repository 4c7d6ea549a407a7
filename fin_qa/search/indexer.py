"""Keeping a search backend in step with the store.

The embedded FTS5 index is written by the store itself, in the same transaction as a report's chunks.
Elasticsearch is fed from the store: `sync()` replaces the chunks of the given reports (all of them by
default) — delete the report's old chunks, bulk-index the new ones in batches.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Iterator

from ..store import Store
from .base import ChunkDoc, SearchBackend


@dataclass
class SyncResult:
    reports: int
    chunks: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.chunks / self.seconds if self.seconds else 0.0


def sync(store: Store, backend: SearchBackend, report_keys: list[str] | None = None, recreate: bool = False,
         on_report: Callable[[str, int], None] | None = None) -> SyncResult:
    """(Re)index the chunks of these reports of the store into the backend, in one bulk stream."""
    t0 = time.perf_counter()
    keys = store.report_keys() if report_keys is None else report_keys
    backend.ensure_index(recreate=recreate)
    if not recreate:
        for i in range(0, len(keys), 500):
            backend.delete(keys[i:i + 500])

    def docs() -> Iterator[ChunkDoc]:
        for key in keys:
            n = 0
            for doc in store.chunk_records([key]):
                n += 1
                yield doc
            if on_report:
                on_report(key, n)

    total = backend.index(docs())
    return SyncResult(len(keys), total, time.perf_counter() - t0)


def sync_notes(store: Store, backend: SearchBackend) -> int:
    """(Re)index every research note's chunks into the backend's notes index (Elasticsearch: `<index>-notes`;
    the embedded FTS5 index is written with the notes): the notes index is rebuilt whole. Returns the chunks."""
    for_notes = getattr(backend, "for_notes", None)
    if for_notes is None:
        return 0
    notes = for_notes()
    notes.ensure_index(recreate=True)
    return int(notes.index(store.notes.records()))
