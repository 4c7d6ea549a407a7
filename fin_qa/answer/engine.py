"""A question in, an exact cited answer out: routing to lookup / formula / compare / statistics.

No chat model here: every number is read from a fact or computed by a formula file. What cannot be
answered (unknown company, missing report or value, a denominator of 0) is said so, never guessed.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from ..understand.keywords import ItemInfo
from ..understand.question import Understander, Understanding
from .compose import default_templates, format_result, format_value, render
from .facts import Fact, FactSource
from .formulas import Formula, FormulaError, Input, default_formulas


@dataclass
class Answer:
    question: str
    answer: str
    type: str                      # the contest's type label (1, 1-2, 2-1, 2-2, 3-1, 3-2)
    method: str                    # lookup | formula | compare | statistics | text | open | not_found | ...
    evidence: list[dict] = field(default_factory=list)
    found: bool = True             # False when the answer admits it has no value
    model_keywords: list[str] = field(default_factory=list)  # keywords the chat model gave, when it was asked

    def record(self, qid=None) -> dict:
        out = {"id": qid, "question": self.question, "answer": self.answer, "type": self.type,
               "method": self.method}
        if self.evidence:
            out["evidence"] = self.evidence
        if self.model_keywords:
            out["model_keywords"] = self.model_keywords
        return out


class Engine:
    def __init__(self, source: FactSource, style: str = "human", understander: Understander | None = None,
                 retriever=None, model=None):
        self.source = source
        self._retriever = retriever  # text search (fin_qa/search/retrieve.py); built on first use
        self.model = model           # a ChatModel (fin_qa/llm/) or None: the deterministic paths only
        self.style = style
        self.formulas = default_formulas()
        self.t = default_templates()
        self.understander = understander or Understander(source.known, formula_phrases=self.formulas.phrases)
        self.vocab = self.understander.vocab
        from .statistics import Statistics

        self.statistics = Statistics(self)
        self.prose = None
        self._chat = None
        if model is not None:
            from ..llm.batching import CachedChat
            from ..understand.llm_keywords import LLMKeywords
            from .prose import Prose

            self._chat = CachedChat(model)
            self.understander.llm_keywords = LLMKeywords(self._chat, self.understander.generalizer)
            self.prose = Prose(self._chat)

    def _use_chat(self, chat) -> None:
        self.understander.llm_keywords.model = chat
        self.prose.model = chat

    def prefetch(self, questions: list[str]) -> int:
        """Generate, in batches, the chat-model requests these questions will make (fin-qa batch on a GPU);
        returns how many were generated. Answers are then made one by one as usual, from the cache."""
        if self._chat is None or not questions:
            return 0
        from ..llm.batching import RecordingChat

        rec = RecordingChat()
        self._use_chat(rec)
        try:
            for q in questions:
                try:
                    self.answer(q)
                except Exception:  # noqa: BLE001 - the real pass reports it
                    pass
        finally:
            self._use_chat(self._chat)
        return self._chat.fill(rec.requests)

    # --------------------------------------------------------------------------- entry point

    def answer(self, question: str) -> Answer:
        if question is None or not str(question).strip():
            return Answer(question or "", render(self.t, "empty"), "1", "bad_input", found=False)
        u = self.understander.understand(str(question))
        ans = self._route(u)
        ans.model_keywords = list(u.model_keywords)
        return ans

    def _route(self, u: Understanding) -> Answer:
        question = u.question
        if not u.chinese:
            return Answer(question, render(self.t, "not_chinese"), "1", "bad_input", found=False)
        kind = u.type
        if kind == "statistics":
            return self.statistics.answer(u)
        if kind == "open":
            return self._open(u)
        if not u.companies or kind == "not_found":
            return Answer(question, render(self.t, "not_found_company"), u.finglm_type(), "not_found", found=False)
        if kind == "text":
            return self._text(u)
        if kind == "compare":
            return self._compare(u)
        if kind == "formula":
            if u.formulas and u.items:
                return self._lookup(u)  # 每股收益和每股净资产: several values, some of them computed
            return self._formula(u)
        if kind == "lookup":
            return self._lookup(u)
        return Answer(question, render(self.t, "not_understood"), u.finglm_type(), "not_found", found=False)

    # --------------------------------------------------------------------------- text (3-1)

    @property
    def retriever(self):
        if self._retriever is None:
            from ..search.retrieve import Retriever

            self._retriever = Retriever(self.source.store)
        return self._retriever

    def passages(self, u: Understanding, rep: dict, n: int = 3):
        """(query, topics, passages) for a text question about one report."""
        query, topics = self.retriever.query(u.masked or u.norm, list(u.item_words.values()))
        return query, topics, self.retriever.retrieve(query, topics, [rep["key"]], n)

    def _text(self, u: Understanding) -> Answer:
        from .text import evidence, extract

        rep, name, year, note = self._report(u)
        if rep is None:
            return self._not_found(u, render(self.t, "not_found_report", company=name, year=year))
        if not self.source.has_text(rep):
            return Answer(u.question, note + render(self.t, "text_no_text", company=name, year=year), "3-1", "text",
                          found=False)
        query, topics, passages = self.passages(u, rep)
        p = passages[0] if passages else None
        res = extract(u.norm, p, topics, query.text, self.retriever.config.excerpt_chars) if p else None
        if res is None or res.kind == "empty":
            topic = "、".join(t.name for t in topics) or query.text or "问题"
            return Answer(u.question, note + render(self.t, "text_not_found", company=name, year=year, topic=topic),
                          "3-1", "text", found=False)
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
        ev = [dict(e, section_score=p.score) for e in evidence(res, p)]
        return Answer(u.question, note + text, "3-1", method, ev)

    # --------------------------------------------------------------------------- open (3-2)

    def _open(self, u: Understanding) -> Answer:
        """A definition question: the formula files answer what they define; the chat model, when there is
        one, writes the explanation around it (its numbers checked against the formula and question)."""
        formulas = [f for f in map(self.formulas.get, u.formulas) if f is not None and not f.template]
        defs = [(f.name, f.expr.replace(" ", "")) for f in formulas]
        fixed = "".join(render(self.t, "open_formula", name=n, expr=e) for n, e in defs)
        ev = [{"formula": n, "expr": e, "source": Path(f.file).name} for (n, e), f in zip(defs, formulas)]
        if self.prose is not None:
            pr = self.prose.open_answer(u.norm, defs)
            if pr.text:
                return Answer(u.question, pr.text + (f"\n{fixed}" if fixed else ""), "3-2", "open+llm", ev)
        if fixed:
            return Answer(u.question, fixed, "3-2", "open", ev)
        template = "open_refused" if self.prose is not None else "open_unavailable"
        return Answer(u.question, render(self.t, template), "3-2", "open", found=False)

    # --------------------------------------------------------------------------- helpers

    def _company(self, u: Understanding):
        """(company match, its display name) — the first company named that the store has."""
        for m in u.companies:
            if self.source.years_of(m.company.key):
                return m, self._display(m)
        m = u.companies[0]
        return m, self._display(m)

    @staticmethod
    def _display(m) -> str:
        return m.text if m.score == 100 and not m.text.isdigit() else (m.company.short_name or m.company.full_name or m.text)

    def _report(self, u: Understanding) -> tuple[dict | None, str, int | None, str]:
        """(report, company display name, year, note) for a single-report question."""
        m, name = self._company(u)
        year = u.years.asked
        note = ""
        if year is None:
            years = self.source.years_of(m.company.key)
            if years:
                year = years[-1]
                note = render(self.t, "no_year", company=name, year=year)
        rep = self.source.report(m.company.key, year) if year is not None else None
        return rep, name, year, note

    def facts(self, rep: dict, items: list[str], period: str = "current", together: bool = False) -> dict[str, Fact]:
        """Facts of the report. An absent item is derived (formulas `derived:`); an absent 专业构成/教育程度
        category is 0 when the report's own table (a document, not an imported table) lists others — or,
        with together=True (inputs of one computation), when another asked category of that table is there."""
        got = self.source.facts(rep, items, period)
        for item in items:
            d = self.formulas.derived.get(item)
            if item in got or d is None:
                continue
            names = [i.item for i in d.inputs.values()]
            parts = self.facts(rep, names, period, together=True)
            if all(n in parts and parts[n].number is not None for n in names):
                try:
                    value = d.evaluate({lbl: parts[i.item].number for lbl, i in d.inputs.items()})
                except (FormulaError, ArithmeticError):
                    continue
                pages = sorted({parts[n].page for n in names if parts[n].page})
                first = parts[names[0]]
                got[item] = Fact(item, str(value), first.unit, period, first.statement, pages[0] if pages else None,
                                 f"{first.source}; {d.expr.replace(' ', '')}", rep["year"])
        got.update(self._zero_categories(rep, items, got, period, together))
        return got

    def _zero_categories(self, rep, items, got, period, together) -> dict[str, Fact]:
        out = {}
        for item in items:
            info = self.vocab.items.get(item)
            if item in got or info is None or info.statement not in ("教育程度", "专业构成"):
                continue
            sibling = together and any(f.statement == info.statement and f.number for f in got.values())
            if sibling or self.source.has_statement(rep, info.statement):
                out[item] = Fact(item, "0", "人", period, info.statement, None,
                                 f"{info.statement}表未列此类别，按0计", rep["year"])
        return out

    def _info(self, item: str) -> ItemInfo:
        return self.vocab.items.get(item) or ItemInfo(item, "amount", None, "元")

    def _show(self, fact: Fact) -> str:
        kind = "text" if fact.number is None else self._info(fact.item).kind
        if kind != "text":  # the fact's own unit says how it was printed
            kind = {"%": "percent", "人": "count", "元/股": "per_share"}.get(fact.unit, kind)
        return format_value(fact.value if kind == "text" else fact.number, kind, self.style, fact.unit)

    def _not_found(self, u, msg) -> Answer:
        return Answer(u.question, msg, u.finglm_type(), "not_found", found=False)

    # --------------------------------------------------------------------------- lookup (1, 1-2)

    def _lookup(self, u: Understanding) -> Answer:
        """Items (and formula names asked beside them: 每股收益和每股净资产) of one report."""
        rep, name, year, note = self._report(u)
        if rep is None:
            return self._not_found(u, render(self.t, "not_found_report", company=name, year=year or ""))
        words = u.item_words
        asked = [(k.kind, k.name) for k in u.keywords] + [(g.kind, g.name) for g in u.generalized]
        asked = list(dict.fromkeys(asked))
        got = self.facts(rep, [n for k, n in asked if k == "item"])
        parts, evidence, missing = [], [], []
        for kind, item in asked:
            if kind == "formula":
                shown, ev, problem, _, _ = self.formula_value(self.formulas.get(item), rep, u.decimals)
                if problem:
                    missing.append(item)
                    continue
                parts.append((item, shown))
                evidence.extend(ev)
                continue
            f = got.get(item)
            if f is None:
                missing.append(item)
                continue
            shown = self._show(f)
            parts.append((_label(item, words.get(item)), shown))
            evidence.append(f.evidence(shown))
        if not parts:
            label = "、".join(_label(i, words.get(i)) for i in missing)
            return self._not_found(u, render(self.t, "not_found_value", company=name, year=year, item=label))
        if len(parts) == 1 and not missing:
            text = render(self.t, "lookup", company=name, year=year, item=parts[0][0], value=parts[0][1])
        else:
            joined = "，".join(render(self.t, "lookup_part", item=i, value=v) for i, v in parts)
            text = render(self.t, "lookup_many", company=name, year=year, parts=joined)
            if missing:
                label = "、".join(_label(i, words.get(i)) for i in missing)
                text += render(self.t, "not_found_value", company=name, year=year, item=label)
        ftype = "1-2" if len(asked) > 1 else "1"
        return Answer(u.question, note + text, ftype, "lookup", evidence)

    # --------------------------------------------------------------------------- formulas (2-1)

    def _inputs(self, f: Formula, rep: dict) -> tuple[dict[str, Decimal], list[dict], list[tuple[str, int]], list[str]]:
        """Values of a formula's inputs for a report: (values, evidence, missing (label, year), notes)."""
        values: dict[str, Decimal] = {}
        evidence: list[dict] = []
        missing: list[tuple[str, int]] = []
        notes: list[str] = []
        now = self.facts(rep, list({i.item for i in f.inputs.values() if i.offset == 0}), together=True)
        prev_rep = self.source.report(rep["company"], rep["year"] - 1)
        prev_items = list({i.item for i in f.inputs.values() if i.offset == -1})
        prev = self.facts(prev_rep, prev_items) if prev_rep and prev_items else {}
        # the asked report's previous-period column, only for what the previous year's report lacks
        prev_col = self.facts(rep, [i for i in prev_items if i not in prev], "previous")
        for label, inp in f.inputs.items():
            fact = now.get(inp.item) if inp.offset == 0 else (prev.get(inp.item) or prev_col.get(inp.item))
            year = rep["year"] + inp.offset
            if fact is None or fact.number is None:
                missing.append((label, year))
                continue
            values[label] = fact.number
            ev = fact.evidence(self._show(fact))
            ev["label"] = label
            if inp.offset and fact.period == "previous":
                ev["year"] = year
                notes.append(f"{label}取自{rep['year']}年报的上期数")
            evidence.append(ev)
        return values, evidence, missing, notes

    def compute(self, f: Formula, rep: dict):
        """(value or None, evidence, missing, notes, error) — also used by statistics."""
        values, evidence, missing, notes = self._inputs(f, rep)
        if missing:
            return None, evidence, missing, notes, None
        try:
            return f.evaluate(values), evidence, [], notes, None
        except (FormulaError, ArithmeticError) as exc:
            return None, evidence, [], notes, str(exc) or "无法计算"

    def _pair_formula(self, u: Understanding) -> Formula:
        """An ad-hoc A/B for "A占B的比例" over two items no formula file names."""
        a, b = u.items[:2]
        words = u.item_words
        la, lb = words.get(a, a), words.get(b, b)
        if la == lb:
            la, lb = a, b
        out = "percent" if re.search(r"百分比|%|百分之", u.norm) else "ratio"
        return Formula(f"{la}占{lb}的比例", (), {la: Input(la, a, 0), lb: Input(lb, b, 0)}, f"{la}/{lb}", out, 2,
                       ("/", ("var", la), ("var", lb)), "question", 0)

    def formula_value(self, f: Formula, rep: dict, decimals: int | None):
        """(shown value or None, evidence, problem text or None, notes, method) of a formula for a report.
        A value the report (or an imported table) states under the formula's name wins (每股净资产)."""
        reported = self.source.fact(rep, f.name)
        if reported is not None and reported.number is not None:
            kind = "per_share" if f.output == "per_share" else ("amount" if f.output == "amount" else None)
            shown = format_value(reported.number, kind, self.style) if kind else self._show(reported)
            return shown, [reported.evidence(shown)], None, [], "lookup"
        value, evidence, missing, notes, error = self.compute(f, rep)
        if missing:
            label, y = missing[0]
            item = label[2:] if label.startswith("上年") and f.inputs[label].offset else label
            return None, evidence, ("missing", y, item), notes, "not_found"
        if error:
            return None, evidence, ("error", error), notes, "formula"
        shown = format_result(value, f.output, decimals if decimals is not None else f.decimals, self.style)
        return shown, evidence, None, notes, "formula"

    def _problem_text(self, problem, name, year, fname) -> str:
        if problem[0] == "missing":
            return render(self.t, "not_found_prev", company=name, year=problem[1], item=problem[2], name=fname)
        return render(self.t, "not_computable", company=name, year=year, name=fname, reason=problem[1])

    def _formula(self, u: Understanding) -> Answer:
        f = self.formulas.get(u.formulas[0]) if u.formulas else self._pair_formula(u)
        rep, name, year, note = self._report(u)
        if rep is None:
            return self._not_found(u, render(self.t, "not_found_report", company=name, year=year or ""))
        shown, evidence, problem, notes, method = self.formula_value(f, rep, u.decimals)
        if problem:
            return Answer(u.question, note + self._problem_text(problem, name, year, f.name), u.finglm_type(),
                          method, evidence, found=False)
        if method == "lookup":
            text = render(self.t, "lookup", company=name, year=year, item=f.name, value=shown)
            return Answer(u.question, note + text, u.finglm_type(), "lookup", evidence)
        parts = "，".join(render(self.t, "formula_part", label=e["label"], value=e["value"]) for e in evidence)
        text = render(self.t, "formula", company=name, year=year, name=f.name, value=shown,
                      expr=f.expr.replace(" ", ""), parts=parts)
        if notes:
            text += "（" + "；".join(notes) + "）"
        return Answer(u.question, note + text, u.finglm_type(), "formula", evidence)

    # --------------------------------------------------------------------------- compare (2-2)

    def _compare(self, u: Understanding) -> Answer:
        m, name = self._company(u)
        items = u.items or ["法定代表人"]
        item = items[0]
        years = list(u.years.years)
        if len(years) == 1:
            years = [years[0] - 1, years[0]]
        if not years:
            years = self.source.years_of(m.company.key)[-2:]
        label = _label(item, u.item_words.get(item))
        values: list[tuple[int, Fact]] = []
        for y in years:
            rep = self.source.report(m.company.key, y)
            if rep is None:
                return self._not_found(u, render(self.t, "not_found_report", company=name, year=y))
            f = self.facts(rep, [item]).get(item)
            if f is None:
                return self._not_found(u, render(self.t, "not_found_value", company=name, year=y, item=label))
            values.append((y, f))
        shown = [(y, self._show(f)) for y, f in values]
        evidence = [f.evidence(s) for (y, f), (_, s) in zip(values, shown)]
        same = len({_same_key(f.value) for _, f in values}) == 1
        parts = "，".join(render(self.t, "compare_part", year=y, item=label, value=s) for y, s in shown)
        text = render(self.t, "compare_same" if same else "compare_diff", company=name, parts=parts)
        return Answer(u.question, text, u.finglm_type(), "compare", evidence)


def _label(item: str, words: str | None) -> str:
    """How the answer names an item: the canonical name, with the question's words when they differ."""
    if not words or words.replace("的", "") == item.replace("的", ""):
        return item
    return f"{words}（{item}）"


def _same_key(v: str) -> str:
    return "".join(str(v).split()).replace("（", "(").replace("）", ")")
