"""Research notes in the store (个股研报, 行业研报): a second kind of document beside the filings (issue 46).

A note is stored whole, apart from the filings — its own rows (notes), its chunks with their heading paths and
pages (note_chunks), the titles of its figures (note_figures) and its own FTS5 index (notes_fts) — so that no
filing's answer ever reads a note's number as the company's: a note is quoted as the note's, and searched
only by the readers that ask for notes (answer/notes.py).
"""
from __future__ import annotations

import json
import re
import sqlite3
import unicodedata
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

from ..bigrams import analyze
from .models import ChunkRecord

NOTE_KEY = "note:"   # a note's key in search hits and evidence: note:<id>
_NOT_WORD = re.compile(r"[\W_]+")


def title_key(text: str) -> str:
    """A title as compared: width folded, lower case, its words only (no spaces, punctuation or brackets)."""
    return _NOT_WORD.sub("", unicodedata.normalize("NFKC", text)).lower()


@dataclass
class NoteMeta:
    """What identifies a note: its title, broker, date and what it covers (a company, else an industry)."""
    title: str
    kind: str = "industry"             # stock (个股研报) | industry (行业研报)
    broker: str | None = None          # 国金证券
    publish_date: str | None = None    # YYYY-MM-DD
    stock_code: str | None = None
    stock_name: str | None = None
    industry: str | None = None
    rating: str | None = None          # 买入, 增持 …
    info: dict[str, Any] = field(default_factory=dict)   # the info sheet's row as printed (EPS and PE forecasts …)


@dataclass
class NoteChunk:
    path: list[str]                    # [title, heading]
    text: str
    page: int | None


@dataclass
class Note:
    id: int
    path: str
    meta: NoteMeta
    pages: int | None

    @property
    def key(self) -> str:
        return f"{NOTE_KEY}{self.id}"


@dataclass
class NoteHit:
    note: Note
    chunk_id: int
    path: list[str]
    text: str
    page: int | None
    score: float


class NoteShelf:
    """The store's notes (Store.notes): written with a note's chunks and index rows in one transaction."""

    def __init__(self, db: sqlite3.Connection, transaction: Callable[[], AbstractContextManager[None]],
                 has_table: Callable[[str], bool]) -> None:
        self.db = db
        self._transaction = transaction
        self._has = has_table
        self._all: tuple[Any, list[Note]] | None = None

    def by_hash(self, sha256: str, parser: int) -> str | None:
        if not self._has("notes"):
            return None
        row = self.db.execute("SELECT path FROM notes WHERE sha256=? AND parser>=?", (sha256, parser)).fetchone()
        return row[0] if row else None

    def write(self, meta: NoteMeta, path: str, sha256: str, parser: int, pages: int, chunks: Sequence[NoteChunk],
              figures: Sequence[tuple[int, str]]) -> int:
        """Store a note (replacing the one of the same path or content), its chunks, figures and index rows."""
        with self._transaction():
            for (old,) in self.db.execute("SELECT id FROM notes WHERE path=? OR sha256=?", (path, sha256)).fetchall():
                self._delete(old)
            cur = self.db.execute(
                "INSERT INTO notes(path, sha256, parser, kind, title, broker, publish_date, stock_code, stock_name,"
                " industry, rating, pages, info) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (path, sha256, parser, meta.kind, meta.title, meta.broker, meta.publish_date, meta.stock_code,
                 meta.stock_name, meta.industry, meta.rating, pages, json.dumps(meta.info, ensure_ascii=False)))
            nid = int(cur.lastrowid or 0)
            for c in chunks:
                cid = self.db.execute("INSERT INTO note_chunks(note_id, path, text, page) VALUES(?,?,?,?)",
                                      (nid, json.dumps(c.path, ensure_ascii=False), c.text, c.page)).lastrowid
                self.db.execute("INSERT INTO notes_fts(rowid, heading, body) VALUES(?,?,?)",
                                (cid, analyze(" ".join(c.path)), analyze(c.text)))
            self.db.executemany("INSERT INTO note_figures VALUES(?,?,?)", [(nid, p, t) for p, t in figures])
        return nid

    def _delete(self, nid: int) -> None:
        self.db.execute("DELETE FROM notes_fts WHERE rowid IN (SELECT id FROM note_chunks WHERE note_id=?)", (nid,))
        self.db.execute("DELETE FROM note_chunks WHERE note_id=?", (nid,))
        self.db.execute("DELETE FROM note_figures WHERE note_id=?", (nid,))
        self.db.execute("DELETE FROM notes WHERE id=?", (nid,))

    def all(self, state: Any = None) -> list[Note]:
        """Every note (kept while `state`, the store's, stays the same)."""
        if self._all is not None and state is not None and self._all[0] == state:
            return self._all[1]
        out: list[Note] = []
        if self._has("notes"):
            for r in self.db.execute("SELECT id, path, kind, title, broker, publish_date, stock_code, stock_name, industry,"
                                     " rating, pages, info FROM notes ORDER BY publish_date DESC, id"):
                meta = NoteMeta(r[3], r[2], r[4], r[5], r[6], r[7], r[8], r[9], json.loads(r[11] or "{}"))
                out.append(Note(r[0], r[1], meta, r[10]))
        self._all = (state, out)
        return out

    def figures(self, note_id: int) -> list[tuple[int, str]]:
        return [(r[0], r[1]) for r in self.db.execute("SELECT page, title FROM note_figures WHERE note_id=? ORDER BY page",
                                                      (note_id,))]

    def match(self, expression: str, notes: dict[int, Note], size: int, heading_weight: float = 2.0) -> list[NoteHit]:
        """The best `size` chunks of these notes for an FTS5 MATCH expression (BM25, the heading weighted)."""
        if not notes or not self._has("notes_fts"):
            return []
        ids = ",".join(str(int(i)) for i in notes)
        rows = self.db.execute(
            "SELECT c.id, c.note_id, c.path, c.text, c.page, -bm25(notes_fts, ?, 1.0) AS s FROM notes_fts"
            f" JOIN note_chunks c ON c.id = notes_fts.rowid WHERE notes_fts MATCH ? AND c.note_id IN ({ids})"
            " ORDER BY s DESC LIMIT ?", (heading_weight, expression, size)).fetchall()
        return [NoteHit(notes[r[1]], r[0], json.loads(r[2] or "[]"), r[3], r[4], float(r[5])) for r in rows]

    def chunks(self, chunk_ids: Sequence[int], notes: dict[int, Note]) -> list[NoteHit]:
        """These chunks (an index's hits read back), in the order given."""
        if not chunk_ids:
            return []
        got = {r[0]: r for r in self.db.execute(
            f"SELECT id, note_id, path, text, page FROM note_chunks WHERE id IN ({','.join('?' * len(chunk_ids))})",
            list(chunk_ids))}
        return [NoteHit(notes[r[1]], r[0], json.loads(r[2] or "[]"), r[3], r[4], 0.0)
                for i in chunk_ids if (r := got.get(i)) is not None and r[1] in notes]

    def head(self, note: Note, n: int) -> list[NoteHit]:
        """A note's first `n` chunks, in reading order (what it says first: 投资要点, 事件, 业绩简评)."""
        rows = self.db.execute("SELECT id, path, text, page FROM note_chunks WHERE note_id=? ORDER BY id",
                               (note.id,)).fetchall()
        hits = [NoteHit(note, r[0], json.loads(r[1] or "[]"), r[2], r[3], 0.0) for r in rows]
        headed = [h for h in hits if len(h.path) > 1]   # (under a heading: not the cover's side panel)
        return (headed or hits)[:n]

    def records(self) -> Iterator[ChunkRecord]:
        """Every note chunk as a search backend indexes it (Elasticsearch's notes index): report_key note:<id>."""
        if not self._has("notes"):
            return
        for r in self.db.execute("SELECT c.id, c.note_id, n.stock_code, n.publish_date, c.path, c.text, c.page"
                                 " FROM note_chunks c JOIN notes n ON n.id = c.note_id ORDER BY c.id"):
            year = int(r[3][:4]) if r[3] and r[3][:4].isdigit() else 0
            yield ChunkRecord(r[0], f"{NOTE_KEY}{r[1]}", r[2], year, None, json.loads(r[4] or "[]"), r[5], r[6], r[6])

    def count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM notes").fetchone()[0]) if self._has("notes") else 0

