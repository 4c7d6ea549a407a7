"""The rules issue 24 added for banks, on made-up rows and headers (no shared data needed): column headers
carried onto a continued page are no items, a bank's cash paid out is signed as paid, an indicator
table's columns take the years their header names, principal amounts come only from a table of the bank's
totals, and a fuzzy match never turns an amount into a rate."""
from __future__ import annotations

from conftest import CATALOG


def test_a_header_carried_onto_a_continued_page_is_no_item():
    from fin_qa.ingest.statements import _header_label

    for label in ("2021年12月31日本行", "12月31日12月31日本行", "本行2021度本行", "本集团本银行", "附注八",
                  "（除特别注明外，金额单位为人民币百万元）本集团五、净利润（续）", "一、经营活动产生的现金流量（续）"):
        assert _header_label(label), label
    for label in ("归属于本行股东的净利润", "2.归属于少数股东损益", "吸收存款", "本年利润分配", "1.持续经营净利润"):
        assert not _header_label(label), label


def test_a_banks_cash_paid_out_is_signed_as_paid():
    """Printed in parentheses between 经营活动现金流入小计 and its outflow subtotal, every line is turned over
    with the listed ones once the statement's identity confirms the convention; a line after the subtotal
    and the inflows keep their sign."""
    from fin_qa.ingest.statement_model import SIGN_IDENTITY, StatementFact, normalise_signs

    rows = [("客户存款和同业存放款项净增加额", "343310"), ("收到其他与经营活动有关的现金", "10879"),
            ("经营活动现金流入小计", "354189"),
            ("客户贷款和垫款净增加额", "-596645"), ("支付利息、手续费及佣金的现金", "-148689"),
            ("支付给职工以及为职工支付的现金", "-32584"), ("支付的各项税费", "-35151"),
            ("经营活动现金流出小计", "-813069"), ("经营活动产生的现金流量净额", "-458880"),
            ("收回投资收到的现金", "2647595")]
    facts = [StatementFact(item, item, "current", value, "元", 168) for item, value in rows]
    assert normalise_signs(facts, CATALOG.items.subtracted, SIGN_IDENTITY["现金流量表"])
    got = {f.item: f.value for f in facts}
    assert got["客户贷款和垫款净增加额"] == "596645" and got["支付利息、手续费及佣金的现金"] == "148689"
    assert got["经营活动现金流出小计"] == "813069" and got["支付的各项税费"] == "35151"
    assert got["客户存款和同业存放款项净增加额"] == "343310" and got["经营活动产生的现金流量净额"] == "-458880"
    assert got["收回投资收到的现金"] == "2647595"


def test_an_indicator_tables_columns_take_their_years():
    from fin_qa.ingest.indicators import _columns, _header_years

    assert _header_years(["项目", "2022", "2021"]) == [[], ["2022"], ["2021"]]
    # a date split over two cells by a header read without ruling lines
    assert _header_years(["项目", "2022年 12月 31日 2021", "年12月31日", "本年末较上年末 增减(%)", "2020年 12月 31日"]) \
        == [[], ["2022"], ["2021"], [], ["2020"]]
    assert _header_years(["项目", "2022年 12月 31日 2021", "年12月31日 2020", "年12月31日"]) == [[], ["2022"], ["2021"], ["2020"]]
    # 集团 | 银行 under one date: the bank's column is of the year named before it
    assert _header_years(["主要指标", "2022年12 集团", "月31日 银行", "2021年12 集团", "月31日 银行"]) \
        == [[], ["2022"], ["2022"], ["2021"], ["2021"]]
    assert _columns(["项目", "2022", "2021"], ["不良贷款率(%)", "1.09", "1.10"], 2022) == {"current": 1, "previous": 2}
    assert _columns(["项目", "本集团 2022", "2021", "本行 2022", "2021"], ["资本充足率(%)", "14.44", "14.39", "14.13", "14.10"],
                    2022) == {"current": 1, "previous": 2, "parent": 3}
    # a change word run into the value before it ("25.68 上升" | "3.69个百分点")
    assert _columns(["项目", "2022年", "2021年", "本年较上年增减(%)"], ["成本收入比(%)", "29.37", "25.68 上升", "3.69个百分点"],
                    2022) == {"current": 1, "previous": 2}


def test_principal_amounts_only_from_the_banks_totals():
    from fin_qa.ingest.indicators import extract_indicators
    from fin_qa.ingest.tables import Table

    totals = Table(15, 15, "（四）补充财务数据", "百万元", ["项目", "2022年12月31日", "2021年12月31日"],
                   [["存款总额", "4,736,982", "4,311,041"], ["贷款总额", "4,982,887", "4,428,183"]], [15, 15])
    programme = Table(62, 62, "精准扶贫成效", "万元", ["金融精准扶贫工作", ""], [["贷款总额", "8,245,562.99"]], [62])
    no_unit = Table(20, 20, "主要会计数据和财务指标", None, ["项目", "2022年"], [["存款总额", "1,000"]], [20])
    facts = {(f.item, f.period): f for f in extract_indicators([programme, no_unit, totals], 2022, CATALOG.items, "pdf")}
    assert facts[("存款总额", "current")].value == "4736982000000" and facts[("存款总额", "current")].unit == "元"
    assert facts[("贷款总额", "previous")].value == "4428183000000" and facts[("贷款总额", "current")].page == 15
    assert facts[("贷款总额", "current")].statement == "补充财务数据"


def test_a_fuzzy_match_never_turns_an_amount_into_a_rate():
    from fin_qa.understand.generalize import Generalizer

    g = Generalizer({"不良贷款率": ("item", "不良贷款率"), "营业收入": ("item", "营业收入")}, filler=[])
    assert g.match("不良贷款余额") is None          # an amount asked: never the rate
    assert g.match("不良贷款比率") is not None and g.match("不良贷款比率").name == "不良贷款率"
    g = Generalizer({"存款总额": ("item", "存款总额")}, filler=[])
    assert g.match("存款总额率") is None             # a rate asked: never the amount
