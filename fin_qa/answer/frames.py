"""Tables as frames: what an analyst does with a table's rows — the largest, one row's share of the whole,
rows added, rows counted — answered by a query over the table read as a frame, with the rows and the page
cited.

A report's table (not a statement: those are the lookup's) is read into a `Frame` once:
its **kind** (keyword_tables/frames.yaml: customer, supplier, shareholder, subsidiary, aging, education,
profession; `segment` when it prints section rows 分行业/分产品/分地区), its **rows** (label, the section
they are in, total rows apart), its **columns** (header, a share column, the year it is of) and its
numbers (`values`: the pandas DataFrame of them).

An ask is read into a `Query` (rules/frames.yaml): its operation — rank (哪个地区…最高, 最大的客户, 第二大
股东), share (占营业收入的比重, 占比), sum (硕士及以上, 2年以内), count (几家子公司) — and the group its rows
are asked from. The query then runs as named steps, each a function returning a small dataclass, tested on
its own:

    find_tables → choose_column → name_rows → run (share_of) → said and evidence (_said, _evidence)

An ask the frames do not account for (a word no step used, more than one character) is not theirs: the
cells answerer (answer/cells.py) and the rest of the router answer it as before. A sum over no row, a
share without its whole, a rank over one row decline; they never give 0.
"""
from __future__ import annotations

import copy
import json
import math
import os
import re
from collections.abc import Callable, Sequence, Set as AbstractSet
from dataclasses import dataclass, field
from functools import lru_cache

import pandas as pd

from .. import prefilter
from ..bigrams import tokens
from ..catalog.frames import FrameWords
from ..catalog.items import ItemTable
from ..numbers import parse_number
from ..store import Report
from ..store.models import TableRecord
from ..understand.question import Understanding
from .cells import LINE_OF_BUSINESS, UNNAMED, WHO_ASKED, CellAnswerer, shown_header
from .tables import CUT_NUMBER, LAID_OUT, LOOKED_IN, UNIT_LINE, Tables, content, core, cover, is_number, joined_asks, \
    norm, pairs, table_where, unit_of
from .compose import render
from .model import STATEMENT_NAMES, Answer, CellEvidence, Evidence

_LAID_OUT = re.compile(rf"{LAID_OUT}(?:的)?(?:{LOOKED_IN})?")
_LOOKED_IN_AT_END = re.compile(rf"(?:的)?(?:{LOOKED_IN})$")
_LOOKED_IN_AT_START = re.compile(r"^(?:末|底)?(?:中|里|当中|之中|项下|明细中?|明细里)")


@dataclass(frozen=True)
class FrameSettings:
    """The thresholds of the steps, in one place."""
    max_tables: int = 80          # tables of a report searched for an ask
    unexplained: int = 1          # characters of an ask no step may leave unexplained
    min_rows: int = 2             # rows a rank compares at least
    max_listed: int = 12          # rows an answer lists at most
    statement_lines: int = 6      # a table with this many statement items for rows is a statement


SETTINGS = FrameSettings()
# a total row: 合计 alone, or a label ending in 合计/总计 (营业收入合计); "1年以内小计" is a bucket's subtotal
_TOTAL = re.compile(r"^(?:合计|总计|小计|共计|总额)$|(?:合计|总计)$")
_EACH = re.compile(r"分别|各自|各是|各为|各有")
def _names_a_row(u: Understanding) -> bool:
    """Whether the question names an organisation (a row: 全资子公司南通四方…有限公司) — not the group asked of
    every row (各主要子公司, read as a name by its 公司)."""
    return any(k == "entity" and not _EACH_SUB.search(w) and not _SOME_SUBS.search(w) for k, w in u.frame.unused)


# the rows a table lists by rank (前五名客户, 前5大供应商): all of them
_TOP_N = re.compile(r"前(?:\d{1,2}|[一二三四五六七八九十])(?:名|大|位|家)?")
_TOP_N_BEFORE = re.compile(r"前(?:\d{1,2}|[一二三四五六七八九十])(?:名|大|位|家)?$")
# a value asked of each subsidiary (SubsidiaryAnswerer.each)
_EACH_SUB = re.compile(r"(?:各|每个|每一个|每家|每一家|所有|全部|各个|各家)(?:主要)?(?:的)?(?:全资|控股)?(?:子公司|附属企业|附属公司)|"
                       r"(?:主要)?(?:子公司|附属企业|附属公司)(?:的)?(?:各自|分别|各)")
# where asks part: commas, then the other stops (joined_asks between: a clause saying where the question looks goes
# with the ask after it)
_COMMA_STOP, _STOP = re.compile(r"[,，]"), re.compile(r"[?？。;；!！]")
# a group of subsidiaries named by how many ("几家主要子公司", "这几家子公司"): no one of them
_SOME_SUBS = re.compile(r"(?:几|哪几|这几|那几|这些|那些|多)家?(?:主要)?(?:的)?(?:全资|控股)?子公司")
_ENTITIES = ("shareholder", "unrestricted", "restricted", "preferred", "customer", "supplier", "subsidiary", "branch")
_JOINED = re.compile(r"[和与及、加]")
_SUBTOTAL = re.compile(r"合计|小计|总计")
_GENERIC = re.compile(r"^(?:其他|其它|其中|合计|总计|小计|项目|序号)$")
_CHANGE = re.compile(r"增减|变动|变化|增长|比上年|较上年|同比")
_SHARE_HEAD = re.compile(r"占.*(?:比重|比例|比)|占比|比例|比重")
_YEAR = re.compile(r"(20\d\d|19\d\d)\s*年?")
_PREVIOUS = re.compile(r"上年|上期|期初|年初|上年同期")
_AMOUNT = re.compile(r"^(?:(?:19|20)\d\d年度?)?(?:本期|本年|期末|年末)?(?:金额|余额|数额|发生额|账面余额)?$")
_RATE = re.compile(r"率|比例|比重|占比|%")
_CN = str.maketrans("一二三四五六七八九", "123456789")
# (an age is of one or two digits: 2020年内 is a year)
_AGE = re.compile(r"(?<![\d.])(?P<a>\d{1,2}(?:\.\d+)?)\s*(?P<au>年|个月|月)?\s*(?:至|-|－|—|~|～|到)\s*(?P<b>\d{1,2}(?:\.\d+)?)\s*(?P<bu>年|个月|月)|"
                  r"(?<![\d.])(?P<w>\d{1,2}(?:\.\d+)?)\s*(?P<wu>年|个月|月)\s*(?:以内|以下|内)(?!到期)|"
                  r"(?:超过|大于|长于)(?P<o>\d{1,2}(?:\.\d+)?)\s*(?P<ou>年|个月|月)(?:以上)?|"
                  r"(?<![\d.])(?P<p>\d{1,2}(?:\.\d+)?)\s*(?P<pu>年|个月|月)\s*以上")


# ------------------------------------------------------------------------------------------- the frame

@dataclass
class Row:
    index: int           # in the table's rows
    label: str           # as printed
    key: str             # as compared (content, spelled)
    section: str | None  # the section it is in (industry, product, region, channel)
    total: bool
    first: str = ""      # its first text cell (a name, where the cells after it say its type, business …)
    full: str = ""       # a part's key with its whole's ("其中：定期存款" under 个人存款: 个人定期存款)


@dataclass
class Column:
    index: int
    header: str          # as printed
    key: str             # as compared
    share: bool          # a share of a whole (占营业收入比重, 比例(%))
    change: bool         # a change on the year before
    year: int | None     # the year it is of, when its header says
    previous: bool       # of the year before (上年, 期初)


@dataclass
class Frame:
    table: TableRecord
    kind: str
    title: str           # caption and last heading, as compared
    rows: list[Row]
    columns: list[Column]
    sections: set[str] = field(default_factory=set)
    cut: set[tuple[int, int]] = field(default_factory=set)   # cells holding a number the layout cut
    filtered: bool = False   # it lists only some rows (10%以上): none added, counted or ranked from below

    keys: frozenset[str] = frozenset()                                    # its rows' keys and full keys
    numbers: dict[tuple[int, int], float] = field(default_factory=dict)   # (row, column) → number
    filled: dict[int, int] = field(default_factory=dict)                   # column → its numbers

    def number(self, r: int, k: int) -> float | None:
        return self.numbers.get((r, k))

    @property
    def values(self) -> pd.DataFrame:
        """Its numbers as a DataFrame (table row index × column index; NaN: none), made when asked: the
        queries read `numbers`, a frame's DataFrame is for analyses over it."""
        return pd.Series(self.numbers, dtype="float64").unstack() if self.numbers else pd.DataFrame()

    def cell(self, r: int, k: int) -> str:
        row = self.table.rows[r]
        return row[k] if k < len(row) else ""


def _label(row: list[str]) -> tuple[str, int]:
    """The label of a row (its text cells before its first number, joined; a serial number before a text
    cell is none: "1 | 第一名 | 86,512,221.40") and the index of its first number (len(row) when none)."""
    first = len(row)
    for k, c in enumerate(row):
        if c and is_number(c):
            serial = re.fullmatch(r"\d{1,3}", c.strip()) and any(x and not is_number(x) for x in row[k + 1:k + 2])
            if not serial:
                first = k
                break
    return "".join(c for c in row[:first] if c and not is_number(c)), first


def build_frame(t: TableRecord, tables: Tables, words: FrameWords) -> Frame:
    """The table read as a frame: kind, rows with their sections, typed columns, its numbers (its words
    spelled as the table model spells them)."""
    title = content(tables.spell(content(norm(" ".join(t.path[-1:]) + t.caption))))
    header_key = content(norm("".join(t.header)))
    section_of, section_rx = words.section_rows
    current = None
    if section_rx is not None:
        m = section_rx.match(content(norm(t.header[0] if t.header else "")))
        current = section_of[m.group(0)] if m else None
    rows: list[Row] = []
    sections: set[str] = {current} if current else set()
    values: dict[tuple[int, int], float] = {}
    cut: set[tuple[int, int]] = set()
    for i, row in enumerate(t.rows):
        label, first = _label(row)
        key = content(norm(label))
        m = section_rx.match(key) if section_rx is not None else None
        if m:
            current = section_of[m.group(0)]
            sections.add(current)
            label = label[label.find(m.group(0)[-1]) + 1:] if m.group(0) != key else ""
            key = key[len(m.group(0)):]
            if not key or first == len(row):
                continue   # a section row of its own (its other cells the header again)
        if not key and first == len(row):
            continue
        for k in range(first, len(row)):
            if row[k] and CUT_NUMBER.search(row[k].strip()):
                cut.add((i, k))   # a number the layout cut ("211,591,403."): no value, and no rank over it
                continue
            v = parse_number(row[k].rstrip("%")) if row[k] and is_number(row[k]) else None
            if v is not None:
                values[(i, k)] = float(v)
        total = bool(_TOTAL.search(key)) or (not key and first < len(row))
        first_text = next((c for c in row[:first] if c and not is_number(c)), "")
        rows.append(Row(i, label, tables.label_text(label) or key, current, total, first_text))
    kind = "segment" if sections else "other"
    if kind == "other":
        # a header's words first (采购额 tells a supplier table under "主要销售客户及主要供应商情况")
        kind = next((kd.name for kd in words.kinds if any(content(w) in title + header_key for w in kd.strong)), None) \
            or next((kd.name for kd in words.kinds if any(w in header_key for w in kd.header)), None) \
            or next((kd.name for kd in words.kinds if any(content(w) in title for w in kd.title)), "other")
    columns = []
    numbered = {k for (_, k) in values}
    for k, h in enumerate(t.header):
        if not UNIT_LINE.sub("", h).strip() and k in numbered and k and k - 1 not in numbered and k - 1 < len(t.header):
            h = t.header[k - 1]   # a header shifted right by its unit line ("期末账面余额 | 币种：人民币")
        hk = content(tables.spell(content(norm(UNIT_LINE.sub("", h)))))
        y = _YEAR.search(norm(h))
        columns.append(Column(k, h, hk, bool(_SHARE_HEAD.search(hk)) and "毛利率" not in hk,
                              bool(_CHANGE.search(hk)), int(y.group(1)) if y else None, bool(_PREVIOUS.search(hk))))
    frame = Frame(t, kind, title, rows, columns,
                  sections, cut, numbers=values, filled={k: sum(1 for (_, c) in values if c == k) for k in {c for (_, c) in values}})
    frame.filtered = any(w in content(norm(" ".join(t.path[-1:]) + t.caption)) for w in words.filtered)
    _parts(frame)
    frame.keys = frozenset(x for r in frame.rows for x in (r.key, r.full) if x)
    if kind == "segment":
        _lost_section(frame, words)
    return frame


def _parts(frame: Frame) -> None:
    """The parts of a row printed under it ("个人存款 | 其中：活期存款 | 定期存款"): the rows from a "其中" on
    whose values add up to the row's, each named also with its whole's own words (个人 + 定期存款)."""
    k = next((c.index for c in frame.columns if not c.share and not c.change and c.index > 0
              and any(frame.number(r.index, c.index) is not None for r in frame.rows)), None)
    if k is None:
        return
    rows = frame.rows
    for n, r in enumerate(rows[:-1]):
        nxt = rows[n + 1]
        whole = frame.number(r.index, k)
        if whole is None or not frame.table.rows[nxt.index][0].strip().startswith("其中"):
            continue
        total, part = 0.0, []
        for c in rows[n + 1:]:
            v = frame.number(c.index, k)
            if v is None:
                break
            total += v
            part.append(c)
            if abs(total - whole) <= max(0.5, abs(whole) * 1e-6):
                break
        if abs(total - whole) > max(0.5, abs(whole) * 1e-6):
            continue
        for c in part:
            tail = os.path.commonprefix([r.key[::-1], c.key[::-1]])[::-1]   # 存款 of 个人存款 and 定期存款
            head = r.key[:len(r.key) - len(tail)] if tail else r.key
            if head and not c.key.startswith(head):
                c.full = head + c.key


def _lost_section(frame: Frame, words: FrameWords) -> None:
    """A section whose first row is the whole (分行业 printing one industry at 100%): the rows after it,
    up to the next section row, are the section the table does not print (its 分产品 lost by the layout)."""
    missing = [s.name for s in words.sections if s.name not in frame.sections and s.name != "channel"]
    if len(missing) != 1:
        return
    share = next((c.index for c in frame.columns if c.share), None)
    total = next((r for r in frame.rows if r.total and r.section is None), None)
    amount = next((c.index for c in frame.columns if not c.share and not c.change and c.index > 0), None)
    for n, r in enumerate(frame.rows[:-1]):
        if r.section is None or (n and frame.rows[n - 1].section == r.section):
            continue
        whole = (share is not None and frame.number(r.index, share) == 100.0) or (
            total is not None and amount is not None and frame.number(r.index, amount) is not None
            and frame.number(r.index, amount) == frame.number(total.index, amount))
        if not whole:
            continue
        for later in frame.rows[n + 1:]:
            if later.section != r.section:
                break
            later.section = missing[0]
        frame.sections.add(missing[0])
        return


# ------------------------------------------------------------------------------------------- the query

@dataclass
class Query:
    """What an ask does with a table's rows."""
    op: str                      # rank | share | sum | value | count
    order: str = "max"           # rank: max | min
    nth: int = 1
    group: str | None = None     # a section (region …) or a table kind (customer …) the rows are asked from
    group_word: str = ""
    whole: str = ""              # share: the whole's words ("" the table's own)
    add: bool = False            # the rows named are added ("合计", "加起来")
    words: list[str] = field(default_factory=list)   # the ask's words the query used


def _ranked_by_share(f: Frame, query: Query, rows: Rows, chosen: Chosen) -> Chosen:
    """The column a rank reads: where the layout cut a number of the chosen column ("118,800,0" of 期末持股数量),
    its printed share column beside it (持股比例) when every row's share was read — the rows' shares of one whole
    rank them as their amounts do; else the chosen column (the rank declines: run). The amount column stays
    the one said beside the row's share, unless its number is the one cut (_with_share)."""
    k = chosen.column.index
    share = chosen.share
    if query.op != "rank" or share is None or not any((r.index, k) in f.cut for r in rows.rows):
        return chosen
    if any((r.index, share.index) in f.cut or f.number(r.index, share.index) is None for r in rows.rows
           if f.number(r.index, k) is not None or (r.index, k) in f.cut):
        return chosen
    return Chosen(share, chosen.column, chosen.explained, chosen.alone)   # (the amount said beside, where read)


def _first(text: str, options: tuple[str, ...]) -> str:
    return next((w for w in options if w in text), "")


def read_query(ask: str, words: FrameWords, said: str = "") -> Query:
    """The query an ask is (op "value" when it asks nothing done with rows: a row's value, the cells' unless
    an alias, a range or a part names the row); `said` the ask as the question says it (its 几 kept)."""
    q = ask
    used: list[str] = []
    op = None
    order, nth = "max", 1
    nth_m = words.rank_nth.search(q) if words.rank_nth is not None else None
    mx, mn = _first(q, words.rank_max), _first(q, words.rank_min)
    if nth_m:
        n = nth_m.group("n") or (nth_m.group("m") if "m" in nth_m.re.groupindex else None) or "1"
        op, nth = "rank", int(n.translate(_CN)) if n != "十" else 10
        used.append(nth_m.group(0))
    elif mx or mn:
        op, order = "rank", "max" if mx and (not mn or q.find(mx) < q.find(mn)) else "min"
        used.append(mx if order == "max" else mn)
    within = words.rank_within.search(q) if op == "rank" and words.rank_within else None
    if within:
        used.append(within.group(0))   # "前五名客户中": the table's own rows
    share = words.share.search(q) if words.share else None
    whole = ""
    if share and op is None:
        op = "share"
        whole = share.group("whole") or ""
        used.append(share.group(0))
    # (a count's 几 is an ask word the asks are cut at: read in the ask as said)
    count = words.count.search(said or q) if words.count else None
    if count and op is None:
        op = "count"
        word = count.group(0)[:-len(count.group("group"))] if count.group("group") else count.group(0)
        used += [word, re.sub(r"^(?:几|多少)", "", word)] + [w for w in words.count_words if w in q]
    up, down = _first(q, words.and_up), _first(q, words.and_down)
    if op is None and (up or down):
        op = "sum"   # (the range's words are the row's: name_rows reads them)
    add = _first(q, words.add)
    if add:
        used.append(add)   # "2年以内合计", "加起来": the rows named are added
    which = _first(q, words.which)
    if which:
        used.append(which)
    group, group_word = None, ""
    for s in words.sections:
        w = _first(q, s.asked)
        if w and (which or op in ("rank", "count") or add) and len(w) > len(group_word):
            group, group_word = s.name, w
    for kd in words.kinds:
        w = _first(q, kd.asked)
        # (a kind's word names the group of a rank, count or sum: 专业 of 专业音响系列 is no 专业构成)
        if w and len(w) > len(group_word) and (which or op in ("rank", "count", "sum") or kd.name == "aging"):
            group, group_word = kd.name, w
    each = words.each.search(said or q) if words.each is not None and op is None and not add else None
    if each:
        # every row of a group asked (前五名客户的销售额分别是多少): listed, none ranked, counted or added
        # the group asked: a word written as a group — right after 分/各/每/所有/全部 or 前N名 (分地区 of "主营业务分
        # 地区的营业收入", not 业务 of 主营业务; not 系列 of 专业音响系列 whose two items 分别 asks), the longest
        best = 0
        src = said or q   # (as the question says it: the ask words 各 / 分别 are taken out of q)
        for g in [*((s.name, s.asked) for s in words.sections), *((k.name, k.asked) for k in words.kinds)]:
            for w in g[1]:
                at = src.find(w)
                if at > 0 and len(w) > best and w in q and (
                        src[at - 1] in "分各每" or src[:at].endswith(("所有", "全部")) or _TOP_N_BEFORE.search(src[:at])):
                    best, group, group_word = len(w), g[0], w
        if group_word and group != "aging" and not aging_span(q):   # (1年以内和1至2年分别: rows named)
            op = "list"
            used.append(each.group(0))
            top = _TOP_N.search(q)
            if top:
                used.append(top.group(0))   # "前五名客户": the table's own rows, every one of them
    if group_word:
        used.append(group_word)
    if op is None:
        op = "value"
    query = Query(op, order, nth, group, group_word, whole=whole, words=used, add=bool(add))
    return query


def aging_span(text: str) -> str:
    """The words of an aging range in a content string ("一至二年" of "应收账款中一至二年"), or ""."""
    aged = text.translate(_CN)
    m = prefilter.search(_AGE, aged)
    return text[m.start():m.end()] if m else ""


def _level_word(label: str, words: FrameWords) -> str:
    """The level word a label names (本科 of 本科以上), "" when none."""
    s = content(norm(label))
    return max((w for w in words.levels if w in s), key=len, default="")


def _aging_spans(text: str) -> list[str]:
    t = text.translate(_CN)
    return [text[m.start():m.end()] for m in _AGE.finditer(t)]


def aging_range(text: str) -> tuple[float, float] | None:
    """The years an aging label or ask spans: 1年以内 (0, 1), 1至2年 (1, 2), 3年以上 (3, inf), 6个月以内
    (0, 0.5)."""
    s = norm(text).translate(_CN)
    m = _AGE.search(s)
    if not m:
        return None

    def years(n: str, unit: str | None) -> float:
        return float(n) / 12 if unit in ("个月", "月") else float(n)
    if m.group("a"):
        return years(m.group("a"), m.group("au") or m.group("bu")), years(m.group("b"), m.group("bu"))
    if m.group("w"):
        return 0.0, years(m.group("w"), m.group("wu"))
    if m.group("o"):
        return years(m.group("o"), m.group("ou")), math.inf
    return years(m.group("p"), m.group("pu")), math.inf


def level_range(text: str, words: FrameWords, up: tuple[str, ...], down: tuple[str, ...], span: bool = False,
                label: bool = False, beside: bool = False):
    """The levels a label or ask spans: 本科 (3, 3), 硕士及以上 (4, inf), 大专及以下 (-inf, 2), 研究生 (4, 5)
    (with `span`: the words saying it, "硕士及以上")."""
    s = content(norm(text))
    word = max((w for w in words.levels if w in s), key=len, default="")
    if not word:
        return None
    low, high = words.levels[word]
    rest = s[s.find(word) + len(word):]
    if span:
        return s[s.find(word):s.find(word) + len(word) + next(
            (len(x) for x in (*up, *down) if rest.startswith(x)), 0)]  # type: ignore[return-value]
    if label and rest.startswith("以上"):
        # a row "本科以上" beside a row "本科": above it; alone, it may or may not hold 本科 (a range across
        # 本科's own, so a sum over it declines)
        return (float(high + 1), math.inf) if beside else (low - 0.5, math.inf)
    if label and rest.startswith("以下"):
        return (-math.inf, float(low - 1)) if beside else (-math.inf, high + 0.5)
    if any(rest.startswith(u) for u in up):
        return float(low), math.inf
    if any(rest.startswith(d) for d in down):
        return -math.inf, float(high)
    return float(low), float(high)


# ------------------------------------------------------------------------------------------- the steps

@dataclass
class Found:
    """find_tables: the frames an ask may be answered from, best first."""
    frames: list[Frame]


@dataclass
class Rows:
    """name_rows: the rows the query runs over, the words that named them."""
    frame: Frame
    rows: list[Row]
    named: str = ""           # the words of the ask naming a row ("境外")
    how: str = ""             # how they were named (alias 出口, range 1年以内 …)


@dataclass
class Chosen:
    """choose_column: the column read, and the printed share column of it when there is one."""
    column: Column
    share: Column | None
    explained: str            # the ask's words the column (or the title) explains
    alone: bool = False       # the table's one amount column of the year (none other could be meant)


@dataclass
class Result:
    """run: what the operation gives — the rows and values it read, the number it gives."""
    op: str
    rows: list[Row]
    values: list[float]
    value: float | None
    shown: str                # the value as it is said
    how: str = ""             # how it was computed (a share of what, a sum of which rows)
    declined: str = ""        # why it gives nothing


# a column header's year and period words ("2008年利息支出", "本期发生额"): what is left names its measure
_ENUMERATOR = re.compile(r"^[\d一二三四五六七八九十]+")
_YEAR_WORDS = re.compile(r"(?:19|20)\d\d年?度?|\d{1,2}月\d{1,2}日|本期|上期|期末|期初|年末|年初|发生额|余额|金额")


class FrameAnswerer:
    """Asks over a report's tables answered by frame queries (see the module's head)."""

    def __init__(self, cells: CellAnswerer, words: FrameWords, items: ItemTable | None = None,
                 settings: FrameSettings = SETTINGS):
        self.cells = cells
        self.items = items
        self.v = cells.v
        self.t = cells.t
        self.words = words
        self.s = settings
        self.tables = cells.tables   # (one table model: the cells' search and cache, each table's frame kept with it)
        self.tables.register("frame", lambda t: build_frame(t, self.tables, words))
        self.tables.groups([w for kd in words.kinds for w in kd.asked], [(kd.strong, kd.asked) for kd in words.kinds])
        self._continued: dict[int, int] = {}
        self._fragment: dict[int, bool] = {}
        self._statements: dict[int, bool] = {}
        self._answers: dict[tuple[str, str, bool], Answer | None] = {}   # (question, its words, printed) → answer
        self._found: dict[tuple[int, str, str], Found] = {}   # find_tables' (report, ask, query) → frames
        self._found_state: tuple[int, int] | None = None     # (the store's state they were found in)
        self._measures = {kd.name: kd.measure for kd in words.kinds}
        # a row held (marked \x02) or an alias said, then 业务/板块: the row named as a line of business (_rest)
        said = "|".join(map(re.escape, sorted({a for g in words.aliases for a in g}, key=len, reverse=True)))
        self._business = re.compile(rf"(\x02{'|' + said if said else ''})(?:{LINE_OF_BUSINESS.pattern})")
        # (title words as titles are compared: content, no 的)
        self._whole = {kd.name: tuple(map(content, kd.whole)) for kd in words.kinds}
        self._titled = {kd.name: tuple(map(content, kd.title)) for kd in words.kinds}
        self._strong = {kd.name for kd in words.kinds if kd.strong}
        self._titled_by = {kd.name: tuple(map(content, kd.columns)) for kd in words.kinds}
        w = words
        cues = [*w.rank_max, *w.rank_min, *w.which, *w.and_up, *w.and_down, *(a for g in w.aliases for a in g),
                *(a for k in w.kinds if k.name == "aging" for a in k.asked)]
        parts = [re.escape(c) for c in sorted(set(cues), key=len, reverse=True)]
        parts += [rx.pattern for rx in (w.rank_nth, w.share, w.count) if rx is not None]
        if w.each is not None:
            # every row of a group asked: an each word with a group's word around it
            group = "|".join(map(re.escape, sorted({a for s in w.sections for a in s.asked} |
                                                    {a for k in w.kinds for a in k.asked}, key=len, reverse=True)))
            if group:
                parts.append(f"(?:{group})[^，,。？?]{{0,12}}?(?:{w.each.pattern})|(?:{w.each.pattern})[^，,。？?]{{0,6}}?(?:{group})")
        self._cue = re.compile("|".join(parts)) if parts else None
        self._cued: dict[str, bool] = {}   # text → cued's answer
        # rows added ("化肥行业和精细化工的收入合计"): an add word with a joiner
        self._add = re.compile("|".join(map(re.escape, w.add))) if w.add else None

    def asks_each(self, u: Understanding) -> bool:
        """Whether the question asks a value of every row of a group (各子公司, 前五名客户…分别, 各地区) — not of
        one it names (全资子公司南通四方…的注册资本和净利润分别是多少)."""
        if _names_a_row(u):
            return False
        text = content(norm(u.norm))
        return _EACH_SUB.search(u.norm) is not None or read_query(text, self.words, text).op == "list"

    def cued(self, text: str) -> bool:
        """Whether a question has a word of an operation over rows (最高, 占…比重, 及以上, 几家), an alias
        (境外), an aging word or range (1年以内): only such a question is tried on the frames first."""
        got = self._cued.get(text)   # (a question is asked this by the router more than once)
        if got is None:
            if len(self._cued) > 1024:
                self._cued.clear()
            got = self._cued[text] = (self._cue is not None and prefilter.search(self._cue, text) is not None) or \
                prefilter.search(_AGE, norm(text).translate(_CN)) is not None or (   # an aging range (1年以内, 1至2年)
                    self._add is not None and prefilter.search(self._add, text) is not None
                    and _JOINED.search(text) is not None)
        return got

    # ---- step 0: the frame of a table, once
    def frame(self, t: TableRecord) -> Frame:
        return self.tables.prepared(t, "frame")   # type: ignore[no-any-return]   # (what build_frame made)

    # ---- step 1
    def find_tables(self, rep: Report, ask: str, query: Query) -> Found:
        """The report's tables whose words the ask holds, as frames of the group asked (a section or kind);
        kept while the store stays the same (the router tries an ask as found, then as printed)."""
        state = self.v.source.store.state()
        if state != self._found_state:
            self._found_state = state
            self._found.clear()
        key = (rep.id, ask, repr(query))
        got = self._found.get(key)
        if got is None:
            if len(self._found) > 1024:
                self._found.clear()
            got = self._found[key] = self._find_tables(rep, ask, query)
        return got

    def _find_tables(self, rep: Report, ask: str, query: Query) -> Found:
        words = [w for w in dict.fromkeys(tokens(ask)) if len(w) >= 2]
        # the labels an alias of the ask stands for (境外 → 出口, 国内 → 内销) first
        words = [a for g in self.words.aliases if any(x in ask for x in g) for a in sorted(g)] + words
        for s in self.words.sections:
            if s.name == query.group:
                words += list(s.row)
        if not words:
            return Found([])
        out = []
        for t in self.tables.find(rep.id, words, self.s.max_tables):   # (no statement: the lookup's)
            if any(w in h for h in t.path for w in self.words.parent):
                continue   # (a note of the parent company's own statements)
            f = self.frame(t)
            if self._statement_like(f):
                continue   # a statement under a heading the layout lost: the lookup's
            if query.group and query.group != f.kind and query.group not in f.sections:
                continue
            if not f.rows or not f.numbers:
                continue
            out.append(f)
        # a table titled as its kind (按账龄披露 before a 组合 table holding aging rows), then the consolidated
        # notes before the parent company's (printed later)
        out.sort(key=lambda f: (self._title_rank(f), f.table.page_start))
        return Found(out)

    def _statement_like(self, f: Frame) -> bool:
        """Whether the table's rows are a statement's lines (six or more of them the statements' items)."""
        items = self.items
        if items is None:
            return False

        def lines() -> bool:
            return sum(1 for r in f.rows for item in [items.canonical(r.label)]
                       if item is not None and items.statement_of(item) in STATEMENT_NAMES) >= self.s.statement_lines
        return _memo(self._statements, f.table.id, lines)

    def _title_rank(self, f: Frame) -> int:
        """How well the table is titled as its kind: the first of the kind's title words its own title holds
        (the list's order: 按账龄披露 before a bare 账龄), then a title in its header or columns, then none."""
        words = self._titled.get(f.kind, ())
        own = next((n for n, w in enumerate(words) if w in f.title), None)
        if own is not None:
            return own
        return len(words) if self._is_titled(f) else len(words) + 1

    def _is_titled(self, f: Frame) -> bool:
        """Whether the table is titled as its kind (its caption, heading, or a header line the layout ran its
        caption into: "持股5%以上的股东或前10名股东持股情况 股东名称")."""
        head = f.title + content(norm("".join(f.table.header[:1])))
        columns = "".join(c.key for c in f.columns)
        return any(w in head for w in self._titled.get(f.kind, ())) or f.kind in self._strong or \
            bool(self._titled_by.get(f.kind)) and all(w in columns for w in self._titled_by[f.kind])

    def fragment(self, f: Frame) -> bool:
        """Whether the table is the rest of one before it (same heading, its pages): its rows are not all
        of the table's."""
        def rest() -> bool:
            before = self.v.source.store.report_tables(f.table.report_id,
                                                       list(range(max(1, f.table.id - 5), f.table.id)))
            # no header of its own (or the one before's printed again), after a table of the same heading
            # on its page or the one before
            return any(b.path == f.table.path and f.table.page_start - 1 <= b.page_end <= f.table.page_start
                       and b.rows and (not any(h.strip() for h in f.table.header) or b.header == f.table.header)
                       for b in before)
        return _memo(self._fragment, f.table.id, rest)

    def continued(self, f: Frame) -> int:
        """Whether the table goes on in a next one of its heading, within a page: 2 when that one has no
        header of its own, 1 when it prints this one's header again, else 0. A rank, count or sum over its
        rows alone could miss the rest."""
        def goes_on() -> int:
            got = 0
            # the next tables of its pages (a fragment of another table may come between: 海翔药业's
            # 主要子公司 goes on two tables later)
            for nxt in self.v.source.store.report_tables(f.table.report_id,
                                                         list(range(f.table.id + 1, f.table.id + 6))):
                if not (f.table.page_start <= nxt.page_start <= f.table.page_end + 1) or not nxt.rows:
                    continue
                if nxt.path == f.table.path and not any(h.strip() for h in nxt.header):
                    return 2
                if nxt.path == f.table.path and nxt.header == f.table.header:
                    got = 1   # its header printed again over the rest
            return got
        return _memo(self._continued, f.table.id, goes_on)

    # ---- step 2
    def name_rows(self, f: Frame, query: Query, rest: str) -> Rows | None:
        """The rows of the frame the query runs over: the group's rows (a rank, a count), or the row the
        ask's words `rest` name — by its label, an alias (境外 → 出口), a range (1年以内, 硕士及以上)."""
        # (a list keeps a row of 其他: it is one of the group's rows, and a list missing it is wrong)
        rows = [r for r in f.rows if not r.total and (not _GENERIC.match(r.key) or (
                query.op == "list" and r.key in ("其他", "其它")))
                and (query.group is None or query.group == f.kind or r.section == query.group)]
        if query.op in ("rank", "count", "list"):
            if query.group is None and f.sections:
                return None   # a rank over rows of several groups (专业构成 and 教育程度) is none of them
            rows = [r for r in rows if not _SUBTOTAL.search(r.key)]
            # rows named as the group is (哪家分行: the rows …分行, not 总行本部 or 信用卡中心)
            def named(r: Row, word: str) -> bool:
                return r.key.endswith(word) or content(norm(r.first)).endswith(word)
            asked = sorted({content(query.group_word), *(content(w) for k in self.words.kinds if k.name == query.group
                                                        for w in k.asked)} - {""}, key=len, reverse=True)
            # (when most rows are so named: 45 of 兴业银行's 50 rows end in 分行, 2 of 华锦股份's 6 products in 产品)
            word = next((w for w in asked if sum(named(r, w) for r in rows) >= 0.6 * len(rows)), "")
            if word:
                rows = [r for r in rows if named(r, word)]
            return Rows(f, rows) if rows else None
        if not rest:
            return None
        # (a total row named is a row too: "非经常性损益合计"; it is only never ranked, counted or added)
        candidates = rows + [r for r in f.rows if r.total and (query.group is None or r.section in (None, query.group))]
        up, down = self.words.and_up, self.words.and_down
        ranged = bool(aging_span(rest)) or level_range(rest, self.words, up, down) is not None
        if ranged:
            spans = _aging_spans(rest)
            if len(spans) > 1:
                # "1至2年加2至3年的合计", "1年以内和1至2年分别是多少": each bucket as printed, added or each
                buckets = [next((r for r in rows if aging_range(r.label) == aging_range(x)), None) for x in spans]
                picked = [r for r in buckets if r is not None]
                if len(picked) < len(buckets):
                    return Rows(f, [], rest, "declined")
                return Rows(f, picked, "|".join(spans), "sum" if query.add else "each")
            # the range's words as a label prints them ("本科以上" of a table listing 本科 and 本科以上)
            said = aging_span(rest) or level_range(rest, self.words, up, down, span=True) or ""
            hit = [r for r in rows if r.key == said]
            if hit:
                return Rows(f, hit[:1], said, "range")
        # a label the words hold whole, or an alias of it (not inside a range: 本科 of 本科及以上, 年以内 of
        # 2年以内 name other rows)
        found: list[tuple[int, str, Row]] = []   # (where, the words, the row) of every label named
        taken = [False] * len(rest)
        for n in range(len(rest), 1, -1) if not ranged else ():
            for i in range(len(rest) - n + 1):
                if any(taken[i:i + n]):
                    continue
                w = rest[i:i + n]
                names = self.words.alias_of(w)
                if "|" in w:
                    continue
                hit = [r for r in candidates if r.key and (r.key in names or r.key == w or r.full == w or (
                    r.total and w.endswith(r.key) and len(w) > len(r.key) and _held(w[:-len(r.key)], f.title)))]
                if hit:
                    found.append((i, w, hit[0]))
                    taken[i:i + n] = [True] * n
        if len(found) == 1:
            _, w, row = found[0]
            return Rows(f, [row], w, "" if row.key == w else f"“{w}”即表中的“{row.label}”")
        if len(found) > 1:
            # "化肥行业和精细化工两个行业的收入合计", "销售人员和管理人员各有多少": each row, added or each
            found.sort()
            picked = list({r.index: r for _, _, r in found}.values())
            if len(picked) > 1:
                return Rows(f, picked, "|".join(w for _, w, _ in found), "sum" if query.add else "each")
        # a range: an aging bucket, a level of education
        want = aging_range(rest) if f.kind == "aging" or "年" in rest else None
        span = [(r, aging_range(r.label)) for r in rows] if want else []
        said = aging_span(rest) if want else ""
        said_age = want is not None
        if not want:
            want = level_range(rest, self.words, up, down)
            bare = {_level_word(r.label, self.words) for r in rows if level_range(r.label, self.words, up, down) is not None
                    and _level_word(r.label, self.words) == content(norm(core(r.label)))}
            span = [(r, level_range(r.label, self.words, up, down, label=True,
                                    beside=_level_word(r.label, self.words) in bare)) for r in rows] if want else []
            said = level_range(rest, self.words, up, down, span=True) if want else ""
            # an ask "本科以上" (no 及) no row prints so: it may or may not hold 本科 — declined
            if said and re.search(r"(?<!及)(?:以上|以下)$", said):
                return Rows(f, [], said, "declined")
        if want:
            rest = said
            exact = [r for r, s in span if s == want]
            if exact:
                return Rows(f, exact[:1], rest, "range")
            inside = [(r, s) for r, s in span if s and want[0] <= s[0] and s[1] <= want[1]]
            # a row reaching past the range asked: an age's bounds are shared (1至2年 ends where 2年以上 starts),
            # a level is a whole rank (大中专 holds 大专 of 大专及以上 and 中专 below it)
            across = [r for r, s in span if s and not (want[0] <= s[0] and s[1] <= want[1]) and (
                s[0] < want[1] and s[1] > want[0] if said_age else s[0] <= want[1] and s[1] >= want[0])]
            if across or not inside:
                return Rows(f, [], rest, "declined")
            # rows within another row taken (其中：6个月以内 under 1年以内) are not added twice
            kept = [r for r, s in inside if not any(o is not r and o2[0] <= s[0] and s[1] <= o2[1] and o2 != s
                                                     for o, o2 in inside)]
            return Rows(f, kept, rest, "sum")
        return None

    # ---- step 3
    def choose_column(self, f: Frame, query: Query, rest: str, year: int, named_only: bool = False) -> Chosen | None:
        """The column of the measure asked (营业收入, 销售额, 余额), of the year asked; none named: the
        first amount column of the year (a column of the year before or of a change only when asked)."""
        amounts = [c for c in f.columns if not c.change and not c.share and c.index > 0
                   and f.filled.get(c.index, 0) > 0]
        amounts = [c for c in amounts if not c.previous and (c.year is None or c.year == year)] or []
        # (平均余额 only when an average is asked)
        amounts = [c for c in amounts if not any(w in c.key and w not in rest for w in self.words.qualified)]
        if not amounts:
            return None
        # the column whose header holds most of the ask's words (two characters at least); none: the kind's
        # measure (持股数量 of a shareholder table), else the first amount column that is no rate
        # (a share column when its header is named: 持股比例)
        named = amounts + [c for c in f.columns if c.share and not c.previous and (c.year is None or c.year == year)
                           and f.filled.get(c.index, 0) > 0] * bool(_RATE.search(rest))
        # (a rate's column — 预期信用损失率, 毛利率 — only when a rate is asked)
        rate_asked = bool(_RATE.search(rest))
        held = [(sum(cover(rest, pairs(c.key))), c) for c in named if rest and c.key
                and (rate_asked or not _RATE.search(c.key))]
        best = max((n for n, _ in held), default=0)
        if named_only and best < 2:
            return None
        # (of amount columns, the one holding the most of the table's numbers: a total's stray cell under
        # another header is no column of the rows)
        filled = sorted((c for c in amounts if not _RATE.search(c.key)), key=lambda c: -f.filled.get(c.index, 0))
        # a kind's own measure (持股数量, else 持股比例 — never a column of another figure: 持有有限售条件的股份数量)
        numbered = [c for c in f.columns if c.index > 0 and not c.change and not c.previous
                    and f.filled.get(c.index, 0) > 0]
        measures = self._measures.get(f.kind, ())
        default = next((c for w in measures for c in numbered if w in c.key), None) if measures else \
            next(iter(filled), None)
        column = next(c for n, c in held if n == best) if best >= 2 else default
        if column is None:
            return None
        explained = "".join(ch for ch, m in zip(rest, cover(rest, pairs(column.key))) if m) if best >= 2 else ""
        # its share column: the first after it of the same year (2019年金额 | 占营业收入比重), else the one
        # nearest it (持股比例 | 持股数量)
        alone = len(filled) == 1
        if column.share:
            # a share read (持股比例): the kind's measure beside it (持股数量)
            other = next((c for w in self._measures.get(f.kind, ()) for c in amounts if w in c.key), None)
            return Chosen(column, other, explained, alone)
        shares = [c for c in f.columns if c.share and not c.previous and (c.year is None or c.year == year)
                  and c is not column]
        share = next((c for c in shares if c.index > column.index), None) or \
            min(shares, key=lambda c: abs(c.index - column.index), default=None)
        return Chosen(column, share, explained, alone)

    # ---- step 4
    def run(self, f: Frame, query: Query, rows: Rows, chosen: Chosen) -> Result:
        """The query's operation over the rows named, in the chosen column; a number of them the layout cut
        declines it (its value unknown, so is any rank, sum or list it is in)."""
        k = chosen.column.index
        if any((r.index, k) in f.cut for r in rows.rows):
            return Result(query.op, [], [], None, "", declined="cut")
        if (query.op == "count" or (rows.how == "sum" and rows.named and aging_span(rows.named) == "")) and \
                self.continued(f):
            return Result(query.op, [], [], None, "", declined="continued")   # the rows after a page break
        if query.op in ("count", "rank") or rows.how == "sum":
            if self.fragment(f):
                return Result(query.op, [], [], None, "", declined="fragment")   # the rest of a table
        if f.filtered and (query.op == "count" or rows.how == "sum" or (query.op == "rank" and (
                query.order == "min" or query.nth > 1 or not chosen.column.key or chosen.column.key not in f.title))):
            # (a table of the rows past 10% of what its title names — 营业收入, 净利润: ranked from the top by
            # that column only)
            return Result(query.op, [], [], None, "", declined="filtered")
        if rows.how == "sum" and _RATE.search(chosen.column.key):
            return Result("sum", [], [], None, "", declined="rates")   # rates are not added
        read: list[tuple[Row, float]] = []
        for r in rows.rows:
            v = f.number(r.index, k)
            if v is not None:
                read.append((r, v))
        if query.op == "rank":
            if len(read) < self.s.min_rows or len(read) < query.nth:
                return Result("rank", [], [], None, "", declined="rows")
            if self.continued(f):
                # the rows after the page break are not read: only a table printed in order (前十名股东,
                # 前五名客户) ranks from the top, within the rows read
                printed = [v for _, v in read]
                top = printed[:query.nth + 1]
                if query.order != "max" or any(a < b for a, b in zip(top, top[1:])) or \
                        max(printed[query.nth:], default=-math.inf) > printed[query.nth - 1]:
                    return Result("rank", [], [], None, "", declined="continued")
            ordered = sorted(read, key=lambda rv: rv[1], reverse=query.order == "max")
            r, v = ordered[query.nth - 1]
            if query.nth == 1 and len(ordered) > 1 and ordered[1][1] == v:
                return Result("rank", [], [], None, "", declined="tie")
            return Result("rank", [r], [v], v, _pct(f.cell(r.index, k), chosen.column))
        if query.op == "list":
            # every row of the group, each with its number: a row whose number is not read, a table continued
            # over a page or a fragment of one lists no group whole
            first_n = _TOP_N.search("".join(query.words))
            n = first_n.group(0)[1:].rstrip("名大位家").translate(_CN) if first_n else ""
            whole = n.isdigit() and int(n) == len(read)   # (前五名 and five rows read: the list is whole)
            if len(read) != len(rows.rows) or len(read) < 2 or (not whole and (self.continued(f) or self.fragment(f))) \
                    or (n.isdigit() and not whole):
                # (前三名 of a table of five: which three is the table's order, not read here)
                return Result("list", [], [], None, "", declined="rows")
            return Result("list", [r for r, _ in read], [v for _, v in read], None,
                          "；".join(f"{_name(f, r)}：{_pct(f.cell(r.index, k), chosen.column)}" for r, _ in read))
        if query.op == "count":
            # (a row with no number is a name's next line, no row of its own)
            counted = [r for r in rows.rows if r.key and any(f.number(r.index, c.index) is not None for c in f.columns)]
            return Result("count", counted, [], float(len(counted)), str(len(counted)))
        if not read:
            return Result(query.op, [], [], None, "", declined="rows")
        if rows.how == "each":
            if len(read) != len(rows.rows):
                return Result("each", [], [], None, "", declined="rows")
            return Result("each", [r for r, _ in read], [v for _, v in read], None,
                          "、".join(_pct(f.cell(r.index, k), chosen.column) for r, _ in read))
        if rows.how == "sum" and len(read) < len(rows.rows):
            return Result("sum", [], [], None, "", declined="rows")   # a row's number not read: no sum
        if rows.how == "sum" or len(read) > 1:
            total = sum(v for _, v in read)
            return Result("sum", [r for r, _ in read], [v for _, v in read], total,
                          _fmt(total, [f.cell(r.index, k) for r, _ in read]),
                          how="＋".join(r.label for r, _ in read))
        r, v = read[0]
        return Result("value", [r], [v], v, _pct(f.cell(r.index, k), chosen.column))

    def share_of(self, f: Frame, query: Query, result: Result, chosen: Chosen) -> Result:
        """The row's share of the whole: the printed share column, else the row ÷ the table's total row
        (said so); a whole the table does not print declines."""
        if not result.rows:
            return result
        if chosen.share is not None and (not query.whole or _held(query.whole, chosen.share.key)
                                         or _held(query.whole, f.title + chosen.column.key)):
            got = [f.number(r.index, chosen.share.index) for r in result.rows]
            if all(g is not None for g in got):
                value = sum(g for g in got if g is not None)
                shown = f.cell(result.rows[0].index, chosen.share.index) if len(got) == 1 else f"{value:.2f}"
                return Result("share", result.rows, result.values, value, shown.rstrip("%") + "%", how="printed")
        # the whole: a row the whole's words name (主营业务 of "占主营业务收入"), else the table's total row
        whole_key = content(query.whole)
        total = next((r for r in f.rows if len(r.key) >= 2 and whole_key and r not in result.rows
                      and (whole_key == r.key or (whole_key.startswith(r.key) and _held(whole_key[len(r.key):],
                                                                                         chosen.column.key + f.title)))),
                     None) or next((r for r in f.rows if r.total and (r.section is None or
                                                                        r.section == result.rows[0].section)), None)
        k = chosen.column.index
        if not (chosen.explained or chosen.alone or f.kind == "segment"):
            # a share computed in a column nobody named, of a table of several figures (余额, 利息收入 …):
            # which one is meant is not known
            return Result("share", [], [], None, "", declined="column")
        whole = f.number(total.index, k) if total is not None else None
        if total is not None and whole and (not query.whole or _held(query.whole, f.title + chosen.column.key + total.key)):
            value = (result.value or 0.0) / whole * 100
            return Result("share", result.rows, result.values, value, f"{value:.2f}%",
                          how=f"{result.shown}÷{f.cell(total.index, k)}（{total.label or '合计'}）")
        section = result.rows[0].section
        beyond = "".join(ch for ch, m in zip(query.whole, cover(query.whole, pairs(chosen.column.key))) if not m)
        if total is None and section and query.whole and beyond and _held(query.whole, f.title + chosen.column.key) \
                and not f.filtered \
                and self.continued(f) != 2:
            # no total printed: the whole the table's title names (主营业务收入 of 主营业务分地区情况) is its
            # section's rows added, said so
            part = [f.number(r.index, k) for r in f.rows if r.section == section and not r.total]
            if part and all(v is not None for v in part) and len(part) >= 2:
                whole = sum(v for v in part if v is not None)
                value = (result.value or 0.0) / whole * 100
                return Result("share", result.rows, result.values, value, f"{value:.2f}%",
                              how=f"{result.shown}÷{whole:,.2f}（表中{len(part)}行之和）")
        return Result("share", [], [], None, "", declined="whole")

    # ---- the ask

    def answer(self, u: Understanding, printed: bool = False) -> Answer | None:
        """The frame query's answer of the question, or None when the frames do not account for it. A row
        named as printed with nothing done to it is the cells answerer's, unless `printed` (they found
        nothing). The same ask is tried again by the router (the whole question first, then as an ask, then
        after the cells): its answer is kept for the last questions."""
        key = (u.question, u.norm, printed)
        if key in self._answers:
            got = self._answers[key]
            return copy.copy(got) if got is not None else None
        got = self._answer(u, printed)
        if len(self._answers) > 256:
            self._answers.clear()
        self._answers[key] = got
        return copy.copy(got) if got is not None else None

    def _answer(self, u: Understanding, printed: bool) -> Answer | None:
        if not u.companies or u.shape == "yes_no" or u.unit == "" and not printed:
            return None   # (多少元: the cells answer it — the frames where they found nothing)
        # (an amount asked in 万元/亿元: the cells answerer converts it — unless the table prints that unit: below)
        asked_unit = None if u.unit is None else f"{u.unit}元"
        rep, name, year, note = self.v.report(u)
        if rep is None or year is None or rep.year != year or len(set(u.years.explicit)) > 1:
            return None
        q = self.cells.question_text(u)
        # (asks part at a stop or a comma: "第一大股东是谁，持股比例多少", "在职员工合计多少人，其中本科…")
        asks = [a for a in joined_asks(_COMMA_STOP.split(q)) for a in _STOP.split(a) if content(a.replace("|", ""))]
        parts: list[str] = []
        evidence: list[CellEvidence] = []
        last: Result | None = None
        last_frame: Frame | None = None
        last_chosen: Chosen | None = None
        asked = [a for a in joined_asks(_COMMA_STOP.split(norm(u.norm))) for a in _STOP.split(a) if content(a)]
        for n, ask in enumerate(asks):
            text = content(ask)
            query = read_query(text, self.words, content(asked[n]) if len(asked) == len(asks) else "")
            got = self._ask(u, rep, year, text, query, last, last_frame, last_chosen, printed)
            if got is None:
                return None
            f, chosen, result, said = got
            if result.declined:
                return None
            if asked_unit is not None and self._unit(f, chosen.column) not in ("", asked_unit):
                return None   # (a unit asked that the table does not print: converted by the cells, or declined)
            if said:
                parts.append(said)
            evidence.extend(e for e in self._evidence(rep, f, chosen, result) if e not in evidence)
            last, last_frame, last_chosen = result, f, chosen
            if result.op == "rank" and WHO_ASKED.search(u.norm) and UNNAMED.match(content(norm(_name(f, result.rows[0])))):
                # "第一大客户是哪家公司" of a table listing 客户一…客户五: the name is not disclosed — said so,
                # with what the row prints, and counted as not answered
                where = f.table.caption or (f.table.path[-1] if f.table.path else "表格")
                text = render(self.t, "cell_unnamed", company=name, year=year, table=where,
                              page=self._page(f, result.rows[0]), labels=f"“{_name(f, result.rows[0])}”",
                              cells=said.split("是“", 1)[-1].replace("”，", "：", 1))
                return Answer(u.question, note + text, u.finglm_type(), "declined", list[Evidence](evidence),
                              found=False)
        if not parts or asked_unit is not None and not any(e.value.endswith(asked_unit) for e in evidence):
            return None   # (the unit asked is printed by no value read)
        text = note + "；".join(parts) + "。"
        ans = Answer(u.question, text, u.finglm_type(), "frame", list[Evidence](evidence))
        if len(parts) == 1 and last is not None:
            ans.shown = last.shown
        return ans

    def _ask(self, u, rep, year, text, query, last, last_frame, last_chosen, printed=False):
        if query.op == "list" and _names_a_row(u):
            return None   # (a row named — 全资子公司南通四方… — is no group listed)
        if query.op == "share" and last is not None and last_frame is not None and last_chosen is not None \
                and not self._rest(text, query, "", u):
            # "…哪类产品最高？占营业收入的比重是多少": the row of the ask before
            result = self.share_of(last_frame, query, last, last_chosen)
            if result.declined:
                return None
            return last_frame, last_chosen, result, self._said(u, last_frame, query, last_chosen, result, year=year,
                                                               brief=True)
        if query.op == "value" and not query.group and last is not None and last_frame is not None \
                and len(last.rows) == 1 and last.op in ("rank", "value"):
            # "第一大股东是谁？持股比例多少": a column of the row the ask before found
            rest = self._rest(text, query, last_frame.title, u)
            chosen = self.choose_column(last_frame, query, rest, year, named_only=True)
            left = "".join(ch for ch, m in zip(rest, cover(rest, pairs(chosen.column.key))) if not m) \
                if chosen is not None else rest
            if chosen is not None and len(left) <= self.s.unexplained:
                r = last.rows[0]
                cell = last_frame.cell(r.index, chosen.column.index)
                value = last_frame.number(r.index, chosen.column.index)
                if value is not None and (r.index, chosen.column.index) not in last_frame.cut:
                    result = Result("value", [r], [value], value, _pct(cell, chosen.column))
                    shown = {last_chosen.column.index, last_chosen.share.index if last_chosen.share else -1}
                    # (a column the part before already gave, its share beside its value: said once)
                    said = "" if chosen.column.index in shown else self._said(
                        u, last_frame, query, chosen, result, year=year, brief=True)
                    return last_frame, chosen, result, said
        found = self.find_tables(rep, text, query)
        items = [c for c in (content(norm(i)) for i in u.items) if len(c) >= 2 and c in text]
        asked_items = {content(norm(x)) for k in u.keywords if k.kind == "item" for x in (k.name, k.text)}
        # the question's items the statements hold, as the question says them
        statement_items = {content(norm(x)) for k in u.keywords if k.kind == "item"
                           and self.v.info(k.name).statement in STATEMENT_NAMES for x in (k.name, k.text)}
        contexts: dict[int, str] = {}
        topical = []
        # an ask naming rows by their words (no group, no range) reads only tables with such a row: the rest
        # are passed by at once
        ranged = bool(aging_span(text)) or level_range(text, self.words, self.words.and_up,
                                                         self.words.and_down) is not None
        named_only = query.group is None and query.op in ("value", "share") and not ranged
        aliases = {a for g in self.words.aliases if any(x in text for x in g) for a in g}
        for f in found.frames:
            if named_only and not aliases.intersection(f.keys) and not any(k in text for k in f.keys if len(k) >= 2):
                continue
            context = contexts[f.table.id] = content(self.cells.spell(content(norm(
                "".join(f.table.path[-3:]) + f.table.caption))))
            # the question's items (其他应收款) name the table's topic: its caption, heading or a column
            heads = context + "".join(c.key for c in f.columns)
            # (an item that is itself a row or a range of rows — 本科及以上 — names rows, not the topic)
            if all(i in heads or _held(i, heads) or any(i in r.key for r in f.rows)
                   or level_range(i, self.words, self.words.and_up, self.words.and_down) is not None
                   for i in items):
                topical.append(f)
        if query.op in ("rank", "count", "sum", "list"):
            # a table titled as its kind answers alone when there is one (a rank over 主要子公司… never falls
            # back to a note's table that happens to list a few of them)
            own = [f for f in topical if self._is_titled(f)]
            if own or query.group in _ENTITIES:
                topical = own   # (an entity's rows — 股东, 客户, 分行 — only from a table titled so)
            if query.op in ("count", "sum") and self._whole.get(query.group or ""):
                # rows counted or added from a table listing them all (企业集团的构成), never from one of the
                # main ones (主要子公司…)
                topical = [f for f in topical if any(w in f.title for w in self._whole[query.group or ""])]
        for f in topical:
            context = contexts[f.table.id]
            # an item the topic holds is said by it; one a column holds names the column (营业成本)
            keys = [c.key for c in f.columns if c.key]
            rest = self._rest(text, query, f.title, u, [i for i in items if (i in context or _held(i, context))
                                                          and not any(i in k for k in keys)],
                              [x for r in f.rows for x in (r.key, r.full) if x])
            chosen = self.choose_column(f, query, rest, year)
            if chosen is None and query.op == "count" and f.columns:
                chosen = Chosen(f.columns[0], None, "")   # (rows are counted, no column read)
            if chosen is None:
                continue
            # the words the column's header holds are set apart ('|'): what is left names the row
            left = _apart(rest, pairs(chosen.column.key)) if chosen.explained else rest
            rows = self.name_rows(f, query, left)
            if rows is None:
                continue
            if query.op == "value" and not rows.how and not printed:
                continue   # a row named as printed: the cells answerer's
            if (query.add or _EACH.search(u.norm)) and len(rows.rows) == 1 and rows.how not in ("range", "sum"):
                continue   # several rows asked ("…和…合计", "分别是多少"), one named: not this table's
            if query.op != "rank" and any(
                    r.key in statement_items or r.full in statement_items for r in rows.rows):
                continue   # a row that is a statement's item (短期借款占负债合计): the statements'
            ranged = bool(aging_span(rows.named)) or level_range(
                rows.named, self.words, self.words.and_up, self.words.and_down) is not None
            if query.op in ("value", "share") and not ranged and rows.rows and all(
                    r.key in asked_items or r.full in asked_items for r in rows.rows):
                continue   # rows the question's items name each (技术人员和财务人员): the items' own answer
            # what is left beside the row and the whole, the column or the table's own title (营业收入构成,
            # 按账龄披露) explains, nothing else
            left = rest
            for part in rows.named.split("|"):
                left = _without(left, part)
            left = _without(left, query.whole)
            if len(_apart(left, pairs(f.title) | pairs(chosen.column.key)).replace("|", "")) > self.s.unexplained:
                continue
            if self._unasked_measure(f, chosen, u, rows):
                continue   # the table measures another item than asked (利息支出 of 零售存款)
            if rows.how == "declined":
                result = Result("sum", [], [], None, "", declined="range")
            else:
                chosen = _ranked_by_share(f, query, rows, chosen)
                result = self.run(f, query, rows, chosen)
            if query.op == "share" and not result.declined:
                result = self.share_of(f, query, result, chosen)
            if result.declined:
                continue
            return f, chosen, result, self._said(u, f, query, chosen, result, rows, year)
        return None

    def _unasked_measure(self, f: Frame, chosen: Chosen, u: Understanding, rows: Rows) -> bool:
        """Whether the table measures an item of its own that the question does not ask: its title (（1）利息净收入)
        or, read for want of a column named, its column ("2008年利息支出") — for "零售存款占存款总额的比重" the
        deposits' interest is not the deposits."""
        if self.items is None or not u.items:
            return False
        measures = [_ENUMERATOR.sub("", content(norm(f.table.path[-1] if f.table.path else "")))]
        if not chosen.explained:
            measures.append(_YEAR_WORDS.sub("", chosen.column.key))
        for measure in measures:
            item = self.items.canonical(measure) if len(measure) >= 2 else None
            if item is not None and item not in u.items and not any(item in (r.key, r.full) for r in rows.rows):
                return True
        return False

    def _rest(self, text: str, query: Query, title: str, u: Understanding, items: Sequence[str] = (),
              labels: Sequence[str] = ()) -> str:
        """The ask's words no part of the query (or an item the table's topic holds) used: what names a
        row or a column. The row labels it holds (`labels`) are kept whole: no word inside one is taken for
        the group's, a filler or a neutral word (个人 of 个人定期存款, 行业 of 化肥行业)."""
        kept: list[str] = []

        def keep(m: re.Match) -> str:
            kept.append(m.group(0))
            return f"\x01{len(kept) - 1}\x02"
        # (where the question looks says no row: "按账龄披露中", "按类别划分" — the group's rows are asked after it —
        # where it names the table's own title: of another table's, it is left unexplained)
        rest = _LAID_OUT.sub(lambda m: "" if _LOOKED_IN_AT_END.sub("", m.group(0)) in content(title) else m.group(0), text)
        group_words = {w for s in self.words.sections if s.name == query.group for w in s.asked} | \
            {w for k in self.words.kinds if k.name == query.group for w in k.asked}
        # (the operation's own words first: "占营业收入比例" holds the label 营业收入)
        for w in sorted(query.words, key=len, reverse=True):
            if w != query.group_word or not group_words:
                rest = _without(rest, content(w))
        # (of three characters or more: 内销 inside 国内销售收入 is no label said)
        held = sorted({x for x in labels if len(x) >= 3 and x in rest}, key=len, reverse=True)
        if held:
            rest = re.sub("|".join(map(re.escape, held)), keep, rest)
        if labels:
            # a row named as a line of business ("国外业务", "海外业务", "冷冻设备板块"): 业务/板块 says the row is one
            rest = self._business.sub(r"\1", rest)
        if group_words:
            # the group's words ("哪个地区", "两个行业", "产品系列"), with a count before them
            group = "|".join(map(re.escape, sorted(group_words, key=len, reverse=True)))
            rest = re.sub(rf"(?:(?:两|[二三四五六七八九十]|\d{{1,2}})(?:个|家|项|类|名))?(?:{group})", "", rest)
        for i in items:
            rest = rest.replace(i, "")
        rest = re.sub(r"^(?:末|底)", "", rest)   # the 末 of a masked "2019年末" (a 年初 stays: it asks another column)
        rest = _LOOKED_IN_AT_START.sub("", rest)   # (the 中 of "应收账款中2至3年…", its item taken out)
        for said, header in self.words.said_for:
            rest = rest.replace(said, header)
        marks = self.cells.neutral_marks(rest)
        rest = "".join(ch for ch, m in zip(rest, marks) if not m)
        for w in u.filler:
            rest = _without(rest, content(w))
        return re.sub(r"\x01(\d+)\x02", lambda m: kept[int(m.group(1))], rest)

    def _said(self, u, f: Frame, query: Query, chosen: Chosen, result: Result, rows: Rows | None = None,
              year: int = 0, brief: bool = False) -> str:
        """What the result says, with where it was read (`brief`: of the row the part before named, in its
        table: its value alone)."""
        where = f.table.caption or (f.table.path[-1] if f.table.path else "表格")
        page = self._page(f, result.rows[0]) if result.rows else f.table.page_start
        measure = _shown(chosen.column.header) or ("人数" if f.kind in ("education", "profession") else "数值")
        # (a header the layout ran other words into: said by the kind's measure it holds — 持股数量)
        measure = next((w for w in self._measures.get(f.kind, ()) if w in chosen.column.key and w != chosen.column.key),
                       measure)
        if _AMOUNT.match(content(norm(measure))) and u.items:
            measure = u.items[0]   # "2019年金额" of a table of 营业收入构成: the item asked
        unit = self._unit(f, chosen.column)
        name = self.v.company(u)[1]
        head = f"{name}{year}年年度报告"
        if result.op == "rank":
            order = "最高" if query.order == "max" else "最低"
            if query.nth > 1:
                order = f"第{query.nth}{'高' if query.order == 'max' else '低'}"
            group = query.group_word or "项目"
            return (f"{head}「{where}」（第{page}页）中{measure}{order}的{group}是“{_name(f, result.rows[0])}”，"
                    f"{measure}{result.shown}{unit}{self._with_share(f, chosen, result)}")
        if result.op == "share":
            how = "（表中所列）" if result.how == "printed" else f"（{result.how}）"
            label = "、".join(r.label for r in result.rows)
            whole = query.whole or "合计"
            if brief:
                return f"其占{whole}的比重为{result.shown}{how}"
            if len(result.rows) == 1 and result.values:
                value = f.cell(result.rows[0].index, chosen.column.index)
                return (f"{head}「{where}」（第{page}页）中“{label}”的{measure}为{value}{unit}，"
                        f"占{whole}的比重为{result.shown}{how}")
            return f"{head}「{where}」（第{page}页）中“{label}”占{whole}的比重为{result.shown}{how}"
        if result.op == "list":
            listed = "；".join(f"{_name(f, r)}：{f.cell(r.index, chosen.column.index)}{unit}" for r in result.rows)
            return f"{head}「{where}」（第{page}页）中各{query.group_word or '项目'}的{measure}：{listed}"
        if result.op == "count":
            unit = "家" if f.kind in ("subsidiary", "customer", "supplier", "branch") else "个"
            more = "等" if len(result.rows) > self.s.max_listed else ""
            return f"{head}「{where}」（第{page}页）列出的{query.group_word or '项目'}共{result.shown}{unit}：" + \
                "、".join(_name(f, r) for r in result.rows[:self.s.max_listed]) + more
        label = "、".join(_name(f, r) for r in result.rows)
        if brief:
            return f"其{measure}为{result.shown}{unit}"
        how = f"，{rows.how}" if rows is not None and rows.how and rows.how not in ("sum", "declined", "range", "each") \
            else ""
        if result.op == "sum":
            parts = "＋".join(f"{r.label}{f.cell(r.index, chosen.column.index)}" for r in result.rows)
            named = rows.named.replace("|", "、") if rows else label
            return f"{head}「{where}」（第{page}页）中{named}的{measure}合计{result.shown}{unit}（{parts}）"
        if result.op == "each":
            parts = "；".join(f"“{r.label}”{_pct(f.cell(r.index, chosen.column.index), chosen.column)}{unit}"
                             for r in result.rows)
            return f"{head}「{where}」（第{page}页）中{measure}分别为：{parts}"
        return (f"{head}「{where}」（第{page}页）中“{label}”的{measure}为{result.shown}{unit}"
                f"{self._with_share(f, chosen, result)}{how}")

    def _with_share(self, f: Frame, chosen: Chosen, result: Result) -> str:
        """The row's printed share beside its value ("，占营业收入比重31.09%"), when the table prints one."""
        if chosen.share is None or len(result.rows) != 1:
            return ""
        cell = f.cell(result.rows[0].index, chosen.share.index)
        if not cell or not is_number(cell.rstrip("%")) or (result.rows[0].index, chosen.share.index) in f.cut:
            return ""
        said = next((w for w in self._measures.get(f.kind, ()) if w in chosen.share.key), _shown(chosen.share.header))
        if not chosen.share.share:
            return f"，{said}{cell}"
        return f"，{said}{cell.rstrip('%')}%"

    def _page(self, f: Frame, r: Row) -> int:
        return f.table.pages[r.index] if r.index < len(f.table.pages) else f.table.page_start

    def _unit(self, f: Frame, c: Column) -> str:
        if f.kind in ("education", "profession") and not c.share:
            return "人"
        unit = unit_of(c.header) or (None if c.share or _RATE.search(c.key) else _table_unit(f.table))
        return "" if unit in (None, "%") else unit

    def _evidence(self, rep: Report, f: Frame, chosen: Chosen, result: Result) -> list[CellEvidence]:
        t = f.table
        table = table_where(t)
        out = []
        cols = [chosen.column] + ([chosen.share] if chosen.share is not None and (
            result.op in ("rank", "value") or result.how == "printed") else [])
        for r in result.rows:
            for c in cols:
                cell = f.cell(r.index, c.index)
                unit = unit_of(c.header) or ("" if c.share or _RATE.search(c.key) else (_table_unit(t) or ""))
                out.append(CellEvidence(table, r.label, _shown(c.header), cell + ("" if cell.endswith("%") else unit or ""),
                                        self._page(f, r), self.v.source.keys.get(t.report_id), cell))
        return out


def _table_unit(t: TableRecord) -> str | None:
    """A table's unit: its own, else a caption that is its unit line ("人民币百万元，百分比除外")."""
    if t.unit:
        return t.unit
    m = _CAPTION_UNIT.match(re.sub(r"\s+", "", t.caption or ""))
    return m.group(1) if m else None


# a unit line read as a table's caption: "人民币百万元，百分比除外", "单位：千元"
_CAPTION_UNIT = re.compile(r"^(?:单位[:：])?(?:人民币)?(百万元|千万元|亿元|万元|千元|元)(?:$|[，,；;（(]|除)")
_PCT_HEADER = re.compile(r"[(（]\s*%\s*[)）]|%$")


def _pct(cell: str, c: Column) -> str:
    """A share column's cell as a percent ("39.96" under 比例(%) → 39.96%)."""
    return cell.rstrip("%") + "%" if c.share or _PCT_HEADER.search(c.header) else cell


def _memo(cache: dict, key, make, limit: int = 4096):
    """What `make()` gives for the key, kept in `cache` (emptied past `limit` entries)."""
    if key in cache:
        return cache[key]
    if len(cache) > limit:
        cache.clear()
    got = cache[key] = make()
    return got


def _name(f: Frame, r: Row) -> str:
    """A row as named: an entity's first cell (a subsidiary's name, not its type and business after it)."""
    return r.first if f.kind in ("subsidiary", "shareholder", "customer", "supplier", "branch") and r.first else r.label


def _held(want: str, said: str) -> bool:
    """Three quarters of a word's character pairs in the other (a single character: itself)."""
    if not want:
        return True
    if len(want) == 1:
        return want in said
    pw = {want[i:i + 2] for i in range(len(want) - 1)}
    ps = {said[i:i + 2] for i in range(len(said) - 1)}
    return len(pw & ps) >= 0.75 * len(pw)


def _apart(text: str, held: AbstractSet[str]) -> str:
    """The text with the characters of its pairs `held` holds replaced by '|' (runs of them by one)."""
    marks = cover(text, held)
    return re.sub(r"\|+", "|", "".join("|" if m else ch for ch, m in zip(text, marks)))


def _heading(path: str, k: int) -> str:
    """The k-th heading of a stored heading path (JSON), "" when it has none."""
    try:
        heads = json.loads(path) if path else []
    except ValueError:
        return ""
    return str(heads[k]) if isinstance(heads, list) and len(heads) >= abs(k) else ""


_NEXT_PARAGRAPH = re.compile(r"[（(]\d{1,2}[)）]|\n\d{1,2}[、.．]")


def _position(text: str, at: int) -> int:
    """The index in `text` of the content character number `at` (content() keeps CJK, letters, digits, %)."""
    n = -1
    for i, ch in enumerate(text):
        if content(ch):
            n += 1
            if n == at:
                return i
    return len(text)


def _without(text: str, word: str) -> str:
    return text.replace(word, "", 1) if word else text


def _fmt(total: float, cells: list[str]) -> str:
    """A sum printed with the decimals its cells print (277 of 259 and 18; 5,462,828.83 of two amounts)."""
    decimals = max((len(c.rsplit(".", 1)[1].rstrip("%")) if "." in c else 0) for c in cells) if cells else 2
    return f"{total:,.{min(decimals, 2)}f}"


@lru_cache(maxsize=1024)
def _shown(header: str) -> str:
    """A header as said in an answer: as the cells show it (answer/cells.py), less its bracketed unit and
    every space ("比例(%)" → 比例)."""
    header = shown_header(header)
    return re.sub(r"\s+", "", core(header) or header)


# ------------------------------------------------------------------------------------------- subsidiaries

_PLACE = re.compile(r"^[\u4e00-\u9fff]{2,3}?(?:省|市|自治区|县|区)")
_REGISTERED = re.compile(r"[\u4e00-\u9fff（）()A-Za-z]{2,30}?(?:有限责任公司|股份有限公司|有限公司)")
_LEGAL_END = re.compile(r"(?:集团)?(?:有限责任公司|股份有限公司|有限公司)$")
_SUB_WORD = re.compile(r"(?:全资|控股|参股)?子公司|参股公司|孙公司")
_DEFINES = re.compile(r"释义")
_SUB_TOPIC = re.compile(r"控股参股公司|主要子公司|子公司|附属企业|附属公司")   # (附属公司: a subsidiary as Hong Kong filings say it)


@dataclass
class Subsidiary:
    """A subsidiary of a report: its registered name, the names the report also calls it by."""
    name: str             # as compared (content)
    aliases: set[str]
    printed: str = ""     # as the report prints it (四方星（上海）冷链科技有限公司)

    @property
    def shown(self) -> str:
        return self.printed or self.name


@dataclass
class SubsidiaryValue:
    """An item of a subsidiary read from its parent's report."""
    sub: Subsidiary
    parent: Report
    page: int | None
    value: str            # as printed
    unit: str
    where: str            # the section or table it is printed in
    column: str = ""


GLUED_TRADE = 3   # the characters of a trade (企业, 房地产, 科技) a place's company of the parent names after them


def _of_year(key: str, year: int | None) -> str:
    """A column's key without the year asked it opens with ("2012年净利润" of 万科's 主要全资附属企业: its 净利润;
    2012年末总资产, 2012年度营业收入)."""
    m = re.match(f"{year}年[末度]?", key) if year else None
    return key[m.end():] if m and len(key) > m.end() + 1 else key


class SubsidiaryAnswerer:
    """A question naming a subsidiary — by its registered name, a name the report's 释义 gives it, or the
    distinctive part of its registered name after 子公司 ("子公司台州前进") — answered from its parent's report
    (a row of 主要子公司… / 主要控股参股公司, or a section of its own: "净利润：人民币 70,662,576.11 元"),
    naming the parent. A name several reports print as a subsidiary is asked back; a name two subsidiaries
    share is declined."""

    def __init__(self, frames: "FrameAnswerer", cut: Callable[[str], list[tuple[str, str]]] | None = None):
        self.frames = frames
        self.cut = cut   # (the lexicon's: a place's name — 青岛, 深圳 — is tagged ns)
        self.cells = frames.cells
        self.v = frames.v
        self.t = frames.t
        self._subs: dict[int, list[Subsidiary]] = {}
        self._after_rx: dict[tuple[str, ...], re.Pattern] = {}   # items asked → _after_sub's pattern
        self.topics = ("控股参股公司", "主要子公司")

    # ---- the subsidiaries a report names
    def subsidiaries(self, rep: Report) -> list[Subsidiary]:
        got = self._subs.get(rep.id)
        if got is not None:
            return got
        if len(self._subs) > 1024:
            self._subs.clear()
        store = self.v.source.store
        if rep.id not in store.documented_reports():
            self._subs[rep.id] = []   # (a report of imported values only: no table or section names one)
            return []
        own = content(norm(rep.full_name or ""))
        found: dict[str, Subsidiary] = {}

        def add(name: str, alias: str = "") -> None:
            key = content(norm(name))
            # (a registered name of four characters or more before its legal form: "中心有限公司" is a
            # wrapped name's last line)
            if key == own or not _LEGAL_END.search(key) or len(_LEGAL_END.sub("", key)) < 4:
                return
            sub = found.setdefault(key, Subsidiary(key, set(), re.sub(r"\s+", "", name)))
            for a in re.split(r"[、，,/]", alias):
                a = content(norm(a))
                if len(a) >= 2 and a != key and a not in own:
                    sub.aliases.add(a)
        defined: list[tuple[str, str]] = []   # 释义 names not said to be subsidiaries
        for t in self.frames.tables.find(rep.id, tokens("释义 子公司 控股参股公司 公司名称 附属企业 附属公司"), 60, skipped=True):
            title = "".join(t.path[-2:]) + t.caption
            if _DEFINES.search(title):
                # "台州前进、前进公司 | 指 | 台州市前进化工有限公司，公司全资子公司"
                for row in [t.header, *t.rows]:
                    cells = [c for c in row if c and c.strip() != "指"]
                    if len(cells) >= 2:
                        m = _REGISTERED.match(re.sub(r"\s+", "", cells[-1]))
                        if m and _SUB_WORD.search(cells[-1]):
                            add(m.group(0), cells[0])
                        elif m:
                            defined.append((m.group(0), cells[0]))
            elif _SUB_TOPIC.search(title):
                f = self.frames.frame(t)
                if f.kind == "subsidiary":
                    for r in f.rows:
                        add(r.first)
        for name, alias in defined:
            # a name the 释义 defines without saying what it is (四方罐储): a subsidiary when a section of
            # 主要控股参股公司 is headed by it
            key = content(norm(name))
            if key not in found and any(_SUB_TOPIC.search(path) and "子公司" in text
                                        for _, path, text, _ in store.naming(name, 200, rep.id)):
                add(name, alias)   # (its section says it is a 子公司; an associate's says 参股 only)
        self._subs[rep.id] = list(found.values())
        return self._subs[rep.id]

    def named(self, rep: Report, asked: str) -> list[Subsidiary]:
        """The report's subsidiaries the words name: whole, by an alias, or by 4+ characters of the
        registered name (not the parent's own)."""
        own = content(norm(rep.full_name or "")) + content(norm(rep.short_name or ""))
        subs = self.subsidiaries(rep)
        whole = [s for s in subs if s.name in asked]
        if whole:
            return whole
        by_alias = [s for s in subs if any(a == asked for a in s.aliases)]
        if by_alias:
            return by_alias
        if len(asked) < 4 or asked in own:
            return []
        # words a registered name begins with, its place name left out or not ("珠海惠威", "金宇保灵" of
        # 金宇保灵生物药品有限公司, not of 内蒙古金宇保灵生物科技研究院…); words inside a name ("电力工程" of
        # 河南安靠电力工程设计有限公司) name no subsidiary
        at = [(s.name.find(asked), s) for s in subs]
        first = [s for n, s in at if n == 0 or (n > 0 and _PLACE.sub("", s.name).startswith(asked))]
        # (or after a place name of up to three characters with no 市/县: 张家界宝峰湖旅游实业…)
        return first or [s for n, s in at if 0 < n <= 3]

    # ---- every subsidiary of a table
    def each(self, u: Understanding) -> Answer | None:
        """A value asked of each subsidiary ("各主要子公司分别实现了多少净利润", "每个子公司的营业收入"): every row
        of the report's subsidiary table that its type column (when it has one) calls a 子公司, the item's
        column of each, listed with the table and page. None when not asked so, or no such table holds the
        item: a row missing its number is said, never taken as 0."""
        if not u.items or not u.companies or u.years.asked is None or not _EACH_SUB.search(u.norm):
            return None
        rep = self.v.source.report(u.companies[0].company.key, u.years.asked)
        if rep is None:
            return None
        wanted = [sorted({content(norm(i)), *(content(norm(k.text)) for k in u.keywords if k.name == i and k.text)},
                         key=len, reverse=True) for i in u.items]
        words = tokens(" ".join(["子公司 控股参股公司 公司名称", *(w for a in wanted for w in a)]))
        for t in self.frames.tables.find(rep.id, words, 60, skipped=True):
            f = self.frames.frame(t)
            if f.kind != "subsidiary":
                continue
            cols = [next((c for c in f.columns if c.key and any(w == _of_year(c.key, u.years.asked) for w in a)), None)
                    for a in wanted]
            if any(c is None for c in cols):
                continue
            if self.frames.continued(f) or self.frames.fragment(f):
                return None   # (a table run over a page, or a part of one: the rows after the break not read)
            kind_col = next((c for c in f.columns if "类型" in c.key), None)
            rows = [r for r in f.rows if not r.total and (kind_col is None or "子公司" in f.cell(r.index, kind_col.index))]
            if not rows:
                continue
            where = t.caption or (t.path[-1] if t.path else "")
            parts, evidence = [], []
            for r in rows:
                name = re.sub(r"\s+", "", r.first or r.label)
                values = []
                for col in cols:
                    assert col is not None
                    cell = f.cell(r.index, col.index)
                    unit = unit_of(col.header) or t.unit or "元"
                    if not is_number(cell) or CUT_NUMBER.search(cell):
                        return None   # (a number the layout cut, or none read: no list of them all)
                    page = t.pages[r.index] if r.index < len(t.pages) else t.page_start
                    values.append(cell + unit)
                    evidence.append(CellEvidence(where, name, _shown(col.header), cell + unit, page,
                                                 self.v.source.keys.get(rep.id), cell))
                parts.append(f"{name}：{'，'.join(values)}")
            if not evidence:
                continue
            items = "、".join(_shown(c.header) for c in cols if c is not None)
            text = render(self.t, "subsidiary_each", company=rep.short_name or rep.key, year=u.years.asked,
                          where=where, page=t.page_start, item=items, parts="；".join(parts))
            return Answer(u.question, text, u.finglm_type(), "frame", list[Evidence](evidence))
        return None

    def _after_sub(self, items: tuple[str, ...]) -> re.Pattern:
        """A registered name after 子公司, up to a digit, 的/在/年, a stop or an item word (compiled once per
        items asked)."""
        rx = self._after_rx.get(items)
        if rx is None:
            if len(self._after_rx) > 1024:
                self._after_rx.clear()
            rx = self._after_rx[items] = re.compile(
                r"(?:全资|控股|参股)?子公司([\u4e00-\u9fff（）()]{2,20}?)(?=\d|的|在|年|$|[，,。?？]|"
                + "|".join(map(re.escape, items)) + ")")
        return rx

    # ---- the answer
    def answer(self, u: Understanding) -> Answer | None:
        if not u.items or u.years.asked is None or u.shape == "yes_no":
            return None
        year = u.years.asked
        text = content(norm(u.norm))
        # a registered name, from after the last 子公司 before it ("海翔药业子公司台州市前进化工有限公司")
        spans = [_SUB_WORD.split(m.group(0))[-1] for m in _REGISTERED.finditer(text)]
        after = [] if "子公司" not in text else [m.group(1) for m in self._after_sub(tuple(u.items)).finditer(text)]
        # a word no slot used that a report's 释义 gives a subsidiary ("台州前进")
        left = [content(norm(w)) for w in u.left if len(content(norm(w))) >= 3]
        # … or a word no slot used right before the company's name, with it ("青岛万科": 青岛万科企业有限公司, the
        # parent's company of a place — never the 青岛 of a table of joint ventures)
        places = [(w, m) for m in u.companies for w in u.left
                  if 2 <= len(content(norm(w))) <= 3 and u.norm[:m.start].endswith(w) and u.norm[m.start:m.end] == m.text
                  and self.cut is not None and self.cut(w) == [(w, "ns")]]   # (a place: never 算算惠威科技)
        if places:   # (nor a registered name's part: 内蒙古金宇生物控股有限公司 of 生物股份's holders)
            named = [r.span() for r in _REGISTERED.finditer(u.norm)]
            places = [(w, m) for w, m in places if not any(a <= m.start and m.end <= b for a, b in named)]
        glued = [(content(norm(w)), content(norm(m.text))) for w, m in places]
        if not spans and not after and not left and not glued:
            return None
        reports: list[Report] = []
        if u.companies:
            rep = self.v.source.report(u.companies[0].company.key, year)
            own = content(norm((rep.full_name or "") if rep else ""))
            spans = [s for s in spans if s != own]
            if rep is None or not (spans or after or left or glued):
                return None
            reports = [rep]
        else:
            # no company of the store named: the reports of the year printing the name (a registered name,
            # else a word no slot used: "珠海惠威", "四方罐储")
            by_id = {r.id: r for r in self.v.source.by_key.values() if r.year == year}
            for word in [*spans, *after, *left] if by_id else ():
                # (the year's reports only, through their index: not a scan of every report's rows)
                ids = dict.fromkeys(rid for rid, *_ in self.v.source.store.naming(word, 50, list(by_id)))
                reports = [by_id[i] for i in ids][:8]
                if reports:
                    spans, after, left = [word], [], []
                    break
            if not reports:
                return None
        got: list[list[SubsidiaryValue]] = []
        for rep in reports:
            subs = []
            for asked in [*spans, *after, *left]:
                asked = _SUB_WORD.sub("", asked)
                subs = self.named(rep, content(asked))
                if subs:
                    break
            if not subs and glued and len(reports) == 1:
                # the place's company of the parent: a subsidiary whose name is the place and the parent's name and
                # at most a word of its trade before its legal form (青岛万科企业有限公司, 上海万科房地产有限公司; a 市
                # or 省 after the place or not) — one beginning so with a name of its own after them (深圳万科恒大物业)
                # is not surely it: asked back; none: declined, never another row printing the place (天津 of a
                # table of joint ventures)
                near = [(sub, rest) for sub in self.subsidiaries(rep) for place, name in glued
                        for bare in [re.sub(f"^{re.escape(place)}[市省]", place, sub.name)] if bare.startswith(place + name)
                        for rest in [_LEGAL_END.sub("", bare[len(place + name):])]]
                subs = [sub for sub, rest in near if len(rest) <= GLUED_TRADE]
                if not near:
                    return Answer(u.question, render(self.t, "subsidiary_unknown", name=glued[0][0] + glued[0][1],
                                                     parent=rep.short_name or rep.key, year=year),
                                  u.finglm_type(), "declined", found=False)
                if not subs:
                    return Answer(u.question, render(self.t, "subsidiary_near", name=glued[0][0] + glued[0][1],
                                                     names="、".join(s.shown for s, _ in near),
                                                     company=rep.short_name or rep.key), u.finglm_type(), "declined",
                                  found=False)
            if len(subs) > 1:
                return Answer(u.question, render(self.t, "subsidiary_which_one", names="、".join(s.shown for s in subs),
                                                 company=rep.short_name or rep.key), u.finglm_type(), "declined",
                              found=False)
            if subs:
                value = self._value(rep, subs[0], u)
                if value is not None:
                    got.append(value)
                elif len(reports) == 1:
                    # a subsidiary named, its item not read here: the router's other answerers may read it
                    # (a name wrapped over two rows); this decline stands where they would give the parent's
                    # own value (method "unread")
                    return Answer(u.question, render(self.t, "subsidiary_unread", name=subs[0].shown,
                                                     parent=rep.short_name or rep.key, year=year,
                                                     item=u.items[0] if u.items else ""),
                                  u.finglm_type(), "unread", found=False)
        if not got:
            return None
        if len({g[0].parent.stock_code or g[0].parent.key for g in got}) > 1:
            names = "、".join(sorted({g[0].parent.short_name or g[0].parent.key for g in got}))
            return Answer(u.question, render(self.t, "subsidiary_which", name=got[0][0].sub.shown, companies=names),
                          u.finglm_type(), "declined", found=False)
        vals = got[0]
        s = vals[0]
        parent = s.parent.short_name or s.parent.full_name or s.parent.key
        items = "、".join(v.column or i for v, i in zip(vals, [*u.items, *[""] * len(vals)]))
        text = render(self.t, "subsidiary_answer", name=s.sub.shown, parent=parent, year=year, where=s.where,
                      page=s.page or "?", item=items, value="、".join(v.value + v.unit for v in vals))
        evidence = [CellEvidence(v.where, v.sub.shown, v.column, v.value + v.unit, v.page,
                                 self.v.source.keys.get(v.parent.id), v.value) for v in vals]
        ans = Answer(u.question, text, u.finglm_type(), "frame", list(evidence))
        if len(vals) == 1:
            ans.shown = s.value + s.unit
        return ans

    def _asked(self, u: Understanding, sub: Subsidiary) -> list[list[str]]:
        """What is asked of the subsidiary: each item (with the words the question said it by), and each
        word no slot used that does not name the subsidiary (注册资本)."""
        out = [sorted({content(norm(i)), *(content(norm(k.text)) for k in u.keywords if k.name == i and k.text)},
                      key=len, reverse=True) for i in u.items]
        for w in u.left:
            c = _SUB_WORD.sub("", content(norm(w)))
            if len(c) >= 2 and c not in sub.name and not any(c in a or a in c for a in sub.aliases):
                out.append([c])
        return out

    def _value(self, rep: Report, sub: Subsidiary, u: Understanding) -> list[SubsidiaryValue] | None:
        """What is asked of the subsidiary, every part of it read: from a row of a subsidiary table (a column
        for each), else from its own section ("净利润：人民币 70,662,576.11 元"); None when a part is not read."""
        asked = self._asked(u, sub)
        if not asked:
            return None
        store = self.v.source.store
        words = " ".join(["子公司 控股参股公司 公司名称 附属企业 附属公司", *(w for a in asked for w in a)])
        for t in self.frames.tables.find(rep.id, tokens(words), 60, skipped=True):
            f = self.frames.frame(t)
            if f.kind != "subsidiary":
                continue
            row = next((r for r in f.rows if content(norm(r.first)) == sub.name), None)
            if row is None:
                continue
            cols = [next((c for c in f.columns if c.key and any(w == _of_year(c.key, rep.year) for w in a)), None)
                    for a in asked]
            if any(c is None for c in cols):
                continue
            out = []
            for col in cols:
                assert col is not None
                cell = f.cell(row.index, col.index)
                if not is_number(cell) or CUT_NUMBER.search(cell):
                    return None   # a number cut by the layout ("211,591,403.", "75,919,505.0"): not read
                where = t.caption or (t.path[-1] if t.path else "")
                unit = unit_of(col.header) or t.unit or "元"
                page = t.pages[row.index] if row.index < len(t.pages) else t.page_start
                out.append(SubsidiaryValue(sub, rep, page, cell, unit, where, _of_year(_shown(col.header), rep.year)))
            return out
        # its own section, headed by its name: (where it is, text, page)
        sections = [(_heading(path, -2), text, page) for _, path, text, page in store.naming(sub.name, 50, rep.id)
                    if sub.name in content(norm(_heading(path, -1)))]
        # a paragraph of its own under 主要控股参股公司 ("（1）金宇保灵生物药品有限公司为公司全资子公司，…净利润
        # 30,062 万元。"): from its name to the next paragraph's number
        for c in store.chunks_headed(rep.id, self.topics):
            flat = re.sub(r"\s+", "", c.text)
            at = content(flat).find(sub.name)
            if at < 0:
                continue
            start = _position(flat, at)
            end = _NEXT_PARAGRAPH.search(flat, start + len(sub.name))
            sections.append((c.path[-1] if c.path else "", flat[start:end.start() if end else None], c.page_start))
        out = []
        for a in asked:
            value_rx = re.compile("(" + "|".join(map(re.escape, a)) +
                                  r")[:：为是]?(?:人民币)?(-?[\d,]+(?:\.\d+)?)(亿元|万元|千元|元)?")
            hit = next(((path, page, m) for path, text, page in sections
                        for m in [value_rx.search(re.sub(r"\s+", "", text))] if m), None)
            if hit is None:
                return None
            out.append(SubsidiaryValue(sub, rep, hit[1], hit[2].group(2), hit[2].group(3) or "元", hit[0],
                                       hit[2].group(1)))
        return out
