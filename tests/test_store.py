"""The store owns the schema: migrations, read-only opening, files that are not a store, the Report
value, and no SQL on the store's connection outside fin_qa/store/ — real SQLite files, no mocks."""
from __future__ import annotations

import ast
import hashlib
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from fin_qa import FinQAError
from fin_qa.cli import main
from fin_qa.ingest.tables_import import import_table
from fin_qa.store import DB_NAME, MIGRATIONS, SCHEMA_VERSION, Migration, Report, ReportMeta, Store, readonly_uri

from conftest import CATALOG, ROOT
from test_answer import TABLE

QUESTION = "2021年甲乙科技的营业收入是多少元?"
ANSWER = "1,250,000,000.00元"

# the schema of the first stores (schema_version 1), as fin-qa 0.1 created it: no sections_parent index
OLD_V1_DDL = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS reports(
    id INTEGER PRIMARY KEY,
    key TEXT UNIQUE NOT NULL,
    stock_code TEXT, year INTEGER NOT NULL,
    full_name TEXT, short_name TEXT, publish_date TEXT
);
CREATE TABLE IF NOT EXISTS files(
    path TEXT PRIMARY KEY, sha256 TEXT NOT NULL, report_id INTEGER NOT NULL REFERENCES reports(id),
    kind TEXT NOT NULL, pages INTEGER, ingested_at TEXT DEFAULT (datetime('now')), warnings TEXT
);
CREATE INDEX IF NOT EXISTS files_sha ON files(sha256);
CREATE TABLE IF NOT EXISTS facts(
    id INTEGER PRIMARY KEY,
    report_id INTEGER NOT NULL REFERENCES reports(id),
    item TEXT NOT NULL, value TEXT NOT NULL, num REAL, unit TEXT,
    period TEXT NOT NULL DEFAULT 'current', statement TEXT, page INTEGER,
    source TEXT NOT NULL, raw_label TEXT
);
CREATE INDEX IF NOT EXISTS facts_report ON facts(report_id, item);
CREATE INDEX IF NOT EXISTS facts_item ON facts(item, period);
CREATE TABLE IF NOT EXISTS sections(
    id INTEGER PRIMARY KEY, report_id INTEGER NOT NULL REFERENCES reports(id),
    parent_id INTEGER, level INTEGER, title TEXT, path TEXT, page_start INTEGER, page_end INTEGER, text TEXT
);
CREATE INDEX IF NOT EXISTS sections_report ON sections(report_id);
CREATE TABLE IF NOT EXISTS chunks(
    id INTEGER PRIMARY KEY, report_id INTEGER NOT NULL REFERENCES reports(id),
    section_id INTEGER REFERENCES sections(id), path TEXT, text TEXT, page_start INTEGER, page_end INTEGER
);
CREATE INDEX IF NOT EXISTS chunks_report ON chunks(report_id);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(heading, body, tokenize = 'unicode61');
INSERT INTO meta VALUES('schema_version', '1');
INSERT INTO reports(key, stock_code, year, full_name, short_name) VALUES('600000:2019', '600000', 2019, '甲公司', '甲');
INSERT INTO facts(report_id, item, value, num, source) VALUES(1, '营业收入', '100', 100, 'import:t.csv');
"""


def _indexes(path: Path) -> set[str]:
    db = sqlite3.connect(path)
    try:
        return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    finally:
        db.close()


def _version(path: Path) -> str:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0]
    finally:
        db.close()


def _old_store(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(folder / DB_NAME)
    db.executescript(OLD_V1_DDL)
    db.close()
    return folder / DB_NAME


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def table_store(tmp_path) -> Path:
    """A closed store (no -wal left) with the test table imported."""
    (tmp_path / "facts.csv").write_text(TABLE, encoding="utf-8")
    with Store(tmp_path / "store") as s:
        import_table(tmp_path / "facts.csv", s, CATALOG)
    return tmp_path / "store"


def _cli(capsys, *argv: str) -> tuple[int, str, str]:
    """fin_qa.cli.main in-process: (exit status, stdout, stderr)."""
    try:
        main(list(argv))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


# ------------------------------------------------------------------------------------------ migrations

def test_migrations_are_ordered_and_described():
    assert [m.version for m in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))
    assert SCHEMA_VERSION == MIGRATIONS[-1].version
    assert all(m.description and "\n" not in m.description for m in MIGRATIONS)


def test_migration_statements_split_only_between_statements():
    m = Migration(9, "test", "CREATE TABLE t(a TEXT DEFAULT 'x;y'); -- a comment; still\nINSERT INTO t VALUES('1;2');\n")
    assert m.statements() == ["CREATE TABLE t(a TEXT DEFAULT 'x;y');", "-- a comment; still\nINSERT INTO t VALUES('1;2');"]


def test_new_store_applies_every_migration(tmp_path):
    with Store(tmp_path) as s:
        assert s.schema_version() == SCHEMA_VERSION
    assert _version(tmp_path / DB_NAME) == str(SCHEMA_VERSION)
    assert {"sections_parent", "facts_report", "facts_item", "sections_report", "chunks_report"} <= _indexes(
        tmp_path / DB_NAME)


def test_old_v1_store_is_upgraded_and_keeps_its_rows(tmp_path):
    path = _old_store(tmp_path / "s")
    assert "sections_parent" not in _indexes(path)
    with Store(tmp_path / "s", create=False) as s:
        assert s.schema_version() == SCHEMA_VERSION
        assert [r.key for r in s.report_list()] == ["600000:2019"]
        assert [f["value"] for f in s.facts()] == ["100"]
    assert _version(path) == str(SCHEMA_VERSION) and "sections_parent" in _indexes(path)
    with Store(tmp_path / "s") as s:  # opening again: nothing left to do
        assert s.schema_version() == SCHEMA_VERSION


def test_read_only_open_of_an_old_store_reads_it_as_it_is_and_writes_nothing(tmp_path):
    path = _old_store(tmp_path / "s")
    before = _digest(path)
    assert not MIGRATIONS[1].needed_to_read   # an index: reading works without it
    with Store(tmp_path / "s", readonly=True) as s:
        assert [r.key for r in s.report_list()] == ["600000:2019"] and s.schema_version() == 1
        # (before migration 8 every report is an annual report: listed, keyed and its facts read as one)
        assert [(r["period"], r["kind"]) for r in s.reports()] == [("2019FY", "report")]
        assert s.report_keys(annual=True) == ["600000:2019"]
        list(s.facts())
    assert _digest(path) == before and _version(path) == "1"


def test_read_only_open_names_a_pending_migration_reading_needs(tmp_path, monkeypatch):
    import fin_qa.store.store as store_module
    from fin_qa.store.schema import Migration

    path = _old_store(tmp_path / "s")
    before = _digest(path)
    needed = Migration(SCHEMA_VERSION + 1, "a column answers read", "SELECT 1;")
    monkeypatch.setattr(store_module, "pending", lambda version: [needed])
    with pytest.raises(FinQAError) as exc:
        Store(tmp_path / "s", readonly=True)
    msg = str(exc.value)
    assert "schema version 1" in msg and "read-only" in msg and "a column answers read" in msg
    assert _digest(path) == before and _version(path) == "1"


def test_a_store_newer_than_the_code_is_refused(tmp_path):
    Store(tmp_path).close()
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute("UPDATE meta SET value=? WHERE key='schema_version'", (str(SCHEMA_VERSION + 1),))
    db.commit()
    db.close()
    for kw in ({}, {"create": False}, {"readonly": True}):
        with pytest.raises(FinQAError, match=f"schema version {SCHEMA_VERSION + 1}, newer than this fin-qa"):
            Store(tmp_path, **kw)
    assert _version(tmp_path / DB_NAME) == str(SCHEMA_VERSION + 1)


# ------------------------------------------------------------------------------------------ read-only

def test_read_only_open_cannot_write(table_store):
    path = table_store / DB_NAME
    before = _digest(path)
    with Store(table_store, readonly=True) as s:
        assert s.readonly and s.report_keys() == sorted(s.report_keys())
        assert any(f["item"] == "营业收入" for f in s.facts("甲乙科技", 2021))
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            s.write_import("import:x.csv", [])
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            s.reset_search()
    assert _digest(path) == before


def test_ask_on_a_read_only_file_and_folder(table_store, capsys):
    """chmod does not stop root; the open is mode=ro either way, and ask must not need to write."""
    path = table_store / DB_NAME
    before = _digest(path)
    path.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    table_store.chmod(stat.S_IRUSR | stat.S_IXUSR | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH)
    try:
        code, out, err = _cli(capsys, "ask", QUESTION, "--store", str(table_store))
        assert code == 0 and ANSWER in out and err == ""
        code, out, _ = _cli(capsys, "reports", "--store", str(table_store), "--json")
        assert code == 0 and "甲乙科技" in out
        code, out, _ = _cli(capsys, "facts", "--store", str(table_store), "--company", "甲乙科技", "--year", "2021")
        assert code == 0 and "营业收入" in out
        q = table_store.parent / "q.jsonl"
        q.write_text('{"id": 1, "question": "%s"}\n' % QUESTION, encoding="utf-8")
        code, out, _ = _cli(capsys, "batch", str(q), "-o", str(table_store.parent / "a.jsonl"), "--store",
                            str(table_store), "-q")
        assert code == 0 and ANSWER in (table_store.parent / "a.jsonl").read_text(encoding="utf-8")
    finally:
        table_store.chmod(0o755)
        path.chmod(0o644)
    assert _digest(path) == before


def _on_read_only_mount(folder: Path, mount: Path, *argv: str) -> subprocess.CompletedProcess:
    """`fin-qa ARGV --store MOUNT` where MOUNT is FOLDER bind-mounted read-only (a private mount namespace:
    a read-only file system even for root). Skips where mount namespaces are not allowed."""
    mount.mkdir()
    script = 'mount --bind "$1" "$2" && mount -o remount,bind,ro "$2" && echo mounted >&2 && shift 2 && exec "$@"'
    if not (shutil.which("unshare") and shutil.which("mount")):
        pytest.skip("unshare/mount are not available")
    r = subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", str(folder), str(mount), sys.executable, "-m",
                        "fin_qa.cli", *argv, "--store", str(mount)], capture_output=True, text=True, cwd=ROOT)
    if "mounted" not in r.stderr:
        pytest.skip(f"no read-only bind mount here: {r.stderr.strip()[-200:]}")
    return r


def test_ask_on_a_read_only_file_system(table_store, tmp_path):
    r = _on_read_only_mount(table_store, tmp_path / "ro", "ask", QUESTION)
    assert r.returncode == 0 and ANSWER in r.stdout and "Traceback" not in r.stderr
    assert sorted(p.name for p in table_store.iterdir()) == [DB_NAME]  # no -shm/-wal: opened immutable


def test_read_only_file_system_with_a_pending_log_is_one_message(table_store, tmp_path):
    """A store copied while a writer had changes in its -wal: mode=ro needs a -shm it cannot create."""
    copy = tmp_path / "copy"
    copy.mkdir()
    with Store(table_store) as s:
        s.db.execute("PRAGMA wal_autocheckpoint=0")
        s.db.execute("INSERT INTO meta VALUES('note', 'not yet checkpointed')")
        for name in (DB_NAME, DB_NAME + "-wal"):
            shutil.copy(table_store / name, copy / name)
    r = _on_read_only_mount(copy, tmp_path / "ro", "ask", QUESTION)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "cannot open store" in r.stderr and "write-ahead log" in r.stderr


def test_read_only_uri_is_immutable_only_without_a_writable_folder_or_pending_log(table_store):
    path = table_store / DB_NAME
    assert readonly_uri(path, folder_writable=True).endswith("?mode=ro")
    uri = readonly_uri(path, folder_writable=False)
    assert uri.endswith("?mode=ro&immutable=1")
    db = sqlite3.connect(uri, uri=True)  # what a read-only file system gets: no -shm needed
    try:
        assert db.execute("SELECT COUNT(*) FROM reports").fetchone()[0] > 0
    finally:
        db.close()
    wal = path.with_name(DB_NAME + "-wal")
    wal.write_bytes(b"\0" * 32)  # a write-ahead log not checkpointed: immutable would skip it
    try:
        assert readonly_uri(path, folder_writable=False).endswith("?mode=ro")
    finally:
        wal.unlink()


def test_read_only_open_of_a_path_with_odd_characters(tmp_path):
    d = tmp_path / "年报 store?#%"
    (tmp_path / "facts.csv").write_text(TABLE, encoding="utf-8")
    with Store(d) as s:
        import_table(tmp_path / "facts.csv", s, CATALOG)
    with Store(d, readonly=True) as s:
        assert s.report_keys("甲乙科技", 2021)


def test_read_only_needs_an_existing_store(tmp_path):
    with pytest.raises(FinQAError, match="no fin-qa store at"):
        Store(tmp_path / "nothing", readonly=True)
    assert not (tmp_path / "nothing").exists()


# ------------------------------------------------------------------------------------------ not a store

def test_a_text_file_is_not_a_store(tmp_path, capsys):
    d = tmp_path / "s"
    d.mkdir()
    (d / DB_NAME).write_text("这不是数据库\n" * 50, encoding="utf-8")
    for kw in ({}, {"create": False}, {"readonly": True}):
        with pytest.raises(FinQAError, match="is not a fin-qa store"):
            Store(d, **kw)
    for argv in (["ask", QUESTION], ["reports"], ["facts"], ["search", "社会责任"], ["index"],
                 ["import-tables", str(tmp_path / "none.csv")]):
        code, out, err = _cli(capsys, *argv, "--store", str(d))
        assert code == 2 and err.startswith("fin-qa: ") and "is not a fin-qa store" in err, argv
        assert "Traceback" not in err


def test_sqlite_without_the_fin_qa_schema_is_not_a_store(tmp_path, capsys):
    d = tmp_path / "s"
    d.mkdir()
    db = sqlite3.connect(d / DB_NAME)
    db.execute("CREATE TABLE other(a)")
    db.commit()
    db.close()
    for kw in ({}, {"create": False}, {"readonly": True}):
        with pytest.raises(FinQAError, match="is not a fin-qa store: it has no fin-qa meta table"):
            Store(d, **kw)
    (d / DB_NAME).write_bytes(b"")  # an empty database: a store only when creating one
    for kw in ({"create": False}, {"readonly": True}):
        with pytest.raises(FinQAError, match="is not a fin-qa store"):
            Store(d, **kw)
    code, _, err = _cli(capsys, "ask", QUESTION, "--store", str(d))
    assert code == 2 and "is not a fin-qa store" in err
    with Store(d) as s:
        assert s.schema_version() == SCHEMA_VERSION


# ------------------------------------------------------------------------------------------ Report

def test_report_company_key_and_frozen():
    r = Report(1, "600000:2019", "600000", 2019, "上海浦东发展银行股份有限公司", "浦发银行", "2020-04-30")
    assert r.company == "600000"
    assert Report(2, "name:甲公司:2019", None, 2019, "甲公司", "甲").company == "name:甲公司"
    assert Report(3, "name:甲:2019", None, 2019, None, "甲").company == "name:甲"
    assert Report(4, "name:甲:2019", "", 2019, "", "甲").company == "name:甲"
    with pytest.raises(AttributeError):
        r.year = 2020  # type: ignore[misc]
    assert ReportMeta("600000", 2019).key == r.key


def test_reports_are_read_as_report_values(table_store):
    from fin_qa.answer.facts import FactSource

    with Store(table_store, readonly=True) as s:
        src = FactSource(s)
        assert src.known and all(isinstance(r, Report) for r in src.known)
        rep = next(r for r in src.reports if r.short_name == "甲乙科技" and r.year == 2021)
        assert src.report(rep.company, 2021) is rep
        assert src.fact(rep, "营业收入").value == "1250000000"
        assert src.fact(rep, "股票简称").value == "甲乙科技"  # a report field, read with getattr


# ------------------------------------------------------------------------------------------ the FTS5 index

def test_fts_methods_delete_index_and_match(sample_store):
    from fin_qa.search.indexer import sync
    from fin_qa.search.retrieve import make_backend

    key = sample_store.report_keys("星河二号")[0]
    within = sample_store.chunk_range(key)
    assert within is not None and within.first <= within.last
    expr = '"核心 心技 技术"'
    hits = sample_store.fts_match(expr, 4.0, 10, within)
    assert hits and all(h.report_key == key for h in hits) and hits == sorted(hits, key=lambda h: -h.score)
    sample_store.fts_delete_reports([key])
    assert sample_store.fts_match(expr, 4.0, 10, within) == []
    sync(sample_store, make_backend("sqlite", sample_store, CATALOG), [key])
    assert sample_store.fts_match(expr, 4.0, 10, within) == hits


# ------------------------------------------------------------------------------------------ one place for SQL

def _modules(folder: Path) -> list[Path]:
    return [p for p in sorted(folder.rglob("*.py")) if "store" not in p.relative_to(ROOT / "fin_qa").parts[:1]]


def _strings(tree: ast.AST) -> list[ast.Constant]:
    """String constants that are not docstrings."""
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    return [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def test_no_module_outside_the_store_writes_sql_or_touches_its_connection():
    problems = []
    for path in _modules(ROOT / "fin_qa"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(ROOT)
        for node in _strings(tree):
            if "chunks_fts" in node.value:
                problems.append(f"{where}:{node.lineno}: names chunks_fts")
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "db":
                problems.append(f"{where}:{node.lineno}: .db (the store's connection)")
            if isinstance(node, ast.Import) and any(a.name == "sqlite3" for a in node.names):
                problems.append(f"{where}:{node.lineno}: imports sqlite3")
            if isinstance(node, ast.ImportFrom) and node.module == "sqlite3":
                problems.append(f"{where}:{node.lineno}: imports sqlite3")
    assert problems == []


def test_scripts_use_store_methods_too():
    problems = []
    for path in sorted((ROOT / "scripts").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "db":
                problems.append(f"{path.relative_to(ROOT)}:{node.lineno}: .db (the store's connection)")
        problems += [f"{path.relative_to(ROOT)}:{n.lineno}: names chunks_fts" for n in _strings(tree)
                     if "chunks_fts" in n.value]
    assert problems == []


def test_store_package_keeps_its_public_names():
    import fin_qa.store as store

    for name in ("Store", "ReportMeta", "FactRow", "DB_NAME", "Report"):
        assert hasattr(store, name)
    assert DB_NAME == "fin_qa.sqlite" and Store.__module__ == "fin_qa.store.store"


def test_a_name_looked_up_in_one_report_is_what_the_store_wide_scan_finds_there(all_store):
    """Store.naming with a report: the rows of that report (chunks, then tables, in the store's order) that the
    scan of the whole store finds, its limit counted within the report — read through the report's index."""
    store, _ = all_store
    name = "有限公司"   # (printed in every report: most rows of the store-wide scan are other reports')
    everywhere = store.naming(name, 10**6)
    for rid in sorted({r[0] for r in everywhere})[:3]:
        assert store.naming(name, 10**6, rid) == [r for r in everywhere if r[0] == rid]
        few = store.naming(name, 2, rid)
        assert 0 < len(few) <= 4 and all(r[0] == rid for r in few)
    # several reports (a year's): their rows, in the store's order — none of the others'
    some = sorted({r[0] for r in everywhere})[:2]
    assert store.naming(name, 10**6, some) == [r for r in everywhere if r[0] in some]
    assert store.naming(name, 10**6, []) == []


def test_a_stored_heading_path_is_each_callers_own():
    # (paths are decoded once and held; a caller changing its list changes no other caller's)
    from fin_qa.store.table_index import stored_path

    text = '["第三节 管理层讨论与分析", "二、主营业务分析"]'
    first = stored_path(text)
    first.append("changed")
    assert stored_path(text) == ["第三节 管理层讨论与分析", "二、主营业务分析"]
    assert stored_path(None) == [] and stored_path("") == []
    # a text that is no list (never stored) is decoded as it was, anew for each caller
    odd = stored_path('{"a": 1}')
    odd["b"] = 2   # type: ignore[call-overload]
    assert stored_path('{"a": 1}') == {"a": 1}
