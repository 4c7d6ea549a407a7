"""The FinGLM scorer, without embeddings.

Types 1, 1-2, 2-1, 2-2: commas and spaces are removed from the answer; the gold value (prom_answer, or
each raw value for 1-2) must appear in it. If it does: 0.25 + 0.5 x similarity to the reference answers
+ 0.25 when every key word and the year appear too. A gold that says "not in the corpus" (key_word
"无|不|没有|未|…") is met by an answer containing one of those words. Types 3-1, 3-2: similarity.
Final = 0.3·T1 + 0.4·T2 + 0.2·T3-1 + 0.1·T3-2 (T1 = types 1 and 1-2, T2 = 2-1 and 2-2).

Similarity here is the cosine of character-bigram counts (the contest used a sentence-embedding
model; this is a stand-in that needs no model), best over the reference answers.

Beyond the score it counts, per type: hit (gold value contained), admitted (the answer says it has no
value), wrong (a value was given and it is not the gold one).
"""
from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from .base import FinQAError
from .jsonl import parse_lines

TYPES = ["1", "1-2", "2-1", "2-2", "3-1", "3-2"]
WEIGHTS = {"T1": 0.3, "T2": 0.4, "T3-1": 0.2, "T3-2": 0.1}
GROUP = {"1": "T1", "1-2": "T1", "2-1": "T2", "2-2": "T2", "3-1": "T3-1", "3-2": "T3-2"}
ADMIT = re.compile(r"未查询到|未找到|无法回答|无法计算|没有找到|不存在|未能")


def bigrams(text: str) -> Counter:
    s = re.sub(r"\s+", "", text or "")
    return Counter(s[i:i + 2] for i in range(len(s) - 1)) if len(s) > 1 else Counter(s)


def similarity(a: str, b: str) -> float:
    x, y = bigrams(a), bigrams(b)
    if not x or not y:
        return 0.0
    dot = sum(v * y.get(k, 0) for k, v in x.items())
    return dot / math.sqrt(sum(v * v for v in x.values()) * sum(v * v for v in y.values()))


def _clean(s: str) -> str:
    return str(s).replace(",", "").replace("，", "").replace(" ", "")


@dataclass
class Scored:
    id: object
    type: str
    score: float
    hit: bool
    admitted: bool
    wrong: bool


def gold_values(gold: dict) -> tuple[list[str], re.Pattern | None, list[str]]:
    """(values that must appear, or a regex of 'not available' words; key words + year for the bonus)."""
    p = gold.get("prompt") or {}
    kw = p.get("key_word") or ""
    if "|" in kw:
        return [], re.compile(kw), []
    keys = [k for k in re.split(r"[、,，]", kw) if k]
    words = keys + ([str(p["year"])] if p.get("year") else [])
    if gold.get("type") == "1-2":
        vals = [str(p[k]) for k in keys if p.get(k) not in (None, "")]
        return vals or ([str(p["prom_answer"])] if p.get("prom_answer") else []), None, words
    return ([str(p["prom_answer"])] if p.get("prom_answer") not in (None, "") else []), None, words


def score_one(answer: str, gold: dict) -> Scored:
    t = str(gold.get("type"))
    refs = gold.get("answer") or []
    sim = max((similarity(answer, r) for r in refs), default=0.0)
    admitted = bool(ADMIT.search(answer or ""))
    if t in ("3-1", "3-2"):
        return Scored(gold.get("id"), t, sim, False, admitted, False)
    vals, not_avail, words = gold_values(gold)
    a = _clean(answer or "")
    if not_avail is not None:
        ok = bool(not_avail.search(answer or ""))
        return Scored(gold.get("id"), t, (0.5 + 0.5 * sim) if ok else 0.0, ok, admitted, not ok and not admitted)
    ok = bool(vals) and all(_clean(v) in a for v in vals)
    if not ok:
        return Scored(gold.get("id"), t, 0.0, False, admitted, not admitted)
    bonus = 0.25 if all(_clean(w) in a for w in words) else 0.0
    return Scored(gold.get("id"), t, 0.25 + 0.5 * sim + bonus, True, admitted, False)


def read_jsonl(path: str | Path, what: str, gold: bool = False) -> list[dict]:
    """The lines of an answer file (id, answer) or, `gold`, a FinGLM gold file (id, type, answer): the first
    line that is not one stops with its number (a file of another format is never scored as 0.00)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise FinQAError(f"{p}: cannot read {what} ({exc.strerror or exc})") from None
    out: list[dict] = []
    for n, rec, problem in parse_lines(data):
        if problem:
            raise FinQAError(f"{p}:{n}: {problem}")
        assert rec is not None   # parse_lines gives an object exactly when it gives no problem
        need = ("id", "type", "answer") if gold else ("id", "answer")
        missing = [k for k in need if k not in rec]
        if missing or (gold and str(rec.get("type")) not in TYPES):
            shown = f"no {', '.join(missing)}" if missing else f"type {rec.get('type')!r} is none of {', '.join(TYPES)}"
            raise FinQAError(f"{p}:{n}: not a line of {what} ({shown}; a FinGLM "
                             f"{'gold line has id, type, answer' if gold else 'answer line has id, answer'})")
        out.append(rec)
    if not out:
        raise FinQAError(f"{p}: no {what} in it")
    return out


@dataclass
class Report:
    rows: list[Scored] = field(default_factory=list)
    missing: int = 0

    def by_type(self) -> dict[str, dict]:
        groups: dict[str, list[Scored]] = defaultdict(list)
        for r in self.rows:
            groups[r.type].append(r)
        out = {}
        for t in TYPES:
            rs = groups.get(t, [])
            if not rs:
                continue
            n = len(rs)
            out[t] = {"n": n, "score": 100 * sum(r.score for r in rs) / n, "hit": 100 * sum(r.hit for r in rs) / n,
                      "admitted": 100 * sum(r.admitted and not r.hit for r in rs) / n,
                      "wrong": 100 * sum(r.wrong for r in rs) / n}
        return out

    def groups(self) -> dict[str, float]:
        acc: dict[str, list[float]] = defaultdict(list)
        for r in self.rows:
            acc[GROUP.get(r.type, r.type)].append(r.score)
        return {g: 100 * sum(v) / len(v) for g, v in acc.items() if v}

    def final(self) -> float:
        g = self.groups()
        return sum(WEIGHTS[k] * g.get(k, 0.0) for k in WEIGHTS)


def evaluate(answers: list[dict], golds: list[dict]) -> Report:
    by_id = {a.get("id"): a for a in answers}
    rep = Report()
    for g in golds:
        a = by_id.get(g.get("id"))
        if a is None:
            rep.missing += 1
            rep.rows.append(Scored(g.get("id"), str(g.get("type")), 0.0, False, False, False))
            continue
        rep.rows.append(score_one(str(a.get("answer") or ""), g))
    return rep


def format_report(rep: Report) -> str:
    lines = [f"{'type':6} {'n':>5} {'score':>7} {'hit%':>7} {'admitted%':>10} {'wrong%':>7}"]
    for t, s in rep.by_type().items():
        lines.append(f"{t:6} {s['n']:5d} {s['score']:7.2f} {s['hit']:7.2f} {s['admitted']:10.2f} {s['wrong']:7.2f}")
    g = rep.groups()
    lines.append("groups: " + "  ".join(f"{k} {g[k]:.2f}" for k in WEIGHTS if k in g))
    lines.append(f"final (0.3·T1 + 0.4·T2 + 0.2·T3-1 + 0.1·T3-2): {rep.final():.2f}")
    if rep.missing:
        lines.append(f"{rep.missing} gold questions have no answer line (scored 0)")
    lines.append("similarity: character-bigram cosine, best over the reference answers (no embedding model)")
    return "\n".join(lines)
