"""Benchmark `fin-qa serve`: questions per second and p50/p95 latency with 1, 4 and 16 concurrent clients
against one server, for structured questions (values and formulas read from the statements), text
questions (sections searched and quoted) and page images (a cited page rendered with its value boxed).

    python scripts/bench_serve.py [--store DIR] [--clients 1 4 16] [--seconds 10] [--processes N] [--workers N] [--llm none]

Without --store it builds the bundled sample report into a temporary store. The questions are made
from the store's reports (every report: a few items and formulas; a few text topics), so any store
works. A request that is not answered with 200 is an error, counted and printed; the run exits 1 when
there is one. Prints one table (markdown).
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from itertools import count, cycle
from pathlib import Path

from fin_qa.serve.client import ServerProcess, request

STRUCTURED = ["{y}年{c}的营业收入是多少元?", "{c}{y}年的货币资金是多少元?", "{y}年{c}的净利润是多少元?",
              "{c}{y}年的资产负债率是多少?保留2位小数。", "{c}{y}年的流动比率是多少?",
              "{y}年{c}营业收入增长率是多少?保留2位小数。"]
TEXT = ["请简要介绍{c}{y}年的核心竞争力。", "{c}{y}年是否有重大诉讼、仲裁事项?", "{c}{y}年的主要业务是什么?",
        "请简要概述{c}{y}年的经营情况。"]


def sample_store(folder: Path) -> Path:
    from fin_qa.sample import build_sample_pdf

    pdf = build_sample_pdf(folder / "reports" / "星河精密2021年年度报告.pdf")
    subprocess.run([sys.executable, "-m", "fin_qa.cli", "ingest", str(pdf.parent), "--store", str(folder / "store"), "-q"],
                   check=True)
    return folder / "store"


def run(base: str, calls: list[tuple[str, dict | None]], clients: int, seconds: float) -> dict:
    """`clients` threads each making the calls in turn (from its own place in the list) for `seconds`; a
    "{n}" in a path is replaced by a number new at each call."""
    latencies: list[float] = []
    errors: list[str] = []
    stop = time.perf_counter() + seconds
    made = count()

    def client(k: int) -> None:
        for path, body in cycle(calls[k % len(calls):] + calls[:k % len(calls)]):
            if time.perf_counter() >= stop:
                return
            if "{n}" in path:   # a call made new each time (an image no cache holds)
                path = path.replace("{n}", str(next(made)))
            t = time.perf_counter()
            reply = request(base, path, body, timeout=300)
            latencies.append(time.perf_counter() - t)
            if reply.status != 200:
                errors.append(f"{reply.status} {path} {reply.body[:200]!r}")

    t0 = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(client, range(clients)))
    wall = time.perf_counter() - t0
    if not latencies:
        return {"n": 0, "qps": 0.0, "p50": float("nan"), "p95": float("nan"), "errors": errors}
    latencies.sort()
    q = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else latencies * 99
    return {"n": len(latencies), "qps": len(latencies) / wall, "p50": q[49] * 1000, "p95": q[94] * 1000,
            "errors": errors}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", type=Path, help="Store folder (default: the sample report, built now).")
    ap.add_argument("--clients", type=int, nargs="+", default=[1, 4, 16])
    ap.add_argument("--seconds", type=float, default=10.0, help="Seconds each (kind, clients) cell runs.")
    ap.add_argument("--workers", type=int, help="fin-qa serve --workers (default: serve's)")
    ap.add_argument("--processes", type=int, help="fin-qa serve --processes (default: serve's)")
    ap.add_argument("--llm", default="none", help="fin-qa serve --llm")
    ap.add_argument("--only", nargs="+", choices=["structured", "text", "images"],
                    help="Only these kinds of request (default: all).")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        store = args.store or sample_store(Path(tmp))
        t = time.perf_counter()
        opts = [x for flag, v in (("--workers", args.workers), ("--processes", args.processes)) if v
                for x in (flag, str(v))]
        server = ServerProcess("--store", str(store), *opts, "--llm", args.llm)
        started = time.perf_counter() - t
        try:
            reports = request(server.base, "/api/reports").json()["reports"]
            names = [(r["short_name"] or r["full_name"], r["year"]) for r in reports]
            kinds = {
                "structured": [("/api/ask", {"question": s.format(c=c, y=y)}) for c, y in names for s in STRUCTURED],
                "text": [("/api/ask", {"question": s.format(c=c, y=y)}) for c, y in names for s in TEXT],
            }
            # the cited pages of the structured answers: rendered and boxed each time (a word no page holds
            # added to the highlight makes every call new to the server's cache), and as the cache keeps them
            images: list[tuple[str, dict | None]] = []
            for _, body in kinds["structured"] if not args.only or "images" in args.only else []:
                for ev in request(server.base, "/api/ask", body).json().get("evidence", []):
                    if ev.get("image"):
                        images.append((ev["image"], None))
            images = list(dict.fromkeys(images))
            if images:
                kinds["page image, rendered"] = [(path + "&highlight=bench{n}", None) for path, _ in images]
                kinds["page image, cached"] = images
            kinds = {kind: calls for kind, calls in kinds.items()
                     if calls and (not args.only or kind.split(",")[0].replace("page image", "images") in args.only)}
            for _, calls in kinds.items():       # warm: every worker's routers built, caches filled
                run(server.base, calls, max(args.clients), 1.0)
            print(f"fin-qa serve on {len(reports)} report(s) ({store}); {args.processes or 'default'} process(es) x {args.workers or 'default'} workers, llm {args.llm}; "
                  f"started in {started:.1f} s; {args.seconds:.0f} s per cell")
            print()
            print("| questions | clients | requests | q/s | p50 ms | p95 ms | errors |")
            print("|---|---|---|---|---|---|---|")
            failed = 0
            for kind, calls in kinds.items():
                for clients in args.clients:
                    r = run(server.base, calls, clients, args.seconds)
                    failed += len(r["errors"])
                    print(f"| {kind} | {clients} | {r['n']} | {r['qps']:.1f} | {r['p50']:.1f} | {r['p95']:.1f} | "
                          f"{len(r['errors'])} |", flush=True)
                    for e in r["errors"][:3]:
                        print(f"    error: {e}", file=sys.stderr)
        finally:
            server.stop()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
