"""From a text question to the report sections that answer it (backend-independent).

1. The query: the question without company, year and filler words (rules/search.yaml) as free text;
   the topic words and item keywords as phrases; the topics' section-title aliases
   (keyword_tables/sections.yaml) against the heading path.
2. The backend returns the best `candidates` chunks of the report(s).
3. Parent-section retrieval: each chunk is widened to the section handed to the answerer — the widest
   section on its path whose own title is an alias of an asked topic, else the chunk's own section
   (its parent when the section alone is a line or two). Chunks handed the same section are one
   passage; its score is its best chunk's score over the best of all (0..1), plus `title_bonus` × the
   alias's share of the title when it was reached through a title alias, plus `heading_bonus` × the
   share of the question's tokens in the section's own title, less `empty_penalty` when all it says
   is "□适用 √不适用", less `statements_penalty` when it lies in the financial statements and their
   notes (from the report's first balance-sheet page on). The passage carries the section's chunks (sub-sections
   included, in reading order) up to `section_chars`, always including its best chunk.
"""
from __future__ import annotations

import functools
import json
import os
import re
from dataclasses import dataclass, field

from ..config import rules_dir
from ..rules import RuleError, line_of, load_rules_yaml
from ..store import Store
from .base import Filters, Hit, SearchBackend, SearchError, SearchQuery
from .tokenize import tokens
from .topics import Topic, TopicTable, default_topics, title_key

BACKENDS = ("sqlite", "elasticsearch")
NOT_APPLICABLE = re.compile(r"^[\s□√■☑适用不]*$")  # a "□适用 √不适用" line and nothing else


@dataclass
class SearchConfig:
    heading_weight: float = 4.0
    phrase_boost: float = 2.0
    title_boost: float = 6.0
    candidates: int = 40
    title_bonus: float = 1.0
    heading_bonus: float = 0.5
    empty_penalty: float = 0.5
    statements_penalty: float = 0.5
    section_chars: int = 3000
    excerpt_chars: int = 360
    filler: list[re.Pattern] = field(default_factory=list)


def load_search_config(path=None) -> SearchConfig:
    path = path or rules_dir() / "search.yaml"
    data = load_rules_yaml(path)
    if not isinstance(data, dict):
        raise RuleError(path, 1, "expected a mapping of search settings")
    cfg = SearchConfig()
    lines = getattr(data, "key_lines", {})
    for key, value in data.items():
        line = lines.get(key, 1)
        if key == "filler":
            if not isinstance(value, list):
                raise RuleError(path, line, "filler must be a list of regexes")
            for p in value:
                try:
                    cfg.filler.append(re.compile(str(p)))
                except re.error as exc:
                    raise RuleError(path, line_of(value, line), f"filler: bad regex {p!r}: {exc}") from None
            continue
        if not hasattr(cfg, key):
            raise RuleError(path, line, f"unknown setting {key!r}")
        want = type(getattr(cfg, key))
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0 or (want is int and value != int(value)):
            raise RuleError(path, line, f"{key} must be a {'whole ' if want is int else ''}non-negative number")
        setattr(cfg, key, want(value))
    if cfg.candidates < 1 or cfg.section_chars < 200 or cfg.excerpt_chars < 50:
        raise RuleError(path, 1, "candidates must be ≥ 1, section_chars ≥ 200 and excerpt_chars ≥ 50")
    return cfg


@functools.lru_cache(maxsize=None)
def default_search_config() -> SearchConfig:
    return load_search_config()


def make_backend(name: str | None, store: Store, config: SearchConfig | None = None) -> SearchBackend:
    """`sqlite` (default) or `elasticsearch`; the name comes from --search, else FIN_QA_SEARCH."""
    cfg = config or default_search_config()
    name = (name or os.environ.get("FIN_QA_SEARCH") or "sqlite").strip().lower()
    if name in ("sqlite", "fts5", "embedded"):
        from .sqlite_fts import SqliteFtsBackend

        return SqliteFtsBackend(store, cfg.heading_weight)
    if name in ("elasticsearch", "es"):
        from .elastic import ElasticsearchBackend

        return ElasticsearchBackend(heading_weight=cfg.heading_weight, phrase_boost=cfg.phrase_boost,
                                    title_boost=cfg.title_boost)
    raise SearchError(f"unknown search backend {name!r}: use one of {', '.join(BACKENDS)}")


@dataclass
class Piece:
    """A chunk of a handed section, as the answerer reads it."""

    chunk_id: int
    path: list[str]
    text: str
    page_start: int | None
    page_end: int | None


@dataclass
class Passage:
    report_key: str
    section_id: int | None
    path: list[str]
    score: float
    title_match: bool
    pieces: list[Piece]
    hits: list[Hit]

    @property
    def heading(self) -> str:
        return " > ".join(self.path)

    @property
    def text(self) -> str:
        return "\n".join(p.text for p in self.pieces)

    @property
    def pages(self) -> tuple[int | None, int | None]:
        ps = [p for x in self.pieces for p in (x.page_start, x.page_end) if p]
        return (min(ps), max(ps)) if ps else (None, None)


@dataclass
class _Section:
    id: int
    parent: int | None
    title: str
    path_json: str | None
    own_chars: int
    page: int | None

    @property
    def path(self) -> list[str]:
        return json.loads(self.path_json) if self.path_json else []


@dataclass
class _Report:
    id: int
    statements_page: int | None                            # the first page of its own balance sheet
    secs: dict[int, _Section] = field(default_factory=dict)  # the sections met so far (with their ancestors)


_SECTION_COLS = "s.id, s.parent_id, s.title, s.path, length(s.text), s.page_start"


class Retriever:
    def __init__(self, store: Store, backend: SearchBackend | None = None, topics: TopicTable | None = None,
                 config: SearchConfig | None = None):
        self.store = store
        self.config = config or default_search_config()
        self.backend = backend or make_backend(None, store, self.config)
        self.topics = topics or default_topics()
        self._reports: dict[str, _Report] = {}

    # --------------------------------------------------------------------------- the query

    def strip(self, text: str) -> str:
        for rx in self.config.filler:
            text = rx.sub(" ", text)
        return re.sub(r"\s+", " ", text).strip()

    def query(self, text: str, keywords: list[str] = ()) -> tuple[SearchQuery, list[Topic]]:
        """The query for a question (company and year already masked out) and the topics it names."""
        found = self.topics.find(text)
        topics = [t for t, _ in found]
        phrases = list(dict.fromkeys([w for _, w in found] + [k for k in keywords if k]))
        titles = list(dict.fromkeys(a for t in topics for a in t.titles))
        return SearchQuery(self.strip(text.replace("#", " ")), phrases, titles), topics

    # --------------------------------------------------------------------------- the section tree

    def _report(self, key: str) -> _Report:
        rep = self._reports.get(key)
        if rep is None:
            row = self.store.db.execute("SELECT id FROM reports WHERE key=?", (key,)).fetchone()
            if row is None:
                raise SearchError(f"the search index names report {key}, which this store does not have: "
                                  f"rebuild the index with `fin-qa index`")
            stmt = self.store.db.execute(
                "SELECT MIN(page) FROM facts WHERE report_id=? AND statement='资产负债表' AND source IN ('pdf','txt')",
                (row[0],)).fetchone()[0]
            if len(self._reports) >= 512:
                self._reports.clear()
            rep = self._reports[key] = _Report(row[0], stmt)
        return rep

    def _load(self, rep: _Report, ids: list[int]) -> None:
        """These sections and all their ancestors (only the ones not loaded yet)."""
        todo = [i for i in dict.fromkeys(ids) if i is not None and i not in rep.secs]
        if not todo:
            return
        marks = ",".join("?" * len(todo))
        # the parent is read by a correlated lookup: a join in the recursive step makes SQLite build a
        # Bloom filter over every section of the store at each step (30 ms instead of 0.6 ms at 200 reports)
        rows = self.store.db.execute(
            f"WITH RECURSIVE up(id) AS (SELECT id FROM sections WHERE id IN ({marks}) UNION "
            f"SELECT (SELECT parent_id FROM sections WHERE id = up.id) FROM up WHERE up.id IS NOT NULL) "
            f"SELECT {_SECTION_COLS} FROM up JOIN sections s ON s.id = up.id", todo).fetchall()
        for sid, parent, title, path, n, page in rows:
            rep.secs[sid] = _Section(sid, parent, title or "", path, n or 0, page)

    def _target(self, rep: _Report, hit: Hit, topics: list[Topic], qtokens: set[str],
                ptokens: set[str] = frozenset()) -> tuple[int | None, float]:
        """The section a hit is widened to, and how well a topic title led there (0: not by a title).

        Of the sections on the hit's path from the widest one whose title is a topic alias down to the
        hit's own, the one whose title shares most tokens with the question (the widest on a tie):
        "信用风险" stops at 7.4.3信用风险 rather than 7.4 风险管理; "社会责任情况" stays at the chapter."""
        secs = rep.secs
        sec = secs.get(hit.section_id)
        if sec is None:
            return hit.section_id, 0.0
        chain = []
        s = sec
        while s is not None:
            chain.append(s)
            s = secs.get(s.parent)
        chain.reverse()  # widest first
        first = next((i for i, s in enumerate(chain) if s.title and any(t.title_match(s.title) for t in topics)), None)
        if first is not None:
            # the question's words beyond the topic's own words (its title aliases, the topic words and
            # keywords the question used: ptokens) decide how deep to go: "市场风险管理"
            # → 7.4.4市场风险 (市场), not 7.4 风险管理; "社会责任情况" → the whole 社会责任 section
            keys = [title_key(c.title) for c in chain[first:]]
            alias = {tok for t in topics for a in t.titles if any(a in k for k in keys) for tok in tokens(a)}
            rest = qtokens - alias - ptokens
            title_tokens = [set(tokens(k)) for k in keys]
            i = max(range(len(keys)), key=lambda j: (len(title_tokens[j] & rest), len(title_tokens[j] & qtokens)))
            best = chain[first + i]
            # how much of the handed section's title is a topic alias (of the widest alias title if its own is none)
            own = keys[i]
            if not any(a in own for t in topics for a in t.titles):
                own = keys[0]
            quality = max((len(a) / max(len(own), 1) for t in topics for a in t.titles if a in own), default=0.0)
            return best.id, 0.5 + 0.5 * min(quality, 1.0)
        if sec.own_chars < 80 and sec.parent in secs and len(secs[sec.parent].path) >= 2:
            return sec.parent, 0.0  # a line or two: its parent (not a whole chapter) is the section
        return sec.id, 0.0

    def _subtree(self, sid: int) -> list[int]:
        return [r[0] for r in self.store.db.execute(
            "WITH RECURSIVE down(id) AS (SELECT ? UNION ALL SELECT s.id FROM sections s JOIN down ON s.parent_id = down.id)"
            " SELECT id FROM down", (sid,))]

    def _pieces(self, rep: _Report, sid: int | None, best: Hit) -> list[Piece]:
        rid = rep.id
        ids = self._subtree(sid) if sid in rep.secs else [best.section_id]
        marks = ",".join("?" * len(ids))
        rows = self.store.db.execute(
            f"SELECT id, path, text, page_start, page_end FROM chunks WHERE report_id=? AND section_id IN ({marks})"
            " ORDER BY id", (rid, *ids)).fetchall()
        pieces = [Piece(r[0], json.loads(r[1]) if r[1] else [], r[2], r[3], r[4]) for r in rows]
        if not any(p.chunk_id == best.chunk_id for p in pieces):  # the store moved on since indexing
            pieces.append(Piece(best.chunk_id, best.path, best.text, best.page_start, best.page_end))
        limit = self.config.section_chars
        if sum(len(p.text) for p in pieces) <= limit:
            return pieces
        # start as early as the limit allows while still reaching the best chunk
        i = next(n for n, p in enumerate(pieces) if p.chunk_id == best.chunk_id)
        start, span = 0, sum(len(p.text) for p in pieces[:i + 1])
        while start < i and span > limit:
            span -= len(pieces[start].text)
            start += 1
        out, total = [], 0
        for p in pieces[start:]:
            if out and total + len(p.text) > limit:
                break
            out.append(p)
            total += len(p.text)
        return out

    # --------------------------------------------------------------------------- retrieval

    def retrieve(self, query: SearchQuery, topics: list[Topic], report_keys: list[str] | None, n: int = 3) -> list[Passage]:
        """The best n sections of these reports (the whole index when None), best first."""
        hits = self.backend.search(query, Filters(report_keys), self.config.candidates)
        if not hits:
            return []
        top = max(h.score for h in hits) or 1.0
        ptokens = {t for p in query.phrases for t in tokens(p)}
        qtokens = set(tokens(query.text)) | ptokens
        reps = {key: self._report(key) for key in dict.fromkeys(h.report_key for h in hits)}
        for key, rep in reps.items():
            self._load(rep, [h.section_id for h in hits if h.report_key == key])
        groups: dict[tuple[str, int | None], list] = {}
        for h in hits:
            sid, quality = self._target(reps[h.report_key], h, topics, qtokens, ptokens)
            g = groups.setdefault((h.report_key, sid), [0.0, quality > 0, []])
            g[0] = max(g[0], h.score / top + self.config.title_bonus * quality)
            g[2].append(h)
        for (key, sid), g in groups.items():
            secs, stmt = reps[key].secs, reps[key].statements_page
            if sid in secs and qtokens:
                own = set(tokens(title_key(secs[sid].title)))
                g[0] += self.config.heading_bonus * len(own & qtokens) / len(qtokens)
            if sid in secs and stmt and (secs[sid].page or 0) >= stmt:
                g[0] -= self.config.statements_penalty
        ranked = sorted(groups.items(), key=lambda kv: (-kv[1][0], kv[1][2][0].chunk_id))
        out = []
        for (key, sid), (score, by_title, hs) in ranked[:n + 3]:
            secs = reps[key].secs
            path = secs[sid].path if sid in secs else hs[0].path
            best = max(hs, key=lambda h: h.score)
            pieces = self._pieces(reps[key], sid, best)
            if all(NOT_APPLICABLE.match(p.text) for p in pieces):
                score -= self.config.empty_penalty
            out.append(Passage(key, sid, path, round(score, 4), by_title, pieces, hs))
        out.sort(key=lambda p: -p.score)
        return out[:n]
