"""Prose from the chat model, never numbers of its own: text answers over a retrieved section and
open (definition) questions. Prompts are files under rules/prompts/ with checked placeholders.

Every answer the model writes passes two checks before it is used: it must look like an answer (Chinese
text, not an echo of the prompt's 问/答 frame, not a run of one character), and every number in it must
appear in the evidence it was given, in the question, or in values fin-qa computed (llm/guard.py).
Otherwise the caller keeps the deterministic answer (the quoted sentences, the formula definition).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..llm.base import ChatModel, LLMError
from ..llm.guard import unsupported_numbers

_CJK = re.compile(r"[\u4e00-\u9fff]")


@dataclass
class ProseResult:
    text: str | None                 # None: not usable, keep the deterministic answer
    reason: str = ""                 # why not (empty reply, echo, unsupported numbers …)
    reply: str = ""
    unsupported: list[str] = field(default_factory=list)


def tidy(reply: str) -> str:
    """A small model's reply without repeated lines/sentences and without a cut-off last sentence."""
    seen, out = set(), []
    for piece in re.split(r"(?<=[。！？\n])", reply.strip()):
        key = piece.strip()
        if not key or key in seen:
            continue
        seen.add(key)
        out.append(piece)
    text = "".join(out).strip()
    end = max(text.rfind(c) for c in "。！？")
    if end >= 0 and end < len(text) - 1 and len(text) - end < 60:
        text = text[:end + 1]  # drop an unfinished last sentence (the token budget ran out)
    return text


def looks_like_answer(reply: str) -> str:
    """'' when the reply reads like an answer, else why not."""
    r = reply.strip()
    if len(_CJK.findall(r)) < 4:
        return "no Chinese text"
    if "问：" in r or "答：" in r or "问题：" in r:
        return "echoes the prompt"
    for size in (12, 8):  # a phrase said three times over: the model is looping
        for i in range(0, max(len(r) - size, 0)):
            if r.count(r[i:i + size]) >= 3:
                return "repeats itself"
    if "\ufffd" in r:
        return "broken characters"
    if max(r.count(c) for c in set(r)) > 0.5 * len(r) and len(r) > 8:
        return "one character repeated"
    return ""


class Prose:
    def __init__(self, model: ChatModel, prompts: dict[str, str], section_chars: int = 1200,
                 max_new_tokens: int | None = None):
        self.model = model
        self.prompts = prompts  # rules/prompts/*.txt, from the catalog
        self.section_chars = section_chars
        self.max_new_tokens = max_new_tokens

    def _ask(self, prompt: str, sources: list[str]) -> ProseResult:
        try:
            reply = self.model.chat(prompt, (), max_new_tokens=self.max_new_tokens)
        except LLMError as exc:
            return ProseResult(None, f"model failed: {exc}")
        text = tidy(reply)
        why = looks_like_answer(text)
        if why:
            return ProseResult(None, why, reply)
        bad = unsupported_numbers(text, *sources)
        if bad:
            return ProseResult(None, "numbers not in the evidence: " + ", ".join(bad[:5]), reply, bad)
        return ProseResult(text, "", reply)

    def text_answer(self, question: str, company: str, year, heading: str, section: str) -> ProseResult:
        section = section[: self.section_chars]
        prompt = self.prompts["text_answer"].format(company=company, year=year, heading=heading, section=section,
                                                    question=question)
        return self._ask(prompt, [section, question, heading])

    def open_answer(self, question: str, definitions: list[tuple[str, str]]) -> ProseResult:
        context = "".join(self.prompts["open_context"].format(name=n, expr=e) for n, e in definitions)
        prompt = self.prompts["open_answer"].format(context=context, question=question)
        return self._ask(prompt, [context, question])
