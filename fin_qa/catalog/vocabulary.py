"""The question vocabulary: every item the keyword tables know, with each label (and its form without
的) mapped to the canonical item, and what kind of value it is (amount, per_share, count, percent, text).

Joins keyword_tables/items.yaml (statement items), profile.yaml (company fields and the contact table:
董事会秘书/证券事务代表 × 姓名/电话/…, 董秘 as a short form), employees.yaml (counts, ratios, amounts,
专业构成/教育程度 categories with their synonyms). A label is one item only: the first table wins.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .disclosures import Disclosure
from .items import ItemTable, normalize_label
from .normalize import phrase_key


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

    def add(self, info: ItemInfo, labels: Iterable[str]) -> None:
        self.items.setdefault(info.name, info)
        for label in (info.name, *labels):
            for key in {phrase_key(label), phrase_key(normalize_label(label))}:
                if key:
                    self.labels.setdefault(key, info.name)

    def canonical(self, label: str) -> str | None:
        """The canonical item a label names (any synonym, with or without 的), or None."""
        return self.labels.get(phrase_key(label)) or self.labels.get(phrase_key(normalize_label(label)))


DISCLOSURES = "重要事项"   # the statement of the facts read by keyword_tables/disclosures.yaml


INDICATORS = "监管指标"   # keyword_tables/items.yaml: a bank's indicators, every one a percent
BANK_AMOUNTS = "补充财务数据"   # keyword_tables/items.yaml: a bank's loans and deposits as principal (元)


def build_vocabulary(table: ItemTable, prof: dict, emp: dict, categories: dict[str, tuple[str, str]],
                     disclosures: Sequence[Disclosure] = ()) -> Vocabulary:
    """Every item the keyword tables know: statement items (items.yaml), company fields and the contact
    table (profile.yaml), head counts, ratios and 专业构成/教育程度 categories (employees.yaml)."""
    vocab = Vocabulary()
    for name, item in table.items.items():
        # a rate a report prints (加权平均净资产收益率, the summary table's) is a percent, not an amount
        kind, unit = ("per_share", "元/股") if "每股" in name else (
            ("percent", "%") if name.endswith("率") or item.statement == INDICATORS else ("amount", "元"))
        vocab.add(ItemInfo(name, kind, item.statement, unit), item.synonyms)
    for name, labels in (prof.get("fields") or {}).items():
        vocab.add(ItemInfo(name, "text", "公司信息", None), labels or ())
    for d in disclosures:  # keyword_tables/disclosures.yaml: 审计意见类型, 每10股派发现金红利 …
        # a profile field read here too (会计师事务所名称) keeps the profile's entry; its words are added
        shown: str | None = d.unit if d.kind in ("per_share", "count") else ("元" if d.kind == "amount" else None)
        vocab.add(ItemInfo(d.item, {"per_share": "per_share", "amount": "amount", "count": "count"}.get(d.kind, "text"), DISCLOSURES,
                           shown), d.synonyms)
    for col in prof.get("contact_columns") or ():
        for row in (prof.get("contact_rows") or {}).values():
            short = "董秘" if col == "董事会秘书" else None
            words = [f"{short}{row}"] if short else []
            if row == "姓名":   # (the person is the column's own name: "董秘是谁", "证券事务代表是谁")
                words += [col] + ([short] if short else [])
            vocab.add(ItemInfo(f"{col}{row}", "text", "公司信息", None), words)
    for group, kind, unit in (("counts", "count", "人"), ("ratios", "percent", "%"), ("amounts", "amount", "元")):
        for name, labels in (emp.get(group) or {}).items():
            stmt = "研发投入" if name.startswith("研发") else "员工情况"
            vocab.add(ItemInfo(name, kind, stmt, unit), labels or ())
    cats: dict[str, tuple[str, list[str]]] = {}
    for label, (name, block) in categories.items():
        cats.setdefault(name, (block, []))[1].append(label)
    for name, (block, labels) in cats.items():
        vocab.add(ItemInfo(name, "count", block, "人"), labels)
    return vocab
