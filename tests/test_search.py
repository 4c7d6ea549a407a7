"""Text search on the embedded backend (SQLite FTS5 in a real store), parent-section retrieval,
extractive answers with evidence, and `fin-qa search` through the real command line."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys

import pypdfium2 as pdfium
import pytest
import yaml

from conftest import CATALOG, REPORTS, ROOT, needs_shared
from fin_qa.answer.router import Router
from fin_qa.answer.facts import FactSource
from fin_qa.answer.extract import extract, ticked
from fin_qa.catalog.lexicon import load_lexicon_rules
from fin_qa.catalog.search_config import load_search_config
from fin_qa.catalog.topics import load_topics, title_key
from fin_qa.catalog.yamlfile import RuleError
from fin_qa.config import RULE_FOLDERS
from fin_qa.sample import QUESTIONS
from fin_qa.search.base import Filters, SearchError, SearchQuery
from fin_qa.search.retrieve import Passage, Piece, Retriever, make_backend
from fin_qa.search.sqlite_fts import SqliteFtsBackend, match_expression

TEXT_QUESTIONS = [q for q in QUESTIONS if "介绍" in q or "是否" in q]


def run(*args, env=None):
    return subprocess.run([sys.executable, "-m", "fin_qa.cli", *args], capture_output=True, text=True, env=env)


def page_text(pdf, number: int) -> str:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return re.sub(r"\s+", "", doc[number - 1].get_textpage().get_text_range())
    finally:
        doc.close()


# ------------------------------------------------------------------------------------------ topics, config

def test_topics_find_leftmost_longest_and_title_key():
    topics = CATALOG.topics
    found = [(t.name, w) for t, w in topics.find("请简要介绍公司主要销售客户的客户集中度及主要供应商情况")]
    assert found == [("主要销售客户", "主要销售客户"), ("主要供应商", "主要供应商")]
    assert title_key("十二、重大诉讼、仲裁事项") == "重大诉讼、仲裁事项"
    assert title_key("（四）可能面对的风险") == "可能面对的风险"
    assert title_key("7.4.3信用风险") == "信用风险"
    assert title_key("第五节 重要事项") == "重要事项"
    lit = next(t for t in topics.topics if t.name == "重大诉讼")
    assert lit.title_match("十、重大诉讼、仲裁事项") and not lit.title_match("十一、破产重整相关事项")


def test_broken_topic_and_search_files_say_file_and_line(tmp_path):
    bad = tmp_path / "sections.yaml"
    bad.write_text("topics:\n  社会责任:\n    words: [社会责任]\n    titles: [社会责任]\n  审计意见:\n    words: [审计意见]\n",
                   encoding="utf-8")
    with pytest.raises(RuleError) as exc:
        load_topics(bad)
    assert str(exc.value).startswith(f"{bad}:5: ") and "needs both words and titles" in str(exc.value)
    bad.write_text("topics:\n  社会责任:\n    words: [社会责任]\n    titles: [社会责任]\n    answer: {yes: [有]}\n",
                   encoding="utf-8")
    with pytest.raises(RuleError, match="answer takes only positive and negative"):
        load_topics(bad)
    cfg = tmp_path / "search.yaml"
    cfg.write_text("candidates: 40\nsection_char: 100\n", encoding="utf-8")
    with pytest.raises(RuleError) as exc:
        load_search_config(cfg)
    assert str(exc.value).startswith(f"{cfg}:2: unknown setting 'section_char'")
    # (the words a search leaves out are rules/lexicon.yaml's: the one vocabulary)
    lexicon = tmp_path / "lexicon.yaml"
    lexicon.write_text("search_filler:\n  - '(unclosed'\n", encoding="utf-8")
    with pytest.raises(RuleError, match="search_filler: bad regex"):
        load_lexicon_rules(lexicon)


def test_rules_check_covers_the_search_files(tmp_path):
    for name in RULE_FOLDERS:
        shutil.copytree(ROOT / name, tmp_path / name)
    (tmp_path / "keyword_tables" / "sections.yaml").write_text("topics: [oops\n", encoding="utf-8")
    env = dict(__import__("os").environ, FIN_QA_RULES=str(tmp_path))
    r = run("rules", "check", env=env)
    assert r.returncode == 1 and "sections.yaml:2: YAML syntax" in r.stdout + r.stderr
    r = run("rules", "check")
    assert r.returncode == 0 and "sections.yaml" in r.stdout and "search.yaml" in r.stdout


# ------------------------------------------------------------------------------------------ the backend

def test_match_expression_has_text_phrases_and_heading_titles():
    expr = match_expression(SearchQuery("重大诉讼", ["重大诉讼"], ["诉讼、仲裁"]))
    assert expr == '"重大" OR "大诉" OR "诉讼" OR "重大 大诉 诉讼" OR heading : "诉讼 仲裁"'
    assert match_expression(SearchQuery("、。", [], [])) is None


def test_fts_backend_filters_on_the_report(sample_store):
    backend = SqliteFtsBackend(sample_store)
    keys = sample_store.report_keys()
    assert len(keys) == 2
    q = SearchQuery("重大诉讼仲裁事项", ["重大诉讼"], ["重大诉讼"])
    for key in keys:
        hits = backend.search(q, Filters([key]), 5)
        assert hits and {h.report_key for h in hits} == {key}
        assert "重大诉讼" in hits[0].path[-1] and hits[0].page_start == 3
        assert hits[0].score >= hits[-1].score
    both = backend.search(q, Filters(None), 10)
    assert {h.report_key for h in both} == set(keys)
    assert backend.search(q, Filters(["000000:1999"]), 5) == []


def test_unknown_backend_is_one_clear_error(sample_store):
    with pytest.raises(SearchError, match="unknown search backend 'solr'"):
        make_backend("solr", sample_store, CATALOG)


# ------------------------------------------------------------------------------------------ retrieval

def test_parent_section_retrieval_hands_over_the_topic_section(sample_store):
    r = Retriever(sample_store, make_backend("sqlite", sample_store, CATALOG), CATALOG.topics, CATALOG.search)
    key = sample_store.report_keys("星河二号")[0]
    q, topics = r.query("公司未来发展的展望")
    [first, *_] = r.retrieve(q, topics, [key])
    assert first.path[-1] == "二、公司未来发展的展望" and first.title_match
    # the whole section with its sub-sections, in reading order
    assert first.text.index("聚焦新能源汽车") < first.text.index("原材料价格波动风险")
    q, topics = r.query("公司可能面对的风险")
    [first, *_] = r.retrieve(q, topics, [key])
    assert first.path[-1] == "（二）可能面对的风险" and "聚焦新能源汽车" not in first.text


def test_section_length_is_bounded_and_keeps_the_best_chunk(shared_store):
    cfg = load_search_config(ROOT / "rules" / "search.yaml")
    cfg.section_chars = 400
    r = Retriever(shared_store, make_backend("sqlite", shared_store, CATALOG), CATALOG.topics, cfg)
    q, topics = r.query("社会责任工作情况")
    first = r.retrieve(q, topics, shared_store.report_keys("生物股份", 2020))[0]
    best = max(first.hits, key=lambda h: h.score)
    assert sum(len(p.text) for p in first.pieces) <= 400 + max(len(p.text) for p in first.pieces)
    assert any(p.chunk_id == best.chunk_id for p in first.pieces)


# ------------------------------------------------------------------------------------------ extractive answers

def _passage(*lines: str) -> Passage:
    pieces = [Piece(i, ["第五节 重要事项", "十、重大诉讼、仲裁事项"], t, 30 + i, 30 + i) for i, t in enumerate(lines)]
    return Passage("1:2020", 1, pieces[0].path, 1.0, True, pieces, [])


def test_ticked_keeps_the_checked_options():
    assert ticked("□适用 √不适用") == "不适用"
    assert ticked("□本年度公司有重大诉讼、仲裁事项 √本年度公司无重大诉讼、仲裁事项") == "本年度公司无重大诉讼、仲裁事项"
    assert ticked("没有勾选框的句子。") == "没有勾选框的句子。"


def test_extract_yes_no_rows_and_not_applicable():
    topics = [t for t, _ in CATALOG.topics.find("重大诉讼")]
    p = _passage("□本年度公司有重大诉讼、仲裁事项 √本年度公司无重大诉讼、仲裁事项")
    res = extract("公司是否有重大诉讼?", "yes_no", p, topics, "有重大诉讼")
    assert res.kind == "no" and res.excerpt == "本年度公司无重大诉讼、仲裁事项" and res.used[0].page == 30
    p = _passage("√适用 □不适用", "报告期内，公司作为被告的买卖合同纠纷涉及金额 3,200 万元，尚在审理中。")
    assert extract("公司是否涉及诉讼?", "yes_no", p, topics, "涉及诉讼").kind == "yes"
    assert extract("研发情况", "description", _passage("□适用 √不适用"), [], "研发").kind == "not_applicable"
    rows = _passage("公司研发投入情况如下：", "研发投入合计 48,428,964.78",
                    "研发投入总额占营业收入比例（%） 4.12%", "公司研发人员的数量 172")
    res = extract("研发投入占营业收入的比例是多少?", "value", rows, [], "研发投入占营业收入比例")
    assert res.kind == "rows" and res.used[0].text == "研发投入总额占营业收入比例（%） 4.12%"


def test_text_answers_on_the_sample_quote_the_cited_page(sample_store, sample_pdf):
    engine = Router(FactSource(sample_store), CATALOG)
    for q in TEXT_QUESTIONS:
        ans = engine.answer(q)
        assert ans.method == "text" and ans.type == "3-1" and ans.found, (q, ans.answer)
        assert ans.evidence
        for ev in ans.evidence:
            assert ev.heading.startswith("第") and ev.text in ans.answer
            assert re.sub(r"\s+", "", ev.text) in page_text(sample_pdf, ev.page), (q, ev)
    ans = engine.answer("星河精密2021年是否有重大诉讼、仲裁事项?")
    assert ans.answer.startswith("否。") and "（第3页）" in ans.answer
    # a value asked about a text topic, with no item in the tables: the topic's section rows answer it
    ans = engine.answer("星河精密2021年前五名客户销售额占年度销售总额的比例是多少?")
    assert ans.method == "text" and "42.00%" in ans.answer and ans.evidence[0].page == 3
    ans = engine.answer("星河精密2021年有没有履行社会责任?")
    assert "慈善总会捐赠" in ans.answer and ans.evidence[0].heading.endswith("积极履行社会责任的工作情况")


def test_text_question_about_a_missing_report_is_honest(sample_store):
    ans = Router(FactSource(sample_store), CATALOG).answer("星河精密2019年是否有重大诉讼、仲裁事项?")
    assert not ans.found and "2019" in ans.answer


# ------------------------------------------------------------------------------------------ command line

def test_cli_search_lists_sections_and_chunks(sample_store):
    store = str(sample_store.dir)
    r = run("search", "重大诉讼", "--store", store, "--company", "星河二号", "--year", "2021", "-n", "2")
    assert r.returncode == 0, r.stderr
    first = r.stdout.splitlines()[0]
    assert "688998:2021" in first and "p.3" in first and "第五节 重要事项 > 一、重大诉讼、仲裁事项" in first
    r = run("search", "重大诉讼", "--store", store, "--chunks", "--json")
    rows = [json.loads(x) for x in r.stdout.splitlines()]
    assert len({x["report"] for x in rows}) == 2 and all(x["score"] > 0 for x in rows)
    r = run("search", "重大诉讼", "--store", store, "--company", "天马科技")
    assert r.returncode == 2 and "no report in the store matches" in r.stderr
    r = run("ask", "星河精密2021年是否有重大诉讼、仲裁事项?", "--store", store, "--json")
    rec = json.loads(r.stdout)
    assert r.returncode == 0 and rec["type"] == "3-1" and rec["evidence"][0]["page"] == 3


def test_cli_bad_backend_and_unreachable_node_are_one_message(sample_store):
    store = str(sample_store.dir)
    r = run("ask", "星河精密2021年是否有重大诉讼?", "--store", store, "--search", "solr")
    assert r.returncode == 2 and "unknown search backend 'solr'" in r.stderr and "Traceback" not in r.stderr
    env = dict(__import__("os").environ, FIN_QA_ES_URL="http://127.0.0.1:9", FIN_QA_SEARCH="elasticsearch")
    r = run("ask", "星河精密2021年是否有重大诉讼?", "--store", store, env=env)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "Elasticsearch at http://127.0.0.1:9 is unreachable" in r.stderr and "start-elasticsearch.sh" in r.stderr


# ------------------------------------------------------------------------------------------ real reports

@needs_shared
@pytest.mark.parametrize("name", ["section_questions", "section_questions_heldout", "section_questions_fresh"])
def test_first_section_is_the_right_one_on_the_shared_reports(shared_store, name):
    sys.path.insert(0, str(ROOT / "scripts"))
    from eval_sections import evaluate

    questions = yaml.safe_load((ROOT / "tests" / "data" / f"{name}.yaml").read_text(encoding="utf-8"))["questions"]
    res = evaluate(shared_store, "sqlite", questions, verbose=False)
    assert res["skipped"] == 0
    assert res["rate"] >= 0.9, res["failed"]
    contest = [q["q"] for q in questions if str(q.get("source", "")).startswith("finglm")]
    assert not [f for f in res["failed"] if f[0] in contest]


@needs_shared
def test_text_answers_on_real_reports_cite_their_page(shared_store):
    engine = Router(FactSource(shared_store), CATALOG)
    ans = engine.answer("生物股份2020年是否有重大诉讼、仲裁事项？")
    assert ans.answer.startswith("否。") and ans.evidence[0].page == 36
    ans = engine.answer("请简要介绍报告期内四方科技2019年主要销售客户的客户集中度情况。")
    assert "28.02%" in ans.answer and ans.evidence[0].page == 13
    ans = engine.answer("能否根据2020年金宇生物技术股份有限公司的年报，给我简要介绍一下报告期内公司的社会责任工作情况？")
    assert "社会责任" in ans.evidence[0].heading and "捐赠" in ans.answer
    pdf = next(REPORTS.glob("*生物股份*2020*.pdf"))
    for ev in ans.evidence:
        assert re.sub(r"\s+", "", ev.text) in page_text(pdf, ev.page), ev
