"""rules/periods.yaml: how a periodic filing names itself (its period and kind), and the words of a question
naming a period of a year (issue 44). Every pattern compiles and meets its own examples (`must`, `must_not`),
checked by `fin-qa rules check`."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .yamlfile import LDict, LList, RuleError, line_of, load_rules_yaml, rule_regex

CODES = ("Q1", "HY", "Q3", "FY")                       # a filing's period within its year
PERIOD_ORDER = {"Q1": 0, "HY": 1, "Q3": 2, "FY": 3}    # the order of a year's filings
FILING_WORDS = {"Q1": "第一季度", "HY": "半年度", "Q3": "第三季度", "FY": "年度"}   # as a filing's title says it
QUESTION_PERIODS = ("Q1", "Q2", "Q3", "Q4", "HY", "H2", "latest")   # (a year: the annual path's)
SPANS = ("ytd", "quarter", "both", "end")
KINDS = ("report", "summary")
TITLE_GROUPS = {"q1": "Q1", "hy": "HY", "q3": "Q3", "fy": "FY"}
# an interim filing's printed change on the same period a year before (本报告期比上年同期增减变动幅度(%)), in %, stored
# as a period of its own beside the flow's column it is printed for (its current, or a third quarter's 7-9月 alone)
CHANGES = {"current": "change", "quarter": "quarter_change"}


@dataclass(frozen=True)
class FilingSays:
    """A sentence of a filing's 重要提示 naming its period and kind ("本半年度报告摘要来自半年度报告全文")."""
    code: str
    kind: str
    pattern: re.Pattern


@dataclass(frozen=True)
class PeriodWords:
    """The words of a question naming a period: which period of the year and which span of it."""
    period: str
    span: str
    pattern: re.Pattern


@dataclass(frozen=True)
class PeriodRules:
    titles: tuple[re.Pattern, ...] = ()
    says: tuple[FilingSays, ...] = ()
    file_names: tuple[re.Pattern, ...] = ()
    published: tuple[re.Pattern, ...] = ()       # a file name's publish date (group date: YYYYMMDD)
    notes: tuple[re.Pattern, ...] = ()           # what only a research note prints (not a filing)
    questions: tuple[PeriodWords, ...] = field(default=())
    modifiers: tuple[PeriodWords, ...] = field(default=())   # period "", a span: 单季, 累计


def _examples(path: Path, entry: LDict, rx: re.Pattern) -> None:
    for key, want in (("must", True), ("must_not", False)):
        examples = entry.get(key) or []
        if not isinstance(examples, list):
            raise RuleError(path, entry.key_lines.get(key, line_of(entry)), f"{key}: expected a list of examples")
        for ex in examples:
            if bool(rx.search(str(ex))) != want:
                raise RuleError(path, entry.key_lines.get(key, line_of(entry)),
                                f"{key}: {ex!r} {'does not match' if want else 'matches'} {rx.pattern!r}")


def _pattern(path: Path, entry: object, key: str, groups: set[str] | None = None) -> re.Pattern:
    if not isinstance(entry, LDict) or not isinstance(entry.get(key), str):
        raise RuleError(path, line_of(entry), f"expected a mapping with `{key}:` (a regex)")
    rx = rule_regex(path, entry.key_lines.get(key, line_of(entry)), key, entry[key])
    if groups is not None and not (set(rx.groupindex) & groups and "year" in rx.groupindex):
        raise RuleError(path, line_of(entry), f"{key}: needs the group year and one of {', '.join(sorted(groups))}")
    _examples(path, entry, rx)
    return rx


def _choice(path: Path, entry: LDict, key: str, allowed: tuple[str, ...]) -> str:
    value = entry.get(key)
    if value not in allowed:
        raise RuleError(path, entry.key_lines.get(key, line_of(entry)), f"{key}: {value!r} is not one of {', '.join(allowed)}")
    return str(value)


def _list(path: Path, data: object, key: str) -> LList:
    value = data.get(key) if isinstance(data, dict) else None
    if not isinstance(value, list):
        raise RuleError(path, line_of(data), f"expected `{key}:` with a list of patterns")
    return value  # type: ignore[return-value]


def load_period_rules(path: Path) -> PeriodRules:
    data = load_rules_yaml(path)
    if not isinstance(data, LDict) or not isinstance(data.get("filings"), LDict):
        raise RuleError(path, 1, "expected `filings:` (title, says, file_name) and `questions:`")
    filings = data["filings"]
    titles = tuple(_pattern(path, e, "pattern", set(TITLE_GROUPS)) for e in _list(path, filings, "title"))
    names = tuple(_pattern(path, e, "pattern", set(TITLE_GROUPS)) for e in _list(path, filings, "file_name"))
    published = tuple(_pattern(path, e, "pattern") for e in _list(path, filings, "published"))
    notes = tuple(_pattern(path, e, "pattern") for e in _list(path, filings, "notes"))
    for rx, e in zip(published, _list(path, filings, "published")):
        if "date" not in rx.groupindex:
            raise RuleError(path, line_of(e), "published: needs the group date (YYYYMMDD)")
    says = tuple(FilingSays(_choice(path, e, "code", CODES), _choice(path, e, "kind", KINDS), _pattern(path, e, "pattern"))
                 for e in _list(path, filings, "says"))
    questions = tuple(PeriodWords(_choice(path, e, "period", QUESTION_PERIODS), _choice(path, e, "span", SPANS),
                                  _pattern(path, e, "words")) for e in _list(path, data, "questions"))
    modifiers = tuple(PeriodWords("", _choice(path, e, "span", SPANS), _pattern(path, e, "words"))
                      for e in _list(path, data, "modifiers"))
    return PeriodRules(titles, says, names, published, notes, questions, modifiers)


def title_period(m: re.Match) -> str:
    """The period code (Q1 | HY | Q3 | FY) a title or file-name pattern's match names."""
    return next(code for group, code in TITLE_GROUPS.items() if m.group(group) is not None)
