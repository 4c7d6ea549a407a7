"""Accounting identities (issue 12): rules/checks.yaml over a report's facts, `fin-qa check`, and the
failed checks of `fin-qa ingest` kept as the file's warnings."""
from __future__ import annotations

import json
from decimal import Decimal

import pytest
from click.testing import CliRunner

from conftest import CATALOG, REPORTS, SHARED
from fin_qa.check import run_checks
from fin_qa.cli import cli

MORE = SHARED / "data" / "reports_more"


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


@pytest.mark.skipif(not (REPORTS.is_dir() and MORE.is_dir()), reason="../shared/data reports are absent")
def test_shared_reports_hold_their_identities(tmp_path):
    store = tmp_path / "s"
    ingested = CliRunner().invoke(cli, ["ingest", str(REPORTS), str(MORE), "--store", str(store), "-q", "--workers", "2"])
    assert ingested.exit_code == 0, ingested.output
    r = CliRunner().invoke(cli, ["check", "--store", str(store), "--json"])
    rows = {json.loads(line)["stock_code"]: json.loads(line) for line in r.output.splitlines() if line.startswith("{")}
    assert len(rows) == 10 and all(row["checks"] >= 8 for row in rows.values())
    failed = {code for code, row in rows.items() if row["failed"]}
    # 邮储银行 2019 (FinGLM txt, a bank): 所得税费用 is stored with the sign of its printed "(2,709)" and the
    # operating-profit lines are ambiguous in the txt — the check finds exactly that report
    assert failed == {"601658"}
    assert rows["601658"]["failed"] == 4
    # ingest said so for that report, and for no other
    bank = [line for line in ingested.output.splitlines() if "邮储银行" in line]
    assert bank and "check failed: 净利润 = 利润总额 - 所得税费用" in bank[0]
    assert sum("check failed" in line for line in ingested.output.splitlines()) == 1
