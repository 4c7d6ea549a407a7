"""keyword_tables/glossary.yaml: definitions of financial terms, written for fin-qa.

An open question ("什么是流动比率", "商誉是什么意思", "如何计算速动比率") is answered from it with no chat
model: the term's definition and, for a ratio, its formula from formulas/ (by name). `fin-qa rules check`
validates the file: each entry has a term, a category (item | ratio | concept) and a definition; a name
(term or alias) belongs to one entry only; a `formula:` names a formula of formulas/.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .normalize import phrase_key
from .yamlfile import LDict, RuleError, line_of, load_rules_yaml

CATEGORIES = ("item", "ratio", "concept")


@dataclass(frozen=True)
class Term:
    term: str
    definition: str
    category: str
    aliases: tuple[str, ...] = ()
    formula: str | None = None      # the formula of formulas/ that computes it (ratios)
    line: int = 0


@dataclass
class Glossary:
    terms: list[Term] = field(default_factory=list)
    _by_key: dict[str, Term] = field(default_factory=dict)

    def get(self, name: str) -> Term | None:
        return self._by_key.get(phrase_key(name))

    def find(self, question: str) -> list[Term]:
        """The terms a question names, in the question's order; a name inside a longer one found is not
        another term (速动比率 is not 比率)."""
        q = phrase_key(question)
        taken: list[tuple[int, int, Term]] = []
        for key in sorted(self._by_key, key=len, reverse=True):
            start = q.find(key)
            while start >= 0:
                end = start + len(key)
                if not any(s < end and start < e for s, e, _ in taken):
                    taken.append((start, end, self._by_key[key]))
                    break
                start = q.find(key, start + 1)
        out: list[Term] = []
        for _, _, term in sorted(taken, key=lambda t: t[0]):
            if term not in out:
                out.append(term)
        return out


def load_glossary(path: Path, formula_names: set[str] | None = None) -> Glossary:
    g = Glossary()
    if not path.is_file():
        return g
    data = load_rules_yaml(path)
    if not isinstance(data, LDict) or not isinstance(data.get("terms"), list):
        raise RuleError(path, line_of(data), "expected `terms:` — a list of {term, category, definition}")
    for e in data["terms"]:
        line = line_of(e)
        if not isinstance(e, dict) or not all(isinstance(e.get(k), str) and e.get(k) for k in ("term", "definition")):
            raise RuleError(path, line, "a term needs `term` and `definition` (text)")
        category = e.get("category", "concept")
        if category not in CATEGORIES:
            raise RuleError(path, line, f"{e['term']}: category must be one of {', '.join(CATEGORIES)}")
        aliases = e.get("aliases") or []
        if not isinstance(aliases, list) or not all(isinstance(a, str) and a for a in aliases):
            raise RuleError(path, line, f"{e['term']}: aliases must be a list [..] of names")
        formula = e.get("formula")
        if formula is not None and (not isinstance(formula, str) or (formula_names is not None and formula not in formula_names)):
            raise RuleError(path, line, f"{e['term']}: formula {formula!r} is not a formula of formulas/")
        term = Term(e["term"], e["definition"].strip(), category, tuple(aliases), formula, line)
        for name in (term.term, *term.aliases):
            key = phrase_key(name)
            other = g._by_key.get(key)
            if other is not None and other is not term:
                raise RuleError(path, line, f"{name!r} names both {other.term!r} (line {other.line}) and {term.term!r}")
            g._by_key[key] = term
        g.terms.append(term)
    return g
