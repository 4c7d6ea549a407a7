"""The one table model of the answerers: a report's tables found for an ask's words, and each table worked out
once — its words as the cells compare them (answer/cells.py: a row named as printed), its frame (answer/
frames.py: an operation over its rows) — in one cache, shared by the cells, the frames and the subsidiaries.

- `find(report, words, size)`: one table search (the store's tables_fts over the report's rows, bm25, best
  first), the statements and 释义 tables left out (`skipped`: the statements are the lookup's, a 释义 table
  defines words and holds no values); what it found is kept while the store stays the same (the router asks
  an ask as found, then as printed; the subsidiaries ask the same words for every question of a report).
- `prepared(t, kind)`: what a reader works out of a table — the cells' words ("cells"), the frame ("frame") —
  made by the function that reader registered (`register`), once per table while the store holds the same
  record; every table's preparations are kept together, the least recently used table dropped past
  TABLES_PREPARED.
- `spell` / `label_text`: the one spelling of words written several ways (keyword_tables/cells.yaml
  question_words) that questions, labels, titles and headers are all compared in.

The text helpers every reader compares with (norm, content, core, pairs, cover, is_number) are here too.
"""
from __future__ import annotations

import re
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, AbstractSet, Any, NamedTuple

from ..bigrams import tokens
from ..catalog.cells import CellWords
from ..catalog.normalize import quarter_names
from ..numbers import is_number as _printed_number
from ..store.models import TableRecord

if TYPE_CHECKING:
    from ..store import Store

_RANKED = re.compile(r"(前|第)([一二三四五六七八九十])(?=[大名位])|(前|第)([一二三四五六七八九十])(?=[^一二三四五六七八九十]|$)")
# a quarter written without 第 ("四季度", "三季" of a question's 第三季度 left unused) is the tables' 第4季度
# (not 上一季度, 每一季度, 同一季度, 哪一季度: rules/periods.yaml reads those as no quarter named — nor 前三季度)
_QUARTER = re.compile(r"(?<![第前\d〇零一二三四五六七八九十上下每同哪这该任某本当])([一二三四])(?=季(?:度|$))")
# a column of changes (变动比例, 比上年同期增减): what the reviewer checks a change asked against, and what explains
# no share asked (answer/cells.py)
CHANGE_COLUMN = re.compile(r"变动|增减|同比|比上年|较上年|增长率|增幅")
# the verbs of a balance's movement in the period (本期计提, 本年增加 …): a sentence's flow (FLOW below) and a movement
# column (answer/routes.py _FLOW_COLUMN) say them
MOVES = "计提|收回|转回|核销|增加|减少|新增|冲回|转销"
# a flow of the period said before an amount (本期计提, 本年发生, 报告期内收回 …): no balance at a date — a sentence stating
# one answers no 年末 asked (answer/stated.py)
FLOW = re.compile(rf"(?:本期|本年|当期|报告期内?|本报告期)(?:{MOVES}|发生|确认)")
# the verbs saying how a table is laid out ("按账龄披露", "按类别划分"): where the question looks, no row asked
# (answer/cells.py _BY_DIMENSION, _WHERE_CLAUSE below)
LAYOUT_VERBS = "披露|划分|分类|列示|统计|归集|区分"
# how a table is laid out, as a question says it ("按账龄披露", "按类别划分"), and the words after where it looks (中, 里)
LAID_OUT = rf"按照?[^，,|]{{1,8}}?(?:{LAYOUT_VERBS})"
LOOKED_IN = "中|里|当中|之中"
_TOP_BIG = re.compile(r"(前\d{1,2})大(?=客户|供应商|股东|销售客户)")   # 前5大客户 is the tables' 前5名客户
_CN_DIGIT = {"一": "1", "二": "2", "三": "3", "四": "4", "五": "5", "六": "6", "七": "7", "八": "8", "九": "9", "十": "10"}
_BRACKETS = re.compile(r"[（(][^（()）]*[)）]")
_ENUM = re.compile(r"^(?:[（(]?[一二三四五六七八九十\d]{1,3}[)）]?[、.．]|其中\s*[:：]|减\s*[:：]|加\s*[:：])")
# a label's unit in its parenthesis, after other words of it too ("现金分红金额（含税，人民币百万元）")
_UNIT = re.compile(r"[（(](?:[^()（）]*?[，,、;；]\s*)?\s*(?:单位\s*[:：]\s*)?(?:人民币)?\s*(元|千元|万元|百万元|亿元|%|人|股|万股)\s*[)）]")
_NOT_CONTENT = re.compile(r"[^\u3400-\u9fffa-z0-9%]")
_SPACES = re.compile(r"\s+")
_OPEN_BRACKET = re.compile(r"^[^（()）]*[)）]|[（(][^（()）]*$")
_CLAUSE_MARK = re.compile(r"[,，;；]")
# a table no ask reads cells from: a statement (the lookup's) or a 释义 table (it defines words)
SKIP_TABLE = re.compile(r"释义|(?:资产负债表|利润表|现金流量表|所有者权益变动表|股东权益变动表)$")
# a number cut short or run into the next one: ends in "." or ",", one decimal after a thousands group,
# two numbers in one cell, a leading zero ("000" of "14,500,000")
CUT_NUMBER = re.compile(r"\d[.,]$|,\d{3}\.\d$|,\d{1,2}$|\d[.,]?\d*\s+[-\d]|^0\d")
# a table's unit line in a header ("单位：元", "币种：人民币")
UNIT_LINE = re.compile(r"(?:单位|币种)\s*[:：]\s*\S+\s*")

# the functions of a cell's text alone are kept (thread-safe caches, shared by every router)
CACHED = 1 << 16
TABLES_PREPARED = 8192   # tables kept worked out (their words about 25 KB each; a report has 100–600)
FOUND_KEPT = 1024        # table searches kept (report, words, size)


@lru_cache(maxsize=CACHED)
def is_number(text: str) -> bool:
    """A whole number as printed: "8,591,28" (cut by a column) is none."""
    return _printed_number(text)


@lru_cache(maxsize=CACHED)
def norm(text: str) -> str:
    """NFKC, no spaces, lower case, 前五名 → 前5名 (as the tables print ranks; 前五大 / 前5大 too: 前5名), 四季度 and
    第四季度 and Q4 → 第4季度."""
    s = unicodedata.normalize("NFKC", text or "").lower()
    s = _SPACES.sub("", s)
    if "q" in s:
        s = quarter_names(s)   # (Q4 → 第四季度 → 第4季度 below, as a question says it)
    if "季" in s:
        s = _QUARTER.sub(lambda m: "第" + m.group(1), s)
    s = _RANKED.sub(lambda m: (m.group(1) or m.group(3)) + _CN_DIGIT[m.group(2) or m.group(4)], s)
    return _TOP_BIG.sub(r"\1名", s) if "大" in s else s


@lru_cache(maxsize=CACHED)
def core(label: str) -> str:
    """A cell's words for matching: normalised, without bracketed parts, enumerators and a final colon."""
    s = _ENUM.sub("", unicodedata.normalize("NFKC", label or "").strip())
    s = _BRACKETS.sub("", unicodedata.normalize("NFKC", s))
    # a bracket a page break left open ("…政府补助（与企业业务密" / "切相关…除外）计入当期…"): its part out
    s = _OPEN_BRACKET.sub("", s) or s
    s = norm(s).strip(":：")
    head = _CLAUSE_MARK.split(s, maxsplit=1)[0]
    return head if len(head) >= 4 else s   # "计入当期损益的政府补助，但与…除外": its first clause


@lru_cache(maxsize=CACHED)
def content(text: str) -> str:
    """The characters compared: CJK, latin letters, digits and %; no 的, punctuation or spaces."""
    return _NOT_CONTENT.sub("", text.replace("的", ""))


# a clause saying only where the question looks ("应收账款按账龄披露，", "短期借款按类别划分，", "应付职工薪酬中，"):
# no ask of its own — the words of the ask after it
# (not the report itself: "年报中，…" says no table)
_WHERE_CLAUSE = re.compile(rf"(?:{LAID_OUT}|(?<!报)(?<!报告)(?:{LOOKED_IN})|项下|明细)\s*$")


def joined_asks(parts: list[str]) -> list[str]:
    """Asks split at commas, each clause that only says where the question looks (_WHERE_CLAUSE) joined to the
    ask after it ("应收账款按账龄披露" + "2至3年账面余额": one ask)."""
    out: list[str] = []
    carry = ""
    for k, part in enumerate(parts):
        if k + 1 < len(parts) and _WHERE_CLAUSE.search(part) and "|" not in part[-2:]:
            carry += part
            continue
        out.append(carry + part)
        carry = ""
    return out


def table_where(t: TableRecord) -> str:
    """Where a table stands, as evidence shows it: its last two headings, then its caption unless the caption is
    the last heading itself ("28、管理费用" under the heading 28、管理费用; its 单位 line aside)."""
    path = t.path[-2:]
    if t.caption and not (path and content(norm(path[-1])) == content(norm(_UNIT_SAID.sub("", t.caption)))):
        path = [*path, t.caption]
    return " > ".join(path)


_UNIT_SAID = re.compile(r"(?:金额)?单位[:：]?\s*(?:人民币)?\s*(?:百万|千|万|亿)?元(?:\s*币种[:：]?\s*\S+)?")   # (a 单位 line in a caption)


def unit_of(*labels: str) -> str | None:
    for label in labels:
        m = _UNIT.search(unicodedata.normalize("NFKC", label or ""))
        if m:
            return m.group(1)
    return None


def pairs(s: str) -> set[str]:
    """The character pairs of a content string."""
    return {s[i:i + 2] for i in range(len(s) - 1)}


def cover(text: str, ref: AbstractSet[str]) -> list[bool]:
    """Which characters of `text` sit in a character pair of it that `ref` holds."""
    marks = [False] * len(text)
    for i in range(len(text) - 1):
        if text[i:i + 2] in ref:
            marks[i] = marks[i + 1] = True
    return marks


@lru_cache(maxsize=8192)
def search_tokens(s: str) -> frozenset[str]:
    """The search tokens of a text (labels, titles, questions: the same few again and again)."""
    return frozenset(tokens(s))


def _fragments(t: TableRecord) -> bool:
    """A header printed over several lines and read as rows of its own, its body elsewhere or none ("控股股东名" |
    "成立日" over "称" | "期", "法定" over "代表" over "人/单"): three rows or more, no number, most cells empty and
    every word of it a short piece — cells naming nothing a question asks (a name asked is no "成立日")."""
    if len(t.rows) < 2:
        return False
    cells = [c for row in [t.header, *t.rows] for c in row]
    full = [c for c in cells if c]
    return bool(full) and 2 * len(full) < len(cells) and max(map(len, full)) <= 6 and not any(
        ch.isdigit() for c in full for ch in c)   # (a digit is a value's: 22宁德, 2025年)


class _Held(NamedTuple):
    """A table as held: its record (a store that changed gives another), whether no ask reads it, and what
    each reader worked out of it."""
    table: TableRecord
    skipped: bool
    made: dict[str, Any]


class Tables:
    """A store's tables as the answerers read them: one search, one preparation of each table, one cache."""

    def __init__(self, store: Callable[[], "Store"], words: CellWords):
        self._store = store   # (the answerers' source may be re-pointed: the store is asked for each time)
        spelled = sorted(words.question_words, key=lambda kv: -len(kv[0]))
        self._spell_to = dict(spelled)
        self._spell_rx = re.compile("|".join(re.escape(k) for k, _ in spelled)) if spelled else None
        self._labels: dict[str, str] = {}
        self._held: OrderedDict[int, _Held] = OrderedDict()   # table id → the table, least recently used first
        self._makers: dict[str, Callable[[TableRecord], Any]] = {}
        self._group_words: tuple[str, ...] = ()   # the words asking a narrower group's rows (无限售条件股东)
        # each kind's strong words and asked words: a table it claims lists no other kind's rows (转融通出借股份)
        self._kinds: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = ()
        self._found: dict[tuple[int, tuple[str, ...], int, bool], list[TableRecord]] = {}
        self._found_state: tuple[int, int] | None = None

    # --------------------------------------------------------------------------- spelling

    def spell(self, text: str) -> str:
        """One spelling of words written several ways (question_words), in one pass; a phrase already
        spelled as its target stays."""
        if self._spell_rx is None:
            return text

        def sub(m: re.Match) -> str:
            key = m.group(0)
            target = self._spell_to[key]
            # 研发投入 → 研发投入金额, not in 研发投入金额 itself
            return key if target.startswith(key) and text.startswith(target, m.start()) else target
        return self._spell_rx.sub(sub, text)

    def label_text(self, cell: str) -> str:
        """A label cell's words as compared: its core, spelled one way, content only."""
        got = self._labels.get(cell)
        if got is None:
            if len(self._labels) > CACHED:
                self._labels.clear()
            got = self._labels[cell] = content(self.spell(content(core(cell))))
        return got

    # --------------------------------------------------------------------------- the tables

    def register(self, kind: str, make: Callable[[TableRecord], Any]) -> None:
        """What a reader works out of a table (`make`), kept with the table as `kind`."""
        self._makers[kind] = make

    def groups(self, asked: Sequence[str], kinds: Sequence[tuple[Sequence[str], Sequence[str]]] = ()) -> None:
        """The words a question asks a kind of table's rows by (keyword_tables/frames.yaml kinds' `asked`), as
        the frames' reader tells them: a word ending in another's noun names a narrower group (无限售条件股东,
        流通股东 of 股东); `kinds`: each kind's strong words and its asked words."""
        self._group_words = tuple(sorted({content(norm(w)) for w in asked}, key=len, reverse=True))
        self._kinds = tuple((tuple(content(norm(w)) for w in strong), tuple(content(norm(w)) for w in words))
                            for strong, words in kinds if strong)

    def narrower(self, title: str, noun: str, text: str) -> bool:
        """Whether a table's title (content) names `noun` (股东, 客户) only as a narrower group the question's
        words (`text`, content) do not say: "前十名无限售条件股东持股情况" holds no 第三大股东 — its third row is
        the third by unrestricted shares — where "前十名股东和前十名无限售条件股东的持股情况" holds one."""
        if any(any(w in title for w in strong) and not any(w.endswith(noun) or w in text for w in words)
               for strong, words in self._kinds):
            return True   # (a table of another kind, its strong words in its title: 转融通出借股份 of the top holders)
        narrow = [w for w in self._group_words if len(w) > len(noun) and w.endswith(noun) and w not in text]
        ends = [m.end() for m in re.finditer(re.escape(noun), title)] if narrow else []
        return bool(ends) and all(any(title.endswith(w, 0, e) for w in narrow) for e in ends)

    def _entry(self, t: TableRecord) -> _Held:
        held = self._held.get(t.id)
        if held is not None and held.table is t:
            self._held.move_to_end(t.id)
            return held
        held = self._held[t.id] = _Held(t, any(SKIP_TABLE.search(x) for x in [*t.path, t.caption]) or _fragments(t), {})
        if len(self._held) > TABLES_PREPARED:
            self._held.popitem(last=False)
        return held

    def skipped(self, t: TableRecord) -> bool:
        """A table no question's cells are read from: a statement (the lookup's) or a 释义 table (it defines
        words, it holds no values) — by its caption and headings alone."""
        return self._entry(t).skipped

    def prepared(self, t: TableRecord, kind: str) -> Any:
        """What the reader registered as `kind` works out of the table, made once (the store holds its
        tables: the same record comes back for the same table until the store changes)."""
        made = self._entry(t).made
        got = made.get(kind)
        if got is None:
            got = made[kind] = self._makers[kind](t)
        return got

    def find(self, report_id: int, words: Sequence[str], size: int, skipped: bool = False) -> list[TableRecord]:
        """The report's best `size` tables for any of the words (the first 60; each a phrase), in reading
        order, the skipped ones left out (unless `skipped`: the subsidiaries read a 释义 table's names);
        kept while the store stays the same."""
        store = self._store()
        state = store.state()
        if state != self._found_state:
            self._found_state = state
            self._found.clear()
        key = (report_id, tuple(words[:60]), size, skipped)
        got = self._found.get(key)
        if got is None:
            ids = store.table_match_words(list(key[1]), report_id, size) if key[1] else []
            got = [t for t in store.report_tables(report_id, ids) if skipped or not self.skipped(t)] if ids else []
            if len(self._found) > FOUND_KEPT:
                self._found.clear()
            self._found[key] = got
        return got
