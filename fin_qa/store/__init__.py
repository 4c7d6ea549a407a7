"""The report store: the SQLite file, its schema and migrations, and every SQL statement of fin-qa.

    from fin_qa.store import Store, Report, ReportMeta, FactRow, DB_NAME

schema.py   the ordered migrations (version, description, SQL) and the version of a store file
models.py   the values written and read (Report, ReportMeta, FactRow, row tuples)
store.py    Store: opening (create / read-only / migrations), writing reports, the FTS5 index, queries
"""
from __future__ import annotations

from .models import (PARENT_STATEMENT_PREFIX, ChunkMatch, ChunkRange, ChunkRecord, ChunkText, FactRow, ItemValue,
                     PageWords, Report, ReportMeta, SectionHead, StoredFact, Word)
from .schema import MIGRATIONS, SCHEMA_VERSION, Migration
from .fts_rank import Postings
from .store import DB_NAME, Store, decode_words, encode_words, readonly_uri, search_rows

__all__ = [
    "DB_NAME", "MIGRATIONS", "PARENT_STATEMENT_PREFIX", "SCHEMA_VERSION", "ChunkMatch", "ChunkRange", "ChunkRecord", "ChunkText", "FactRow",
    "ItemValue", "Migration", "PageWords", "Report", "ReportMeta", "SectionHead", "Store", "StoredFact", "Word",
    "Postings", "decode_words", "encode_words", "readonly_uri", "search_rows",
]
