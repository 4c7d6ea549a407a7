"""Several intents over the companies a ranking lists (多意图, issue 46): "2024年利润最高的top10企业是哪些？这些企业的
利润、销售额年同比是多少？年同比上涨幅度最大的是哪家企业？" — steps whose results feed the next.

A question is such a chain (rules/plan.yaml `set_reference`, `set_pick`) when it has two clauses or more, its first
ranks or lists companies across the store (no company named: the statistics answerer's ranking) and every later
clause either names them back ("这些企业", "上述公司", "其中") or asks which of them stands out ("…最大的是哪家企业").
Then, in order:

1. the ranking, answered as the single question it is; the companies it lists, in its order, are the set;
2. a clause naming them back is asked of each company in turn — the reference replaced by the company and the
   ranking's year — as a question of its own (the router's whole path: a list of items answered item by item),
   measure words said of a company as a whole read as the item they name (`company_measures`: 销售额 → 营业收入);
3. a clause asking which company is highest or lowest is answered from the values the step before read of each
   company (their growth rates when it asks a rate: 同比, 涨幅 … `set_rate`), one winner per item, never read again;
   with no step before it, each company's value of the items it names is read first.

Every number is one of those answers' (read and cited by them) or a rate computed from two of their values. A
company whose value was not read is said, never left out silently; no set (the ranking read nothing) is said in
each later step's place. Anything else is no chain (None): the plan path takes it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Callable

from ..catalog.normalize import normalize_question
from ..catalog.plan_rules import PlanRules
from ..understand.entities import CompanyMatch
from ..understand.plan import Ask, Plan, Planner
from ..understand.question import Understanding
from .chart import Chart
from .compose import render, round_half_up
from .model import Answer, Evidence, FactEvidence, Method
from .plan import AskResult, _number, _rates_of, _values_of

_YEAR = re.compile(r"(?:19|20)\d\d\s*年")
# the words joining a list of companies, left where their names were taken out ("#和#2025年" → "2025年")
_JOINED = re.compile(r"#(?:[和与及、,，]|以及)*(?=#)|(?<=#)(?:(?:这|上述)?[两三四五六七八九十]家)?(?:公司|企业)?")
# the words of an order a pick asks (更高, 较慢, 最低)
_ORDER_WORDS = re.compile(r"(?:最|更|较)(?:高|低|多|少|大|小|快|慢|严重)")
# a ranking's clause ending "among them" ("排名前五的企业中，"): the pick after it picks from its companies
_RATE_NAME = re.compile(r"(?:增长率|增速|增幅|变动率)$")   # (a formula naming a growth rate: 利润总额增长率)
_AMONG = re.compile(r"(?:中|里|当中|之中)[，,]\s*$")
_PIECE = re.compile(r"[^，,；;。？?！!]+[，,；;。？?！!]*|[，,；;。？?！!]+")


@dataclass
class Member:
    name: str          # the company's short name, as the ranking printed it
    key: str           # its code (the report key's company part)


@dataclass
class Step:
    kind: str                       # rank | each | pick | explain
    words: str                      # the clause as the question wrote it
    answer: Answer
    per_company: list[tuple[Member, Answer, Understanding | None]] = field(default_factory=list)
    winners: list[tuple[Member, str, Decimal]] = field(default_factory=list)   # a pick's: (company, item, value)

    def record(self) -> dict[str, Any]:
        out: dict[str, Any] = {"words": self.words, "kind": self.kind, "method": self.answer.method,
                               "found": self.answer.found}
        if self.per_company:
            out["companies"] = [{"company": m.name, "question": a.question, "method": a.method, "found": a.found}
                                for m, a, _ in self.per_company]
        return out


class SetChain:
    """Answers chains of a ranking and the asks over the companies it lists (module docstring)."""

    def __init__(self, rules: PlanRules, planner: Planner, answer: Callable[[str], Answer],
                 understand: Callable[[str], Understanding], templates: dict[str, str],
                 mentions: Callable[[str], tuple[str, list[CompanyMatch], Any]] | None = None,
                 explain: Callable[[str], Answer] | None = None, asks_why: Callable[[str], bool] = lambda t: False):
        self.rules = rules
        self.planner = planner
        self.answer_question = answer
        self.understand = understand
        self.t = templates
        self.mentions = mentions   # (the companies a text names, where they stand: a named set's)
        self.explain = explain     # (a why-question's whole answer: the figures, the statement's lines, the notes)
        self.asks_why = asks_why

    # ------------------------------------------------------------------------------------ the chain

    def answer(self, question: str) -> Answer | None:
        r = self.rules
        norm = normalize_question(question)
        if not (r.set_reference.search(norm) or r.set_pick.search(norm)):
            return None   # (most questions: told by two regexes)
        clauses = self._steps(norm)
        if len(clauses) < 2:
            return None
        later = clauses[1:]
        if _AMONG.search(clauses[0] + "，") and self.planner.rules is not None \
                and not self.planner.rules.ask.search(clauses[0]):
            # "2019年总资产排在前三位的公司里，…": the set described, asked as the ranking it is
            clauses[0] = _AMONG.sub("", clauses[0] + "，") + self.rules.set_questions["members"]
        u0 = self.understand(clauses[0])
        if u0.type != "statistics" or u0.companies:
            return None   # (the first clause must list companies across the store)
        if not any(r.set_reference.search(c) for c in later) and not (
                u0.ranking is not None and (u0.ranking.top_asked or u0.ranking.every)):
            return None   # ("在西安注册的公司中，…最高的是哪家": a filter, no ranking of a set: one question)
        first = self.answer_question(clauses[0])   # (a ranking that read nothing says so, and so do the steps after)
        members = _members(first)
        year = _year_words(clauses[0])
        steps = [Step("rank", clauses[0], first)]
        for clause in later:
            steps.append(self._explain(clause, steps, year) if self.asks_why(clause) and not r.set_pick.search(clause)
                         else self._pick(clause, steps, members, year) if r.set_pick.search(clause)
                         else self._each(clause, members, year))
        return self._compose(question, steps, members)

    def _explain(self, clause: str, steps: list[Step], year: str) -> Step:
        """A why asked after a pick ("…哪家增长最快？分析其原因"): the why-question of the company it named, of its item
        and the way it moved, answered whole (the figures, the statement's lines where a profit's, the notes)."""
        pick = next((st for st in reversed(steps) if st.kind == "pick" and st.winners), None)
        if pick is None or self.explain is None:
            return Step("explain", clause, _unanswered(clause, render(self.t, "chain_explain_nothing")))
        parts = []
        for m, item, value in pick.winners:
            base = _RATE_NAME.sub("", item) or item
            way = self.rules.set_questions["up" if value >= 0 else "down"]
            parts.append(self.explain(self.rules.set_questions["why"].format(company=m.name, year=year, items=base,
                                                                             direction=way)))
        text = "\n".join(a.answer.strip() for a in parts)
        ans = Answer(clause, text, parts[0].type, "plan" if any(a.answered for a in parts) else "not_found",
                     [e for a in parts for e in a.evidence], found=all(a.found for a in parts))
        return Step("explain", clause, ans)

    def named(self, question: str, plan: Plan) -> Answer | None:
        """A plan of several asks whose first names several companies as a list ("宁德时代和贵州茅台2025年的营业收入分别
        是多少？同比增速各是多少？哪家增速更高？"): the companies are the set — every ask but a pick asked of each of
        them in turn (the others' names and the each-words left out), a pick (哪家…更高, 哪家最低) answered from the
        values the ask before read of each. None when the first ask names fewer than two companies."""
        if self.mentions is None or len(plan.asks) < 2:
            return None
        first = plan.asks[0].words
        _, found, _ = self.mentions(first)
        members: list[Member] = []
        for m in found:
            c = m.company
            if all(x.key != c.key for x in members):
                members.append(Member(c.short_name or c.full_name or c.key, c.key))
        if len(members) < 2:
            return None
        year = _year_words(plan.norm)
        steps: list[Step] = []
        subject = ""
        for ask in plan.asks:
            words = self._without_companies(ask.words)
            if ask.kind == "compare" or self.rules.set_pick.search(words):
                steps.append(self._pick(words, steps, members, year))
                # (the item it names is the subject of an ask after it: "哪家营业收入更高？各是多少？")
                u = self.understand(self._for(words, members[0], year))
                subject = "、".join([*u.items, *u.formulas]) or subject
                continue
            if subject and ask.reference and ask.reference in words:
                words = words.replace(ask.reference, subject, 1)   # (其, 该指标: the subject of the ask before)
            elif subject and ask.inherits:   # ("同比增速各是多少": of the ask before's subject)
                joint = "" if self.planner.starts_with_predicate(words) or subject.endswith("的") else "的"
                words = subject + joint + words
            subject = self.planner.subject(words)
            steps.append(self._each(words, members, year))
        return self._compose(question, steps, members)

    def _without_companies(self, words: str) -> str:
        """An ask's words without the companies it names (and the words joining them), nor its each-words (分别, 各):
        what is asked of each company."""
        assert self.mentions is not None
        norm, found, _ = self.mentions(words)
        out = norm
        for m in sorted(found, key=lambda m: m.start, reverse=True):
            if m.start >= 0:
                out = out[:m.start] + "#" + out[m.end:]
        out = _JOINED.sub("", out).replace("#", "")
        return self.rules.each.sub("", out).lstrip("的，, ")

    def _steps(self, norm: str) -> list[str]:
        """The question's steps: its pieces (cut after ？。；！ and commas) up to the first naming the set back, as the
        ranking; then a step at each piece naming the set back (这些企业, 其中) or picking from it (哪家最高: only once
        the set was named back, or right after a ranking "…的企业中，"); a piece asking nothing ("…，保留两位小数")
        belongs to the step before it. [] when it is no such chain: no piece names the set back, or a piece asks
        something of its own (a question of its own after the ranking: "净利润最高的是哪家？")."""
        r = self.rules
        asks = self.planner.rules.ask if self.planner.rules is not None else None
        first, held = "", ""
        later: list[str] = []
        for piece in _PIECE.findall(norm):
            referred = bool(r.set_reference.search(piece)) or (bool(r.set_pick.search(piece)) or self.asks_why(piece)) \
                and bool(later or _AMONG.search(first) or held)
            if referred and first.strip() and asks is not None and not asks.search(piece) \
                    and not r.set_pick.search(piece) and piece.rstrip().endswith(("，", ",")) \
                    and not self._names_own(r.set_reference.sub("", piece)):
                held += piece   # ("它们2019年与2018年相比，…增加最多的是哪家": the set named, the ask after the comma)
                continue
            if held:
                piece, held = held + piece, ""
                referred = True
            if referred and first.strip():
                later.append(piece)
            elif later and asks is not None and asks.search(piece) and self._names_own(piece):
                return []   # (a piece asking something of its own, neither naming the set nor picking from it)
            elif later:
                later[-1] += piece
            else:
                first += piece
        return [first.strip(" ，,"), *(p.strip(" ，,") for p in later)] if later else []

    def _names_own(self, piece: str) -> bool:
        """Whether a piece names an item, a formula or a company of its own ("涨了多少" names none: it goes on)."""
        u = self.understand(piece)
        return bool(u.items or u.formulas or u.companies)

    def _for(self, clause: str, m: Member, year: str) -> str:
        """The clause as a question of one company: its reference replaced by the company (and the ranking's
        year, where the clause names none), measure words said of a company as a whole read as their item."""
        r = self.rules
        head = m.name + ("" if _YEAR.search(clause) else year)
        ref = r.set_reference.search(clause)
        text = clause[:ref.start()] + head + clause[ref.end():] if ref else head + clause
        for word, item in self.rules.company_measures.items():
            # (the company's: 前五名客户销售额 is a customer's, kept as written)
            text = re.sub(rf"(?<![户商名])(?<!大){re.escape(word)}", item, text)
        return self.rules.each.sub("", text)   # (分别, 各: one company's question asks one value)

    def _each(self, clause: str, members: list[Member], year: str) -> Step:
        if not members:
            return Step("each", clause, _unanswered(clause, render(self.t, "chain_no_set")))
        if self.mentions is not None and self.mentions(clause)[1]:
            # "其中邮储银行的净利润是多少": a company of its own, asked once
            text = clause if _YEAR.search(clause) else year + clause
            one = self.answer_question(self.rules.set_reference.sub("", text))
            return Step("each", clause, one)
        u = self.understand(self._for(clause, members[0], year))
        if not (u.items or u.formulas):
            # "其中哪家是银行": nothing a company's figures answer; no passage of each is quoted for it
            return Step("each", clause, _unanswered(clause, render(self.t, "chain_each_nothing")))
        per: list[tuple[Member, Answer, Understanding | None]] = []
        for m in members:
            text = self._for(clause, m, year)
            per.append((m, self.answer_question(text), self.understand(text)))
        lines = [render(self.t, "chain_company", company=m.name, answer=a.answer.strip()) for m, a, _ in per]
        for m, a, _ in per:   # (each value cited with its company: three 净利润 of 2019 are told apart)
            for e in a.evidence:
                if isinstance(e, FactEvidence) and not e.company:
                    e.company = m.name
        evidence = _evidence(a for _, a, _ in per)
        missing = [m.name for m, a, _ in per if not a.found]
        found = [a for _, a, _ in per if a.answered]
        ans = Answer(clause, "\n".join(lines), found[0].type if found else "1",
                     "plan" if found else "not_found", evidence, found=not missing and bool(found),
                     partial=missing if found and missing else [])
        return Step("each", clause, ans, per)

    def _pick(self, clause: str, steps: list[Step], members: list[Member], year: str) -> Step:
        """Which company of the set is highest or lowest: from the values the latest step asked of each company read
        of the items the clause names (of its year), their rates when the clause asks a rate — or when it names no
        item after a step that asked rates ("…同比增长率是多少？哪家最低？") —, else each company's value of those items,
        read here first. A fall named before the order (降幅最大) is the lowest rate."""
        r = self.rules
        orders = list(dict.fromkeys([m.group("order") or m.group("order2") for m in r.set_pick.finditer(clause)]
                                    + _ORDER_WORDS.findall(clause)))
        if not orders:
            return Step("pick", clause, _unanswered(clause, render(self.t, "chain_pick_nothing")))
        if not members:
            return Step("pick", clause, _unanswered(clause, render(self.t, "chain_no_set")))
        own_year = _year_words(clause)
        if own_year:
            year = own_year   # ("2018年营业收入最高的是哪家": that year's, never the chain's)
        own_u = self.understand(self._for(clause, members[0], year))
        own_items = [*own_u.items, *own_u.formulas]
        # the latest step asked of each company of the same year that read the items the pick names (any, if none)
        before = next((st for st in reversed(steps) if st.kind == "each" and st.per_company and not own_year
                       and (not own_items or _same_items(own_items, st.per_company))), None)
        per = before.per_company if before is not None else []
        rate = bool(r.set_rate.search(clause)) or (not own_items and before is not None and bool(
            r.set_rate.search(before.words)))
        items = own_items or [i for _, _, u in per if u is not None for i in [*u.items, *u.formulas]]
        items = list(dict.fromkeys(items))
        if per and rate and not any(_rates(a) for _, a, _ in per):
            per = []   # (the step before read values, no rate: the rates are read here)
        read = not per
        if read:
            if not items:
                return Step("pick", clause, _unanswered(clause, render(self.t, "chain_pick_nothing")))
            # (a rate named as an item — 净利润增长率 — is read as a value: it is the rate)
            ask = self.rules.set_questions["rate" if rate and not all(map(_RATE_NAME.search, items)) else "value"]
            per = []
            for mm in members:
                text = ask.format(company=mm.name, year=year, items="、".join(items))
                per.append((mm, self.answer_question(text), self.understand(text)))
        table: dict[str, list[tuple[Member, Decimal, str, Evidence]]] = {}
        unread: dict[str, list[str]] = {}
        for mm, a, u in per:
            got = {name: (v, shown, e) for name, v, shown, e in (_rates(a) if rate else _values(a, u))}
            for item in items:
                label = _label(item, got, alone=len(items) == 1)
                if label is None:
                    unread.setdefault(item, []).append(mm.name)
                else:
                    table.setdefault(item, []).append((mm, *got[label]))
        lines: list[str] = []
        evidence: list[Evidence] = _evidence(a for _, a, _ in per) if read else []
        missing: list[str] = []
        fall = r.set_fall.search(clause) if rate else None
        winners: list[tuple[Member, str, Decimal]] = []
        for item in items:
            what = item + (self.rules.set_questions["rate_label"] if rate and not _RATE_NAME.search(item) else "")
            rows = table.get(item, [])
            if not rows:
                missing.append(item)
                lines.append(render(self.t, "chain_pick_none", item=what))
                continue
            parts = "，".join(f"{mm.name}{shown}" for mm, _, shown, _ in rows)
            no_fall = fall is not None and all(v >= 0 for _, v, _, _ in rows)
            if no_fall:   # (none fell: no "largest fall" is named)
                lines.append(render(self.t, "chain_pick_no_fall", item=what, parts=parts))
            for word in [] if no_fall else [fall.group(0)] if fall else orders:
                # (a fall's largest, of rates, is the lowest: "降幅最大", "下滑最严重")
                high = fall is None and any(w in word for w in r.higher)
                ranked = sorted(rows, key=lambda x: x[1], reverse=high)
                tie = [x for x in ranked if x[1] == ranked[0][1]]
                lines.append(render(self.t, "chain_pick", item=what, order=word,
                                    winner="、".join(x[0].name for x in tie), parts=parts))
                winners += [(x[0], item, x[1]) for x in tie] if not winners else []
            if unread.get(item):
                lines.append(render(self.t, "chain_pick_unread", companies="、".join(unread[item]), item=what))
            evidence += [e for *_, e in rows if e not in evidence]
        if not table and not read:
            return self._pick(clause, [], members, year)   # (the step before read none of them: read here)
        if not table:
            return Step("pick", clause, _unanswered(clause, render(self.t, "chain_pick_nothing")), per)
        ans = Answer(clause, "".join(lines), "2-2", "compare_asks", evidence, found=not missing and not unread,
                     partial=missing + [f"{n}（{i}）" for i, ns in unread.items() for n in ns])
        ans.chart = _rates_chart(table, self.rules.set_questions["rate_label"]).to_dict() if rate else None
        return Step("pick", clause, ans, per if read else [], winners if rate else [])

    # ------------------------------------------------------------------------------------ composing

    def _compose(self, question: str, steps: list[Step], members: list[Member]) -> Answer:
        lines, evidence, missing = [], [], []
        for n, s in enumerate(steps, 1):
            a = s.answer
            if a.answered or s.kind == "rank" and members:
                lines.append(render(self.t, "plan_part", n=n, answer=a.answer.strip()))
                missing += [f"（{n}）{x}" for x in a.partial]
            else:
                lines.append(render(self.t, "plan_unanswered", n=n, words=s.words, reason=a.answer.strip()))
                missing.append(f"（{n}）{s.words}")
            evidence += [e for e in a.evidence if e not in evidence]
        answered = [s.answer.answered or s.kind == "rank" and bool(members) for s in steps]
        method = "plan" if any(answered) else "not_found"
        out = Answer(question, "\n".join(lines), steps[0].answer.type, method, evidence, found=not missing,
                     partial=missing if any(answered) else [])
        out.asks = [s.record() for s in steps]
        charts = [s.answer.chart for s in steps if s.kind == "pick" and s.answer.chart]
        out.chart = charts[-1] if charts else None
        return out


# ---------------------------------------------------------------------------------------------- helpers

def _members(ranking: Answer) -> list[Member]:
    """The companies a ranking listed, in its order (its facts name each with its report)."""
    out: list[Member] = []
    for e in ranking.evidence:
        if isinstance(e, FactEvidence) and e.company and e.report:
            key = e.report.split(":")[0]
            if all(m.key != key for m in out):
                out.append(Member(e.company, key))
    return out


def _year_words(text: str) -> str:
    m = _YEAR.search(text)
    return m.group(0).replace(" ", "") if m else ""


def _rates(ans: Answer) -> list[tuple[str, Decimal, str, Evidence]]:
    """(item, growth rate, rate as printed, the year's evidence): each item's change an answer read (a change, items,
    or a growth formula's two values of one item: 利润总额增长率 — no other formula holds two of one item)."""
    if not ans.answered or ans.method not in (Method.CHANGE, Method.ITEMS, Method.FORMULA):
        return []
    return _rates_of(AskResult(Ask(ans.question), ans), by_item=True)


def _values(ans: Answer, u: Understanding | None) -> list[tuple[str, Decimal, str, Evidence]]:
    """(item, value, as printed, evidence): the values an answer read, one per item — of a change asked, the year's
    own (its rates are _rates': a pick asking no rate compares the values)."""
    if ans.answered and ans.method in (Method.CHANGE, Method.ITEMS):
        facts = [e for e in ans.evidence if isinstance(e, FactEvidence) and e.year is not None and e.period == "current"]
        last = max((e.year for e in facts if e.year is not None), default=None)
        out: list[tuple[str, Decimal, str, Evidence]] = []
        for e in facts:
            num = _number(e.stored or e.value) if e.year == last else None
            if num is not None and all(e.item != x[0] for x in out):
                out.append((e.item, num[0], e.value, e))
        if out or ans.method == Method.CHANGE:
            return out
    return _values_of(AskResult(Ask(ans.question), ans, u))


def _label(item: str, got: dict[str, Any], alone: bool = False) -> str | None:
    """The name an answer read an item's value under: the item's own, else the one name holding it or held by it
    (利润总额增长率 → 利润总额), else — one item asked, one value read (归母净利润增长率's two values of 归属于母公司所有者的
    净利润) — that one; none when several could be meant."""
    if item in got:
        return item
    near = [n for n in got if item in n or n in item]
    if len(near) == 1:
        return near[0]
    return next(iter(got)) if alone and len(got) == 1 else None


def _same_items(items: list[str], per: list[tuple[Member, Answer, Understanding | None]]) -> bool:
    before = {i for _, _, u in per if u is not None for i in [*u.items, *u.formulas]}
    return set(items) <= before


def _evidence(answers: Any) -> list[Evidence]:
    out: list[Evidence] = []
    for a in answers:
        out += [e for e in a.evidence if e not in out]
    return out


def _unanswered(clause: str, reason: str) -> Answer:
    return Answer(clause, reason, "1", "not_found", found=False)


def _rates_chart(table: dict[str, list[tuple[Member, Decimal, str, Evidence]]], label: str) -> Chart:
    """The companies' growth rates compared, an item a dataset (bars, in %)."""
    names = list(dict.fromkeys(mm.name for got in table.values() for mm, *_ in got))
    datasets: list[dict[str, Any]] = []
    for item, got in table.items():
        at = {mm.name: (v, shown) for mm, v, shown, _ in got}
        datasets.append({"label": item + ("" if _RATE_NAME.search(item) else label), "item": item,
                         "data": [float(round_half_up(at[n][0], 2)) if n in at else None for n in names],
                         "shown": [at[n][1] if n in at else "" for n in names]})
    return Chart("bar", "、".join(str(d["label"]) for d in datasets) + "（各公司）", names, datasets, "%")
