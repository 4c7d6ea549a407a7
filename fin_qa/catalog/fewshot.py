"""rules/fewshot/keywords.yaml: the few-shot history the chat model extracts keywords with."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..jsonfix import keywords_from, parse_json_loose
from .yamlfile import RuleError, line_of, load_rules_yaml


@dataclass
class FewShot:
    instruction: str
    history: list[tuple[str, str]]
    max_new_tokens: int = 24
    retries: int = 2
    reminder: str = ""


def load_fewshot(path: Path) -> FewShot:
    """rules/fewshot/keywords.yaml: instruction, {user, assistant} turns (each a keyword JSON), retries."""
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
