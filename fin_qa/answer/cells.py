"""Table questions answered from cells (evidence kind `cell`): a question that names a row of one of the
report's tables (its label — 罐式集装箱, 前五名客户合计销售金额, a shareholder's or a subsidiary's name — or
its rank: 第一大客户) and/or its columns (营业收入, 毛利率, 持股比例) gets the cells named, each with its
row, column, unit and page.

1. The report's tables are searched (tables_fts: heading path, caption, header and cell words) with the
   question's words; the best ones are read.
2. A row is named when one of its text cells (brackets and enumerators left out) is in the question, or
   by its rank (第一大/第N名/最大, in a table with 序号 or a "前N" caption).
3. Columns: the one value column of a two-column table; else the headers the question names (after the
   rewrites of keyword_tables/cells.yaml question_words): a header whose last two characters are in the
   question, the best covered ones kept; else the report year's column (本期/期末/本年 or the year), never
   the previous one; else the whole row with its header.
4. The table with the longest row match (exact before approximate), then one row per label, then the
   most question words in its title (counted twice) and header, then the most columns named, answers.

A row named by a label the question's items do not explain (罐式集装箱 in "罐式集装箱业务营业收入") is an
`entity`: the router then never answers with the company's total, it answers the cell or declines.
"""
from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass

from ..bigrams import tokens
from ..catalog.cells import CellWords
from ..numbers import UNIT_FACTORS, parse_number, to_yuan
from ..numbers import is_number   # a whole number as printed: "8,591,28" (cut by a column) is none
from ..store import Report
from ..store.models import TableRecord
from ..understand.question import Understanding
from .compose import format_scaled, render
from .model import Answer, CellEvidence
from .values import Values

_BRACKETS = re.compile(r"[（(][^（()）]*[)）]")
_UNIT = re.compile(r"[（(]\s*(?:单位\s*[:：]\s*)?(?:人民币)?\s*(元|千元|万元|百万元|亿元|%|人|股|万股)\s*[)）]")
_ENUM = re.compile(r"^(?:[（(]?[一二三四五六七八九十\d]{1,3}[)）]?[、.．]|其中\s*[:：]|减\s*[:：]|加\s*[:：])")
_CN_DIGIT = {"一": "1", "二": "2", "三": "3", "四": "4", "五": "5", "六": "6", "七": "7", "八": "8", "九": "9", "十": "10"}
_RANKED = re.compile(r"(前|第)([一二三四五六七八九十])(?=[大名位])|(前|第)([一二三四五六七八九十])(?=[^一二三四五六七八九十]|$)")
_ORDINAL = re.compile(r"第(\d{1,2})(?:大|名|位)|(最大)")
DEBUG = bool(os.environ.get("FIN_QA_DEBUG_CELLS"))
_SKIP_TABLE = re.compile(r"释义|(?:资产负债表|利润表|现金流量表|所有者权益变动表|股东权益变动表)$")
# a number cut short or run into the next one: ends in "." or ",", one decimal after a thousands group,
# two numbers in one cell, a leading zero ("000" of "14,500,000")
_CUT_NUMBER = re.compile(r"\d[.,]$|,\d{3}\.\d$|\d[.,]?\d*\s+[-\d]|^0\d")
_LIST = re.compile(r"都是谁|是哪些|有哪些|哪几|都有谁|分别是谁|各是多少|名单|列出|列举")
# words of a question that ask for no column: periods, ranks, the report
_NOT_AN_ASK = re.compile(r"年末|年初|期末|期初|本期|上期|报告期|年度|年报|报告|第\d+[大名位]|最大|前\d+[大名位]?|\d{4}年?|的")
_RATE = re.compile(r"(?:率|比例|比重|占比)$")
_ASKS = re.compile(r"[|,，、;；?？。:：]|以及|并且|还有|和|及|与|分别|各")
ASK_COVER = 0.6        # share of an ask's character pairs its header must hold
_YEAR = re.compile(r"(20\d\d|19\d\d)\s*年?")
MAX_TABLES = 40
FUZZY_ROW = 0.85       # share of a long label's character pairs the question must have
MAX_ROWS = 12          # a list answer gives at most this many rows


def norm(text: str) -> str:
    """NFKC, no spaces, lower case, 前五名 → 前5名 (as the tables print ranks)."""
    s = unicodedata.normalize("NFKC", text or "").lower()
    s = re.sub(r"\s+", "", s)
    return _RANKED.sub(lambda m: (m.group(1) or m.group(3)) + _CN_DIGIT[m.group(2) or m.group(4)], s)


def core(label: str) -> str:
    """A cell's words for matching: normalised, without bracketed parts, enumerators and a final colon."""
    s = _ENUM.sub("", unicodedata.normalize("NFKC", label or "").strip())
    s = _BRACKETS.sub("", unicodedata.normalize("NFKC", s))
    s = norm(s).strip(":：")
    head = re.split(r"[,，;；]", s, maxsplit=1)[0]
    return head if len(head) >= 4 else s   # "计入当期损益的政府补助，但与…除外": its first clause


def unit_of(*labels: str) -> str | None:
    for label in labels:
        m = _UNIT.search(unicodedata.normalize("NFKC", label or ""))
        if m:
            return m.group(1)
    return None


def _bigrams(s: str) -> set[str]:
    return set(tokens(s))


@dataclass
class CellMatch:
    table: TableRecord
    rows: list[int]                  # body row indexes
    label: str                       # the row words the question named ("" for a rank)
    columns: list[int]
    whole_row: bool = False
    entity: bool = False
    score: tuple = ()
    listed: bool = False             # a list asked: the table's rows


class CellAnswerer:
    def __init__(self, values: Values, words: CellWords):
        self.v = values
        self.t = values.t
        self.w = words

    # --------------------------------------------------------------------------- the question's words

    def question_text(self, u: Understanding, masked: bool = True) -> str:
        """The question's words as rows are matched: normalised, the ask words ("是多少") cut out, and
        (`masked`) the company and year too."""
        q = norm((u.masked or u.norm).replace("#", "|") if masked else u.norm)
        for word in self.w.ask_words:
            q = q.replace(word, "|")
        return q

    def _rewritten(self, q: str) -> str:
        for phrase, words in self.w.question_words:
            q = q.replace(phrase, words)
        return q

    def _item_spans(self, u: Understanding) -> list[str]:
        return [_bare(k.text) for k in u.keywords] + [_bare(g.residue) for g in u.generalized]

    # --------------------------------------------------------------------------- matching one table

    def _row_matches(self, t: TableRecord, q: str, q_raw: str, context: str) -> tuple[list[int], str, bool]:
        """(rows, label, exact) named by a text cell of theirs: a cell in the question (`q`, the company
        and year masked; a name of 6+ characters also in `q_raw`, unmasked: 张家界市经济发展投资集团有限公司
        holds the company's short name), a name wrapped over two rows whose two lines the question holds,
        or a long label (8+ characters, not a name) whose character pairs the question nearly all has
        ("…占年度销售总额的比例"). A label inside a longer one named is not another row; a label that is a
        header of the table, or whose rows hold no number, is none when another is named. `label`: the
        longest."""
        qb = _bigrams(q)
        found: dict[str, list[int]] = {}

        def named(c: str) -> bool:
            return c in q or (len(c) >= 6 and c in q_raw)

        for i, row in enumerate(t.rows):
            for k, cell in enumerate(row):
                if not cell or is_number(cell):
                    continue
                c = core(cell)
                if c in self.w.generic_labels and self._total_of_title(t, c, q):
                    found.setdefault(c, []).append(i)
                    continue
                if len(c) < 3 or c in self.w.generic_labels:
                    continue   # 合计 alone names no row, but inside its table's title (above)
                above = t.rows[i - 1][k] if i and k < len(t.rows[i - 1]) else ""
                if above and not is_number(above) and named(core(above) + c):
                    # a name's two lines on two rows: its values are on the one with numbers
                    hits = found.setdefault(core(above) + c, [])
                    hits += [r for r in (i - 1, i) if r not in hits and any(is_number(x) for x in t.rows[r])]
                elif named(c) or (not _NAME.search(c) and len(c) >= 8
                                  and len(_bigrams(c) & qb) >= FUZZY_ROW * len(_bigrams(c))):
                    if i not in found.setdefault(c, []):
                        found[c].append(i)
        labels = [c for c in found if not any(c != o and c in o and named(o) for o in found)]
        headers = {core(h) for h in t.header}
        own = [c for c in labels if c not in headers and any(is_number(x) for r in found[c] for x in t.rows[r])]
        if own and len(own) < len(labels):
            labels = own   # "营业收入" of a header row inside the body, beside 罐式集装箱
        if not labels:
            return [], "", False
        longest = max(len(c) for c in labels)
        # 子公司 beside 盘锦北方沥青股份有限公司 is no row
        labels = [c for c in labels if 2 * len(c) >= longest]
        rows = sorted({i for c in labels for i in found[c]})
        best = max(labels, key=lambda c: (named(c), len(c)))
        return rows, best, named(best)

    def _total_of_title(self, t: TableRecord, total: str, q: str) -> bool:
        """"非经常性损益合计": a total row (合计, 总计) the question names together with its table's title —
        the 4+ characters before it are in the caption or section title (九、非经常性损益项目及金额)."""
        if total not in ("合计", "总计"):
            return False
        m = re.search(r"([\u4e00-\u9fff]{4,12})(?:合计|总计)", self._rewritten(q).replace("的", ""))
        if not m:
            return False
        title = norm(t.caption + "".join(t.path[-1:]))
        return any(m.group(1)[i:] in title for i in range(len(m.group(1)) - 3))

    def _rank_row(self, t: TableRecord, q: str, context: str) -> list[int]:
        m = _ORDINAL.search(q)
        if not m:
            return []
        noun = re.sub(r"^的", "", q[m.end():])[:2]
        if len(noun) < 2 or noun not in context:
            return []   # 第一大客户 is ranked in a table about 客户
        n = 1 if m.group(2) else int(m.group(1))
        for i, row in enumerate(t.rows):
            first = [core(c) for c in row[:2]]
            if str(n) in first[:1] or f"第{n}名" in first or any(x.endswith(str(n)) and not x.isdigit() and len(x) <= 4
                                                                 for x in first):
                return [i]
        if re.search(r"前\d+|序号|股东名称", context):
            body = [i for i, row in enumerate(t.rows) if not any(core(c) in ("合计", "小计", "总计") for c in row)]
            return body[n - 1:n] if len(body) >= n else []
        return []

    def _listed_rows(self, t: TableRecord, q: str) -> list[int]:
        """A list asked ("前五名供应商都是谁", "前十名股东有哪些"): the rows of the table whose caption or
        section title holds the question's phrase, its total rows left out."""
        phrase = max((re.sub(r"[的?]|^有|有$", "", c) for c in q.split("|")), key=len, default="")
        title = norm(t.caption + "".join(t.path[-1:]))
        if len(phrase) < 3 or phrase not in title:
            return []
        return [i for i, row in enumerate(t.rows)
                if any(row) and not any(core(c) in self.w.generic_labels for c in row[:2] if c)]

    def _columns(self, t: TableRecord, rows: list[int], q: str, key_cols: set[int], year: int) -> tuple[list[int], str]:
        """(value columns, how they were chosen: "only" the one, "named" by the question, the report year's
        "period", or the "whole" row)."""
        cols = [k for k in range(len(t.header)) if k not in key_cols
                and any(k < len(t.rows[r]) and t.rows[r][k] and is_number(t.rows[r][k]) for r in rows)]
        if not cols:
            cols = [k for k in range(len(t.header)) if k not in key_cols
                    and any(k < len(t.rows[r]) and t.rows[r][k] for r in rows)]
        if len(cols) <= 1:
            return cols, "only"
        qr = self._rewritten(q)
        qb = _bigrams(qr)
        named = []
        for k in cols:
            h = core(t.header[k])
            if not h:
                continue
            head = h[-2:]
            if h in qr or head in qr:
                hb = _bigrams(h)
                named.append((len(hb & qb) / max(len(hb), 1), k))
        if named:
            best = max(c for c, _ in named)
            keep = [k for c, k in named if c >= 0.75 or c == best]
            # each ask of the question ("持股比例" 和 "持股数量") names the header that holds most of it
            for ask in filter(None, _ASKS.split(qr)):
                ab = _bigrams(ask)
                if len(ab) < 2:
                    continue
                scored = [(len(ab & _bigrams(core(t.header[k]))) / len(ab), c, k) for c, k in named]
                top = max(scored)
                if top[0] >= ASK_COVER and top[2] not in keep:
                    keep.append(top[2])
            # another year's column (2018年金额, 上期发生额) only when the question names that period
            own = [k for k in keep if not self._other_period(core(t.header[k]), qr, year)]
            # the same header twice (本期发生额 | 上期发生额 above 营业收入 净利润 … 营业收入 净利润): the first,
            # the report year's, unless the question names the other period
            first: dict[str, int] = {}
            for k in sorted(own or keep):
                first.setdefault(core(t.header[k]), k)
            return sorted(first.values()), "named"
        # no header named: the report year's column, when the columns are periods
        period = self._period_column(t, cols, year)
        if period is not None:
            return [period], "period"
        return cols, "whole"

    def _asks_met(self, t: TableRecord, rows: list[int], cols: list[int], q: str) -> bool:
        """Whether each ask the question has beyond the row's own words ("持股比例" in "…持股比例多少") is
        held by a chosen column's header or the table's title; true for columns without header (label |
        value)."""
        heads = _bigrams("".join(core(t.header[k]) for k in cols if k < len(t.header)))
        if not heads:
            return True
        heads |= _bigrams(norm(t.caption + "".join(t.path[-1:])))   # "采购" of 采购商品/接受劳务情况表
        rest = q
        for c in sorted({core(c) for r in rows for c in t.rows[r] if c and not is_number(c)}, key=len, reverse=True):
            if len(c) >= 2:
                rest = rest.replace(c, "|")
        rest = _NOT_AN_ASK.sub("|", self._rewritten(rest))
        asks = [_bigrams(a) for a in _ASKS.split(rest)]
        asks = [a for a in asks if len(a) >= 2]
        return all(len(a & heads) * 2 >= len(a) for a in asks)

    def _other_period(self, header: str, q: str, year: int) -> bool:
        years = [int(y) for y in _YEAR.findall(header)]
        if years and year not in years:
            return not any(str(y) in q for y in years)
        return any(w in header and w not in q for w in self.w.period_columns.get("previous", ()))

    def _period_column(self, t: TableRecord, cols: list[int], year: int) -> int | None:
        pc = self.w.period_columns
        current = []
        for k in cols:
            h = core(t.header[k])
            years = _YEAR.findall(h)
            if any(w in h for w in pc.get("change", ())):
                continue
            if str(year) in years or (not years and any(w in h for w in pc.get("current", ()))
                                                   and not any(w in h for w in pc.get("previous", ()))):
                current.append(k)
        return current[0] if len(current) == 1 else None

    def match(self, u: Understanding, rep: Report, q: str) -> CellMatch | None:
        """The best table cells for the question's words `q` (question_text) in the report."""
        store = self.v.source.store
        words = [w for w in dict.fromkeys(tokens(q)) if len(w) >= 2 or not w.isascii()]
        if not words:
            return None
        expr = " OR ".join(f'"{w}"' for w in words[:60])
        ids = store.table_match(expr, rep.id, MAX_TABLES)
        if not ids:
            return None
        spans = self._item_spans(u)
        qb = _bigrams(q)
        q_raw = self.question_text(u, masked=False)
        best: CellMatch | None = None
        for t in store.report_tables(rep.id, ids):
            if any(_SKIP_TABLE.search(x) for x in [*t.path, t.caption]):
                continue   # the statements are the lookup's; a 释义 table defines words, it holds no values
            context = norm(" ".join(t.path[-2:]) + t.caption + "".join(t.header))
            rows, label, exact = self._row_matches(t, q, q_raw, context)
            listed = False
            if not rows:
                rows, label = self._rank_row(t, q, context), ""
            if not rows and _LIST.search(u.norm):
                rows = self._listed_rows(t, q)
                listed = bool(rows)
            if not rows:
                continue
            if any(_CUT_NUMBER.search(c) for r in rows for c in t.rows[r]):
                continue   # numbers cut by narrow columns ("9,325,717,499.", "260,760,875.5"): none is read
            key_cols = {k for r in rows for k, c in enumerate(t.rows[r]) if c and label and not is_number(c)
                        and (core(c) in q or core(c) == label)}
            if not label:
                key_cols = {k for k, c in enumerate(t.rows[rows[0]]) if c and not is_number(c)
                            and k < 2}
            cols, how = self._columns(t, rows, q.replace(label, "|") if label else q, key_cols, rep.year)
            whole = how == "whole" or (listed and how != "named")   # a list: whole rows unless columns are named
            if not cols:
                continue
            items_asked = [s for s in spans if s and s not in _bare(label)]
            if items_asked and any(t.header[k] for k in cols) and not any(
                    any(a in _bare(t.header[k]) or a[-2:] in _bare(t.header[k]) for a in items_asked) for k in cols):
                continue   # the item asked (净利润) is no column of this table
            if how != "named" and not listed and label and not self._asks_met(t, rows, cols, q):
                continue   # the question asks what no column chosen holds (持股比例 of a 注册资本 column)
            if not whole and any(s and s in context for s in spans):
                # the item the table is about (营业收入 of 营业收入构成) is asked too: its report-year column
                period = self._period_column(t, [k for k in range(len(t.header)) if k not in key_cols], rep.year)
                if period is not None and period not in cols:
                    cols = sorted([*cols, period])
            asked = qb - _bigrams(label)
            title = norm(" ".join(t.path[-2:]) + t.caption)
            ctx = len(asked & _bigrams(context))
            topic = 2 * len(asked & _bigrams(title)) + ctx   # the table's title counts twice its header
            if label and ctx < (0 if len(label) >= 8 else 1 if len(label) >= 5 else 2):
                continue   # a short label ("营业收入", "合计") names a row only inside its table's topic
            # an entity: a row with numbers (not a header row inside the body, "本期发生额 | 上期发生额")
            entity = bool(label) and len(label) >= 3 and any(is_number(c) for r in rows for c in t.rows[r]) and not any(_bare(label) in s or s in _bare(label)
                                                                  for s in spans if s)
            if not label and not (listed and not whole):
                whole, cols = True, [k for k in range(len(t.header)) if k not in key_cols or k > 0]
            named = len(label) if exact else len(label) // 2 if label else 1 if listed else 0
            # one row per label: a label over several rows (染料行业 above its cost items) is a group
            single = len(rows) <= len({core(c) for r in rows for c in t.rows[r] if c and core(c) in q}) or len(rows) == 1
            score = (named + (3 if not label else 0), single, topic, 0 if whole else len(cols))
            if DEBUG:
                print("cells:", score, t.id, t.caption, t.path[-1:], label, rows, cols, whole)
            m = CellMatch(t, rows, label, cols, whole, entity and exact, score, listed)
            if best is None or m.score > best.score:
                best = m
        return best

    # --------------------------------------------------------------------------- the answer

    def answer(self, u: Understanding) -> tuple[Answer | None, str]:
        """(the cells the question names, or None when no table of the asked year's report names them;
        the row's label when it is an entity the question's items do not explain, else "")."""
        if not u.companies or len(u.years.years) > 1:
            return None, ""
        rep, name, year, note = self.v.report(u)
        if rep is None or note or rep.year != year:
            return None, ""
        q = self.question_text(u)
        m = self.match(u, rep, q)
        if m is None:
            return None, ""
        entity = m.label if m.entity else ""
        if u.frame.operation != "value" and not any(
                any(w in core(m.table.header[k]) for w in self.w.period_columns.get("change", ()))
                for k in m.columns if k < len(m.table.header)):
            # a change, a sum or a ratio asked: only a column that prints it answers (never the plain value)
            return None, entity
        return self._render(u, m, name, year, q), entity

    def _render(self, u: Understanding, m: CellMatch, name: str, year: int, q: str) -> Answer | None:
        t = m.table
        parts, evidence = [], []
        rows = m.rows[:MAX_ROWS]
        for r in rows:
            row = t.rows[r]
            label = next((c for c in row if c and not is_number(c) and core(c) and core(c) in q), "") or \
                next((c for c in row if c and not is_number(c)), "") or "?"
            page = t.pages[r] if r < len(t.pages) else t.page_start
            cells, found = [], []
            for k in m.columns:
                value = row[k] if k < len(row) else ""
                if not value or value == label or (m.whole_row and k == 0 and is_number(value) and len(value) <= 2):
                    continue
                if not is_number(value) and not _NAME_ASKED.search(q) and not (m.listed and m.whole_row):
                    continue   # a number was asked: a text cell here is a misread column
                column = t.header[k] if k < len(t.header) else ""
                unit = unit_of(column, label) or (None if "%" in value or _RATE.search(core(column) or core(label))
                                                  else t.unit)   # a rate's column never takes the table's 元
                shown = value + (unit if unit and unit != "%" and not value.endswith("%") else "") + \
                    ("%" if unit == "%" and not value.endswith("%") else "")
                if u.unit is not None and is_number(value) and unit != "%" and not value.endswith("%"):
                    # an amount asked in a unit (万元, 亿元): converted from the table's, or not given at all
                    amount = parse_number(value)
                    if unit not in UNIT_FACTORS or amount is None:
                        continue
                    shown = format_scaled(to_yuan(amount, unit), u.unit, u.decimals, self.v.style) + f"（表中为{shown}）"
                cells.append(f"{_shown(column)}：{shown}" if column else shown)
                found.append(CellEvidence(" > ".join([*t.path[-2:], t.caption] if t.caption else t.path[-2:]),
                                             label, column, value + ("" if not unit or value.endswith("%") else unit), page))
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
        text = render(self.t, "cell_answer", company=name, year=year, table=where, page=shown_pages, cells="；".join(parts))
        return Answer(u.question, text, u.finglm_type(), "cell", list(evidence))


_NAME_ASKED = re.compile(r"谁|哪|什么|名称|名字")
_NAME = re.compile(r"(?:公司|集团|企业|银行|中心|厂)$")   # a name: matched whole, never approximately


def _shown(header: str) -> str:
    """A header as shown: the spaces its wrapped lines were joined with left out between Chinese words."""
    return re.sub(r"(?<=[\u4e00-\u9fff（）()%]) (?=[\u4e00-\u9fff（）()%])", "", header)


def _bare(text: str) -> str:
    """Words only (no 的, punctuation or spaces): how an item's matched phrase and a label compare."""
    return re.sub(r"[^\w]|的|_", "", norm(text))
