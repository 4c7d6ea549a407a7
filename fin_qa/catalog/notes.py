"""rules/notes.yaml: how a research note's pages are read (its back matter, noise, headings, figures), its identity
where no info sheet names it, the info sheets' columns, and the words of a question asking what notes say
(issue 46). Every pattern compiles and meets its examples, checked by `fin-qa rules check`."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .periods import _list, _pattern
from .yamlfile import LDict, RuleError, line_of, load_rules_yaml, rule_regex

INFO_FIELDS = ("title", "researcher", "broker", "date", "stock_code", "stock_name", "industry", "rating", "last_rating",
               "target_high", "target_low")
VIEWS = ("who", "rating", "target", "forecast")


@dataclass(frozen=True)
class Forecast:
    column: str        # the info sheet's column (predictThisYearEps)
    measure: str       # what it forecasts (每股收益（EPS）)
    ahead: int         # its year after the note's year


@dataclass(frozen=True)
class NoteRules:
    back_matter: tuple[re.Pattern, ...] = ()
    noise: tuple[re.Pattern, ...] = ()
    headings: tuple[re.Pattern, ...] = ()
    figures: tuple[re.Pattern, ...] = ()
    broker: tuple[re.Pattern, ...] = ()
    date: tuple[re.Pattern, ...] = ()
    code: tuple[re.Pattern, ...] = ()
    info: dict[str, tuple[str, ...]] = field(default_factory=dict)   # field → the sheet's column names
    asked: tuple[re.Pattern, ...] = ()
    function_tags: frozenset[str] = frozenset()
    name_tags: frozenset[str] = frozenset()
    quantity: tuple[re.Pattern, ...] = ()
    filing: tuple[re.Pattern, ...] = ()
    note_words: tuple[re.Pattern, ...] = ()
    views: dict[str, re.Pattern] = field(default_factory=dict)
    forecasts: tuple[Forecast, ...] = ()

    def asks_quantity(self, text: str) -> bool:
        return any(rx.search(text) for rx in self.quantity)

    def asks_filing(self, text: str) -> bool:
        """Whether a question asks what a filing itself prints (年报中…) and names no note."""
        return any(rx.search(text) for rx in self.filing) and not any(rx.search(text) for rx in self.note_words)

    def asks_view(self, view: str, text: str) -> bool:
        rx = self.views.get(view)
        return rx is not None and rx.search(text) is not None

    def asks_notes(self, text: str) -> bool:
        return any(rx.search(text) for rx in self.asked)


def _patterns(path: Path, data: object, key: str, group: str | None = None) -> tuple[re.Pattern, ...]:
    out = tuple(_pattern(path, e, "pattern") for e in _list(path, data, key))
    for rx, e in zip(out, _list(path, data, key)):
        if group and group not in rx.groupindex:
            raise RuleError(path, line_of(e), f"{key}: needs the group {group}")
    return out


def load_note_rules(path: Path) -> NoteRules:
    data = load_rules_yaml(path)
    if not isinstance(data, LDict) or not all(isinstance(data.get(k), LDict) for k in ("reading", "identity", "info")):
        raise RuleError(path, 1, "expected `reading:`, `identity:`, `info:` (mappings) and `asked:`")
    reading, identity, info = data["reading"], data["identity"], data["info"]
    columns: dict[str, tuple[str, ...]] = {}
    for name in INFO_FIELDS:
        value = info.get(name)
        names = [value] if isinstance(value, str) else value if isinstance(value, list) else None
        if not names or not all(isinstance(x, str) and x for x in names):
            raise RuleError(path, info.key_lines.get(name, line_of(info)), f"info: `{name}:` needs a column name or a list of them")
        columns[name] = tuple(names)
    tags = data.get("function_tags")
    if not isinstance(tags, list) or not all(isinstance(t, str) and t for t in tags):
        raise RuleError(path, data.key_lines.get("function_tags", line_of(data)),
                        "`function_tags:` needs a list of part-of-speech tags (their first letters)")
    views_data = data.get("views")
    if not isinstance(views_data, LDict) or set(views_data) != set(VIEWS):
        raise RuleError(path, data.key_lines.get("views", line_of(data)), f"`views:` needs exactly {', '.join(VIEWS)}")
    views = {k: rule_regex(path, views_data.key_lines.get(k, line_of(views_data)), k, str(views_data[k])) for k in VIEWS}
    forecasts = []
    for e in _list(path, data, "forecasts"):
        if not isinstance(e, LDict) or not isinstance(e.get("column"), str) or not isinstance(e.get("measure"), str) \
                or not isinstance(e.get("ahead"), int):
            raise RuleError(path, line_of(e), "forecasts: each needs `column`, `measure` and `ahead` (a whole number)")
        forecasts.append(Forecast(e["column"], e["measure"], e["ahead"]))
    return NoteRules(_patterns(path, reading, "back_matter"), _patterns(path, reading, "noise"),
                     _patterns(path, reading, "heading"), _patterns(path, reading, "figure", "title"),
                     _patterns(path, identity, "broker", "broker"), _patterns(path, identity, "date", "year"),
                     _patterns(path, identity, "code", "code"), columns, _patterns(path, data, "asked"),
                     frozenset(tags), frozenset(data.get("name_tags") or ()), _patterns(path, data, "quantity"), _patterns(path, data, "filing"),
                     _patterns(path, data, "note_words"), views, tuple(forecasts))
