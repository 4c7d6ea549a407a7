"""The chat-model protocol: chat(prompt, history) -> str, history as (user, assistant) pairs (ChatGLM style)."""
from __future__ import annotations

from typing import Protocol, Sequence

from ..base import FinQAError

History = Sequence[tuple[str, str]]

# how to get the llm extra, for error messages (an installed package, or a clone of the repository)
INSTALL_HINT = "pip install 'fin-qa[llm]' (from a clone: pip install -e '.[llm]')"


class LLMError(FinQAError):
    """A chat model that cannot be loaded or run (missing package, bad path, out of memory)."""


class ChatModel(Protocol):
    name: str

    def chat(self, prompt: str, history: History = (), max_new_tokens: int | None = None) -> str:
        """The model's reply to prompt after the history turns (greedy, cut at the family's stop strings)."""

    def chat_batch(self, requests: Sequence[tuple[str, History]], max_new_tokens: int | None = None) -> list[str]:
        """Several independent chats; batched on a GPU, one by one on a CPU."""
