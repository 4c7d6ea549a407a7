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

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..catalog import Catalog
from ..catalog.search_config import SearchConfig
from ..catalog.topics import Topic, TopicTable, title_key
from ..store import Store
from .base import Filters, Hit, SearchBackend, SearchError, SearchQuery
from ..bigrams import tokens

BACKENDS = ("sqlite", "elasticsearch")
NOT_APPLICABLE = re.compile(r"^[\s□√■☑适用不]*$")  # a "□适用 √不适用" line and nothing else


def make_backend(name: str, store: Store, catalog: Catalog, es_url: str | None = None,
                 es_index: str | None = None) -> SearchBackend:
    """`sqlite` or `elasticsearch` (the CLI resolves --search / $FIN_QA_SEARCH, --es-url / $FIN_QA_ES_URL …)."""
    cfg = catalog.search
    name = name.strip().lower()
    if name in ("sqlite", "fts5", "embedded"):
        from .sqlite_fts import SqliteFtsBackend

        return SqliteFtsBackend(store, cfg.heading_weight)
    if name in ("elasticsearch", "es"):
        from .elastic import ElasticsearchBackend

        return ElasticsearchBackend(catalog.es_mappings["chunks"], es_url, es_index, heading_weight=cfg.heading_weight,
                                    phrase_boost=cfg.phrase_boost, title_boost=cfg.title_boost)
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


class Retriever:
    def __init__(self, store: Store, backend: SearchBackend, topics: TopicTable, config: SearchConfig):
        self.store = store
        self.config = config
        self.backend = backend
        self.topics = topics
        self._reports: dict[str, _Report] = {}

    # --------------------------------------------------------------------------- the query

    def strip(self, text: str) -> str:
        for rx in self.config.filler:
            text = rx.sub(" ", text)
        return re.sub(r"\s+", " ", text).strip()

    def query(self, text: str, keywords: Sequence[str] = (),
              found: list[tuple[Topic, str]] | None = None) -> tuple[SearchQuery, list[Topic]]:
        """The query for a question (company and year already masked out) and the topics it names
        (`found`: the topics its Understanding named, with the word naming each; else found in text)."""
        if found is None:
            found = self.topics.find(text)
        topics = [t for t, _ in found]
        phrases = list(dict.fromkeys([w for _, w in found] + [k for k in keywords if k]))
        titles = list(dict.fromkeys(a for t in topics for a in t.titles))
        return SearchQuery(self.strip(text.replace("#", " ")), phrases, titles), topics

    # --------------------------------------------------------------------------- the section tree

    def _report(self, key: str) -> _Report:
        rep = self._reports.get(key)
        if rep is None:
            rid = self.store.report_id(key)
            if rid is None:
                raise SearchError(f"the search index names report {key}, which this store does not have: "
                                  f"rebuild the index with `fin-qa index`")
            stmt = self.store.balance_sheet_page(rid)
            if len(self._reports) >= 512:
                self._reports.clear()
            rep = self._reports[key] = _Report(rid, stmt)
        return rep

    def _load(self, rep: _Report, ids: list[int | None]) -> None:
        """These sections and all their ancestors (only the ones not loaded yet)."""
        todo = [i for i in dict.fromkeys(ids) if i is not None and i not in rep.secs]
        if not todo:
            return
        for sid, parent, title, path, n, page in self.store.section_ancestors(todo):
            rep.secs[sid] = _Section(sid, parent, title or "", path, n or 0, page)

    def _target(self, rep: _Report, hit: Hit, topics: list[Topic], qtokens: set[str],
                ptokens: frozenset[str] | set[str] = frozenset()) -> tuple[int | None, float]:
        """The section a hit is widened to, and how well a topic title led there (0: not by a title).

        Of the sections on the hit's path from the widest one whose title is a topic alias down to the
        hit's own, the one whose title shares most tokens with the question (the widest on a tie):
        "信用风险" stops at 7.4.3信用风险 rather than 7.4 风险管理; "社会责任情况" stays at the chapter."""
        secs = rep.secs
        sec = secs.get(hit.section_id) if hit.section_id is not None else None
        if sec is None:
            return hit.section_id, 0.0
        chain: list[_Section] = []
        s: _Section | None = sec
        while s is not None:
            chain.append(s)
            s = secs.get(s.parent) if s.parent is not None else None
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

    def _pieces(self, rep: _Report, sid: int | None, best: Hit) -> list[Piece]:
        rid = rep.id
        ids: list[int | None] = list(self.store.section_subtree(sid)) if sid is not None and sid in rep.secs \
            else [best.section_id]
        pieces = [Piece(c.id, c.path, c.text, c.page_start, c.page_end) for c in self.store.section_chunks(rid, ids)]
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
        out: list[Piece] = []
        total = 0
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

    def search_rows(self, text: str, report_keys: list[str] | None, size: int, chunks: bool = False) -> list[dict]:
        """What `fin-qa search` lists (and the server's /api/search): the best sections for the words, with
        score, report key, pages, heading path and the best hit's text; with chunks, the backend's raw hits."""
        q, topics = self.query(text)
        if chunks:
            return [{"score": round(h.score, 4), "report": h.report_key, "pages": [h.page_start, h.page_end],
                     "heading": " > ".join(h.path), "text": h.text}
                    for h in self.backend.search(q, Filters(report_keys), size)]
        return [{"score": p.score, "report": p.report_key, "pages": list(p.pages), "heading": p.heading,
                 "topic_title": p.title_match, "text": p.hits[0].text if p.hits else p.text}
                for p in self.retrieve(q, topics, report_keys, size)]

