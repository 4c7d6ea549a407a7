"""Accounting identities (issue 12): rules/checks.yaml over a report's facts, `fin-qa check`, and the
failed checks of `fin-qa ingest` kept as the file's warnings."""
from __future__ import annotations

import json
from decimal import Decimal

import pytest
from click.testing import CliRunner

from conftest import CATALOG, MORE, REPORTS
from fin_qa.check import run_checks
from fin_qa.cli import cli


def test_identity_holds_within_tolerance_and_fails_beyond():
    v = {("资产总计", "current"): (Decimal("1000.00"), 5), ("负债合计", "current"): (Decimal("400.00"), 5),
         ("所有者权益合计", "current"): (Decimal("600.40"), 6)}
    (r,) = [x for x in run_checks(v, CATALOG.checks) if x.name == "资产 = 负债 + 所有者权益"]
    assert r.ok and r.pages == [5, 6]          # 0.40 within the 1元 tolerance
    v[("所有者权益合计", "current")] = (Decimal("610.00"), 6)
    (r,) = [x for x in run_checks(v, CATALOG.checks) if x.name == "资产 = 负债 + 所有者权益"]
    assert not r.ok and r.difference == Decimal("-10.00") and "FAILED" in r.describe()
    # a check whose items are not all there is not run
    assert not [x for x in run_checks({("资产总计", "current"): (Decimal(1), 1)}, CATALOG.checks)]


def test_check_cli_on_the_sample(sample_pdf, tmp_path):
    store = tmp_path / "s"
    assert CliRunner().invoke(cli, ["ingest", str(sample_pdf), "--store", str(store), "-q"]).exit_code == 0
    r = CliRunner().invoke(cli, ["check", "--store", str(store), "--json", "--all"])
    rows = [json.loads(line) for line in r.output.splitlines() if line.startswith("{")]
    assert r.exit_code == 0 and rows and rows[0]["failed"] == 0 and rows[0]["checks"] >= 4
    r = CliRunner().invoke(cli, ["check", "--store", str(store), "--company", "不存在"])
    assert r.exit_code == 1 and "no report matches" in r.output


def test_shared_reports_hold_their_identities(all_store):
    store, summary = all_store
    r = CliRunner().invoke(cli, ["check", "--store", str(store.dir), "--json"])
    rows = {json.loads(line)["stock_code"]: json.loads(line) for line in r.output.splitlines() if line.startswith("{")}
    assert r.exit_code == 0 and len(rows) == 10
    assert all(row["checks"] >= 12 and row["failed"] == 0 for row in rows.values()), rows
    # the side-by-side balance sheet (万科A 2012) is checked in both halves
    assert rows["000002"]["checks"] >= 18
    # and ingest warned of no failed check
    assert not [o for o in summary.outcomes if "check failed" in o.detail]


# ------------------------------------------------------------------------------------------ completeness (issue 24)

def test_a_report_missing_essentials_fails_naming_them():
    """rules/checks.yaml essentials: each item of the report's kind in both periods; a missing one is a
    failed check naming it, and a report with no statements fails every one."""
    from fin_qa.check import completeness

    full = {(i, p): (Decimal(1), 3) for i in ("资产总计", "负债合计", "所有者权益合计", "负债和所有者权益总计",
                                             "营业总收入", "利润总额", "所得税费用", "净利润", "经营活动产生的现金流量净额",
                                             "投资活动产生的现金流量净额", "筹资活动产生的现金流量净额",
                                             "期末现金及现金等价物余额") for p in ("current", "previous")}
    results = completeness(full, "星河精密", set(), CATALOG.checks)
    assert results and all(r.ok for r in results)   # 营业总收入 stands for 营业收入|营业总收入
    del full[("负债合计", "previous")]
    failed = [r for r in completeness(full, "星河精密", set(), CATALOG.checks) if not r.ok]
    assert [(r.missing, r.period) for r in failed] == [("负债合计", "previous")]
    assert "负债合计" in failed[0].describe() and "FAILED" in failed[0].describe()
    # a bank (by its name or its items) needs its deposits and loans too; nothing read fails them all
    bank = [r for r in completeness(full, "某某银行", set(), CATALOG.checks) if not r.ok]
    assert {"吸收存款", "发放贷款和垫款"} <= {r.missing for r in bank} and "bank" in bank[0].name
    assert {r.missing for r in completeness(full, "甲乙科技", {"吸收存款"}, CATALOG.checks) if not r.ok} >= {"吸收存款"}
    empty = completeness({}, "甲乙科技", set(), CATALOG.checks)
    assert empty and not any(r.ok for r in empty) and len(empty) == 2 * len(CATALOG.checks.kind_of("", set()).items)


BANKS = REPORTS.parent / "banks"


def test_check_fails_on_a_report_missing_essentials(sample_pdf, tmp_path):
    """A report whose statements lack an essential line (here deleted from a real store after ingest)
    fails `fin-qa check` naming it, in both periods, with a non-zero status."""
    import sqlite3

    store = tmp_path / "s"
    assert CliRunner().invoke(cli, ["ingest", str(sample_pdf), "--store", str(store), "-q"]).exit_code == 0
    with sqlite3.connect(store / "fin_qa.sqlite") as db:
        db.execute("DELETE FROM facts WHERE item IN ('负债合计', '经营活动产生的现金流量净额')")
    r = CliRunner().invoke(cli, ["check", "--store", str(store), "--json"])
    rows = [json.loads(line) for line in r.output.splitlines() if line.startswith("{")]
    missing = {(x["missing"], x["period"]) for x in rows[0]["results"] if "missing" in x}
    assert r.exit_code == 1 and missing == {(i, p) for i in ("负债合计", "经营活动产生的现金流量净额")
                                            for p in ("current", "previous")}, rows


def test_the_banks_statements_are_complete(tmp_path):
    """Both shared banks: every line of the consolidated statements over their pages (the title printed on
    each page, 续 pages, 本集团 | 本行 columns, a font whose characters read shifted — 合幵 for 合并), the
    essentials read in both periods and every identity holding."""
    if not BANKS.is_dir():
        pytest.skip("../shared/data/banks is absent")
    store = tmp_path / "banks"
    r = CliRunner().invoke(cli, ["ingest", str(BANKS), "--store", str(store)])
    assert r.exit_code == 0 and "incomplete:" not in r.output, r.output
    r = CliRunner().invoke(cli, ["check", "--store", str(store), "--json", "--all"])
    rows = [json.loads(line) for line in r.output.splitlines() if line.startswith("{")]
    assert r.exit_code == 0 and len(rows) == 2 and all(row["failed"] == 0 and row["checks"] >= 38 for row in rows)
    r = CliRunner().invoke(cli, ["facts", "--store", str(store), "--company", "兴业银行"])
    facts = {tuple(line.split("\t")[3:7:3]): line.split("\t")[4] for line in r.output.splitlines()
             if line.split("\t")[7] in ("资产负债表", "利润表")}   # (the 本行 columns are 母公司… facts)
    # read on the pages (人民币百万元): 吸收存款 4,788,754 (p.163), 营业收入 222,374 (p.165)
    assert facts[("吸收存款", "current")] == "4788754000000" and facts[("营业收入", "current")] == "222374000000"


def test_a_part_printed_larger_than_its_whole_fails_naming_both():
    """Lines that bound each other (rules/checks.yaml at_most): 其中：营业收入 printed larger than 一、营业总收入
    is a figure the report prints wrong — the check fails naming both figures and their pages."""
    values = {("营业总收入", "current"): (Decimal("80600000"), 52), ("营业收入", "current"): (Decimal("97700000"), 52)}
    failed = [r for r in run_checks(values, CATALOG.checks) if not r.ok]
    assert [(r.name, r.left, r.right, r.pages) for r in failed] == [
        ("其中：营业收入 ≤ 营业总收入", Decimal("97700000"), Decimal("80600000"), [52])]
    assert "97,700,000 vs 80,600,000" in failed[0].describe()
    values[("营业收入", "current")] = (Decimal("80600000"), 52)
    assert all(r.ok for r in run_checks(values, CATALOG.checks))


def test_failures_ingest_records_are_read_back_and_blanks_hold_said():
    """A summary line the statements contradict is not stored, its failed check is (the file's warnings):
    `fin-qa check` reads it back; a line printed blank holds, said with its page."""
    from fin_qa.check import BLANK, CheckResult, blanks_of, completeness, recorded_failures

    r = CheckResult("主要会计数据 = 报表：营业收入", "current", False, Decimal("80600000"), Decimal("97700000"), [6, 52])
    back = recorded_failures(["check failed: " + r.describe()[7:], "主要会计数据: 营业收入 differs"])
    assert [(x.name, x.period, x.left, x.right, x.pages, x.ok) for x in back] == [
        (r.name, "current", r.left, r.right, [6, 52], False)]
    blank = CheckResult("完整性（general）：筹资活动产生的现金流量净额", "current", True, Decimal(0), Decimal(0), [112],
                        blank=True)
    assert BLANK in blank.describe() and "p.112" in blank.describe()
    blanks = blanks_of(["check: " + blank.describe()[7:]])
    assert blanks == {("筹资活动产生的现金流量净额", "current"): 112}
    # blank and nil by the statement's own arithmetic (净增加额 = 经营 + 投资, no 汇率 line): it holds, said
    cash = {("现金及现金等价物净增加额", "current"): (Decimal("7287014.68"), 112),
            ("经营活动产生的现金流量净额", "current"): (Decimal("-3359064.84"), 112),
            ("投资活动产生的现金流量净额", "current"): (Decimal("10646079.52"), 112)}
    results = completeness(cash, "甲乙科技", set(), CATALOG.checks, blanks)
    held = [x for x in results if x.ok]
    assert [(x.name, x.period, x.pages, x.blank) for x in held] == [
        ("完整性（general）：经营活动产生的现金流量净额", "current", [112], False),
        ("完整性（general）：投资活动产生的现金流量净额", "current", [112], False),
        ("完整性（general）：筹资活动产生的现金流量净额", "current", [112], True)]
    # … a blank the arithmetic does not make nil (a value read into the other column) stays a failure
    cash[("现金及现金等价物净增加额", "current")] = (Decimal("20287014.68"), 112)
    assert not any(x.blank for x in completeness(cash, "甲乙科技", set(), CATALOG.checks, blanks))
    # only the summary's contradictions are read back: the rest are checked again from the facts
    assert not recorded_failures(["check failed: 资产 = 负债 + 所有者权益（本期）: 1 vs 2, difference -1 (p.3)"])


def test_an_answer_on_a_figure_its_report_contradicts_says_so(sample_store, tmp_path):
    """The report prints a part larger than its whole (its 营业收入 above its 营业总收入): an answer reading that
    figure says the report contradicts itself, naming the check, both figures and the pages."""
    import shutil

    from fin_qa.answer.facts import FactSource
    from fin_qa.answer.router import Router
    from fin_qa.store import Store

    shutil.copytree(sample_store.dir, tmp_path / "store")
    store = Store(tmp_path / "store")
    rid = next(r["id"] for r in store.reports() if r["short_name"] == "星河精密")
    total = next(f for f in store.report_facts(rid, ["营业总收入"], "current"))
    store.db.execute("UPDATE facts SET value=?, num=? WHERE report_id=? AND item='营业收入' AND period='current' "
                     "AND statement='利润表'", (str(Decimal(total.value) * 2), float(total.value) * 2, rid))
    store.db.commit()
    ans = Router(FactSource(store), CATALOG).answer("星河精密2021年的营业收入是多少？")
    assert ans.found and "不一致" in ans.answer and "其中：营业收入 ≤ 营业总收入" in ans.answer, ans.answer
    assert f"{Decimal(total.value):,}" in ans.answer and f"第{total.page}页" in ans.answer
    ans = Router(FactSource(store), CATALOG).answer("星河精密2021年的净利润是多少？")
    assert "不一致" not in ans.answer
    store.close()


def test_every_doubt_names_an_item_the_router_looks_up(sample_store, tmp_path):
    """The router looks for doubts only of the items a check can name (check.doubtable): every key `doubts`
    gives — each failed identity, bound and summary line, of both scopes and periods — names one of them."""
    import shutil

    from fin_qa.check import doubtable, doubts
    from fin_qa.store import Store

    shutil.copytree(sample_store.dir, tmp_path / "store")
    store = Store(tmp_path / "store")
    rid = next(r["id"] for r in store.reports() if r["short_name"] == "星河精密")
    for item in ("营业收入", "货币资金", "资产总计"):   # (figures broken so that checks of each kind fail)
        store.db.execute("UPDATE facts SET value=value*3, num=num*3 WHERE report_id=? AND item=?", (rid, item))
    store.db.commit()
    got = doubts(store, rid, CATALOG.checks)
    assert got and {item for _, item, _ in got} <= doubtable(CATALOG.checks), got.keys()
    store.close()
