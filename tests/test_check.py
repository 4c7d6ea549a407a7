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
