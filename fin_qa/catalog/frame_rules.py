"""rules/understanding.yaml `frame:` and `company_names:` — the cues that fill the question frame
(years, periods, operations, unit, scope, a formula spelled out) and the meaning-bearing cues that must
not be left unused; the parts people drop from company names. Every regex is compiled with its
file:line, so a broken one is reported by `fin-qa rules check`."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from .lexicon import named_in
from .yamlfile import LDict, RuleError, line_of, rule_regex

PERIODS = ("opening", "closing", "previous", "current")
OPERATIONS = ("cagr", "growth", "change", "verb_amount", "verb_rate", "rate_words", "amount_words", "compared_how", "sum", "difference",
              "average", "times")
SCOPES = ("parent", "consolidated")
CUE_SLOTS = ("period", "operation", "unit", "scope", "modifier", "filter", "comparison", "entity")


@dataclass
class FrameRules:
    year_short: re.Pattern
    year_chinese: re.Pattern
    each_year: re.Pattern
    each_asked: re.Pattern                         # several asked each (分别, 各是): no sum of them
    sum_asked: re.Pattern                          # several asked as one sum (之和, A加B)
    total_asked: re.Pattern                        # a total asked (合计, 总额) where a value per share is printed
    trend: re.Pattern
    periods: list[tuple[str, re.Pattern]]          # (period, cue) in file order
    base: re.Pattern
    operations: dict[str, re.Pattern]
    spelled: list[re.Pattern]
    spelled_share: re.Pattern   # a share of several items ("销售、管理、财务费用之和占营业收入的比例"): groups a, b
    listed_heads: re.Pattern    # items listed by their heads, one tail after the last ("销售、管理、财务费用")
    scope: list[tuple[str, re.Pattern]]
    approx: re.Pattern
    decimals_step: re.Pattern
    integer: re.Pattern
    unit_more: re.Pattern
    unit_bare: re.Pattern
    relative: re.Pattern
    restated: re.Pattern
    cues: list[tuple[str, re.Pattern]]             # (slot, cue)
    bare_words: tuple[str, ...]                    # item words read only where they stand alone
    bare_before: re.Pattern                        # what may stand before them
    bare_after: re.Pattern                         # what may not follow them (利润表)
    harmless: re.Pattern
    ask: re.Pattern                                # words asking for a value or a name (a clause's ask)


class WordIndex(NamedTuple):
    """A word list of the company-name rules as the names are cut by it: every word, and the words by their
    first and by their last character (each in the list's order)."""
    words: frozenset[str]
    by_first: dict[str, tuple[str, ...]]
    by_last: dict[str, tuple[str, ...]]


def word_index(words: tuple[str, ...]) -> WordIndex:
    """The list's WordIndex; a word of no character is none (it would start and end every name)."""
    if "" in words:
        raise ValueError("a company-name word list holds an empty word")
    first: dict[str, list[str]] = {}
    last: dict[str, list[str]] = {}
    for w in words:
        first.setdefault(w[0], []).append(w)
        last.setdefault(w[-1], []).append(w)
    return WordIndex(frozenset(words), {k: tuple(v) for k, v in first.items()},
                     {k: tuple(v) for k, v in last.items()})


@dataclass(frozen=True)
class CompanyNameRules:
    """rules/understanding.yaml `company_names:` (the loader sorts each word list longest first:
    集团股份有限公司 is cut before 股份有限公司). Made whole and never changed, so that the lists' indexes,
    made with them, stay theirs; a list with an empty word is refused as the rules are made."""
    legal_forms: tuple[str, ...] = ()
    regions: tuple[str, ...] = ()
    trade_words: tuple[str, ...] = ()
    share_suffixes: tuple[str, ...] = ()
    min_chars: int = 2
    boundary: re.Pattern | None = None   # what must stand before or after a spoken form
    line: int = 0
    used: bool = False   # false: only the registered names (no rules given)
    legal_form_index: WordIndex = field(init=False, repr=False, compare=False)
    region_index: WordIndex = field(init=False, repr=False, compare=False)
    trade_word_index: WordIndex = field(init=False, repr=False, compare=False)
    share_suffix_index: WordIndex = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for words, index in ((self.legal_forms, "legal_form_index"), (self.regions, "region_index"),
                             (self.trade_words, "trade_word_index"), (self.share_suffixes, "share_suffix_index")):
            object.__setattr__(self, index, word_index(words))   # (frozen: set once, here)


def _rx(path: Path, line: int, key: str, text: object, groups: int | None = None,
        names: tuple[str, ...] = ()) -> re.Pattern:
    if not isinstance(text, str) or not text:
        raise RuleError(path, line, f"{key} must be a non-empty regex")
    rx = rule_regex(path, line, key, str(named_in(path, line, key, text)))   # ({opening}, {each}: the lexicon's)
    if groups is not None and rx.groups != groups:
        raise RuleError(path, line, f"{key}: regex {text!r} needs exactly {groups} group(s)")
    for n in names:
        if n not in rx.groupindex:
            raise RuleError(path, line, f"{key}: regex {text!r} needs a group (?P<{n}>…)")
    return rx


def _word_list(path: Path, line: int, key: str, value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(w, str) and w for w in value):
        raise RuleError(path, line, f"{key} must be a list of words")
    return tuple(value)


def _section(path: Path, data: LDict, key: str, wanted: tuple[str, ...], required: tuple[str, ...] = ()) -> LDict:
    sec = data.get(key)
    line = data.key_lines.get(key, line_of(data))
    if not isinstance(sec, LDict):
        raise RuleError(path, line, f"{key} must be a mapping of {', '.join(wanted)}")
    unknown = set(sec) - set(wanted)
    if unknown:
        raise RuleError(path, line, f"{key}: unknown key(s) {', '.join(sorted(map(str, unknown)))} "
                                    f"(known: {', '.join(wanted)})")
    missing = [k for k in required if k not in sec]
    if missing:
        raise RuleError(path, line, f"{key}: missing {', '.join(missing)}")
    return sec


def load_frame_rules(path: Path, data: LDict) -> FrameRules:
    top = ("years", "each_year", "trend", "base", "operations", "spelled", "scope", "approx",
           "decimals_step", "integer", "unit_more", "unit_bare", "relative", "restated", "cues", "bare_words", "bare_before", "bare_after", "harmless", "ask",
           "spelled_share", "listed_heads", "each_asked", "sum_asked", "total_asked")
    frame = _section(path, data, "frame", top, top)

    def line(sec: LDict, key: str) -> int:
        return sec.key_lines.get(key, line_of(sec))

    years = _section(path, frame, "years", ("short", "chinese"), ("short", "chinese"))
    # (a pattern names the lexicon's word lists — {opening}, {each} … —, written in as it compiles: rule_regex)
    ops = _section(path, frame, "operations", OPERATIONS, OPERATIONS)
    scope = _section(path, frame, "scope", SCOPES, SCOPES)
    cues = _section(path, frame, "cues", CUE_SLOTS, CUE_SLOTS)
    spelled = frame["spelled"]
    if not isinstance(spelled, list) or not spelled:
        raise RuleError(path, line(frame, "spelled"), "frame.spelled must be a list of regexes with groups a and b")
    return FrameRules(
        year_short=_rx(path, line(years, "short"), "frame.years.short", years["short"], 1),
        year_chinese=_rx(path, line(years, "chinese"), "frame.years.chinese", years["chinese"], 1),
        each_year=_rx(path, line(frame, "each_year"), "frame.each_year", frame["each_year"]),
        each_asked=_rx(path, line(frame, "each_asked"), "frame.each_asked", frame["each_asked"]),
        sum_asked=_rx(path, line(frame, "sum_asked"), "frame.sum_asked", frame["sum_asked"]),
        total_asked=_rx(path, line(frame, "total_asked"), "frame.total_asked", frame["total_asked"]),
        trend=_rx(path, line(frame, "trend"), "frame.trend", frame["trend"]),
        periods=[(p, _rx(path, line(frame, "base"), f"period_words.{p}", "{" + p + "}")) for p in PERIODS],
        base=_rx(path, line(frame, "base"), "frame.base", frame["base"]),
        operations={k: _rx(path, line(ops, k), f"frame.operations.{k}", ops[k]) for k in OPERATIONS},
        spelled=[_rx(path, line_of(spelled, line(frame, "spelled")), "frame.spelled", s, names=("a", "b"))
                 for s in spelled],
        spelled_share=_rx(path, line(frame, "spelled_share"), "frame.spelled_share", frame["spelled_share"],
                          names=("a", "b")),
        listed_heads=_rx(path, line(frame, "listed_heads"), "frame.listed_heads", frame["listed_heads"],
                         names=("heads", "tail")),
        scope=[(s, _rx(path, line(scope, s), f"frame.scope.{s}", scope[s])) for s in SCOPES],
        approx=_rx(path, line(frame, "approx"), "frame.approx", frame["approx"]),
        decimals_step=_rx(path, line(frame, "decimals_step"), "frame.decimals_step", frame["decimals_step"], 1),
        integer=_rx(path, line(frame, "integer"), "frame.integer", frame["integer"]),
        unit_more=_rx(path, line(frame, "unit_more"), "frame.unit_more", frame["unit_more"], 1),
        relative=_rx(path, line(frame, "relative"), "frame.relative", frame["relative"]),
        restated=_rx(path, line(frame, "restated"), "frame.restated", frame["restated"]),
        unit_bare=_rx(path, line(frame, "unit_bare"), "frame.unit_bare", frame["unit_bare"], 1),
        cues=[(c, _rx(path, line(cues, c), f"frame.cues.{c}", cues[c])) for c in CUE_SLOTS],
        bare_words=_word_list(path, line(frame, "bare_words"), "frame.bare_words", frame["bare_words"]),
        bare_before=_rx(path, line(frame, "bare_before"), "frame.bare_before", frame["bare_before"]),
        bare_after=_rx(path, line(frame, "bare_after"), "frame.bare_after", frame["bare_after"]),
        harmless=_rx(path, line(frame, "harmless"), "frame.harmless", frame["harmless"]),
        ask=_rx(path, line(frame, "ask"), "frame.ask", frame["ask"]),
    )


def load_company_names(path: Path, data: LDict) -> CompanyNameRules:
    keys = ("legal_forms", "regions", "trade_words", "share_suffixes", "min_chars", "boundary")
    if "company_names" not in data:
        return CompanyNameRules()
    sec = _section(path, data, "company_names", keys, keys)
    line = data.key_lines.get("company_names", 1)
    lists: dict[str, tuple[str, ...]] = {}
    for key in keys[:-2]:
        words = sec[key]
        if not isinstance(words, list) or not all(isinstance(w, str) and w for w in words):
            raise RuleError(path, sec.key_lines.get(key, line), f"company_names.{key} must be a list of words")
        # longest first: 集团股份有限公司 is cut before 股份有限公司
        lists[key] = tuple(sorted(words, key=len, reverse=True))
    if not isinstance(sec["min_chars"], int) or not 2 <= sec["min_chars"] <= 6:
        raise RuleError(path, sec.key_lines.get("min_chars", line), "company_names.min_chars must be 2-6")
    boundary = _rx(path, sec.key_lines.get("boundary", line), "company_names.boundary", sec["boundary"])
    return CompanyNameRules(**lists, min_chars=sec["min_chars"], boundary=boundary, line=line, used=True)
