"""JSON-lines files (FinGLM questions, answers, gold): each line parsed on its own."""
from __future__ import annotations

import json


def parse_lines(text: str) -> list[tuple[int, dict | None, str | None]]:
    """(line number, object or None, problem in Chinese or None) for every non-empty line."""
    out: list[tuple[int, dict | None, str | None]] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            out.append((n, None, f"第{n}行不是合法的JSON：{exc.msg}"))
            continue
        out.append((n, rec, None) if isinstance(rec, dict) else (n, None, f"第{n}行不是JSON对象"))
    return out
