"""Keywords of a question: every item the keyword tables know and every formula name, found by one
regex built from those tables.

The vocabulary joins keyword_tables/items.yaml (statement items), profile.yaml (company fields and the
contact table), employees.yaml (head counts, ratios, 专业构成/教育程度 categories) and the formulas.
Each phrase is matched with and without 的 (the question is matched with 的 removed, so
"归属于母公司所有者的净利润" and "归属母公司所有者净利润" meet). The regex is compiled from a trie of the
phrases, so one pass finds the leftmost-longest phrases ("营业收入增长率" beats "营业收入").
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from ..items import default_item_table, employee_categories, load_yaml_table, normalize_label
from .entities import normalize_question


@dataclass(frozen=True)
class ItemInfo:
    name: str
    kind: str            # amount | per_share | count | percent | text
    statement: str | None
    unit: str | None


@dataclass
class Vocabulary:
    items: dict[str, ItemInfo] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)       # phrase key → canonical item

    def add(self, info: ItemInfo, labels) -> None:
        self.items.setdefault(info.name, info)
        for label in (info.name, *labels):
            for key in {phrase_key(label), phrase_key(normalize_label(label))}:
                if key:
                    self.labels.setdefault(key, info.name)

    def canonical(self, label: str) -> str | None:
        """The canonical item a label names (any synonym, with or without 的), or None."""
        return self.labels.get(phrase_key(label)) or self.labels.get(phrase_key(normalize_label(label)))


def phrase_key(text: str) -> str:
    """How phrases and questions are compared: half-width, no spaces, no 的."""
    return normalize_question(text).replace("的", "")


@functools.lru_cache(maxsize=None)
def default_vocabulary() -> Vocabulary:
    vocab = Vocabulary()
    table = default_item_table()
    for name, item in table.items.items():
        kind, unit = ("per_share", "元/股") if "每股" in name else ("amount", "元")
        vocab.add(ItemInfo(name, kind, item.statement, unit), item.synonyms)
    prof = load_yaml_table("profile.yaml")
    for name, labels in (prof.get("fields") or {}).items():
        vocab.add(ItemInfo(name, "text", "公司信息", None), labels or ())
    for col in prof.get("contact_columns") or ():
        for row in (prof.get("contact_rows") or {}).values():
            short = "董秘" if col == "董事会秘书" else None
            vocab.add(ItemInfo(f"{col}{row}", "text", "公司信息", None), [f"{short}{row}"] if short else [])
    emp = load_yaml_table("employees.yaml")
    for group, kind, unit in (("counts", "count", "人"), ("ratios", "percent", "%"), ("amounts", "amount", "元")):
        for name, labels in (emp.get(group) or {}).items():
            stmt = "研发投入" if name.startswith("研发") else "员工情况"
            vocab.add(ItemInfo(name, kind, stmt, unit), labels or ())
    cats: dict[str, tuple[str, list[str]]] = {}
    for label, (name, block) in employee_categories().items():
        cats.setdefault(name, (block, []))[1].append(label)
    for name, (block, labels) in cats.items():
        vocab.add(ItemInfo(name, "count", block, "人"), labels)
    return vocab


# ------------------------------------------------------------------------------------ trie regex

def trie_regex(phrases) -> re.Pattern:
    """One regex matching any of the phrases, longest alternative first at every branch."""
    trie: dict = {}
    for p in phrases:
        if not p:
            continue
        node = trie
        for ch in p:
            node = node.setdefault(ch, {})
        node[""] = True

    def emit(node: dict) -> str:
        end = "" in node
        branches = [re.escape(ch) + emit(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return "(?:" + body + ")?" if end else body

    return re.compile(emit(trie) if trie else r"(?!x)x")


@dataclass
class Keyword:
    kind: str            # item | formula
    name: str            # canonical item or formula name
    text: str            # the phrase as matched (的 removed)
    start: int           # position in phrase_key(question)
    end: int


class KeywordMatcher:
    """Phrase → (kind, name) for items and formulas; finds them in a question in one regex pass."""

    def __init__(self, vocab: Vocabulary, formula_phrases: dict[str, str]):
        self.vocab = vocab
        self.phrases: dict[str, tuple[str, str]] = {k: ("item", v) for k, v in vocab.labels.items()}
        for phrase, name in formula_phrases.items():
            key = phrase_key(phrase)
            # an item the reports print (研发人员数量占比) is read, not computed
            if key and key not in self.phrases:
                self.phrases[key] = ("formula", name)
        self.regex = trie_regex(self.phrases)

    def find(self, question: str) -> tuple[list[Keyword], str]:
        """(keywords in question order, the question key they were found in). Mask company names and
        years with '#' before calling, so they are not read as keywords."""
        q = phrase_key(question)
        out: list[Keyword] = []
        for m in self.regex.finditer(q):
            if not m.group(0):
                continue
            kind, name = self.phrases[m.group(0)]
            out.append(Keyword(kind, name, m.group(0), m.start(), m.end()))
        return out, q
