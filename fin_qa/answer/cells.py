"""Table questions answered from cells (evidence kind `cell`): a question that names a row of one of the
report's tables (its label — 罐式集装箱, 前五名客户合计销售金额, a shareholder's or a subsidiary's name — its
rank: 第一大客户, its year in a table of years) and/or its columns (营业收入, 毛利率, 持股比例) gets the cells
named, each with its row, column, unit and page.

Every comparison is over content characters (no 的, punctuation or spaces) spelled one way
(keyword_tables/cells.yaml question_words, applied alike to questions, labels and headers):

1. The question is cut into its asks: "前五名客户合计销售金额是多少？占年度销售总额的比例是多少？" has two,
   "持股比例和持股数量" two, "每10股派多少现金" one (an ask word inside a phrase joins it). The company
   and the year are masked.
2. The report's tables are searched (tables_fts: heading path, caption, header and cell words); statements
   and 释义 tables are skipped (the statements are the lookup's).
3. A row is named by a text cell of it:
   - held whole by the question — a name (…公司) only so, a label of 2–7 characters only with question
     words in its table's title or header besides it (境外 in a table 分地区);
   - a label of 5+ characters (not a name) whose characters the question's character pairs cover for
     75% or more, its head (two of its last three characters: 比例, 基数, 派息) among them;
   - its rank (第一大客户, 第3名 in a table ranked 序号/前N), a total row (合计) in a table whose title
     the question names (非经常性损益合计), or its year in a table whose rows are years (近三年现金分红).
4. Each ask takes the named row whose label covers most of it (an ask naming no row keeps the row of
   the ask before it). What the label leaves of the ask, less the neutral words (periods, units, the
   company, 实现/贡献 …), names the columns whose headers hold it (several when each holds a part of it:
   "营业收入毛利率"); a tie goes to the header that also holds the ask before it ("营业收入…较上年增减":
   the revenue's change column); another year's column only when the question names that year or
   period. Nothing left, or only the title's words: the row's one value column, else the report year's,
   else the whole row.
5. A table answers only when every ask is explained — 75% of its characters held by the row's label,
   the columns' headers, the table's title and unit (a share's implied denominator counts too:
   "研发人员数量占比" answers "…占员工总数的比例", "研发投入占营业收入比例" does not answer "…占营业成本
   的比例"). Tables rank by how strongly their rows are named, then how much of the asks the labels
   hold, then how well the asks are explained, then the question's words in their titles.

A row named by a label the question's items do not explain (罐式集装箱 in "罐式集装箱业务营业收入") is an
`entity`: the router then never answers with the company's total, it answers the cell or declines.
"""
from __future__ import annotations

import math
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import AbstractSet, NamedTuple

from .. import prefilter
from ..bigrams import tokens
from ..catalog.cells import CellWords
from ..numbers import UNIT_FACTORS, parse_number, to_yuan
from ..store import Report
from ..store.models import TableRecord
from ..understand.question import Understanding
from .compose import format_scaled, render
from .model import Answer, CellEvidence
from .tables import CACHED, CHANGE_COLUMN, CUT_NUMBER, LAYOUT_VERBS, UNIT_LINE, Tables, content, core, cover, \
    is_number, norm, pairs, search_tokens, table_where, unit_of
from .values import Values

_REPORT_YEAR = re.compile(r"((?:19|20)\d\d)年?(?:年度)?(?:年报|年度报告|报告)")
_DATA_YEAR = re.compile(r"((?:19|20)\d\d)(?:年度|年)(?!年报|年度报告|报|度报告)")
# "前十名股东中", "前5大客户里", "管理费用明细里", "短期薪酬项下": where the question looks
_TOPIC = re.compile(r"(?:明细表?(?:中|里)?|当中|之中|之内|项下|中|里)$")
_LOOKS_IN = re.compile(r"(?:明细)?(?:当中|之中|之内|中|里|项下)")   # … and before the row it looks for


_BY_DIMENSION = re.compile(rf"按照?[\u4e00-\u9fff]{{1,6}}?(?:{LAYOUT_VERBS})")
_PARENT_NOTES = re.compile(r"母公司(?:财务)?报表(?:主要|重要)?项目(?:的)?(?:注释|附注)|公司财务报表主要项目注释")
_BY_DIMENSION_END = re.compile(_BY_DIMENSION.pattern + "$")   # (an ask of these words alone: where it looks)


def looks_in(word: str) -> bool:
    """Whether a word left over only says where the question looks (明细里, 项下, 中): a cell's table topic."""
    return bool(_TOPIC.fullmatch(word))
_RANK_WORDS = {"最多", "最大", "最高", "排名", "排第", "第1"}
_ORDINAL = re.compile(r"第(\d{1,2})(?:大|名|位|的|家|个)|排名?第(\d{1,2})|(最大)")
DEBUG = bool(os.environ.get("FIN_QA_DEBUG_CELLS"))
# a row of the opening balance (期初余额, 年初数) and the words asking one
_OPENING_ROW = re.compile(r"(?:期初|年初|上年末|上年年末|上期末)")
_OPENING_ASKED = re.compile(r"期初|年初|上年|上期|去年|初始|开始")
_CLOSING_ASKED = re.compile(r"期末|(?<![上去前])年末|年底|末数")
_OPENING_IN_A_NAME = re.compile(r"(?:期初|年初)至")
# a table's unit line saying percent, printed in a header cell
_PERCENT_UNIT = re.compile(r"单位\s*[:：]\s*%")
# a column of a share (占营业收入比重, 占比, 比例(%)): never a group's amount
_SHARE_HEAD = re.compile(r"占|比重|比例|%")


def _printed_years_alike(t: TableRecord, cols: list[int]) -> bool:
    """Whether the columns' headers print the same year (the columns of one year's group)."""
    years = {tuple(_YEAR.findall(core(t.header[k]))) if k < len(t.header) else () for k in cols}
    return len(years) == 1 and years != {()}


# a column of one quarter (分季度主要财务指标: 第一季度 … 第四季度 (10-12月))
_QUARTER_HEAD = re.compile(r"第[1-4一二三四]季度?|[1-4一二三四]季度")
# what joins two asks of one clause ("第三季度营业收入和归母净利润": the column's word said once, before both)
_JOINED = re.compile(r"[和及与、跟]|以及")
# a quarter asked up to its end, or added up from the year's start: no 分季度 column's value
_QUARTER_SPAN = re.compile(r"季度?末|季度?底|截至|截止|累计|年初至|前\d季|1[-—–~至到][3-9]月")


@lru_cache(maxsize=64)
def _ranked_ask(group: str) -> re.Pattern:
    """A group asked by its rank or as a list, its rank or list word beside it (前5名供应商, 第1大客户 as norm
    spells them, 主要供应商, 供应商前5名, 供应商有哪些) — not the word inside an item (归属于上市公司股东的净利润)."""
    g = re.escape(group)
    return re.compile(rf"(?:前\d{{1,2}}|第\d{{1,2}})[名大位家个]?的?{g}|(?:最大|主要)的?{g}|"
                      rf"{g}(?:中|里)?(?:前\d{{1,2}}|第\d{{1,2}}|都是谁|有哪些|是谁|名单|排名|最大)")
# (总额 / 总和 only where the ask ends: 年度采购总额 of "占年度采购总额比例" names a column, not a total row)
_NEGATION = ("非", "除")   # one-character words that turn what follows into its complement
_BRACKETED = re.compile(r"[(（]\s*(\d[\d,]*(?:\.\d+)?)\s*[)）]")
_TOPIC_TOTAL = re.compile(r"([\u4e00-\u9fff]{4,12}?)(合计|总计|(?:总额|总和)(?=$|[和及与、]))")
_LIST = re.compile(r"都是谁|是哪些|有哪些|哪几|都有谁|分别是谁|各是多少|名单|列出|列举|每一?家")
# a table split by one dimension (its first column named 分行业, 分产品, 分地区, 按销售模式) and the dimension a
# question names (分地区的营业收入): the words after 分/按 (not 分别, 分红, 分配, …)
# (the dimensions of keyword_tables/frames.yaml `sections`, said after 分 or 按)
_DIMENSION = re.compile(r"[分按](行业|产品|业务|地区|区域|销售模式|渠道|模式)")
_PARENTHESIS = re.compile(r"[(（]([^()（）]+)[)）]")
LINE_OF_BUSINESS = re.compile(r"业务|板块")   # after a row's label: that row as a line of business
_LIST_WORDS = re.compile(r"(?:都|分别|各)?(?:是|有|为)?(?:哪几家|哪几个|哪几位|哪几|哪些|哪家|谁)|名单|列出|列举|各是多少|分别是多少|分别为多少")
_RATE = re.compile(r"(?:率|比例|比重|占比)$")
# where asks part: punctuation, the '|' of a masked company/year or an ask word, conjunctions
_ASKS = re.compile(r"[|,，、;；?？。:：!！]|以及|并且|还有|和|及|与|分别|各")
_JOINING = re.compile(r"[和及与、]")
_QUOTED = re.compile(r"[“「\"]([^”」\"]{2,40})[”」\"]")
_CLAUSE_END = re.compile(r"[|,，、;；?？。:：!！]|$")
_YEAR = re.compile(r"(20\d\d|19\d\d)\s*年?")
_YEAR_LABEL = re.compile(r"^(20\d\d|19\d\d)年?度?$")
_SHARE = re.compile(r"占(.{1,16}?)比例")
MAX_TABLES = 40
TOPIC_HELD = 0.6       # of a topic phrase ("…中") the table's title holds
COVER = 0.75           # share of a label's characters the question's pairs must cover (fuzzy naming) …
FUZZY_CHARS = 8        # … a label of this many characters or more (a shorter one is named but for its last
                       # character: 营业总收入 is not 营业收入)
EXPLAINED = 0.75       # share of an ask's characters its cells (label, headers, title) must hold
MAX_ROWS = 12          # a list answer gives at most this many rows
MAX_COLUMNS = 4        # columns one ask may name

_TAKEN = re.compile(r"\x00+")


def _runs(text: str, taken: list[bool]) -> list[str]:
    """The runs of characters not taken."""
    return [r for r in _TAKEN.split("".join("\x00" if t else ch for ch, t in zip(text, taken))) if r]


class When(NamedTuple):
    """The years a question asks values of, and the year of the report read."""
    years: tuple[int, ...]
    report: int


@dataclass
class Named:
    """A row named by the question: the label naming it (content), how strongly, and the words of the
    question it accounts for (its label, or a rank/total phrase)."""
    label: str
    strength: int           # 3 a whole label of 6+ characters, 2 whole (or rank/total/year), 1 covered
    words: set[str]         # character pairs an ask may spend on this row
    shown: str = ""         # the cell naming it, as printed


RowName_NONE, RowName_TAIL, RowName_WHOLE = 0, 1, 2


class _RowName(NamedTuple):
    """A label cell of a table and what it can name, worked out once (CellAnswerer._row_names)."""
    row: int
    numbered: bool           # its row holds a number
    cell: str                # as printed
    label: str               # its words as compared (label_text)
    base: str                # without a value word (研发人员数量 → 研发人员)
    joined_shown: str        # the cell above and this one, printed (a name over two rows)
    joined: str              # their words together, 6+ characters; "" when no such pair
    name: int                # RowName_TAIL: a wrapped name's last line; RowName_WHOLE: named whole only
    whole: str               # its words with their brackets (a name)
    fuzzy: bool              # it may be named approximately (4+ characters, not a name)
    neutral: tuple[bool, ...]   # its base's characters that are neutral words
    pairs: frozenset[str]    # its base's character pairs
    neutral_ok: bool         # its neutral words alone would cover it
    floor: int               # the fewest of its pairs a question must hold to cover enough of it (each
                             # covers two characters at most, its neutral words the rest: _fuzzy_floor)
    keys: frozenset[str]     # the pairs a question must hold one of to name it (_Prepared.by_pair)
    of_whole: str = ""       # a "其中" item's words before those of the row it is part of (个人定期存款: _whole_of)
    of_whole_shown: str = ""   # the two as printed (定期存款—个人)


class _Asked(NamedTuple):
    """A question as the tables of its report are looked at, worked out once (CellAnswerer.match)."""
    qc: str                                              # its content, company and year masked
    qc_raw: str                                          # unmasked
    both: set[str]                                       # the pairs of qc and qc_raw
    qp: set[str]                                         # qc's
    fuzzy: dict[tuple[str, tuple[bool, ...]], bool]      # an approximate name's base, neutral marks → named
    name_asked: bool                                     # a name asked (是谁, 哪家 …)
    listed: bool                                         # a list asked (_LIST)
    special: bool                                        # a rank or a topic's total named (_special_rows)
    groups: frozenset[str] = frozenset()                 # the groups asked by rank or as a list (_other_group)


class _LabelName(NamedTuple):
    """What a label cell's text can name wherever it is printed: the parts of a _RowName that are its
    text's own (CellAnswerer._cell_name)."""
    label: str
    name: int
    whole: str
    base: str
    fuzzy: bool
    neutral: tuple[bool, ...]
    pairs: frozenset[str]
    neutral_ok: bool
    floor: int
    keys: frozenset[str]     # its whole's and label's first pairs and its pairs (_RowName.keys without joined)


class _Prepared(NamedTuple):
    """A table's words as questions are matched against them, worked out once per table."""
    table: TableRecord
    names: list[_RowName]             # its label cells, in reading order
    title: str                        # its own title (caption and section), spelled one way
    context: str                      # its section, caption and header, normalised
    title_pairs: frozenset[str]
    ctx_pairs: frozenset[str]
    labelled: list[tuple[int, str]]   # rows labelled by a year (a table of years)
    by_pair: dict[str, list[int]]     # a character pair → the names (indexes) a question holding it may name
    always: list[int]                 # the names its neutral words alone may name
    # worked out when a question first needs them (_pick): a row's own words (row → their pairs and
    # characters), a header's (column → its label's pairs)
    row_words: dict[int, tuple[frozenset[str], frozenset[str]]]
    head_pairs: dict[int, frozenset[str]]
    # the heading above its own ("39、应付职工薪酬" over "(2).短期薪酬列示"): where a question says it looks
    # ("应付职工薪酬中，短期薪酬项下…"), never a row's or a column's words
    parent_pairs: frozenset[str] = frozenset()
    wholes: dict[int, int] = {}       # a "其中" part's row → its whole's (_whole_of), worked out once


def _fuzzy_floor(base: str, neutral: tuple[bool, ...]) -> int:
    """The fewest distinct pairs of `base` a question must hold for _fuzzy_ok to pass: the characters it
    needs covered, less its neutral ones, two per pair at most (a pair printed twice covers twice)."""
    n = len(base)
    needed = math.ceil(COVER * n) if n >= FUZZY_CHARS else n - 1
    repeated = (n - 1) - len(pairs(base))
    return max(0, math.ceil((needed - sum(neutral)) / 2) - repeated)


def _swapped(label: str, base: str, qc: str) -> bool:
    """Whether the question writes the label with another character in place of its base's last one, its value
    words after it ("普通股股东总数" for the label 普通股股份总数: 股东, not 股份) — another thing, never the label
    named approximately (its base's last character is let go only for an ask cut short: "每10股派" of 每10股派息)."""
    tail = label[len(base):] if label.startswith(base) and len(base) >= 2 else ""
    if not tail:
        return False
    head, last = base[:-1], base[-1]
    at = qc.find(head)
    while at >= 0:
        j = at + len(head)
        if j < len(qc) and qc[j] != last and qc.startswith(tail, j + 1):
            return True
        at = qc.find(head, at + 1)
    return False


def _fuzzy_ok(marks: list[bool]) -> bool:
    """A label (its base) named approximately: COVER of a long one's characters, the last but one of a
    short one's, covered by the question's pairs or neutral words."""
    if len(marks) >= FUZZY_CHARS:
        return sum(marks) >= COVER * len(marks) and sum(marks[-3:]) >= 2
    return all(marks[:-1])   # a short label: all of it but its last character (每10股派息 for "每10股派")


@dataclass
class Pick:
    ask: str
    row: int
    columns: list[int]
    explained: float
    label_chars: int
    named: bool = False      # its columns named by the ask's words (not the row's default ones)
    row_only: bool = False   # the ask is the row's name and nothing more
    own: int = 0             # the ask's characters the row's own words hold (销售量 of 柴油机 | 销售量)


@dataclass
class CellMatch:
    table: TableRecord
    rows: list[int]                  # body row indexes, in order
    label: str                       # the longest row label the question named ("" for a rank)
    columns: dict[int, list[int]]    # row → its columns
    whole_row: bool = False
    entity: bool = False
    score: tuple = ()
    listed: bool = False             # a list asked: the table's rows
    picks: list[Pick] = field(default_factory=list)
    named: set[str] = field(default_factory=set)   # the character pairs naming its rows (a rank: 第1大客户)
    shown: dict[int, str] = field(default_factory=dict)   # a row's name as printed (a wrapped one joined)


class CellAnswerer:
    def __init__(self, values: Values, words: CellWords, tables: Tables | None = None,
                 unit_said: re.Pattern | None = None):
        self.v = values
        # the words saying the unit an amount is asked in ("用亿元表示", "以万元为单位": rules/understanding.yaml
        # frame.unit_more): the frame's, no ask of a cell's
        self._unit_said = unit_said
        self.t = values.t
        self.w = words
        # the tables as every reader reads them (answer/tables.py): one search, one preparation, one cache
        self.tables = tables if tables is not None else Tables(lambda: values.source.store, words)
        self.tables.register("cells", self._prepare)
        self.spell = self.tables.spell
        self.label_text = self.tables.label_text
        asks = sorted(words.ask_words, key=len, reverse=True)
        self._ask_rx = re.compile("|".join(re.escape(w) for w in asks)) if asks else None
        self._neutral = tuple(sorted(words.neutral_words, key=len, reverse=True))
        # (any of the named kinds in an ask: one search, most asks holding none)
        self._named_rx = re.compile("|".join(map(re.escape, words.named_words))) if words.named_words else None
        self._marks_made: dict[tuple[str, tuple[str, ...]], list[bool]] = {}
        self._word_heads: dict[tuple[str, ...], dict[str, list[int]]] = {}   # words → first character → indexes
        self._periods: dict[tuple[str, str, When], bool] = {}   # (header, question, years) → another period's
        self._cell_names: dict[str, _LabelName | None] = {}   # a label cell's text → what it can name
        self._bases: dict[tuple[str, int, bool], str] = {}       # _base's answers (labels and asks repeat)
        self._where_of: dict[str, tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]] = {}   # _where_spans

    # --------------------------------------------------------------------------- words

    def question_text(self, u: Understanding, masked: bool = True, spelled: bool = True) -> str:
        """The question's words as rows are matched: normalised, spelled one way (unless not `spelled`: as
        sentences are read), the company and year masked ('|'); an ask word ("是多少") at a clause's end
        cuts it ('|'), inside a phrase it is dropped ("每10股派多少现金" → 每10股派现金)."""
        spell = self.spell if spelled else (lambda x: x)
        q = spell(norm(_unmask_names(u.norm, u.masked or u.norm).replace("#", "|") if masked else u.norm)
                  .replace("的", ""))
        q = re.sub(r"(?<=\|)度", "", q)   # the 度 of a masked "2019年度"
        if self._unit_said is not None and masked:
            q = prefilter.sub(self._unit_said, "|", q).replace("|为单位", "|")
        if self._ask_rx is not None:
            rx = self._ask_rx

            def sub(m: re.Match) -> str:
                rest = q[m.end():]
                return "|" if _CLAUSE_END.match(rest) or rx.match(rest) else ""
            q = rx.sub(sub, q)
        return spell(q)

    def _items_named(self, u: Understanding, q: str) -> str:
        """The question's words as the cells read them (question_text), each item's words replaced by the item's
        own name where they differ."""
        for k in u.keywords:
            if k.kind != "item":
                continue
            said, name = self.spell(norm(k.text).replace("的", "")), self.spell(norm(k.name).replace("的", ""))
            if said and said != name and said in q:
                q = q.replace(said, name, 1)
        return q

    def asks(self, q: str, whole: list[str] | tuple[str, ...] = ()) -> list[str]:
        """The asks of the question's words: parted at punctuation and conjunctions, never inside quotes (“工资、
        奖金、津贴和补贴” names one row) nor inside the names `whole` (an item's: 营业税金及附加)."""
        for w in whole:
            q = q.replace(w, f"“{w}”")
        parts = [""]
        for k, piece in enumerate(_QUOTED.split(q)):
            if k % 2:
                parts[-1] += piece
                continue
            split = _ASKS.split(piece)
            parts[-1] += split[0]
            parts += split[1:]
        out: list[str] = []
        for part in parts:
            c = content(part)
            if len(c) >= 2 and c not in out:
                out.append(c)
        return out

    def neutral_marks(self, ask: str) -> list[bool]:
        marks = self._marks(ask, self._neutral)
        if self._named_rx is not None and self._named_rx.search(ask):
            for w in self.w.named_words:
                # "公司贷款余额": a bank's kind of loan, its 公司 no company's (rules/lexicon.yaml table_named)
                at = ask.find(w)
                while at >= 0:
                    marks[at:at + len(w)] = [False] * len(w)
                    at = ask.find(w, at + len(w))
        return marks

    def _item_pairs(self, u: Understanding) -> set[str]:
        """The character pairs of the question's items (its keywords and generalized words)."""
        spans = [_bare(k.text) for k in u.keywords] + [_bare(g.residue) for g in u.generalized]
        return set().union(*(pairs(content(self.spell(s))) for s in spans if s))

    # --------------------------------------------------------------------------- rows

    def _prepared(self, t: TableRecord) -> _Prepared:
        return self.tables.prepared(t, "cells")   # type: ignore[no-any-return]   # (what _prepare made)

    def _prepare(self, t: TableRecord) -> _Prepared:
        """The table's words as questions are matched against them (made once per table: Tables.prepared)."""
        # the table's own title: its caption and section (not the sections above: "2、收入与成本" says
        # nothing of a table of costs)
        title = content(self.spell(content(norm(" ".join(t.path[-1:]) + t.caption))))
        context = norm(" ".join(t.path[-1:]) + t.caption + "".join(t.header))
        labelled = [(i, m.group(1)) for i, row in enumerate(t.rows) if row
                    for m in [_YEAR_LABEL.match(content(norm(row[0])))] if m]
        # (the rows of a "其中" run only: most tables print none)
        opens = [i for i, row in enumerate(t.rows) if row and row[0] and "其中" in row[0]]
        wholes = {i: w for i in sorted({i for o in opens for i in range(o, min(o + PARTS_AT_MOST, len(t.rows)))})
                  for w in [_whole_of(t, i)] if w is not None}
        names = self._row_names(t, wholes)
        by_pair: dict[str, list[int]] = {}
        for n, x in enumerate(names):
            for key in x.keys:
                by_pair.setdefault(key, []).append(n)
        return _Prepared(t, names, title, context, frozenset(pairs(title)), frozenset(search_tokens(context)),
                         labelled, by_pair, [n for n, x in enumerate(names) if x.neutral_ok], {}, {},
                         frozenset(pairs(content(self.spell(content(norm(t.path[-2])))))) if len(t.path) >= 2 else frozenset(),
                         wholes)

    def _row_names(self, t: TableRecord, wholes: dict[int, int]) -> list[_RowName]:
        """What every label cell of the table can name (the question only has to be looked up in them:
        _named_rows)."""
        out: list[_RowName] = []
        numbered = [any(is_number(x) for x in row) for row in t.rows]
        for i, row in enumerate(t.rows):
            for k, cell in enumerate(row):
                if not cell or is_number(cell):
                    continue
                own = self._cell_name(cell)
                if own is None:
                    continue   # 合计 names a row only inside its table's title (_special_rows)
                c = own.label
                above = t.rows[i - 1][k] if i and k < len(t.rows[i - 1]) else ""
                # a name's two lines on two rows: one of them holds its values, the other none
                joined = self.label_text(above) + c if above and not is_number(above) and (
                    numbered[i] != numbered[i - 1]) else ""
                if len(joined) < 6:
                    joined = ""
                whole = wholes.get(i) if k == 0 else None
                of_whole = c + self.label_text(t.rows[whole][0]) if whole is not None else ""
                keys = own.keys | {joined[:2]} if joined else own.keys
                out.append(_RowName(i, numbered[i], cell, c, own.base, above + cell if joined else "", joined,
                                    own.name, own.whole, own.fuzzy, own.neutral, own.pairs, own.neutral_ok,
                                    own.floor, keys | {of_whole[:2]} if of_whole else keys, of_whole,
                                    f"{t.rows[whole][0]}—{_OF_WHICH.sub('', cell)}" if whole is not None else ""))
        return out

    def _cell_name(self, cell: str) -> _LabelName | None:
        """What a label cell's text can name, wherever it is printed (None: nothing, alone), worked out
        once per text."""
        if cell in self._cell_names:
            return self._cell_names[cell]
        if len(self._cell_names) > CACHED:
            self._cell_names.clear()
        c = self.label_text(cell)
        if len(c) < 2 or core(cell) in self.w.generic_labels:
            self._cell_names[cell] = None
            return None
        name = RowName_NONE
        if _NAME.search(c) and len(_LEGAL.sub("", c)) < 2:
            name = RowName_TAIL   # "份有限公司": the last line of a wrapped name, no name of its own
        whole = content(self.spell(content(norm(cell))))
        if name == RowName_NONE and whole != c and _NAME.search(whole) and len(whole) >= 6:
            name = RowName_WHOLE   # a name with its bracket (香港中央结算（代理人）有限公司) is named whole
        base = self._base(c, 3)
        fuzzy = len(base) >= 4 and not _NAME.search(c)
        neutral = tuple(self._marks(base, self._neutral)) if fuzzy else ()   # (a label: its own words, named or not)
        own = frozenset(pairs(base)) if fuzzy else frozenset()
        # what a question must hold for the name to be named: its first pair (every way of naming it whole:
        # joined — added per row —, whole, label or base, which starts as the label does), or for an
        # approximate name any pair of its base
        keys = frozenset({w[:2] for w in (whole, c) if len(w) >= 2}) | own
        out = _LabelName(c, name, whole, base, fuzzy, neutral, own, fuzzy and _fuzzy_ok(list(neutral)),
                         _fuzzy_floor(base, neutral) if fuzzy else 0, keys)
        self._cell_names[cell] = out
        return out

    def _named_rows(self, prep: _Prepared, asked: _Asked) -> dict[int, Named]:
        """The rows of the table the question names; rows without a number only when a name is asked."""
        found: dict[int, Named] = {}
        # only the names sharing a character pair with the question can be named by it (_Prepared.by_pair),
        # looked at in the table's order
        by_pair = prep.by_pair
        if not prep.always and by_pair.keys().isdisjoint(asked.both):
            return found   # (most tables a question's words rank: none of their names)

        def keep(i: int, n: Named) -> None:
            old = found.get(i)
            if old is None or (n.strength, len(n.label)) > (old.strength, len(old.label)):
                found[i] = n

        rows = prep.table.rows
        names = prep.names
        qc, qc_raw, qp, verdicts, named_asked = asked.qc, asked.qc_raw, asked.qp, asked.fuzzy, asked.name_asked
        chosen = set(prep.always)
        for key in by_pair.keys() & asked.both:
            chosen.update(by_pair[key])
        for x in (names[n] for n in sorted(chosen)):
            if not named_asked and not x.numbered:
                continue   # a row without a number answers no value (a header printed again in the body)
            i, c = x.row, x.label
            if x.joined and (x.joined in qc or x.joined in qc_raw):
                for r in (i - 1, i):
                    if any(is_number(v) for v in rows[r]):
                        keep(r, Named(x.joined, 3, pairs(x.joined), x.joined_shown))
                continue
            if x.of_whole and x.of_whole in qc:
                keep(i, Named(x.of_whole, 3, pairs(x.of_whole), x.of_whole_shown))   # "个人定期存款": 个人 under 定期存款
                continue
            if x.name == RowName_TAIL:
                continue
            if x.name == RowName_WHOLE:
                if x.whole in qc or x.whole in qc_raw:
                    keep(i, Named(x.whole, 3, pairs(x.whole), x.cell))
                continue
            base = x.base
            if c in qc or base in qc or (len(c) >= 6 and c in qc_raw):
                keep(i, Named(c, 3 if len(base) >= 6 else 2, pairs(c), x.cell))
            elif x.fuzzy:
                held = len(x.pairs & qp)
                if not held:
                    ok = x.neutral_ok   # none of its pairs in the question: its neutral words alone decide
                elif held < x.floor:
                    ok = False          # too few of its pairs to cover enough of it
                else:
                    # (the same label in many tables: worked out once per question)
                    known = verdicts.get((base, x.neutral))
                    if known is None:
                        known = verdicts[(base, x.neutral)] = _fuzzy_ok([a or b for a, b in zip(cover(base, qp), x.neutral)])
                    ok = known
                if ok and _swapped(c, base, qc):
                    ok = False
                if ok:
                    keep(i, Named(c, 1, pairs(c), x.cell))
        return found

    @staticmethod
    def _merged_down(t: TableRecord, named: dict[int, Named]) -> None:
        """A label printed once for a group of rows (a merged cell, centred: "柴油机" beside 销售量 | 生产量 |
        库存量) names every row of its group: the rows next to it whose cell in that column is empty and
        that each hold a word and a number of their own in the columns after it."""
        def own(row: list[str], k: int) -> bool:
            return any(c and not is_number(c) for c in row[k + 1:]) and any(is_number(c) for c in row if c)

        for i, n in sorted(named.items(), key=lambda x: -len(x[1].label)):
            row = t.rows[i]
            k = next((k for k, c in enumerate(row) if c and n.shown and c == n.shown), None)
            if k is None or not own(row, k):
                continue
            group = [i]
            for step in (-1, 1):
                j = i + step
                while 0 <= j < len(t.rows) and k < len(t.rows[j]) and not t.rows[j][k] and own(t.rows[j], k):
                    if j in named:   # named by its own word too (销售量): the group's label is its as well
                        named[j].words |= n.words
                    else:
                        named[j] = Named(n.label, n.strength, set(n.words), n.shown)
                    group.append(j)
                    j += step
            if len(group) > 1:
                # each row shown with its own word ("柴油机 销售量"), the group's label alone names none
                shown = n.shown
                for j in group:
                    word = next(c for c in t.rows[j][k + 1:] if c and not is_number(c))
                    named[j].shown = f"{shown} {word}"

    def _base(self, label: str, keep: int = 2, chars: bool = False) -> str:
        """A label without the words saying what kind of value it is (研发人员数量 → 研发人员), when `keep`
        characters or more are left; `chars`: a run of an ask also without a last 额 or 数 (采购额)."""
        key = (label, keep, chars)
        got = self._bases.get(key)
        if got is None:
            got = label
            for suffix in self.w.value_suffixes + (("额", "数") if chars else ()):
                if label.endswith(suffix) and len(label) - len(suffix) >= keep:
                    got = label[:-len(suffix)]
                    break
            if len(self._bases) > CACHED:
                self._bases.clear()
            self._bases[key] = got
        return got

    def _special_rows(self, prep: _Prepared, q: str, asked: _Asked, years: tuple[int, ...]) -> dict[int, Named]:
        """Rows named by rank, as the total of the table's topic, or by a year asked (a table of years)."""
        out: dict[int, Named] = {}
        t, qc, context, labelled = prep.table, asked.qc, prep.context, prep.labelled
        if len(labelled) < 2 and not asked.special:
            return out   # no rank and no total asked, no table of years: nothing to look at
        rank = self._rank_row(t, q, context)
        if rank is not None:
            i, phrase = rank
            label = next((self.label_text(c) for c in t.rows[i] if c and not is_number(c) and len(core(c)) > 1), "")
            # its rank words ("第一大", "持股最多", "排名第一") are the row's
            out[i] = Named(label, 2, pairs(content(phrase)) | pairs(label) | _RANK_WORDS, "")
        total = self._total_of_title(t, qc)
        if total:
            for i, row in enumerate(t.rows):
                if row and core(row[0]) in ("合计", "总计") or (len(row) > 1 and core(row[1]) in ("合计", "总计")
                                                             and not core(row[0])):
                    out.setdefault(i, Named("合计", 2, pairs(total), "合计"))
                    break
        if len(labelled) >= 2:
            for i, y in labelled:
                if int(y) in years:
                    out.setdefault(i, Named(y, 2, set(), t.rows[i][0]))
        return out

    def _total_of_title(self, t: TableRecord, qc: str) -> str:
        """"非经常性损益合计" / "非经常性损益总额": a total row (合计, 总计) the question names together with its
        table's title — the 4+ characters before it are in the caption or section title (九、非经常性损益项目及
        金额); those words with the question's word for the total."""
        m = _TOPIC_TOTAL.search(qc)
        if not m:
            return ""
        title = content(norm(t.caption + "".join(t.path[-1:])))
        words = m.group(1)
        for i in range(len(words) - 3):
            if words[i:] in title:
                return words[i:] + m.group(2)
        return ""

    def _rank_row(self, t: TableRecord, q: str, context: str) -> tuple[int, str] | None:
        m = _ORDINAL.search(q)
        if not m:
            return None
        # 第一大客户 is ranked in a table about 客户 (the noun after the rank, or before it: "客户中排第一")
        after = re.sub(r"^的", "", q[m.end():])[:2]
        before = re.sub(r"[中里的]+$", "", q[:m.start()])[-2:]
        # (in the table's own caption when it has one: "公司前5大客户资料" under the section 主要销售客户和主要
        # 供应商情况 ranks no 供应商)
        caption = norm(t.caption)
        own = len(re.findall(r"[\u4e00-\u9fff]", caption)) >= 4
        where = caption + norm("".join(t.header)) if own else context
        noun = next((w for w in (after, before) if len(w) == 2 and w in where), "")
        if not noun or self.tables.narrower(content(caption if own else norm(" ".join(t.path[-1:]) + t.caption)),
                                            noun, content(q)):
            return None   # (the table ranks a narrower group's rows: 前十名无限售条件股东 for 第三大股东)
        n = int(m.group(1) or m.group(2) or 1)
        phrase = m.group(0) + noun
        body = [i for i, row in enumerate(t.rows) if not any(core(c) in ("合计", "小计", "总计") for c in row)]
        for i, row in enumerate(t.rows):
            first = [core(c) for c in row[:2]]
            if f"第{n}名" in first:
                return i, phrase
            if len(body) < 2:
                continue   # one row numbered 1 ranks nothing (前五名客户中的新增客户 listed alone: 序号 1)
            if str(n) in first[:1] or any(x.endswith(str(n)) and not x.isdigit() and len(x) <= 4 for x in first):
                return i, phrase
        # the n-th row of a table printed ranked: its own caption or header says so (前十名股东, 序号, 股东名称) —
        # never a part of a table the layout broke off under the section's heading (its rows are not the
        # first ones: 贵州茅台 2025's 前十名股东 table printed without lines, in pieces)
        if re.search(r"前\d+|序号|股东名称", norm(t.caption + "".join(t.header))) and len(body) >= 2:
            return (body[n - 1], phrase) if len(body) >= n else None
        return None

    def _listed_rows(self, t: TableRecord, q: str) -> tuple[list[int], float]:
        """A list asked ("前五名供应商都是谁", "前十名股东有哪些", "前五名客户的销售额各是多少"): the rows of the
        table whose caption, header and section hold every ask (its rank held by a table of that many
        ranked rows; list words, neutral words and a topic's 中 asking nothing), its total rows left out;
        the first N rows of a ranked table for "前十名股东中持股最多的前三家"; (rows, how much it holds)."""
        asks = [a for a in self.asks(q) if not all(self.neutral_marks(a))]
        if sum(map(len, asks)) < 3:
            return [], 0.0
        body = [i for i, row in enumerate(t.rows)
                if any(row) and not any(core(c) in self.w.generic_labels for c in row[:2] if c)]
        own = content(self.spell(content(norm(t.caption + "".join(t.header)))))
        title = own + content(self.spell(content(norm("".join(t.path[-1:])))))
        ranks = [int(n) for n in re.findall(r"前(\d+)", q)]
        ranked = bool(ranks) and len(body) >= min(ranks) and (any(core(h) == "序号" for h in t.header) or
                                                           bool(re.search(r"前\d+|序号|名称", title)))
        free = [self._list_marks(a, ranked) for a in asks]

        def held(words: str) -> float:
            ref = pairs(words)
            return sum(sum(x or f for x, f in zip(cover(a, ref), m)) for a, m in zip(asks, free)) / sum(map(len, asks))
        if held(title) < EXPLAINED or self._other_dimension(t, q):
            return [], 0.0
        if ranked and min(ranks) < len(body):
            body = body[:min(ranks)]   # "前十名股东中持股最多的前三家": the first rows of a ranked table
        # its own caption and header first (公司前5名供应商资料 before the section 主要销售客户和主要供应商情况)
        return body, held(own) + held(title) / 10

    def _other_group(self, t: TableRecord, asked: frozenset[str]) -> bool:
        """The question asks a group by rank or as a list ("前5名供应商", "第一大供应商", "主要供应商有哪些":
        keyword_tables/cells.yaml ranked_groups) the table does not list: its own caption and header name another
        group and none of the words of the one asked (主要客户's 销售额 table for 前5名供应商), or name no group and
        neither do its headings — a row labelled "供应商一" of 按预付对象归集的期末余额前五名的预付款情况 (under
        预付款项) is a prepayment's."""
        groups = self.w.ranked_groups
        own = norm(t.caption + "".join(t.header))
        if any(w in own for g in asked for w in groups[g]):
            return False
        if any(w in own for ws in groups.values() for w in ws):
            return True
        where = norm("".join(t.path))
        return not any(w in where for g in asked for w in groups[g])

    @staticmethod
    def _other_dimension(t: TableRecord, q: str) -> bool:
        """The table lists its rows by one dimension (its first column 分行业) and the question asks another
        (分地区的营业收入各是多少): not its list, however much of the rest its caption holds."""
        head = _DIMENSION.fullmatch(re.sub(r"\s+", "", t.header[0] if t.header else ""))
        if head is None:
            return False
        asked = {m.group(1) for m in _DIMENSION.finditer(q)}
        return bool(asked) and head.group(1) not in asked

    def _list_marks(self, ask: str, ranked: bool) -> list[bool]:
        """An ask's characters a list's table need not hold: neutral words, the list's words (都是谁,
        哪几家, 各是多少), the topic's 中 and, in a ranked table, its ranks (前10名, 前3家)."""
        marks = self.neutral_marks(ask)
        spans = [m.span() for m in _LIST_WORDS.finditer(ask)]
        if ranked:
            spans += [m.span() for m in re.finditer(r"前\d+[名大家位个]?", ask)]
        topic = _TOPIC.search(ask)
        if topic:
            spans.append(topic.span())
        for a, b in spans:
            marks[a:b] = [True] * (b - a)
        return marks

    def _list_phrase(self, q: str) -> str:
        return "".join(self.asks(q))

    # --------------------------------------------------------------------------- columns

    def _other_period(self, header: str, q: str, when: When) -> bool:
        """Whether a column is another period's than the years asked (the last is the report's): a year not
        asked, or 上期/上年 unless the year before the report's is asked (or the question says it)."""
        key = (header, q, when)
        got = self._periods.get(key)
        if got is None:
            if len(self._periods) > CACHED:
                self._periods.clear()
            got = self._periods[key] = self._period_of(header, q, when)
        return got

    def _period_of(self, header: str, q: str, when: When) -> bool:
        printed = [int(y) for y in _YEAR.findall(header)]
        if printed:
            return not any(y in when.years for y in printed)
        previous = any(w in header for w in self.w.period_columns.get("previous", ()))
        current = any(w in header for w in self.w.period_columns.get("current", ()))
        if previous:
            return when.report - 1 not in when.years and not any(
                w in q for w in self.w.period_columns.get("previous", ()) if w in header)
        return current and when.report not in when.years

    def _of_kind_asked(self, header: str, q: str) -> bool:
        """Whether a column's header prints an exclusive qualifier's phrase (质押或冻结) whose kind the ask asks (质押 —
        the ask's own words, not another ask's of the question): the column answers it, no other of the row
        (keyword_tables/cells.yaml column_qualifiers, exclusive)."""
        header = "".join(header.split())
        return any(any(p in header for p in printed) and any(w in q for w in said)
                   for printed, said in self.w.exclusive_qualifiers)

    def _qualified(self, header: str, q: str) -> bool:
        """Whether a column's header (or a table's title) prints a phrase saying its amounts are another kind than
        the item's plain value (平均余额, 日均余额: keyword_tables/cells.yaml column_qualifiers) and the question
        asks none of that kind (平均, 日均)."""
        if " " in header or "\n" in header:
            header = "".join(header.split())   # (a header cell's lines joined: "跌价准备计提 比例")
        return any(any(p in header for p in printed) and not any(w in q for w in said)
                   for printed, said in self.w.column_qualifiers)

    def _period_column(self, t: TableRecord, cols: list[int], year: int, report_year: int) -> int | None:
        """The one column of a year: its year printed, else 本期/期末 for the report's and 上期/期初 for the
        year before."""
        pc = self.w.period_columns
        found = []
        for k in cols:
            h = core(t.header[k]) if k < len(t.header) else ""
            printed = _YEAR.findall(h)
            if any(w in h for w in pc.get("change", ())):
                continue
            current = any(w in h for w in pc.get("current", ())) and not any(w in h for w in pc.get("previous", ()))
            # (a header printing both — "本期发生额上期发生额", two columns' words merged — is neither's)
            previous = any(w in h for w in pc.get("previous", ())) and not any(w in h for w in pc.get("current", ()))
            if str(year) in printed or (not printed and ((year == report_year and current)
                                                         or (year == report_year - 1 and previous))):
                found.append(k)
        if len(found) > 1 and _printed_years_alike(t, found):
            # a year heading a group of columns (2016年 金额 | 2016年 占营业收入比重): its first, the amount, unless
            # another is the only one no share
            plain = [k for k in found if not _SHARE_HEAD.search(core(t.header[k]))]
            found = plain[:1] if plain else found[:1]
        return found[0] if len(found) == 1 else None

    def _value_columns(self, t: TableRecord, r: int, key_cols: set[int], text: bool = False) -> list[int]:
        """The row's value columns: its numbers' (and, `text`: a name or type asked, its words' too)."""
        row = t.rows[r]
        cols = [k for k in range(len(row)) if k not in key_cols and row[k] and (text or is_number(row[k]))]
        return cols or [k for k in range(len(row)) if k not in key_cols and row[k]]

    def _default_columns(self, t: TableRecord, cols: list[int], when: When) -> tuple[list[int], bool]:
        """(columns, whole): the one value column, each year's asked (the report year's), else the whole row."""
        if len(cols) <= 1:
            return cols, False
        found = [self._period_column(t, cols, y, when.report) for y in when.years]
        if all(k is not None for k in found):
            return sorted({k for k in found if k is not None}), False
        return cols, True

    def _marks(self, ask: str, words: tuple[str, ...]) -> list[bool]:
        """The characters of the ask that the words cover (the words in their order, each occurrence not
        overlapping a marked one); kept per (ask, words): a question's asks meet every table."""
        key = (ask, words)
        got = self._marks_made.get(key)
        if got is None:
            got = [False] * len(ask)
            # only the words starting with a character of the ask can be in it (looked at in their order)
            heads = self._word_heads.get(words)
            if heads is None:
                heads = self._word_heads[words] = {}
                for i, w in enumerate(words):
                    if w:
                        heads.setdefault(w[0], []).append(i)
            held = sorted(i for ch in set(ask) for i in heads.get(ch, ()))
            for w in (words[i] for i in held):
                if w not in ask:
                    continue
                at = ask.find(w)
                while at >= 0:
                    end = at + len(w)
                    if not any(got[at:end]):
                        got[at:end] = [True] * len(w)
                    at = ask.find(w, end)
            if len(self._marks_made) > 20000:
                self._marks_made.clear()
            self._marks_made[key] = got
        return list(got)

    def _apposed(self, ask: str, taken: list[bool]) -> Iterator[tuple[int, str]]:
        """(where a name begins, the appositive written just before it) — the name's characters `taken`; the
        longest appositive where several end there."""
        for i in range(1, len(ask)):
            if taken[i] and not taken[i - 1]:
                w = next((w for w in self.w.appositives if ask.endswith(w, 0, i)), None)
                if w is not None:
                    yield i, w

    def _appositives(self, ask: str, taken: list[bool]) -> list[bool]:
        """The words just before a name that say what it is ("子公司", "股东", "第一大供应商"), or an ask of
        such words alone ("关联方" before the masked company's name)."""
        marks = [False] * len(ask)
        if ask in self.w.appositives:
            return [True] * len(ask)
        for i, w in self._apposed(ask, taken):
            # with its rank before it ("第一大股东浙江东港投资有限公司")
            rank = re.search(r"(?:第\d{1,2}[大名位]?|最大)$", ask[:i - len(w)])
            n = len(w) + (len(rank.group(0)) if rank else 0)
            marks[i - n:i] = [True] * n
        return marks

    def _other_kind(self, ask: str, label: list[bool], prep: _Prepared) -> bool:
        """Whether an appositive written just before the row's name (子公司) says it is of a kind whose words the
        table's title and header do not say (keyword_tables/cells.yaml row_kinds): the 青岛 of 重要合营企业和联营企业
        信息, the 上海 of a table by region, are no 子公司."""
        return any(kind in a and not any(w in prep.context for w in words)
                   for _, a in self._apposed(ask, label) for kind, words in self.w.row_kinds.items())

    def _pick(self, t: TableRecord, ask: str, r: int, n: Named, title_pairs: frozenset[str], key_cols: set[int],
              q: str, when: When, before: str, text: bool, prep: _Prepared) -> Pick | None:
        """How the ask is met in row r: the label's part, then the table's title and the row's other
        words, then the columns whose headers hold the rest (each run of it held for 75% or not at all)."""
        if self._named_rx is not None and self._named_rx.search(ask) and any(
                w in ask and w not in n.label and w not in prep.title for w in self.w.named_words):
            return None   # a bank's kind of business asked (公司存款) is named whole by the row or the table, never by
            # its characters scattered over another row ("公司存放同业…款项余额")
        part_of = prep.wholes.get(r)
        if part_of is not None:
            of = self.label_text(t.rows[part_of][0])
            distinct = "".join(ch for ch in self.label_text(t.rows[r][0]) if ch not in of)   # (活期 of 活期存款 under 存款总额)
            if of in ask and distinct not in ask:
                return None   # "贷款总额" names the whole, never its part "其中：公司贷款" (its words are the part's context)
        label = cover(ask, n.words)
        looks, dims = self._where_spans(ask)
        marks = [(a, b) for a, b in looks if 2 <= a and b < len(ask) and not label[a]]
        if marks and any(label) and not any(label[marks[-1][1]:]):
            return None   # "营业外收入中政府补助": the row asked stands after where the question looks, never before it
            # (a grants table's row 营业外收入 is not the 政府补助 of 营业外收入's note)
        share = _SHARE.search(ask)
        if share and not n.label.endswith("比例"):
            # "占营业收入比例": the label 营业收入合计 holds its denominator, it names no row
            for i in range(share.start(1), share.end(1)):
                label[i] = False
        label_chars = sum(label)
        neutral = self.neutral_marks(ask)
        if share and n.label.endswith("比例") and "占" not in n.label:
            # "研发人员数量占比": its denominator is the whole — "占员工总数的比例" asks nothing more
            for i in range(share.start(1), share.end(1)):
                neutral[i] = True
        for a, b in looks:
            # "管理费用中研发费用", "管理费用明细里研发费用": where the question looks, right after the table's topic
            # its title says, whose last words the row's label holds too (费用), asks nothing of its own (a marker
            # after words of the topic alone — "存货中" — is the topic's run's, _topic_run)
            if a >= 2 and label[a - 1] and all(cover(ask[a - 2:a], title_pairs)):
                neutral[a:b] = [True] * (b - a)
        if ask[:1] in ("末", "底") and len(ask) > 2 and any(a >= 2 for a, _ in looks):
            # the 末 of a masked "2019年末" starting an ask that says where it looks ("末短期借款中信用借款"): the
            # period, read by the frame (elsewhere it stays: "末不良贷款余额" is no 不良率 column beside a 贷款 row)
            neutral[0] = True
        for a, b in dims:
            # "按类别划分", "按账龄披露": how the table is laid out, no row or column asked
            neutral[a:b] = [True] * (b - a)
        taken = [a or b or c for a, b, c in zip(label, neutral, self._appositives(ask, label))]
        if self.w.row_kinds and self._other_kind(ask, label, prep):
            return None   # "子公司青岛万科": not the 青岛 of a table of joint ventures
        _as_business(ask, label, taken)   # "国外业务": the row 国外 as a business
        value_cols = self._value_columns(t, r, key_cols, text)
        if not value_cols:
            return None
        own = [k for k in value_cols if k >= len(t.header) or not self._other_period(core(t.header[k]), q, when)]
        candidates = own or value_cols
        if self.w.column_qualifiers:
            # a 平均余额 column answers no 余额 (keyword_tables/cells.yaml column_qualifiers): none of its cells
            candidates = [k for k in candidates if k >= len(t.header) or not self._qualified(t.header[k], q)]
            if not candidates:
                return None
            # a kind asked (质押) that only its columns answer (exclusive): those columns, where the table prints one
            kind_cols = [k for k in candidates if k < len(t.header) and self._of_kind_asked(t.header[k], ask)]
            candidates = kind_cols or candidates
        # the row's words, and the label of the part of the table it is in (分产品 above 柴油机)
        row_pairs, row_chars = self._row_words(prep, r)
        around = title_pairs | pairs(content(t.unit or "")) | row_pairs
        runs = [self._topic_run(self._base(x, chars=True), around) for x in _runs(ask, taken) if len(x) >= 2
                and not self._looked_in(x, around | prep.parent_pairs)]
        if not runs and not label_chars and any(i == r and y == n.label for i, y in prep.labelled):
            # a row of a table of years, named by the year asked, meets an ask only where the table's words say
            # some of it: "控股股东" (its 股 a unit word, 控股股东 an appositive) is none of the dividends' 2019 row
            return None
        # a run the title or the row's own words hold needs no column ("收入" of 营业收入构成; 煤 of the
        # row's 煤、化学品, a character of its own)
        heads = {k: self._head_pairs(prep, k) for k in candidates if k < len(t.header)}
        # … unless a header is that word ("净利润" in 主要子公司及对公司净利润影响达10%以上… is the 净利润 column's;
        # "营业收入" of 营业收入构成 is not 占营业收入比重's)
        # (its year aside: 2022年 平均收益率; its value word as the runs have theirs: 机构数 is the run 机构's)
        focused = [self._base(self.label_text(_YEAR.sub("", t.header[k])), chars=True) for k in heads]
        need = [x for x in runs if sum(a or ch in row_chars for a, ch in zip(cover(x, around), x)) < EXPLAINED * len(x)
                or any(h and sum(cover(h, pairs(x))) >= EXPLAINED * len(h) and sum(cover(x, pairs(h))) >= EXPLAINED * len(x)
                       for h in focused)]
        periods = self.w.period_columns.get("current", ()) + self.w.period_columns.get("previous", ())
        chosen: list[int] = []
        left = list(need)
        while left and len(chosen) < MAX_COLUMNS:
            best: int | None = None
            best_key: tuple[int, int, int, float, int] = (0, 0, 0, 0.0, 0)
            for k, hp in heads.items():
                if k in chosen or share and CHANGE_COLUMN.search(t.header[k]):
                    continue   # (占营业收入比例 is no 变动比例: a change column explains no share asked)
                gain = self._explain(left, hp)
                if gain < 2:
                    continue
                # then the header of the period the ask names (上期发生额 for "上期…"), then the header
                # naming the ask before it too ("营业收入…较上年增减": the revenue's change), then the most
                # focused one (持股总数 before 持有有限售条件股份数量)
                period = sum(1 for w in periods if w in ask and w in core(t.header[k]))
                key = (gain, period, self._explain([before], hp) if before else 0, round(gain / max(len(hp), 1), 3),
                       -candidates.index(k))
                if key > best_key:
                    best, best_key = k, key
            if best is None:
                break
            chosen.append(best)
            left = [x for run in left for x in _runs(run, cover(run, heads[best])) if len(x) >= 2]
        if len(when.years) == 1:
            # the same header twice (本期 | 上期 of one item): the first, the asked year's
            seen: dict[str, int] = {}
            for k in sorted(chosen):
                seen.setdefault(core(t.header[k]), k)
            chosen = sorted(seen.values())
        ref = around.union(*(heads[k] for k in chosen))
        if any(self._is_change(t, k) for k in chosen):
            # "较上年增长了多少" in the change column: its verb is the column's
            change = self._marks(ask, self.w.change_words)
            runs = [self._base(x, chars=True) for x in _runs(ask, [a or b for a, b in zip(taken, change)]) if len(x) >= 2]
            need = [x for x in runs if sum(cover(x, around)) < EXPLAINED * len(x)]
        # what the label and the neutral words leave must be explained on its own: a long label does not
        # carry an ask it does not hold ("…有限公司注册资本" in a table without 注册资本)
        unexplained = sum(len(x) for x in need if len(x) >= 2 and sum(cover(x, ref)) < EXPLAINED * len(x))
        # where the question looks ("非经常性损益里的政府补助") is the table's title or the row's own words, never
        # a column's header alone (营业外收入's "计入当期非经常性损益的金额" is no 非经常性损益 table)
        unexplained += sum(len(x) for x in runs if len(x) >= 3 and _TOPIC.search(x) and x in need
                           and sum(cover(x, ref)) >= EXPLAINED * len(x))
        # a character alone between words the cells hold, that none of their words has: it changes the
        # thing ("占净利润比例" against 现金分红占利润分配总额比例: 净)
        alone = [i for i in range(1, len(ask) - 1) if not taken[i] and taken[i - 1] and taken[i + 1] and not neutral[i]]
        if alone:
            held = {ch for w in [n.label, *(t.header[k] for k in chosen if k < len(t.header))] for ch in content(norm(w))}
            held |= {ch for pair in ref for ch in pair}
            alone = [i for i in alone if ask[i] not in held]
        explained = 1 - (unexplained + len(alone)) / max(sum(len(x) for x in runs) + len(alone), 1)
        beyond = sum(a and not b for a, b in zip(cover(ask, row_pairs), label))   # its own words, past its label
        if not chosen:
            cols, whole = self._default_columns(t, candidates, when)
            return Pick(ask, r, [] if whole else cols, explained, label_chars, False, not runs, beyond)
        return Pick(ask, r, chosen, explained, label_chars, True, own=beyond)

    def _where_spans(self, ask: str) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
        """The spans of an ask's words saying where it looks (中, 里, 明细里, 项下: _LOOKS_IN) and how the table is
        laid out (按…划分: _BY_DIMENSION), once per ask (every row of every table is tried with it)."""
        got = self._where_of.get(ask)
        if got is None:
            if len(self._where_of) > 4096:
                self._where_of.clear()
            got = self._where_of[ask] = (tuple(m.span() for m in _LOOKS_IN.finditer(ask)),
                                         tuple(m.span() for m in _BY_DIMENSION.finditer(ask)))
        return got

    def _row_words(self, prep: _Prepared, r: int) -> tuple[frozenset[str], frozenset[str]]:
        """The character pairs and the characters of a row's words and of the label of the part of the
        table it is in (分产品 above 柴油机), once per table."""
        got = prep.row_words.get(r)
        if got is None:
            t = prep.table
            words = [c for c in [*t.rows[r], *_part(t, r)] if c and not is_number(c)]
            got = prep.row_words[r] = (
                frozenset().union(*(pairs(self.label_text(c)) | pairs(content(self.spell(norm(c)))) for c in words)),
                frozenset(ch for c in words for ch in content(norm(c))))
        return got

    def _head_pairs(self, prep: _Prepared, k: int) -> frozenset[str]:
        got = prep.head_pairs.get(k)
        if got is None:
            # (its words in parentheses too: "现金分红金额（含税）" prints 含税 — not its dates or numbers: the 12月
            # of "第四季度（10-12月份）" is no month of its own)
            h = prep.table.header[k]
            said = [pairs(content(self.spell(norm(m.group(1))))) for m in _PARENTHESIS.finditer(h)
                    if not re.search(r"\d", m.group(1))]
            got = prep.head_pairs[k] = frozenset(pairs(self.label_text(h)).union(*said))
        return got

    @staticmethod
    def _looked_in(run: str, around: AbstractSet[str]) -> bool:
        """A run saying where the question looks, the table's headings holding it (its own and the one above:
        "应付职工薪酬中短期薪酬项下" of "(2).短期薪酬列示" under "39、应付职工薪酬"): nothing asked of the cells."""
        m = _TOPIC.search(run)
        head = run[:m.start()] if m is not None else ""
        return len(head) >= 4 and sum(cover(head, around)) >= EXPLAINED * len(head)

    @staticmethod
    def _topic_run(run: str, around: AbstractSet[str]) -> str:
        """A run naming where the question looks ("存货中" before 库存商品, "末存货中" after a masked
        "2019年", the table's title holding 存货): its topic marker (中/里) and the 末 of 年末 before it ask
        nothing of their own."""
        head = run
        m = _TOPIC.search(head)
        if m is not None and len(head) - len(m.group(0)) >= 2:
            head = head[:m.start()]
            if head[:1] in "末底" and len(head) >= 3:
                head = head[1:]
        return head if head != run and sum(cover(head, around)) >= EXPLAINED * len(head) else run

    def _denominator_only(self, p: Pick, n: Named) -> bool:
        """Whether the ask names the row only as what it is measured against: "净利润占营业收入的比例"
        names no 营业收入 row (a row named by its year or rank holds no label of the ask)."""
        share = _SHARE.search(p.ask)
        return bool(share and not p.label_chars and n.label and self._base(n.label) in share.group(1))

    def _beyond(self, label: str, items: set[str], qc: str) -> bool:
        """Whether the row's label names more than the question's items do: two or more characters of it
        the question holds beyond the items' words, its value suffix and neutral words (罐式集装箱 in
        "罐式集装箱业务营业收入"; 基数 of 分配预案的股本基数 beyond the item 股本; `items`: _item_pairs)."""
        if label in self.w.period_labels:
            return False   # "年末余额": a period's row (a table of one item's movements), nothing beyond the item
        rest = self._base(label)
        asked = cover(rest, pairs(qc))
        beyond = [a and not b and not n for a, b, n in zip(asked, cover(rest, items), self.neutral_marks(rest))]
        return sum(beyond) >= 2

    def unused_held(self, u: Understanding, held: set[str], kinds: tuple[str, ...] = ()) -> bool:
        """Whether every meaning-bearing word the question's frame left unused (frame.unused: 境外, 子公司,
        是上年的多少 …) is held by these character pairs (the cells' labels, headers and title; a sentence's
        words) — or names what a row is (an appositive: 子公司, 股东); only the cues of `kinds` if given."""
        last = ""   # the word held just before ("国外" of "国外业务", the two read apart)
        for kind, word in u.frame.unused:
            if kinds and kind not in kinds or kind == "ask":
                continue   # an ask no slot read: the cells and sentences meet every ask on their own
            for part in norm(word).split("#"):   # "占####比例": its items masked, each part on its own
                w = content(self.spell(part))
                if last and LINE_OF_BUSINESS.fullmatch(w) and last + w in content(norm(u.norm)):
                    continue   # the row held, as a line of business
                last = w
                if w in _NEGATION and not any(w in p for p in held):
                    return False   # (非境内: a negation no cell prints turns the row it names into another)
                if len(w) < 2 or w in self.w.appositives or w in self.w.ask_words:
                    continue   # "分别": an ask word asks nothing of the cells
                marks = cover(w, held)
                _as_business(w, marks, marks)   # "国外业务" of the row 国外
                if kind == "entity":
                    # the words before a name saying what it is ("从第一大供应商中国兵器工业集团") ask nothing
                    cut = max((w.rfind(a) + len(a) for a in self.w.appositives if a in w), default=0)
                    marks[:cut] = [True] * cut
                if sum(marks) < EXPLAINED * len(w):
                    return False
        return True

    def _cell_words(self, m: CellMatch) -> set[str]:
        t = m.table
        words = [self.label_text(c) for r in m.rows for c in [*t.rows[r], *_part(t, r)] if c and not is_number(c)]
        words += [self.label_text(t.header[k]) for cols in m.columns.values() for k in cols if k < len(t.header)]
        words.append(content(self.spell(content(norm(" ".join(t.path[-1:]) + t.caption)))))
        return m.named.union(*(pairs(w) for w in words))

    def _printed(self, m: CellMatch, word: str) -> bool:
        """Whether the cells chosen print what the operation's word asks (合计 in a 合计 row's label; 比例 of
        "占####比例", its items masked, in a 研发投入占营业收入比例 row)."""
        parts = [content(self.spell(norm(p))) for p in word.split("#")]
        # less neutral words ("比率是" → 比例)
        parts = ["".join(ch for ch, n in zip(p, self.neutral_marks(p)) if not n) for p in parts]
        parts = [p for p in parts if len(p) >= 2]
        if not parts:
            return False
        t = m.table
        names = [self.label_text(c) for r in m.rows for c in t.rows[r] if c and not is_number(c)]
        names += [self.label_text(t.header[k]) for cols in m.columns.values() for k in cols if k < len(t.header)]
        return all(any(p in n for n in names) for p in parts)

    def _is_change(self, t: TableRecord, k: int) -> bool:
        return k < len(t.header) and any(w in core(t.header[k]) for w in self.w.period_columns.get("change", ()))

    def _every_year(self, t: TableRecord, picks: list[Pick], when: When) -> bool:
        """Whether the cells chosen hold each year asked: a column of its (its year printed, 本期/上期) or
        a row of its (a table of years)."""
        have: set[int] = set()
        for p in picks:
            label = content(norm(t.rows[p.row][0] if t.rows[p.row] else ""))
            m = _YEAR_LABEL.match(label)
            if m:
                have.add(int(m.group(1)))
            for k in p.columns:
                for y in when.years:
                    if k < len(t.header) and self._period_column(t, [k], y, when.report) == k:
                        have.add(y)
        return set(when.years) <= have

    def _explain(self, runs: list[str], ref: AbstractSet[str]) -> int:
        return sum(sum(cover(r, ref)) for r in runs)

    # --------------------------------------------------------------------------- one table

    def _table(self, prep: _Prepared, q: str, asked: _Asked, asks: list[str], qb: AbstractSet[str], when: When,
               items: set[str]) -> CellMatch | None:
        t, title, qc, name_asked = prep.table, prep.title, asked.qc, asked.name_asked
        if any(_PARENT_NOTES.search(h) for h in t.path) and "母公司" not in q:
            return None   # (the parent company's own notes answer its own figures, asked as the parent's: 生物股份
            # 2020's 应收账款坏账准备 计提 of the group is 5,986,284.73, the parent's note prints 15,842.43)
        if asked.groups and self._other_group(t, asked.groups):
            return None
        named = self._named_rows(prep, asked)
        for i, n in self._special_rows(prep, q, asked, when.years).items():
            if i in named:   # "第一大股东浙江东港投资有限公司": named and ranked, the rank words are the row's too
                named[i].words |= n.words
            else:
                named[i] = n
        if not named:
            if not asked.listed:
                return None
            rows, held = self._listed_rows(t, q)
            if not rows:
                return None
            return CellMatch(t, rows, "", {r: [k for k in range(len(t.header)) if k > 0 or not is_number(t.rows[r][0] or "x")]
                                            for r in rows}, True, False, (1, 0, held, 0), True,
                             named=pairs(self._list_phrase(q)))   # "前五名客户": the list's own words
        # a short label names a row only inside its table's topic: question words in its title or header
        ctx_pairs = prep.ctx_pairs
        for i in list(named):
            n = named[i]
            if n.strength == 2 and n.label in ("合计",) or not n.shown:
                continue
            need = 0 if len(n.label) >= 5 else 1 if len(n.label) >= 3 else 2
            if len((qb - search_tokens(n.label)) & ctx_pairs) < need:
                del named[i]
        self._merged_down(t, named)
        if not named:
            return None
        title_pairs = prep.title_pairs
        if self.w.column_qualifiers and self._qualified(title, q):
            # (a title of 日均余额 explains no 余额 asked: its other words do)
            bare = title
            for printed, _ in self.w.column_qualifiers:
                for phrase in printed:
                    bare = bare.replace(phrase, " ")
            title_pairs = frozenset(pairs(bare))
        picks: list[Pick] = []
        for a in asks:
            if all(self.neutral_marks(a)):
                continue   # "年报", "公司": nothing asked
            looks = _TOPIC.search(a) or _BY_DIMENSION_END.search(a)
            if looks and sum(cover(a, title_pairs | prep.parent_pairs)) >= TOPIC_HELD * looks.start() \
                    and not any(n.label and n.label in a for n in named.values()):
                # "前十名股东中", "利润分配预案中" (under 利润分配…情况): the table's topic, where the question
                # looks, no ask of its own — most of it in the title will do
                continue
            before = picks[-1].ask if picks else ""
            last_row = picks[-1].row if picks else None
            best: Pick | None = None
            best_key: tuple = ()
            for r, n in named.items():
                key_cols = {k for k, c in enumerate(t.rows[r]) if c and not is_number(c)
                            and (self.label_text(c) in n.label or self.label_text(c) == n.label)}
                if not key_cols:
                    key_cols = {k for k, c in enumerate(t.rows[r][:2]) if c and not is_number(c)}
                # (the ask before's column words count for an ask of its row only: "其中新泰天燃气的采购额" after
                # "占年度采购总额多少" is the 采购额 column of its own row, not the share the ask before read of 合计)
                p = self._pick(t, a, r, n, title_pairs, key_cols, q, when, before if r == last_row else "", name_asked, prep)
                if p is None:
                    continue
                frac = round(p.label_chars / max(len(n.label), 1), 3)   # how much of the label the ask holds
                k = (p.label_chars > 0, round(p.explained, 3), p.label_chars, frac, r == last_row, p.own, n.strength)
                if best is None or k > best_key:
                    best, best_key = p, k
            if best is None:
                return None
            picks.append(best)
            if best.explained < EXPLAINED and not DEBUG:
                return None   # (an ask this table does not explain: no later ask changes that)
        if not picks or any(p.explained < EXPLAINED for p in picks) or all(self._denominator_only(p, named[p.row])
                                                                            for p in picks):
            if DEBUG:
                print("cells: unexplained", t.id, t.caption, [(p.ask, p.row, p.columns, round(p.explained, 2)) for p in picks])
            return None
        _share_columns(picks, q, t, named)
        for p in picks:
            numbers = [k for k, c in enumerate(t.rows[p.row]) if k and is_number(c)]
            if not p.columns and "季" not in p.ask and len(numbers) > 1 and all(
                    k < len(t.header) and _QUARTER_HEAD.search(t.header[k]) for k in numbers):
                return None   # a year's value asked of a table of quarters: none of its columns, never all four
        if any(_asked_again(picks, i, q, named) for i in range(len(picks))):
            return None   # a row asked on its own and again by an ask further on, another row's between ("财务费用和销售
            # 费用分别是多少？财务费用同比增长了多少": its value, then its change) — not one row named by an ask, its
            # columns by the next ("内蒙古金宇生物控股有限公司…持股多少、比例多少")
        rows = list(dict.fromkeys(p.row for p in picks if not (p.row_only and p.row in {x.row for x in picks if x.named})))
        if (len(when.years) > 1 or when.years != (when.report,)) and not self._every_year(t, picks, when):
            return None   # several years asked: a column (or a row) of each
        columns: dict[int, list[int]] = {}
        whole = False
        named_rows = {p.row for p in picks if p.named}
        for p in picks:
            if p.row in named_rows and p.row_only:
                continue   # the row named alone ("子公司盘锦北方沥青股份有限公司") by an ask, its columns by another
            if not p.columns:
                whole = True
                p.columns = [k for k in range(len(t.rows[p.row])) if t.rows[p.row][k]]
            columns.setdefault(p.row, [])
            columns[p.row] += [k for k in p.columns if k not in columns[p.row]]
        # the row cut by narrow columns ("9,325,717,499.", "260,760,875.5"): none of its numbers is read
        if any(CUT_NUMBER.search(t.rows[r][k]) for r in rows for k in columns[r] if k < len(t.rows[r])):
            return None
        used = [named[r] for r in rows]
        label = max((n.label for n in used), key=len)
        entity = any(n.shown and not _YEAR_LABEL.match(n.label) and n.label not in self.w.generic_labels
                     and any(is_number(c) for c in t.rows[r]) and self._beyond(n.label, items, qc)
                     for r, n in zip(rows, used))
        topic = 2 * len(qb & search_tokens(title)) + len(qb & ctx_pairs)
        score = (min(n.strength for n in used), sum(p.label_chars for p in picks),
                 round(sum(p.explained for p in picks) / len(picks), 3), topic, -sum(map(len, columns.values())))
        if DEBUG:
            print("cells:", score, t.id, t.caption, t.path[-1:], label, [(p.ask, p.row, p.columns, round(p.explained, 2))
                                                                        for p in picks])
        return CellMatch(t, rows, label, columns, whole, entity, score, False, picks,
                         set().union(*(n.words for n in used)),
                         {r: re.sub(r"\s+", "", n.shown) for r, n in zip(rows, used) if len(n.shown) > 1})

    def match(self, u: Understanding, rep: Report, q: str, years: tuple[int, ...] = ()) -> CellMatch | None:
        """The best table cells for the question's words `q` (question_text) in the report, for the years
        asked (the report's, and the years before it its tables print)."""
        when = When(years or (rep.year,), rep.year)
        store = self.v.source.store
        if rep.id not in store.table_index.reports_having("tables"):
            return None   # (a report of imported values only prints no table: no query of its words)
        words = [w for w in dict.fromkeys(tokens(q)) if len(w) >= 2 or not w.isascii()]
        if not words:
            return None
        tables = self.tables.find(rep.id, words, MAX_TABLES)   # (the statements and 释义 tables left out)
        if not tables:
            return None
        qc = content(q)
        qc_raw = content(self.question_text(u, masked=False))
        # (an item's name holding a joining word — 营业税金及附加, 税金及附加 — is one ask, never parted at it)
        asks = self.asks(q, [w for k in u.keywords if k.kind == "item" and _JOINING.search(k.text)
                             for w in [self.spell(norm(k.text).replace("的", ""))] if w in q])
        if u.filler and len(asks) > 1 and _said_only(asks[0], sorted({content(norm(w)) for w in u.filler}, key=len,
                                                                         reverse=True)):
            # the request before the question's first ask, of the words the lexicon read as how the question is
            # asked ("帮我查一下，…"): no ask
            asks = asks[1:]
        if not asks:
            return None
        qp = pairs(qc)
        asked = _Asked(qc, qc_raw, qp | pairs(qc_raw), qp, {}, bool(_NAME_ASKED.search(u.norm)),
                       bool(_LIST.search(u.norm)), bool(_ORDINAL.search(q) or _TOPIC_TOTAL.search(qc)),
                       frozenset(g for g in self.w.ranked_groups if g in q and _ranked_ask(g).search(q)))
        qb = search_tokens(q)
        items = self._item_pairs(u)
        best: CellMatch | None = None
        for t in tables:
            m = self._table(self._prepared(t), q, asked, asks, qb, when, items)
            if m is None:
                continue
            if best is not None and _same_shape(m, best):
                # the same row under the same header in two tables: the consolidated notes come before the
                # parent company's (营业收入和营业成本 of the group, then of the parent): the first printed
                if m.table.page_start < best.table.page_start:
                    best = m
            elif best is None or m.score > best.score:
                best = m
        return best

    # --------------------------------------------------------------------------- the answer

    def answer(self, u: Understanding) -> tuple[Answer | None, str]:
        """(the cells the question names, or None when no table of the asked year's report names them;
        the row's label when it is an entity the question's items do not explain, else "")."""
        if not u.companies:
            return None, ""
        years = tuple(sorted(set(u.years.explicit)))
        if len(years) > 1:
            # several years: the latest one's report, when its tables print the others (本期 | 上期, 2019年 |
            # 2018年 | 2017年, a table of the last three years' dividends); a year naming the report itself
            # ("2019年报里，2018年…") asks none of its values
            if years[-1] - years[0] > 2:
                return None, ""
            report_year = years[-1]
            named = {int(y) for y in _REPORT_YEAR.findall(u.norm)}
            data = {int(y) for y in _DATA_YEAR.findall(u.norm)}
            if report_year in named and report_year not in data:
                years = tuple(y for y in years if y != report_year) or years
            rep = self.v.source.report(u.companies[0].company.key, report_year)
            name, note = self.v.company(u)[1], ""
            year: int | None = report_year
        else:
            rep, name, year, note = self.v.report(u)
            years = (year,) if year is not None else ()
            if rep is None and year is not None and u.companies and u.frame.period != "opening":
                # a year whose own report the store lacks: the next year's tables print it as their 上期/期初
                # (_every_year: a column of the year asked, or nothing) — never its opening balance (the year
                # before's end, which the next report does not print)
                rep = self.v.source.report(u.companies[0].company.key, year + 1)
                if rep is not None:
                    note = render(self.t, "note_previous_column", year=year, report=year + 1) + "。"
                    year = year + 1
        if rep is None or rep.year != year or rep.id not in self.v.source.store.table_index.reports_having("tables"):
            return None, ""   # (a report of imported values only prints no table)
        q = self.question_text(u)
        m = self.match(u, rep, q, years)
        if m is not None and u.frame.period == "opening" and len(years) == 1 and years[0] == rep.year \
                and not u.formulas and not _CLOSING_ASKED.search(u.norm) and not _OPENING_IN_A_NAME.search(u.norm):
            # an opening balance asked alone (期初, 年初): the year end before's column — 期初余额 | 上年年末 — of the same
            # table's same rows, where its header prints one; never where the closing is asked beside it, nor a row
            # naming a span from the opening (期初至合并日), nor another table or row the shifted years would find
            shifted = self.match(u, rep, q, (rep.year - 1,))
            if shifted is not None and shifted.table.id == m.table.id and shifted.rows == m.rows:
                m, years = shifted, (rep.year - 1,)
        if m is None:
            # the items as the keyword table names them, where the question's own words name no row ("加权平均
            # ROE" → 加权平均净资产收益率, "扣非后的基本每股收益" → 扣除非经常性损益后的基本每股收益) and the
            # report's facts hold none of them (the lookup answers those)
            by_items = self._items_named(u, q)
            m = self.match(u, rep, by_items, years) if by_items != q and not self.v.source.facts(
                rep, list(u.items)) else None
            if m is None or m.entity:
                return None, ""   # (a row the item's name leaves words of — 本期归属于母公司所有者净利润 — is not it)
            q = by_items
        if u.frame.period != "opening" and not _OPENING_ASKED.search(u.norm) and any(
                _OPENING_ROW.match(core(c)) for r, cols in m.columns.items()
                for k, c in enumerate(m.table.rows[r]) if c and k not in cols and not is_number(c)):
            return None, ""   # (an opening row — 期初余额 — answers no balance asked at the year's end)
        if _QUARTER_SPAN.search(content(norm(u.norm))) and any(
                "季" in m.table.header[k] for cols in m.columns.values() for k in cols if k < len(m.table.header)):
            return None, ""   # (a quarter's column is the quarter alone: never 第三季度末's, 截至…'s or 累计's 1–9月)
        entity = m.label if m.entity else ""
        if not self.unused_held(u, self._cell_words(m)):
            # a word that changes the meaning ("是上年的多少", "海外") and that no cell chosen holds
            return None, entity
        op = u.frame.operation
        change = op in ("change", "growth") and any(self._is_change(m.table, k) for cols in m.columns.values()
                                                    for k in cols)
        if op != "value" and (len(years) > 1 or not change and not self._printed(m, u.frame.operation_word)):
            # a change, a sum or a ratio asked: only a cell that prints it answers (a change column for a
            # change, a label or header holding the operation's word: 在职员工的数量合计), never the plain value
            return None, entity
        return self._render(u, m, name, year, q, note), entity

    def _render(self, u: Understanding, m: CellMatch, name: str, year: int, q: str, note: str = "") -> Answer | None:
        t = m.table
        parts, evidence = [], []
        qc = content(q)
        for r in m.rows[:MAX_ROWS]:
            row = t.rows[r]
            label = m.shown.get(r) or next((c for c in row if c and not is_number(c) and self.label_text(c)
                                              and self.label_text(c) in qc), "") or \
                next((c for c in row if c and not is_number(c)), "") or "?"
            page = t.pages[r] if r < len(t.pages) else t.page_start
            cells, found = [], []
            for k in m.columns.get(r, []):
                value = row[k] if k < len(row) else ""
                if not value or value == label or (m.whole_row and k == 0 and is_number(value) and len(value) <= 2):
                    continue
                if not is_number(value) and not _NAME_ASKED.search(u.norm) and not (m.listed and m.whole_row):
                    continue   # a number was asked: a text cell here is a misread column
                column = t.header[k] if k < len(t.header) else ""
                negative = _BRACKETED.fullmatch(value.strip())
                if negative:   # an amount printed in brackets is negative: (9,906) → -9,906
                    value = "-" + negative.group(1)
                # a rate's or a count's column never takes the table's 元 (研发人员数量, 持股数量)
                unit = unit_of(column, label) or (None if "%" in value or _RATE.search(core(column) or core(label))
                                                  or _COUNT.search(core(column) or core(label))
                                                  else t.unit or unit_of(t.header[0] if t.header else ""))
                # (the table's unit printed in its corner cell: "分季度经营业绩（人民币百万元）")
                if unit is None and "%" not in value and any(_PERCENT_UNIT.search(h) for h in t.header):
                    unit = "%"   # a table in percent, its unit line set in a header cell ("（单位：%） 月均")
                if not is_number(value):
                    unit = None   # words ("减少 1.11个百分点", "不适用") take no unit
                shown = value + (unit if unit and unit != "%" and not value.endswith("%") else "") + \
                    ("%" if unit == "%" and not value.endswith("%") else "")
                if u.unit is not None and is_number(value) and unit not in _OTHER_UNITS and not value.endswith("%") \
                        and unit != f"{u.unit}元":
                    # an amount asked in a unit (万元, 亿元): converted from the table's, or not given at all
                    # (a count of 股 or 人, a rate, keeps its own)
                    amount = parse_number(value)
                    if unit not in UNIT_FACTORS or amount is None:
                        continue
                    shown = format_scaled(to_yuan(amount, unit), u.unit, u.decimals, self.v.style) + f"（表中为{shown}）"
                cells.append(f"{shown_header(column)}：{shown}" if shown_header(column) else shown)   # (a unit line alone: none)
                found.append(CellEvidence(table_where(t),
                                          label, shown_header(column), value + ("" if not unit or value.endswith("%") else unit), page,
                                          self.v.source.keys.get(t.report_id), value))
            part = f"{label}（{'，'.join(cells)}）"
            if cells and part not in parts:   # a row printed twice (分行业 and 分产品 alike) is said once
                parts.append(part)
                evidence.extend(found)
        if not parts:
            return None
        # (an entity whose named cells are all empty or misread is declined by the router)
        where = t.caption or (t.path[-1] if t.path else "表格")
        pages = sorted({e.page for e in evidence if e.page})
        shown_pages = "、".join(map(str, pages)) or str(t.page_start)
        # (no year asked: the latest report's, said first)
        labels = list(dict.fromkeys(e.row for e in evidence))
        if WHO_ASKED.search(u.norm) and labels and all(UNNAMED.match(content(norm(x))) for x in labels):
            # "第一大客户是哪家公司" of a table listing 客户一…客户五: the name is not disclosed — said so, with
            # what the row prints, and counted as not answered
            text = note + render(self.t, "cell_unnamed", company=name, year=year, table=where, page=shown_pages,
                                 labels="、".join(f"“{x}”" for x in labels), cells="；".join(parts))
            return Answer(u.question, text, u.finglm_type(), "declined", list(evidence), found=False)
        text = note + render(self.t, "cell_answer", company=name, year=year, table=where, page=shown_pages,
                             cells="；".join(parts))
        return Answer(u.question, text, u.finglm_type(), "cell", list(evidence))


_NAME_ASKED = re.compile(r"谁|哪|什么|名称|名字|性质|类型|方式")
WHO_ASKED = re.compile(r"谁|哪家|哪些|哪个|哪一|名称|名字|叫什么|什么公司|什么单位")
# a row listed without its name: 客户一, 供应商1, 第一名, 客户A, 单位五
UNNAMED = re.compile(r"(?:客户|供应商|单位|公司|第)[一二三四五六七八九十0-9A-Za-z]{1,2}名?$")
_OTHER_UNITS = ("%", "股", "万股", "人")   # units no amount asked in 万元/亿元 converts
# (a count's, or an age's, column: never the table's 元 — 年龄 beside 税前报酬总额（万元）)
_COUNT = re.compile(r"(?:数量|人数|人员|员工|股数|户数|家数|笔数|年龄|出生年份|年份)$")
_NAME = re.compile(r"(?:公司|集团|企业|银行|中心|厂)$")   # a name: matched whole, never approximately
_LEGAL = re.compile(r"(?:集团股份有限公司|股份有限公司|有限责任公司|有限公司|集团公司|股份公司|责任公司|公司|集团)$")


def _as_business(text: str, held: list[bool], marks: list[bool]) -> None:
    """Marks 业务/板块 right after a held character of `text` (the row 国外 of "国外业务" as a line of business)."""
    for m in LINE_OF_BUSINESS.finditer(text):
        if m.start() and held[m.start() - 1]:
            marks[m.start():m.end()] = [True] * (m.end() - m.start())


def _asked_again(picks: list[Pick], i: int, q: str, named: dict[int, Named]) -> bool:
    """Whether picks[i] asks its row's own value — its row named alone, listed with another row's ask (销售费用和管理
    费用) or apart from the ask naming that row's columns by another row's — while another ask names columns of that
    row naming it again: "销售费用和管理费用分别是多少？管理费用同比增长了多少" asks 管理费用's value and its change (not
    "北京区域和广深区域，哪个区域的主营业务收入更高": the comparison names no row of its own)."""
    p = picks[i]
    if not p.row_only:
        return False
    listed = any(y.row != p.row and (_joined(q, y.ask, p.ask) or _joined(q, p.ask, y.ask)) for y in picks)
    for j, x in enumerate(picks):
        label = named[x.row].label if x.row in named else ""
        if x.named and x.row == p.row and label and x.label_chars >= EXPLAINED * len(label):
            lo, hi = sorted((i, j))
            if listed or any(y.row != p.row for y in picks[lo + 1:hi]):
                return True
    return False


def _share_columns(picks: list[Pick], q: str, t: TableRecord, named: dict[int, Named]) -> None:
    """A row named alone takes the one column an ask joined to it by 和/及/、 alone names for its own row, where
    that column's words stand on its side: the next ask's after its row ("陈晓晖、陈晓凌的持股比例"), the ask's
    before it before its row ("第三季度营业收入和归母净利润": the column's word said once, before both) — never
    the column of an ask a clause apart, nor one of its own row only ("营业收入和第四季度归母净利润": the year's
    营业收入), nor a column whose header another column prints too (2022年 平均余额 | 平均余额)."""
    for i, p in enumerate(picks):
        if not (p.row_only and p.label_chars):
            continue
        for other, after in ((picks[i + 1] if i + 1 < len(picks) else None, True), (picks[i - 1] if i else None, False)):
            if other is None or not other.named or other.row == p.row or other.row_only or len(other.columns) != 1:
                continue
            if not _joined(q, *((p.ask, other.ask) if after else (other.ask, p.ask))):
                continue
            label = cover(other.ask, named[other.row].words) if other.row in named else []
            if not label or label[-1 if after else 0] or not label[0 if after else -1]:
                continue   # (its column's words not on the side of the row named alone)
            k = other.columns[0]
            head = _YEAR.sub("", core(t.header[k])) if k < len(t.header) else ""
            if not head or sum(_YEAR.sub("", core(h)) == head for h in t.header) > 1:
                continue
            if k < len(t.rows[p.row]) and t.rows[p.row][k]:
                p.columns, p.named, p.row_only = [k], True, False
                break


def _said_only(ask: str, filler: list[str]) -> bool:
    """Whether an ask is made of the question's filler words alone."""
    for w in filler:
        if w:
            ask = ask.replace(w, "")
    return not ask


def _joined(q: str, first: str, second: str) -> bool:
    """Whether two asks (CellAnswerer.asks: content only) stand in the question one right after the other, joined by
    和/及/、 alone (no clause between: "？", "，")."""
    parts, seps = _ASKS.split(q), _ASKS.findall(q)
    contents = [content(p) for p in parts]
    for i, c in enumerate(contents):
        if c != first:
            continue
        between = [seps[i]] if i < len(seps) else []
        j = i + 1
        while j < len(contents) and len(contents[j]) < 2:   # (a part no ask: "分别" between two)
            between += [seps[j]] if j < len(seps) else []
            j += 1
        return j < len(contents) and contents[j] == second and all(_JOINED.fullmatch(x) for x in between)
    return False


def _same_shape(a: CellMatch, b: CellMatch) -> bool:
    """Two matches of the same row label under the same header words (a note printed for the group and again
    for the parent company)."""
    def shape(m: CellMatch) -> tuple:
        # (the header's words, wherever the layout set them: "单位：元 上期发生额 收入 | 币种：人民币 成本")
        return ("".join(sorted(re.sub(r"\s|单位[:：][^|]*?元|币种[:：]人民币", "", "".join(m.table.header)))),
                tuple(re.sub(r"\s", "", m.table.rows[r][0] if m.table.rows[r] else "") for r in m.rows))
    return a.table.id != b.table.id and shape(a) == shape(b)


def _unmask_names(text: str, masked: str) -> str:
    """The masked question with a company's name put back where it begins a longer name (张家界 of
    "子公司张家界易程天下环保客运有限公司", "张家界市经济发展投资集团有限公司"): there it names another company."""
    if len(text) != len(masked):
        return masked
    out = list(masked)
    for m in re.finditer(r"#+", masked):
        nxt = text[m.end():m.end() + 1]
        if not re.match(r"[\u4e00-\u9fff]", nxt) or nxt in _NAME_END or not _NAME_GOES_ON.match(text, m.end()):
            continue
        # the run's part after a year written out ("2016年张家界" → 张家界): the company's name
        name = re.match(r"^(?:.*\d年度?)?(.*)$", text[m.start():m.end()])
        start = m.end() - len(name.group(1)) if name else m.end()
        out[start:m.end()] = text[start:m.end()]
    return "".join(out)


_NAME_GOES_ON = re.compile(r"[\u4e00-\u9fff（）()]{1,20}?(?:有限责任公司|股份有限公司|有限公司|集团|公司)")
_NAME_END = set("年的在和与及之中里为是有向对从于股子母旗下全控参所")   # what may follow a company's own name


def _part(t: TableRecord, r: int) -> list[str]:
    """The label of the part of the table a row is in: the nearest row above it with one cell and no
    number (分行业, 分产品, 分地区)."""
    return next((t.rows[i] for i in range(r - 1, -1, -1)
                 if t.rows[i] and not any(is_number(c) for c in t.rows[i]) and sum(1 for c in t.rows[i] if c) == 1), [])


_OF_WHICH = re.compile(r"\s*其中\s*[:：]?")
# a row opening a part of a table of its own: numbered (一、 （二） 3、) or a total
_NEW_PART = re.compile(r"\s*(?:[一二三四五六七八九十]+\s*[、.．]|[（(][一二三四五六七八九十\d]+[)）]|\d+\s*[、.．])|.*(?:合计|小计|总计)\s*$")
PARTS_AT_MOST = 8   # the rows of a "其中" run read as a whole's parts


def _whole_of(t: TableRecord, r: int) -> int | None:
    """The row whose parts a row is: the row right above the first of a run of at most PARTS_AT_MOST items opened
    by "其中" ("定期存款" / "其中：公司" / "个人"), none of them numbered or a total, the whole above zero and the
    run's values up to the row none below zero and adding up to no more than it (in the whole's first column of
    numbers): "其他存款" after 公司 and 个人, their sum past 定期存款's, is none of its parts."""
    start = next((i for i in range(r, max(r - PARTS_AT_MOST, 0), -1) if t.rows[i] and _OF_WHICH.match(t.rows[i][0])),
                 None)
    if start is None or not t.rows[start - 1] or not t.rows[start - 1][0]:
        return None
    if any(_NEW_PART.match(_OF_WHICH.sub("", t.rows[i][0] or "")) for i in range(start, r + 1) if t.rows[i]):
        return None
    whole = t.rows[start - 1]
    k = next((k for k, c in enumerate(whole) if k and parse_number(c) is not None), None)
    if k is None:
        return None
    total = parse_number(whole[k])
    got = [parse_number(t.rows[i][k]) if k < len(t.rows[i]) else None for i in range(start, r + 1)]
    if total is None or total <= 0 or any(v is None or v < 0 for v in got) or sum(v for v in got if v is not None) > total:
        return None
    return start - 1


# a unit or currency line a header cell holds ("单位：元 本期发生额")


def shown_header(header: str) -> str:
    """A header as shown: the spaces its wrapped lines were joined with left out between Chinese words, a
    unit or currency line printed over it ("单位：元 本期发生额") left out."""
    header = UNIT_LINE.sub("", header)
    return re.sub(r"(?<=[\u4e00-\u9fff（）()%]) (?=[\u4e00-\u9fff（）()%])", "", header)


def _bare(text: str) -> str:
    """Words only (no 的, punctuation or spaces): how an item's matched phrase and a label compare."""
    return re.sub(r"[^\w]|的|_", "", norm(text))
