"""keyword_tables/teddy.yaml: the structured database of the Teddy Cup 2026 problem B (its four tables, each field
read or computed from a filing's items: see the file's head). Checked by `fin-qa rules check`: every item a
field names is an item of the keyword tables, every formula one of formulas/*.yaml."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .formulas import FormulaBook, parse_expr, tree_vars
from .vocabulary import Vocabulary
from .yamlfile import LDict, RuleError, line_of, load_rules_yaml

KINDS = ("item", "formula", "expr", "growth", "quarter_growth", "share")
UNITS = {"万元": 2, "元": 2, "%": 4, "元/股": 4}   # unit → decimals (the schema's decimal(20,2) / decimal(10,4))


@dataclass(frozen=True)
class TeddyField:
    name: str
    kind: str                            # one of KINDS
    items: tuple[str, ...] = ()          # item / growth / quarter_growth: the items, the first printed read
    over: tuple[str, ...] = ()           # share: the denominator's items (items: the numerator's)
    formula: str = ""                    # formula: its name in formulas/*.yaml; expr: the expression
    tree: tuple = ()                     # expr: parsed (catalog/formulas.py), its names items of amounts in 元
    unit: str = "万元"
    blank: float | None = None           # written when the statement is read and prints no such line

    @property
    def decimals(self) -> int:
        return UNITS[self.unit]


@dataclass(frozen=True)
class TeddySchema:
    tables: dict[str, tuple[TeddyField, ...]] = field(default_factory=dict)


def _items(path: Path, spec: object, what: str, vocab: Vocabulary, line: int) -> tuple[str, ...]:
    if not isinstance(spec, list) or not spec or not all(isinstance(x, str) and x for x in spec):
        raise RuleError(path, line, f"{what} must list items")
    unknown = [x for x in spec if x not in vocab.items]
    if unknown:
        raise RuleError(path, line, f"{what}: not an item of keyword_tables ({', '.join(unknown)})")
    return tuple(spec)


def load_teddy_schema(path: Path, vocab: Vocabulary, formulas: FormulaBook) -> TeddySchema:
    if not path.is_file():
        return TeddySchema()
    data = load_rules_yaml(path)
    tables = data.get("tables") if isinstance(data, LDict) else None
    if not isinstance(tables, dict) or not tables:
        raise RuleError(path, line_of(data), "expected `tables:` mapping each table to its fields (see the file's head)")
    out: dict[str, tuple[TeddyField, ...]] = {}
    for table, fields in tables.items():
        if not isinstance(fields, dict) or not fields:
            raise RuleError(path, line_of(fields, line_of(tables)), f"tables.{table} must map its fields")
        made = []
        for name, spec in fields.items():
            line = line_of(spec, line_of(fields))
            where = f"tables.{table}.{name}"
            if not isinstance(spec, dict):
                raise RuleError(path, line, f"{where} must be a mapping ({', '.join(KINDS)}, unit)")
            kinds = [k for k in KINDS if k in spec]
            if len(kinds) != 1:
                raise RuleError(path, line, f"{where} takes one of {', '.join(KINDS)}")
            unit = spec.get("unit", "万元")
            if unit not in UNITS:
                raise RuleError(path, line, f"{where}.unit must be one of {', '.join(UNITS)}")
            extra = set(spec) - {*KINDS, "unit", "blank"}
            if extra:
                raise RuleError(path, line, f"{where}: unknown key(s) {', '.join(sorted(extra))}")
            kind = kinds[0]
            blank = spec.get("blank")
            if blank is not None and (kind != "item" or not isinstance(blank, (int, float))):
                raise RuleError(path, line, f"{where}.blank is a number, for an item")
            if kind == "expr":
                text = spec["expr"]
                try:
                    tree = parse_expr(text, vocab.items) if isinstance(text, str) else None
                except ValueError as e:
                    raise RuleError(path, line, f"{where}.expr: {e}") from None
                if tree is None or not tree_vars(tree):
                    raise RuleError(path, line, f"{where}.expr must be an expression over items")
                made.append(TeddyField(name, kind, tuple(sorted(tree_vars(tree))), formula=text, tree=tree, unit=unit))
            elif kind == "formula":
                name_ = spec["formula"]
                if not isinstance(name_, str) or formulas.get(name_) is None:
                    raise RuleError(path, line, f"{where}: no formula named {name_!r} in formulas/*.yaml")
                made.append(TeddyField(name, kind, formula=name_, unit=unit))
            elif kind == "share":
                pair = spec["share"]
                if not isinstance(pair, list) or len(pair) != 2:
                    raise RuleError(path, line, f"{where}.share lists two lists of items: [[numerator], [denominator]]")
                made.append(TeddyField(name, kind, _items(path, pair[0], where, vocab, line),
                                       _items(path, pair[1], where, vocab, line), unit=unit))
            else:
                made.append(TeddyField(name, kind, _items(path, spec[kind], where, vocab, line), unit=unit,
                                       blank=None if blank is None else float(blank)))
        out[str(table)] = tuple(made)
    return TeddySchema(out)
