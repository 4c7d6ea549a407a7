"""Reading a small model's nearly-JSON reply: fences, Chinese quotes and punctuation, single quotes,
trailing commas and missing closing brackets are repaired; keywords are taken from the result."""
from __future__ import annotations

import json
import re

_FENCE = re.compile(r"```(?:json)?|```")
_TRAILING = re.compile(r",\s*([}\]])")
_KEYS = ("关键词", "关键字", "keywords", "keyword", "key_word", "财务项目", "项目", "指标")


def _close(text: str) -> str:
    """Cut at the end of the first balanced JSON value, or add the brackets it is missing."""
    stack, in_str, esc = [], False, False
    for i, ch in enumerate(text):
        if in_str:
            esc = (ch == "\\" and not esc)
            if ch == '"' and not esc:
                in_str = False
            continue
        if ch == '"':
            in_str = True
        elif ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]":
            if stack:
                stack.pop()
            if not stack:
                return text[:i + 1]
    return text + ('"' if in_str else "") + "".join(reversed(stack))


def parse_json_loose(text: str):
    """The JSON value in text, repaired if need be; None when there is none."""
    if not text:
        return None
    t = _FENCE.sub("", text).strip()
    starts = [i for i in (t.find("{"), t.find("[")) if i >= 0]
    if not starts:
        return None
    t = t[min(starts):]
    attempts = [t]
    fixed = t.replace("“", '"').replace("”", '"').replace("‘", "'").replace("’", "'").replace("：", ":").replace("，", ",")
    attempts.append(fixed)
    if '"' not in fixed:
        attempts.append(fixed.replace("'", '"'))
    for a in attempts:
        for cand in (a, _close(a)):
            cand = _TRAILING.sub(r"\1", cand)
            try:
                return json.loads(cand)
            except ValueError:
                continue
    return None


def keywords_from(value) -> list[str]:
    """Keywords from a parsed reply: {"关键词": [...]} (or a similar key), a list, or a string."""
    if isinstance(value, dict):
        for k in _KEYS:
            if k in value:
                return keywords_from(value[k])
        for v in value.values():
            got = keywords_from(v)
            if got:
                return got
        return []
    if isinstance(value, list):
        out = []
        for v in value:
            out += keywords_from(v) if isinstance(v, (list, dict)) else ([str(v).strip()] if str(v).strip() else [])
        return out
    if isinstance(value, str):
        return [w for w in re.split(r"[,，、;；\s]+", value) if w]
    return []
