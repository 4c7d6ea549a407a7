"""rules/lexicon.yaml: which parts of speech are function words, the closed lists of the verbs of saying
and the words of asking, the words naming the report and the asker, the words added to the segmenter's
lexicon, and the exceptions each way (see the file's header; fin_qa/understand/lexicon.py reads a
question's left-over words with it)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .yamlfile import LDict, RuleError, line_of, load_rules_yaml

# jieba's part-of-speech tags (its dictionary's, and those its HMM gives unknown words)
POS_TAGS = frozenset(
    "a ad ag an b bg c cc d df dg e eng f g h i j k l m mg mq n ng nr nrfg nrt ns nt nz o p q r rg rr rz s t tg "
    "u ud ug uj ul uv uz v vd vg vi vn vq x y z zg".split())
_WORD = re.compile(r"^[\u4e00-\u9fffA-Za-z0-9]+$")
_KEYS = ("function_pos", "saying", "asking", "report", "personal", "words", "filler", "meaning")


@dataclass(frozen=True)
class LexiconRules:
    function_pos: frozenset[str] = frozenset()      # function words: filler wherever they stand
    saying: frozenset[str] = frozenset()            # the verbs a report says things with: filler anywhere
    asking: frozenset[str] = frozenset()            # asking, requesting, thanking: filler where it asks
    report: frozenset[str] = frozenset()            # words naming the report (年报里记载的)
    personal: frozenset[str] = frozenset()          # the asker, the company (告诉我)
    words: tuple[tuple[str, str], ...] = ()          # (word, part of speech) added to the lexicon
    filler: frozenset[str] = frozenset()
    meaning: frozenset[str] = frozenset()

    @property
    def used(self) -> bool:
        """Whether any word can be filler (no file: every left-over word keeps its meaning)."""
        return bool(self.function_pos or self.saying or self.asking or self.filler)


def _words(path: Path, data: LDict, key: str) -> list[str]:
    value = data.get(key)
    if value is None:
        return []
    line = data.key_lines.get(key, line_of(data))
    if not isinstance(value, list) or not all(isinstance(w, str) for w in value):
        raise RuleError(path, line, f"{key}: a list of words")
    for w in value:
        if not _WORD.match(w):
            raise RuleError(path, line, f"{key}: {w!r} is not one word (letters and digits only)")
    dup = sorted({w for w in value if value.count(w) > 1})
    if dup:
        raise RuleError(path, line, f"{key}: listed twice: {'、'.join(dup)}")
    return list(value)


def load_lexicon_rules(path: Path) -> LexiconRules:
    """rules/lexicon.yaml → LexiconRules; an unknown part of speech, a word that is not one word, a word
    listed twice, or a word both meaning and filler (saying, asking) is a file:line problem. No file: no
    word is filler."""
    if not path.is_file():
        return LexiconRules()
    data = load_rules_yaml(path)
    if not isinstance(data, LDict):
        raise RuleError(path, line_of(data), f"expected a mapping: {', '.join(_KEYS)}")
    unknown = sorted(set(data) - set(_KEYS))
    if unknown:
        raise RuleError(path, data.key_lines.get(unknown[0], 1), f"unknown key {unknown[0]!r}")
    pos = _words(path, data, "function_pos")
    bad = [p for p in pos if p not in POS_TAGS]
    if bad:
        raise RuleError(path, data.key_lines.get("function_pos", 1),
                        f"function_pos: {', '.join(bad)} is no part of speech of jieba's tag set")
    added: list[tuple[str, str]] = []
    words = data.get("words")
    if words is not None:
        if not isinstance(words, LDict):
            raise RuleError(path, data.key_lines.get("words", 1), "words: a mapping word → part of speech")
        for w, tag in words.items():
            line = words.key_lines.get(w, words.line)
            if not isinstance(w, str) or not _WORD.match(w):
                raise RuleError(path, line, f"words: {w!r} is not one word")
            if tag not in POS_TAGS:
                raise RuleError(path, line, f"words: {w}: {tag!r} is no part of speech of jieba's tag set")
            added.append((w, str(tag)))
    lists = {key: _words(path, data, key) for key in ("saying", "asking", "report", "personal", "filler", "meaning")}
    for key in ("filler", "saying", "asking"):
        both = sorted(set(lists[key]) & set(lists["meaning"]))
        if both:
            raise RuleError(path, data.key_lines.get("meaning", 1), f"both {key} and meaning: {'、'.join(both)}")
    return LexiconRules(frozenset(pos), frozenset(lists["saying"]), frozenset(lists["asking"]),
                        frozenset(lists["report"]), frozenset(lists["personal"]), tuple(added),
                        frozenset(lists["filler"]), frozenset(lists["meaning"]))
