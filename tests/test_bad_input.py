"""Bad input: one line each in the summary, the run goes on, exit status non-zero only when nothing
was ingested, no traceback, the store stays consistent."""
import sqlite3

import pytest
from click.testing import CliRunner

from fin_qa.cli import cli
from fin_qa.ingest.pages import IngestError, open_document
from fin_qa.ingest.pipeline import ingest
from fin_qa.store import DB_NAME, Store
from conftest import CATALOG


def _canvas(path, **kw):
    from reportlab.pdfgen import canvas

    return canvas.Canvas(str(path), **kw)


@pytest.fixture
def bad_files(tmp_path, sample_pdf):
    d = tmp_path / "in"
    d.mkdir()
    (d / "empty.pdf").write_bytes(b"")
    (d / "notes.pdf").write_text("this is not a pdf at all", encoding="utf-8")
    data = sample_pdf.read_bytes()
    (d / "truncated.pdf").write_bytes(data[: len(data) // 3])
    (d / "garbage.pdf").write_bytes(b"%PDF-1.4\n" + bytes(range(256)) * 40)
    c = _canvas(d / "encrypted.pdf", encrypt="secret")
    c.drawString(100, 700, "hello")
    c.save()
    c = _canvas(d / "scanned.pdf")
    for _ in range(3):
        c.rect(50, 50, 400, 600, fill=1)
        c.showPage()
    c.save()
    (d / "not_finglm.txt").write_text("第一行\n第二行\n第三行\n", encoding="utf-8")
    (d / "blank.txt").write_text("\n  \n\n", encoding="utf-8")          # read a line at a time: still empty
    (d / "gbk.txt").write_bytes('{"page": 1, "type": "text", "inside": "营业收入"}\n'.encode("gbk"))
    (d / "table.xlsx").write_bytes(b"PK\x03\x04 not really")
    return d


EXPECTED_REASON = {
    "empty.pdf": "empty file",
    "notes.pdf": "not a PDF",
    "truncated.pdf": "PDF",
    "garbage.pdf": "corrupt",
    "encrypted.pdf": "encrypted",
    "scanned.pdf": "no text layer",
    "not_finglm.txt": "not FinGLM JSON lines",
    "blank.txt": "empty file",
    "gbk.txt": "line 1: not UTF-8",
}


@pytest.mark.parametrize("name", sorted(EXPECTED_REASON))
def test_open_document_reason(bad_files, name):
    with pytest.raises(IngestError) as exc:
        doc = open_document(bad_files / name)
        doc.close()
    assert EXPECTED_REASON[name] in str(exc.value)


def test_batch_goes_on_and_reports_each(bad_files, sample_pdf, tmp_path):
    runner = CliRunner()
    store = tmp_path / "store"
    res = runner.invoke(cli, ["ingest", str(bad_files), str(sample_pdf), "--store", str(store), "-q"])
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output
    lines = res.output.strip().splitlines()
    for name, reason in EXPECTED_REASON.items():
        row = [l for l in lines if name in l]
        assert len(row) == 1 and row[0].startswith("failed") and reason in row[0], (name, row)
    assert "1 ingested" in lines[-1] and f"{len(EXPECTED_REASON)} failed" in lines[-1]
    db = sqlite3.connect(store / DB_NAME)
    assert db.execute("SELECT COUNT(*) FROM reports").fetchone()[0] == 1
    assert db.execute("SELECT COUNT(*) FROM files").fetchone()[0] == 1
    # chunks and their index agree
    assert db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0] == db.execute(
        "SELECT COUNT(*) FROM chunks_fts").fetchone()[0]


def test_exit_non_zero_when_nothing_ingested(bad_files, tmp_path):
    res = CliRunner().invoke(cli, ["ingest", str(bad_files / "empty.pdf"), "--store", str(tmp_path / "s"), "-q"])
    assert res.exit_code == 1
    assert "failed" in res.output and "Traceback" not in res.output


def test_missing_path_is_reported(tmp_path):
    res = CliRunner().invoke(cli, ["ingest", str(tmp_path / "nope.pdf"), "--store", str(tmp_path / "s"), "-q"])
    assert res.exit_code == 1 and "no such file or folder" in res.output


def test_report_without_statements_keeps_profile_and_employees(tmp_path):
    from fin_qa.sample import build_sample_pdf

    pdf = build_sample_pdf(tmp_path / "nostatements.pdf", with_statements=False)
    store = Store(tmp_path / "s")
    summary = ingest([pdf], store, CATALOG)
    o = summary.outcomes[0]
    assert o.status == "ingested"
    assert "consolidated statement(s) not found: 资产负债表, 利润表, 现金流量表" in o.detail
    items = {f["item"]: f["value"] for f in store.facts()}
    assert items["法定代表人"] == "林海峰" and items["在职员工的数量合计"] == "840"
    assert "货币资金" not in items


def test_crash_mid_report_leaves_no_half_report(tmp_path, sample_pdf, monkeypatch):
    from fin_qa.ingest.pipeline import parse_file
    from fin_qa.store import FactRow

    store = Store(tmp_path / "s")
    rep = parse_file(sample_pdf, CATALOG)
    bad_facts = rep.facts + [FactRow("x", None, None, None, "current", None, None, "pdf")]  # NOT NULL violation
    with pytest.raises(sqlite3.IntegrityError):
        store.write_document(rep.meta, rep.path, rep.sha256, rep.kind, rep.pages, bad_facts, rep.sections,
                             rep.chunks, rep.warnings)
    assert store.counts() == {"reports": 0, "files": 0, "facts": 0, "sections": 0, "chunks": 0}


def test_unchanged_file_skipped_force_replaces(tmp_path, sample_pdf):
    store = Store(tmp_path / "s")
    first = ingest([sample_pdf], store, CATALOG)
    counts = store.counts()
    again = ingest([sample_pdf], store, CATALOG)
    assert first.count("ingested") == 1 and again.count("skipped") == 1
    forced = ingest([sample_pdf], store, CATALOG, force=True)
    assert forced.count("ingested") == 1
    assert store.counts() == counts  # replaced, not duplicated


def test_not_a_store(tmp_path):
    d = tmp_path / "s"
    d.mkdir()
    (d / DB_NAME).write_bytes(b"garbage" * 100)
    res = CliRunner().invoke(cli, ["reports", "--store", str(d)])
    assert res.exit_code != 0


def test_cli_main_prints_one_line_for_user_errors(tmp_path, capsys):
    from fin_qa.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["facts", "--store", str(tmp_path / "missing")])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("fin-qa: no fin-qa store at") and "Traceback" not in err
