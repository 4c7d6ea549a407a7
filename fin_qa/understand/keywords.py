"""Keywords of a question: every item the keyword tables know and every formula name, found by one
regex built from those tables.

The vocabulary joins keyword_tables/items.yaml (statement items), profile.yaml (company fields and the
contact table), employees.yaml (head counts, ratios, 专业构成/教育程度 categories) and the formulas.
Each phrase is matched with and without 的 (the question is matched with 的 removed, so
"归属于母公司所有者的净利润" and "归属母公司所有者净利润" meet). The regex is compiled from a trie of the
phrases, so one pass finds the leftmost-longest phrases ("营业收入增长率" beats "营业收入").
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..catalog.normalize import phrase_key
from ..catalog.vocabulary import Vocabulary


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
        branches = []
        for ch, child in sorted(node.items()):
            if not ch:
                continue
            # a run of single children is one literal: the recursion goes as deep as the branch points,
            # not as long as the longest phrase (a 2,000-character synonym in a rules file)
            run = [ch]
            while len(child) == 1 and "" not in child:
                (nxt, child), = child.items()
                run.append(nxt)
            branches.append(re.escape("".join(run)) + emit(child))
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
