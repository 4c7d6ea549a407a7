"""fin-qa ask / batch / eval / rules check through the real command line."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from fin_qa.ingest.tables_import import import_table
from fin_qa.store import Store

from test_answer import TABLE
from conftest import CATALOG


def run(*args, env=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "fin_qa.cli", *args], capture_output=True, text=True, env=env,
                          cwd=cwd)


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli")
    (d / "facts.csv").write_text(TABLE, encoding="utf-8")
    with Store(d / "store") as s:
        import_table(d / "facts.csv", s, CATALOG)
    return d / "store"


def test_ask_text_json_and_exit_codes(store_dir):
    r = run("ask", "2021年甲乙科技的营业收入是多少元?", "--store", str(store_dir))
    assert r.returncode == 0 and "1,250,000,000.00元" in r.stdout and "依据" in r.stdout
    r = run("ask", "2021年甲乙科技的营业收入是多少元?", "--store", str(store_dir), "--json", "--style", "finglm")
    rec = json.loads(r.stdout)
    assert rec["method"] == "lookup" and rec["evidence"][0]["item"] == "营业收入" and "1250000000.0元" in rec["answer"]
    r = run("ask", "2021年光云科技的营业收入是多少元?", "--store", str(store_dir))
    assert r.returncode == 1 and "未查询到" in r.stdout
    r = run("ask", "x", "--store", str(store_dir / "nope"))
    assert r.returncode == 2 and r.stderr.startswith("fin-qa: ") and "Traceback" not in r.stderr
    r = run("ask", "x", "--store", str(store_dir), "--scope", str(store_dir / "missing.txt"))
    assert r.returncode == 2 and "scope" in r.stderr


def test_batch_bad_lines_order_and_resume(store_dir, tmp_path):
    qs = tmp_path / "q.jsonl"
    lines = [
        json.dumps({"id": 1, "question": "2021年甲乙科技的营业收入是多少元?"}, ensure_ascii=False),
        "{not json",
        json.dumps({"question": "没有id的问题"}, ensure_ascii=False),
        json.dumps({"id": 4, "question": ""}, ensure_ascii=False),
        json.dumps({"id": 5, "question": "What is the revenue?"}, ensure_ascii=False),
        json.dumps({"id": 6, "question": "2021年不存在公司的营业收入是多少元?"}, ensure_ascii=False),
        json.dumps({"id": 7, "question": "甲乙科技2021年法定代表人对比2020年是否相同?"}, ensure_ascii=False),
    ]
    qs.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "a.jsonl"
    # a previous run stopped after the first answer, in the middle of writing the second line
    first = {"id": 1, "question": "2021年甲乙科技的营业收入是多少元?", "answer": "上次的答案"}
    out.write_text(json.dumps(first, ensure_ascii=False) + "\n{\"id\": 2, \"quest", encoding="utf-8")
    r = run("batch", str(qs), "-o", str(out), "--store", str(store_dir), "-q")
    assert r.returncode == 0, r.stderr
    assert "1 already in" in r.stdout and "3 answered" in r.stdout and "3 bad input lines" in r.stdout
    recs = [json.loads(l) for l in out.read_text(encoding="utf-8").splitlines()]
    assert len(recs) == 7
    assert recs[0]["answer"] == "上次的答案"  # not redone
    # every bad line said one way, with its number; no internal field in the output
    assert "第2行：不是合法的JSON" in recs[1]["answer"] and recs[1]["line"] == 2
    assert "第3行：缺少id" in recs[2]["answer"]
    assert "第4行：question为空" in recs[3]["answer"] and recs[3]["id"] == 4
    assert not any("_key" in r for r in recs)
    assert "中文" in recs[4]["answer"]
    assert "未查询到" in recs[5]["answer"]
    assert recs[6]["answer"].startswith("不相同") and recs[6]["type"] == "2-2"
    # a second run redoes nothing
    r = run("batch", str(qs), "-o", str(out), "--store", str(store_dir), "-q")
    assert "0 answered" in r.stdout and "7 already in" in r.stdout
    assert len(out.read_text(encoding="utf-8").splitlines()) == 7


def test_batch_workers_answer_the_same_lines_in_order_and_resume(store_dir, tmp_path):
    """--workers 3: forked processes answer the questions; the file holds the answers of one process, line
    for line (bad lines and a question asked twice included); a run stopped part way is resumed by a run
    with another number of processes; a chat model with several processes is refused before any work."""
    asks = ["2021年甲乙科技的营业收入是多少元?", "2020年甲乙科技的净利润是多少元?", "2021年丙丁电子的营业收入是多少元?",
            "甲乙科技2021年的资产负债率是多少?", "2021年营业收入最高的公司是哪家?", "2021年不存在公司的营业收入是多少元?",
            "请简要介绍甲乙科技2021年的核心竞争力。", "What is the revenue?"]
    lines = []
    for i in range(520):
        if i % 97 == 5:
            lines.append("{not json")
        else:
            lines.append(json.dumps({"id": i, "question": asks[i % len(asks)]}, ensure_ascii=False))
    lines.append(lines[0])   # the same question twice: each line answered once
    qs = tmp_path / "q.jsonl"
    qs.write_text("\n".join(lines) + "\n", encoding="utf-8")
    one, three = tmp_path / "one.jsonl", tmp_path / "three.jsonl"
    r = run("batch", str(qs), "-o", str(one), "--store", str(store_dir), "-q", "--workers", "1")
    assert r.returncode == 0, r.stderr
    r = run("batch", str(qs), "-o", str(three), "--store", str(store_dir), "-q", "--workers", "3")
    assert r.returncode == 0, r.stderr
    assert "515 answered" in r.stdout and "6 bad input lines" in r.stdout and "3 processes" in r.stdout
    want = one.read_text(encoding="utf-8")
    assert three.read_text(encoding="utf-8") == want and len(want.splitlines()) == len(lines)
    # stopped after 150 lines: resumed with 2 processes, the rest answered, the first lines kept
    part = tmp_path / "part.jsonl"
    part.write_text("".join(want.splitlines(keepends=True)[:150]), encoding="utf-8")
    shutil.copy(str(one) + ".run.json", str(part) + ".run.json")
    r = run("batch", str(qs), "-o", str(part), "--store", str(store_dir), "-q", "--workers", "2")
    assert r.returncode == 0, r.stderr
    assert "150 already in" in r.stdout and "2 processes" in r.stdout and part.read_text(encoding="utf-8") == want
    # a small file is answered by one process whatever --workers says (starting processes would cost more)
    small = tmp_path / "small.jsonl"
    small.write_text("\n".join(lines[:150]) + "\n", encoding="utf-8")
    r = run("batch", str(small), "-o", str(tmp_path / "s.jsonl"), "--store", str(store_dir), "-q", "--workers", "4")
    assert r.returncode == 0 and "processes" not in r.stdout, r.stdout
    r = run("batch", str(qs), "-o", str(tmp_path / "m.jsonl"), "--store", str(store_dir), "-q", "--workers", "2",
            "--llm", str(tmp_path / "no-model"))
    assert r.returncode == 2 and "--workers needs --llm none" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "m.jsonl").exists()


class _Router:
    """A stand-in router for the pool's own mechanics (what a process does on an answer, an error, a
    crash): the answers themselves are the real router's, tested above."""

    def answer(self, question):
        import os

        from fin_qa import FinQAError

        if question == "crash":
            os._exit(3)   # a process killed mid-run
        if question == "stop":
            from fin_qa.catalog.yamlfile import RuleError

            raise RuleError("rules/x.yaml", 3, "the search node is unreachable")   # (a subclass of other arguments)
        return type("A", (), {"record": lambda self, qid: {"id": qid, "answer": question}, "found": True, "answered": True})()


def _pool_answers(tmp_path, questions, make):
    from fin_qa.answer.batch import AnsweringPool

    out = tmp_path / "o.jsonl"
    with open(out, "wb") as fh:
        pool = AnsweringPool(2, make, [fh.fileno()])
        got = []
        try:
            for line, _ in pool.answers([(i, q) for i, q in enumerate(questions)]):
                got.append(line)
        finally:
            pool.close()
    return got


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="batch --workers forks")
def test_answering_pool_keeps_order_and_says_what_stopped_it(tmp_path):
    from fin_qa import FinQAError

    qs = [f"q{i}" for i in range(100)]
    assert [r["answer"] for r in _pool_answers(tmp_path, qs, _Router)] == qs
    # an error that stops the run: the answers made before it come first, then the error
    got: list = []
    with pytest.raises(FinQAError, match="rules/x.yaml:3: the search node is unreachable"):
        from fin_qa.answer.batch import AnsweringPool

        with open(tmp_path / "o2.jsonl", "wb") as fh:
            pool = AnsweringPool(2, _Router, [fh.fileno()])
            try:
                for line, _ in pool.answers([(i, q) for i, q in enumerate(qs[:20] + ["stop"] + qs[20:40])]):
                    got.append(line["answer"])
            finally:
                pool.close()
    assert got == qs[:20]
    # a process that dies: one message, not a hang
    with pytest.raises(FinQAError, match="ended before its questions were answered"):
        _pool_answers(tmp_path, qs[:30] + ["crash"] + qs[30:60], _Router)

    # a process that cannot start: its own error, said by its first chunk
    def broken():
        raise FinQAError("store /nowhere: no such store")

    with pytest.raises(FinQAError, match="no such store"):
        _pool_answers(tmp_path, qs, broken)


def test_eval_scores_and_explains(tmp_path):
    gold = [
        {"id": 1, "question": "q", "type": "1", "prompt": {"year": "2021", "key_word": "营业收入",
                                                           "营业收入": "10.0元", "prom_answer": "10.0元"},
         "answer": ["甲乙科技2021年的营业收入是10.0元。"]},
        {"id": 2, "question": "q", "type": "1-2", "prompt": {"year": "2021", "key_word": "营业收入、营业成本",
                                                             "营业收入": "10.0元", "营业成本": "5.0元"},
         "answer": ["营业收入是10.0元，营业成本是5.0元"]},
        {"id": 3, "question": "q", "type": "1", "prompt": {"year": "2019", "key_word": "无|不|没有|未|否|非|莫|抱歉|毋"},
         "answer": ["未查询到相关信息"]},
        {"id": 4, "question": "q", "type": "2-1", "prompt": {"year": "2021", "key_word": "a", "prom_answer": "1.50%"},
         "answer": ["1.50%"]},
    ]
    answers = [
        {"id": 1, "answer": "甲乙科技2021年的营业收入是10.0元。"},
        {"id": 2, "answer": "营业收入是10.0元"},             # one value missing → 0
        {"id": 3, "answer": "未查询到该公司2019年的年报"},
        {"id": 4, "answer": "是1.49%"},                     # wrong value
    ]
    g, a = tmp_path / "g.jsonl", tmp_path / "a.jsonl"
    g.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in gold), encoding="utf-8")
    a.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in answers), encoding="utf-8")
    r = run("eval", str(a), str(g), "--json")
    rep = json.loads(r.stdout)
    assert rep["types"]["1"]["n"] == 2 and rep["types"]["1"]["hit"] == 100.0
    from fin_qa.evaluate import score_one

    assert score_one(answers[0]["answer"], gold[0]).score == pytest.approx(1.0)  # identical text: similarity 1
    assert 50.0 < score_one(answers[2]["answer"], gold[2]).score * 100 < 100.0
    assert 75.0 < rep["types"]["1"]["score"] < 100.0
    assert rep["types"]["1-2"]["score"] == 0.0 and rep["types"]["1-2"]["wrong"] == 100.0
    assert rep["types"]["2-1"]["wrong"] == 100.0
    r = run("eval", str(a), str(g))
    assert "bigram" in r.stdout and "final" in r.stdout


def test_rules_check_ok_and_broken(tmp_path):
    from fin_qa.config import PROJECT_ROOT, RULE_FOLDERS

    r = run("rules", "check")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "formulas" in r.stdout
    for name in RULE_FOLDERS:
        shutil.copytree(PROJECT_ROOT / name, tmp_path / name)
    rules = tmp_path / "rules"
    formulas = tmp_path / "formulas"
    text = (formulas / "finglm.yaml").read_text(encoding="utf-8")
    (formulas / "finglm.yaml").write_text(text.replace("expr: 营业利润 / 营业收入", "expr: 营业利润 / 营收"),
                                          encoding="utf-8")
    (rules / "question_types.yaml").write_text("rules:\n  - type: lookup\n    when:\n      has_compny: true\n",
                                               encoding="utf-8")
    (rules / "answer_templates.yaml").write_text("lookup: [unclosed\n", encoding="utf-8")
    env = {**__import__("os").environ, "FIN_QA_RULES": str(tmp_path)}
    r = run("rules", "check", env=env)
    assert r.returncode == 1
    out = r.stdout
    assert f"{formulas / 'finglm.yaml'}:" in out and "营业利润率" in out and "unknown name" in out
    assert f"{rules / 'question_types.yaml'}:4: unknown feature 'has_compny'" in out
    assert f"{rules / 'answer_templates.yaml'}:" in out and "YAML syntax" in out
    # at start-up the same problem is one message, not a traceback
    r = run("ask", "甲乙科技2021年营业收入是多少", "--store", str(tmp_path / "none"), env=env)
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_rules_check_names_the_template_line(tmp_path):
    from fin_qa.config import PROJECT_ROOT, RULE_FOLDERS

    for name in RULE_FOLDERS:
        shutil.copytree(PROJECT_ROOT / name, tmp_path / name)
    path = tmp_path / "rules" / "answer_templates.yaml"
    lines = path.read_text(encoding="utf-8").splitlines()
    n = next(i for i, l in enumerate(lines, 1) if l.startswith("lookup_part:"))
    lines[n - 1] = 'lookup_part: "{item}是{valu}"'
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = run("rules", "check", "--rules", str(tmp_path))
    assert r.returncode == 1 and f"{path}:{n}: template 'lookup_part': unknown placeholder(s) {{valu}}" in r.stdout


def test_text_question_on_an_imported_table_says_the_text_is_absent(store_dir):
    r = run("ask", "甲乙科技2021年是否有重大诉讼、仲裁事项?", "--store", str(store_dir), "--json")
    rec = json.loads(r.stdout)
    assert r.returncode == 1 and rec["type"] == "3-1" and "没有" in rec["answer"] and "正文" in rec["answer"]
