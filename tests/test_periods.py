"""Every filing a company publishes, with its period as data (issue 44).

Without ../shared: the sample company's 2021 annual report and its 2022 first-quarter report, half-year summary
and third-quarter report (fin_qa/sample.py build_filing_pdf) — identified by their content, never one period
taken for another, every kind of period question answered or declined. With ../shared: every file of
../shared/data (periodic, periodic_more, corpus, banks, reports) identified with its period and kind; the
periodic filings' checks; tests/data/periodic_questions.jsonl (written from the PDFs by a helper that never saw
the rules: its "heldout" part never tuned on) with no wrong answer.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import CATALOG, ROOT, SHARED

PERIODIC = SHARED / "data" / "periodic" / "附件2：财务报告"
PERIODIC_MORE = SHARED / "data" / "periodic_more"
NOTES = SHARED / "data" / "periodic" / "附件5：研报数据"   # (the problem's research notes: stored as notes)
needs_periodic = pytest.mark.skipif(not PERIODIC.is_dir(), reason="../shared/data/periodic is absent")


@pytest.fixture(scope="module")
def filings(tmp_path_factory):
    """The sample company's annual report and 2022 filings, ingested into a real store through the CLI."""
    from fin_qa.cli import cli
    from fin_qa.sample import build_filing_pdf, build_sample_pdf

    d = tmp_path_factory.mktemp("filings")
    build_sample_pdf(d / "reports" / "星河精密2021年年度报告.pdf")
    for period, name in (("Q1", "a.pdf"), ("HY", "b.pdf"), ("Q3", "c.pdf")):   # names that say nothing
        build_filing_pdf(d / "reports" / name, period)
    r = CliRunner().invoke(cli, ["ingest", str(d / "reports"), "--store", str(d / "store"), "-q"])
    assert r.exit_code == 0, r.output
    return d


def ask(store: Path, question: str) -> dict:
    from fin_qa.cli import cli

    r = CliRunner().invoke(cli, ["ask", question, "--store", str(store), "--json"])
    assert r.exit_code in (0, 1), r.output
    return json.loads(r.output)


def test_each_filing_is_told_by_its_content(filings):
    from fin_qa.cli import cli

    r = CliRunner().invoke(cli, ["reports", "--store", str(filings / "store"), "--json"])
    rows = {Path(x["files"]).name: (x["period"], x["kind"], x["key"]) for x in map(json.loads, r.output.splitlines())}
    assert rows == {"星河精密2021年年度报告.pdf": ("2021FY", "report", "688999:2021"),
                    "a.pdf": ("2022Q1", "report", "688999:2022Q1"),
                    "b.pdf": ("2022HY", "summary", "688999:2022HY:summary"),
                    "c.pdf": ("2022Q3", "report", "688999:2022Q3")}
    r = CliRunner().invoke(cli, ["reports", "--store", str(filings / "store")])
    assert "\t2022Q3\t" in r.output and "\t2022HY摘要\t" in r.output and "\t2021\t" in r.output


def test_checks_hold_and_a_third_quarter_adds_up(filings):
    from fin_qa.cli import cli

    r = CliRunner().invoke(cli, ["check", "--store", str(filings / "store"), "--all"])
    assert r.exit_code == 0, r.output
    assert "4 reports, 0 with a failed check" in r.output
    assert "ok     半年度 + 第三季度单季 = 前三季度：营业收入（本期）: 260,000,000 vs 260,000,000" in r.output
    assert "星河精密 2022HY摘要 (688999)" in r.output and "完整性" not in r.output.split("2022HY摘要")[1].split("\n")[0]


def test_a_quarter_never_answers_a_year(filings):
    """No 2022 annual report: a question of the year 2022 is never answered with 1–9月 — asked back which of the
    year's filings is meant (its interim filings are there), or declined when the year's whole is asked."""
    a = ask(filings / "store", "星河精密2022年营业收入是多少？")
    assert a["method"] == "ask_period" and not a["found"] and "260,000,000" not in a["answer"]
    assert a["answer"] == ("库中没有星河精密2022年的年度报告。请问你查询2022年哪一个报告期的营业收入？（可选：2022年第一季度、"
                           "2022年半年度、2022年第三季度）"), a["answer"]
    a = ask(filings / "store", "星河精密2022年全年营业收入是多少？")
    assert a["method"] in ("not_found", "declined") and "260,000,000" not in a["answer"]
    a = ask(filings / "store", "星河精密2021年营业收入是多少？")
    assert a["found"] and "300,000,000.00" in a["answer"] and "季度" not in a["answer"]


def test_third_quarter_gives_both_readings_each_labelled(filings):
    a = ask(filings / "store", "星河精密2022年第三季度营业收入是多少？")
    assert a["found"]
    assert "第三季度单季（7-9月）的营业收入是90,000,000.00元" in a["answer"]
    assert "前三季度（1-9月）的营业收入是260,000,000.00元" in a["answer"]
    assert "推算" not in a["answer"]   # (the quarter alone is printed: 本报告期)
    assert {e["report"] for e in a["evidence"]} == {"688999:2022Q3"}
    assert {e.get("within") for e in a["evidence"]} == {"第三季度单季（7-9月）", "前三季度（1-9月）"}


@pytest.mark.parametrize("question, expected, absent", [
    ("星河精密2022年前三季度营业收入是多少？", "260,000,000.00", "90,000,000.00"),
    ("星河精密2022年1-9月的营业收入", "260,000,000.00", "90,000,000.00"),
    ("星河精密2022年第三季度单季营业收入是多少？", "90,000,000.00", "260,000,000.00"),
    ("星河精密2022年7-9月归母净利润是多少？", "13,000,000.00", "38,000,000.00"),
    ("星河精密2022年Q1营业收入", "80,000,000.00", None),
    ("星河精密2022年一季报的净利润是多少？", "12,000,000.00", None),
    ("星河精密2022年上半年营业收入是多少？", "170,000,000.00", None),
    ("星河精密2022年中报的归母净利润", "25,000,000.00", None),
    ("星河精密2022年三季度末的货币资金是多少？", "138,456,700.00", None),
    ("星河精密2022年9月30日资产总计是多少？", "450,000,000.00", None),
])
def test_period_words_choose_the_period(filings, question, expected, absent):
    a = ask(filings / "store", question)
    assert a["found"], a["answer"]
    assert expected in a["answer"]
    assert absent is None or absent not in a["answer"]


def test_a_quarter_no_filing_prints_alone_is_derived_and_said(filings):
    a = ask(filings / "store", "星河精密2022年第二季度单季营业收入是多少？")
    assert a["found"] and "90,000,000.00" in a["answer"]
    assert "推算值：2022年上半年（1-6月）170,000,000.00元（688999:2022HY:summary" in a["answer"]
    assert "− 2022年第一季度（1-3月）80,000,000.00元（688999:2022Q1" in a["answer"]
    # the fourth quarter of 2021: the year less 1–9月, read from the 2022 third quarter's 上年同期 column
    a = ask(filings / "store", "星河精密2021年第四季度营业收入是多少？")
    assert a["found"] and "70,000,000.00" in a["answer"]
    assert "2021年前三季度（1-9月）营业收入读自2022年第三季度报告（688999:2022Q3" in a["answer"]
    # a per-share figure is never derived by subtraction
    a = ask(filings / "store", "星河精密2022年第二季度基本每股收益是多少？")
    assert not a["found"]


def test_year_on_year_quarter_on_quarter_ratios(filings):
    a = ask(filings / "store", "星河精密2022年前三季度净利润同比增长多少？")
    assert a["found"] and "15.15%" in a["answer"] and "33,000,000.00" in a["answer"]
    a = ask(filings / "store", "星河精密2022年第三季度营业收入环比增长多少？")
    assert a["found"] and "环比增长率为0.00%" in a["answer"]   # 7–9月 90,000,000 against 4–6月 90,000,000
    a = ask(filings / "store", "星河精密2022年第三季度单季营业收入比第一季度多了多少？")
    assert a["found"] and "较对比期变化10,000,000.00元" in a["answer"] and "12.50%" in a["answer"]
    a = ask(filings / "store", "星河精密2022年三季度末的资产负债率是多少？")
    assert a["found"] and "31.11%" in a["answer"]   # 140,000,000 / 450,000,000


def test_each_quarter_and_periods_listed(filings):
    a = ask(filings / "store", "星河精密2022年一季度、半年度和三季度的营业收入分别是多少？")
    assert all(v in a["answer"] for v in ("80,000,000.00", "170,000,000.00", "260,000,000.00"))
    a = ask(filings / "store", "星河精密2022年各季度营业收入")
    assert all(v in a["answer"] for v in ("80,000,000.00", "90,000,000.00"))
    assert "第四季度单季（10-12月）" in a["answer"] and a["partial"]   # (no 2022 annual report: Q4 not found)


def test_no_period_asks_back_and_a_follow_up_completes_it(filings):
    a = ask(filings / "store", "星河精密利润总额是多少？")
    assert a["method"] == "ask_period" and a["answer"].startswith("请问你查询哪一个报告期的利润总额？")
    assert "2022年第三季度" in a["answer"]
    # the next question names the period: the question asked back is answered for it
    from fin_qa.cli import cli

    context = filings / "asked_back.json"
    context.write_text(json.dumps(a, ensure_ascii=False), encoding="utf-8")
    r = CliRunner().invoke(cli, ["ask", "2022年第三季度的", "--context", str(context), "--store",
                                 str(filings / "store"), "--json"])
    b = json.loads(r.output)
    assert "45,000,000.00" in b["answer"] and "星河精密2022年第三季度利润总额是多少" in b["answer"]
    assert b["partial"] == ["第三季度单季（7-9月）"]   # (no filing prints 7–9月's 利润总额, nor 1–6月's)
    # a question naming its year, or years in any words, is answered as before
    a = ask(filings / "store", "星河精密近三年营业收入的变化趋势如何？")
    assert a["found"] and a["series"]
    a = ask(filings / "store", "星河精密2021年利润总额是多少？")
    assert a["found"] and "42,800,000.00" in a["answer"]


def _conversation(store: Path, *turns: str) -> list[dict]:
    """Each turn answered in the context of the one before it (fin_qa/conversations.py's way), as records."""
    from fin_qa.answer.facts import FactSource
    from fin_qa.answer.followup import Context
    from fin_qa.answer.router import Router
    from fin_qa.store import Store

    router = Router(FactSource(Store(store, create=False, readonly=True)), CATALOG)
    out, context = [], None
    for q in turns:
        rec = router.follow(q, context).record()
        context = Context.from_dict(rec)
        out.append(rec)
    return out


def test_a_conversation_keeps_its_period(filings):
    """The period within the year a question named is carried to the turns after it, and a turn naming only a
    period changes it: the half year's value, never the year's."""
    first, company, third, other = _conversation(filings / "store", "2022年上半年的营业收入是多少？", "星河精密",
                                                 "那第三季度呢？", "利润总额呢")
    assert first["method"] == "ask_which" and first["answer"].startswith("请问你查询哪一家公司的营业收入？")
    assert first["context"]["period"] == "上半年" and first["context"]["years"] == [2022]
    assert "2022年上半年（1-6月）的营业收入是170,000,000.00元" in company["answer"]
    assert "90,000,000.00" in third["answer"] and "260,000,000.00" in third["answer"]   # 7–9月 and 1–9月
    assert "170,000,000" not in third["answer"] and third["context"]["period"] == "第三季度"
    assert "2022年前三季度（1-9月）的利润总额是45,000,000.00元" in other["answer"]
    # a whole question of its own leaves the period behind
    _, year = _conversation(filings / "store", "星河精密2022年第一季度营业收入是多少？", "星河精密2021年的营业收入是多少？")
    assert "2021年的营业收入是300,000,000.00元" in year["answer"] and "period" not in year["context"]


@pytest.mark.parametrize("question, item, value", [
    ("营业收入是多少？", "营业收入", "2022年第一季度（1-3月）的营业收入是80,000,000.00元"),
    ("这家公司2022年一季度营收是多少？", "营业收入", "2022年第一季度（1-3月）的营收（营业收入）是80,000,000.00元"),
    ("帮我查一下一季度的营业收入", "营业收入", "2022年第一季度（1-3月）的营业收入是80,000,000.00元"),
    ("2022年上半年的营业收入是多少？", "营业收入", "2022年上半年（1-6月）的营业收入是170,000,000.00元"),
])
def test_a_value_asked_of_no_company_asks_which_one(filings, question, item, value):
    """A value asked with no company named, or only pointed at (这家公司), is asked back — not declined, never
    the item's definition — and the next turn naming the company answers the question as asked."""
    back, answered, period = _conversation(filings / "store", question, "星河精密", "2022年第一季度的")
    assert back["method"] == "ask_which" and back["answer"] == f"请问你查询哪一家公司的{item}？请说出公司名称。"
    if not re.search("年|季", question):   # (no period named either: which one is asked next, then answered)
        assert answered["method"] == "ask_period", answered["answer"]
        answered = period
    assert answered["found"] and "星河精密" in answered["context"]["companies"], answered["answer"]
    assert value in answered["answer"], answered["answer"]


@pytest.mark.parametrize("question", ["什么是营业收入？", "资产负债率多少比较好？", "流动比率多少合适？",
                                      "毛利率一般是多少？", "行业平均毛利率是多少？"])
def test_a_definition_or_what_is_usual_is_no_question_back(filings, question):
    assert ask(filings / "store", question)["method"] == "open"


def test_a_text_asked_after_a_periods_value_is_the_years(filings):
    """A text asked after a period's value is the year's report's: no period carried into it."""
    _, text = _conversation(filings / "store", "星河精密2022年上半年营业收入是多少", "它的核心竞争力是什么？")
    assert "上半年" not in text["from_context"]["question"] and "period" not in text["from_context"]


@pytest.mark.parametrize("question, said, absent", [
    # a change taken for granted that the figures contradict: said first, with both values
    ("星河精密2021年营业收入同比下降的原因是什么？",
     "问题的前提与报表不符：营业收入并未下降，同比增长15.38%（2021年300,000,000.00元，2020年260,000,000.00元）。", None),
    # … one they bear out: the why answered with its figures first
    ("星河精密2021年营业收入同比增长的原因是什么？", "星河精密2021年营业收入同比增长15.38%（2021年300,000,000.00元", "不符"),
    # a result taken for granted (亏损 / 盈利 … 吧): the net profit's sign
    ("星河精密2021年应该是亏损的吧？", "问题的前提与报表不符：并未亏损，星河精密2021年归属于母公司所有者的净利润为36,380,000.00元（盈利）", None),
    # a period's change, confirmed as a question (吧): the same period a year before
    ("星河精密2022年前三季度营业收入比去年同期翻了一倍吧？",
     "问题的前提与报表不符：营业收入并未翻倍，同比增长13.04%（2022年前三季度（1-9月）260,000,000.00元", None),
    # no premise: a change asked is answered as before, nothing said first
    ("星河精密2021年营业收入同比增长了多少？", "变动幅度为15.38%", "前提"),
])
def test_a_premise_is_checked_against_the_figures(filings, question, said, absent):
    a = ask(filings / "store", question)
    assert said in a["answer"], a["answer"]
    assert absent is None or absent not in a["answer"]
    if said.startswith("问题的前提"):
        assert a["answer"].startswith(said) and (a["found"] or a["partial"])
        assert {e["year"] for e in a["evidence"] if "year" in e} >= {2021 if "2021" in question else 2022}


def test_a_document_naming_no_period_is_not_stored(tmp_path):
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    from fin_qa.cli import cli

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    path = tmp_path / "notice.pdf"
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setFont("STSong-Light", 12)
    c.drawString(60, 700, "证券代码：688999  证券简称：星河精密")
    c.drawString(60, 680, "星河精密制造股份有限公司关于召开股东大会的通知")
    c.save()
    r = CliRunner().invoke(cli, ["ingest", str(path), "--store", str(tmp_path / "store"), "-q"])
    assert r.exit_code != 0
    assert "cannot tell which periodic filing this is" in r.output and "no year in the file name" not in r.output


@pytest.mark.parametrize("question, period, span", [
    ("2025年第三季度营业收入", "Q3", "both"), ("前三季度净利润同比", "Q3", "ytd"), ("三季度单季", "Q3", "quarter"),
    ("1-9月", "Q3", "ytd"), ("年初至第三季度末", "Q3", "ytd"), ("Q3", "Q3", "both"), ("三季报", "Q3", "ytd"),
    ("9月30日的总资产", "Q3", "end"), ("上半年", "HY", "ytd"), ("半年报", "HY", "ytd"), ("中报", "HY", "ytd"),
    ("H1", "HY", "ytd"), ("一季度", "Q1", "ytd"), ("一季报", "Q1", "ytd"), ("Q1", "Q1", "ytd"),
    ("第二季度", "Q2", "quarter"), ("第四季度", "Q4", "quarter"), ("最新一期", "latest", "both"),
    ("2024年四季度单季归母净利润环比三季度", "Q4", "quarter"),   # (the period named first)
])
def test_period_words(question, period, span):
    from fin_qa.answer.periods import PeriodAnswerer

    reader = PeriodAnswerer.__new__(PeriodAnswerer)
    reader.rules = CATALOG.periods
    ask = reader.read(question)
    assert ask is not None and (ask.period, ask.span) == (period, span)


@pytest.mark.parametrize("question", ["2025年营业收入", "全年营业收入", "2024年报的净利润", "本期和上期发生额"])
def test_no_period_words(question):
    from fin_qa.answer.periods import PeriodAnswerer

    reader = PeriodAnswerer.__new__(PeriodAnswerer)
    reader.rules = CATALOG.periods
    assert reader.read(question) is None


# ------------------------------------------------------------------------------------------- ../shared

# every periodic filing of ../shared
def _periodic_truth() -> dict[str, tuple[str, str, str]]:
    """tests/data/periodic_manifest.csv (file, code, short name, full name, year, period, kind: read from the
    PDFs — the Shanghai names say nothing): file → (short name, 2025Q3, kind)."""
    import csv

    with open(ROOT / "tests" / "data" / "periodic_manifest.csv", encoding="utf-8", newline="") as fh:
        return {r["file"]: (r["short_name"], r["year"] + r["period"], r["kind"]) for r in csv.DictReader(fh)}


PERIODIC_TRUTH = _periodic_truth()


@pytest.fixture(scope="module")
def periodic_store(tmp_path_factory):
    if not PERIODIC.is_dir():
        pytest.skip("../shared/data/periodic is absent")
    from fin_qa.ingest.pipeline import ingest
    from fin_qa.store import Store

    d = tmp_path_factory.mktemp("periodic") / "store"
    store = Store(d)
    summary = ingest([PERIODIC, PERIODIC_MORE, *([NOTES] if NOTES.is_dir() else [])], store, CATALOG, workers=2)
    filings = [o for o in summary.outcomes if o.status == "ingested" and o.report is not None]
    assert len(filings) == len(PERIODIC_TRUTH), [(o.path, o.detail) for o in summary.outcomes]
    assert summary.count("failed") == 0, [(o.path, o.detail) for o in summary.outcomes if o.status == "failed"]
    yield store
    store.close()


@needs_periodic
def test_every_periodic_filing_stored_with_its_period_and_kind(periodic_store):
    got = {Path(r["files"]).name: (r["short_name"], r["period"], r["kind"]) for r in periodic_store.reports()}
    assert got == PERIODIC_TRUTH
    assert {r["full_name"] for r in periodic_store.reports()} == {
        "金花企业（集团）股份有限公司", "华润三九医药股份有限公司", "杭州百诚医药科技股份有限公司"}


@needs_periodic
def test_periodic_checks_hold(periodic_store):
    from fin_qa.check import check_reports

    failed = {c.name: [r.describe() for r in c.failed] for c in check_reports(periodic_store, CATALOG.checks) if c.failed}
    # 金花股份's 2023 half-year report prints its 净利润 line blank (the value stands on 持续经营净利润 and 归母 only)
    assert list(failed) == ["金花股份 2023HY (600080)"], failed
    assert all("净利润" in d for d in failed["金花股份 2023HY (600080)"])
    quarter = [r for c in check_reports(periodic_store, CATALOG.checks) for r in c.results
               if r.name.startswith("半年度 + 第三季度单季")]
    assert len(quarter) >= 6 and all(r.ok for r in quarter)


def _every_shared_document() -> list[Path]:
    data = SHARED / "data"
    return sorted(p for folder in ("reports", "reports_more", "banks", "corpus") if (data / folder).is_dir()
                  for p in (data / folder).iterdir() if p.suffix in (".pdf", ".txt"))


@pytest.mark.skipif(not (SHARED / "data" / "corpus").is_dir(), reason="../shared/data is absent")
@pytest.mark.parametrize("path", _every_shared_document(), ids=lambda p: p.name)
def test_every_annual_report_of_shared_is_an_annual_report(path):
    from fin_qa.ingest.pages import open_document
    from fin_qa.ingest.pipeline import identify
    from fin_qa.ingest.profile import extract_profile

    doc = open_document(path)
    try:
        profile = {f.item: f.value for f in extract_profile(doc, CATALOG)}
        meta, _ = identify(doc, path, profile, CATALOG)
    finally:
        doc.close()
    assert (meta.period, meta.kind) == ("FY", "report")


def _scored(store, name: str, tmp_path: Path) -> list[dict]:
    """The rows of tests/data/NAME.jsonl as scripts/eval_paraphrases.py scores them over the store."""
    out = tmp_path / f"{name}.json"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "eval_paraphrases.py"), "--store", str(store.dir),
                    str(ROOT / "tests" / "data" / f"{name}.jsonl"), "--json", str(out)],
                   check=True, capture_output=True, text=True)
    return json.loads(out.read_text(encoding="utf-8"))   # type: ignore[no-any-return]


@needs_periodic
def test_the_periodic_question_set(periodic_store, tmp_path):
    """tests/data/periodic_questions.jsonl: no wrong answer; the bounds guard against regressions (the held-out
    part's figure is reported apart: scripts/eval_paraphrases.py)."""
    rows = _scored(periodic_store, "periodic_questions", tmp_path)
    assert len(rows) == 176
    wrong = [(r["question"], r["answer"]) for r in rows if r["verdict"] == "wrong"]
    assert not wrong, wrong
    right = {s: sum(r["verdict"] == "right" for r in rows if r["split"] == s) for s in ("dev", "heldout")}
    assert right["dev"] >= 60 and right["heldout"] >= 99, right


@needs_periodic
def test_numbers_a_column_cut_are_never_a_row(periodic_store):
    """华润三九 2025Q3's key figures wrap inside their narrow 调整前/调整后 columns ("537,568,59" | "2.87"): the
    ends of the cut numbers are never read as a row of 净利润 (2.87元, 731.39元)."""
    from fin_qa.answer.facts import FactSource
    from fin_qa.answer.router import Router

    router = Router(FactSource(periodic_store), CATALOG)
    for q in ("华润三九2025年第三季度单季净利润是多少", "华润三九2025年第三季度净利润同比增长多少"):
        ans = router.answer(q)
        assert "2.87元" not in ans.answer and "731.39" not in ans.answer and "-99.61%" not in ans.answer, ans.answer


@needs_periodic
def test_a_period_asked_with_no_year_asks_which_year(periodic_store):
    """A period within a year asked with no year, where several years' filings print it: which year is asked
    back (never the latest taken for it), and the year given completes the question as asked."""
    back, answered = _conversation(periodic_store.dir, "华润三九上半年归母净利润同比增长了多少？", "2024年")
    assert back["method"] == "ask_year" and "2023年、2024年、2025年" in back["answer"], back["answer"]
    assert "27.77%" in answered["answer"] and "2024年上半年（1-6月）为2,398,360,138.02元" in answered["answer"]
    back, answered = _conversation(periodic_store.dir, "华润三九三季度的扣非净利润是多少？", "2024年第三季度单季")
    assert back["method"] == "ask_year" and "443,680,215.94" in answered["answer"]


@needs_periodic
def test_a_periods_opening_is_the_year_end_before(periodic_store):
    """期初 / 上年度末 / 年初 of an interim period is the year end before (its filing's 上年度末 column), never the same
    period end a year back (华润三九 2024年6月30日's 40,698,266,461.18 was once taken for 2024年12月31日's)."""
    a = _conversation(periodic_store.dir, "华润三九2025年上半年的资产总计比上年度末增加了多少？")[0]
    assert "期初为40,081,972,320.77元" in a["answer"] and "42.86%" in a["answer"], a["answer"]
    assert "40,698,266,461.18" not in a["answer"]
    a = _conversation(periodic_store.dir, "金花股份2023年第三季度末的年初货币资金是多少？")[0]
    assert "434,494,622.22元" in a["answer"], a["answer"]


@needs_periodic
def test_an_item_not_printed_alone_is_said_then_its_holder(periodic_store):
    """B2003: 华润三九's annual summaries print 营业收入, no 主营业务收入 — that is said first, then 营业收入 as itself
    (keyword_tables/stand_ins.yaml), drawn; the next turn's why keeps the conversation's span (近三年) and the same
    stand-in, with the notes' explanation after the figures."""
    first, why = _conversation(periodic_store.dir, "华润三九近三年的主营业务收入情况做可视化绘图", "主营业务收入上升的原因是什么")
    assert first["answer"].startswith("报告中没有单列主营业务收入") and not first["found"] and first["partial"]
    assert "27,616,611,772.61" in first["answer"] and first["chart"]["kind"] == "line"
    assert [p["year"] for p in first["series"][0]["points"]] == [2022, 2023, 2024]
    assert why["from_context"]["year"] == "近三年" and why["from_context"]["company"] == "华润三九"
    assert "报告中没有单列主营业务收入" in why["answer"] and "36.83%" in why["answer"] and "11.63%" in why["answer"]
    if NOTES.is_dir():
        assert "研报的解释" in why["answer"]
    # an item printed alone is read as itself: no stand-in said
    assert "没有单列" not in _conversation(periodic_store.dir, "华润三九2024年营业收入是多少？")[0]["answer"]
    # a company the store lacks, named beside a stand-in's words, is never asked of the conversation's company
    first, other = _conversation(periodic_store.dir, "华润三九近三年的营业收入", "天马科技主营业务收入上升的原因是什么")
    assert "华润三九" not in other["answer"] and not other.get("from_context")
    # two stand-ins, each said once; a period's question says it once
    both = _conversation(periodic_store.dir, "华润三九2024年主营业务成本和主营业务收入分别是多少")[0]
    assert both["answer"].count("报告中没有单列主营业务收入") == 1 and both["answer"].count("没有单列主营业务成本") == 1
    q3 = _conversation(periodic_store.dir, "华润三九2025年第三季度主营业务收入是多少")[0]
    assert q3["answer"].count("没有单列") == 1 and "21,986,403,962.07" in q3["answer"]


@needs_periodic
@pytest.mark.parametrize("name, bounds", [
    ("teddy_heldout", {"dev": 24, "heldout": 58}),   # (60 conversations; its heldout part looked at once)
    ("teddy_fresh", {"heldout": 68}),                 # (40 more, its first run never tuned on: 61 of 85)
    ("notes_fresh", {"heldout": 39}),                 # (36 on the notes; its first run never tuned on: 18 of 46)
    ("notes_fresh2", {"heldout": 18}),                # (24 more; its first run never tuned on: 16 of 31)
])
def test_the_conversation_sets(periodic_store, name, bounds):
    """tests/data/conversations/*.jsonl (conversations written from the PDFs by helpers that never saw the rules):
    no wrong turn; the bounds guard against regressions (each part's figure printed by
    scripts/eval_conversations.py)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("eval_conversations", ROOT / "scripts" / "eval_conversations.py")
    ev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ev)
    verdicts: dict[str, list[str]] = {}
    wrong = []
    for line in (ROOT / "tests" / "data" / "conversations" / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
        conv = json.loads(line)
        turns = _conversation(periodic_store.dir, *(t["Q"] for t in conv["问题"]))
        for rec, expect in zip(turns, conv["expect"]):
            v = ev.judge(rec["answer"], str(rec["method"]), rec["found"] or bool(rec["partial"]), expect)
            verdicts.setdefault(conv["split"], []).append(v)
            if v == "wrong":
                wrong.append((conv["编号"], rec["question"], rec["answer"]))
    assert not wrong, wrong
    right = {split: vs.count("right") for split, vs in verdicts.items()}
    assert all(right[split] >= n for split, n in bounds.items()), right


@pytest.mark.parametrize("question, expected, absent", [
    # a share, a sum of two periods' values: not computed, said
    ("星河精密2022年上半年营业收入占前三季度营业收入的比例是多少？", "不作回答", "%"),
    ("星河精密2022年第一季度和第三季度营业收入合计", "不作回答", "340,000,000"),
    # 上一季度 is the quarter before (环比), never the first quarter
    ("星河精密2022年第三季度营业收入比上一季度增长多少？", "环比增长率为0.00%", "12.50%"),
    ("星河精密2022年每一季度的营业收入", "第二季度单季（4-6月）的营业收入是90,000,000.00元", None),
    # 下半年 is the year less its first half, never 上半年
    ("星河精密2021年下半年营业收入是多少？", "下半年（7-12月）的营业收入是150,000,000.00元", "上半年（1-6月）的营业收入是"),
    # years asking different periods: asked apart, never one period for both
    ("星河精密2021年营业收入和2022年上半年营业收入分别是多少？", "请分开提问", "150,000,000"),
    ("星河精密2022年上半年和2021年全年营业收入", "请分开提问", "170,000,000"),
    # a balance at a date a flow statement prints: the period end's, never a difference
    ("星河精密2021年第四季度期末现金及现金等价物余额是多少？", "第四季度末（12月31日）的期末现金及现金等价物余额是123,456,700.00元",
     "是456,700.00元"),
    # a scope asked of two periods compared is not dropped
    ("星河精密2022年第三季度母公司营业收入环比增长多少？", "母公司", "0.00%"),
    # a fact of the company asked with no year: the latest annual report's, as before (no question back)
    ("星河精密的法定代表人是谁？", "林海峰", "请问"),
])
def test_what_is_not_computed_across_periods_is_declined(filings, question, expected, absent):
    a = ask(filings / "store", question)
    assert expected in a["answer"], a["answer"]
    assert absent is None or absent not in a["answer"], a["answer"]


def test_a_filing_an_older_parser_stored_as_an_annual_report_is_moved(filings, tmp_path):
    """A first quarter's report stored as an annual report (as an older parser did, here through --period FY):
    read again, it is stored as its period, and the annual report it was stored as is gone with its facts."""
    from fin_qa.cli import cli

    store = tmp_path / "store"
    pdf = filings / "reports" / "a.pdf"
    r = CliRunner().invoke(cli, ["ingest", str(pdf), "--store", str(store), "--period", "FY", "-q"])
    assert r.exit_code == 0, r.output
    keys = lambda: {json.loads(x)["key"] for x in CliRunner().invoke(  # noqa: E731
        cli, ["reports", "--store", str(store), "--json"]).output.splitlines()}
    assert keys() == {"688999:2021"}   # (the year of its 上年度末 column: the old misreading, reproduced)
    r = CliRunner().invoke(cli, ["ingest", str(pdf), "--store", str(store), "--force", "-q"])
    assert r.exit_code == 0, r.output
    assert keys() == {"688999:2022Q1"}
    a = ask(store, "星河精密2021年营业收入是多少？")
    assert not a["found"] and "80,000,000" not in a["answer"]


def test_a_series_of_years_says_the_latest_filing_after_it(filings):
    # the annual reports end at 2021; the 2022 third-quarter report is said after the years, with its own change —
    # never a point of the years' line (a nine months' value is no year's)
    rec = ask(filings / "store", "星河精密近三年营业收入的变化趋势如何？")
    assert rec["method"] == "series" and [p["year"] for p in rec["series"][0]["points"]] == [2019, 2020, 2021]
    tail = rec["answer"].split("最新一期（截至2022年第三季度报告）：")[1]
    assert "2022年前三季度（1-9月）为260,000,000.00元" in tail and "2021年前三季度（1-9月）为230,000,000.00元" in tail
    assert any(e.get("report") == "688999:2022Q3" for e in rec["evidence"])
    # a year written asks that year only: nothing after it
    assert "最新一期" not in ask(filings / "store", "星河精密2020年和2021年的营业收入分别是多少？")["answer"]


@needs_periodic
def test_the_fresh_periodic_set(periodic_store, tmp_path):
    """tests/data/periodic_questions_fresh.jsonl (80 questions a helper wrote from the PDFs, never seeing the rules;
    all held out): no wrong answer (its first run, never tuned: 68 right, 4 wrong)."""
    rows = _scored(periodic_store, "periodic_questions_fresh", tmp_path)
    assert len(rows) == 80
    wrong = [(r["question"], r["answer"]) for r in rows if r["verdict"] == "wrong"]
    assert not wrong, wrong
    assert sum(r["verdict"] == "right" for r in rows) >= 76


@needs_periodic
@pytest.mark.parametrize("question, said, absent", [
    # two periods named around 环比: each read in its own year (2024Q1 against 2023Q4 was answered)
    ("华润三九2025年一季度营收环比2024年四季度是增是减？变动多少？", ["6,853,656,383.75", "7,876,324,777.25", "-12.98%"],
     ["7,294,070,557.82"]),
    ("华润三九2025年一季度营收比2024年三季度增长多少？", ["6,853,656,383.75", "5,634,274,230.28"], []),
    # a period's end listed with the opening, or compared with it: both values (the opening alone was answered)
    ("华润三九2025年9月末的短期借款跟年初比分别是多少", ["1,807,806,454.78", "855,567,420.27"], []),
    ("金花股份2024年6月末和年初的货币资金分别是多少？", ["307,905,864.52", "620,449,552.12"], []),
    # a range of year ends: every year of it (the middle one was left out)
    ("金花股份2021年末到2023年末每年年末的总资产", ["1,870,188,073.55", "1,974,418,631.97", "2,108,551,141.95"], []),
    # quarters listed by their numbers, the year's four quarters, the first three each
    ("金花股份2024年一二三季度单季营收分别是多少？", ["115,789,270.68", "130,176,212.13", "172,965,736.96"], []),
    ("金花股份2023年四个季度的单季归母净利润分别是多少？", ["4,680,935.36", "-1,638,297.36", "347,660.30", "-46,280,878.55"], []),
    ("华润三九2025年前三个季度每个季度的扣非净利润分别是多少？", ["1,218,254,804.75", "479,454,321.39"], ["第四季度"]),
    # a plan's total, never its amount per 10 shares
    ("华润三九2024年度合计派发的现金红利总额是多少？", ["1,695,274,264.20"], ["是13.20元"]),
    # the year end before restated by its year: that year's end
    ("金花股份上年度末（2023年末）归属于上市公司股东的净资产是多少？", ["1,638,426,525.45"], []),
])
def test_periods_as_analysts_write_them(periodic_store, question, said, absent):
    _answered_with(periodic_store, question, said, absent)


def _answered_with(periodic_store, question: str, said: list[str], absent: list[str]) -> None:
    """The question answered over the periodic store, its answer holding every one of `said` and none of `absent`."""
    a = _conversation(periodic_store.dir, question)[0]
    assert a["method"] not in ("declined", "not_found"), a["answer"]
    for s in said:
        assert s in a["answer"], (s, a["answer"])
    for s in absent:
        assert s not in a["answer"], (s, a["answer"])


@needs_periodic
def test_a_year_end_beside_a_period_is_another_period(periodic_store):
    # 2023年末 is the year's end, never 2023年6月30日 of the period asked beside it
    a = _conversation(periodic_store.dir, "金花股份2024年6月末和2023年末的货币资金分别是多少？")[0]
    assert "475,452,872.30" not in a["answer"], a["answer"]
    # an opening's evidence is the year end before, said so
    a = _conversation(periodic_store.dir, "华润三九2025年三季度末和期初的短期借款各是多少")[0]
    assert any(e.get("within") == "末（12月31日）" and e.get("year") == 2024 for e in a["evidence"]), a["evidence"]


@needs_periodic
@pytest.mark.parametrize("question, said, absent", [
    # 环比 with the base's year unwritten, or 上年: the quarter before (2023Q4), never the same year's Q4
    ("华润三九2024年一季度营业收入环比四季度增长多少？", ["6,130,957,365.61", "18.97%"], ["7,876,324,777.25"]),
    ("华润三九2024年一季度营收环比上年四季度增长多少？", ["6,130,957,365.61"], ["7,876,324,777.25"]),
    # 2024年初 listed with the period's end: its opening, said as 年初
    ("金花股份2024年6月末和2024年初的货币资金分别是多少？", ["307,905,864.52", "2024年初的货币资金是620,449,552.12"], []),
    # a year end restating 上年末 in brackets is the base, not a second period
    ("金花股份2024年9月末货币资金较上年末（2023年末）增长了多少？", ["260,915,575.13", "620,449,552.12"], []),
])
def test_periods_the_review_found(periodic_store, question, said, absent):
    a = _conversation(periodic_store.dir, question)[0]
    for s in said:
        assert s in a["answer"], (s, a["answer"])
    for s in absent:
        assert s not in a["answer"], (s, a["answer"])


@needs_periodic
@pytest.mark.parametrize("question", ["华润三九一季度营业收入环比2023年四季度增长多少？",   # (whose year is 一季度?)
                                      "金花股份2023年第三季度与一二季度相比营业收入增长多少？"])   # (not a list of values)
def test_periods_compared_but_not_told_are_declined(periodic_store, question):
    a = _conversation(periodic_store.dir, question)[0]
    assert a["method"] in ("declined", "not_found"), a["answer"]


@needs_periodic
@pytest.mark.parametrize("question, said, absent", [
    # asks naming their periods apart: each its own (the first's 7-9月 was given for 前三季度 too)
    ("华润三九2023年Q3单季归属于上市公司股东的净利润是多少？2023年前三季度（年初至报告期末）归母净利润又是多少？",
     ["525,475,187.02", "2,402,599,847.04"], []),
    # the filing named as where to look is no period asked beside the one asked
    ("华润三九2024年三季报中，第三季度单季营业收入是多少", ["5,634,274,230.28"], ["19,740,286,995.36"]),
    # a year's two digits before its period's code (23H1), a space typed for the comma after an ask
    ("百诚医药23H1经营活动现金流净额多少 上年同期是多少", ["176,867.22", "105,093,103.55"], []),
    # a code and a short year filled in front of the second ask stay apart (never 00099925年)
    ("000999 25年前三季度营收多少 同比涨了多少", ["21,986,403,962.07", "11.38%"], []),
    # the shareholders at a period's end, read at ingest from the filing's 股东信息
    ("截至2023年一季度末（2023年3月31日），金花股份的普通股股东总数是多少户？", ["32217户"], []),
    ("截至2024年上半年末，华润三九的报告期末普通股股东总数是多少？", ["38110户"], []),
    # a count at a date against 年初 / 上年末 is the year end before's, against 上年同期 the same date a year before
    ("华润三九2025年三季度末股东户数较年初增加了多少？", ["48246户"], ["58181"]),
    ("金花股份2024年半年末股东户数比上年末减少了多少户？", ["3142户"], ["5459"]),
    ("华润三九2025年第三季度股东总数较上年同期增加了多少户？", ["58181户"], []),
    ("华润三九2025年三季度末总资产较上年同期增长多少", ["40,769,923,351.38"], ["40,081,972,320.77"]),
    # a third quarter's filing's 本报告期 is its 7-9月; the year end asked after a quarter's end is the year's
    ("金花股份2023年三季报里，本报告期营业收入是多少？", ["147,435,488.04"], ["402,805,031.75"]),
    ("华润三九2024年第三季度末总资产是多少？年末总资产是多少？", ["40,769,923,351.38", "40,081,972,320.77"], []),
    ("华润三九24Q3营业收入多少", ["5,634,274,230.28"], []),
    # an ask naming only its period is nothing once the period is taken out (a false "同（1）" was said of it)
    ("华润三九2024年一季度营收多少？二季度呢？", ["7,294,070,557.82", "6,811,942,207.26"], ["同（1）"]),
    # a per-share figure's change is on the year before as the filing restates it (a bonus issue: 2.24, not 2.90)
    ("华润三九2024年基本每股收益同比增长了多少？", ["17.41%", "2.24元"], ["-9.31%"]),
    ("华润三九2025年一季度基本每股收益同比增长了多少", ["-6.54%"], ["-28.06%"]),
])
def test_each_ask_its_own_period(periodic_store, question, said, absent):
    _answered_with(periodic_store, question, said, absent)


@needs_periodic
def test_a_quarter_of_a_half_year_filing_looked_in_is_no_half_year(periodic_store):
    # 百诚医药's half year filing prints no quarter: Q2 alone is not derived (no first quarter's filing) — never the
    # half year's 423,862,084.23 for it
    a = _conversation(periodic_store.dir, "百诚医药2023年半年度报告中，2023年第二季度（4-6月）单季营业收入是多少？")[0]
    assert a["method"] in ("declined", "not_found") and "423,862,084.23" not in a["answer"], a["answer"]


@needs_periodic
def test_a_quarter_no_filing_gives_is_read_from_the_years_table_of_quarters(tmp_path):
    from conftest import REPORTS

    from fin_qa.cli import cli

    huiwei = next(REPORTS.glob("*惠威科技*2019*.pdf"), None)
    if huiwei is None:
        pytest.skip("../shared/data/reports has no 惠威科技 2019 report")
    (tmp_path / "in").mkdir()
    for f in (huiwei, PERIODIC / "reports-深交所" / "华润三九：2023年一季度报告.pdf"):
        (tmp_path / "in" / f.name).symlink_to(f)
    r = CliRunner().invoke(cli, ["ingest", str(tmp_path / "in"), "--store", str(tmp_path / "s"), "-q"])
    assert r.exit_code == 0, r.output
    # a store holding quarterly filings answers quarters on its periods' path: 惠威科技 2019 has no filing of
    # its fourth quarter, and its annual report's 分季度主要财务指标 prints it
    a = ask(tmp_path / "s", "惠威科技2019年第四季度营业收入是多少元？")
    assert "90,923,272.71" in a["answer"] and "分季度主要财务指标" in a["answer"], a["answer"]
    a = ask(tmp_path / "s", "惠威科技2019年全年营业收入是多少元？其中第四季度营业收入是多少元？")
    assert "274,816,055.36" in a["answer"] and "90,923,272.71" in a["answer"], a["answer"]


@needs_periodic
def test_the_ninth_fresh_sets_periodic_questions(periodic_store, tmp_path):
    """tests/data/analyst_questions_fresh9.jsonl's questions of the periodic filings (a helper wrote them from the
    PDFs, never seeing the rules; 8 / 1 / 3 / 1 at 3609479, right / partly / declined / wrong) over the periodic
    store: no wrong answer."""
    out = tmp_path / "fresh9.json"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "eval_paraphrases.py"), "--store", str(periodic_store.dir),
                    str(ROOT / "tests" / "data" / "analyst_questions_fresh9.jsonl"), "--json", str(out)], check=True,
                   capture_output=True, text=True)
    rows = [r for r in json.loads(out.read_text(encoding="utf-8")) if r["kind"] == "quarterly"]
    wrong = [(r["id"], r["question"], r["answer"][:200]) for r in rows if r["verdict"] == "wrong"]
    assert len(rows) >= 10 and not wrong, wrong
    assert sum(r["verdict"] == "right" for r in rows) >= len(rows) - 3


@needs_periodic
@pytest.mark.parametrize("question", [
    "金花股份2023年末股东户数较上半年末变化了多少？",     # the year end beside a period end: not read as that period's
    "华润三九2024年第三季度单季营业收入是多少？累计呢？",   # another span asked after, its subject the ask's before
])
def test_periods_asked_apart_are_asked_apart(periodic_store, question):
    a = _conversation(periodic_store.dir, question)[0]
    assert a["method"] == "declined" and "请分开提问" in a["answer"], a["answer"]


@needs_periodic
@pytest.mark.parametrize("question, said, absent", [
    # a Shanghai first quarter's table prints 本报告期 and its change alone, and no 2022 first quarter's filing is
    # stored: the change asked is the filing's own, said as printed, never an amount
    ("金花股份2023年一季度扣非净利润同比增长多少？", ["-80.24%", "2,350,427.63元", "报告所列"], []),
    ("金花股份（600080）2023年一季度归属于上市公司股东的扣除非经常性损益的净利润是多少元？比上年同期增减变动幅度是多少？",
     ["2,350,427.63元", "-80.24%"], []),
    # a third quarter's two changes: 7-9月 alone and 1-9月, each its own column
    ("金花股份2023年第三季度单季扣非净利润同比增长多少？", ["-77.65%"], ["-36.94%"]),
    ("金花股份2023年前三季度扣非净利润同比增长多少？", ["-36.94%"], ["-77.65%"]),
])
def test_a_filings_printed_change_where_no_base_is_stored(periodic_store, question, said, absent):
    _answered_with(periodic_store, question, said, absent)


@needs_periodic
def test_a_printed_change_gives_no_amount(periodic_store):
    # the rate is printed; the amount needs the year before's value, which no stored filing holds
    a = _conversation(periodic_store.dir, "金花股份2023年一季度扣非净利润同比减少了多少元？")[0]
    assert a["method"] in ("declined", "not_found") and "80.24" not in a["answer"], a["answer"]


@needs_periodic
@pytest.mark.parametrize("question, said", [
    # 上年末 (the opening) and 半年末 (a period's end) are no year end beside the period asked
    ("华润三九2025年9月30日合并资产负债表长期借款余额多少？期初（上年末）是多少？", ["3,168,122,063.95", "177,940,231.06"]),
    ("百诚医药2023年半年末合同资产余额是多少？比年初多了多少？", ["220,300,382.17", "117,675,400.97"]),
    ("华润三九2025年9月30日长期借款余额多少？上年年末是多少？", ["3,168,122,063.95", "177,940,231.06"]),
    ("华润三九2025年三季度末长期借款较去年年末增加了多少", ["2,990,181,832.89"]),
])
def test_an_opening_beside_a_periods_end_is_no_year_end(periodic_store, question, said):
    _answered_with(periodic_store, question, said, [])


@needs_periodic
@pytest.mark.parametrize("question, said", [
    # a first quarter's or a half year's own tables print its period: their cells answer it, the filing named
    ("金花股份2024年一季度非经常性损益里的非流动性资产处置损益是多少？", ["32,466,292.09", "2024年第一季度报告"]),
    ("金花股份2024年半年报里，应收账款账龄1年以内的期末账面余额是多少？", ["87,745,875.60", "2024年半年度报告"]),
])
def test_a_filings_own_tables_answer_its_period(periodic_store, question, said):
    _answered_with(periodic_store, question, said, [])


@needs_periodic
@pytest.mark.parametrize("question, never", [
    # a quarter within a half year, or a third quarter's table (本报告期 is 7–9月 alone): no cell of those answers
    ("金花股份2024年第二季度非流动性资产处置损益是多少？", "31,991,305.76"),
    ("金花股份2023年第三季度非流动性资产处置损益是多少？", ""),
])
def test_no_other_periods_table_answers_a_quarter(periodic_store, question, never):
    a = _conversation(periodic_store.dir, question)[0]
    assert a["method"] in ("declined", "not_found") and (not never or never not in a["answer"]), a["answer"]


@needs_periodic
@pytest.mark.parametrize("question, said, absent", [
    # a growth rate asked by its formula's name reads the printed change where no base is stored
    ("金花股份2023年一季度扣非净利润同比增长率是多少", ["-80.24%"], []),
    # one period's two spans asked apart: each, never "同（1）"
    ("金花股份2023年第三季度单季扣非净利润同比增减变动幅度是多少？前三季度呢？", ["-77.65%", "-36.94%"], ["同（1）"]),
    ("金花股份2023年第三季度单季营业收入是多少？前三季度呢？", ["147,435,488.04", "402,805,031.75"], ["同（1）"]),
    # a per-share figure's change as the filing computes it from its unrounded values (never 6333.33% of 0.0579 and a
    # rounded base), and on the year before as the filing restates it (华润三九 2025Q1: 1.07, not the 2024 filing's 1.39)
    ("金花股份2024年第三季度单季基本每股收益同比增长多少", ["6003.93%"], ["6333.33%"]),
    ("华润三九2025年第一季度基本每股收益同比增长率", ["-6.54%"], ["-28.06%"]),
    # against a negative base the formula turns the sign: the printed change (金花股份 2023 1-9月 经营活动现金流量净额)
    ("金花股份2023年前三季度经营活动现金流量净额同比增长率", ["-28.52%"], ["是28.52%"]),
])
def test_what_the_review_of_the_seventeenth_stop_found(periodic_store, question, said, absent):
    _answered_with(periodic_store, question, said, absent)


@needs_periodic
@pytest.mark.parametrize("question, never", [
    # no filing of 2022's first quarter is stored: the 2023 filing's 本报告期 is 2023's, never 2022's
    ("金花股份2022年第一季度扣非净利润是多少", "2,350,427.63"),
    # the key figures' rows the summary's reader did not read (two rows naming one item) are not read as cells
    ("百诚医药2023年上半年扣除非经常性损益后的净利润比上年同期增减", "40.51%"),
])
def test_no_cell_of_another_year_or_of_unread_key_figures(periodic_store, question, never):
    a = _conversation(periodic_store.dir, question)[0]
    assert never not in a["answer"], a["answer"]
