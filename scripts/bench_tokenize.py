#!/usr/bin/env python3
"""Why character bigrams: the analysers compared on the same chunks, questions and FTS5 ranking.

    python scripts/bench_tokenize.py --store STORE      (a store with the shared reports ingested)

For each analyser — character bigrams (fin-qa's), single characters, and jieba's search-mode words
(`pip install jieba`; skipped when absent) — the store's chunks are indexed into an in-memory FTS5
table (heading, body; BM25 with the same column weights), then every question of
tests/data/section_questions.yaml is asked against its report with the text alone (no topic titles,
no section logic: the analyser is what differs). Printed per analyser: the share of questions whose
first chunk lies in the right section, indexing throughput, query latency, and distinct terms.
"""
from __future__ import annotations

import argparse
import re
import sqlite3
import statistics
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fin_qa.answer.router import Router  # noqa: E402
from fin_qa.catalog import Catalog  # noqa: E402
from fin_qa.answer.facts import FactSource  # noqa: E402
from fin_qa.bigrams import tokens as bigrams  # noqa: E402
from fin_qa.store import Store  # noqa: E402

_CJK = re.compile(r"[\u3400-\u9fff]")
_WORD = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]|[A-Za-z0-9]+(?:[.%][0-9]+)?")


def unigrams(text: str) -> list[str]:
    return [m.group(0).lower() for m in _WORD.finditer(text)]


def analysers() -> dict:
    out = {"bigram (fin-qa)": bigrams, "single character": unigrams}
    try:
        import jieba

        jieba.setLogLevel(60)
        jieba.initialize()

        def words(text: str) -> list[str]:
            return [w.lower() for w in jieba.lcut_for_search(text) if _CJK.search(w) or w.strip().isalnum()]

        out["jieba search mode"] = words
    except ImportError:
        print("jieba is not installed: pip install jieba to compare it too", file=sys.stderr)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", required=True, type=Path)
    ap.add_argument("--questions", type=Path, default=ROOT / "tests" / "data" / "section_questions.yaml")
    args = ap.parse_args(argv)
    questions = yaml.safe_load(args.questions.read_text(encoding="utf-8"))["questions"]
    catalog = Catalog.shipped()
    cfg = catalog.search
    with Store(args.store, create=False) as store:
        chunks = [(c.chunk_id, c.report_key, c.path, c.text, c.section_id) for c in store.chunk_records()]
        sids = sorted({c[4] for c in chunks if c[4] is not None})
        paths = {s.id: " > ".join(yaml.safe_load(s.path or "[]") or []) for i in range(0, len(sids), 500)
                 for s in store.section_ancestors(sids[i:i + 500])}
        engine = Router(FactSource(store), catalog)
        asked = []
        for q in questions:
            u = engine.understander.understand(q["q"])
            rep, *_ = engine.values.report(u) if u.companies else (None,)
            if rep:
                query, _ = engine.retriever.query(u.masked or u.norm)
                asked.append((query.text, rep.key, q["expect"]))
    print(f"{len(chunks)} chunks, {len(asked)} questions")
    print(f"{'analyser':20} {'first chunk in right section':>29} {'index chunks/s':>15} {'query p50 ms':>13} {'terms':>8}")
    for name, fn in analysers().items():
        db = sqlite3.connect(":memory:")
        db.execute("CREATE VIRTUAL TABLE f USING fts5(heading, body, rid UNINDEXED, sid UNINDEXED)")  # rid: report key
        t = time.perf_counter()
        db.executemany("INSERT INTO f(rowid, heading, body, rid, sid) VALUES(?,?,?,?,?)",
                       [(cid, " ".join(fn(" ".join(path))), " ".join(fn(text)), key, sid)
                        for cid, key, path, text, sid in chunks])
        db.execute("INSERT INTO f(f) VALUES('optimize')")
        rate = len(chunks) / (time.perf_counter() - t)
        db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(f, 'row')")
        terms = db.execute("SELECT COUNT(*) FROM v").fetchone()[0]
        hits, lat = 0, []
        for text, key, expect in asked:
            toks = list(dict.fromkeys(fn(text)))
            if not toks:
                continue
            expr = " OR ".join('"' + t.replace('"', '') + '"' for t in toks)
            t = time.perf_counter()
            row = db.execute("SELECT sid FROM f WHERE f MATCH ? AND rid = ? ORDER BY bm25(f, ?, 1.0) LIMIT 1",
                             (expr, key, cfg.heading_weight)).fetchone()
            lat.append((time.perf_counter() - t) * 1000)
            hits += bool(row and re.search(expect, paths.get(row[0], "")))
        print(f"{name:20} {hits:>19d}/{len(asked)} ({hits / len(asked):5.1%}) {rate:15.0f} "
              f"{statistics.median(lat):13.2f} {terms:8d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
