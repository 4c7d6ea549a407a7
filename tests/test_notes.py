"""Research notes as a second kind of document (issue 46): ingested as notes (identity from their info sheet, else
their pages; prose under headings; figures' titles; back matter left out), searched (FTS5 here, Elasticsearch in
test_elasticsearch.py), quoted with their title, broker, date, page and figure — and never read as a filing's
figure."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CATALOG, SHARED, needs_shared
from fin_qa.answer.facts import FactSource
from fin_qa.answer.model import NoteEvidence
from fin_qa.answer.router import Router
from fin_qa.ingest.pipeline import ingest
from fin_qa.sample import (NOTE_BROKER, NOTE_DATE, NOTE_TITLE, SHORT, build_filing_pdf, build_note_pdf,
                           build_sample_pdf, write_note_info)
from fin_qa.store import Store

NOTES = SHARED / "data" / "periodic" / "附件5：研报数据"


def cli(*args: str, cwd: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fin_qa.cli", *args], capture_output=True, text=True, cwd=cwd,
                          env=dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent)))


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """The sample report, its 2022 third-quarter report and a research note on it with its info sheet, laid out
    as 附件5 lays them out (the sheet in the notes' parent folder)."""
    d = tmp_path_factory.mktemp("notes")
    build_sample_pdf(d / "reports" / "星河精密2021年年度报告.pdf")
    build_filing_pdf(d / "reports" / "688999_20221028_C3.pdf", "Q3")
    build_note_pdf(d / "研报" / "个股研报" / f"{NOTE_TITLE}.pdf")
    write_note_info(d / "研报" / "个股_研报信息.xlsx")
    return d


@pytest.fixture(scope="module")
def store(folder, tmp_path_factory) -> Store:
    s = Store(tmp_path_factory.mktemp("store") / "s")
    summary = ingest([folder], s, CATALOG)
    assert summary.count("ingested") == 3 and summary.count("failed") == 0, [o.detail for o in summary.outcomes]
    return s


@pytest.fixture(scope="module")
def router(store) -> Router:
    return Router(FactSource(store), CATALOG)


def test_a_note_is_stored_as_a_note_with_its_info_sheet(store):
    notes = store.notes.all()
    assert len(notes) == 1
    m = notes[0].meta
    assert (m.title, m.kind, m.broker, m.publish_date, m.stock_code, m.stock_name, m.rating) == \
        (NOTE_TITLE, "stock", NOTE_BROKER, NOTE_DATE, "688999", SHORT, "买入")
    assert m.info["predictThisYearEps"] == "0.42"   # (the sheet's cell as printed, no float noise)
    # never a filing: no report of it, its chunks apart from the filings'
    assert all("研报" not in (f or "") for r in store.reports() for f in [r.get("files")])
    assert store.db.execute("SELECT COUNT(*) FROM reports").fetchone()[0] == 2


def test_its_prose_under_headings_its_figures_and_no_back_matter(store):
    rows = store.db.execute("SELECT path, text, page FROM note_chunks ORDER BY id").fetchall()
    headings = [json.loads(p)[-1] for p, _, _ in rows]
    assert headings == ["投资要点", "经营分析", "经营分析", "盈利预测与投资建议", "风险提示"]
    assert rows[1][1].startswith("新能源汽车精密结构件放量是收入增长的主要驱动力") and rows[1][2] == 1
    assert "0.42/0.51/0.60亿元" in rows[3][1]   # (a line wrapped inside a number joined as printed)
    assert not any("版权" in t or "敬请参阅" in t or "来源" in t for _, t, _ in rows)   # back matter, running lines
    assert store.notes.figures(1) == [(1, "图表1：公司营业收入及增速")]


def test_without_an_info_sheet_its_identity_is_read_from_its_pages(tmp_path):
    build_note_pdf(tmp_path / "n" / f"{NOTE_TITLE}.pdf")
    s = Store(tmp_path / "s")
    summary = ingest([tmp_path / "n"], s, CATALOG)
    o = summary.outcomes[0]
    assert o.status == "ingested" and "no info sheet" in o.detail
    m = s.notes.all()[0].meta
    assert (m.title, m.broker, m.publish_date, m.stock_code, m.kind) == (NOTE_TITLE, NOTE_BROKER, NOTE_DATE, "688999", "stock")
    again = ingest([tmp_path / "n"], s, CATALOG)   # unchanged: skipped, not stored twice
    assert again.count("skipped") == 1 and len(s.notes.all()) == 1


def test_rating_and_forecasts_are_the_notes_own(router):
    ans = router.answer(f"{NOTE_BROKER}的研报给{SHORT}什么投资评级？盈利预测是多少？")
    assert ans.method == "note" and ans.found
    assert "投资评级“买入”" in ans.answer and "2022年0.42、2023年0.51、2024年0.6" in ans.answer
    assert NOTE_TITLE in ans.answer and NOTE_BROKER in ans.answer and NOTE_DATE in ans.answer
    assert all(isinstance(e, NoteEvidence) for e in ans.evidence)


def test_a_note_named_by_its_title_is_found(router):
    ans = router.answer(f"《{NOTE_TITLE}》这篇研报有哪些风险提示？")
    assert ans.method == "note"
    e = ans.evidence[0]
    assert isinstance(e, NoteEvidence) and e.heading.endswith("风险提示") and e.page == 1
    assert "下游需求不及预期" in ans.answer and "第1页「风险提示」" in ans.answer


def test_a_why_is_answered_from_the_filing_then_the_note(router):
    ans = router.answer(f"{SHORT}2021年营业收入增长的原因是什么？")
    assert ans.answer.index("15.38%") < ans.answer.index("研报的解释")   # the filing's change first
    notes = [e for e in ans.evidence if isinstance(e, NoteEvidence)]
    assert notes and any("主要驱动力" in e.text for e in notes)
    assert any(e.figure == "图表1：公司营业收入及增速" for e in notes)   # the figure the passage speaks of


def test_a_note_speaks_of_its_own_time(router):
    # published 2022-04-28: of 2021 (the spring after), never of 2020
    ans = router.answer(f"{SHORT}2020年营业收入增长的原因是什么？")
    assert not any(isinstance(e, NoteEvidence) for e in ans.evidence) and "研报的解释" not in ans.answer


def test_a_notes_figure_is_never_a_filings(router):
    # the note forecasts 2022's 归母净利润 at 0.42亿元; the filings answer it, or ask back — never with the note's
    for q in (f"{SHORT}2022年第三季度归母净利润是多少？", f"{SHORT}2021年的营业收入是多少？", "总资产是多少？"):
        ans = router.answer(q)
        assert not any(isinstance(e, NoteEvidence) for e in ans.evidence), (q, ans.answer)
        assert "0.42" not in ans.answer and "研报" not in ans.answer, (q, ans.answer)


def test_an_older_store_opened_read_only_has_no_notes(tmp_path, sample_pdf):
    s = Store(tmp_path / "old")
    ingest([sample_pdf], s, CATALOG)
    for t in ("notes_fts", "note_figures", "note_chunks", "notes"):
        s.db.execute(f"DROP TABLE {t}")
    s.db.execute("UPDATE meta SET value='8' WHERE key='schema_version'")
    s.close()
    ro = Store(tmp_path / "old", readonly=True)
    assert ro.notes.all() == [] and ro.notes.count() == 0
    assert Router(FactSource(ro), CATALOG).answer(f"{SHORT}2021年的营业收入是多少？").found


def test_cli_lists_notes_and_batch_cites_them(folder, store, tmp_path):
    r = cli("notes", "--store", str(store.dir))
    assert r.returncode == 0 and NOTE_TITLE in r.stdout and NOTE_BROKER in r.stdout and "stock" in r.stdout
    conv = tmp_path / "q.jsonl"
    conv.write_text(json.dumps({"编号": "N1", "问题类型": "归因分析", "问题": json.dumps(
        [{"Q": f"{SHORT}2021年营业收入增长的原因是什么？"}], ensure_ascii=False)}, ensure_ascii=False) + "\n",
        encoding="utf-8")
    out = tmp_path / "result_3.jsonl"
    r = cli("batch", str(conv), "--style", "teddy", "-o", str(out), "--store", str(store.dir), cwd=str(folder))
    assert r.returncode == 0, r.stderr
    turn = json.loads(json.loads(out.read_text(encoding="utf-8").splitlines()[0])["回答"])[0]
    refs = [x for x in turn["A"]["references"] if x["paper_path"].endswith(".pdf") and "研报" in x["paper_path"]]
    assert refs and refs[0]["paper_path"] == f"./研报/个股研报/{NOTE_TITLE}.pdf"   # relative to where it runs
    assert any(x.get("paper_image") == "图表1：公司营业收入及增速" for x in refs)
    assert all(x["text"] for x in refs)


@needs_shared
def test_the_problems_notes(tmp_path):
    s = Store(tmp_path / "s")
    summary = ingest([NOTES], s, CATALOG)
    assert summary.count("ingested") == 3, [o.detail for o in summary.outcomes]
    got = {n.meta.title: (n.meta.kind, n.meta.broker, n.meta.publish_date, n.meta.stock_code) for n in s.notes.all()}
    assert got == {
        "2025年三季报点评：内涵+外延双轮驱动，经营拐点已现": ("stock", "西南证券", "2025-10-30", "000999"),
        "业绩表现稳健，彰显强经营韧性与品牌力": ("stock", "国金证券", "2025-10-28", "000999"),
        "医药健康行业研究：从2025医保谈判看行业风向：成功率提升，创新导向持续强化": ("industry", "国金证券", "2025-12-08", None)}
    router = Router(FactSource(s), CATALOG)
    # B2002: no filing answers it, no company is named: the industry note's passages, the figure they speak of
    ans = router.answer("国家医保目录新增的中药产品有哪些")
    assert ans.method == "note" and "最终入选7个产品" in ans.answer and "非财报数值" in ans.answer
    assert any(isinstance(e, NoteEvidence) and e.figure == "图表8：2025年国家医保目录新增7个中药产品" for e in ans.evidence)
    assert "2025-12-08" in ans.answer   # (which year's 目录: the note's date said)
    ans = router.answer("国金证券研报对华润三九的CHC业务怎么看")
    assert ans.method == "note" and all(e.broker == "国金证券" for e in ans.evidence) and "CHC" in ans.answer
    rows = s.db.execute("SELECT text FROM note_chunks").fetchall()
    assert not any("特别声明" in t or "投资评级的说明" in t for (t,) in rows)


def test_rules_check_names_a_broken_note_rule(tmp_path):
    root = tmp_path / "rules"
    src = Path(CATALOG.root)
    for d in ("keyword_tables", "rules", "formulas", "es_mappings"):
        shutil.copytree(src / d, root / d)
    p = root / "rules" / "notes.yaml"
    p.write_text(p.read_text(encoding="utf-8").replace("must: ['投资逻辑：'", "must: ['投资逻辑不是标题'"), encoding="utf-8")
    r = cli("rules", "check", "--rules", str(root))
    assert r.returncode != 0 and "notes.yaml" in r.stdout + r.stderr and "投资逻辑不是标题" in r.stdout + r.stderr


def test_a_value_asked_beside_the_notes_stays_first(router):
    ans = router.answer(f"{SHORT}2021年营业收入是多少？{NOTE_BROKER}给了什么评级？")
    assert ans.answer.index("300,000,000.00元") < ans.answer.index("投资评级“买入”")
    assert any(isinstance(e, NoteEvidence) for e in ans.evidence)


def test_what_a_filing_prints_stays_the_filings(router):
    # 年报中…: the filing's own words, whatever notes say
    ans = router.answer(f"{SHORT}2021年年报中提到的投资评级是什么？")
    assert not any(isinstance(e, NoteEvidence) for e in ans.evidence) and "研报" not in ans.answer


def test_no_company_no_stock_notes(router):
    # a company the store does not know is no company: a 个股研报 of another is never its answer
    for q in ("贵州茅台的投资评级是什么？", "片仔癀的盈利预测是多少？", "贵州茅台的风险提示有哪些？"):
        ans = router.answer(q)
        assert NOTE_BROKER not in ans.answer and "0.42" not in ans.answer, (q, ans.answer)
    ans = router.answer(f"华泰证券对{SHORT}的评级是什么？")   # (a broker none of whose notes the store holds)
    assert not ans.found and "华泰证券" in ans.answer and "买入" not in ans.answer


def test_a_rating_is_cited_with_the_info_sheets_cells(router):
    ans = router.answer(f"{SHORT}的投资评级是什么？")
    sheet = [e for e in ans.evidence if isinstance(e, NoteEvidence) and e.text.startswith("研报信息表")]
    assert sheet and "emRatingName 买入" in sheet[0].text and sheet[0].note == NOTE_TITLE


def test_a_missing_notes_index_falls_back_to_the_stores(store):
    from fin_qa.search.base import SearchError

    class Down:   # an Elasticsearch backend whose notes index is gone
        name = "elasticsearch"

        def for_notes(self):
            return self

        def search(self, *a, **k):
            raise SearchError("index 'fin-qa-chunks-notes' does not exist")

    from fin_qa.answer.notes import NoteAnswerer

    router = Router(FactSource(store), CATALOG)
    router.notes = NoteAnswerer(store, CATALOG, router.understander.understand, lambda: Down(),  # type: ignore[arg-type]
                                router.understander.lexicon.cut)
    ans = router.answer(f"《{NOTE_TITLE}》这篇研报有哪些风险提示？")
    assert ans.method == "note" and "下游需求不及预期" in ans.answer


def test_an_info_sheets_row_is_matched_whole_first_and_its_date_checked(tmp_path):
    from openpyxl import Workbook

    from fin_qa.sample import NOTE_INFO_COLUMNS, NOTE_INFO_ROW

    build_note_pdf(tmp_path / "n" / "notes" / f"{NOTE_TITLE}.pdf")
    wb = Workbook()
    ws = wb.active
    ws.append(NOTE_INFO_COLUMNS)
    part = list(NOTE_INFO_ROW)
    part[0], part[5] = "盈利能力稳步提升", "乙证券"            # a row whose title is only part of the file's name
    ws.append(part)
    whole = list(NOTE_INFO_ROW)
    whole[6] = "28/04/2022"                                 # the row of the note, its date no date
    ws.append(whole)
    wb.save(tmp_path / "n" / "info.xlsx")
    s = Store(tmp_path / "s")
    summary = ingest([tmp_path / "n" / "notes"], s, CATALOG)
    m = s.notes.all()[0].meta
    assert m.broker == NOTE_BROKER and m.publish_date is None
    assert "is no date" in summary.outcomes[0].detail


def test_a_notes_page_is_served_where_it_is_cited(store):
    # fin-qa serve: a quoted note's evidence carries its page's address, and the page is drawn from the note's file
    from fin_qa.serve.service import InvalidInput, NotFound, Service

    service = Service(store.dir, CATALOG)
    with service.answering() as w:
        router = Router(FactSource(w.store), CATALOG)
        rec = service.record(w.store, router.answer(f"《{NOTE_TITLE}》这篇研报有哪些风险提示？"))
    urls = [e["image"] for e in rec["evidence"] if "note" in e and "image" in e]
    assert urls and urls[0].startswith("/api/notes/"), rec["evidence"]
    note_id, page = urls[0].split("/")[3], int(urls[0].split("/")[5].split(".")[0])
    image = service.note_page_image(int(note_id), page)
    assert image.png.startswith(b"\x89PNG") and len(image.png) > 2000 and image.placed == "unavailable"
    with pytest.raises(NotFound):
        service.note_page_image(int(note_id), 999)
    with pytest.raises(NotFound):
        service.note_page_image(123456, 1)
    with pytest.raises(InvalidInput):
        service.note_page_image(int(note_id), 1, scale=40)


def test_a_notes_page_over_http(store):
    from fin_qa.serve.app import create_app
    from fin_qa.serve.service import Service
    from serving import ServerThread, request

    srv = ServerThread(create_app(Service(store.dir, CATALOG)))
    try:
        note_id = store.notes.all()[0].id
        r = request(srv.base, f"/api/notes/{note_id}/pages/1.png")
        assert r.status == 200 and r.body.startswith(b"\x89PNG") and r.headers.get("x-highlight") == "unavailable"
        assert request(srv.base, f"/api/notes/{note_id}/pages/99.png").status == 404
        assert request(srv.base, "/api/notes/x/pages/1.png").status == 422
    finally:
        srv.stop()
