"""`fin-qa export --schema teddy` (fin_qa/teddy.py, keyword_tables/teddy.yaml): the Teddy Cup 2026 problem B's four
tables, one row per filing, in SQLite and Excel, every value cited — over the sample company's filings (built
here) and over ../shared/data/periodic (skipped when it is absent), the columns checked against the problem's own
附件3."""
from __future__ import annotations

import json
import shutil
import sqlite3
from decimal import Decimal
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from fin_qa.catalog import Catalog
from fin_qa.cli import cli

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data" / "periodic"
SCHEMA = SHARED / "附件3：数据库-表名及字段说明.xlsx"
TABLES = ("core_performance_indicators_sheet", "balance_sheet", "income_sheet", "cash_flow_sheet")


def _fails(args: list[str]) -> str:
    """What `fin-qa ARGS` says when it refuses (one line, a non-zero exit: cli.main), the exit checked."""
    from fin_qa.cli import main

    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code != 0
    return err.getvalue()


def _rows(db: Path, table: str) -> list[dict]:
    con = sqlite3.connect(db)
    cur = con.execute(f"SELECT * FROM {table}")
    cols = [d[0] for d in cur.description]
    out = [dict(zip(cols, r)) for r in cur.fetchall()]
    con.close()
    return out


@pytest.fixture(scope="module")
def sample_export(tmp_path_factory):
    """The sample company's annual report and its 2022 filings ingested, then exported through the CLI."""
    from fin_qa.sample import build_filing_pdf, build_sample_pdf

    d = tmp_path_factory.mktemp("teddy")
    build_sample_pdf(d / "reports" / "星河精密2021年年度报告.pdf")
    for period, name in (("Q1", "a.pdf"), ("HY", "b.pdf"), ("Q3", "c.pdf")):
        build_filing_pdf(d / "reports" / name, period)
    r = CliRunner().invoke(cli, ["ingest", str(d / "reports"), "--store", str(d / "store"), "-q"])
    assert r.exit_code == 0, r.output
    said = _fails(["export", "--schema", "teddy", "-o", str(d / "out" / "teddy"), "--store", str(d / "store")])
    assert "does not exist" in said   # (the folder to write into must be there)
    (d / "out").mkdir()
    r = CliRunner().invoke(cli, ["export", "--schema", "teddy", "-o", str(d / "out" / "teddy"), "--store",
                                 str(d / "store")])
    assert r.exit_code == 0, r.output
    return d


def test_one_row_per_filing_in_both_files(sample_export):
    db, xlsx = sample_export / "out" / "teddy.sqlite", sample_export / "out" / "teddy.xlsx"
    core = _rows(db, "core_performance_indicators_sheet")
    assert [(r["report_year"], r["report_period"]) for r in core] == [(2021, "FY"), (2022, "Q1"), (2022, "HY"),
                                                                       (2022, "Q3")]
    assert [r["serial_number"] for r in core] == [1, 2, 3, 4]
    assert {r["stock_abbr"] for r in core} == {"星河精密"}
    wb = openpyxl.load_workbook(xlsx, read_only=True)
    assert wb.sheetnames == ["业绩指标表", "资产负债表", "利润表", "现金流量表", "来源"]
    sheet = list(wb["业绩指标表"].iter_rows(values_only=True))
    assert sheet[0][:3] == ("serial_number", "stock_code", "stock_abbr") and len(sheet) == 1 + len(core)
    assert [row[-2:] for row in sheet[1:]] == [(r["report_period"], r["report_year"]) for r in core]


def test_every_value_read_or_computed_and_cited(sample_export):
    db = sample_export / "out" / "teddy.sqlite"
    sources = _rows(db, "teddy_sources")
    cited = {(s["table_name"], s["serial_number"], s["field"]) for s in sources}
    assert all(s["source"] for s in sources)
    for table in TABLES:
        for row in _rows(db, table):
            for k, v in row.items():
                if v is not None and k not in ("serial_number", "stock_code", "stock_abbr", "report_period",
                                               "report_year"):
                    assert (table, row["serial_number"], k) in cited, (table, row, k)
    # amounts in 万元 (two places), the sample's 2021 revenue as printed in 元
    income = {(r["report_year"], r["report_period"]): r for r in _rows(db, "income_sheet")}
    fy = income[(2021, "FY")]
    from fin_qa.store import Store
    with Store(sample_export / "store", create=False, readonly=True) as store:
        rid = next(r.id for r in store.report_list() if r.year == 2021 and r.period == "FY")
        revenue = next(f for f in store.report_facts(rid, ["营业收入"], "current"))
    assert Decimal(str(fy["total_operating_revenue"])) == (Decimal(revenue.value) / 10000).quantize(Decimal("0.01"))


def test_an_export_is_not_written_over_without_force(sample_export):
    out = sample_export / "out" / "teddy"
    assert "--force" in _fails(["export", "--schema", "teddy", "-o", str(out), "--store", str(sample_export / "store")])
    # (the report schema names its report)
    assert "--company and --year" in _fails(["export", "-o", str(out) + ".xlsx", "--store", str(sample_export / "store")])


def test_a_field_naming_no_item_is_a_rules_problem(tmp_path):
    root = tmp_path / "rules"
    shutil.copytree(Catalog.shipped().root, root)
    path = root / "keyword_tables" / "teddy.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("item: [存货]", "item: [存货余额之谜]"), encoding="utf-8")
    problems, _ = Catalog.check(root)
    assert any("teddy.yaml" in p and "存货余额之谜" in p for p in problems), problems


# ------------------------------------------------------------------------------------- the problem's own data

needs_periodic = pytest.mark.skipif(not SCHEMA.is_file(), reason="../shared/data/periodic is absent")


@pytest.fixture(scope="module")
def periodic_export(tmp_path_factory):
    if not SCHEMA.is_file():
        pytest.skip("../shared/data/periodic is absent")
    from fin_qa.ingest.pipeline import ingest
    from fin_qa.store import Store
    from fin_qa.teddy import TeddyExport

    d = tmp_path_factory.mktemp("teddy_periodic")
    catalog = Catalog.shipped()
    with Store(d / "store") as store:
        ingest([SHARED / "附件2：财务报告"], store, catalog, workers=2)
        db, _, counts = TeddyExport(store, catalog).write(d / "teddy")
    return db, counts


@needs_periodic
def test_the_columns_are_the_problems_own(periodic_export):
    # 附件3 lists each table's fields in order: the export writes those columns, no more, no fewer
    db, _ = periodic_export
    wb = openpyxl.load_workbook(SCHEMA, read_only=True)
    sheets = {ws.title: [r[0] for r in ws.iter_rows(min_row=2, values_only=True) if r[0]] for ws in wb.worksheets[1:]}
    names = dict(list(wb.worksheets[0].iter_rows(min_row=2, values_only=True)))
    con = sqlite3.connect(db)
    for title, fields in sheets.items():
        table = next(en for cn, en in names.items() if cn.rstrip("表") in title)
        cols = [d[0] for d in con.execute(f"SELECT * FROM {table} LIMIT 0").description]
        assert cols == fields, (table, cols, fields)


@needs_periodic
def test_the_periodic_filings_figures(periodic_export):
    db, counts = periodic_export
    assert counts["core_performance_indicators_sheet"] >= 20
    core = {(r["stock_abbr"], r["report_year"], r["report_period"]): r for r in _rows(db, "core_performance_indicators_sheet")}
    q1 = core[("华润三九", 2023, "Q1")]
    # 华润三九 2023年一季度报告 p.1: 营业收入 6,352,408,318.71元, 上年同期 4,250,226,596.43元
    assert q1["total_operating_revenue"] == 635240.83 and q1["operating_revenue_yoy_growth"] == 49.4605
    assert q1["operating_revenue_qoq_growth"] is None   # (a first quarter has no quarter before it in its year)
    # the second quarter alone (1–6月 − 1–3月) against the first: derived, said how
    hy = core[("华润三九", 2023, "HY")]
    assert hy["operating_revenue_qoq_growth"] is not None
    sources = {(s["table_name"], s["serial_number"], s["field"]): s["source"] for s in _rows(db, "teddy_sources")}
    how = sources[("core_performance_indicators_sheet", hy["serial_number"], "operating_revenue_qoq_growth")]
    assert "推算" in how and "上半年（1-6月）" in how and "第一季度（1-3月）" in how
    # a balance of an annual 摘要 (no balance sheet printed) is the next interim filing's 上年度末, cited there
    balance = {(r["stock_abbr"], r["report_year"], r["report_period"]): r for r in _rows(db, "balance_sheet")}
    fy22 = balance[("华润三九", 2022, "FY")]
    assert fy22["asset_total_assets"] is not None
    assert "2023Q1" in sources[("balance_sheet", fy22["serial_number"], "asset_total_assets")]
    # the schema's 预收账款 is 0 only where the balance sheet was read and prints no such line
    for r in _rows(db, "balance_sheet"):
        if r["liability_advance_from_customers"] == 0:
            assert "填0" in sources[("balance_sheet", r["serial_number"], "liability_advance_from_customers")]


# ------------------------------------------------------------------------------------- files of conversations

def test_a_file_of_conversations_answered_turn_by_turn(sample_export):
    # the problem's batch format: each row a conversation, a turn completing the question back of the one before
    from fin_qa.conversations import COLUMNS

    d = sample_export
    rows = [{"编号": "C1", "问题类型": "数据基本查询", "问题": json.dumps([{"Q": "星河精密利润总额是多少"}, {"Q": "2022年第三季度的"}],
                                                                ensure_ascii=False)},
            {"编号": "C2", "问题类型": "数据基本查询", "问题": "[{\"Q\": 没有引号}]"},
            {"编号": "C3", "问题类型": "数据基本查询", "问题": json.dumps([{"Q": "星河精密2021年的利润总额是多少？"}], ensure_ascii=False)}]
    qfile = d / "conversations.jsonl"
    qfile.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    out = d / "out" / "result_2.xlsx"
    r = CliRunner().invoke(cli, ["batch", str(qfile), "--style", "teddy", "-o", str(out), "--store", str(d / "store"),
                                 "-q"])
    assert r.exit_code == 0, r.output
    sheet = list(openpyxl.load_workbook(out, read_only=True).active.iter_rows(values_only=True))
    assert sheet[0] == COLUMNS and [row[0] for row in sheet[1:]] == ["C1", "C2", "C3"]
    got = {row[0]: (row[2], json.loads(row[4])) for row in sheet[1:]}
    first, second = got["C1"][1]
    assert "报告期" in first["A"]["content"]                      # which period? asked back …
    assert second["Q"] == "2022年第三季度的" and "第三季度" in second["A"]["content"] and "元" in second["A"]["content"]
    assert "前三季度（1-9月）的利润总额是" in second["A"]["content"]   # … and the next turn completes it
    assert "读不成问题" in got["C2"][1][0]["A"]["content"]        # a row that is no list of turns says so, the run goes on
    assert [row[1] for row in sheet[1:] if row[0] == "C2"] == ['[{"Q": 没有引号}]']   # (its question as written)
    # a value the structured database holds: its SELECT over `export --schema teddy`'s tables
    assert "SELECT total_profit FROM income_sheet WHERE" in got["C3"][0] and "report_year = 2021" in got["C3"][0] \
        and "report_period = 'FY'" in got["C3"][0], got["C3"][0]
    # the same as JSON lines; an existing output is not written over without --force
    out2 = d / "out" / "result_2.jsonl"
    r = CliRunner().invoke(cli, ["batch", str(qfile), "--style", "teddy", "-o", str(out2), "--store", str(d / "store"),
                                 "-q"])
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in out2.read_text(encoding="utf-8").splitlines()]
    assert [x["编号"] for x in lines] == ["C1", "C2", "C3"] and set(lines[0]) == set(COLUMNS)
    assert "--force" in _fails(["batch", str(qfile), "--style", "teddy", "-o", str(out2), "--store", str(d / "store")])


def test_the_result_3_layout(tmp_path, sample_export):
    """Task 3's results (附件7 表6): 编号, 问题, SQL查询语法, 回答 — by OUTPUT's name or --layout; --layout is
    teddy's only."""
    qfile = tmp_path / "q.jsonl"
    qfile.write_text(json.dumps({"编号": "B2001", "问题类型": "数据基本查询", "问题": [{"Q": "星河精密2021年的利润总额是多少？"}]},
                                ensure_ascii=False) + "\n", encoding="utf-8")
    store = str(sample_export / "store")
    for out, extra in ((tmp_path / "result_3.xlsx", []), (tmp_path / "answers.xlsx", ["--layout", "result_3"])):
        r = CliRunner().invoke(cli, ["batch", str(qfile), "--style", "teddy", "-o", str(out), "--store", store, "-q",
                                     *extra])
        assert r.exit_code == 0, r.output
        sheet = list(openpyxl.load_workbook(out, read_only=True).active.iter_rows(values_only=True))
        assert sheet[0] == ("编号", "问题", "SQL查询语法", "回答")
        assert "SELECT total_profit FROM income_sheet" in sheet[1][2] and "利润总额" in sheet[1][3]
    assert "--layout" in _fails(["batch", str(qfile), "-o", str(tmp_path / "x.jsonl"), "--layout", "result_3",
                                 "--store", store])


def test_a_question_file_that_is_no_file_of_conversations(tmp_path, sample_export):
    bad = tmp_path / "q.xlsx"
    wb = openpyxl.Workbook()
    wb.active.append(["id", "question"])
    wb.save(bad)
    said = _fails(["batch", str(bad), "--style", "teddy", "-o", str(tmp_path / "r.xlsx"), "--store",
                   str(sample_export / "store")])
    assert "编号" in said and "问题" in said
    assert "no such file" in _fails(["batch", str(tmp_path / "none.xlsx"), "--style", "teddy", "-o",
                                     str(tmp_path / "r.xlsx"), "--store", str(sample_export / "store")])


@needs_periodic
def test_the_problems_own_question_file(tmp_path, periodic_export):
    db, _ = periodic_export
    out = tmp_path / "result_2.xlsx"
    r = CliRunner().invoke(cli, ["batch", str(SHARED / "附件4：问题汇总.xlsx"), "--style", "teddy", "-o", str(out),
                                 "--store", str(db.parent / "store"), "-q"])
    assert r.exit_code == 0, r.output
    sheet = list(openpyxl.load_workbook(out, read_only=True).active.iter_rows(values_only=True))
    got = {row[0]: json.loads(row[4]) for row in sheet[1:]}
    assert set(got) == {"B1001", "B1002"}
    assert got["B1001"][0]["A"]["content"].startswith("请问你查询哪一个报告期的利润总额")   # (the problem's own reply)
    assert len(got["B1001"]) == 2 and got["B1001"][1]["Q"] == "2025年第三季度的"
