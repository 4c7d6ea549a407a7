"""Series questions (answer/series.py) and whether an answer is complete (found / partial), from the CLI,
the Python API, batch's Excel sheet and the HTTP API — on the bundled sample (its 主要会计数据 prints
2019—2021) and, where ../shared is present, on 四方科技's 2019 report."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import fin_qa
from conftest import needs_shared
from fin_qa.cli import cli

REVENUE = {2019: 224000000.0, 2020: 260000000.0, 2021: 300000000.0}
PARENT_PROFIT = {2019: 23100000.0, 2020: 27965000.0, 2021: 36380000.0}


def _ask(store, question: str, *extra: str) -> tuple[int, dict]:
    res = CliRunner().invoke(cli, ["ask", question, "--store", str(store), "--json", *extra])
    return res.exit_code, json.loads(res.output)


@pytest.fixture(scope="module")
def qa(serve_store):
    with fin_qa.open(serve_store) as q:
        yield q


def test_near_three_years_each_value_cited_with_its_change(serve_store):
    code, rec = _ask(serve_store, "星河精密近三年的归母净利润")
    assert code == 0 and rec["method"] == "series" and rec["found"] is True and rec["partial"] == []
    (s,) = rec["series"]
    assert s["item"] == "归属于母公司所有者的净利润" and s["unit"] == "元"
    assert {p["year"]: p["value"] for p in s["points"]} == PARENT_PROFIT
    # where each value was read: the summary table of the 2021 report, its three columns, on p.2
    assert [p["read_from"]["column"] for p in s["points"]] == ["previous2", "previous", "current"]
    assert all(p["read_from"]["report_year"] == 2021 and p["read_from"]["page"] == 2 for p in s["points"])
    assert [p["change_rate"] for p in s["points"]] == [None, 21.06, 30.09]
    assert "2020年为27,965,000.00元，比上年增长了21.06%（+4,865,000.00元）" in rec["answer"]
    assert "2019年的数据取自2021年年报主要会计数据表的2019年列" in rec["answer"]
    assert [e["year"] for e in rec["evidence"]] == [2019, 2020, 2021]


def test_a_trend_says_how_the_series_moves(serve_store):
    code, rec = _ask(serve_store, "星河精密近三年营业收入的变化趋势如何？")
    assert code == 0 and rec["method"] == "series"
    assert {p["year"]: p["value"] for p in rec["series"][0]["points"]} == REVENUE
    assert "总体看逐年上升，2021年比2019年增长了33.93%" in rec["answer"]
    # 2020 read from the income statement's previous column (p.6), 2019 from the summary (p.2)
    pages = {p["year"]: p["read_from"]["page"] for p in rec["series"][0]["points"]}
    assert pages == {2019: 2, 2020: 6, 2021: 6}


@pytest.mark.parametrize("question", [
    "星河精密2019—2021年的营业收入", "星河精密2019年至2021年营业收入各是多少？", "星河精密历年的营业收入",
    "星河精密每年的营业收入是多少？", "星河精密最近3个会计年度的营业收入", "星河精密2021年近三年的营业收入",
    "星河精密过去三年营业收入有什么变化？",
])
def test_every_way_of_asking_a_series(serve_store, question):
    code, rec = _ask(serve_store, question)
    assert code == 0 and rec["method"] == "series", rec["answer"]
    assert {p["year"]: p["value"] for p in rec["series"][0]["points"]} == REVENUE


def test_years_nothing_holds_are_said_and_the_answer_is_partial(serve_store):
    code, rec = _ask(serve_store, "星河精密近五年的营业收入")
    assert code == 0 and rec["found"] is False and rec["partial"] == ["2017年营业收入", "2018年营业收入"]
    assert "2017年、2018年的营业收入未查询到" in rec["answer"]
    assert rec["series"][0]["missing"] == [2017, 2018]


@pytest.mark.parametrize("question,word", [
    ("近三年营业收入最高的公司是哪家？", "近三年"),          # a ranking across companies is no series
    ("星河精密2021年营业收入的变化趋势", "变化趋势"),         # a trend of one year
])
def test_what_a_series_cannot_answer_is_declined(serve_store, question, word):
    code, rec = _ask(serve_store, question)
    assert code == 1 and rec["method"] == "declined" and word in rec["answer"], rec["answer"]


def test_python_answer_carries_the_series_and_its_completeness(qa):
    ans = qa.ask("星河精密近三年的营业收入")
    assert ans.found and ans.partial == [] and ans.answered
    assert [p["value"] for p in ans.series[0]["points"]] == list(REVENUE.values())
    part = qa.ask("星河精密2021年的营业收入是多少？实际控制人是谁？")
    assert not part.found and part.answered and len(part.partial) == 1 and "实际控制人" in part.partial[0]
    none = qa.ask("2021年天马科技的营业收入是多少元?")
    assert not none.found and none.partial == [] and not none.answered


def test_batch_to_excel_writes_a_series_as_columns(serve_store, tmp_path):
    from openpyxl import load_workbook

    questions = tmp_path / "q.jsonl"
    questions.write_text("".join(json.dumps({"id": i, "question": q}, ensure_ascii=False) + "\n" for i, q in enumerate(
        ["星河精密近三年的营业收入", "2021年星河精密的货币资金是多少元?", "星河精密2021年的营业收入是多少？实际控制人是谁？"])),
        encoding="utf-8")
    out = tmp_path / "a.xlsx"
    res = CliRunner().invoke(cli, ["batch", str(questions), "-o", str(out), "--store", str(serve_store)])
    assert res.exit_code == 0, res.output
    rows = list(load_workbook(out).active.values)
    head = list(rows[0])
    assert head[8:] == ["found", "partial", "营业收入 2019年", "营业收入 2020年", "营业收入 2021年"]
    assert list(rows[1][10:]) == list(REVENUE.values()) and rows[1][8] is True
    assert rows[2][10:] == (None, None, None) and rows[2][8] is True
    assert rows[3][8] is False and "实际控制人" in rows[3][9]


def test_json_lines_of_a_batch_say_found_and_partial(serve_store, tmp_path):
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps({"id": 1, "question": "星河精密近五年的营业收入"}, ensure_ascii=False) + "\n",
                         encoding="utf-8")
    out = tmp_path / "a.jsonl"
    assert CliRunner().invoke(cli, ["batch", str(questions), "-o", str(out), "--store", str(serve_store)]).exit_code == 0
    rec = json.loads(out.read_text(encoding="utf-8"))
    assert rec["found"] is False and rec["partial"] == ["2017年营业收入", "2018年营业收入"] and rec["series"]


def test_api_ask_says_whether_every_ask_was_answered(serve_store):
    from serving import ServerProcess, request, server_env

    srv = ServerProcess("--store", str(serve_store), env=server_env())
    try:
        whole = request(srv.base, "/api/ask", {"question": "星河精密2021年销售费用和管理费用分别是多少？哪一项更高？"}).json()
        assert whole["found"] is True and whole["partial"] == [] and len(whole["asks"]) == 2
        part = request(srv.base, "/api/ask", {"question": "星河精密2021年的营业收入是多少？实际控制人是谁？"}).json()
        assert part["found"] is False and len(part["partial"]) == 1 and "实际控制人" in part["partial"][0]
        assert [a["found"] for a in part["asks"]] == [True, False]
        series = request(srv.base, "/api/ask", {"question": "星河精密近三年营业收入的变化趋势如何？"}).json()
        assert series["found"] is True and [p["year"] for p in series["series"][0]["points"]] == [2019, 2020, 2021]
        assert all(e.get("image") for e in series["evidence"])   # each value's page, to show boxed
        script = request(srv.base, "/static/vendor/chart.umd.min.js")
        assert script.status == 200 and b"Chart.js v4" in script.body[:200]
        assert request(srv.base, "/static/vendor/nothing.js").status == 404
    finally:
        srv.stop()


@needs_shared
def test_sifang_three_years_of_parent_profit(shared_store):
    """The issue's question on a real report: 四方科技's 2019 report holds the three years (主要会计数据 p.5,
    the income statement's two columns p.64)."""
    from fin_qa.answer.facts import FactSource
    from fin_qa.answer.router import Router
    from conftest import CATALOG

    router = Router(FactSource(shared_store), CATALOG)
    ans = router.answer("四方科技近三年的归母净利润")
    assert ans.method == "series" and ans.found
    assert [p["value"] for p in ans.series[0]["points"]] == [172184765.20, 182223387.13, 129465020.68]
    assert [e.page for e in ans.evidence] == [5, 64, 64]
    trend = router.answer("四方科技近三年营业收入的变化趋势如何？")
    assert "先升后降" in trend.answer and "比上年下降了4.49%" in trend.answer
