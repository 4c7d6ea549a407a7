"""Values stated in sentences (fin_qa/answer/stated.py) on the shared reports: the value first, the
sentence quoted with its page — and never a number of another clause, another year or another unit. The
values asserted were read on the page named."""
from __future__ import annotations

import json

from click.testing import CliRunner

from fin_qa.cli import cli


def _ask(store, question: str) -> dict:
    out = CliRunner().invoke(cli, ["ask", "--store", str(store.dir), "--json", question]).output
    return json.loads(out)


def test_values_stated_in_sentences_answer(all_store):
    store, _ = all_store
    # 邮储银行 p.165: "…储蓄代理费总额为人民币788.05亿元，综合费率为1.32%…"
    rec = _ask(store, "邮储银行2019年向邮政集团支付的储蓄代理费总额是多少，综合费率多少？")
    assert rec["method"] == "stated" and "788.05亿元" in rec["answer"] and "1.32%" in rec["answer"]
    assert rec["evidence"][0]["page"] == 165
    # 四方科技 p.16: a subsidiary's "注册资本：人民币 200,000,000.00 元" / "净利润：人民币 70,662,576.11 元"
    rec = _ask(store, "四方科技全资子公司南通四方罐式储运设备制造有限公司2019年净利润多少？注册资本多少？")
    assert "70,662,576.11元" in rec["answer"] and "200,000,000.00元" in rec["answer"]


def test_a_stated_value_is_the_one_its_words_name(all_store):
    store, _ = all_store
    # 生物股份 p.28: "…营业利润 33,864 万元，净利润 30,062 万元" — 营业利润 states no 净利润
    rec = _ask(store, "生物股份全资子公司金宇保灵生物药品有限公司2020年净利润多少万元？")
    assert "30,062万元" in rec["answer"] and "33,864万元" not in rec["answer"].split("原文")[0]
    # 万科A: p.31 tells 2011's 每10股派现金人民币1.3元; the 2012 plan is 1.8 (p.33)
    rec = _ask(store, "万科2012年度分红派息方案每10股派多少现金？")
    assert "1.8元" in rec["answer"] and "1.3元" not in rec["answer"].split("原文")[0]


def test_disclosures_quote_their_sentence(all_store):
    store, _ = all_store
    rec = _ask(store, "苏常柴2019年度分红吗？")
    assert rec["answer"].startswith("否") and "不派发现金红利" in rec["answer"] and "第3页" in rec["answer"]


def test_a_clause_naming_another_item_states_none_of_the_asked(all_store):
    store, _ = all_store
    # 邮储银行 p.52: "本行个人住房贷款余额1.70万亿元" — 个人住房 narrows it to another item: no 西南地区贷款余额
    rec = _ask(store, "邮储银行2019年西南地区贷款余额是多少？")
    assert "1.70" not in rec["answer"], rec["answer"]


def test_a_subsidiary_named_by_the_first_ask_narrows_the_next(all_store):
    store, _ = all_store
    # 邮储银行 p.72: "中邮消费金融有限公司总资产306.54亿元，净资产34.34亿元，全年实现净利润3.49亿元" — 全年 is the span of the
    # year, no part of the company: the next ask is the subsidiary's too, never the bank's own 610.36亿元
    rec = _ask(store, "邮储银行子公司中邮消费金融2019年末总资产多少亿元？全年净利润多少亿元？")
    assert "306.54亿元" in rec["answer"] and "3.49亿元" in rec["answer"] and "610.36" not in rec["answer"], rec["answer"]


def test_a_time_before_the_item_narrows_nothing(all_store):
    store, _ = all_store
    # 万科A p.33: "…以本报告披露前公司总股份数11,005,021,968股计算，2012年度现金股利计人民币1,980,903,954.24元" — 年度 is the
    # time, no noun narrowing 现金股利
    rec = _ask(store, "万科2012年度分红派息方案按披露前总股份数算现金股利共计多少？")
    assert "1,980,903,954.24" in rec["answer"], rec["answer"]

