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

import json
import math
import sqlite3
from collections import Counter, OrderedDict
from typing import Iterable, NamedTuple, Sequence

from .models import TableRecord

K1 = 1.2
B = 0.75
REPORTS_KEPT = 64   # reports whose tables are held (a serving process answers many questions per report)


def fts_tokens(text: str) -> list[str]:
    """The tokens FTS5's unicode61 tokenizer reads from the stored (already analysed) text: runs of
    letters and digits, lower case; every other character separates."""
    out: list[str] = []
    cur: list[str] = []
    for ch in text:
        if ch.isalnum():
            cur.append(ch.lower() if ch.isascii() else ch)
        elif cur:
            out.append("".join(cur))
            cur = []
    if cur:
        out.append("".join(cur))
    return out


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


class _Doc(NamedTuple):
    heading: list[str]
    body: list[str]


class _Report(NamedTuple):
    tables: dict[int, TableRecord]
    docs: dict[int, _Doc]
    postings: dict[str, dict[int, tuple[int, int]]]   # token → table id → (count in heading, in body)


class TableIndex:
    def __init__(self, db: sqlite3.Connection):
        self.db = db
        self._state: tuple[int, int] | None = None
        self._reports: OrderedDict[int, _Report] = OrderedDict()
        self._docs: dict[tuple[str, ...], int] = {}    # phrase → the store's tables holding it
        self._totals: tuple[int, float] | None = None  # (rows, average tokens per row)
        self._vocab_ready = False

    # --------------------------------------------------------------------------- caches

    def _fresh(self) -> None:
        state = (self.db.execute("PRAGMA data_version").fetchone()[0], self.db.total_changes)
        if state != self._state:
            self._state = state
            self._reports.clear()
            self._docs.clear()
            self._totals = None

    def _report(self, report_id: int) -> _Report:
        self._fresh()
        got = self._reports.get(report_id)
        if got is not None:
            self._reports.move_to_end(report_id)
            return got
        tables: dict[int, TableRecord] = {}
        for r in self.db.execute(
                "SELECT id, report_id, section_id, path, caption, unit, page_start, page_end, header, rows, pages"
                " FROM tables WHERE report_id=? ORDER BY id", (report_id,)):
            tables[r[0]] = TableRecord(r[0], r[1], r[2], _path(r[3]), r[4] or "", r[5], r[6], r[7], json.loads(r[8]),
                                       json.loads(r[9]), json.loads(r[10]))
        docs: dict[int, _Doc] = {}
        postings: dict[str, dict[int, tuple[int, int]]] = {}
        if tables:
            lo, hi = min(tables), max(tables)
            for rowid, heading, body in self.db.execute(
                    "SELECT rowid, heading, body FROM tables_fts WHERE rowid BETWEEN ? AND ?", (lo, hi)):
                if rowid not in tables:
                    continue
                doc = docs[rowid] = _Doc(fts_tokens(heading or ""), fts_tokens(body or ""))
                h, b = Counter(doc.heading), Counter(doc.body)
                for tok in h.keys() | b.keys():
                    postings.setdefault(tok, {})[rowid] = (h.get(tok, 0), b.get(tok, 0))
        got = self._reports[report_id] = _Report(tables, docs, postings)
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
                    self.db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.tables_fts_terms"
                                    " USING fts5vocab(main, 'tables_fts', 'row')")
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
        held = self._report(report_id).tables
        if ids is None:
            return list(held.values())
        return [held[i] for i in sorted(set(ids)) if i in held]

    def match(self, words: Sequence[str], report_id: int, size: int, heading_weight: float = 2.0) -> list[int]:
        """The ids of the report's best `size` tables for any of the words (each a phrase, as FTS5 reads
        `"w1" OR "w2" …`), best first: FTS5's bm25 with the heading weighted."""
        rep = self._report(report_id)
        phrases: list[tuple[str, ...]] = []
        for w in words:
            p = tuple(fts_tokens(w))
            if p:
                phrases.append(p)
        if not phrases or not rep.docs:
            return []
        freq: dict[int, list[float]] = {}
        for i, p in enumerate(phrases):
            for tid, (nh, nb) in self._counts(rep, p).items():
                f = freq.get(tid)
                if f is None:
                    f = freq[tid] = [0.0] * len(phrases)
                for _ in range(nh):
                    f[i] += heading_weight
                for _ in range(nb):
                    f[i] += 1.0
        if not freq:
            return []
        rows, avgdl = self._store_totals()
        idf = []
        for p in phrases:
            n = self._documents_with(p)
            x = math.log((rows - n + 0.5) / (n + 0.5)) if rows else 0.0
            idf.append(x if x > 0.0 else 1e-6)
        scored = []
        for tid, f in freq.items():
            doc = rep.docs[tid]
            d = float(len(doc.heading) + len(doc.body))
            score = 0.0
            for i in range(len(phrases)):
                score += idf[i] * ((f[i] * (K1 + 1.0)) / (f[i] + K1 * (1 - B + B * d / avgdl)))
            scored.append((-1.0 * score, tid))
        scored.sort()
        return [tid for _, tid in scored[:size]]

    @staticmethod
    def _counts(rep: _Report, phrase: tuple[str, ...]) -> dict[int, tuple[int, int]]:
        """Table id → the phrase's instances in its heading and its body."""
        if len(phrase) == 1:
            return rep.postings.get(phrase[0], {})
        first = rep.postings.get(phrase[0], {})
        out: dict[int, tuple[int, int]] = {}
        for tid in first:
            if not all(tid in rep.postings.get(t, {}) for t in phrase[1:]):
                continue
            doc = rep.docs[tid]
            n = [sum(1 for k in range(len(toks) - len(phrase) + 1) if tuple(toks[k:k + len(phrase)]) == phrase)
                 for toks in (doc.heading, doc.body)]
            if n[0] or n[1]:
                out[tid] = (n[0], n[1])
        return out


def _path(text: str | None) -> list[str]:
    return json.loads(text) if text else []
