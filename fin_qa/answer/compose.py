"""Answer sentences from rules/answer_templates.yaml, and how numbers are printed.

Styles: `human` (149,399,000.00元; 10.04%; 0.36) and `finglm` (the contest's printing: amounts as
Python prints a float, 149399000.0元). Rounding is ROUND_HALF_UP on Decimal.
"""
from __future__ import annotations

import functools
import string
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from ..config import rules_dir
from ..rules import RuleError, load_rules_yaml

STYLES = ("human", "finglm")

# template name → the placeholders it may use
PLACEHOLDERS = {
    "lookup": {"company", "year", "item", "value"},
    "lookup_many": {"company", "year", "parts"},
    "lookup_part": {"item", "value"},
    "formula": {"company", "year", "name", "value", "expr", "parts"},
    "formula_part": {"label", "value"},
    "compare_same": {"company", "parts"},
    "compare_diff": {"company", "parts"},
    "compare_part": {"year", "item", "value"},
    "rank": {"year", "scope", "item", "order", "parts"},
    "rank_part": {"rank", "company", "value"},
    "count": {"year", "scope", "item", "condition", "n", "examples"},
    "not_found_company": set(),
    "not_found_report": {"company", "year"},
    "not_found_value": {"company", "year", "item"},
    "not_found_prev": {"company", "year", "item", "name"},
    "no_year": {"company", "year"},
    "not_understood": set(),
    "not_computable": {"company", "year", "name", "reason"},
    "not_chinese": set(),
    "empty": set(),
    "bad_line": {"reason"},
    "text_answer": {"company", "year", "section", "page", "excerpt"},
    "text_yes": {"company", "year", "section", "page", "excerpt"},
    "text_no": {"company", "year", "section", "page", "excerpt"},
    "text_not_applicable": {"company", "year", "section", "page"},
    "text_not_found": {"company", "year", "topic"},
    "text_no_text": {"company", "year"},
    "open_unavailable": set(),
    "open_formula": {"name", "expr"},
    "open_refused": set(),
}


def placeholders(text: str) -> set[str]:
    """The {names} a template or prompt uses; ValueError when one is malformed."""
    return {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}


def unknown_placeholders(unknown: set[str], allowed: set[str]) -> str:
    return (f"unknown placeholder(s) {', '.join('{' + u + '}' for u in sorted(unknown))} "
            f"(allowed: {', '.join(sorted(allowed)) or 'none'})")


def load_templates(path: Path | None = None) -> dict[str, str]:
    path = path or rules_dir() / "answer_templates.yaml"
    data = load_rules_yaml(path)
    if not isinstance(data, dict):
        raise RuleError(path, 1, "expected a mapping template name → sentence")
    lines = data.key_lines
    for name in PLACEHOLDERS:
        if name not in data:
            raise RuleError(path, 1, f"missing template {name!r}")
    for name, text in data.items():
        line = lines.get(name, 1)
        if name not in PLACEHOLDERS:
            raise RuleError(path, line, f"unknown template {name!r}")
        if not isinstance(text, str):
            raise RuleError(path, line, f"template {name!r} must be a string")
        try:
            used = placeholders(text)
        except ValueError as exc:
            raise RuleError(path, line, f"template {name!r}: {exc}") from None
        unknown = used - PLACEHOLDERS[name]
        if unknown:
            raise RuleError(path, line, f"template {name!r}: {unknown_placeholders(unknown, PLACEHOLDERS[name])}")
    return {k: str(v) for k, v in data.items()}


@functools.lru_cache(maxsize=None)
def default_templates() -> dict[str, str]:
    return load_templates()


def render(templates: dict[str, str], template: str, **values) -> str:
    return templates[template].format(**values)


# ------------------------------------------------------------------------------------ numbers

def round_half_up(d: Decimal, decimals: int) -> Decimal:
    return d.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


def _plain(d: Decimal) -> str:
    s = format(d, "f")
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def float_str(d: Decimal) -> str:
    """The number as Python prints a float (149399000.0, 786054.8) — the contest's printing."""
    return repr(float(d))


def format_amount(d: Decimal, style: str, unit: str = "元") -> str:
    if style == "finglm":
        return float_str(d) + unit
    q = d if d.as_tuple().exponent < -2 else round_half_up(d, 2)
    return f"{q:,}" + unit


def format_value(value: str | Decimal, kind: str, style: str, unit: str | None = None) -> str:
    """A looked-up value as the answer prints it. kind: amount | per_share | count | percent | text."""
    if kind == "text":
        return str(value)
    d = value if isinstance(value, Decimal) else Decimal(str(value))
    if kind == "amount" and (unit in (None, "元")):
        return format_amount(d, style)
    if kind == "per_share":
        return (float_str(d) if style == "finglm" else _plain(d)) + "元"
    if kind == "count":
        return _plain(d) + ("" if style == "finglm" else "人")
    if kind == "percent":
        return _plain(d) + "%"
    return _plain(d) + (unit or "")


def format_result(d: Decimal, output: str, decimals: int, style: str) -> str:
    """A computed value: ratio 0.36, percent 10.04%, amount 元, per_share 元."""
    if output == "percent":
        return f"{round_half_up(d * 100, decimals)}%"
    if output == "ratio":
        return str(round_half_up(d, decimals))
    r = round_half_up(d, decimals)
    if output == "amount":
        return (float_str(r) + "元") if style == "finglm" else f"{r:,}元"
    return (float_str(r) if style == "finglm" else str(r)) + "元"
