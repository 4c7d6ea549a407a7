"""Text analysis done once in Python, so every backend indexes the same tokens.

Chinese runs become overlapping character bigrams (a single character stays as it is); Latin words
and numbers are lower-cased whole tokens. No dictionary (jieba) and no Elasticsearch plugin needed.
"""
from __future__ import annotations

import re

_TOKEN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+|[A-Za-z0-9]+(?:[.%][0-9]+)?")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def tokens(text: str) -> list[str]:
    out: list[str] = []
    for m in _TOKEN.finditer(text):
        run = m.group(0)
        if _CJK.match(run):
            if len(run) == 1:
                out.append(run)
            else:
                out.extend(run[i:i + 2] for i in range(len(run) - 1))
        else:
            out.append(run.lower())
    return out


def analyze(text: str) -> str:
    """The space-separated token string stored in the index."""
    return " ".join(tokens(text))
