"""Formulas from formulas/*.yaml and the small arithmetic evaluator that computes them (never eval).

An expression is numbers, input labels, + - * / and parentheses. It is parsed once into a tree of
tuples and evaluated over Decimals (or anything with arithmetic, e.g. pandas Series in statistics).
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from .vocabulary import ItemInfo, Vocabulary
from .yamlfile import LDict, RuleError, line_of, load_rules_yaml

OUTPUTS = {"ratio", "percent", "amount", "per_share"}
PREVIOUS = "@上年"


class FormulaError(Exception):
    """A value cannot be computed (division by zero); the answer says so."""


@dataclass(frozen=True)
class Input:
    label: str
    item: str           # canonical item
    offset: int         # 0 this year, -1 the previous year


@dataclass
class Formula:
    name: str
    aliases: tuple[str, ...]
    inputs: dict[str, Input]
    expr: str
    output: str
    decimals: int
    tree: tuple
    file: str = ""
    line: int = 0
    template: bool = False
    # the item the reports print for the same measure on another basis (净资产收益率: the 加权平均 one, by the
    # CSRC's rule), said beside the computed value where the report prints it
    printed: str | None = None

    def evaluate(self, values: Mapping[str, object]) -> Any:
        return evaluate(self.tree, values)


# ------------------------------------------------------------------------------------ evaluator

def parse_expr(expr: str, labels) -> tuple:
    """Parse into ('num', Decimal) | ('var', label) | ('neg', t) | (op, left, right)."""
    names = sorted(labels, key=len, reverse=True)
    tokens: list[tuple[str, str]] = []
    i, s = 0, expr
    while i < len(s):
        ch = s[i]
        if ch.isspace():
            i += 1
            continue
        if ch in "+-*/()":
            tokens.append(("op", ch))
            i += 1
            continue
        m = re.match(r"\d+(?:\.\d+)?", s[i:])
        if m:
            tokens.append(("num", m.group(0)))
            i += len(m.group(0))
            continue
        for n in names:
            if s.startswith(n, i):
                tokens.append(("var", n))
                i += len(n)
                break
        else:
            raise ValueError(f"unknown name at {s[i:i + 12]!r} (inputs: {', '.join(names)})")
    pos = 0

    def peek():
        return tokens[pos] if pos < len(tokens) else (None, None)

    def take():
        nonlocal pos
        if pos >= len(tokens):
            raise ValueError("unexpected end of expression (a ( without its ))")
        pos += 1
        return tokens[pos - 1]

    def expr_():
        node = term()
        while peek() in (("op", "+"), ("op", "-")):
            op = take()[1]
            node = (op, node, term())
        return node

    def term():
        node = factor()
        while peek() in (("op", "*"), ("op", "/")):
            op = take()[1]
            node = (op, node, factor())
        return node

    def factor():
        kind, val = peek()
        if (kind, val) == ("op", "-"):
            take()
            return ("neg", factor())
        if (kind, val) == ("op", "("):
            take()
            node = expr_()
            if peek() != ("op", ")"):
                raise ValueError("missing ) (unbalanced parentheses)")
            take()
            return node
        if kind == "num":
            take()
            return ("num", Decimal(val))
        if kind == "var":
            take()
            return ("var", val)
        raise ValueError(f"unexpected {val or 'end of expression'}")

    tree = expr_()
    if pos != len(tokens):
        raise ValueError(f"unexpected {tokens[pos][1]}")
    return tree


def evaluate(tree: tuple, values: Mapping[str, object]) -> Any:
    op = tree[0]
    if op == "num":
        return tree[1]
    if op == "var":
        return values[tree[1]]
    if op == "neg":
        return -evaluate(tree[1], values)
    a, b = evaluate(tree[1], values), evaluate(tree[2], values)
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if isinstance(b, Decimal) and b == 0:
        raise FormulaError("分母为0")
    return a / b


def tree_vars(tree: tuple) -> set[str]:
    if tree[0] == "var":
        return {tree[1]}
    if tree[0] == "num":
        return set()
    return set().union(*(tree_vars(t) for t in tree[1:]))


# ------------------------------------------------------------------------------------ loading

@dataclass
class FormulaBook:
    formulas: dict[str, Formula] = field(default_factory=dict)
    phrases: dict[str, str] = field(default_factory=dict)      # name/alias → formula name
    derived: dict[str, Formula] = field(default_factory=dict)  # item → how to compute it when absent
    # item → its further ways (a later entry of the same item), tried in order where those before give no value
    derived_else: dict[str, list[Formula]] = field(default_factory=dict)
    derived_notes: dict[str, str] = field(default_factory=dict)  # item → what the answer says when it was
    derived_unless: dict[str, tuple[str, ...]] = field(default_factory=dict)  # item → items that forbid it

    def get(self, name: str) -> Formula | None:
        return self.formulas.get(self.phrases.get(name, name))


def _build(entry: dict, vocab: Vocabulary, path: Path, template: bool = False) -> Formula:
    line = line_of(entry)
    if not isinstance(entry, dict):
        raise RuleError(path, line, "a formula must be a mapping with name, inputs, expr, output")
    missing = [k for k in ("name", "inputs", "expr", "output") if k not in entry]
    if missing:
        raise RuleError(path, line, f"formula {entry.get('name', '?')!r}: missing {', '.join(missing)}")
    name = str(entry["name"])
    if not isinstance(entry["output"], str) or entry["output"] not in OUTPUTS:
        raise RuleError(path, line, f"formula {name!r}: output must be one of {', '.join(sorted(OUTPUTS))}")
    aliases = entry.get("aliases") or []
    if not isinstance(aliases, list):
        raise RuleError(path, line, f"formula {name!r}: aliases must be a list")
    inputs_raw = entry["inputs"]
    if not isinstance(inputs_raw, dict) or not inputs_raw:
        raise RuleError(path, line_of(inputs_raw, line), f"formula {name!r}: inputs must be a mapping label → item")
    inputs: dict[str, Input] = {}
    for label, ref in inputs_raw.items():
        ref = str(ref)
        offset = -1 if ref.endswith(PREVIOUS) else 0
        item_label = ref[: -len(PREVIOUS)] if offset else ref
        item = vocab.canonical(item_label)
        if item is None or vocab.items[item].kind == "text":
            raise RuleError(path, line_of(inputs_raw, line),
                            f"formula {name!r}: input {label!r} → {ref!r} is not a numeric item of keyword_tables/")
        inputs[str(label)] = Input(str(label), item, offset)
    decimals = entry.get("decimals", 2)
    if not isinstance(decimals, int) or not 0 <= decimals <= 10:
        raise RuleError(path, line, f"formula {name!r}: decimals must be a whole number 0-10")
    try:
        tree = parse_expr(str(entry["expr"]), inputs)
    except ValueError as exc:
        raise RuleError(path, line, f"formula {name!r}: expr: {exc}") from None
    unused = set(inputs) - tree_vars(tree)
    if unused:
        raise RuleError(path, line, f"formula {name!r}: inputs not used in expr: {', '.join(sorted(unused))}")
    printed = entry.get("printed")
    if printed is not None:
        printed = vocab.canonical(str(printed))
        if printed is None or vocab.items[printed].kind == "text":
            raise RuleError(path, line, f"formula {name!r}: printed {entry['printed']!r} is not a numeric item of "
                                        "keyword_tables/")
    return Formula(name, tuple(str(a) for a in aliases), inputs, str(entry["expr"]), entry["output"],
                   decimals, tree, str(path), line, template, printed)


def _expand(template: dict, vocab: Vocabulary):
    """One formula entry per numeric item label."""
    for label, item in sorted(vocab.labels.items()):
        info = vocab.items[item]
        if info.kind in ("text", "percent") or re.search(r"[()（）/、]", label) or len(label) < 2:
            continue

        def sub(v):
            return str(v).replace("{label}", label).replace("{item}", item)

        e = LDict({k: v for k, v in template.items()})
        e.line = line_of(template)
        e["name"] = sub(template["name"])
        e["aliases"] = [sub(a) for a in template.get("aliases") or []]
        e["inputs"] = LDict({sub(k): sub(v) for k, v in (template.get("inputs") or {}).items()})
        e["inputs"].line = e.line
        e["expr"] = sub(template["expr"])
        yield e


def load_formulas(directory: Path, vocab: Vocabulary) -> FormulaBook:
    """Every formulas/*.yaml: explicit formulas, templates expanded over the numeric items, derived items."""
    book = FormulaBook()
    templates: list[tuple[Path, dict]] = []
    files = sorted(directory.glob("*.yaml")) if directory.is_dir() else []
    for path in files:
        data = load_rules_yaml(path)
        if data is None:
            continue
        if not isinstance(data, dict) or not ({"formulas", "templates", "derived"} & set(data)):
            raise RuleError(path, 1, "expected a mapping with `formulas:`, `templates:` and/or `derived:` lists")
        unknown = set(data) - {"formulas", "templates", "derived"}
        if unknown:
            raise RuleError(path, 1, f"unknown section(s): {', '.join(sorted(unknown))}")
        for entry in data.get("derived") or []:
            if not isinstance(entry, dict) or "item" not in entry:
                raise RuleError(path, line_of(entry), "a derived entry needs item, inputs, expr")
            words = entry.get("words")
            if words is not None:
                # a compound item (三费): a name of its own, asked like any item, computed from its parts
                if not isinstance(words, list) or not all(isinstance(w, str) and w for w in words):
                    raise RuleError(path, line_of(entry), "words must be a list of the phrases that name the item")
                if vocab.canonical(str(entry["item"])) not in (None, str(entry["item"])):
                    raise RuleError(path, line_of(entry), f"compound item {entry['item']!r} is already a synonym of "
                                                          f"{vocab.canonical(str(entry['item']))!r}")
                clash = [w for w in words if vocab.canonical(w) not in (None, str(entry["item"]))]
                if clash:
                    raise RuleError(path, line_of(entry), f"words {clash} already name other items")
                vocab.add(ItemInfo(str(entry["item"]), "amount", "组合项目", "元"), words)
            item = vocab.canonical(str(entry["item"]))
            if item is None:
                raise RuleError(path, line_of(entry), f"derived item {entry['item']!r} is not in keyword_tables/")
            further = item in book.derived
            if further and (set(entry) - {"item", "inputs", "expr", "output", "decimals"}):
                raise RuleError(path, line_of(entry), f"a further way of deriving {item!r} takes item, inputs, expr "
                                                      "(output, decimals) only: words, note and unless are the first "
                                                      "entry's")
            note = entry.get("note")
            if note is not None:
                if not isinstance(note, str) or not note:
                    raise RuleError(path, line_of(entry), "note must be the sentence an answer adds when it is used")
                book.derived_notes[item] = note
            unless = entry.get("unless")
            if unless is not None:
                names = [vocab.canonical(str(u)) for u in unless] if isinstance(unless, list) else [None]
                if None in names:
                    raise RuleError(path, line_of(entry), "unless must list items of keyword_tables/")
                book.derived_unless[item] = tuple(n for n in names if n)
            e = LDict(entry)
            e.line = line_of(entry)
            e["name"] = item
            e.setdefault("output", "amount")
            if further:
                book.derived_else.setdefault(item, []).append(_build(e, vocab, path))
            else:
                book.derived[item] = _build(e, vocab, path)
        for key in ("formulas", "templates"):
            entries = data.get(key) or []
            if not isinstance(entries, list):
                raise RuleError(path, line_of(entries), f"`{key}` must be a list")
            if key == "templates":
                templates.extend((path, e) for e in entries)
                continue
            for entry in entries:
                f = _build(entry, vocab, path)
                if f.name in book.formulas:
                    other = book.formulas[f.name]
                    raise RuleError(path, f.line, f"formula {f.name!r} is also defined at {other.file}:{other.line}")
                book.formulas[f.name] = f
                for phrase in (f.name, *f.aliases):
                    if book.phrases.get(phrase, f.name) != f.name:
                        raise RuleError(path, f.line, f"name {phrase!r} also names formula {book.phrases[phrase]!r}")
                    book.phrases[phrase] = f.name
    for path, tpl in templates:
        if not isinstance(tpl, dict) or not {"name", "inputs", "expr", "output"} <= set(tpl):
            raise RuleError(path, line_of(tpl), "a template must be a mapping with name, inputs, expr, output")
        for entry in _expand(tpl, vocab):
            if entry["name"] in book.phrases:
                continue  # an explicit formula of that name wins
            f = _build(entry, vocab, path, template=True)
            book.formulas[f.name] = f
            for phrase in (f.name, *f.aliases):
                book.phrases.setdefault(phrase, f.name)
    return book
