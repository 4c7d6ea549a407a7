"""rules/prompts/*.txt: the chat model's prompts, with checked {placeholders}."""
from __future__ import annotations

from pathlib import Path

from .templates import placeholders, unknown_placeholders
from .yamlfile import RuleError, read_text

PROMPTS = {
    "text_answer": {"company", "year", "heading", "section", "question"},
    "open_answer": {"context", "question"},
    "open_context": {"name", "expr"},
}


def load_prompts(folder: Path) -> dict[str, str]:
    """rules/prompts/*.txt: every prompt of PROMPTS, each using only its placeholders."""
    out = {}
    for name, allowed in PROMPTS.items():
        path = folder / f"{name}.txt"
        try:
            text = read_text(path)
        except RuleError as exc:
            if path.is_file():
                raise
            raise RuleError(path, 1, f"missing prompt file: {exc.problem}") from None
        try:
            used = placeholders(text)
        except ValueError as exc:
            raise RuleError(path, 1, f"bad placeholder: {exc}") from None
        unknown = used - allowed
        if unknown:
            line = next((n for n, ln in enumerate(text.splitlines(), 1) if any("{" + u + "}" in ln for u in unknown)), 1)
            raise RuleError(path, line, unknown_placeholders(unknown, allowed))
        if "question" in allowed and "question" not in used:
            raise RuleError(path, 1, "the prompt must contain {question}")
        out[name] = text
    return out
