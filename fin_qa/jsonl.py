"""JSON-lines files (FinGLM questions, answers, gold): each line parsed on its own.

Every problem is said the same way, with its line number: "第N行：<what is wrong>" — a line that is not
UTF-8 is one bad line like any other, never the whole file's failure.
"""
from __future__ import annotations

import json


def problem(n: int, what: str, unit: str = "行") -> str:
    """"第3行：不是合法的JSON" (an array's item: 第3项)."""
    return f"第{n}{unit}：{what}"


def split_lines(data: bytes | str) -> list[tuple[int, str | None]]:
    """(line number, text or None where the line is not UTF-8) for every line; a BOM on the first is dropped."""
    if isinstance(data, str):
        lines = data.splitlines()
        if lines and lines[0].startswith("\ufeff"):
            lines[0] = lines[0][1:]
        return list(enumerate(lines, 1))
    out: list[tuple[int, str | None]] = []
    for n, raw in enumerate(data.split(b"\n"), 1):
        try:
            text = raw.decode("utf-8-sig" if n == 1 else "utf-8")
        except UnicodeDecodeError:
            out.append((n, None))
            continue
        out.append((n, text.rstrip("\r")))
    return out


def parse_lines(data: bytes | str) -> list[tuple[int, dict | None, str | None]]:
    """(line number, object or None, problem in Chinese or None) for every non-empty line."""
    out: list[tuple[int, dict | None, str | None]] = []
    for n, line in split_lines(data):
        if line is None:
            out.append((n, None, problem(n, "不是UTF-8文本")))
            continue
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            out.append((n, None, problem(n, "不是合法的JSON")))
            continue
        out.append((n, rec, None) if isinstance(rec, dict) else (n, None, problem(n, "不是JSON对象")))
    return out
