"""The summary table 主要会计数据和财务指标 (issue 12) on the shared real reports, values checked by
reading the page: three years per row, wrapped labels, restated years (调整后 kept), a bank's table in
百万元, stored apart from the statements (statement 主要会计数据), and answering a year two years back."""
from __future__ import annotations

from decimal import Decimal

import pytest
from click.testing import CliRunner

from conftest import fact
from fin_qa.cli import cli

C, P, P2 = "current", "previous", "previous2"

CASES = [
    # 四方科技 2019 p.5: labels wrapped around the numbers ("归属于上市公司股东" / numbers / "的净利润")
    ("四方科技", "扣除非经常性损益后的净利润", C, "129188735.59", 5),
    ("四方科技", "归属于母公司所有者的净利润", P2, "172184765.20", 5),
    ("四方科技", "归属于母公司所有者权益合计", P, "1645226020.07", 5),   # the "2019年末" block
    ("四方科技", "加权平均净资产收益率", C, "7.64", 6),                   # "(二)主要财务指标", in %
    # 华锦股份 2019 p.6: 2018 and 2017 restated — 调整前 | 调整后 columns, the 调整后 one kept
    ("华锦股份", "营业收入", P, "37036329015.10", 6),
    ("华锦股份", "营业收入", P2, "33713780563.65", 6),
    ("华锦股份", "扣除非经常性损益后的净利润", P, "1019242099.65", 6),
    # … also for the short numbers right-aligned under 调整前, nearer the year's middle than their own column
    ("华锦股份", "基本每股收益", P, "0.72", 6),
    ("华锦股份", "加权平均净资产收益率", P, "8.99", 6),
    ("华锦股份", "基本每股收益", P2, "1.15", 6),
    # 张家界 2016 p.6: "归属于上市公司股东的扣除非经" / numbers / "常性损益的净利润（元）"
    ("张家界", "扣除非经常性损益后的净利润", P2, "62492475.88", 6),
    ("张家界", "基本每股收益", P, "0.36", 6),
    # 邮储银行 2019 p.11 (FinGLM txt): "人民币百万元，另有标注除外"
    ("邮储银行", "营业收入", P2, "224572000000", 11),
    ("邮储银行", "扣除非经常性损益后的净利润", C, "59719000000", 11),
    # 万科A 2012 p.3: "1. 本年度主要会计数据" (older layout)
    ("万科A", "营业利润", P2, "11894885308.23", 3),
]


@pytest.mark.parametrize("short,item,period,value,page", CASES)
def test_summary_values(all_store, short, item, period, value, page):
    store, _ = all_store
    f = fact(store, short, item, period, summary=True)
    assert Decimal(f["value"]) == Decimal(value) and f["page"] == page


def test_summary_rows_of_indicators_are_percents(all_store):
    # a bank's "净利差 2.45" and "成本收入比 56.57" carry no % sign: indicators (items.yaml 监管指标) are kept as
    # the percents they are, never guessed in 元; a row of no known item is not kept
    store, _ = all_store
    facts = {(f["item"], f["period"]): f for f in store.facts("邮储银行", 2019) if f["statement"] == "主要会计数据"}
    assert ("营业收入", "current") in facts
    for item, value in (("净利差", "2.45"), ("成本收入比", "56.57")):
        f = facts[(item, "current")]
        assert f["unit"] == "%" and f["value"] == value, f


def test_statement_value_wins_and_a_year_two_back_is_answered(all_store):
    store, _ = all_store
    ask = ["ask", "--store", str(store.dir)]
    r = CliRunner().invoke(cli, [*ask, "四方科技2019年营业收入是多少元？"])
    assert "1,175,301,034.32" in r.output and "p.63" in r.output  # the income statement's page, not p.5
    r = CliRunner().invoke(cli, [*ask, "邮储银行2017年的营业收入是多少元？"])
    assert r.exit_code == 0 and "224,572,000,000.00" in r.output and "主要会计数据" in r.output
    assert "2017年 营业收入" in r.output and "p.11" in r.output
    r = CliRunner().invoke(cli, [*ask, "万科A2012年扣非净利润是多少？"])
    assert "12,511,303,092.59" in r.output and "p.3" in r.output


def test_printed_changes_are_kept_only_where_the_statements_vouch_for_them():
    from decimal import Decimal

    from fin_qa.ingest.statement_model import StatementFact
    from fin_qa.ingest.summary import checked_changes

    facts = [StatementFact("营业收入", "营业收入", "current", "108259512.44", "元", 1),
             StatementFact("营业收入", "营业收入", "change", "-9.18", "%", 1),
             StatementFact("扣除非经常性损益后的净利润", "扣非", "change", "-80.24", "%", 1)]
    stated = {("营业收入", "current"): Decimal("108259512.44"), ("营业收入", "previous"): Decimal("119199841.13")}
    kept, notes = checked_changes(facts, stated)
    assert kept == facts and notes == []
    # a change the statements contradict (a column misread): none of the filing's changes is kept
    wrong = {**stated, ("营业收入", "previous"): Decimal("100000000")}
    kept, notes = checked_changes(facts, wrong)
    assert [f.period for f in kept] == ["current"] and "营业收入" in notes[0]
    # none the statements can check: none kept, said; a summary filing (no statements at all): none kept, nothing said
    kept, notes = checked_changes(facts, {("营业收入", "current"): Decimal("108259512.44")})
    assert [f.period for f in kept] == ["current"] and "not checked" in notes[0]
    kept, notes = checked_changes(facts, {})
    assert [f.period for f in kept] == ["current"] and notes == []
