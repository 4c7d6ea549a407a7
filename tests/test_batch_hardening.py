"""fin-qa batch under bad input and concurrent use (issue 14): resume trusts id and question, the output is
never the input, options must match, one writer at a time, an unwritable output is said before any work."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from test_batch_cli import store_dir  # noqa: F401 - the same imported-table store (a module fixture)

Q1 = "2021年甲乙科技的营业收入是多少元?"
Q2 = "2021年甲乙科技的营业成本是多少元?"


def run(*args):
    return subprocess.run([sys.executable, "-m", "fin_qa.cli", *args], capture_output=True, text=True)


def write(path, recs):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs), encoding="utf-8")


def test_the_output_is_never_the_question_file(store_dir, tmp_path):
    qs = tmp_path / "q.jsonl"
    write(qs, [{"id": 1, "question": Q1}])
    before = qs.read_bytes()
    r = run("batch", str(qs), "-o", str(qs), "--store", str(store_dir), "-q")
    assert r.returncode == 2 and "is the question file" in r.stderr and "Traceback" not in r.stderr
    assert qs.read_bytes() == before


def test_resume_matches_id_and_question_and_refuses_another_files_output(store_dir, tmp_path):
    a, b, out = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "out.jsonl"
    write(a, [{"id": 1, "question": Q1}, {"id": 2, "question": Q2}])
    write(b, [{"id": 1, "question": Q2}, {"id": 2, "question": Q1}])
    assert run("batch", str(a), "-o", str(out), "--store", str(store_dir), "-q").returncode == 0
    before = out.read_bytes()
    r = run("batch", str(b), "-o", str(out), "--store", str(store_dir), "-q")
    assert r.returncode == 2 and "holds another question under id 1" in r.stderr, r.stderr
    assert out.read_bytes() == before
    # the same file again: nothing redone
    r = run("batch", str(a), "-o", str(out), "--store", str(store_dir), "-q")
    assert r.returncode == 0 and "0 answered" in r.stdout and "2 already in" in r.stdout
    # a question file grown by a line: only the new one is answered
    write(a, [{"id": 1, "question": Q1}, {"id": 2, "question": Q2}, {"id": 3, "question": Q1}])
    r = run("batch", str(a), "-o", str(out), "--store", str(store_dir), "-q")
    assert "1 answered" in r.stdout and len(out.read_text(encoding="utf-8").splitlines()) == 3


def test_other_options_are_said_not_mixed_in(store_dir, tmp_path):
    qs, out = tmp_path / "q.jsonl", tmp_path / "out.jsonl"
    write(qs, [{"id": 1, "question": Q1}, {"id": 2, "question": Q2}])
    # a run stopped after the first answer …
    assert run("batch", str(qs), "-o", str(out), "--store", str(store_dir), "-q").returncode == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    out.write_text(lines[0] + "\n", encoding="utf-8")
    # … resumed with another --style: refused, the file as it was
    r = run("batch", str(qs), "-o", str(out), "--store", str(store_dir), "-q", "--style", "finglm")
    assert r.returncode == 2 and "other options" in r.stderr and "style" in r.stderr, r.stderr
    assert out.read_text(encoding="utf-8") == lines[0] + "\n"


def test_one_writer_at_a_time(store_dir, tmp_path):
    qs, out = tmp_path / "q.jsonl", tmp_path / "out.jsonl"
    write(qs, [{"id": 1, "question": Q1}])
    fcntl = pytest.importorskip("fcntl", reason="no fcntl here (not POSIX): no lock to test")
    out.touch()
    with open(out, "ab") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        r = run("batch", str(qs), "-o", str(out), "--store", str(store_dir), "-q")
    assert r.returncode == 2 and "another fin-qa batch is writing" in r.stderr
    assert out.read_bytes() == b""


def test_two_batches_on_one_output_write_each_answer_once(store_dir, tmp_path):
    qs, out = tmp_path / "q.jsonl", tmp_path / "out.jsonl"
    n = 3000
    write(qs, [{"id": i, "question": Q1 if i % 2 else Q2} for i in range(n)])
    args = [sys.executable, "-m", "fin_qa.cli", "batch", str(qs), "-o", str(out), "--store", str(store_dir), "-q"]
    procs = [subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [p.communicate(timeout=300) + (p.returncode,) for p in procs]
    assert all(rc in (0, 2) for *_, rc in results) and any(rc == 0 for *_, rc in results), results
    for stdout, stderr, rc in results:
        assert rc == 0 or "another fin-qa batch is writing" in stderr, stderr
    ids = [json.loads(l)["id"] for l in out.read_text(encoding="utf-8").splitlines()]
    assert sorted(ids) == list(range(n))   # each question once, none twice


def test_an_unwritable_output_is_said_before_any_work(store_dir, tmp_path):
    qs = tmp_path / "q.jsonl"
    write(qs, [{"id": 1, "question": Q1}])
    blocker = tmp_path / "a_file"
    blocker.write_text("x", encoding="utf-8")
    r = run("batch", str(qs), "-o", str(blocker / "out.jsonl"), "--store", str(store_dir), "-q")
    assert r.returncode == 2 and "cannot write answers there" in r.stderr and "Traceback" not in r.stderr
    r = run("batch", str(qs), "-o", str(tmp_path), "--store", str(store_dir), "-q")
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_bad_bytes_and_wrong_types_are_bad_lines_with_their_numbers(store_dir, tmp_path):
    qs, out = tmp_path / "q.jsonl", tmp_path / "out.jsonl"
    qs.write_bytes(json.dumps({"id": 1, "question": Q1}, ensure_ascii=False).encode() + b"\n"
                   + b'{"id": 2, "question": "\xff\xfe bad"}\n'
                   + b'{"id": 3, "question": 12345}\n'
                   + '{"id": 4, "question": "甲乙科技2021年营业收入？"}\n'.encode("gbk")
                   + b'[1, 2]\n'
                   + json.dumps({"id": 6, "question": Q2}, ensure_ascii=False).encode() + b"\n")
    r = run("batch", str(qs), "-o", str(out), "--store", str(store_dir), "-q")
    assert r.returncode == 0, r.stderr
    recs = [json.loads(l) for l in out.read_text(encoding="utf-8").splitlines()]
    assert [r.get("line") for r in recs] == [None, 2, 3, 4, 5, None]
    assert "第2行：不是UTF-8文本" in recs[1]["answer"] and "第4行：不是UTF-8文本" in recs[3]["answer"]
    assert "第3行：question应为文本，不是数字" in recs[2]["answer"] and recs[2]["id"] == 3
    assert "第5行：不是JSON对象" in recs[4]["answer"]
    assert "1,250,000,000.00元" in recs[0]["answer"] and recs[5]["method"] == "lookup"
    assert "2 answered" in r.stdout and "4 bad input lines" in r.stdout
    # resumed: nothing redone, byte for byte
    before = out.read_bytes()
    r = run("batch", str(qs), "-o", str(out), "--store", str(store_dir), "-q")
    assert "6 already in" in r.stdout and out.read_bytes() == before


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_import_tables_keeps_text_out_of_number_columns(tmp_path, suffix):
    import pandas as pd

    df = pd.DataFrame({"股票代码": ["000001", "000002"], "公司名称": ["甲乙科技股份有限公司", "丙丁股份有限公司"],
                       "年份": [2021, 2021], "净利润": ["abc", "5"], "营业收入": ["100", "1e3x"],
                       "法定代表人": ["张三", "李四"]})
    f = tmp_path / f"t{suffix}"
    df.to_csv(f, index=False) if suffix == ".csv" else df.to_excel(f, index=False)
    store = tmp_path / "s"
    r = run("import-tables", str(f), "--store", str(store))
    assert r.returncode == 3 and "2 bad cells not imported" in r.stdout, r.stdout + r.stderr
    assert f"{f}: row 2, column 净利润: 'abc' is not a number" in r.stderr
    assert f"{f}: row 3, column 营业收入: '1e3x' is not a number" in r.stderr
    r = run("ask", "甲乙科技2021年净利润是多少", "--store", str(store))
    assert r.returncode == 1 and "abc" not in r.stdout and "未查询到" in r.stdout
    r = run("ask", "甲乙科技2021年营业收入是多少元", "--store", str(store))
    assert r.returncode == 0 and "100.00元" in r.stdout   # the rest of the row is imported
    r = run("ask", "丙丁股份2021年法定代表人是谁", "--store", str(store))
    assert "李四" in r.stdout   # a text item keeps its text


def test_each_bad_file_in_a_folder_gets_its_own_reason(tmp_path):
    import pypdfium2 as pdfium

    d = tmp_path / "in"
    d.mkdir()
    pdfium.PdfDocument.new().save(str(d / "a_zero_pages.pdf"))
    (d / "b_empty.pdf").write_bytes(b"")
    (d / "c_text.pdf").write_bytes(b"hello")
    (d / "d_no_end.pdf").write_bytes(b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\n")
    (d / "e.txt").write_text('x\n{"page": 1, "inside": "a"}\nnope\n{"a": 1}\n', encoding="utf-8")
    r = run("ingest", str(d), "--store", str(tmp_path / "s"), "-q")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    out = r.stdout
    assert "a_zero_pages.pdf — PDF has no pages" in out and "PDFium: Success" not in out
    assert "b_empty.pdf — empty file" in out and "c_text.pdf — not a PDF" in out
    assert "d_no_end.pdf — corrupt or truncated PDF" in out
    assert "0 pages" in out


def test_a_file_not_in_finglm_lines_names_its_first_bad_line(tmp_path):
    f = tmp_path / "r.txt"
    f.write_text('{"page": 1, "inside": "a"}\n' + "bad\n" * 5 + '{"page": 1, "inside": "b"}\n', encoding="utf-8")
    r = run("ingest", str(f), "--store", str(tmp_path / "s"), "-q")
    assert "the first line 2" in r.stdout, r.stdout


def test_eval_refuses_a_gold_file_of_another_format(tmp_path):
    answers, questions = tmp_path / "a.jsonl", tmp_path / "q.jsonl"
    write(answers, [{"id": 1, "answer": "x"}])
    write(questions, [{"id": 1, "question": Q1}])
    r = run("eval", str(answers), str(questions))
    assert r.returncode == 2 and f"{questions}:1: not a line of gold answers" in r.stderr and "0.00" not in r.stdout


def test_nothing_found_is_exit_1_and_an_empty_query_a_usage_error(store_dir):
    r = run("search", "", "--store", str(store_dir))
    assert r.returncode == 2 and "QUERY is empty" in r.stderr
    r = run("facts", "--store", str(store_dir), "--company", "没有这家公司")
    assert r.returncode == 1 and "no facts match" in r.stderr
    r = run("reports", "--store", str(store_dir))
    assert r.returncode == 0 and r.stderr.strip() == f"{len(r.stdout.splitlines())} reports"


def test_an_english_phrase_is_echoed_with_its_spaces(sample_store):
    r = run("ask", "What was 星河精密's revenue in 2021?", "--store", str(sample_store.dir))
    assert "Whatwas" not in r.stdout and "What was" in r.stdout, r.stdout


def test_progress_in_a_log_is_plain_lines(store_dir, tmp_path):
    """stderr not a terminal (a log, a pipe): a plain line now and then, never a stream of bar frames."""
    import os

    qs, out = tmp_path / "q.jsonl", tmp_path / "out.jsonl"
    write(qs, [{"id": i, "question": Q1 if i % 2 else Q2} for i in range(5)])
    env = dict(os.environ, FIN_QA_PROGRESS_SECONDS="0")
    r = subprocess.run([sys.executable, "-m", "fin_qa.cli", "batch", str(qs), "-o", str(out), "--store", str(store_dir)],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0
    lines = r.stderr.splitlines()
    assert "\r" not in r.stderr and "it/s" not in r.stderr and "|" not in r.stderr, r.stderr
    assert lines and lines[-1].startswith("batch: 5/5 q (100%)"), lines


def test_refusals_come_before_the_model_loads(store_dir, tmp_path):
    fcntl = pytest.importorskip("fcntl", reason="no fcntl here (not POSIX): no lock to test")
    qs, out = tmp_path / "q.jsonl", tmp_path / "out.jsonl"
    write(qs, [{"id": 1, "question": Q1}])
    out.touch()
    with open(out, "ab") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        r = run("batch", str(qs), "-o", str(out), "--store", str(store_dir), "-q", "--llm", str(tmp_path / "no-model"))
    assert r.returncode == 2 and "another fin-qa batch is writing" in r.stderr, r.stderr
    # a run that fails before its first answer leaves no empty output behind
    fresh = tmp_path / "new" / "out.jsonl"
    r = run("batch", str(qs), "-o", str(fresh), "--store", str(store_dir), "-q", "--llm", str(tmp_path / "no-model"))
    assert r.returncode == 2 and not fresh.exists()


def test_plain_output_resumes_bad_lines_too(store_dir, tmp_path):
    qs, out = tmp_path / "q.jsonl", tmp_path / "out.jsonl"
    qs.write_text(json.dumps({"id": 1, "question": Q1}, ensure_ascii=False) + "\n{not json\n"
                  + json.dumps({"id": 3, "question": ""}) + "\n" + json.dumps({"id": 4, "question": Q2}, ensure_ascii=False)
                  + "\n", encoding="utf-8")
    assert run("batch", str(qs), "-o", str(out), "--store", str(store_dir), "-q", "--plain").returncode == 0
    before = out.read_bytes()
    assert [json.loads(l).get("line") for l in before.decode().splitlines()] == [None, 2, 3, None]
    r = run("batch", str(qs), "-o", str(out), "--store", str(store_dir), "-q", "--plain")
    assert r.returncode == 0 and "4 already in" in r.stdout and out.read_bytes() == before, r.stdout + r.stderr


def test_a_last_line_without_its_newline_is_kept_and_the_next_goes_below(store_dir, tmp_path):
    qs, out = tmp_path / "q.jsonl", tmp_path / "out.jsonl"
    write(qs, [{"id": 1, "question": Q1}, {"id": 2, "question": Q2}])
    assert run("batch", str(qs), "-o", str(out), "--store", str(store_dir), "-q").returncode == 0
    first = out.read_text(encoding="utf-8").splitlines()[0]
    out.write_text(first, encoding="utf-8")   # the newline never written
    r = run("batch", str(qs), "-o", str(out), "--store", str(store_dir), "-q")
    assert r.returncode == 0 and "1 answered" in r.stdout, r.stderr
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 and lines[0] == first and json.loads(lines[1])["id"] == 2
    r = run("batch", str(qs), "-o", str(out), "--store", str(store_dir), "-q")
    assert "2 already in" in r.stdout


def test_an_output_of_other_ids_is_another_files(store_dir, tmp_path):
    a, b, out = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "out.jsonl"
    write(a, [{"id": 1, "question": Q1}])
    write(b, [{"id": 7, "question": Q2}])
    assert run("batch", str(a), "-o", str(out), "--store", str(store_dir), "-q").returncode == 0
    r = run("batch", str(b), "-o", str(out), "--store", str(store_dir), "-q")
    assert r.returncode == 2 and "does not have" in r.stderr and len(out.read_text().splitlines()) == 1


def test_json_lines_whose_first_line_is_a_broken_array_are_read_line_by_line(store_dir, tmp_path):
    qs, out = tmp_path / "q.jsonl", tmp_path / "out.jsonl"
    qs.write_text("[oops\n" + json.dumps({"id": 2, "question": Q1}, ensure_ascii=False) + "\n", encoding="utf-8")
    r = run("batch", str(qs), "-o", str(out), "--store", str(store_dir), "-q")
    assert r.returncode == 0 and "1 answered" in r.stdout and "1 bad input line" in r.stdout, r.stdout + r.stderr
    # a JSON array's items are named by position
    arr = tmp_path / "arr.json"
    arr.write_text(json.dumps([{"id": 1, "question": Q1}, 5]), encoding="utf-8")
    r = run("batch", str(arr), "-o", str(tmp_path / "o2.jsonl"), "--store", str(store_dir), "-q")
    assert "第2项：不是JSON对象" in (tmp_path / "o2.jsonl").read_text(encoding="utf-8")


def test_an_old_outputs_internal_key_is_read_without_a_traceback(store_dir, tmp_path):
    qs, out = tmp_path / "q.jsonl", tmp_path / "out.jsonl"
    write(qs, [{"id": 1, "question": Q1}])
    out.write_text(json.dumps({"id": None, "question": None, "answer": "x", "_key": "line:x"}) + "\n", encoding="utf-8")
    r = run("batch", str(qs), "-o", str(out), "--store", str(store_dir), "-q")
    assert r.returncode == 2 and "Traceback" not in r.stderr and "no fin-qa answer" in r.stderr


def test_import_placeholders_are_missing_and_rows_counted_as_the_file_has_them(tmp_path):
    f = tmp_path / "t.csv"
    f.write_text("股票代码,公司名称,年份,净利润,营业收入\n000001,甲乙科技股份有限公司,2021,-,不适用\n\n"
                 "000002,丙丁股份有限公司,2021,x1,—\n", encoding="utf-8")
    other = tmp_path / "missing.csv"
    r = run("import-tables", str(f), str(other), "--store", str(tmp_path / "s"))
    # -, 不适用, — are no value (not bad cells); the bad cell is on the file's row 4 (a blank line before it)
    assert f"{f}: row 4, column 净利润: 'x1' is not a number" in r.stderr and r.stderr.count("bad cell") == 1, r.stderr
    # a file not imported (the other was): exit 1
    assert r.returncode == 1 and "failed" in r.stdout and "imported" in r.stdout


def test_a_batch_refused_by_the_lock_leaves_the_other_batchs_new_file(tmp_path, monkeypatch):
    """Two batches start on a new output together: the one that loses the lock must not remove the file the
    other has just made and is writing (it did: the winner's answers went to a removed file)."""
    fcntl = pytest.importorskip("fcntl", reason="no fcntl here (not POSIX): no lock to test")
    from fin_qa import FinQAError
    from fin_qa.answer import batch

    qs, out = tmp_path / "q.jsonl", tmp_path / "out.jsonl"
    write(qs, [{"id": 1, "question": Q1}])
    held = []
    real_check = batch.check_output

    def the_other_batch_starts(questions, output):
        real_check(questions, output)
        fh = open(output, "a+b")          # made and locked by the other batch after this one looked
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        held.append(fh)

    monkeypatch.setattr(batch, "check_output", the_other_batch_starts)
    with pytest.raises(FinQAError, match="another fin-qa batch is writing"):
        batch.prepare(qs, out)
    assert out.exists()
    held[0].close()
