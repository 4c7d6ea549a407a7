"""Question plans (issue 23): a question asking several things is cut into asks (rules/plan.yaml), each
answered on its own, reviewed (fin_qa/answer/review.py) and composed in order — from the CLI and the API.

The values asserted were read on the pages the answers cite (四方科技 2019: 营业收入 1,175,301,034.32 and
净利润 129,465,020.68 on p.63-64; 罐式集装箱 764,321,152.14 on p.11; …).
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import CATALOG, ROOT
from serving import ServerProcess, request, server_env

DATA = ROOT / "tests" / "data"


@pytest.fixture(scope="module")
def router(all_store):
    from fin_qa.answer.facts import FactSource
    from fin_qa.answer.router import Router

    store, _ = all_store
    return Router(FactSource(store), CATALOG)


def ask(router, q: str):
    return router.answer(q)


def digits(text: str) -> str:
    return text.replace(",", "")


# ------------------------------------------------------------------------------------------- the table

def test_two_values_and_both_growth_rates(router):
    a = ask(router, "四方科技2019年的营业收入和净利润分别是多少？同比增长了多少？")
    assert a.found and a.method == "plan" and len(a.asks) == 2
    text = digits(a.answer)
    for v in ("1175301034.32", "129465020.68", "-4.49%", "-28.95%"):
        assert v in text, (v, a.answer)
    assert a.asks[1]["inherits"] and "营业收入和净利润同比" in a.asks[1]["question"]


def test_controlling_shareholder_and_its_share(router):
    # 生物股份 has none ("本公司股权结构较为分散，不存在控股股东"): the share is said not to apply
    a = ask(router, "生物股份2020年控股股东是谁？持股比例是多少？")
    assert "不存在控股股东" in a.answer and "不适用" in a.answer and "33.23" not in a.answer
    assert a.partial and not a.found
    # 华锦股份's is named, and its share read from the 前10名股东 row that names it
    a = ask(router, "华锦股份2019年的控股股东是哪家公司？持股比例是多少？")
    assert a.found and "北方华锦化学工业集团有限公司" in a.answer and "32.16%" in a.answer
    cells = [e for e in a.asks[1]["evidence"] if "row" in e]
    assert cells and cells[0]["row"] == "北方华锦化学工业集团有限公司"
    # a back-reference (其) takes the name the ask before answered
    a = ask(router, "四方科技2019年控股股东是谁？其期末持股数量是多少？")
    assert "黄杰" in a.answer and "84187105" in digits(a.answer)


def test_yes_no_with_an_item_name_is_never_the_item_value(router):
    a = ask(router, "四方科技2019年是否存在控股股东及其关联方非经营性占用资金的情况？")
    assert "黄杰" not in a.answer
    assert a.answer.startswith(("否", "是")) or a.method == "declined", a.answer
    a = ask(router, "海翔药业2019年控股股东有没有非经营性占用公司资金？")
    assert a.answer.startswith("否") and "非经营性占用资金" in a.answer


def test_spelled_formula_is_computed_as_written(router):
    a = ask(router, "四方科技2019年末速动比率是多少？按(流动资产-存货)/流动负债计算，保留两位小数。")
    # (1,639,379,320.41 − 637,768,124.78) / 696,435,257.06 = 1.438…
    assert "1.44" in a.answer and "流动资产合计-存货" in a.answer and "3.27" not in a.answer
    a = ask(router, "四方科技2019年用流动资产减去存货再除以流动负债来算，速动比率是多少？")
    assert "1.44" in a.answer


def test_auditor_and_fee(router):
    a = ask(router, "海翔药业2019年聘请的会计师事务所是哪家？审计报酬是多少？")
    assert a.found and "天健会计师事务所" in a.answer and "170万元" in a.answer


def test_dividend_per_ten_shares_and_total(router):
    a = ask(router, "生物股份2020年度利润分配预案是每10股派多少元？合计派发现金红利多少元？")
    assert a.found and "1.2元" in a.answer and "134971287.12" in digits(a.answer)


def test_two_values_and_which_is_higher(router):
    a = ask(router, "生物股份2020年销售费用和管理费用分别是多少？哪一项更高？")
    assert a.found and "销售费用更高" in a.answer
    assert a.asks[1]["kind"] == "compare" and a.asks[1]["method"] == "compare_asks"
    a = ask(router, "生物股份2020年销售费用和管理费用分别是多少？哪个更低？")
    assert "管理费用更低" in a.answer
    # after a change asked, the growth rates computed from the values read (40.39% and 86.16%)
    a = ask(router, "生物股份2020年营业收入和净利润同比增长了多少？哪个增长更快？")
    assert a.found and "净利润更快" in a.answer and "40.39%" in a.answer and "86.16%" in a.answer
    # …never the amounts when no change was asked: their rates were never read
    a = ask(router, "生物股份2020年营业收入是多少？净利润是多少？两者哪个增长更快？")
    assert a.partial and "无法比较" in a.answer.splitlines()[2]
    assert "营业收入更快" not in a.answer and "净利润更快" not in a.answer


def test_a_reference_to_every_ask_before(router):
    # 二者: both subjects, answered item by item (张家界 2016: 营业收入 -12.25%, 归母净利润 -46.54%)
    a = ask(router, "张家界2016年营业收入是多少？归属于上市公司股东的净利润是多少？二者同比各变动了多少？")
    assert a.found and a.asks[2]["together"] and "-12.25%" in a.answer and "-46.54%" in a.answer


def test_segment_revenue_and_its_share(router):
    a = ask(router, "四方科技2019年罐式集装箱业务的营业收入是多少？占营业收入的比重是多少？")
    assert a.found and "764321152.14" in digits(a.answer)
    # no table prints the share: computed from the two values read, and said so
    assert "65.03%" in a.answer and "÷" in a.answer
    assert a.asks[1]["method"] == "share_asks" and len(a.asks[1]["evidence"]) == 2


def test_region_row(router):
    a = ask(router, "海翔药业2019年来自国外的营业收入是多少？")
    assert a.found and "1428552746.12" in digits(a.answer) and "国外" in a.answer


def test_share_of_three_expenses_is_a_percentage(router):
    a = ask(router, "四方科技2019年三费合计占营业收入的比重是多少？")
    assert "6.15%" in a.answer


def test_rankings_keep_their_count(router):
    a = ask(router, "哪三家公司2019年营业收入最高？")
    assert a.method == "statistics" and all(f"{n}. " in a.answer for n in (1, 2, 3))
    a = ask(router, "2019年注册地址在江苏的哪两家公司净利润最高？")
    assert "1. 四方科技" in a.answer and "2. 苏常柴" in a.answer and "江苏" in a.answer


# ------------------------------------------------------------------------------------------- plans and review

def test_an_item_inside_another_is_answered_from_its_own_line(router):
    a = ask(router, "安靠智电2019年营业外收入占营业收入的比重是多少？")
    # the 营业收入构成 table's 营业收入合计 row (100%) is not 营业外收入: the two items' own lines answer
    assert "100%" not in a.answer and "0.01%" in a.answer and a.method == "formula"


def test_a_bracket_restating_the_period(router):
    a = ask(router, "四方科技2019年年初（即2018年末）的货币资金是多少？")
    assert a.found and "627041535.44" in digits(a.answer)
    a = ask(router, "四方科技2019年末（2019年12月31日）的存货是多少？")
    assert a.found and "637768124.78" in digits(a.answer)
    a = ask(router, "四方科技2019年初（即2019年末）的存货是多少？")
    assert not a.found and a.method == "declined" and "不一致" in a.answer
    a = ask(router, "四方科技2019年末存货是多少？年初（即2018年末）呢？")
    assert a.found and "637768124.78" in digits(a.answer) and "601968438.28" in digits(a.answer)


def test_an_unanswerable_ask_is_said_in_place(router):
    a = ask(router, "四方科技2019年营业收入是多少？光伏业务的营业收入是多少？")
    assert a.partial and not a.found and "1175301034.32" in digits(a.answer)
    assert a.answer.splitlines()[1].startswith("（2）") and "光伏" in a.answer.splitlines()[1]
    assert [x["found"] for x in a.asks] == [True, False]


def test_explanations_and_single_questions_are_not_cut(router):
    for q in ("什么是资本预算？如何进行资本预算决策？", "四方科技2019年营业收入是多少？"):
        assert ask(router, q).asks is None


def test_relative_year_comparison_of_a_text_fact(router):
    # the year before has no report in the store: said so (not declined for the word 上年)
    for q in ("四方科技2019年法定代表人与上年相比相同吗？", "四方科技2019年的注册地址与去年相比有变化吗？"):
        a = ask(router, q)
        assert "2018年的年报" in a.answer, a.answer


def test_planner_cuts_clauses_and_modifiers(router):
    p = router.planner.plan("四方科技2019年末流动比率是多少？速动比率呢？请保留两位小数。")
    assert [a.words for a in p.asks] == ["四方科技2019年末流动比率是多少?", "速动比率呢?请保留两位小数。"]
    assert p.asks[1].text == "四方科技2019年末速动比率呢?请保留两位小数。" and not p.every
    p = router.planner.plan("四方科技2019年营业收入是多少？净利润是多少？均以万元为单位。")
    assert p.every == ["均以万元为单位。"] and all(a.text.endswith("均以万元为单位。") for a in p.asks)
    p = router.planner.plan("四方科技2019年末速动比率是多少？按(流动资产-存货)/流动负债计算，保留两位小数。")
    assert len(p.asks) == 1
    p = router.planner.plan("华锦股份2019年前五名客户合计销售金额是多少，占年度销售总额的比例是多少？")
    assert len(p.asks) == 2 and p.asks[1].inherits


def test_every_clause_of_every_question_set_is_in_the_plan(router):
    """No clause is dropped: the asks' words and the clauses that apply to every ask hold every content
    character of each question of tests/data (punctuation aside)."""
    questions = []
    for f in sorted(DATA.glob("*.jsonl")):
        questions += [json.loads(l)["question"] for l in f.read_text(encoding="utf-8").splitlines() if l.strip()]
    for f in sorted(DATA.glob("*questions*.yaml")):
        questions += [e["q"] for e in yaml.safe_load(f.read_text(encoding="utf-8"))["questions"]]
    assert len(questions) > 1000
    content = re.compile(r"[^\u4e00-\u9fffA-Za-z0-9]")
    for q in questions:
        p = router.planner.plan(router.planner.restate(q)[0])
        kept = content.sub("", "".join(a.words for a in p.asks) + "".join(p.every) + "".join(p.marks))
        assert sorted(kept) == sorted(content.sub("", p.norm)), (q, [a.words for a in p.asks], p.every)


def test_ask_json_and_api_carry_the_asks(all_store):
    store, _ = all_store
    q = "生物股份2020年销售费用和管理费用分别是多少？哪一项更高？"
    code = "import sys; from fin_qa.cli import main; sys.exit(main())"
    out = subprocess.run([sys.executable, "-c", code, "ask", q, "--store", str(store.dir), "--json"],
                         capture_output=True, text=True)
    record = json.loads(out.stdout)
    assert [a["kind"] for a in record["asks"]] == ["value", "compare"]
    assert record["asks"][0]["evidence"] and "销售费用更高" in record["answer"]
    srv = ServerProcess("--store", str(store.dir), env=server_env())
    try:
        reply = request(srv.base, "/api/ask", {"question": q})
        assert reply.status == 200
        body = reply.json()
        assert body["answer"] == record["answer"] and [a["kind"] for a in body["asks"]] == ["value", "compare"]
    finally:
        srv.stop()


# ------------------------------------------------------------------------------------------- company names

def test_company_names_full_width_letters_regions_and_groups():
    from fin_qa.store import Report
    from fin_qa.understand.entities import CompanyIndex

    reports = [Report(1, "000002:2012", "000002", 2012, "万科企业股份有限公司", "万科Ａ"),
               Report(2, "600519:2021", "600519", 2021, "贵州茅台酒股份有限公司", "贵州茅台"),
               Report(3, "002099:2019", "002099", 2019, "浙江海翔药业股份有限公司", "海翔药业"),
               Report(4, "601600:2019", "601600", 2019, "中国铝业股份有限公司", "中国铝业")]
    idx = CompanyIndex(reports, 80, CATALOG.understanding.company_names)

    def named(q: str) -> list[str]:
        return [m.company.stock_code for m in idx.find(q)]

    # a name printed with a full-width letter is found typed with A, without the letter, or as printed
    for q in ("万科A2012年营业收入是多少？", "万科2012年营业收入是多少？", "万科Ａ2012年营业收入是多少？"):
        assert named(q) == ["000002"], q
    # a region-prefixed short name by its core, where it stands as a name
    assert named("茅台2021年营业收入是多少？") == ["600519"]
    assert named("2021年，茅台的营业收入是多少？") == ["600519"]
    # … never inside another company's registered name ("云南铝业股份有限公司" is not 中国铝业)
    assert named("2019年云南铝业股份有限公司的营业收入是多少？") == []
    # the trade name of the group
    assert named("海翔集团2019年营业收入是多少？") == ["002099"]


# ------------------------------------------------------------------------------------------- the planner alone
# (no store: the company index is built from report records, so these run in every clone)

@pytest.fixture(scope="module")
def planner():
    from fin_qa.store import Report
    from fin_qa.understand.plan import Planner
    from fin_qa.understand.question import Understander

    reports = [Report(1, "603339:2019", "603339", 2019, "四方科技集团股份有限公司", "四方科技"),
               Report(2, "600201:2020", "600201", 2020, "金宇生物技术股份有限公司", "生物股份")]
    return Planner(CATALOG.plan, Understander(reports, CATALOG))


def test_planner_store_free(planner):
    # 该公司 is the company named, not the ask before's subject; 尤其 is no back-reference
    p = planner.plan("四方科技2019年营业收入是多少？该公司净利润是多少？")
    assert len(p.asks) == 2 and not p.asks[1].reference and not p.asks[1].inherits
    p = planner.plan("四方科技2019年营业收入是多少？尤其是净利润是多少？")
    assert not p.asks[1].reference
    # a unit clause after a comma applies to every ask
    p = planner.plan("四方科技2019年营业收入是多少？净利润是多少，均以万元为单位")
    assert p.every == ["均以万元为单位"] and all("万元" in a.text for a in p.asks)
    # 影响 and 分析 inside item or section names do not keep a compound question whole
    p = planner.plan("四方科技2019年汇率变动对现金及现金等价物的影响是多少？净利润是多少？")
    assert len(p.asks) == 2
    # a "其" share ask refers back
    p = planner.plan("四方科技2019年罐式集装箱业务的营业收入是多少？其占营业收入的比重是多少？")
    assert p.asks[1].reference == "其" and planner.share_of(planner.strip_context(p.asks[1].words, p)) is not None
    # a comparison: its order and the question's word
    p = planner.plan("生物股份2020年销售费用和管理费用分别是多少？哪个增长更快？")
    assert p.asks[1].kind == "compare" and p.asks[1].order == "higher" and p.asks[1].order_word == "快"


def test_restate_brackets_store_free(planner):
    assert planner.restate("四方科技2019年年初（即2018年末）的存货是多少？") == ("四方科技2019年年初的存货是多少?", None)
    assert planner.restate("四方科技2022年初（2021年12月31日）的存货是多少？")[1] is None
    assert planner.restate("四方科技2019年末（2018年12月31日）的存货是多少？")[1] is not None
    # 上年末 is no 年末 of the year written before it
    assert planner.restate("四方科技2019年上年末（即2018年末）的存货是多少？")[1] is None
    assert planner.restate("What was 四方科技's revenue in 2019?") == ("What was 四方科技's revenue in 2019?", None)


def test_none_value_and_yes_no_words():
    from fin_qa.answer.review import _YES_NO, NONE_VALUE

    assert NONE_VALUE.match("不存在控股股东") and NONE_VALUE.match("无") and NONE_VALUE.match("无实际控制人")
    assert not NONE_VALUE.match("无锡产业发展集团有限公司")
    assert _YES_NO.match("否。…") and _YES_NO.match("是，…") and not _YES_NO.match("无锡产业发展集团有限公司")


# ------------------------------------------------------------------------------------------- the report's words

def test_report_vocabulary_is_indexed_at_ingest(all_store):
    """Every table's row labels, names and headers are stored as the report's vocabulary (store table
    vocab), as fin_qa.vocab.label_key spells them; a store without those rows reads them from its tables."""
    from fin_qa.vocab import label_key, table_vocabulary

    store, _ = all_store
    rid = store.report_id("603339:2019")
    vocab = store.vocabulary(rid)
    assert {"库存商品", "原材料", "罐式集装箱", "账面余额"} <= set(vocab)
    assert any(e.kind == "row" for e in vocab["库存商品"]) and any(e.kind == "header" for e in vocab["账面余额"])
    stored = store.db.execute("SELECT COUNT(*) FROM vocab WHERE report_id=?", (rid,)).fetchone()[0]
    assert stored == sum(map(len, vocab.values()))
    # the words as a question writes them: enumerators, brackets, 的 and spaces left out
    assert label_key("（一）库存 商品（注1）") == "库存商品" and label_key("1、应收账款的余额") == "应收账款余额"
    assert table_vocabulary(["项目", "2019年"], [["原材料", "1,000.00"], ["2018年", "—"], ["说明文字", ""]]) == \
        [("项目", -1, 0, "header"), ("原材料", 0, 0, "row"), ("说明文字", 2, 0, "text")]


def test_a_row_the_question_names_is_never_answered_with_the_total(router):
    """库存商品 is no item of the catalog but a row of the report's 存货 note: its cell answers, or the ask
    is declined naming the word and the table — never the company's 存货 (637,768,124.78)."""
    a = ask(router, "四方科技2019年存货中库存商品的账面余额是多少？")
    assert a.found and a.method == "cell" and "244,542,883.88" in a.answer and "637,768,124.78" not in a.answer
    a = ask(router, "四方科技2019年末存货中原材料的账面价值是多少？")
    assert a.found and "239,376,413.99" in a.answer
    # an aging bucket of the aging note (its header printed across the columns): its row, as a frame reads it
    a = ask(router, "四方科技2019年末应收账款中1年以内的账面余额是多少？")
    assert a.found and a.method == "frame" and "32,056,053.95" in a.answer and "第92页" in a.answer
    # words no table names as a row of what is asked, and neutral words, change nothing
    for q, v in (("根据四方科技2019年年报，上一年度的财务费用是多少？", "-34,606,861.02"),
                 ("海翔药业2019年应付账款年初余额为多少元？", "301,908,929.93")):
        a = ask(router, q)
        assert a.found and v in a.answer, (q, a.answer)


def test_a_clause_asking_by_its_question_mark(router):
    """"另外，原油加工及石油制品营业收入及毛利率？" asks without an ask word; "精确到小数点后一位？" does not
    (it says how the ask before is shown); an ask naming only a row of the tables is answered from it, not
    with the subject of the ask before."""
    q = ("华锦股份2019年末应收账款折合多少万元？精确到小数点后一位？另外，原油加工及石油制品营业收入及毛利率？"
         "2019年末第一大股东持股比例和持股数量是多少？")
    p = router.planner.plan(q)
    assert len(p.asks) == 3 and "精确到小数点后一位" in p.asks[0].words
    a = ask(router, q)
    text = digits(a.answer)
    for v in ("13362.1万元", "28092363762.07", "14.75%", "32.16%", "514417536"):
        assert v in text, (v, a.answer)
    assert a.found and not a.asks[2].get("inherits")


def test_quoted_rows_speak_of_what_is_asked(router):
    """Rows quoted for a value asked must speak of the question's words: 第一名 and 供应商 rows ("5 第五名 …")
    quoted for 前五名供应商采购额 are declined; a quote that does speak of them stands."""
    a = ask(router, "四方科技2019年前五名供应商采购额多少万元？占年度采购总额比例？")
    assert "第五名" not in a.answer and "49,828,248.50" not in a.answer
    a = ask(router, "惠威科技2019年的碳排放总量是多少吨？")
    assert not a.found and "碳排放总量" in a.answer
    a = ask(router, "张家界2016年第一大供应商是谁，采购额多少？")
    assert "中国石化销售有限公司湖南张家界石油分公司" in a.answer and "8,963,500.00" in a.answer
    assert "康辉" not in a.answer   # the first customer is no supplier


# ------------------------------------------------------------------------------------------- positive accounting

def test_a_word_nothing_accounts_for_is_never_dropped(router):
    """Every word of a question is the company, a year, an item or formula, a slot, filler or a neutral word
    (rules/understanding.yaml): a company's value is never given for a question with a word beyond them."""
    a = ask(router, "惠威科技2019年股本基数多少？")
    assert "124,676,400.00" not in a.answer and a.method == "declined", a.answer
    # … or answered by the row that prints it: "现金分红总额（含其他方式）（元） 486,709,636.72" (p.29), never
    # the 现金分红金额 without it
    a = ask(router, "海翔药业2019年现金分红总额(含其他方式)是多少？")
    assert "466,712,809.50" not in a.answer and "486,709,636.72" in a.answer and "含其他方式" in a.answer, a.answer
    # "最大的客户" is a rank over the table of 前五名客户 (answer/frames.py), never the company's revenue
    a = ask(router, "万科2012年最大的客户贡献了多少收入？")
    assert "103,116,245,136.42" not in a.answer and a.method == "frame" and "1,058,795,788.77" in a.answer, a.answer
    # a 是/否 fact never answers a question asking a name
    a = ask(router, "海翔药业2019年重大诉讼中，起诉公司的是哪家公司？")
    assert not a.found and not a.answer.startswith("是")
    # words said to the reader are neutral
    for q, v in (("请提供四方科技2019年的营业收入，结果需要保留两位小数。", "1,175,301,034.32"),
                 ("根据2019年的财务数据，四方科技的营业收入是多少元？", "1,175,301,034.32"),
                 ("2019年苏常柴三费（销售+管理+财务）一共多少？", "198,843,379.29"),
                 ("生物股份2020年销售、管理、研发、财务四项期间费用之和是多少？", "511,396,062.02")):
        a = ask(router, q)
        assert a.found and v in a.answer, (q, a.answer)


def test_positive_accounting_holds_over_every_question_set(router):
    """The invariant, over every question of tests/data: an ask for a value answered with a company's own
    number (a statement line, a formula, a change — text facts such as 会计师事务所名称 aside) leaves no word
    unaccounted for (`left`, which --json shows)."""
    from fin_qa.answer.router import frame_record
    from fin_qa.answer.routes import COMPANY_VALUES, text_items, unprinted

    questions = []
    for f in sorted(DATA.glob("*.jsonl")):
        questions += [json.loads(l)["question"] for l in f.read_text(encoding="utf-8").splitlines() if l.strip()]
    answered = 0
    for q in questions:
        p = router.planner.plan(router.planner.restate(q)[0])
        for a in p.asks:
            if a.kind != "value":
                continue
            u, ans = router.answer_one(a.text or a.words)
            if ans.found and ans.method in COMPANY_VALUES and u.shape == "value" and not text_items(router, u):
                answered += 1
                # (a word the answer's evidence prints is accounted for by it: 现金红利 of 每10股派发…现金红利)
                assert not unprinted(u.left, ans) and "left" not in frame_record(u, ans), (q, u.left, ans.answer)
    assert answered > 500


# ------------------------------------------------------------------------------------------- several intents (issue 46)

_PICK = re.compile(r"([\u4e00-\u9fff]+?)同比增长率最[大高快]的是(\S+?)（(.+?)）")


def _rates(text: str) -> dict[str, float]:
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"([\u4e00-\u9fff]+?)(-?\d+\.\d+)%", text)}


def test_a_ranking_then_its_companies_then_the_one_that_stands_out(router):
    # B2001 of the Teddy Cup 2026 problem B, of a year the shared reports hold: the top-N ranking, each listed
    # company's 净利润 and 营业收入 (销售额, said of a company) change, then which rose most — each winner the
    # largest of the rates the step before read
    a = ask(router, "2019年利润最高的top10企业是哪些？这些企业的利润、销售额年同比是多少？年同比上涨幅度最大的是哪家企业？")
    assert a.method == "plan" and [s["kind"] for s in a.asks] == ["rank", "each", "pick"], a.answer
    listed = [c["company"] for c in a.asks[1]["companies"]]
    assert len(listed) >= 3 and "前10家" in a.answer
    ranking = a.answer.split("\n")[0]
    assert [ranking.find(n) for n in listed] == sorted(ranking.find(n) for n in listed)   # (in the ranking's order)
    text = a.answer
    for v in ("27.40%", "-28.95%", "-7.32%", "8.20%", "-4.49%", "3.07%"):   # 海翔药业, 四方科技, 惠威科技
        assert v in text, v
    picks = list(_PICK.finditer(text.split("（3）", 1)[1]))
    assert {m.group(1) for m in picks} == {"净利润", "营业收入"}, text
    for m in picks:
        rates = _rates(m.group(3))
        assert set(rates) == set(listed) and rates[m.group(2)] == max(rates.values()), m.group(0)
    assert a.chart and a.chart["kind"] == "bar" and a.chart["unit"] == "%" and a.chart["labels"] == listed


def test_top_n_is_read_in_latin_letters(router):
    a = ask(router, "2019年净利润最高的TOP 3企业是哪些？")
    assert "前3家" in a.answer and "4." not in a.answer


def test_a_pick_over_a_ranking_reads_the_items_it_names(router):
    a = ask(router, "2019年营业收入最高的前3家公司是哪些？其中净利润同比增长最快的是哪家？")
    assert [s["kind"] for s in a.asks] == ["rank", "pick"]
    m = _PICK.search(a.answer)
    assert m and m.group(1) == "净利润"
    rates = _rates(m.group(3))
    assert len(rates) == 3 and rates[m.group(2)] == max(rates.values())


def test_a_chain_whose_ranking_lists_nothing_says_so_at_each_step(router):
    a = ask(router, "2035年利润最高的top10企业是哪些？这些企业的营业收入是多少？哪家企业的营业收入同比增长最快？")
    assert not a.found and a.answer.count("没有列出公司") == 2 and not re.search(r"\d[\d,]*\.\d\d", a.answer)


def test_items_listed_in_one_ask_are_answered_item_by_item(router):
    # a sentence stating 归属于上市公司股东的净利润 2,616.02万元 is neither 净利润 nor its growth rate
    a = ask(router, "惠威科技2019年的净利润、营业收入同比增长率分别是多少")
    assert "-7.32%" in a.answer and "3.07%" in a.answer and "2,616.02" not in a.answer


def test_a_partys_value_in_a_sentence_is_not_the_companys(router):
    a = ask(router, "四方科技2019年的销售额是多少？")
    assert not a.answered and "32,932.48" not in a.answer and not re.search(r"\d[\d,]*\.\d\d", a.answer)
    # the party asked, its own sentence answers (前五大 is 前五名)
    for q in ("四方科技2019年前五名客户销售额合计是多少？", "四方科技2019年前五大客户销售额是多少？"):
        assert "32,932.48" in ask(router, q).answer, q


def test_a_chain_in_one_sentence_of_commas(router):
    # "请列出…，并给出这些企业的…，以及…最低的是哪家": its steps cut at the commas naming the set back or picking from it
    a = ask(router, "请列出2019年净利润前3名的企业，并给出这些企业的营业收入同比增长率，以及增长率最低的是哪家。")
    assert [s["kind"] for s in a.asks] == ["rank", "each", "pick"]
    m = re.search(r"营业收入同比增长率最低的是([\u4e00-\u9fff]+)（(.+?)）", a.answer)
    assert m and len(_rates(m.group(2))) == 3 and _rates(m.group(2))[m.group(1)] == min(_rates(m.group(2)).values())
    # a company's own question naming a part of it back ("其中关联方…") is no chain
    a = ask(router, "四方科技2019年前五名客户销售额合计是多少，其中关联方销售额是多少？")
    assert not a.asks or all(s.get("kind") not in ("rank", "each", "pick") for s in a.asks)


def test_what_is_no_step_of_the_chain(router):
    # a question of its own after a ranking is never a pick from its companies (净利润最高 of all, not of one)
    a = ask(router, "2019年营业收入最低的公司是哪家？净利润最高的是哪家？")
    assert "惠威科技26,160,244.60" not in a.answer and not any(s.get("kind") == "pick" for s in a.asks or [])
    # 其中 naming a company of its own: asked once, of it
    a = ask(router, "2019年营业收入最高的前3家公司是哪些？其中邮储银行的净利润是多少？")
    assert a.answer.count("的净利润是") == 1 and "61,036,000,000.00" in a.answer
    # nothing a company's figures answer: no passage of each company quoted
    a = ask(router, "2019年营业收入最高的前5家公司有哪些？其中哪家是银行？")
    assert "不逐家回答" in a.answer and a.answer.count("\n") == 1


def test_a_pick_reads_what_it_asks(router):
    # a fall none had: said, no "largest fall" named
    a = ask(router, "2019年营业收入最高的前3家公司是哪些？这些公司中营业收入下降最多的是哪家？")
    assert "没有哪家下降" in a.answer and "下降最多的是" not in a.answer
    # 增加 is a change: rates compared, never the profits themselves
    a = ask(router, "2019年营业收入最高的前3家公司是哪些？它们2019年与2018年相比，净利润增加最多的是哪家？")
    assert "净利润同比增长率最多的是海翔药业" in a.answer and "27.40%" in a.answer
    # no rate word after a step of rates: the rates, labelled so
    a = ask(router, "2019年营业收入最高的前3家公司是哪些？这些公司的营业收入同比增长率是多少？哪家最低？")
    assert "营业收入同比增长率最低的是邮储银行（邮储银行6.06%" in a.answer
    # a rate asked after a step of values: read here
    a = ask(router, "2019年营业收入最高的前3家公司是哪些？这些企业的营业收入是多少？营业收入增长最快的是哪家？")
    assert "营业收入同比增长率最快的是海翔药业" in a.answer
    # the pick's own year: never the chain's values
    a = ask(router, "2019年营业收入最高的前3家公司是哪些？这些企业的营业收入是多少？2018年营业收入最高的是哪家？")
    assert "营业收入最高的是邮储银行（邮储银行276,809,000,000.00" not in a.answer


def test_several_asks_of_companies_named_as_a_list(router):
    # every ask of each company named (never the first company's alone), the subject carried, then the pick
    a = ask(router, "惠威科技和四方科技2019年的营业收入分别是多少？同比增速各是多少？哪家增速更高？")
    assert [s["kind"] for s in a.asks] == ["each", "each", "pick"], a.answer
    text = digits(a.answer)
    for v in ("274816055.36", "1175301034.32", "3.07%", "-4.49%"):
        assert v in text, v
    assert "营业收入同比增长率更高的是惠威科技" in a.answer
    # a pick naming an item of its own reads the step that asked it; highest and lowest both said
    a = ask(router, "华锦股份、苏常柴、四方科技2019年的净利润各是多少？它们当中净利润最高和最低的分别是哪家？")
    assert "净利润最高的是华锦股份" in a.answer and "净利润最低的是苏常柴" in a.answer


def test_a_fall_named_before_the_order_is_the_lowest_rate(router):
    a = ask(router, "2019年利润总额最低的三家公司中，利润总额同比下降幅度最大的是哪一家？")
    m = re.search(r"下降幅度最大的是([\u4e00-\u9fff]+)（(.+?)）", a.answer)
    assert m and _rates(m.group(2))[m.group(1)] == min(_rates(m.group(2)).values()), a.answer


def test_the_whole_order_asked_lists_every_company(router):
    a = ask(router, "2019年各公司营业收入从高到低怎么排？")
    assert a.method == "statistics" and "前" not in a.answer.split("公司是")[0]
    assert a.answer.count("（") >= 2 * 5 and "1. " in a.answer and "5. " in a.answer


def test_items_listed_before_a_growth_rate_share_it(router):
    a = ask(router, "海翔药业2019年营业收入、净利润的同比增长率分别是多少？")
    assert "8.20%" in a.answer and "27.40%" in a.answer and "营业收入是" not in a.answer


def test_a_why_of_an_item_a_passage_names_keeps_the_passage(router):
    # 四方科技 prints 主营业务收入 (its 收入和成本分析): the passage stays, no stand-in said
    a = ask(router, "四方科技2019年主营业务收入增长的原因是什么？")
    assert "没有单列" not in a.answer and "1,135,639,368.05" in a.answer


def test_a_question_written_in_steps(router):
    # ①②③…, 第一步…, 先…再…最后: a step each, its mark and verb left out; 它 the step before's subject; 同比 alone
    # asks the change; a lone 先 (先谢过) is no step
    a = ask(router, "四方科技2019年 ①营业收入 ②营业收入同比 ③毛利率，请依次回答。")
    assert len(a.asks) == 3 and "1,175,301,034.32" in a.answer and "-4.49%" in a.answer and "23.15%" in a.answer
    a = ask(router, "先查海翔药业2019年的净利润，再算它的同比增长率，最后计算毛利率。")
    assert len(a.asks) == 3 and "770,782,185.09" in a.answer and "27.40%" in a.answer and "50.26%" in a.answer
    a = ask(router, "四方科技2019年的营业收入是多少？先谢过")
    assert not a.asks or len(a.asks) == 1


def test_a_value_with_its_change(router):
    a = ask(router, "四方科技2019年营业收入及其同比增长率是多少？")
    assert len(a.asks) == 2 and "1,175,301,034.32" in a.answer and "-4.49%" in a.answer


def test_a_set_described_then_picked_from(router):
    # "排在前三位的公司里，哪家…" (the set described, no ask of its own), "是哪两家" (the count said again), "各自"
    a = ask(router, "2019年总资产排在前三位的公司里，哪家的营业收入增长最快？")
    assert [s["kind"] for s in a.asks] == ["rank", "pick"] and "营业收入同比增长率最快的是海翔药业" in a.answer
    a = ask(router, "2019年营业收入排名前二的是哪两家公司？")
    assert a.method == "statistics" and "前2家" in a.answer
    a = ask(router, "2019年营业收入排名前三的企业有哪些？各自营业收入的同比增速是多少？哪一家增速最快？")
    assert [s["kind"] for s in a.asks] == ["rank", "each", "pick"] and "8.20%" in a.answer
    # a place filter, not a ranking of a set: one question, its place kept
    a = ask(router, "2019年在浙江注册的公司中，营业收入最高的是哪家？")
    assert not any(s.get("kind") == "pick" for s in a.asks or []) and "浙江" in a.answer


def test_n_companies_said_without_a_top_word(router):
    a = ask(router, "按2019年末资产总计从小到大排，排在最前面的三家公司是哪些？")
    assert "前3家" in a.answer and "3. " in a.answer


def test_a_why_after_a_pick_explains_the_company_it_named(router):
    # the explain step: the why-question of the pick's winner, of its item and the way it moved (the figures, the
    # statement's lines of a profit); a why with no pick before it is said
    a = ask(router, "2019年净利润最高的前5家公司中，净利润同比增长最快的是哪家？原因是什么？")
    assert [s["kind"] for s in a.asks] == ["rank", "pick", "explain"], a.answer
    last = a.answer.split("（3）", 1)[1]
    assert last.startswith("海翔药业2019年净利润同比增长27.40%") and "利润表各项目的变动" in last
