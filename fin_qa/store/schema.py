"""The store's schema as an ordered list of migrations, and the version of a store file.

A new store applies every migration in order; an existing store applies the ones above its
`schema_version` (kept in the meta table) and bumps it, in one transaction. A store whose version is
higher than the last migration was written by a newer fin-qa and is refused.

Version 1 is the schema of the first stores (the `sections_parent` index was later added ad hoc on
open; it is migration 2). Add a migration at the end, never edit one that has shipped.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass


@dataclass(frozen=True)
class Migration:
    version: int        # the schema version a store has once this migration is applied
    description: str    # one line, shown when a read-only store still needs it
    sql: str            # statements separated by ';' (no transaction control: the caller holds one)
    needed_to_read: bool = True   # False: reading works without it (an index), only slower

    def statements(self) -> list[str]:
        """The SQL split into complete statements (a ';' inside a string or comment does not split)."""
        out: list[str] = []
        buf = ""
        for piece in self.sql.split(";"):
            buf += piece + ";"
            if sqlite3.complete_statement(buf):
                if buf.strip(" \t\r\n;"):
                    out.append(buf.strip())
                buf = ""
        if buf.strip(" \t\r\n;"):
            out.append(buf.strip())
        return out


FTS_TABLE = "CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(heading, body, tokenize = 'unicode61')"

TABLES_FTS = "CREATE VIRTUAL TABLE IF NOT EXISTS tables_fts USING fts5(heading, body, tokenize = 'unicode61')"
TABLES_SQL = """
CREATE TABLE IF NOT EXISTS tables(
    id INTEGER PRIMARY KEY, report_id INTEGER NOT NULL REFERENCES reports(id),
    section_id INTEGER REFERENCES sections(id), path TEXT, caption TEXT, unit TEXT,
    page_start INTEGER, page_end INTEGER, header TEXT, rows TEXT, pages TEXT
);
CREATE INDEX IF NOT EXISTS tables_report ON tables(report_id);
""" + TABLES_FTS + ";"

# a PDF page's size as displayed (points) and its words with their boxes (store.encode_words)
PAGE_WORDS_SQL = """
CREATE TABLE IF NOT EXISTS page_words(
    report_id INTEGER NOT NULL REFERENCES reports(id), page INTEGER NOT NULL,
    width REAL NOT NULL, height REAL NOT NULL, words BLOB NOT NULL, PRIMARY KEY(report_id, page)
);
"""

# the report's own vocabulary (fin_qa/vocab.py): each text cell of its tables, as label_key spells it
VOCAB_SQL = """
CREATE TABLE IF NOT EXISTS vocab(
    report_id INTEGER NOT NULL REFERENCES reports(id), word TEXT NOT NULL, table_id INTEGER NOT NULL,
    row INTEGER NOT NULL, col INTEGER NOT NULL, kind TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS vocab_report ON vocab(report_id, word);
"""

def words_sql(kind: str) -> str:
    """The words of a report's rows of an FTS5 table ({kind}s_fts: tables_fts, chunks_fts) as an inverted
    index (store/fts_rank.py: report_postings, StoredRows): the report's tokens in buckets of about 64
    (crc32), each bucket a blob of its tokens' rows (their rowid less the report's first, the token's
    instances in the heading and the body), its id the report's id × 2^20 + the bucket (a rowid table: a
    blob of a few KB stays on its page, where an index's cell of over ~1 KB spills); each row's token
    count, and how many buckets."""
    return f"""
CREATE TABLE IF NOT EXISTS {kind}_words(id INTEGER PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS {kind}_sizes(
    report_id INTEGER PRIMARY KEY REFERENCES reports(id), first INTEGER NOT NULL, buckets INTEGER NOT NULL,
    sizes BLOB NOT NULL
);
"""


NOTES_FTS = "CREATE VIRTUAL TABLE IF NOT EXISTS notes_fts USING fts5(heading, body, tokenize = 'unicode61')"
NOTES_SQL = """
CREATE TABLE IF NOT EXISTS notes(
    id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, sha256 TEXT NOT NULL, parser INTEGER NOT NULL,
    kind TEXT NOT NULL, title TEXT NOT NULL, broker TEXT, publish_date TEXT, stock_code TEXT, stock_name TEXT,
    industry TEXT, rating TEXT, pages INTEGER, info TEXT, ingested_at TEXT DEFAULT (datetime('now'))
);
CREATE INDEX IF NOT EXISTS notes_sha ON notes(sha256);
CREATE TABLE IF NOT EXISTS note_chunks(
    id INTEGER PRIMARY KEY, note_id INTEGER NOT NULL REFERENCES notes(id), path TEXT, text TEXT, page INTEGER
);
CREATE INDEX IF NOT EXISTS note_chunks_note ON note_chunks(note_id);
CREATE TABLE IF NOT EXISTS note_figures(note_id INTEGER NOT NULL REFERENCES notes(id), page INTEGER, title TEXT);
""" + NOTES_FTS + ";"

WORDS_SQL = words_sql("table") + words_sql("chunk")   # table_words, table_sizes, chunk_words, chunk_sizes

_V1 = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS reports(
    id INTEGER PRIMARY KEY,
    key TEXT UNIQUE NOT NULL,          -- stock_code:year (or name:…:year when the code is unknown)
    stock_code TEXT, year INTEGER NOT NULL,
    full_name TEXT, short_name TEXT, publish_date TEXT
);
CREATE TABLE IF NOT EXISTS files(
    path TEXT PRIMARY KEY, sha256 TEXT NOT NULL, report_id INTEGER NOT NULL REFERENCES reports(id),
    kind TEXT NOT NULL, pages INTEGER, ingested_at TEXT DEFAULT (datetime('now')), warnings TEXT
);
CREATE INDEX IF NOT EXISTS files_sha ON files(sha256);
CREATE TABLE IF NOT EXISTS facts(
    id INTEGER PRIMARY KEY,
    report_id INTEGER NOT NULL REFERENCES reports(id),
    item TEXT NOT NULL, value TEXT NOT NULL, num REAL, unit TEXT,
    period TEXT NOT NULL DEFAULT 'current', statement TEXT, page INTEGER,
    source TEXT NOT NULL, raw_label TEXT
);
CREATE INDEX IF NOT EXISTS facts_report ON facts(report_id, item);
CREATE INDEX IF NOT EXISTS facts_item ON facts(item, period);
CREATE TABLE IF NOT EXISTS sections(
    id INTEGER PRIMARY KEY, report_id INTEGER NOT NULL REFERENCES reports(id),
    parent_id INTEGER, level INTEGER, title TEXT, path TEXT, page_start INTEGER, page_end INTEGER, text TEXT
);
CREATE INDEX IF NOT EXISTS sections_report ON sections(report_id);
CREATE TABLE IF NOT EXISTS chunks(
    id INTEGER PRIMARY KEY, report_id INTEGER NOT NULL REFERENCES reports(id),
    section_id INTEGER REFERENCES sections(id), path TEXT, text TEXT, page_start INTEGER, page_end INTEGER
);
CREATE INDEX IF NOT EXISTS chunks_report ON chunks(report_id);
""" + FTS_TABLE + ";"

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "reports, files, facts, sections, chunks and the chunks_fts search index", _V1),
    Migration(2, "index sections(parent_id): sub-section lookups for parent-section retrieval",
              "CREATE INDEX IF NOT EXISTS sections_parent ON sections(parent_id);", needed_to_read=False),
    Migration(3, "files.parser: the parser version a file was read with (a newer one reads it again)",
              "ALTER TABLE files ADD COLUMN parser INTEGER NOT NULL DEFAULT 0;", needed_to_read=False),
    Migration(4, "tables: every table of a report (caption, unit, header, rows, pages) and its tables_fts index",
              TABLES_SQL, needed_to_read=False),
    Migration(5, "page_words: the word boxes of every PDF page (the cited value boxed on the page image)",
              PAGE_WORDS_SQL, needed_to_read=False),
    Migration(6, "vocab: the words of every table of a report (row labels, names, headers), by report",
              VOCAB_SQL, needed_to_read=False),
    Migration(7, "table_words, chunk_words: each report's table and text words indexed, so a question reads the "
              "rows of its own words only (`fin-qa index` fills them for reports ingested before)",
              WORDS_SQL, needed_to_read=False),
    Migration(8, "reports.period and reports.kind: a filing is (company, period, kind) — Q1 | HY | Q3 | FY, report "
              "or summary (issue 44); every report stored before is an annual report",
              "ALTER TABLE reports ADD COLUMN period TEXT NOT NULL DEFAULT 'FY';"
              "ALTER TABLE reports ADD COLUMN kind TEXT NOT NULL DEFAULT 'report';", needed_to_read=False),
    Migration(9, "notes, note_chunks, note_figures and the notes_fts search index: research notes (个股研报, 行业研报), "
              "a second kind of document (issue 46)", NOTES_SQL, needed_to_read=False),
)
SCHEMA_VERSION = MIGRATIONS[-1].version


# the tables a store may hold before its version is written (a creation stopped short: the DDL is idempotent) —
# version 1's (chunks_fts with its FTS5 shadow tables) and those later migrations add
_V1_TABLES = {"meta", "reports", "files", "facts", "sections", "chunks", "chunks_fts", "chunks_fts_data",
              "chunks_fts_idx", "chunks_fts_content", "chunks_fts_docsize", "chunks_fts_config",
              "tables", "tables_fts", "tables_fts_data", "tables_fts_idx", "tables_fts_content",
              "tables_fts_docsize", "tables_fts_config", "page_words", "vocab", "table_words", "table_sizes", "chunk_words",
              "chunk_sizes", "notes", "note_chunks", "note_figures", "notes_fts", "notes_fts_data", "notes_fts_idx",
              "notes_fts_content", "notes_fts_docsize", "notes_fts_config"}


class NotAStore(Exception):
    """The database is SQLite but holds no fin-qa schema (the reason is the message)."""


def stored_version(db: sqlite3.Connection) -> int:
    """The schema version of an open store: 0 for an empty database (nothing created yet).

    Raises NotAStore for a database with tables but no fin-qa meta table or version, and lets
    sqlite3.DatabaseError through for a file that is not SQLite at all."""
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "meta" not in tables:
        if tables:
            raise NotAStore("it has no fin-qa meta table")
        return 0
    row = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    if row is None:
        if tables <= _V1_TABLES:
            return 0  # a store whose creation stopped before its version was written (the DDL is idempotent)
        raise NotAStore("its meta table has no schema_version")
    try:
        version = int(row[0])
    except (TypeError, ValueError):
        raise NotAStore(f"its schema_version is {row[0]!r}") from None
    if version < 1:
        raise NotAStore(f"its schema_version is {row[0]!r}")
    return version


def pending(version: int) -> list[Migration]:
    """The migrations a store at this version still needs, in order."""
    return [m for m in MIGRATIONS if m.version > version]
