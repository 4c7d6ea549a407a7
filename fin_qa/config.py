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
    "FIN_QA_CACHE": "cache folder for converted models and Elasticsearch (default ~/.cache/fin-qa)",
}


def default_rules_root() -> Path:
    """The rules shipped with fin-qa: the package's copy in a wheel, the repository's folders in a checkout."""
    if (PACKAGED_RULES / "rules").is_dir():
        return PACKAGED_RULES
    return PROJECT_ROOT


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
