"""--llm none | default | PATH → a chat model (or None for the deterministic paths only)."""
from __future__ import annotations

import os
from pathlib import Path

from .base import ChatModel, LLMError


def load_chat_model(spec: str | None, device: str = "auto", batch_size: int | None = None) -> ChatModel | None:
    spec = (spec or os.environ.get("FIN_QA_LLM") or "none").strip()
    if spec.lower() == "none":
        return None
    from .hf import TransformersChat

    if spec.lower() == "default":
        from .default import default_model_path

        return TransformersChat(default_model_path(), device=device, batch_size=batch_size)
    path = Path(spec).expanduser()
    if not path.exists():
        raise LLMError(f"--llm {spec}: no such model folder or GGUF file (use none, default or a path)")
    return TransformersChat(path, device=device, batch_size=batch_size)
