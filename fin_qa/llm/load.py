"""--llm none | default | PATH → a chat model (or None for the deterministic paths only)."""
from __future__ import annotations

from pathlib import Path

from ..catalog.llm_config import LLMConfig
from .base import ChatModel, LLMError
from .default import default_model_path
from .hf import TransformersChat


def load_chat_model(spec: str, config: LLMConfig, device: str = "auto",
                    batch_size: int | None = None, threads: int | None = None) -> ChatModel | None:
    """The model --llm names (none | default | PATH; resolved by config.llm_spec); config: rules/llm.yaml
    (`catalog.llm`); threads: CPU threads (None: the config's)."""
    spec = spec.strip()
    if spec.lower() == "none":
        return None
    if spec.lower() == "default":
        return TransformersChat(default_model_path(), config, device=device, batch_size=batch_size, threads=threads)
    path = Path(spec).expanduser()
    if not path.exists():
        raise LLMError(f"--llm {spec}: no such model folder or GGUF file (use none, default or a path)")
    return TransformersChat(path, config, device=device, batch_size=batch_size, threads=threads)
