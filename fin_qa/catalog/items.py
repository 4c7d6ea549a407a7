"""The keyword table of canonical financial items (keyword_tables/items.yaml) and label normalisation."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .yamlfile import LDict, RuleError, line_of, load_rules_yaml

_FULL_TO_HALF = str.maketrans({"（": "(", "）": ")", "：": ":", "，": ",", "　": "", " ": "", "\t": ""})
_LEADING = re.compile(
    r"^(?:[△▲★☆*#]+"
    r"|[一二三四五六七八九十]+[、.．]"
    r"|[\u4e00-\u9fff]、(?=[\u4e00-\u9fff]{2})"    # a numeral a broken font misread (事、营业支出 for 二、)
    r"|\([一二三四五六七八九十]+\)[、.．]?"
    r"|\d{1,2}[、.．](?!\d)"
    r"|\(\d{1,2}\)[、.．]?"
    r"|其中[:]?|加[:]|减[:]|加(?=[:]?)\b)+"
)
_PREFIX_WORDS = re.compile(r"^(?:其中[:]|其中|加[:]|减[:])")
# a remark in brackets: how a line is printed ("损失以“-”号填列") or its unit and restatement ("人民币元，已重述")
_REMARK = re.compile(r"\((?:[^()]*(?:填列|号|列示|以\"|以“|人民币|已重述|重述后)[^()]*)\)")
# the other sign of a line written in (净增加/(减少)额, 经营活动产生／(使用)的现金流量净额, (使用)产生, 净(损失)收益)
_OTHER_SIGN = re.compile(r"[/／]\((?:使用|减少|流出|支付|增加|亏损|损失|净额)\)|\((?:使用|减少|流出|支付|增加|亏损|损失)\)[/／]?"
                         r"(?=产生|收益|增加|减少|流入|净)")


def normalize_label(raw: str) -> str:
    """Canonical spelling of a printed line-item label, for comparison.

    "  其中：营业收入" → "营业收入";  "加：公允价值变动收益（损失以“－”号填列）" → "公允价值变动收益";
    "实收资本（或股本）" → "实收资本(或股本)";  "经营活动产生／（使用）的现金流量净额" → "经营活动产生的现金流量净额".
    """
    s = raw.translate(_FULL_TO_HALF).strip()
    s = _OTHER_SIGN.sub("", _REMARK.sub("", s))
    prev = None
    while prev != s:
        prev = s
        s = _LEADING.sub("", s)
        s = _PREFIX_WORDS.sub("", s)
    s = s.rstrip(":").strip("”“\"'’‘")  # a quote left over from a split remark (FinGLM txt: "…填列）" | "”")
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
    # items a statement subtracts (expenses, income tax): stored as positive amounts, whichever sign
    # convention the statement prints them in (statement_model.normalise_signs)
    subtracted: frozenset[str] = frozenset()
    # items beyond the balance sheet that are read at a date (a bank's 不良贷款率, 资本充足率 at the year end):
    # their 期初 / 上年末 is the previous year-end column of the table printing them
    point_in_time: frozenset[str] = frozenset()
    roles: frozenset[str] = frozenset()   # the posts a disclosure's `role:` rule reads the holders of (董事长)

    def canonical(self, label: str) -> str | None:
        """The canonical item a printed label (or a question keyword) names, or None."""
        return self._by_label.get(normalize_label(label))

    def statement_of(self, item: str) -> str | None:
        it = self.items.get(item)
        return it.statement if it else None

    def labels(self) -> dict[str, str]:
        """normalised label → canonical item, for every name and synonym."""
        return dict(self._by_label)


def load_item_table(path: Path) -> ItemTable:
    """keyword_tables/items.yaml: statement → {canonical item: [synonyms]}; a label naming two items is an error.

    The key `subtracted` lists the items a statement subtracts (see ItemTable.subtracted); `point_in_time`
    the items beyond the balance sheet read at a date (ItemTable.point_in_time).
    """
    data = load_rules_yaml(path)
    if not isinstance(data, LDict):   # load_rules_yaml reads every mapping as an LDict
        raise RuleError(path, 1, "expected a mapping of statement → items")
    table = ItemTable()
    lists = {key: data.get(key) or [] for key in ("subtracted", "point_in_time")}
    for statement, items in data.items():
        sline = data.key_lines.get(statement, 1)
        if statement in lists:
            if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
                raise RuleError(path, sline, f"{statement}: expected a list [..] of item names")
            continue
        if not isinstance(items, LDict):
            raise RuleError(path, sline, f"statement {statement!r}: expected a mapping of items")
        for name, synonyms in items.items():
            line = items.key_lines.get(name, sline)
            if synonyms is not None and not isinstance(synonyms, list):
                raise RuleError(path, line, f"item {name!r}: synonyms must be a list [..] of strings, not {synonyms!r}")
            syns = tuple(synonyms or ())
            if not all(isinstance(s, str) for s in syns):
                raise RuleError(path, line, f"item {name!r}: synonyms must be a list of strings")
            table.items[name] = Item(name, statement, syns)
            for label in (name, *syns):
                key = normalize_label(label)
                other = table._by_label.get(key)
                if other and other != name:
                    raise RuleError(path, line, f"label {label!r} names both {other!r} and {name!r}")
                table._by_label[key] = name
    for key, names in lists.items():
        unknown = [x for x in names if x not in table.items]
        if unknown:
            raise RuleError(path, data.key_lines.get(key, 1), f"{key}: unknown items {unknown}")
    table.subtracted = frozenset(lists["subtracted"])
    table.point_in_time = frozenset(lists["point_in_time"])
    return table


# The shape of each key of profile.yaml and employees.yaml: "labels" = {name: [words]},
# "words" = [words], "names" = {name: word}, "blocks" = {block: {name: [words] or empty}}.
TABLE_SHAPES = {
    "profile.yaml": {"fields": "labels", "ignored": "words", "contact_rows": "names", "contact_columns": "words",
                     "combined": "labels", "name_lists": "words", "name_titles": "words"},
    "employees.yaml": {"counts": "labels", "ratios": "labels", "amounts": "labels", "blocks": "labels",
                       "categories": "blocks", "prose": "labels", "zero_is_missing": "words",
                       "contains": "labels", "above": "labels"},
}
_SHAPE_TEXT = {"labels": "a mapping name → [labels]", "words": "a list [..] of words",
               "names": "a mapping name → word", "blocks": "a mapping block → {name: [labels]}"}


def _words(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(w, str) and w for w in value)


def _shape_ok(value: object, shape: str) -> bool:
    if shape == "words":
        return _words(value)
    if not isinstance(value, dict):
        return False
    if shape == "labels":
        return all(_words(v) for v in value.values())
    if shape == "names":
        return all(isinstance(v, str) and v for v in value.values())
    return all(v is None or (isinstance(v, dict) and all(x is None or _words(x) for x in v.values()))
               for v in value.values())


def load_table_file(path: Path) -> LDict:
    """A keyword table file (profile.yaml, employees.yaml) as a mapping with line numbers, its keys
    checked against TABLE_SHAPES (a word where a list belongs would be read one character at a time)."""
    data = load_rules_yaml(path)
    if not isinstance(data, LDict):   # load_rules_yaml reads every mapping as an LDict
        raise RuleError(path, 1, "expected a mapping")
    shapes = TABLE_SHAPES.get(path.name, {})
    for key, value in data.items():
        line = data.key_lines.get(key, 1)
        if shapes and key not in shapes:
            raise RuleError(path, line, f"unknown key {key!r} (one of {', '.join(shapes)})")
        shape = shapes.get(key)
        if shape and value is not None and not _shape_ok(value, shape):
            raise RuleError(path, line_of(value, line), f"{key} must be {_SHAPE_TEXT[shape]}")
    return data


def employee_categories(employees: dict, path: Path) -> dict[str, tuple[str, str]]:
    """normalised label → (canonical category, block) from employees.yaml `categories`."""
    out: dict[str, tuple[str, str]] = {}
    cats_by_block = employees.get("categories") or {}
    if not isinstance(cats_by_block, dict):
        raise RuleError(path, line_of(cats_by_block), "categories must be a mapping block → {category: [labels]}")
    for block, cats in cats_by_block.items():
        if not isinstance(cats, (dict, type(None))):
            raise RuleError(path, line_of(cats_by_block), f"categories.{block} must be a mapping category → labels")
        for name, labels in (cats or {}).items():
            for label in (name, *(labels or ())):
                out[normalize_label(str(label))] = (name, block)
    return out
