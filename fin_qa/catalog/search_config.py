"""rules/search.yaml: how text search ranks and cuts sections (see fin_qa/search/retrieve.py)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .yamlfile import RuleError, line_of, load_rules_yaml


@dataclass
class SearchConfig:
    heading_weight: float = 4.0
    phrase_boost: float = 2.0
    title_boost: float = 6.0
    candidates: int = 40
    title_bonus: float = 1.0
    heading_bonus: float = 0.5
    empty_penalty: float = 0.5
    statements_penalty: float = 0.5
    section_chars: int = 3000
    excerpt_chars: int = 360
    filler: list[re.Pattern] = field(default_factory=list)


def load_search_config(path: Path) -> SearchConfig:
    """rules/search.yaml: field weights, candidates, section scoring bonuses/penalties, lengths, filler."""
    data = load_rules_yaml(path)
    if not isinstance(data, dict):
        raise RuleError(path, 1, "expected a mapping of search settings")
    cfg = SearchConfig()
    lines = getattr(data, "key_lines", {})
    for key, value in data.items():
        line = lines.get(key, 1)
        if key == "filler":
            if not isinstance(value, list):
                raise RuleError(path, line, "filler must be a list of regexes")
            for p in value:
                try:
                    cfg.filler.append(re.compile(str(p)))
                except re.error as exc:
                    raise RuleError(path, line_of(value, line), f"filler: bad regex {p!r}: {exc}") from None
            continue
        if not hasattr(cfg, key):
            raise RuleError(path, line, f"unknown setting {key!r}")
        want = type(getattr(cfg, key))
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0 or (want is int and value != int(value)):
            raise RuleError(path, line, f"{key} must be a {'whole ' if want is int else ''}non-negative number")
        setattr(cfg, key, want(value))
    if cfg.candidates < 1 or cfg.section_chars < 200 or cfg.excerpt_chars < 50:
        raise RuleError(path, 1, "candidates must be ≥ 1, section_chars ≥ 200 and excerpt_chars ≥ 50")
    return cfg
