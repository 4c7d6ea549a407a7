#!/usr/bin/env python3
"""Answers of a restructuring's before and after, to compare byte for byte.

Builds three stores and writes every answer line (answer, type, method, evidence) to OUT:

  gold.jsonl      FinGLM round A (2,000 questions) over the gold answers' raw values imported as a table
  tables.jsonl    FinGLM round A over the third-party tables of 11,587 reports (--scope the round's list)
  stats.jsonl     statistics questions (rank, top-N, n-th, thresholds, counts, places) over those tables
  shared.jsonl    every report of ../shared/data/reports and reports_more ingested; the round-A
                  questions re-aimed at each of those reports (company and year replaced: --per-report
                  of them), the test question files and the sample questions; --style human
  shared_facts.jsonl  every fact of that store (`fin-qa facts --json`)

    python scripts/snapshot_answers.py OUT [--per-report 200] [--skip-tables]
    diff -r BEFORE AFTER && echo identical

Run it with the code to snapshot first on the path (PYTHONPATH=CHECKOUT): it runs `fin_qa.cli` with
this interpreter, so it measures that checkout, not the installed one. ../shared is found beside the
checkout, or at $FIN_QA_SHARED.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("FIN_QA_SHARED") or ROOT.parent / "shared") / "data"


def cli(*args: str) -> str:
    """Run `fin-qa ARGS` with this interpreter and the fin_qa first on sys.path."""
    code = "import sys; from fin_qa.cli import main; sys.exit(main())"
    # a fixed hash seed: thefuzz's company fallback scores candidates from a set, and a tie between two
    # names may otherwise go either way from one run to the next
    env = dict(os.environ, PYTHONHASHSEED="0")
    r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env)
    if r.returncode not in (0, 1):
        sys.stderr.write(r.stdout + r.stderr)
        raise SystemExit(f"fin-qa {' '.join(args[:2])} failed ({r.returncode})")
    return r.stdout


def shared_questions(per_report: int) -> list[dict]:
    """Round-A questions re-aimed at the shared reports, the test question files, the sample's."""
    import yaml

    answers = [json.loads(l) for l in (SHARED / "finglm" / "A-list-answer.json").read_text(encoding="utf-8").splitlines()
               if l.strip()]
    targets = []
    for folder in ("reports", "reports_more"):
        for f in sorted((SHARED / folder).iterdir()):
            parts = f.stem.split("__")
            if len(parts) >= 5:
                targets.append((parts[3], parts[1], parts[4][:4]))
            else:
                m = re.search(r"(\D+?)-?(\d{4})年", f.stem.split("-", 1)[-1])
                if m:
                    targets.append((m.group(1), m.group(1), m.group(2)))
    out: list[dict] = []
    for short, full, year in targets:
        n = 0
        for a in answers:
            p = a.get("prompt") or {}
            q, name, y = a["question"], p.get("ent_short_name"), str(p.get("year") or "")
            if not y or not (name and name in q or p.get("ent_name") and p["ent_name"] in q):
                continue
            q = q.replace(p.get("ent_name") or "\0", full).replace(name or "\0", short)
            q = q.replace(f"{y}年", f"{year}年")
            out.append({"id": f"{short}-{a['id']}", "question": q})
            n += 1
            if n >= per_report:
                break
    for f in sorted((ROOT / "tests" / "data").glob("*questions*.yaml")):
        for i, e in enumerate(yaml.safe_load(f.read_text(encoding="utf-8"))["questions"]):
            out.append({"id": f"{f.stem}-{i}", "question": e["q"]})
    from fin_qa.sample import write_questions

    with tempfile.TemporaryDirectory() as d:
        path = write_questions(Path(d) / "q.jsonl")
        for l in Path(path).read_text(encoding="utf-8").splitlines():
            e = json.loads(l)
            out.append({"id": f"sample-{e['id']}", "question": e["question"]})
    return out


def statistics_questions() -> list[dict]:
    """Rank/count questions over every combination of a few items, years and question forms."""
    items = ["营业收入", "净利润", "负债合计", "研发费用", "流动比率", "资产负债率", "货币资金", "职工总人数"]
    forms = ["{y}年{i}最高的前5家公司是哪些？", "{y}年{i}最低的3家公司是？", "{y}年{i}第3高的公司是哪家？",
             "{y}年{i}大于五亿元的公司有多少家？", "{y}年{i}超过10%的有几家？", "{y}年{i}500万元以上的公司数量是多少？",
             "注册地址在上海的公司中，{y}年{i}最高的是哪家？", "{y}年总部位于深圳的公司{i}排名前三的是？",
             "{y}年位于北京的公司{i}最多的是哪家？", "{y}年{i}不低于1000人的公司有多少家？"]
    out = []
    for y in (2019, 2020, 2021):
        for i in items:
            for n, f in enumerate(forms):
                out.append({"id": f"stat-{y}-{i}-{n}", "question": f.format(y=y, i=i)})
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--per-report", type=int, default=200)
    ap.add_argument("--skip-tables", action="store_true")
    args = ap.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="fin-qa-snapshot-"))
    qa = SHARED / "finglm" / "A-list-question.json"
    t0 = time.perf_counter()

    gold_csv = work / "gold.csv"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "finglm_gold_facts.py"), str(SHARED / "finglm" / "A-list-answer.json"),
                    "-o", str(gold_csv), "--reports-list", str(SHARED / "finglm" / "reports_list.csv")], check=True,
                   capture_output=True)
    cli("import-tables", str(gold_csv), "--store", str(work / "gold"))
    cli("batch", str(qa), "-o", str(out / "gold.jsonl"), "--store", str(work / "gold"), "--style", "finglm")
    print(f"gold: {time.perf_counter() - t0:.0f} s", flush=True)

    if not args.skip_tables:
        cli("import-tables", *map(str, sorted((SHARED / "finglm_tables").glob("*.xlsx"))), "--store", str(work / "tables"))
        cli("batch", str(qa), "-o", str(out / "tables.jsonl"), "--store", str(work / "tables"), "--style", "finglm",
            "--scope", str(SHARED / "finglm" / "A-list-txt-name.txt"))
        sq = work / "stats_q.jsonl"
        sq.write_text("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in statistics_questions()), encoding="utf-8")
        cli("batch", str(sq), "-o", str(out / "stats.jsonl"), "--store", str(work / "tables"), "--style", "finglm")
        print(f"tables: {time.perf_counter() - t0:.0f} s", flush=True)

    cli("ingest", str(SHARED / "reports"), str(SHARED / "reports_more"), "--store", str(work / "shared"))
    qs = work / "shared_q.jsonl"
    qs.write_text("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in shared_questions(args.per_report)),
                  encoding="utf-8")
    cli("batch", str(qs), "-o", str(out / "shared.jsonl"), "--store", str(work / "shared"))
    facts = [json.loads(l) for l in cli("facts", "--store", str(work / "shared"), "--json").splitlines() if l.strip()]
    (out / "shared_facts.jsonl").write_text("".join(json.dumps(f, ensure_ascii=False, sort_keys=True) + "\n"
                                                    for f in facts), encoding="utf-8")
    print(f"shared: {time.perf_counter() - t0:.0f} s; answers in {out}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
