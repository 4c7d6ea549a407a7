"""The summary table 主要会计数据和财务指标 (three years of the key figures) → facts.

It is the first place an analyst looks and the only one in a report cut before its statements. Its
facts carry statement "主要会计数据" and a period per column: current, previous, previous2 (two years
before the report year); they are stored after the statements' facts, so a statement value wins where
both exist, and `fin-qa check` compares the two.

What real reports bring, and where it is handled:
- the title "六、主要会计数据和财务指标", "七、近三年主要会计数据和财务指标" / "(一)主要会计数据",
  "1. 本年度主要会计数据" (older layouts); a line of the table of contents is not it (find_title).
- year headers "2019年 | 2018年 | 本年比上年增减 | 2017年", a second block with "2019年末 …", header
  words wrapped over rows ("本期比上" / "年同期增" / "减(%)"), restated years with 调整前 / 调整后
  sub-columns (the 调整后 value is kept), the change column skipped (_Header).
- a value goes to the header cell nearest to it (positions; FinGLM txt rows: cell order).
- labels wrapped above, below and around their numbers ("归属于上市公司股东的净利润" / numbers / "（元）",
  "归属于上市公司股东" / "的扣除非经常性损益" + numbers / "的净利润"): the fragments between two rows
  of numbers are split where the most labels name known items (_assign_fragments).
- units: "单位：元" or "人民币百万元，另有标注除外" near the title, or the label's "（万元）"; per-share
  rows in 元/股 and rates (…率) in % as printed. Only rows naming a known item (keyword_tables/items.yaml)
  become facts: a bank's "净利差 2.45" or "成本收入比 56.57" carry no % sign, and a guessed unit
  would be a wrong number.
- the table ends at the next heading that is not a part of it (境内外会计准则…, 分季度主要财务指标),
  after at most four pages.
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from decimal import Decimal

from ..catalog.items import ItemTable
from ..catalog.periods import CHANGES
from ..catalog.vocabulary import INDICATORS
from ..numbers import decimal_str, find_unit, is_empty_marker, parse_number, to_yuan
from .pages import Document, Row
from .statement_model import StatementFact

STATEMENT = "主要会计数据"
PERIODS = {0: "current", 1: "previous", 2: "previous2"}

_TITLE = re.compile(r"主要会计数据|主要财务数据")
_TOC = re.compile(r"\.{3,}|…{2,}|[-—－]{3,}|\d+$")
_YEAR = re.compile(r"^(\d{4})\s*年\s*(?:[（(]\d{1,2}[)）])?\s*(?:末|度|12\s*月\s*31\s*日)?$")
_UNIT_LINE = re.compile(r"^[（(]?(?:单位[:：])?(?:人民币)?(百万元|千元|万元|亿元|元)(?:[，,、].{0,12})?[)）]?$")
_NOTE_MARK = re.compile(r"[（(]\d{1,2}[)）]$")
_CHANGE = re.compile(r"增减|比上|^增$|^减|同期增|期增|^年同$|^本期$|^本年末?$|^[（(]?%[)）]?$")
_ADJUST = re.compile(r"^调整(前|后)$")
# a number a narrow column cut: ends in "." or ",", or in a thousands group of one or two digits
_CUT = re.compile(r"\d[.,]$|,\d{1,2}$")
_ITEM_NUMBER = re.compile(r"\d{1,2}[.、．]")   # "1." before a label
_DATE_PART = re.compile(r"\d{1,2}\s*月|\d{1,2}\s*日|\d{1,2}\s*月\s*\d{1,2}\s*日")
_HEADER_WORD = re.compile(r"^(?:主要会计数据|主要财务指标|项目|单位.*|币种.*|[（(]?元[)）]?)$")
# (a number's decimal point is no heading's: "65.64 68.65 -4.38 59.51", a row whose label wrapped around it)
_HEADING = re.compile(r"^(?:[一二三四五六七八九十]+[、.．]|[（(][一二三四五六七八九十\d]+[)）]|\d{1,2}(?:、|[.．](?!\d)))")
_PART_OF_TABLE = re.compile(r"主要会计数据|主要财务指标|主要财务数据")
_END = re.compile(r"分季度|境内外会计准则|非经常性损益项目")
_UNIT_REMARK = re.compile(r"[（(](?:人民币)?(?:元[/／]股|元|千元|万元|百万元|亿元|%)[)）]")
_SENTENCE = re.compile(r"[，。；：,;:]")
_LABEL_UNIT = re.compile(r"[（(](?:人民币)?(千元|万元|百万元|亿元)[)）]")
MAX_PAGES = 4
# an interim filing's printed changes (CHANGES): a flow's only source of 同比 where the filing prints no 上年同期 column
# — a Shanghai first quarter's table — and no filing of that period a year before is stored; kept only when the
# filing's statements vouch for their column (checked_changes)
_CHANGE_PERIODS = frozenset(CHANGES.values())


def find_title(doc: Document, max_share: float = 0.4) -> tuple[int, int] | None:
    """(page, row index) of the summary table's title in the first part of the report, or None."""
    last = doc.pages[0].number + max(8, int(len(doc.pages) * max_share)) if doc.pages else 0
    for page in doc.pages:
        if page.number > last:
            break
        if not any(_TITLE.search(line.text.replace(" ", "")) for line in page.lines):
            continue
        for i, row in enumerate(doc.table_rows(page.number)):
            s = row.text.replace(" ", "")
            if _TITLE.search(s) and len(s) <= 40 and not _TOC.search(s) and not _END.search(s):
                return page.number, i
    return None


@dataclass
class _Marker:
    kind: str  # year | change | before | after
    xc: float
    year: int = 0
    period: str | None = None   # an interim filing's column (本报告期, 上年同期 …): the period it holds, not a year


# an interim filing's column words (issue 44): 本报告期 (the quarter alone in a first or third quarter's report, the
# half year in a half-year report's), 上年同期 (the same period a year before: of the column to its left),
# 年初至报告期末 (the year to date), 本报告期末 | 上年度末 (balances); wrapped header words ("年初至报", "告期末")
_INTERIM_COLUMN = [
    (re.compile(r"^本报告期末$|^报告期末$"), "end"),
    (re.compile(r"^上年度末$|^上年末$"), "end_previous"),
    (re.compile(r"^年初[至到]报(?:告(?:期(?:末)?)?)?$"), "ytd"),
    (re.compile(r"^本报告期$|^本期$"), "this"),
    (re.compile(r"^上年同期$"), "prior"),
]
_INTERIM_WORDS = re.compile(r"^[本上年度同期末初至到报告比增减变动幅度调整前后（）()%％个百分点]+$")
# a number as printed: grouped by three, or not grouped at all; a number cut over two lines ("7,176,243," |
# "743.45" in a narrow column) is none, and its table's positions cannot be trusted
_WELL_FORMED = re.compile(r"^[-−－]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?[%％]?$")


@dataclass
class _Header:
    markers: list[_Marker] = field(default_factory=list)

    def period_of(self, xc: float, report_year: int) -> str | None:
        """The period of a value at xc: its nearest header cell's year (调整后: the year above it)."""
        if not self.markers:
            return None
        m = min(self.markers, key=lambda k: abs(k.xc - xc))
        if m.kind == "year":
            # a year printed over its 调整前 | 调整后 columns: the value's own column decides (a short number
            # right-aligned under 调整前 can stand nearer the year's middle than its own column's)
            subs = [k for k in self.markers if k.kind in ("before", "after") and abs(k.xc - m.xc) < 80]
            if {k.kind for k in subs} == {"before", "after"}:
                m = min(subs, key=lambda k: abs(k.xc - xc))
        if m.kind == "after":
            years = [k for k in self.markers if k.kind == "year"]
            m = min(years, key=lambda k: abs(k.xc - xc)) if years else m
        return self.period_at(m, report_year)

    @staticmethod
    def period_at(m: _Marker, report_year: int) -> str | None:
        """The period of a header cell: its year's (an interim filing's change column: the change of the period to its
        left, CHANGES; None for any other change column's)."""
        if m.kind == "change":
            return m.period
        if m.kind != "year":
            return None
        if m.period is not None:
            return m.period
        return PERIODS.get(report_year - m.year)


def _interim_header(markers: list[_Marker], code: str) -> list[_Marker]:
    """An interim filing's header markers named by the periods they hold. A column word standing over a
    change column ("本报告期" atop "比上年同期增减") marks that change column, not a period; 上年同期 is the
    year before of the column to its left (the quarter's, or the year to date's)."""
    changes = [m.xc for m in markers if m.kind == "change"]
    kept = [m for m in markers if m.kind == "change" or not any(abs(m.xc - x) < 25 for x in changes)]
    kept.sort(key=lambda m: m.xc)
    left: str | None = None
    for m in kept:
        if m.kind == "change":
            # (本报告期比上年同期增减 | 年初至报告期末比上年同期增减: the change of the flow to its left on the same
            # period a year before; a balance's change on the year end before is not kept — no question needs it)
            m.period = None if left is None else CHANGES["quarter" if (left == "this" and code == "Q3") else "current"]
        elif m.period == "this":
            left = "this"
            m.period = "quarter" if code == "Q3" else "current"
        elif m.period == "ytd":
            left = "ytd"
            m.period = "current"
        elif m.period == "prior":
            m.period = "quarter_previous" if (left == "this" and code == "Q3") else "previous"
        elif m.period == "end":
            left, m.period = None, "current"
        elif m.period == "end_previous":
            left, m.period = None, "previous"
    return kept


def _marker(text: str, interim: bool = False) -> _Marker | None | bool:
    """A header cell's marker; True for a header word that marks nothing; None for other text. (interim: an
    interim filing's column words too.)"""
    s = text.replace(" ", "")
    m = _YEAR.match(s)
    if m:   # (an interim filing's table has no year columns: a date is a statement's header, below it)
        return True if interim else _Marker("year", 0.0, int(m.group(1)))
    m = _ADJUST.match(s)
    if m:
        return _Marker("before" if m.group(1) == "前" else "after", 0.0)
    if _CHANGE.search(s):
        return _Marker("change", 0.0)
    if interim:
        for rx, period in _INTERIM_COLUMN:
            if rx.match(s):
                return _Marker("year", 0.0, period=period)
        if _INTERIM_WORDS.match(s):
            return True
    if _HEADER_WORD.match(s) or not s:
        return True
    return None


@dataclass
class _Entry:
    label: str
    values: dict[str, tuple[Decimal | None, str]] | None = None  # period → (value, printed text)
    page: int = 0
    unit: str | None = None  # the label's own unit, "营业收入（万元）"
    malformed: bool = False  # a number printed cut over lines: the block it is in is not read


def _read_rows(doc: Document, page_no: int, start: int, report_year: int,
               code: str = "FY") -> tuple[list[list[_Entry]], str | None]:
    """The table's rows as blocks of entries (a header row starts a new block), and the unit line's unit.
    (code: the filing's period — an interim filing's column words name its periods.)"""
    interim = code != "FY"
    blocks: list[list[_Entry]] = []
    header: _Header | None = None
    pending: list[_Marker] = []  # header cells since the last row of values
    wrapped = False   # a number of the block was cut by its column: its rows below are not read
    unit: str | None = None
    last_page = doc.pages[-1].number
    for pn in range(page_no, min(page_no + MAX_PAGES, last_page + 1)):
        rows: list[Row] = doc.table_rows(pn)[start + 1 if pn == page_no else 0:]
        for row in rows:
            flat = row.text.replace(" ", "")
            if not flat:
                continue
            if _HEADING.match(flat) and (not _PART_OF_TABLE.search(flat) or _END.search(flat)):
                return blocks, unit
            if _END.search(flat) and len(flat) <= 40:
                return blocks, unit
            if _HEADING.match(flat) and len(flat) <= 40:
                continue  # "(二)主要财务指标": a part of the table, not a label
            if header is None and unit is None:
                line_unit = _UNIT_LINE.match(flat)  # "人民币百万元，另有标注除外"
                unit = find_unit(flat) or (line_unit.group(1) if line_unit else None)
            marks = [(_marker(c.text, interim), c) for c in row.cells]
            years = sum(1 for m, _ in marks if isinstance(m, _Marker) and m.kind == "year")
            numbers = sum(1 for c in row.cells if parse_number(c.text.rstrip("%")) is not None)
            # (a header row may hold a date's parts beside its words: "增减(%)" | "31日" of "2020年 12月 31日")
            if (years and not numbers) or (
                    all(m is not None or _DATE_PART.fullmatch(c.text.strip()) for m, c in marks)
                    and any(isinstance(m, _Marker) for m, _ in marks)):
                for i, (m, c) in enumerate(marks):
                    if isinstance(m, _Marker):
                        m.xc = c.xc
                        # a date printed in cells of its own ("2022年" "12月" "31日"): the column is the whole
                        # date's, centred under it — its year's cell alone stands left of the values
                        parts = [x for _, x in itertools.takewhile(
                            lambda mc: mc[0] is None and _DATE_PART.fullmatch(mc[1].text.strip()), marks[i + 1:i + 3])]
                        if m.kind == "year" and parts:
                            m.xc = (c.xc + parts[-1].xc) / 2
                        pending.append(m)
                continue
            # (a first quarter's table may print one period: 本报告期 | 本报告期比上年同期增减)
            if sum(1 for m in pending if m.kind == "year") >= (1 if interim else 2):
                # the rows of header cells above start a block
                header = _Header(_interim_header(pending, code) if interim else pending)
                blocks.append([])
                wrapped = False
            pending = []
            if header is None:
                continue  # above the table: 公司是否需追溯调整…, □是√否
            cut = any(_CUT.search(t) or t[0] in ",." for t in (c.text.strip() for c in row.cells)
                      if t and not _ITEM_NUMBER.fullmatch(t))
            if wrapped:
                continue   # (the block's numbers wrap inside their cells: no row after the first cut is read)
            # the label column ends left of the first year column: text right of it is a wrapped header
            # word ("同期" / "末增" / "减(%)", "增加3.88个百" / "分点"), not a label
            edge = min((m.xc for m in header.markers if m.kind == "year"), default=1e9) - 20
            label_parts: list[str] = []
            values: dict[str, tuple[Decimal | None, str]] = {}
            malformed = False
            # a value for every column of a header of years and a change column, in order: each is its column's,
            # whichever header cell it stands nearer (百克生物 2022: "-29.03" under a wide 本期比上年同期增减(%)
            # stands nearer 2020年 than the change column's centre)
            cols = sorted(header.markers, key=lambda k: k.xc)
            cells = [c for c in row.cells if c.xc >= edge and (parse_number(c.text.strip().rstrip("%")) is not None
                                                               or is_empty_marker(c.text.strip()))]
            in_order = {id(c): m for c, m in zip(cells, cols)} if len(cells) == len(cols) and len(cols) >= 3 and all(
                m.kind in ("year", "change") for m in cols) else {}
            for c in row.cells:
                text = c.text.strip()
                num = parse_number(text.rstrip("%"))
                if interim and num is not None and not _WELL_FORMED.match(text.replace(" ", "")):
                    malformed = True
                if num is None and not is_empty_marker(text):
                    if not values and c.xc < edge:
                        label_parts.append(text)
                    continue
                if not values and not label_parts and num is not None and "," not in text and len(text) <= 2:
                    label_parts.append(text)  # "1." item numbers
                    continue
                at = in_order.get(id(c))
                period = header.period_of(c.xc, report_year) if at is None else header.period_at(at, report_year)
                if period and period not in values:
                    values[period] = (num, text)
                elif not values:
                    values.setdefault("", (None, text))  # a value of no period: the row still has numbers
            raw = "".join(label_parts)
            own_unit = _LABEL_UNIT.search(raw)
            label = _NOTE_MARK.sub("", _UNIT_REMARK.sub("", raw).strip())
            if _SENTENCE.search(label) or len(label) > 40:
                continue  # a note under the table ("注：报告期内，…342,900份期权行权")
            if cut:
                # a number a narrow column cut ("7,176,243," | "743.45", "537,568,59" | "2.87"): the row is
                # malformed, and the rows below it hold the cut numbers' ends — none is read as a row of its own
                malformed, wrapped = True, True
            if values or malformed:
                values.pop("", None)
                blocks[-1].append(_Entry(label, values, pn, own_unit.group(1) if own_unit else None, malformed))
            elif label and not re.fullmatch(r"[\d.、]+", label):
                blocks[-1].append(_Entry(label, None, pn))
    return blocks, unit


def _strip(label: str) -> str:
    return _UNIT_REMARK.sub("", label.strip())


def _assign_fragments(entries: list[_Entry], known) -> list[tuple[str, _Entry]]:
    """The label of every entry with values, the label-only fragments around it joined to it.

    Between two rows of values the fragments are split where the most of the two joined labels name
    known items (ties: the fragments go to the row below); fragments before the first row may be header
    text and are dropped from the front when that names a known item.
    """
    rows = [i for i, e in enumerate(entries) if e.values is not None]
    out: list[tuple[str, _Entry]] = []
    labels = [entries[i].label for i in rows]
    # fragments before the first row
    if rows:
        frags = [entries[k].label for k in range(rows[0])]
        best = max(range(len(frags) + 1),
                   key=lambda j: (known(_strip("".join(frags[j:]) + labels[0])), -j))
        labels[0] = "".join(frags[best:]) + labels[0]
    for n, (a, b) in enumerate(zip(rows, rows[1:] + [len(entries)])):
        frags = [entries[k].label for k in range(a + 1, b)]
        nxt = labels[n + 1] if n + 1 < len(rows) else None

        def score(j: int) -> tuple[int, int]:
            here = known(_strip(labels[n] + "".join(frags[:j])))
            there = known(_strip("".join(frags[j:]) + nxt)) if nxt is not None else 0
            return (here + there, -j if nxt is not None else j)

        j = max(range(len(frags) + 1), key=score) if frags else 0
        if nxt is None and not known(_strip(labels[n] + "".join(frags[:j]))):
            j = 0  # trailing text after the last row: kept only when it completes a label
        labels[n] += "".join(frags[:j])
        if nxt is not None:
            labels[n + 1] = "".join(frags[j:]) + nxt
    for label, i in zip(labels, rows):
        out.append((label, entries[i]))
    return out


def extract_summary(doc: Document, year: int | None, table: ItemTable, code: str = "FY") -> list[StatementFact]:
    """The summary table's facts (amounts in 元; per-share in 元/股; rates in %), or [] without one. An interim
    filing's (code Q1 | HY | Q3) by its column words: periods current (the half year, the first quarter, the
    year to date of a third quarter's report; balances at the period end), previous (the same period a year
    before; balances at the year end before), quarter and quarter_previous (a third quarter's report's
    本报告期: July to September alone, and a year before). A block holding a number cut over two lines is not
    read: its positions cannot be trusted."""
    if year is None:
        return []
    found = find_title(doc)
    if found is None:
        return []
    blocks, unit = _read_rows(doc, found[0], found[1], year, code)
    blocks = [b for b in blocks if not any(e.malformed for e in b)]

    def known(label: str) -> int:
        return 1 if table.canonical(label) is not None else 0

    facts: list[StatementFact] = []
    seen: set[tuple[str, str]] = set()
    for block in blocks:
        labelled = _assign_fragments(block, known)
        items = [table.canonical(_strip(label)) for label, _ in labelled]
        # an interim filing's two rows naming one item (百诚医药 2023 半年度报告 prints 扣除非经常性损益后的净利润
        # over its 归属于上市公司股东的净利润 row, then the 扣除 row): which is which is not known, neither is read
        twice = {i for i in items if items.count(i) > 1} if code != "FY" else set()
        for (label, entry), item in zip(labelled, items):
            row_unit = entry.unit or unit or "元"
            if item is None or item in twice:
                continue  # only rows naming a known item: an unknown row's unit and meaning are guesses
            for period, (value, text) in (entry.values or {}).items():
                if value is None or (item, period) in seen:
                    continue
                if period in _CHANGE_PERIODS:
                    # (a rate's change is printed in points — "减少0.2811个百分点" —, its words in other cells: none kept)
                    if "率" in item or table.statement_of(item) == INDICATORS or not _WELL_FORMED.match(
                            text.replace(" ", "")):
                        continue
                    seen.add((item, period))
                    facts.append(StatementFact(item, label, period, decimal_str(value), "%", entry.page))
                    continue
                seen.add((item, period))
                if text.endswith("%") or "率" in item or table.statement_of(item) == INDICATORS:
                    v, u = value, "%"
                elif "每股" in item:
                    v, u = value, "元/股"
                else:
                    v, u = to_yuan(value, row_unit), "元"
                facts.append(StatementFact(item, label, period, decimal_str(v), u, entry.page))
    return facts


def reconcile(facts: list[StatementFact], statements: dict[tuple[str, str], Decimal]) -> tuple[list[StatementFact], list[str]]:
    """The summary's rows made to agree with the statements, row by row, and what was done.

    A row whose item the statements print (current or previous column) is kept when its values equal
    theirs; turned over when they are their negatives (a bank's summary prints 信用减值损失 as a positive
    loss, its income statement as (55,384)) so that one item has one sign in the store; dropped when they
    differ otherwise — its third year (previous2) would be read with no statement to vouch for it.
    """
    rows: dict[str, list[StatementFact]] = {}
    for f in facts:
        rows.setdefault(f.item, []).append(f)
    kept: list[StatementFact] = []
    notes: list[str] = []
    for item, row in rows.items():
        pairs = [(Decimal(f.value), statements[(item, f.period)]) for f in row if (item, f.period) in statements]

        def near(a: Decimal, b: Decimal) -> bool:
            return abs(a - b) <= max(Decimal(1), abs(b) * Decimal("0.00001"))

        if not pairs or all(near(a, b) for a, b in pairs):
            kept.extend(row)
        elif all(near(-a, b) for a, b in pairs):
            kept.extend(StatementFact(f.item, f.raw_label, f.period, decimal_str(-Decimal(f.value)), f.unit, f.page)
                        for f in row)
            notes.append(f"主要会计数据: {item} printed with the opposite sign of the statements: turned over")
        else:
            notes.append(f"主要会计数据: {item} differs from the statements: not kept")
    return kept, notes


def checked_changes(facts: list[StatementFact], statements: dict[tuple[str, str], Decimal]) -> tuple[list[StatementFact], list[str]]:
    """The filing's printed changes (CHANGES) kept only where its statements vouch for their column: each change of
    an amount the statements print in both periods is (current − previous) / |previous| as printed (two decimals);
    where one disagrees, or none can be checked, none of the filing's changes is kept (said). A third quarter's
    quarter alone has no statement of its own: its column is vouched for by the year to date's beside it."""
    changes = [f for f in facts if f.period in _CHANGE_PERIODS]
    if not changes:
        return facts, []
    agree: list[str] = []
    disagree: list[str] = []
    for f in changes:
        a, b = statements.get((f.item, "current")), statements.get((f.item, "previous"))
        if f.period != CHANGES["current"] or "每股" in f.item or a is None or b is None or b == 0:
            continue   # (a per-share figure's change is of its unrounded values: no check)
        (agree if abs((a - b) / abs(b) * 100 - Decimal(f.value)) <= Decimal("0.011") else disagree).append(f.item)
    if agree and not disagree or not statements:
        return facts if agree else [f for f in facts if f.period not in _CHANGE_PERIODS], []   # (no statements — a
        # 摘要 —: nothing to check, none kept, nothing to say)
    why = f"differs from the statements' ({'、'.join(disagree)})" if disagree else "not checked by the statements"
    return [f for f in facts if f.period not in _CHANGE_PERIODS], [f"主要会计数据: the printed changes not kept: {why}"]

