"""Answering at scale (issue 25): a report's tables ranked from its own in-memory index exactly as FTS5 ranks
them, the index dropped when the store changes, read-only connections set up for reading, and `fin-qa
serve --processes` with the recent questions shared between its processes."""
from __future__ import annotations

import os
import shutil
import time
from collections import OrderedDict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import CATALOG, REPORTS
from serving import ServerProcess, request, server_env

QUESTIONS = ["2021年星河精密的货币资金是多少元?", "星河精密2021年前五名客户销售额合计是多少？",
             "星河精密2021年研发投入金额是多少？", "请简要介绍星河精密2021年的核心竞争力。",
             "星河精密2021年计入当期损益的政府补助是多少元？", "星河精密2021年的主营业务收入按产品分是多少"]


def _words(question: str) -> list[str]:
    from fin_qa.bigrams import tokens

    return [w for w in dict.fromkeys(tokens(question)) if len(w) >= 2 or not w.isascii()]


def _same_as_fts(store, report_id: int, questions: list[str], size: int = 40) -> None:
    for q in questions:
        words = _words(q)
        expr = " OR ".join(f'"{w}"' for w in words)
        for n in (size, 3):
            want = store.table_match(expr, report_id, n)
            assert store.table_match_words(words, report_id, n) == want, (q, n)
            assert want, q


def test_table_index_ranks_as_fts5_does(sample_store):
    """The same ids in the same order as `tables_fts MATCH … ORDER BY bm25 LIMIT n`, for the questions' words
    and for a phrase of several tokens ("12.5" is two to FTS5)."""
    for r in sample_store.reports():
        _same_as_fts(sample_store, r["id"], QUESTIONS)
        got = sample_store.table_match_words(["营业", "12.5", "2021"], r["id"], 10)
        assert got == sample_store.table_match('"营业" OR "12.5" OR "2021"', r["id"], 10)


@pytest.mark.skipif(not REPORTS.is_dir(), reason="../shared/data/reports is absent")
def test_table_index_ranks_as_fts5_does_on_a_real_report(shared_store):
    """On the shared reports: every report, questions of every kind."""
    for r in shared_store.reports():
        name, year = r["short_name"], r["year"]
        _same_as_fts(shared_store, r["id"], [q.replace("星河精密", name).replace("2021", str(year)) for q in QUESTIONS])


# analysed text (CJK bigrams, a-z, digits, '.', '%', spaces), other text (split by letters and digits: '_',
# é, NBSP, '-'), and a word repeated hundreds of times (counts past 255)
_ROW_TEXT = st.text(alphabet="营业收入 ab01.%营收", max_size=24) | st.text(alphabet="营业 ab_é\u00a0-9", max_size=12) | \
    st.builds(lambda w, n: w * n, st.sampled_from(["营业 ", "ab ", "营业收入 "]), st.integers(200, 400)) | st.none()


@settings(max_examples=300, deadline=None)
@given(rows=st.lists(st.tuples(st.integers(1, 70_000), _ROW_TEXT, _ROW_TEXT), max_size=12,
                     unique_by=lambda r: r[0]), per_bucket=st.integers(1, 80))
def test_stored_table_words_count_as_the_rows_do(rows, per_bucket):
    """A report's rows indexed at ingest (report_postings) and read back by token (StoredRows) give the
    same sizes and the same instances per row as the rows' texts read whole (ReportRows), for every token,
    in buckets of any size, ids far apart (4-byte offsets) included, and an unknown token holds no row."""
    import sqlite3

    from fin_qa.store import fts_rank
    from fin_qa.store.fts_rank import ReportRows, StoredRows, fts_tokens, report_postings
    from fin_qa.store.schema import WORDS_SQL

    db = sqlite3.connect(":memory:")
    db.executescript("CREATE TABLE reports(id INTEGER PRIMARY KEY);" + WORDS_SQL)
    kept = fts_rank.TOKENS_A_BUCKET
    fts_rank.TOKENS_A_BUCKET = per_bucket
    try:
        got = report_postings(rows)
    finally:
        fts_rank.TOKENS_A_BUCKET = kept
    if not rows:
        assert got is None
        return
    assert got is not None
    first, buckets, sizes, words = got
    db.executemany("INSERT INTO table_words VALUES(?, ?)", [(fts_rank.words_id(7, b), blob) for b, blob in words])
    stored = StoredRows(db, "table_words", 7, first, buckets, sizes)
    whole = ReportRows(sorted(rows))
    assert stored.sizes == whole.sizes
    tokens = {t for _, h, b in rows for t in fts_tokens(h or "") + fts_tokens(b or "")}
    stored.prefetch(sorted(tokens)[:3])
    for tok in sorted(tokens) + ["无此"]:
        assert stored.posting(tok) == whole.posting(tok), tok
        assert list(stored.posting(tok)) == sorted(stored.posting(tok))   # (rowid order, as FTS5 reads them)


def _words_as_indexed(store) -> dict:
    out = {}
    for kind in ("table", "chunk"):
        for rid, first, buckets, sizes in store.db.execute(f"SELECT report_id, first, buckets, sizes FROM {kind}_sizes"
                                                           " ORDER BY 1"):
            words = [(key - (rid << 20), blob) for key, blob in store.db.execute(
                f"SELECT id, data FROM {kind}_words WHERE id BETWEEN ? AND ? ORDER BY id", (rid << 20, (rid << 20) + 2 ** 20 - 1))]
            out[kind, rid] = (first, buckets, sizes, words)
    return out


def test_the_words_indexed_at_ingest_are_those_of_the_search_rows(tmp_path, sample_pdf, monkeypatch):
    """For every report, its table and chunk words as ingest wrote them — made by the parsers' processes
    (3 or more of them) or by the store's — are report_postings of its rows of tables_fts and chunks_fts as
    stored, the same both ways; `fin-qa index` (the FTS5 rows written again, --recreate or not) writes
    the same."""
    from click.testing import CliRunner

    from fin_qa.cli import cli
    from fin_qa.ingest import pipeline
    from fin_qa.ingest.pipeline import ingest
    from fin_qa.sample import build_sample_pdf
    from fin_qa.store import Store
    from fin_qa.store.fts_rank import report_postings

    d = tmp_path / "reports"
    d.mkdir()
    shutil.copy(sample_pdf, d / sample_pdf.name)
    build_sample_pdf(d / "2022-03-01__星河精密制造股份有限公司__688998__星河二号__2021年__年度报告.pdf")
    given = []   # whether write_document was given the words made (by the parsers)
    write = Store.write_document
    monkeypatch.setattr(Store, "write_document", lambda self, *a, **k: given.append(a[-1] is not None) or
                        write(self, *a, **k))
    ways = {}
    for parsers in (3, 1):   # (2 parsers: by the store's process, then by theirs)
        monkeypatch.setattr(pipeline, "PARSERS_MAKING_SEARCH_ROWS", parsers)
        with Store(tmp_path / f"store{parsers}") as store:
            assert ingest([d], store, CATALOG, workers=2).count("ingested") == 2
            ways[parsers] = got = _words_as_indexed(store)
            assert {k for k, _ in got} == {"table", "chunk"} and len(got) == 4
            for (kind, rid), stored in got.items():
                assert stored == report_postings(store._report_rows(kind, rid)), (kind, rid)
    assert ways[3] == ways[1] and given == [False, False, True, True]
    for args in ([], ["--recreate"]):
        res = CliRunner().invoke(cli, ["index", "--store", str(tmp_path / "store1"), *args])
        assert res.exit_code == 0, res.output
        with Store(tmp_path / "store1", readonly=True) as store:
            assert _words_as_indexed(store) == got


def test_the_text_words_go_with_the_search_rows(tmp_path, sample_pdf):
    """A report's search rows removed (fts_delete_reports) take its words with them, and an emptied search
    index (reset_search) all of them, in one transaction: a search then finds nothing (no error), and the
    report is ranked from its words again once indexed."""
    from fin_qa.ingest.pipeline import ingest
    from fin_qa.search.base import SearchQuery
    from fin_qa.search.sqlite_fts import _parts
    from fin_qa.store import Store

    d = tmp_path / "reports"
    d.mkdir()
    shutil.copy(sample_pdf, d / sample_pdf.name)
    parts = _parts(SearchQuery("核心竞争力 营业收入", phrases=["核心竞争力"]))
    with Store(tmp_path / "store") as store:
        ingest([d], store, CATALOG)
        key = store.reports()[0]["key"]
        within = store.chunk_range(key)
        before = store.chunk_match(parts, 4.0, 20, within)
        assert before and store.chunk_index._stored(within.report_id) is not None
        chunks = list(store.chunk_records([key]))
        store.fts_delete_reports([key])
        assert not store.db.execute("SELECT count(*) FROM chunk_sizes").fetchone()[0]
        assert store.chunk_match(parts, 4.0, 20, within) == []
        store.fts_index((c.chunk_id, c.path, c.text) for c in chunks)
        assert store.chunk_match(parts, 4.0, 20, within) == before
        assert store.chunk_index._stored(within.report_id) is not None
        store.reset_search()
        assert not store.db.execute("SELECT count(*) FROM chunk_words").fetchone()[0]
        assert store.chunk_match(parts, 4.0, 20, within) == []
        assert store.index_words() == 0   # (no rows to index: none claimed)


def test_a_store_ingested_before_table_words_ranks_the_same_and_fin_qa_index_indexes_it(tmp_path, sample_pdf):
    """A report ingested before table_words existed (its rows removed here) ranks its tables from its
    tables_fts rows, as FTS5 does; `fin-qa index` indexes its words, after which it is ranked from them
    the same, and a question reads only the tables it ranks."""
    from click.testing import CliRunner

    from fin_qa.cli import cli
    from fin_qa.ingest.pipeline import ingest
    from fin_qa.store import Store
    from fin_qa.store.fts_rank import StoredRows

    d = tmp_path / "reports"
    d.mkdir()
    shutil.copy(sample_pdf, d / sample_pdf.name)
    with Store(tmp_path / "store") as writer:
        ingest([d], writer, CATALOG)
        writer.db.execute("DELETE FROM table_words")
        writer.db.execute("DELETE FROM table_sizes")
    with Store(tmp_path / "store", readonly=True) as old:
        rid = old.reports()[0]["id"]
        _same_as_fts(old, rid, QUESTIONS)
        assert not isinstance(old.table_index._report(rid).words, StoredRows)
    res = CliRunner().invoke(cli, ["index", "--store", str(tmp_path / "store")])
    assert res.exit_code == 0, res.output
    assert "table and text words of 1 report" in res.output
    with Store(tmp_path / "store", readonly=True) as new:
        _same_as_fts(new, rid, QUESTIONS)
        rep = new.table_index._report(rid)
        assert isinstance(rep.words, StoredRows)
        ids = new.table_match_words(_words(QUESTIONS[0]), rid, 3)
        assert [t.id for t in new.report_tables(rid, ids)] == sorted(ids)
        assert set(rep.raw) == set(ids) and not rep.complete   # (the tables ranked read, no other)
        every = new.report_tables(rid)
        assert rep.complete and [t.id for t in every] == sorted(rep.raw) and len(every) > len(ids)
    res = CliRunner().invoke(cli, ["index", "--store", str(tmp_path / "store")])
    assert "table words" not in res.output   # (nothing left to index)


def test_the_index_is_dropped_when_the_store_changes(tmp_path, sample_pdf, monkeypatch):
    """A reader holding a report's tables and chunks sees a report another connection ingests afterwards,
    and a report replaced by its own connection (`--force`)."""
    from fin_qa.ingest.pipeline import ingest
    from fin_qa.sample import build_sample_pdf
    from fin_qa.store import Store

    d = tmp_path / "reports"
    d.mkdir()
    shutil.copy(sample_pdf, d / sample_pdf.name)
    writer = Store(tmp_path / "store")
    ingest([d], writer, CATALOG)
    reader = Store(tmp_path / "store", readonly=True)
    first = reader.reports()[0]["id"]
    before = reader.report_tables(first)
    assert before and reader.table_match_words(["货币", "资金"], first, 5)
    build_sample_pdf(tmp_path / "more" / "2022-03-01__星河精密制造股份有限公司__688998__星河二号__2021年__年度报告.pdf")
    summary = ingest([tmp_path / "more"], writer, CATALOG, force=True)   # (the same bytes, another report)
    assert summary.count("ingested") == 1, [o.detail for o in summary.outcomes]
    other = next(r["id"] for r in reader.reports() if r["id"] != first)
    assert reader.report_tables(other), "the new report's tables, read by the connection that held the old ones"
    _same_as_fts(reader, other, QUESTIONS[:2])
    first_key = next(r["key"] for r in reader.reports() if r["id"] == first)
    assert _same_chunks(reader, first_key, monkeypatch)   # (its chunks held by the reader)
    ingest([d], writer, CATALOG, force=True)   # replaced: new table ids, read again by both
    again = writer.reports()[0]["id"]
    assert _same_chunks(reader, writer.reports()[0]["key"], monkeypatch)   # new chunk ids: read again
    assert [t.caption for t in writer.report_tables(again)] == [t.caption for t in before]
    assert [t.id for t in reader.report_tables(again)] == [t.id for t in writer.report_tables(again)]
    _same_as_fts(reader, again, QUESTIONS)   # (rows deleted and written again: FTS5's counts and ours agree)
    _same_as_fts(writer, again, QUESTIONS)
    reader.close()
    writer.close()


TEXT_QUERIES = ["核心竞争力", "重大诉讼、仲裁事项", "前五名客户销售额合计", "会计师事务所 审计费用", "12.5 营业收入",
                "利润分配预案 现金分红", "社会责任 环境信息"]


def _same_chunks(store, report_key: str, monkeypatch, matched: bool = False, stored: bool = False) -> int:
    """Every query as FTS5 answers it within the report (fts_match) and as the report's words indexed at
    ingest rank it (`stored`: chunk_words) — or, as for a report ingested before they were, as the held
    chunks rank it (chunk_match from the second search on), or, `matched`, as the report's matched rows
    rank it (never held, every search ranked from its rows): the same chunks, order and scores; with a
    heading phrase ("heading : …", one column) and a phrase of several tokens among them."""
    from fin_qa.search.base import SearchQuery
    from fin_qa.search.sqlite_fts import _parts
    from fin_qa.store import chunk_index, fts_rank

    store.chunk_index.ranker.cache("stored", OrderedDict).clear()
    if not stored:
        monkeypatch.setattr(chunk_index, "indexed", lambda ranker, sizes: False)   # (a store before chunk_words)
    if stored:
        within = store.chunk_range(report_key)
        assert store.chunk_index._stored(within.report_id) is not None   # (its words indexed at ingest)
        monkeypatch.setattr(chunk_index, "MatchedRows", None)   # (neither held nor matched rows: none used)
        monkeypatch.setattr(chunk_index, "ReportRows", None)
    elif matched:
        monkeypatch.setattr(chunk_index, "HOLD", 10 ** 12)
        monkeypatch.setattr(chunk_index, "PER_SEARCH", 0.0)   # reading the matched rows always the cheaper
        monkeypatch.setattr(chunk_index, "PER_ROW", 1e-9)
        made = []
        monkeypatch.setattr(chunk_index, "MatchedRows",
                            lambda *a, **k: made.append(k["keep_texts"]) or fts_rank.MatchedRows(*a, **k))
        store.chunk_index.ranker.reports.clear()   # (held by an earlier test of the shared store)
    else:
        monkeypatch.setattr(chunk_index, "HOLD", 0)   # held from a report's second search on, whatever the sizes
    within = store.chunk_range(report_key)
    compared = 0
    for text in TEXT_QUERIES:
        query = SearchQuery(text, phrases=[text.split()[0]], titles=[text.split()[-1]])
        parts = _parts(query)
        assert any(p.column is not None for p in parts.values()) and any(len(p.tokens) > 1 for p in parts.values())
        # and the query's tokens alone (a matched row's text counted, not split)
        tokens = {k: p for k, p in parts.items() if len(p.tokens) == 1}
        for asked in (parts, tokens):
            want = store.fts_match(" OR ".join(asked), 4.0, 20, within)
            for _ in range(2):   # the first search FTS5's, the second the held chunks'
                got = store.chunk_match(asked, 4.0, 20, within)
                assert [(r.chunk_id, r.score, r.text, r.path, r.page_start) for r in got] == \
                    [(r.chunk_id, r.score, r.text, r.path, r.page_start) for r in want], text
            compared += len(want)
    if matched:   # (ranked from the matched rows, not by FTS5's query: texts kept for phrases, not for tokens)
        assert made == [True, True, False, False] * len(TEXT_QUERIES)
    return compared


# each way a report's chunks are ranked: from its words indexed at ingest, and, for a report ingested before
# they were, from its chunks held in memory or from its matched rows
_WAYS = {"stored": {"stored": True}, "held": {}, "matched": {"matched": True}}


@pytest.mark.parametrize("way", list(_WAYS))
def test_chunks_rank_as_fts5_does(sample_store, monkeypatch, way):
    for r in sample_store.reports():
        assert _same_chunks(sample_store, r["key"], monkeypatch, **_WAYS[way])


@pytest.mark.skipif(not REPORTS.is_dir(), reason="../shared/data/reports is absent")
@pytest.mark.parametrize("way", list(_WAYS))
def test_chunks_rank_as_fts5_does_on_a_real_report(shared_store, monkeypatch, way):
    for r in shared_store.reports():
        assert _same_chunks(shared_store, r["key"], monkeypatch, **_WAYS[way]), r["key"]


def test_a_search_reads_its_matched_rows_only_where_that_is_cheaper(sample_store, monkeypatch):
    """A small store keeps FTS5's query (its pass over the store costs less than one row read here); in a
    large one the report's matched rows are ranked here, unless there are more of them than FTS5's query
    costs."""
    from fin_qa.search.base import SearchQuery
    from fin_qa.search.sqlite_fts import _parts
    from fin_qa.store import chunk_index

    monkeypatch.setattr(chunk_index, "HOLD", 10 ** 12)
    index = sample_store.chunk_index
    monkeypatch.setattr(chunk_index, "indexed", lambda ranker, sizes: False)   # (a store before chunk_words)
    index.ranker.cache("stored", OrderedDict).clear()
    index.ranker.reports.clear()   # (held by an earlier test of the shared store)
    key = sample_store.reports()[0]["key"]
    within = sample_store.chunk_range(key)
    parts = _parts(SearchQuery("营业收入 核心竞争力"))
    args = (list(parts.values()), " OR ".join(parts), within.report_id, within.first, within.last, 20, 4.0)
    assert index.match(*args) is None   # (the sample: one report, FTS5's query is the cheaper)
    n = len(sample_store.fts_match(" OR ".join(parts), 4.0, 1000, within))
    assert n >= 2
    rows, docs = index.ranker.store_totals()[0], sum(index.ranker.documents_with(p) for p in parts.values())
    full = chunk_index.FTS_PER_CHUNK * rows + chunk_index.FTS_PER_DOC * docs   # what FTS5's query would cost
    assert full < chunk_index.PER_SEARCH + chunk_index.PER_ROW   # (why the sample keeps it)
    # half of it what ranking here costs whatever the rows' number; the other half worth n rows, or n - 1
    monkeypatch.setattr(chunk_index, "PER_SEARCH", full / 2)
    fts = full - full / 2
    monkeypatch.setattr(chunk_index, "PER_ROW", fts / (n + 0.5))   # n rows worth reading: ranked here
    got = index.match(*args)
    assert got == [(m.score, m.chunk_id) for m in sample_store.fts_match(" OR ".join(parts), 4.0, 20, within)]
    monkeypatch.setattr(chunk_index, "PER_ROW", fts / (n - 0.5))   # n - 1 worth reading, one too many: FTS5's
    assert index.match(*args) is None


def test_chunks_are_held_when_they_pay_back():
    """A report's chunks are held from the search where reading them has paid back FTS5's pass over the
    store: soon in a large store, late (or never) in a small one; never before the second search."""
    from fin_qa.store.chunk_index import HOLD, ChunkIndex

    index = ChunkIndex.__new__(ChunkIndex)
    for store_chunks, want in ((800_000, 10), (8_000_000, 2), (9_700, HOLD * 800 // 9_700 + 1), (0, 2)):
        index.ranker = type("R", (), {"store_totals": lambda self, n=store_chunks: (n, 1.0)})()
        assert index.searches_to_hold(800) == want, store_chunks


def test_a_read_only_store_is_set_up_for_reading(sample_store):
    from fin_qa.store import Store

    with Store(sample_store.dir, readonly=True) as s:
        pragma = {p: s.db.execute(f"PRAGMA {p}").fetchone()[0] for p in ("query_only", "mmap_size", "cache_size")}
        assert pragma["query_only"] == 1 and pragma["mmap_size"] > 0 and pragma["cache_size"] < 0
        rid = s.reports()[0]["id"]
        assert s.table_match_words(["货币", "资金"], rid, 3)   # (the word counts' table made before query_only)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="serve --processes forks (Linux, macOS)")
def test_recent_questions_are_shared_by_forked_processes():
    from fin_qa.serve.service import RECENT, Recent

    assert Recent().items() == []   # one process: a plain list
    recent = Recent(shared=True)
    recent.add({"question": "父进程", "answer": "x" * 5000, "method": "m", "at": "00:00:00"})
    pid = os.fork()
    if pid == 0:
        recent.add({"question": "子进程", "answer": "y", "method": "m", "at": "00:00:01"})
        os._exit(0)
    os.waitpid(pid, 0)
    items = recent.items()
    assert [i["question"] for i in items] == ["子进程", "父进程"]
    assert len(items[1]["answer"]) == Recent.ANSWER_CHARS
    for n in range(RECENT + 5):
        recent.add({"question": f"q{n}", "answer": "", "method": "m", "at": ""})
    assert len(recent.items()) == RECENT and recent.items()[0]["question"] == f"q{RECENT + 4}"


@pytest.mark.skipif(not hasattr(os, "fork"), reason="serve --processes forks (Linux, macOS)")
def test_serve_processes(serve_store):
    """Two server processes on one address: every question answered, the recent ones listed by either;
    stopping the parent stops them; --processes with a chat model is one clear message."""
    srv = ServerProcess("--store", str(serve_store), "--processes", "2", "--llm", "none", env=server_env())
    try:
        assert "2 processes" in "".join(srv.log)
        asked = [f"2021年星河精密的{item}是多少元?" for item in ("货币资金", "营业收入", "净利润", "资产总计")] * 3
        for q in asked:
            reply = request(srv.base, "/api/ask", {"question": q})
            assert reply.status == 200 and reply.json()["question"] == q
        for _ in range(6):   # whichever process answers lists them all
            recent = request(srv.base, "/api/recent").json()["recent"]
            assert [r["question"] for r in recent[:len(asked)]] == asked[::-1]
    finally:
        assert srv.stop() in (0, -15), "".join(srv.log)
    assert "Traceback" not in "".join(srv.log)
    from conftest import _cli

    r = _cli("serve", "--store", str(serve_store), "--processes", "2", "--llm", "default", "--port", "0")
    assert r.returncode != 0 and "--processes needs --llm none" in r.stderr and "Traceback" not in r.stderr


# ------------------------------------------------------------------ shortcuts that must not change an answer

@settings(max_examples=400, deadline=None)
@given(base=st.text(alphabet="营业收入合计政府补助成本费用现金流量", min_size=4, max_size=14),
       question=st.text(alphabet="营业收入合计政府补助成本费用现金流量是多少的", min_size=0, max_size=24),
       neutral=st.lists(st.booleans(), min_size=14, max_size=14))
def test_a_fuzzy_label_under_its_floor_is_never_named(base, question, neutral):
    """_fuzzy_floor is a bound, not a rule: a label the question holds fewer of its pairs than the floor
    never passes _fuzzy_ok, whatever its neutral characters."""
    from fin_qa.answer.cells import _fuzzy_floor, _fuzzy_ok, cover, pairs

    marks = tuple(neutral[:len(base)])
    qp = pairs(question)
    if len(pairs(base) & qp) < _fuzzy_floor(base, marks):
        assert not _fuzzy_ok([a or b for a, b in zip(cover(base, qp), marks)])


@settings(max_examples=2000, deadline=None)
@given(text=st.text(alphabet="营业收入ab01 .%A_-，。\u3400\u4dbf\u9fff\uf900\ufa6d\ufa6e\ufa70\ufad9\ufada\ufaff\u3000\t",
                    max_size=16))
def test_stored_text_split_as_by_its_letters_and_digits(text):
    """fts_tokens' shortcut (split on spaces once '.' and '%' are spaces, for text of CJK ideographs, a-z,
    0-9 only) reads the tokens that runs of letters and digits are, whatever the text: unassigned code
    points of the compatibility block included."""
    from fin_qa.store.fts_rank import _ALNUM, fts_tokens

    assert fts_tokens(text) == _ALNUM.findall(text.lower())


def test_neutral_marks_are_those_of_every_word_in_order(sample_store):
    """The ask's marks from the words starting with one of its characters only are the marks of all the
    words, in their order (each occurrence not overlapping a marked one)."""
    cells = _router(sample_store).cells
    words = cells._neutral
    for ask in ["2019年年末的货币资金是多少元", "公司年报中披露的研发人员数量", "截至报告期末在职员工的数量合计",
                "本期发生额", "约为多少万元", ""]:
        want = [False] * len(ask)
        for w in words:
            at = ask.find(w) if w else -1
            while at >= 0:
                end = at + len(w)
                if not any(want[at:end]):
                    want[at:end] = [True] * len(w)
                at = ask.find(w, end)
        assert cells._marks(ask, words) == want, ask


def _router(store):
    from fin_qa.answer.facts import FactSource
    from fin_qa.answer.router import Router

    return Router(FactSource(store), CATALOG)


@pytest.mark.skipif(not REPORTS.is_dir(), reason="../shared/data/reports is absent")
def test_company_names_found_as_before(shared_store):
    """Names looked up once per length at each place: the longest name there that stands as a name (a
    spoken form bounded, a stock code not inside a longer number) — the matches of comparing every name
    starting with the place's two characters, longest first."""
    from fin_qa.catalog.normalize import normalize_question

    index = _router(shared_store).understander.companies

    def slow(question: str) -> list[tuple[int, int, str]]:
        q = normalize_question(question)
        by_length = sorted(index._names, key=len, reverse=True)
        hits = []
        for i in range(len(q) - 1):
            for name in (n for n in by_length if n[:2] == q[i:i + 2]):
                if q.startswith(name, i):
                    if name in index._spoken and not index._bounded(q, i, i + len(name)):
                        continue
                    if name.isdigit() and (q[i - 1:i].isdigit() or q[i + len(name):i + len(name) + 1].isdigit()):
                        continue
                    hits.append((i, i + len(name), name))
                    break
        return hits

    names = sorted(index._names, key=len)
    questions = [f"{a}和{b}2019年的营业收入" for a, b in zip(names, reversed(names))]
    questions += ["请问惠威电声2019年的营业收入", "000059华锦股份的研发投入", "1000059的净利润", "公司中利润总额是多少"]
    for q in questions:
        assert index._hits(normalize_question(q)) == slow(q), q
    assert sum(bool(slow(q)) for q in questions) >= len(questions) // 2   # (names were found: the test tests)


def test_normalize_question_as_two_passes():
    from fin_qa.catalog.normalize import _DIGITS, _WIDTH, normalize_question

    text = "（２０１９年）　万科Ａ，ＳＴ？：；！－—～＊ 研发 投入\t"
    assert normalize_question(text) == text.translate(_WIDTH).translate(_DIGITS).strip()


def test_the_collector_set_for_answering():
    """After for_answering the engine's objects are frozen and the youngest generation waits longer; a
    second call unfreezes first (an engine built again frees the old one)."""
    import gc

    from fin_qa import gc_tuning

    before = gc.get_threshold()
    try:
        gc_tuning.for_answering()
        assert gc.get_threshold() == gc_tuning.THRESHOLD
        assert gc.get_freeze_count() > 0
        import weakref

        class Node:
            pass

        garbage = Node()
        garbage.me = garbage         # a cycle made after the freeze …
        ref = weakref.ref(garbage)
        del garbage
        gc_tuning.for_answering()    # … is collected by the next call, not frozen
        assert ref() is None
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


@pytest.mark.skipif(not REPORTS.is_dir(), reason="../shared/data/reports is absent")
def test_ingest_writes_in_file_order_whatever_the_workers(tmp_path, monkeypatch):
    """Parsers in several processes write the store as one process does: the files' order, so the same ids
    (and the same order of equal search scores) — the slow report first here, finished last by its parser."""
    from fin_qa.ingest import pipeline
    from fin_qa.ingest.pipeline import ingest
    from fin_qa.store import Store

    monkeypatch.setattr(pipeline.os, "cpu_count", lambda: 2)   # two parsers even on a one-core machine

    folder = tmp_path / "reports"
    folder.mkdir()
    names = sorted(p.name for p in REPORTS.iterdir() if p.suffix in (".pdf", ".txt"))
    big = max(names, key=lambda n: (REPORTS / n).stat().st_size if n.endswith(".pdf") else 0)
    small = [n for n in names if n != big and (n.endswith(".txt") or (REPORTS / n).stat().st_size < 1.5e6)][:3]
    for i, n in enumerate([big, *small]):
        (folder / f"{i}-{n}").symlink_to(REPORTS / n)
    dumps = []
    for workers in (1, 2):
        store = Store(tmp_path / f"store{workers}")
        summary = ingest([folder], store, CATALOG, workers=workers)
        assert summary.count("ingested") == 4
        db = store.db
        dumps.append([list(db.execute(f"SELECT * FROM {t} ORDER BY rowid")) for t in
                      ("reports", "facts", "tables", "chunks", "sections", "vocab", "page_words")]
                     + [list(db.execute("SELECT sha256, report_id, kind, pages, warnings, parser FROM files"
                                        " ORDER BY report_id"))])
        store.close()
    assert [r[1] for r in dumps[0][0]] == [r[1] for r in dumps[1][0]]
    assert dumps[0] == dumps[1]


_DYING: dict = {}


def _parse_or_die(path, sha, hint):
    """A parser (sent to the parser processes by name) that dies on a file named "-die-", once the first
    file is read (what is written before the death is kept)."""
    if "-die-" in path:
        for _ in range(600):
            if _DYING["read"].exists():
                break
            time.sleep(0.1)
        time.sleep(2)   # (the first file's parser has its result on its way back to the parent by then)
        os._exit(9)   # (the forked parser, as an OOM kill would end it)
    got = _DYING["real"](path, sha, hint)
    if path.endswith(_DYING["first"]):
        _DYING["read"].touch()
    return got


@pytest.mark.skipif(not REPORTS.is_dir(), reason="../shared/data/reports is absent")
def test_a_parser_process_that_dies_fails_its_files_and_the_run_goes_on(tmp_path, monkeypatch):
    """A parser process killed while reading a file (out of memory, a crash in PDFium) takes its pool with it:
    the files written before it stay, it and the files not yet read each get a failed outcome saying so, and
    ingest returns (a rerun reads them)."""
    from fin_qa.ingest import pipeline
    from fin_qa.store import Store

    folder = tmp_path / "reports"
    folder.mkdir()
    txts = sorted(p for p in REPORTS.iterdir() if p.suffix == ".txt")[:2]
    names = [f"0-{txts[0].name}", f"1-die-{txts[1].name}", f"2-{txts[0].name.replace('.txt', '-again.txt')}"]
    for name, src in zip(names, [txts[0], txts[1], txts[0]]):
        (folder / name).write_bytes(src.read_bytes() + (b"\n" if "again" in name else b""))
    _DYING.update(real=pipeline._parse_in_worker, first=names[0], read=tmp_path / "first-read")
    monkeypatch.setattr(pipeline, "_parse_in_worker", _parse_or_die)   # (the forked parsers have it too)
    monkeypatch.setattr(pipeline.os, "cpu_count", lambda: 2)
    store = Store(tmp_path / "store")
    summary = pipeline.ingest([folder], store, CATALOG, workers=2)
    by_name = {os.path.basename(o.path): o for o in summary.outcomes}
    assert len(summary.outcomes) == 3 and by_name[names[0]].status == "ingested"
    dead = by_name[names[1]]
    assert dead.status == "failed" and "parser process died" in dead.detail
    last = by_name[names[2]]   # (read by the other process before the death, or not: said either way)
    assert last.status == "skipped" or (last.status == "failed") == ("parser process died" in last.detail)
    assert [r["key"] for r in store.reports()] == [by_name[names[0]].report.meta.key]
    store.close()


def test_page_characters_read_by_the_fast_calls_as_by_the_declared_ones(sample_pdf, monkeypatch):
    """PDFium's per-character calls made without ctypes' argument conversion read the same characters and
    boxes as pypdfium2's declared functions — which are used where its bindings no longer hold the library
    under the private name (any pypdfium2 release)."""
    import pypdfium2 as pdfium
    import pypdfium2_raw.bindings as bindings

    from fin_qa.ingest import pages

    def read() -> list:
        pdf = pdfium.PdfDocument(str(sample_pdf))
        try:
            out = []
            for i in range(len(pdf)):
                page = pdf[i]
                tp = page.get_textpage()
                out.append(pages.page_chars(page, tp))
                tp.close()
                page.close()
            return out
        finally:
            pdf.close()

    pages._fast_calls.cache_clear()
    assert pages._fast_calls().fast
    fast = read()
    monkeypatch.setattr(bindings, "_libs", {})
    pages._fast_calls.cache_clear()
    try:
        assert not pages._fast_calls().fast
        assert read() == fast and sum(map(len, fast)) > 1000
    finally:
        pages._fast_calls.cache_clear()
