"""jieba's dictionary (word, frequency, part of speech a line, ~350,000 words) as a SQLite index built once
in fin-qa's cache folder (`lexicon/`), for fin_qa/understand/lexicon.py: a question looks up only its own
substrings, where jieba's own tokenizer costs ~1.5 s and ~150 MB a process to load. Built aside and moved in
place (a reader sees the whole index or none; two processes building at once each move a whole one in),
readable by every user of a shared cache; a damaged one is built again; where the folder cannot be
written, one in the process's memory (nothing left behind)."""
from __future__ import annotations

import os
import sqlite3
import tempfile
import threading
from collections.abc import Iterable
from pathlib import Path

_FORMAT = 2             # the index's layout: a new one is built when it changes (2: with the words' prefixes)
PREFIX = ""             # the tag of an entry that is only the beginning of longer words (frequency 0)


def dictionary_file() -> Path:
    """jieba's dictionary (word, frequency, part of speech a line), as its package ships it."""
    import importlib.util

    spec = importlib.util.find_spec("jieba")   # (found, not imported: jieba's import builds its own tables)
    if spec is None or spec.origin is None:
        from ..base import FinQAError

        raise FinQAError("the jieba package is not installed: pip install jieba (its dictionary is fin-qa's lexicon)")
    return Path(spec.origin).with_name("dict.txt")


def default_index_folder() -> Path:
    from ..config import cache_dir

    return cache_dir() / "lexicon"


class DictionaryIndex:
    """jieba's dictionary as a SQLite index (word → frequency, tag) built once in a folder, and its total."""

    def __init__(self, folder: Path | None = None, source: Path | None = None):
        self.source = source or dictionary_file()
        self.folder = folder or default_index_folder()
        self._db: sqlite3.Connection | None = None
        self.total = 0
        self._lock = threading.Lock()

    def _path(self) -> Path:
        st = self.source.stat()
        return self.folder / f"jieba-{st.st_size}-{int(st.st_mtime)}-v{_FORMAT}.sqlite"

    def _rows(self) -> tuple[dict[str, tuple[int, str]], int]:
        """The dictionary file's words (word → frequency, tag) and their total."""
        total = 0
        rows: dict[str, tuple[int, str]] = {}
        with self.source.open(encoding="utf-8") as f:
            for line in f:
                parts = line.split()
                if len(parts) < 2 or not parts[1].isdigit():
                    continue
                freq = int(parts[1])
                total += freq
                rows[parts[0]] = (freq, parts[2] if len(parts) > 2 else "x")
        return rows, total

    def _fill(self, db: sqlite3.Connection) -> None:
        rows, total = self._rows()
        # every beginning of a word that is no word itself, tagged PREFIX: a reader extends a string only while
        # it begins some word (jieba's prefix dictionary), looking up a few of a text's substrings, not all
        prefixes = {w[:k] for w in rows for k in range(1, len(w))} - rows.keys()
        db.execute("CREATE TABLE words (word TEXT PRIMARY KEY, freq INTEGER, tag TEXT) WITHOUT ROWID")
        db.executemany("INSERT INTO words VALUES (?, ?, ?)", ((w, f, t) for w, (f, t) in rows.items()))
        db.executemany("INSERT INTO words VALUES (?, 0, ?)", ((p, PREFIX) for p in prefixes))
        db.execute("CREATE TABLE meta (total INTEGER)")
        db.execute("INSERT INTO meta VALUES (?)", (total,))
        db.commit()

    def _build(self, path: Path) -> None:
        """Read the dictionary file into a new index at `path` (written aside, then moved in place: a reader
        sees the whole index or none; two processes building at once each move a whole one in)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name, dir=path.parent)
        os.close(fd)
        try:
            db = sqlite3.connect(tmp)
            self._fill(db)
            db.close()
            os.chmod(tmp, 0o644)   # (a cache folder shared by several users: each may read it)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)

    def _connect(self, path: Path) -> sqlite3.Connection:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        self.total = db.execute("SELECT total FROM meta").fetchone()[0]
        db.execute("SELECT 1 FROM words LIMIT 1").fetchall()
        return db

    def open(self) -> sqlite3.Connection:
        """The index: the cache folder's, built when it is missing or unreadable (a truncated file is built
        again); where the folder cannot be written, one in this process's memory (~2 s, nothing left behind)."""
        with self._lock:
            if self._db is None:
                path = self._path()
                db = None
                for attempt in (1, 2):
                    try:
                        if attempt == 2 or not path.is_file():
                            self._build(path)
                        db = self._connect(path)
                        break
                    except (OSError, sqlite3.Error):
                        if attempt == 2:
                            db = None
                if db is None:
                    db = sqlite3.connect(":memory:", check_same_thread=False)
                    self._fill(db)
                    self.total = db.execute("SELECT total FROM meta").fetchone()[0]
                self._db = db
        return self._db

    def lookup(self, words: Iterable[str]) -> dict[str, tuple[int, str]]:
        """The dictionary's (frequency, tag) of each of the words it has, and (0, PREFIX) of each string that is
        only the beginning of some words."""
        db = self.open()
        ws = list(dict.fromkeys(words))
        out: dict[str, tuple[int, str]] = {}
        for i in range(0, len(ws), 500):
            chunk = ws[i:i + 500]
            q = f"SELECT word, freq, tag FROM words WHERE word IN ({','.join('?' * len(chunk))})"
            with self._lock:
                out.update({w: (f, t) for w, f, t in db.execute(q, chunk)})
        return out


