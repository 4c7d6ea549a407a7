#!/usr/bin/env bash
# The main job on the bundled sample: build the sample report, ingest it into a fresh store, show
# what was read. (Answering the sample questions with `fin-qa batch` comes with the answering issue.)
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
echo "--- facts the sample questions ask about:"
.venv/bin/fin-qa facts --store "$OUT/store" --company 星河精密 | grep -E "	(营业收入|法定代表人|货币资金|研发人员数量|财务费用)	"
