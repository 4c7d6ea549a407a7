"""The tables of a report, held in memory once read: decoded records and an inverted index of their words.

A question's cells are looked for in its report's tables only (answer/cells.py). SQLite's FTS5 answers
`tables_fts MATCH … AND t.report_id = ?` by reading every matching row of every report, and
computes each phrase's document frequency over the whole store on every query. The cost therefore grows
with the store. This index keeps each report's table words (token → tables, with their counts per column,
as FTS5's unicode61 tokenizer splits the stored text) and gives the same ranking as FTS5's bm25 over the
same rows:

    score = Σ_i idf_i · f_i·(k1+1) / (f_i + k1·(1 − b + b·|D|/avgdl)),   k1 = 1.2, b = 0.75
    idf_i = ln((N − n_i + 0.5) / (n_i + 0.5)), or 1e-6 when not positive

N, avgdl and each phrase's n_i are the store's (read from FTS5's own averages record and, once per word,
from an fts5vocab table). f_i sums the column weights of the phrase's instances in the table. That is
how sqlite's fts5Bm25Function computes it, in the same order of operations.

A question then costs only its report's tables and its own words. The caches are dropped when the
database changes: a commit by another connection (PRAGMA data_version), or one by this connection
(total_changes).
"""
from __future__ import annotations

import heapq
import json
import math
import re
import sqlite3
from collections import Counter, OrderedDict
from typing import Callable, Iterable, NamedTuple, Sequence

from .models import TableRecord

# each word's count of tables over the store, read from FTS5's own index (a read-only store makes it when
# it opens, before it turns query_only)
TABLE_TERMS = "CREATE VIRTUAL TABLE IF NOT EXISTS temp.tables_fts_terms USING fts5vocab(main, 'tables_fts', 'row')"
K1 = 1.2
B = 0.75
REPORTS_KEPT = 64   # reports whose tables are held (a serving process answers many questions per report)


_ALNUM = re.compile(r"[^\W_]+")
_PLAIN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaffa-z0-9 ]*")   # analysed text split by spaces alone


def fts_tokens(text: str) -> list[str]:
    """The tokens FTS5's unicode61 tokenizer reads from the stored (already analysed: CJK bigrams, lower-case
    Latin words and numbers, space-separated) text: runs of letters and digits; every other character
    separates ("12.5" is two tokens)."""
    if "." not in text and "%" not in text and _PLAIN.fullmatch(text):
        return text.split()
    return _ALNUM.findall(text.lower())


def _varints(blob: bytes) -> list[int]:
    """SQLite's variable-length integers (FTS5's averages record: rows, then tokens per column)."""
    out: list[int] = []
    i = 0
    while i < len(blob):
        v = 0
        for n in range(9):
            byte = blob[i]
            i += 1
            if n == 8:
                v = (v << 8) | byte
                break
            v = (v << 7) | (byte & 0x7F)
            if not byte & 0x80:
                break
        out.append(v)
    return out


class _Report:
    """A report's tables as read: their rows decoded when first asked for, and their words as an inverted
    index (each word → the tables holding it, with its count in their heading and body), built at once (a
    pass over the tables' words, cheaper than a pass per word once a report has had a few questions)."""

    def __init__(self, raw: dict[int, tuple], words: dict[int, tuple[Counter, Counter, int]]):
        self.raw = raw                      # table id → its row of `tables`, undecoded
        self.sizes = {tid: w[2] for tid, w in words.items()}   # table id → its tokens in all
        self.decoded: dict[int, TableRecord] = {}
        self.postings: dict[str, dict[int, tuple[int, int]]] = {}   # token → table id → (heading, body)
        for tid, (h, b, _) in words.items():   # (in table order: each posting lists its tables in order)
            for tok, n in h.items():
                self.postings.setdefault(tok, {})[tid] = (n, b.get(tok, 0))
            for tok, n in b.items():
                if tok not in h:
                    self.postings.setdefault(tok, {})[tid] = (0, n)
        self.texts: dict[int, tuple[list[str], list[str]]] = {}     # table id → its tokens (phrases)
        self.ordered = sorted(raw)
        self.weights: dict[tuple[tuple[str, ...], float], dict[int, float]] = {}   # (phrase, heading weight) → …
        self._norms: tuple[float, dict[int, float]] = (-1.0, {})

    def table(self, tid: int) -> TableRecord:
        got = self.decoded.get(tid)
        if got is None:
            r = self.raw[tid]
            got = self.decoded[tid] = TableRecord(r[0], r[1], r[2], stored_path(r[3]), r[4] or "", r[5], r[6], r[7],
                                                  json.loads(r[8]), json.loads(r[9]), json.loads(r[10]))
        return got

    def weighted(self, phrase: tuple[str, ...], heading_weight: float,
                 counts: Callable[[_Report, tuple[str, ...]], dict[int, tuple[int, int]]]) -> dict[int, float]:
        """Table id → the phrase's weight in it: FTS5 adds the column weight once per instance."""
        key = (phrase, heading_weight)
        got = self.weights.get(key)
        if got is None:
            got = {}
            for tid, (nh, nb) in counts(self, phrase).items():
                f = 0.0
                for _ in range(nh):
                    f += heading_weight
                for _ in range(nb):
                    f += 1.0
                got[tid] = f
            self.weights[key] = got
        return got

    def norms(self, avgdl: float) -> dict[int, float]:
        """Table id → bm25's length normalisation k1·(1 − b + b·|D|/avgdl) (for the store's average)."""
        if self._norms[0] != avgdl:
            self._norms = (avgdl, {tid: K1 * (1 - B + B * float(n) / avgdl) for tid, n in self.sizes.items()})
        return self._norms[1]

    def posting(self, token: str) -> dict[int, tuple[int, int]]:
        return self.postings.get(token, _NONE)


_NONE: dict[int, tuple[int, int]] = {}


class TableIndex:
    def __init__(self, db: sqlite3.Connection):
        self.db = db
        self._state: tuple[int, int] | None = None
        self._reports: OrderedDict[int, _Report] = OrderedDict()
        self._docs: dict[tuple[str, ...], int] = {}    # phrase → the store's tables holding it
        self._totals: tuple[int, float] | None = None  # (rows, average tokens per row)
        self._vocab_ready = False
        self._words_indexed: dict[int, bool] = {}

    # --------------------------------------------------------------------------- caches

    @property
    def words_indexed(self) -> dict[int, bool]:
        """report id → whether the store indexes its table words (Store.vocabulary_of), as of now."""
        self._fresh()
        return self._words_indexed

    def _fresh(self) -> None:
        state = (self.db.execute("PRAGMA data_version").fetchone()[0], self.db.total_changes)
        if state != self._state:
            self._state = state
            self._reports.clear()
            self._docs.clear()
            self._words_indexed.clear()
            self._totals = None

    def _report(self, report_id: int) -> _Report:
        self._fresh()
        got = self._reports.get(report_id)
        if got is not None:
            self._reports.move_to_end(report_id)
            return got
        raw = {r[0]: r for r in self.db.execute(
            "SELECT id, report_id, section_id, path, caption, unit, page_start, page_end, header, rows, pages"
            " FROM tables WHERE report_id=?", (report_id,))}
        words: dict[int, tuple[Counter, Counter, int]] = {}
        if raw:
            for rowid, heading, body in self.db.execute(
                    "SELECT rowid, heading, body FROM tables_fts WHERE rowid BETWEEN ? AND ?", (min(raw), max(raw))):
                if rowid in raw:
                    h, b = fts_tokens(heading or ""), fts_tokens(body or "")
                    words[rowid] = (Counter(h), Counter(b), len(h) + len(b))
        got = self._reports[report_id] = _Report(raw, words)
        if len(self._reports) > REPORTS_KEPT:
            self._reports.popitem(last=False)
        return got

    def _store_totals(self) -> tuple[int, float]:
        if self._totals is None:
            row = self.db.execute("SELECT block FROM tables_fts_data WHERE id=1").fetchone()
            counts = _varints(bytes(row[0])) if row and row[0] else [0]
            rows, tokens = counts[0], sum(counts[1:])
            self._totals = (rows, tokens / rows if rows else 0.0)
        return self._totals

    def _documents_with(self, phrase: tuple[str, ...]) -> int:
        """How many of the store's tables hold the phrase (FTS5's n_i, over every report)."""
        got = self._docs.get(phrase)
        if got is None:
            if len(phrase) == 1:
                if not self._vocab_ready:
                    if not self.db.execute("SELECT 1 FROM temp.sqlite_master WHERE name='tables_fts_terms'").fetchone():
                        self.db.execute(TABLE_TERMS)
                    self._vocab_ready = True
                row = self.db.execute("SELECT doc FROM temp.tables_fts_terms WHERE term=?", phrase).fetchone()
                got = row[0] if row else 0
            else:
                got = self.db.execute("SELECT count(*) FROM tables_fts WHERE tables_fts MATCH ?",
                                      ('"' + " ".join(phrase) + '"',)).fetchone()[0]
            self._docs[phrase] = got
        return got

    # --------------------------------------------------------------------------- reads

    def tables(self, report_id: int, ids: Iterable[int] | None = None) -> list[TableRecord]:
        """The report's tables (these ids only, when given), in reading order (shared: never changed)."""
        rep = self._report(report_id)
        wanted = rep.ordered if ids is None else sorted(i for i in set(ids) if i in rep.raw)
        return [rep.table(i) for i in wanted]

    def match(self, words: Sequence[str], report_id: int, size: int, heading_weight: float = 2.0) -> list[int]:
        """The ids of the report's best `size` tables for any of the words (each a phrase, as FTS5 reads
        `"w1" OR "w2" …`), best first: FTS5's bm25 with the heading weighted."""
        rep = self._report(report_id)
        phrases: list[tuple[str, ...]] = []
        for w in words:
            p = tuple(fts_tokens(w))
            if p:
                phrases.append(p)
        if not phrases or not rep.sizes:
            return []
        weighted = [rep.weighted(p, heading_weight, self._counts) for p in phrases]
        if not any(weighted):
            return []
        rows, avgdl = self._store_totals()
        norms = rep.norms(avgdl)
        k1 = K1 + 1.0
        scores: dict[int, float] = {}
        for p, fs in zip(phrases, weighted):
            if not fs:
                continue
            n = self._documents_with(p)
            idf = math.log((rows - n + 0.5) / (n + 0.5)) if rows else 0.0
            if idf <= 0.0:
                idf = 1e-6
            # each table's sum in the phrases' order (a phrase the table lacks adds 0.0: left out, the sum
            # is the same)
            for tid, x in fs.items():
                scores[tid] = scores.get(tid, 0.0) + idf * ((x * k1) / (x + norms[tid]))
        best = heapq.nsmallest(size, ((-1.0 * score, tid) for tid, score in scores.items()))
        return [tid for _, tid in best]

    def _counts(self, rep: _Report, phrase: tuple[str, ...]) -> dict[int, tuple[int, int]]:
        """Table id → the phrase's instances in its heading and its body."""
        if len(phrase) == 1:
            return rep.posting(phrase[0])
        out: dict[int, tuple[int, int]] = {}
        for tid in rep.posting(phrase[0]):
            if not all(tid in rep.posting(t) for t in phrase[1:]):
                continue
            toks = rep.texts.get(tid)
            if toks is None:
                heading, body = self.db.execute("SELECT heading, body FROM tables_fts WHERE rowid=?", (tid,)).fetchone()
                toks = rep.texts[tid] = (fts_tokens(heading or ""), fts_tokens(body or ""))
            n = [sum(1 for k in range(len(t) - len(phrase) + 1) if tuple(t[k:k + len(phrase)]) == phrase)
                 for t in toks]
            if n[0] or n[1]:
                out[tid] = (n[0], n[1])
        return out


def stored_path(text: str | None) -> list[str]:
    """A heading path as stored (a JSON list) → the list."""
    return json.loads(text) if text else []
