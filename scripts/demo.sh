#!/usr/bin/env bash
# The main job on the bundled sample: build the sample report (the 2021 annual report) and the company's
# 2022 filings (first-quarter report, half-year summary, third-quarter report, under names that say nothing) and
# a research note on it with its info sheet,
# ingest them into a fresh store, answer the sample questions with `fin-qa batch` (embedded defaults, no chat
# model) — a compound question, a table row, a series and the periods of the year (第三季度, 前三季度同比, a
# quarter derived, a question back) among them — ask a follow-up of the series, print every answer with its
# evidence, and say how to open the page on the store.
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
from fin_qa.sample import NOTE_TITLE, build_filing_pdf, build_note_pdf, build_sample_pdf, write_note_info, write_questions
out = Path(sys.argv[1])
print("sample report:", build_sample_pdf(out / "reports" / "星河精密2021年年度报告.pdf"))
for period, name in (("Q1", "688999_20220428_A1.pdf"), ("HY", "688999_20220826_B2.pdf"), ("Q3", "688999_20221028_C3.pdf")):
    print("sample filing:", build_filing_pdf(out / "reports" / name, period))
print("sample research note:", build_note_pdf(out / "notes" / "个股研报" / f"{NOTE_TITLE}.pdf"),
      write_note_info(out / "notes" / "个股_研报信息.xlsx"))
print("sample questions:", write_questions(out / "questions.jsonl", filings=True, notes=True))
PY
.venv/bin/fin-qa ingest "$OUT/reports" "$OUT/notes" --store "$OUT/store"
.venv/bin/fin-qa reports --store "$OUT/store"
rm -f "$OUT/answers.jsonl"
.venv/bin/fin-qa batch "$OUT/questions.jsonl" -o "$OUT/answers.jsonl" --store "$OUT/store"
# a follow-up of the series question: the company and the years taken from its answer (its record)
.venv/bin/python - "$OUT/answers.jsonl" "$OUT/series.json" <<'PY'
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    a = json.loads(line)
    if a.get("series"):
        json.dump(a, open(sys.argv[2], "w", encoding="utf-8"), ensure_ascii=False)
        break
PY
.venv/bin/fin-qa ask "那归母净利润呢？" --context "$OUT/series.json" --store "$OUT/store" --json > "$OUT/followup.json"
echo "--- answers ($OUT/answers.jsonl, then the follow-up $OUT/followup.json):"
.venv/bin/python - "$OUT/answers.jsonl" "$OUT/followup.json" <<'PY'
import json, sys

def where(e):
    return f"p.{e['page']}" if e.get("page") else "no page"

def line(e):
    if "heading" in e:   # a quoted passage of the report's text
        return f"{where(e)} {e['heading']}：{e['text'][:60]}"
    if "table" in e:     # a table's cell
        return f"{where(e)} {e['table'].split(' > ')[-1]}「{e['row']} / {e['column']}」= {e['value']}"
    if "formula" in e:
        return f"{e['formula']} = {e['expr']} ({e['source']})"
    return f"{e.get('year', '')}年{e.get('within', '')} {e.get('label') or e['item']} = {e['value']} ({where(e)}, {e['source']})"

records = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")] + [json.load(open(sys.argv[2], encoding="utf-8"))]
for a in records:
    print(f"[{a['id'] if a['id'] is not None else 'follow-up'}] {a['question']}\n    {a['answer']}")
    if a.get("partial"):
        print(f"    （未答：{'；'.join(a['partial'])}）")
    lines = list(dict.fromkeys(line(e) for e in a.get("evidence", [])))   # each piece of evidence once
    for text in lines[:4]:
        print(f"      依据: {text}")
    if len(lines) > 4:
        print(f"      （另有{len(lines) - 4}条依据：{sys.argv[1]}）")
PY
echo "--- the page: ask on it, see each cited page boxed and a series charted"
echo "    .venv/bin/fin-qa serve --store $OUT/store      # then open http://127.0.0.1:8000/"
