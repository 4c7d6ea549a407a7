"""Report layouts beyond the FinGLM-era ones (issue 12), each on a shared real report, values checked by
reading the page: a side-by-side balance sheet, an older profile and employee count, a bank statement
that prints its expenses in parentheses."""
from __future__ import annotations

from decimal import Decimal

import pytest

from click.testing import CliRunner

from conftest import CATALOG, MORE, SHARED, fact
from fin_qa.cli import cli
from fin_qa.ingest.statement_model import StatementFact, normalise_signs

C, P = "current", "previous"

# 万科A 2012, p.60: 合并资产负债表 with assets on the left and liabilities and equity on the right of the
# same rows; note numbers in a 附注 column whose header is on the line above.
VANKE = [
    ("货币资金", C, "52291542055.49"), ("流动资产合计", P, "282646654855.19"),      # left half
    ("资产总计", C, "378801615075.37"),
    ("短期借款", C, "9932400240.50"), ("预收款项", P, "111101718105.82"),           # right half
    ("实收资本(或股本)", C, "10995553118.00"),      # "股本 30 10,995,553,118.00": 30 is the note
    ("应付债券", P, "5850397011.20"),                 # "应付债券 26 - 5,850,397,011.20"
    ("一年内到期的非流动负债", C, "25624959204.23"),  # label wrapped, values on its second line
    ("归属于母公司所有者权益合计", P, "52967795010.41"),
    ("负债和所有者权益总计", C, "378801615075.37"),   # "负债及所有者权益" / "总计"
]


@pytest.mark.parametrize("item,period,value", VANKE)
def test_side_by_side_balance_sheet(all_store, item, period, value):
    store, _ = all_store
    f = fact(store, "万科A", item, period)
    assert Decimal(f["value"]) == Decimal(value) and f["page"] == 60


def test_side_by_side_empty_cell_is_no_value(all_store):
    store, _ = all_store
    assert not [f for f in store.facts("万科A", 2012, "应付债券") if f["period"] == C]


# 万科A 2012, pp.2-3 and 48: "1.公司法定中文名称：…", "11.股票简称及代码：万科 A 000002", and the head count
# in prose ("公司共有在册员工 31,019 人").
VANKE_PROFILE = [
    ("中文名称", "万科企业股份有限公司", 2), ("法定代表人", "王石", 2), ("股票简称", "万科A", 3),
    ("股票代码", "000002", 3), ("公司网址", "www.vanke.com", 3),
    ("信息披露媒体", "《中国证券报》、《证券时报》、《上海证券报》、《证券日报》及香港一家英文媒体", 3),  # wrapped
    ("在职员工的数量合计", "31019", 48),
]


@pytest.mark.parametrize("item,value,page", VANKE_PROFILE)
def test_older_profile_and_employees(all_store, item, value, page):
    store, _ = all_store
    f = fact(store, "万科A", item)
    assert f["value"] == value and f["page"] == page


# 邮储银行 2019 (FinGLM txt), p.221: 合并及银行利润表 in 百万元 printing expenses in parentheses:
# "利息支出 (148,014)", "减：所得税费用 (2,709)", and "减：营业外支出 1,050 (2,887)" (2019 a reversal).
BANK = [
    ("利息收入", C, "388238000000"), ("利息支出", C, "148014000000"), ("利息支出", P, "126044000000"),
    ("业务及管理费", C, "156599000000"), ("营业支出", C, "214421000000"),
    ("所得税费用", C, "2709000000"), ("所得税费用", P, "1103000000"),
    ("营业外支出", C, "-1050000000"), ("营业外支出", P, "2887000000"),
    ("净利润", C, "61036000000"),   # on the "(续)" page, p.222
]


@pytest.mark.parametrize("item,period,value", BANK)
def test_expenses_printed_in_parentheses_are_stored_positive(all_store, item, period, value):
    store, _ = all_store
    f = fact(store, "邮储银行", item, period)
    assert Decimal(f["value"]) == Decimal(value) and f["page"] == (222 if item == "净利润" else 221)


def _facts(**values):
    return [StatementFact(k, k, C, v, "元", 1) for k, v in values.items()]


def test_sign_convention_is_the_statements_not_one_value():
    # one negative 财务费用 (interest income above interest expense) is a value, not a convention
    facts = _facts(营业成本="900", 销售费用="50", 管理费用="40", 财务费用="-12", 所得税费用="16")
    assert not normalise_signs(facts, CATALOG.items.subtracted)
    assert [f.value for f in facts] == ["900", "50", "40", "-12", "16"]
    facts = _facts(利息支出="-148", 税金及附加="-2", 业务及管理费="-156", 营业外支出="1", 利息收入="388")
    assert normalise_signs(facts, CATALOG.items.subtracted)
    assert [f.value for f in facts] == ["148", "2", "156", "-1", "388"]
    # a holding company: 管理费用 positive, 财务费用 and 所得税费用 negative values — the identity says so
    facts = _facts(管理费用="24139331.33", 财务费用="-4120522.39", 利润总额="53204563.86",
                   所得税费用="-255588.84", 净利润="53460152.70")
    assert not normalise_signs(facts, CATALOG.items.subtracted)
    assert facts[0].value == "24139331.33"
    # the bank's: 净利润 = 利润总额 − 所得税费用 holds once (2,709) is turned over
    facts = _facts(利息支出="-148014", 业务及管理费="-156599", 利润总额="63745", 所得税费用="-2709", 净利润="61036")
    assert normalise_signs(facts, CATALOG.items.subtracted) and facts[3].value == "2709"


# 万科A 2012, p.61: the parent's balance sheet is side-by-side too, its right half's label "负债及 / 股东权益"
# wrapped above and below the header row (no label cell between the two 期末 | 期初 pairs); its note
# numbers ("股本 14 …") are not values.
VANKE_PARENT = [("货币资金", "21834368091.75"), ("短期借款", "9843153225.39"), ("实收资本(或股本)", "10995553118.00"),
                ("负债和所有者权益总计", "126544791690.50"), ("资产总计", "126544791690.50")]


@pytest.mark.parametrize("item,value", VANKE_PARENT)
def test_side_by_side_parent_balance_sheet(all_store, item, value):
    store, _ = all_store
    f = fact(store, "万科A", item, parent=True)
    assert Decimal(f["value"]) == Decimal(value) and f["page"] == 61 and f["statement"] == "母公司资产负债表"


def _ask(store, q):
    return CliRunner().invoke(cli, ["ask", "--store", str(store.dir), q]).output


def test_parent_scope_answers_and_declines(all_store):
    store, _ = all_store
    # 四方科技 2019 p.65 母公司利润表: 一、营业收入 421,378,931.67 (consolidated p.63: 1,175,301,034.32)
    out = _ask(store, "四方科技2019年母公司的营业收入是多少？")
    assert "421,378,931.67" in out and "p.65" in out and "母公司口径" in out
    out = _ask(store, "不考虑子公司，四方科技2019年的营业收入是多少？")
    assert "421,378,931.67" in out
    assert "1,175,301,034.32" in _ask(store, "四方科技2019年的营业收入是多少？")
    # no employee table in a parent statement: declined, never "0人"
    out = _ask(store, "四方科技2019年母公司的硕士人数是多少？")
    assert "0人" not in out and "未查询到" in out
    # two scopes at once, rankings across companies, a bank whose parent columns are not read
    assert "不作回答" in _ask(store, "四方科技2019年合并报表和母公司报表的营业收入分别是多少？")
    assert "跨公司" in _ask(store, "2019年哪家公司母公司营业收入最高？")
    assert "母公司报表数据" in _ask(store, "邮储银行2019年母公司净利润是多少？")


def test_rate_change_in_points_and_threshold_lists(all_store):
    store, _ = all_store
    out = _ask(store, "四方科技2019年加权平均净资产收益率比上年变化了多少")  # 7.64% vs 11.71% (p.6)
    assert "4.07个百分点" in out and "4.07%" not in out
    # every company past the threshold, not the first one (营业收入 > 10亿元 in 2019: 5 of the reports)
    out = _ask(store, "2019年营业收入超过10亿元的公司有哪些？")
    assert "共有5家" in out and all(n in out for n in ("邮储银行", "华锦股份", "海翔药业", "苏常柴", "四方科技"))
    out = _ask(store, "2019年加权平均净资产收益率最高的公司是哪家？")
    assert "海翔药业" in out and "14.07%" in out   # a rate, not "14.07元"


def test_rotated_pages_read_as_displayed():
    """华锦股份 2019 p.58 (/Rotate 90, a landscape 所有者权益变动表): PDFium's words as pdfplumber's."""
    pdfplumber = pytest.importorskip("pdfplumber")
    import pypdfium2 as pdfium

    from fin_qa.ingest.pages import page_words, rows_from_words

    pdf = next(MORE.glob("*华锦股份*.pdf"), None)
    if pdf is None:
        pytest.skip("../shared/data/reports_more is absent")
    doc = pdfium.PdfDocument(str(pdf))
    page = doc[57]
    assert page.get_rotation() == 90
    with pdfplumber.open(str(pdf)) as plumber:
        expected = [r.text for r in rows_from_words(plumber.pages[57].extract_words(x_tolerance=2, y_tolerance=2), 58)]
    assert [r.text for r in rows_from_words(page_words(page), 58)] == expected
    page.close()
    doc.close()


# ------------------------------------------------------------------------------------------ broken font maps

def test_a_broken_font_map_is_read_back_and_only_its_font():
    """keyword_tables/glyphs.yaml: a font showing signature characters (癿 for 的) is broken; its listed
    characters are read back, another font's ordinary characters (不) are left as they are."""
    from fin_qa.ingest.pages import GlyphFixer

    g = CATALOG.glyphs
    fixer = GlyphFixer(g.repairs, set(g.signature), g.min_signature)
    fixer.seen = {"YaHei": set("癿幵呾"), "SimSun": {"丨"}}   # three distinct signature characters, or one
    text = "合幵癿不确定"
    fonts = {1: "YaHei", 2: "YaHei", 3: "SimSun"}
    assert fixer.fix(text, fonts, fixer.broken) == "合并的不确定"
    assert fixer.fix(text, {3: "YaHei"}, fixer.broken) == "合幵癿与确定"   # 不 of the broken font: 与
    assert fixer.broken == {"YaHei"}


def test_the_shifted_bank_pdf_reads_as_printed():
    pdf = SHARED / "data" / "banks" / "SH601166 兴业银行 2022年年报.pdf"
    if not pdf.is_file():
        pytest.skip("../shared/data/banks is absent")
    from fin_qa.ingest.pages import open_document

    doc = open_document(pdf, CATALOG.glyphs)
    assert doc.glyphs_fixed and "合并及银行资产负债表" in [line.text for line in doc.pages[161].lines]
    assert any(r.text.startswith("现金及存放中央银行款项") for r in doc.table_rows(162))
    assert not open_document(pdf).glyphs_fixed   # without the table: as the font map says (合幵)


def test_an_opening_column_named_by_its_date_is_the_previous_period():
    """"2022年12月31日 | 2022年1月1日" (the previous year end named by the opening date) is current | previous;
    beside 调整数, or beside the previous year end with no current column, 1月1日 is a 首次执行新准则
    adjustment; in a statement printing restated comparatives (current, previous — "（已重述）" — and an
    opening date) it is a third period, and the statement is kept."""
    from types import SimpleNamespace

    from fin_qa.ingest.statements import parse_header

    def row(*texts):
        return SimpleNamespace(cells=[SimpleNamespace(text=t, xc=50.0 * i, x0=50.0 * i, x1=50.0 * i + 40)
                                      for i, t in enumerate(texts)])

    kinds = lambda r: [c.kind for c in parse_header(r, 2022)]  # noqa: E731
    assert kinds(row("项目", "附注", "2022年12月31日", "2022年1月1日")) == ["label", "note", "current", "previous"]
    assert kinds(row("项目", "2022年12月31日", "2021年12月31日", "2022年1月1日")) == ["label", "current", "previous", "other"]
    assert kinds(row("项目", "2022年12月31日", "2021年12月31日（已重述）", "2021年1月1日（已重述）")) == [
        "label", "current", "previous", "other"]
    assert parse_header(row("项目", "2021年12月31日", "2022年1月1日"), 2022) is None   # the adjustment, no statement
    assert parse_header(row("项目", "2021年12月31日", "调整数", "2022年1月1日"), 2022) is None
