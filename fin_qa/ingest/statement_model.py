"""A parsed financial statement, its facts, the checks run over it, and parsed rows → facts.

Both statement parsers end here: the positioned-table parser (statements.py) and the run-together text
parser (bank_text.py) turn their lines into StatementRows (a printed label, values by period in the
statement's unit) and hand them to build_statement, which
- names each row's item: the ItemTable's canonical item for the label, else the normalised label
  ("其中：营业收入" → 营业收入); a label that is a number names nothing; a leading bullet ("-公司贷款和垫款"
  in run-together text) is dropped when the parser says its rows carry one;
- keeps the first row of an item (a statement repeats 小计/合计 lines and "(续)" pages repeat rows);
- puts amounts in 元 (单位：万元 → ×10000); per-share items (每股…) keep their printed value, in 元/股;
- stores the items a statement subtracts (ItemTable.subtracted: costs, expenses, income tax, cash paid
  out) as positive amounts: a statement that prints most of them in parentheses (banks: "利息支出
  (148,014)") has them all turned over when its own identity confirms it (normalise_signs);
- rejects a statement that names fewer than MIN_ITEMS items (a table of contents, a stray title line);
- runs the statement checks: a balance sheet is cross-footed (资产总计 = 负债和所有者权益总计) and each
  statement must have its key total; a mismatch or a missing total is a warning, the facts are kept.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from ..catalog.items import ItemTable, normalize_label
from ..numbers import decimal_str, parse_number, to_yuan

PERIODS = ("current", "previous")
# a note reference (附注), a column of its own or run into a label: 五(一), 五、(十四), 十四(二), 附注七、1, 六.3,
# (一), 七、79, 79(1), a roman numeral (Ⅴ.1, VI(3))
_ROMAN = r"(?:[ⅠⅡⅢⅣⅤⅥⅦⅧⅨⅩⅪⅫ]{1,3}|(?:X{0,2})(?:IX|IV|V?I{1,3}|V))"
NOTE_REF = re.compile(
    r"^(?:附注|注释|注)?(?:[一二三四五六七八九十]+[、.．]?|" + _ROMAN + r"[、.．]?)?"
    r"(?:[（(]?[一二三四五六七八九十\d]{1,3}[)）]?[、.．]?)*$"
)
# … run into the end of a label ("所得税费用五.34", "货币资金五、(一)", "投资收益（损失以“-”号填列）七、68"): a
# numeral with what makes it a reference (a separator and a number, a bracketed number), never a bare numeral
LABEL_NOTE = re.compile(
    r"(?:附注|注释)?(?:[一二三四五六七八九十]{1,3}|" + _ROMAN + r")"
    r"(?:[、.．]\s*\d{1,3}|[、.．]?\s*[（(](?:\d{1,3}|[一二三四五六七八九十]{1,3})[)）])(?:[（(]\d{1,2}[)）])?$"
    r"|(?:附注|注释)[一二三四五六七八九十\d]{1,3}(?:[、.．]\d{1,3})?$"
    r"|(?<=[\u4e00-\u9fff])[（(][一二三四五六七八九十]{1,3}[)）]$|(?<=[\u4e00-\u9fff])\d{1,3}[（(]\d{1,2}[)）]$"
    r"|(?<=[\u4e00-\u9fff])(?:附注|注释)$"
)

MIN_ITEMS = 5  # fewer distinct items than this: not a statement


@dataclass
class StatementFact:
    item: str
    raw_label: str
    period: str  # current | previous
    value: str  # decimal string, in 元 (元/股 for per-share items)
    unit: str
    page: int


@dataclass
class Statement:
    kind: str  # 资产负债表 | 利润表 | 现金流量表
    title: str
    unit: str
    pages: list[int]
    facts: list[StatementFact] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # (item, period, page): a line printed with a value in the other period only (its cell left blank)
    blanks: list[tuple[str, str, int]] = field(default_factory=list)
    both_scopes: bool = False   # its periods printed for the group and the parent side by side (合并 | 公司)

    def value(self, item: str, period: str = "current") -> Decimal | None:
        for f in self.facts:
            if f.item == item and f.period == period:
                return Decimal(f.value)
        return None


@dataclass
class StatementRow:
    """One parsed statement row: the label as printed, values by period (current | previous) in the
    statement's unit (None: an empty cell), and the page it is on."""

    label: str
    values: dict[str, Decimal | None]
    page: int

    @property
    def has_values(self) -> bool:
        return any(v is not None for v in self.values.values())


# a total line named by the item it totals: a bank's "一、营业收入" heading, its parts, then "营业收入合计"
_TOTAL_OF = re.compile(r"^(.{2,}?)(?:合计|总计)$")


def item_of(label: str, table: ItemTable, bullets: str = "") -> str:
    """The item a printed label names ("" for none): canonical, else the item a total line totals (营业收入合计,
    营业支出合计: not question words, where 合计 may ask a sum), else the normalised label."""
    item = table.canonical(label) or table.canonical(label.lstrip(bullets))
    if item is None:
        name = normalize_label(label.lstrip(bullets))
        total = _TOTAL_OF.match(name)
        item = (table.canonical(total.group(1)) if total else None) or name
    return "" if parse_number(item) is not None else item


def rows_to_facts(
    rows: Iterable[StatementRow], unit: str, table: ItemTable, bullets: str = "",
    blanks: list[tuple[str, str, int]] | None = None,
) -> tuple[list[StatementFact], set[str]]:
    """Facts of the rows (the first row of each item; amounts in 元) and every item named; `blanks` gets
    (item, period, page) of an item's row printing a value in the other period only.

    An item named by a row without values counts as named (a later row of that item is not read).
    """
    facts: list[StatementFact] = []
    seen: set[str] = set()
    for row in rows:
        item = item_of(row.label, table, bullets)
        if not item or item in seen:
            continue
        seen.add(item)
        per_share = "每股" in item
        for period in PERIODS:
            v = row.values.get(period)
            if v is None:
                if blanks is not None and row.has_values:
                    blanks.append((item, period, row.page))
                continue
            value = v if per_share else to_yuan(v, unit)
            facts.append(
                StatementFact(item, row.label, period, decimal_str(value), "元/股" if per_share else "元", row.page)
            )
    return facts, seen


def build_statement(
    kind: str,
    title: str,
    unit: str,
    pages: list[int],
    rows: Iterable[StatementRow],
    table: ItemTable,
    warnings: Iterable[str] = (),
    bullets: str = "",
) -> Statement | None:
    """The checked statement of parsed rows; None when they name fewer than MIN_ITEMS items."""
    st = Statement(kind, title.strip(), unit, pages)
    st.warnings.extend(warnings)
    st.facts, seen = rows_to_facts(rows, unit, table, bullets, st.blanks)
    if len(seen) < MIN_ITEMS:
        return None
    if kind in SIGN_IDENTITY:
        normalise_signs(st.facts, table.subtracted, SIGN_IDENTITY[kind])
    check_statement(st)
    return st


# net = total − part, with part a subtracted item: what decides a statement's sign convention
SIGN_IDENTITY = {
    "利润表": ("净利润", "利润总额", "所得税费用"),
    "现金流量表": ("经营活动产生的现金流量净额", "经营活动现金流入小计", "经营活动现金流出小计"),
}


def normalise_signs(facts: list[StatementFact], subtracted: frozenset[str],
                    identity: tuple[str, str, str] = SIGN_IDENTITY["利润表"]) -> bool:
    """Turn over the subtracted items of a statement that prints them negative; True when it did.

    The statement's convention is the sign most of its subtracted items carry in the current period (at
    least two of them negative, more negative than positive), confirmed by the statement's identity
    (净利润 = 利润总额 − 所得税费用; 经营活动净额 = 流入小计 − 流出小计) holding only after the turn; without those three items, at least three negative and three times as
    many as positive. One negative 财务费用 (interest income above interest expense) or 所得税费用 (a tax
    credit) is a value, not a convention.
    """
    signs = [Decimal(f.value) for f in facts if f.item in subtracted and f.period == "current" and Decimal(f.value)]
    negative = sum(1 for v in signs if v < 0)
    if negative < 2 or negative <= len(signs) - negative:
        return False
    # the statement's own arithmetic decides when it can: 净利润 = 利润总额 − 所得税费用 must hold after the
    # turn and not before (a holding company's 财务费用 and 所得税费用 may both be negative values)
    current = {f.item: Decimal(f.value) for f in facts if f.period == "current"}
    net, total, part = identity
    if {net, total, part} <= current.keys() and current[part]:
        before = current[total] - current[part]
        after = current[total] + current[part]
        tol = max(Decimal(1), abs(current[net]) * Decimal("0.00001"))
        if not (abs(after - current[net]) <= tol < abs(before - current[net])):
            return False
    elif negative < 3 or negative < 3 * (len(signs) - negative):
        return False  # no identity to go by: only a clear convention
    outflows = _outflow_block(facts) if identity == SIGN_IDENTITY["现金流量表"] else set()
    for f in facts:
        if f.item in subtracted or f.item in outflows:
            f.value = decimal_str(-Decimal(f.value))
    return True


def _outflow_block(facts: list[StatementFact]) -> set[str]:
    """The items a cash-flow statement prints between an inflow subtotal and its outflow subtotal (a bank's
    客户贷款及垫款净增加额, 支付利息、手续费及佣金的现金 …): cash paid out, whose sign goes with the
    statement's convention like the listed ones."""
    out: set[str] = set()
    inside = False
    for f in facts:
        if f.item.endswith("现金流入小计"):
            inside = True
        elif f.item.endswith("现金流出小计") or f.item.endswith("现金流量净额"):
            inside = False
        elif inside:
            out.add(f.item)
    return out


def check_statement(st: Statement) -> None:
    """Cross-footing checks; a mismatch is a warning (the facts are kept, the user is told)."""
    if st.kind == "资产负债表":
        a, le = st.value("资产总计"), st.value("负债和所有者权益总计")
        if a is not None and le is not None and abs(a - le) > max(Decimal(1), abs(a) * Decimal("0.0001")):
            st.warnings.append(f"资产总计 {a} ≠ 负债和所有者权益总计 {le}")
        if a is None:
            st.warnings.append("资产总计 not found")
        if le is None and st.value("负债合计") is None:
            st.warnings.append("负债和所有者权益总计 and 负债合计 not found")
    elif st.kind == "利润表" and st.value("净利润") is None:
        st.warnings.append("净利润 not found")
    elif st.kind == "现金流量表" and st.value("经营活动产生的现金流量净额") is None:
        st.warnings.append("经营活动产生的现金流量净额 not found")
