"""Extractive answers to text questions (FinGLM 3-1) from a retrieved section — no chat model.

The section's chunks are cut into units: table rows (a line with numbers in columns) and sentences.
Ticked options of "□…√…" check lines are kept, the unticked ones dropped ("□有 √无重大诉讼" → "无重大诉讼").
Units are scored by the question's tokens (character bigrams) they contain, the topic words counting
double. Then, by the question's shape (its Understanding, from rules/understanding.yaml `shape:`):
  - yes/no (是否/有无/有没有 …): the best unit that speaks about the topic decides — the topic's
    negative/positive phrases (keyword_tables/sections.yaml) first, a general negation (无/未/没有/不存在/
    不适用) else — and is quoted;
  - a number (比例/占比/多少/金额 …): the best table rows with numbers (up to three within 60% of the best),
    unless a sentence printing an amount scores far above every row: then those sentences;
  - otherwise: the best units, in reading order, up to `max_chars`.
A section that only says "不适用" is answered as such. Every quoted unit is evidence {page, heading, text}.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..catalog.topics import Topic
from ..search.retrieve import NOT_APPLICABLE, Passage
from ..bigrams import tokens
from .model import PassageEvidence

NEGATION = re.compile(r"(?:无|未|没有|不存在|不涉及|未发生|不适用)")
_CHECK = re.compile(r"([□√■☑])")
_SENT = re.compile(r"(?<=[。！？；])")
_ROWLIKE = re.compile(r"\d[\d,]*(?:\.\d+)?%?\s*$|\|")


@dataclass
class Unit:
    text: str
    page: int | None
    path: list[str]
    row: bool
    order: int
    score: float = 0.0


def ticked(text: str) -> str:
    """Keep the ticked options of a check line: "□适用 √不适用" → "不适用"."""
    if not _CHECK.search(text):
        return text
    parts = _CHECK.split(text)
    out = parts[0]
    for mark, seg in zip(parts[1::2], parts[2::2]):
        if mark != "□":
            out += seg
    return out.strip()


_AMOUNT = re.compile(r"\d[\d,]*\.\d+|\d{1,3}(?:,\d{3})+")   # a printed amount or rate, not "前10名" / "5%以上"


def units(passage: Passage) -> list[Unit]:
    out: list[Unit] = []
    for piece in passage.pieces:
        for line in piece.text.split("\n"):
            line = ticked(line.strip())
            if not line:
                continue
            if _ROWLIKE.search(line) and len(line) < 160:
                out.append(Unit(line, piece.page_start, piece.path, True, len(out)))
                continue
            for s in _SENT.split(line):
                s = s.strip()
                if s:
                    out.append(Unit(s, piece.page_start, piece.path, False, len(out)))
    return out


def _score(units_: list[Unit], query: set[str], topic_words: list[str]) -> None:
    for u in units_:
        toks = set(tokens(u.text))
        hit = len(toks & query)
        hit += sum(2 for w in topic_words if w in u.text)
        u.score = hit / (1.0 + math.log1p(len(toks) / 40.0)) if hit else 0.0


@dataclass
class TextResult:
    kind: str                # yes | no | rows | excerpt | not_applicable | empty
    excerpt: str
    used: list[Unit]


def extract(question: str, shape: str, passage: Passage, topics: list[Topic], query_text: str,
            max_chars: int = 360) -> TextResult:
    """The units of the passage that answer the question, by its shape (yes_no | value | list | description)."""
    us = units(passage)
    if not us:
        return TextResult("empty", "", [])
    if all(NOT_APPLICABLE.match(u.text) for u in us):
        return TextResult("not_applicable", us[0].text, us[:1])
    words = [w for t in topics for w in t.words if w in question] + [w for t in topics for w in t.titles]
    words = list(dict.fromkeys(words))
    query = set(tokens(query_text)) | {t for w in words for t in tokens(w)}
    _score(us, query, words)
    ranked = sorted((u for u in us if u.score > 0), key=lambda u: (-u.score, u.order))
    if shape == "yes_no":
        about = [u for u in ranked if any(w in u.text for w in words)] or ranked or us
        best = about[0]
        text = best.text
        neg = [p for t in topics for p in t.no]
        pos = [p for t in topics for p in t.yes]
        if any(p in text for p in neg):
            kind = "no"
        elif any(p in text for p in pos):
            kind = "yes"
        else:
            kind = "no" if NEGATION.search(text) else "yes"
        return TextResult(kind, text, [best])
    if shape == "value":
        rows = [u for u in ranked if u.row][:3]
        rows = [u for u in rows if u.score >= 0.6 * rows[0].score] if rows else rows
        # table rows answer a value — unless a sentence printing an amount (12,600.00, 42.00%) speaks of what
        # is asked far more than any row ("前五名客户销售额12,600.00万元，占年度销售总额42.00%" over the table's
        # "1 客户一 4,200.00 14.00"): then the sentences printing one that score best
        if rows and rows[0].score < 0.6 * ranked[0].score:
            said = [u for u in ranked if not u.row and _AMOUNT.search(u.text)][:3]
            said = [u for u in said if u.score >= 0.6 * ranked[0].score]
            if said:
                said.sort(key=lambda u: u.order)
                return TextResult("rows", "；".join(u.text.rstrip("；;") for u in said), said)
        if rows:
            rows.sort(key=lambda u: u.order)
            return TextResult("rows", "；".join(u.text for u in rows), rows)
    total = sum(len(u.text) for u in us)
    if total <= max_chars:
        chosen = [u for u in us if not NOT_APPLICABLE.match(u.text)] or us
    else:
        chosen, size = [], 0
        for u in ranked or us:
            if chosen and size + len(u.text) > max_chars:
                continue
            chosen.append(u)
            size += len(u.text)
            if size >= max_chars * 0.8 or len(chosen) >= 6:
                break
        chosen.sort(key=lambda u: u.order)
    return TextResult("excerpt", _join(chosen), chosen)


def _join(us: list[Unit]) -> str:
    out = ""
    for u in us:
        if out and not re.search(r"[。！？；]$", out):
            out += "；"
        out += u.text
    return out


def evidence(result: TextResult, passage: Passage) -> list[PassageEvidence]:
    """Every quoted unit, with its page, heading path and the section's score."""
    return [PassageEvidence(u.page, " > ".join(u.path or passage.path), u.text, passage.score, passage.report_key)
            for u in result.used]
