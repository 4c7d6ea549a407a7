"""The keyword table of canonical financial items (keyword_tables/items.yaml) and label normalisation."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from . import FinQAError
from .config import keyword_tables_dir

_FULL_TO_HALF = str.maketrans({"（": "(", "）": ")", "：": ":", "，": ",", "　": "", " ": "", "\t": ""})
_LEADING = re.compile(
    r"^(?:[△▲★☆*#]+"
    r"|[一二三四五六七八九十]+[、.．]"
    r"|\([一二三四五六七八九十]+\)[、.．]?"
    r"|\d{1,2}[、.．](?!\d)"
    r"|\(\d{1,2}\)[、.．]?"
    r"|其中[:]?|加[:]|减[:]|加(?=[:]?)\b)+"
)
_PREFIX_WORDS = re.compile(r"^(?:其中[:]|其中|加[:]|减[:])")
_REMARK = re.compile(r"\((?:[^()]*(?:填列|号|列示|以\"|以“)[^()]*)\)")


def normalize_label(raw: str) -> str:
    """Canonical spelling of a printed line-item label, for comparison.

    "  其中：营业收入" → "营业收入";  "加：公允价值变动收益（损失以“－”号填列）" → "公允价值变动收益";
    "实收资本（或股本）" → "实收资本(或股本)".
    """
    s = raw.translate(_FULL_TO_HALF).strip()
    s = _REMARK.sub("", s)
    prev = None
    while prev != s:
        prev = s
        s = _LEADING.sub("", s)
        s = _PREFIX_WORDS.sub("", s)
    s = s.rstrip(":")
    return s


@dataclass(frozen=True)
class Item:
    name: str
    statement: str
    synonyms: tuple[str, ...] = ()


@dataclass
class ItemTable:
    items: dict[str, Item] = field(default_factory=dict)
    _by_label: dict[str, str] = field(default_factory=dict)

    def canonical(self, label: str) -> str | None:
        """The canonical item a printed label (or a question keyword) names, or None."""
        return self._by_label.get(normalize_label(label))

    def statement_of(self, item: str) -> str | None:
        it = self.items.get(item)
        return it.statement if it else None

    def labels(self) -> dict[str, str]:
        """normalised label → canonical item, for every name and synonym."""
        return dict(self._by_label)


def load_item_table(path: Path | None = None) -> ItemTable:
    path = path or keyword_tables_dir() / "items.yaml"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise FinQAError(f"{path}: cannot read keyword table: {exc}") from None
    if not isinstance(data, dict):
        raise FinQAError(f"{path}:1: expected a mapping of statement → items")
    table = ItemTable()
    for statement, items in data.items():
        if not isinstance(items, dict):
            raise FinQAError(f"{path}: statement {statement!r}: expected a mapping of items")
        for name, synonyms in items.items():
            syns = tuple(synonyms or ())
            if not all(isinstance(s, str) for s in syns):
                raise FinQAError(f"{path}: item {name!r}: synonyms must be a list of strings")
            table.items[name] = Item(name, statement, syns)
            for label in (name, *syns):
                key = normalize_label(label)
                other = table._by_label.get(key)
                if other and other != name:
                    raise FinQAError(f"{path}: label {label!r} names both {other!r} and {name!r}")
                table._by_label[key] = name
    return table


@functools.lru_cache(maxsize=None)
def default_item_table() -> ItemTable:
    return load_item_table()


def load_yaml_table(name: str) -> dict:
    """A keyword table file by name (profile.yaml, employees.yaml...), as a dict."""
    path = keyword_tables_dir() / name
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise FinQAError(f"{path}: cannot read keyword table: {exc}") from None
    if not isinstance(data, dict):
        raise FinQAError(f"{path}:1: expected a mapping")
    return data


@functools.lru_cache(maxsize=None)
def employee_categories() -> dict[str, tuple[str, str]]:
    """normalised label → (canonical category, block) from employees.yaml `categories`."""
    out: dict[str, tuple[str, str]] = {}
    for block, cats in (load_yaml_table("employees.yaml").get("categories") or {}).items():
        for name, labels in (cats or {}).items():
            for label in (name, *(labels or ())):
                out[normalize_label(label)] = (name, block)
    return out


def employee_category(label: str) -> str:
    """The canonical name of a 专业构成/教育程度 row label (the label itself when unknown)."""
    hit = employee_categories().get(normalize_label(label))
    return hit[0] if hit else label
