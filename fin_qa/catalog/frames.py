"""keyword_tables/frames.yaml (table kinds, section rows, row aliases, levels) and rules/frames.yaml (the
words of an operation over a table's rows), read for fin_qa/answer/frames.py. `fin-qa rules check`
reports a problem as file:line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from .lexicon import named_in, named_words
from .yamlfile import LDict, RuleError, line_of, load_rules_yaml, rule_regex


@dataclass(frozen=True)
class TableKind:
    name: str
    title: tuple[str, ...]      # words of its caption or last heading
    header: tuple[str, ...]     # words of its header cells
    asked: tuple[str, ...]      # words a question names its rows by
    measure: tuple[str, ...] = ()   # the column a rank reads when the question names none
    whole: tuple[str, ...] = ()     # title words of a table listing every row (a count or sum reads only it)
    strong: tuple[str, ...] = ()    # words deciding the kind wherever printed (title or header)
    columns: tuple[str, ...] = ()   # header words that title a table as its kind when its title does not


@dataclass(frozen=True)
class Section:
    name: str
    row: tuple[str, ...]        # the section row as printed (分行业)
    asked: tuple[str, ...]      # words a question names it by (行业)


@dataclass(frozen=True)
class FrameWords:
    kinds: tuple[TableKind, ...] = ()
    sections: tuple[Section, ...] = ()
    aliases: tuple[frozenset[str], ...] = ()
    levels: dict[str, tuple[int, int]] = field(default_factory=dict)
    filtered: tuple[str, ...] = ()
    said_for: tuple[tuple[str, str], ...] = ()   # (a question's words, the header's), longest first
    parent: tuple[str, ...] = ()                 # headings over the parent company's own notes
    qualified: tuple[str, ...] = ()              # header words of a figure that is not the plain amount
    # rules/frames.yaml
    rank_max: tuple[str, ...] = ()
    rank_min: tuple[str, ...] = ()
    rank_nth: re.Pattern | None = None
    rank_within: re.Pattern | None = None
    which: tuple[str, ...] = ()
    share: re.Pattern | None = None
    and_up: tuple[str, ...] = ()
    and_down: tuple[str, ...] = ()
    add: tuple[str, ...] = ()
    count: re.Pattern | None = None
    count_words: tuple[str, ...] = ()
    each: re.Pattern | None = None   # every row of a group asked ("前五名客户的销售额分别是多少", "各地区的营业收入")

    @cached_property
    def section_rows(self) -> tuple[dict[str, str], re.Pattern | None]:
        """Each section row as printed → its section's name, and a regex of those rows at a label's start
        (longest first), worked out once."""
        section_of = {w: s.name for s in self.sections for w in s.row}
        rx = re.compile("^(?:" + "|".join(map(re.escape, sorted(section_of, key=len, reverse=True))) + ")") \
            if section_of else None
        return section_of, rx

    def alias_of(self, word: str) -> frozenset[str]:
        """The labels naming the row a word names (itself alone when it has no aliases)."""
        return next((a for a in self.aliases if word in a), frozenset((word,)))


def _words(path: Path, data: LDict, key: str, where: str = "") -> tuple[str, ...]:
    value = data.get(key) or []
    if not isinstance(value, list) or not all(isinstance(w, str) and w for w in value):
        raise RuleError(path, line_of(data), f"`{where}{key}:` must be a list [..] of words")
    # ('{sum}': the lexicon's list of that name, its words here)
    value = named_words(path, data.key_lines.get(key, line_of(data)), f"{where}{key}", value)
    return tuple(sorted(dict.fromkeys(value), key=len, reverse=True))


def _regex(path: Path, data: LDict, key: str, groups: tuple[str, ...]) -> re.Pattern:
    text = data.get(key)
    line = data.key_lines.get(key, line_of(data))
    if not isinstance(text, str) or not text:
        raise RuleError(path, line, f"`{key}:` must be a regex")
    rx = rule_regex(path, line, key, str(named_in(path, line, key, text)))   # ({each}: the lexicon's)
    missing = [g for g in groups if g not in rx.groupindex]
    if missing:
        raise RuleError(path, line, f"`{key}:` needs the named group(s) {', '.join(missing)}")
    return rx


def load_frame_words(tables: Path, rules: Path) -> FrameWords:
    if not tables.is_file() or not rules.is_file():
        return FrameWords()
    data = load_rules_yaml(tables)
    if not isinstance(data, LDict):
        raise RuleError(tables, 1, "expected kinds, sections, aliases and levels (see the file's head)")
    kinds = []
    for name, spec in (data.get("kinds") or {}).items():
        if not isinstance(spec, LDict):
            raise RuleError(tables, line_of(data), f"kinds.{name} must map title/header/asked to words")
        kinds.append(TableKind(name, *(_words(tables, spec, k, f"kinds.{name}.")
                                       for k in ("title", "header", "asked", "measure", "whole", "strong",
                                                 "columns"))))
    sections = []
    for name, spec in (data.get("sections") or {}).items():
        if not isinstance(spec, LDict):
            raise RuleError(tables, line_of(data), f"sections.{name} must map row/asked to words")
        sections.append(Section(name, *(_words(tables, spec, k, f"sections.{name}.") for k in ("row", "asked"))))
    aliases = []
    for group in data.get("aliases") or []:
        if not isinstance(group, list) or len(group) < 2 or not all(isinstance(w, str) and w for w in group):
            raise RuleError(tables, line_of(group, line_of(data)), "each of `aliases:` is a list of 2+ labels")
        aliases.append(frozenset(group))
    levels: dict[str, tuple[int, int]] = {}
    raw = data.get("levels") or {}
    if not isinstance(raw, LDict):
        raise RuleError(tables, line_of(data), "`levels:` maps a label to its level (or [low, high])")
    for word, level in raw.items():
        if isinstance(level, int):
            levels[str(word)] = (level, level)
        elif isinstance(level, list) and len(level) == 2 and all(isinstance(x, int) for x in level):
            levels[str(word)] = (level[0], level[1])
        else:
            raise RuleError(tables, raw.key_lines.get(word, line_of(raw)), f"levels.{word}: a number or [low, high]")

    said = data.get("said_for") or {}
    if not isinstance(said, dict) or not all(isinstance(k, str) and k and isinstance(v, str) and v for k, v in said.items()):
        raise RuleError(tables, line_of(data), "`said_for:` maps a question's words to a header's words")
    r = load_rules_yaml(rules)
    if not isinstance(r, LDict) or not isinstance(r.get("rank"), LDict) or not isinstance(r.get("sum"), LDict):
        raise RuleError(rules, 1, "expected rank, share, sum and count (see the file's head)")
    rank, sums = r["rank"], r["sum"]
    return FrameWords(tuple(kinds), tuple(sections), tuple(aliases), levels, _words(tables, data, "filtered"),
                      tuple(sorted(said.items(), key=lambda kv: -len(kv[0]))), _words(tables, data, "parent"),
                      _words(tables, data, "qualified"),
                      _words(rules, rank, "max", "rank."), _words(rules, rank, "min", "rank."),
                      _regex(rules, rank, "nth", ("n",)), _regex(rules, rank, "within", ()),
                      _words(rules, rank, "which", "rank."),
                      _regex(rules, r, "share", ("whole",)),
                      _words(rules, sums, "and_up", "sum."), _words(rules, sums, "and_down", "sum."),
                      _words(rules, sums, "add", "sum."), _regex(rules, r, "count", ("group",)),
                      _words(rules, r, "count_words"), _regex(rules, r, "each", ()))
