"""keyword_tables/disclosures.yaml: the key disclosures read into facts at ingest (审计意见类型, 重大诉讼,
重点排污单位, 利润分配预案 …): each item's kind, unit, question words and the ordered rules that read it.
Checked at load: kinds, compiled patterns (a bad regular expression is a file:line problem), a `v` group
where a value is read, a `value` (是/否) for yes/no rules."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .yamlfile import LDict, RuleError, line_of, load_rules_yaml

KINDS = ("text", "yesno", "per_share", "amount", "count")


@dataclass(frozen=True)
class DisclosureRule:
    pattern: re.Pattern
    value: str | None          # yesno: 是 / 否; a `column` rule: what its value must end like
    column: bool = False       # the pattern names a table's column header: the value is read below it
    role: bool = False         # the pattern names a post (董事长): the 姓名 of the rows whose 职务 names it
    pages: int | None = None   # this rule reads the first N pages (else the item's `pages`, else all)


@dataclass(frozen=True)
class Disclosure:
    item: str
    kind: str
    unit: str | None
    synonyms: tuple[str, ...]
    rules: tuple[DisclosureRule, ...]
    values: dict[str, str]
    pages: int | None          # only the first N pages are read
    # statistics over a text item: a word naming several values ("非标准": every type but 标准无保留意见)
    groups: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)   # word → (any | not, values)
    at_a_date: bool = False    # read at the period's end (a count of shareholders): its 期初 is the year end before

    def phrases(self) -> list[str]:
        """The words that name values of this item in a question (its groups and stored values), longest first."""
        return sorted(set(self.groups) | set(self.values.values()), key=len, reverse=True)

    def holds(self, value: str, word: str) -> bool:
        """Whether a stored value is what a question's word names (a group, or the value itself)."""
        if word in self.groups:
            how, values = self.groups[word]
            return (value in values) == (how == "any")
        return word in value


def load_disclosures(path: Path) -> tuple[Disclosure, ...]:
    if not path.is_file():
        return ()
    data = load_rules_yaml(path)
    if not isinstance(data, LDict):
        raise RuleError(path, 1, "expected a mapping of item → {kind, synonyms, rules}")
    out = []
    for item, spec in data.items():
        line = data.key_lines.get(item, 1)
        if not isinstance(spec, dict):
            raise RuleError(path, line, f"{item}: expected a mapping with kind, synonyms and rules")
        kind = spec.get("kind")
        if kind not in KINDS:
            raise RuleError(path, line, f"{item}: kind must be one of {', '.join(KINDS)}")
        syns = spec.get("synonyms") or []
        if not isinstance(syns, list) or not all(isinstance(s, str) and s for s in syns):
            raise RuleError(path, line, f"{item}: synonyms must be a list [..] of words")
        rules = []
        for r in spec.get("rules") or []:
            rline = line_of(r) or line
            if not isinstance(r, dict) or not isinstance(r.get("pattern") or r.get("column") or r.get("role"), str):
                raise RuleError(path, rline, f"{item}: a rule needs a `pattern` (or a `column` header, or a `role`)")
            column = isinstance(r.get("column"), str)
            if isinstance(r.get("role"), str):
                if kind != "text":
                    raise RuleError(path, rline, f"{item}: a role rule reads a person's name: kind text")
                try:
                    rules.append(DisclosureRule(re.compile(r["role"]), None, role=True))
                except re.error as exc:
                    raise RuleError(path, rline, f"{item}: bad role pattern ({exc})") from None
                continue
            try:
                rx = re.compile(r["column"] if column else r["pattern"])
                ends = re.compile(r["ends"]) if column and isinstance(r.get("ends"), str) else None
            except re.error as exc:
                raise RuleError(path, rline, f"{item}: bad pattern ({exc})") from None
            value = r.get("value")
            if column:
                if ends is None:
                    raise RuleError(path, rline, f"{item}: a column rule needs `ends` (what a whole value ends like)")
                rules.append(DisclosureRule(rx, ends.pattern, True))
                continue
            if kind == "yesno" and value not in ("是", "否"):
                raise RuleError(path, rline, f"{item}: a yes/no rule needs `value: 是` or `value: 否`")
            if kind != "yesno" and "v" not in rx.groupindex:
                raise RuleError(path, rline, f"{item}: the pattern needs a group (?P<v>…) for the value")
            rpages = r.get("pages")
            if rpages is not None and not (isinstance(rpages, int) and rpages > 0):
                raise RuleError(path, rline, f"{item}: a rule's pages must be a positive number")
            rules.append(DisclosureRule(rx, value, pages=rpages))
        if not rules:
            raise RuleError(path, line, f"{item}: no rules")
        values = spec.get("values") or {}
        pages = spec.get("pages")
        if pages is not None and not (isinstance(pages, int) and pages > 0):
            raise RuleError(path, line, f"{item}: pages must be a positive number")
        groups: dict[str, tuple[str, tuple[str, ...]]] = {}
        for word, g in (spec.get("groups") or {}).items():
            how = next(iter(g), None) if isinstance(g, dict) and len(g) == 1 else None
            if how not in ("any", "not") or not isinstance(g[how], list) or not all(isinstance(v, str) for v in g[how]):
                raise RuleError(path, line, f"{item}: group {word!r} must be {{any: [values]}} or {{not: [values]}}")
            groups[str(word)] = (how, tuple(g[how]))
        out.append(Disclosure(str(item), kind, spec.get("unit"), tuple(syns), tuple(rules),
                              {str(k): str(v) for k, v in values.items()}, pages, groups, spec.get("at_a_date") is True))
    return tuple(out)
