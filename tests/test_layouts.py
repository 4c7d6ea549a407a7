"""Report layouts beyond the FinGLM-era ones (issue 12), each on a shared real report, values checked by
reading the page: a side-by-side balance sheet, an older profile and employee count, a bank statement
that prints its expenses in parentheses."""
from __future__ import annotations

from decimal import Decimal

import pytest

from conftest import CATALOG, fact
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
