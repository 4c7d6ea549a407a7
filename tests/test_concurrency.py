"""Concurrent use (issue 14): answering while an ingest writes the same store, an import killed in the
middle, two batches on one output (tests/test_batch_hardening.py). Real processes, real SQLite files."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

from fin_qa.sample import build_sample_pdf

from conftest import CATALOG


def cli(*args) -> list[str]:
    return [sys.executable, "-m", "fin_qa.cli", *args]


def test_answering_while_an_ingest_writes_the_store(tmp_path):
    from fin_qa.ingest.pipeline import ingest
    from fin_qa.store import Store

    first = build_sample_pdf(tmp_path / "星河精密2021年度报告.pdf")
    store = tmp_path / "store"
    with Store(store) as s:
        assert ingest([first], s, CATALOG).count("ingested") == 1
    more = tmp_path / "more"
    more.mkdir()
    for i in range(6):   # the same report under other codes: each ingest writes a whole report
        build_sample_pdf(more / f"2022-03-01__星河精密制造股份有限公司__6889{i:02d}__星河{i}号__2021年__年度报告.pdf")
    qs = tmp_path / "q.jsonl"
    questions = ["星河精密2021年营业收入是多少元？", "请简要介绍星河精密2021年主要销售客户的客户集中度情况。",
                 "星河精密2021年法定代表人是谁？"] * 100
    qs.write_text("".join(json.dumps({"id": i, "question": q}, ensure_ascii=False) + "\n" for i, q in enumerate(questions)),
                  encoding="utf-8")
    writer = subprocess.Popen(cli("ingest", str(more), "--store", str(store), "-q", "--force"), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    out = tmp_path / "a.jsonl"
    reader = subprocess.run(cli("batch", str(qs), "-o", str(out), "--store", str(store), "-q"), capture_output=True,
                            text=True, timeout=300)
    w_out, w_err = writer.communicate(timeout=300)
    assert writer.returncode == 0 and "6 ingested" in w_out, w_out + w_err
    assert reader.returncode == 0 and "Traceback" not in reader.stderr, reader.stderr
    recs = [json.loads(l) for l in out.read_text(encoding="utf-8").splitlines()]
    assert len(recs) == len(questions) and not [r for r in recs if r["method"] in ("error", "bad_input")]
    # the first report's value, whatever the writer was doing meanwhile
    assert all("300,000,000.00元" in r["answer"] for r in recs[0::3])


def test_an_import_killed_in_the_middle_leaves_the_store_as_it_was(tmp_path):
    n = 60_000
    csv = tmp_path / "big.csv"
    with open(csv, "w", encoding="utf-8") as fh:
        fh.write("股票代码,公司名称,年份,营业收入,净利润,货币资金\n")
        for i in range(n):
            fh.write(f"{i % 900000:06d},公司{i}股份有限公司,{2000 + i % 20},{i * 10},{i},{i * 3}\n")
    store = tmp_path / "store"
    small = tmp_path / "small.csv"
    small.write_text("股票代码,公司名称,年份,营业收入\n000001,甲乙科技股份有限公司,2021,100\n", encoding="utf-8")
    assert subprocess.run(cli("import-tables", str(small), "--store", str(store)), capture_output=True).returncode == 0

    def counts() -> tuple[int, int]:
        r = subprocess.run(cli("facts", "--store", str(store), "--json"), capture_output=True, text=True)
        rows = [json.loads(l) for l in r.stdout.splitlines()]
        return len(rows), sum(1 for x in rows if x["source"] == "import:big.csv")

    before = counts()
    wal = next(store.glob("*.sqlite-wal"), None) or store / "fin_qa.sqlite-wal"
    size0 = wal.stat().st_size if wal.exists() else 0
    p = subprocess.Popen(cli("import-tables", str(csv), "--store", str(store)), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    # killed while its transaction is being written: the write-ahead log growing by a megabyte
    t0 = time.monotonic()
    while p.poll() is None and time.monotonic() - t0 < 120:
        if wal.exists() and wal.stat().st_size > size0 + 1_000_000:
            break
        time.sleep(0.005)
    p.send_signal(signal.SIGKILL)
    p.wait(timeout=60)
    assert p.returncode == -signal.SIGKILL, "the import ended before it could be killed mid-transaction"
    total, big = counts()
    assert big in (0, 3 * n) and (total, big) in (before, (before[0] + 3 * n, 3 * n)), (before, total, big)
    # run again: the whole file, once
    r = subprocess.run(cli("import-tables", str(csv), "--store", str(store)), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert counts() == (before[0] + 3 * n, 3 * n)
