"""Shared fixtures. Tests that read ../shared skip with a stated reason when it is absent."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from fin_qa.catalog import Catalog

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
REPORTS = SHARED / "data" / "reports"
FINGLM = SHARED / "data" / "finglm"
TABLES = SHARED / "data" / "finglm_tables"
MORE = SHARED / "data" / "reports_more"

# The rules shipped with fin-qa (the repository's folders), loaded once for the whole run.
CATALOG = Catalog.shipped()


@pytest.fixture(scope="session")
def catalog():
    return CATALOG


needs_shared = pytest.mark.skipif(
    not REPORTS.is_dir(), reason="../shared/data/reports is absent (real reports are not part of a clone)"
)


def ingested_store(tmp_path_factory, name: str, paths: list[Path], workers: int = 2):
    """(a real SQLite store in a new folder `name`, the ingest summary) of these paths, none failed."""
    from fin_qa.ingest.pipeline import ingest
    from fin_qa.store import Store

    store = Store(tmp_path_factory.mktemp(name))
    summary = ingest(paths, store, CATALOG, workers=workers)
    assert summary.count("failed") == 0, [o.detail for o in summary.outcomes if o.status == "failed"]
    return store, summary


@pytest.fixture(scope="session")
def shared_store(tmp_path_factory):
    """All shared reports ingested once into a real SQLite store."""
    if not REPORTS.is_dir():
        pytest.skip("../shared/data/reports is absent")
    store, _ = ingested_store(tmp_path_factory, "shared_store", [REPORTS])
    yield store
    store.close()


@pytest.fixture(scope="session")
def all_store(tmp_path_factory):
    """The shared reports and reports_more ingested once (through the CLI's ingest) into a real store."""
    if not (REPORTS.is_dir() and MORE.is_dir()):
        pytest.skip("../shared/data/reports or reports_more is absent")
    store, summary = ingested_store(tmp_path_factory, "all_store", [REPORTS, MORE])
    yield store, summary
    store.close()


@pytest.fixture(scope="session")
def sample_pdf(tmp_path_factory):
    from fin_qa.sample import build_sample_pdf

    return build_sample_pdf(tmp_path_factory.mktemp("sample") / "星河精密2021年度报告.pdf")


def fact(store, short_name: str, item: str, period: str = "current", summary: bool = False, parent: bool = False):
    """The one fact of a report's item read from the document: from the consolidated statements (and the
    other sections), with summary=True from the summary table 主要会计数据, with parent=True from the
    parent company's own statements (母公司…)."""
    rows = [
        f for f in store.facts(short_name, None, item)
        if f["period"] == period and f["source"] in ("pdf", "txt") and (f["statement"] == "主要会计数据") == summary
        and (f["statement"] or "").startswith("母公司") == parent
    ]
    assert len(rows) == 1, f"{short_name} {item} {period}: {len(rows)} facts"
    return rows[0]


@pytest.fixture(scope="module")
def sample_store(tmp_path_factory, sample_pdf):
    """The sample report twice: as itself and under another stock code (a FinGLM-style file name)."""
    from fin_qa.ingest.pipeline import ingest
    from fin_qa.sample import build_sample_pdf
    from fin_qa.store import Store

    d = tmp_path_factory.mktemp("search")
    shutil.copy(sample_pdf, d / sample_pdf.name)
    build_sample_pdf(d / "2022-03-01__星河精密制造股份有限公司__688998__星河二号__2021年__年度报告.pdf")
    store = Store(d / "store")
    summary = ingest([d], store, CATALOG)
    assert summary.count("ingested") == 2
    yield store
    store.close()


@pytest.fixture(scope="session")
def es_url():
    """A real Elasticsearch node: $FIN_QA_ES_URL, else one of this session's own started with
    scripts/start-elasticsearch.sh on free ports with its own data folder (stopped and removed at the end;
    never a node another checkout started). Without one the tests skip with the reason, unless
    FIN_QA_REQUIRE_ES=1 (CI), where that is a failure."""
    url = os.environ.get("FIN_QA_ES_URL")
    started = False
    env = dict(os.environ)
    if not url:
        ports = subprocess.run([sys.executable, str(ROOT / "scripts" / "free_ports.py"), "2"], capture_output=True,
                               text=True, check=True).stdout.split()
        env.update(FIN_QA_ES_PORT=ports[0], FIN_QA_ES_TRANSPORT_PORT=ports[1])
        try:
            r = subprocess.run(["bash", str(ROOT / "scripts" / "start-elasticsearch.sh")], capture_output=True,
                               text=True, timeout=900, env=env)
            ok, out, err = r.returncode == 0, r.stdout, r.stderr
        except (OSError, subprocess.TimeoutExpired) as exc:
            ok, out, err = False, "", str(exc)
        if not ok:   # a half-started node of ours is stopped and removed too
            subprocess.run(["bash", str(ROOT / "scripts" / "stop-elasticsearch.sh"), "--wipe"], capture_output=True,
                           env=env)
            reason = "no Elasticsearch node: scripts/start-elasticsearch.sh failed: " + \
                     (err.strip().splitlines() or ["?"])[-1]
            if os.environ.get("FIN_QA_REQUIRE_ES") == "1":
                pytest.fail(reason)
            pytest.skip(reason)
        url = out.strip().splitlines()[-1]
        started = True
    yield url
    if started:
        subprocess.run(["bash", str(ROOT / "scripts" / "stop-elasticsearch.sh"), "--wipe"], capture_output=True, env=env)


@pytest.fixture(scope="module")
def es_index(es_url):
    """A fresh index name on the node, deleted after the module."""
    name = f"fin-qa-test-{uuid.uuid4().hex[:8]}"
    yield name
    from elasticsearch import Elasticsearch

    Elasticsearch(es_url).options(ignore_status=404).indices.delete(index=name)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fin_qa.cli", *args], capture_output=True, text=True)


TXT_REPORT = Path(__file__).resolve().parent / "data" / "parsers" / "finglm_statements.txt"


@pytest.fixture(scope="session")
def serve_store(tmp_path_factory, sample_pdf):
    """The sample report (PDF) and a FinGLM txt report, ingested with `fin-qa ingest`."""
    d = tmp_path_factory.mktemp("serve")
    store = d / "store"
    r = _cli("ingest", str(sample_pdf), "--store", str(store), "-q")
    assert r.returncode == 0, r.stderr
    r = _cli("ingest", str(TXT_REPORT), "--store", str(store), "-q", "--code", "000099", "--year", "2019", "--company", "示例股份")
    assert r.returncode == 0, r.stderr
    return store
