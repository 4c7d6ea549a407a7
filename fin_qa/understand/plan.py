"""A question → its plan: the shared context (company and years as written) and the asks, in order.

An analyst asks two or three things at once: "营业收入和净利润分别是多少？同比增长了多少？", "控股股东是谁？
其持股比例是多少？", "销售费用和管理费用分别是多少？哪一项更高？". The rules of rules/plan.yaml cut the
question into clauses (？；。！, and a comma where both sides ask something); a clause asking nothing is a
modifier: of every ask when it names the unit of every amount after the last ask (均以万元为单位), else of
the ask before it (保留两位小数, 按(流动资产-存货)/流动负债计算; leading the question: of the ask after it).
Each ask is then written as a question of its own:

- the context (the company and the years, with a period word right after them: 2019年末) is put in front
  of an ask that does not name its own;
- an ask without a subject of its own ("占营业收入的比重是多少", "同比增长了多少", "持股比例是多少": it
  starts with a predicate, or names no item, formula or topic) takes the subject of the ask before it;
- a back-reference (其, 该产品, 上述) is replaced by that subject — by the name the ask before answered
  when it asked for a name (the executor knows it: `Ask.inherits` / `Ask.reference` say what to fill);
- a comparison over the asks before ("哪一项更高") is an ask of kind `compare`, answered from their values.

A question of one ask is planned as itself: its answer is exactly the single question's.

The Planner also splits a question per company (`each_company`: "惠威科技和四方科技2019年的营业收入分别是多少"
→ an ask each, then their comparison when asked) and per period (`each_period`: "年初和年末各是多少" of a
value read at a date → an ask each): the router asks it, and routes each ask (answer/routes.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .. import prefilter
from ..catalog.normalize import normalize_question, phrase_key
from ..catalog.plan_rules import PlanRules
from .entities import find_years
from .frame import read_years_more

if TYPE_CHECKING:
    from .question import Understander, Understanding

# a period word right after the context's year ("2019年末", "2019年度", "2019年初")
_PERIOD_AFTER = re.compile(r"(?:度|年末|年初|年底|末|初|底)")
# a period within the year right after the context's year ("2023年上半年", "23H1", "2024年一季度"): put in front
# of the asks naming none, as the year is ("…经营现金流净额多少，上年同期是多少": the half year's, never the year's)
_INTERIM_AFTER = re.compile(r"的?(?:第?[一二三四1-4]季度|[一二三四]季报|前三季度?|[上下]半年|半年度|中期|H[12]|Q[1-4])")
# the year's own period words ("年末总资产是多少" after a quarter's ask: the year end, not the quarter's)
_THE_YEARS = re.compile(r"年末|年底|年初|全年|整年|(?<!半)年度(?!报)")
# a period word of an ask's own: the context's period word ("2019年末") is then not put in front
_OWN_PERIOD = re.compile(r"年初|期初|年末|期末|年底|上年|去年|上期|本期|本年|当年")
# the year a period word belongs to: the last year written before it ("2022年初", "2022年…的年初")
_YEAR_BEFORE = re.compile(r"((?:19|20)\d\d)\s*年(?!.*(?:19|20)\d\d\s*年)")
_STEP_IT = re.compile(r"^它的?")   # (a step's 它: the subject of the step before)
_YEAR_AFTER = re.compile(r"((?:19|20)\d\d)\s*年")   # the first year named after a point of the question


@dataclass
class Ask:
    words: str                    # the ask's own words, as the question wrote them (its clause or clauses)
    kind: str = "value"           # value (any single question) | compare (over the asks before)
    order: str = ""               # compare: higher | lower
    order_word: str = ""          # compare: the question's word for it (高, 多, 快 …)
    text: str = ""                # the question it is answered as (context + subject + words; the
                                  # executor fills an inherited subject or a back-reference first)
    inherits: bool = False        # no subject of its own: it takes the subject of the ask before
    reference: str = ""           # the back-reference word it holds (其, 该产品 …)
    narrowed: str = ""            # the words of the ask before that narrow it too (a subsidiary, a segment)
    together: bool = False        # its back-reference (二者, 上述两项) stands for every ask before it
    subject: str = ""             # what it asks about, for the asks after it (its words less the ask)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"words": self.words, "kind": self.kind}
        if self.text and self.text != self.words:
            out["question"] = self.text
        if self.inherits:
            out["inherits"] = True
        if self.reference:
            out["reference"] = self.reference
        if self.together:
            out["together"] = True
        if self.order:
            out["order"] = self.order
        if self.narrowed:
            out["narrowed"] = self.narrowed
        return out


@dataclass
class Plan:
    question: str
    norm: str
    context: str = ""             # the company and years as written ("四方科技2019年")
    company: str = ""
    years: str = ""
    years_bare: str = ""          # the years without the period word after them
    within: str = ""              # the period within the year after them (上半年, 第四季度, H1), in both
    asks: list[Ask] = field(default_factory=list)
    every: list[str] = field(default_factory=list)   # clauses that apply to every ask (均以万元为单位)
    marks: list[str] = field(default_factory=list)   # the step marks and verbs read as the question's steps (第二步，算出)

    @property
    def compound(self) -> bool:
        return len(self.asks) > 1


# the words saying the span of the year an ask is of (全年净利润), which narrow no part of the company
_SPAN_WORDS = re.compile(r"全年|整年|本年度?|当年|年度内?|年内|本报告期|报告期内?|本期|期内")
_OVER_PERIODS = ("sum", "difference", "average")   # operations making two periods' values one
_LISTED_YEAR = re.compile(r"(?:19|20)\d\d\s*年")   # the year a listed period names
# what follows a company's own year in a list of companies each with its year ("2015年末", "2016年报")
_OWN_YEAR_TAIL = re.compile(r"(?:年末|年底|年初|末|底|初|度|年度报告|年报|报告|报)?")


class Planner:
    """Cuts questions into asks with rules/plan.yaml; the Understander finds the context (company, years)
    and tells whether an ask names something of its own."""

    def __init__(self, rules: PlanRules | None, understander: "Understander"):
        self.rules = rules
        self.understander = understander
        # an ask's narrowing words are asked for before it is answered and after (one understanding each)
        self._modifier = lru_cache(maxsize=1024)(self._read_modifier)

    # ------------------------------------------------------------------------------------ brackets

    def restate(self, question: str) -> tuple[str, str | None]:
        """The question with each bracket that restates its period as a date taken out, when the date is
        the period's own day ("2022年初（即2021年末）"); (question, the disagreeing bracket) when it is not.
        A question without such a bracket comes back as written."""
        norm = normalize_question(question or "")
        if self.rules is None or "(" not in norm:
            return question, None   # as written: an answer echoing its words keeps their spaces
        out, last = "", 0
        for m in self.rules.restated.finditer(norm):
            before = _YEAR_BEFORE.search(norm[:m.end("period")])
            # no year before it: the year the question names after it ("货币资金，年初（即2023年末）和2024年末")
            after = _YEAR_AFTER.search(norm, m.end()) if before is None else None
            year = int(before.group(1)) if before else int(after.group(1)) if after else None
            if year is None:
                if m.group("period")[0] in "上去":
                    continue   # (上年末 of no year named: the bracket's date is the only year — read as written)
                return norm, m.group(0)
            # the year whose 12月31日 the period names: the year before for 年初 and 上年末
            meant = year - 1 if m.group("period") in ("年初", "期初", "初") or m.group("period")[0] in "上去" else year
            said = int(m.group("y")) - (1 if m.group("start") else 0)
            if meant != said:
                return norm, m.group(0)
            out += norm[last:m.start("period") + len(m.group("period"))] + (m.group("tail") or "")
            last = m.end()
        return (out + norm[last:], None) if last else (question, None)

    # ------------------------------------------------------------------------------------ clauses

    def clauses(self, norm: str) -> list[str]:
        """The question's clauses: cut after clause ends, and at a comma whose two sides each ask."""
        r = self.rules
        assert r is not None
        # a question written in steps (①…②…, 第一步…, 先…再…: two marks at least): a clause each
        if self._in_steps(norm):
            norm = r.step_mark.sub(lambda m: m.group(0) if m.start() == 0 else "；" + m.group(0), norm)
        out: list[str] = []
        start = 0
        for m in r.clause_end.finditer(norm):
            out.append(norm[start:m.end()])
            start = m.end()
        if norm[start:].strip():
            out.append(norm[start:])
        cut: list[str] = []
        for clause in out:
            merged: list[str] = []
            for p in _split_keep(clause, r.comma):
                # a piece naming the unit of every amount ("…，均以万元为单位") stays a clause of its own
                if merged and not (self._asks(merged[-1]) and self._asks(p)) \
                        and not r.every_ask.search(p.lstrip("，, ")):
                    merged[-1] += p
                else:
                    merged.append(p)
            cut += merged
        return [c for c in cut if c.strip(" ，,。？?；;！!")]

    def _in_steps(self, text: str) -> bool:
        """Whether a question is written in steps: two step marks at least (先…再…; a lone 先 — 先谢过 — is none)."""
        assert self.rules is not None
        return len(self.rules.step_mark.findall(text)) >= 2

    def _asks(self, text: str) -> bool:
        r = self.rules
        assert r is not None
        return bool(r.ask.search(text.strip().rstrip("，,。；;！!")))

    # ------------------------------------------------------------------------------------ the plan

    def plan(self, question: str) -> Plan:
        norm = normalize_question(question or "")
        if self.rules is not None and self.rules.with_change_asks:
            # "营业收入及其年同比": the value, then its change, two asks
            norm = prefilter.sub(self.rules.with_change, self.rules.with_change_asks, norm)
        plan = Plan(question, norm)
        if self.rules is None or not norm:
            plan.asks = [Ask(norm, text=norm)]
            return plan
        r = self.rules
        inner = norm.rstrip("?？。.!！；; ")
        if (not r.clause_end.search(inner) and not self._in_steps(inner) and (not r.comma.search(inner) or len(r.ask.findall(inner)) < 2)) \
                or r.whole.search(norm):
            # one clause (or commas with one ask word): one ask, the usual question planned at the cost of
            # a few regexes; an explanation, a reason, a description: the text and open answerers take it whole
            plan.asks = [Ask(norm, text=norm)]
            return plan
        asks: list[Ask] = []
        lead: list[str] = []
        steps = self._in_steps(norm)
        clauses = self.clauses(norm)
        for n, clause in enumerate(clauses):
            body = clause.strip().strip("；;").strip()
            step = r.step_mark.match(body) if steps else None
            if step:   # (a step is an ask: its mark and the verb after it are no words of it — 第二步，算出…; 它 the
                # subject of the step before: "再算它的同比增长率")
                rest = body[step.end():]
                body = _STEP_IT.sub("", r.step_verbs.sub("", rest, count=1)).rstrip("，,；; ")
                plan.marks.append(step.group(0) + rest[:len(rest) - len(rest.lstrip("，,：:、 "))]
                                  + rest.lstrip("，,：:、 ")[:max(0, len(rest.strip("，,；; ")) - len(body))])
            if not body:
                continue
            if not self._asks(body) and not self._bare_ask(body, plan) and not step:
                last = not any(self._asks(c) for c in clauses[n + 1:])
                if last and r.every_ask.search(body.lstrip("，,")):
                    # 均以万元为单位 after the last ask: of every ask (in the middle: of the ask before it)
                    plan.every.append(body)
                elif asks:
                    asks[-1].words += body
                else:
                    lead.append(body)
                continue
            ask = Ask("".join(lead) + body)
            lead = []
            m = r.compare.search(body)
            if asks and m and not self._names_own(body):
                ask.kind = "compare"
                ask.order = "higher" if m.group("order") in r.higher else "lower"
                ask.order_word = m.group("order")
            asks.append(ask)
        if lead:
            if asks:
                asks[-1].words += "".join(lead)
            else:
                asks.append(Ask("".join(lead)))
        if not asks:
            asks = [Ask(norm)]
        plan.asks = asks
        if len(asks) == 1 and not plan.every:
            asks[0].text = norm
            return plan
        self._context(plan)
        if not plan.company:
            # no company the store knows (or a ranking across companies): the single path says so once
            plan.asks, plan.marks = [Ask(norm, text=norm)], []
            return plan
        every = "".join(plan.every)
        for i, ask in enumerate(asks):
            if ask.kind == "compare":
                continue
            words = ask.words
            ref = r.together.search(words) or r.reference.search(words)
            if i > 0 and ref:
                ask.reference = ref.group(0)
                ask.together = r.together.fullmatch(ref.group(0)) is not None
            elif i > 0 and (self.starts_with_predicate(self.strip_context(words, plan)) or not self._names_own(words)):
                ask.inherits = True
            ask.text = self.with_context(words, plan) + (every if every and every not in words else "")
            ask.subject = self.subject(self.strip_context(words, plan))
        return plan

    def _context(self, plan: Plan) -> None:
        """The company and the years the question names first, as written, with a period word after them."""
        u = self.understander
        companies = u.companies.find(plan.norm)
        if companies:
            plan.company = companies[0].text
        cfg = u.config.frame
        years = find_years(plan.norm, read_years_more(plan.norm, cfg) if cfg else ())
        if years.spans:
            first_clause_end = len(plan.asks[0].words)
            spans = [(a, b) for a, b in years.spans if a < first_clause_end] or years.spans
            s, e = min(a for a, _ in spans), max(b for _, b in spans)
            text = plan.norm[s:e]
            if not text.endswith(("年", "度")):
                text += "年"
            within = _INTERIM_AFTER.match(plan.norm, e) if text.endswith("年") else None
            if within:   # (the period within the year is the asks' as the year is, their own 上年/期末 or not)
                text += within.group(0)
                e = within.end()
                plan.within = within.group(0)
            plan.years_bare = text
            m = _PERIOD_AFTER.match(plan.norm, e)
            if m and text.endswith("年"):
                text += m.group(0)
            plan.years = text
        plan.context = plan.company + plan.years

    def strip_context(self, words: str, plan: Plan) -> str:
        out = words
        for part in (plan.company, plan.years):
            if part:
                out = out.replace(part, "", 1)
        out = out.lstrip("的，, ")   # (a year of the ask's own stays: "2018年是多少" asks 2018)
        assert self.rules is not None
        return self.rules.connective.sub("", out).lstrip("的，, ")

    def with_context(self, words: str, plan: Plan) -> str:
        """The ask as a question of its own: the company and years in front where it names neither."""
        assert self.rules is not None
        words = self.rules.connective.sub("", words.lstrip("，, ")).lstrip("，, ")
        u = self.understander
        has_company = bool(u.companies.find(words)) if plan.company else True
        cfg = u.config.frame
        has_year = bool(find_years(words, read_years_more(words, cfg) if cfg else ()).spans) if plan.years else True
        if has_year and plan.years and self.rules.versus.search(words) and plan.years_bare not in words:
            has_year = False   # "跟2018年比变化多大": the year compared against, the question's own years asked
        years = plan.years_bare if _OWN_PERIOD.search(words) else plan.years   # "年初呢": its own period
        if plan.within and (_INTERIM_AFTER.search(words) or _THE_YEARS.search(words)):
            years = years.replace(plan.within, "", 1)   # ("上半年呢", "年末总资产是多少": its own period of the year)
        company, year = ("" if has_company else plan.company), ("" if has_year else years)
        # (a code and a year written short stay apart: "000999" + "25年", never 00099925年)
        head = company + (" " if company[-1:].isdigit() and year[:1].isdigit() else "") + year
        return head + words if head and not words.startswith(head) else words

    def opens_anew(self, words: str) -> bool:
        """Whether an ask opens with a connective ("同时，…", "另外，…", rules/plan.yaml `connective`): a new
        ask of the company, not narrowed by the row the ask before named."""
        assert self.rules is not None
        return bool(self.rules.connective.match(words.lstrip("，, ")))

    def starts_with_predicate(self, words: str) -> bool:
        """Whether an ask's words (its context taken out) start with a predicate: no subject of their own."""
        assert self.rules is not None
        return bool(self.rules.predicate_start.match(words))

    def list_variants(self, u: "Understanding") -> list[str]:
        """An ask naming a list of items ("营业收入和净利润同比增长了多少") as one question per item, the
        list replaced by each item's words; [] when its items do not stand in it as one list."""
        assert self.rules is not None
        words = [w for w in dict.fromkeys(u.item_words.values()) if w]
        if len(words) < 2:
            return []
        text = phrase_key(u.norm)   # as the item words were matched: without 的
        spots = sorted((text.find(w), w) for w in words)
        if any(i < 0 for i, _ in spots):
            return []
        start, end = spots[0][0], spots[-1][0] + len(spots[-1][1])
        for (i, w), (j, _) in zip(spots, spots[1:]):
            between = text[i + len(w):j].replace("的", "")
            if not self.rules.list_join.fullmatch(between):
                return []
        # each variant asks one item: 分别/各自 ("同比分别增长了多少") no longer applies
        return [self.rules.each.sub("", text[:start] + w + text[end:]) for _, w in spots]

    def share_of(self, words: str) -> str | None:
        """The whole an ask measures the ask before against ("占营业收入的比重是多少" → 营业收入), or None."""
        assert self.rules is not None
        m = self.rules.share_of.match(words)
        return m.group("whole") if m else None

    def modifier(self, words: str) -> str:
        """What narrows an ask's items to a part of the company (_read_modifier), read once per words."""
        return self._modifier(words)

    def own_modifier(self, words: str) -> str:
        """modifier's, unless it says only the span of the year the ask is of (全年, 报告期内: no part of the company —
        what narrowed the ask before narrows it: "子公司中邮消费金融…总资产？全年净利润？")."""
        got = self._modifier(words)
        return "" if _SPAN_WORDS.fullmatch(got) else got

    def _read_modifier(self, words: str) -> str:
        """What narrows an ask's items to a part of the company, as written: an organisation it names
        ("南通四方罐式储运设备制造有限公司总资产多少" → the subsidiary) or the words before its first item
        ("罐式集装箱业务的营业收入", "海外业务收入" → 罐式集装箱业务, 海外业务); "" when it asks about the
        company itself. The asks after it that name no such words of their own are about it too."""
        assert self.rules is not None
        u = self.understander.understand(words)
        frame = self.understander.config.frame
        items = [k for k in u.keywords if k.kind == "item"]
        key = phrase_key(u.norm)
        for slot, rx in frame.cues if frame is not None else ():
            m = rx.search(key) if slot == "entity" else None
            # an organisation named, unless an item's words (会计师事务所 of 会计师事务所名称) hold it
            if m and not any(k.text in m.group(0) or m.group(0) in k.text for k in items):
                return m.group(0)
        if items:
            first = min(items, key=lambda k: k.start)
            i = key.find(first.text)
            head = key[:i] if i > 0 else ""
        else:
            # no item word ("海外(国外)业务收入多少"): up to the last word that narrows one (业务, 海外 …)
            marks = [m for slot, rx in (frame.cues if frame is not None else ()) if slot == "modifier"
                     for m in rx.finditer(key)]
            head = key[:max(m.end() for m in marks)] if marks else ""
        for _, rx in frame.periods if frame is not None else ():
            head = rx.sub("", head)   # 上一年度, 年末: the period, not a part of the company
        head = re.sub(r"^(?:其|在|对|中|里|公司|本公司|该公司|合并报表|合并)+", "", head)
        if len(head) < 2 or self.rules.ask.search(head) or re.search(r"[0-9#]", head):
            return ""
        where = re.sub(r"(?:中|里|当中|之中)[,，]?$", "", head)
        if where != head and any(where in w or w in where for _, w in u.topics):
            return ""   # "利润分配中，…": where the question looks (a text topic), no part of the company
        # words said to the reader (根据, 年报, 请问 …: understanding.yaml filler) narrow nothing
        return head if self.understander.generalizer.residue(head) else ""

    def _bare_ask(self, body: str, plan: Plan) -> bool:
        """A clause with no ask word that asks by its question mark: it names an item of its own and says
        nothing of how another is computed ("另外，原油加工及石油制品营业收入及毛利率？")."""
        r = self.rules
        assert r is not None
        if not body.endswith(("?", "？")):
            return False
        words = r.connective.sub("", body.lstrip("，, ")).lstrip("，, ")
        return not r.modifier.search(words) and self._names_own(words)

    def _names_own(self, words: str) -> bool:
        """Whether an ask names an item, a formula or a text topic of its own."""
        u = self.understander.understand(words)
        return bool(u.items or u.formulas or u.topics)

    def subject(self, words: str) -> str:
        """What an ask asks about: its words less the asking tail (是多少, 分别是多少万元, 呢)."""
        r = self.rules
        assert r is not None
        out = words.strip().rstrip("？?。；;！!，, ")
        for _ in range(3):
            new = r.subject_tail.sub("", out).rstrip("的，, ")
            if new == out:
                break
            out = new
        return out

    def each_period(self, text: str) -> Plan | None:
        """A balance-sheet value asked for two periods listed ("2019年初和2019年末的货币资金各是多少", "…，年初
        和年末各是多少"): an ask for each, the list replaced by one period (rules/plan.yaml `period_list`) and
        the "each" words left out. None when the question lists no two periods, or asks their sum or
        difference (合计, 之和, 相差). (A flow item has no 年初: its year is one period.)"""
        r = self.rules
        if r is None:
            return None
        norm = normalize_question(text)
        m = r.period_list.search(norm)
        frame = self.understander.config.frame
        if m is None or (frame is not None and any(frame.operations[op].search(norm) for op in _OVER_PERIODS)):
            return None   # (the sum or the difference of the two periods' values is one value, not two)
        asks = []
        years = {g: _LISTED_YEAR.match(m.group(g)) for g in ("a", "b")}
        for g, other in (("a", "b"), ("b", "a")):
            # a period without its year takes the other's ("年初（即2023年末）和2024年末": 2024年初)
            year = years[other]
            said = year.group(0) + m.group(g) if year is not None and years[g] is None else m.group(g)
            sub = r.each.sub("", norm[:m.start()] + said + norm[m.end():])
            asks.append(Ask(sub, text=sub))
        return Plan(text, norm, asks=asks)

    def each_company(self, text: str) -> Plan | None:
        """A question of one ask naming several companies the store knows ("惠威科技和四方科技2019年的营业收入
        分别是多少", "民生银行2021年和兴业银行2022年的…", "…谁的营业收入更高"): an ask for each company — the
        question with the others' names left out (with the word joining them, 和/与/及/、, and their own
        years where each company has its own), and its "each" words — then, when it asks which one is
        higher or lower (rules/plan.yaml `which`), that comparison over them (PlanExecutor's compare). None
        for one company, companies not named as a list, or no plan rules. (Read from the question's names
        and years alone: no chat model is asked.)"""
        r = self.rules
        if r is None:
            return None
        norm, companies, years = self.understander.mentions(text)   # (no chat model asked)
        keys = list(dict.fromkeys(c.company.key for c in companies))
        if len(keys) < 2:
            return None
        year_at = {s: e for s, e in years.spans}   # a year's span by where it starts

        def own_end(c) -> int | None:
            """Where a company's own year, as written after it, ends ("万科A2012年末", "万科A的2012年报"),
            with its period or report word; None when no year follows it."""
            at = c.end + (norm[c.end:c.end + 1] == "的")
            if at not in year_at:
                return None
            tail = _OWN_YEAR_TAIL.match(norm, year_at[at])
            return tail.end() if tail else year_at[at]

        # only a list of companies ("A和B", "A、B", "A2021年与B2022年", "A2015年末和B2016年末"): a company named
        # inside what is asked ("四方科技的前五名客户中有没有惠威科技") is part of the ask, not another subject
        named = sorted(companies, key=lambda c: c.start)
        for a, b in zip(named, named[1:]):
            between = norm[own_end(a) or a.end:b.start]
            if not r.list_join.fullmatch(between):
                return None
        which = r.which.search(norm)
        asks: list[Ask] = []
        for key in keys:
            kept = next(c for c in companies if c.company.key == key)
            own_years = own_end(kept) is not None   # "民生银行2021年和兴业银行2022年": each its own year
            out = list(norm)
            for c in companies:
                if c is kept:
                    continue
                end = (own_end(c) or c.end) if own_years else c.end
                for i in range(c.start, end):
                    out[i] = ""
                if c.start > 0 and r.list_join.fullmatch(norm[c.start - 1]):
                    out[c.start - 1] = ""
                elif end < len(norm) and r.list_join.fullmatch(norm[end]):
                    out[end] = ""
            if which is not None:   # "谁的营业收入更高": the value asked of each, compared after
                for i in (*range(which.start("who"), which.end("who")), *range(which.start("more"), which.end())):
                    out[i] = ""
            sub = r.each.sub("", "".join(out))
            if which is not None:
                sub = sub.rstrip("?？。") + "是多少？"
            asks.append(Ask(sub, text=sub))
        if which is not None:
            order = which.group("order")
            asks.append(Ask(which.group(0), kind="compare", order="higher" if order in r.higher else "lower",
                            order_word=order))
        return Plan(text, norm, asks=asks)


def _split_keep(text: str, rx: re.Pattern) -> list[str]:
    """text cut after every match of rx, the match kept with the piece before it."""
    out, start = [], 0
    for m in rx.finditer(text):
        out.append(text[start:m.end()])
        start = m.end()
    if text[start:]:
        out.append(text[start:])
    return out
