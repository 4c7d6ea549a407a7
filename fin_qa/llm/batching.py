"""Batched generation for `fin-qa batch` on a GPU without changing how an answer is made.

The engine always talks to a CachedChat. Before a window of questions is answered, prefetch() answers
them once against a RecordingChat (which replies "" and notes every request), generates all noted
requests with the real model's chat_batch (batch_size at a time), and puts the replies in the cache;
the real answering pass then finds its replies there. A request the first pass could not foresee
(a retry after a bad reply) goes to the model directly.
"""
from __future__ import annotations

from typing import Sequence

from .base import ChatModel, History

Request = tuple[str, History, int | None]                   # prompt, history, max_new_tokens
Key = tuple[str, tuple[tuple[str, ...], ...], int | None]    # a request, hashable


def _key(prompt: str, history: History, max_new_tokens: int | None) -> Key:
    return prompt, tuple(tuple(t) for t in history), max_new_tokens


class RecordingChat:
    name = "recorder"

    def __init__(self) -> None:
        self.requests: list[Request] = []

    def chat(self, prompt: str, history: History = (), max_new_tokens: int | None = None) -> str:
        self.requests.append((prompt, history, max_new_tokens))
        return ""

    def chat_batch(self, requests: Sequence[tuple[str, History]], max_new_tokens: int | None = None) -> list[str]:
        return [self.chat(p, h, max_new_tokens) for p, h in requests]


class CachedChat:
    def __init__(self, model: ChatModel, limit: int = 4096) -> None:
        self.model = model
        self.name = model.name
        self.cache: dict[Key, str] = {}
        self.limit = limit

    def chat(self, prompt: str, history: History = (), max_new_tokens: int | None = None) -> str:
        k = _key(prompt, history, max_new_tokens)
        if k in self.cache:
            return self.cache.pop(k)
        return self.model.chat(prompt, history, max_new_tokens)

    def chat_batch(self, requests: Sequence[tuple[str, History]], max_new_tokens: int | None = None) -> list[str]:
        return [self.chat(p, h, max_new_tokens) for p, h in requests]

    def fill(self, requests: list[Request]) -> int:
        """Generate these requests in batches (grouped by their token budget) into the cache."""
        if len(self.cache) > self.limit:
            self.cache.clear()
        todo: dict[int | None, dict[Key, tuple[str, History]]] = {}
        for p, h, n in requests:
            k = _key(p, h, n)
            if k not in self.cache:
                todo.setdefault(n, {})[k] = (p, h)
        done = 0
        for n, reqs in todo.items():
            keys = list(reqs)
            replies = self.model.chat_batch([reqs[k] for k in keys], n)
            for k, r in zip(keys, replies):
                self.cache[k] = r
            done += len(keys)
        return done
