"""Answer paths on real SQLite stores: an imported table and the ingested sample report."""
from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

import pytest

from fin_qa.answer.router import Router
from fin_qa.answer.facts import FactSource, read_scope
from fin_qa.ingest.tables_import import import_table
from fin_qa.store import Store
from conftest import CATALOG

TABLE = """股票代码,公司名称,股票简称,年份,营业收入,营业成本,净利润,总负债,资产总额,流动资产,存货,流动负债,法定代表人,注册地址,硕士人数,职工总数,研发人员数
600111,甲乙科技股份有限公司,甲乙科技,2020,1000000000,600000000,80000000,400000000,1000000000,500000000,100000000,250000000,张三,浙江省杭州市西湖区文三路1号,40,800,120
600111,甲乙科技股份有限公司,甲乙科技,2021,1250000000,700000000,-5000000,700000000,1400000000,600000000,150000000,300000000,李四,浙江省杭州市西湖区文三路1号,50,1000,150
000222,丙丁电子股份有限公司,丙丁电子,2021,900000000.5,500000000,90000000,300000000,900000000,125,0,1000,王五,广东省深圳市南山区科技园,-1,-1,-1
601333,戊己银行股份有限公司,戊己银行,2021,5000000000,,1200000000,90000000000,100000000000,,,,赵六,上海市浦东新区陆家嘴1号,,,
"""


@pytest.fixture(scope="module")
def table_store(tmp_path_factory):
    d = tmp_path_factory.mktemp("answer_store")
    csv = d / "facts.csv"
    csv.write_text(TABLE, encoding="utf-8")
    store = Store(d / "store")
    import_table(csv, store, CATALOG)
    yield store
    store.close()


@pytest.fixture(scope="module")
def eng(table_store):
    return Router(FactSource(table_store), CATALOG, style="human")


@pytest.fixture(scope="module")
def fin(table_store):
    return Router(FactSource(table_store), CATALOG, style="finglm")


def test_lookup_amount_both_styles(eng, fin):
    a = eng.answer("2021年甲乙科技的营业收入是多少元?")
    assert a.method == "lookup" and a.found and a.type == "1"
    assert "1,250,000,000.00元" in a.answer and "甲乙科技" in a.answer and "2021" in a.answer
    assert [e.to_dict() for e in a.evidence] == [{"item": "营业收入", "value": "1,250,000,000.00元", "year": 2021, "page": None,
                           "source": "import:facts.csv", "report": "600111:2021"}]
    assert "1250000000.0元" in fin.answer("2021年甲乙科技的营业收入是多少元?").answer


def test_lookup_text_and_several_items(eng):
    assert "李四" in eng.answer("甲乙科技2021年的法定代表人是谁?").answer
    a = eng.answer("2021年甲乙科技的营业收入和营业成本分别是多少元?")
    assert a.type == "1-2" and "1,250,000,000.00元" in a.answer and "700,000,000.00元" in a.answer
    assert [e.item for e in a.evidence] == ["营业收入", "营业成本"]


def test_formula_from_previous_year_report(eng):
    a = eng.answer("甲乙科技2021年营业收入增长率是多少?保留2位小数。")
    assert a.method == "formula" and a.type == "2-1"
    assert "25.00%" in a.answer
    years = sorted(e.year for e in a.evidence)
    assert years == [2020, 2021]


def test_formula_finglm_names_and_rounding(fin):
    a = fin.answer("甲乙科技2021年的资产负债比率是多少?保留两位小数。")
    assert "50.00%" in a.answer and "总负债" in a.answer and "资产总额" in a.answer
    assert "700000000.0元" in a.answer
    # 125 / 1000 = 0.125: ROUND_HALF_UP gives 0.13 (banker's rounding would give 0.12)
    a = fin.answer("丙丁电子2021年的流动比率是多少?")
    assert re.search(r"流动比率是0\.13", a.answer), a.answer
    a = fin.answer("丙丁电子2021年的流动比率是多少?保留三位小数")
    assert "0.125" in a.answer


def test_negative_values_and_decimals_from_question(eng):
    a = eng.answer("甲乙科技2021年的净利润增长率是多少?保留1位小数")
    assert "-106.3%" in a.answer


def test_growth_without_previous_year_is_admitted(eng):
    a = eng.answer("丙丁电子2021年营业收入增长率是多少?")
    assert not a.found and "未查询到" in a.answer and "2020" in a.answer
    assert not re.search(r"\d+\.\d+%", a.answer)


def test_division_by_zero_is_admitted(eng):
    a = eng.answer("丙丁电子2021年的存货增长率是多少?")
    assert not a.found
    a = eng.answer("丙丁电子2021年营业收入占存货的比例是多少?")
    assert not a.found and "分母为0" in a.answer


def test_education_category_missing_row_counts_as_zero(eng):
    a = eng.answer("甲乙科技2021年企业硕士及以上人员占职工人数比例是多少?保留2位小数。")
    assert a.method == "formula" and "0.05" in a.answer
    assert any("按0计" in e.source for e in a.evidence)


def test_pair_ratio_without_formula_file(eng):
    a = eng.answer("甲乙科技2021年研发人员占职工总数的比例是多少?保留两位小数")
    assert a.method == "formula" and "0.15" in a.answer


def test_compare_years(eng):
    a = eng.answer("甲乙科技2021年法定代表人对比2020年是否相同?")
    assert a.type == "2-2" and a.answer.startswith("不相同") and "张三" in a.answer and "李四" in a.answer
    a = eng.answer("甲乙科技2020年和2021年的注册地址是否相同?")
    assert a.answer.startswith("相同")


def test_statistics_rank_count_and_city(eng, fin):
    a = eng.answer("2021年营业收入最高的前2家公司是哪些?")
    assert a.method == "statistics"
    assert a.answer.index("戊己银行") < a.answer.index("甲乙科技")
    assert "丙丁电子" not in a.answer
    a = eng.answer("2021年营业收入第二高的公司是哪家?")
    assert "甲乙科技" in a.answer and "戊己银行" not in a.answer
    a = eng.answer("2021年营业收入最低的公司是哪家?")
    assert "丙丁电子" in a.answer
    a = eng.answer("2021年负债合计大于五亿的公司有多少家?")
    assert "2家" in a.answer and "甲乙科技" in a.answer and "戊己银行" in a.answer
    a = eng.answer("注册地址在上海的公司中，2021年净利润最高的是哪家?")
    assert "戊己银行" in a.answer and "甲乙科技" not in a.answer
    a = eng.answer("2021年营业收入最低的2家公司是哪些?")
    assert "1. 丙丁电子" in a.answer and "2. 甲乙科技" in a.answer and "戊己银行" not in a.answer
    a = eng.answer("2021年营业收入大于10亿元的公司数量是多少?")
    assert "共有2家" in a.answer
    a = eng.answer("2021年研发人员数量最高的公司是哪家?")
    assert "甲乙科技" in a.answer and "150人" in a.answer
    a = eng.answer("2021年净利润率最高的公司是哪家?")
    assert "戊己银行" in a.answer and "24.00%" in a.answer


@pytest.mark.parametrize("q, phrase", [
    ("2021年光云科技的营业收入是多少元?", "未查询到"),
    ("甲乙科技2019年的营业收入是多少元?", "未查询到甲乙科技（甲乙科技股份有限公司，600111）2019年的年报"),
    ("戊己银行2021年的营业成本是多少元?", "2021年的营业成本，无法回答"),
    ("", "问题为空"),
    ("What was the revenue in 2021?", "中文"),
])
def test_honest_not_found(eng, q, phrase):
    a = eng.answer(q)
    assert not a.found and phrase in a.answer
    assert not re.search(r"\d{4,}\.\d", a.answer)  # no invented amount


def test_no_year_uses_latest_report_and_says_so(eng):
    a = eng.answer("甲乙科技的法定代表人是谁?")
    assert "最近一期年报（2021年）" in a.answer and "李四" in a.answer


def test_scope_limits_answers(table_store, tmp_path):
    scope = tmp_path / "scope.txt"
    scope.write_text("2022-04-01__甲乙科技股份有限公司__600111__甲乙科技__2021年__年度报告.pdf\n", encoding="utf-8")
    e = Router(FactSource(table_store, read_scope(scope, CATALOG.report_names)), CATALOG)
    assert e.answer("2021年甲乙科技的营业收入是多少元?").found
    a = e.answer("2021年戊己银行的营业收入是多少元?")
    assert not a.found and "戊己银行" in a.answer
    a = e.answer("2021年营业收入最高的公司是哪家?")
    assert "甲乙科技" in a.answer and "戊己银行" not in a.answer


def test_sample_report_answers_cite_pages(sample_pdf, tmp_path):
    from fin_qa.ingest.pipeline import ingest

    store = Store(tmp_path / "s")
    ingest([sample_pdf], store, CATALOG)
    e = Router(FactSource(store), CATALOG)
    a = e.answer("2021年星河精密的营业收入是多少元?")
    assert a.found and a.evidence[0].page and a.evidence[0].source == "pdf"
    # growth from the previous-period column of the same report (no 2020 report in the store)
    cur = next(f for f in store.facts("星河精密", 2021, "营业收入") if f["period"] == "current")
    prev = next(f for f in store.facts("星河精密", 2021, "营业收入") if f["period"] == "previous")
    want = ((Decimal(cur["value"]) - Decimal(prev["value"])) / Decimal(prev["value"]) * 100).quantize(
        Decimal("0.01"), rounding=ROUND_HALF_UP)
    a = e.answer("2021年星河精密营业收入增长率是多少?保留2位小数。")
    assert f"{want}%" in a.answer and "上期数" in a.answer
    assert {ev.to_dict().get("period") for ev in a.evidence} == {None, "previous"}
    store.close()
