"""Where things live: flags > environment (FIN_QA_*) > defaults.

- the rules folder (`--rules DIR`, `$FIN_QA_RULES`): one folder holding rules/, formulas/,
  keyword_tables/ and es_mappings/ — by default the copy shipped inside the package (fin_qa/_data, in
  a wheel) or, in a source checkout, the repository's own folders, which is where maintainers edit them;
- the store (`--store DIR`, `$FIN_QA_STORE`, else ./fin_qa_store).
"""
from __future__ import annotations

import os
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent
PROJECT_ROOT = PACKAGE_ROOT.parent
PACKAGED_RULES = PACKAGE_ROOT / "_data"
RULE_FOLDERS = ("rules", "formulas", "keyword_tables", "es_mappings")

# every FIN_QA_* variable the commands read, for the help texts
ENVIRONMENT = {
    "FIN_QA_RULES": "the rules folder (rules/, formulas/, keyword_tables/, es_mappings/)",
    "FIN_QA_STORE": "the store folder (default ./fin_qa_store)",
    "FIN_QA_SEARCH": "text search backend: sqlite or elasticsearch",
    "FIN_QA_ES_URL": "Elasticsearch node (default http://127.0.0.1:9200)",
    "FIN_QA_ES_INDEX": "Elasticsearch index (default fin-qa-chunks)",
    "FIN_QA_LLM": "chat model: none, default or a path",
    "FIN_QA_LLM_THREADS": "CPU threads of the chat model (default 1)",
    "FIN_QA_PROGRESS_SECONDS": "seconds between progress lines when stderr is not a terminal (default 10)",
    "FIN_QA_LIBRARY_PROGRESS": "1: show the libraries' own progress bars when a model loads (default: not shown)",
    "FIN_QA_CACHE": "cache folder for converted models, Elasticsearch and the lexicon's index (default ~/.cache/fin-qa)",
}


def default_rules_root() -> Path:
    """The rules shipped with fin-qa: in a source checkout the repository's own folders (where
    maintainers edit them, even if a build left a copy in fin_qa/_data), else the package's copy."""
    if (PROJECT_ROOT / "setup.cfg").is_file() and (PROJECT_ROOT / "rules").is_dir():
        return PROJECT_ROOT
    return PACKAGED_RULES


def rules_root(flag: str | os.PathLike | None = None) -> Path:
    """The rules folder: --rules, else $FIN_QA_RULES, else the shipped rules."""
    if flag:
        return Path(flag)
    env = os.environ.get("FIN_QA_RULES")
    return Path(env) if env else default_rules_root()


def store_dir(flag: str | os.PathLike | None = None) -> Path:
    if flag:
        return Path(flag)
    env = os.environ.get("FIN_QA_STORE")
    return Path(env) if env else Path("fin_qa_store")


def search_backend(flag: str | None = None) -> str:
    """--search, else $FIN_QA_SEARCH, else sqlite."""
    return (flag or os.environ.get("FIN_QA_SEARCH") or "sqlite").strip().lower()


def es_url() -> str | None:
    """$FIN_QA_ES_URL (None: the backend's default, http://127.0.0.1:9200)."""
    return os.environ.get("FIN_QA_ES_URL") or None


def es_index() -> str | None:
    """$FIN_QA_ES_INDEX (None: the backend's default, fin-qa-chunks)."""
    return os.environ.get("FIN_QA_ES_INDEX") or None


def llm_spec(flag: str | None = None) -> str:
    """--llm, else $FIN_QA_LLM, else none."""
    return (flag or os.environ.get("FIN_QA_LLM") or "none").strip()


def llm_threads() -> int | None:
    """$FIN_QA_LLM_THREADS (None: rules/llm.yaml cpu.threads); not a whole number ≥ 1 is a user error."""
    env = os.environ.get("FIN_QA_LLM_THREADS")
    if not env:
        return None
    if not env.strip().isdigit() or int(env) < 1:
        from .base import FinQAError

        raise FinQAError(f"FIN_QA_LLM_THREADS={env!r}: expected a whole number of threads (1 or more)")
    return int(env)


def cache_dir() -> Path:
    """fin-qa's cache folder ($FIN_QA_CACHE, else ~/.cache/fin-qa); converted models live in its models/, the
    index of the lexicon's dictionary in its lexicon/ (built by the first question that needs it, ~2 s)."""
    env = os.environ.get("FIN_QA_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "fin-qa"
