"""keyword_tables/glyphs.yaml: the characters a PDF font's broken ToUnicode map gives for the ones it draws
(癿 for 的, 幵 for 并): a font holding `signature` characters is broken, and its characters listed in
`signature` or `shifted` are read as the ones they stand for (fin_qa/ingest/pages.py)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .yamlfile import LDict, RuleError, line_of, load_rules_yaml


@dataclass(frozen=True)
class GlyphRepairs:
    signature: dict[str, str] = field(default_factory=dict)   # never a report's own words
    shifted: dict[str, str] = field(default_factory=dict)     # ordinary words elsewhere
    min_signature: int = 3    # distinct signature characters a font must show to be taken as broken

    @property
    def repairs(self) -> dict[str, str]:
        return {**self.shifted, **self.signature}


def load_glyph_repairs(path: Path) -> GlyphRepairs:
    if not path.is_file():
        return GlyphRepairs()
    data = load_rules_yaml(path)
    if not isinstance(data, LDict):
        raise RuleError(path, 1, "expected signature: and shifted: maps of one character → one character")
    out: dict[str, dict[str, str]] = {}
    for key in ("signature", "shifted"):
        value = data.get(key) or {}
        line = data.key_lines.get(key, line_of(data))
        if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) and len(k) == 1
                                                  and len(v) == 1 and k != v for k, v in value.items()):
            raise RuleError(path, line, f"`{key}:` must map one character to another")
        out[key] = dict(value)
    both = set(out["signature"]) & set(out["shifted"])
    if both:
        raise RuleError(path, 1, f"in both signature and shifted: {''.join(sorted(both))}")
    return GlyphRepairs(out["signature"], out["shifted"])
