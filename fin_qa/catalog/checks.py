"""rules/checks.yaml: the accounting identities every report's statements must satisfy."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .formulas import FormulaError, parse_expr
from .vocabulary import Vocabulary
from .yamlfile import LDict, RuleError, line_of, load_rules_yaml


@dataclass(frozen=True)
class Check:
    name: str
    left: tuple            # expression trees over canonical items (catalog.formulas.parse_expr)
    right: tuple
    items: tuple[str, ...]
    line: int
    at_most: bool = False  # left ≤ right (a part and the whole that bounds it), not left = right


@dataclass(frozen=True)
class Essentials:
    """The items a kind of report (general, bank, insurer, broker) must print in its consolidated
    statements, in both periods; a report is of the first kind whose name pattern or marker items match."""
    kind: str
    items: tuple[str, ...]                 # "A|B": either one
    names: re.Pattern | None = None        # the company's name says the kind (银行, 保险, 证券)
    markers: tuple[str, ...] = ()          # … or one of these items is among its facts (吸收存款)
    line: int = 0


@dataclass(frozen=True)
class CheckRules:
    checks: tuple[Check, ...] = ()
    tolerance: float = 1.0
    relative: float = 1e-5
    summary: tuple[str, ...] = ()          # items the summary table must print as the statements do
    previous_report: tuple[str, ...] = ()  # items the previous-period column must print as last year's report
    essentials: tuple[Essentials, ...] = ()  # by kind, the last one the default (general)

    def kind_of(self, names: str, items: set[str]) -> Essentials | None:
        """The essentials of a report whose names are `names` and whose facts hold `items`."""
        for e in self.essentials:
            if (e.names is not None and e.names.search(names)) or any(m in items for m in e.markers):
                return e
        return next((e for e in self.essentials if e.names is None and not e.markers), None)


def _items(tree: tuple) -> list[str]:
    if tree[0] == "var":
        return [tree[1]]
    if tree[0] == "num":
        return []
    return [i for sub in tree[1:] for i in _items(sub)]


def load_checks(path: Path, vocab: Vocabulary) -> CheckRules:
    if not path.is_file():
        return CheckRules()
    data = load_rules_yaml(path)
    if not isinstance(data, LDict) or not isinstance(data.get("checks"), list):
        raise RuleError(path, line_of(data), "expected `checks:` — a list of {name, left, right}")
    labels = sorted(vocab.items, key=len, reverse=True)
    out = []
    for e in data["checks"]:
        line = line_of(e)
        if not isinstance(e, dict) or not {"name", "left", "right"} <= set(e):
            raise RuleError(path, line, "a check needs name, left and right")
        trees = []
        for side in ("left", "right"):
            try:
                trees.append(parse_expr(str(e[side]), labels))
            except (FormulaError, ValueError) as exc:
                raise RuleError(path, line, f"{side}: {str(exc).split(' (inputs')[0]}") from None
        items = tuple(dict.fromkeys(_items(trees[0]) + _items(trees[1])))
        unknown = [i for i in items if i not in vocab.items]
        if unknown:
            raise RuleError(path, line, f"unknown item(s) {unknown}")
        if not isinstance(e.get("at_most", False), bool):
            raise RuleError(path, line, "at_most: expected true or false")
        out.append(Check(str(e["name"]), trees[0], trees[1], items, line, bool(e.get("at_most", False))))
    for key in ("tolerance", "relative"):
        if key in data and not isinstance(data[key], (int, float)):
            raise RuleError(path, data.key_lines.get(key, 1), f"{key} must be a number")
    lists = {}
    for key in ("summary", "previous_report"):
        value = data.get(key) or []
        line = data.key_lines.get(key, 1)
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
            raise RuleError(path, line, f"{key}: expected a list [..] of items")
        unknown = [i for i in value if i not in vocab.items]
        if unknown:
            raise RuleError(path, line, f"{key}: unknown item(s) {unknown}")
        lists[key] = tuple(value)
    return CheckRules(tuple(out), float(data.get("tolerance", 1.0)), float(data.get("relative", 1e-5)), **lists,
                      essentials=_essentials(path, data, vocab))


def _essentials(path: Path, data: LDict, vocab: Vocabulary) -> tuple[Essentials, ...]:
    """`essentials:` kind → {items, names (regex), markers}; the kind with neither names nor markers is the
    default, checked last."""
    raw = data.get("essentials") or {}
    if not isinstance(raw, dict):
        raise RuleError(path, data.key_lines.get("essentials", 1), "essentials: expected kind → {items, names, markers}")
    out = []
    for kind, e in raw.items():
        line = raw.key_lines.get(kind, 1) if isinstance(raw, LDict) else 1
        if not isinstance(e, dict) or not isinstance(e.get("items"), list) or not e["items"]:
            raise RuleError(path, line, f"essentials.{kind}: expected items: [..] (and names, markers)")
        lists = {k: e.get(k) or [] for k in ("items", "markers")}
        for k, value in lists.items():
            unknown = [i for x in value for i in str(x).split("|") if i not in vocab.items]
            if not all(isinstance(x, str) for x in value) or unknown:
                raise RuleError(path, line, f"essentials.{kind}.{k}: unknown item(s) {unknown}")
        names = None
        if e.get("names"):
            try:
                names = re.compile(str(e["names"]))
            except re.error as exc:
                raise RuleError(path, line, f"essentials.{kind}.names: bad regex: {exc}") from None
        out.append(Essentials(str(kind), tuple(lists["items"]), names, tuple(lists["markers"]), line))
    # the default kind (no names, no markers) last
    return tuple(sorted(out, key=lambda x: x.names is None and not x.markers))
