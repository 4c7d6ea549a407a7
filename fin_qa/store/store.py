"""The report store: one SQLite file holding reports, facts, sections, chunks and their FTS5 index.

Every report is written in one transaction: a crash in the middle leaves no half report.
Amounts are kept as exact decimal strings (`value`) and as floats (`num`) for sorting and ranking.
Every SQL statement of fin-qa is a method here; other packages call the methods.

Opening (`Store(folder, create=…, readonly=…)`):
- a new store applies every migration (schema.py); an older one gets the missing ones and its
  version bumped; a store newer than this code is refused with a FinQAError;
- `readonly=True` opens the file with a `mode=ro` URI and writes nothing to it (no migration, no DDL of
  its own schema), so a store on a read-only file system, or a read-only file, can be answered from; when
  its folder is not writable and no write-ahead log is pending, the file is opened `immutable=1` (no -shm
  file is needed). The connection is set up for reading: a temporary fts5vocab table of the tables'
  words (in the connection's own temp schema), then `query_only`, `mmap_size` and `cache_size`;
  a read-only store that still needs a migration is a FinQAError naming it;
- a file that is not SQLite, or SQLite without the fin-qa schema, is "… is not a fin-qa store".
"""
from __future__ import annotations

import json
import os
import sqlite3
import zlib
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from ..base import FinQAError
from ..bigrams import analyze
from ..vocab import VocabEntry, table_vocabulary
from .models import (PARENT_STATEMENT_PREFIX, ChunkMatch, ChunkRange, ChunkRecord, ChunkText, FactRow, ItemValue,
                     PageWords, Report, ReportMeta, SectionHead, StoredFact, TableRecord, Word)
from .schema import FTS_TABLE, SCHEMA_VERSION, NotAStore, pending, stored_version
from .chunk_index import ChunkIndex
from .fts_rank import Phrase, Postings, db_state, pinned_state, report_postings, vocab_tables, words_id
from .notes import NoteShelf
from .table_index import TableIndex
from .table_index import stored_path as _path

DB_NAME = "fin_qa.sqlite"

# a fact read from a document (pdf/txt) sorts before an imported one
_SOURCE_ORDER = "CASE WHEN source LIKE 'import:%' THEN 1 ELSE 0 END"
def _scope(parent: bool) -> str:
    """The SQL condition of a scope: the parent company's own statements, or everything else."""
    if parent:
        return f"statement LIKE '{PARENT_STATEMENT_PREFIX}%'"
    return f"(statement IS NULL OR statement NOT LIKE '{PARENT_STATEMENT_PREFIX}%')"


_SECTION_COLS = "s.id, s.parent_id, s.title, s.path, length(s.text), s.page_start"


def _report_filter(company: str | None, year: int | None) -> tuple[str, list[Any]]:
    """SQL conditions on reports r: a company (code, short or full name, or part of one) and a year."""
    q = ""
    args: list[Any] = []
    if company:
        q += " AND (r.stock_code=? OR r.short_name=? OR r.full_name=? OR r.full_name LIKE ? OR r.short_name LIKE ?)"
        args += [company, company, company, f"%{company}%", f"%{company}%"]
    if year:
        q += " AND r.year=?"
        args.append(int(year))
    return q, args


def table_words(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """What a table's index body holds: its header and every cell that is not a number."""
    cells = [c for c in header if c] + [c for r in rows for c in r if c and not _no_words(c)]
    return " ".join(cells)


def _table_fts(t: dict[str, Any]) -> tuple[str, str]:
    """A table's row of tables_fts: its heading path and caption, its header and text cells, analysed."""
    return analyze(" ".join(t["path"]) + " " + t["caption"]), analyze(table_words(t["header"], t["rows"]))


def search_rows(tables: Sequence[dict[str, Any]], chunks: Sequence[dict[str, Any]]) \
        -> tuple[Postings | None, Postings | None]:
    """Each table's and chunk's row of the search index (tables_fts, chunks_fts) made ("fts": heading and
    body, analysed) and their words indexed (report_postings, the first row's rowid 0): what
    write_document writes, made where the document is read (a parser's process) rather than by the one
    process writing the store."""
    for t in tables:
        t["fts"] = _table_fts(t)
    for c in chunks:
        c["fts"] = (analyze(" ".join(c["path"])), analyze(c["text"]))
    return (report_postings((i, t["fts"][0], t["fts"][1]) for i, t in enumerate(tables)),
            report_postings((i, c["fts"][0], c["fts"][1]) for i, c in enumerate(chunks)))


def _made(words: Postings | None, rows: Sequence[tuple[int, str, str]], items: Sequence[dict[str, Any]]) -> Postings | None:
    """The words search_rows made of these rows (with the first row's rowid 0), for the rowids they were
    written with — where those run on from the first and every item brought the texts search_rows made
    (so that the rows written are those texts); else None (made again from the rows)."""
    if words is None or not rows or rows[-1][0] - rows[0][0] != len(rows) - 1 or len(rows) != len(items) or \
            any("fts" not in x for x in items):
        return None
    return (rows[0][0], *words[1:])


def _no_words(cell: str) -> bool:
    return not any("\u3400" <= ch <= "\u9fff" or ch.isalpha() for ch in cell)


def encode_words(words: Iterable[dict[str, Any]]) -> bytes:
    """A page's words ({text, x0, x1, top, bottom}) as the store keeps them: [text, x0, top, x1, bottom]
    rows, to a tenth of a point, as JSON, zlib-compressed (about 2 KB a page)."""
    rows = [[w["text"], round(w["x0"], 1), round(w["top"], 1), round(w["x1"], 1), round(w["bottom"], 1)]
            for w in words]
    return zlib.compress(json.dumps(rows, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), 6)


def decode_words(blob: bytes) -> list[Word]:
    return [Word(*row) for row in json.loads(zlib.decompress(blob).decode("utf-8"))]


def readonly_uri(path: Path, folder_writable: bool | None = None) -> str:
    """The SQLite URI that opens a store file for reading only.

    `mode=ro` never writes the database. A store in WAL mode still needs its -shm file, which a reader
    creates next to the database; when the folder is not writable (a read-only file system, a
    read-only folder) and no write-ahead log is pending (no -wal file, or an empty one: the last
    writer checkpointed it), `immutable=1` reads the file as it is, without -shm or locks. With a
    pending -wal file it stays `mode=ro`, which works when the -shm file exists. (`immutable=1` assumes
    nobody writes the store while it is read: whoever could write it could also write its folder.)"""
    if folder_writable is None:
        folder_writable = os.access(path.parent, os.W_OK)
    uri = path.resolve().as_uri() + "?mode=ro"
    wal = path.with_name(path.name + "-wal")
    if not folder_writable and not (wal.exists() and wal.stat().st_size > 0):
        uri += "&immutable=1"
    return uri


READ_MMAP_BYTES = 1 << 30   # a read-only connection maps up to this much of the database file
READ_CACHE_KIB = 32768      # and keeps this much of it in its page cache


class Store:
    def __init__(self, directory: str | Path, create: bool = True, readonly: bool = False,
                 any_thread: bool = False) -> None:
        """Open (with create=True: make) the store in this folder.

        readonly: open for reading only (answering, listing, searching): nothing is written, so a
        read-only file or file system works; implies create=False.
        any_thread: the connection may be used by a thread other than the one that opened it, one thread
        at a time (the server's pool of read-only stores hands each to one request at a time)."""
        self.dir = Path(directory)
        self.path = self.dir / DB_NAME
        self.readonly = readonly
        self._tables_known: dict[str, bool] = {}   # whether the store has a table added by a later migration
        self._naming: dict[tuple[str, int, tuple[int, ...] | None], list[tuple[int, str, str, int | None]]] = {}   # naming's, held
        self._naming_state: tuple[int, int] | None = None   # (the store's state they were read in)
        self._vocab_of: dict[tuple[int, str], tuple[VocabEntry, ...]] = {}   # vocabulary_of's, held
        self._vocab_state: tuple[int, int] | None = None
        self._table_index: TableIndex | None = None   # the tables read, held (store/table_index.py)
        self._chunk_index: ChunkIndex | None = None   # the chunks searched, held (store/chunk_index.py)
        self._notes: NoteShelf | None = None
        path = self.path
        if not path.exists() and (readonly or not create):
            raise FinQAError(f"no fin-qa store at {self.dir} (run `fin-qa ingest` or `fin-qa import-tables` first)")
        try:
            if readonly:
                self.db = sqlite3.connect(readonly_uri(path), uri=True, isolation_level=None,
                                          check_same_thread=not any_thread, cached_statements=256)
            else:
                self.dir.mkdir(parents=True, exist_ok=True)
                self.db = sqlite3.connect(path, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise FinQAError(f"cannot open store {path}: {exc}") from None
        try:
            self._prepare(create and not readonly)
        except BaseException:
            self.db.close()
            raise

    def _prepare(self, create: bool) -> None:
        """Check the file is a fin-qa store of a version this code reads; writable: WAL mode, migrations."""
        path, db = self.path, self.db
        try:
            version = stored_version(db)
            if version > SCHEMA_VERSION:
                raise FinQAError(f"store {path} has schema version {version}, newer than this fin-qa knows "
                                 f"({SCHEMA_VERSION}): use the fin-qa that wrote it, or a newer one")
            if version == 0 and not create:
                raise NotAStore("it is empty" if self.readonly else "it has no fin-qa schema")
            todo = pending(version)
            if self.readonly:
                # set up for reading: nothing written (query_only), the file mapped into memory rather than
                # read through SQLite's page cache, and a larger cache for what is not mapped
                for fts in ("tables_fts", "chunks_fts"):
                    if db.execute("SELECT 1 FROM sqlite_master WHERE name=?", (fts,)).fetchone():
                        for sql in vocab_tables(fts):
                            db.execute(sql)   # (temp tables: made before query_only forbids them)
                db.execute("PRAGMA query_only=ON")
                db.execute(f"PRAGMA mmap_size={READ_MMAP_BYTES}")
                db.execute(f"PRAGMA cache_size=-{READ_CACHE_KIB}")
                # an older store is read as it is when what it lacks only speeds reading up (an index)
                if any(m.needed_to_read for m in todo):
                    needs = "; ".join(f"{m.version}: {m.description}" for m in todo)
                    raise FinQAError(
                        f"store {path} has schema version {version} and this fin-qa needs {SCHEMA_VERSION} "
                        f"({needs}); it was opened read-only, so it was not upgraded: open it once for writing "
                        f"(e.g. `fin-qa index --store {self.dir}`) to upgrade it")
                return
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA foreign_keys=ON")
            if todo:
                self._migrate()
        except NotAStore as exc:
            raise FinQAError(f"{path} is not a fin-qa store: {exc}") from None
        except sqlite3.DatabaseError as exc:
            if exc.sqlite_errorname in ("SQLITE_NOTADB", "SQLITE_CORRUPT"):
                raise FinQAError(f"{path} is not a fin-qa store: {exc}") from None
            hint = ""
            if self.readonly and exc.sqlite_errorname == "SQLITE_CANTOPEN" \
                    and path.with_name(path.name + "-wal").exists():
                hint = (f" (its write-ahead log {path.name}-wal holds changes not yet in the database file, and "
                        "its folder cannot be written: open the store once where it is writable, so that the "
                        "log is checkpointed)")
            raise FinQAError(f"cannot open store {path}{' read-only' if self.readonly else ''}: {exc}{hint}") from None

    def _migrate(self) -> None:
        """Apply the pending migrations and set the version, in one transaction."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            version = stored_version(db)  # another process may have upgraded it while this one waited
            todo = pending(version)
            for m in todo:
                for statement in m.statements():
                    db.execute(statement)
            if todo:
                db.execute("INSERT OR REPLACE INTO meta VALUES('schema_version', ?)", (str(SCHEMA_VERSION),))
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def schema_version(self) -> int:
        """The schema version the store file has."""
        return stored_version(self.db)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------------------ writing reports

    def _upsert_report(self, meta: ReportMeta) -> int:
        row = self.db.execute("SELECT id, full_name, short_name, publish_date FROM reports WHERE key=?", (meta.key,)).fetchone()
        if row is None:
            cur = self.db.execute(
                "INSERT INTO reports(key, stock_code, year, full_name, short_name, publish_date, period, kind) "
                "VALUES(?,?,?,?,?,?,?,?)",
                (meta.key, meta.stock_code, meta.year, meta.full_name, meta.short_name, meta.publish_date,
                 meta.period, meta.kind),
            )
            return int(cur.lastrowid or 0)
        rid, full, short, date = row
        self.db.execute(
            "UPDATE reports SET full_name=?, short_name=?, publish_date=? WHERE id=?",
            (meta.full_name or full, meta.short_name or short, meta.publish_date or date, rid),
        )
        return int(rid)

    def document_of(self, key: str) -> str | None:
        """The path of the document (pdf/txt) a report was ingested from, if any."""
        row = self.db.execute("SELECT f.path FROM files f JOIN reports r ON r.id=f.report_id WHERE r.key=? "
                              "AND f.kind IN ('pdf', 'txt') LIMIT 1", (key,)).fetchone()
        return row[0] if row else None

    def file_by_hash(self, sha256: str, parser: int = 0) -> str | None:
        """The path of an ingested file with this content, read by parser version `parser` or later, if any."""
        row = self.db.execute("SELECT path FROM files WHERE sha256=? AND parser>=?", (sha256, parser)).fetchone()
        return row[0] if row else None

    def write_document(
        self,
        meta: ReportMeta,
        path: str,
        sha256: str,
        kind: str,
        pages: int,
        facts: Iterable[FactRow],
        sections: list[dict[str, Any]],
        chunks: list[dict[str, Any]],
        warnings: list[str],
        parser: int = 0,
        tables: Sequence[dict[str, Any]] = (),
        page_words: Sequence[tuple[int, float, float, bytes]] = (),
        words: tuple[Postings | None, Postings | None] | None = None,
    ) -> int:
        """Replace everything a document contributed to its report, in one transaction (`parser`: the
        version of the parser that read it, so that a newer one reads it again; `page_words`: a PDF's
        (page, width, height, encode_words blob) of every page; a table's or chunk's "fts" and `words`:
        their search rows and words as search_rows made them where the document was read — else made
        here)."""
        db = self.db
        with self._transaction():
            was = db.execute("SELECT report_id FROM files WHERE path=?", (path,)).fetchone()
            rid = self._upsert_report(meta)
            if was is not None and was[0] != rid:
                # the file read again as another filing (a quarter's report an older parser stored as an
                # annual report): what it gave its old report goes, and that report with it when nothing
                # else (another file, an imported table) holds it
                self._clear_document(was[0])
                db.execute("DELETE FROM files WHERE path=?", (path,))
                if db.execute("SELECT 1 FROM files WHERE report_id=? UNION SELECT 1 FROM facts WHERE report_id=?",
                              (was[0], was[0])).fetchone() is None:
                    db.execute("DELETE FROM reports WHERE id=?", (was[0],))
            self._clear_document(rid)
            db.executemany("INSERT INTO page_words(report_id, page, width, height, words) VALUES(?,?,?,?,?)",
                           [(rid, *pw) for pw in page_words])
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
                sid_map[s["sid"]] = int(cur.lastrowid or 0)
            texts: list[tuple[int, str, str]] = []   # chunks_fts rows, indexed by report below
            for c in chunks:
                cur = db.execute(
                    "INSERT INTO chunks(report_id,section_id,path,text,page_start,page_end) VALUES(?,?,?,?,?,?)",
                    (rid, sid_map.get(c["section"]), json.dumps(c["path"], ensure_ascii=False), c["text"],
                     c["page_start"], c["page_end"]),
                )
                texts.append(self._fts_insert(int(cur.lastrowid or 0), c["path"], c["text"], c.get("fts")))
            self._write_words("chunk", rid, texts, _made(words[1] if words else None, texts, chunks))
            analysed: list[tuple[int, str, str]] = []   # tables_fts rows, indexed by report below
            for t in tables:
                cur = db.execute(
                    "INSERT INTO tables(report_id,section_id,path,caption,unit,page_start,page_end,header,rows,pages)"
                    " VALUES(?,?,?,?,?,?,?,?,?,?)",
                    (rid, sid_map.get(t["section"]), json.dumps(t["path"], ensure_ascii=False), t["caption"], t["unit"],
                     t["page_start"], t["page_end"], json.dumps(t["header"], ensure_ascii=False),
                     json.dumps(t["rows"], ensure_ascii=False), json.dumps(t["pages"])))
                tid = int(cur.lastrowid or 0)
                analysed.append((tid, *(t.get("fts") or _table_fts(t))))
                db.execute("INSERT INTO tables_fts(rowid, heading, body) VALUES(?,?,?)", analysed[-1])
                db.executemany("INSERT INTO vocab(report_id, word, table_id, row, col, kind) VALUES(?,?,?,?,?,?)",
                               [(rid, w, tid, r, k, kind) for w, r, k, kind in table_vocabulary(t["header"], t["rows"])])
            self._write_words("table", rid, analysed, _made(words[0] if words else None, analysed, tables))
            db.execute(
                "INSERT INTO files(path, sha256, report_id, kind, pages, warnings, parser) VALUES(?,?,?,?,?,?,?)",
                (path, sha256, rid, kind, pages, json.dumps(warnings, ensure_ascii=False), parser),
            )
        return rid

    def _clear_document(self, rid: int) -> None:
        """Everything a document gave a report (its chunks, tables, words, sections, page words and facts read
        from it), not its imported facts nor its files rows."""
        db = self.db
        old = [r[0] for r in db.execute("SELECT id FROM chunks WHERE report_id=?", (rid,))]
        db.executemany("DELETE FROM chunks_fts WHERE rowid=?", [(i,) for i in old])
        db.execute("DELETE FROM chunks WHERE report_id=?", (rid,))
        old = [r[0] for r in db.execute("SELECT id FROM tables WHERE report_id=?", (rid,))]
        db.executemany("DELETE FROM tables_fts WHERE rowid=?", [(i,) for i in old])
        db.execute("DELETE FROM tables WHERE report_id=?", (rid,))
        db.execute("DELETE FROM vocab WHERE report_id=?", (rid,))
        self._delete_words([rid])
        db.execute("DELETE FROM sections WHERE report_id=?", (rid,))
        db.execute("DELETE FROM page_words WHERE report_id=?", (rid,))
        db.execute("DELETE FROM facts WHERE report_id=? AND source IN ('pdf','txt')", (rid,))

    def _write_words(self, kind: str, report_id: int, rows: Iterable[tuple[int, str | None, str | None]],
                     made: Postings | None = None) -> None:
        """The report's rows (rowid, heading, body) of {kind}s_fts indexed by word ({kind}_words,
        {kind}_sizes; fts_rank.report_postings), or the postings `made` of them already."""
        got = made if made is not None else report_postings(rows)
        if got is None:
            return
        first, buckets, sizes, words = got
        self.db.execute(f"INSERT INTO {kind}_sizes(report_id, first, buckets, sizes) VALUES(?,?,?,?)",
                        (report_id, first, buckets, sizes))
        self.db.executemany(f"INSERT INTO {kind}_words(id, data) VALUES(?,?)",
                            [(words_id(report_id, b), blob) for b, blob in words])

    def _delete_words(self, report_ids: Iterable[int], kinds: Sequence[str] = ("table", "chunk")) -> None:
        for rid in report_ids:
            for kind in kinds:
                self.db.execute(f"DELETE FROM {kind}_words WHERE id BETWEEN ? AND ?",
                                (words_id(rid, 0), words_id(rid + 1, 0) - 1))
                self.db.execute(f"DELETE FROM {kind}_sizes WHERE report_id=?", (rid,))

    def _report_rows(self, kind: str, report_id: int) -> list[tuple[int, str, str]]:
        """The report's rows of {kind}s_fts: (rowid, heading, body)."""
        return self.db.execute(f"SELECT f.rowid, f.heading, f.body FROM {kind}s_fts f JOIN {kind}s x ON x.id = f.rowid"
                               f" WHERE x.report_id=? ORDER BY f.rowid", (report_id,)).fetchall()

    def index_words(self, report_keys: Sequence[str] | None = None) -> int:
        """Index the table and text words of the reports (these only, when given) ingested before they were
        indexed (table_words, chunk_words: each report in a transaction of its own, checked again inside
        it: another process may have written the report since); returns how many reports got words."""
        done: set[int] = set()
        wanted = None if report_keys is None else set(report_keys)
        for kind in ("table", "chunk"):
            lacking = (f"EXISTS (SELECT 1 FROM {kind}s_fts f JOIN {kind}s t ON t.id = f.rowid WHERE t.report_id = r.id)"
                       f" AND NOT EXISTS (SELECT 1 FROM {kind}_sizes s WHERE s.report_id = r.id)")
            for rid, key in self.db.execute(f"SELECT r.id, r.key FROM reports r WHERE {lacking} ORDER BY r.id").fetchall():
                if wanted is not None and key not in wanted:
                    continue
                with self._transaction():
                    if self.db.execute(f"SELECT 1 FROM reports r WHERE r.id=? AND {lacking}", (rid,)).fetchone():
                        self._write_words(kind, rid, self._report_rows(kind, rid))
                        done.add(rid)
        return len(done)

    def write_import(self, source: str, rows: list[tuple[ReportMeta, list[FactRow]]]) -> int:
        """Facts from a bulk table; replaces what the same source imported before. One transaction."""
        db = self.db
        n = 0
        with self._transaction():
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
        self.optimize_planner()  # refresh planner statistics after a bulk load
        return n

    def copy_report(self, report_id: int, meta: ReportMeta) -> int:
        """A copy of a report under another key (benchmark corpora): its sections, chunks with their
        FTS5 rows, and its balance-sheet facts (retrieval reads where the statements begin from them).
        One transaction; returns the new report's id."""
        db = self.db
        with self._transaction():
            cur = db.execute("INSERT INTO reports(key, stock_code, year, full_name, short_name, publish_date)"
                             " VALUES(?,?,?,?,?,?)",
                             (meta.key, meta.stock_code, meta.year, meta.full_name, meta.short_name, meta.publish_date))
            new = int(cur.lastrowid or 0)
            sid_map: dict[int, int] = {}
            for s in db.execute("SELECT id, parent_id, level, title, path, page_start, page_end, text FROM sections"
                                " WHERE report_id=? ORDER BY id", (report_id,)).fetchall():
                c = db.execute("INSERT INTO sections(report_id, parent_id, level, title, path, page_start, page_end,"
                               " text) VALUES(?,?,?,?,?,?,?,?)", (new, sid_map.get(s[1]), *s[2:]))
                sid_map[s[0]] = int(c.lastrowid or 0)
            for cid, sid, path, text, p0, p1 in db.execute(
                    "SELECT id, section_id, path, text, page_start, page_end FROM chunks WHERE report_id=? ORDER BY id",
                    (report_id,)).fetchall():
                c = db.execute("INSERT INTO chunks(report_id, section_id, path, text, page_start, page_end)"
                               " VALUES(?,?,?,?,?,?)", (new, sid_map.get(sid), path, text, p0, p1))
                db.execute("INSERT INTO chunks_fts(rowid, heading, body) SELECT ?, heading, body FROM chunks_fts"
                           " WHERE rowid=?", (c.lastrowid, cid))
            db.execute("INSERT INTO facts(report_id, item, value, num, unit, period, statement, page, source, raw_label)"
                       " SELECT ?, item, value, num, unit, period, statement, page, source, raw_label FROM facts"
                       " WHERE report_id=? AND statement='资产负债表'", (new, report_id))
            self._write_words("chunk", new, self._report_rows("chunk", new))
        return new

    def optimize_planner(self) -> None:
        """Refresh the query planner's statistics (PRAGMA optimize), after bulk writes."""
        self.db.execute("PRAGMA optimize")

    # ------------------------------------------------------------------------------ the FTS5 index
    # chunks_fts (heading, body: character-bigram token strings, rowid = chunks.id) is written here only

    def _fts_insert(self, chunk_id: int, path: list[str], text: str,
                    analysed: Sequence[str] | None = None) -> tuple[int, str, str]:
        """Write the chunk's row of chunks_fts (its heading path and text analysed: here, unless given);
        returns the row."""
        row = (chunk_id, *analysed) if analysed is not None else (chunk_id, analyze(" ".join(path)), analyze(text))
        self.db.execute("INSERT INTO chunks_fts(rowid, heading, body) VALUES(?,?,?)", row)
        return row   # type: ignore[return-value]   # (chunk id, heading, body)

    def fts_delete_reports(self, report_keys: Sequence[str]) -> None:
        """Remove the FTS5 rows of these reports' chunks, and their words (the chunks stay): one transaction,
        the words first."""
        with self._transaction():
            self._delete_words([r[0] for key in report_keys for r in self.db.execute(
                "SELECT id FROM reports WHERE key=?", (key,))], ("chunk",))
            for key in report_keys:
                self.db.execute("DELETE FROM chunks_fts WHERE rowid IN (SELECT c.id FROM chunks c JOIN reports r"
                                " ON r.id = c.report_id WHERE r.key=?)", (key,))

    def fts_index(self, chunks: Iterable[tuple[int, list[str], str]]) -> int:
        """(Re)write the FTS5 rows of these chunks — (chunk id, heading path, text) — and the words of their
        reports, in one transaction; returns how many. The rows may be read from this store while they
        are written."""
        n = 0
        written: list[int] = []
        with self._transaction():
            for chunk_id, path, text in chunks:
                self.db.execute("DELETE FROM chunks_fts WHERE rowid=?", (chunk_id,))
                self._fts_insert(chunk_id, path, text)
                written.append(chunk_id)
                n += 1
            reports = sorted({r[0] for k in range(0, len(written), 500) for r in self.db.execute(
                f"SELECT DISTINCT report_id FROM chunks WHERE id IN ({','.join('?' * len(written[k:k + 500]))})",
                written[k:k + 500])})
            self._delete_words(reports, ("chunk",))
            for rid in reports:
                self._write_words("chunk", rid, self._report_rows("chunk", rid))
        return n

    def optimize_search(self) -> None:
        """Merge the FTS5 index into one segment (after bulk writes: many small segments slow queries)."""
        self.db.execute("INSERT INTO chunks_fts(chunks_fts) VALUES('optimize')")

    def reset_search(self) -> None:
        """An empty FTS5 table (dropping it is much cheaper than deleting every row), and no chunk words:
        one transaction, so that a reader never sees the words of rows no longer there."""
        with self._transaction():
            self.db.execute("DELETE FROM chunk_sizes")
            self.db.execute("DELETE FROM chunk_words")
            self.db.execute("DROP TABLE IF EXISTS chunks_fts")
            self.db.execute(FTS_TABLE)

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write transaction (BEGIN IMMEDIATE … COMMIT, rolled back on any error)."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def chunk_range(self, report_key: str) -> ChunkRange | None:
        """The report's id and its first and last chunk id (None: no such report, or no chunks)."""
        row = self.db.execute(
            "SELECT r.id, MIN(c.id), MAX(c.id), COUNT(c.id) FROM reports r JOIN chunks c ON c.report_id=r.id"
            " WHERE r.key=?", (report_key,)).fetchone()
        if row and row[0] is not None and row[3]:
            return ChunkRange(row[0], row[1], row[2])
        return None

    def fts_match(self, expression: str, heading_weight: float, size: int,
                  within: ChunkRange | None = None) -> list[ChunkMatch]:
        """The best `size` chunks for an FTS5 MATCH expression, by BM25 with the heading column weighted
        `heading_weight` against the body's 1.0, best first. `within`: only that report's chunks (its
        rowid range lets FTS5 seek; the report_id test keeps it right if ids ever interleave)."""
        sql = ("SELECT c.id, r.key, c.section_id, c.path, c.text, c.page_start, c.page_end, -bm25(chunks_fts, ?, 1.0) AS s"
               " FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN reports r ON r.id = c.report_id"
               " WHERE chunks_fts MATCH ?")
        if within is None:
            rows = self.db.execute(sql + " ORDER BY s DESC LIMIT ?", (heading_weight, expression, size)).fetchall()
        else:
            rows = self.db.execute(
                sql + " AND chunks_fts.rowid BETWEEN ? AND ? AND c.report_id = ? ORDER BY s DESC LIMIT ?",
                (heading_weight, expression, within.first, within.last, within.report_id, size)).fetchall()
        return [ChunkMatch(r[0], r[1], r[2], _path(r[3]), r[4], r[5], r[6], float(r[7])) for r in rows]

    @property
    def chunk_index(self) -> ChunkIndex:
        if self._chunk_index is None:
            self._chunk_index = ChunkIndex(self.db)
        return self._chunk_index

    def chunks_held_from(self, within: ChunkRange) -> int:
        """The search of the report from which its chunks are held in memory (store/chunk_index.py)."""
        return self.chunk_index.searches_to_hold(within.last - within.first + 1)

    def chunk_match(self, phrases: dict[str, Phrase], heading_weight: float, size: int,
                    within: ChunkRange) -> list[ChunkMatch]:
        """fts_match within one report for the phrases OR'ed (as the MATCH string writes each → as FTS5 reads
        it: its tokens, and the heading column when it is limited to it): the same chunks, order and scores,
        ranked from the report's words indexed at ingest (store/chunk_index.py), so that the cost does not
        grow with the store (a report ingested before: from its chunks held in memory once that pays back,
        ChunkIndex.searches_to_hold, or its matched rows, or FTS5's query)."""
        expression = " OR ".join(phrases)
        ranked = self.chunk_index.match(list(phrases.values()), expression, within.report_id, within.first,
                                         within.last, size, heading_weight)
        if ranked is None:
            return self.fts_match(expression, heading_weight, size, within)
        if not ranked:
            return []
        ids = [cid for _, cid in ranked]
        rows = {r[0]: r for r in self.db.execute(
            f"SELECT c.id, r.key, c.section_id, c.path, c.text, c.page_start, c.page_end FROM chunks c"
            f" JOIN reports r ON r.id = c.report_id WHERE c.id IN ({','.join('?' * len(ids))})", ids)}
        return [ChunkMatch(r[0], r[1], r[2], _path(r[3]), r[4], r[5], r[6], score)
                for score, cid in ranked if cid in rows for r in [rows[cid]]]   # (a chunk replaced since: out)

    # ------------------------------------------------------------------------------ tables

    @property
    def _period_sql(self) -> tuple[str, str]:
        """SQL expressions of a report r's period and kind: constants in a read-only store written before
        migration 8 (every report of it an annual report)."""
        if "reports.period" not in self._tables_known:
            cols = {r[1] for r in self.db.execute("PRAGMA table_info(reports)")}
            self._tables_known["reports.period"] = "period" in cols
        return ("r.period", "r.kind") if self._tables_known["reports.period"] else ("'FY'", "'report'")

    def _has_table(self, name: str) -> bool:
        """False for a read-only store written before the migration adding the table (tables: 4, page_words:
        5); asked once a table."""
        if name not in self._tables_known:
            self._tables_known[name] = self.db.execute("SELECT 1 FROM sqlite_master WHERE name=?",
                                                       (name,)).fetchone() is not None
        return self._tables_known[name]

    def state(self) -> tuple[int, int]:
        """What changes when the database does (fts_rank.db_state): a cache of what was read is good while it
        stays the same."""
        return db_state(self.db)

    def pinned(self) -> AbstractContextManager[None]:
        """The store's state read once for what runs inside — one answer: its caches are checked against the
        state the answer began with, one query instead of one a probe (fts_rank.pinned_state)."""
        return pinned_state(self.db)

    @property
    def notes(self) -> NoteShelf:
        """The research notes (store/notes.py)."""
        if self._notes is None:
            self._notes = NoteShelf(self.db, self._transaction, self._has_table)
        return self._notes

    @property
    def table_index(self) -> TableIndex:
        if self._table_index is None:
            self._table_index = TableIndex(self.db)
        return self._table_index

    def report_tables(self, report_id: int, table_ids: Sequence[int] | None = None) -> list[TableRecord]:
        """The report's tables (only these ids, when given), in reading order. They are held in memory once
        read (store/table_index.py) and shared: a caller never changes one."""
        if not self._has_table("tables"):
            return []
        if table_ids is not None and not table_ids:
            return []
        return self.table_index.tables(report_id, table_ids)

    def tables(self, company: str | None = None, year: int | None = None, words: str | None = None,
               page: int | None = None) -> Iterator[dict[str, Any]]:
        """Table records with their report's names (`fin-qa tables`): filtered like report_keys, by words
        in the caption, heading path, header or cells, and by a page the table spans."""
        if not self._has_table("tables"):
            return
        q = """SELECT r.stock_code, r.short_name, r.year, t.id, t.path, t.caption, t.unit, t.page_start, t.page_end,
                      t.header, t.rows, t.pages FROM tables t JOIN reports r ON r.id = t.report_id WHERE 1=1"""
        cond, args = _report_filter(company, year)
        q += cond
        if words:   # spaces left out on both sides ("公司前 5名供应商资料")
            q += " AND (" + " OR ".join(f"REPLACE(t.{c}, ' ', '') LIKE ?" for c in ("caption", "path", "header", "rows")) + ")"
            args += [f"%{words.replace(' ', '')}%"] * 4
        if page is not None:
            q += " AND t.page_start <= ? AND t.page_end >= ?"
            args += [page, page]
        for row in self.db.execute(q + " ORDER BY r.stock_code, r.year, t.id", args):
            code, short, yr, tid, path, caption, unit, p0, p1, header, rows, pages = row
            yield {"stock_code": code, "short_name": short, "year": yr, "id": tid, "path": _path(path),
                   "caption": caption or "", "unit": unit, "page_start": p0, "page_end": p1,
                   "header": json.loads(header), "rows": json.loads(rows), "pages": json.loads(pages)}

    def vocabulary(self, report_id: int) -> dict[str, list[VocabEntry]]:
        """The words of the report's tables (fin_qa/vocab.py): word → where it stands. A report ingested
        before the index existed has its words read from its tables."""
        out: dict[str, list[VocabEntry]] = {}
        rows: Iterable[tuple[str, int, int, int, str]] = ()
        if self._has_table("vocab"):
            rows = self.db.execute("SELECT word, table_id, row, col, kind FROM vocab WHERE report_id=?",
                                   (report_id,)).fetchall()
        if not rows:
            rows = [(w, t.id, r, k, kind) for t in self.report_tables(report_id)
                    for w, r, k, kind in table_vocabulary(t.header, t.rows)]
        for w, tid, r, k, kind in rows:
            out.setdefault(w, []).append(VocabEntry(tid, r, k, kind))
        return out

    def vocabulary_of(self, report_id: int, words: Iterable[str]) -> dict[str, list[VocabEntry]] | None:
        """The entries of these words among the report's table words (vocabulary, read for these words
        only); None when the report's words are not indexed (a store written before the index: read
        them all with vocabulary())."""
        if not self._has_table("vocab"):
            return None
        if report_id not in self.table_index.reports_having("vocab"):
            return None
        # each (report, word)'s entries kept while the store stays the same (questions of a report look up
        # the same pieces): only the words not looked up before are read
        state = self.state()
        if state != self._vocab_state:
            self._vocab_state = state
            self._vocab_of.clear()
        held = self._vocab_of
        wanted = list(dict.fromkeys(words))
        unseen = [w for w in wanted if (report_id, w) not in held]
        if unseen:
            read = self._vocabulary_of_now(report_id, unseen)
            if len(held) > 200_000:
                held.clear()
            for w in unseen:
                held[(report_id, w)] = tuple(read.get(w, ()))
        out: dict[str, list[VocabEntry]] = {}
        for w in wanted:
            got = held.get((report_id, w))
            if got is None:   # (cleared in between: read again)
                return self._vocabulary_of_now(report_id, wanted)
            if got:
                out[w] = list(got)
        return out

    def _vocabulary_of_now(self, report_id: int, wanted: list[str]) -> dict[str, list[VocabEntry]]:
        out: dict[str, list[VocabEntry]] = {}
        for k in range(0, len(wanted), 500):
            part = wanted[k:k + 500]
            for w, tid, r, c, kind in self.db.execute(
                    f"SELECT word, table_id, row, col, kind FROM vocab WHERE report_id=? AND word IN "
                    f"({','.join('?' * len(part))}) ORDER BY word, rowid", (report_id, *part)):
                out.setdefault(w, []).append(VocabEntry(tid, r, c, kind))
        return out

    def table_match_words(self, words: Sequence[str], report_id: int, size: int,
                          heading_weight: float = 2.0) -> list[int]:
        """The ids of the report's best `size` tables for any of the words, best first: the ranking of
        table_match's FTS5 bm25 for `"w1" OR "w2" …`, from the report's own index in memory, so that its
        cost does not grow with the store (store/table_index.py)."""
        if not self._has_table("tables"):
            return []
        return self.table_index.match(words, report_id, size, heading_weight)

    def table_match(self, expression: str, report_id: int, size: int, heading_weight: float = 2.0) -> list[int]:
        """The ids of the report's best `size` tables for an FTS5 MATCH expression over their heading path
        and caption (weighted) and their header and cell words, best first."""
        if not self._has_table("tables"):
            return []
        rows = self.db.execute(
            "SELECT t.id FROM tables_fts JOIN tables t ON t.id = tables_fts.rowid WHERE tables_fts MATCH ?"
            " AND t.report_id = ? ORDER BY bm25(tables_fts, ?, 1.0), t.id LIMIT ?",
            (expression, report_id, heading_weight, size)).fetchall()
        return [r[0] for r in rows]

    # ------------------------------------------------------------------------------ page words

    def page_words(self, report_id: int, page: int) -> PageWords | None:
        """A PDF page's size and word boxes as ingest read them; None when the store has none for it (a txt
        or imported report, a page out of range, or a store written before migration 5)."""
        if not self._has_table("page_words"):
            return None
        row = self.db.execute("SELECT width, height, words FROM page_words WHERE report_id=? AND page=?",
                              (report_id, page)).fetchone()
        return PageWords(page, row[0], row[1], decode_words(row[2])) if row else None

    def report_warnings(self, report_id: int) -> list[str]:
        """The warnings ingest kept of the files a report was read from."""
        out: list[str] = []
        for (text,) in self.db.execute("SELECT warnings FROM files WHERE report_id=? ORDER BY kind", (report_id,)):
            out.extend(json.loads(text or "[]"))
        return out

    def report_files(self, report_id: int) -> list[dict[str, Any]]:
        """The files a report was read from: path, sha256, kind (pdf, txt, or the import's), pages, parser."""
        cols = ["path", "sha256", "kind", "pages", "parser"]
        return [dict(zip(cols, r)) for r in self.db.execute(
            f"SELECT {', '.join(cols)} FROM files WHERE report_id=? ORDER BY kind", (report_id,))]

    # ------------------------------------------------------------------------------ reports

    def report_list(self) -> list[Report]:
        """Every report of the store, in store order (what answers and the company index read)."""
        period, kind = self._period_sql
        rows = self.db.execute(
            f"SELECT r.id, r.stock_code, r.year, r.full_name, r.short_name, r.key, r.publish_date, {period}, {kind} "
            f"FROM reports r").fetchall()
        return [Report(rid, key, code, year, full, short, date, period, kind)
                for rid, code, year, full, short, key, date, period, kind in rows]

    def report_id(self, key: str) -> int | None:
        """The id of the report with this key (stock_code:year), if the store has it."""
        row = self.db.execute("SELECT id FROM reports WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def reports(self) -> list[dict[str, Any]]:
        """Every report with its fact and chunk counts and its files (`fin-qa reports`)."""
        period, kind = self._period_sql
        q = f"""SELECT r.id, r.key, r.stock_code, r.year, r.year || {period}, {kind}, r.full_name, r.short_name,
                      r.publish_date,
                      (SELECT COUNT(*) FROM facts f WHERE f.report_id=r.id) AS facts,
                      (SELECT COUNT(*) FROM chunks c WHERE c.report_id=r.id) AS chunks,
                      (SELECT GROUP_CONCAT(path, '; ') FROM files WHERE report_id=r.id) AS files
               FROM reports r ORDER BY r.stock_code, r.year, {period} = 'FY', {period}, {kind}"""
        cols = ["id", "key", "stock_code", "year", "period", "kind", "full_name", "short_name", "publish_date", "facts",
                "chunks", "files"]
        return [dict(zip(cols, row)) for row in self.db.execute(q)]

    def report_keys(self, company: str | None = None, year: int | None = None, annual: bool = False) -> list[str]:
        """Keys (stock_code:year, stock_code:2025Q3 …) of the filings matching a company (code, short or full
        name, or part of one) and year; all when both are None. annual: only the annual reports (年度报告, not
        their summaries nor another period's filings)."""
        cond, args = _report_filter(company, year)
        if annual:
            period, kind = self._period_sql
            cond += f" AND {period} = 'FY' AND {kind} = 'report'"
        q = "SELECT key FROM reports r WHERE 1=1" + cond
        return [r[0] for r in self.db.execute(q + " ORDER BY r.stock_code, r.year", args)]

    def counts(self) -> dict[str, int]:
        """Rows per table."""
        return {t: self.db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                for t in ("reports", "files", "facts", "sections", "chunks")}

    # ------------------------------------------------------------------------------ facts

    def facts(self, company: str | None = None, year: int | None = None, item: str | None = None,
              report_id: int | None = None) -> Iterator[dict[str, Any]]:
        """Facts with their report's names (`fin-qa facts`), filtered like report_keys and by item (and to one
        report by its id)."""
        period, kind = self._period_sql
        q = f"""SELECT r.stock_code, r.short_name, r.full_name, r.year, f.item, f.value, f.unit, f.period,
                      f.statement, f.page, f.source, f.raw_label, r.year || {period}, {kind}
               FROM facts f JOIN reports r ON r.id=f.report_id WHERE 1=1"""
        cond, args = _report_filter(company, year)
        q += cond
        if report_id is not None:
            q += " AND f.report_id=?"
            args.append(report_id)
        if item:
            q += " AND f.item=?"
            args.append(item)
        q += " ORDER BY r.stock_code, r.year, f.id"
        cols = ["stock_code", "short_name", "company", "year", "item", "value", "unit", "period", "statement",
                "page", "source", "raw_label", "filing", "kind"]
        for row in self.db.execute(q, args):
            yield dict(zip(cols, row))

    def report_facts(self, report_id: int, items: Sequence[str], period: str = "current",
                     parent: bool = False) -> list[StoredFact]:
        """The report's facts of these items in one period: document facts before imported ones, then
        in store order (the first of an item is the one to use). The parent company's own statements
        (statement 母公司…) are a scope of their own: read with parent=True only."""
        if not items:
            return []
        q = (f"SELECT item, value, unit, period, statement, page, source, raw_label FROM facts INDEXED BY facts_report "
             f"WHERE report_id=? AND period=? AND item IN ({','.join('?' * len(items))}) AND {_scope(parent)} "
             f"ORDER BY {_SOURCE_ORDER}, id")
        return [StoredFact(*row) for row in self.db.execute(q, (report_id, period, *items))]

    def report_facts_of_periods(self, report_id: int, items: Sequence[str], periods: Sequence[str]) -> list[StoredFact]:
        """The report's facts of these items in these periods, of both scopes (the parent company's own
        statements too): document facts before imported ones, then in store order — each period's and each
        scope's facts in the order report_facts reads them, in one query."""
        if not items or not periods:
            return []
        q = (f"SELECT item, value, unit, period, statement, page, source, raw_label FROM facts INDEXED BY facts_report "
             f"WHERE report_id=? AND period IN ({','.join('?' * len(periods))}) "
             f"AND item IN ({','.join('?' * len(items))}) ORDER BY {_SOURCE_ORDER}, id")
        return [StoredFact(*row) for row in self.db.execute(q, (report_id, *periods, *items))]

    def has_statement(self, report_id: int, statement: str) -> bool:
        """Whether a document (not an imported table) of the report printed this table."""
        return self.db.execute("SELECT 1 FROM facts INDEXED BY facts_report WHERE report_id=? AND statement=? "
                               "AND source NOT LIKE 'import:%' LIMIT 1",
                               (report_id, statement)).fetchone() is not None

    def statement_items(self, report_id: int, statement: str) -> set[str]:
        """The items a document (not an imported table) of the report printed in this table."""
        rows = self.db.execute("SELECT DISTINCT item FROM facts INDEXED BY facts_report WHERE report_id=? AND "
                               "statement=? AND source NOT LIKE 'import:%'", (report_id, statement)).fetchall()
        return {r[0] for r in rows}

    def documented_reports(self) -> frozenset[int]:
        """The reports read from a document (their tables or sections in the store), not only imported values."""
        return self.table_index.documented()

    def has_text(self, report_id: int) -> bool:
        """Whether the report's text is in the store (an ingested document, not only imported values)."""
        return report_id in self.table_index.reports_having("chunks")

    def item_values(self, item: str) -> list[ItemValue]:
        """The current-period numeric facts of an item across every report: document facts before
        imported ones, then in store order (a report may appear more than once: keep its first)."""
        q = (f"SELECT report_id, value, num, page, source FROM facts WHERE item=? AND period='current' "
             f"AND num IS NOT NULL AND {_scope(False)} ORDER BY {_SOURCE_ORDER}, id")
        return [ItemValue(*row) for row in self.db.execute(q, (item,))]

    def text_values(self, item: str) -> Iterator[tuple[int, str]]:
        """(report id, value) of a field's current-period facts across every report (注册地址 …), document
        facts before imported ones, then in store order."""
        q = f"SELECT report_id, value FROM facts WHERE item=? AND period='current' AND {_scope(False)} ORDER BY {_SOURCE_ORDER}, id"
        for rid, value in self.db.execute(q, (item,)):
            yield rid, value

    def balance_sheet_page(self, report_id: int) -> int | None:
        """The first page of the report's own (document, not imported) balance sheet, if it has one."""
        row = self.db.execute(
            "SELECT MIN(page) FROM facts WHERE report_id=? AND statement='资产负债表' AND source IN ('pdf','txt')",
            (report_id,)).fetchone()
        return row[0] if row else None

    # ------------------------------------------------------------------------------ sections and chunks

    def section_ancestors(self, section_ids: Sequence[int]) -> list[SectionHead]:
        """These sections and every section above them (no text, its length instead)."""
        if not section_ids:
            return []
        marks = ",".join("?" * len(section_ids))
        # the parent is read by a correlated lookup: a join in the recursive step makes SQLite build a
        # Bloom filter over every section of the store at each step (30 ms instead of 0.6 ms at 200 reports)
        rows = self.db.execute(
            f"WITH RECURSIVE up(id) AS (SELECT id FROM sections WHERE id IN ({marks}) UNION "
            f"SELECT (SELECT parent_id FROM sections WHERE id = up.id) FROM up WHERE up.id IS NOT NULL) "
            f"SELECT {_SECTION_COLS} FROM up JOIN sections s ON s.id = up.id", list(section_ids)).fetchall()
        return [SectionHead(*row) for row in rows]

    def section_subtree(self, section_id: int) -> list[int]:
        """The section's id and the ids of every section below it."""
        return [r[0] for r in self.db.execute(
            "WITH RECURSIVE down(id) AS (SELECT ? UNION ALL SELECT s.id FROM sections s JOIN down ON s.parent_id = down.id)"
            " SELECT id FROM down", (section_id,))]

    def section_chunks(self, report_id: int, section_ids: Sequence[int | None]) -> list[ChunkText]:
        """The chunks of these sections of the report, in reading (store) order."""
        marks = ",".join("?" * len(section_ids))
        rows = self.db.execute(
            f"SELECT id, path, text, page_start, page_end FROM chunks WHERE report_id=? AND section_id IN ({marks})"
            " ORDER BY id", (report_id, *section_ids)).fetchall()
        return [ChunkText(r[0], _path(r[1]), r[2], r[3], r[4]) for r in rows]

    def naming(self, name: str, limit: int = 50,
               report_id: int | Sequence[int] | None = None) -> list[tuple[int, str, str, int | None]]:
        """The chunks whose heading path names `name` (a subsidiary's registered name), as (report id,
        path, text, page), and the tables whose rows do (text: their rows), report by report; with
        `report_id` (one report's id, or several), those reports' only, read through their index, not a scan
        of the store (the limit counting their rows alone)."""
        # (its characters in order, anything between: a name printed with its brackets or spaces —
        # 四方星（上海）冷链科技有限公司 — is found by its words alone)
        # (a scan of every chunk's path and every table's rows, tens of ms on a store of a few dozen reports:
        # what it found is kept while the store stays the same — questions name the same subsidiaries)
        ids: tuple[int, ...] | None = None if report_id is None else \
            (report_id,) if isinstance(report_id, int) else tuple(sorted(set(report_id)))
        if ids is not None:   # (a report of imported values only holds no chunk or table: none is asked)
            documented = self.documented_reports()
            ids = tuple(i for i in ids if i in documented)
        if ids == ():
            return []
        state = self.state()
        if state != self._naming_state:
            self._naming_state = state
            self._naming.clear()
        key = (name, limit, ids)
        got = self._naming.get(key)
        if got is None:
            like = "%" + "%".join(name) + "%"
            # (several reports — a year's, thousands in a FinGLM store — as one JSON parameter: no limit on the
            # number of a statement's variables)
            of = "" if ids is None else "report_id=? AND " if len(ids) == 1 else \
                "report_id IN (SELECT value FROM json_each(?)) AND "
            args: tuple = (like, limit) if ids is None else (ids[0] if len(ids) == 1 else json.dumps(ids), like, limit)
            rows = self.db.execute(f"SELECT report_id, path, text, page_start FROM chunks WHERE {of}path LIKE ? LIMIT ?",
                                   args).fetchall()
            rows += self.db.execute(f"SELECT report_id, path, rows, page_start FROM tables WHERE {of}rows LIKE ? LIMIT ?",
                                    args).fetchall()
            got = [(r[0], r[1] or "", r[2] or "", r[3]) for r in rows]
            if len(self._naming) > 4096:
                self._naming.clear()
            self._naming[key] = got
        return list(got)

    def chunks_headed(self, report_id: int, words: Sequence[str]) -> list[ChunkText]:
        """The report's chunks whose heading path holds one of the words (主要控股参股公司), in reading order."""
        if not words:
            return []
        where = " OR ".join("path LIKE ?" for _ in words)
        rows = self.db.execute(f"SELECT id, path, text, page_start, page_end FROM chunks WHERE report_id=? AND ({where})"
                               " ORDER BY id", (report_id, *(f"%{w}%" for w in words))).fetchall()
        return [ChunkText(r[0], _path(r[1]), r[2], r[3], r[4]) for r in rows]

    def chunk_records(self, report_keys: Sequence[str] | None = None) -> Iterator[ChunkRecord]:
        """Every chunk of these reports (all when None) as a search backend indexes it, in store order."""
        q = ("SELECT c.id, r.key, r.stock_code, r.year, c.section_id, c.path, c.text, c.page_start, c.page_end"
             " FROM chunks c JOIN reports r ON r.id = c.report_id")
        keys: Sequence[str | None] = [None] if report_keys is None else report_keys
        for key in keys:
            rows = self.db.execute(q + (" WHERE r.key=?" if key else "") + " ORDER BY c.id", (key,) if key else ())
            for cid, rkey, code, year, sid, path, text, p0, p1 in rows:
                yield ChunkRecord(cid, rkey, code, year, sid, _path(path), text, p0, p1)
