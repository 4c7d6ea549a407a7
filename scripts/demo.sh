#!/usr/bin/env bash
# The main job on the bundled sample: build the sample report, ingest it into a fresh store, answer
# the sample questions with `fin-qa batch` (embedded defaults, no chat model) and print the answers.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then "$PY" -m venv .venv; fi
.venv/bin/python -m pip install -q -e ".[dev]"
OUT=${FIN_QA_DEMO_DIR:-out/demo}
rm -rf "$OUT/store"
.venv/bin/python - "$OUT" <<'PY'
import sys
from pathlib import Path
from fin_qa.sample import build_sample_pdf, write_questions
out = Path(sys.argv[1])
print("sample report:", build_sample_pdf(out / "reports" / "星河精密2021年年度报告.pdf"))
print("sample questions:", write_questions(out / "questions.jsonl"))
PY
.venv/bin/fin-qa ingest "$OUT/reports" --store "$OUT/store"
.venv/bin/fin-qa reports --store "$OUT/store"
rm -f "$OUT/answers.jsonl"
.venv/bin/fin-qa batch "$OUT/questions.jsonl" -o "$OUT/answers.jsonl" --store "$OUT/store"
echo "--- answers ($OUT/answers.jsonl):"
.venv/bin/python - "$OUT/answers.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    a = json.loads(line)
    print(f"[{a['id']}] {a['question']}\n    {a['answer']}")
    for e in a.get("evidence", []):
        if "heading" in e:  # a quoted passage of the report's text
            print(f"      依据: p.{e.get('page') or '-'} {e['heading']}")
            continue
        print(f"      依据: {e.get('year', '')}年 {e.get('label') or e['item']} = {e['value']} (p.{e.get('page') or '-'}, {e['source']})")
PY
