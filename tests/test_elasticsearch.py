"""The Elasticsearch backend against a real node (scripts/start-elasticsearch.sh; no mocks): indexing,
replacement on re-index, clear errors, and parity with the embedded FTS5 backend."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import yaml

from conftest import CATALOG, ROOT, needs_shared
from fin_qa.answer.router import Router
from fin_qa.answer.facts import FactSource
from fin_qa.sample import QUESTIONS, build_sample_pdf
from fin_qa.search.base import Filters, SearchError, SearchQuery
from fin_qa.search.elastic import ElasticsearchBackend
from fin_qa.search.indexer import sync
from fin_qa.search.retrieve import Retriever, make_backend

TEXT_QUESTIONS = [q for q in QUESTIONS if "介绍" in q or "是否" in q] + [
    "星河精密2021年面临哪些风险?", "星河二号2021年的社会责任工作情况如何?", "星河二号2021年研发投入情况如何?"]


def run(*args, env=None):
    return subprocess.run([sys.executable, "-m", "fin_qa.cli", *args], capture_output=True, text=True, env=env)


def chunk_count(store) -> int:
    return store.db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]


@pytest.fixture(scope="module")
def es(es_url, es_index, sample_store):
    backend = ElasticsearchBackend(CATALOG.es_mappings["chunks"], url=es_url, index=es_index)
    sync(sample_store, backend, recreate=True)
    return backend


def test_sync_indexes_every_chunk_and_a_reindex_replaces(es, sample_store):
    n = chunk_count(sample_store)
    assert es.count() == n
    res = sync(sample_store, es)                      # again: replaced, not duplicated
    assert res.chunks == n and es.count() == n and res.reports == 2
    key = sample_store.report_keys("星河二号")[0]
    hits = es.search(SearchQuery("重大诉讼", ["重大诉讼"], ["重大诉讼"]), Filters([key]), 5)
    assert hits and {h.report_key for h in hits} == {key} and "重大诉讼" in hits[0].path[-1]
    assert hits[0].page_start == 3 and hits[0].score >= hits[-1].score


def test_same_first_section_and_answer_as_the_embedded_backend(es, sample_store):
    on_es = Router(FactSource(sample_store), CATALOG, retriever=Retriever(sample_store, es, CATALOG.topics, CATALOG.search))
    on_fts = Router(FactSource(sample_store), CATALOG, retriever=Retriever(
        sample_store, make_backend("sqlite", sample_store, CATALOG), CATALOG.topics, CATALOG.search))
    searched = 0
    for q in TEXT_QUESTIONS:
        a, b = on_es.answer(q), on_fts.answer(q)
        assert a.found and a.method in ("text", "lookup"), (q, a.answer)
        assert a.answer == b.answer, q
        if a.method == "lookup":
            continue  # a key disclosure read at ingest (是否有重大诉讼): no search involved
        searched += 1
        assert [e.heading for e in a.evidence] == [e.heading for e in b.evidence]
    assert searched >= len(TEXT_QUESTIONS) - 1


def test_missing_index_and_unreachable_node_are_clear_errors(es_url):
    missing = ElasticsearchBackend(CATALOG.es_mappings["chunks"], url=es_url, index="fin-qa-test-does-not-exist")
    with pytest.raises(SearchError, match="index 'fin-qa-test-does-not-exist' does not exist .*fin-qa index"):
        missing.check()
    with pytest.raises(SearchError, match="does not exist"):
        missing.search(SearchQuery("重大诉讼"), Filters(None), 3)
    with pytest.raises(SearchError, match="unreachable"):
        ElasticsearchBackend(CATALOG.es_mappings["chunks"], url="http://127.0.0.1:9", index="x").check()


def test_cli_ingest_search_and_ask_on_elasticsearch(es_url, tmp_path, sample_pdf):
    env = dict(os.environ, FIN_QA_ES_URL=es_url, FIN_QA_ES_INDEX=f"fin-qa-test-cli-{os.getpid()}")
    store = str(tmp_path / "store")
    try:
        r = run("ingest", str(sample_pdf), "--store", store, "--search", "elasticsearch", "-q", env=env)
        assert r.returncode == 0 and "indexed" in r.stdout and "into elasticsearch" in r.stdout, r.stdout + r.stderr
        r = run("search", "重大诉讼", "--store", store, "--search", "elasticsearch", "-n", "1", env=env)
        assert r.returncode == 0 and "一、重大诉讼、仲裁事项" in r.stdout
        q = "星河精密2021年是否有重大诉讼、仲裁事项?"
        es_rec = json.loads(run("ask", q, "--store", store, "--json", "--search", "elasticsearch", env=env).stdout)
        fts_rec = json.loads(run("ask", q, "--store", store, "--json").stdout)
        assert es_rec["answer"] == fts_rec["answer"] and es_rec["evidence"][0]["page"] == 3
        # re-ingesting gives the chunks new ids in the store: the old ones must leave the index
        r = run("ingest", str(sample_pdf), "--store", store, "--search", "elasticsearch", "--force", "-q", env=env)
        assert r.returncode == 0
        r = run("index", "--store", store, "--search", "elasticsearch", env=env)
        assert r.returncode == 0 and "chunks/s" in r.stdout
        from fin_qa.store import Store

        with Store(store) as s:
            n = chunk_count(s)
        backend = ElasticsearchBackend(CATALOG.es_mappings["chunks"], url=es_url, index=env["FIN_QA_ES_INDEX"])
        assert backend.count() == n
    finally:
        from elasticsearch import Elasticsearch

        Elasticsearch(es_url).options(ignore_status=404).indices.delete(index=env["FIN_QA_ES_INDEX"])


@needs_shared
def test_parity_on_the_shared_reports(es_url, shared_store):
    sys.path.insert(0, str(ROOT / "scripts"))
    from eval_sections import evaluate

    index = f"fin-qa-test-shared-{os.getpid()}"
    backend = ElasticsearchBackend(CATALOG.es_mappings["chunks"], url=es_url, index=index)
    try:
        sync(shared_store, backend, recreate=True)
        questions = yaml.safe_load((ROOT / "tests" / "data" / "section_questions.yaml").read_text(encoding="utf-8"))
        on_fts = evaluate(shared_store, "sqlite", questions["questions"], verbose=False)
        os.environ["FIN_QA_ES_URL"], os.environ["FIN_QA_ES_INDEX"] = es_url, index
        on_es = evaluate(shared_store, "elasticsearch", questions["questions"], verbose=False)
        assert on_es["rate"] >= 0.9, on_es["failed"]
        # right on the same questions, and the very same section first for nearly all of them (BM25
        # differs in detail: FTS5 weighs columns inside one score, Elasticsearch sums per-field scores)
        assert {f[0] for f in on_es["failed"]} == {f[0] for f in on_fts["failed"]}
        same = sum(a == b for a, b in zip(on_fts["firsts"], on_es["firsts"]))
        assert same >= 0.95 * len(questions["questions"]), list(zip(on_fts["firsts"], on_es["firsts"]))
    finally:
        os.environ.pop("FIN_QA_ES_INDEX", None)
        backend.es.options(ignore_status=404).indices.delete(index=index)


def test_a_number_question_needs_no_node(tmp_path, sample_pdf):
    """--search elasticsearch is reached only when a question searches text (no node needed here: the URL
    names a closed port)."""
    env = dict(os.environ, FIN_QA_ES_URL="http://127.0.0.1:9", FIN_QA_ES_INDEX="fin-qa-none")
    store = str(tmp_path / "store")
    assert run("ingest", str(sample_pdf), "--store", store, "-q").returncode == 0
    r = run("ask", "星河精密2021年营业收入是多少元？", "--store", store, "--search", "elasticsearch", env=env)
    assert r.returncode == 0 and "300,000,000.00元" in r.stdout, r.stdout + r.stderr
    r = run("ask", "请简要介绍星河精密2021年主要销售客户的客户集中度情况。", "--store", store, "--search",
            "elasticsearch", env=env)
    assert r.returncode == 2 and "unreachable" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.slow
def test_a_second_checkouts_node_runs_beside_this_one_and_stops_alone(es_url, tmp_path):
    """Two checkouts on one machine: each test run starts a node of its own (free ports, its own data
    folder) and stopping one leaves the other serving."""
    from elasticsearch import Elasticsearch

    ports = subprocess.run([sys.executable, str(ROOT / "scripts" / "free_ports.py"), "2"], capture_output=True,
                           text=True, check=True).stdout.split()
    env = dict(os.environ, FIN_QA_ES_PORT=ports[0], FIN_QA_ES_TRANSPORT_PORT=ports[1])
    r = subprocess.run(["bash", str(ROOT / "scripts" / "start-elasticsearch.sh")], capture_output=True, text=True,
                       timeout=600, env=env)
    try:
        assert r.returncode == 0 and "already running" not in r.stderr, r.stderr
        other = r.stdout.strip().splitlines()[-1]
        assert other != es_url and other.endswith(f":{ports[0]}")
        assert Elasticsearch(other).cluster.health()["status"] in ("green", "yellow")
    finally:
        subprocess.run(["bash", str(ROOT / "scripts" / "stop-elasticsearch.sh"), "--wipe"], capture_output=True,
                       env=env)
    assert Elasticsearch(es_url).cluster.health()["status"] in ("green", "yellow")


def test_research_notes_are_indexed_and_searched_on_elasticsearch(es_url, tmp_path, sample_pdf):
    from fin_qa.sample import NOTE_TITLE, build_note_pdf, write_note_info
    from fin_qa.store import Store

    build_note_pdf(tmp_path / "研报" / "个股研报" / f"{NOTE_TITLE}.pdf")
    write_note_info(tmp_path / "研报" / "个股_研报信息.xlsx")
    index = f"fin-qa-test-notes-{os.getpid()}"
    env = dict(os.environ, FIN_QA_ES_URL=es_url, FIN_QA_ES_INDEX=index)
    store = str(tmp_path / "store")
    try:
        r = run("ingest", str(sample_pdf), str(tmp_path / "研报"), "--store", store, "--search", "elasticsearch", "-q",
                env=env)
        assert r.returncode == 0 and "of research notes into elasticsearch" in r.stdout, r.stdout + r.stderr
        backend = ElasticsearchBackend(CATALOG.es_mappings["chunks"], url=es_url, index=index)
        with Store(store) as s:
            n = s.db.execute("SELECT COUNT(*) FROM note_chunks").fetchone()[0]
            assert backend.for_notes().count() == n and backend.count() == chunk_count(s)   # apart, each whole
            on_es = Router(FactSource(s), CATALOG, retriever=Retriever(s, backend, CATALOG.topics, CATALOG.search))
            on_fts = Router(FactSource(s), CATALOG)
            for q in (f"《{NOTE_TITLE}》这篇研报有哪些风险提示？", "星河精密2021年营业收入增长的原因是什么？"):
                a, b = on_es.answer(q), on_fts.answer(q)
                assert a.answer == b.answer and any(e.to_dict().get("note") for e in a.evidence), q
        r = run("index", "--store", store, "--search", "elasticsearch", env=env)   # rebuilt whole, not doubled
        assert r.returncode == 0 and "of research notes into elasticsearch" in r.stdout
        assert backend.for_notes().count() == n
    finally:
        from elasticsearch import Elasticsearch

        es = Elasticsearch(es_url).options(ignore_status=404)
        es.indices.delete(index=index)
        es.indices.delete(index=index + "-notes")
