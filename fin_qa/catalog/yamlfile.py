"""Reading the files maintainers edit (rules/, formulas/, keyword_tables/) with line numbers.

Every mapping and list read here remembers the line it starts on, so a problem found later — a formula
input no table knows, a rule with an unknown feature — is reported as `file:line: problem`. A file
that is not UTF-8 (a rule file saved as GBK by an editor) is one problem with the line of its first bad
byte; a YAML syntax error is one line too (PyYAML's multi-line text is folded into it).
"""
from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

import yaml

from ..base import FinQAError


class LDict(dict):
    """A mapping read from a rule file: `.line` where it starts, `.key_lines` where each key is."""

    line: int = 0
    key_lines: dict[Any, int] = {}   # key → the line it is written on


class LList(list):
    """A list read from a rule file: `.line` where it starts."""

    line: int = 0


# libyaml's parser when PyYAML has it (5x faster: the catalog is loaded before every command), with
# the same safe constructors and the same line marks
_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_Base):  # type: ignore[valid-type,misc]  # a base chosen at import time
    pass


def _mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> LDict:
    d = LDict(loader.construct_mapping(node, deep=True))
    d.line = node.start_mark.line + 1
    d.key_lines = {loader.construct_object(k, deep=True): k.start_mark.line + 1 for k, _ in node.value}
    return d


def _sequence(loader: yaml.SafeLoader, node: yaml.SequenceNode) -> LList:
    seq = LList(loader.construct_sequence(node, deep=True))
    seq.line = node.start_mark.line + 1
    return seq


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _sequence)


class RuleError(FinQAError):
    """A rules file is broken: the message is `file:line: problem`."""

    def __init__(self, path: Path | str, line: int | None, problem: str):
        self.path, self.line, self.problem = str(path), line or 1, problem
        super().__init__(f"{self.path}:{self.line}: {problem}")


def line_of(obj: object, default: int = 1) -> int:
    return getattr(obj, "line", default) or default


def read_text(path: Path) -> str:
    """A rule file's text; not readable or not UTF-8 is a RuleError with the line of the first bad byte."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RuleError(path, 1, f"cannot read: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise RuleError(path, line, "not UTF-8 text (saved as GBK?): save the file as UTF-8") from None


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


def load_rules_yaml(path: Path) -> Any:
    """A YAML file whose mappings/lists carry `.line`; a syntax error is a RuleError."""
    text = read_text(path)
    try:
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise RuleError(path, (mark.line + 1) if mark else 1, f"YAML syntax: {_one_line(exc.problem or exc)}") from None
    except yaml.YAMLError as exc:
        raise RuleError(path, 1, f"YAML: {_one_line(exc)}") from None


# the compiler of the re module (Python 3.11+, as setup.cfg requires): a pattern parsed and compiled once, past
# re's cache, so that Python's warnings about it (which its parser gives) are heard
_compile = re._compiler.compile  # type: ignore[attr-defined]
_CLEAN: dict[str, re.Pattern] = {}   # a rule's pattern → compiled, heard without a warning (each rules load)


def rule_regex(path: Path | str, line: int, key: str, text: str) -> re.Pattern:
    """A rule's regex compiled; a bad one, or one Python warns about (a possible nested set "[[", a
    possible set difference "--" …, which a later Python reads otherwise), is a RuleError at its line.
    (Compiled past re's cache, which would keep a compiled one quiet — parsed once, not apart and again —
    and kept once heard clean: the same pattern object every load.)"""
    rx = _CLEAN.get(text)
    if rx is not None:
        return rx
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            rx = _compile(text, 0)
        except re.error as exc:
            raise RuleError(path, line, f"{key}: bad regex {text!r}: {exc}") from None
    if caught:
        raise RuleError(path, line, f"{key}: regex {text!r}: Python warns: {caught[0].message} "
                                    "(escape the character: \\[, \\-, \\&, \\~, \\|)")
    if len(_CLEAN) > 16_384:
        _CLEAN.clear()
    _CLEAN[text] = rx
    return rx
