"""Questions of a period within a year (issue 44): 第三季度, 前三季度, 单季, 上半年, 一季度, Q2, Q4, 最新一期.

A filing is (company, period, kind). The annual path (the Router over FactSource) reads annual reports only; a
question naming another period is answered here: its period words (rules/periods.yaml `questions`) are taken
out, and what is left is answered by the same answerers over a PeriodView — the filings of that period read as
if each were its year's report — then every year the answer names is said with its period
("2025年第三季度单季（7-9月）"). So a lookup, a formula (净利率, 流动比率), a change (同比: the same period a year
before — the printed 上年同期 column first), a comparison or ranking across companies and a series over years
("2023—2025年一季度") all work on a period as they do on a year.

What each view reads (ytd: the year to date; quarter: the quarter alone; end: a balance at the period's end):
- Q1, HY, Q3: that filing (its full report first, then its summary). Q3 quarter: the 主要会计数据's 本报告期
  column, else derived: 1–9月 − 1–6月. Q1 and HY (their whole period, their end): their own tables' cells too.
- Q2 alone: 1–6月 − 1–3月; Q4 alone: the year − 1–9月. A derived value says so, with both values and filings.
  Only amounts are derived: a per-share figure or a rate of a quarter no filing prints is not.
- Balances are the period end's; their 同比 is the same period end a year before.
- 第三季度 alone does not say which of 7–9月 and 1–9月: both are answered, each labelled.
- 环比: the quarter alone against the quarter before it alone.
A question naming no period and no year, about a company with filings of several periods, is asked back which
period (the problem's example B1001: "金花股份利润总额是多少" → "请问你查询哪一个报告期的利润总额？").
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Callable

import pandas as pd

from ..catalog import Catalog
from ..catalog.items import ItemTable
from ..catalog.periods import CHANGES, FILING_WORDS
from ..catalog.normalize import normalize_question
from ..numbers import decimal_str
from ..store import Report
from .facts import REPORT_FIELDS, Fact, FactSource
from .followup import PeriodWords
from .compose import render
from .model import Answer, CellEvidence, FactEvidence, Method

if TYPE_CHECKING:   # (the router makes the answerers of each view)
    from .router import Router

# the label of a view's period as an answer says it after its year
LABELS = {
    ("Q1", "ytd"): "第一季度（1-3月）", ("Q1", "end"): "第一季度末（3月31日）",
    ("HY", "ytd"): "上半年（1-6月）", ("HY", "end"): "半年末（6月30日）",
    ("Q3", "ytd"): "前三季度（1-9月）", ("Q3", "quarter"): "第三季度单季（7-9月）", ("Q3", "end"): "第三季度末（9月30日）",
    ("Q2", "quarter"): "第二季度单季（4-6月）", ("Q2", "end"): "第二季度末（6月30日）",
    ("Q4", "quarter"): "第四季度单季（10-12月）", ("Q4", "end"): "第四季度末（12月31日）",
    ("FY", "ytd"): "全年（1-12月）", ("FY", "end"): "年末（12月31日）",
    ("H2", "quarter"): "下半年（7-12月）", ("H2", "end"): "年末（12月31日）",
}
# the words that name a period and span as a question says them (what a conversation carries to its next turn;
# each read back by rules/periods.yaml as the same period and span)
WORDS = {
    ("Q1", "ytd"): "第一季度", ("Q1", "end"): "第一季度末",
    ("Q2", "quarter"): "第二季度", ("Q2", "end"): "第二季度末",
    ("Q3", "quarter"): "第三季度单季", ("Q3", "ytd"): "前三季度", ("Q3", "end"): "第三季度末", ("Q3", "both"): "第三季度",
    ("Q4", "quarter"): "第四季度", ("Q4", "end"): "第四季度末",
    ("HY", "ytd"): "上半年", ("HY", "end"): "半年末", ("H2", "quarter"): "下半年", ("latest", "both"): "最新一期",
}
# a period no filing prints: (the filing holding its end, (whole, part)) — the period is whole − part
DERIVED = {"Q2": ("HY", ("HY", "Q1")), "Q4": ("FY", ("FY", "Q3")), "H2": ("FY", ("FY", "HY"))}
# an amount at a date, though a flow statement prints it (期末现金及现金等价物余额): never derived by subtraction
_AT_A_DATE = re.compile(r"期末|年末|余额")
_OPENING = re.compile(r"期初|年初")
# the statements whose lines are a period's values (a question of one names its period, or is asked back)
_PERIOD_VALUES = ("资产负债表", "利润表", "现金流量表", "主要会计数据")
# the quarter alone before each (环比)
PREVIOUS_QUARTER = {"Q1": ("Q4", -1), "Q2": ("Q1", 0), "Q3": ("Q2", 0), "Q4": ("Q3", 0)}
_FILING_KEY = re.compile(r"[0-9A-Za-z]+:\d{4}[A-Z0-9]*(?::summary)?")   # a filing's key as a note cites it
_ASK_STOP = re.compile(r"[？?；;。]")
_KEY_FIGURES = re.compile(r"主要会计数据|主要财务数据|主要财务指标")
_YEAR_SAID = re.compile(r"((?:19|20)\d{2})年(?:末|底|度)?(?![\d季上下前半初])")   # (2024年初: the opening, kept)
_QOQ = re.compile(r"环比|(?:比|较|相比|对比)上一?个?季度|上一?个?季度相比")
# two periods compared ("四季度单季营收比三季度多了多少", "第三季度较第二季度增加"): the word between them
_VERSUS = re.compile(r"(?<![同环占])比(?![例重率值])|较|相对于|对比")
# an operation over several periods' values that is no comparison: a share, a sum, an average
_OVER_PERIODS = re.compile(r"占|比例|比重|之比|比值|合计|之和|总和|总共|共计|加起来|平均|均值")
# a year written with its own annual words (2021年全年, 2021年度, 2021年末), or followed by its own item
_OWN_YEAR = re.compile(r"((?:19|20)\d{2})年?")
_FOLLOW_FILLER = re.compile(r"^(?:那|那么|请问|查询|查|是)+|(?:的|呢|吧|吗|[?？。!！,，])+$")
_YEAR_AT_END = re.compile(r"((?:19|20)\d{2})年?$")
_EACH_QUARTER = re.compile(r"各(?:个)?季度|每一?(?:个)?季度|分季度|逐季|各季(?!报)|四个季度(?!.*(?:合计|之和|总和|累计|加起来|一共|共计|总共))")
# quarters listed by their numbers alone ("一二三季度", "一、二季度"): each its own period
_QUARTERS_LISTED = re.compile(r"(?<![第前])([一二三四](?:、?[一二三四]){1,3})(?:个)?季度")
_NOT_A_LIST = re.compile(r"比|较|增|减|变|差|高|低|多多少|少多少|合计|之和|总|平均|占")
_EACH_ALONE = re.compile(r"单季|当季|分别")
_FILLER_LEFT = re.compile(r"^[的之]+")
YEAR_END = "末（12月31日）"
_WITH_OPENING = re.compile(r"[和与及、](?:(?:19|20)\d\d年初|年初|期初|上年末|上年度末|上年年末)")
# the words asking a year's whole (its annual filing's), never a period within it
_YEAR_WHOLE = "全年|年度|年末|年底|年报|整年"
# a year as a question writes it: 2025, 25年 (its last two digits), 二〇二五年
_YEAR_DIGITS = re.compile(r"(?<!\d)(?:19|20)\d{2}年")
_YEAR_TAIL = re.compile(r"(?<!\d)((?:19|20)\d{2}|\d{2}(?=年))")
# a period's words naming the filing the question looks in ("2023年半年度报告中，第二季度单季…"): where, not what
_WITHIN_A_YEAR = re.compile(r"季|半年|中期|中报|[HQ][1-4]|月")   # (every period rule's words hold one of these)
QUARTER_NAMES = {"Q1": "第一季度", "Q2": "第二季度", "Q3": "第三季度", "Q4": "第四季度"}
# (the year's end beside a period within it — not one restating a word in brackets: "较上年末（2023年末）")
_YEAR_END = re.compile(r"(?<![（(])(?:19|20)\d\d年(?:末|底)(?![（(])")
_ONLY_ITS_PERIOD = re.compile(r"(?<=[？?，,。；;])\s*(?:那么?|那|还有|以及)?(?:的)?(?:呢|是多少|多少|分别是多少)?[？?。]?$")
_WHOLE_YEAR = re.compile(r"全年|(?<![半上去前])年度(?!报|末)|整年|1-12月|(?<![半上去前])(?<!上年)(?<!去年)(?<!前年)年(?:末|底)")
# (半年末 is a period's end; 上年末, 上年年末, 去年年末, 上年度末 the opening, 期初)
_YEAR_TWICE = re.compile(r"((?:19|20)\d\d年)\1")
_WHERE_AFTER_REPORT = re.compile(r"(?:全文|摘要)?(?:中|里|内|当中|显示|所示|披露)[，,]?")
_REPORT_WHERE = re.compile(r"(?:季度|年度)?(?:报告|报)" + _WHERE_AFTER_REPORT.pattern)


def _filing_looked_in(norm: str, a: "PeriodAsk") -> re.Match | None:
    """The words after a period's naming it as the filing looked in ("半年度报告中", "三季报里"), else None."""
    if a.words.endswith(("报", "报告")):
        return _WHERE_AFTER_REPORT.match(norm, a.end)
    return _REPORT_WHERE.match(norm, a.end)
_YEAR_HAN = re.compile(r"[〇零一二三四五六七八九]{2,4}年")


def _apart(question: str, words: str, example: str) -> Answer:
    """The decline of a question asking periods its words do not keep apart: to be asked apart, as the example."""
    return Answer(question, f"问题中的{words}所问的报告期不同，为避免给出错误的数值，请分开提问（如{example}）。", "1",
                  Method.DECLINED, found=False)


def _quarters_alone(listed: list["PeriodAsk"]) -> bool:
    """Whether every period named is a quarter alone (a year's table of quarters prints it: 分季度主要财务指标)."""
    return all(a.period in QUARTER_NAMES and (a.span in ("quarter", "both") or a.span == alone(a.period)) for a in listed)


def _of_the_quarters(ans: Answer, names: set[str]) -> bool:
    """Whether an answer is read from cells of the columns of the quarters named alone (第二季度 of a second quarter's
    ask, never the four)."""
    cells = [e for e in ans.evidence if isinstance(e, CellEvidence)]
    return bool(cells) and len(cells) == len(ans.evidence) and all(any(q in e.column for q in names) for e in cells)


@dataclass(frozen=True)
class PeriodAsk:
    """The period a question names: which one (Q1 … Q4, HY, latest), which span, and the words naming it."""
    period: str
    span: str
    start: int
    end: int
    words: str


def normalize_span(period: str, span: str) -> str:
    """The span a view of the period reads: a first quarter and a half year are their own year to date; a
    derived period (Q2, Q4, H2) is the period alone."""
    if period in ("Q1", "HY") and span in ("quarter", "both"):
        return "ytd"
    if period in DERIVED and span in ("ytd", "both"):
        return "quarter"
    return span


def spans_of(period: str, span: str) -> list[str]:
    """The spans a period's words ask: 第三季度 alone both 7–9月 and 1–9月, else the one its view reads."""
    return ["quarter", "ytd"] if (period == "Q3" and span == "both") else [normalize_span(period, span)]


def alone(period: str) -> str:
    """The span of a quarter alone (a first quarter's is its year to date)."""
    return "ytd" if period in ("Q1", "HY") else "quarter"


def _at_a_date(items: ItemTable, item: str) -> bool:
    """A balance, or an amount at a date a flow statement prints (期末现金及现金等价物余额): read at a period's end."""
    return items.statement_of(item) == "资产负债表" or bool(_AT_A_DATE.search(item)) or item in items.point_in_time


def _year_before(norm: str, at: int) -> int | None:
    """The year written right before a period's words ("2024年第三季度"), if any."""
    m = _YEAR_AT_END.search(norm[:at])
    return int(m.group(1)) if m else None


def label(period: str, span: str) -> str:
    return LABELS.get((period, span), LABELS.get((period, "ytd"), period))


class PeriodView(FactSource):
    """The filings of one period of the year, each read as its year's report (see the module's docstring)."""

    def __init__(self, base: FactSource, period: str, span: str, catalog: Catalog) -> None:
        # (the base's store, names and filings as they are; its reports replaced by this period's filings)
        self.__dict__.update(copy.copy(base).__dict__)
        self.base = base
        self.period, self.span = period, span
        self.items = catalog.items
        self.parent = False
        self._columns = (None, {})
        self._named_years = None
        self.reports, self.by_key, self._years = [], {}, {}
        self.derived: list[str] = []      # how each derived value read was made (said in the answer)
        own = DERIVED[period][0] if period in DERIVED else period
        for (company, year, p), reps in sorted(base.filings.items(), key=lambda kv: kv[0][1]):
            if p != own:
                continue
            self.reports.append(reps[0])
            self.by_key[(company, year)] = reps[0]
            self._years.setdefault(company, []).append(year)
        if own != "FY":
            # a year with no filing of the period, the next year's filing printing its 上年同期 column: that filing
            # stands for the year (_read reads that column, said; a balance at the period end a year back is none)
            for (company, year), rep in list(self.by_key.items()):
                if (company, year - 1) not in self.by_key:
                    stand = rep._replace(year=year - 1)
                    self.reports.append(stand)
                    self.by_key[(company, year - 1)] = stand
                    self._years[company].append(year - 1)
            for ys in self._years.values():
                ys.sort()   # (a year before a gap, 2023 of filings of 2022 and 2024, in its place)

    # ------------------------------------------------------------------------- reading a fact

    def _read(self, company: str, year: int, period: str, item: str, column: str) -> Fact | None:
        """A fact of the company's filing of (year, period) in that column; a flow the filing does not hold
        (no filing of that period is stored) read from the same period's filing a year on, its 上年同期 column,
        said."""
        for r in self.base.filing(company, year, period):
            for f in self.store.report_facts(r.id, [item], column, parent=self.parent):
                return Fact(f.item, f.value, f.unit, f.period, f.statement, f.page, f.source, year, f.raw_label, r.key)
        later = {"current": "previous", "quarter": "quarter_previous"}.get(column)
        if later is None or (self.items.statement_of(item) == "资产负债表" and period != "FY"):
            return None   # (a balance's previous column is the year end before, not the same period end)
        for r in self.base.filing(company, year + 1, period):
            for f in self.store.report_facts(r.id, [item], later, parent=self.parent):
                note = (f"{year}年{label(period, 'quarter' if column == 'quarter' else 'ytd')}{item}读自"
                        f"{r.year}年{FILING_WORDS[period]}报告（{r.key}，第{f.page}页）的上年同期列。")
                if note not in self.derived:
                    self.derived.append(note)
                return Fact(f.item, f.value, f.unit, "current", f.statement, f.page, f.source, year, f.raw_label, r.key)
        return None

    def _derive(self, company: str, year: int, item: str, whole: tuple[str, str], part: tuple[str, str]) -> Fact | None:
        """whole − part of an amount (Q2 = HY − Q1, Q4 = FY − 1–9月, Q3 alone = 1–9月 − 1–6月), said how."""
        a = self._read(company, year, whole[0], item, whole[1])
        b = self._read(company, year, part[0], item, part[1])
        if a is None or b is None or a.unit != "元" or b.unit != "元" or a.number is None or b.number is None:
            return None
        value = a.number - b.number
        how = (f"{year}年{label(self.period, self.span)}{item}为推算值：{year}年{label(whole[0], 'ytd')}"
               f"{a.number:,.2f}元（{a.report}，第{a.page}页）− {year}年{label(part[0], 'ytd')}{b.number:,.2f}元"
               f"（{b.report}，第{b.page}页）= {value:,.2f}元")
        if how not in self.derived:
            self.derived.append(how)
        # (no page prints it: the answer says both pages)
        return Fact(item, decimal_str(value), "元", "current", a.statement, None, "derived", year,
                    f"{a.label or item}（推算）", a.report)

    def opening_order(self, year: int) -> list[tuple[int, str]]:
        """A period's opening balances (期初, 上年度末, 年初) are the year end before — its filing's 上年度末 column —
        never the same period end a year before (the filing of that period a year back)."""
        return [(year, "opening")]

    def _fact(self, company: str, year: int, item: str, period: str) -> Fact | None:
        # a balance, or an amount at a date a flow statement prints (期末现金及现金等价物余额): at the period end
        balance = _at_a_date(self.items, item)
        if period == "opening":   # (the year end before: an interim filing's balance sheet prints it beside its own)
            if not balance or self.period not in ("Q1", "HY", "Q3"):
                return None
            got = self._read(company, year, self.period, item, "previous")
            if got is None and item in self.items.point_in_time:
                # (a count at a date no filing prints twice — 普通股股东总数 —: the year's report before, its own)
                got = self._read(company, year - 1, "FY", item, "current")
                if got is not None:
                    got.year, got.period = year, "previous"   # (said as the year end before: 末（12月31日）, its year)
                    said = f"{year - 1}年末{item}读自{year - 1}年年度报告（{got.report}，第{got.page}页）。"
                    if said not in self.derived:
                        self.derived.append(said)
            return got
        if self.period in ("Q1", "HY", "Q3"):
            quarter = self.period == "Q3" and self.span == "quarter" and not balance
            if quarter and _OPENING.search(item):
                return None   # (an opening amount of 7–9月 alone is no filing's column)
            if period == "current":
                f = self._read(company, year, self.period, item, "quarter" if quarter else "current")
                if f is None and quarter:
                    f = self._derive(company, year, item, ("Q3", "current"), ("HY", "current"))
                return f
            if period == "previous" and not balance:   # (a balance's 同比: the same period end a year before)
                return self._read(company, year, self.period, item, "quarter_previous" if quarter else "previous")
            if period == "change" and not balance:   # (the filing's own printed change on the same period a year before)
                return self._read(company, year, self.period, item, CHANGES["quarter" if quarter else "current"])
            return None
        if period != "current" or _OPENING.search(item):
            return None
        own, (whole, part) = DERIVED[self.period]
        if balance:
            return self._read(company, year, own, item, "current")
        return self._derive(company, year, item, (whole, "current"), (part, "current"))

    def facts(self, report: Report, items: list[str], period: str = "current") -> dict[str, Fact]:
        out: dict[str, Fact] = {}
        for item in items:
            f = self._fact(report.company, report.year, item, period)
            if f is not None:
                out[item] = f
            elif period == "current" and REPORT_FIELDS.get(item) and getattr(report, REPORT_FIELDS[item]):
                out[item] = Fact(item, getattr(report, REPORT_FIELDS[item]), None, "current", "公司信息", None,
                                 "report list", report.year, report=report.key)
        return out

    def _column(self, item: str, year: int) -> pd.DataFrame:
        rows = []
        for r in self.reports:
            if r.year != year:
                continue
            f = self.facts(r, [item]).get(item)
            if f is None or f.number is None:
                continue
            rows.append({"report_id": r.id, "company": r.company, "short_name": r.short_name,
                         "full_name": r.full_name, "value": f.value, "num": float(f.number), "page": f.page,
                         "source": f.source})
        return pd.DataFrame(rows, columns=["report_id", "company", "short_name", "full_name", "value", "num", "page",
                                           "source"])


@dataclass
class _Part:
    """One period's answer of a question."""
    period: str
    span: str
    answer: Answer
    derived: list[str] = field(default_factory=list)


class PeriodAnswerer:
    """The answers of questions naming a period within a year (see the module's docstring)."""

    def __init__(self, source: FactSource, catalog: Catalog, make_router: Callable[[FactSource], "Router"],
                 understand: Callable, annual: Callable[[str], Answer],
                 asks: Callable[[str], list[str] | None] = lambda q: []) -> None:
        self.source = source
        self.annual = annual
        # a question's asks, each a question of its own (its context filled); [] for one, None where one takes its
        # subject from the ask before
        self.asks = asks
        self.catalog = catalog
        self.rules = catalog.periods
        self.make_router = make_router
        self.understand = understand
        self._routers: dict[tuple[str, str], tuple[PeriodView, "Router"]] = {}
        self.interim = any(p != "FY" for (_, _, p) in source.filings)
        self._lacking: set[int] | None = None   # (_without_annual, once)

    def read(self, question: str) -> PeriodAsk | None:
        """The period a question names, by rules/periods.yaml (the match starting first; at one place the rule
        written first)."""
        norm = normalize_question(question)
        best: PeriodAsk | None = None
        for w in self.rules.questions:
            m = w.pattern.search(norm)
            if m and (best is None or m.start() < best.start):
                best = PeriodAsk(w.period, w.span, m.start(), m.end(), m.group(0))
        return best

    def words_in(self, text: str) -> "PeriodWords | None":
        """The period within a year a text names, as a conversation carries it (answer/followup.py): the text
        without its words, the words that name it back, where they stood; None when it names none."""
        norm = normalize_question(text)
        ask = self.read(norm)
        if ask is None:
            return None
        rest, span = self.take_out(norm, ask)
        return PeriodWords(rest, WORDS.get((ask.period, normalize_span(ask.period, span)), ask.words), ask.start,
                           len(self.read_all(norm)))

    def _mixed(self, norm: str, listed: list[PeriodAsk]) -> str:
        """The years of a question that ask different periods ("2021年营业收入和2022年上半年…", "2022年上半年和
        2021年全年"): a year written without a period word before another year's words, or with its own annual
        words (全年, 年度, 年末); "" when the years share the period ("2023年和2024年第三季度")."""
        years = [m for m in _OWN_YEAR.finditer(norm) if m.group(0).endswith("年") or norm[m.end():m.end() + 1] in "-至到"]
        if len(years) < 2:
            return ""
        starts = {a.start for a in listed}
        for m, nxt in zip(years, years[1:] + [None]):
            if m.start() and norm[m.start() - 1] in "（(":
                continue   # (上年末（2023年末）: the year restating a word in brackets asks no period of its own)
            after = norm[m.end():]
            if m.end() in starts or re.match(r"的?(?:第|前|上|下|一|二|三|四|Q|H)", after):
                continue   # (its period follows it)
            if re.match(rf"的?(?:{_YEAR_WHOLE})", after) or re.match(r"[度末底]", after):   # (2023年末: its year end)
                return "、".join(y.group(0) for y in years)
            between = norm[m.end():nxt.start()] if nxt is not None else ""
            if nxt is not None and not re.fullmatch(r"[-至到和与及、,，]*(?:的)?", between):
                return "、".join(y.group(0) for y in years)   # (its own item before the next year)
        return ""

    def read_all(self, question: str) -> list[PeriodAsk]:
        """Every period a question names, in its order (一季度、半年度、三季度; 上半年和第三季度)."""
        norm = normalize_question(question)
        out: list[PeriodAsk] = []
        at = 0
        while True:
            ask = self.read(norm[at:])
            if ask is None:
                return out
            out.append(PeriodAsk(ask.period, ask.span, ask.start + at, ask.end + at, ask.words))
            at += ask.end

    def _listed(self, question: str, norm: str, listed: list[PeriodAsk]) -> Answer:
        """Several periods listed: the rest of the question answered for each, one after the other."""
        rest = norm
        for a in sorted(listed, key=lambda a: -a.start):
            rest = rest[:a.start] + rest[a.end:]
        for w in self.rules.modifiers:
            rest = w.pattern.sub("", rest)
        rest = re.sub(r"\(\)|[、和与及,，]+(?=[、和与及,，]*(?:的|$))", "", rest)
        rest = re.sub(r"(?<=年)[、和与及,，]+", "", rest)
        # (an ask that named only its period — "一季度营收多少？二季度呢？" — is nothing once the period is taken out:
        # never an ask of its own, answered "同（1）")
        rest = _ONLY_ITS_PERIOD.sub("", rest)
        parts = []
        for a in listed:
            parts += [self._part(rest, a.period, s) for s in spans_of(a.period, a.span)]
        return self._compose(question, parts, intro=False)

    def _within(self, norm: str) -> list[PeriodAsk]:
        """The periods within a year a question names ("latest" aside); [] at once where no period rule's word stands."""
        if not _WITHIN_A_YEAR.search(norm):
            return []   # (most questions of a store of annual reports)
        return [a for a in self.read_all(norm) if a.period != "latest"]

    def _annual_only(self, question: str, norm: str) -> Answer | None:
        """A period within a year asked of a store holding annual reports only: a quarter alone as the year's
        table of quarters prints it (分季度主要财务指标: the annual path's cells of the quarter's column), any other
        period (上半年, 前三季度, 一季度末 …) said not held — never the year's value for it (a question's words
        fuzzily matched to an item, "上半年经营活动现金流净额", or a passage of the year, answered the year's).
        None: no such period named (the annual path answers)."""
        listed = self._within(norm)
        if not listed:
            return None
        if self.asks(question) != []:
            return None   # (several asks: the executor answers each, an ask of such a period said not held — held())
        if _quarters_alone(listed):
            ans = self.annual(question)
            if not ans.answered or _of_the_quarters(ans, {QUARTER_NAMES[a.period] for a in listed}):
                return ans
        return self._not_held(question, listed)

    def _not_held(self, question: str, listed: list[PeriodAsk]) -> Answer:
        said = "、".join(dict.fromkeys(label(a.period, a.span if a.span != "both" else alone(a.period)) for a in listed))
        return Answer(question, f"未查询到{said}的定期报告（库中只有年度报告；季度、半年度的数值只从该期报告读取或推算，"
                                f"年度报告的分季度主要财务指标只列各季度单季的数值），无法回答该问题。", "1", Method.NOT_FOUND,
                      found=False)

    def held(self, question: str, ans: Answer) -> Answer:
        """An ask's answer of the annual path in a store of annual reports only (an ask of a compound question the
        executor answers): where it names a period within a year, the answer when it is one of the quarters' table,
        else said not held — never the year's value for it."""
        if self.interim:
            return ans
        listed = self._within(normalize_question(question))
        if not listed or _quarters_alone(listed) and (
                not ans.answered or _of_the_quarters(ans, {QUARTER_NAMES[a.period] for a in listed})):
            return ans
        return self._not_held(question, listed)

    def _mixed_in(self, norm: str, listed: list[PeriodAsk]) -> str:
        """The words of a question asking a period within a year beside another one the periods' path would read as the
        first: the year's end ("2023年末…较上半年末"), or, in asks taking their subject from the ask before, the whole year
        or another span ("全年营业收入是多少？上半年呢？", "第三季度单季…？累计呢？") — "" when there are none."""
        year_end = _YEAR_END.search(norm)
        if year_end and listed:
            return f"“{year_end.group(0)}”“{listed[0].words}”"
        if len(listed) != 1 or self.asks(norm) is not None:
            return ""
        whole = _WHOLE_YEAR.search(norm)
        if whole:
            return f"“{whole.group(0)}”“{listed[0].words}”"
        span = normalize_span(listed[0].period, listed[0].span)
        for w in self.rules.modifiers:
            m = w.pattern.search(norm)
            if m and normalize_span(listed[0].period, w.span) != span and not listed[0].start <= m.start() < listed[0].end:
                return f"“{listed[0].words}”“{m.group(0)}”"
        return ""

    def _each_ask(self, question: str, listed: list[PeriodAsk]) -> Answer | None:
        """Asks naming their periods apart ("2023年Q3单季归母净利润是多少？2023年前三季度（年初至报告期末）归母净利润又是
        多少？": 7–9月, then 1–9月; "2019年全年营业收入是多少？其中第四季度营业收入是多少？": the year, then 10–12月): each ask
        answered for its own period, never the first's for all. None unless the asks name different periods, each
        one at most, in the question's order — an ask naming none only where it says the whole year (全年, 年度): "一季度
        营业收入是多少？净利润呢？" asks the quarter's 净利润."""
        texts = self.asks(question)
        if texts is None or len(texts) < 2:
            return None
        own = [self.read_all(t) for t in texts]
        named = [(o[0].period, o[0].span) for o in own if o]
        if any(len(o) > 1 for o in own) or named != [(a.period, a.span) for a in listed] \
                or any(not o and not _WHOLE_YEAR.search(t) for t, o in zip(texts, own)) \
                or len(set(named)) + any(not o for o in own) < 2:
            return None
        parts = []
        for text, o in zip(texts, own):
            if not o:
                ans = self.annual(text)
                parts.append(_Part("FY", "ytd", ans))
                continue
            rest, span = self.take_out(normalize_question(text), o[0])
            parts += [self._part(rest, o[0].period, s) for s in spans_of(o[0].period, span)]
        return self._compose(question, parts, intro=False)

    def take_out(self, norm: str, ask: PeriodAsk) -> tuple[str, str]:
        """The question without the words naming its period — the period's own words wherever they stand
        ("第三季度（7-9月）"), and the words saying its span (单季, 累计) — and the span they say. Another period's
        words stay (环比三季度, 上半年和第三季度: what is left to answer or decline)."""
        span = ask.span
        # a period's end listed with an opening ("6月末和年初的货币资金"): the view's own 期末 stands for it, so the two
        # are asked each (never the opening alone)
        end = "期末" if ask.span == "end" and _WITH_OPENING.match(norm, ask.end) else ""
        # (a filing named — "半年报里，", "一季报中" —: the words saying it is looked in go with it)
        looked = _WHERE_AFTER_REPORT.match(norm, ask.end) if ask.words.endswith(("报", "报告")) else None
        rest = norm[:ask.start] + end + norm[looked.end() if looked else ask.end:]
        while True:
            hit = None
            for w in self.rules.questions:
                m = w.pattern.search(rest)
                if m and w.period == ask.period:
                    hit = (m, w.span)
                    break
            for w in self.rules.modifiers:
                m = w.pattern.search(rest)
                if m and hit is None:
                    hit = (m, w.span)
            if hit is None:
                break
            m, said = hit
            if span in ("both", "end") and said in ("quarter", "ytd") or span == said:
                span = said if span == "both" else span
            elif said == "quarter" and ask.words.endswith(("报", "报告")):
                span = said   # ("三季报里，本报告期…": the filing's own period alone, 7-9月)
            rest = rest[:m.start()] + rest[m.end():]
        rest = re.sub(r"\(\)", "", rest)
        at = min(ask.start, len(rest))
        return rest[:at] + _FILLER_LEFT.sub("", rest[at:]), span

    def _router(self, period: str, span: str) -> tuple[PeriodView, "Router"]:
        key = (period, span)
        if key not in self._routers:
            view = PeriodView(self.source, period, span, self.catalog)
            self._routers[key] = (view, self.make_router(view))
        return self._routers[key]

    def answer(self, question: str) -> Answer | None:
        """The answer of a question naming a period of a year; None for a question of years (the annual path)."""
        norm = normalize_question(question)
        if not self.interim:
            return self._annual_only(question, norm)
        if not _NOT_A_LIST.search(norm):   # (一二季度 listed for their values; compared or added up: not read so)
            norm = _QUARTERS_LISTED.sub(lambda m: "、".join(f"第{c}季度" for c in m.group(1).replace("、", "")), norm)
        listed = self.read_all(norm)
        where = [a for a in listed if _filing_looked_in(norm, a)]
        named = bool(where) and len(where) < len(listed)   # (a filing named to look in: the answer is of it)
        if named:
            # the filing named as where to look, another period asked: the period asked alone
            for a in sorted(where, key=lambda a: -a.start):
                norm = norm[:a.start] + norm[_filing_looked_in(norm, a).end():]   # type: ignore[union-attr]
            norm = _YEAR_TWICE.sub(r"\1", norm)   # ("2023年半年度报告中，2023年第二季度": the year once)
            listed = self.read_all(norm)
        ask = listed[0] if listed else None   # (the period named first)
        if _EACH_QUARTER.search(norm):   # 各季度: every quarter alone of the year (前三个季度每个季度: the first three)
            rest = self.take_out(norm, ask)[0] if ask is not None else norm
            last = "Q3" if ask is not None and ask.period == "Q3" and ask.words.startswith("前") else "Q4"
            return self._each_quarter(question, _EACH_ALONE.sub("", _EACH_QUARTER.sub("", rest)), last)
        if ask is None:
            return self._ask_back(question, norm)
        mixed = self._mixed(norm, listed)
        if mixed:
            return _apart(question, mixed, "“…2021年营业收入是多少”“…2022年上半年营业收入是多少”")
        each = self._each_ask(question, listed) if not _QOQ.search(norm) else None
        if each is not None:
            return each
        mixed_in = self._mixed_in(norm, listed) if not _QOQ.search(norm) else ""
        if mixed_in:
            return _apart(question, mixed_in, "“…上半年营业收入是多少”“…全年营业收入是多少”")
        if len(listed) == 2 and _QOQ.search(norm[listed[0].end:listed[1].start]) and \
                "latest" not in {a.period for a in listed}:
            years = [_year_before(norm, x.start) for x in listed]
            if None not in years:   # "2025年一季度营收环比2024年四季度": the two periods named, each in its own year
                return self._versus(question, norm, *listed)
            if years[1] is not None:   # (the base's year written, the asked period's not: whose year is it?)
                return Answer(question, f"问题中{listed[1].words}写了年份，而{listed[0].words}没有，为避免给出错误的数值，"
                                        f"请写明各期的年份（如“2024年一季度营收环比2023年四季度”）。", "1",
                              Method.DECLINED, found=False)
        several = len({a.period for a in listed}) > 1
        if (several or len({(a.period, normalize_span(a.period, a.span)) for a in listed}) > 1) \
                and not _QOQ.search(norm) and "latest" not in {a.period for a in listed}:
            over = _OVER_PERIODS.search(norm)
            if over and several:   # (a share, a sum or an average of two periods' values: not computed, said)
                return Answer(question, f"问题中的“{over.group(0)}”涉及多个报告期的数值之间的计算，暂不支持，"
                                        f"为避免给出错误的数值，不作回答；可分别查询各期数值。", "1", Method.DECLINED, found=False)
            if several and len(listed) == 2 and _VERSUS.search(norm[listed[0].end:listed[1].start]):
                return self._versus(question, norm, *listed)
            # (one period's two spans asked apart — "第三季度单季…是多少？前三季度呢？" —: each, never "同（1）")
            if several or len(listed) == 2 and _ASK_STOP.search(norm, listed[0].end, listed[1].start):
                return self._listed(question, norm, listed)
        rest, span = self.take_out(norm, ask)
        period = ask.period
        if period == "latest":
            return self._latest(question, rest, span)
        back = self._ask_year(question, norm, period, span)
        if back is not None:
            return back
        if _QOQ.search(rest):
            return self._qoq(question, rest, period, span, _year_before(norm, ask.start))
        if ask.words.startswith("前") and period == "Q3" and _EACH_ALONE.search(norm):   # 前三个季度单季
            return self._each_quarter(question, _EACH_ALONE.sub("", rest), "Q3")
        return self._compose(question, [self._part(rest, period, s, not named) for s in spans_of(period, span)])

    # ------------------------------------------------------------------------- one period's answer

    def _part(self, text: str, period: str, span: str, annual: bool = True) -> _Part:
        """One period's answer of a text (its period's words taken out); `annual`: a quarter nothing of its filings
        gives may be read from the year's table of quarters (not where the question names the filing it looks in)."""
        view, router = self._router(period, span)
        view.derived = []
        ans = router.answer(text)
        # a first quarter's or a half year's own tables print its period (本期 is 1–3月 / 1–6月; 期末 its end): their
        # cells answer it — never a quarter within a half year, nor a third quarter's table (本报告期 is 7–9月 alone)
        own_cells = period in ("Q1", "HY") and span in ("ytd", "end")
        # (the filing of the year asked itself — never the next year's standing for it, its 本报告期 another year's —, and
        # no cell of its key figures, 主要会计数据: what the summary's reader did not read there is not read)
        own = {r.key for r in view.reports if r.key.split(":")[-1][:4] == str(r.year)} if own_cells else set()
        if ans.answered and not all(isinstance(e, FactEvidence) or own_cells and isinstance(e, CellEvidence)
                                    and e.report in own and not _KEY_FIGURES.search(e.table.split(" > ")[-1]) for e in ans.evidence):
            # a period's values are read from its filing's statements and key figures (or derived from
            # them): a table cell or a sentence of a half year's or a year's filing speaks of that period,
            # not of the quarter asked
            ans = Answer(ans.question, f"未查询到{text.rstrip('?？。')}的报表数值（季度、半年度的数值只从该期报告的报表和"
                                       f"主要会计数据读取或推算），无法回答该问题。", ans.type, Method.NOT_FOUND, found=False)
        if not ans.answered and annual and period in QUARTER_NAMES and span == alone(period):
            printed = self._in_the_year(text, period)
            if printed is not None:
                return _Part(period, span, printed)
        facts = [e for e in ans.evidence if isinstance(e, FactEvidence)]
        balance = bool(facts) and all(_at_a_date(self.catalog.items, e.item) for e in facts)
        shown = "end" if balance else span
        said = label(period, shown)
        ans.answer = _YEAR_SAID.sub(lambda m: f"{m.group(1)}年{said}", ans.answer).replace("年报", "报告")
        if own_cells:   # (a cell's table: the filing's, by its name)
            ans.answer = ans.answer.replace(f"{said}年度报告「", f"{FILING_WORDS[period]}报告「")
        for e in ans.evidence:
            if isinstance(e, FactEvidence):
                # (a balance's previous column in an interim filing is the year end before: 期初, 上年度末)
                e.within = YEAR_END if e.period == "previous" and _at_a_date(self.catalog.items, e.item) else said
        # (the notes of the values the answer cites, and of those a derived one was made of: a base read, then not
        # used — a printed change — is not said)
        cited = {e.report for e in ans.evidence if isinstance(e, FactEvidence) and e.report}
        kept: list[str] = []
        while True:
            more = [n for n in view.derived if n not in kept and any(k in n for k in cited)]
            if not more:
                break
            kept += more
            cited |= {k for n in more for k in _FILING_KEY.findall(n)}
        return _Part(period, shown, ans, [n for n in view.derived if n in kept])

    def _in_the_year(self, text: str, period: str) -> Answer | None:
        """A quarter alone its filings neither print nor derive, as the year's annual report prints it in its table of
        the quarters (分季度主要财务指标: 营业收入 | 第四季度): the annual path's cells of the quarter's column, as they
        are cited there; None where no such cell answers."""
        year = _YEAR_SAID.search(text)
        if year is None:
            return None
        name = QUARTER_NAMES[period]
        ans = self.annual(text[:year.end(1)] + "年" + name + text[year.end():])
        return ans if ans.answered and _of_the_quarters(ans, {name}) else None

    def _each_quarter(self, question: str, rest: str, last: str) -> Answer:
        """Every quarter alone of the year up to `last` (各季度: Q1–Q4; 前三个季度单季: Q1–Q3), each read or
        derived, said as it was made; the quarters no filing holds said."""
        quarters = ["Q1", "Q2", "Q3", "Q4"][:["Q1", "Q2", "Q3", "Q4"].index(last) + 1]
        parts = [self._part(rest, q, "ytd" if q == "Q1" else "quarter") for q in quarters]
        return self._compose(question, parts, intro=False)

    def _compose(self, question: str, parts: list[_Part], intro: bool = True) -> Answer:
        """One period's answer as it is; several (第三季度: 7–9月 and 1–9月; 各季度) one after the other, each
        labelled, what is not found said; a balance (the same at the period end either way) once."""
        if intro and len(parts) == 2 and parts[0].span == "end":
            parts = parts[:1]
        answered = [p for p in parts if p.answer.answered]
        first = (answered or parts)[0].answer
        text = "\n".join(p.answer.answer.strip() for p in (answered or parts[:1]))
        if len(parts) > 1 and answered:
            for missing in (p for p in parts if not p.answer.answered):
                text += f"\n（{label(missing.period, missing.span)}：{missing.answer.answer.strip()}）"
        notes = list(dict.fromkeys(d for p in answered for d in p.derived))
        if notes:
            text += "\n" + "\n".join(notes)
        if intro and len(parts) == 2 and len(answered) == 2:
            text = "“第三季度”可指7-9月单季或1-9月累计，两者分别为：\n" + text
        evidence = [e for p in (answered or parts[:1]) for e in p.answer.evidence]
        partial = ([f"{label(p.period, p.span)}" for p in parts if not p.answer.answered]
                   + [f"{label(p.period, p.span)}{w}" for p in answered for w in p.answer.partial]) if answered else []
        out = Answer(question, text, first.type, first.method, evidence, found=bool(answered) and not partial,
                     partial=partial if answered else [])
        out.frame = dict(first.frame or {}, period_asked=[f"{p.period}:{p.span}" for p in parts])
        out.shown = first.shown if len(parts) == 1 else None
        out.series = first.series
        return out

    # ------------------------------------------------------------------------- the latest period; 环比

    def _latest(self, question: str, rest: str, span: str) -> Answer:
        u = self.understand(rest)
        if not u.companies:
            return Answer(question, "请问你查询哪一家公司最新一期的数据？", "1", Method.ASK_WHICH, found=False)
        company = u.companies[0].company.key
        periods = self.source.periods_of(company)
        name = u.companies[0].company
        if not periods:
            return Answer(question, f"未查询到{name.short_name or company}的定期报告。", "1", Method.NOT_FOUND, found=False)
        year, period = periods[-1]
        text = rest if u.years.years else rest.replace(u.companies[0].text, f"{u.companies[0].text}{year}年", 1)
        if period == "FY":
            ans = self.annual(text)
        else:
            ans = self._compose(question, [self._part(text, period, s) for s in spans_of(period, "both")])
        ans.answer = f"{name.short_name or company}最新一期报告为{year}年{FILING_WORDS[period]}报告。" \
                     + ans.answer
        return ans

    def _qoq(self, question: str, rest: str, period: str, span: str, year: int | None) -> Answer:
        """环比: the quarter alone against the quarter alone before it, both read (or derived) and cited. (The
        quarter before may be named after 环比: "环比三季度"; it is the one before in any case.)"""
        at = rest.find("环比")
        after = rest[at:]
        for w in self.rules.questions:
            after = w.pattern.sub("", after)
        rest = rest[:at] + after
        if period not in PREVIOUS_QUARTER:
            return Answer(question, "环比需要具体的季度（如第三季度单季），上半年或全年没有可比的上一季度。", "2-2",
                          Method.DECLINED, found=False)
        prev_period, shift = PREVIOUS_QUARTER[period]
        return self._against(question, rest, (period, alone(period), 0), (prev_period, alone(prev_period), shift),
                             "环比", year)

    def _versus(self, question: str, norm: str, a: PeriodAsk, b: PeriodAsk) -> Answer:
        """One period against another of the same item ("四季度单季营收比三季度多了多少", "第三季度较第二季度单季增加"):
        both read (or derived) and cited, the difference and the rate computed here. Quarters compared are
        each quarter alone; a year written before a period is that period's."""
        rest = norm
        for x in sorted((a, b), key=lambda x: -x.start):
            rest = rest[:x.start] + rest[x.end:]
        for w in self.rules.modifiers:
            rest = w.pattern.sub("", rest)
        years = [_year_before(norm, x.start) for x in (a, b)]
        if years[0] is not None and years[1] is not None:
            shifts = (0, years[1] - years[0])
        else:
            shifts = (0, 0)
        # (the quarter just before, named after 环比: its own word; any other period, a comparison of the two)
        word = "环比" if PREVIOUS_QUARTER.get(a.period) == (b.period, shifts[1]) and _QOQ.search(
            norm[a.end:b.start]) else "较对比期"

        def span_of(x: PeriodAsk) -> str:
            return alone(x.period) if x.span in ("both", "quarter") else normalize_span(x.period, x.span)

        return self._against(question, rest, (a.period, span_of(a), shifts[0]), (b.period, span_of(b), shifts[1]),
                             word, years[0])

    def _against(self, question: str, rest: str, this_p: tuple[str, str, int], that_p: tuple[str, str, int],
                 word: str, year: int | None = None) -> Answer:
        """The value of one item in one period against another (period, span, years after the year of the first:
        the one written before it, else the question's one year)."""
        u = self.understand(rest)
        years = u.years.years
        named = u.items + u.formulas
        if year is not None and year in years:
            years = [year]
        elif len(set(years)) > 1:   # (years written, none before the first period: which is whose is not told)
            years = []
        if not years or not u.companies or len(named) != 1:
            return Answer(question, f"{word}需要一家公司、一个年份和一个项目（如“华润三九2024年第三季度营业收入环比增长多少”）。",
                          "2-2", Method.DECLINED, found=False)
        kept = [w for w in (u.frame.scope_word if u.frame.scope != "consolidated" else "",
                            "单位" if u.frame.unit else "") if w]
        if kept:   # (两期对比 is read from each period's value alone: a scope or a unit asked is not dropped)
            return Answer(question, f"问题中的“{'”“'.join(kept)}”在两期对比中暂不支持，为避免给出错误的数值，不作回答。",
                          "2-2", Method.DECLINED, found=False)
        asked = f"{u.companies[0].text}{years[0]}年{named[0]}是多少？"
        # each period's value asked alone, the change computed here from both
        this = self._part(asked.replace(f"{years[0]}年", f"{years[0] + this_p[2]}年", 1), this_p[0], this_p[1])
        if not this.answer.answered or this.answer.value is None:
            return self._compose(question, [this])
        before = self._part(asked.replace(f"{years[0]}年", f"{years[0] + that_p[2]}年", 1), that_p[0], that_p[1])
        if not before.answer.answered or before.answer.value is None:
            ans = self._compose(question, [this])
            ans.answer += (f"\n对比期（{years[0] + that_p[2]}年{label(that_p[0], before.span)}）的数据未查询到，"
                           f"无法计算{word}变化。")
            ans.found, ans.partial = False, [word]
            return ans
        a, b = Decimal(str(this.answer.value)), Decimal(str(before.answer.value))
        change = a - b
        rate = f"{(change / abs(b) * 100):.2f}%" if b != 0 else "无法计算（对比期为0）"
        unit = this.answer.unit or ""
        text = (f"{this.answer.answer.strip()}\n{before.answer.answer.strip()}\n"
                f"{word}变化{change:,.2f}{unit}，{word}增长率为{rate}"
                f"（（本期 − 对比期）/ |对比期|）。")
        notes = this.derived + [d for d in before.derived if d not in this.derived]
        if notes:
            text += "\n" + "\n".join(notes)
        out = Answer(question, text, "2-2", Method.CHANGE, this.answer.evidence + before.answer.evidence)
        out.shown = rate
        return out

    # ------------------------------------------------------------------------- asking back

    def complete(self, answer: str, asked: str) -> str | None:
        """The question asked back about ("金花股份利润总额是多少") with the period its answer names ("2025年第三
        季度的") put after the company; None when the question before was not asked back or the answer names no
        period, or a company of its own (a new question)."""
        if not self.interim:
            return None
        norm = normalize_question(answer)
        if self.read(norm) is None or self.understand(norm).companies:
            return None
        before = normalize_question(asked)
        if self.read(before) is not None or self._ask_back(asked, before) is None:
            return None   # (a question naming its period was not asked back which period)
        said = _FOLLOW_FILLER.sub("", norm)
        u = self.understand(before)
        at = u.companies[0].end
        if u.years.spans and not _OWN_YEAR.search(said):   # (after the year asked: "2025年" + "第三季度")
            at = max(e for _, e in u.years.spans)
        return before[:at] + said + before[at:]

    def _ask_year(self, question: str, norm: str, period: str, span: str) -> Answer | None:
        """A value of a company asked for a period within a year with no year ("华润三九上半年归母净利润同比增长了
        多少"), where filings of several years hold that period: which year? (never the latest taken for it).
        None when a year is named in any words, or one year's filing holds the period."""
        if _YEAR_DIGITS.search(norm):
            return None   # (a year written: most questions of a period — no need to read the question twice)
        u = self.understand(norm)
        if u.years.years or u.years.recent or not u.companies or not (u.items or u.formulas):
            return None
        held = DERIVED[period][0] if period in DERIVED else period
        years = sorted({y for y, p in self.source.periods_of(u.companies[0].company.key) if p == held})
        if len(years) < 2:
            return None
        words = WORDS.get((period, normalize_span(period, span)), label(period, span))
        text = render(self.catalog.templates, "ask_period_year", company=u.companies[0].text, period=words,
                      items="、".join(u.items + u.formulas), years="、".join(f"{y}年" for y in years))
        ans = Answer(question, text, "1", Method.ASK_YEAR, found=False)
        ans.context = {"question": question, "companies": [u.companies[0].text], "years": [],
                       "items": list(u.items) + list(u.formulas), "period": words}
        return ans

    def _period_values(self, u) -> bool:
        """Whether a question asks a period's values: a formula, or items of the statements and key figures."""
        return bool(u.formulas) or bool(u.items) and all(self.catalog.items.statement_of(i) in _PERIOD_VALUES
                                                          for i in u.items)

    def _without_annual(self) -> set[int]:
        """The years some company has filings of but no annual filing printing them (none of that year, none of
        the next with its 上年 column): the years a question back may ask a period of."""
        if self._lacking is None:
            have = set(self.source.filings)
            self._lacking = {y for (c, y, p) in have if p != "FY" and (c, y, "FY") not in have
                             and (c, y + 1, "FY") not in have}
        return self._lacking

    def _ask_period_of_year(self, question: str, norm: str) -> Answer | None:
        """A value of one year asked ("华润三九2025年的营业收入是多少？") where the store holds no annual filing that
        prints it (none of that year, none of the next with its 上年 column) but filings of periods within it:
        which of them? None otherwise (the annual path answers, or says what it lacks)."""
        if re.search(_YEAR_WHOLE, norm):
            return None   # (the year's whole asked in words: the annual path says it has no annual report)
        # (read in full only where a year it names may be one of them: most questions name another)
        lacking = self._without_annual()
        if not lacking or not _YEAR_HAN.search(norm) and \
                not {int(m.group(1)[-2:]) for m in _YEAR_TAIL.finditer(norm)} & {y % 100 for y in lacking}:
            return None
        u = self.understand(norm)
        if len(u.years.explicit) != 1 or u.years.recent or len(u.companies) != 1 or not self._period_values(u):
            return None
        key, year = u.companies[0].company.key, u.years.explicit[0]
        held = [p for y, p in self.source.periods_of(key) if y == year]
        if not held or "FY" in held or (year + 1, "FY") in self.source.periods_of(key):
            return None
        items = "、".join(u.items + u.formulas)
        listed = "、".join(f"{year}年{FILING_WORDS[p]}" for p in held)
        ans = Answer(question, f"库中没有{u.companies[0].text}{year}年的年度报告。请问你查询{year}年哪一个报告期的{items}？"
                               f"（可选：{listed}）", "1", Method.ASK_PERIOD, found=False)
        ans.context = {"question": question, "companies": [u.companies[0].text], "years": [year],
                       "items": list(u.items) + list(u.formulas)}
        return ans

    def _ask_back(self, question: str, norm: str) -> Answer | None:
        """A value of a company with filings of several periods, asked with no year and no period: which period?
        None when the question names a year or years in any words, or the company has one period (the annual
        path answers it)."""
        if "年" in norm:   # (a year named, or years: 近三年, 历年, 去年, 全年, 年报 — the annual path's)
            return self._ask_period_of_year(question, norm)
        u = self.understand(norm)
        if not u.companies or u.years.years or not self._period_values(u):
            return None   # (a fact of the company — 法定代表人, 股票代码 — is the latest report's, as before)
        periods = self.source.periods_of(u.companies[0].company.key)
        if len(periods) < 2 or all(p == "FY" for _, p in periods):
            return None
        items = "、".join(u.items + u.formulas)
        listed = "、".join(f"{y}年{FILING_WORDS[p]}" for y, p in periods[-6:])
        ans = Answer(question, f"请问你查询哪一个报告期的{items}？（可选：{listed}等）", "1", Method.ASK_PERIOD, found=False)
        ans.context = {"question": question, "companies": [u.companies[0].text], "years": [], "items": list(u.items),
                       "ask_period": True}
        return ans
