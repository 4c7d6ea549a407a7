"""The report store: one SQLite file holding reports, facts, sections, chunks and their FTS5 index.

Every report is written in one transaction: a crash in the middle leaves no half report.
Amounts are kept as exact decimal strings (`value`) and as floats (`num`) for sorting and ranking.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from . import FinQAError
from .search.tokenize import analyze

SCHEMA_VERSION = 1
DB_NAME = "fin_qa.sqlite"

_SCHEMA = """
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
CREATE INDEX IF NOT EXISTS sections_parent ON sections(parent_id);
CREATE TABLE IF NOT EXISTS chunks(
    id INTEGER PRIMARY KEY, report_id INTEGER NOT NULL REFERENCES reports(id),
    section_id INTEGER REFERENCES sections(id), path TEXT, text TEXT, page_start INTEGER, page_end INTEGER
);
CREATE INDEX IF NOT EXISTS chunks_report ON chunks(report_id);
"""
_FTS = "CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(heading, body, tokenize = 'unicode61')"


def _report_filter(company: str | None, year: int | None) -> tuple[str, list]:
    """SQL conditions on reports r: a company (code, short or full name, or part of one) and a year."""
    q, args = "", []
    if company:
        q += " AND (r.stock_code=? OR r.short_name=? OR r.full_name=? OR r.full_name LIKE ? OR r.short_name LIKE ?)"
        args += [company, company, company, f"%{company}%", f"%{company}%"]
    if year:
        q += " AND r.year=?"
        args.append(int(year))
    return q, args


@dataclass
class ReportMeta:
    stock_code: str | None
    year: int
    full_name: str | None = None
    short_name: str | None = None
    publish_date: str | None = None

    @property
    def key(self) -> str:
        if self.stock_code:
            return f"{self.stock_code}:{self.year}"
        return f"name:{self.full_name or self.short_name}:{self.year}"


@dataclass
class FactRow:
    item: str
    value: str
    num: float | None
    unit: str | None
    period: str
    statement: str | None
    page: int | None
    source: str
    raw_label: str | None = None


class Store:
    def __init__(self, directory: str | Path, create: bool = True):
        self.dir = Path(directory)
        path = self.dir / DB_NAME
        if not path.exists() and not create:
            raise FinQAError(f"no fin-qa store at {self.dir} (run `fin-qa ingest` or `fin-qa import-tables` first)")
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(path, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise FinQAError(f"cannot open store {path}: {exc}") from None
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        try:
            version = self.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        except sqlite3.OperationalError:
            version = None
        except sqlite3.DatabaseError as exc:
            raise FinQAError(f"{path} is not a fin-qa store: {exc}") from None
        if version is None:
            self.db.executescript(_SCHEMA)
            self.db.execute(_FTS)
            self.db.execute("INSERT OR REPLACE INTO meta VALUES('schema_version', ?)", (str(SCHEMA_VERSION),))
        elif int(version[0]) == SCHEMA_VERSION:
            # added after the first stores were made: a sub-section lookup for parent-section retrieval
            self.db.execute("CREATE INDEX IF NOT EXISTS sections_parent ON sections(parent_id)")
        elif int(version[0]) != SCHEMA_VERSION:
            raise FinQAError(
                f"store {path} has schema version {version[0]}, this fin-qa needs {SCHEMA_VERSION}: "
                "re-create it (ingest again into a new --store)"
            )

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------------------------ reports

    def _upsert_report(self, meta: ReportMeta) -> int:
        row = self.db.execute("SELECT id, full_name, short_name, publish_date FROM reports WHERE key=?", (meta.key,)).fetchone()
        if row is None:
            cur = self.db.execute(
                "INSERT INTO reports(key, stock_code, year, full_name, short_name, publish_date) VALUES(?,?,?,?,?,?)",
                (meta.key, meta.stock_code, meta.year, meta.full_name, meta.short_name, meta.publish_date),
            )
            return cur.lastrowid
        rid, full, short, date = row
        self.db.execute(
            "UPDATE reports SET full_name=?, short_name=?, publish_date=? WHERE id=?",
            (meta.full_name or full, meta.short_name or short, meta.publish_date or date, rid),
        )
        return rid

    def file_by_hash(self, sha256: str) -> str | None:
        row = self.db.execute("SELECT path FROM files WHERE sha256=?", (sha256,)).fetchone()
        return row[0] if row else None

    def write_document(
        self,
        meta: ReportMeta,
        path: str,
        sha256: str,
        kind: str,
        pages: int,
        facts: Iterable[FactRow],
        sections: list[dict],
        chunks: list[dict],
        warnings: list[str],
    ) -> int:
        """Replace everything a document contributed to its report, in one transaction."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            rid = self._upsert_report(meta)
            old = [r[0] for r in db.execute("SELECT id FROM chunks WHERE report_id=?", (rid,))]
            db.executemany("DELETE FROM chunks_fts WHERE rowid=?", [(i,) for i in old])
            db.execute("DELETE FROM chunks WHERE report_id=?", (rid,))
            db.execute("DELETE FROM sections WHERE report_id=?", (rid,))
            db.execute("DELETE FROM facts WHERE report_id=? AND source IN ('pdf','txt')", (rid,))
            db.execute("DELETE FROM files WHERE path=? OR report_id=?", (path, rid))
            db.executemany(
                "INSERT INTO facts(report_id,item,value,num,unit,period,statement,page,source,raw_label)"
                " VALUES(?,?,?,?,?,?,?,?,?,?)",
                [(rid, f.item, f.value, f.num, f.unit, f.period, f.statement, f.page, f.source, f.raw_label) for f in facts],
            )
            sid_map: dict[int, int] = {}
            for s in sections:
                cur = db.execute(
                    "INSERT INTO sections(report_id,parent_id,level,title,path,page_start,page_end,text)"
                    " VALUES(?,?,?,?,?,?,?,?)",
                    (rid, sid_map.get(s["parent"]), s["level"], s["title"], json.dumps(s["path"], ensure_ascii=False),
                     s["page_start"], s["page_end"], s["text"]),
                )
                sid_map[s["sid"]] = cur.lastrowid
            for c in chunks:
                cur = db.execute(
                    "INSERT INTO chunks(report_id,section_id,path,text,page_start,page_end) VALUES(?,?,?,?,?,?)",
                    (rid, sid_map.get(c["section"]), json.dumps(c["path"], ensure_ascii=False), c["text"],
                     c["page_start"], c["page_end"]),
                )
                db.execute(
                    "INSERT INTO chunks_fts(rowid, heading, body) VALUES(?,?,?)",
                    (cur.lastrowid, analyze(" ".join(c["path"])), analyze(c["text"])),
                )
            db.execute(
                "INSERT INTO files(path, sha256, report_id, kind, pages, warnings) VALUES(?,?,?,?,?,?)",
                (path, sha256, rid, kind, pages, json.dumps(warnings, ensure_ascii=False)),
            )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return rid

    def write_import(self, source: str, rows: list[tuple[ReportMeta, list[FactRow]]]) -> int:
        """Facts from a bulk table; replaces what the same source imported before. One transaction."""
        db = self.db
        n = 0
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("DELETE FROM facts WHERE source=?", (source,))
            for meta, facts in rows:
                rid = self._upsert_report(meta)
                db.executemany(
                    "INSERT INTO facts(report_id,item,value,num,unit,period,statement,page,source,raw_label)"
                    " VALUES(?,?,?,?,?,?,?,?,?,?)",
                    [(rid, f.item, f.value, f.num, f.unit, f.period, f.statement, f.page, source, f.raw_label)
                     for f in facts],
                )
                n += len(facts)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("PRAGMA optimize")  # refresh planner statistics after a bulk load
        return n

    # ------------------------------------------------------------------------------ queries

    def reports(self) -> list[dict]:
        q = """SELECT r.id, r.stock_code, r.year, r.full_name, r.short_name, r.publish_date,
                      (SELECT COUNT(*) FROM facts f WHERE f.report_id=r.id) AS facts,
                      (SELECT COUNT(*) FROM chunks c WHERE c.report_id=r.id) AS chunks,
                      (SELECT GROUP_CONCAT(path, '; ') FROM files WHERE report_id=r.id) AS files
               FROM reports r ORDER BY r.stock_code, r.year"""
        cols = ["id", "stock_code", "year", "full_name", "short_name", "publish_date", "facts", "chunks", "files"]
        return [dict(zip(cols, row)) for row in self.db.execute(q)]

    def facts(self, company: str | None = None, year: int | None = None, item: str | None = None) -> Iterator[dict]:
        q = """SELECT r.stock_code, r.short_name, r.full_name, r.year, f.item, f.value, f.unit, f.period,
                      f.statement, f.page, f.source, f.raw_label
               FROM facts f JOIN reports r ON r.id=f.report_id WHERE 1=1"""
        cond, args = _report_filter(company, year)
        q += cond
        if item:
            q += " AND f.item=?"
            args.append(item)
        q += " ORDER BY r.stock_code, r.year, f.id"
        cols = ["stock_code", "short_name", "company", "year", "item", "value", "unit", "period", "statement",
                "page", "source", "raw_label"]
        for row in self.db.execute(q, args):
            yield dict(zip(cols, row))

    def optimize_search(self) -> None:
        """Merge the FTS5 index into one segment (after bulk writes: many small segments slow queries)."""
        self.db.execute("INSERT INTO chunks_fts(chunks_fts) VALUES('optimize')")

    def reset_search(self) -> None:
        """An empty FTS5 table (dropping it is much cheaper than deleting every row)."""
        self.db.execute("DROP TABLE IF EXISTS chunks_fts")
        self.db.execute(_FTS)

    def report_keys(self, company: str | None = None, year: int | None = None) -> list[str]:
        """Keys (stock_code:year) of the reports matching a company (code, short or full name, or part of
        one) and year; all reports when both are None."""
        cond, args = _report_filter(company, year)
        q = "SELECT key FROM reports r WHERE 1=1" + cond
        return [r[0] for r in self.db.execute(q + " ORDER BY r.stock_code, r.year", args)]

    def chunk_docs(self, report_keys: list[str] | None = None) -> Iterator["ChunkDoc"]:
        """Every chunk of these reports (all when None) as a search backend indexes it, in store order."""
        from .search.base import ChunkDoc

        q = ("SELECT c.id, r.key, r.stock_code, r.year, c.section_id, c.path, c.text, c.page_start, c.page_end"
             " FROM chunks c JOIN reports r ON r.id = c.report_id")
        keys = [None] if report_keys is None else report_keys
        for key in keys:
            rows = self.db.execute(q + (" WHERE r.key=?" if key else "") + " ORDER BY c.id", (key,) if key else ())
            for cid, rkey, code, year, sid, path, text, p0, p1 in rows:
                yield ChunkDoc(cid, rkey, code, year, sid, json.loads(path) if path else [], text, p0, p1)

    def counts(self) -> dict[str, int]:
        return {t: self.db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                for t in ("reports", "files", "facts", "sections", "chunks")}
