#!/usr/bin/env python3
"""Benchmark text search: indexing throughput and query latency on both backends over ≥200 reports.

    python scripts/bench_search.py [--reports ../shared/data/reports] [--copies 34] [--queries 1000]
                                   [--es-url URL | --no-es] [--keep DIR]

The reports of --reports (default: the six shared ones; the bundled sample when absent) are ingested
once, then replicated under other stock codes and names until the corpus has copies × reports
reports (Store.copy_report: sections, chunks and their index rows; that copy is not timed). Then, per backend:
  - indexing: the whole corpus analysed (character bigrams) and indexed, chunks/s;
  - latency: `--queries` text questions (tests/data/section_questions.yaml, cycled) each against a
    random report of the corpus: the backend's own search (top `candidates` chunks of the report) and
    the full retrieval (search + parent sections), p50/p95/max in ms.
Elasticsearch runs when --es-url / $FIN_QA_ES_URL names a node (scripts/start-elasticsearch.sh).
"""
from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fin_qa.search.base import Filters  # noqa: E402
from fin_qa.search.indexer import sync  # noqa: E402
from fin_qa.search.retrieve import Retriever, make_backend  # noqa: E402
from fin_qa.store import ReportMeta, Store  # noqa: E402
from fin_qa.catalog import Catalog  # noqa: E402

CATALOG = Catalog.shipped()


def build_corpus(store: Store, source: Path, copies: int) -> None:
    from fin_qa.ingest.pipeline import ingest

    if source.is_dir() and any(source.iterdir()):
        ingest([source], store, CATALOG, workers=2)
    else:
        from fin_qa.sample import build_sample_pdf

        tmp = Path(tempfile.mkdtemp())
        build_sample_pdf(tmp / "sample.pdf")
        ingest([tmp], store, CATALOG)
    originals = store.report_list()
    for k in range(1, copies):
        for r in originals:
            store.copy_report(r.id, ReportMeta(f"C{k:02d}{r.stock_code}", r.year, f"复本{k}{r.full_name}",
                                               f"复本{k}{r.short_name}", r.publish_date))


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def latency(store: Store, backend, questions: list[str], n: int, seed: int = 7) -> dict:
    retriever = Retriever(store, backend, CATALOG.topics, CATALOG.search)
    keys = store.report_keys()
    rng = random.Random(seed)
    raw, full = [], []
    for i in range(n):
        q = questions[i % len(questions)]
        key = rng.choice(keys)
        query, topics = retriever.query(q)
        t = time.perf_counter()
        backend.search(query, Filters([key]), retriever.config.candidates)
        raw.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        retriever.retrieve(query, topics, [key])
        full.append((time.perf_counter() - t) * 1000)
    return {"search": raw, "retrieve": full}


def strip_company_year(q: str) -> str:
    """The questions name a company and year; the benchmark targets a random report instead."""
    q = re.sub(r"(?:19|20)\d{2}年?", "", q)
    return re.sub(r"^[^，,]*?(?:股份有限公司|生物股份|安靠智电|四方科技|惠威科技|张家界|邮储银行)", "", q)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reports", type=Path, default=ROOT.parent / "shared" / "data" / "reports")
    ap.add_argument("--copies", type=int, default=34, help="corpus = copies × the ingested reports")
    ap.add_argument("--queries", type=int, default=1000)
    ap.add_argument("--es-url", default=os.environ.get("FIN_QA_ES_URL"))
    ap.add_argument("--no-es", action="store_true")
    ap.add_argument("--keep", type=Path, help="build (or reuse) the corpus store in this folder")
    args = ap.parse_args(argv)

    tmp = None
    folder = args.keep
    if folder is None:
        tmp = tempfile.TemporaryDirectory()
        folder = Path(tmp.name)
    questions = [strip_company_year(q["q"]) for q in yaml.safe_load(
        (ROOT / "tests" / "data" / "section_questions.yaml").read_text(encoding="utf-8"))["questions"]]
    with Store(folder) as store:
        if not store.report_keys():
            t = time.perf_counter()
            build_corpus(store, args.reports, args.copies)
            print(f"corpus built in {time.perf_counter() - t:.1f} s (ingest + copies, not a benchmark figure)")
        counts = store.counts()
        print(f"corpus: {counts['reports']} reports, {counts['sections']} sections, {counts['chunks']} chunks")
        rows = []
        backends = ["sqlite"]
        if args.es_url and not args.no_es:
            os.environ["FIN_QA_ES_URL"] = args.es_url
            os.environ.setdefault("FIN_QA_ES_INDEX", "fin-qa-bench")
            backends.append("elasticsearch")
        for name in backends:
            backend = make_backend(name, store, CATALOG, os.environ.get("FIN_QA_ES_URL"), os.environ.get("FIN_QA_ES_INDEX"))
            res = sync(store, backend, recreate=True)
            if name == "sqlite":
                store.optimize_planner()
            lat = latency(store, backend, questions, args.queries)
            rows.append((name, res, lat))
        print()
        print(f"{'backend':14} {'index chunks/s':>15} {'index s':>8}   "
              f"{'search p50':>10} {'p95':>7} {'max':>7}   {'retrieve p50':>12} {'p95':>7} {'max':>7}  (ms, {args.queries} queries)")
        for name, res, lat in rows:
            s, r = lat["search"], lat["retrieve"]
            print(f"{name:14} {res.rate:15.0f} {res.seconds:8.1f}   {pct(s, 50):10.2f} {pct(s, 95):7.2f} {max(s):7.1f}"
                  f"   {pct(r, 50):12.2f} {pct(r, 95):7.2f} {max(r):7.1f}")
        print(f"target: embedded retrieve p95 ≤ 20 ms → "
              f"{'met' if pct(rows[0][2]['retrieve'], 95) <= 20 else 'NOT met'}")
        if "elasticsearch" in backends:
            make_backend("elasticsearch", store, CATALOG, args.es_url).es.options(ignore_status=404).indices.delete(
                index=os.environ["FIN_QA_ES_INDEX"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
