"""rules/drivers.yaml: the income statement's lines a profit's change is broken into, for a why-question (issue 46).
Every name must be an item of keyword_tables/items.yaml, every pattern meet its examples (`fin-qa rules check`)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .items import ItemTable
from .periods import _list, _pattern
from .yamlfile import LDict, RuleError, line_of, load_rules_yaml


@dataclass(frozen=True)
class DriverRules:
    profits: dict[str, str] = field(default_factory=dict)   # profit → the last line that goes into it
    minus: dict[str, tuple[str, ...]] = field(default_factory=dict)   # profit → the lines taken from it after
    lines: tuple[str, ...] = ()
    shown: int = 3
    asked: tuple[re.Pattern, ...] = ()
    lead: tuple[re.Pattern, ...] = ()

    def lines_of(self, profit: str) -> tuple[str, ...]:
        last = self.profits[profit]
        return self.lines[:self.lines.index(last) + 1] + self.minus.get(profit, ())

    def asks_why(self, text: str) -> bool:
        return any(rx.search(text) for rx in self.asked)


def load_driver_rules(path: Path, items: ItemTable) -> DriverRules:
    data = load_rules_yaml(path)
    if not isinstance(data, LDict):
        raise RuleError(path, 1, "expected `profits:`, `lines:`, `shown:`, `lead:` and `asked:`")
    lines = data.get("lines")
    profits = data.get("profits")
    if not isinstance(lines, list) or not lines or not all(isinstance(x, str) for x in lines):
        raise RuleError(path, data.key_lines.get("lines", line_of(data)), "`lines:` needs a list of item names")
    where = data.key_lines.get("profits", line_of(data))
    if not isinstance(profits, dict) or not profits or not all(
            isinstance(v, dict) and isinstance(v.get("last"), str) and isinstance(v.get("minus", []), list)
            for v in profits.values()):
        raise RuleError(path, where, "`profits:` needs a mapping profit: {last: a line, minus: [lines]}")
    last = {k: v["last"] for k, v in profits.items()}
    minus = {k: tuple(v.get("minus") or ()) for k, v in profits.items()}
    for key, names in (("lines", list(lines)), ("profits", [*profits, *last.values(), *(x for m in minus.values() for x in m)])):
        unknown = [x for x in names if not isinstance(x, str) or x not in items.items]
        if unknown:
            raise RuleError(path, data.key_lines.get(key, line_of(data)),
                            f"{key}: not an item of keyword_tables/items.yaml: {', '.join(map(str, unknown))}")
    missing = [v for v in last.values() if v not in lines]
    if missing:
        raise RuleError(path, data.key_lines.get("profits", line_of(data)),
                        f"profits: the last line must be one of `lines:`: {', '.join(missing)}")
    shown = data.get("shown")
    if not isinstance(shown, int) or shown < 1:
        raise RuleError(path, data.key_lines.get("shown", line_of(data)), "`shown:` needs a whole number of at least 1")
    return DriverRules(last, minus, tuple(lines), shown, tuple(_pattern(path, e, "pattern") for e in _list(path, data, "asked")),
                       tuple(_pattern(path, e, "pattern") for e in _list(path, data, "lead")))
