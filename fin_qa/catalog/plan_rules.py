"""rules/plan.yaml: how a question is cut into asks — clause ends, the ask words, clauses that apply to
every ask, back-references, clauses without a subject of their own, comparisons over earlier asks, the
words that join a list of items (fin_qa/understand/plan.py reads them). Every regex is compiled with its
file:line, so a broken one is reported by `fin-qa rules check`."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .frame_rules import _rx, _word_list
from .yamlfile import LDict, RuleError, line_of, load_rules_yaml

_REGEXES = ("clause_end", "comma", "ask", "every_ask", "reference", "predicate_start", "compare", "list_join",
            "subject_tail", "share_of", "whole", "restated", "each", "connective", "together", "modifier", "which",
            "period_list", "versus", "set_reference", "set_pick", "set_rate", "set_fall", "with_change", "step_mark", "step_verbs")
# the named groups a regex must have
_GROUPS = {"compare": ("order",), "share_of": ("whole",), "restated": ("period", "y", "end", "start"),
           "which": ("who", "more", "order"), "period_list": ("a", "b"), "set_pick": ("order", "order2"), "with_change": ("item",)}


@dataclass(frozen=True)
class PlanRules:
    clause_end: re.Pattern
    comma: re.Pattern
    ask: re.Pattern
    every_ask: re.Pattern
    reference: re.Pattern
    predicate_start: re.Pattern
    compare: re.Pattern
    list_join: re.Pattern
    subject_tail: re.Pattern
    share_of: re.Pattern
    whole: re.Pattern
    restated: re.Pattern
    each: re.Pattern
    connective: re.Pattern
    together: re.Pattern
    modifier: re.Pattern
    which: re.Pattern
    period_list: re.Pattern
    versus: re.Pattern
    set_reference: re.Pattern
    set_pick: re.Pattern
    set_rate: re.Pattern
    set_fall: re.Pattern
    with_change: re.Pattern
    step_mark: re.Pattern
    step_verbs: re.Pattern
    company_measures: dict[str, str]
    set_questions: dict[str, str]
    with_change_asks: str
    higher: tuple[str, ...]
    lower: tuple[str, ...]


def load_plan_rules(path: Path) -> PlanRules | None:
    """The plan rules, or None where the rules folder has no plan.yaml (every question is one ask)."""
    if not path.is_file():
        return None
    data = load_rules_yaml(path)
    if not isinstance(data, LDict):
        raise RuleError(path, 1, f"expected a mapping of {', '.join(_REGEXES)}, higher and lower")
    regexes: dict[str, re.Pattern] = {}
    for key in _REGEXES:
        line = data.key_lines.get(key, line_of(data))
        if key not in data:
            raise RuleError(path, line, f"missing `{key}:` (see the shipped plan.yaml)")
        regexes[key] = _rx(path, line, key, data[key], names=_GROUPS.get(key, ()))
    words = {key: _word_list(path, data.key_lines.get(key, line_of(data)), key, data.get(key))
             for key in ("higher", "lower")}
    measures = data.get("company_measures") or {}
    line = data.key_lines.get("company_measures", line_of(data))
    if not isinstance(measures, dict) or not all(isinstance(k, str) and isinstance(v, str) and k and v
                                                 for k, v in measures.items()):
        raise RuleError(path, line, "`company_measures:` must map a word to the item it names (销售额: 营业收入)")
    asks = data.get("set_questions") or {}
    line = data.key_lines.get("set_questions", line_of(data))
    if not isinstance(asks, dict) or set(asks) != {"rate", "value", "rate_label", "members", "why", "up", "down"} or not all(
            isinstance(v, str) and v for v in asks.values()):
        raise RuleError(path, line, "`set_questions:` needs rate, value, why (questions with {company}, {year}, {items}; "
                                    "why {direction} too), rate_label, members, up and down")
    for key in ("rate", "value", "why"):
        try:
            asks[key].format(company="", year="", items="", direction="")
        except (KeyError, IndexError, ValueError) as exc:
            raise RuleError(path, line, f"set_questions.{key}: only {{company}}, {{year}} and {{items}} ({exc})") from None
    said = data.get("with_change_asks")
    if not isinstance(said, str) or "\\g<item>" not in said:
        raise RuleError(path, data.key_lines.get("with_change_asks", line_of(data)),
                        "`with_change_asks:` needs the asks a value and its change are cut into, with \\g<item>")
    return PlanRules(**regexes, **words, company_measures=dict(measures),  # type: ignore[arg-type]  # (fields, by name)
                     set_questions=dict(asks), with_change_asks=said)
