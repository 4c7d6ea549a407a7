"""Executing a plan (fin_qa/understand/plan.py): each ask answered on its own, reviewed, then composed.

- A table whose cells answer every ask of the question at once (前五名客户合计销售金额 and its 占比 on one
  row) answers the whole question: the cell answerer explains every ask of it or answers nothing.
- Otherwise each ask, written as a question of its own, goes to the router's single-question path. An
  inherited subject or a back-reference is filled first from the ask before: the name it answered
  ("控股股东是谁？其持股比例是多少？") or else its subject ("罐式集装箱业务的营业收入").
- An ask over a list of items that its answerer declines as a whole ("营业收入和净利润同比增长了多少")
  is answered item by item.
- A comparison ("哪一项更高") is answered from the values the asks before it read, never read again.
- Every ask's answer from the router passes the reviewer (answer/review.py) there; one that fails is
  declined with the reason. What the executor computes itself (a comparison, a share of the value
  before, growth rates to compare) is computed from those reviewed answers' evidence, and said so.

Composition: the answers in the order asked, numbered; an ask that cannot be answered is said in its
place and the others still stand. `found` only when every ask is answered; `partial` names the asks (and
the parts of asks) not answered when some are.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable

from ..understand.plan import Ask, Plan, Planner
from ..understand.question import Understanding
from .compose import render, round_half_up
from .model import TABLE_METHODS, Answer, CellEvidence, Evidence, FactEvidence
from .tables import CHANGE_COLUMN, content, norm, pairs
from .review import NONE_VALUE, QUOTING, held

# what a name ask answers (控股股东是谁, 哪家会计师事务所): the name fills the back-reference after it
# a row named by its rank (第一名供应商, 前五名客户, 最大的股东)
_RANKED_ROW = re.compile(r"第[一二三四五六七八九十0-9]{1,2}(?:名|大|位)|前[一二三四五六七八九十0-9]{1,2}(?:名|大|位|家)|最大的|最高的")
# (a kind of part of the company, no particular one, ending the words that narrow an ask)
_KIND_OF_PART = re.compile(r"(?:子公司|参股公司|联营企业|合营企业|分公司)$")
_NAME_ASK = re.compile(r"是谁|哪家|哪个|哪一家|哪位|什么|名称|叫什么")
# a row label that is a name (a shareholder, a customer), not a year or a number
_NAME_ROW = re.compile(r"[\u4e00-\u9fffA-Za-z]{2,}")
_RATE_WANTED = re.compile(r"增长|增速|增幅|变动|变化|下降|降幅")   # a comparison of growth rates
_CHANGE_ASK = re.compile(r"增长|增减|变动|变化|同比|下降|减少|增加|提高|降低|增幅|降幅")
_YEAR_ROW = re.compile(r"^\s*(?:19|20)\d\d\s*年?度?\s*$")
_VALUE = re.compile(r"(-?\d[\d,]*(?:\.\d+)?)\s*(亿元|百万元|千万元|万元|千元|元|%)?")
_SCALE = {"亿元": Decimal(10) ** 8, "千万元": Decimal(10) ** 7, "百万元": Decimal(10) ** 6, "万元": Decimal(10) ** 4,
          "千元": Decimal(1000), "元": Decimal(1), "%": Decimal(1), None: Decimal(1)}


@dataclass
class AskResult:
    ask: Ask
    answer: Answer
    understanding: Understanding | None = None
    entity: str = ""              # the name it answered, for a back-reference after it
    carried: str = ""             # the subject the asks after it inherit
    modifier: str = ""            # what narrows its items (a subsidiary, a segment): the asks after it too

    def record(self) -> dict[str, Any]:
        out = self.ask.to_dict()
        out.update({"answer": self.answer.answer, "method": self.answer.method, "found": self.answer.found,
                    "partial": list(self.answer.partial)})
        if self.answer.evidence:
            out["evidence"] = [e.to_dict() for e in self.answer.evidence]
        u = self.understanding
        if u is not None:
            target = list(u.items) + list(u.formulas) + [t.name for t, _ in u.topics]
            if target:
                out["target"] = target
            if u.frame.unused:
                out["unused"] = [w for _, w in u.frame.unused]
            if u.left:
                out["left"] = list(u.left)
            if u.filler:
                out["filler"] = list(u.filler)
        return out


class PlanExecutor:
    """Runs the asks of a plan through `answer_one` (the router's single-question path: text → its
    Understanding and reviewed Answer) and composes them with the templates."""

    def __init__(self, planner: Planner, answer_one: Callable[[str], tuple[Understanding | None, Answer]],
                 templates: dict[str, str], in_statements: Callable[[str], bool] | None = None):
        self.planner = planner
        self.answer_one = answer_one
        self.t = templates
        # whether an item is a line of the statements (its value is read there, exact, with its page)
        self.in_statements = in_statements or (lambda item: False)

    def run(self, plan: Plan) -> Answer:
        if not any(a.kind == "compare" for a in plan.asks):
            # one table may answer every ask at once (its cells explain all of them, or none): a cell for each
            whole_u, whole = self.answer_one(plan.question)
            # what narrows the first ask narrows the asks that take its subject: their cells name it too
            later = any(a.inherits or a.reference for a in plan.asks[1:])
            first = self.planner.modifier(self.planner.strip_context(plan.asks[0].words, plan)) if later else ""
            # a sentence quoted for values the statements hold ("实现营业收入27,481.61万元…") answers no ask of
            # them: each is read from its statement line, exact and with its page, as any other question's
            quoted = whole.method in QUOTING and whole_u is not None and any(map(self.in_statements, whole_u.items))
            if whole.found and not quoted and _answers_every_ask(whole, plan, first):
                whole.asks = [dict(a.to_dict(), answered_with="question") for a in plan.asks]
                return whole
            if whole.found and not quoted and len(plan.asks) == 2 and _NAME_ASK.search(plan.asks[0].words) \
                    and not _NAME_ASK.search(plan.asks[1].words) and _answers_every_ask(whole, plan, first, with_names=False) \
                    and all(_VALUE.fullmatch(e.value.strip()) for e in whole.evidence if isinstance(e, CellEvidence)):
                # a name asked, then a value of it ("会计师事务所是哪家？报酬多少？"): the table's cells answer the value
                # (its row restates the name's words: no name of its own), the name is asked on its own
                name = plan.asks[0]
                name.text = self._text(plan, name, None, [])
                name_u, name_ans = self.answer_one(name.text)
                if name_ans.answered:
                    return self._compose(plan, [AskResult(name, name_ans, name_u, _entity(name_u, name_ans)),
                                                AskResult(plan.asks[1], whole, whole_u)])
        results: list[AskResult] = []
        for ask in plan.asks:
            if ask.kind == "compare":
                results.append(self._compare(ask, results, len(results) + 1))
                continue
            prev = next((r for r in reversed(results) if r.ask.kind != "compare"), None)
            refers = bool(ask.inherits or ask.reference)   # it takes the subject or name of the ask before
            if refers and prev is not None and NONE_VALUE.match(prev.entity):
                text = render(self.t, "plan_not_applicable", value=prev.entity)
                results.append(AskResult(ask, Answer(ask.words, text, "1", "not_found", found=False)))
                continue
            ask.text = self._text(plan, ask, prev, results)
            u, ans = self.answer_one(ask.text)
            if not ans.answered and u is not None:
                ans = self.item_by_item(u, ans)
            if not ans.answered and ask.inherits and not self.planner.starts_with_predicate(
                    self.planner.strip_context(ask.words, plan)):
                # it took the subject before only for naming nothing the catalog knows; its own words may
                # name a row of the report's tables ("第一大股东持股比例和持股数量是多少"): that row's cells
                # (a quote or a sentence found for its words alone may be of anything)
                own_u, own = self.answer_one(self.planner.with_context(ask.words, plan) + "".join(
                    w for w in plan.every if w not in ask.words))
                if own.answered and own.method in TABLE_METHODS:
                    u, ans, ask.inherits = own_u, own, False
                    ask.text = own.question
            if not ans.answered and prev is not None and refers:
                ans = self._share_of(plan, ask, prev, u) or ans
            res = AskResult(ask, ans, u)
            res.entity = _entity(u, ans)
            res.carried = res.entity or (prev.carried if ask.inherits and prev is not None else ask.subject)
            if prev is not None and (refers or ask.narrowed):
                res.modifier = prev.modifier
            elif not _NAME_ASK.search(ask.words):   # an ask for a name names no part of the company
                res.modifier = _named(self.planner.modifier(self.planner.strip_context(ask.words, plan)))
            results.append(res)
        return self._compose(plan, results)

    # --------------------------------------------------------------------------- asks

    def _text(self, plan: Plan, ask: Ask, prev: AskResult | None, results: list[AskResult]) -> str:
        """The ask as a question of its own, the subject or name of the ask before filled in (of every ask
        before it, as a list, for 二者/上述两项)."""
        every = "".join(w for w in plan.every if w not in ask.words)
        if prev is None or not (ask.inherits or ask.reference):
            words = self.planner.strip_context(ask.words, plan)
            if prev is not None and prev.modifier and not self.planner.own_modifier(words) and not _RANKED_ROW.search(words) \
                    and not self.planner.opens_anew(ask.words):
                # (a row named by its rank — 第一名供应商 — is the ask's own subject, narrowed by nothing before; an
                # ask opened by a connective — "同时，非经常性损益合计金额是多少" — asks of the company anew)
                # "金宇保灵生物药品有限公司净利润多少？营业收入多少？": the subsidiary's, never the company's
                ask.narrowed = prev.modifier
                return self.planner.with_context(prev.modifier + words, plan) + every
            return ask.text or self.planner.with_context(ask.words, plan) + every
        fill = prev.carried
        if ask.together:
            fill = "和".join(dict.fromkeys(r.carried for r in results if r.ask.kind != "compare" and r.carried))
        words = self.planner.strip_context(ask.words, plan)
        if ask.reference:
            words = words.replace(ask.reference, fill, 1)
        else:
            joint = "" if self.planner.starts_with_predicate(words) or fill.endswith("的") else "的"
            words = fill + joint + words
        if prev.modifier and not prev.answer.answered and prev.modifier not in words \
                and not self.planner.modifier(words):
            # what narrowed the ask it takes its subject from, and left it unanswered, narrows it too ("国外市场营业
            # 收入是多少？毛利率是多少？同比下降了多少？": 国外市场's 毛利率 was not read, nor is its change) — never the
            # company's own value in its place
            words = prev.modifier + words
        return self.planner.with_context(words, plan) + every

    def item_by_item(self, u: Understanding, ans: Answer, sound: bool = False) -> Answer:
        """An ask over a list of items ("营业收入和净利润同比增长了多少") declined as a whole: each item on
        its own, when the items stand in the question as a list (joined by 和/及/与/、). `sound`: an item's answer
        is kept only when it is the item's value read (a fact of the item, a cell whose row or column names it) —
        never a passage or a cell found for its words elsewhere (a 承诺 table's "…控股股东期间…")."""
        variants = self.planner.list_variants(u)
        if not variants:
            return ans
        parts = []
        for v in variants:
            pu, part = self.answer_one(v)
            if sound and part.answered and (pu is None or not _reads_its_item(pu, part)):
                # (said not found, never shown: what was found for its words is not its value)
                said = render(self.t, "not_found_value", company="", year="", item=v) if pu is None else render(
                    self.t, "not_found_value", company=pu.companies[0].text if pu.companies else "",
                    year=pu.years.asked or "", item="、".join(pu.item_words.get(i) or i for i in pu.items))
                part = Answer(part.question, said, part.type, "not_found", found=False)
            parts.append(part)
        if not any(p.answered for p in parts):
            return ans
        texts = [p.answer for p in parts]
        lead = _shared_lead(texts)   # (a note every part begins with — 问题没有指明年份… —: said once, first)
        text = lead + "；".join(x[len(lead):].rstrip("。") for x in texts) + "。"
        evidence: list[Evidence] = [e for p in parts for e in p.evidence]
        missing = [x for v, p in zip(variants, parts) for x in (p.partial or ([] if p.answered else [v]))]
        return Answer(ans.question, text, parts[0].type, "items", evidence, found=not missing, partial=missing)

    def _share_of(self, plan: Plan, ask: Ask, prev: AskResult, u: Understanding | None) -> Answer | None:
        """"…的营业收入是多少？占营业收入的比重是多少？" where no table prints the share: the value the ask
        before read over the whole the ask names (read as a question of its own), computed and said so."""
        m = self.planner.share_of(self.planner.strip_context(ask.words, plan))
        part = _values_of(prev)
        if m is None or len(part) != 1:
            return None
        whole_u, whole = self.answer_one(self.planner.with_context(m + "是多少", plan))
        total = _values_of(AskResult(ask, whole, whole_u))
        if len(total) != 1 or total[0][1] == 0:
            return None
        (pname, pval, pshown, pev), (wname, wval, wshown, wev) = part[0], total[0]
        decimals = u.decimals if u is not None and u.decimals is not None else 2
        value = f"{round_half_up(pval / wval * 100, decimals)}%"
        text = render(self.t, "plan_share", part=prev.carried or pname, whole=wname, value=value,
                      a=pshown, b=wshown)
        return Answer(ask.text, text, "2-1", "share_asks", [pev, wev])

    def _compare(self, ask: Ask, results: list[AskResult], n: int) -> AskResult:
        """哪一项更高: the values the asks before read, compared."""
        values = _candidates(results)
        if _RATE_WANTED.search(ask.words) and not all(r.answer.method in ("change", "items") and _rates_of(r)
                                                     for r in results if r.ask.kind != "compare"):
            values = []   # "哪个增长更快" over values no change was asked of: their rates were never read
        if len(values) < 2:
            return AskResult(ask, Answer(ask.words, render(self.t, "plan_compare_missing"), "1", "not_found", found=False))
        ranked = sorted(values, key=lambda v: v[1], reverse=ask.order == "higher")
        parts = "，".join(f"{name}{shown}" for name, _, shown, _ in values)
        evidence = [e for *_, e in values]
        if ranked[0][1] == ranked[1][1]:   # no one value is the highest (lowest)
            text = render(self.t, "plan_compare_tie", n=n, order=ask.order_word, parts=parts)
        else:
            text = render(self.t, "plan_compare", n=n, winner=ranked[0][0], order=ask.order_word, parts=parts)
        return AskResult(ask, Answer(ask.words, text, "2-2", "compare_asks", evidence), entity=ranked[0][0])

    # --------------------------------------------------------------------------- composing

    def _compose(self, plan: Plan, results: list[AskResult]) -> Answer:
        lines, evidence, missing = [], [], []
        said: dict[str, int] = {}   # an answer's text → the ask it was first given for
        for n, r in enumerate(results, 1):
            a = r.answer
            words = self.planner.subject(self.planner.strip_context(r.ask.words, plan)) or r.ask.words
            if r.ask.kind == "compare" and a.found:
                lines.append(a.answer)
            elif a.answered and a.answer.strip() in said:
                lines.append(render(self.t, "plan_same", n=n, same=said[a.answer.strip()]))
                missing += [f"（{n}）{x}" for x in a.partial]
            elif a.answered:
                said[a.answer.strip()] = n
                lines.append(render(self.t, "plan_part", n=n, answer=a.answer.strip()))
                missing += [f"（{n}）{x}" for x in a.partial]
            else:
                lines.append(render(self.t, "plan_unanswered", n=n, words=words, reason=a.answer.strip()))
                missing.append(f"（{n}）{words}")
            evidence += [e for e in a.evidence if e not in evidence]
        answered = [r.answer.answered for r in results]
        first = next((r.answer for r in results if r.answer.answered), results[0].answer)
        method = "plan" if any(answered) else ("declined" if any(r.answer.method == "declined" for r in results)
                                               else "not_found")
        out = Answer(plan.question, "\n".join(lines), first.type, method, evidence, found=not missing,
                     partial=missing if any(answered) else [])
        out.asks = [r.record() for r in results]
        return out


def _reads_its_item(u: Understanding, ans: Answer) -> bool:
    """Whether an answer reads its ask's item: a fact of it, or a cell whose row or column names it."""
    if ans.method == "lookup":
        return True
    words = [w for i in u.items for w in (i, u.item_words.get(i) or i)]
    return ans.method in TABLE_METHODS and any(
        isinstance(e, CellEvidence) and any(w in f"{e.row}{e.column}" for w in words) for e in ans.evidence)


def _shared_lead(texts: list[str]) -> str:
    """The sentences (ending in 。) every text begins with, when there are two texts or more."""
    if len(texts) < 2:
        return ""
    lead = os.path.commonprefix(texts)
    return lead[:lead.rfind("。") + 1]


def _answers_every_ask(whole: Answer, plan: Plan, narrowed: str, with_names: bool = True) -> bool:
    """Whether the answer of the whole question answers each of its asks: a table's cells, one for each
    ask (a name asked is the row's label: "第一大股东是谁？持股比例多少？" — a label the question does not
    hold), never only change columns for an ask of a value, every row naming what narrows the first ask
    (for the most part, with the table's caption: 耳机系列 is not the 营业收入合计 row of 营业收入构成); or
    sentences stating a value for each ask."""
    asks = [a for a in plan.asks if a.kind != "compare"]
    if whole.method in TABLE_METHODS:
        cells = [e for e in whole.evidence if isinstance(e, CellEvidence)]
        if not with_names:   # (the asks of a value alone: the name asked is answered apart)
            asks = [a for a in asks if not _NAME_ASK.search(a.words)]
        names = [a for a in asks if _NAME_ASK.search(a.words)]
        if len(names) > 1:
            # two names asked ("第一大股东是谁？…实际控制人是谁？"): one table's name row answers one of them;
            # each is asked on its own, so none is left out of the answer
            return False
        said = content(norm(plan.norm))
        if names and not any(_NAME_ROW.search(e.row) and not _YEAR_ROW.match(e.row) and not _restates(e.row, said)
                             for e in cells):
            return False
        if all(CHANGE_COLUMN.search(e.column) for e in cells) and not all(_CHANGE_ASK.search(a.words) for a in asks):
            return False
        want = pairs(content(norm(narrowed)))
        if want and any(not held(want, pairs(content(norm(e.row + e.table.split(" > ")[-1])))) for e in cells):
            return False
        return len({(e.table, e.row, e.column) for e in cells}) >= max(1, len(asks) - len(names))
    if whole.method == "stated":
        # the stated answer's "label：value" pairs (rules/answer_templates.yaml stated_answer: {values})
        values = whole.answer.split("」：", 1)[-1].split("。原文", 1)[0]
        return values.count("：") >= len(asks)
    return False


def _named(modifier: str) -> str:
    """The words narrowing an ask, unless they name no particular part of the company — a kind of one (…产生的子公司 of
    "同一控制下企业合并产生的子公司期初至合并日的当期净损益", a row's name): such words narrow no ask after it."""
    return "" if _KIND_OF_PART.search(modifier) else modifier


def _restates(row: str, said: str) -> bool:
    """Whether a row's label restates the question's words — the label of a value asked ("境内会计师事务所报酬" of
    "会计师事务所是哪家？审计报酬多少？"), never a name answering it: the whole label, or four of its characters in a row,
    stand in the question."""
    label = content(norm(row))
    return label in said or any(label[i:i + 4] in said for i in range(len(label) - 3))


def _entity(u: Understanding | None, ans: Answer) -> str:
    """The name an ask answered (控股股东 → 黄杰), when it asked for one."""
    if u is None or not ans.answered or not _NAME_ASK.search(u.norm):
        return ""
    for e in ans.evidence:
        value = e.value if isinstance(e, (FactEvidence, CellEvidence)) else ""
        if value and not _VALUE.fullmatch(value.strip()):
            return value.strip()
    return ""


def _number(text: str) -> tuple[Decimal, str] | None:
    m = _VALUE.search(text or "")
    if m is None:
        return None
    try:
        return Decimal(m.group(1).replace(",", "")) * _SCALE[m.group(2)], m.group(2) or ""
    except ArithmeticError:
        return None


def _rates_of(r: AskResult, by_item: bool = False) -> list[tuple[str, Decimal, str, Evidence]]:
    """(name, growth rate, rate as printed, evidence): the rates a change ask computed, one per item,
    from the two values it read of each (this year's and the base's); by_item: named by the item (the base's label
    may say the question's word for it: 利润（净利润）)."""
    facts = [e for e in r.answer.evidence if isinstance(e, FactEvidence) and e.year is not None]
    out: list[tuple[str, Decimal, str, Evidence]] = []

    def name_of(e: FactEvidence) -> str:
        return e.item if by_item else e.label or e.item

    for name in dict.fromkeys(map(name_of, facts)):
        pair = sorted((e for e in facts if name_of(e) == name), key=lambda e: (e.year, e.period != "previous"))
        base, now = (_number(e.stored or e.value) for e in pair) if len(pair) == 2 else (None, None)
        if base is None or now is None or base[0] == 0:
            continue
        rate = (now[0] - base[0]) / abs(base[0]) * 100
        out.append((name, rate, f"{round_half_up(rate, 2)}%", pair[1]))
    return out


def _values_of(r: AskResult) -> list[tuple[str, Decimal, str, Evidence]]:
    """(name, value in 元 or as printed, value as printed, evidence): what an ask read, one per name; a
    change ask's growth rates."""
    if r.answer.answered and r.answer.method in ("change", "items") and \
            any(isinstance(e, FactEvidence) and e.period == "previous" for e in r.answer.evidence):
        return _rates_of(r)
    if r.answer.method == "formula" and r.answer.answered and r.answer.shown and r.answer.evidence:
        # a formula's one value ("资产负债率谁更高"): its result, named by the formula asked
        num = _number(r.answer.shown)
        u = r.understanding
        name = u.formulas[0] if u is not None and u.formulas else ""
        return [(name, num[0], r.answer.shown, r.answer.evidence[0])] if num is not None and name else []
    if r.answer.method not in ("lookup", *TABLE_METHODS, "items", "stated") or not r.answer.answered:
        return []
    out: dict[str, tuple[str, Decimal, str, Evidence]] = {}
    for e in r.answer.evidence:
        if isinstance(e, FactEvidence) and e.period == "current":
            name, shown = e.label or e.item, e.value
        elif isinstance(e, CellEvidence):
            name, shown = e.row, e.value
        else:
            continue
        num = _number(e.stored if isinstance(e, FactEvidence) and e.stored else shown)
        if num is None:
            continue
        if name in out and out[name][1] != num[0]:
            return []   # two values of one name (two years, two columns): which one is meant is unsaid
        out[name] = (name, num[0], shown, e)
    return list(out.values())


def _candidates(results: list[AskResult]) -> list[tuple[str, Decimal, str, Evidence]]:
    """The values a comparison is over: those of the last ask that read several, else one of each ask
    before it — none when one of those asks read no single value (a comparison over part of what was
    asked would name a winner it cannot know)."""
    asks = [r for r in results if r.ask.kind != "compare"]
    if asks:
        last = _values_of(asks[-1])
        if len(last) >= 2:
            return last
    each = [_values_of(r) for r in asks]
    if not all(len(v) == 1 for v in each):
        return []
    out = [v[0] for v in each]
    if len({v[0] for v in out}) < len(out):
        # one name read of several companies ("谁的营业收入更高"): each named with its company, where that
        # tells them apart
        named = [(_company(r.understanding) + v[0], *v[1:]) for r, v in zip(asks, out)]
        if len({v[0] for v in named}) == len(named):
            return named
    return out


def _company(u: Understanding | None) -> str:
    """The short name of the (first) company an ask's understanding names, or ""."""
    if u is None or not u.companies:
        return ""
    c = u.companies[0].company
    return c.short_name or c.full_name or ""
