"""Keywords of a question: every item the keyword tables know and every formula name, found in one
pass over a trie of those tables' phrases.

The vocabulary joins keyword_tables/items.yaml (statement items), profile.yaml (company fields and the
contact table), employees.yaml (head counts, ratios, 专业构成/教育程度 categories) and the formulas.
Each phrase is matched with and without 的 (the question is matched with 的 removed, so
"归属于母公司所有者的净利润" and "归属母公司所有者净利润" meet). One pass over a trie of the phrases finds
the leftmost-longest phrases ("营业收入增长率" beats "营业收入").
"""
from __future__ import annotations

from dataclasses import dataclass

from ..catalog.normalize import phrase_key
from ..catalog.vocabulary import Vocabulary


# ------------------------------------------------------------------------------------ the phrase trie

_END = ""   # a trie node's key for "a phrase ends here"
# the phrases and the question compared with their latin letters in one case ("eps", "Roe": EPS, ROE)
_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_TRIES: dict[frozenset, dict] = {}   # the phrases → their trie (the same for every matcher of the same tables)


def matched_key(phrase: str) -> str:
    """A phrase as the matcher's table keys it: phrase_key, its latin letters in one case."""
    return phrase_key(phrase).translate(_UPPER)


def phrase_trie(phrases) -> dict:
    """The phrases as a trie of dicts, character by character ("" in a node: a phrase ends there)."""
    key = frozenset(p for p in phrases if p)
    trie = _TRIES.get(key)
    if trie is None:
        trie = {}
        for p in key:
            node = trie
            for ch in p:
                node = node.setdefault(ch, {})
            node[_END] = True
        if len(_TRIES) > 16:
            _TRIES.clear()
        _TRIES[key] = trie
    return trie


def leftmost_longest(trie: dict, text: str) -> list[tuple[int, int]]:
    """(start, end) of the phrases in a text, left to right: at each place the longest phrase starting there,
    then on from its end; a place no phrase starts at is passed by one character."""
    out: list[tuple[int, int]] = []
    i, n = 0, len(text)
    while i < n:
        node = trie.get(text[i])
        j, end = i + 1, 0
        while node is not None:
            if _END in node:
                end = j
            if j >= n:
                break
            node = node.get(text[j])
            j += 1
        if end:
            out.append((i, end))
            i = end
        else:
            i += 1
    return out


@dataclass
class Keyword:
    kind: str            # item | formula
    name: str            # canonical item or formula name
    text: str            # the phrase as matched (的 removed)
    start: int           # position in phrase_key(question)
    end: int


class KeywordMatcher:
    """Phrase → (kind, name) for items and formulas; finds them in a question in one pass over their trie."""

    def __init__(self, vocab: Vocabulary, formula_phrases: dict[str, str]):
        self.vocab = vocab
        self.phrases: dict[str, tuple[str, str]] = {k.translate(_UPPER): ("item", v) for k, v in vocab.labels.items()}
        for phrase, name in formula_phrases.items():
            key = matched_key(phrase)
            # an item the reports print (研发人员数量占比) is read, not computed
            if key and key not in self.phrases:
                self.phrases[key] = ("formula", name)
        self.trie = phrase_trie(self.phrases)

    def find(self, question: str) -> tuple[list[Keyword], str]:
        """(keywords in question order, the question key they were found in). Mask company names and
        years with '#' before calling, so they are not read as keywords."""
        q = phrase_key(question)
        qu = q.translate(_UPPER)
        out: list[Keyword] = []
        for a, b in leftmost_longest(self.trie, qu):
            kind, name = self.phrases[qu[a:b]]
            out.append(Keyword(kind, name, q[a:b], a, b))
        return out, q
