"""FTS5's bm25 over one report's rows of an FTS5 table (heading, body), from the report's words indexed at
ingest (StoredRows), or its rows held in memory (ReportRows, MatchedRows): a question costs its own words
(or its report's rows), not the store.

SQLite's FTS5 answers `… MATCH ? AND rowid BETWEEN ? AND ?` by seeking the report's rows, but its bm25
counts each phrase's documents over the whole index on every query, so the cost grows with the store.
This module keeps a report's rows as an inverted index (each token → the rows holding it, with its count
in the heading and in the body) and ranks them with the same formula, in the same order of operations as
sqlite's fts5Bm25Function:

    score = Σ_i idf_i · f_i·(k1+1) / (f_i + k1·(1 − b + b·|D|/avgdl)),   k1 = 1.2, b = 0.75
    idf_i = ln((N − n_i + 0.5) / (n_i + 0.5)), or 1e-6 when not positive

N and avgdl come from FTS5's own averages record; each phrase's n_i over the store from an fts5vocab table
(a single token: its 'row' table, or its 'col' table for a phrase of one column), else a count of its
MATCH, once per phrase. f_i adds the column weight once per instance of the phrase (in its column only,
when the phrase names one). Ties are broken by rowid, as FTS5's sorted output has them.

The caches are dropped when the database changes: a commit by another connection (PRAGMA data_version),
or one by this connection (total_changes) — read once per answer while `pinned_state` holds (a question
is answered from one state of the store; `steady` still checks the live state around a read). Used by
store/table_index.py (tables_fts) and store/chunk_index.py (chunks_fts).
"""
from __future__ import annotations

import array
import heapq
import math
import operator
import re
import sqlite3
import sys
import threading
import zlib
from collections import Counter, OrderedDict, defaultdict
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator, NamedTuple, Sequence, TypeVar

K1 = 1.2
B = 0.75
T = TypeVar("T")
D = TypeVar("D", bound="dict | set")   # a caller's cache: anything `clear()` empties
HEADING = 0   # the heading column's index (a phrase of that column only: "heading : …")
PHRASES_KEPT = 20_000   # phrases whose store counts (and, per report, weights) are kept

_ALNUM = re.compile(r"[^\W_]+")
# analysed text split by spaces alone: CJK ideographs (the compatibility block's assigned ones), a-z, 0-9
_PLAIN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufa6d\ufa70-\ufad9a-z0-9 ]*")


def fts_tokens(text: str) -> list[str]:
    """The tokens FTS5's unicode61 tokenizer reads from the stored (already analysed: CJK bigrams, lower-case
    Latin words and numbers, space-separated) text: runs of letters and digits; every other character
    separates ("12.5" is two tokens)."""
    plain = _spaced(text)
    return plain.split() if plain is not None else _ALNUM.findall(text.lower())


def _spaced(text: str) -> str | None:
    """The text with its tokens separated by spaces alone, where the analysed text's only other characters
    ('.', '%': both separate) are all it holds besides CJK ideographs, a-z, 0-9 and spaces; else None."""
    plain = text.replace(".", " ").replace("%", " ") if "." in text or "%" in text else text
    return plain if _PLAIN.fullmatch(plain) else None


def _size(spaced: str) -> int:
    """How many tokens a _spaced text holds."""
    if not spaced or "  " in spaced or spaced[0] == " " or spaced[-1] == " ":
        return len(spaced.split())
    return spaced.count(" ") + 1


def vocab_tables(fts: str) -> list[str]:
    """The statements making the fts5vocab tables of an FTS5 table (temp tables: a read-only store makes
    them when it opens, before it turns query_only)."""
    return [f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{fts}_terms USING fts5vocab(main, '{fts}', 'row')",
            f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{fts}_cols USING fts5vocab(main, '{fts}', 'col')"]


def indexed(ranker: "FtsRanker", sizes: str) -> bool:
    """Whether the store has the words indexed at ingest (its table `sizes`: table_sizes, chunk_sizes;
    asked again when the store changes: a store migrated since the connection opened)."""
    known: dict[str, bool] = ranker.cache("indexed", dict)
    got = known.get(sizes)
    if got is None:
        got = known[sizes] = ranker.db.execute("SELECT 1 FROM sqlite_master WHERE name=?", (sizes,)).fetchone() is not None
    return got


def db_state(db: sqlite3.Connection, live: bool = False) -> tuple[int, int]:
    """What changes when the database does: a commit by another connection (PRAGMA data_version) or by
    this one (total_changes) — what was read from it is good while this stays the same. While the connection
    is pinned (`pinned_state`: one answer), the state read when it was pinned, unless `live`."""
    if not live:
        got = getattr(_PINS, "states", {}).get(id(db))
        if got is not None:
            return got
    return (db.execute("PRAGMA data_version").fetchone()[0], db.total_changes)


_PINS = threading.local()   # this thread's pinned connections: id → the state read when pinned


@contextmanager
def pinned_state(db: sqlite3.Connection) -> Iterator[None]:
    """The connection's state read once for what runs inside (one answer: its many probes of "has the store
    changed" cost one query, not one each); nested pins keep the outer one."""
    states: dict[int, tuple[int, int]] = _PINS.__dict__.setdefault("states", {})
    if id(db) in states:
        yield
        return
    states[id(db)] = db_state(db, live=True)
    try:
        yield
    finally:
        del states[id(db)]


class Phrase(NamedTuple):
    """A phrase of a MATCH expression OR'ed with the others: its tokens, and the column it is limited to
    (None: any column)."""
    tokens: tuple[str, ...]
    column: int | None = None


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


class ReportRows:
    """A report's rows of an FTS5 table: each token's rows with its counts (heading, body), each row's
    size; a row's tokens kept for phrases of several tokens. Reading them lists each token's rows once per
    instance, in one pass; a token's counts are made when a question first uses it."""

    def __init__(self, rows: Iterable[tuple[int, str | None, str | None]]):
        self.sizes: dict[int, int] = {}
        self.texts: dict[int, tuple[list[str], list[str]]] = {}     # rowid → its tokens (heading, body)
        self.weights: dict[tuple[Phrase, float], dict[int, float]] = {}
        self._norms: tuple[float, dict[int, float]] = (-1.0, {})
        self._postings: dict[str, dict[int, tuple[int, int]]] = {}  # token → rowid → (heading, body)
        heads: defaultdict[str, list[int]] = defaultdict(list)      # token → a rowid per instance, in order
        bodies: defaultdict[str, list[int]] = defaultdict(list)
        for rowid, heading, body in rows:   # (in rowid order)
            ht, bt = fts_tokens(heading or ""), fts_tokens(body or "")
            self.sizes[rowid] = len(ht) + len(bt)
            for tok in ht:
                heads[tok].append(rowid)
            for tok in bt:
                bodies[tok].append(rowid)
        self._heads, self._bodies = heads, bodies

    keeps_texts = True   # a row's tokens read for a phrase of several tokens kept (StoredRows: not)

    def prefetch(self, tokens: Iterable[str]) -> None:
        """Read these tokens' rows at once, where they are read from the store (StoredRows); here: nothing."""

    def posting(self, token: str) -> dict[int, tuple[int, int]]:
        """Rowid → the token's instances in the row's heading and body (the rows holding it, in order)."""
        got = self._postings.get(token)
        if got is None:
            h = Counter(self._heads.get(token, ()))
            b = Counter(self._bodies.get(token, ()))
            got = self._postings[token] = {rowid: (h.get(rowid, 0), b.get(rowid, 0)) for rowid in sorted(h.keys() | b.keys())}
        return got

    def weighted(self, phrase: Phrase, heading_weight: float,
                 counts: Callable[["ReportRows", Phrase], dict[int, tuple[int, int]]]) -> dict[int, float]:
        """Rowid → the phrase's weight in the row: FTS5 adds the column weight once per instance."""
        key = (phrase, heading_weight)
        got = self.weights.get(key)
        if got is None:
            got = {}
            for rowid, (nh, nb) in counts(self, phrase).items():
                f = 0.0
                for _ in range(nh):
                    f += heading_weight
                for _ in range(nb):
                    f += 1.0
                if nh or nb:
                    got[rowid] = f
            if len(self.weights) >= PHRASES_KEPT:
                self.weights.clear()
            self.weights[key] = got
        return got

    def norms(self, avgdl: float) -> dict[int, float]:
        """Rowid → bm25's length normalisation k1·(1 − b + b·|D|/avgdl) (for the store's average)."""
        if self._norms[0] != avgdl:
            self._norms = (avgdl, {rowid: K1 * (1 - B + B * float(n) / avgdl) for rowid, n in self.sizes.items()})
        return self._norms[1]


TOKENS_A_BUCKET = 64   # a report's tokens are stored in buckets of about this many (report_postings)


BUCKET_BITS = 20   # a report's bucket b is the row report id × 2^20 + b of {kind}_words


def words_id(report_id: int, bucket: int) -> int:
    """The id of a report's bucket in {kind}_words."""
    return (report_id << BUCKET_BITS) + bucket


def bucket_of(token: str, buckets: int) -> int:
    """The bucket a token's rows are stored in (the same in every process: crc32, not hash())."""
    return zlib.crc32(token.encode("utf-8")) % buckets


class StoredRows(ReportRows):
    """A report's rows of an FTS5 table read from the inverted index written with them at ingest
    (`report_postings`: the store's {kind}_words and {kind}_sizes): each row's size read at once, a token's
    rows only when a question uses it (its bucket read) — the cost of the question's words, neither the
    report's every row nor the store. The same counts as ReportRows reads from the rows' texts."""

    keeps_texts = False   # (many reports are kept: a phrase of several tokens reads its rows each time)

    def __init__(self, db: sqlite3.Connection, words: str, report_id: int, first: int, buckets: int, sizes: bytes):
        super().__init__(())
        self.db, self.words, self.report_id, self.first, self.buckets = db, words, report_id, first, buckets
        pairs = unpack(sizes)
        self.sizes = {first + pairs[i]: pairs[i + 1] for i in range(0, len(pairs), 2)}

    def prefetch(self, tokens: Iterable[str]) -> None:
        wanted: dict[int, list[str]] = {}
        for tok in dict.fromkeys(tokens):
            if tok not in self._postings:
                wanted.setdefault(bucket_of(tok, self.buckets), []).append(tok)
        ids = list(wanted)
        for k in range(0, len(ids), 500):   # (an old SQLite takes at most 999 parameters)
            part = ids[k:k + 500]
            base = words_id(self.report_id, 0)
            for key, blob in self.db.execute(f"SELECT id, data FROM {self.words} WHERE id IN "
                                             f"({','.join('?' * len(part))})", [base + b for b in part]):
                self._postings.update(_read_bucket(blob, wanted[key - base], self.first))
        for toks in wanted.values():
            for tok in toks:
                self._postings.setdefault(tok, {})   # (in no row of the report)

    def posting(self, token: str) -> dict[int, tuple[int, int]]:
        got = self._postings.get(token)
        if got is None:
            self.prefetch((token,))
            got = self._postings[token]
        return got


def pack(values: Sequence[int]) -> bytes:
    """Unsigned integers as a blob: a type code ('B': 1 byte each, 'H': 2, or 'I': 4, as the largest
    needs), then the values, little-endian."""
    top = max(values) if values else 0
    code = "B" if top < 1 << 8 else "H" if top < 1 << 16 else "I"
    a = array.array(code, values)
    if sys.byteorder == "big":
        a.byteswap()
    return code.encode() + a.tobytes()


def unpack(blob: bytes) -> array.array:
    """The integers `pack` wrote."""
    a = array.array(chr(blob[0]))
    a.frombytes(blob[1:])
    if sys.byteorder == "big":
        a.byteswap()
    return a


def _bucket(tokens: list[str], postings: dict[str, list[int]]) -> bytes:
    """A bucket's blob: its tokens (utf-8, '\n'-separated), then four packed arrays, each after its 4-byte
    length but the last: how many rows each token holds, then the rows' (rowid − first), instances in the
    heading and instances in the body, in the tokens' order (each array of 1, 2 or 4-byte integers, as
    its largest needs)."""
    entries: list[int] = []
    for t in tokens:
        entries += postings[t]
    parts = [pack([len(postings[t]) // 3 for t in tokens]), pack(entries[0::3]), pack(entries[1::3]),
             pack(entries[2::3])]
    out = "\n".join(tokens).encode("utf-8") + b"\0"
    for part in parts[:-1]:
        out += len(part).to_bytes(4, "little") + part
    return out + parts[-1]


def _read_bucket(blob: bytes, tokens: list[str], first: int) -> dict[str, dict[int, tuple[int, int]]]:
    """The rows of these tokens held in a bucket's blob (a token it lacks left out)."""
    at = blob.index(b"\0")
    names = blob[:at].decode("utf-8").split("\n")
    arrays = []
    at += 1
    for _ in range(3):
        n = int.from_bytes(blob[at:at + 4], "little")
        arrays.append(unpack(blob[at + 4:at + 4 + n]))
        at += 4 + n
    counts, offs, heads = arrays
    bodies = unpack(blob[at:])
    out: dict[str, dict[int, tuple[int, int]]] = {}
    index = {name: i for i, name in enumerate(names)}
    for tok in tokens:
        i = index.get(tok)
        if i is None:
            continue
        a = sum(counts[:i])
        b = a + counts[i]
        out[tok] = {first + o: (h, n) for o, h, n in zip(offs[a:b], heads[a:b], bodies[a:b])}
    return out


# a report's rows indexed by word (report_postings): the first rowid, how many buckets, the rows' sizes,
# each bucket's blob
Postings = tuple[int, int, bytes, list[tuple[int, bytes]]]


def report_postings(rows: Iterable[tuple[int, str | None, str | None]]) -> Postings | None:
    """A report's rows of an FTS5 table — (rowid, heading, body), as inserted — as StoredRows reads them:
    the first rowid; how many buckets; each row's size as (rowid − first, tokens) pairs; and the buckets,
    each holding its tokens' rows as (rowid − first, instances in the heading, in the body) triples in
    rowid order (_bucket). None for no rows."""
    rows = sorted(rows, key=lambda r: r[0])
    if not rows:
        return None
    first = rows[0][0]
    sizes: list[int] = []
    postings: dict[str, list[int]] = {}
    get = postings.get
    for rowid, heading, body in rows:
        ht, bt = fts_tokens(heading or ""), fts_tokens(body or "")
        off = rowid - first
        sizes += (off, len(ht) + len(bt))
        cb = Counter(bt)
        for tok, nh in Counter(ht).items():   # (a heading's few tokens first, taken out of the body's)
            nb = cb.pop(tok, 0)
            p = get(tok)
            if p is None:
                postings[tok] = [off, nh, nb]
            else:
                p += (off, nh, nb)
        for tok, nb in cb.items():
            p = get(tok)
            if p is None:
                postings[tok] = [off, 0, nb]
            else:
                p += (off, 0, nb)
    buckets = min(max(1, len(postings) // TOKENS_A_BUCKET), 1 << BUCKET_BITS)
    grouped: dict[int, list[str]] = defaultdict(list)
    for tok in postings:
        grouped[bucket_of(tok, buckets)].append(tok)
    return first, buckets, pack(sizes), [(b, _bucket(toks, postings)) for b, toks in sorted(grouped.items())]


class MatchedRows(ReportRows):
    """The rows of a report that a MATCH of the question's phrases found (every row with a score), counted
    for those phrases' tokens only: ranked as ReportRows are, for the cost of the rows found and the
    question's tokens, not of the report's every word. With `keep_texts` (phrases of several tokens are
    counted in them), their tokens are kept; without, a text split by spaces alone (_spaced) is counted
    for those tokens where they stand between spaces, not split."""

    def __init__(self, rows: Iterable[tuple[int, str | None, str | None]], tokens: Iterable[str],
                 keep_texts: bool = True):
        super().__init__(())   # (its own postings instead, every token counted here)
        self._postings = {tok: {} for tok in tokens}
        wanted = self._postings.keys()
        # (a row's postings made in rowid order, as the rows come)
        marks = [(tok, f" {tok} ", post) for tok, post in self._postings.items()]
        for rowid, heading, body in rows:
            heading, body = heading or "", body or ""
            hs, bs = (None, None) if keep_texts else (_spaced(heading), _spaced(body))
            if hs is not None and bs is not None:
                self.sizes[rowid] = _size(hs) + _size(bs)
                hp = bp = ""
                for tok, mark, post in marks:
                    if tok in bs or tok in hs:   # (a substring first: most rows lack most tokens)
                        if not bp:   # each space doubled, so that tokens side by side each stand between two
                            hp, bp = f" {hs.replace(' ', '  ')} ", f" {bs.replace(' ', '  ')} "
                        nh, nb = hp.count(mark), bp.count(mark)
                        if nh or nb:
                            post[rowid] = (nh, nb)
                continue
            ht, bt = fts_tokens(heading), fts_tokens(body)
            self.sizes[rowid] = len(ht) + len(bt)
            if keep_texts:
                self.texts[rowid] = (ht, bt)
            ch, cb = Counter([tok for tok in ht if tok in wanted]), Counter([tok for tok in bt if tok in wanted])
            for tok in ch.keys() | cb.keys():
                self._postings[tok][rowid] = (ch.get(tok, 0), cb.get(tok, 0))

    def posting(self, token: str) -> dict[int, tuple[int, int]]:
        return self._postings[token]   # (a token it was not made for is a KeyError, never an empty posting)


def _instances(tokens: list[str], phrase: tuple[str, ...]) -> int:
    """How many times the phrase's tokens stand in a row in `tokens` (overlapping instances each count)."""
    n, at, first, size = 0, 0, phrase[0], len(phrase)
    while True:
        try:
            at = tokens.index(first, at)
        except ValueError:
            return n
        if tuple(tokens[at:at + size]) == phrase:
            n += 1
        at += 1


class FtsRanker:
    """bm25 over a report's rows (ReportRows) with the store-wide statistics of one FTS5 table."""

    def __init__(self, db: sqlite3.Connection, fts: str, kept: int):
        self.db = db
        self.fts = fts
        self.kept = kept
        self.reports: OrderedDict[int, Any] = OrderedDict()   # what `held` read, the least recently used dropped
        self._state: tuple[int, int] | None = None
        self._docs: dict[Phrase, int] = {}            # phrase → the store's rows holding it
        self._totals: tuple[int, float] | None = None  # (rows, average tokens per row)
        self._vocab_ready = False
        self._callers: dict[str, dict | set] = {}            # the callers' own caches (`cache`), dropped with these

    def fresh(self, live: bool = False) -> None:
        """Drop what was read when the database changed since (as of its pinned state, unless `live`)."""
        state = db_state(self.db, live)
        if state != self._state:
            self._state = state
            self.reports.clear()
            self._docs.clear()
            self._totals = None
            for cache in self._callers.values():
                cache.clear()

    def cache(self, name: str, factory: Callable[[], D]) -> D:
        """A cache of the caller's own (made by `factory`), dropped when the database changes, as this
        ranker's are (as of the last `fresh`)."""
        got = self._callers.get(name)
        if got is None:
            got = self._callers[name] = factory()
        return got  # type: ignore[return-value]   # (the factory made it: a D)

    def steady(self, read: Callable[[], T]) -> T:
        """What `read` reads while the database stays the same: read again (what was held dropped) when
        another connection committed in the middle — a report replaced between reading its sizes and its
        words, say — up to 3 times; an error raised while it stayed the same is raised."""
        for _ in range(3):
            self.fresh(live=True)
            state = self._state
            try:
                got = read()
            except (KeyError, IndexError, TypeError, ValueError):
                if db_state(self.db, live=True) == state:
                    raise
                continue
            if db_state(self.db, live=True) == state:
                return got
        self.fresh(live=True)
        return read()   # (a store changing all the time: as it reads now)

    def held(self, report_id: int, load: Callable[[], T]) -> T:
        """What is held of the report (its rows, and what the caller keeps with them), read (`load`) when
        not held (as of the last `fresh`)."""
        got = self.reports.get(report_id)
        if got is not None:
            self.reports.move_to_end(report_id)
            return got
        got = self.reports[report_id] = load()
        if len(self.reports) > self.kept:
            self.reports.popitem(last=False)
        return got

    def rank(self, rows: ReportRows, phrases: list[Phrase], size: int, heading_weight: float) -> list[tuple[float, int]]:
        """The best `size` rows for any of the phrases, best first: (score, rowid), the score as FTS5's
        -bm25 gives it."""
        phrases = [p for p in phrases if p.tokens]
        if not phrases or not rows.sizes or not self.store_totals()[1]:
            return []   # (no rows in the store: FTS5 matches none)
        rows.prefetch(tok for p in phrases for tok in p.tokens)
        weighted = [rows.weighted(p, heading_weight, self._counts) for p in phrases]
        if not any(weighted):
            return []
        n_rows, avgdl = self.store_totals()
        norms = rows.norms(avgdl)
        k1 = K1 + 1.0
        scores: dict[int, float] = {}
        for p, fs in zip(phrases, weighted):
            if not fs:
                continue
            n = self.documents_with(p)
            idf = math.log((n_rows - n + 0.5) / (n + 0.5)) if n_rows else 0.0
            if idf <= 0.0:
                idf = 1e-6
            # each row's sum in the phrases' order (a phrase the row lacks adds 0.0: left out, the sum is the
            # same)
            if not scores:   # (the first phrase: 0.0 + a term ≥ 0 is the term)
                scores = {rowid: idf * ((x * k1) / (x + norms[rowid])) for rowid, x in fs.items()}
                continue
            get = scores.get
            for rowid, x in fs.items():
                scores[rowid] = get(rowid, 0.0) + idf * ((x * k1) / (x + norms[rowid]))
        # the best first, a tie by the smaller rowid (the pairs made in C, not by a generator)
        best = heapq.nsmallest(size, zip(map(operator.neg, scores.values()), scores.keys()))
        return [(-s, rowid) for s, rowid in best]

    def _counts(self, rows: ReportRows, phrase: Phrase) -> dict[int, tuple[int, int]]:
        """Rowid → the phrase's instances in its heading and its body (its column's only, when it names one)."""
        toks = phrase.tokens
        if len(toks) == 1:
            got = rows.posting(toks[0])
        else:
            got = {}
            for rowid in rows.posting(toks[0]):
                if not all(rowid in rows.posting(t) for t in toks[1:]):
                    continue
                texts = rows.texts.get(rowid)
                if texts is None:
                    heading, body = self.db.execute(f"SELECT heading, body FROM {self.fts} WHERE rowid=?",
                                                    (rowid,)).fetchone()
                    texts = (fts_tokens(heading or ""), fts_tokens(body or ""))
                    if rows.keeps_texts:
                        rows.texts[rowid] = texts
                n = [_instances(t, toks) for t in texts]
                if n[0] or n[1]:
                    got[rowid] = (n[0], n[1])
        if phrase.column == HEADING:
            return {rowid: (nh, 0) for rowid, (nh, nb) in got.items() if nh}
        return got

    def store_totals(self) -> tuple[int, float]:
        """(rows of the FTS5 table over the store, their average tokens), from its averages record."""
        if self._totals is None:
            row = self.db.execute(f"SELECT block FROM {self.fts}_data WHERE id=1").fetchone()
            counts = _varints(bytes(row[0])) if row and row[0] else [0]
            n, tokens = counts[0], sum(counts[1:])
            self._totals = (n, tokens / n if n else 0.0)
        return self._totals

    def documents_with(self, phrase: Phrase) -> int:
        """How many of the store's rows hold the phrase (FTS5's n_i, over every report)."""
        got = self._docs.get(phrase)
        if got is None:
            if len(phrase.tokens) == 1:
                if not self._vocab_ready:
                    for sql in vocab_tables(self.fts):
                        self.db.execute(sql)   # (no-ops when the store made them as it opened)
                    self._vocab_ready = True
                if phrase.column is None:
                    row = self.db.execute(f"SELECT doc FROM temp.{self.fts}_terms WHERE term=?",
                                          phrase.tokens).fetchone()
                else:
                    row = self.db.execute(f"SELECT doc FROM temp.{self.fts}_cols WHERE term=? AND col=?",
                                          (phrase.tokens[0], "heading")).fetchone()
                got = row[0] if row else 0
            else:
                expr = ("heading : " if phrase.column == HEADING else "") + '"' + " ".join(phrase.tokens) + '"'
                got = self.db.execute(f"SELECT count(*) FROM {self.fts} WHERE {self.fts} MATCH ?",
                                      (expr,)).fetchone()[0]
            if len(self._docs) >= PHRASES_KEPT:
                self._docs.clear()   # (a long-running server meets ever new phrases)
            self._docs[phrase] = got
        return got
