"""Meaning or filler: the words a question has left once every slot took its own, read with a segmenter's
lexicon (jieba's dictionary, with parts of speech) and rules/lexicon.yaml.

A left-over word names something — a word of a catalog phrase (an item, synonym, formula, glossary term,
text topic, key disclosure), a qualifier cue of understanding.yaml's frame, a word of `meaning:`, or any
word of a content part of speech (a noun, a place, an adjective, a numeral, a word the lexicon lacks) —
and such a word stays in the question's accounting (`Understanding.left`): a value it would change is
declined, naming it. Every other word (a pronoun, a particle, a time or locality word, an adverb, a verb
no catalog phrase uses, a word of `filler:`) is how the question is asked: it is shown as filler in the
answer's record (`Understanding.filler`), never a reason to decline.

How words are cut: as jieba cuts them without its HMM (posseg's `cut(HMM=False)`: the most probable route
through the dictionary's words, log frequencies over the total; a character no word holds stands alone;
tags from the dictionary, `x` for none; runs of Latin letters and digits one word, `eng`). jieba's own
tokenizer takes ~1.5 s and ~150 MB to load its 350,000 words, which every `fin-qa ask` and every batch
process would pay; here its dictionary file is read once into a SQLite index in fin-qa's cache folder
(`lexicon/`, ~1 s, atomic: a reader sees the whole index or none) and a piece of a question looks up only
its own substrings (well under a millisecond). The words rules/lexicon.yaml adds overlay it in memory.
"""
from __future__ import annotations

import math
import os
import re
import sqlite3
import tempfile
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..catalog.lexicon import LexiconRules

_CJK = re.compile(r"[\u4e00-\u9fff]")
_RUNS = re.compile(r"[\u4e00-\u9fff]+|[A-Za-z0-9]+|[^\u4e00-\u9fffA-Za-z0-9\s]+")
NEW_WORD_FREQ = 10000   # a word added to the lexicon: frequent enough to be cut whole among its neighbours
MAX_WORD = 16           # the longest word looked up (the dictionary's longer entries are idioms of no use here)
_FORMAT = 1             # the index's layout: a new one is built when it changes


@dataclass(frozen=True)
class Word:
    text: str
    pos: str
    meaning: bool
    why: str          # meaning | filler (overrides), cue, catalog, part of speech


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

    def _build(self, path: Path) -> None:
        """Read the dictionary file into a new index at `path` (written aside, then moved in place)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name, dir=path.parent)
        os.close(fd)
        try:
            db = sqlite3.connect(tmp)
            db.execute("CREATE TABLE words (word TEXT PRIMARY KEY, freq INTEGER, tag TEXT) WITHOUT ROWID")
            total = 0
            rows = {}
            with self.source.open(encoding="utf-8") as f:
                for line in f:
                    parts = line.split()
                    if len(parts) < 2 or not parts[1].isdigit():
                        continue
                    freq = int(parts[1])
                    total += freq
                    rows[parts[0]] = (freq, parts[2] if len(parts) > 2 else "x")
            db.executemany("INSERT INTO words VALUES (?, ?, ?)", ((w, f, t) for w, (f, t) in rows.items()))
            db.execute("CREATE TABLE meta (total INTEGER)")
            db.execute("INSERT INTO meta VALUES (?)", (total,))
            db.commit()
            db.close()
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)

    def open(self) -> sqlite3.Connection:
        with self._lock:
            if self._db is None:
                path = self._path()
                if not path.is_file():
                    try:
                        self._build(path)
                    except OSError:
                        # a cache folder we cannot write: the index in a folder of this process's own
                        self.folder = Path(tempfile.mkdtemp(prefix="fin-qa-lexicon-"))
                        path = self._path()
                        self._build(path)
                db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
                self.total = db.execute("SELECT total FROM meta").fetchone()[0]
                self._db = db
        return self._db

    def lookup(self, words: Iterable[str]) -> dict[str, tuple[int, str]]:
        """The dictionary's (frequency, tag) of each of the words it has."""
        db = self.open()
        ws = list(dict.fromkeys(words))
        out: dict[str, tuple[int, str]] = {}
        for i in range(0, len(ws), 500):
            chunk = ws[i:i + 500]
            q = f"SELECT word, freq, tag FROM words WHERE word IN ({','.join('?' * len(chunk))})"
            with self._lock:
                out.update({w: (f, t) for w, f, t in db.execute(q, chunk)})
        return out


class Lexicon:
    """Splits left-over words into the words that name something and the filler."""

    def __init__(self, rules: LexiconRules, catalog_phrases: Iterable[str] = (), cues: Iterable[re.Pattern] = (),
                 index: DictionaryIndex | None = None):
        self.rules = rules
        self._phrases = tuple(catalog_phrases)
        self._cues = tuple(cues)
        self._index = index
        self._added: dict[str, tuple[int, str]] = {}
        self._catalog_seen: dict[str, bool] = {}   # word → whether a catalog phrase has it
        self._lock = threading.Lock()

    @property
    def index(self) -> DictionaryIndex:
        if self._index is None:
            self._index = DictionaryIndex()
        return self._index

    def _entries(self, words: Iterable[str]) -> dict[str, tuple[int, str]]:
        """(frequency, tag) of the words the lexicon has: the dictionary's, with the file's words over them (a
        word the dictionary has keeps its frequency, only its tag changes: 问; a new one is cut whole where it
        stands: 财报, not 财 + 报上)."""
        ws = list(words)
        found = self.index.lookup(ws)
        for w, tag in self.rules.words:
            if w in ws:
                found[w] = (found[w][0] if w in found else NEW_WORD_FREQ, tag)
        return found

    def _total(self) -> int:
        """The frequencies' total, the file's words added as jieba's add_word adds them."""
        if not self._added:
            self._added = self._entries(w for w, _ in self.rules.words)
        return (self.index.total + sum(f for f, _ in self._added.values())) or 1

    def cut(self, text: str) -> list[tuple[str, str]]:
        """(word, part of speech) of a text, as jieba's posseg cuts it without its HMM."""
        out: list[tuple[str, str]] = []
        for run in _RUNS.findall(text):
            if not _CJK.match(run):
                out.append((run, "m" if run.isdigit() else "eng" if run.isalnum() else "x"))
                continue
            n = len(run)
            subs = {run[i:j] for i in range(n) for j in range(i + 1, min(n, i + MAX_WORD) + 1)}
            known = self._entries(subs)
            logtotal = math.log(self._total())
            route: list[tuple[float, int]] = [(0.0, 0)] * (n + 1)
            for i in range(n - 1, -1, -1):
                ends = [j for j in range(i, min(n, i + MAX_WORD)) if run[i:j + 1] in known] or [i]
                route[i] = max((math.log(known.get(run[i:j + 1], (1, ""))[0] or 1) - logtotal + route[j + 1][0], j)
                               for j in ends)
            i = 0
            while i < n:
                j = route[i][1] + 1
                w = run[i:j]
                out.append((w, known[w][1] if w in known else "x"))
                i = j
        return out

    def _in_catalog(self, word: str) -> bool:
        """Whether a word is a word of one of the catalog's phrases as the lexicon cuts it (支付 of 支付的各项
        税费; not 显示 of a phrase holding 显示器): the phrases holding its characters are cut, once a word."""
        with self._lock:
            got = self._catalog_seen.get(word)
        if got is None:
            got = any(word in (w for w, _ in self.cut(p)) for p in self._phrases if word in p)
            with self._lock:
                self._catalog_seen[word] = got
        return got

    def words(self, text: str) -> list[Word]:
        """The words of a piece of a question, each told meaning or filler, with why."""
        if not _CJK.search(text):
            return [Word(text, "x", True, "not Chinese")] if text.strip() else []
        return [self._tell(w, pos) for w, pos in self.cut(text) if w.strip()]

    def _tell(self, word: str, pos: str) -> Word:
        r = self.rules
        if word in r.meaning:
            return Word(word, pos, True, "meaning")
        if word in r.filler:
            return Word(word, pos, False, "filler")
        if any(rx.search(word) for rx in self._cues):
            return Word(word, pos, True, "cue")
        if pos in r.filler_pos and len(word) >= 2 and self._in_catalog(word):
            return Word(word, pos, True, "catalog")
        return Word(word, pos, pos not in r.filler_pos, "part of speech")

    def ends_asking(self, text: str) -> bool:
        """Whether a text ends with a word saying how the question is asked ("请问", "麻烦帮我查下"): what may
        stand before a company's name (请问四方…) as a boundary does."""
        words = self.words(text[-8:]) if _CJK.search(text[-1:]) else []
        return bool(words) and not words[-1].meaning

    def begins_asking(self, text: str) -> bool:
        """Whether a text starts with a word saying how the question is asked ("那年（2020年）", "当时"): what
        may follow a company's name (金宇生物那年…) as a boundary does."""
        words = self.words(text[:8]) if _CJK.search(text[:1]) else []
        return bool(words) and not words[0].meaning

    def split(self, piece: str) -> tuple[list[str], list[str]]:
        """(the runs of words that name something, the filler words) of a piece of a question."""
        meaning: list[str] = []
        filler: list[str] = []
        run = ""
        for w in self.words(piece):
            if w.meaning:
                run += w.text
                continue
            filler.append(w.text)
            if run:
                meaning.append(run)
                run = ""
        if run:
            meaning.append(run)
        return meaning, filler
