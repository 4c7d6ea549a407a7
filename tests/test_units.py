from decimal import Decimal

import pytest

from fin_qa.ingest.bank_text import read_values
from fin_qa.ingest.headings import heading_level
from fin_qa.catalog.items import normalize_label
from fin_qa.numbers import find_unit, parse_number
from fin_qa.bigrams import tokens


@pytest.mark.parametrize("text,expected", [
    ("1,234.56", "1234.56"), ("-1,234.00", "-1234.00"), ("(1,234.00)", "-1234.00"), ("（88.5）", "-88.5"),
    ("－12.5", "-12.5"), ("-", None), ("—", None), ("不适用", None), ("七、1", None), ("1,23", None),
])
def test_parse_number(text, expected):
    got = parse_number(text)
    assert (None if got is None else got) == (None if expected is None else Decimal(expected))


@pytest.mark.parametrize("text,unit", [
    ("单位：元 币种：人民币", "元"), ("单位:千元", "千元"), ("金额单位：人民币万元", "万元"),
    ("(除特别注明外，金额单位均为人民币百万元)", "百万元"), ("项目 附注", None),
])
def test_find_unit(text, unit):
    assert find_unit(text) == unit


@pytest.mark.parametrize("label,item", [
    ("其中：营业收入", "营业收入"), ("加：公允价值变动收益（损失以“－”号填列）", "公允价值变动收益"),
    ("四、利润总额（亏损总额以“－”号填列）", "利润总额"), ("负债和所有者权益（或股东权益）总计", "负债和所有者权益总计"),
    ("资产总额", "资产总计"), ("总负债", "负债合计"), ("（一）基本每股收益", "基本每股收益"), ("△一般风险准备", "一般风险准备"),
])
def test_canonical_items(catalog, label, item):
    assert catalog.items.canonical(label) == item


def test_normalize_keeps_unknown_labels():
    assert normalize_label("  其中：某个新项目 ") == "某个新项目"


def test_run_together_values():
    s = "1,154,8431,202,9351,154,8431,202,935"
    values, end, _ = read_values(s, 0, 4, False)
    assert values == [Decimal(1154843), Decimal(1202935), Decimal(1154843), Decimal(1202935)] and end == len(s)
    # with a note number in front: the reading whose note follows the previous one wins
    s = "228,373140,35130,694143,680"
    values, _, note = read_values(s, 0, 4, True, last_note=1)
    assert note == 2 and values[0] == Decimal(28373)
    assert read_values("(148,014)(126,044)(147,340)(125,428)", 0, 4, False)[0][0] == Decimal(-148014)


def test_heading_levels():
    assert heading_level("第三节 公司业务概要") == 1
    assert heading_level("二、核心竞争力分析") == 2
    assert heading_level("（一）主营业务分析") == 3
    assert heading_level("1、营业收入构成") == 4
    assert heading_level("7.1 环境与展望") == 5
    assert heading_level("7.2.1利润表分析") == 6
    assert heading_level("（1）研发投入情况表") == 7
    assert heading_level("7.5%的增长") is None
    assert heading_level("1、公司按照规定召开股东大会，保证全体股东充分行使权利。") is None
    assert heading_level("七、综合收益总额59,76256,363") is None


def test_tokens_are_bigrams():
    assert tokens("核心竞争力 ABC 2019") == ["核心", "心竞", "竞争", "争力", "abc", "2019"]
