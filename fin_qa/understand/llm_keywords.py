"""Few-shot-in-history keyword extraction by the chat model (the FinGLM trick for untuned models).

The examples are chat history turns from rules/fewshot/keywords.yaml with the company and year masked
as <company>/<year>; the question is masked the same way and asked after them. The reply is parsed as
JSON with repair (llm/jsonfix.py); a reply with no keyword is asked again, at most `retries` times,
with a stricter reminder. The keywords go through the same thefuzz Generalizer as the question's own
words, so the model can only ever name an item or formula the tables know.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

from ..config import rules_dir
from ..llm.base import ChatModel
from ..llm.jsonfix import keywords_from, parse_json_loose
from ..rules import RuleError, line_of, load_rules_yaml
from .generalize import Generalized, Generalizer


@dataclass
class FewShot:
    instruction: str
    history: list[tuple[str, str]]
    max_new_tokens: int = 24
    retries: int = 2
    reminder: str = ""


def load_fewshot(path: Path | None = None) -> FewShot:
    path = path or rules_dir() / "fewshot" / "keywords.yaml"
    data = load_rules_yaml(path)
    if not isinstance(data, dict) or not isinstance(data.get("history"), list) or not data["history"]:
        raise RuleError(path, 1, "expected `history:` — a list of {user, assistant} turns")
    turns = []
    for turn in data["history"]:
        if not isinstance(turn, dict) or not turn.get("user") or not turn.get("assistant"):
            raise RuleError(path, line_of(turn, line_of(data["history"])), "each history turn needs user and assistant")
        if not keywords_from(parse_json_loose(str(turn["assistant"]))):
            raise RuleError(path, line_of(turn), f"assistant turn is not a keyword JSON: {turn['assistant']!r}")
        turns.append((str(turn["user"]), str(turn["assistant"])))
    try:
        retries = int(data.get("retries", 2))
        max_new = int(data.get("max_new_tokens", 24))
    except (TypeError, ValueError):
        raise RuleError(path, 1, "retries and max_new_tokens must be whole numbers") from None
    if not 0 <= retries <= 5:
        raise RuleError(path, 1, "retries must be 0-5")
    return FewShot(str(data.get("instruction") or ""), turns, max_new, retries, str(data.get("reminder") or ""))


@functools.lru_cache(maxsize=None)
def default_fewshot() -> FewShot:
    return load_fewshot()


@dataclass
class Extraction:
    keywords: list[str]
    generalized: list[Generalized]
    replies: list[str] = field(default_factory=list)   # every raw reply, for --json / debugging


class LLMKeywords:
    def __init__(self, model: ChatModel, generalizer: Generalizer, fewshot: FewShot | None = None):
        self.model = model
        self.generalizer = generalizer
        self.fewshot = fewshot or default_fewshot()

    def prompt(self, masked_question: str, reminder: bool = False) -> str:
        if reminder and self.fewshot.reminder:
            return f"{masked_question}（{self.fewshot.reminder}）"
        return masked_question

    def history(self) -> list[tuple[str, str]]:
        h = list(self.fewshot.history)
        if h and self.fewshot.instruction:  # the instruction rides on the first turn, as in FinGLM
            h[0] = (f"{self.fewshot.instruction}\n{h[0][0]}", h[0][1])
        return h

    def extract(self, masked_question: str) -> Extraction:
        replies: list[str] = []
        words: list[str] = []
        for attempt in range(1 + self.fewshot.retries):
            reply = self.model.chat(self.prompt(masked_question, reminder=attempt > 0), self.history(),
                                    max_new_tokens=self.fewshot.max_new_tokens)
            replies.append(reply)
            words = [w for w in keywords_from(parse_json_loose(reply)) if 1 < len(w) <= 20][:4]
            if words:
                break
        return Extraction(words, self.generalizer.match_all(words), replies)
