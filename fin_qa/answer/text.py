"""Text answers (FinGLM type 3-1): keyword search finds the report section (search/retrieve.py), the
extractor cuts the units that answer by the question's shape (answer/extract.py), and — with a chat
model — prose is written over the same section, its numbers checked (answer/prose.py). Answer:
"<公司><年>年年度报告「<section>」（第N页）：<quoted text>", every quoted unit as passage evidence."""
from __future__ import annotations

import re

from typing import TYPE_CHECKING, Callable

from ..search.base import SearchQuery
from ..search.retrieve import Passage, Retriever
from ..store import Report
from ..understand.question import Understanding
from .compose import render
from .extract import evidence, extract
from .lookup import not_found
from .model import Answer
from .values import Values

if TYPE_CHECKING:
    from ..catalog.topics import Topic
    from .prose import Prose


class TextAnswerer:
    def __init__(self, values: Values, retriever: Callable[[], Retriever], prose: "Prose | None" = None):
        self.v = values
        self.t = values.t
        self._retriever = retriever   # the router's: built on first use unless the caller gave one
        self.prose = prose

    @property
    def retriever(self) -> Retriever:
        return self._retriever()

    def passages(self, u: Understanding, rep: Report, n: int = 3) -> tuple[SearchQuery, "list[Topic]", list[Passage]]:
        """(query, topics, passages) for a text question about one report."""
        query, topics = self.retriever.query(u.masked or u.norm, list(u.item_words.values()), u.topics)
        return query, topics, self.retriever.retrieve(query, topics, [rep.key], n)

    def answer(self, u: Understanding) -> Answer:
        rep, name, year, note = self.v.report(u)
        if rep is None:
            return not_found(u, render(self.t, "not_found_report", company=name, year=year))
        if not self.v.source.has_text(rep):
            return Answer(u.question, note + render(self.t, "text_no_text", company=name, year=year), u.finglm_type(), "text",
                          found=False)
        query, topics, passages = self.passages(u, rep)
        p = passages[0] if passages else None
        res = extract(u.norm, u.shape, p, topics, query.text, self.retriever.config.excerpt_chars) if p else None
        if p is None or res is None or res.kind == "empty":
            topic = "、".join(t.name for t in topics) or _as_written(query.text, u.question) or "问题"
            return Answer(u.question, note + render(self.t, "text_not_found", company=name, year=year, topic=topic),
                          u.finglm_type(), "text", found=False)
        pages = sorted({x.page for x in res.used if x.page}) or [x for x in p.pages if x][:1]
        page = "、".join(map(str, pages)) if pages else "?"
        section = p.path[-1] if p.path else "正文"
        template = {"yes": "text_yes", "no": "text_no", "not_applicable": "text_not_applicable"}.get(res.kind, "text_answer")
        excerpt, method = res.excerpt, "text"
        if self.prose is not None and res.kind in ("excerpt", "rows"):
            # prose over the same section; the quoted sentences stay the evidence and the fallback
            pr = self.prose.text_answer(u.norm, name, year, p.heading, p.text)
            if pr.text:
                excerpt, method = pr.text, "text+llm"
        text = render(self.t, template, company=name, year=year, section=section, page=page, excerpt=excerpt)
        return Answer(u.question, note + text, u.finglm_type(), method, list(evidence(res, p)))


def _as_written(words: str, question: str) -> str:
    """The query's words as the question wrote them, spaces kept ("What was" — not "Whatwas"); each run of
    them on its own (the company and year masked out between them)."""
    out = []
    for run in words.split():
        m = re.search(r"\s*".join(re.escape(ch) for ch in run), question)
        out.append(m.group(0) if m else run)
    return " ".join(out)
