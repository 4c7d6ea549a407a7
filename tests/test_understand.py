"""Understanding: companies, years, keywords, decimals, question types — with the real rule files."""
from __future__ import annotations

import pytest

from conftest import CATALOG
from fin_qa.store import Report
from fin_qa.understand.entities import CompanyIndex, find_years
from fin_qa.understand.question import Understander

REPORTS = [
    Report(0, "200512:2020", "200512", 2020, "厦门灿坤实业股份有限公司", "闽灿坤B"),
    Report(0, "600201:2020", "600201", 2020, "金宇生物技术股份有限公司", "生物股份"),
    Report(0, "603339:2019", "603339", 2019, "四方科技集团股份有限公司", "四方科技"),
    Report(0, "000001:2019", "000001", 2019, "平安银行股份有限公司", "平安银行"),
    Report(0, "601318:2019", "601318", 2019, "中国平安保险(集团)股份有限公司", "中国平安"),
    Report(0, "600000:2019", "600000", 2019, "上海浦东发展银行股份有限公司", "浦发银行"),
]


@pytest.fixture(scope="module")
def und(catalog):
    return Understander(REPORTS, catalog)


def test_company_longest_match_and_variants():
    idx = CompanyIndex(REPORTS)
    assert idx.find("中国平安保险(集团)股份有限公司2019年营业收入")[0].company.stock_code == "601318"
    assert idx.find("中国平安保险（集团）股份有限公司2019年")[0].company.stock_code == "601318"  # full-width brackets
    assert idx.find("闽灿坤2020年净利润")[0].company.stock_code == "200512"        # 闽灿坤B without B
    assert idx.find("四方科技集团有限公司2019年")[0].company.stock_code == "603339"  # 股份 missing
    assert idx.find("603339在2019年的营业收入")[0].company.stock_code == "603339"    # stock code
    assert idx.find("2019年营业收入是603339123元") == []                            # a code inside a number is not one
    # the longest name wins: 平安银行 is not read inside 中国平安保险
    assert [m.company.stock_code for m in idx.find("中国平安保险(集团)股份有限公司")] == ["601318"]


def test_company_fuzzy_fallback():
    idx = CompanyIndex(REPORTS, fuzzy_threshold=80, name_rules=CATALOG.understanding.company_names)
    hit = idx.fuzzy("金宇生物技股份有限公司2020年的营业收入")   # a character left out
    assert hit is not None and hit.company.stock_code == "600201" and hit.score < 100
    assert idx.fuzzy("什么是流动比率") is None


@pytest.mark.parametrize("q, years, asked", [
    ("2019年的营业收入", [2019], 2019),
    ("2019-2021年间法定代表人是否都相同", [2019, 2020, 2021], 2021),
    ("在2019至2021年期间", [2019, 2020, 2021], 2021),
    ("2020年法定代表人对比2019年是否相同", [2019, 2020], 2020),
    ("2021年营业收入与上年相比", [2020, 2021], 2021),
    ("2021年近三年的研发费用", [2019, 2020, 2021], 2021),
    ("营业收入是多少", [], None),
])
def test_years(q, years, asked):
    y = find_years(q)
    assert y.years == years and y.asked == asked


def test_keywords_with_and_without_de(und):
    u = und.understand("昊志机电在2021年归属于母公司所有者的净利润是多少元？")
    assert u.items == ["归属于母公司所有者的净利润"]
    u = und.understand("2021年四方科技归属母公司所有者净利润是多少元？")
    assert u.items == ["归属于母公司所有者的净利润"]


def test_synonyms_and_categories(und):
    assert und.understand("四方科技2019年总负债是多少元?").items == ["负债合计"]
    assert und.understand("四方科技2019年资产总额是多少元?").items == ["资产总计"]
    assert und.understand("四方科技2019年职工总人数是多少?").items == ["在职员工的数量合计"]
    assert und.understand("四方科技2019年博士及以上的员工人数是多少?").items == ["博士及以上"]
    assert und.understand("四方科技2019年硕士员工人数是多少?").items == ["硕士"]
    assert und.understand("四方科技2019年流动资产是多少元?").items == ["流动资产合计"]


def test_formula_beats_its_item(und):
    u = und.understand("2021年四方科技营业收入增长率是多少?保留2位小数。")
    assert u.formulas == ["营业收入增长率"] and u.items == [] and u.type == "formula" and u.decimals == 2
    # a growth rate of an item no formula file lists, from the template
    u = und.understand("四方科技2019年应付职工薪酬增长率是多少?")
    assert u.formulas == ["应付职工薪酬增长率"]


@pytest.mark.parametrize("q, n", [
    ("保留2位小数", 2), ("保留两位小数", 2), ("小数点后三位", 3), ("请保留至小数点后4位", 4),
    ("精确到小数点后一位", 1), ("是多少", None),
])
def test_decimals(und, q, n):
    assert und.understand("四方科技2019年流动比率" + q).decimals == n


@pytest.mark.parametrize("q, kind, finglm", [
    ("2019年四方科技电子信箱是什么?", "lookup", "1"),
    ("2019年四方科技的销售费用和管理费用分别是多少元?", "lookup", "1-2"),
    ("四方科技2019年的速动比率是多少？保留两位小数。", "formula", "2-1"),
    ("平安银行在2019至2021年间的法定代表人是否都相同？", "compare", "2-2"),
    ("四方科技2019年是否有重大诉讼、仲裁事项?", "text", "3-1"),
    ("请简要分析四方科技2019年研发费用变化的原因", "text", "3-1"),
    ("什么是流动比率？", "open", "3-2"),
    ("2019年营业收入最高的前5家公司是哪些?", "statistics", "2-1"),
    ("2019年负债合计大于五亿的公司有多少家?", "statistics", "2-1"),
    ("2019年光云科技的财务费用是多少元?", "not_found", "1"),
    ("四方科技2019年研发人员占职工总数的比例是多少?", "formula", "2-1"),
])
def test_types(und, q, kind, finglm):
    u = und.understand(q)
    assert u.type == kind, (q, u.type)
    assert u.finglm_type() == finglm


def test_fuzzy_generalization(und):
    u = und.understand("请提供2019年四方科技收回投资所得到的现金是多少元？")
    assert u.items == ["收回投资收到的现金"]
    assert u.generalized and u.generalized[0].score < 100


def test_not_chinese(und):
    u = und.understand("What was the revenue of 四方 in 2019?") 
    assert u.chinese  # mixed text still has Chinese
    u = und.understand("What was the revenue in 2019?")
    assert not u.chinese and u.type == "not_found"


def test_fuzzy_company_ties_do_not_depend_on_the_hash_seed():
    """Equal thefuzz scores: the same company wins in every process (set order follows the hash seed;
    with these names the choice used to change between 康药集团 and 民康药业)."""
    import json
    import os
    import subprocess
    import sys

    names = ["亚宝药业", "健民集团", "灵康制药", "康欣新材", "有研新材", "中伟股份", "康药集团", "灵宝药业", "民康药业", "宝康集团"]
    code = ("import json, sys\nfrom fin_qa.store import Report\nfrom fin_qa.understand.entities import CompanyIndex\n"
            "names = json.loads(sys.argv[1])\n"
            "idx = CompanyIndex([Report(i, f'{600100 + i}:2020', str(600100 + i), 2020, None, n)"
            " for i, n in enumerate(names)], 70)\n"
            "m = idx.fuzzy('请简要分析灵康药业集团股份有限公司2020年行业情况。')\n"
            "print(m.company.short_name if m else None)")
    seen = {subprocess.run([sys.executable, "-c", code, json.dumps(names, ensure_ascii=False)], capture_output=True,
                           text=True, env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout.strip()
            for seed in range(8)}
    assert len(seen) == 1 and seen != {""}, seen


def test_fuzzy_candidates_are_the_counters_most_common():
    """CompanyIndex._sharing (numpy's bincount) gives exactly Counter(...).most_common(200)'s names sharing two
    bigrams or more, equals in the order first met — the fuzzy match's candidates, in the same order."""
    from collections import Counter
    from itertools import chain

    from fin_qa.catalog.normalize import normalize_question
    from fin_qa.store import Report
    from fin_qa.understand.entities import CompanyIndex

    names = ["四方科技集团股份有限公司", "惠威电声科技股份有限公司", "浙江海翔药业股份有限公司", "北方华锦化学工业股份有限公司",
             "常柴股份有限公司", "金宇生物技术股份有限公司", "张家界旅游集团股份有限公司", "万科企业股份有限公司",
             "四方精创资讯股份有限公司", "海翔化工有限公司", "华锦科技有限公司", "四维图新科技股份有限公司"]
    reports = [Report(i, f"{600000 + i}:2019", str(600000 + i), 2019, n, n[:4]) for i, n in enumerate(names)]
    ci = CompanyIndex(reports)
    for q in ["四方科级2019年的营业收入是多少", "浙江海翔药业有限公司的净利润", "华锦化学工业2019年", "科技股份有限公司",
              "万科企业", "四方维图"]:
        qq = normalize_question(q)
        grams = sorted({qq[i:i + 2] for i in range(len(qq) - 1)})
        counts = Counter(chain.from_iterable(ci.names_with(g) for g in grams))
        assert ci._sharing(grams) == [n for n, c in counts.most_common(200) if c >= 2], q


def test_fuzzy_bigram_index_and_score_bound():
    """The bigram index worked out in numpy is the plain one (each bigram's names once, in increasing order),
    and a name the score bound leaves out scores below the cutoff: rapidfuzz's partial_ratio of every name
    against made-up questions over a few characters (so that many names come close)."""
    import random

    import numpy as np
    from rapidfuzz import fuzz as rf_fuzz

    from fin_qa.store import Report
    from fin_qa.understand.entities import CompanyIndex, _gram_index_plain

    rnd = random.Random(7)
    chars = "四方科技集团股份有限公司海翔药业华锦化学𠀀A"   # (one code point above the BMP)
    names = sorted({"".join(rnd.choice(chars) for _ in range(rnd.randint(3, 14))) for _ in range(400)})
    reports = [Report(i, f"{600000 + i}:2019", str(600000 + i), 2019, n, None) for i, n in enumerate(names)]
    ci = CompanyIndex(reports)
    index, plain = ci._gram_index(), _gram_index_plain(ci._gram_names)
    assert index.keys() == plain.keys() and len(index) > 50
    for g, ids in index.items():
        assert ids.dtype == np.int32 and ids.tolist() == plain[g].tolist(), g
    ids = np.arange(len(ci._gram_names))
    left_out = 0
    for _ in range(300):
        q = "".join(rnd.choice(chars + "的是多少年") for _ in range(rnd.randint(2, 30)))
        for cutoff in (79.5, 69.5, 49.5):
            may = ci._may_score(q, ids, cutoff)
            for i in np.flatnonzero(~may).tolist():
                assert rf_fuzz.partial_ratio(q, ci._gram_names[i]) < cutoff, (q, ci._gram_names[i], cutoff)
            left_out += int((~may).sum())
    assert left_out > 1000   # (the bound leaves names out)
    # rapidfuzz's own path for strings of more than 64 characters, and names of a lone surrogate (no store
    # holds one; the index still reads them as the plain one does)
    long_names = ["".join(rnd.choice(chars) for _ in range(rnd.randint(40, 90))) for _ in range(60)] + ["四方\ud800科技"]
    ci = CompanyIndex([Report(i, f"{600000 + i}:2019", str(600000 + i), 2019, n, None) for i, n in enumerate(long_names)])
    index, plain = ci._gram_index(), _gram_index_plain(ci._gram_names)
    assert index.keys() == plain.keys() and all(index[g].tolist() == plain[g].tolist() for g in index)
    ids = np.arange(len(ci._gram_names))
    for _ in range(200):
        q = "".join(rnd.choice(chars) for _ in range(rnd.randint(30, 120)))
        for cutoff in (79.5, 49.5):
            for i in np.flatnonzero(~ci._may_score(q, ids, cutoff)).tolist():
                assert rf_fuzz.partial_ratio(q, ci._gram_names[i]) < cutoff, (q, ci._gram_names[i], cutoff)


def test_generalizer_scores_as_thefuzz_extract():
    """The generalizer's best phrases (rapidfuzz's ratio of the phrases a bound lets reach the threshold) are
    thefuzz's extract(limit=8) less those below the threshold: the same phrases, scores and order, over the
    shipped phrases and made-up keywords cut from them (near matches, ties)."""
    import random

    from thefuzz import fuzz, process

    from fin_qa.understand.question import Understander

    g = Understander([], CATALOG).generalizer
    rnd = random.Random(5)
    near = 0
    for _ in range(600):
        c = rnd.choice(g.choices)
        k = c[(a := rnd.randrange(len(c))):a + rnd.randint(2, 12)]
        if rnd.random() < 0.5 and len(k) > 2:
            k = k[:1] + rnd.choice(g.choices)[:2] + k[2:]
        want = [(p, s) for p, s in process.extract(k, g.choices, scorer=fuzz.ratio, processor=None, limit=8)
                if s >= g.threshold]
        assert [(p, s) for p, s in g._best(k) if s >= g.threshold] == want, k
        near += bool(want)
    assert near > 100
    # any threshold the rules allow, and ratios of exactly T − 0.5 (which round to an even T: 11.5 → 12)
    from fin_qa.understand.generalize import Generalizer

    phrases = {"a" * 23 + "b" * 236: ("item", "x"), "a" * 67 + "b" * 192: ("item", "y"), "营业收入": ("item", "z"),
               "a" + "b" * 7: ("item", "w")}
    for threshold in (0, 1, 12, 13, 34, 70, 100):
        g = Generalizer(phrases, [], threshold=threshold)
        for k in ("a" * 141, "a" * 8, "营业收入", "营业", "ab"):
            want = [(p, s) for p, s in process.extract(k, g.choices, scorer=fuzz.ratio, processor=None, limit=8)
                    if s >= threshold]
            assert [(p, s) for p, s in g._best(k) if s >= threshold] == want, (threshold, k)


def test_year_on_year_asked_as_a_value_is_the_rate():
    # "营业收入同比是多少" / "年同比为多少": the year-on-year rate, as "同比增长率是多少" is
    from fin_qa.understand.question import Understander

    und = Understander([], CATALOG)
    for q in ("2019年营业收入同比是多少？", "2019年净利润年同比为多少", "2019年营业收入同比增长率是多少？"):
        u = und.understand(q)
        assert u.frame.operation == "growth" and not u.frame.unused, (q, u.frame)
    assert und.understand("2019年营业收入同比是多少元？").frame.operation == "growth"
    u = und.understand("这些企业的利润年同比是多少？")   # (年同比 as the rate's word, never 是)
    assert u.frame.operation == "growth" and u.frame.operation_word == "年同比"
    assert und.understand("2019年营业收入是多少？").frame.operation == "value"


def test_keyword_trie_finds_the_leftmost_longest_phrases():
    """The keyword pass (a trie walked at each place) finds what one regex of the phrases, longest alternative
    first, finds with finditer: at each place the longest phrase starting there, then on from its end — over
    random phrase sets and texts of a small alphabet (prefixes of each other, overlaps, repeats)."""
    import random
    import re

    from fin_qa.understand.keywords import leftmost_longest, phrase_trie

    rnd = random.Random(7)
    for _ in range(400):
        phrases = {"".join(rnd.choice("营业收入率#") for _ in range(rnd.randint(1, 5))) for _ in range(rnd.randint(1, 12))}
        rx = re.compile("|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True)))
        trie = phrase_trie(phrases | {""} if rnd.random() < 0.3 else phrases)   # (an empty phrase: none)
        for _ in range(20):
            text = "".join(rnd.choice("营业收入率#的") for _ in range(rnd.randint(0, 20)))
            assert leftmost_longest(trie, text) == [m.span() for m in rx.finditer(text)], (phrases, text)
    assert phrase_trie({"营业收入", ""}) is phrase_trie(["营业收入"])   # (one trie for the same phrases)


def test_a_rule_regex_is_compiled_once_and_still_heard():
    """A rule's regex is the same pattern object every load, and one Python warns about is refused every time
    (re's own cache would keep a compiled one quiet)."""
    import re
    import warnings

    from fin_qa.catalog.yamlfile import RuleError, rule_regex

    rx = rule_regex("r.yaml", 1, "k", "比值|比率")
    assert rx is rule_regex("r.yaml", 2, "k", "比值|比率") and rx.search("资产负债比率")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        re.compile("[[比]值")   # (in re's cache now, quiet)
    for line in (3, 4):
        with pytest.raises(RuleError, match=f"r.yaml:{line}.*Python warns"):
            rule_regex("r.yaml", line, "k", "[[比]值")
    with pytest.raises(RuleError, match="bad regex"):
        rule_regex("r.yaml", 5, "k", "(比值")


def test_a_quarter_s_code_is_read_as_its_name():
    from fin_qa.catalog.normalize import normalize_question

    assert normalize_question("宁德时代2025年Q4营收多少") == "宁德时代2025年第四季度营收多少"
    assert normalize_question("2025q1-q3营业收入合计") == "2025前三季度营业收入合计"
    assert normalize_question("Q1~Q2净利润") == "上半年净利润" and normalize_question("Q1-Q4营业收入") == "全年营业收入"
    # another span: each end, as two quarters asked (never one of them, never the year to date of the last)
    assert normalize_question("2023年Q2-Q3归母净利润") == "2023年第二季度、第三季度归母净利润"
    assert normalize_question("QFII持股") == "QFII持股" and normalize_question("Q10") == "Q10"


def test_yoy_and_qoq_are_read_as_their_chinese_words():
    from fin_qa.catalog.normalize import normalize_question

    assert normalize_question("归母净利润多少亿元？YoY多少？") == "归母净利润多少亿元?同比多少?"
    assert normalize_question("Q3营收QoQ增速，yoy呢") == "第三季度营收环比增速,同比呢"
    assert normalize_question("Yoyo公司") == "Yoyo公司"   # (inside a word: no abbreviation)
