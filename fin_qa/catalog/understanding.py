"""rules/understanding.yaml: how questions are read — fuzzy thresholds, filler, decimals, cue patterns."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .frame_rules import CompanyNameRules, FrameRules, load_company_names, load_frame_rules
from .yamlfile import LDict, RuleError, line_of, load_rules_yaml, rule_regex


@dataclass
class UnderstandingConfig:
    company_threshold: int = 82
    item_threshold: int = 75
    min_residue: int = 2
    prefer_longer: bool = True
    meaning_words: tuple[str, ...] = ()   # a phrase holding one the residue lacks is not what it means
    filler: list[str] = field(default_factory=list)
    neutral: list[re.Pattern] = field(default_factory=list)   # said to the reader: no slot, no meaning
    neutral_spans: list[re.Pattern] = field(default_factory=list)   # the same, read before the filler cuts
    decimals: list[re.Pattern] = field(default_factory=list)
    pair_ratio: re.Pattern | None = None
    ask_model: re.Pattern | None = None
    shapes: list[tuple[str, re.Pattern]] = field(default_factory=list)   # (shape, cue), first match wins
    percent: re.Pattern | None = None
    ratio: re.Pattern | None = None       # a plain ratio asked (比值, 之比, 多少倍): a number, never a percent
    unit: re.Pattern | None = None
    statistics: "StatisticsCues | None" = None
    frame: "FrameRules | None" = None
    company_names: CompanyNameRules = field(default_factory=CompanyNameRules)


SHAPES = ("yes_no", "value", "list")
NUM = r"[0-9.]+|[零〇一二两三四五六七八九十百千万亿]+"


@dataclass
class StatisticsCues:
    """rules/understanding.yaml `statistics:` — rank, top-N, n-th, count, threshold and place cues."""
    count: re.Pattern
    descending: tuple[str, ...]
    ascending: tuple[str, ...]
    top: re.Pattern
    extreme_n: re.Pattern
    nth: re.Pattern
    rank_words: re.Pattern
    ops: list[tuple[str, str]]          # (word, operator), longest word first
    threshold: re.Pattern
    threshold_after: re.Pattern
    places: list[re.Pattern]
    office_words: tuple[str, ...]
    several: int = 3                    # how many "哪几家…最高" lists (a top-N whose N is 几)
    every: re.Pattern | None = None     # a whole order asked (从高到低排个序): every company, no top-N said
    companies_n: re.Pattern | None = None   # N companies named in a ranking, no top word ("最前面的三家公司")
    # a kind of company (rules/checks.yaml essentials: bank, insurer, broker) left out or kept: (pattern, kind, keep)
    kinds: tuple[tuple[re.Pattern, str, bool, str], ...] = ()   # (+ the answer's words for it; "": as written)


def _regex(path: Path, line: int, key: str, text: object, groups: int | None = None) -> re.Pattern:
    rx = rule_regex(path, line, key, str(text))
    if groups is not None and rx.groups != groups:
        raise RuleError(path, line, f"{key}: regex {text!r} needs exactly {groups} group(s)")
    return rx


def _words(path: Path, line: int, key: str, value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(w, str) and w for w in value):
        raise RuleError(path, line, f"{key} must be a non-empty list of words")
    return tuple(value)


def _statistics(path: Path, data: dict) -> StatisticsCues:
    lines = getattr(data, "key_lines", {})

    def line(key: str) -> int:
        return lines.get(key, line_of(data))

    missing = [k for k in ("count", "descending", "ascending", "top", "extreme_n", "nth", "rank_words", "comparisons",
                           "threshold", "threshold_after", "places", "office_words") if k not in data]
    if missing:
        raise RuleError(path, line_of(data), f"statistics: missing {', '.join(missing)}")
    comps = data["comparisons"]
    if not isinstance(comps, dict) or set(comps) - {">", "<", ">=", "<="}:
        raise RuleError(path, line("comparisons"), "statistics.comparisons: a mapping of >, <, >=, <= to words")
    ops = sorted(((w, op) for op, ws in comps.items() for w in _words(path, line("comparisons"), f"comparisons {op}", ws)),
                 key=lambda x: -len(x[0]))
    alternatives = "|".join(re.escape(w) for w, _ in ops)

    def fill(key: str) -> str:
        return str(data[key]).replace("{num}", NUM).replace("{ops}", alternatives)

    places = data["places"]
    if not isinstance(places, list) or not places:
        raise RuleError(path, line("places"), "statistics.places must be a list of regexes")
    place_rx = []
    for p in places:
        rx = _regex(path, line_of(places), "statistics.places", p)
        if "place" not in rx.groupindex:
            raise RuleError(path, line_of(places), f"statistics.places: regex {p!r} needs a group (?P<place>…)")
        place_rx.append(rx)
    return StatisticsCues(
        count=_regex(path, line("count"), "statistics.count", data["count"]),
        descending=_words(path, line("descending"), "statistics.descending", data["descending"]),
        ascending=_words(path, line("ascending"), "statistics.ascending", data["ascending"]),
        top=_regex(path, line("top"), "statistics.top", fill("top"), 1),
        extreme_n=_regex(path, line("extreme_n"), "statistics.extreme_n", fill("extreme_n"), 1),
        nth=_regex(path, line("nth"), "statistics.nth", fill("nth"), 1),
        rank_words=_regex(path, line("rank_words"), "statistics.rank_words", data["rank_words"]),
        ops=ops,
        threshold=_regex(path, line("threshold"), "statistics.threshold", fill("threshold"), 4),
        threshold_after=_regex(path, line("threshold_after"), "statistics.threshold_after", fill("threshold_after"), 4),
        places=place_rx,
        office_words=_words(path, line("office_words"), "statistics.office_words", data["office_words"]),
        several=_count(path, line("several"), data.get("several", 3)),
        every=_regex(path, line("every"), "statistics.every", data["every"]) if data.get("every") else None,
        companies_n=_regex(path, line("companies_n"), "statistics.companies_n", fill("companies_n"), 1)
        if data.get("companies_n") else None,
        kinds=_kinds(path, line("kinds"), data.get("kinds") or []),
    )


def _kinds(path: Path, line: int, value: object) -> tuple[tuple[re.Pattern, str, bool, str], ...]:
    if not isinstance(value, list) or not all(isinstance(k, dict) and isinstance(k.get("pattern"), str)
                                              and isinstance(k.get("kind"), str) and isinstance(k.get("keep"), bool)
                                              and isinstance(k.get("said", ""), str) for k in value):
        raise RuleError(path, line, "statistics.kinds: a list of {pattern, kind, keep: true|false, said (optional)}")
    return tuple((_regex(path, line_of(k, line), "statistics.kinds", k["pattern"]), k["kind"], k["keep"],
                  k.get("said", "")) for k in value)


def _count(path: Path, line: int, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise RuleError(path, line, f"statistics.several must be a whole number ≥ 1, not {value!r}")
    return value


def load_understanding_config(path: Path) -> UnderstandingConfig:
    """rules/understanding.yaml: fuzzy thresholds, filler patterns, decimals, pair_ratio, ask_model."""
    data = load_rules_yaml(path)
    if not isinstance(data, LDict):   # load_rules_yaml reads every mapping as an LDict
        raise RuleError(path, 1, "expected a mapping with fuzzy, filler, decimals")
    cfg = UnderstandingConfig()
    fuzzy = data.get("fuzzy") or {}
    for key in ("company_threshold", "item_threshold", "min_residue"):
        if key in fuzzy:
            if not isinstance(fuzzy[key], int) or not 0 <= fuzzy[key] <= 100:
                raise RuleError(path, line_of(fuzzy), f"fuzzy.{key} must be a whole number 0-100")
            setattr(cfg, key, fuzzy[key])
    cfg.prefer_longer = bool(fuzzy.get("prefer_longer", True))
    words = fuzzy.get("meaning_words") or []
    if not isinstance(words, list) or not all(isinstance(w, str) and w for w in words):
        raise RuleError(path, line_of(fuzzy), "fuzzy.meaning_words must be a list [..] of words")
    cfg.meaning_words = tuple(words)
    for key in ("filler", "decimals", "neutral", "neutral_spans"):
        pats = data.get(key) or []
        if not isinstance(pats, list):
            raise RuleError(path, line_of(pats), f"{key} must be a list of regexes")
        for p in pats:
            rx = rule_regex(path, line_of(pats), key, str(p))
            if key == "decimals" and rx.groups != 1:
                raise RuleError(path, line_of(pats), f"decimals: regex {p!r} needs exactly one group")
            if key == "filler":
                cfg.filler.append(str(p))
            elif key in ("neutral", "neutral_spans"):
                getattr(cfg, key).append(rx)
            else:
                cfg.decimals.append(rx)
    for key in ("pair_ratio", "ask_model", "percent", "ratio", "unit"):
        if data.get(key):
            setattr(cfg, key, _regex(path, data.key_lines.get(key, 1), key, data[key], 1 if key == "unit" else None))
    shape = data.get("shape") or LDict()
    if not isinstance(shape, LDict) or set(shape) - set(SHAPES):
        raise RuleError(path, data.key_lines.get("shape", 1), f"shape: a mapping of {', '.join(SHAPES)} to regexes")
    cfg.shapes = [(k, _regex(path, shape.key_lines.get(k, 1), f"shape.{k}", shape[k])) for k in SHAPES if shape.get(k)]
    # without these the statistics answerer, text extraction and A/B percent would silently do nothing
    missing = [k for k in ("shape", "percent", "statistics") if not data.get(k)]
    if missing:
        raise RuleError(path, 1, f"missing {', '.join(missing)} (see the shipped understanding.yaml)")
    stats = data.get("statistics")
    if stats is not None:
        if not isinstance(stats, dict):
            raise RuleError(path, data.key_lines.get("statistics", 1), "statistics must be a mapping")
        cfg.statistics = _statistics(path, stats)
    if "frame" not in data:
        raise RuleError(path, 1, "missing frame (see the shipped understanding.yaml)")
    # (the frame's period words are the lexicon's: rules/lexicon.yaml beside this file, named {opening} …)
    cfg.frame = load_frame_rules(path, data)
    cfg.company_names = load_company_names(path, data)
    return cfg
