"""Meaning or filler: the words a question has left once every slot took its own, read with a segmenter's
lexicon (jieba's dictionary, with parts of speech) and rules/lexicon.yaml.

A left-over word names something — a word of a catalog phrase (an item, synonym, formula, glossary term,
text topic, key disclosure), a qualifier cue of understanding.yaml's frame, a word of `meaning:`, or any
word of a content part of speech (a noun, a place, an adjective, a numeral, a word the lexicon lacks) —
and such a word stays in the question's accounting (`Understanding.left`): a value it would change is
declined, naming it. Every other word (a pronoun, a particle, a time or locality word, an adverb, a verb
no catalog phrase uses, a word of `filler:`) is how the question is asked: it is shown as filler in the
answer's record (`Understanding.filler`), never a reason to decline.

The segmenter loads its dictionary (~1 s, then cached by jieba in the temp folder) the first time a
question leaves words to read; a question whose words are all taken never loads it.
"""
from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..catalog.lexicon import LexiconRules

_CJK = re.compile(r"[\u4e00-\u9fff]")
NEW_WORD_FREQ = 10000   # a word added to the lexicon: frequent enough to be cut whole among its neighbours


@dataclass(frozen=True)
class Word:
    text: str
    pos: str
    meaning: bool
    why: str          # meaning | filler override, cue, catalog, part of speech


class Lexicon:
    """Splits left-over words into the words that name something and the filler."""

    def __init__(self, rules: LexiconRules, catalog_phrases: Iterable[str] = (), cues: Iterable[re.Pattern] = ()):
        self.rules = rules
        self._phrases = tuple(catalog_phrases)
        self._cues = tuple(cues)
        self._tokenizer: Any = None
        self._catalog_words: frozenset[str] = frozenset()
        self._lock = threading.Lock()

    def _load(self) -> Any:
        """jieba's POS tokenizer with the file's words added, and the words of the catalog's phrases that
        have a filler part of speech (支付 of 支付的各项税费): built once, on first use."""
        with self._lock:
            if self._tokenizer is None:
                import logging

                import jieba
                import jieba.posseg

                jieba.setLogLevel(logging.WARNING)
                tok = jieba.posseg.POSTokenizer(jieba.Tokenizer())
                tok.tokenizer.initialize()
                for word, pos in self.rules.words:
                    # a word the dictionary has keeps its frequency (only its tag changes: 问); a new one is
                    # cut whole where it stands (财报, not 财 + 报上); the tags join posseg's at its first cut
                    tok.tokenizer.add_word(word, tok.tokenizer.FREQ.get(word) or NEW_WORD_FREQ, pos)
                words = set()
                for phrase in self._phrases:
                    for w in tok.cut(phrase, HMM=False):
                        if len(w.word) >= 2 and w.flag in self.rules.filler_pos:
                            words.add(w.word)
                self._catalog_words = frozenset(words)
                self._tokenizer = tok
        return self._tokenizer

    def words(self, text: str) -> list[Word]:
        """The words of a piece of a question, each told meaning or filler, with why."""
        if not _CJK.search(text):
            return [Word(text, "x", True, "not Chinese")] if text.strip() else []
        tok = self._load()
        out = []
        for w in tok.cut(text, HMM=False):
            word, pos = w.word, w.flag
            if not word.strip():
                continue
            out.append(self._tell(word, pos))
        return out

    def _tell(self, word: str, pos: str) -> Word:
        r = self.rules
        if word in r.meaning:
            return Word(word, pos, True, "meaning")
        if word in r.filler:
            return Word(word, pos, False, "filler")
        if any(rx.search(word) for rx in self._cues):
            return Word(word, pos, True, "cue")
        if word in self._catalog_words:
            return Word(word, pos, True, "catalog")
        return Word(word, pos, pos not in r.filler_pos, "part of speech")

    def ends_asking(self, text: str) -> bool:
        """Whether a text ends with a word saying how the question is asked ("请问", "麻烦帮我查下"): what may
        stand before a company's name (请问四方…) as a boundary does."""
        words = self.words(text[-8:]) if _CJK.search(text[-1:]) else []
        return bool(words) and not words[-1].meaning

    def begins_asking(self, text: str) -> bool:
        """Whether a text starts with a word saying how the question is asked ("那年（2020年）", "当时"): what
        may follow a company's name (金宇生物那年…) as a boundary does."""
        words = self.words(text[:8]) if _CJK.search(text[:1]) else []
        return bool(words) and not words[0].meaning

    def split(self, piece: str) -> tuple[list[str], list[str]]:
        """(the runs of words that name something, the filler words) of a piece of a question."""
        meaning: list[str] = []
        filler: list[str] = []
        run = ""
        for w in self.words(piece):
            if w.meaning:
                run += w.text
                continue
            filler.append(w.text)
            if run:
                meaning.append(run)
                run = ""
        if run:
            meaning.append(run)
        return meaning, filler
