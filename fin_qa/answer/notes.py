"""Research notes as a cited source (issue 46): a question naming a note (its title) or asking what notes say
(研报, 券商, 投资评级, 盈利预测: rules/notes.yaml `asked`) is answered from the notes — their passages, and their
rating and forecasts from the info sheet —, each quoted with the note's title, broker, date, page and heading,
and the figure it speaks of; a why-question (原因, 驱动因素: rules/drivers.yaml `asked`) is followed by what the
notes covering the company say of it; a question no filing answers and that asks no value (国家
医保目录新增的中药产品有哪些) is answered by the notes whose passages hold most of its words, said as theirs.

The figures of a note are never a filing's: they are quoted, with the note named, and never read into a value,
a formula or a chart.
"""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Callable, Sequence

from ..bigrams import tokens
from ..catalog import Catalog
from ..search.base import Filters, SearchBackend, SearchError, SearchQuery
from ..search.sqlite_fts import match_expression
from ..store import Store
from ..store.notes import Note, NoteHit, title_key as _key
from ..understand.question import Understanding
from .compose import render
from .followup import POINTER
from .model import Answer, CellEvidence, Evidence, FactEvidence, Method, NoteEvidence, extended

PASSAGES = 3            # the passages quoted at most
SEARCHED = 12           # the chunks searched for them
HELD = 0.3              # the share of the question's words a passage must hold (a why's explanation, a named note)
HELD_ALONE = 0.4        # … where the notes answer a question no filing answers
HELD_NAMED = 0.15       # … of a note the question names by its title (what it says of the words asked)
FORECAST_YEARS = 2      # a note forecasts the year it is published in and the two after (the info sheet's columns)
REVIEW_MONTHS = 4       # a note of the year after speaks of a year when published by April (the annual reports' season)
FIGURE_WORDS = 2        # the words a figure's title must share with the question and passage to be cited
PROSE = 0.25            # the share of a passage's characters that are words (not a table's numbers)
_CJK = re.compile(r"[\u4e00-\u9fff]")
_NOTE_AFTER_BROKER = r"(?:那篇|这篇|的研报|研报|的报告|的点评|点评|对|认为|预计|预测|怎么看|如何看)"
_BROKER = re.compile(r"[\u4e00-\u9fff]{2,4}证券(?!市场|交易所|投资|时报|报|日报|代码|简称|事务)")
_SENTENCES = re.compile(r"[？?。；;！!]")
_QUOTED = re.compile(r"《([^》]{4,})》")
# the filings' answers of a value: kept first when notes are asked beside them
FILING_VALUES = (Method.LOOKUP, Method.FORMULA, Method.CHANGE, Method.ITEMS, Method.COMPARE, Method.STATISTICS,
                 Method.CELL, Method.FRAME, Method.STATED, Method.SERIES, Method.DISTRIBUTION)
ASKED_BACK = (Method.ASK_WHICH, Method.ASK_YEAR, Method.ASK_PERIOD)


def _words(text: str) -> set[str]:
    return {t for t in tokens(text) if len(t) == 2 or t.isascii() and len(t) > 1}


def shown_path(path: str | None) -> str:
    """A note's file as a reader finds it: relative to the working folder where it lies under it ("./附件5…")."""
    if not path:
        return ""
    try:
        return "./" + Path(path).resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path


def _gives_value(ans: Answer) -> bool:
    """Whether the filings' answer gives a value (of one of its asks, for a compound question): what stays first
    when notes are asked beside it — not a passage quoted for words a note answers."""
    if not ans.answered:
        return False
    if ans.method == Method.PLAN:
        if ans.asks:
            return any(a.get("found") and a.get("method") in FILING_VALUES for a in ans.asks)
        return any(isinstance(e, (FactEvidence, CellEvidence)) for e in ans.evidence)   # (a period's plan: its values)
    return ans.method in FILING_VALUES


class NoteAnswerer:
    def __init__(self, store: Store, catalog: Catalog, understand: Callable[[str], Understanding],
                 backend: Callable[[], SearchBackend] | None = None,
                 cut: Callable[[str], list[tuple[str, str]]] | None = None) -> None:
        self.store = store
        self.rules = catalog.notes
        self.why = catalog.drivers   # (the words asking why: rules/drivers.yaml asked, one list)
        self.t = catalog.templates
        self.filler = catalog.search.filler   # (the question words no passage prints: 是多少, 有哪些)
        self._backend = backend      # the router's search backend: Elasticsearch searches its notes index
        self.cut = cut               # a text's (word, part of speech): the understanding's dictionary
        self.understand = understand   # a question → its Understanding (the router's)
        self._figures: dict[int, list[tuple[int, str]]] = {}
        self._titles: dict[int, tuple[str, list[str]]] = {}   # a note's title as compared, and its clauses

    def notes(self) -> list[Note]:
        return self.store.notes.all(self.store.state())

    # --------------------------------------------------------------------------- which notes

    @staticmethod
    def consistent(u: Understanding, notes: Sequence[Note]) -> list[Note]:
        """The notes named that may be of the company the question names (a 个股研报 of another company is not:
        "金花股份的2025年三季报点评" names no note on 华润三九)."""
        codes = {m.company.stock_code for m in u.companies if m.company.stock_code}
        return [n for n in notes if not codes or n.meta.kind != "stock" or n.meta.stock_code in codes]

    def named(self, question: str, notes: Sequence[Note]) -> list[Note]:
        """The notes a question names by their title (whole, or a clause of it of 6 characters or more, or in
        《》)."""
        q = _key(question)
        quoted = [_key(m.group(1)) for m in _QUOTED.finditer(question)]
        out = []
        for n in notes:
            if n.id not in self._titles:   # (worked out once a note, not once a question)
                self._titles[n.id] = (_key(n.meta.title), [c for c in (_key(x) for x in re.split(r"[：:，,；;]", n.meta.title))
                                                           if len(c) >= 6])
            title, clauses = self._titles[n.id]
            if title in q or any(c in q for c in clauses) or any(x and (x in title or title in x) for x in quoted):
                out.append(n)
        return out

    @staticmethod
    def of_years(u: Understanding, notes: Sequence[Note], forecast: bool = False) -> list[Note]:
        """The notes that can speak of the years the question names: published in the last of them, or by April of
        the year after (an annual report's review comes out in the spring after); asking a forecast, those whose
        forecasts (the year published and the two after) hold every year named; all of them when it names none."""
        if not u.years.explicit:
            return list(notes)
        last = max(u.years.explicit)
        out = []
        for n in notes:
            day = n.meta.publish_date or ""
            if not re.match(r"\d{4}-\d{2}", day):
                continue
            year, month = int(day[:4]), int(day[5:7])
            if year == last or (year == last + 1 and month <= REVIEW_MONTHS) or \
                    (forecast and all(year <= y <= year + FORECAST_YEARS for y in u.years.explicit)):
                out.append(n)
        return out

    def covering(self, u: Understanding, notes: Sequence[Note]) -> list[Note]:
        """The notes covering the companies the question names (by stock code, else short name; a company no
        filing of the store names: the name a note's info gives, written in the question)."""
        codes = {m.company.stock_code for m in u.companies if m.company.stock_code}
        names = {m.company.short_name for m in u.companies if m.company.short_name}
        return [n for n in notes if (n.meta.stock_code and n.meta.stock_code in codes)
                or (n.meta.stock_name and (n.meta.stock_name in names or n.meta.stock_name in u.question))]

    # --------------------------------------------------------------------------- the search

    def _query(self, u: Understanding, sentence: str | None = None) -> SearchQuery:
        """The question's words (or one sentence's of it) a passage is searched by: the company, year, a note's
        title or broker, the words asking notes or why, and the question's own words (是多少, 有哪些) left out."""
        text = unicodedata.normalize("NFKC", sentence if sentence is not None else u.masked or u.norm)
        for n in self.notes():
            title = unicodedata.normalize("NFKC", n.meta.title)
            for part in [title, *re.split(r"[，,：:；;]", title)]:
                if len(part) >= 6:
                    text = text.replace(part, " ")
            for name in (n.meta.broker, n.meta.stock_name):
                if name:
                    text = text.replace(name, " ")
            b = n.meta.broker or ""
            if b.endswith("证券") and len(b) >= 4:   # (西南那篇: the broker's name without 证券)
                text = re.sub(re.escape(b[:-2]) + f"(?={_NOTE_AFTER_BROKER})", " ", text)
        for rx in (*self.rules.asked, *self.why.asked, *self.filler):
            text = rx.sub(" ", text)
        return SearchQuery(re.sub(r"[#《》\s]+", " ", text).strip())

    def _want(self, query: SearchQuery) -> set[str]:
        """The question's words a passage is held to: its words as the dictionary cuts them, of two characters or
        more, its function words (rules/notes.yaml function_tags) left out; without a dictionary, its pairs."""
        if self.cut is None:
            return _words(query.text)
        tags = self.rules.function_tags
        return {w for part in query.text.split() for w, tag in self.cut(part)
                if len(w) >= 2 and not (tag[:1] in tags)}

    def _names(self, query: SearchQuery) -> set[str]:
        """The question's proper names of places, people and bodies (rules/notes.yaml name_tags)."""
        if self.cut is None:
            return set()
        return {w for part in query.text.split() for w, tag in self.cut(part) if len(w) >= 2 and tag in self.rules.name_tags}

    @staticmethod
    def _held(want: set[str], hit: NoteHit) -> float:
        """The share of the words asked the passage or its heading holds (风险提示 of a question on risks)."""
        heading = " ".join(hit.path[1:])
        held = sum(1 for w in want if w in hit.text or w in heading)
        return held / len(want) if want else 0.0

    def search(self, u: Understanding, notes: Sequence[Note], held: float) -> list[tuple[NoteHit, float]]:
        """The notes' passages holding at least `held` of the words of the question, or of one of its sentences
        (怎么评价这份业绩？给了什么评级？: each asks its own), best first (with that share)."""
        by_id = {n.id: n for n in notes}
        if not by_id:
            return []
        sentences = [x for x in _SENTENCES.split(unicodedata.normalize("NFKC", u.masked or u.norm)) if x.strip()]
        queries = [self._query(u, x) for x in sentences] if len(sentences) > 1 else [self._query(u)]
        out: dict[int, NoteHit] = {}
        for query in queries:
            for h, _ in self._search(query, by_id, held):
                out.setdefault(h.chunk_id, h)
        # (admitted by one sentence's words; ordered by how much of the whole question each holds)
        whole = self._want(self._query(u))
        ranked = [(h, self._held(whole, h)) for h in out.values()]
        return sorted(ranked, key=lambda hs: (-hs[1], -hs[0].score))[:PASSAGES]

    def _search(self, query: SearchQuery, by_id: dict[int, Note], held: float) -> list[tuple[NoteHit, float]]:
        want = self._want(query)
        if not want:
            return []
        names = self._names(query)   # (a place, person or body named: 贵州 of 贵州茅台 — a passage not naming it is not of it)
        backend = self._backend() if self._backend is not None else None
        hits: list[NoteHit] | None = None
        if backend is not None and backend.name == "elasticsearch":
            try:
                found = backend.for_notes().search(query, Filters([n.key for n in by_id.values()]), SEARCHED)  # type: ignore[attr-defined]
                hits = self.store.notes.chunks([h.chunk_id for h in found], by_id)
            except SearchError:
                hits = None   # (its notes index missing or down: the store's own FTS5 index holds every note)
        if hits is None:
            expression = match_expression(query)
            hits = self.store.notes.match(expression, by_id, SEARCHED) if expression else []
        out = []
        for h in hits:
            if len(_CJK.findall(h.text)) < PROSE * len(h.text) or not ("，" in h.text or "。" in h.text):
                continue   # (a table of forecasts printed as text: no passage to quote)
            share = self._held(want, h)
            if share >= held and all(n in h.text for n in names):
                out.append((h, share))
        return out

    def _figure(self, hit: NoteHit, want: set[str]) -> str | None:
        """The title of the figure on the passage's page that the question and passage speak of, if one."""
        nid = hit.note.id
        if nid not in self._figures:
            self._figures[nid] = self.store.notes.figures(nid)
        said = _words(" ".join(want)) | _words(hit.text)
        best, most = None, FIGURE_WORDS - 1
        for page, title in self._figures[nid]:
            if page == hit.page:
                n = len(_words(title) & said)
                if n > most:
                    best, most = title, n
        return best

    def evidence(self, hit: NoteHit, want: set[str]) -> NoteEvidence:
        m = hit.note.meta
        return NoteEvidence(hit.page, " > ".join(hit.path), hit.text, None, hit.note.key, m.title, m.broker,
                            m.publish_date, hit.note.path, self._figure(hit, want))

    def quote(self, e: NoteEvidence) -> str:
        heading = e.heading.split(" > ")[-1] if " > " in e.heading else "正文"
        return render(self.t, "note_quote", title=e.note, broker=e.broker or "券商", date=e.date or "日期不详",
                      page=e.page or "?", heading=heading, text=e.text)

    # --------------------------------------------------------------------------- the answers

    def view(self, question: str, note: Note) -> tuple[str, str] | None:
        """A note's info sheet's answer where the question asks it — who wrote it and when, its rating, target
        price, forecasts — and that row's cells as the sheet prints them (what it is cited with)."""
        m, parts, cells = note.meta, [], []
        cols, r = self.rules.info, self.rules

        def cell(field: str) -> str | None:
            for c in cols.get(field, ()):
                if m.info.get(c):
                    cells.append(f"{c} {m.info[c]}")
                    return str(m.info[c])
            return None
        if r.asks_view("who", question):
            who = cell("researcher")
            parts.append("，".join(x for x in (m.broker and f"{m.broker}发布", who and f"分析师{who}",
                                              m.publish_date and f"发布日期{m.publish_date}") if x))
        if r.asks_view("rating", question) and cell("rating"):
            last = cell("last_rating")
            parts.append(render(self.t, "note_rating", rating=m.rating, last=f"（上次“{last}”）" if last else ""))
        if r.asks_view("target", question):
            high, low = cell("target_high"), cell("target_low")
            price = "—".join(dict.fromkeys(x for x in (low, high) if x))
            parts.append(render(self.t, "note_target", parts=f"{price}元") if price else render(self.t, "note_no_target"))
        if r.asks_view("forecast", question):
            year = int(m.publish_date[:4]) if m.publish_date and m.publish_date[:4].isdigit() else None
            by: dict[str, list[str]] = {}
            for f in r.forecasts:
                v = m.info.get(f.column)
                if v not in (None, ""):
                    cells.append(f"{f.column} {v}")
                    when = f"{year + f.ahead}年" if year else f"发布当年后第{f.ahead}年"
                    by.setdefault(f.measure, []).append(f"{when}{v}")
            parts += [render(self.t, "note_forecast", measure=k, parts="、".join(v)) for k, v in by.items()]
        if not parts:
            return None
        return (render(self.t, "note_view", title=m.title, broker=m.broker or "券商", date=m.publish_date or "",
                       parts="；".join(parts)), render(self.t, "note_sheet", parts="；".join(cells)))

    def answer(self, question: str, u: Understanding, named: Sequence[Note], held: float = HELD,
               context: Sequence[str] = (), industry: bool = False) -> Answer | None:
        """The notes' answer of a question naming notes or asking what they say (None: nothing they say);
        `context`: the companies of the conversation it is a turn of (它, 该公司: theirs)."""
        every = self.notes()
        if not u.companies and not named and context:
            u = self.understand_with(question, context)
        if not u.companies and not named and POINTER.search(question):
            return Answer(question, render(self.t, "ask_company", items="研报"), u.finglm_type(), Method.ASK_WHICH,
                          found=False)   # (它最新一篇研报…, and no company before it: which one)
        covering = self.covering(u, every)
        industry_notes = [n for n in every if n.meta.kind == "industry"]
        if industry and u.companies:   # (a company's text no filing holds: its notes and the industry's)
            covering = [*covering, *industry_notes]
        # (no company named: the industry's notes — a 个股研报 speaks of its own company only)
        pool = list(named) or covering or ([] if u.companies else industry_notes)
        if not named:   # (a forecast's years are those it forecasts)
            pool = self.of_years(u, pool, self.rules.asks_view("forecast", question))
        of_broker = [n for n in pool if self._names_broker(question, n)]
        if of_broker:   # (国金证券的研报: that broker's)
            pool = of_broker
        unknown = [b for b in _BROKER.findall(question) if not any(n.meta.broker == b for n in every)]
        if unknown:   # (华泰证券的报告, and the store holds none of theirs)
            pool = []
        if not pool:
            who = "、".join(dict.fromkeys([*unknown, *(m.company.short_name or m.company.key for m in u.companies)]))
            years = f"{max(u.years.explicit)}年前后" if u.years.explicit else ""
            return Answer(question, render(self.t, "note_none", what=f"{who}{years}" or "这一问题"), u.finglm_type(),
                          Method.NOTE, found=False)
        # the info sheet's answers: of a note named, of one covering the company named, of an industry note whose
        # industry the question names (never a company's rating from another's note)
        viewed = [n for n in pool if n in named or n in covering or (n.meta.kind == "industry" and (
            "行业" in question or bool(n.meta.industry and n.meta.industry in question)))]
        views = [(n, v) for n in viewed for v in [self.view(question, n)] if v]
        lines = [v[0] for _, v in views]
        cited = [NoteEvidence(None, n.meta.title, v[1], None, n.key, n.meta.title, n.meta.broker, n.meta.publish_date,
                              n.path) for n, v in views]
        want = self._want(self._query(u))
        evidence = [self.evidence(h, want) for h, _ in self.search(u, pool, held)]
        if not evidence and not lines and (named or not want):
            # a note named, or notes asked and nothing more: the passages holding any word asked, else what the
            # latest says first
            evidence = [self.evidence(h, want) for h, _ in self.search(u, pool, HELD_NAMED)] or \
                [self.evidence(h, want) for h in self.store.notes.head((list(named) or pool)[0], 2)]
        if not lines and not evidence:
            return None
        if not evidence and lines and all(render(self.t, "note_no_target") in line for line in lines):
            # (only a target price asked, and no note gives one: said, no value)
            return Answer(question, "\n".join(lines), u.finglm_type(), Method.NOTE, list[Evidence](cited), found=False)
        lines += [self.quote(e) for e in evidence]
        if held >= HELD_ALONE and not u.years.explicit and evidence:
            dates = "、".join(sorted({e.date for e in evidence if e.date}))
            lines.insert(0, render(self.t, "note_no_year", dates=dates))
        return Answer(question, "\n".join(lines), u.finglm_type(), Method.NOTE, evidence=[*cited, *evidence])

    def explain(self, u: Understanding, ans: Answer) -> Answer:
        """A why-question's answer followed by what the notes covering its company say of it."""
        pool = self.of_years(u, self.covering(u, self.notes()))
        want = self._want(self._query(u))
        found = [self.evidence(h, want) for h, _ in self.search(u, pool, HELD)] if pool else []
        if not found:
            return ans
        return extended(ans, render(self.t, "note_explains") + "\n" + "\n".join(self.quote(e) for e in found), list(found))

    @staticmethod
    def _names_broker(question: str, n: Note) -> bool:
        """Whether a question names the note's broker: whole (国金证券), or its name without 证券 where it speaks of
        a note (西南那篇, 国金的研报)."""
        b = n.meta.broker
        if not b:
            return False
        if b in question:
            return True
        short = b[:-2] if b.endswith("证券") and len(b) >= 4 else ""
        return bool(short) and re.search(re.escape(short) + _NOTE_AFTER_BROKER, question) is not None

    def understand_with(self, question: str, companies: Sequence[str]) -> Understanding:
        """The question read with the conversation's companies put in where it points at one (它, 该公司)."""
        text = POINTER.sub("", question) if POINTER.search(question) else question
        return self.understand("和".join(companies) + text)

    def after(self, question: str, ans: Answer, context: Sequence[str] = ()) -> Answer:
        """The router's answer with the notes': a note named or notes asked (the notes answer; what the filings
        answered stays first, the notes after it; where no note speaks of it, the filings' answer as it was), a why
        (the notes' explanation after the filings'), or nothing a filing answers and no company's value asked (the
        notes, said as theirs; never in a conversation about a company: `context`, its companies). A question asking what a
        filing itself prints (年报中…, rules/notes.yaml `filing`) is the filings' alone."""
        if not question.strip() or ans.method == Method.BAD_INPUT or self.rules.asks_filing(question):
            return ans
        every = self.notes()
        if not every:
            return ans
        understand = self.understand
        named = self.named(question, every)
        brokers = any(self._names_broker(question, n) for n in every)   # (国金证券怎么看…, 西南那篇点评…)
        if named or brokers or self.rules.asks_notes(question):
            u = understand(question)
            got = self.answer(question, u, self.consistent(u, named), context=context)
            explicit = bool(named or brokers or _BROKER.search(question)) or any(rx.search(question) for rx in self.rules.note_words)
            if got is None or (not got.found and ans.answered and not explicit):
                return ans   # (no note speaks of it, and none was named: the filings' answer as it was)
            if _gives_value(ans):
                return extended(ans, got.answer, got.evidence)   # (a value the filings gave first, the notes after)
            return got
        if ans.method in ASKED_BACK:
            return ans
        if self.why.asks_why(question):
            # (answered or not by the filings: what the notes covering its company say of it, after)
            return self.explain(understand(question), ans)
        if not ans.answered and not context:
            u = understand(question)
            if u.items or u.formulas or (u.companies and self.rules.asks_quantity(question)):
                return ans   # (a company's value no filing holds is never a note's number)
            got = self.answer(question, u, [], held=HELD_ALONE, industry=True)
            if got is not None and got.found and any(isinstance(e, NoteEvidence) and e.page for e in got.evidence):
                got.answer = render(self.t, "note_instead") + "\n" + got.answer
                return got
        return ans
