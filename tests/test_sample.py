"""The bundled sample report: 万元 units, note column, unruled table, parentheses negatives, wrapped
label, parent statement and decoy adjustment table; identification from the content."""
from decimal import Decimal

import pytest

from fin_qa.ingest.pipeline import ingest
from fin_qa.store import Store
from conftest import CATALOG


@pytest.fixture(scope="module")
def store(sample_pdf, tmp_path_factory):
    s = Store(tmp_path_factory.mktemp("s"))
    summary = ingest([sample_pdf], s, CATALOG)
    assert summary.count("ingested") == 1, summary.outcomes[0].detail
    return s


def value(store, item, period="current", parent=False):
    rows = [f for f in store.facts(item=item)
            if f["period"] == period and (f["statement"] or "").startswith("母公司") == parent
            and f["statement"] != "主要会计数据"]   # (the summary table's 总资产 is its own row)
    assert len(rows) == 1, (item, rows)
    return rows[0]


def test_identified_from_content(store):
    (r,) = store.reports()
    assert (r["stock_code"], r["year"], r["short_name"], r["full_name"]) == (
        "688999", 2021, "星河精密", "星河精密制造股份有限公司")


@pytest.mark.parametrize("item,period,expected", [
    ("货币资金", "current", "123456700"),          # 12,345.67 万元
    ("应收票据", "previous", "3210000"),           # the only value of its row, in the 2020 column
    ("以公允价值计量且其变动计入当期损益的金融资产", "current", "5000000"),  # wrapped label
    ("财务费用", "current", "-1000000"),           # (100.00)
    ("投资收益", "current", "-2500000"),
    ("营业外收入", "current", "500000"),
    ("基本每股收益", "current", "0.36"),           # per share: not scaled by the unit
    ("投资活动产生的现金流量净额", "previous", "-19000000"),
    ("资产总计", "current", "425000000"),          # consolidated, not the 母公司 statement (half of it)
])
def test_statement_values(store, item, period, expected):
    assert Decimal(value(store, item, period)["value"]) == Decimal(expected)


def test_empty_cell_is_missing(store):
    assert [f for f in store.facts(item="营业外收入") if f["period"] == "previous"] == []


def test_parent_statement_is_a_scope_of_its_own(store):
    # 母公司资产负债表 right after the consolidated one: its own facts (statement 母公司资产负债表)
    f = value(store, "资产总计", parent=True)
    assert Decimal(f["value"]) == Decimal("212500000") and f["statement"] == "母公司资产负债表"
    assert Decimal(value(store, "货币资金", "previous", parent=True)["value"]) == Decimal("51172800")


def test_decoy_adjustment_table_not_taken(store):
    assert value(store, "货币资金")["page"] == 4


def test_profile_and_employees(store):
    assert value(store, "法定代表人")["value"] == "林海峰"
    assert value(store, "董事会秘书姓名")["value"] == "周晓雯"
    assert value(store, "董事会秘书电话")["value"] == "0512-66668888"
    assert value(store, "硕士")["value"] == "41"
    assert value(store, "研发人员数量")["value"] == "128"


def test_chunks_carry_heading_paths(store):
    rows = store.db.execute(
        "SELECT c.path, c.text, s.title FROM chunks c JOIN sections s ON s.id=c.section_id "
        "WHERE c.text LIKE '%核心技术%'").fetchall()
    assert rows and "二、核心竞争力分析" in rows[0][0] and rows[0][2] == "二、核心竞争力分析"
    hit = store.db.execute("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?", ('"核心 心技 技术"',)).fetchall()
    assert hit
