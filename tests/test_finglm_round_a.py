"""Round A of FinGLM, understanding alone: the gold answers' raw values imported as a table, the 2,000
questions answered with --style finglm and scored with the contest's rule."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import FINGLM, ROOT

needs_round_a = pytest.mark.skipif(not (FINGLM / "A-list-answer.json").is_file(),
                                   reason="../shared/data/finglm (FinGLM round A) is absent")


@needs_round_a
def test_round_a_understanding(tmp_path):
    def cli(*args):
        r = subprocess.run([sys.executable, "-m", "fin_qa.cli", *args], capture_output=True, text=True)
        assert r.returncode == 0, r.stdout + r.stderr
        return r.stdout

    csv = tmp_path / "gold_facts.csv"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "finglm_gold_facts.py"), str(FINGLM / "A-list-answer.json"),
                    "-o", str(csv), "--reports-list", str(FINGLM / "reports_list.csv")], check=True)
    store = tmp_path / "store"
    cli("import-tables", str(csv), "--store", str(store))
    out = tmp_path / "answers.jsonl"
    cli("batch", str(FINGLM / "A-list-question.json"), "-o", str(out), "--store", str(store), "--style", "finglm", "-q")
    rep = json.loads(cli("eval", str(out), str(FINGLM / "A-list-answer.json"), "--json"))
    types = rep["types"]
    n = sum(types[t]["n"] for t in ("1", "1-2", "2-1", "2-2"))
    hits = sum(types[t]["n"] * types[t]["hit"] / 100 for t in ("1", "1-2", "2-1", "2-2"))
    assert hits / n >= 0.99, types
    for t in ("1", "1-2", "2-1"):
        assert types[t]["hit"] >= 99.0, (t, types[t])
