"""The statement parsers' rules, one test each, on tiny committed fixtures (no ../shared needed).

FinGLM txt fixtures (tests/data/parsers/*.txt) go through the real reader (pages.open_finglm_txt);
PDF-like tables are built from synthetic pdfplumber words through the real row grouping
(pages.rows_from_words), so word positions decide columns exactly as they do for a PDF. The item
table is tests/data/parsers/items.yaml, a small copy of keyword_tables/items.yaml's layout.
"""
from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from fin_qa.catalog.items import ItemTable, load_item_table
from fin_qa.ingest.bank_text import parse_text_statement, read_values
from fin_qa.ingest.pages import Document, Line, Page, Row, open_finglm_txt, rows_from_words
from fin_qa.ingest.statement_model import (
    Statement,
    StatementFact,
    StatementRow,
    build_statement,
    check_statement,
    item_of,
)
from fin_qa.ingest.statements import extract_statements, parse_header, parse_statement_at

DATA = Path(__file__).resolve().parent / "data" / "parsers"


@pytest.fixture(scope="module")
def table() -> ItemTable:
    return load_item_table(DATA / "items.yaml")


def facts_of(st: Statement | None) -> dict[tuple[str, str], str]:
    """(item, period) → value of a parsed statement."""
    assert st is not None
    return {(f.item, f.period): f.value for f in st.facts}


# ------------------------------------------------------------------------------ FinGLM txt documents


def finglm_doc(tmp_path: Path, lines: list[tuple[int, str, str | list[str]]]) -> Document:
    """A FinGLM txt report of (page, type, inside) lines, read by the real reader; excel rows as lists."""
    path = tmp_path / "report.txt"
    with open(path, "w", encoding="utf-8") as fh:
        for n, (page, kind, inside) in enumerate(lines):
            text = repr(inside) if isinstance(inside, list) else inside
            fh.write(json.dumps({"page": page, "allrow": n, "type": kind, "inside": text}, ensure_ascii=False) + "\n")
    return open_finglm_txt(path)


def test_finglm_reader_gives_cell_rows_without_running_headers() -> None:
    doc = open_finglm_txt(DATA / "finglm_statements.txt")
    page = doc.page(10)
    assert page is not None
    assert page.lines[0].text == "1、合并资产负债表"  # the 页眉 line is gone
    assert all(line.text != "10" for line in page.lines)  # and the 页脚
    row = next(r for r in doc.table_rows(10) if r.text.startswith("货币资金"))
    assert [c.text for c in row.cells] == ["货币资金", "七、1", "1,234.56", "1,000.00"]
    assert [c.xc for c in row.cells] == [45.0, 145.0, 245.0, 345.0]  # excel cells: one column per 100


def test_units_periods_and_per_share_from_finglm_txt(table: ItemTable) -> None:
    doc = open_finglm_txt(DATA / "finglm_statements.txt")
    found = extract_statements(doc, 2019, table)
    bs, pl = found["资产负债表"], found["利润表"]
    assert "现金流量表" not in found
    # 单位：万元 → 元; the 附注 column ("七、1") is no value; a row with one value keeps its column
    assert bs.unit == "万元"
    assert facts_of(bs) == {
        ("货币资金", "current"): "12345600", ("货币资金", "previous"): "10000000",
        ("应收账款", "previous"): "5000000",
        ("存货", "previous"): "3200000",  # "-" is an empty cell
        ("流动资产合计", "current"): "12345600", ("流动资产合计", "previous"): "18200000",
        ("资产总计", "current"): "12345600", ("资产总计", "previous"): "18200000",
        ("负债合计", "current"): "2345600", ("负债合计", "previous"): "8200000",
        ("负债和所有者权益总计", "current"): "12345600", ("负债和所有者权益总计", "previous"): "18200000",
    }
    assert bs.warnings == []  # cross-foots
    assert all(f.unit == "元" and f.page == 10 for f in bs.facts)
    # the balance sheet ends at the signature line: the 利润表 rows below are not in it
    assert bs.value("营业收入") is None
    # the 利润表 is in 元; labels are normalised ("四、净利润（净亏损以“－”号填列）"); per-share stays 元/股
    assert pl.unit == "元" and pl.title == "2、合并利润表"
    got = facts_of(pl)
    assert got[("营业收入", "current")] == "5000000"
    assert got[("净利润", "previous")] == "-70000"  # "(70,000.00)"
    assert got[("基本每股收益", "current")] == "0.52"
    assert ("其他综合收益的税后净额", "current") not in got  # "-" and "—": no values, no facts
    eps = next(f for f in pl.facts if f.item == "基本每股收益" and f.period == "previous")
    assert (eps.value, eps.unit, eps.raw_label) == ("0.45", "元/股", "（一）基本每股收益")


BALANCE_HEAD: list[tuple[int, str, str | list[str]]] = [
    (3, "text", "合并资产负债表"),
    (3, "text", "单位：元"),
    (3, "excel", ["项目", "2019年12月31日", "2018年12月31日"]),
]


def test_balance_sheet_that_does_not_cross_foot_warns(tmp_path: Path, table: ItemTable) -> None:
    rows = [["货币资金", "100.00", "90.00"], ["存货", "50.00", "40.00"], ["资产总计", "150.00", "130.00"],
            ["负债合计", "60.00", "50.00"], ["负债和所有者权益总计", "140.00", "130.00"]]
    doc = finglm_doc(tmp_path, BALANCE_HEAD + [(3, "excel", r) for r in rows])
    st = extract_statements(doc, 2019, table)["资产负债表"]
    assert st.warnings == ["资产总计 150 ≠ 负债和所有者权益总计 140"]
    assert st.value("资产总计") == Decimal(150)  # the facts are kept


def test_too_few_items_is_not_a_statement(tmp_path: Path, table: ItemTable) -> None:
    rows = [["货币资金", "100.00", "90.00"], ["资产总计", "150.00", "130.00"]]
    doc = finglm_doc(tmp_path, BALANCE_HEAD + [(3, "excel", r) for r in rows])
    assert parse_statement_at(doc, "资产负债表", 3, "合并资产负债表", 2019, table) is None


# ---------------------------------------------------------------------------- PDF-like positioned words

LABEL_X, NOTE_X, CURRENT_X1, PREVIOUS_X1 = 40.0, 232.0, 400.0, 520.0  # value columns are right-aligned


def _width(text: str) -> float:
    return sum(10.0 if ord(ch) > 127 else 5.0 for ch in text)


def word(text: str, x0: float, top: float) -> dict:
    return {"text": text, "x0": x0, "x1": x0 + _width(text), "top": top, "bottom": top + 8}


def right(text: str, x1: float, top: float) -> dict:
    return word(text, x1 - _width(text), top)


def row(top: float, label: str = "", note: str = "", current: str = "", previous: str = "") -> list[dict]:
    """The words of one statement line: label, 附注, current and previous values where given."""
    words = [word(label, LABEL_X, top)] if label else []
    if note:
        words.append(word(note, NOTE_X + 4, top))
    if current:
        words.append(right(current, CURRENT_X1, top))
    if previous:
        words.append(right(previous, PREVIOUS_X1, top))
    return words


def header(top: float, current: str = "2019年12月31日", previous: str = "2018年12月31日", note: bool = True) -> list[dict]:
    words = [word("项目", LABEL_X, top), right(current, CURRENT_X1, top), right(previous, PREVIOUS_X1, top)]
    if note:
        words.insert(1, word("附注", NOTE_X, top))
    return words


class WordsDocument(Document):
    """A PDF-like report: each page is lines of positioned words (what pdfplumber gives); the page text
    (what pypdfium2 gives) is those lines joined."""

    kind = "pdf"

    def __init__(self, pages: dict[int, list[list[dict]]]):
        self._words = {n: [w for line in lines for w in line] for n, lines in pages.items()}
        super().__init__(Path("synthetic.pdf"), [
            Page(n, [Line(" ".join(w["text"] for w in line)) for line in lines if line])
            for n, lines in sorted(pages.items())
        ])

    def _load_rows(self, number: int) -> list[Row]:
        return rows_from_words(self._words.get(number, []), number)


def balance_sheet_page(title: str = "合并资产负债表", top: float = 40.0) -> list[list[dict]]:
    """A balance sheet in 元 whose rows exercise the table rules; top: where its title is."""
    t = top
    return [
        [word(title, 250, t)],
        [word("单位：元", 450, t + 14)],
        header(t + 30),
        row(t + 50, "流动资产："),
        row(t + 70, "货币资金", "五、1", "1,000.00", "900.00"),  # a note written as text
        row(t + 90, "应收账款", "5", "200.00", "100.00"),  # a note that is a bare number
        row(t + 110, "存货", previous="300.00"),  # one value: it goes to the column it stands under
        # wrapped label, numbers on its first line
        row(t + 130, "以公允价值计量且其变动计入当期", "", "10.00", "20.00"),
        row(t + 142, "损益的金融资产"),
        # wrapped label, numbers on its second line
        row(t + 160, "一年内到期的非流动"),
        row(t + 172, "资产", "", "30.00", "40.00"),
        # wrapped label, numbers on a line of their own between the two (vertically centred)
        row(t + 190, "发放贷款和"),
        row(t + 196, "", "", "50.00", "60.00"),
        row(t + 202, "垫款"),
        # numbers above an unwrapped label (a tall cell centred after a row with values)
        row(t + 220, "", "", "7.00", "8.00"),
        row(t + 226, "合同资产"),
        row(t + 250, "流动资产合计", "", "1,297.00", "1,128.00"),
        row(t + 270, "资产总计", "", "1,297.00", "1,128.00"),
        row(t + 290, "负债合计", "", "297.00", "128.00"),
        row(t + 310, "负债和所有者权益总计", "", "1,297.00", "1,128.00"),
        [word("法定代表人：张三", LABEL_X, t + 340), word("会计机构负责人：王五", 300, t + 340)],
    ]


def test_positioned_table_rules(table: ItemTable) -> None:
    doc = WordsDocument({5: balance_sheet_page()})
    st = parse_statement_at(doc, "资产负债表", 5, "合并资产负债表", 2019, table)
    assert st is not None and st.unit == "元" and st.pages == [5]
    got = facts_of(st)
    # a 附注 note ("五、1", "5") is never read as a value
    assert got[("货币资金", "current")] == "1000" and got[("货币资金", "previous")] == "900"
    assert got[("应收账款", "current")] == "200" and got[("应收账款", "previous")] == "100"
    # a single value lands in the period whose header is nearest
    assert got[("存货", "previous")] == "300" and ("存货", "current") not in got
    # wrapped labels: numbers on the first line, on the second, on a line of their own
    assert got[("以公允价值计量且其变动计入当期损益的金融资产", "current")] == "10"
    assert got[("一年内到期的非流动资产", "previous")] == "40"
    assert got[("发放贷款和垫款", "current")] == "50"
    # numbers above the label they belong to
    assert got[("合同资产", "current")] == "7" and got[("合同资产", "previous")] == "8"
    raw = {f.item: f.raw_label for f in st.facts}
    assert raw["一年内到期的非流动资产"] == "一年内到期的非流动资产"
    # the section heading "流动资产：" names nothing; every other row is one item
    assert sorted({f.item for f in st.facts}) == sorted([
        "货币资金", "应收账款", "存货", "以公允价值计量且其变动计入当期损益的金融资产", "一年内到期的非流动资产",
        "发放贷款和垫款", "合同资产", "流动资产合计", "资产总计", "负债合计", "负债和所有者权益总计",
    ])
    assert st.warnings == []


def test_single_value_under_current_column(table: ItemTable) -> None:
    page = balance_sheet_page()
    page[6] = row(110.0 + 40, "存货", current="300.00")
    st = parse_statement_at(WordsDocument({5: page}), "资产负债表", 5, "合并资产负债表", 2019, table)
    got = facts_of(st)
    assert got[("存货", "current")] == "300" and ("存货", "previous") not in got


@pytest.mark.parametrize("cells,year,kinds", [
    (["项目", "附注", "2019年12月31日", "2018年12月31日"], 2019, ["label", "note", "current", "previous"]),
    (["项目", "2020年12月31日", "2019年12月31日"], None, ["label", "current", "previous"]),  # later year current
    (["项目", "注释", "期末余额", "期初余额"], 2019, ["label", "note", "current", "previous"]),
    (["项目", "本期发生额", "上期发生额"], 2019, ["label", "current", "previous"]),
    (["项目", "本年金额", "上年金额"], 2019, ["label", "current", "previous"]),
    (["项目", "2019年12月31日", "2019年1月1日", "调整数"], 2019, ["label", "current", "adjust", "adjust"]),
    (["项目", "2018年12月31日", "2019年1月1日", "调整数"], None, ["label", "current", "adjust", "adjust"]),
])
def test_header_columns(cells: list[str], year: int | None, kinds: list[str]) -> None:
    words = [word(text, 40 + 120 * k, 10) for k, text in enumerate(cells)]
    (r,) = rows_from_words(words, 1)
    cols = parse_header(r, year)
    assert cols is not None and [c.kind for c in cols] == kinds


def test_value_row_is_no_header() -> None:
    (r,) = rows_from_words(row(10, "货币资金", "五、1", "1,000.00", "900.00"), 1)
    assert parse_header(r, 2019) is None


def adjustment_page(head: list[str], items: int) -> list[list[dict]]:
    """A 首次执行新准则调整 table titled 合并资产负债表 with the given header and `items` rows."""
    labels = ["货币资金", "应收账款", "存货", "流动资产合计", "资产总计", "负债合计"][:items]
    return [
        [word("合并资产负债表", 250, 40)],
        [word(text, 40 + 120 * k, 70) for k, text in enumerate(head)],
        *[[word(label, 40, 90 + 20 * i), word("1.00", 170, 90 + 20 * i), word("2.00", 290, 90 + 20 * i),
           word("1.00", 410, 90 + 20 * i)] for i, label in enumerate(labels)],
    ]


@pytest.mark.parametrize("head", [
    ["项目", "2019年12月31日", "调整数", "2018年12月31日"],  # an 调整数 column
    ["项目", "2018年12月31日", "2019年1月1日", "2019年12月31日调整数"],  # the notes' table: no current year end
])
def test_new_standard_adjustment_header_rejects_the_candidate(table: ItemTable, head: list[str]) -> None:
    """首次执行新准则调整: a 合并资产负债表 whose header has 调整数, or a 1月1日 column beside the previous year
    end with no current year end, is not the statement."""
    doc = WordsDocument({3: adjustment_page(head, 6)})
    assert parse_statement_at(doc, "资产负债表", 3, "合并资产负债表", 2019, table) is None
    # the same table under an ordinary header would be read
    plain = WordsDocument({3: adjustment_page(["项目", "2019年12月31日", "附注", "2018年12月31日"], 6)})
    st = parse_statement_at(plain, "资产负债表", 3, "合并资产负债表", 2019, table)
    assert st is not None and st.value("货币资金") == Decimal(1)


def test_a_statement_with_an_opening_column_beside_both_year_ends_is_read(table: ItemTable) -> None:
    """"2019年12月31日 | 2019年1月1日 | 2018年12月31日" (a statement restating its opening balances): read, the
    previous period from the column of the previous year end, the opening column a third period."""
    doc = WordsDocument({3: adjustment_page(["项目", "2019年12月31日", "2019年1月1日", "2018年12月31日"], 6)})
    st = parse_statement_at(doc, "资产负债表", 3, "合并资产负债表", 2019, table)
    assert st is not None and st.value("货币资金") == Decimal(1) and st.value("货币资金", "previous") == Decimal(1)


def test_adjustment_table_before_the_statement_is_skipped(table: ItemTable) -> None:
    # as printed in a 2019 report: no current-year column, an 调整数 column; the statement comes later
    adjust = adjustment_page(["项目", "2018年12月31日", "2019年1月1日", "调整数"], 3)
    doc = WordsDocument({3: adjust, 5: balance_sheet_page()})
    assert parse_statement_at(doc, "资产负债表", 3, "合并资产负债表", 2019, table) is None
    st = extract_statements(doc, 2019, table)["资产负债表"]
    assert st.pages == [5] and st.value("货币资金") == Decimal(1000)


def test_statement_runs_over_pages_until_the_next_title(table: ItemTable) -> None:
    page = balance_sheet_page()
    first, rest = page[:12], page[12:-1]  # the signature line is dropped: the next title ends it
    second = [[word("合并资产负债表（续）", 250, 20)], *rest, [word("母公司资产负债表", 250, 400)],
              header(430), row(450, "货币资金", "", "5.00", "5.00")]
    st = extract_statements(WordsDocument({5: first, 6: second}), 2019, table)["资产负债表"]
    assert st.pages == [5, 6]
    assert st.value("资产总计") == Decimal(1297) and st.value("货币资金") == Decimal(1000)


# ------------------------------------------------------------------------------ run-together text


def test_run_together_values_of_the_docstring() -> None:
    # "利息收入八、33388,238360,166383,647357,291": note 33, then four thousands-grouped numbers
    assert read_values("33388,238360,166383,647357,291", 0, 4, True) == (
        [Decimal(388238), Decimal(360166), Decimal(383647), Decimal(357291)], 30, 33)
    # a reading that stops before the next label wins over one that stops inside a number
    assert read_values("1,0001,2001,0001,200营业外收入", 0, 4, False) == (
        [Decimal(1000), Decimal(1200), Decimal(1000), Decimal(1200)], 20, 0)
    # empty cells and 不适用
    assert read_values("--不适用1,200", 0, 4, False) == ([None, None, None, Decimal(1200)], 10, 0)


def test_ambiguous_run_together_row_gets_no_value() -> None:
    # "12131213" is 12|13|12|13 or 1|213|1|213 or 121|3|121|3: equally good, so none is taken
    assert read_values("12131213", 0, 4, False) is None


def test_run_together_bank_statement(table: ItemTable) -> None:
    doc = open_finglm_txt(DATA / "finglm_bank_text.txt")
    assert doc.page(20) is not None
    # the positioned-table parser finds no header in text lines; the run-together parser reads them
    assert parse_statement_at(doc, "利润表", 20, "2019年度合并及银行利润表", 2019, table) is None
    st = parse_text_statement(doc, "利润表", 20, "2019年度合并及银行利润表", 2019, table)
    assert st is not None and st.unit == "百万元" and st.pages == [20]
    assert extract_statements(doc, 2019, table)["利润表"].facts == st.facts
    got = facts_of(st)
    # four value columns (consolidated 2019, 2018, bank 2019, 2018): the first two are kept, in 元
    assert got[("利息收入", "current")] == "388238000000" and got[("利息收入", "previous")] == "360166000000"
    assert got[("利息支出", "current")] == "-186090000000"  # note 34, then (186,090)
    assert got[("利息净收入", "previous")] == "190070000000"
    assert got[("净利润", "current")] == "800000000"
    # per-share: not scaled by 百万元
    eps = next(f for f in st.facts if f.item.startswith("基本每股收益") and f.period == "current")
    assert (eps.value, eps.unit) == ("0.72", "元/股")
    # "一、营业收入" on the line above is a section, not part of 利息收入's label
    raw = {f.item: f.raw_label for f in st.facts}
    assert raw["利息收入"] == "利息收入"
    # a "-" bullet is no part of the item's name (the raw label keeps it)
    assert raw["个人贷款利息收入"] == "-个人贷款利息收入"
    # the ambiguous row: no value, a warning
    assert not any(f.item == "资产处置损益" for f in st.facts)
    assert st.warnings == ["page 20: values of '资产处置损益' ambiguous"]


# ------------------------------------------------------------------------------ rows → facts, checks


def fact(item: str, value: str, period: str = "current") -> StatementFact:
    return StatementFact(item, item, period, value, "元", 1)


@pytest.mark.parametrize("kind,facts,warnings", [
    ("资产负债表", [fact("资产总计", "1000000"), fact("负债和所有者权益总计", "1000050")], []),  # within 0.01%
    ("资产负债表", [fact("资产总计", "1000000"), fact("负债和所有者权益总计", "999000")],
     ["资产总计 1000000 ≠ 负债和所有者权益总计 999000"]),
    ("资产负债表", [fact("资产总计", "10"), fact("负债和所有者权益总计", "11")], []),  # 1 元 of rounding
    ("资产负债表", [fact("负债和所有者权益总计", "5")], ["资产总计 not found"]),
    ("利润表", [fact("营业收入", "5")], ["净利润 not found"]),
    ("利润表", [fact("净利润", "5", "previous")], ["净利润 not found"]),  # the current period is required
    ("现金流量表", [fact("经营活动产生的现金流量净额", "-5")], []),
    ("现金流量表", [], ["经营活动产生的现金流量净额 not found"]),
])
def test_statement_checks(kind: str, facts: list[StatementFact], warnings: list[str]) -> None:
    st = Statement(kind, "合并" + kind, "元", [1], list(facts))
    check_statement(st)
    assert st.warnings == warnings


def test_build_statement_names_items_once(table: ItemTable) -> None:
    rows = [
        StatementRow("一、营业收入", {"current": Decimal("1.5"), "previous": None}, 7),
        StatementRow("营业收入", {"current": Decimal(9)}, 8),  # a repeated item: the first row wins
        StatementRow("2019", {"current": Decimal(1)}, 7),  # a number names no item
        StatementRow("二、营业利润", {"current": Decimal(2), "previous": Decimal(1)}, 7),
        StatementRow("三、利润总额", {"current": Decimal(2)}, 7),
        StatementRow("四、净利润", {"current": Decimal(1)}, 7),
        StatementRow("某个新项目", {"previous": Decimal("0.001")}, 7),  # unknown: its normalised label
        StatementRow("基本每股收益（元/股）", {"current": Decimal("0.10")}, 7),
    ]
    st = build_statement("利润表", " 合并利润表 ", "千元", [7, 8], rows, table, ["earlier warning"])
    assert st is not None and st.title == "合并利润表"
    assert [(f.item, f.period, f.value, f.unit, f.page) for f in st.facts] == [
        ("营业收入", "current", "1500", "元", 7),
        ("营业利润", "current", "2000", "元", 7), ("营业利润", "previous", "1000", "元", 7),
        ("利润总额", "current", "2000", "元", 7),
        ("净利润", "current", "1000", "元", 7),
        ("某个新项目", "previous", "1", "元", 7),
        ("基本每股收益", "current", "0.1", "元/股", 7),
    ]
    assert st.warnings == ["earlier warning"]
    # fewer than five items named: not a statement
    assert build_statement("利润表", "合并利润表", "元", [7], rows[:4], table) is None


def test_item_names_and_bullets(table: ItemTable) -> None:
    assert item_of("（一）发放贷款及垫款", table) == "发放贷款和垫款"
    assert item_of("-发放贷款及垫款", table) == "-发放贷款及垫款"  # positioned tables: "-" is kept
    assert item_of("-发放贷款及垫款", table, bullets="-") == "发放贷款和垫款"  # run-together text: a bullet
    assert item_of("-个人贷款", table, bullets="-") == "个人贷款"
    assert item_of("1,234", table) == ""


def test_unit_in_brackets_in_the_header(table: ItemTable) -> None:
    page = balance_sheet_page()
    page[1] = []  # no "单位：元" line: the unit is the header's
    page[2] = header(70, current="2019年12月31日（千元）", previous="2018年12月31日（千元）")
    st = parse_statement_at(WordsDocument({5: page}), "资产负债表", 5, "合并资产负债表", 2019, table)
    assert st is not None and st.unit == "千元" and st.value("货币资金") == Decimal(1000000)


def test_side_by_side_balance_sheet_is_read_in_halves(table: ItemTable) -> None:
    """资产 | 2019 | 2018 | 负债和所有者权益 | 2019 | 2018 on the same rows: each half its own rows."""
    def pair(top, left, lc, lp, right_label, rc, rp):
        words = []
        if left:
            words += [word(left, 20, top), right(lc, 190, top), right(lp, 270, top)]
        return words + [word(right_label, 290, top), right(rc, 480, top), right(rp, 560, top)]
    page = [
        [word("合并资产负债表", 250, 20)], [word("单位：元", 450, 34)],
        [word("资产", 20, 50), right("2019年12月31日", 190, 50), right("2018年12月31日", 270, 50),
         word("负债和所有者权益", 290, 50), right("2019年12月31日", 480, 50), right("2018年12月31日", 560, 50)],
        pair(70, "货币资金", "1,000.00", "900.00", "短期借款", "300.00", "200.00"),
        pair(90, "存货", "500.00", "400.00", "实收资本(或股本)", "800.00", "800.00"),
        pair(110, "流动资产合计", "1,500.00", "1,300.00", "未分配利润", "400.00", "300.00"),
        pair(130, "", "", "", "所有者权益合计", "1,200.00", "1,100.00"),
        pair(150, "资产总计", "1,500.00", "1,300.00", "负债和所有者权益总计", "1,500.00", "1,300.00"),
    ]
    st = parse_statement_at(WordsDocument({5: page}), "资产负债表", 5, "合并资产负债表", 2019, table)
    assert st is not None and not st.warnings
    assert st.value("货币资金") == Decimal(1000) and st.value("短期借款") == Decimal(300)
    assert st.value("实收资本(或股本)", "previous") == Decimal(800) and st.value("所有者权益合计") == Decimal(1200)
    assert st.value("负债和所有者权益总计") == st.value("资产总计") == Decimal(1500)


def test_txt_row_resplit_at_a_page_break_is_aligned_from_the_right() -> None:
    from fin_qa.ingest.pages import Cell
    from fin_qa.ingest.statements import _align_right

    header = Row([Cell("项目", 0, 90), Cell("本期发生额", 100, 190), Cell("上期发生额", 200, 290)])
    row = Row([Cell("四、净利润", 0, 90), Cell("", 100, 190), Cell("60,746,146.02", 200, 290),
               Cell("77,705,222.32", 300, 390)])
    got = _align_right(row, header)
    assert [(c.text, c.x0) for c in got.cells] == [("四、净利润", 0), ("", 0), ("60,746,146.02", 100),
                                                   ("77,705,222.32", 200)]


def test_summary_rows_reconciled_with_the_statements() -> None:
    from fin_qa.ingest.statement_model import StatementFact
    from fin_qa.ingest.summary import reconcile

    def sf(item, period, value):
        return StatementFact(item, item, period, value, "元", 11)

    facts = [sf("营业收入", "current", "100"), sf("营业收入", "previous2", "80"),
             sf("信用减值损失", "current", "55"), sf("信用减值损失", "previous2", "40"),
             sf("净利润", "current", "7"), sf("净利润", "previous2", "6"),
             sf("扣除非经常性损益后的净利润", "current", "5")]
    statements = {("营业收入", "current"): Decimal(100), ("信用减值损失", "current"): Decimal(-55),
                  ("净利润", "current"): Decimal(9)}
    kept, notes = reconcile(facts, statements)
    got = {(f.item, f.period): f.value for f in kept}
    assert got[("营业收入", "previous2")] == "80"              # agrees: kept
    assert got[("信用减值损失", "previous2")] == "-40"          # printed with the other sign: turned over
    assert ("净利润", "previous2") not in got                  # disagrees: the row is not kept
    assert got[("扣除非经常性损益后的净利润", "current")] == "5"  # nothing to compare with: kept
    assert len(notes) == 2
