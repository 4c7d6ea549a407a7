"""The reviewer's checks (fin_qa/answer/review.py), each alone: an ask understood with the real rules, an
answer made by hand with its evidence, and the one check asked whether it holds — then the order they run in.
"""
from __future__ import annotations

import pytest

from conftest import CATALOG
from fin_qa.answer import review
from fin_qa.answer.model import Answer, CellEvidence, FactEvidence, PassageEvidence
from fin_qa.answer.review import CHECKS, Reviewer
from fin_qa.store import Report
from fin_qa.understand.question import Understander

REPORTS = [
    Report(0, "603339:2019", "603339", 2019, "四方科技集团股份有限公司", "四方科技"),
    Report(0, "002888:2019", "002888", 2019, "广州惠威电声科技股份有限公司", "惠威科技"),
    Report(0, "000002:2012", "000002", 2012, "万科企业股份有限公司", "万科A"),
]


@pytest.fixture(scope="module")
def und():
    return Understander(REPORTS, CATALOG)


@pytest.fixture(scope="module")
def rv():
    return Reviewer(CATALOG.templates, CATALOG.cells, CATALOG.frames)


def cell(row: str, column: str, value: str, table: str = "表") -> CellEvidence:
    return CellEvidence(table, row, column, value, 10)


def fact(item: str, value: str, year: int = 2019) -> FactEvidence:
    return FactEvidence(item, value, year, 59, "pdf")


def passage(text: str, heading: str = "第四节 > 一、概述") -> PassageEvidence:
    return PassageEvidence(11, heading, text)


def test_every_check_is_named_once_and_callable():
    names = [n for n, _ in CHECKS]
    assert len(names) == len(set(names)) >= 13
    assert all(getattr(review, n) is f for n, f in CHECKS)


# each check: (question, answer) where it fails, and one where it holds
CASES = [
    ("yes_no_answered",
     ("四方科技2019年是否存在重大诉讼？", Answer("q", "重大诉讼：无重大诉讼", "1", "lookup", [fact("是否存在重大诉讼仲裁事项", "否")])),
     ("四方科技2019年是否存在重大诉讼？", Answer("q", "否。本年度公司无重大诉讼", "1", "lookup", [fact("是否存在重大诉讼仲裁事项", "否")]))),
    ("no_yes_no_fact_for_a_name",
     ("四方科技2019年起诉公司的是哪家公司？", Answer("q", "否", "1", "lookup", [fact("是否存在重大诉讼仲裁事项", "否")])),
     ("四方科技2019年的会计师事务所是哪家？", Answer("q", "立信", "1", "lookup", [fact("会计师事务所", "立信会计师事务所")]))),
    ("a_name_for_who",
     ("四方科技2019年控股股东是谁？", Answer("q", "普通股股东总数255,892", "3-1", "cell",
                                   [cell("截至报告期末普通股股东总数(户)", "数值", "255,892")])),
     ("四方科技2019年控股股东是谁？", Answer("q", "黄杰", "3-1", "cell", [cell("黄杰", "期末持股数量", "84,187,105")]))),
    ("computed_value_not_quoted",
     ("四方科技2019年境外收入占主营业务收入的比重是多少？（境外收入/主营业务收入）",
      Answer("q", "「分地区」：境外 737,763,832.75 601,896,081.32 18.42", "3-1", "text",
             [passage("境外 737,763,832.75 601,896,081.32 18.42")])),
     ("四方科技2019年境外收入占主营业务收入的比重是多少？（境外收入/主营业务收入）",
      Answer("q", "「分地区」：境外收入占主营业务收入的64.96%", "3-1", "text",
             [passage("境外收入占主营业务收入的64.96%")]))),
    ("quoted_count_in_its_unit",
     ("四方科技2019年末控股股东持股多少股？", Answer("q", "「控股股东情况」：公司控股股东为黄杰，持股比例39.96%。", "3-1", "text",
                                          [passage("公司控股股东为黄杰，持股比例39.96%。")])),
     ("四方科技2019年末控股股东持股多少股？", Answer("q", "「控股股东情况」：黄杰持有公司84,187,105股。", "3-1", "text",
                                          [passage("黄杰持有公司84,187,105股。")]))),
    ("quoted_change_for_a_change",
     ("四方科技2019年股价涨了多少？", Answer("q", "「稳定股价预案」：公司将采取措施稳定股价。", "3-1", "text",
                                   [passage("公司将采取措施稳定股价。")])),
     ("四方科技2019年营业收入同比增长了多少？", Answer("q", "「概述」：营业收入同比增长5.57%。", "3-1", "text",
                                        [passage("营业收入同比增长5.57%。")]))),
    ("a_name_for_who_only",
     ("四方科技2019年董秘的学历是什么？", Answer("q", "饶伟", "1", "lookup", [fact("董事会秘书姓名", "饶伟")])),
     ("四方科技2019年董秘是谁？", Answer("q", "饶伟", "1", "lookup", [fact("董事会秘书姓名", "饶伟")]))),
    ("a_name_for_who_only",
     ("四方科技2019年董秘持有公司多少股？", Answer("q", "饶伟", "1", "lookup", [fact("董事会秘书姓名", "饶伟")])),
     ("四方科技2019年法定代表人与2018年相比是否相同？",
      Answer("q", "相同。", "1", "compare", [fact("法定代表人", "黄杰"), fact("法定代表人", "黄杰", 2018)]))),
    ("quoted_yes_no_speaks_of_its_words",
     ("四方科技2019年有没有搬迁厂房？",
      Answer("q", "是。四方科技2019年年度报告「套期会计」：该套期在套期关系被指定的会计期间内高度有效。", "3-1", "text",
             [passage("该套期在套期关系被指定的会计期间内高度有效。")])),
     ("四方科技2019年有没有搬迁厂房？",
      Answer("q", "是。四方科技2019年年度报告「概述」：公司于2019年完成厂房搬迁。", "3-1", "text",
             [passage("公司于2019年完成厂房搬迁。")]))),
    ("cell_names_the_item",
     ("四方科技2019年营业外收入是多少？", Answer("q", "…", "1", "cell", [cell("营业收入合计", "金额", "100")])),
     ("四方科技2019年营业外收入是多少？", Answer("q", "…", "1", "cell", [cell("营业外收入", "本期发生额", "100")]))),
    ("change_column_for_a_change",
     ("四方科技2019年营业收入占营业成本的比重是多少？", Answer("q", "…", "1", "cell", [cell("营业收入", "比上年同期增减", "3.07%")])),
     ("四方科技2019年营业收入同比增长了多少？", Answer("q", "…", "1", "cell", [cell("营业收入", "比上年同期增减", "3.07%")]))),
    ("share_column_of_the_whole",
     ("四方科技2019年营业收入占净利润的比例是多少？", Answer("q", "…", "1", "cell", [cell("营业收入", "占营业成本比例", "90%")])),
     ("四方科技2019年营业收入占净利润的比例是多少？", Answer("q", "…", "1", "cell", [cell("营业收入", "占净利润比例", "90%")]))),
    ("column_of_the_year_asked",
     ("万科A2012年上年末的存货是多少？", Answer("q", "…", "1", "cell", [cell("存货", "2010年12月31日", "100")])),
     ("万科A2012年上年末的存货是多少？", Answer("q", "…", "1", "cell", [cell("存货", "2011年12月31日", "100")]))),
    ("plain_ratio_for_a_ratio",
     ("四方科技2019年经营活动现金流量净额与净利润的比值是多少？",
      Answer("q", "285.10%", "2-1", "formula", [fact("净利润", "1")], shown="285.10%")),
     ("四方科技2019年经营活动现金流量净额与净利润的比值是多少？",
      Answer("q", "2.85", "2-1", "formula", [fact("净利润", "1")], shown="2.85"))),
    ("ranked_row_for_a_rank",
     ("生物股份2020年最大客户的销售额是多少？",
      Answer("q", "前五名客户销售额27,614.37万元", "1", "stated", [passage("前五名客户销售额 27,614.37 万元")])),
     ("生物股份2020年最大客户的销售额是多少？",
      Answer("q", "销售额最高的客户是“第一名”", "1", "frame", [cell("第一名", "销售额", "86,512,221.40")]))),
    ("quote_speaks_of_what_narrows",
     ("四方科技2019年海外收入是多少？", Answer("q", "营业收入1亿元", "1", "text", [passage("公司实现营业收入1亿元")])),
     ("四方科技2019年海外收入是多少？", Answer("q", "海外收入1亿元", "1", "text", [passage("公司海外收入1亿元")]))),
    ("quoted_rows_speak_of_the_words_left",
     ("四方科技2019年第一大供应商采购额是多少？",
      Answer("q", "…", "1", "text", [passage("前五名供应商合计采购金额 1,000", "主要供应商情况")])),
     ("四方科技2019年第一大供应商采购额是多少？",
      Answer("q", "…", "1", "text", [passage("第一大供应商采购金额 1,000", "主要供应商情况")]))),
    ("fact_of_the_year_asked",
     ("四方科技2019年的货币资金是多少？", Answer("q", "…", "1", "lookup", [fact("货币资金", "1", 2018)])),
     ("四方科技2019年的货币资金是多少？", Answer("q", "…", "1", "lookup", [fact("货币资金", "1", 2019)]))),
    ("numbers_in_the_evidence",
     ("四方科技2019年的营业收入是多少？", Answer("q", "营业收入为2,000.50元", "1", "text", [passage("营业收入1,000.25元")])),
     ("四方科技2019年的营业收入是多少？", Answer("q", "营业收入为1,000.25元", "1", "text", [passage("营业收入1,000.25元")]))),
    ("per_share_basis",
     ("四方科技2019年每股派息多少？", Answer("q", "…", "1", "cell", [cell("每 10股派息数", "金额", "1.88")])),
     ("四方科技2019年每10股派息多少？", Answer("q", "…", "1", "cell", [cell("每 10股派息数", "金额", "1.88")]))),
]


@pytest.mark.parametrize("name, fails, holds", CASES, ids=[c[0] for c in CASES])
def test_each_check_alone(und, rv, name, fails, holds):
    check = dict(CHECKS)[name]
    q, ans = fails
    assert check(rv, und.understand(q), ans) is not None, name
    q, ans = holds
    assert check(rv, und.understand(q), ans) is None, name


def test_the_quoted_yes_no_checks_alone(und, rv):
    u = und.understand("四方科技2019年是否存在控股股东非经营性占用资金？")
    quote = Answer("q", "否。不存在实际控制人。", "3-1", "text", [passage("不存在实际控制人")])
    assert review.quoted_yes_no_speaks_of_topics(rv, u, quote) is not None
    ok = Answer("q", "否。不存在控股股东非经营性占用资金的情况。", "3-1", "text", [passage("不存在非经营性占用资金")])
    assert review.quoted_yes_no_speaks_of_topics(rv, u, ok) is None
    u = und.understand("四方科技2019年前五名客户中有没有惠威科技？")
    assert review.quoted_yes_no_names_other_companies(rv, u, Answer("q", "是。前五名客户合计…", "3-1", "text",
                                                                   [passage("前五名客户")])) is not None
    assert review.quoted_yes_no_names_other_companies(rv, u, Answer("q", "是。客户一：惠威科技…", "3-1", "text",
                                                                   [passage("惠威科技")])) is None


def test_checks_run_in_their_order_and_the_first_declines(und, rv):
    # a ratio given as a percent from a cell of another year fails two checks: the year's comes first
    u = und.understand("万科A2012年营业收入与营业成本的比值是多少？")
    ans = Answer("q", "…", "2-1", "cell", [cell("营业收入", "2010年度", "139.62%")], shown="139.62%")
    assert rv.failing(u, ans) == ["column_of_the_year_asked", "plain_ratio_for_a_ratio"]
    assert "2010" in rv.review(u, ans)


def test_a_declined_answer_is_not_reviewed(und, rv):
    u = und.understand("四方科技2019年是否存在重大诉讼？")
    assert rv.review(u, Answer("q", "未查询到", "1", "not_found", found=False)) is None
