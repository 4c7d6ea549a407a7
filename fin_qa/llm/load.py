"""--llm none | default | PATH → a chat model (or None for the deterministic paths only)."""
from __future__ import annotations

import os
from pathlib import Path

from ..catalog.llm_config import LLMConfig
from .base import ChatModel, LLMError
from .default import default_model_path
from .hf import TransformersChat


def load_chat_model(spec: str | None, config: LLMConfig, device: str = "auto",
                    batch_size: int | None = None) -> ChatModel | None:
    """The model --llm names (else $FIN_QA_LLM); config: rules/llm.yaml (`catalog.llm`)."""
    spec = (spec or os.environ.get("FIN_QA_LLM") or "none").strip()
    if spec.lower() == "none":
        return None
    if spec.lower() == "default":
        return TransformersChat(default_model_path(), config, device=device, batch_size=batch_size)
    path = Path(spec).expanduser()
    if not path.exists():
        raise LLMError(f"--llm {spec}: no such model folder or GGUF file (use none, default or a path)")
    return TransformersChat(path, config, device=device, batch_size=batch_size)
