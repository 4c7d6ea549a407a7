"""Annual-report questions as analysts write them (issue 45), over the real shared reports: a word the evidence
prints is read and chooses the row that prints it; every ask of a compound question answered (a change after
a value in any words, a share of several items listed, a table's total row, how the profit is distributed, a
value of each subsidiary); point-in-time indicators at 上年末; a refusal never shows a figure it did not read.
tests/data/analyst_questions.jsonl (written from the PDFs by a helper that never saw the rules) holds with no
wrong answer."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from conftest import CATALOG, ROOT, SHARED, ingested_store
from fin_qa.answer import review
from fin_qa.answer.facts import FactSource
from fin_qa.answer.model import Answer, PassageEvidence
from fin_qa.answer.review import Reviewer
from fin_qa.answer.router import Router
from fin_qa.store import Report
from fin_qa.understand.question import Understander

CORPUS = SHARED / "data" / "corpus"
BANK = CORPUS / "000001_平安银行_2013.pdf"


@pytest.fixture(scope="module")
def router(all_store):
    return Router(FactSource(all_store[0]), CATALOG)


@pytest.fixture(scope="module")
def bank_router(tmp_path_factory):
    if not BANK.is_file():
        pytest.skip("../shared/data/corpus (平安银行 2013) is absent")
    store, summary = ingested_store(tmp_path_factory, "bank", [BANK], workers=1)
    assert summary.count("ingested") == 1, [o.detail for o in summary.outcomes]
    yield Router(FactSource(store), CATALOG)
    store.close()


def plain(text: str) -> str:
    return text.replace(",", "")


# ------------------------------------------------------------------------------- a word the evidence prints

def test_a_qualifier_the_fact_prints_is_read(router):
    ans = router.answer("四方科技2019年拟派发的现金红利总额（含税）是多少？")
    assert ans.answered and "39606876.50" in plain(ans.answer)


def test_a_qualifier_chooses_the_row_printing_it(router):
    for q in ("四方科技2019年境内审计机构的年度报酬是多少？", "四方科技2019年审计机构的年度报酬是多少？"):
        ans = router.answer(q)
        assert ans.answered and "450000.00" in plain(ans.answer), q
        assert "天健" not in ans.answer   # (not the firm's name the item 会计师事务所名称 reads)


def test_a_qualifier_nothing_prints_still_declines(router):
    ans = router.answer("四方科技2019年境外审计机构的报酬是多少？")
    assert not ans.answered and "境外" in ans.answer
    # a negation no cell prints turns the row into its complement: never the 境内 row for 非境内
    assert not router.answer("四方科技2019年非境内会计师事务所报酬是多少？").answered


# ------------------------------------------------------------------------------- every ask answered

@pytest.mark.parametrize("q", ["四方科技2019年的营业收入是多少？跟2018年比变化多大？",
                               "四方科技2019年的营业收入是多少？与2018年相比差多少？",
                               "四方科技2019年的营业收入是多少？较2018年增减了多少？",
                               # the amount and the rate asked together: both printed, each ask's words read
                               "四方科技2019年的营业收入是多少？比上年减少了多少金额、多大比例？",
                               "四方科技2019年的营业收入是多少？比2018年减少了多少、降幅多大？",
                               "四方科技2019年的营业收入是多少？同比降了多少？",
                               "四方科技2019年的营业收入比2018年减少了多少？请给出当年金额和变动率。"])
def test_a_change_asked_after_a_value(router, q):
    ans = router.answer(q)
    text = plain(ans.answer)
    assert ans.answered and not ans.partial, ans.answer
    for n in ("1175301034.32", "1230537181.80", "55236147.48"):   # both values and the change
        assert n in text, (q, n)


def test_two_items_compared_stay_their_difference(router):
    ans = router.answer("四方科技2019年营业外收入和营业外支出相差多少元？")
    assert ans.answered and "377496.56" in plain(ans.answer)


def test_a_computed_value_changes_in_percentage_points(router):
    ans = router.answer("四方科技2019年的毛利率是多少？比2018年变化了多少？")
    assert ans.answered and not ans.partial
    assert "23.15%" in ans.answer and "26.74%" in ans.answer and "3.59个百分点" in ans.answer


def test_a_share_of_several_items_listed(router):
    for q in ("四方科技2019年期间费用（销售、管理、财务费用之和）占营业收入的百分比是多少？",
              "四方科技2019年销售费用、管理费用和财务费用合计占营业收入的比例是多少？"):
        ans = router.answer(q)
        assert ans.answered and "6.15%" in ans.answer, (q, ans.answer)
        assert "研发费用" not in ans.answer   # (the question's own definition, not formulas/compound.yaml's)
    # a compound item with its own parts is never added twice
    ans = router.answer("四方科技2019年期间费用和销售费用合计占营业收入的比例是多少？")
    assert not ans.answered
    # each asked (分别, 各), or no 合计/之和 said: no share of their sum
    for q in ("四方科技2019年应收账款和存货占总资产的比例分别是多少？", "四方科技2019年销售费用、管理费用占营业收入的比重各是多少？",
              "四方科技2019年的营业收入和净利润占总资产的比重是多少？"):
        assert not router.answer(q).answered, q
    # a share the question spells in a parenthesis after it
    ans = router.answer("四方科技2019年净利润占营业收入的比例（净利润/营业收入）是多少？")
    assert "11.02%" in ans.answer
    # a change of a formula spelled out is no value of the formula
    ans = router.answer("四方科技2019年研发费用占营业收入的比例（研发费用/营业收入）较上年变动了多少？")
    assert not ans.answered


def test_a_tables_total_row_as_an_item(router):
    ans = router.answer("四方科技2019年的非经常性损益总额是多少？")
    assert ans.answered and "276285.09" in plain(ans.answer)
    # 年度采购总额 of a share names a column, not the total row
    ans = router.answer("华锦股份2019年第一大供应商采购额占年度采购总额的比例是多少？")
    assert ans.answered and "86.93%" in ans.answer


def test_how_the_profit_is_distributed(router):
    ans = router.answer("海翔药业2019年打算怎么分红？有没有送转？")
    assert ans.answered and ans.answer[:1] not in "是否"
    assert "每10股派发现金红利3元" in ans.answer and "没有送转" in ans.answer
    assert "466712809.50" in plain(ans.answer) and "第2页" in ans.answer
    ans = router.answer("四方科技2019年的利润分配方案是什么？")
    assert "每10股以资本公积金转增4.8股" in ans.answer and "1.88元" in ans.answer
    # a question of one share of a plan printed per 10 shares: the figure per 10 divided by 10
    # (formulas/compound.yaml), the answer saying so — never another year's plan a note mentions per share
    # (p.143: the 2018 plan's 0.2元, paid in 2019)
    ans = router.answer("四方科技2019年每股派发现金红利多少元？")
    assert ans.answered and "0.188元" in ans.answer and "除以10" in ans.answer and "0.2元" not in ans.answer
    assert "0.188元" in router.answer("四方科技2019年每股派息多少？").answer
    # a plan paying no cash (苏常柴 2019) prints neither figure: none derived either way (每股 from 每10股 from
    # 每股 …), the plan's own words said
    ans = router.answer("苏常柴2019年每股派息多少？")
    assert "不派发现金红利" in ans.answer and "0元" not in ans.answer, ans.answer
    # a qualifier printed in another clause of the plan's sentence (本次转股后…) is no qualifier of the value
    assert not router.answer("四方科技2019年转股后的现金红利总额是多少？").answered


def test_a_rank_over_numbers_the_layout_cut(router):
    """海翔药业 2019 p.50 prints 王云富's holding cut ("118,800,0"): the rank of the shareholders reads their
    持股比例 (all read), never ranks without the row (新昌勤进 was answered the second largest)."""
    ans = router.answer("海翔药业2019年第二大股东是谁")
    assert "王云富" in ans.answer and "7.34%" in ans.answer and "新昌勤进" not in ans.answer, ans.answer
    assert "118,800,0" not in ans.answer   # (its holding, cut, is not said beside)
    # a holding read whole is said beside the share the rank read
    ans = router.answer("海翔药业2019年第一大股东是谁，持股比例？")
    assert "浙江东港投资有限公司" in ans.answer and "34.22%" in ans.answer and "553,982,587" in ans.answer, ans.answer
    # the holding itself from the table printing it whole (p.51), never the cut cell read as 1,188,000
    ans = router.answer("海翔药业2019年王云富持有多少股？")
    assert "118,800,000" in ans.answer and "118,800,0（" not in ans.answer, ans.answer


@pytest.mark.parametrize("cell, cut", [("118,800,0", True), ("14,350,00", True), ("211,591,403.", True),
                                       ("118,800,000", False), ("1,234.56", False), ("7.34%", False)])
def test_a_number_the_layout_cut(cell, cut):
    from fin_qa.answer.tables import CUT_NUMBER as _CUT_NUMBER
    assert bool(_CUT_NUMBER.search(cell)) == cut


def test_a_value_of_each_subsidiary(router):
    ans = router.answer("惠威科技2019年各主要子公司分别实现了多少净利润？")
    assert ans.answered and "21308854.09" in plain(ans.answer)
    # 海翔药业's table runs over a page (台州市前进化工 after the break): never a part of the list, nor one row
    # of another table (an associate's) in its place
    for q in ("海翔药业2019年每个子公司的净利润是多少？", "海翔药业2019年各主要子公司的净利润分别是多少？"):
        ans = router.answer(q)
        assert not ans.answered, (q, ans.answer)
    # one subsidiary named with 分别 of two items is no list
    ans = router.answer("四方科技2019年全资子公司南通四方罐式储运设备制造有限公司的注册资本和净利润分别是多少元？")
    assert "200000000.00" in plain(ans.answer) and "70662576.11" in plain(ans.answer)


def test_every_row_of_a_group_listed(router):
    ans = router.answer("华锦股份2019年前五大客户的销售额分别是多少？")
    text = plain(ans.answer)
    assert ans.answered and all(n in text for n in ("4661463413.42", "1643300841.48", "921474634.39"))
    assert "9344898794.54" not in text   # (the 合计 row is no customer)
    # 前三名 of a table of five: which three is not read
    assert not router.answer("华锦股份2019年前三名客户的销售额分别是多少？").answered
    ans = router.answer("生物股份2020年各地区的营业收入是多少？")
    assert "1565407816.19" in plain(ans.answer) and "1909762.50" in plain(ans.answer)
    # a total asked with 分别 is no list of the rows
    ans = router.answer("惠威科技2019年前五名客户合计销售金额和占比分别是多少？")
    assert "94874333.38" in plain(ans.answer) and "34.52%" in ans.answer


def test_a_sentence_never_answers_what_narrows_it(router):
    # a sentence of the company's own revenue is no subsidiary's
    ans = router.answer("四方科技2019年各子公司的营业收入分别是多少？")
    assert not ans.answered


# ------------------------------------------------------------------------------- point-in-time indicators

def test_a_ratio_of_balances_at_two_dates(router):
    ans = router.answer("四方科技2019年末和上年末的资产负债率分别是多少？")
    assert "29.19%" in ans.answer and "19.79%" in ans.answer
    ans = router.answer("张家界2016年末资产负债率是多少？期初是多少？")
    assert "66.77%" in ans.answer and "29.78%" in ans.answer
    # a flow's ratio has no 期初
    assert not router.answer("张家界2016年期初的毛利率是多少？").answered


def test_a_banks_indicators_at_the_year_end_before(bank_router):
    ans = bank_router.answer("平安银行2013年的拨备覆盖率是多少？上年末是多少？")
    assert ans.answered and not ans.partial and "201.06%" in ans.answer and "182.32%" in ans.answer
    ans = bank_router.answer("平安银行2013年末和上年末的不良贷款率各是多少？")
    assert "0.89%" in ans.answer and "0.95%" in ans.answer
    # the table prints 不适用 for 2012 under the new rules: said missing, of 上年末, never a false rule
    ans = bank_router.answer("平安银行2013年的资本充足率是多少？上年末是多少？")
    assert "9.9" in ans.answer and "上年末资本充足率" in ans.answer and "资产负债表" not in ans.answer
    # a flow has no 上年末: the refusal says so without calling it a 利润表 line
    ans = bank_router.answer("平安银行2013年的净息差上年末是多少？")
    assert not ans.answered and "利润表" not in ans.answer


# ------------------------------------------------------------------------------- a refusal shows no figure

def test_a_refusal_shows_no_number_it_did_not_read():
    und = Understander([Report(0, "000999:2025", "000999", 2025, "华润三九医药股份有限公司", "华润三九")], CATALOG)
    rv = Reviewer(CATALOG.templates, CATALOG.cells, CATALOG.frames)
    u = und.understand("华润三九2025年营业收入是多少？")
    ans = Answer("q", "营业收入为21,986,403,962.0719元。", "1", "text",
                 [PassageEvidence(3, "第二节", "营业收入 21,986,403,962.07")])
    reason = review.numbers_in_the_evidence(rv, u, ans)
    assert reason is not None and not re.search(r"\d{3}", reason)


# ------------------------------------------------------------------------------- reports of the corpus

CORPUS_FILES = {"茅台": "600519_贵州茅台_2025.pdf", "宁德": "300750_宁德时代_2025.pdf", "先导": "688222_成都先导_2024.pdf",
                "宝信": "report1.pdf", "百克": "report3.pdf", "深发展": "report4.pdf", "迈普": "301033_迈普医学_2024.pdf",
                "昭衍": "603127_昭衍新药_2024.pdf", "深振业": "000006_深振业A_2010.pdf", "百诚": "301096_百诚医药_2023.pdf"}


@pytest.fixture(scope="module")
def corpus_router(tmp_path_factory):
    paths = [CORPUS / f for f in CORPUS_FILES.values()]
    if not all(p.is_file() for p in paths):
        pytest.skip("../shared/data/corpus (贵州茅台 2025, 宁德时代 2025, …) is absent")
    store, summary = ingested_store(tmp_path_factory, "corpus_some", paths)
    assert summary.count("ingested") == len(paths), [o.detail for o in summary.outcomes]
    yield Router(FactSource(store), CATALOG)
    store.close()


def test_a_table_set_as_parts_is_read_part_by_part(router, corpus_router):
    # 主营业务分行业 / 分产品 / 分地区 printed as one grid: the part the question names, never another's rows
    ans = router.answer("生物股份2020年主营业务分地区的营业收入各是多少？")
    text = plain(ans.answer)
    assert ans.answered and "1565407816.19" in text and "1909762.50" in text, ans.answer
    assert "1517535227.34" not in text   # (the 分行业 rows)
    ans = corpus_router.answer("百克生物2022年直销和经销的主营业务收入各是多少？")
    assert ans.answered and "105124.45" in plain(ans.answer) and "2015.50" in plain(ans.answer), ans.answer


@pytest.mark.parametrize("q, value", [("贵州茅台2025年非经常性损益合计是多少？", "26959446.43"),
                                      ("成都先导2024年非经常性损益合计是多少？", "-6080125.56"),
                                      ("宁德时代2025年非经常性损益合计金额？", "7693417")])
def test_the_total_of_non_recurring_items(corpus_router, q, value):
    # computed from 归母净利润 − 扣非净利润 where the table's layout breaks (茅台: a note's 合计 of 营业外支出 under
    # a column 计入当期非经常性损益; 先导: labels fused with their numbers); the printed total where it is that
    # value within its unit's rounding (宁德: 7,693,417千元 against 7,693,418,000元 computed)
    ans = corpus_router.answer(q)
    assert ans.answered and value in plain(ans.answer), ans.answer
    assert "128635598.86" not in plain(ans.answer) and "585562345.93" not in plain(ans.answer)


def test_a_rank_is_read_only_from_rows_ranked(corpus_router):
    # 宝信软件 lists one new customer of its five (序号 1): it is not the first
    ans = corpus_router.answer("宝信软件2025年第一大客户的销售额是多少？")
    assert not ans.answered and "21144" not in plain(ans.answer), ans.answer


def test_a_columns_words_in_parentheses_are_read(corpus_router):
    # "现金分红金额（含税）" of a table of years: 含税 is the column's (not a sentence listing three years)
    ans = corpus_router.answer("深发展A 2008年度现金分红金额（含税）是多少？")
    assert ans.answered and "80024千元" in plain(ans.answer), ans.answer


def test_the_core_capital_ratio_of_the_rules_before_2013(corpus_router):
    ans = corpus_router.answer("深发展A 2008年末资本充足率和核心资本充足率分别是多少，上年末分别是多少？")
    text = ans.answer
    assert ans.answered and not ans.partial, text
    for v in ("8.58%", "5.27%", "5.77%"):
        assert v in text, v
    assert "8.6%" not in text   # (the rounded figure of the notes)


def test_a_quotient_spelled_under_one_also_as_a_percent(corpus_router):
    ans = corpus_router.answer("迈普医学2024年（研发费用+管理费用）/营业收入是多少？")
    assert ans.answered and "0.30（30.14%）" in ans.answer, ans.answer
    assert "30.14%" not in corpus_router.answer("迈普医学2024年（研发费用+管理费用）/营业收入是多少？保留4位小数").answer


def test_a_category_of_another_group_of_people_is_not_the_companys(router, corpus_router):
    # the 教育程度 table counts every employee: its 硕士 are not the 研发人员's (成都先导 prints 79 博士 among its
    # 研发人员 and 82 among all); a group asked (各学历) is never dropped as an item's tail
    for q in ("四方科技2019年研发人员中硕士学历的有多少人？", "四方科技2019年研发人员的硕士人数是多少？",
              "四方科技2019年研发人员各学历的人数分别是多少？"):
        ans = router.answer(q)
        assert not ans.answered and "172" not in ans.answer and "14人" not in ans.answer, (q, ans.answer)
    ans = corpus_router.answer("成都先导2024年研发人员中博士有多少人？")
    assert "82" not in ans.answer, ans.answer
    # two counts listed are two asks
    ans = router.answer("四方科技2019年研发人员数量和硕士人数分别是多少？")
    assert ans.answered and "172" in ans.answer and "14" in ans.answer


@pytest.mark.parametrize("q, winner", [("四方科技和海翔药业2019年的资产负债率谁更高？", "四方科技"),
                                       ("四方科技和海翔药业2019年的销售费用率哪个高？", "四方科技"),
                                       ("四方科技和海翔药业2019年的营业收入谁高？", "海翔药业")])
def test_companies_compared_by_a_formula_or_an_item(router, q, winner):
    ans = router.answer(q)
    last = ans.answer.strip().splitlines()[-1]
    assert ans.answered and "无法比较" not in ans.answer and last.startswith(f"（3）{winner}"), ans.answer


def test_which_is_not_read_in_how_much(router):
    ans = router.answer("四方科技和海翔药业2019年谁的营业收入是多少？")
    assert "更少" not in ans.answer and "更多" not in ans.answer, ans.answer


def test_a_list_of_a_tables_part_says_its_unit(router):
    ans = router.answer("生物股份2020年主营业务分地区的营业收入各是多少？")
    assert "1,565,407,816.19元" in ans.answer and "个百分点%" not in ans.answer, ans.answer


@pytest.mark.parametrize("q, numbers", [
    ("深振业2010年营业总收入多少？比09年增加了多少，增幅多少？", ["2338734540.68", "489498726.96", "26.47%"]),
    ("迈普医学24年归母净利润是多少，和23年比增加了多少，增幅多少？", ["78854230.23", "37976840.07", "92.90%"])])
def test_a_change_against_a_year_written_short(corpus_router, q, numbers):
    # 比09年 / 和23年比: the year compared against, the question's own year still asked (never 2009 against 2008)
    ans = corpus_router.answer(q)
    text = plain(ans.answer)
    assert ans.answered and all(n in text for n in numbers), ans.answer
    assert "2008年" not in ans.answer and "2022年" not in ans.answer


def test_ratios_listed_at_the_year_end_before(corpus_router):
    ans = corpus_router.answer("宁德时代2025年末的流动比率和速动比率是多少？上年末分别是多少？")
    second = ans.answer.splitlines()[1]
    assert "1.61" in second and "1.42" in second and "1.60" not in second, ans.answer


def test_one_number_of_a_sentence_answers_one_ask(corpus_router):
    # 每10股派 and 合计派发 of one sentence are two numbers, and an interim plan's (《2025年中期利润分配方案》) no
    # answer of the year's
    ans = corpus_router.answer("贵州茅台2025年年度分红每10股派多少？合计拟派多少现金红利？")
    assert "35032568759.73" in plain(ans.answer) and "239.57" not in ans.answer, ans.answer
    assert "现金红利：27.993" not in ans.answer and "现金红利：300.01" not in ans.answer


def test_a_plan_printed_per_share(corpus_router):
    """贵州茅台 prints its plan per share in the 重要提示 ("每股派发现金红利27.993元（含税）", p.2) and per 10 shares
    in its 利润分配 table (p.33): the plan quotes the first, each figure is read where printed."""
    ans = corpus_router.answer("贵州茅台2025年打算怎么分红？")
    # (the figure stated as the sentence quoted prints it: per share, p.2 — not the table's 279.93 beside it)
    stated = ans.answer.split("原文")[0]
    assert ans.answered and "每股派发现金红利27.993元（含税）" in stated and "279.93" not in stated, ans.answer
    assert "第2页" in ans.answer
    assert "35032568759.73" in plain(ans.answer)
    ans = corpus_router.answer("贵州茅台2025年每股派发现金红利多少元？")
    assert "27.993元" in ans.answer and "乘以" not in ans.answer
    # per 10 shares: printed by the 利润分配 table of p.33 (每10股派息数（元）（含税）279.93), read, not computed
    ans = corpus_router.answer("贵州茅台2025年每10股派发现金红利多少元？")
    assert "279.93" in ans.answer and "第33页" in ans.answer and "乘以" not in ans.answer, ans.answer


def test_a_rank_position_a_passage_does_not_print(corpus_router):
    """贵州茅台 2025's shareholders' table is printed without lines, in pieces: "第二大股东是哪家" is no row of a
    piece, and no passage about the 第一大股东's pledges (p.51) answers it — the rank position is named as not read."""
    ans = corpus_router.answer("贵州茅台2025年第二大股东是哪家？")
    assert not ans.answered and "第二" in ans.answer and "80%" not in ans.answer, ans.answer


def test_the_plans_cash_total_from_its_table(corpus_router):
    ans = corpus_router.answer("昭衍新药2024年分红预案如何？")
    assert ans.answered and "0.3" in ans.answer and "22385229.00" in plain(ans.answer), ans.answer


def test_every_row_asked_with_每家(corpus_router):
    ans = corpus_router.answer("昭衍新药2024年前五名客户每家的销售金额是多少？")
    text = plain(ans.answer)
    assert all(n in text for n in ("57857924.72", "56155085.63", "44009392.36", "40196413.68", "39230180.54")), text


def test_a_row_named_as_a_line_of_business(router):
    ans = router.answer("生物股份2020年国外业务的营业收入是多少元？")
    assert ans.answered and "1909762.50" in plain(ans.answer), ans.answer


def test_a_share_is_not_read_from_a_table_of_another_measure(corpus_router):
    # the interest paid on 零售存款 (客户存款利息支出, （1）利息净收入) is no share of the deposits themselves
    ans = corpus_router.answer("深发展A 2008年末零售存款占存款总额的比重是多少？")
    assert "12.68%" not in ans.answer and "13.85%" not in ans.answer, ans.answer


def test_every_item_compared_across_years(tmp_path_factory):
    path = SHARED / "data" / "reports" / "2020-03-26__中国邮政储蓄银行股份有限公司__601658__邮储银行__2019年__年度报告.txt"
    if not path.is_file():
        pytest.skip("../shared/data/reports (邮储银行 2019) is absent")
    store, _ = ingested_store(tmp_path_factory, "psbc", [path], workers=1)
    ans = Router(FactSource(store), CATALOG).answer("邮储银行2019年末集团资本充足率和一级资本充足率各是多少？与2018年末相比呢？")
    for v in ("13.52%", "10.87%", "13.76%", "10.88%"):
        assert v in ans.answer, (v, ans.answer)
    store.close()


def test_a_count_stated_without_its_unit_is_read(bank_router):
    # "正式员工中，业务人员 18,430" (人 on the next line): a whole count is read; an amount cut from its unit
    # ("合计派发现金红利 300.01" / 亿元) is not
    ans = bank_router.answer("平安银行2013年正式员工中业务人员有多少人？")
    assert ans.answered and "18430" in plain(ans.answer), ans.answer


def test_one_row_does_not_answer_two_things_asked_each(router):
    ans = router.answer("生物股份2020年计入当期损益的政府补助和非经常性损益合计分别是多少？")
    assert not (ans.answered and "19725658.46" in plain(ans.answer) and "14007253.75" not in plain(ans.answer)), \
        ans.answer


def test_an_ask_opened_anew_is_not_narrowed_by_the_row_before(router):
    ans = router.answer("生物股份2020年生物制药行业营业收入多少？毛利率是多少？同时，非经常性损益合计金额是多少？")
    text = plain(ans.answer)
    assert not ans.partial and all(n in text for n in ("1517535227.34", "62.95%", "14007253.75")), ans.answer


def test_main_business_income_is_not_the_revenue(router):
    # 主营业务收入 is the report's own row (1,135,639,368.05), never 营业收入 (1,175,301,034.32) by a close spelling
    ans = router.answer("四方科技2019年主营业务收入是多少？")
    assert "1135639368.05" in plain(ans.answer) and "1175301034.32" not in plain(ans.answer), ans.answer


def test_the_groups_note_before_the_parents(router):
    # 营业收入和营业成本 is printed for the group (p.158) and again for the parent company (p.192) under the same
    # header: the group's, the first printed (the parent's 13,417,370.45 is no answer of the company's)
    ans = router.answer("生物股份2020年主营业务收入是多少？")
    assert "1567317578.69" in plain(ans.answer) and "13417370.45" not in plain(ans.answer), ans.answer
    ans = router.answer("生物股份2020年主营业务成本是多少？")
    assert "604657994.55" in plain(ans.answer) and "8827186.01" not in plain(ans.answer), ans.answer


def test_a_sentence_of_another_qualified_item_states_no_value(router):
    # "公司实现主营业务收入 156,732 万元" states no 其他业务收入
    ans = router.answer("生物股份2020年其他业务收入是多少？")
    assert "156732" not in plain(ans.answer) and "1567317578.69" not in plain(ans.answer), ans.answer


def test_a_quotient_over_the_share_capital_is_no_percent(router):
    ans = router.answer("四方科技2019年归属于母公司股东的净利润除以总股本是多少")
    assert ans.answered and "%" not in ans.answer.split("。")[0], ans.answer


def test_a_total_is_no_figure_per_share(router):
    # "每10股派多少？合计派多少钱？": the second ask inherits 每10股派, and its 合计 is never the 3元 per 10 shares
    ans = router.answer("海翔药业2019年每10股派多少？合计派多少钱？")
    second = ans.answer.splitlines()[1] if len(ans.answer.splitlines()) > 1 else ""
    assert "3元" in ans.answer.splitlines()[0] and "是3元" not in second, ans.answer


@pytest.mark.parametrize("q, share", [("四方科技2019年销售费用加管理费用占营业收入的比例？", "(销售费用+管理费用)"),
                                      ("生物股份2020年销售、管理、财务三项费用合计占营业收入多少？", "24.06%")])
def test_a_share_asked_in_plain_words(router, q, share):
    # 加 adds the items it joins; "占营业收入多少" asks a share as "…的比例" does; 三项费用合计 is 三费 itself
    ans = router.answer(q)
    assert ans.answered and share in ans.answer and "%" in ans.answer, ans.answer


def test_a_compound_item_listed_with_its_parts_is_not_added_twice(router):
    ans = router.answer("张家界2016年销售费用、管理费用、财务费用三项费用合计多少？")
    assert "254438947.48" not in plain(ans.answer) and "127219473.74" in plain(ans.answer), ans.answer


# ------------------------------------------------------------------------------- the question set

# the set's questions answered wrong when it was measured (docs/benchmarks.md), each with why: a new wrong
# answer, or one of these answered wrong otherwise, fails
KNOWN_WRONG: dict[str, str] = {}   # (none since the second stop of issue 45: aq045, aq056, aq144, aq155, aq177
# were answered wrong before it — aq056's expectation itself was wrong, see its note)


def _scored(store, name: str, tmp_path) -> list[dict]:
    """The rows of tests/data/NAME (a question set) as scripts/eval_paraphrases.py scores them over the store."""
    out = tmp_path / f"{name}.json"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "eval_paraphrases.py"), "--store", str(store[0].dir),
                    str(ROOT / "tests" / "data" / name), "--json", str(out)], check=True, capture_output=True, text=True)
    return json.loads(out.read_text(encoding="utf-8"))   # type: ignore[no-any-return]


def test_the_analyst_set_over_the_reports(all_store, tmp_path):
    """tests/data/analyst_questions.jsonl (written from the PDFs by a helper that never saw the rules) over the
    store of reports and reports_more (a question of another report is declined: its company is not there):
    no wrong answer but the known ones."""
    rows = _scored(all_store, "analyst_questions.jsonl", tmp_path)
    wrong = [(r["id"], r["question"], r["answer"][:200]) for r in rows
             if r["verdict"] == "wrong" and r["id"] not in KNOWN_WRONG]
    assert not wrong, wrong
    right = sum(r["verdict"] == "right" for r in rows)
    assert right >= RIGHT_OVER_THE_REPORTS, right


RIGHT_OVER_THE_REPORTS = 63   # 65 right when measured (docs/benchmarks.md), a little room for a rounding change


def test_the_third_fresh_set_over_the_reports(all_store, tmp_path):
    """tests/data/analyst_questions_fresh3.jsonl (issue 45's tenth stop, written from the PDFs by a helper that
    never saw the rules) over the store of reports and reports_more (the corpus's and banks' questions are declined:
    their companies are not there): no wrong answer."""
    rows = _scored(all_store, "analyst_questions_fresh3.jsonl", tmp_path)
    wrong = [(r["id"], r["question"], r["answer"][:200]) for r in rows if r["verdict"] == "wrong"]
    assert not wrong, wrong
    assert sum(r["verdict"] == "right" for r in rows) >= 47   # 49 right when measured (docs/benchmarks.md)


def test_the_sum_questions_over_the_reports(all_store, tmp_path):
    """tests/data/sum_questions.jsonl (issue 45's fourth stop: 加 between two items asks their sum) over the
    store of reports and reports_more: every question right."""
    rows = _scored(all_store, "sum_questions.jsonl", tmp_path)
    assert len(rows) == 4 and all(r["verdict"] == "right" for r in rows), [(r["id"], r["answer"][:160]) for r in rows]


@pytest.mark.parametrize("name, right", [("multi_intent_heldout", 16), ("multi_intent_heldout2", 11)])
def test_the_multi_intent_sets_over_the_reports(all_store, tmp_path, name, right):
    """tests/data/multi_intent_heldout*.jsonl (issue 46: a ranking then each company then a pick; companies named as
    a list; steps — written from the PDFs by helpers that never saw the rules) over the store of reports and
    reports_more (the 2024/2025 companies and the banks' years are not there: their questions are declined): no
    wrong answer; `right` a little under the figure measured (17 and 12; over every shared report 34 of 36 and 20 of
    30: docs/benchmarks.md)."""
    rows = _scored(all_store, f"{name}.jsonl", tmp_path)
    assert not [(r["id"], r["answer"][:200]) for r in rows if r["verdict"] == "wrong"]
    assert sum(r["verdict"] == "right" for r in rows) >= right


def test_education_rows_read_as_their_table_means(router, corpus_router):
    # 苏常柴 2019 prints 本科 259 and 本科以上 18 (its rows sum to the total): 本科以上 beside 本科 is those above
    # it, so 本科及以上 is 277; the row asked by its own label is that row
    ans = router.answer("苏常柴2019年本科及以上学历员工总数")
    assert ans.answered and "277人" in ans.answer, ans.answer
    ans = router.answer("苏常柴2019年本科学历员工人数和本科以上人数？")
    assert ans.answered and "259人" in ans.answer and "本科以上（硕士及以上）是18人" in ans.answer, ans.answer
    # 贵州茅台 2025 prints 研究生以上学历 977 and 本科学历 12,663: its graduates are one row (硕士及以上), so no
    # 博士 is 0 and 本科及以上 is their sum (本科 + 硕士及以上, the further way when 硕士 is not printed alone)
    ans = corpus_router.answer("请问贵州茅台2025年本科及以上学历员工合计多少人？")
    assert ans.answered and "13640人" in ans.answer and "本科+硕士及以上" in ans.evidence[0].source, ans.answer
    ans = corpus_router.answer("贵州茅台2025年博士学历员工有多少人？")
    assert not ans.answered and "0人" not in ans.answer, ans.answer
    # 宝信软件 2025 prints 研究生 1,269 and 本科生 3,776
    ans = corpus_router.answer("宝信软件2025年本科及以上学历员工合计多少人？")
    assert ans.answered and "5045人" in ans.answer, ans.answer


def test_a_subsidiary_is_no_row_of_a_table_of_joint_ventures(router):
    # 万科 2012 prints a 青岛 among its joint ventures and associates (重要合营企业和联营企业信息): "子公司青岛万科"
    # names none of its rows — it is 青岛万科企业有限公司 of its 主要全资附属企业 (p.9)
    ans = router.answer("万科2012年子公司青岛万科的净利润")
    assert ans.answered and "48,075.25" in ans.answer and "5,257,887.18" not in ans.answer, ans.answer
    # a subsidiary of a table of subsidiaries is still read
    ans = router.answer("惠威科技2019年子公司珠海惠威科技有限公司的净利润是多少")
    assert ans.answered and "21,308,854.09" in ans.answer, ans.answer


def test_a_names_item_with_words_left_declines(router):
    # 会计师事务所名称 does not answer "财务审计费用": the firm's name is no fee
    ans = router.answer("四方科技2019年给会计师事务所的财务审计费用是多少钱？")
    assert not ans.answered and "会计师事务所" in ans.answer and "财务审计费用" in ans.answer, ans.answer


def test_a_product_named_after_the_company_is_a_row(corpus_router):
    # 茅台酒 (贵州茅台酒股份有限公司's own words) listed with 其他系列酒 is a product of its table, not the company again
    for q, values in (("贵州茅台2025年茅台酒和其他系列酒分别实现营业收入多少？", ("146,499,906,480.49", "22,274,678,707.16")),
                      ("贵州茅台2025年茅台酒和其他系列酒的毛利率分别是多少？", ("93.53%", "76.11%")),
                      ("贵州茅台2025年茅台酒的营业收入是多少？", ("146,499,906,480.49",))):
        ans = corpus_router.answer(q)
        assert ans.answered and all(v in ans.answer for v in values), ans.answer
        assert "168,838,102,514.79" not in ans.answer   # (never the company's total)
    # another name of the company asked of is never its total either; a name restated in brackets is the company
    assert "168,838,102,514.79" not in corpus_router.answer("贵州茅台2025年茅台的营业收入是多少？").answer
    ans = corpus_router.answer("贵州茅台酒股份有限公司（贵州茅台）2025年的营业收入是多少？")
    assert ans.answered and "168,838,102,514.79" in ans.answer, ans.answer


def test_how_a_value_compares_with_a_base_is_its_change(router, bank_router):
    # "与上年末相比如何" / "和上年比怎么样": both values and the change (in 百分点 for a rate), never a passage
    ans = bank_router.answer("平安银行2013年末不良贷款率和拨备覆盖率是多少？与上年末相比如何？")
    assert ans.answered and not ans.partial, ans.answer
    for v in ("0.89%", "0.95%", "201.06%", "182.32%", "0.06个百分点"):
        assert v in ans.answer, v
    ans = router.answer("四方科技2019年营业收入和上年比怎么样？")
    assert ans.method == "change" and "55,236,147.48" in ans.answer, ans.answer


@pytest.mark.parametrize("q", ["四方科技2019年聘请境内会计师事务所的年度报酬是多少？",
                               "四方科技2019年支付给境内会计师事务所的报酬是多少？"])
def test_the_fee_of_the_firm_engaged(router, q):
    # 聘请 / 支付给 say how the fee is paid: the row 境内会计师事务所报酬 answers
    ans = router.answer(q)
    assert ans.answered and "450,000.00" in ans.answer, ans.answer


def test_a_plans_parts_listed_are_the_plan(router):
    # "派息和转增各是多少": the plan with its figures
    ans = router.answer("四方科技2019年的分配预案，派息和转增各是多少？")
    assert ans.method == "distribution" and "1.88" in ans.answer and "4.8" in ans.answer, ans.answer


def _education_table(*rows: str):
    from pathlib import Path
    from fin_qa.ingest.pages import Document, Line, Page
    from fin_qa.ingest.profile import extract_employees
    lines = ["五、公司员工情况", "1、员工数量、专业构成及教育程度", "教育程度", "教育程度类别 数量（人）", *rows]
    doc = Document(Path("report.pdf"), [Page(1, [Line(x) for x in lines])])
    return {f.item: f.value for f in extract_employees(doc, CATALOG) if f.statement == "教育程度"}


def test_a_row_above_another_is_read_only_of_a_tables_parts():
    # 苏常柴 2019's layout: the rows add up to the total, 本科以上 beside 本科 is those above it
    got = _education_table("初中及以下 1,356", "高中 852", "大中专 525", "本科 259", "本科以上 18", "合计 3,010")
    assert got.get("硕士及以上") == "18" and "本科及以上" not in got and got.get("本科") == "259", got
    # a subtotal over its own parts (the rows add up to more than the total): 本科以上 holds 本科 and above
    got = _education_table("本科以上 300", "本科 200", "硕士 80", "博士 20", "大专 100", "合计 400")
    assert got.get("本科及以上") == "300" and "硕士及以上" not in got, got
    # a table printing those above apart: 本科以上 is no 硕士及以上 even where the rows add up
    got = _education_table("本科 200", "本科以上 100", "硕士 80", "大专 100", "合计 480")
    assert "硕士及以上" not in got or got["硕士及以上"] != "100", got


def test_the_kinds_of_rows_an_appositive_names(router):
    # 控股子公司 before a row of a subsidiaries' table, 合营企业 before a row of a table of joint ventures: read
    ans = router.answer("惠威科技2019年控股子公司珠海惠威科技有限公司的营业收入是多少")
    assert ans.answered and "208,663,612.30" in ans.answer, ans.answer
    ans = router.answer("万科2012年合营企业青岛的净利润是多少")
    assert ans.answered and "5,257,887.18" in ans.answer, ans.answer


def test_a_ratio_compared_with_a_base_is_its_change(router):
    ans = router.answer("四方科技2019年资产负债率与上年末相比如何？")
    assert ans.answered and "29.19%" in ans.answer and "19.79%" in ans.answer and "9.40个百分点" in ans.answer, ans.answer


def test_a_label_printed_for_another_row_is_that_row_or_nothing(router):
    # 苏常柴 2019's 本科以上 is its 硕士及以上 (18): a ratio of "本科以上" is not worked out of 本科及以上 (277)
    ans = router.answer("苏常柴2019年本科以上人数占员工总数的比例")
    assert not ans.answered and "9.20%" not in ans.answer, ans.answer
    ans = router.answer("苏常柴2019年本科及以上人数占员工总数的比例")
    assert ans.answered and "9.20%" in ans.answer, ans.answer


def test_a_company_named_twice_in_its_own_words_stays_the_company(router):
    for q in ("四方科技2019年营业收入和四方科技的净利润分别是多少？", "四方科技2019年营业收入、四方科技净利润各是多少？"):
        ans = router.answer(q)
        assert ans.answered and "1,175,301,034.32" in ans.answer and "129,465,020.68" in ans.answer, (q, ans.answer)


def test_the_top_five_by_either_word(router):
    # 前五大客户 is the tables' 前五名客户: their cells, not a passage
    ans = router.answer("苏常柴2019年前五大客户合计销售金额及其占年度销售总额的比重？")
    assert ans.answered and "864,536,279.47" in ans.answer and "42.38%" in ans.answer, ans.answer


def test_a_ranked_group_is_read_only_from_its_own_list(router):
    # 四方科技 2019 prints the suppliers' table with the customers' header words (客户名称 销售额 占年度采购总额)
    # right below the customers' table; and a prepayments' 前五名 table whose rows are "供应商一"…
    ans = router.answer("四方科技2019年前五名供应商都是谁")
    text = plain(ans.answer)
    assert "280030978.92" in text and "29.67%" in text, ans.answer   # the purchases' first row
    assert "86512221.40" not in text and "5793216.06" not in text, ans.answer   # a customer's, a prepayment's
    ans = router.answer("四方科技2019年前5大客户的销售额分别是多少")
    assert "86512221.40" in plain(ans.answer) and "280030978.92" not in plain(ans.answer), ans.answer
    # the group by rank or as a list, however written
    for q in ("四方科技2019年第一大供应商是谁", "四方科技2019年主要供应商有哪些", "四方科技2019年供应商前五名都是谁"):
        text = plain(router.answer(q).answer)
        assert "280030978.92" in text and "86512221.40" not in text and "5793216.06" not in text, (q, text)


def test_a_mixed_level_and_a_word_holding_zhong_are_never_dropped(router):
    # 苏常柴 2019 prints 大中专 525 (大专 and 中专 together): 大专及以上 cannot be added up from its rows
    ans = router.answer("苏常柴2019年大专及以上学历员工多少人？")
    assert not ans.answered and "277" not in ans.answer, ans.answer
    # 中 of 大中专 is no "inside" (年报中): the word stays in the question's accounting, never silently dropped
    ans = router.answer("苏常柴2019年本科以上学历和大中专人数分别是多少")
    assert "大中专" in ans.answer and not (ans.answered and not ans.partial and "525" not in ans.answer), ans.answer
    # ... while 年报中 / 当中 still say where it is read
    ans = router.answer("常柴股份2019年的负债合计在年报当中是多少哦")
    assert ans.answered and "1,356,100,111.53" in ans.answer, ans.answer


def _rd_table(*rows: str, year: int | None = 2019):
    from pathlib import Path
    from fin_qa.ingest.pages import Document, Line, Page
    from fin_qa.ingest.profile import extract_employees
    doc = Document(Path("report.pdf"), [Page(1, [Line(x) for x in ("公司研发投入情况", *rows)])])
    return {(f.item, f.period): f.value for f in extract_employees(doc, CATALOG, year) if f.statement == "研发投入"}


def test_the_rd_tables_columns_of_the_years_before():
    # 深交所's "2019 年 2018 年 变动比例" (a row's last column the change, never a year's value)
    got = _rd_table("2019 年 2018 年 变动比例", "研发人员数量（人） 165 161 2.48%",
                    "研发投入金额（元） 21,799,347.88 21,452,865.63 1.62%")
    assert got[("研发投入合计", "current")] == "21799347.88" and got[("研发投入合计", "previous")] == "21452865.63", got
    assert got[("研发人员数量", "previous")] == "161" and ("研发人员数量", "previous2") not in got, got
    # 科创板's "本年度 上年度 变化幅度（%）", a change in words after the columns; three years of 近三年, in 千元
    got = _rd_table("本年度 上年度 变化幅度（%）", "研发投入合计 67,328,083.61 79,610,848.99 -15.43",
                    "研发投入总额占营业收入比例（%） 15.77 21.44 减少 5.67 个百分点")
    assert got[("研发投入合计", "previous")] == "79610848.99" and got[("研发投入占营业收入比例", "previous")] == "21.44", got
    got = _rd_table("项目 2025 年 2024 年 2023 年", "研发投入金额（千元） 22,146,581 18,606,756 18,356,108", year=2025)
    assert got[("研发投入合计", "current")] == "22146581000" and got[("研发投入合计", "previous2")] == "18356108000", got
    # a header of years not counted back from the report's, or no header: the report year's column only
    got = _rd_table("2017 年 2016 年", "研发投入金额（元） 100.00 90.00")
    assert got == {("研发投入合计", "current"): "100"}, got
    got = _rd_table("单位：万元", "研发投入合计 48,428.96")
    assert got == {("研发投入合计", "current"): "484289600"}, got


def test_rd_asked_against_the_year_before(router):
    # the previous year's column of the 研发投入 table: a change of it, a rate's change in 百分点
    ans = router.answer("安靠智电2019年研发投入金额较2018年增长了百分之多少？")
    assert ans.answered and "42.57%" in ans.answer and "15,665,695.27" in ans.answer, ans.answer
    ans = router.answer("苏常柴2018年研发人员数量是多少？")
    assert ans.answered and "368" in ans.answer and "2019年年报" in ans.answer, ans.answer


def test_the_fourth_fresh_set_over_the_reports(all_store, tmp_path):
    """tests/data/analyst_questions_fresh4.jsonl (issue 45's eleventh stop: 80 questions a helper wrote from the
    reports, never seeing the rules) over the store of reports and reports_more: no wrong answer of a question on
    those reports (the corpus's and banks' companies are not in this store)."""
    rows = [r for r in _scored(all_store, "analyst_questions_fresh4.jsonl", tmp_path)
            if r["note"].startswith(("reports/", "reports_more/"))]
    wrong = [(r["id"], r["question"], r["answer"][:200]) for r in rows if r["verdict"] == "wrong"]
    assert not wrong, wrong
    assert len(rows) >= 30 and sum(r["verdict"] == "right" for r in rows) >= len(rows) - 4


# the companies of reports and reports_more, as the fifth fresh set names them
_REPORTS_COMPANIES = ("张家界", "安靠", "邮储", "惠威", "四方科技", "生物股份", "金宇", "万科", "海翔", "华锦", "常柴")


def test_the_fifth_fresh_set_over_the_reports(all_store, tmp_path):
    """tests/data/analyst_questions_fresh5.jsonl (issue 45's twelfth stop: 80 questions a helper wrote from the
    reports, corpus and banks, never seeing the rules; 59 right / 4 partly / 14 declined / 3 wrong at af9209d) over
    the store of reports and reports_more: no wrong answer of a question on those companies (a year of theirs
    this store lacks — 万科A 2009 — is declined, never answered from another year)."""
    rows = [r for r in _scored(all_store, "analyst_questions_fresh5.jsonl", tmp_path)
            if any(n in r["question"] for n in _REPORTS_COMPANIES)]
    wrong = [(r["id"], r["question"], r["answer"][:200]) for r in rows if r["verdict"] == "wrong"]
    assert not wrong, wrong
    assert len(rows) >= 20 and sum(r["verdict"] == "right" for r in rows) >= len(rows) - 6


@pytest.mark.parametrize("question, said, absent", [
    # 哪个多: the difference and which one it is
    ("安靠智电2019年销售费用和管理费用哪个多？差多少", ["管理费用更多", "4,157,588.26"], []),
    ("安靠智电2019年销售费用和管理费用谁更少", ["销售费用更少"], []),
    # 涨 as a verb of change, 多少钱 its amount, 幅度 its rate, with 金额
    ("海翔药业19年销售费用同比涨了多少？多少钱", ["15,841,970.46", "36.18%", "（2）同（1）"], []),
    ("海翔药业2019年营业收入同比下滑了多少？金额和幅度都说一下", ["222,803,973.79", "8.20%"], []),
    # 董秘 is the 董事会秘书; 不良率 the 不良贷款率 (a bank's); 扣非后的基本每股收益
    ("惠威科技2019年的董秘是谁？", ["张小康"], []),
    ("苏常柴2019年加权平均ROE是多少？", ["1.2%"], []),
    # a plan asked "怎么分的"
    ("张家界2016年度利润分配预案是怎么分的？", ["0.84"], []),
    # a unit in brackets after the ask
    ("四方科技2019年营业成本多少（万元）？", ["万元"], []),
    # FinGLM's 硕士及以上 share where the report prints only 硕士及以上 (no 硕士 row): its row, the percent said too
    ("请问海翔药业2019年硕士及以上人员占职工人数的比例是多少？保留两位小数。", ["0.02（1.52%）"], []),
])
def test_analysts_words(router, question, said, absent):
    ans = router.answer(question)
    assert ans.answered, ans.answer
    for s in said:
        assert s in ans.answer, (s, ans.answer)
    for s in absent:
        assert s not in ans.answer, (s, ans.answer)


def test_a_word_of_price_is_no_change(router):
    # 跌价准备 holds 跌: no verb of change (it is a note's row, declined as before, never a change)
    ans = router.answer("惠威科技2019年末存货跌价准备余额是多少？")
    assert ans.method != "change" and "跌价准备" in ans.answer, ans.answer


def test_a_row_written_with_another_character_is_another_row():
    # 普通股股东总数 is no 普通股股份总数: a character in place of the label's is another thing; 每10股派 is 每10股派息
    from fin_qa.answer.cells import _swapped
    assert _swapped("普通股股份总数", "普通股股份", "截至2019年末普通股股东总数是多少户")
    assert not _swapped("普通股股份总数", "普通股股份", "普通股股份总数是多少")
    assert not _swapped("每10股派息数", "每10股派息", "每10股派多少")


def test_a_name_asked_is_never_a_count(corpus_router):
    # "控股股东是谁": its name (贵州茅台 2025 prints "1、法人 … 名称 …"), never the 股东总数 cell
    ans = corpus_router.answer("贵州茅台2025年控股股东是谁？")
    assert "中国贵州茅台酒厂（集团）有限责任公司" in ans.answer and "255,892" not in ans.answer, ans.answer
    from fin_qa.answer import review
    assert review._ASKS_WHO.search("控股股东是谁") and not review._ASKS_WHO.search("股东总数是多少")


def test_the_business_is_its_own_section(router):
    # 主营业务是什么: the section on the company's business, never the revenue's table 主营业务分行业…
    ans = router.answer("生物股份2020年的主营业务是什么？")
    assert "兽用生物制品" in ans.answer and "主营业务分行业" not in ans.answer, ans.answer


def test_rd_and_a_company_shortened(corpus_router):
    # 昭衍 for 昭衍新药 (a trade word 新药 left off), 先导 for 成都先导; R&D in 千元 read in 元
    ans = corpus_router.answer("昭衍2024年投资支付的现金是多少亿？")
    assert ans.answered and "50.59亿元" in ans.answer, ans.answer
    ans = corpus_router.answer("宁德时代2025年研发投入金额是多少？比上年增长多少？")
    assert "22,146,581,000" in ans.answer and "18,606,756,000" in ans.answer, ans.answer


@pytest.mark.parametrize("question", ["四方科技2019年董秘的学历是什么？", "四方科技2019年董事会秘书持有公司多少股？",
                                      "四方科技2019年股价涨了多少？"])
def test_what_a_name_or_a_passage_does_not_answer_is_declined(router, question):
    # a name answers who (董秘是谁), nothing else asked of the person; a passage on 稳定股价 says no change
    ans = router.answer(question)
    assert not ans.answered, ans.answer
    assert router.answer("四方科技2019年董秘是谁？").answered


def test_the_fresh_formula_set_over_the_reports(all_store, tmp_path):
    """tests/data/formula_questions_fresh.jsonl (issue 45's eleventh stop: 60 questions in FinGLM's words — 流动比率,
    三费比重, 研发经费与利润比值, growth rates … — computed by a helper from the reports, never seeing the rules; its
    first run, never tuned: 58 right, 1 wrong, 1 declined) over reports and reports_more: no wrong answer."""
    rows = _scored(all_store, "formula_questions_fresh.jsonl", tmp_path)
    wrong = [(r["id"], r["question"], r["answer"][:200]) for r in rows if r["verdict"] == "wrong"]
    assert len(rows) == 60 and not wrong, wrong
    assert sum(r["verdict"] == "right" for r in rows) >= 58


def test_a_quarter_of_the_annual_reports_quarterly_table(router):
    # 分季度主要财务指标: its columns 第一季度 … 第四季度 answer a quarter named either way (三季度, 第三季度), the
    # item named by its keyword table's names (归母净利润 → 归属于上市公司股东的净利润); 前三季度 is no column of it
    for q, want in (("张家界2016年第三季度营业收入多少万元？", "21379.61万元"), ("张家界2016年三季度的营业收入", "213796109.74"),
                    ("张家界2016年第二季度的归母净利润", "33110043.54"),
                    ("惠威科技2019年第三季度单季的营业收入", "64346589.65")):
        ans = router.answer(q)
        assert ans.answered and want in plain(ans.answer), (q, ans.answer)
    # a quarter's end, 截至, 累计 or 前三季度 is no quarter's column; 上一/每一季度 names no quarter
    for q in ("张家界2016年前三季度营业收入是多少", "惠威科技2019年第三季度末营业收入", "截至2019年第三季度末惠威科技营业收入是多少",
              "惠威科技2019年上一季度营业收入", "惠威科技2019年每一季度营业收入", "四方科技2019年单季营业收入最高是多少"):
        ans = router.answer(q)
        assert not ans.answered or "64,346,589.65" not in ans.answer and "分季度" in ans.answer, (q, ans.answer)


def test_a_fall_asked_is_said_as_one(router):
    ans = router.answer("四方科技2019年归母净利润同比下降了多少？")
    assert ans.answered and "-28.95%" in ans.answer and "降幅28.95%" in ans.answer, ans.answer


@pytest.mark.parametrize("question, said", [
    ("邮储银行2019年末核心一级资本充足率是多少，相比2018年末变动了几个百分点？", "0.13个百分点"),
    ("四方科技2019年营业收入是多少？请用人民币亿元表示", "11.75亿元"),
])
def test_a_change_or_a_unit_in_other_words(router, question, said):
    ans = router.answer(question)
    assert said in ans.answer and "未能理解" not in ans.answer, ans.answer


def test_the_key_figures_and_names_the_corpus_prints(corpus_router):
    # 贵州茅台 2025 prints "扣除非经常性损益后的基本每股" | "65.64 68.65 -4.38 59.51" | "收益（元／股）": the row of
    # numbers is no heading "65."; its ROE's change in points; 迈普医学's 法定代表人 after a wrapped Latin name;
    # 宁德时代 by its Latin abbreviation (公司的外文名称缩写 CATL); a plan asked as 派现多少、转增几股
    for q, want in (("贵州茅台2025年扣非后的基本每股收益", "65.64"),
                    ("茅台2025年加权平均ROE比2024年少了多少个百分点？", "3.49个百分点"),
                    ("迈普医学2024年的法定代表人是谁？", "袁玉宇"),
                    ("CATL 2025年末在职员工合计多少人？", "185,839"),
                    ("昭衍新药2024年扣非后的基本每股收益", "0.03")):
        ans = corpus_router.answer(q)
        assert ans.answered and want in ans.answer, (q, ans.answer)


def test_a_plan_asked_by_its_figures(router):
    ans = router.answer("四方科技2019年每10股派现多少、转增几股？")
    assert "1.88元" in ans.answer and "4.8股" in ans.answer and "未能理解" not in ans.answer, ans.answer
    assert not ans.answer.startswith("有送转"), ans.answer   # (how many, not whether)
    assert router.answer("四方科技2019年有送转吗").answer.startswith("有送转"), "a yes/no ask still says so"


def test_a_unit_of_money_asked_of_a_rate_is_said(router):
    # the unit fills its slot but cannot apply: the value as printed, and why the unit was not used
    ans = router.answer("四方科技2019年加权平均净资产收益率是多少万元")
    assert "7.64%" in ans.answer and "不以万元计" in ans.answer, ans.answer
    assert "不以" not in router.answer("四方科技2019年基本每股收益是多少元").answer


def test_a_unit_the_table_prints_is_no_reason_to_decline(router):
    # 邮储银行 2019's segment table under the line "人民币百万元，百分比除外": asked in 人民币百万元, its share answers
    # in the unit it prints
    ans = router.answer("邮储银行2019年个人银行业务营业收入是多少（人民币百万元）？占营业收入的比例是多少？")
    assert "176,569百万元" in ans.answer and "63.79%" in ans.answer, ans.answer
    assert "“百万元”" not in ans.answer and "民币" not in ans.answer.split("（2）")[0].split("：", 1)[-1], ans.answer
    # 人民币 beside the unit is the unit's; anywhere else it is a word of its own (人民币贷款 is no 个人贷款)
    ans = router.answer("邮储银行2019年末人民币存款余额是多少")
    assert "11,289.65" not in ans.answer, ans.answer


def test_a_quarter_and_a_parent_and_a_plan_of_older_layouts(router, corpus_router):
    # 深振业A 2010 prints its parent's columns beside the consolidated ones (本期金额 | 上期金额 over 合并 | 母公司 |
    # 合并 | 母公司) and its plan in the 董事会报告 (p.33: 每10股送3股派发现金股利0.6元, 共派送228,232,467股); 宁德时代 2025
    # prints its 分季度 header alone at p.11's foot, the rows on p.12
    for q, want in (("深振业A 2010年母公司营业收入是多少？", "1,885,874,125.48"),
                    ("深振业A 2010年营业收入是多少？", "2,338,734,540.68"),
                    ("深振业A 2010年度的利润分配方案，每10股送几股、派多少现金？", "每10股送红股3股"),
                    ("深振业A 2010年度利润分配方案：合计送股多少股？", "228,232,467"),
                    ("宁德时代2025年Q4营收多少", "140,629,847"),
                    ("宁德时代2025年第一季度归属于上市公司股东的净利润", "13,962,558")):
        ans = corpus_router.answer(q)
        assert ans.answered and want in ans.answer, (q, ans.answer)
    ans = corpus_router.answer("深振业A 2010年度的利润分配方案，每10股送几股、派多少现金？")
    assert "0.6元" in ans.answer and ans.found, ans.answer
    # a quarter said once before two items joined by 和 is each one's
    ans = router.answer("张家界2016年第三季度营业收入和归属于上市公司股东的净利润分别是多少")
    assert "213,796,109.74" in ans.answer and "61,413,404.97" in ans.answer, ans.answer
    assert "1,939,002.32" not in ans.answer and "-35,306,560.25" not in ans.answer, ans.answer


def test_words_of_a_measure_a_unit_or_a_request(router, corpus_router):
    # 摊薄 makes another ROE than the average equity's: declined, never the formula's 24.72%; 加权 is the printed one
    ans = corpus_router.answer("宁德时代2025年摊薄净资产收益率是多少")
    assert not ans.answered and "24.72" not in ans.answer and "摊薄" in ans.answer, ans.answer
    for q, want in (("宁德时代2025年加权净资产收益率是多少", "24.91%"),
                    # the request before the first ask, the unit said in words (用亿元表示), 合并 of a formula spelled
                    ("帮我查一下贵州茅台2025年第二季度营业收入，用亿元表示", "387.88亿元"),
                    ("贵州茅台2025年净利润率是多少？用合并净利润除以营业收入，保留两位小数", "50.53%"),
                    # items added with + and over a whole; 境外 is the row's own word (境外会计师事务所名称)
                    ("迈普医学2024年销售费用+管理费用+财务费用占营收的比重（2位小数）", "40.48%"),
                    ("昭衍新药2024年聘请的境外会计师事务所是哪家？", "毕马威会计师事务所")):
        ans = corpus_router.answer(q)
        assert ans.answered and want in ans.answer and "未能理解" not in ans.answer, (q, ans.answer)
    assert "华振" not in corpus_router.answer("昭衍新药2024年聘请的境外会计师事务所是哪家？").answer
    for q, want in (("张家界2016年三项期间费用（销售、管理、财务）合计多少？", "127,219,473.74"),
                    ("张家界2016年销售费用+管理费用是多少", "110,971,398.21"),
                    # the signing accountants as a list, each title dropped, names apart
                    ("金宇生物2020年年报的签字注册会计师", "陈志芳、李瑶"),
                    ("海翔药业2019年签字注册会计师是谁", "沈维华、汪兢")):
        ans = router.answer(q)
        assert ans.answered and want in ans.answer, (q, ans.answer)


def test_a_total_of_shares_the_plan_does_not_print_is_said(router):
    # "转增多少股" of a plan printing only its shares per 10: said not printed, counted as a part unanswered — never
    # dropped; "每10股…转增几股" asks the shares per 10
    ans = router.answer("四方科技2019年利润分配预案是怎样的？现金分红总额多少，转增多少股？")
    assert "4.8股" in ans.answer and "未直接载明" in ans.answer and ans.partial and not ans.found, ans.answer
    ans = router.answer("四方科技2019年每10股派现多少、转增几股？")
    assert "未直接载明" not in ans.answer and "4.8股" in ans.answer, ans.answer


@pytest.mark.parametrize("name,least,short", [("analyst_questions_fresh6.jsonl", 15, 6), ("analyst_questions_fresh7.jsonl", 20, 6),
                                              ("analyst_questions_fresh8.jsonl", 25, 6), ("analyst_questions_fresh9.jsonl", 20, 7),
                                              ("analyst_questions_fresh11.jsonl", 25, 8)])
def test_the_sixth_to_eleventh_fresh_sets_over_the_reports(all_store, tmp_path, name, least, short):
    """tests/data/analyst_questions_fresh6.jsonl … fresh9.jsonl and fresh11.jsonl (issue 45's thirteenth to sixteenth
    and eighteenth stops: 80 questions each a helper wrote from the reports, corpus and banks — fresh9 and fresh11 the
    periodic filings too —, never seeing the rules; 68 / 1 / 10 / 1 at 24d31c5, 65 / 0 / 11 / 4 at 80c1540, 62 / 2 / 14 /
    2 at c0276ac, 60 / 2 / 16 / 2 at 3609479 and 67 / 1 / 10 / 2 at bf04a21, right / partly / declined / wrong, over
    every store) over the store of reports and reports_more: no wrong answer of a question on those companies (万科A
    2009, of the corpus, is declined: this store lacks it)."""
    rows = [r for r in _scored(all_store, name, tmp_path) if any(n in r["question"] for n in _REPORTS_COMPANIES)]
    wrong = [(r["id"], r["question"], r["answer"][:200]) for r in rows if r["verdict"] == "wrong"]
    assert not wrong, wrong
    assert len(rows) >= least and sum(r["verdict"] == "right" for r in rows) >= len(rows) - short


def test_a_review_of_the_shared_columns_and_kinds(router, corpus_router):
    # a year's value asked beside a quarter is never a quarter's ("营业收入和第四季度归母净利润"); a plan asked per 10
    # shares of a plan printed per share; a sum spelled with + never named by the formula one of its terms names
    ans = corpus_router.answer("宁德时代2025年营业收入和第四季度归母净利润分别是多少")
    assert "营业收入（第四季度" not in ans.answer and "营业收入（第一季度" not in ans.answer, ans.answer
    for q, want, absent in (("贵州茅台2025年每10股派多少现金、送几股", "279.93", "每股的数"),
                            ("贵州茅台2025年销售费用+研发费用占营业收入的比例", "4.41%", "研发费用率"),
                            ("深振业A2010年共送红股多少股", "228,232,467", "未直接载明")):
        ans = corpus_router.answer(q)
        assert want in ans.answer and absent not in ans.answer, (q, ans.answer)
    # an organisation's 公司 before 的贷款 names no 公司贷款; a 借记卡存款 under 个人银行业务 is no 个人存款
    assert "1,826.73" not in router.answer("邮储银行2019年公司贷款余额是多少").answer
    assert "30,899.56" not in router.answer("邮储银行2019年个人存款余额是多少？占比？").answer
    # a share asked is never a change column's (变动比例); a row asked, another row, then its change: both said
    ans = router.answer("四方科技2019年销售费用是多少？占营业收入的比重是多少？")
    assert "-4.49" not in ans.answer and "3.18%" in ans.answer, ans.answer
    ans = router.answer("张家界2016年财务费用和销售费用分别是多少元？财务费用同比增长了多少？")
    assert "16,248,075.53" in ans.answer and "97.33%" in ans.answer, ans.answer
    # a plan giving none has no total to say
    assert "未直接载明" not in router.answer("华锦股份2019年利润分配预案是怎样的？转增多少股？").answer


def test_a_second_review_of_the_mends(router, corpus_router):
    # a row listed with another (销售费用和管理费用) and asked again for its change: its value said too
    ans = router.answer("张家界2016年销售费用和管理费用分别是多少元？管理费用同比增长了多少？")
    assert "76,753,860.33" in ans.answer and "19.89%" in ans.answer, ans.answer
    # cash asked with 合计/共: the cash total, never a total of shares
    ans = corpus_router.answer("深振业A2010年合计派送现金红利多少元")
    assert "45,646,493.58" in ans.answer and "合计送红股" not in ans.answer, ans.answer


def test_a_note_read_under_its_own_heading(router, corpus_router):
    # the notes' headings kept through a table's row labels numbered like them ("四、账面价值"): a row of a note
    # named with its note ("税金及附加里，城市维护建设税") is that note's row, not 应交税费's
    ans = corpus_router.answer("宝信软件2025年税金及附加里，城市维护建设税是多少？")
    assert "22,367,760.58" in ans.answer and "62、" in ans.answer, ans.answer
    ans = router.answer("四方科技2019年销售费用中的运输费是多少？")
    assert "11,995,769.65" in ans.answer, ans.answer


def test_a_name_asked_is_never_a_row_of_years(router):
    # "控股股东是谁": no row of the dividends' table of years (its 股 a unit word, 控股股东 an appositive), nor a
    # header's pieces ("控股股东名（成立日）"); the controlling holder read below its wrapped header cell (控股股东名 / 称)
    for q in ("海翔药业2019年的控股股东是谁？", "海翔药业2019年控股股东名称？"):
        ans = router.answer(q)
        assert "现金分红" not in ans.answer and "成立日）" not in ans.answer, (q, ans.answer)
    ans = router.answer("海翔药业2019年的控股股东和实际控制人分别是谁？")
    assert "浙江东港投资有限公司" in ans.answer and "王云富" in ans.answer, ans.answer
    # a disclosure read from a table's column is quoted as the table prints it, never as the rule's pattern
    ans = router.answer("常柴股份2019年的实际控制人是谁？")
    assert "实际控制人名称：常州市人民政府国有资产监督管理委员会" in ans.answer and "(?:" not in ans.answer, ans.answer
    assert "是谁（" not in ans.answer, ans.answer


def test_items_a_source_left_out_are_read_one_by_one(router):
    # 控股股东 from its disclosure, 实际控制人 (in no disclosure of 华锦) from the row of its table: both, the year's
    # note said once
    ans = router.answer("华锦股份的控股股东和实际控制人分别是谁？")
    assert "北方华锦化学工业集团有限公司" in ans.answer and "中国兵器工业集团有限公司" in ans.answer, ans.answer
    assert ans.answer.count("问题没有指明年份") == 1, ans.answer


def test_an_amount_asked_is_never_a_provisions_rate(corpus_router):
    # keyword_tables/cells.yaml column_qualifiers: a 计提比例 column (its header's lines joined: "跌价准备计提 比例")
    # answers no 坏账准备 / 跌价准备 amount asked, only a 比例 asked
    ans = corpus_router.answer("百诚医药2023年末库存商品计提的存货跌价准备金额是多少？")
    assert "1,248,603.72" in ans.answer and "6.16%" not in ans.answer, ans.answer
    ans = corpus_router.answer("百诚医药2023年末库存商品的跌价准备计提比例是多少")
    assert "6.16%" in ans.answer, ans.answer


def test_analysts_shorthand(corpus_router):
    # a code and a year a space apart ("600519 25年"), EPS in any case, ROE computed beside the printed weighted one
    ans = corpus_router.answer("600519 25年扣非归母净利润给一下")
    assert "82,293,107,655.25" in ans.answer, ans.answer
    ans = corpus_router.answer("迈普医学24年eps？")
    assert "基本每股收益" in ans.answer and "1.2" in ans.answer, ans.answer
    ans = corpus_router.answer("宝信软件25年ROE多少")
    assert "计算公式" in ans.answer and "年报披露的加权平均净资产收益率为11.88%" in ans.answer, ans.answer
    ans = corpus_router.answer("宝信软件25年ROE比24年掉了几个点")
    assert ans.method != "declined" and "20.67%" in ans.answer and "11.88%" in ans.answer, ans.answer


def test_the_year_ends_date_in_brackets(router):
    # "上年末（2018年12月31日）" of 2019: the bracket restates the period (the year before's end), read as agreeing
    ans = router.answer("惠威科技2019年固定资产的上年末（2018年12月31日）是多少？")
    assert "118,351,232.99" in ans.answer, ans.answer
    ans = router.answer("惠威科技2019年固定资产的上年末（2019年12月31日）是多少？")
    assert ans.method == "declined" and "118,351,232.99" not in ans.answer, ans.answer


def test_a_review_of_the_fourteenth_stop(router, corpus_router):
    # 去年末 is an opening, its bracket read as agreeing; a fall asked in 几个点 keeps its points
    ans = router.answer("四方科技2019年去年末（2018年12月31日）货币资金是多少？")
    assert "627,041,535.44" in ans.answer and "905,402,299.44" not in ans.answer, ans.answer
    ans = router.answer("四方科技2019年毛利率降了几个点？")
    assert "3.59个百分点" in ans.answer, ans.answer
    # an item a source left out is filled only by its own value read, never a cell found for its words elsewhere
    ans = corpus_router.answer("百克生物2022年的控股股东和实际控制人是谁？")
    assert "股股东期" not in ans.answer and "承诺" not in ans.answer, ans.answer


def test_a_flow_of_the_year_is_no_balance_at_its_end(router):
    # a sentence's "本期计提坏账准备604,885.31元" (the year's provision) answers no 坏账准备 at the year's end
    ans = router.answer("四方科技2019年末按组合计提坏账准备的应收账款，坏账准备金额是多少？")
    assert "604,885.31" not in ans.answer, ans.answer


def test_a_row_asked_where_the_question_looks(router, corpus_router):
    # a note's row asked inside its item's note: "X中/里/明细里/项下 Y", "X按类别划分，其中Y", "X按账龄披露，Y" — the row
    # Y of X's table, never X's own total nor a row named X in another table (政府补助基本情况's 营业外收入)
    for q, want, absent in (
            ("海翔药业2019年末短期借款按类别划分，其中信用借款余额是多少？", "150,200,529.59", ""),
            ("海翔药业2019年末短期借款中信用借款是多少？", "150,200,529.59", ""),
            ("生物股份2020年末应收账款按账龄披露，2至3年账龄的账面余额是多少？", "104,385,792.00", ""),
            ("惠威科技2019年营业外收入中的政府补助是多少元？", "3,528,369.20", "50,000.00"),
            ("张家界2016年销售费用明细中的广告宣传费是多少？", "12,294,503.31", ""),
            ("海翔药业2019年年报的主要会计数据中，2017年归属于上市公司股东的净利润是多少？", "342,217,155.60", "")):
        ans = router.answer(q)
        assert ans.answered and want in ans.answer and (not absent or absent not in ans.answer), (q, ans.answer)
    # 违约金 is no approximation (约); the note's row is read under the note's heading, its caption a header's words
    ans = corpus_router.answer("深振业A 2010年营业外收入中的违约金收入是多少？")
    assert "38,500.84" in ans.answer and "约数" not in ans.answer, ans.answer
    # a year whose own report the store lacks: the next year's note prints it as its 上期, said so; "同项" the row before
    ans = corpus_router.answer("百诚医药2023年研发费用里的材料费是多少？2022年同项是多少？")
    assert "50,988,892.50" in ans.answer and "15,879,078.61" in ans.answer and "上期数" in ans.answer, ans.answer
    # a balance at the year's end asked of a movement table whose 期末余额 is blank: no 本期增加 for it
    ans = corpus_router.answer("百诚医药2022年末应收账款中1年以内的账面余额是多少？")
    assert "133,448,242.61" in ans.answer, ans.answer


def test_words_analysts_write_for_years_items_and_multiples(router, corpus_router):
    for q, want in (("688222 24年扣非是23年的几倍", "16.64倍"),            # 扣非 alone; a year's value over another's
                    ("宁德时代2025年营业收入是上年的几倍", "1.17倍"),
                    ("300750 FY2025归母多少", "72,201,282,000.00"),       # FY2025, 归母 alone
                    ("宝信软件25年ROE降了几个点", "8.79")):               # the printed ROE's change beside the computed
        ans = corpus_router.answer(q)
        assert ans.answered and want in ans.answer, (q, ans.answer)
    # a bracket restating an opening word with 余额/数 after it: the year before's end agrees, another day declines
    ans = router.answer("生物股份2020年年报里，合并资产负债表在建工程的期初余额（2019年12月31日）是多少？")
    assert "454,439,655.24" in ans.answer, ans.answer
    ans = router.answer("生物股份2020年在建工程的期初余额（2020年12月31日）是多少？")
    assert not ans.answered and "454,439,655.24" not in ans.answer, ans.answer


def test_the_signing_accountants_of_an_older_layout(corpus_router):
    # no 其他有关资料 table lists them: the audit report's signature block ("中国注册会计师" | "有限公司 田景亮")
    ans = corpus_router.answer("深振业A 2010年审计报告上签字的注册会计师是哪两位？")
    assert "田景亮" in ans.answer and "李细辉" in ans.answer, ans.answer


def test_a_review_of_the_fifteenth_stop(router, corpus_router):
    # no opening balance of a year from the next report (its 期初 is the year before's end); a header printing both
    # 本期 and 上期 is neither's column; 扣非/归母 before another item's words qualify it; a multiple of a value below
    # zero is none; an item's name holding 及 is one ask; 期初 inside a row's label asks no opening column; an aging
    # table printing its year end only answers no 期初; a heading, its 单位 line, then the header: a table of its own
    for q, absent in (("惠威科技2018年初应付账款中应付材料款是多少", "20,556,956.33"),
                      ("惠威科技2018年信用减值损失中应收账款坏账损失是多少", "113,332.03"),
                      ("海翔药业2019年扣非ROE是多少", "751,209,860.23"),
                      ("海翔药业2019年归母股东权益是多少", "770,782,185.09"),
                      ("四方科技2019年应收账款期初余额中1年以内的是多少", "32,056,053.95")):
        ans = router.answer(q)
        assert absent not in ans.answer, (q, ans.answer)
    ans = corpus_router.answer("迈普医学2024年财务费用是2023年的几倍")
    assert not ans.answered and "倍数只对两个正数有意义" in ans.answer, ans.answer
    ans = corpus_router.answer("深振业2010年营业税金及附加项下的土地增值税金额是多少")
    assert "171,283,641.41" in ans.answer and "116,562,578.07" not in ans.answer, ans.answer
    for q, want in (("北方华锦2019年同一控制下企业合并产生的子公司期初至合并日净损益贡献了多少？", "62,949,595.78"),
                    ("惠威科技2019年末应付职工薪酬中“工资、奖金、津贴和补贴”期末余额是多少", "6,205,583.18")):
        ans = router.answer(q)
        assert ans.answered and want in ans.answer, (q, ans.answer)


def test_a_column_printing_two_periods_names_answers_no_period(corpus_router):
    # a header of two periods' names run together ("期末余额 期初余额": the reading merged two columns) — which
    # period its value is cannot be told (宁德时代 2025 p.164 prints 1,133,502 under 期末, 期初 blank)
    for q, absent in (("宁德时代2025年衍生金融资产中套期工具期初余额是多少？", "1,133,502"),
                      ("迈普医学2024年衍生金融负债中卖出外汇期权期初余额是多少？", "23,149.21")):
        ans = corpus_router.answer(q)
        assert not ans.answered and absent not in ans.answer, (q, ans.answer)


def test_a_movement_tables_column_is_read_and_a_rows_name_as_printed(router):
    # 本期增加额 of a movement table (应付职工薪酬: 期初 | 本期增加 | 本期减少 | 期末) is its column, never a change
    # computed; a quoted row name is read with its punctuation aside
    ans = router.answer("张家界2016年应付职工薪酬明细里，短期薪酬中“工资、奖金、津贴和补贴”的本期增加额是多少元？")
    assert ans.answered and "78,876,099.18" in ans.answer, ans.answer


def test_a_year_asked_as_restated_or_as_first_reported(router):
    # 调整后: the later report's previous-period column (华锦 2019 restated 2018 after a merger under common
    # control), never the year compared with the year before it; 调整前: as first reported, never the restated one
    ans = router.answer("华锦股份2019年归属于上市公司股东的净利润是多少？与2018年（调整后）相比变动了多少？")
    assert "-13.23%" in ans.answer and "1,144,409,195.72" in ans.answer and "2017年" not in ans.answer, ans.answer
    ans = router.answer("华锦股份2018年调整前的归母净利润是多少")
    assert "1,055,368,991.36" in ans.answer and "1,144,409,195.72" not in ans.answer, ans.answer


def test_a_period_within_a_year_of_a_store_of_annual_reports(router):
    # the half year or the first three quarters asked of annual reports only: said not held — never the year's value
    # (the words matched fuzzily to an item, "上半年经营活动现金流净额", gave the year's); a quarter alone from the
    # year's table of quarters, beside the year's own value
    for q in ("惠威科技2019年上半年营业收入是多少", "惠威科技2019年上半年经营活动现金流净额是多少",
              "惠威科技2019年前三季度营业收入是多少"):
        ans = router.answer(q)
        assert not ans.answered and "274,816,055.36" not in ans.answer, (q, ans.answer)
    ans = router.answer("惠威科技2019年全年营业收入是多少元？其中第四季度营业收入是多少元？")
    assert "274,816,055.36" in ans.answer and "90,923,272.71" in ans.answer, ans.answer


def test_a_second_review_of_the_sixteenth_stop(router, corpus_router):
    # a quarter asked of the year's table of quarters is that quarter's column, never the four; a word setting some
    # apart (非独立董事) or a class of shares (B股, H股) is never dropped for the fact or a fuzzy match (控股股东); the
    # officers are read from their own table, never from a table of options granted to some of them
    ans = router.answer("四方科技2019年第二季度扣非净利润是多少？")
    assert "26,647,911.01" not in ans.answer, ans.answer
    for q, absent in (("迈普医学2024年的非独立董事有哪些？", "袁庆"), ("万科A2009年末B股股东有多少户？", "不存在控股股东"),
                      ("宁德时代2025年末H股股东有多少名？", "厦门瑞庭"), ("昭衍新药2024年的副总经理是谁", "姚大林")):
        ans = corpus_router.answer(q)
        assert absent not in ans.answer, (q, ans.answer)


def test_the_parent_companys_notes_answer_only_the_parent(router):
    # the notes of the parent company's own statements (十七、母公司财务报表主要项目注释) print its figures: a question
    # not asking the parent's is never answered from them (生物股份 2020's 应收账款坏账准备 计提: the group's 5,986,284.73,
    # the parent's 15,842.43; 海翔药业 2019's parent's 按组合计提 row 7,187,815.25)
    ans = router.answer("生物股份2020年应收账款坏账准备本期计提金额是多少？")
    assert "5,986,284.73" in ans.answer and "15,842.43" not in ans.answer, ans.answer
    ans = router.answer("海翔药业2019年应收账款坏账准备本期计提金额是多少元？")
    assert "7,187,815.25" not in ans.answer, ans.answer


def test_an_age_takes_no_unit_of_money(corpus_router):
    # a table of pay in 万元 prints its officers' ages beside it: an age is no amount
    ans = corpus_router.answer("百诚医药2023年财务总监的年龄是多少？")
    assert "33万元" not in ans.answer, ans.answer


def test_what_the_tenth_fresh_set_found(router, corpus_router):
    # a firm's name asked beside its fee: the fee's row ("境内会计师事务所报酬") restates the question's words and
    # names no firm — each ask is answered on its own
    ans = router.answer("张家界2016年聘请的会计师事务所是哪家？审计报酬多少万元？")
    assert "天职国际" in ans.answer and "43万元" in ans.answer, ans.answer
    # a name listed beside a value ("审计机构和境内审计报酬"): a cell of the fee alone answers no firm — never the fee
    # as if it were the whole answer; "审计机构的报酬" is the fee
    ans = router.answer("生物股份2020年报的审计机构和境内审计报酬")
    assert "致同" in ans.answer or not ans.answered, ans.answer
    ans = router.answer("生物股份2020年审计机构的报酬是多少")
    assert ans.answered and "110万元" in ans.answer, ans.answer
    # who holds a post is read from the officers' table, never a passage naming those who left other posts
    ans = corpus_router.answer("昭衍新药2024年报披露的董事长是谁")
    assert not ans.answered and "左从林" not in ans.answer, ans.answer
    ans = router.answer("四方科技2019年的董事长是谁？")
    assert "黄杰" in ans.answer, ans.answer
    # YoY is 同比
    ans = corpus_router.answer("宁德时代2025年归母净利润多少亿元？YoY多少？")
    assert "722.01亿元" in ans.answer and "42.28%" in ans.answer, ans.answer
    # an opening balance of a notes row (年初, 期初) is its table's 期初余额 column
    ans = router.answer("华锦股份2019年末应交税费中的消费税余额是多少？年初是多少？")
    assert "123,440,442.83" in ans.answer and "698,147,587.23" in ans.answer, ans.answer


def test_a_compound_annual_growth_rate_over_the_years_asked(router):
    # (last / first)^(1/n) − 1 of the first and last years asked, both read and cited, the formula said
    ans = router.answer("四方科技2017年至2019年营业收入复合增长率是多少？")
    assert "年均复合增长率为7.94%" in ans.answer and "(1/2)" in ans.answer, ans.answer
    # of a rate: none (its change is in points)
    ans = router.answer("四方科技2017年至2019年毛利率的年均复合增长率")
    assert "7.94%" not in ans.answer and "年均复合增长率为" not in ans.answer, ans.answer


def test_a_stated_ratio_is_the_one_its_words_name(bank_router):
    # 平安银行 p.11: of two capital adequacy ratios in one sentence, the one the named rules compute (11.04%), never the
    # core ratio (核心资本充足率 9.41%: 核心 narrows it) nor another rules' (9.90%)
    ans = bank_router.answer("平安银行2013年末按《商业银行资本充足率管理办法》计算的资本充足率是多少？")
    assert "资本充足率：11.04%" in ans.answer, ans.answer


def test_a_shareholders_count_is_the_holding_never_the_pledged(router):
    # 惠威科技 2019 p.38: HONGBO YAO 78,269,616 shares, 2,500,000 of them pledged (质押或冻结情况 | 数量)
    ans = router.answer("惠威科技2019年HONGBOYAO持有多少股，持股比例是多少？")
    assert "78,269,616" in ans.answer and "62.78%" in ans.answer and "2,500,000" not in ans.answer, ans.answer


def test_a_qualified_column_answers_only_its_own_kind(router):
    # 邮储银行 2019 p.82: a 不良贷款余额 column is no 贷款余额 (个人住房贷款余额 is 1.70万亿元, p.52)
    ans = router.answer("邮储银行2019年个人住房贷款余额多少？")
    assert "6,489" not in ans.answer, ans.answer
    # shares pledged or frozen are no holding, and are read where asked (生物股份 2020 p.50)
    ans = router.answer("安靠智电2019年报中陈晓晖的持股数量和持股比例")
    assert "28,500,000" in ans.answer and "28.50%" in ans.answer, ans.answer
    ans = router.answer("生物股份2020年内蒙古金宇生物控股有限公司质押了多少股")
    assert "18,000,000" in ans.answer, ans.answer
    # where 质押 is asked, only the pledge column answers (exclusive): never the holding (惠威科技 2019: 2,500,000 of
    # HONGBO YAO's 78,269,616 shares pledged)
    ans = router.answer("惠威科技2019年HONGBOYAO质押了多少股？")
    assert "2,500,000" in ans.answer and "78,269,616" not in ans.answer, ans.answer
    ans = router.answer("惠威科技2019年HONGBOYAO质押股份数量是多少？")
    assert "78,269,616" not in ans.answer, ans.answer
    # the kind is the ask's own: a holding asked beside a pledge is read from the holding's column
    ans = router.answer("内蒙古金宇生物控股有限公司2020年末持有生物股份多少股？占比多少？其中质押了多少股？")
    assert all(v in ans.answer for v in ("122,304,000", "10.86%", "18,000,000")), ans.answer


def test_a_firm_and_its_fee_asked_apart_and_a_notes_rows_opening(router, corpus_router):
    # "会计师事务所是哪家？报酬多少？": the name on its own, the fee from the table (never the officers' pay passage)
    ans = router.answer("张家界2016年聘请的会计师事务所是哪家？报酬多少？")
    assert "天职国际" in ans.answer and "43万元" in ans.answer and "董事、监事" not in ans.answer, ans.answer
    ans = corpus_router.answer("昭衍新药2024年聘请的境内会计师事务所是哪家？报酬是多少？")
    assert "毕马威华振" in ans.answer and "高级管理人员报酬" not in ans.answer, ans.answer
    # an opening balance of a notes row its table does not read: declined, never the item's total (45,635,327.56)
    ans = router.answer("四方科技2019年其他应付款中押金保证金期初余额")
    assert "45,635,327.56" not in ans.answer, ans.answer
    # a movement table's 期初余额 row is read as before
    ans = router.answer("四方科技2019年固定资产中机器设备账面原值期初余额")
    assert "240,717,209.87" in ans.answer, ans.answer


def test_fees_of_two_firms_and_a_post_from_no_table(router, corpus_router):
    # "境内和境外会计师事务所的报酬": the firms' fees (的 after the list), no name asked — answered
    ans = corpus_router.answer("昭衍新药2024年境内会计师事务所和境外会计师事务所的报酬分别是多少")
    assert "1,000,000元" in ans.answer, ans.answer
    # a firm printed over its fee answers the name listed beside it
    ans = router.answer("惠威科技2019年审计机构以及审计报酬")
    assert "亚太" in ans.answer and "40" in ans.answer, ans.answer
    # a post's holder from no table cell the officers' rule could not read (宁德时代 2025: 潘健 is 联席董事长)
    ans = corpus_router.answer("宁德时代2025年的董事长和总经理分别是谁")
    assert "潘健" not in ans.answer, ans.answer


def test_what_narrows_an_ask_carries_and_a_holders_shares(router):
    # a subsidiary's row answering an ask narrows the next ("…金宇保灵生物药品有限公司赚了多少（净利润）？营业收入多少？":
    # the subsidiary's 105,586万元, never the company's 1,581,905,632.48元)
    ans = router.answer("金宇生物2020年研发投入合计是多少？另外，金宇保灵生物药品有限公司赚了多少（净利润）？营业收入多少？")
    assert "105,586万元" in ans.answer and "1,581,905,632.48" not in ans.answer, ans.answer
    # a kind of part (…产生的子公司, a row's name) narrows no next ask
    ans = router.answer("华锦股份2019年非经常性损益中，同一控制下企业合并产生的子公司期初至合并日的当期净损益是多少？全年非经常性损益合计多少？")
    assert "106,692,303.31" in ans.answer, ans.answer
    # a post named beside its holder asks the holder's shares, not who holds it
    ans = router.answer("四方科技董事长黄杰2019年末持有公司多少股，占比多少？")
    assert "84,187,105" in ans.answer, ans.answer


def test_a_thing_listed_beside_a_name_is_never_dropped(router):
    # "会计师事务所名称和报酬": the name, and the fee said unanswered where nothing here reads it — never the name alone as
    # if it answered both
    ans = router.answer("苏常柴2019年会计师事务所名称和报酬是什么")
    assert "公证天业" in ans.answer and "报酬未能查询到" in ans.answer and "报酬" in ans.partial, ans.answer


def test_a_place_before_the_companys_name_is_its_subsidiary(router, corpus_router):
    # "青岛万科": 青岛万科企业有限公司 of 万科A 2012's 主要全资附属企业 (p.9: 附属企业, a subsidiary as Hong Kong filings
    # say it) — never the joint venture printed 青岛 (p.150: -5,257,887.18), nor the year twice in the column said
    ans = router.answer("青岛万科2012年净利润多少")
    assert ans.answered and "48,075.25" in ans.answer and "5,257,887.18" not in ans.answer, ans.answer
    assert "2012年2012年" not in ans.answer
    ans = router.answer("万科2012年子公司青岛万科的净利润多少")
    assert ans.answered and "48,075.25" in ans.answer, ans.answer
    ans = corpus_router.answer("深圳迈普再生医学2024年的净利润是多少？")
    assert ans.answered and "8,249,773.93" in ans.answer, ans.answer
    # a place and the parent's name with no such subsidiary is declined — never the joint venture printed 天津
    # (p.149: -2,704,476.94); one beginning so with a name of its own after them (深圳万科恒大物业) is not surely
    # it: declined, its name said (never its 41,169.08, nor the joint venture 深圳's -15,017,816.32)
    for q, never in (("天津万科2012年净利润多少", "2,704,476.94"), ("深圳万科2012年净利润是多少？", "41,169.08")):
        ans = router.answer(q)
        assert not ans.answered and never not in ans.answer and "15,017,816.32" not in ans.answer, (q, ans.answer)
    # a word before the company's name that is no place, or a part of a registered name, names no subsidiary
    assert "48,075.25" not in router.answer("请问万科2012年净利润多少").answer
    ans = router.answer("能不能帮我算算惠威科技2019年存货与应收账款之比")
    assert ans.answered and "11.53" in ans.answer, ans.answer
    ans = router.answer("生物股份2020年内蒙古金宇生物控股有限公司持股比例")
    assert ans.answered and "10.86%" in ans.answer, ans.answer


def test_a_table_of_the_holders_lent_shares_ranks_none(corpus_router):
    # 昭衍新药 2024 p.80 "…参与转融通业务出借股份情况" lists the shares lent (its rows' 比例 0%): no 第一大股东 there —
    # the top ten's table (p.78, "不含通过转融通出借股份") ranks them
    ans = corpus_router.answer("昭衍新药2024年第一大股东及持股比例")
    assert ans.answered and "冯宇霞" in ans.answer and "22.30%" in ans.answer, ans.answer
    ans = corpus_router.answer("成都先导2024年第一大股东是谁")
    assert ans.answered and "JIN LI" in ans.answer, ans.answer


def test_a_notes_table_is_no_table_of_the_column_it_prints(router):
    # 惠威科技 2019 p.135: 营业外收入's column 计入当期非经常性损益的金额, its first line set above the header's, was
    # read as the caption's tail ("74、营业外收入 单位：元 计入当期非经常性损益的金"): the non-recurring total was the
    # note's 合计 4,081,315.08 — it is the key table's 8,813,084.38 (p.7)
    ans = router.answer("惠威科技2019年非经常性损益总计多少？")
    assert ans.answered and "8,813,084.38" in ans.answer and "4,081,315.08" not in ans.answer, ans.answer
    ans = router.answer("惠威科技2019年营业外收入中的政府补助是多少元？")
    assert ans.answered and "3,528,369.20" in ans.answer and "非经常性损益的金」" not in ans.answer, ans.answer
    # … and the column of the amounts counted in 非经常性损益 answers no plain amount asked (one value, this year's)
    assert "528,369.20元）" not in ans.answer.replace("3,528,369.20元", "") and "9,121,700.00" not in ans.answer


def test_an_asks_own_row_reads_its_own_column(router):
    # "…占年度采购总额多少？其中张家界新泰天燃气有限责任公司的采购额是多少？" (张家界 2016 p.19): the supplier's 采购额
    # 6,435,000.00 — never the share column the ask before read of 合计 (16.33%)
    ans = router.answer("张家界旅游2016年前五名供应商合计采购金额是多少？占年度采购总额多少？其中张家界新泰天燃气有限责任公司的采购额是多少？")
    assert all(v in ans.answer for v in ("17,817,700.00", "45.21%", "6,435,000.00")) and "16.33%" not in ans.answer, ans.answer
    # a header compared with the ask's words its value word (数, 额) aside, as theirs is: the share column
    # 累计变更用途的募集资金总额比例 is never the amount asked
    ans = router.answer("惠威科技2019年首次公开发行的募集资金总额是多少万元？")
    assert "24.46%" not in ans.answer, ans.answer


def test_a_compound_growth_rate_whose_first_year_is_not_held(router):
    # this store holds 万科A 2012 only: its table prints 2010—2012, not 2009 — the rate asked over 2009—2012 is said not
    # computed (partly), never the years held listed as if they answered it
    ans = router.answer("万科A从2009年到2012年营业收入的年均复合增长率（CAGR）是多少？")
    assert "年均复合增长率无法计算（2009年的营业收入未查询到）" in ans.answer and ans.partial, ans.answer


def test_an_opinion_on_buying_is_declined_as_such(router):
    # "值得买入吗", "能买吗", "股价还会涨吗": no report says it — declined as an investment opinion, never a passage
    # of the report (贵州茅台's audit report was quoted); a past price change or an item named 买入返售 is no opinion
    for q in ("四方科技现在这个价位值得买入吗？", "海翔药业的股票还能涨吗", "现在适合买入万科吗？", "张家界股价会不会跌"):
        ans = router.answer(q)
        assert not ans.answered and "投资判断" in ans.answer, (q, ans.answer)
    for q in ("海翔药业2019年买入返售金融资产是多少", "四方科技2019年值得关注的风险有哪些"):
        assert "投资判断" not in router.answer(q).answer, q
