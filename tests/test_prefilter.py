"""fin_qa/prefilter.py: a rule's pattern is skipped only where it cannot match."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from fin_qa.catalog import Catalog
from fin_qa.catalog.normalize import normalize_question, phrase_key
from fin_qa.prefilter import may_match, needles

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("pattern, text, can", [
    (r"(?=[^，,。；;?？]*?[占在])(?P<a>[^，,。；;?？]+?)的?(?:比例|比重)", "销售费用占营业收入的比例是多少", True),
    (r"(?=[^，,。；;?？]*?[占在])(?P<a>[^，,。；;?？]+?)的?(?:比例|比重)", "销售费用是多少", False),
    (r"(?P<a>.+?)除以(?P<b>.+)", "净利润除以营业收入", True),
    (r"(?P<a>.+?)除以(?P<b>.+)", "净利润和营业收入", False),
    (r"同比(?:增长|下降)|较上年", "营业收入较上年增长了多少", True),
    (r"同比(?:增长|下降)|较上年", "营业收入同比是多少", True),    # (同比 is there: the pattern runs, and finds nothing)
    (r"同比(?:增长|下降)|较上年", "营业收入是多少", False),
    (r"(?<=年)末|期末", "2019年末的货币资金", True),            # a lookbehind's words are the text's too
    (r"(?<=年)末|期末", "货币资金", False),
    (r"[0-9]{1,2}位小数", "保留2位小数", True),
    (r"[0-9]{1,2}位小数", "保留整数", False),
])
def test_a_pattern_is_skipped_only_where_its_needles_are_missing(pattern, text, can):
    rx = re.compile(pattern)
    assert may_match(rx, text) is can
    assert (rx.search(text) is not None) <= may_match(rx, text)


def test_a_bytes_pattern_is_always_run():
    rx = re.compile(rb"abc")
    assert needles(rx) is None and may_match(rx, b"xabc")


@pytest.mark.parametrize("pattern", [r"(?:年报)?", r"\d+", r"(?i)roe", r"(?!期初)余额|.*", r"[^年]+", r"(?:期初)*"])
def test_a_pattern_requiring_nothing_or_read_otherwise_is_always_run(pattern):
    # (nothing every match needs: optional, a category, case folded, negated, repeated from zero)
    assert needles(re.compile(pattern)) is None
    assert may_match(re.compile(pattern), "完全无关的文字")


def _texts() -> list[str]:
    out = []
    for f in sorted(DATA.glob("*.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            try:
                q = json.loads(line).get("question")
            except (ValueError, AttributeError):
                continue
            if isinstance(q, str):
                out += [q, normalize_question(q), phrase_key(q)]
    return list(dict.fromkeys(out))


def _patterns(obj, seen: set[int], out: dict[int, re.Pattern], depth: int = 0) -> None:
    if depth > 6 or id(obj) in seen:
        return
    if isinstance(obj, re.Pattern):
        out[id(obj)] = obj
        return
    if isinstance(obj, (str, bytes, int, float, bool, type(None))):
        return
    seen.add(id(obj))
    if isinstance(obj, dict):
        values = list(obj.values())
    elif isinstance(obj, (list, tuple, set, frozenset)):
        values = list(obj)
    else:
        values = list(getattr(obj, "__dict__", {}).values())
    for v in values[:5000]:
        _patterns(v, seen, out, depth + 1)


def test_no_shipped_rule_pattern_is_skipped_where_it_matches():
    # every pattern of the shipped rules, over every question of tests/data (as written, normalised, as
    # phrases are compared): where its needles are missing, it finds nothing
    found: dict[int, re.Pattern] = {}
    _patterns(Catalog.shipped(), set(), found)
    patterns = [rx for rx in found.values() if needles(rx)]
    texts = _texts()
    assert len(patterns) > 100 and len(texts) > 1000
    skipped = 0
    for rx in patterns:
        for t in texts:
            if not may_match(rx, t):
                skipped += 1
                assert rx.search(t) is None, (rx.pattern, t)
    assert skipped > len(texts)   # (and it does skip: most rules read nothing in most questions)


@pytest.mark.parametrize("pattern, text", [
    (r"(?=[^，,。；;?？]*?[占在])(?P<a>[^，,。；;?？]+?)的?(?:比例|比重)", "销售费用占营业收入的比例，管理费用占营业收入的比重"),
    (r"(?=[^，,。；;?？]*?[占在])(?P<a>[^，,。；;?？]+?)的?(?:比例|比重)", "销售费用是多少"),
    (r"同比(?:增长|下降)|较上年", "营业收入较上年增长了多少，同比增长呢"),
    (r"同比(?:增长|下降)|较上年", "营业收入是多少"),
    (r"\d+", "2019年和2020年"),   # (a pattern with no needles: always run)
])
def test_the_guarded_calls_give_what_the_patterns_own_give(pattern, text):
    from fin_qa import prefilter

    rx = re.compile(pattern)
    got, own = prefilter.search(rx, text), rx.search(text)
    assert (got and got.span()) == (own and own.span())
    assert [m.span() for m in prefilter.finditer(rx, text)] == [m.span() for m in rx.finditer(text)]
    assert prefilter.sub(rx, "#", text) == rx.sub("#", text)
    assert prefilter.sub(rx, lambda m: m.group(0)[::-1], text) == rx.sub(lambda m: m.group(0)[::-1], text)


def _found(rx: re.Pattern, text: str) -> list[tuple]:
    return [(m.span(), m.groups(), m.groupdict()) for m in rx.finditer(text)]


def test_a_quick_pattern_finds_what_the_shipped_rule_pattern_finds():
    # every shipped rule pattern that `quick` puts behind a lookahead of its first characters, over every
    # question of tests/data: the same matches, spans, groups and names
    from fin_qa.prefilter import quick

    found: dict[int, re.Pattern] = {}
    _patterns(Catalog.shipped(), set(), found)
    wrapped = [(rx, quick(rx)) for rx in found.values() if quick(rx) is not rx]
    texts = _texts()
    assert len(wrapped) > 20 and len(texts) > 1000
    for rx, q in wrapped:
        assert q.pattern.startswith("(?=[") and q.groupindex == rx.groupindex
        for t in texts:
            assert _found(q, t) == _found(rx, t), (rx.pattern, t)


@pytest.mark.parametrize("pattern", [
    r"(?:年)(?:末|初)",          # (opens with a literal, inside a group: re skips ahead by itself)
    r"末|期末",                  # (a branch of literals: re's own charset)
    r"(?<=年)(?:末)?",           # (may match nothing: every place is a match)
    r"(?i:top)\d|(?<!a)b",       # (case-insensitive words)
    r"(?<!a)(?:.)b",             # (any character first)
    r"(?<!a)[^x]b",              # (a negated class)
    r"(?<!a)(\w)b",              # (a category)
    r"(?s)(?<!a)b|c",            # (global flags inside: cannot be wrapped)
    r"(?<!a)[\u4e00-\u9fff]b",   # (too many first characters)
])
def test_a_pattern_quick_cannot_help_is_run_as_it_is(pattern):
    from fin_qa.prefilter import quick

    rx = re.compile(pattern)
    assert quick(rx) is rx
    assert quick(re.compile(r"(?<!a)b|c", re.VERBOSE)).pattern == r"(?<!a)b|c"


def test_a_quick_pattern_finds_what_any_pattern_finds():
    # made-up patterns of the rules' kind (lookbehinds, groups, branches, repeats, classes) and more (anchors,
    # atomic groups, possessive repeats, back references, conditionals, flags) over made-up texts of a few
    # characters, new lines and one above the BMP: every match the same, where quick wraps them
    import random

    from fin_qa import prefilter
    from fin_qa.prefilter import quick

    rnd = random.Random(11)
    chars = "年末期初上第一二占比0"

    def atom(depth: int) -> str:
        k = rnd.randrange(10 if depth < 3 else 3)
        if k == 0:
            return rnd.choice(chars)
        if k == 1:
            return "[" + "".join(rnd.sample(chars, 3)) + "]"
        if k == 2:
            return rnd.choice(chars) + rnd.choice(["?", "*", "+", "{0,2}", "{1,2}?", "{0}"])
        if k == 3:
            return "(?<!" + rnd.choice(chars) + ")"
        if k == 4:
            return "(?=" + seq(depth + 1) + ")"
        if k == 5:
            return "(?:" + seq(depth + 1) + ")" + rnd.choice(["", "?", "*", "{1,2}"])
        if k == 6:
            return f"(?P<g{rnd.randrange(10**6)}>" + seq(depth + 1) + ")"
        if k == 7:
            return "(?:" + "|".join(seq(depth + 1) for _ in range(rnd.randint(2, 4))) + ")"
        if k == 8:
            return rnd.choice(["\\b", "\\B", "$", "^", "\\A", "\\Z"])
        return rnd.choice([f"(?>{seq(depth + 1)})", rnd.choice(chars) + rnd.choice(["*+", "?+", "{1,2}+"]),
                           f"(?P<r{depth}>{rnd.choice(chars)})(?P=r{depth})",
                           f"(?P<c{depth}>{rnd.choice(chars)})?(?(c{depth}){rnd.choice(chars)}|{rnd.choice(chars)})",
                           f"(?s:{seq(depth + 1)})", "\n", "[\U00020000-\U00020002]"])

    def seq(depth: int) -> str:
        return "".join(atom(depth) for _ in range(rnd.randint(1, 3)))

    wrapped = 0
    for _ in range(3000):
        pattern = "|".join(seq(0) for _ in range(rnd.randint(1, 4)))
        try:
            rx = re.compile(pattern, rnd.choice([0, re.MULTILINE, re.DOTALL]))
        except re.error:
            continue
        q = quick(rx)
        wrapped += q is not rx
        for _ in range(20):
            t = "".join(rnd.choice(chars + "的是\n\U00020001") for _ in range(rnd.randint(0, 12)))
            assert _found(q, t) == _found(rx, t), (pattern, t)
            assert prefilter.sub(rx, "#", t) == rx.sub("#", t), (pattern, t)
    assert wrapped > 300
