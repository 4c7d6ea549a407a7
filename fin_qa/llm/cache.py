"""Where converted models live: $FIN_QA_CACHE/models, else ~/.cache/fin-qa/models.

A leaf module: hf.py (GGUF conversions) and default.py (the default model) both use it.
"""
from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """The model cache folder ($FIN_QA_CACHE/models, else ~/.cache/fin-qa/models); not created here."""
    env = os.environ.get("FIN_QA_CACHE")
    return (Path(env) if env else Path.home() / ".cache" / "fin-qa") / "models"
