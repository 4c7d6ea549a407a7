"""The number guard: every number a model writes must be one the evidence or the computation has."""
from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

_NUM = re.compile(r"(?<![\d.])\d[\d,，]*(?:\.\d+)?")


def _norm(raw: str) -> str | None:
    s = raw.replace(",", "").replace("，", "")
    try:
        d = Decimal(s)
    except InvalidOperation:
        return None
    return format(d.normalize(), "f") if d == d.to_integral() or "." in s else s


def numbers(text: str) -> set[str]:
    """Every number in text, normalised (13,600.00 → 13600; 4.12 stays 4.12)."""
    out = set()
    for m in _NUM.finditer(text or ""):
        n = _norm(m.group(0))
        if n is not None:
            out.add(n)
    return out


def unsupported_numbers(answer: str, *sources: str) -> list[str]:
    """The numbers of answer that appear in none of the sources (the question counts as a source)."""
    known: set[str] = set()
    for s in sources:
        known |= numbers(s)
    return sorted(n for n in numbers(answer) if n not in known)
