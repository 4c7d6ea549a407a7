"""A question in, an exact cited answer out: understand once, then hand the Understanding to the
answerer its rule's type names (rules/question_types.yaml). No logic of its own beyond that map.

No chat model is needed: every number is read from a fact or computed by a formula file. What cannot
be answered (unknown company, missing report or value, a denominator of 0) is said so, never guessed.
With a chat model (fin_qa/llm/), it extracts keywords the tables miss and writes prose over evidence.
"""
from __future__ import annotations

import re
from typing import Protocol

from ..catalog import Catalog
from ..catalog.periods import FILING_WORDS
from ..catalog.normalize import normalize_question
from ..catalog.vocabulary import DISCLOSURES
from ..check import CheckResult, doubtable, doubts
from ..llm.base import ChatModel
from ..llm.batching import CachedChat, RecordingChat
from ..search.base import SearchBackend
from ..search.retrieve import Retriever, make_backend
from ..store import Store
from ..understand.llm_keywords import LLMKeywords
from ..understand.plan import Planner
from ..understand.question import Understander, Understanding
from .cells import CellAnswerer
from .frames import FrameAnswerer, SubsidiaryAnswerer
from .anchors import ReportWords
from .change import ChangeAnswerer
from .compare import CompareAnswerer
from .compose import render
from .distribution import ITEMS as DISTRIBUTION_ITEMS, DistributionAnswerer
from .facts import FactSource
from .followup import Context, FollowUp, context_of
from .formula import FormulaAnswerer
from .lookup import LookupAnswerer, declined, understood
from .drivers import Drivers, with_breakdown
from .notes import ASKED_BACK, NoteAnswerer
from .model import STATEMENT_NAMES, Answer, FactEvidence, Method, PassageEvidence, extended
from .open import AdviceAnswerer, OpenAnswerer
from .chart import chart_of
from .periods import PeriodAnswerer
from .premise import Premise, Premises
from .chain import SetChain
from .plan import PlanExecutor
from .prose import Prose
from .review import NONE_VALUE, Reviewer
from . import routes
from .routes import PRINTABLE_SLOTS, AskState, cue_words, of_the_periods, unprinted
from .series import SeriesAnswerer
from .stated import StatedAnswerer
from .statistics import StatisticsAnswerer
from .text import TextAnswerer
from .values import Values


class Answerer(Protocol):
    def answer(self, u: Understanding) -> Answer: ...




def _column_periods(catalog: Catalog) -> dict[str, re.Pattern]:
    """A column printing a period of each kind (the frame's period names): rules/lexicon.yaml column_periods."""
    return {name: re.compile("|".join(map(re.escape, words))) for name, words in catalog.lexicon.column_periods if words}


def _value_answerers(values: Values) -> dict[str, Answerer]:
    """The answerers of one company's values over a scope (consolidated, or the parent's statements)."""
    lookup = LookupAnswerer(values)
    series = SeriesAnswerer(values)
    return {"lookup": lookup, "formula": FormulaAnswerer(values, lookup), "change": ChangeAnswerer(values, series),
            "series": series}


class Router:
    def __init__(self, source: FactSource, catalog: Catalog, style: str = "human",
                 retriever: Retriever | None = None, model: ChatModel | None = None, periods: bool = True):
        self.source = source
        self.catalog = catalog
        self.t = catalog.templates
        self.model = model           # a ChatModel or None: the deterministic paths only
        self._retriever = retriever  # text search; None: the embedded FTS5 index, opened on first use
        self._chat: CachedChat | None = None
        prose = None
        llm_keywords = None
        if model is not None:
            self._chat = CachedChat(model)
            prose = Prose(self._chat, catalog.prompts)
        self.understander = Understander(source.known, catalog, former=source.former_names())
        if self._chat is not None:
            llm_keywords = LLMKeywords(self._chat, self.understander.generalizer, catalog.fewshot)
            self.understander.llm_keywords = llm_keywords
        self.prose = prose
        self.values = Values(source, catalog, style)
        self._parent: dict[str, Answerer] | None = None   # the answerers over the parent's statements
        self.text = TextAnswerer(self.values, lambda: self.retriever, prose)
        frame_rules = catalog.understanding.frame
        self.cells: CellAnswerer = CellAnswerer(self.values, catalog.cells,
                                                unit_said=frame_rules.unit_more if frame_rules is not None else None)
        self.stated: StatedAnswerer = StatedAnswerer(self.cells, self.text, self.understander.lexicon.cut)
        self.frames: FrameAnswerer = FrameAnswerer(self.cells, catalog.frames, catalog.items)
        self.subsidiaries: SubsidiaryAnswerer = SubsidiaryAnswerer(self.frames, self.understander.lexicon.cut)
        self.answerers: dict[str, Answerer] = {
            **_value_answerers(self.values),
            "compare": CompareAnswerer(self.values),
            "statistics": StatisticsAnswerer(self.values, catalog.disclosures, catalog.checks),
            "text": self.text,
            "distribution": DistributionAnswerer(self.values),
            "open": OpenAnswerer(catalog.formulas, self.t, prose, catalog.glossary),
            "advice": AdviceAnswerer(self.t),
        }
        self.reviewer = Reviewer(self.t, catalog.cells, catalog.frames, catalog.items)
        self.column_periods = _column_periods(catalog)   # (routes.every_period_read)
        self.report_words = ReportWords(source.store, catalog.cells)
        self.planner = Planner(catalog.plan, self.understander)
        # a ranking and the asks over the companies it lists (answer/chain.py), where the plan rules declare them
        self.chain = SetChain(catalog.plan, self.planner, self._answer_plain, self.understander.understand, self.t,
                              self.understander.mentions, self.answer, catalog.drivers.asks_why) \
            if catalog.plan is not None else None
        self.executor = PlanExecutor(self.planner, self.answer_one, self.t,
                                     lambda item: self.values.info(item).statement in STATEMENT_NAMES)
        frame = self.understander.config.frame   # (no frame rules: no cue of the previous year, none read)
        self.followup = FollowUp(self.understander.understand,
                                 dict(frame.periods)["previous"] if frame else re.compile(r"(?!)"),
                                 frame.base if frame else None,
                                 ([frame.ask] if frame else []) + [rx for _, rx in self.understander.config.shapes],
                                 self._inputs_of, self._in_report,
                                 lambda text: self.periods.words_in(text) if self.periods is not None else None,
                                 tuple(x.asked for x in catalog.stand_ins))
        self._context_of: tuple[str | None, Context] = (None, Context(""))   # (answer_one's last question's)
        # a question's premise checked with this router's own answers (the top router only: a period's view
        # answers a question already checked)
        self.premises = Premises(self._answer_plain) if periods else None
        # research notes, a second kind of document (answer/notes.py; the top router only)
        self.notes = NoteAnswerer(source.store, catalog, self.understander.understand, lambda: self.retriever.backend,
                                  self.understander.lexicon.cut) if periods else None
        self._following: list[str] = []   # (answering a turn of a conversation naming companies, in follow: them)
        self.drivers = Drivers(catalog, self._answer_plain, self.understander.understand) if periods else None
        self._names: dict[str, str] | None = None   # report key → its company's short name (the charts')
        self._doubts: dict[str, dict[tuple[str, str, str], CheckResult]] = {}   # report key → its failed checks' figures
        self._asks_of: dict[str, tuple[str, ...] | None] = {}   # a question → its asks (_ask_texts)
        self._doubtable = doubtable(catalog.checks)   # (the items a doubt can name: no other is looked up)
        # questions naming a period within a year (第三季度, 上半年 …: answer/periods.py), over views of this
        # source whose routers answer no period of their own
        self.periods = PeriodAnswerer(
            source, catalog, lambda view: Router(view, catalog, style, retriever, model, periods=False),
            self.understander.understand, self._answer, self._ask_texts) if periods else None

    def _ask_texts(self, question: str) -> list[str] | None:
        """The asks of a question, each a question of its own (its company and year filled in); [] for one; None
        where an ask takes its subject from the ask before ("上半年呢": the executor fills it in)."""
        if question not in self._asks_of:   # (asked again by each check of one question: planned once)
            plan = self.planner.plan(self.planner.restate(question)[0])
            if len(self._asks_of) > 256:
                self._asks_of.clear()
            self._asks_of[question] = () if not plan.compound else None \
                if any(a.inherits or a.reference for a in plan.asks) else \
                tuple(a.text for a in plan.asks if a.kind != "compare")
        got = self._asks_of[question]
        return list(got) if got is not None else None

    @property
    def retriever(self) -> Retriever:
        if self._retriever is None:
            backend = make_backend("sqlite", self.source.store, self.catalog)
            self._retriever = Retriever(self.source.store, backend, self.catalog.topics, self.catalog.search)
        return self._retriever

    # --------------------------------------------------------------------------- entry point

    def answer(self, question: str | None) -> Answer:
        """The answer of a question: of each of its asks, composed, when it asks several things; its premise
        checked against the figures first (answer/premise.py); one built on a figure its report contradicts (a
        failed check names it) says so; the chart its numbers make."""
        with self.source.store.pinned():   # (one state of the store read for the whole answer)
            ans = self._answer_plain(question)
            if question and self.periods is not None and ans.method not in ASKED_BACK and ans.method != Method.BAD_INPUT and (
                    not ans.answered or ans.method.startswith("text") and self.catalog.drivers.asks_why(str(question))):
                # (an item not printed alone, nothing read of it — or a why of it answered by a passage not naming it)
                ans = self._stood_in(str(question), ans)
            premise = self.premises.check(str(question)) if self.premises is not None and ans.method not in \
                (Method.BAD_INPUT, Method.ASK_WHICH, Method.ASK_YEAR, Method.ASK_PERIOD) else None
            if premise is not None:
                ans = _with_premise(ans, premise)
            if ans.method == Method.SERIES and self.periods is not None:
                ans = self._with_latest(str(question), ans)
            if self.drivers is not None and ans.method not in ASKED_BACK and ans.method != Method.BAD_INPUT:
                breakdown = self.drivers.check(str(question))   # (a why of a profit: its statement's lines)
                if breakdown is not None:
                    ans = with_breakdown(ans, breakdown)
            if self.notes is not None:
                ans = self.notes.after(str(question or ""), ans, context=self._following)
            if not ans.answered:
                return ans
            if ans.chart is None:   # (a chain's comparison draws its own: answer/chain.py)
                drawn = chart_of(ans, self._name_of)
                ans.chart = drawn.to_dict() if drawn is not None else None
            return self._doubted(ans)

    def _stood_in(self, question: str, ans: Answer) -> Answer:
        """A question asking items the report does not print alone (keyword_tables/stand_ins.yaml: 主营业务收入) that
        nothing answered — or a why of them answered by a passage that does not name them: that said first, then the
        printed items holding them (营业收入) as what they are, with the chart — never as the items asked (partial:
        they stay unanswered). A passage naming the item (四方科技's "实现主营业务收入…") stays the answer."""
        norm = normalize_question(question)
        used = [s for s in self.catalog.stand_ins if s.asked in norm]
        if not used or ans.answered and any(s.asked in ans.answer for s in used):
            return ans
        text = norm
        for s in used:
            text = text.replace(s.asked, s.given)
        sub = self._answer_plain(text)
        if not sub.answered:
            return ans
        said = "".join(render(self.t, "stand_in", asked=s.asked, given=s.given, holds=s.holds) for s in used)
        out = Answer(question, said + sub.answer, sub.type, sub.method, list(sub.evidence), found=False,
                     partial=[s.asked for s in used] + list(sub.partial))
        out.series, out.shown, out.asks = sub.series, sub.shown, sub.asks
        return out

    def _answer_plain(self, question: str | None) -> Answer:
        """The answer of a question naming a period within a year (answer/periods.py), else of the annual path."""
        ans = self.periods.answer(str(question)) if self.periods is not None and question and \
            str(question).strip() else None
        return ans if ans is not None else self._answer(question)

    def _with_latest(self, question: str, ans: Answer) -> Answer:
        """A series over the years (近几年, 近三年, 变化趋势: no year written) of one company whose latest filing is a
        quarter's or half year's after its last annual point: that period's value and its change on the same period a
        year before, said after the series (截至2024年第三季度报告) — never a point of the years' line."""
        if not ans.series or not ans.answered:
            return ans
        u = self.understander.understand(question)
        kind = (u.frame.series or {}).get("kind")
        if kind not in ("every", "recent") or u.years.explicit or len({m.company.key for m in u.companies}) != 1:
            return ans
        company = u.companies[0].company
        last = max((p["year"] for ser in ans.series for p in ser["points"]), default=None)
        later = [(y, p) for y, p in self.source.periods_of(company.key) if last is not None and y > last and p != "FY"]
        if not later:
            return ans
        year, period = later[-1]
        added = []
        for ser in ans.series:
            if self.values.at_a_date(ser["item"]):
                continue   # (a balance: a period end's is no change on the same period a year before)
            sub = self._answer_plain(f"{company.short_name or company.key}{year}年{LATEST_WORDS[period]}"
                                     f"{ser['label']}同比增长了多少？")
            if sub.found and sub.method == Method.CHANGE:
                added.append(sub)
        if not added:
            return ans
        said = render(self.t, "series_latest", year=year, filing=FILING_WORDS[period]).lstrip("\n")
        return extended(ans, said + "".join(a.answer for a in added), [e for a in added for e in a.evidence])

    def _name_of(self, key: str | None) -> str:
        """The short name of the company of a report key ("" when the store holds no such report)."""
        if self._names is None:
            self._names = {r.key: r.short_name or r.full_name or "" for r in self.source.known}
        return self._names.get(key or "", "")

    def _doubted(self, ans: Answer) -> Answer:
        """The answer with a word on each failed check of its report naming a figure it reads (of the scope it
        read: the consolidated statements, or the parent's)."""
        scope = "parent" if (ans.frame or {}).get("scope") == "parent" else "consolidated"
        named: dict[int, tuple[CheckResult, list[str]]] = {}
        nameable = self._doubtable
        for e in ans.evidence:
            if not isinstance(e, FactEvidence) or not e.report or e.company is not None or e.item not in nameable:
                continue
            if e.report not in self._doubts:
                rid = self.source.store.report_id(e.report)
                self._doubts[e.report] = doubts(self.source.store, rid, self.catalog.checks) if rid else {}
            r = self._doubts[e.report].get((scope, e.item, e.period))
            if r is not None:
                items = named.setdefault(id(r), (r, []))[1]
                if e.item not in items:
                    items.append(e.item)
        for r, items in named.values():
            ans.answer = ans.answer.rstrip() + render(
                self.t, "doubt", item="、".join(items), check=r.name, left=f"{r.left:,}", right=f"{r.right:,}",
                pages="、".join(f"第{p}页" for p in r.pages) or "-")
        return ans

    def _answer(self, question: str | None) -> Answer:
        if question is None or not str(question).strip():
            return Answer(question or "", render(self.t, "empty"), "1", "bad_input", found=False)
        text, clash = self.planner.restate(str(question))
        if clash is not None:
            return Answer(str(question), render(self.t, "restated_clash", words=clash), "1", "declined", found=False)
        understood_text: Understanding | None = None   # (the text's understanding, when the frames made it)
        if self.frames.cued(text):
            # an operation over a table's rows (哪个地区最高, 占…比重, 硕士及以上): the frames answer the
            # whole question, its asks in turn (a share of the row the ask before found), or leave it
            understood_text = self.understander.understand(text)
            ans = self._frame_query(text, understood_text)
            if ans is not None:
                ans.question = str(question)
                return ans
        chained = self.chain.answer(text) if self.chain is not None else None
        if chained is not None:
            chained.question = str(question)
            return chained
        plan = self.planner.plan(text)
        named = self.chain.named(text, plan) if self.chain is not None and plan.compound else None
        if named is not None:   # (several asks of several companies named as a list: each asked of each)
            named.question = str(question)
            return named
        if not plan.compound:
            plan = self.planner.each_company(text) or plan
        if plan.compound:
            ans = self.executor.run(plan)
            ans.question = str(question)
            return ans
        u, ans = self.answer_one(text, understood_text)
        if not ans.answered and u.chinese and len(u.items) > 1 and (
                u.frame.operation != "value" or any(slot == "operation" for slot, _ in u.frame.unused)):
            # one ask over a list of items declined whole for its operation ("净利润、营业收入同比增长率分别是多少":
            # a change of two items, 分别 unread): item by item
            ans = self.executor.item_by_item(u, ans)
        elif ans.answered and ans.partial and u.chinese and len(u.items) > 1:
            # one ask over a list of items answered for some of them only (控股股东 from its disclosure,
            # 实际控制人 printed in no disclosure): item by item, each read where it is printed, when that answers more
            whole = self.executor.item_by_item(u, ans, sound=True)
            if whole is not ans and len(whole.partial) < len(ans.partial):
                ans = whole
        if not ans.answered and u.frame.operation == "value" and u.frame.unused and (u.items or u.formulas) \
                and all(slot == "period" for slot, _ in u.frame.unused) \
                and all(self.values.at_a_date(i) for i in [*u.items, *(x for f in u.formulas for x in self._inputs_of(f))]):
            # (a value read at a date — a balance, a bank's ratio, or a formula of balances: 资产负债率 — at two
            # dates listed: an ask each)
            plan = self.planner.each_period(text) or plan
            if plan.compound:
                ans = self.executor.run(plan)
        ans.question = str(question)
        return ans

    def _frame_query(self, text: str, u: Understanding) -> Answer | None:
        """The frames' answer of a question (answer/frames.py), reviewed; None when they leave it."""
        if not u.chinese or not u.companies or u.type == "not_found":
            return None
        ans = self.frames.answer(u)
        if ans is None or self.reviewer.review(u, ans) is not None or not of_the_periods(AskState(self, u), ans):
            return None   # (期初 asked of an aging table printing its 期末账面余额 only: no answer of the frames)
        self._context_of = (text, context_of(text, u))
        ans.frame = frame_record(u, ans)
        return ans

    def follow(self, question: str | None, context: Context | None) -> Answer:
        """The answer of a question asked after another (answer/followup.py): what it leaves out taken from
        the context and said before the answer; a question back when it cannot be told which company is
        meant. The answer carries the context it leaves for the next question."""
        if question is None or not str(question).strip():
            return self.answer(question)
        merged = self.periods.complete(str(question), context.question) \
            if self.periods is not None and context is not None else None
        if merged is not None:   # the period a question back asked for ("2025年第三季度的"), put into its question
            ans = self.answer(merged)
            ans.question = str(question)
            ans.from_context = {"period": str(question), "question": merged}
            ans.answer = f"（按“{merged}”回答）" + ans.answer
            ans.context = self._left(merged, None).to_dict()
            return ans
        resolved = self.followup.resolve(str(question), context)
        if resolved.which_year and context is not None:
            years = "、".join(f"{y}年" for y in context.years)
            ans = Answer(str(question), render(self.t, "followup_which_year", years=years, word=resolved.which_year),
                         "1", "ask_year", found=False)
            # the next question names the year: the companies and items asked (the question's own, else the
            # context's) and the years kept
            ans.context = Context(str(question), resolved.companies, list(context.years), resolved.items,
                                  context.period).to_dict()
            return ans
        if resolved.ask_which:
            ans = Answer(str(question), render(self.t, "followup_which", companies="、".join(resolved.ask_which)),
                         "1", "ask_which", found=False)
            ans.ask_which = list(resolved.ask_which)
            # the next question picks one: what this one asked kept with the companies and years
            ans.context = Context(str(question), list(resolved.ask_which), list(context.years) if context else [],
                                  resolved.items, context.period if context else "").to_dict()
            return ans
        # (a turn of a conversation about a company is never answered by notes speaking of no company)
        self._following = list(context.companies) if context is not None else []
        try:
            ans = self.answer(resolved.question)
        finally:
            self._following = []
        ans.question = str(question)
        if resolved.took:
            parts = "，".join(f"{_TOOK_NAMES[k]}{v}" for k, v in resolved.took.items())
            ans.answer = render(self.t, "followup_took", parts=parts) + ans.answer
            ans.from_context = dict(resolved.took, question=resolved.question)
        ans.context = self._left(resolved.question, context).to_dict()
        return ans

    def _left(self, question: str, context: Context | None) -> Context:
        """The context a question leaves for the next (as answered: made whole): what answer_one read
        when it answered this very text (else read again), the period within the year it names, and the
        company and years it did not name as the conversation had them."""
        said, left = self._context_of
        if said != question:
            left = context_of(question, self.understander.understand(question))
        period = self.followup.period_in(question)
        left = Context(left.question, list(left.companies), list(left.years), list(left.items),
                       period.words if period is not None else "", left.span)
        if context is not None:   # (what it did not name stays as the conversation had it)
            left.companies = left.companies or list(context.companies)
            left.span = left.span or ("" if left.years else context.span)
            left.years = left.years or list(context.years)
            left.items = left.items or list(context.items)
        return left

    def _in_report(self, context: Context, words: list[str]) -> bool:
        """Whether the context's (one) report prints every one of the words in its text."""
        from ..search.base import SearchQuery
        from ..search.sqlite_fts import match_expression

        store = self.source.store
        keys = store.report_keys(context.companies[0], context.years[-1], annual=True) \
            if len(context.companies) == 1 and context.years else []
        within = store.chunk_range(keys[0]) if len(keys) == 1 else None
        if within is None:
            return False
        for w in words:   # (each word as one phrase)
            phrase = match_expression(SearchQuery("", phrases=[w]))
            if phrase is None or not store.fts_match(phrase, 1.0, 1, within):
                return False
        return True

    def _inputs_of(self, name: str) -> list[str]:
        f = self.catalog.formulas.get(name)
        return [i.item for i in f.inputs.values()] if f is not None else []

    def answer_one(self, question: str, u: Understanding | None = None) -> tuple[Understanding, Answer]:
        """One ask: understood (unless `u` is its understanding already), routed to its answerer, reviewed
        (answer/review.py)."""
        if u is None:
            u = self.understander.understand(question)
        self._context_of = (question, context_of(question, u))   # (what follow leaves for the next question)
        ans = self.route(u)
        reason = self.reviewer.review(u, ans)
        if reason is not None:
            ans = declined(u, render(self.t, "review_declined", reason=reason, understood=understood(u)))
        if self.periods is not None and ans.answered:
            ans = self.periods.held(question, ans)   # (a period within a year of a store of annual reports)
        ans.model_keywords = list(u.model_keywords)
        if u.chinese:
            ans.frame = frame_record(u, ans)
        return u, ans

    def route(self, u: Understanding) -> Answer:
        """One ask routed by the declared policy (answer/routes.py ROUTES)."""
        return routes.route(self, u)

    def route_kind(self, u: Understanding, kind: str) -> Answer:
        """The answer of the answerer of a rule type (rules/question_types.yaml), with what it declares it
        implements (operations, periods) and the key disclosures' paths."""
        if kind == "formula" and u.frame.operation in ("change", "growth") and len(u.formulas) == 1 and not u.items:
            kind = "change"   # a computed value's change between two years (毛利率较上年变化了多少)
        answerer = self.answerers.get(kind)
        f = u.frame
        # the answerers that answer with values declare the operations and periods they implement
        ops, periods = getattr(answerer, "operations", None), getattr(answerer, "periods", None)
        if ops is not None:
            # a meaning-bearing word no slot used stops them (frame.unused) — unless it is a word the answer's
            # evidence prints (境内 of 境内会计师事务所报酬, 含税 of 现金红利总额（含税）): read, it is accounted for
            if f.unused:
                words = cue_words(w for _, w in f.unused)
                refused = declined(u, render(self.t, "declined", words=words, understood=understood(u)))
                if not all(slot in PRINTABLE_SLOTS for slot, _ in f.unused) or f.scope == "parent" \
                        or f.operation not in ops or (periods is not None and f.period not in periods):
                    return refused
                assert answerer is not None
                ans = answerer.answer(u)
                # (every word it says beyond its item printed: 境内 of "境内审计机构的年度报酬" is no reason to
                # answer the firm's name when 年度报酬 is not printed there)
                said = [w for _, w in f.unused] + list(u.left)
                return ans if ans.answered and not unprinted(said, ans) else refused
            if f.scope == "parent":
                # the parent company's own statements answer what they print (母公司利润表 …); a ranking
                # across companies, or a report whose parent statements were not read, is declined
                parent = self._parent_answerer(kind)
                reports = []
                if u.companies:
                    company = u.companies[0].company.key
                    years = u.years.years or self.source.years_of(company)[-1:]
                    # a year's values come from its report or the next year's previous-period column
                    reports = [self.source.report(company, y + k) for y in years for k in (0, 1)]
                if parent is None or not u.companies:
                    # rankings, counts and comparisons across companies are read from consolidated values
                    return declined(u, render(self.t, "parent_scope_across", word=f.scope_word))
                if not any(r is not None and self.source.has_parent_statements(r) for r in reports):
                    name = self.values.company(u)[1]
                    return declined(u, render(self.t, "parent_scope", company=name, word=f.scope_word))
                answerer = parent
            # an answerer answers only the operations and periods it implements; any other is declined,
            # never answered as the plain value ("毛利率较上年提高了多少", "2019年期初的资产负债率")
            if f.operation not in ops:
                return declined(u, render(self.t, "declined", words=cue_words([f.operation_word or f.operation]),
                                          understood=understood(u)))
            if periods is not None and f.period not in periods:
                return declined(u, render(self.t, "declined", words=f.period_word, understood=understood(u)))
        elif kind == "text" and u.shape == "yes_no" and (u.items or u.formulas) and (
                f.operation != "value" or any(slot in ("comparison", "unit") for slot, _ in f.unused)):
            # "营业收入有没有超过30亿元", "营业收入同比有没有增长": a value compared, not a sentence to quote
            words = cue_words([w for _, w in f.unused] + [f.operation_word] * (f.operation != "value"))
            return declined(u, render(self.t, "declined", words=words, understood=understood(u)))
        if answerer is None:  # not_understood
            return Answer(u.question, render(self.t, "not_understood"), u.finglm_type(), "not_found", found=False)
        if kind in ("text", "lookup") and u.items and all(self.values.info(i).statement == DISCLOSURES for i in u.items):
            # a key disclosure read at ingest (审计意见类型, 是否存在重大诉讼仲裁事项 …): its fact and page
            # answer (a yes/no one with the section's sentence when that agrees); the section's text when
            # the report's fact is missing, whichever path the question's rule chose
            fact = self.answerers["lookup"].answer(u)
            if fact.answered and u.shape != "yes_no" and any(slot == "filter" for slot, _ in f.unused):
                # (a word that sets some apart — "非独立董事" — is no reading of the fact: the 独立董事 are not them)
                return declined(u, render(self.t, "declined", words=cue_words(w for _, w in f.unused),
                                          understood=understood(u)))
            if fact.answered:
                fact.type = u.finglm_type()
                if u.shape == "yes_no":
                    # a topic beyond the fact's own item ("是否存在控股股东…非经营性占用资金": 资金占用): the
                    # section's 是/否 answers it, never the item's value (the reviewer declines a value)
                    yes_no = fact.answer[:1] in "是否"   # a 是/否 fact (是否属于重点排污单位), or a value
                    beyond = not yes_no and any(not any(i == t.name or i in t.words for i in u.items)
                                                for t, _ in u.topics)
                    quoted = self.text.answer(u)
                    if quoted.answered and quoted.answer[:1] in "是否" and (
                            quoted.answer[:1] == fact.answer[:1] or beyond):
                        return quoted
                    if not beyond and not yes_no:
                        # "有没有控股股东": the value says it ("不存在控股股东" → 否, a name → 是)
                        value = next((e.value for e in fact.evidence if isinstance(e, FactEvidence)), "")
                        fact.answer = ("否。" if NONE_VALUE.match(value) else "是。") + fact.answer
                fact.answer += self._disclosure_quotes(u)
                return fact
            plan_of = self.answerers["distribution"]
            assert isinstance(plan_of, DistributionAnswerer)
            if all(i in DISTRIBUTION_ITEMS for i in u.items) and plan_of.says_none(u):
                # a figure of the profit distribution plan that the plan says is not given (每10股派多少 of a
                # plan paying none): the plan as its sentence says it (不派发现金红利)
                plan = plan_of.answer(u)
                if plan.answered:
                    return plan
            answerer = self.text  # no such fact in the report: its section's text may still say it
            ans = answerer.answer(u)
            if ans.answered and not self._quotes_the_item(u, ans):
                # a passage found for the words around the item ("股东" of 归属于上市公司股东的净利润) that never
                # names it does not say who the 控股股东 is
                name = self.values.company(u)[1]
                return Answer(u.question, render(self.t, "text_not_found", company=name, year=u.years.asked or "",
                                                 topic="、".join(u.item_words.get(i) or i for i in u.items)),
                              u.finglm_type(), "not_found", found=False)
            return ans
        ans = answerer.answer(u)
        if f.scope == "parent" and ans.answered:
            ans.answer += render(self.t, "parent_note")
        return ans

    @staticmethod
    def _quotes_the_item(u: Understanding, ans: Answer) -> bool:
        """Whether the passages quoted for a key disclosure name it: the item, the question's word for it,
        or either without a trailing 名称 / 类型 / 情况 (会计师事务所名称 → 会计师事务所)."""
        said = "".join(f"{e.heading}{e.text}" for e in ans.evidence if isinstance(e, PassageEvidence))
        if not said:
            return True   # (an answer quoting no passage is the reviewer's to judge)
        words = {w for i in u.items for w in (i, u.item_words.get(i) or i)}
        words |= {re.sub(r"(?:名称|类型|情况|信息)$", "", w) for w in words}
        return any(len(w) >= 2 and w in said for w in words)

    def _disclosure_quotes(self, u: Understanding) -> str:
        """The sentences the key disclosures were read from ("原文：“…公司计划不派发现金红利…”（第3页）")."""
        rep = self.values.report(u)[0]
        if rep is None:
            return ""
        quotes = []
        for f in self.source.store.report_facts(rep.id, u.items):
            raw = f.raw_label or ""
            if f.statement == DISCLOSURES and len(raw) > len(f.value) + 2:
                quotes.append(render(self.t, "disclosure_quote", text=raw, page=f.page or "?"))
        return "".join(dict.fromkeys(quotes))

    def _parent_answerer(self, kind: str) -> Answerer | None:
        """The answerer of a kind over the parent company's own statements (built on first use)."""
        if self._parent is None:
            self._parent = _value_answerers(Values(self.source.parent_view(), self.catalog, self.values.style))
        return self._parent.get(kind)

    # --------------------------------------------------------------------------- chat-model batching

    def _use_chat(self, chat: ChatModel) -> None:
        if self.understander.llm_keywords is not None:
            self.understander.llm_keywords.model = chat
        if self.prose is not None:
            self.prose.model = chat

    def prefetch(self, questions: list[str]) -> int:
        """Generate, in batches, the chat-model requests these questions will make (fin-qa batch on a GPU);
        returns how many were generated. Answers are then made one by one as usual, from the cache."""
        if self._chat is None or not questions:
            return 0
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


def _with_premise(ans: Answer, premise: Premise) -> Answer:
    """The answer with its question's premise said first (its values cited first): one that answers nothing else
    gives the premise's values, and says what it did not answer."""
    if ans.answered:
        ans.answer = premise.said + ans.answer
        ans.evidence = [*premise.evidence, *ans.evidence]
        return ans
    out = Answer(ans.question, premise.said + ans.answer, ans.type, premise.method, list(premise.evidence))
    out.partial = [ans.question]   # (the rest of the question, answered as before: not at all)
    out.frame = ans.frame
    return out


# the words asking a filing's period to date (a series' latest filing after its last annual point)
LATEST_WORDS = {"Q1": "第一季度", "HY": "上半年", "Q3": "前三季度"}

_TOOK_NAMES = {"company": "公司：", "year": "年份：", "period": "报告期：", "item": "项目：", "question": "问题："}


def frame_record(u: Understanding, ans: Answer | None = None) -> dict:
    """What was understood, for --json and batch records: company, years, items, formulas, the frame; with the
    answer, the left words its evidence prints are `printed` (read off the evidence), not `left`."""
    out: dict = {}
    if u.companies:
        c = u.companies[0].company
        out["company"] = {"short_name": c.short_name, "full_name": c.full_name, "code": c.stock_code}
    if u.years.years:
        out["years"] = list(u.years.years)
    if u.items:
        out["items"] = list(u.items)
    if u.formulas:
        out["formulas"] = list(u.formulas)
    out.update(u.frame.to_dict())
    left = list(u.left)
    if left and ans is not None and ans.answered:
        unread = unprinted(left, ans)
        printed = [w for w in left if w not in unread]
        if printed:
            out["printed"] = printed   # the words the answer's evidence prints (含税 of 现金红利总额（含税）)
        left = unread
    if left:
        out["left"] = left   # the words no slot, filler, neutral word or the evidence accounts for
    if u.filler:
        out["filler"] = list(u.filler)   # the words taken as how the question is asked (the lexicon's)
    return out


def make_router(store: Store, catalog: Catalog, backend: SearchBackend, style: str = "human",
                model: ChatModel | None = None, scope: set[tuple[str, int]] | None = None) -> Router:
    """A router over the store's reports (only the scope's, when given), searching text with the backend."""
    retriever = Retriever(store, backend, catalog.topics, catalog.search)
    return Router(FactSource(store, scope), catalog, style=style, retriever=retriever, model=model)

