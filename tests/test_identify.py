"""Which report a file is (issue 12, identification): the cover with whitespace and full-width digits,
a non-FinGLM file name, the report's dates, --code/--year/--company and a manifest, the file name as a
last resort (with a warning) — and folder walks that skip hidden folders and virtualenvs."""
from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from conftest import CATALOG, SHARED
from fin_qa.cli import cli
from fin_qa.ingest.pages import IngestError
from fin_qa.ingest.pipeline import Hint, collect_files, identify, read_manifest
from fin_qa.store import Store

MORE = SHARED / "data" / "reports_more"


def doc(*pages: str):
    """A document of these pages' text (no table lines: no statement header to read a year from)."""
    return SimpleNamespace(pages=[SimpleNamespace(text=t, number=i, lines=[]) for i, t in enumerate(pages, 1)],
                           table_rows=lambda n: [])


@pytest.mark.parametrize("cover, year", [
    ("四方科技集团股份有限公司\n2019年年度报告", 2019),
    ("XX股份有限公司\n2020 年年度报告", 2020),
    ("2012 年度报告\n公告编号", 2012),
    ("某某公司 ２０１８年年度报告", 2018),
])
def test_cover_year(cover, year):
    meta, warnings = identify(doc(cover, "股票代码：600000"), Path("report.pdf"), {}, CATALOG)
    assert meta.year == year and meta.stock_code == "600000" and not warnings


def test_older_cover_names_the_company():
    page = "1.公司法定中文名称：万科企业股份有限公司\n11.股票简称及代码：万科 A 000002\n万科 B 200002"
    meta, _ = identify(doc("2012 年度报告", page), Path("x.pdf"), {}, CATALOG)
    assert (meta.stock_code, meta.full_name, meta.short_name) == ("000002", "万科企业股份有限公司", "万科A")


def test_year_from_file_name_then_from_the_period():
    meta, warnings = identify(doc("年度报告", "股票代码：600000"), Path("XX股份2020年年度报告.pdf"), {}, CATALOG)
    assert meta.year == 2020 and "file name only" in warnings[0]
    # 第二节 (释义)'s 报告期, in the forms reports print it
    for text in ("报告期指2021年1月1日至2021年12月31日；上年同期指2020年1月1日至2020年12月31日。",
                 "本报告期、报告期、2021 年年度 指 2021 年 1 月 1 日至 2021 年 12 月 31 日",
                 "报告期 指 2021 年度", "报告期、本期 指 2021 年 1 月 1 日-2021 年 12 月 31 日",
                 "报告期 指 2021 年 1-12 月的会计区间", "报告期末 指 2021 年 12 月 31 日"):
        meta, warnings = identify(doc("年度报告", "股票代码：600000", text), Path("report.pdf"), {}, CATALOG)
        assert meta.year == 2021 and "报告期 only" in warnings[0], text
    # a sentence naming a year after 报告期 is no 报告期
    with pytest.raises(IngestError, match="--year"):
        identify(doc("年度报告", "股票代码：600000", "报告期末公司总资产为2019年末的1.2倍"), Path("report.pdf"), {}, CATALOG)
    with pytest.raises(IngestError, match="--year"):
        identify(doc("年度报告", "股票代码：600000"), Path("report.pdf"), {}, CATALOG)


def test_the_dates_a_page_names_most_never_decide_alone():
    text = "2021年12月31日；2021年12月31日；截至2021年12月31日"
    with pytest.raises(IngestError, match=r"the dates its first pages name most 2021.*--year"):
        identify(doc("年度报告", "股票代码：600000", text), Path("report.pdf"), {}, CATALOG)


@pytest.mark.parametrize("cover, year", [
    ("深圳市振业（集团）股份有限公司\n二○一〇年年度报告\n二○一一年三月", 2010),
    ("深圳中国农大科技股份有限公司\n二〇一一年年度报告\n二〇一 二 年 四 月", 2011),
    ("XX股份有限公司\n年度报告\n2023", 2023),
    ("XX股份有限公司\n2023 Annual Report", 2023),
    ("XX股份有限公司\n2023 年年度报告\nAnnual Report 2023-2024", 2023),
    ("XX股份有限公司\n年度报告 2024年4月\n2023 年度报告", 2023),   # a publish date is no report year
])
def test_cover_years_in_other_forms(cover, year):
    meta, warnings = identify(doc(cover, "股票代码：600000"), Path("report.pdf"), {}, CATALOG)
    assert meta.year == year and not warnings


def test_evidence_that_disagrees_without_statements_stores_nothing():
    """Without the statements' dates, a cover, a 报告期 and a file name that disagree: no year is guessed."""
    with pytest.raises(IngestError, match=r"cover 2021, 报告期 2021, file name 2019.*--year"):
        identify(doc("2021年年度报告", "股票代码：600000", "报告期 指 2021 年度"), Path("600000_2019.pdf"), {},
                 CATALOG)


def test_hints_win_and_the_file_name_is_the_last_resort():
    meta, _ = identify(doc("2019年年度报告"), Path("a.pdf"), {}, CATALOG, Hint("600001", 2018, "甲乙科技"))
    assert (meta.stock_code, meta.year, meta.short_name) == ("600001", 2018, "甲乙科技")
    meta, warnings = identify(doc("2019年年度报告"), Path("甲乙科技2019年年度报告.pdf"), {}, CATALOG)
    assert meta.short_name == "甲乙科技" and meta.stock_code is None
    meta, warnings = identify(doc("2019年年度报告"), Path("report.pdf"), {}, CATALOG)
    assert meta.short_name == "report" and "file name" in warnings[0]


def test_manifest(tmp_path):
    m = tmp_path / "m.csv"
    m.write_text("file,code,year,company\nr1.pdf,600000,2019,浦发银行\nsub/r2.pdf,,2020,\n", encoding="utf-8")
    table = read_manifest(m)
    assert table["r1.pdf"] == Hint("600000", 2019, "浦发银行")
    assert table[str((tmp_path / "sub" / "r2.pdf").resolve())] == Hint(None, 2020, None)
    m.write_text("file,year\nr1.pdf,20x9\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"m.csv:2: year"):
        read_manifest(m)


def test_folder_walk_skips_hidden_folders_and_virtualenvs(tmp_path):
    for rel in ("a.pdf", "x/b.txt", ".venv/lib/c.txt", "venv/d.txt", ".git/e.txt", "x/node_modules/f.txt"):
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x", encoding="utf-8")
    files, _ = collect_files([tmp_path])
    assert sorted(f.relative_to(tmp_path).as_posix() for f in files) == ["a.pdf", "x/b.txt"]


def test_cli_options_name_a_report(sample_pdf, tmp_path):
    pdf = tmp_path / "scan_0001.pdf"
    shutil.copy(sample_pdf, pdf)
    r = CliRunner().invoke(cli, ["ingest", str(pdf), "--store", str(tmp_path / "s"), "-q", "--year", "2021",
                                 "--code", "688001", "--company", "星河"])
    assert r.exit_code == 0, r.output
    with Store(tmp_path / "s", readonly=True) as st:
        (rep,) = st.reports()
    assert (rep["stock_code"], rep["year"], rep["short_name"]) == ("688001", 2021, "星河")
    folder = tmp_path / "two"
    folder.mkdir()
    shutil.copy(sample_pdf, folder / "a.pdf")
    shutil.copy(sample_pdf, folder / "b.pdf")
    r = CliRunner().invoke(cli, ["ingest", str(folder), "--store", str(tmp_path / "s2"), "--year", "2021"])
    assert r.exit_code == 2 and "--manifest" in r.output


@pytest.mark.skipif(not MORE.is_dir(), reason="../shared/data/reports_more is absent")
def test_vanke_2012_is_identified_from_its_own_content(tmp_path):
    pdf = MORE / "2-万科A-2012年年度报告.pdf"
    r = CliRunner().invoke(cli, ["ingest", str(pdf), "--store", str(tmp_path / "s"), "-q"])
    assert r.exit_code == 0, r.output
    with Store(tmp_path / "s", readonly=True) as st:
        (rep,) = st.reports()
    assert (rep["stock_code"], rep["year"], rep["full_name"], rep["short_name"]) == ("000002", 2012, "万科企业股份有限公司", "万科A")
    # its summary table prints 营业收入 (p.3): that answers
    ask = ["ask", "万科2012年的营业收入是多少", "--store", str(tmp_path / "s")]
    a = CliRunner().invoke(cli, ask)
    assert "103,116,245,136.42元" in a.output and "p.3" in a.output and "按营业总收入回答" not in a.output
    # without it (a report cut before, or a layout whose summary is not read), its income statement prints
    # 营业总收入 only (p.62): 营业收入 is answered from that, and says so
    with sqlite3.connect(tmp_path / "s" / "fin_qa.sqlite") as db:
        db.execute("DELETE FROM facts WHERE statement='主要会计数据'")
    a = CliRunner().invoke(cli, ask)
    assert "103,116,245,136.42元" in a.output and "按营业总收入回答" in a.output and "p.62" in a.output


def test_a_second_file_for_a_report_is_reported_not_swapped_in(sample_pdf, tmp_path):
    from fin_qa.sample import build_sample_pdf

    other = build_sample_pdf(tmp_path / "星河精密2021年年度报告(修订版).pdf", with_statements=False)
    store = str(tmp_path / "s")
    assert CliRunner().invoke(cli, ["ingest", str(sample_pdf), "--store", store, "-q"]).exit_code == 0
    r = CliRunner().invoke(cli, ["ingest", str(other), "--store", store, "-q"])
    assert r.exit_code == 0 and "skipped" in r.output and "already in the store from" in r.output
    assert str(sample_pdf.resolve()) in r.output and "--force" in r.output
    with Store(tmp_path / "s", readonly=True) as st:
        (rep,) = st.reports()
    assert str(sample_pdf.resolve()) in rep["files"] and rep["facts"] > 20   # the statements are still there
    r = CliRunner().invoke(cli, ["ingest", str(other), "--store", store, "-q", "--force"])
    assert r.exit_code == 0 and "ingested" in r.output


def test_a_file_read_by_an_older_parser_is_read_again(sample_pdf, tmp_path):
    store = tmp_path / "s"
    assert CliRunner().invoke(cli, ["ingest", str(sample_pdf), "--store", str(store), "-q"]).exit_code == 0
    r = CliRunner().invoke(cli, ["ingest", str(sample_pdf), "--store", str(store)])
    assert "0 ingested, 1 skipped" in r.output
    with sqlite3.connect(store / "fin_qa.sqlite") as db:  # as a store written before PARSER_VERSION 1
        db.execute("UPDATE files SET parser = 0")
    r = CliRunner().invoke(cli, ["ingest", str(sample_pdf), "--store", str(store)])
    assert "1 ingested, 0 skipped" in r.output


# ------------------------------------------------------------------------------------------ issue 24

@pytest.mark.parametrize("page, code, short", [
    ("公司代码：600519                    公司简称：贵州茅台\n贵州茅台酒股份有限公司", "600519", "贵州茅台"),
    ("公司代码 ： 600519   公司简称 ： 贵州茅台\n", "600519", "贵州茅台"),
    ("（A 股代码：601166）\n法定中文名称：兴业银行股份有限公司\n（简称：兴业银行）", "601166", "兴业银行"),
    ("A股： 上海证券交易所 股票简称 ：民生银行股 票代码 ：600016\n", "600016", "民生银行"),
    ("股票简称 苏常柴 A、苏常柴 B 股票代码 000570、200570", "000570", None),
    ("公司代码：688981 公司简称：中芯国际", "688981", "中芯国际"),
    ("证券代码：430047 证券简称：诺思兰德", "430047", "诺思兰德"),
])
def test_cover_code_and_short_name(page, code, short):
    meta, _ = identify(doc("2022年年度报告", page), Path("report.pdf"), {}, CATALOG)
    assert meta.stock_code == code and (short is None or meta.short_name == short), meta


def test_a_code_must_look_like_one_and_a_short_name_like_a_name():
    # six digits of no exchange's range, a header run into the name field
    meta, _ = identify(doc("2022年年度报告", "股票代码：123456 股票简称和股票代码：见下表"), Path("report.pdf"), {}, CATALOG)
    assert meta.stock_code is None and meta.short_name == "report"


def test_the_statements_dates_decide_a_disagreeing_year():
    """The balance sheet's header dates are the strongest evidence: they decide, and the warning names every
    evidence read."""
    from fin_qa.ingest.pages import Cell, Row

    rows = {5: [Row([Cell("合并资产负债表", 200, 300)]), Row([Cell("项目", 60, 80), Cell("2021年", 330, 360),
                                                           Cell("12月", 362, 380), Cell("31日", 382, 400),
                                                           Cell("2020年", 450, 480), Cell("12月", 482, 500),
                                                           Cell("31日", 502, 520)]),
                Row([Cell("货币资金", 60, 100), Cell("1,000.00", 340, 400), Cell("900.00", 470, 520)])]}
    pages = ["2022年年度报告", "股票代码：600000", "", "", "合并资产负债表"]
    d = SimpleNamespace(pages=[SimpleNamespace(text=t, number=i, lines=[SimpleNamespace(text=t, cells=None)])
                               for i, t in enumerate(pages, 1)], table_rows=lambda n: rows.get(n, []),
                        page=lambda n: None)
    meta, warnings = identify(d, Path("2020.pdf"), {}, CATALOG)
    assert meta.year == 2021
    assert "its statements' dates 2021" in warnings[0] and "cover 2022" in warnings[0] and "file name 2020" in warnings[0]


def test_renamed_copies_are_identified_from_their_content(tmp_path):
    """Every shared PDF copied under a name that says nothing ("2020.pdf", "年报.pdf", "report.pdf") is
    identified as under its own name: code, short name, full name and year (a company printing several
    codes — 苏常柴 A、B: 000570、200570 — by the first, its A share's)."""
    from fin_qa.ingest.pages import open_document
    from fin_qa.ingest.profile import extract_profile

    files = sorted(p for d in ("reports", "reports_more", "banks") for p in (SHARED / "data" / d).glob("*.pdf"))
    if not files:
        pytest.skip("../shared/data has no report PDFs")
    names = ["2020.pdf", "年报.pdf", "report.pdf"]
    for i, f in enumerate(files):
        copy = tmp_path / str(i) / names[i % 3]
        copy.parent.mkdir()
        shutil.copy(f, copy)
        got = []
        for p in (f, copy):
            d = open_document(p)
            profile = {x.item: x.value for x in extract_profile(d, CATALOG)}
            meta, _ = identify(d, p, profile, CATALOG)
            got.append((meta.stock_code, meta.short_name, meta.full_name, meta.year))
        (code, short, full, year), (code2, short2, full2, year2) = got
        printed = {code, code2} == {"200570", "000570"}
        assert (short, full, year) == (short2, full2, year2) and (code == code2 or printed), (f.name, got)


@pytest.mark.parametrize("name, ok", [
    ("万科企业股份有限公司", True), ("长春百克生物科技股份公司", True), ("深圳市振业（集团）股份有限公司", True),
    ("中国平安保险（集团）股份有限公司", True), ("北京昭衍新药研究中心股份有限公司", True),
    # a run of a table's header words, two names run together, a name with no legal form
    ("公司的中文名称公司的中文简称股份有限公司", False), ("股票简称股票代码股票上市交易所有限公司", False),
    ("深圳发展银行股份有限公司平安银行股份有限公司", False), ("万科企业", False), ("A股 上海证券交易所 有限公司", False),
    ("TCL科技集团股份有限公司", True), ("股份有限公司", False), ("深圳市振业（集团）", False),
])
def test_a_registered_name_is_one_company_s_with_its_legal_form(name, ok):
    from fin_qa.ingest.pipeline import _plausible_full

    assert (_plausible_full(name) == name) is ok


@pytest.mark.parametrize("lines, codes", [
    ("股票简称及代码：万科 A 000002\n万科 B 200002", {"B股股票代码": "200002"}),
    ("B股 上海证券交易所 宝信B 900926 钢管B", {"B股股票代码": "900926"}),
    ("公司代码：600845 900926 公司简称：宝信软件 宝信 B", {"B股股票代码": "900926"}),
    ("H股 香港联合交易所 昭衍新药 06127 无", {"H股股票代码": "06127"}),
    ("H 股股票简称 寧德時代 H 股股票代码 03750", {"H股股票代码": "03750"}),
    ("股份代号：1398", {"H股股票代码": "01398"}),
    # a postcode, an address, a phone number, a share count, a year: no code
    ("上海市浦东新区世纪大道100号B座 200120", {}), ("股票代码：600000 邮政编码：200002", {}),
    ("办公地址 上海市B区 200233", {}), ("香港联合交易所 联系电话 00852-12345678", {}),
    ("H股 发行股份数量 01000股", {}), ("股份代号：2025年", {}),
])
def test_b_and_h_codes_and_what_is_none(lines, codes):
    from fin_qa.ingest.pipeline import share_codes

    got = share_codes(doc(lines))
    assert {k: v for k, (v, _) in got.items()} == codes
