"""The question frame (issue 11): period, operation, unit, scope, compound items, spelled formulas, company
forms, place filters — and no meaning-bearing word silently dropped.

Unit tests read the frame of questions over a few synthetic reports; the answer tests run the Router over
an imported table (no ../shared needed) and, where ../shared is present, over the real reports: the
questions of the issue's table with the values an analyst reads in the PDFs.
"""
from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

from conftest import CATALOG, ROOT, needs_shared
from fin_qa.answer.facts import FactSource
from fin_qa.answer.router import Router
from fin_qa.catalog import Catalog
from fin_qa.cli import cli
from fin_qa.store import Report, Store
from fin_qa.understand.entities import CompanyIndex, spoken_forms
from fin_qa.understand.question import Understander

REPORTS = [
    Report(1, "603339:2019", "603339", 2019, "四方科技集团股份有限公司", "四方科技", None),
    Report(2, "600201:2020", "600201", 2020, "金宇生物技术股份有限公司", "生物股份", None),
    Report(3, "200570:2019", "200570", 2019, "常柴股份有限公司", "苏常柴", None),
    Report(4, "000059:2019", "000059", 2019, "北方华锦化学工业股份有限公司", "华锦股份", None),
    Report(5, "002309:2019", "002309", 2019, "江苏中利集团股份有限公司", "中利集团", None),
]


@pytest.fixture(scope="module")
def und():
    return Understander(REPORTS, CATALOG)


# ------------------------------------------------------------------------------------ the frame


@pytest.mark.parametrize("q, period, operation", [
    ("四方科技2019年期初的应收账款是多少？", "opening", "value"),
    ("四方科技2019年年初应收账款余额是多少", "opening", "value"),
    ("四方科技2019年上年末的应收账款", "opening", "value"),
    ("四方科技2019年末的应收账款", "closing", "value"),
    ("四方科技2019年12月31日的应收账款是多少", "closing", "value"),
    ("四方科技2019年上年同期的营业收入是多少", "previous", "value"),
    ("四方科技2019年去年的营业收入", "previous", "value"),
    ("四方科技2019年应收账款较年初增加了多少？", None, "change"),
    ("四方科技2019年应收账款比上年末减少了多少元", None, "change"),
    ("四方科技2019年营业收入比上一年增长了多少？", None, "growth"),
    ("四方科技2019年营业收入同比变化了多少？", None, "growth"),
    ("四方科技2019年营业收入同比增减变动金额是多少", None, "change"),
    ("四方科技2019年营业收入与上年同期相比增幅是多少", None, "growth"),
    ("四方科技2019年货币资金与应收账款之和是多少", None, "sum"),
    ("四方科技2019年利润总额比净利润多多少", None, "difference"),
    ("四方科技2019年三费占营业收入的比例是多少", None, "share"),
    ("四方科技2019年净利润相当于营业收入的百分之几", None, "share"),
    # the compound annual growth rate over the years asked, never the growth of each
    ("四方科技2017年至2019年营业收入的年均复合增长率是多少", None, "cagr"),
    ("四方科技2017-2019年营业收入CAGR", None, "cagr"),
])
def test_period_and_operation(und, q, period, operation):
    u = und.understand(q)
    assert (u.frame.period, u.frame.operation) == (period, operation), u.frame
    assert not u.frame.unused, u.frame.unused


@pytest.mark.parametrize("q, unit, decimals, approx", [
    ("四方科技2019年营业成本是多少万元？", "万", None, False),
    ("四方科技2019年营业成本约为多少亿元？", "亿", None, True),
    ("四方科技2019年营业成本以百万元为单位是多少", "百万", None, False),
    ("四方科技2019年营业成本精确到0.01亿元是多少", "亿", 2, False),
    ("四方科技2019年营业成本有多少千元？四舍五入保留整数。", "千", 0, False),
    ("四方科技2019年营业成本是多少元？保留一位小数", "", 1, False),
])
def test_unit_and_rounding(und, q, unit, decimals, approx):
    f = und.understand(q).frame
    assert (f.unit, f.decimals, f.approx) == (unit, decimals, approx)


@pytest.mark.parametrize("q, years", [
    ("四方科技19年的营业收入是多少", [2019]),
    ("四方科技二〇一九年的营业收入是多少", [2019]),
    ("四方科技二零一九年度营业收入", [2019]),
    ("四方科技2018年和2019年的营业收入分别是多少", [2018, 2019]),
    ("四方科技2017至2019年的营业收入", [2017, 2018, 2019]),
])
def test_year_forms(und, q, years):
    assert und.understand(q).years.explicit == years


@pytest.mark.parametrize("q, year", [
    ("苏常柴上一年度（2018年）的净利润是多少？", 2018),
    ("四方科技去年(2018年)营业成本是多少元", 2018),
    ("华锦股份本年度（2019年）的货币资金是多少", 2019),
    ("生物股份上年同期（2019年度）的营业收入", 2019),
])
def test_relative_word_restated_by_a_year_names_that_year(und, q, year):
    # the year in brackets restates the relative word: one year, no second period
    u = und.understand(q)
    assert u.years.years == [year] and u.frame.period is None and not u.frame.unused, (u.years, u.frame)


def test_scope_parent_and_items_with_mother_company(und):
    assert und.understand("四方科技2019年母公司的货币资金是多少").frame.scope == "parent"
    u = und.understand("四方科技2019年归属于母公司所有者的净利润是多少")
    assert u.frame.scope == "consolidated" and u.items == ["归属于母公司所有者的净利润"]


def test_spelled_formula(und):
    u = und.understand("四方科技2019年用归母净利润除以期末归属于母公司所有者权益来算的ROE是多少")
    assert u.frame.operation == "spelled" and u.formulas == ["净资产收益率"]
    assert u.frame.spelled == (["归属于母公司所有者的净利润"], ["归属于母公司所有者权益合计"])


@pytest.mark.parametrize("q, word", [
    ("四方科技2019年营业收入环比增长多少", "环比"),
    ("四方科技2019年营业收入是多少美元", "美元"),
    ("四方科技2019年第三季度的营业收入", "季"),
    ("四方科技2019年海外收入是多少", "海外"),
    ("四方科技2019年扣非后的营业利润是多少", "扣非"),  # 扣非净利润 is an item (the summary table's)
    ("四方科技2019年营业收入相当于上年的百分之几", "相当于"),
    ("四方科技2019年营业收入比去年高还是低", "还是"),
    ("四方科技2019年营业收入减营业成本是多少", "减"),
    ("四方科技2019年中报的营业收入", "中报"),
    # an ask no slot read (总计派发 now names 现金分红总额: keyword_tables/disclosures.yaml)
    ("四方科技2019年每10股派发现金红利多少元？股权登记日是什么时候？", "登记日"),
    ("四方科技2019年营业收入是多少，评估价值是多少？", "评估"),
])
def test_unused_cues_are_reported(und, q, word):
    assert any(word in w for _, w in und.understand(q).frame.unused), und.understand(q).frame


def test_a_ratio_in_times_is_a_share_of_two_items(und):
    """"是…的几倍" asks a plain ratio of two items (issue 35), no longer an unused cue."""
    u = und.understand("四方科技2019年营业收入是净利润的几倍")
    assert u.frame.operation == "share" and u.ratio == "几倍" and not u.frame.unused


@pytest.mark.parametrize("q", ["四方科技2019年营业收入是多少？2018年末是多少？", "四方科技2019年营业收入是多少？净利润呢，各是多少？"])
def test_a_clause_of_company_year_and_period_words_asks_nothing_more(und, q):
    assert not [w for k, w in und.understand(q).frame.unused if k == "ask"], und.understand(q).frame.unused


def test_short_words_and_compound_items(und):
    assert und.understand("生物股份2020年营收是多少？").items == ["营业收入"]
    assert und.understand("四方科技2019年在职员工一共有多少人？").items == ["在职员工的数量合计"]
    assert und.understand("四方科技2019年的三费是多少").items == ["三费"]
    assert und.understand("四方科技2019年期间费用是多少").items == ["期间费用"]
    assert und.understand("四方科技2019年毛利是多少").items == ["毛利"]
    assert und.understand("四方科技2019年扣非净利润是多少").items == ["扣除非经常性损益后的净利润"]
    # an item word inside a longer text-topic word belongs to the topic; a plan asked is a distribution question
    # (its figures and its sentence: answer/distribution.py, issue 45)
    u = und.understand("四方科技2019年利润分配预案是什么")
    assert u.type == "distribution" and not u.items


# ------------------------------------------------------------------------------------ company names


def test_spoken_forms():
    rules = CATALOG.understanding.company_names
    assert "金宇生物" in spoken_forms("金宇生物技术股份有限公司", "生物股份", rules)
    assert "常柴" in spoken_forms("常柴股份有限公司", "苏常柴", rules)
    assert {"华锦化学", "华锦"} <= spoken_forms("北方华锦化学工业股份有限公司", "华锦股份", rules)
    assert "海翔药业" in spoken_forms("浙江海翔药业股份有限公司", "海翔药业", rules)


def test_the_name_rules_word_lists_indexed_by_their_end_characters():
    import dataclasses

    from fin_qa.catalog.frame_rules import CompanyNameRules, word_index

    rules = CATALOG.understanding.company_names
    for words, index in ((rules.legal_forms, rules.legal_form_index), (rules.regions, rules.region_index),
                         (rules.trade_words, rules.trade_word_index)):
        assert index.words == set(words)
        # every word under its first and its last character, in the list's order (longest first)
        assert all(index.by_first[w[0]] == tuple(x for x in words if x[0] == w[0]) for w in words)
        assert all(index.by_last[w[-1]] == tuple(x for x in words if x[-1] == w[-1]) for w in words)
    # a word of no character would start and end every name: refused as the rules are made, not read
    with pytest.raises(ValueError, match="empty word"):
        word_index(("股份有限公司", ""))
    with pytest.raises(ValueError, match="empty word"):
        CompanyNameRules(regions=("浙江", ""))
    # the rules never change once made, so the indexes made with them stay theirs
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.regions = ("浙江",)   # type: ignore[misc]


@pytest.mark.parametrize("q, code", [
    ("金宇生物2020年的营业收入是多少？", "600201"),
    ("常柴2019年的营业收入是多少？", "200570"),
    ("华锦化学2019年的营业收入", "000059"),
    ("2019年北方华锦的营业收入", "000059"),
])
def test_company_forms(und, q, code):
    assert [m.company.stock_code for m in und.understand(q).companies] == [code]


def test_spoken_forms_stand_as_names(und):
    # 中利 (中利集团) is not read inside "公司中利润"; 生物 (生物股份) is an item word (生产性生物资产)
    u = und.understand("2019年在成都注册的公司中利润总额最高的是哪家")
    assert not u.companies and u.type == "statistics" and u.ranking.place == "成都"
    u = und.understand("生物股份2020年生产性生物资产是多少")
    assert u.items == ["生产性生物资产"]
    idx = CompanyIndex(REPORTS, 80, CATALOG.understanding.company_names)
    assert idx.fuzzy("请简要分析深圳市兆驰股份有限公司2019年研发投入情况") is None


@pytest.mark.parametrize("q, field, place", [
    ("2019年在上海注册的公司中营业收入最高的是哪家", "注册地址", "上海"),
    ("2019年注册在上海的公司里营业收入最高的是哪家", "注册地址", "上海"),
    ("2019年总部位于上海的公司中营业收入最高的是哪家", "办公地址", "上海"),
    ("2019年注册地为上海的上市公司中营业收入排名第一的是哪家", "注册地址", "上海"),
    ("2019年上海的企业中营业收入最高的是哪家", None, "上海"),
])
def test_place_filters(und, q, field, place):
    u = und.understand(q)
    assert u.type == "statistics" and (u.ranking.place_field, u.ranking.place) == (field, place)
    assert not u.frame.unused, u.frame.unused


def test_rules_check_reports_a_broken_frame_regex(tmp_path):
    root = tmp_path / "rules_copy"
    for d in ("rules", "formulas", "keyword_tables", "es_mappings"):
        shutil.copytree(ROOT / d, root / d)
    p = root / "rules" / "understanding.yaml"
    text = p.read_text(encoding="utf-8")
    line = next(i for i, l in enumerate(text.splitlines(), 1) if l.strip().startswith("approx:"))
    p.write_text(text.replace("  approx: '约为", "  approx: '(约为", 1), encoding="utf-8")
    problems, _ = Catalog.check(root)
    assert any(f"understanding.yaml:{line}:" in x and "frame.approx" in x for x in problems), problems


# ------------------------------------------------------------------------------------ answers over a table


TABLE = """股票代码,公司名称,股票简称,年份,营业收入,营业成本,销售费用,管理费用,财务费用,净利润,注册地址,办公地址,研发人员数量占比
600111,甲乙科技股份有限公司,甲乙科技,2020,1000000000,600000000,50000000,40000000,10000000,80000000,浙江省杭州市西湖区文三路1号,浙江省杭州市西湖区文三路1号,12.5
600111,甲乙科技股份有限公司,甲乙科技,2021,1250000000,700000000,60000000,45000000,-5000000,-5000000,浙江省杭州市西湖区文三路1号,上海市浦东新区世纪大道8号,30
000222,丙丁电子股份有限公司,丙丁电子,2021,900000000,500000000,1,2,3,90000000,广东省深圳市南山区科技园,广东省深圳市南山区科技园,8
601333,戊己银行股份有限公司,戊己银行,2021,5000000000,,,,,1200000000,上海市浦东新区陆家嘴1号,上海市浦东新区陆家嘴1号,
"""


@pytest.fixture(scope="module")
def routers(tmp_path_factory):
    d = tmp_path_factory.mktemp("frame_store")
    (d / "t.csv").write_text(TABLE, encoding="utf-8")
    r = CliRunner().invoke(cli, ["import-tables", str(d / "t.csv"), "--store", str(d / "s")])
    assert r.exit_code == 0, r.output
    store = Store(d / "s", readonly=True)
    yield Router(FactSource(store), CATALOG, style="human"), Router(FactSource(store), CATALOG, style="finglm")
    store.close()


def test_growth_and_change_between_reports(routers):
    eng, _ = routers
    a = eng.answer("甲乙科技2021年营业收入比上年增长了多少？")
    assert a.found and "25.00%" in a.answer and "250,000,000.00元" in a.answer
    assert [e.year for e in a.evidence] == [2021, 2020]
    a = eng.answer("甲乙科技2021年营业收入比上年增加了多少元？")
    assert a.answer.index("增加了250,000,000.00元") < a.answer.index("25.00%")


def test_compound_sum_difference_average(routers):
    eng, _ = routers
    a = eng.answer("甲乙科技2021年三费是多少？")
    assert "100,000,000.00元" in a.answer and "三费 = 销售费用+管理费用+财务费用" in a.answer
    assert {e.item for e in a.evidence} == {"三费"} and "销售费用+管理费用+财务费用" in a.evidence[0].source
    a = eng.answer("甲乙科技2021年营业收入与营业成本的差额是多少万元？")
    assert "55,000.00万元" in a.answer and "单位换算为万元" in a.answer
    a = eng.answer("甲乙科技2020年至2021年营业收入的平均值是多少？")
    assert "1,125,000,000.00元" in a.answer
    a = eng.answer("甲乙科技2020年和2021年的营业收入分别是多少？")
    assert "1,000,000,000.00元" in a.answer and "1,250,000,000.00元" in a.answer


def test_declines_instead_of_dropping_a_word(routers):
    eng, _ = routers
    for q, word in (("甲乙科技2021年营业收入环比增长多少？", "环比"), ("甲乙科技2021年平均营业收入是多少？", "平均")):
        a = eng.answer(q)
        assert not a.found and a.method == "declined" and word in a.answer, a.answer
    a = eng.answer("甲乙科技2021年母公司的营业收入是多少？")
    assert not a.found and "母公司" in a.answer and "1,250,000,000" not in a.answer
    a = eng.answer("2021年的营业收入是多少？")
    assert not a.found and a.method == "ask_which" and a.answer == "请问你查询哪一家公司的营业收入？请说出公司名称。"
    # 期初 of an income-statement item has no meaning: said, not answered with the year's value
    a = eng.answer("甲乙科技2021年期初的营业收入是多少？")
    assert not a.found and "期初" in a.answer and "1,250,000,000" not in a.answer


def test_statistics_filters_thresholds_names(routers):
    eng, fin = routers
    a = eng.answer("2021年在上海注册的公司中营业收入最高的是哪家？")
    assert "戊己银行" in a.answer and "甲乙科技" not in a.answer
    a = eng.answer("2021年总部位于上海的公司中营业收入最低的是哪家？")   # office address
    assert "甲乙科技" in a.answer and "戊己银行" not in a.answer
    a = fin.answer("2021年营业收入最高的公司是哪家？")
    assert "戊己银行股份有限公司" in a.answer
    # a %-item is stored in points: "超过10%" compares with 10, not 0.1
    a = eng.answer("2021年研发人员数量占比超过10%的公司有多少家？")
    assert "共有1家" in a.answer and "甲乙科技" in a.answer
    a = eng.answer("2021年营业收入平均是多少？")
    assert "2,383,333,333.33元" in a.answer and "共3家" in a.answer


# ------------------------------------------------------------------------------------ the issue's table, on real reports


@needs_shared
@pytest.mark.parametrize("q, must", [
    ("四方科技2019年期初的应收账款是多少？", ["50,873,345.79元", "期初即2018年12月31日"]),
    ("四方科技2019年应收账款较年初增加了多少？", ["减少了15,206,028.70元", "-29.89%", "35,667,317.09元", "50,873,345.79元"]),
    ("生物股份2020年营业收入比上一年增长了多少？", ["40.39%", "455,123,379.13元"]),
    ("生物股份2020年营业收入同比变化了多少？", ["40.39%"]),
    ("生物股份2019年的销售费用是多少？", ["218,344,972.36元", "取自2020年年报的上期数"]),
    ("四方科技2019年营业成本是多少万元？", ["90,323.66万元"]),
    ("四方科技2019年营业成本约为多少亿元？", ["9.03亿元", "约数"]),
    ("四方科技2019年三费占营业收入的比例是多少？", ["6.15%", "72,257,821.27元", "三费 = 销售费用+管理费用+财务费用"]),
    ("四方科技2019年在职员工一共有多少人？", ["1406人"]),
    ("生物股份2020年营收是多少？", ["1,581,905,632.48元"]),
    ("请描述一下生物股份2020年营业成本和营业利润的情况。", ["607,495,250.51元", "477,754,369.69元"]),
    ("金宇生物2020年的营业收入是多少？", ["1,581,905,632.48元"]),
    ("四方科技2018年毛利率是多少？", ["26.74%", "2018年的数据取自2019年年报的上期数"]),
    ("四方科技2019年用归母净利润除以期末归属于母公司所有者权益来算的ROE是多少", ["7.42%", "129,465,020.68元"]),
])
def test_issue_table_on_real_reports(shared_store, q, must):
    a = Router(FactSource(shared_store), CATALOG).answer(q)
    assert a.found, a.answer
    for m in must:
        assert m in a.answer, (m, a.answer)
    assert all(getattr(e, "page", None) for e in a.evidence), a.evidence


@needs_shared
@pytest.mark.parametrize("q", [
    # a formula spelled with qualifiers it cannot honour, or with more than one operation
    "四方科技2019年用净利润除以平均净资产计算的净资产收益率是多少",
    "四方科技2019年用净利润乘以100除以营业收入是多少",
    "四方科技2019年营业收入减去营业成本再减去销售费用是多少",
    "四方科技2019年销售费用和管理费用分别占营业收入的比例",
    # a named formula with a period or a change it does not compute
    "四方科技2019年期初毛利率是多少",
    "四方科技2019年毛利率较上年增长率是多少（毛利率/上年毛利率-1）",
    # a value measured against another, a yes/no over a value, a modifier, a part of the year
    "四方科技2019年营业收入是上年的多少",
    "四方科技2019年营业收入有没有超过30亿元",
    "四方科技2019年营业收入同比有没有增长",
    "四方科技2019年营业收入比2018年高吗",
    "四方科技2019年中报营业收入",
    "四方科技2018年和2019年营业收入同比增长率分别是多少",
])
def test_what_cannot_be_computed_as_asked_is_declined(shared_store, q):
    _declined(shared_store, q)


@needs_shared
@pytest.mark.parametrize("q, value", [
    # computed since issue 45: a share of a sum asked (之和), a formula's change in percentage points, a formula
    # of balances at 期初
    ("四方科技2019年销售费用与管理费用之和占营业收入的比例", "7.17%"),
    ("四方科技2019年毛利率较上年提高了多少", "3.59个百分点"),
    ("四方科技2019年期初资产负债率是多少", "19.79%"),
])
def test_what_issue_45_computes(shared_store, q, value):
    from fin_qa.answer.facts import FactSource
    from fin_qa.answer.router import Router

    a = Router(FactSource(shared_store), CATALOG).answer(q)
    assert a.answered and value in a.answer, a.answer


def _declined(shared_store, q):
    a = Router(FactSource(shared_store), CATALOG).answer(q)
    assert not a.found and a.method in ("declined", "not_found"), a.answer


def test_a_region_asked_by_another_name_is_its_row(shared_store):
    # 海外 names the row the report prints 境外 (keyword_tables/frames.yaml aliases): its cell, never the total
    a = Router(FactSource(shared_store), CATALOG).answer("四方科技2019年海外收入是多少")
    assert a.found and a.method == "frame" and "737,763,832.75" in a.answer and "1,175,301,034.32" not in a.answer


@needs_shared
def test_sums_over_years_and_counts(shared_store):
    eng = Router(FactSource(shared_store), CATALOG)
    a = eng.answer("四方科技2018年和2019年营业收入合计是多少")
    assert "2,405,838,216.12元" in a.answer
    a = eng.answer("生物股份2020年技术人员和财务人员合计多少人")
    assert "332人" in a.answer and "元" not in a.answer.split("。")[0]
    a = eng.answer("四方科技2019年营业收入约多少亿")
    assert "11.75亿元" in a.answer


def test_places_hold_addresses_not_strings():
    p = CATALOG.places
    assert p.holds("广东省深圳市南山区科技园", "广东") and p.holds("深圳市南山区", "广东")
    assert p.holds("中国（四川）自由贸易试验区成都高新区天府五街", "成都")
    assert not p.holds("上海市中山南路1号", "中山") and not p.holds("荆州市北京东路", "北京")
    assert not p.holds("北京市朝阳区建国路", "辽宁") and not p.holds("威海市青岛中路56号", "青岛")


@needs_shared
def test_former_short_name(shared_store):
    # the 股票简况 table prints 变更前股票简称 四方冷链 (p.5)
    a = Router(FactSource(shared_store), CATALOG).answer("四方冷链2019年的营业收入是多少？")
    assert a.found and "四方科技" in a.answer and "1,175,301,034.32元" in a.answer


@needs_shared
def test_category_held_by_a_wider_row_is_not_zero(shared_store):
    # 张家界 2016 prints 高中以下 / 大专 / 本科及以上: its 博士 are inside 本科及以上, not 0
    a = Router(FactSource(shared_store), CATALOG).answer("张家界2016年博士及以上人员数量是多少？")
    assert not a.found and "0人" not in a.answer
