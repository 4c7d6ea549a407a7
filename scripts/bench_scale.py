#!/usr/bin/env python3
"""How fin-qa's costs grow with the store: 10, 100 and 1,000 reports, ingested for real.

Every shared PDF (../shared/data/reports, reports_more, banks) is copied again and again, each copy a file of
its own (its bytes differ by a trailing PDF comment, so no copy is taken for another) under its own stock
code and company name, given by a --manifest as a user would (`fin-qa ingest --manifest`). The store
grows in steps: the copies up to the first size, then up to the next. At each size it prints:

- ingest: seconds per report of the step (the whole `fin-qa ingest` command, --workers 2), pages/s;
- store: its size on disk per report;
- serve: the resident memory of `fin-qa serve --llm none` (its processes added up) after it has answered
  questions of each kind;
- questions: p50 and p95 of one question (in one process, --llm none), for a structured question
  (营业收入, read from the statements), a table question (计入当期损益的政府补助, read from the
  非经常性损益 table's cells) and a text question (核心竞争力, searched with FTS5), for --sample reports
  drawn at random. "first" is a report's first question in the process (its facts, and the tables and
  text its words rank, read); "again" the same questions asked 3 more times, each question's median (a
  store ingested by this fin-qa ranks tables and text from the words indexed at ingest:
  store/chunk_index.py, table_index.py);
- check: the seconds of `fin-qa check` over the whole store.

With --es, at the largest size the text question is also answered through Elasticsearch: the node is
started with scripts/start-elasticsearch.sh, the chunks indexed with `fin-qa index --search
elasticsearch`, and the node stopped afterwards.

    python scripts/bench_scale.py [--sizes 10 100 1000] [--workdir DIR] [--sample 60] [--es] [--keep]
    python scripts/bench_scale.py --retime STORE10 STORE100 STORE1000   (the question timings only)

Without --workdir the copies and the store go to a temporary folder, removed at the end (unless --keep).
"""
from __future__ import annotations

import argparse
import csv
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared" / "data"
# names made of characters no question word uses: 星 + three of the heavenly stems and earthly branches
_CHARS = "甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉戌亥"
QUESTIONS = {
    "structured": "{c}{y}年的营业收入是多少元？",
    "table": "{c}{y}年计入当期损益的政府补助是多少元？",
    "text": "{c}{y}年的核心竞争力是什么？",
}


def name(i: int) -> str:
    n = len(_CHARS)
    return "星" + _CHARS[i // (n * n) % n] + _CHARS[i // n % n] + _CHARS[i % n]


def sources() -> list[Path]:
    out: list[Path] = []
    for folder in ("reports", "reports_more", "banks"):
        out += sorted((SHARED / folder).glob("*.pdf"))
    return out


def make_copies(first: int, last: int, srcs: list[Path], folder: Path) -> None:
    """Copies first..last-1 of the shared PDFs into `folder`, with their manifest."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "manifest.csv", "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["file", "code", "company"])
        for i in range(first, last):
            src = srcs[i % len(srcs)]
            dst = folder / f"copy{i:05d}.pdf"
            with open(src, "rb") as a, open(dst, "wb") as b:
                shutil.copyfileobj(a, b)
                b.write(f"\n% fin-qa bench_scale copy {i}\n".encode())
            w.writerow([dst.name, f"{689000 + i:06d}", name(i)])


def fin_qa(*args: str, check: bool = True) -> tuple[float, subprocess.CompletedProcess]:
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "fin_qa.cli", *args], capture_output=True, text=True)
    took = time.perf_counter() - t
    if check and proc.returncode != 0:
        raise SystemExit(f"fin-qa {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return took, proc


def folder_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def percentiles(xs: list[float]) -> str:
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
    return f"p50 {1000 * statistics.median(xs):7.2f} ms  p95 {1000 * p95:7.2f} ms"


AGAIN = 3   # the rounds after the first: a question's "again" time is its median over them


def question_times(store_dir: Path, reports: list[dict], search: str = "sqlite") -> dict[str, tuple[list, list]]:
    """kind → (first-question times, again times) over the sampled reports, in one fresh engine."""
    from fin_qa import gc_tuning
    from fin_qa.answer.facts import FactSource
    from fin_qa.answer.router import Router
    from fin_qa.catalog import Catalog
    from fin_qa.store import Store

    from fin_qa.search.retrieve import Retriever, make_backend

    store = Store(store_dir, readonly=True)
    catalog = Catalog.shipped()
    retriever = None
    if search != "sqlite":
        retriever = Retriever(store, make_backend(search, store, catalog), catalog.topics, catalog.search)
    engine = Router(FactSource(store), catalog, retriever=retriever)
    engine.answer("星甲甲甲2000年的营业收入是多少元？")   # the engine built (its first question pays for that)
    gc_tuning.for_answering()   # as fin-qa batch and serve set it
    kinds = list(QUESTIONS) if search == "sqlite" else ["text"]
    times: dict[str, list[list[float]]] = {k: [[] for _ in range(1 + AGAIN)] for k in kinds}
    for rnd in range(1 + AGAIN):
        for r in reports:
            for kind in kinds:
                q = QUESTIONS[kind].format(c=r["short_name"], y=r["year"])
                t = time.perf_counter()
                engine.answer(q)
                times[kind][rnd].append(time.perf_counter() - t)
    store.close()
    # again: each question's median of its AGAIN rounds (one slow moment of the machine is not the question's)
    return {k: (t[0], [statistics.median(x) for x in zip(*t[1:])]) for k, t in times.items()}


def serve_memory(store_dir: Path, reports: list[dict]) -> tuple[float, int]:
    """(MiB resident of `fin-qa serve --llm none` and its server processes, after one question of each kind
    per process, processes counted)."""
    from fin_qa.serve.client import ServerProcess, request

    server = ServerProcess("--store", str(store_dir), "--llm", "none")
    try:
        r = reports[0]
        for _ in range(8):   # (each process answers some of them)
            for q in QUESTIONS.values():
                request(server.base, "/api/ask", {"question": q.format(c=r["short_name"], y=r["year"])}, timeout=300)
        # the serving process and the server processes it forked (serve --processes), added up
        pids = [server.proc.pid]
        for task in Path(f"/proc/{server.proc.pid}/task").iterdir():
            pids += [int(x) for x in (task / "children").read_text().split()]
        rss = 0
        for pid in pids:
            with open(f"/proc/{pid}/status", encoding="utf-8") as fh:
                rss += next(int(line.split()[1]) for line in fh if line.startswith("VmRSS:"))
        return rss / 1024, len(pids)
    finally:
        server.stop()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000])
    ap.add_argument("--workdir", type=Path)
    ap.add_argument("--sample", type=int, default=60, help="reports drawn for the question timings")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--es", action="store_true", help="time the text question on Elasticsearch at the largest size")
    ap.add_argument("--es-only", action="store_true",
                    help="only the Elasticsearch timing, on the store a previous run left in --workdir")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--retime", type=Path, nargs="+", metavar="STORE",
                    help="only the question timings, on stores a run built (e.g. one of each size), one after the "
                         "other in the same process: figures of the same period of the machine")
    args = ap.parse_args()
    if args.retime:
        from fin_qa.store import Store

        for path in args.retime:
            with Store(path, readonly=True) as s:
                ok = [r for r in s.reports() if (r["short_name"] or "").startswith("星")]
            sample = random.Random(7).sample(ok, min(args.sample, len(ok)))
            print(f"\n== {path}: {len(ok)} reports, {len(sample)} sampled ==")
            for kind, (first, again) in question_times(path, sample).items():
                print(f"{kind:<10} first  {percentiles(first)}   again  {percentiles(again)}")
        return 0
    if args.es_only:
        if not args.workdir or not (args.workdir / "store").is_dir():
            print("--es-only needs the --workdir of a previous run (its store)", file=sys.stderr)
            return 2
        from fin_qa.store import Store

        with Store(args.workdir / "store", readonly=True) as s:
            ok = [r for r in s.reports() if (r["short_name"] or "").startswith("星")]
        es_text(args.workdir / "store", random.Random(7).sample(ok, min(args.sample, len(ok))))
        return 0
    srcs = sources()
    if not srcs:
        print(f"no shared PDFs under {SHARED}", file=sys.stderr)
        return 2
    tmp = None if args.workdir else tempfile.mkdtemp(prefix="fin-qa-scale-")
    work = args.workdir or Path(tmp or ".")
    work.mkdir(parents=True, exist_ok=True)
    store = work / "store"
    done = 0
    rng = random.Random(7)
    print(f"{len(srcs)} shared PDFs copied under their own names; store {store}")
    try:
        for size in sorted(args.sizes):
            step = work / f"copies-{done:05d}-{size:05d}"
            make_copies(done, size, srcs, step)
            took, proc = fin_qa("ingest", str(step), "--store", str(store), "--manifest", str(step / "manifest.csv"),
                                "--workers", str(args.workers))
            added, done = size - done, size
            from fin_qa.store import Store

            with Store(store, readonly=True) as s:
                reports = s.reports()
                pages = sum((f.get("pages") or 0) for r in reports for f in s.report_files(r["id"]))
            ok = [r for r in reports if (r["short_name"] or "").startswith("星")]
            print(f"\n== {len(reports)} reports ({len(ok)} copies), {pages} pages ==")
            said = [line.strip() for line in proc.stderr.splitlines() if " ingested, " in line]
            print(f"ingest   {added} reports in {took:.1f} s = {took / max(1, added):.2f} s per report"
                  + (f"  ({said[-1]})" if said else ""))
            size_bytes = folder_size(store)
            print(f"store    {size_bytes / 2**20:.0f} MiB = {size_bytes / 2**20 / max(1, len(reports)):.2f} MiB per report")
            sample = rng.sample(ok, min(args.sample, len(ok)))
            for kind, (first, again) in question_times(store, sample).items():
                print(f"{kind:<10} first  {percentiles(first)}   again  {percentiles(again)}")
            mib, n = serve_memory(store, sample)
            print(f"serve    {mib:.0f} MiB resident after load ({n} processes: the parent and its servers)")
            took, _ = fin_qa("check", "--store", str(store), check=False)
            print(f"check    {took:.1f} s for {len(reports)} reports")
            sys.stdout.flush()
        if args.es:
            es_text(store, rng.sample(ok, min(args.sample, len(ok))))
    finally:
        if tmp and not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


def es_text(store: Path, sample: list[dict]) -> None:
    """The text question through Elasticsearch: node started, chunks indexed, questions timed, node stopped."""
    os.environ.setdefault("FIN_QA_ES_HEAP", "2g")   # (a million chunks: more than the tests' 512 MiB)
    start = ROOT / "scripts" / "start-elasticsearch.sh"
    stop = ROOT / "scripts" / "stop-elasticsearch.sh"
    subprocess.run(["bash", str(start)], check=True, capture_output=True, text=True)
    try:
        took, _ = fin_qa("index", "--store", str(store), "--search", "elasticsearch", "--recreate")
        print(f"\nelasticsearch: chunks indexed in {took:.0f} s")
        times = question_times(store, sample, search="elasticsearch")
        first, again = times["text"]
        print(f"text (es)  first  {percentiles(first)}   again  {percentiles(again)}")
    finally:
        subprocess.run(["bash", str(stop)], capture_output=True, text=True)


if __name__ == "__main__":
    os.environ.setdefault("FIN_QA_PROGRESS_SECONDS", "600")
    sys.exit(main())
