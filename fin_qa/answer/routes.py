"""The routing policy, as data: which source answers an ask.

ROUTES is an ordered list of (name, when, take). For an ask, the routes are tried in order: the first whose
`when` holds and whose `take` gives an answer wins (a `take` may give None: the next route is tried). The
sources a route reads — the subsidiaries, the frames (an operation over a table's rows), the cells (a row
named as printed), the answerer of the question's rule type, a sentence stating a value — are each called at
most once per ask (AskState memoises them), and every candidate answer is reviewed at most once.

The router's vetoes are named too (VETOES, the routes call them by name): an ask listing several periods read
from a column of each (every_period_read), one row where every row of a group is asked (list_whole), a
statement line the cells read in the other period's column (blank_line), a company's own value for a question
that says more than it (unaccounted), a value worked out of a category the question names by the label its
report prints for another row (printed_otherwise, after every route). Splitting a question per company or per
period is the Planner's (understand/plan.py); the router only hands an ask here.
"""
from __future__ import annotations

import copy
import re
from collections.abc import Callable
from decimal import Decimal
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..catalog.normalize import phrase_key
from ..numbers import parse_number, to_yuan
from ..store.models import StoredFact
from ..understand.question import Understanding
from .compose import render
from .lookup import declined, understood
from .followup import POINTER
from .model import STATEMENT_NAMES, TABLE_METHODS, Answer, CellEvidence, FactEvidence, Method, PassageEvidence
from .cells import looks_in
from .tables import MOVES, content, norm, pairs
from .distribution import TOTAL as DISTRIBUTION_TOTAL

if TYPE_CHECKING:
    from .router import Router

# rule types answered without naming a company; every other type needs one the store knows
NO_COMPANY = ("statistics", "open", "advice")
# rule types a table's cells may answer (answer/cells.py); a question asking why is never one
CELL_KINDS = ("lookup", "formula", "change", "text", "not_understood")
# the answerers of a company's own values (a statement line, a formula over them, a change): what a row of
# the report's tables that the question names is not
COMPANY_VALUES = ("lookup", "formula", "change", "series")
# the kinds of question a series (近三年, 2017—2019年, 历年) of a company's items answers: any other (a
# ranking across companies, a quoted text, a definition) is declined with the series' words
SERIES_KINDS = ("lookup", "formula", "change", "text")
_WHY = re.compile(r"原因|为什么|为何|怎么会")
# the slots of unused words that an answer's evidence may print, and so account for (境内 of 境内会计师事务所报酬,
# 扣非 of a row label): a period, unit, scope, operation or comparison word is a slot the answerers fill or
# decline, never read off a label
PRINTABLE_SLOTS = ("modifier",)


def cue_words(words) -> str:
    """The words a decline names, as the question wrote them: a company's or year's span masked inside a
    cue ("占####的比例") shown as "…"."""
    return "”“".join(dict.fromkeys(re.sub(r"#+", "…", w) for w in words))


def _evidence_text(ans: Answer) -> str:
    """What an answer's evidence prints, as compared: its facts' row labels, its cells' table, row and column,
    its passages' headings and sentences."""
    parts: list[str] = []
    for e in ans.evidence:
        if isinstance(e, FactEvidence):
            parts.append(_clause_of(e))
        elif isinstance(e, CellEvidence):
            parts += [e.table, e.row, e.column]
        elif isinstance(e, PassageEvidence):
            parts += [e.heading, e.text]
    return content(norm("|".join(parts)))


# a stop between the clauses of a sentence (a comma between digits is a thousands separator)
_CLAUSE = re.compile(r"[，。；;：:！!？?]|,(?!\d{3})")


def _clause_of(e: FactEvidence) -> str:
    """What a fact's printed label says of its value: a row label whole; of a sentence (a key disclosure's
    label is the sentence it was read from), only the clause printing the value ("预计拟派发现金红利
    39,606,876.5元（含税）", not "本次转股后，公司的总股本为…" beside it); none when it is not found there."""
    label = e.printed_label or ""
    if len(label) <= 24 or not e.stored:
        return label
    number = e.stored.rstrip("0").rstrip(".") if "." in e.stored else e.stored
    for clause in _CLAUSE.split(label):
        if number and number in clause.replace(",", ""):
            # (a bracket beside the value says of other values: "430,711名（其中包括…2,863名H股股东）")
            return _ASIDE.sub(lambda m: m.group(0) if number in m.group(0).replace(",", "") else "", clause)
    return ""


_ASIDE = re.compile(r"[（(][^（）()]*\d[^（）()]*[）)]")   # (a bracket of figures: "（含税）" is the value's own)


def unprinted(words, ans: Answer) -> list[str]:
    """The words (each as the question wrote them) that the answer's evidence does not print."""
    said = _evidence_text(ans)
    return [w for w in words if content(norm(w)) not in said]


@dataclass
class AskState:
    """One ask being routed: its understanding, the sources read for it (each once), the reviews made (each
    candidate once), the subsidiary named whose value was not read (a guard against the parent's value)."""
    router: "Router"
    u: Understanding
    guards: list[Answer] = field(default_factory=list)
    _read: dict[str, Any] = field(default_factory=dict)
    _reviews: dict[int, str | None] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        return self.u.type

    def source(self, name: str) -> Any:
        if name not in self._read:
            self._read[name] = SOURCES[name](self)
        return self._read[name]

    def review(self, ans: Answer) -> str | None:
        """The reviewer's reason to decline an answer (None: it answers its ask), asked once per answer."""
        if id(ans) not in self._reviews:
            self._reviews[id(ans)] = self.router.reviewer.review(self.u, ans)
        return self._reviews[id(ans)]

    def decline(self, words: str) -> Answer:
        return declined(self.u, render(self.router.t, "declined", words=words, understood=understood(self.u)))

    @property
    def cell(self) -> Answer | None:
        """The cells' answer as the later routes take it: None where the cells are not asked (a yes/no, a why,
        the parent's statements), reviewed out or vetoed."""
        return self.source("cell_kept") if _cells_eligible(self) else None


# ------------------------------------------------------------------------------------------- the sources

def _cell_kept(s: AskState) -> Answer | None:
    """The cells' answer of the ask, unless the reviewer declines it (营业收入合计 for 营业外收入), a period
    it lists was read from no column of its kind, or it is one row where every row of a group is asked (各子公司
    的净利润: one associate's row is no list)."""
    cell, _ = s.source("cells")
    if cell is None or s.review(cell) is not None or not VETOES["every_period_read"](s, cell) \
            or not VETOES["list_whole"](s, cell) or not VETOES["each_read"](s, cell):
        return None
    return cell


SOURCES: dict[str, Callable[[AskState], Any]] = {
    "subsidiary_named": lambda s: s.router.subsidiaries.answer(s.u),
    "subsidiary": lambda s: s.router.subsidiaries.each(s.u) or s.source("subsidiary_named"),
    "cued": lambda s: s.router.frames.cued(s.u.question),
    "frames": lambda s: s.router.frames.answer(s.u),
    "frames_printed": lambda s: s.router.frames.answer(s.u, printed=True),
    "cells": lambda s: s.router.cells.answer(s.u),      # (answer or None, the entity words it names)
    "cell_kept": _cell_kept,
    "series": lambda s: s.router.route_kind(s.u, "series"),
    "kind": lambda s: s.router.route_kind(s.u, s.u.type),
    "stated": lambda s: s.router.stated.answer(s.u),
    "asks_each": lambda s: s.router.frames.asks_each(s.u),
    "documented": lambda s: _documented(s),
    "cell_kinds": lambda s: _cell_kinds_now(s),
}


# ------------------------------------------------------------------------------------------- the vetoes

def every_period_read(s: AskState, ans: Answer) -> bool:
    """Whether cells answering an ask of several periods listed ("本期和上期发生额", "期初数和期末数", "年初
    和年末"), or of an opening balance, were read from a column of each: every period asked (its kind, by
    the frame's period rules) has a column printing that kind — 上年期末数 an opening, 本期期末数 a closing;
    期末外币余额 alone is no 年初, nor 研发投入金额 of the year."""
    u = s.u
    cells = [e for e in ans.evidence if isinstance(e, CellEvidence)]
    if u.frame.period_word and any(u.frame.period_word in e.row for e in cells):
        return True   # the period word is the row's own ("期初至合并日的当期净损益"): no period asked of a column
    columns = [e.column for e in cells]
    if u.frame.period in ("closing", "opening") and columns and all(_FLOW_COLUMN.search(content(norm(c)))
                                                                       for c in columns):
        return False   # a balance at a date asked: no flow of the period (本期增加, 计提) answers it
    frame = s.router.understander.config.frame
    periods = frame.periods if frame else []
    words = [w for slot, w in u.frame.unused if slot == "period"]
    if not words and u.frame.period != "opening":
        return True
    if u.frame.period_word:
        words.append(u.frame.period_word)   # (an opening asked alone: its column too — a year's 研发投入 is no 年初)
    for w in words:
        kind = next((name for name, rx in periods if rx.search(w)), None)
        said = s.router.column_periods.get(kind or "")
        if not any((w in c) or (said is not None and said.search(c)) for c in columns):
            return False
    return True


# a column of a balance's movement in the period (本期增加, 本期减少金额, 计提, 转回): no balance at a date (a 本期发生额
# column is an income or expense's own amount, however loosely the question dates it: "2019年末…报酬")
_FLOW_COLUMN = re.compile(rf"^(?:本期|本年|当期|报告期内?)?(?:{MOVES})(?:金额|额)?$")


def list_whole(s: AskState, ans: Answer) -> bool:
    """Whether an answer to a question asking every row of a group (frames.asks_each) gives several rows."""
    if not s.source("asks_each"):
        return True
    return len({(e.table, e.row) for e in ans.evidence if isinstance(e, CellEvidence)}) >= 2


def each_read(s: AskState, ans: Answer) -> bool:
    """Whether a cell answer to a question asking several things each (rules/understanding.yaml frame.each_asked:
    分别, 各自, 各是, 各为, 各占) reads each: more than one
    value, or its one row or column names every item asked ("计入当期损益的政府补助和非经常性损益合计分别是多少":
    the 政府补助 row alone, under a title naming 非经常性损益, leaves the total unread)."""
    frame = s.router.understander.config.frame
    if frame is None or not frame.each_asked.search(s.u.norm) or not s.u.items:
        return True
    cells = [e for e in ans.evidence if isinstance(e, CellEvidence)]
    if len({(e.table, e.row, e.column) for e in cells}) != 1:
        return True
    printed = _spelled(s.router, f"{cells[0].row}|{cells[0].column}")
    return all(_spelled(s.router, s.u.item_words.get(i) or i) in printed or _spelled(s.router, i) in printed
               for i in s.u.items)


def blank_line(s: AskState, cell: Answer) -> Answer | None:
    """The decline of a table's cell answering a statement line that is that line's other column: the
    statement read the line on the cell's page with a previous-period value only, the year's cell left blank
    (a report with no financing in the year prints 筹资活动产生的现金流量净额 blank) — its number is the year
    before's, never the year's."""
    router, u = s.router, s.u
    store = router.source.store
    cells = [e for e in cell.evidence if isinstance(e, CellEvidence) and e.report and e.page]
    for item in u.items:
        if router.values.info(item).statement not in STATEMENT_NAMES:
            continue
        for e in cells:
            rid = store.report_id(e.report or "")
            if rid is None or store.report_facts(rid, [item], "current") or _of_another_year(e, u):
                continue
            number = parse_number(re.sub(r"[^\d,.\-()（）]", "", e.cell or e.value))
            before = [f for f in store.report_facts(rid, [item], "previous")
                      if f.statement in STATEMENT_NAMES and (f.page == e.page or (
                          number is not None and parse_number(f.value) == number))]
            if before:
                return _blank_declined(s, item, before[0])
    return None


def _of_another_year(e: CellEvidence, u: Understanding) -> bool:
    """A cell read from the report of the year after the one asked (its 上期 column: the cells' fallback where the
    store lacks the year's own report)."""
    year = re.match(r"\d{4}", (e.report or "").rsplit(":", 1)[-1])
    return u.years.asked is not None and year is not None and int(year.group(0)) != u.years.asked


def _blank_declined(s: AskState, item: str, before: StoredFact) -> Answer:
    """The decline of a statement line printed with the year before's value only (`before`, that value's fact)."""
    return declined(s.u, render(s.router.t, "blank_line", item=item, statement=before.statement, page=before.page))


def _blank_statement_line(s: AskState) -> Answer | None:
    """A statement line found in no table's cell either, which the statement printed with the year before's value
    only (the year's column blank): said so, with its page — the same decline as blank_line's."""
    ans = s.source("kind")
    if ans.answered:
        return None
    router, u = s.router, s.u
    store = router.source.store
    rep = router.values.report(u)[0]
    rid = store.report_id(rep.key) if rep is not None else None
    if rid is None:
        return None
    for item in u.items:
        if router.values.info(item).statement not in STATEMENT_NAMES or store.report_facts(rid, [item], "current"):
            continue
        before = [f for f in store.report_facts(rid, [item], "previous") if f.statement in STATEMENT_NAMES]
        if before:
            return _blank_declined(s, item, before[0])
    return None


def unaccounted(s: AskState, ans: Answer) -> Answer | None:
    """The decline of a company's own value (a statement line, a formula, a change) answering a question that
    says more than it: a row of the report's tables named by words no slot used (库存商品 in "存货中库存商品的账面
    余额": answer/anchors.py), or a word that is no slot, filler or neutral word (positive accounting: "最大的
    客户贡献了多少收入", "股本基数"); None when it accounts for the question."""
    router, u = s.router, s.u
    # (a fact asked of as a name — "离任的总经理是谁" — is as much the company's own value as an amount where a
    # word left changes what is asked: the lexicon's meaning words)
    facts = bool(ans.evidence) and all(isinstance(e, FactEvidence) for e in ans.evidence) and \
        any(w in router.understander.lexicon.rules.meaning for w in u.left)
    if not (ans.answered and ans.method in COMPANY_VALUES and (u.shape == "value" or facts) and u.companies):
        return None
    rep = router.values.report(u)[0]
    topics = (*u.items, *u.item_words.values(), *u.formulas)
    where = router.report_words.named_row(rep.id, u.rest, topics) if rep is not None else None
    if where is not None:
        return declined(u, render(router.t, "report_row", word=where.word, table=where.caption, page=where.page,
                                  understood=understood(u)))
    left = unprinted(u.left, ans)   # (a word its evidence prints is read: 现金红利总额（含税）)
    # (an item's, a name's too — 会计师事务所名称 for "财务审计费用"; a formula alone is named by its own words, and
    # declined for a word that makes it another measure: 摊薄净资产收益率 is not the average equity's — rules/
    # understanding.yaml fuzzy.meaning_words)
    if left and (u.items or u.formulas and any(m in w for w in left for m in router.understander.config.meaning_words)) \
            and not u.model_keywords:
        # (the chat model's keywords name what it read the words as: "搞技术开发的开支" → 研发费用)
        return declined(u, render(router.t, "declined", words=cue_words(left), understood=understood(u)))
    return None


def text_items(router: "Router", u: Understanding) -> bool:
    """Whether every item asked is a text fact (法定代表人, 会计师事务所名称, 审计意见类型), or none is (a
    formula's own words: 资产负债率)."""
    return all(router.values.info(i).kind == "text" for i in u.items)


def row_prints(router: "Router", cell: Answer, words) -> bool:
    """Whether the rows and columns of a cell answer print every one of the words (spelled as the cells spell
    them: 年度报酬 → 报酬)."""
    cells = [e for e in cell.evidence if isinstance(e, CellEvidence)]
    printed = _spelled(router, "|".join(f"{e.row}|{e.column}" for e in cells))
    return bool(cells) and all(_spelled(router, w) in printed for w in words)


def _spelled(router: "Router", text: str) -> str:
    """A text's characters as the cells compare them (年度报酬 → 报酬: their spelling of its words)."""
    return router.cells.spell(content(norm(text)))


def printed_otherwise(s: AskState, ans: Answer) -> Answer | None:
    """The decline of a value worked out of a category the question names by the label its report prints for
    another row (苏常柴 2019's 本科以上, beside 本科, is its 硕士及以上): a lookup reads that row
    (Values.printed_row); a sum, ratio or change of the category would not be of the row the words name."""
    u, router = s.u, s.router
    if not (ans.answered and ans.method != Method.LOOKUP and u.items and u.companies
            and any(router.values.info(i).statement in ("教育程度", "专业构成") for i in u.items)):
        return None
    rep = router.values.report(u)[0]
    said = [u.item_words.get(i) for i in u.items
            if rep is not None and router.values.printed_row(rep, i, u.item_words.get(i)) is not None]
    return s.decline("、".join(w for w in said if w)) if said else None


VETOES: dict[str, Callable[..., Any]] = {
    "every_period_read": every_period_read,
    "list_whole": list_whole,
    "each_read": each_read,
    "blank_line": blank_line,
    "unaccounted": unaccounted,
    "printed_otherwise": printed_otherwise,
}


# ------------------------------------------------------------------------------------------- the routes

def _cell_kinds(s: AskState) -> bool:
    return s.source("cell_kinds")   # type: ignore[no-any-return]   # (decided once per ask: many routes ask it)


def _cell_kinds_now(s: AskState) -> bool:
    return s.kind in CELL_KINDS and s.u.frame.scope != "parent" and not _WHY.search(s.u.norm) \
        and s.source("documented")


def _documented(s: AskState) -> bool:
    """Whether a company the ask names has a filing read from its document — else (imported values only) no
    table, sentence or subsidiary of it can answer, and none is asked; an ask naming none may name a
    subsidiary of any."""
    docs = s.router.source.documented()
    return not s.u.companies or any(c.company.key in docs for c in s.u.companies)


def _not_chinese(s: AskState) -> Answer:
    return Answer(s.u.question, render(s.router.t, "not_chinese"), "1", "bad_input", found=False)


def _no_company(s: AskState) -> Answer:
    # a subsidiary named by its registered name: its item from its parent's report, the parent named
    sub = s.source("subsidiary_named")
    if sub is not None:
        return sub if sub.method != "unread" else declined(s.u, sub.answer)
    # no company named, or only pointed at (这家公司, 该公司: a conversation's first question; not after a name
    # the store lacks: "根据2019年上海家化的年报，请分析该公司…") while a value of an item is asked: which company is
    # asked back
    unnamed = s.u.company_unnamed or _pointed_only(s.u)
    asked = [*s.u.items, *s.u.formulas]
    if unnamed and asked:
        return Answer(s.u.question, render(s.router.t, "ask_company", items="、".join(asked)), s.u.finglm_type(),
                      Method.ASK_WHICH, found=False)
    template = "no_company" if s.u.company_unnamed else "not_found_company"
    return Answer(s.u.question, render(s.router.t, template), s.u.finglm_type(), "not_found", found=False)


def _pointed_only(u: Understanding) -> bool:
    """Whether the question points at a company (这家公司, 该公司) with nothing before it that may name one."""
    m = POINTER.search(u.rest)
    if m is None or u.residue is None:
        return False
    before = phrase_key(u.rest[:m.start()])
    return not before.strip("#") or not u.residue(before)


def _subsidiary(s: AskState) -> Answer | None:
    # a subsidiary named with its parent ("海翔药业子公司台州市前进化工有限公司的净利润"), every subsidiary
    # asked (各主要子公司): its rows; one named whose value is not read guards the parent's own value
    sub = s.source("subsidiary")
    if sub is not None and sub.method == "unread":
        s.guards.append(sub)
        return None
    if sub is not None and (not sub.answered or s.review(sub) is None):
        return sub
    return None


def _frames(s: AskState) -> Answer | None:
    # an operation over a table's rows (an ask of a compound question): the frames', when they account for it
    query = s.source("frames")
    return query if query is not None and s.review(query) is None and of_the_periods(s, query) else None


def of_the_periods(s: AskState, query: Answer) -> bool:
    """A frame's answer read from cells (an aging row, a group's total) meets the periods asked as the cells' do
    (every_period_read: 期初 is no 期末账面余额 column)."""
    return not any(isinstance(e, CellEvidence) for e in query.evidence) or VETOES["every_period_read"](s, query)


def _series_asked(s: AskState) -> bool:
    u = s.u
    return (s.kind in SERIES_KINDS or (s.kind == "compare" and bool(u.frame.trend))) and bool(u.items or u.formulas) \
        and u.shape != "yes_no" and not (u.items and text_items(s.router, u))


def _series(s: AskState) -> Answer | None:
    # 近三年的营业收入, 2017—2019年净利润的变化趋势: the item's series, from the statements and summary tables of
    # the company's reports — never one table's row of numbers, nor one year's value
    if _series_asked(s):
        ans = s.source("series")
        return VETOES["unaccounted"](s, ans) or ans
    series = s.u.frame.series or {}
    if series.get("kind") != "range":
        # 近三年 / 历年 on a path that reads no series (a ranking, a text fact): not one year's answer
        return s.decline(series.get("word", ""))
    return None   # (years written out as a range: the question's own path reads them, as any years listed)


def _cells_eligible(s: AskState) -> bool:
    return _cell_kinds(s) and s.u.shape != "yes_no"


def _blank(s: AskState) -> Answer | None:
    # a statement line's other column: the year's blank line is never the year before's number
    cell = s.cell
    return VETOES["blank_line"](s, cell) if cell is not None else None


def _frames_printed(s: AskState) -> Answer | None:
    # a row the cells did not read, as the frames read it (an alias, a section, a total)
    if s.cell is not None or not s.source("cued"):
        return None
    query = s.source("frames_printed")
    return query if query is not None and s.review(query) is None and of_the_periods(s, query) else None


def _entity(s: AskState) -> Answer | None:
    # a row the items do not explain (罐式集装箱 in "罐式集装箱业务营业收入"): its cells, or a decline naming
    # it — never the company's total
    _, entity = s.source("cells")
    if not entity:
        return None
    return s.cell or s.decline(entity)


def _name_row(s: AskState) -> Answer | None:
    # a name's item answering a question that says more than it (审计机构的年度报酬: 会计师事务所名称), a row
    # printing those words (境内会计师事务所报酬): the row's cells, not the firm's name — and where the question
    # lists those words beside the name ("会计师事务所名称和报酬") and no row prints them, the name with those words
    # said unanswered
    u, cell = s.u, s.cell
    if not u.left or not u.items or not text_items(s.router, u):
        return None
    ans = s.source("kind")
    listed = [w for w in u.left if re.search(r"[和及与、]\s*" + re.escape(w), u.norm)]
    if ans.answered and listed and len(listed) == len(u.left) and (
            cell is None or not cell.answered or not row_prints(s.router, cell, listed)):
        # (another thing listed beside the name that nothing here answers: the name, the rest said unanswered —
        # never dropped as if the evidence's printing it answered it)
        return Answer(u.question, ans.answer.rstrip() + render(s.router.t, "listed_unanswered", words=cue_words(listed)),
                      ans.type, ans.method, list(ans.evidence), found=ans.found, partial=[*ans.partial, *listed],
                      shown=ans.shown)
    if cell is None or not cell.answered:
        return None
    if ans.answered and unprinted(u.left, ans) and row_prints(s.router, cell, u.left):
        return cell
    return None


def _accounted(s: AskState) -> Answer | None:
    # a company's value for a question naming more than it (a row of its tables, a word nothing reads):
    # declined — the row's cells, when they named it, answered above (an entity), or here (a column naming
    # it: 营业收入 | 南区 of a segment table)
    u, cell = s.u, s.cell
    refused = VETOES["unaccounted"](s, s.source("kind"))
    if refused is None:
        return None
    cells = [e for e in (cell.evidence if cell is not None else []) if isinstance(e, CellEvidence)]
    if cell is not None and cells and u.left and all(any(content(w) in content(f"{e.row}{e.column}")
                                                             or w in e.table and _looked_in(w, u.norm)
                                                         for e in cells) or looks_in(w) for w in u.left):
        # (a row's name compared as printed, its punctuation aside: “工资、奖金、津贴和补贴” read as 工资奖金津贴和补贴)
        return cell   # (… or its table's headings — "主要会计数据中" —, and the words saying where it looks: "管理费用
        # 明细里" of the row 研发费用 under 管理费用)
    return refused


def _looked_in(word: str, question: str) -> bool:
    """Whether the question names the word as where it looks ("主要会计数据中", "年报的…里")."""
    at = question.find(word)
    return at >= 0 and bool(_WHERE_AFTER.match(question, at + len(word)))


_WHERE_AFTER = re.compile(r"[\u4e00-\u9fff]{0,4}?(?:中|里|当中|之中|项下)")


def _cell_over_kind(s: AskState) -> Answer | None:
    # the row's cells where the type's answerer found nothing, quoted text (a text item's passage: the row
    # "现金分红金额（含税，人民币百万元）" of a table, not a sentence listing three years), or computed a share ad hoc (a share
    # the report prints — "现金分红金额占…净利润的比率 37.85%" — is read, not computed)
    cell, ans, u = s.cell, s.source("kind"), s.u
    if cell is not None and (not ans.found or ans.method.startswith("text")
                             or (ans.method == "formula" and not u.formulas and u.frame.operation == "share")):
        return cell
    return None


def _printed(value: str) -> tuple[Decimal, Decimal] | None:
    """An evidence's value as printed ("7,693,417千元", "7,693,418,000.00元"): in 元, the 元 of one unit of its
    last printed digit (1,000 for 千元 printed whole, 0.01 for 元.00)."""
    m = _PRINTED.fullmatch(value.replace(",", "").strip())
    if m is None:
        return None
    unit = m.group(2) or "元"
    places = len(m.group(1).partition(".")[2])
    return to_yuan(Decimal(m.group(1)), unit), to_yuan(Decimal(1).scaleb(-places), unit)


_PRINTED = re.compile(r"(-?\d+(?:\.\d+)?)((?:千|万|百万|亿)?元)?")


def _printed_total(s: AskState) -> Answer | None:
    # a compound item computed from the statements (非经常性损益 = 归母净利润 − 扣非净利润) that the report
    # prints as a table's total too: the printed total, cited where it stands, when it is the computed value
    # within the rounding of its unit (7,693,417千元 against 7,693,418,000元) — never a total that is not
    cell, ans = s.cell, s.source("kind")
    if cell is None or not ans.answered or len(ans.evidence) != 1:
        return None
    e = ans.evidence[0]
    cells = [c for c in cell.evidence if isinstance(c, CellEvidence)]
    if not isinstance(e, FactEvidence) or e.item not in s.router.values.formulas.derived \
            or s.router.values.info(e.item).statement != "组合项目" or len(cells) != 1:
        return None
    computed, printed = _printed(e.value), _printed(cells[0].value)
    if computed is None or printed is None:
        return None
    return cell if abs(computed[0] - printed[0]) <= max(computed[1], printed[1]) else None


def _stated_asked(s: AskState) -> bool:
    u = s.u
    # (a sentence states a value, never the change or ratio asked of it: "净利润同比增长率" is no "净利润2,616.02万元")
    if not (s.kind in CELL_KINDS and u.shape == "value" and u.frame.scope != "parent" and u.frame.period != "opening"
            and u.frame.operation == "value" and s.source("documented")):
        return False
    ans = s.source("kind")
    return not ans.answered or (s.kind == "text" and ans.method.startswith("text"))


def _stated(s: AskState) -> Answer | None:
    # a value no fact or cell holds, stated in a sentence ("注册资本为10,000万元"): the value first, the
    # sentence quoted (an opening balance is read from a statement or a table's opening column, never from a
    # sentence: "2018年营业收入123,053.72万元" is no 年初 of 2019); one sentence's value answers no 各子公司
    stated = s.source("stated")
    if stated is not None and not s.source("asks_each"):
        return stated
    ans, u = s.source("kind"), s.u
    if ans.answered and ans.method.startswith("text") and not s.router.cells.unused_held(
            u, pairs(content(norm(ans.answer))), ("entity",)):
        # a value asked of another organisation ("香港中央结算有限公司的持股比例") that the quoted rows do not
        # name: their numbers are someone else's
        return s.decline(cue_words(w for k, w in u.frame.unused if k == "entity"))
    return None


# a rank position asked (第二大, 第3名): a passage answering the question prints it, or it answers another one
_RANK_POSITION = re.compile(r"第[一二三四五六七八九十两\d]+")


def _rank_unprinted(s: AskState) -> Answer | None:
    """The decline of a passage answering a rank no slot read ("第二大股东是哪家" by a heading of the 第一大股东's
    pledges): a rank position left unused that the passage does not print names another row than the one
    asked."""
    ans = s.source("kind")
    if not (ans.answered and ans.method.startswith("text")):
        return None
    words = [w for k, w in s.u.frame.unused if k == "comparison" and _RANK_POSITION.search(w)]
    printed = content(norm(_evidence_text(ans) + ans.answer))
    left = [w for w in words if content(norm(w)) not in printed]
    return s.decline(cue_words(left)) if left else None


def _distribution(s: AskState) -> Answer | None:
    # the plan's figures (answer/distribution.py) and, where its key disclosures hold no cash total, the total
    # the report prints in its table of the plan ("现金分红金额（含税） 22,385,229.00"), read as its own ask
    ans = s.source("kind")
    if not ans.answered or any(isinstance(e, FactEvidence) and e.item == DISTRIBUTION_TOTAL for e in ans.evidence):
        return ans
    u = s.u
    if not u.companies or u.years.asked is None or "。原文" not in ans.answer:
        return ans
    _, total = s.router.answer_one(f"{u.companies[0].text}{u.years.asked}年{_TOTAL_ASK}")
    values = [e for e in total.evidence if isinstance(e, (CellEvidence, FactEvidence))]
    if not total.answered or total.method not in (*TABLE_METHODS, "lookup") or len(values) != 1 \
            or re.search(r"[0-9][,.0-9]*\s*(?:千|万|百万|亿)?元$", values[0].value) is None:
        return ans   # (a figure without its unit — 9,326 of a row saying 人民币百万元 — is left out)
    said = render(s.router.t, "distribution_total", value=values[0].value)
    out = copy.copy(ans)   # (the same answer otherwise: found, partial …)
    out.answer = ans.answer.replace("。原文", f"；{said}（{_where(values[0])}）。原文", 1)
    out.evidence = [*ans.evidence, values[0]]
    return out


# the plan's cash total asked on its own (a distribution answer whose disclosures hold none)
_TOTAL_ASK = "现金分红金额（含税）是多少？"


def _where(e: CellEvidence | FactEvidence) -> str:
    return f"第{e.page}页" if e.page else "年报"


@dataclass(frozen=True)
class Route:
    name: str
    when: Callable[[AskState], bool]
    take: Callable[[AskState], Answer | None]


# the routes, in the order they are tried
ROUTES: tuple[Route, ...] = (
    Route("not_chinese", lambda s: not s.u.chinese, _not_chinese),
    Route("no_company", lambda s: (s.kind not in NO_COMPANY and not s.u.companies) or s.kind == "not_found",
          _no_company),
    Route("subsidiary", _cell_kinds, _subsidiary),
    Route("frames", lambda s: _cell_kinds(s) and s.source("cued"), _frames),
    Route("series", lambda s: s.u.frame.series is not None, _series),
    Route("blank_line", _cells_eligible, _blank),
    Route("frames_printed", _cells_eligible, _frames_printed),
    Route("entity", _cells_eligible, _entity),
    Route("name_row", _cells_eligible, _name_row),
    Route("unaccounted", lambda s: True, _accounted),
    Route("cell_over_kind", _cells_eligible, _cell_over_kind),
    Route("printed_total", _cells_eligible, _printed_total),
    Route("stated", _stated_asked, _stated),
    Route("distribution", lambda s: s.kind == "distribution", _distribution),
    Route("rank_unprinted", lambda s: any(k == "comparison" for k, _ in s.u.frame.unused), _rank_unprinted),
    Route("blank_statement_line", lambda s: s.u.frame.operation == "value" and s.u.frame.period != "opening"
          and bool(s.u.companies), _blank_statement_line),
    Route("kind", lambda s: True, lambda s: s.source("kind")),
)


def route(router: "Router", u: Understanding) -> Answer:
    """The answer of one ask: the first route that answers it; a subsidiary named whose value nothing read
    ("海翔药业2019年台州前进的营业收入") never gets the parent's own value in its place."""
    s = AskState(router, u)
    ans = next(a for a in (r.take(s) if r.when(s) else None for r in ROUTES) if a is not None)
    if s.guards and ans.answered and ans.method in COMPANY_VALUES:
        return declined(u, s.guards[0].answer)
    return VETOES["printed_otherwise"](s, ans) or ans
