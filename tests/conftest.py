"""Shared fixtures. Tests that read ../shared skip with a stated reason when it is absent."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
REPORTS = SHARED / "data" / "reports"
FINGLM = SHARED / "data" / "finglm"
TABLES = SHARED / "data" / "finglm_tables"

needs_shared = pytest.mark.skipif(
    not REPORTS.is_dir(), reason="../shared/data/reports is absent (real reports are not part of a clone)"
)


@pytest.fixture(scope="session")
def shared_store(tmp_path_factory):
    """All shared reports ingested once into a real SQLite store."""
    if not REPORTS.is_dir():
        pytest.skip("../shared/data/reports is absent")
    from fin_qa.ingest.pipeline import ingest
    from fin_qa.store import Store

    store = Store(tmp_path_factory.mktemp("shared_store"))
    summary = ingest([REPORTS], store, workers=2)
    assert summary.count("failed") == 0, [o.detail for o in summary.outcomes if o.status == "failed"]
    yield store
    store.close()


@pytest.fixture(scope="session")
def sample_pdf(tmp_path_factory):
    from fin_qa.sample import build_sample_pdf

    return build_sample_pdf(tmp_path_factory.mktemp("sample") / "星河精密2021年度报告.pdf")


def fact(store, short_name: str, item: str, period: str = "current"):
    rows = [
        f for f in store.facts(short_name, None, item)
        if f["period"] == period and f["source"] in ("pdf", "txt")
    ]
    assert len(rows) == 1, f"{short_name} {item} {period}: {len(rows)} facts"
    return rows[0]
