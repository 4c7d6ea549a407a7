"""Follow-up questions: a question that leaves out the company, the year or the item takes them from the
conversation's last answer ("那2020年呢？", "净利润呢？", "它的资产负债率是多少？", "那惠威科技呢？").

A conversation's context is what the last answer was asked, resolved: the question as it was answered
(itself filled from the context before it), the companies it named, its years, items and the period within the
year it named (上半年, 第三季度单季: carried as its year is, changed by a follow-up naming another — "那第四季度呢",
"其中第四季度单季是多少" — and left behind by one asking the year's whole, 全年). A question that was asked back for
its company or year ("2024年上半年的营业收入是多少？" → which company?) gets the next turn's company or year put
into it ("华润三九" → "华润三九2024年上半年的营业收入是多少？"). A follow-up is
made into a whole question and answered as any other, so the same rules answer it and the answer says
what it took from the context (`Answer.from_context`, and a line before the answer). Nothing is guessed:
a follow-up that names no company while the context named two or more is answered with a question back
(which one?); a follow-up whose words may name a company the store does not hold ("2021年天马科技的…")
is answered as it stands, never with the context's company.

Two ways to make the whole question:
- the follow-up asks something of its own (an item, a formula, a text topic: "它的资产负债率是多少？"):
  the context's company and year go before it, its pronouns (它的, 该公司 …) and 那/呢 dropped;
- the follow-up only changes the company, the year or the item ("那2020年呢？", "那惠威科技呢？",
  "净利润呢？"): the context's question with that one thing replaced, so "营业收入增长率" becomes
  "净利润增长率", not "净利润".
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from ..catalog.normalize import normalize_question, phrase_key
from ..understand.question import Understanding

MAX_QUESTION = 1000        # characters of a context's question (as of a question asked)
YEARS = (1990, 2100)      # the years a context may name
MAX_PERIOD = 20            # characters of a context's period words
# the words for the year after the context's (the year before it: the frame rules' previous period cue)
_NEXT_YEAR = re.compile(r"下一年度?|次年|后一年|明年|第二年")
# words that point back at the context's company (cut before the question is read: they name no company)
POINTER = re.compile(r"它们?的?|(?:该|这家|这个|那家|那个|此)(?:公司|企业)的?")
_PRONOUN = re.compile(r"^(?:(?:好的|谢谢|另外)[，,、]?)?(?:那么?|那个|还有|再看看?|换成|换作|再问一下|请问|再)?(?:其中|其)?")
# the same period within its year as the conversation's (那2024年同期呢, 换成25年的同一季度): its period kept
_SAME_PERIOD = re.compile(r"(?<![比较跟与和同])同期|同一(?:个)?(?:季度|时期|期间|报告期|时间段)")
_TRAILER = re.compile(r"(?:又|分别)?(?:呢|如何|怎么样|怎样)?[？?。！!]*$")
# words asking for a description (the rules' ask and shape cues cover values, names, lists and yes/no)
_DESCRIBE = r"吗|如何|怎样|怎么|介绍|说明|简述|描述|分析"
# a definition asked ("什么是商誉", "流动比率是什么意思"): a question of no one company (answer/open.py)
# what is left of a question asking why or how, once its item is out: no name of a company ("上升原因")
_ASKING_ONLY = re.compile(r"(?:收入|成本)?(?:上升|下降|增长|减少|变化|变动)?(?:的)?(?:原因|驱动因素|影响因素|情况)?")
_DEFINITION = re.compile(r"什么是|是什么意思|什么意思|的含义|含义是|的定义|定义是|如何计算|怎么计算|怎样计算|计算公式")


@dataclass
class Context:
    """What the conversation's last answer was asked: the question as answered and what it named."""
    question: str
    companies: list[str] = field(default_factory=list)   # short names, in the question's order
    years: list[int] = field(default_factory=list)
    items: list[str] = field(default_factory=list)       # items and formulas named
    period: str = ""   # the period within the year it named, in the words that name it (上半年, 第三季度单季)
    span: str = ""     # the years it named by a span, no year written (近三年): carried as written

    def to_dict(self) -> dict[str, Any]:
        out = {"question": self.question, "companies": list(self.companies), "years": list(self.years),
               "items": list(self.items)}
        if self.period:
            out["period"] = self.period
        if self.span:
            out["span"] = self.span
        return out

    @classmethod
    def from_dict(cls, d: Any) -> "Context":
        """From to_dict's shape, or from an answer record (`ask --json`, a batch line): its `context`, else
        its question and frame. Anything else is a ValueError saying what is wrong."""
        if not isinstance(d, dict):
            raise ValueError("a context is a JSON object")
        if isinstance(d.get("context"), dict):
            d = d["context"]
        q = d.get("question")
        if not isinstance(q, str) or not q.strip():
            raise ValueError("a context needs the question it was asked ('question')")
        if len(q) > MAX_QUESTION:
            raise ValueError(f"its question is {len(q)} characters long: at most {MAX_QUESTION}")
        period = d.get("period", "")
        if not isinstance(period, str) or len(period) > MAX_PERIOD:
            raise ValueError(f"its 'period' is not the words of a period (at most {MAX_PERIOD} characters)")
        span = d.get("span", "")
        if not isinstance(span, str) or len(span) > MAX_PERIOD:
            raise ValueError(f"its 'span' is not the words of a span of years (at most {MAX_PERIOD} characters)")
        if "companies" in d or "frame" not in d:
            return cls(q, _texts(d.get("companies"), "companies"), _years(d.get("years")),
                       _texts(d.get("items"), "items"), period, span)
        frame = d.get("frame")
        if not isinstance(frame, dict):
            raise ValueError("its 'frame' is not an object")
        company = frame.get("company")
        if company is not None and not (isinstance(company, dict) and isinstance(company.get("short_name"), str)):
            raise ValueError("its frame's 'company' is not {\"short_name\": …}")
        return cls(q, [company["short_name"]] if company else [], _years(frame.get("years")),
                   _texts(frame.get("items"), "items") + _texts(frame.get("formulas"), "formulas"))


def _texts(value: Any, name: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ValueError(f"its '{name}' is not a list of names")
    return list(value)


def _years(value: Any) -> list[int]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(type(v) is int and YEARS[0] <= v <= YEARS[1] for v in value):
        raise ValueError(f"its 'years' is not a list of years ({YEARS[0]}-{YEARS[1]})")
    return list(value)


@dataclass(frozen=True)
class PeriodWords:
    """The period within a year a text names: the text without its words (normalised), the words that say
    the period as fin-qa reads them back (上半年, 第三季度单季), and where they stood."""
    rest: str
    words: str
    at: int
    count: int = 1   # the periods the text names (2023年上半年…和2024年上半年…: 2)


# the words joining names a follow-up lists (华润三九和金花股份), left alone once the names are cut out
_CONNECTORS = re.compile(r"^[和与及、,，]+|[和与及、,，]+$")
# a follow-up asking a year's whole (全年, 年度): the conversation's period within a year is not carried
_WHOLE_YEAR = re.compile(r"全年|(?<![上去前本])年度|年报|整年")


@dataclass
class Resolved:
    """A follow-up made whole: the question to answer, what came from the context (company, year, item,
    question), and the companies to choose between when it cannot be told which one is meant."""
    question: str
    took: dict[str, Any] = field(default_factory=dict)
    ask_which: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)   # what a question back was asked (kept for the answer)
    which_year: str = ""   # a year named by the last question's (去年) when it asked several: the word
    companies: list[str] = field(default_factory=list)   # the companies a question back about the year keeps


def context_of(question: str, u: Understanding) -> Context:
    """The context an answered question leaves (u: its understanding)."""
    names = list(dict.fromkeys(m.company.short_name or m.company.full_name for m in u.companies))
    span = u.years.recent_word if u.years.recent and not u.years.explicit else ""
    return Context(question, [n for n in names if n], list(u.years.years), list(u.items) + list(u.formulas),
                   span=span)


class FollowUp:
    """Follow-up questions made whole, with the understanding's rules: the previous period's cue
    (上一年, 去年 …), a change's base (比去年 …) and the words that ask (多少, 是什么, 是否 …), all of
    rules/understanding.yaml."""

    def __init__(self, understand: Callable[[str], Understanding], previous: re.Pattern, base: re.Pattern | None,
                 asks: list[re.Pattern], inputs_of: Callable[[str], list[str]],
                 in_report: Callable[[Context, list[str]], bool],
                 period_in: Callable[[str], PeriodWords | None] = lambda text: None, known: tuple[str, ...] = ()):
        """inputs_of: a formula's input items (净利润 after 营业收入增长率: 净利润增长率); in_report: whether
        the context's report prints all these words (a word the question does not explain may be the name of
        a company the store lacks, unless the report prints it: 董事长, not 天马科技); period_in: the period
        within a year a text names (answer/periods.py), if any."""
        self.understand = understand
        self.period_in = period_in
        self.known = known
        self.relative = [(previous, -1), (_NEXT_YEAR, 1)]
        self.base = base   # what a change is measured against (比去年, 同比 …)
        self.asks = re.compile("|".join([rx.pattern for rx in asks] + [_DESCRIBE]))
        self.inputs_of = inputs_of
        self.in_report = in_report

    def resolve(self, question: str, context: Context | None) -> Resolved:
        """The follow-up question made whole from the context (unchanged without one, or when it names
        everything itself, or asks something of no one company: a ranking, a definition)."""
        if context is None or not context.question:
            return Resolved(question)
        text = _bare(question)   # (its own words: no 那么/还有 before them, no 呢/如何 after)
        took: dict[str, Any] = {}
        # a period within the year of its own (那第四季度呢, 其中第四季度单季是多少): its words taken out and
        # put into the question made whole; else the context's period carried, unless the year's whole is asked
        said = self.period_in(text)
        period = ""
        if said is not None:
            text, period = _bare(said.rest), said.words
        elif context.period and not _WHOLE_YEAR.search(text):
            period = context.period
            text = _SAME_PERIOD.sub("", text)   # (the same period: the one carried)
        if context.years:
            # 去年, 上一年 …: the year before the context's — unless it is what a change is measured against
            # (比去年, 较上年同期: the base, read as such by the question's own frame); after a question of
            # several years, which one's is asked back (never one of them guessed, nor the word dropped)
            bases = [m.span() for m in self.base.finditer(text)] if self.base is not None else []
            for pattern, step in self.relative:
                m = next((m for m in pattern.finditer(text) if not any(a <= m.start() < b for a, b in bases)), None)
                if m and len(context.years) > 1:
                    # asked back; what the question names itself (惠威科技去年的净利润呢) kept for the answer
                    rest = text[:m.start()] + text[m.end():]
                    own = context_of(rest, self.understand(rest))
                    return Resolved(question, took, [], own.items or list(context.items), m.group(0),
                                    own.companies or list(context.companies))
                if m:
                    shifted = context.years[0] + step
                    text = text[:m.start()] + f"{shifted}年" + text[m.end():]
                    took["year"] = f"{m.group(0)} = {shifted}年"
                    break
        pointed = bool(POINTER.search(text))
        text = POINTER.sub("", text)
        if not text and said is not None:   # a period alone (那第四季度呢): the context's question of that period
            new = self._replaced(context, None, [], [], took, period)
            return Resolved(new, took) if new is not None else Resolved(question)
        if not text:
            return Resolved(question)   # ("它呢？": nothing asked, nothing to take)
        u = self.understand(text)
        if not pointed and (u.type == "statistics" or _DEFINITION.search(u.norm)):
            return Resolved(question)   # a ranking across companies, a definition: no one company's question
        companies = [n for m in u.companies for n in [m.company.short_name or m.company.full_name] if n]
        # (a word the rules know as an item's, printed alone or not — 主营业务收入 — names no company; any other word
        # left may: "天马科技主营业务收入…" is never asked of the context's company)
        bare = text
        for k in self.known:
            bare = bare.replace(k, "")
        left = _unexplained(u) if bare == text else (_unexplained(self.understand(bare)) if bare.strip() else [])
        left = [w for w in left if not _ASKING_ONLY.fullmatch(w)]
        if not companies and not u.company_unnamed and left and not self.in_report(context, left):
            return Resolved(question)   # words that may name a company the store lacks: never another one
        years = list(u.years.explicit)
        named = list(u.items) + list(u.formulas)
        asks_own = bool(named or u.topics)
        rest = _CONNECTORS.sub("", _strip(_cut_spans(u.norm, u)))   # (华润三九和金花股份: no 和 left alone)
        asking = bool(self.asks.search(rest))
        # nothing asked but another company, year or item: "那2020年呢", "那惠威科技呢", "净利润呢"
        only_changes = not asking and (not rest or _changes_item(rest, u))
        if companies and years and asks_own and not only_changes:
            return Resolved(question)   # a whole question of its own
        if only_changes:
            new = self._replaced(context, u, companies, years, took,
                                 period if said is not None else "")
            if new is not None:
                return Resolved(new, took)
        if not companies and len(context.companies) > 1:   # "它的…" after two companies: which one?
            return Resolved(question, took, list(context.companies), named or list(context.items))
        company = "和".join(companies) if companies else (context.companies[0] if context.companies else "")
        if not companies and company:
            took["company"] = company
        year = "、".join(f"{y}年" for y in (years or context.years))
        if not years and context.years:
            took.setdefault("year", year)
        elif not years and context.span and not u.years.recent:
            year = context.span   # (近三年 as the conversation said it: the span, not the years it came to then)
            took.setdefault("year", year)
        if period and said is None and u.topics and not named:
            period = ""   # (a text asked — 它的主营业务是什么 — is the year's report's: no period carried into it)
        if period and said is None:
            took["period"] = period
        year += period
        if not asks_own and context.items and not left:
            # it names no item and no word of its own: the context's item ("同比增长了多少？", "2018年怎么样")
            rest = "、".join(context.items) + rest
            took["item"] = "、".join(context.items)
        if not asking:
            rest += "是多少"
        return Resolved(f"{company}{year}的{rest}？", took)

    def _replaced(self, context: Context, u: Understanding | None, companies: list[str], years: list[int],
                  took: dict[str, Any], period: str = "") -> str | None:
        """The context's question with its company, year, period or item replaced by the follow-up's (None when
        the context's question does not print the one to replace). A company or year the context's question
        did not name (it was asked back: 请问你查询哪一家公司…) is put into it: the company where its pointer
        stood (这家公司) or before its year and period, the year before its period."""
        q = context.question
        if companies:
            old = next((c for c in context.companies if c in q), None)
            if context.companies and (old is None or len(context.companies) != 1):
                return None
            named = "和".join(companies)   # (every company the follow-up names: none dropped)
            q = q.replace(old, named) if old is not None else self._put_company(q, named)
        elif context.companies:
            took["company"] = "、".join(context.companies)
        if years:
            said = "、".join(f"{y}年" for y in years)
            if context.years and (len(context.years) != 1 or f"{context.years[0]}年" not in q):
                return None
            q = q.replace(f"{context.years[0]}年", said) if context.years else self._put_year(q, said)
        elif "year" not in took and context.years:
            took["year"] = "、".join(f"{y}年" for y in context.years)
        if period:
            put = self._put_period(q, period)
            if put is None:
                return None
            q = put
        new_items = list(u.items) + list(u.formulas) if u is not None else []
        if u is not None and new_items:
            olds = [i for i in context.items if i in q]
            # the item itself, not a formula made of it (营业收入, not 营业收入增长率: 净利润 → 净利润增长率)
            olds = [i for i in olds if not any(o != i and o in i for o in olds)]
            if len(olds) != 1 or len(new_items) != 1:
                return None
            old, new = olds[0], new_items[0]
            if new in u.items:   # an item after a formula named after its input: that input replaced
                base = next((i for i in self.inputs_of(old) if old.startswith(i) and old != i), None)
                if base is not None:
                    new += old[len(base):]
            q = q.replace(old, new)
        elif context.items:
            took["item"] = "、".join(context.items)
        return q

    def _put_company(self, q: str, company: str) -> str:
        """A question asked back for its company, with the company put in: where its pointer stood (这家公司),
        else before its first year or its period, else before it."""
        q = normalize_question(q)
        m = POINTER.search(q)
        if m:
            return q[:m.start()] + company + q[m.end():].lstrip("的")
        at = [y.start() for y in _YEAR_WRITTEN.finditer(q)][:1]
        p = self.period_in(q)
        if p is not None:
            at.append(p.at)
        at_ = min(at) if at else _lead(q)
        return q[:at_] + company + q[at_:]

    def _put_year(self, q: str, years: str) -> str:
        """A question asked back for its year, with the year put in before its period, else after its first
        year-less position (right after a company named first), else before it."""
        q = normalize_question(q)
        p = self.period_in(q)
        if p is not None:
            return q[:p.at] + years + q[p.at:]
        at = self._after_company(q)
        return q[:at] + years + q[at:]

    def _after_company(self, q: str) -> int:
        """Where a year or a period goes into a question naming neither: after the company it names first, else
        after its opening words (请问, 帮我查一下)."""
        u = self.understand(q)
        return u.companies[0].end if u.companies else _lead(q)

    def _put_period(self, q: str, period: str) -> str | None:
        """The question with its period within the year replaced by another (第二季度单季 → 第四季度), or put in
        after its year when it names none (a 全年 dropped); None when it names several (which one to replace?)."""
        q = normalize_question(q)
        p = self.period_in(q)
        if p is not None and p.count > 1:
            return None
        if p is not None:
            return p.rest[:p.at] + period + p.rest[p.at:]
        last = None
        for last in _YEAR_WRITTEN.finditer(q):
            pass
        if last is None:
            at = self._after_company(q)
            return q[:at] + period + q[at:]
        after = _WHOLE_YEAR.match(q, last.end())
        return q[:last.end()] + period + q[after.end() if after else last.end():]


# a year written out (2024年, 24年 is read by the understanding only)
_YEAR_WRITTEN = re.compile(r"(?:19|20)\d{2}年")
# the words a question may open with before what it names (请问, 帮我查一下)
_ASKING_LEAD = re.compile(r"(?:请问|帮我|帮忙|麻烦|我想|想)?(?:查询|查一下|查查|查|看一下|看看|问一下|了解一下)?(?:一下)?")


def _lead(q: str) -> int:
    """Where a question's own words start, after 请问, 帮我查一下 …"""
    m = _ASKING_LEAD.match(q)
    return m.end() if m else 0


def _unexplained(u: Understanding) -> list[str]:
    """The words of the question that nothing read (no slot, filler, neutral word or text topic)."""
    rest = u.rest
    for _, word in u.topics:
        rest = rest.replace(word, "#" * len(word))
    return u.residue(phrase_key(rest)) if u.residue is not None and rest else []


def _cut_spans(text: str, u: Understanding) -> str:
    """The question without the spans naming its companies and years."""
    spans = [(m.start, m.start + len(m.text)) for m in u.companies] + list(u.years.spans)
    for a, b in sorted(spans, reverse=True):
        text = text[:a] + text[b:]
    return text


def _bare(text: str) -> str:
    """A follow-up without 那么/还有 … before its words and 呢/如何/？ after them."""
    return _TRAILER.sub("", _PRONOUN.sub("", text.strip(), count=1)).strip()


def _strip(text: str) -> str:
    """A follow-up's own words: no 那/还有, pronoun, 呢 or question mark around them."""
    return _bare(text).strip("的，, ")


def _changes_item(rest: str, u: Understanding) -> bool:
    """Whether the follow-up's words are an item or formula alone ("净利润", "那净利润呢")."""
    return bool(rest) and len(u.items) + len(u.formulas) == 1 and len(rest) <= 12
