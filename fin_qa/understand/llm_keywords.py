"""Few-shot-in-history keyword extraction by the chat model (the FinGLM trick for untuned models).

The examples are chat history turns from rules/fewshot/keywords.yaml with the company and year masked
as <company>/<year>; the question is masked the same way and asked after them. The reply is parsed as
JSON with repair (llm/jsonfix.py); a reply with no keyword is asked again, at most `retries` times,
with a stricter reminder. The keywords go through the same thefuzz Generalizer as the question's own
words, so the model can only ever name an item or formula the tables know.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..catalog.fewshot import FewShot
from ..jsonfix import keywords_from, parse_json_loose
from ..llm.base import ChatModel
from .generalize import Generalized, Generalizer


@dataclass
class Extraction:
    keywords: list[str]
    generalized: list[Generalized]
    replies: list[str] = field(default_factory=list)   # every raw reply, for --json / debugging


class LLMKeywords:
    def __init__(self, model: ChatModel, generalizer: Generalizer, fewshot: FewShot):
        self.model = model
        self.generalizer = generalizer
        self.fewshot = fewshot

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
