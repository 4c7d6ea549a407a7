"""Where things live: flags > environment (FIN_QA_*) > defaults."""
from __future__ import annotations

import os
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent
PROJECT_ROOT = PACKAGE_ROOT.parent


def _data_dir(name: str) -> Path:
    """Rules, formulas and keyword tables: FIN_QA_<NAME>_DIR overrides the project's folders."""
    env = os.environ.get(f"FIN_QA_{name.upper()}_DIR")
    return Path(env) if env else PROJECT_ROOT / name


def keyword_tables_dir() -> Path:
    return _data_dir("keyword_tables")


def rules_dir() -> Path:
    return _data_dir("rules")


def formulas_dir() -> Path:
    return _data_dir("formulas")


def es_mappings_dir() -> Path:
    return _data_dir("es_mappings")


def store_dir(flag: str | os.PathLike | None = None) -> Path:
    if flag:
        return Path(flag)
    env = os.environ.get("FIN_QA_STORE")
    return Path(env) if env else Path("fin_qa_store")
