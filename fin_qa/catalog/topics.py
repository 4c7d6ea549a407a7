"""Text-question topics from keyword_tables/sections.yaml: question words → section-title aliases."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from .yamlfile import RuleError, line_of, load_rules_yaml

_SPACES = re.compile(r"\s+")
_NUMBERING = re.compile(r"^\s*(?:第[一二三四五六七八九十]+[节章]|\d{1,2}(?:\.\d{1,2}){1,2}|"
                        r"[（(]?\s*[一二三四五六七八九十\d]{1,3}\s*[)）]?\s*[、.．]?)\s*")


@lru_cache(maxsize=8192)
def title_key(title: str) -> str:
    """A heading without its numbering and spaces: "十二、重大诉讼、仲裁事项" → "重大诉讼、仲裁事项"."""
    return _SPACES.sub("", _NUMBERING.sub("", title or ""))


@dataclass(frozen=True)
class Topic:
    name: str
    words: tuple[str, ...]
    titles: tuple[str, ...]
    yes: tuple[str, ...] = ()
    no: tuple[str, ...] = ()

    def title_match(self, title: str) -> bool:
        key = title_key(title)
        return any(t in key for t in self.titles)


@dataclass
class TopicTable:
    topics: list[Topic]
    _rx: re.Pattern | None = field(default=None, repr=False)
    _by_word: dict[str, list[Topic]] = field(default_factory=dict, repr=False)

    def __post_init__(self):
        for t in self.topics:
            for w in t.words:
                self._by_word.setdefault(w, []).append(t)
        words = sorted(self._by_word, key=len, reverse=True)
        self._rx = re.compile("|".join(map(re.escape, words))) if words else None

    def find(self, question: str) -> list[tuple[Topic, str]]:
        """(topic, the word that named it) in question order; leftmost-longest words, no overlaps."""
        out: list[tuple[Topic, str]] = []
        if self._rx is None:
            return out
        seen: set[str] = set()
        for m in self._rx.finditer(question or ""):
            for t in self._by_word[m.group(0)]:
                if t.name not in seen:
                    seen.add(t.name)
                    out.append((t, m.group(0)))
        return out


def _strings(value, path: Path, line: int, what: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, (str, int)) and str(v).strip() for v in value):
        raise RuleError(path, line, f"{what} must be a list of non-empty words")
    return tuple(re.sub(r"\s+", "", str(v)) for v in value)


def load_topics(path: Path) -> TopicTable:
    """keyword_tables/sections.yaml: topic → {words, titles, answer: {positive, negative}}."""
    data = load_rules_yaml(path)
    if not isinstance(data, dict) or not isinstance(data.get("topics"), dict):
        raise RuleError(path, 1, "expected `topics:` mapping topic names to {words, titles}")
    topics = []
    lines = data["topics"].key_lines
    for name, body in data["topics"].items():
        line = lines.get(name, line_of(body))
        if not isinstance(body, dict):
            raise RuleError(path, line, f"topic {name!r}: expected a mapping with words and titles")
        unknown = set(body) - {"words", "titles", "answer"}
        if unknown:
            raise RuleError(path, line, f"topic {name!r}: unknown key(s) {', '.join(sorted(map(str, unknown)))}")
        words = _strings(body.get("words"), path, line_of(body.get("words"), line), f"topic {name!r}: words")
        titles = _strings(body.get("titles"), path, line_of(body.get("titles"), line), f"topic {name!r}: titles")
        if not words or not titles:
            raise RuleError(path, line, f"topic {name!r} needs both words and titles")
        ans = body.get("answer") or {}
        if not isinstance(ans, dict) or set(ans) - {"positive", "negative"}:
            raise RuleError(path, line_of(ans, line), f"topic {name!r}: answer takes only positive and negative lists")
        yes = _strings(ans.get("positive"), path, line_of(ans, line), f"topic {name!r}: answer.positive")
        no = _strings(ans.get("negative"), path, line_of(ans, line), f"topic {name!r}: answer.negative")
        topics.append(Topic(str(name), words, titles, yes, no))
    return TopicTable(topics)
