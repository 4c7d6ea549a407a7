"""fin-qa: keyword/structure-first question answering over annual reports.

    import fin_qa
    qa = fin_qa.open("fin_qa_store")          # a store made by `fin-qa ingest`
    qa.ask("四方科技2019年营业收入是多少？")      # an Answer: .answer, .evidence, .value, .unit
    qa.statement("四方科技", 2019, "资产负债表")  # a pandas DataFrame

docs/api.md documents every method.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .base import FinQAError, __version__

__all__ = ["open", "FinQA", "Answer", "Table", "FinQAError", "__version__"]

if TYPE_CHECKING:
    from .answer.model import Answer
    from .api import FinQA, Table


def open(store: str | Path | None = None, rules: str | Path | None = None, llm: str = "none",
         search: str | None = None, style: str = "human", device: str = "auto") -> FinQA:
    """A store opened for questions and tables (fin_qa.api.FinQA).

    store: the store folder (default: $FIN_QA_STORE, else ./fin_qa_store); rules: a rules folder (default:
    the shipped rules); llm: none (default: no chat model), default (Gemma 3 270M) or a model path;
    search: sqlite (default) or elasticsearch; style: human or finglm number printing."""
    from .api import FinQA

    return FinQA(store, rules, llm, search, style, device)


def __getattr__(name: str) -> Any:
    # (the API's classes imported when first asked for: `fin-qa` commands do not load pandas)
    if name in ("FinQA", "Table"):
        from . import api

        return getattr(api, name)
    if name == "Answer":
        from .answer.model import Answer

        return Answer
    raise AttributeError(f"module 'fin_qa' has no attribute {name!r}")
