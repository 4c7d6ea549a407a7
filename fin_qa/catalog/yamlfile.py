"""Reading the files maintainers edit (rules/, formulas/, keyword_tables/) with line numbers.

Every mapping and list read here remembers the line it starts on, so a problem found later — a formula
input no table knows, a rule with an unknown feature — is reported as `file:line: problem`.
"""
from __future__ import annotations

from pathlib import Path

import yaml

from . import FinQAError


class LDict(dict):
    line: int = 0
    key_lines: dict = {}   # key → the line it is written on


class LList(list):
    line: int = 0


class _Loader(yaml.SafeLoader):
    pass


def _mapping(loader, node):
    d = LDict(loader.construct_mapping(node, deep=True))
    d.line = node.start_mark.line + 1
    d.key_lines = {loader.construct_object(k, deep=True): k.start_mark.line + 1 for k, _ in node.value}
    return d


def _sequence(loader, node):
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


def line_of(obj, default: int = 1) -> int:
    return getattr(obj, "line", default) or default


def load_rules_yaml(path: Path):
    """A YAML file whose mappings/lists carry `.line`; a syntax error is a RuleError."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RuleError(path, 1, f"cannot read: {exc.strerror or exc}") from None
    try:
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise RuleError(path, (mark.line + 1) if mark else 1, f"YAML syntax: {exc.problem or exc}") from None
    except yaml.YAMLError as exc:
        raise RuleError(path, 1, f"YAML: {exc}") from None
