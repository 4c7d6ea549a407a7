"""Words that carry meaning and words that don't (issue 35): the lexicon's accounting of a question's
left-over words (fin_qa/understand/lexicon.py, rules/lexicon.yaml), the kind of a ratio asked, names as
people type them, and rule regexes Python warns about.

The values asserted on the shared reports were read on the pages the answers cite (四方科技 2019: 货币资金
905,402,299.44 and 存货 637,768,124.78 on p.59, 研发费用 48,428,964.78 and 营业收入 1,175,301,034.32 on
p.63, 净利润 129,465,020.68 on p.64, 经营活动产生的现金流量净额 369,100,908.49 on p.68; 生物股份 2020:
研发投入合计 206,997,240.33 in 研发投入情况表).
"""
from __future__ import annotations

import json
import shutil

import pytest

from conftest import CATALOG, ROOT
from fin_qa.catalog import Catalog
from fin_qa.catalog.lexicon import LexiconRules, load_lexicon_rules
from fin_qa.catalog.yamlfile import RuleError
from fin_qa.store import Report
from fin_qa.understand.lexicon import Lexicon
from fin_qa.understand.question import Understander

REPORTS = [
    Report(0, "603339:2019", "603339", 2019, "四方科技集团股份有限公司", "四方科技"),
    Report(0, "600201:2020", "600201", 2020, "金宇生物技术股份有限公司", "生物股份"),
    Report(0, "002099:2019", "002099", 2019, "浙江海翔药业股份有限公司", "海翔药业"),
]


@pytest.fixture(scope="module")
def und():
    return Understander(REPORTS, CATALOG)


# ------------------------------------------------------------------------------------------- the lexicon

@pytest.mark.parametrize("piece, filler", [
    ("那一年", ["那", "一年"]),
    ("里记载", ["里", "记载"]),
    ("麻烦告诉我", ["麻烦", "告诉", "我"]),
    ("年报里列示", ["年报", "里", "列示"]),
    ("财报上显示", ["财报", "上", "显示"]),
    ("请问", ["请问"]),
    ("当时的时候", ["当时", "的", "时候"]),
])
def test_how_a_question_is_asked_is_filler(und, piece, filler):
    meaning, said = und.lexicon.split(piece)
    assert meaning == [] and said == filler


@pytest.mark.parametrize("piece, meaning", [
    ("罐箱", ["罐箱"]),             # a noun nothing in the catalog names: still meaning (a product, a row)
    ("上海", ["上海"]),             # a place
    ("员工食堂", ["员工食堂"]),
    ("不含", ["不含"]),             # negation and restriction (rules/lexicon.yaml meaning)
    ("一年以内", ["以内"]),         # a boundary, whatever its part of speech
    ("新增", ["新增"]),
    ("支付", ["支付"]),             # a verb of a catalog phrase (支付的各项税费)
    ("同比", ["同比"]),             # a qualifier cue
    ("里记载海外", ["海外"]),        # filler and meaning in one piece: only the meaning stays
])
def test_words_that_name_something_stay(und, piece, meaning):
    assert und.lexicon.split(piece)[0] == meaning


def test_a_word_of_the_lexicon_is_told_with_why(und):
    words = {w.text: w for w in und.lexicon.words("年报里记载罐箱")}
    assert words["年报"].why == "filler" and not words["年报"].meaning
    assert words["记载"].pos == "v" and not words["记载"].meaning
    assert words["罐"].meaning and words["罐"].why == "part of speech"   # (罐 n, 箱 q: a run of meaning)
    assert und.lexicon.split("年报里记载罐箱") == (["罐箱"], ["年报", "里", "记载"])


def test_the_lexicon_cuts_as_jieba_does(und):
    """The dictionary index cuts every Chinese run of every question set as jieba's posseg does without its
    HMM, with the words rules/lexicon.yaml adds (same words, same parts of speech)."""
    import logging
    import re

    import jieba
    import jieba.posseg

    jieba.setLogLevel(logging.WARNING)
    tok = jieba.posseg.POSTokenizer(jieba.Tokenizer())
    tok.tokenizer.initialize()
    for w, pos in CATALOG.lexicon.words:
        tok.tokenizer.add_word(w, tok.tokenizer.FREQ.get(w) or 10000, pos)
    runs = set()
    for f in sorted((ROOT / "tests" / "data").glob("*.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.strip():
                runs.update(re.findall(r"[\u4e00-\u9fff]+", json.loads(line)["question"]))
    assert len(runs) > 2000
    differ = [r for r in sorted(runs) if und.lexicon.cut(r) != [(w.word, w.flag) for w in tok.cut(r, HMM=False)]]
    assert not differ, differ[:5]


def test_the_dictionary_index_is_built_once_whole(tmp_path):
    from fin_qa.understand.lexicon import DictionaryIndex

    idx = DictionaryIndex(folder=tmp_path / "lex")
    assert idx.lookup(["记载", "财报", "四方"])["记载"][1] == "v"
    files = list((tmp_path / "lex").iterdir())
    assert len(files) == 1 and files[0].suffix == ".sqlite"   # (no half-written file left beside it)
    again = DictionaryIndex(folder=tmp_path / "lex")
    assert again.lookup(["记载"]) == {"记载": idx.lookup(["记载"])["记载"]} and again.total == idx.total > 0


def test_no_rules_no_filler_by_part_of_speech():
    lex = Lexicon(LexiconRules())
    assert lex.split("那一年")[0] == ["那一年"]


# ------------------------------------------------------------------------------------------- its rules file

def _write(tmp_path, text: str):
    p = tmp_path / "lexicon.yaml"
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.parametrize("text, problem, line", [
    ("filler_pos: [v, qq]\n", "qq is no part of speech", 1),
    ("filler_pos: [v]\nfiller: [年报]\nmeaning: [不, 年报]\n", "both filler and meaning: 年报", 3),
    ("filler_pos: [v]\nfiller: [年 报]\n", "is not one word", 2),
    ("filler_pos: [v]\nwords:\n  财报: zz\n", "'zz' is no part of speech", 3),
    ("filler_pos: [v]\nfiller: [年报, 年报]\n", "listed twice: 年报", 2),
    ("filler_pos: [v]\nfilers: [年报]\n", "unknown key 'filers'", 2),
])
def test_lexicon_rules_problems_name_their_line(tmp_path, text, problem, line):
    with pytest.raises(RuleError) as e:
        load_lexicon_rules(_write(tmp_path, text))
    assert problem in str(e.value) and e.value.line == line


def test_shipped_lexicon_rules_load():
    r = CATALOG.lexicon
    assert "v" in r.filler_pos and "n" not in r.filler_pos
    assert "不" in r.meaning and "年报" in r.filler and ("财报", "n") in r.words


def test_rules_check_fails_on_a_regex_python_warns_about(tmp_path):
    """`fin-qa rules check` names a rule regex Python warns about (a possible nested set) at its line."""
    root = tmp_path / "rules_copy"
    for d in ("rules", "formulas", "keyword_tables", "es_mappings"):
        shutil.copytree(ROOT / d, root / d)
    path = root / "rules" / "understanding.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("ratio: '比值|", "ratio: '[[比]值|", 1)
    path.write_text(text, encoding="utf-8")
    problems, _ = Catalog.check(root)
    line = next(i for i, l in enumerate(text.splitlines(), 1) if l.startswith("ratio:"))
    assert any(p.startswith(f"{path}:{line}:") and "Python warns" in p and "nested set" in p for p in problems), problems


# ------------------------------------------------------------------------------------------- understanding

@pytest.mark.parametrize("q, filler", [
    ("四方科技在2019年那一年的货币资金是多少？", ["那", "一年"]),
    # (年报 and 告诉我 are cut before, by understanding.yaml's filler patterns)
    ("四方科技2019年年报里记载的存货是多少元？", ["里", "记载"]),
    ("麻烦告诉我生物股份2020年当年的研发投入是多少", ["麻烦"]),
])
def test_the_issue_questions_leave_only_filler(und, q, filler):
    u = und.understand(q)
    assert u.items and u.left == [] and u.filler == filler and not u.frame.unused


def test_a_word_naming_something_is_left(und):
    u = und.understand("请问四方科技2019年罐箱的营业收入是多少")
    assert u.left == ["罐箱"] and "请问" not in u.left


def test_a_clause_asked_with_filler_asks_nothing_more(und):
    u = und.understand("净利率按净利润÷营业收入计算，四方科技2019年那一年的财报上显示的是多少？")
    assert not [w for slot, w in u.frame.unused if slot == "ask"]


@pytest.mark.parametrize("q, ratio", [
    ("四方科技2019年经营活动现金流量净额与净利润的比值是多少？", "比值"),
    ("四方科技2019年营业收入和营业成本之比", "之比"),
    ("四方科技2019年经营活动现金流量净额是净利润的多少倍？", "多少倍"),
    ("四方科技2019年货币资金占资产总计的比例", ""),
])
def test_a_plain_ratio_asked(und, q, ratio):
    u = und.understand(q)
    assert u.ratio == ratio and u.frame.operation == "share" and len(u.items) == 2


@pytest.mark.parametrize("q, code", [
    ("请问四方2019年的货币资金是多少", "603339"),        # a request word glued to the short name's core
    ("麻烦帮我查下海翔2019年营业收入", "002099"),
    ("四方2019年的货币资金", "603339"),
    ("2019年海翔的营业收入", "002099"),
])
def test_a_short_names_core_after_a_request(und, q, code):
    assert [m.company.stock_code for m in und.understand(q).companies] == [code]


@pytest.mark.parametrize("q", ["2019年四方面的营业收入", "四方科技集团的四方形产品2019年营业收入"])
def test_a_core_inside_another_word_is_no_name(und, q):
    assert all(m.text != "四方" for m in und.understand(q).companies)


# ------------------------------------------------------------------------------------------- on the reports

@pytest.fixture(scope="module")
def router(all_store):
    from fin_qa.answer.facts import FactSource
    from fin_qa.answer.router import Router

    store, _ = all_store
    return Router(FactSource(store), CATALOG)


@pytest.mark.parametrize("q, value", [
    ("四方科技在2019年那一年的货币资金是多少？", "905,402,299.44元"),
    ("四方科技2019年年报里记载的存货是多少元？", "637,768,124.78元"),
    ("麻烦告诉我生物股份2020年当年的研发投入是多少", "206,997,240.33元"),
    ("当年四方科技2019年研发费用占营收比例", "4.12%"),
    ("四方科技2019年经营活动现金流量净额与净利润的比值是多少？", "是2.85。"),
    ("四方科技2019年经营活动现金流量净额是净利润的多少倍？", "2.85倍"),
])
def test_the_issue_table(router, q, value):
    a = router.answer(q)
    assert a.found and value in a.answer, a.answer
    assert "%" not in a.answer.split("计算公式")[0] or value.endswith("%")


def test_filler_is_shown_in_the_record(router):
    from fin_qa.answer.router import frame_record

    u, a = router.answer_one("劳驾，四方科技2019年报告中列示的存货是多少呢")
    rec = frame_record(u)
    assert a.found and rec["filler"] == ["劳驾", "列示"] and "left" not in rec


# ------------------------------------------------------------------------------------------- shapes of asks

def test_each_company_of_its_own_year(router):
    a = router.answer("万科A2012年末和张家界2016年末的货币资金分别是多少")
    assert a.found and "52,291,542,055.49元" in a.answer and "119,653,068.38元" in a.answer, a.answer
    a = router.answer("万科A的2012年报和张家界的2016年报分别由哪家会计师事务所审计")
    assert a.found and "毕马威华振" in a.answer and "天职国际" in a.answer, a.answer


def test_a_period_restated_agrees_with_the_year_named_later(router):
    a = router.answer("四方科技的货币资金，年初（即2018年末）和2019年末各是多少")
    assert a.found and "627,041,535.44元" in a.answer and "905,402,299.44元" in a.answer, a.answer
    a = router.answer("四方科技的货币资金，年初（即2017年末）和2019年末各是多少")
    assert not a.found and "括号" in a.answer


@pytest.mark.parametrize("q", ["四方科技2019年初和2019年末的货币资金各是多少", "四方科技2019年的货币资金，年初和年末各是多少"])
def test_two_periods_listed_are_two_asks_never_a_cell_of_one(router, q):
    a = router.answer(q)
    assert a.found and len(a.asks) == 2 and "627,041,535.44元" in a.answer and "905,402,299.44元" in a.answer
    assert "外币" not in a.answer   # (the 外币货币性项目 table's 期末 column was read for it before)


def test_statement_values_are_read_from_the_statements_not_a_sentence(router):
    a = router.answer("惠威科技2019年营业收入和净利润分别是多少？同比增长了多少？")
    assert a.found and a.method == "plan" and "274,816,055.36元" in a.answer and "26,160,244.60元" in a.answer
    assert "3.07%" in a.answer and "-7.32%" in a.answer and "万元" not in a.answer, a.answer


def test_a_sum_of_categories_no_row_holds_is_no_value():
    """硕士及以上 = 硕士 + 博士及以上 of a table printing neither (its categories named otherwise): no value,
    never 0; a table printing 硕士 and no 博士 row still adds 硕士 and 0."""
    from fin_qa.answer.facts import Fact
    from fin_qa.answer.values import Values

    class Source:
        parent = False

        def __init__(self, rows: dict[str, int]):
            self.rows = rows

        def facts(self, rep, items, period):
            return {i: Fact(i, str(self.rows[i]), "人", period, "教育程度", 20, "pdf", 2019)
                    for i in items if i in self.rows}

        def statement_items(self, rep, statement):
            return set(self.rows)

    rep = Report(1, "603339:2019", "603339", 2019, "四方科技集团股份有限公司", "四方科技")
    named_otherwise = Values(Source({"本科": 100, "大专": 50, "研究生以上学历": 7}), CATALOG, "human")
    assert "硕士及以上" not in named_otherwise.facts(rep, ["硕士及以上"])
    with_masters = Values(Source({"本科": 100, "硕士": 7}), CATALOG, "human")
    assert with_masters.facts(rep, ["硕士及以上"])["硕士及以上"].number == 7
