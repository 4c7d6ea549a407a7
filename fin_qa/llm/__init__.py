"""Local chat models: the ChatModel protocol (base.py), the transformers backend (hf.py), the default
Gemma 3 270M from PyPI (default.py) and how a --llm value becomes a model (load.py)."""
