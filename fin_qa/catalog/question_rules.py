"""rules/question_types.yaml: ordered rules over question features; the first that matches names the
question's type (the answerer) and its contest type label (1, 1-2, 2-1, 2-2, 3-1, 3-2, or auto)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .yamlfile import RuleError, line_of, load_rules_yaml, rule_regex

TYPES = {"lookup", "formula", "change", "compare", "statistics", "text", "open", "not_found", "not_understood",
         "distribution", "advice"}
FINGLM = {"1", "1-2", "2-1", "2-2", "3-1", "3-2", "auto"}
BOOL_FEATURES = {"has_company", "has_year", "has_items", "has_formula", "pair_ratio", "has_topic"}
FEATURES = BOOL_FEATURES | {"min_years", "any_words", "no_words", "regex", "operation"}
OPERATIONS = {"value", "change", "growth", "cagr", "times", "sum", "difference", "average", "share", "spelled"}


@dataclass
class Features:
    question: str
    has_company: bool
    has_year: bool
    years: int
    has_items: bool
    has_formula: bool
    pair_ratio: bool = False     # two items and "A占B的比例"-style words (understanding.yaml pair_ratio)
    has_topic: bool = False      # a text topic of keyword_tables/sections.yaml is named (主要销售客户, 重大诉讼 …)
    operation: str = "value"     # the frame's operation: value, change, growth, sum, difference, average, share


@dataclass
class Rule:
    type: str
    finglm: str
    when: dict
    line: int
    regex: re.Pattern | None = None

    def __post_init__(self) -> None:
        # the conditions as checked: the features' own values first, the words and the regex after (all must
        # hold, so the order changes no result; a question most rules do not fit is told so by a flag)
        cost = {"any_words": 1, "no_words": 1, "regex": 2}
        self._checks = sorted(self.when.items(), key=lambda kv: cost.get(kv[0], 0))
        self._words = {k: (re.compile("|".join(map(re.escape, v))) if v else None)
                       for k, v in self.when.items() if k in ("any_words", "no_words")}

    def matches(self, f: Features) -> bool:
        for key, want in self._checks:
            if key in BOOL_FEATURES:
                if getattr(f, key) != want:
                    return False
            elif key == "min_years":
                if f.years < want:
                    return False
            elif key == "operation":
                if f.operation not in want:
                    return False
            elif key == "any_words":
                rx = self._words[key]
                if rx is None or not rx.search(f.question):
                    return False
            elif key == "no_words":
                rx = self._words[key]
                if rx is not None and rx.search(f.question):
                    return False
            elif key == "regex":
                assert self.regex is not None   # load_rules compiles one for every rule with `regex`
                if not self.regex.search(f.question):
                    return False
        return True


def load_rules(path: Path) -> list[Rule]:
    data = load_rules_yaml(path)
    entries = data.get("rules") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not entries:
        raise RuleError(path, line_of(data), "expected `rules:` — a non-empty list of {type, finglm, when}")
    rules = []
    for e in entries:
        line = line_of(e)
        if not isinstance(e, dict) or "type" not in e:
            raise RuleError(path, line, "a rule needs `type` (and usually `when`)")
        if e["type"] not in TYPES:
            raise RuleError(path, line, f"unknown type {e['type']!r} (one of {', '.join(sorted(TYPES))})")
        finglm = str(e.get("finglm", "auto"))
        if finglm not in FINGLM:
            raise RuleError(path, line, f"unknown finglm type {finglm!r} (one of {', '.join(sorted(FINGLM))})")
        when = e.get("when") or {}
        if not isinstance(when, dict):
            raise RuleError(path, line, "`when` must be a mapping of feature → condition")
        rx = None
        for key, val in when.items():
            wline = line_of(when, line)
            if key not in FEATURES:
                raise RuleError(path, wline, f"unknown feature {key!r} (one of {', '.join(sorted(FEATURES))})")
            if key in BOOL_FEATURES and not isinstance(val, bool):
                raise RuleError(path, wline, f"{key} must be true or false")
            if key == "min_years" and not isinstance(val, int):
                raise RuleError(path, wline, "min_years must be a whole number")
            if key in ("any_words", "no_words") and not (isinstance(val, list) and all(isinstance(w, str) for w in val)):
                raise RuleError(path, wline, f"{key} must be a list of words")
            if key == "operation" and not (isinstance(val, list) and val and set(val) <= OPERATIONS):
                raise RuleError(path, wline, f"operation must be a list of {', '.join(sorted(OPERATIONS))}")
            if key == "regex":
                rx = rule_regex(path, wline, "regex", str(val))
        rules.append(Rule(e["type"], finglm, dict(when), line, rx))
    return rules
