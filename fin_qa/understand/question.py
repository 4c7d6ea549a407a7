"""One question → what it asks: companies, years, items/formulas, type, decimals."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from ..config import rules_dir
from ..numbers import cn_number
from ..rules import RuleError, line_of, load_rules_yaml
from ..search.topics import default_topics
from .classify import Features, Rule, classify, default_rules
from .entities import CompanyIndex, CompanyMatch, Years, find_years, normalize_question
from .generalize import Generalized, Generalizer
from .keywords import Keyword, KeywordMatcher, Vocabulary, default_vocabulary

_CJK = re.compile(r"[\u4e00-\u9fff]")


@dataclass
class UnderstandingConfig:
    company_threshold: int = 82
    item_threshold: int = 75
    min_residue: int = 2
    prefer_longer: bool = True
    filler: list[str] = field(default_factory=list)
    decimals: list[re.Pattern] = field(default_factory=list)
    pair_ratio: re.Pattern | None = None
    ask_model: re.Pattern | None = None


def load_understanding_config(path=None) -> UnderstandingConfig:
    path = path or rules_dir() / "understanding.yaml"
    data = load_rules_yaml(path)
    if not isinstance(data, dict):
        raise RuleError(path, 1, "expected a mapping with fuzzy, filler, decimals")
    cfg = UnderstandingConfig()
    fuzzy = data.get("fuzzy") or {}
    for key in ("company_threshold", "item_threshold", "min_residue"):
        if key in fuzzy:
            if not isinstance(fuzzy[key], int) or not 0 <= fuzzy[key] <= 100:
                raise RuleError(path, line_of(fuzzy), f"fuzzy.{key} must be a whole number 0-100")
            setattr(cfg, key, fuzzy[key])
    cfg.prefer_longer = bool(fuzzy.get("prefer_longer", True))
    for key in ("filler", "decimals"):
        pats = data.get(key) or []
        if not isinstance(pats, list):
            raise RuleError(path, line_of(pats), f"{key} must be a list of regexes")
        for p in pats:
            try:
                rx = re.compile(str(p))
            except re.error as exc:
                raise RuleError(path, line_of(pats), f"{key}: bad regex {p!r}: {exc}") from None
            if key == "decimals" and rx.groups != 1:
                raise RuleError(path, line_of(pats), f"decimals: regex {p!r} needs exactly one group")
            if key == "filler":
                cfg.filler.append(str(p))
            else:
                cfg.decimals.append(rx)
    for key in ("pair_ratio", "ask_model"):
        if data.get(key):
            try:
                setattr(cfg, key, re.compile(str(data[key])))
            except re.error as exc:
                raise RuleError(path, data.key_lines.get(key, 1), f"{key}: bad regex: {exc}") from None
    return cfg


@functools.lru_cache(maxsize=None)
def default_understanding_config() -> UnderstandingConfig:
    return load_understanding_config()


@dataclass
class Understanding:
    question: str
    norm: str
    companies: list[CompanyMatch]
    years: Years
    keywords: list[Keyword]
    generalized: list[Generalized]
    rule: Rule | None
    decimals: int | None
    chinese: bool
    masked: str = ""      # the question with the company and year spans replaced by '#'
    model_keywords: list[str] = field(default_factory=list)  # what the chat model answered, when it was asked

    @property
    def type(self) -> str:
        return self.rule.type if self.rule else "not_found"

    @property
    def items(self) -> list[str]:
        out = [k.name for k in self.keywords if k.kind == "item"]
        out += [g.name for g in self.generalized if g.kind == "item"]
        return list(dict.fromkeys(out))

    @property
    def formulas(self) -> list[str]:
        out = [k.name for k in self.keywords if k.kind == "formula"]
        out += [g.name for g in self.generalized if g.kind == "formula"]
        return list(dict.fromkeys(out))

    @property
    def item_words(self) -> dict[str, str]:
        """canonical item → the words the question used for it."""
        out: dict[str, str] = {}
        for k in self.keywords:
            out.setdefault(k.name, k.text)
        for g in self.generalized:
            out.setdefault(g.name, g.residue)
        return out

    def finglm_type(self) -> str:
        if not self.rule:
            return "1"
        if self.rule.finglm == "auto":
            return "1-2" if len(self.items) > 1 else "1"
        return self.rule.finglm


def _decimals(q: str, patterns: list[re.Pattern]) -> int | None:
    for rx in patterns:
        m = rx.search(q)
        if m:
            n = cn_number(m.group(1))
            return int(n) if n is not None else None
    return None


def _llm_masked(norm: str, companies, years) -> str:
    """The question as the few-shot turns show questions: company → <company>, year → <year>."""
    spans = [(m.start, m.end, "<company>") for m in companies if m.end > m.start and norm[m.start:m.end] == m.text]
    spans += [(s, e, "<year>年" if norm[e - 1:e] == "年" else "<year>") for s, e in years.spans]
    out, last = "", 0
    for s, e, mark in sorted(spans):
        if s < last:
            continue
        out += norm[last:s] + mark
        last = e
    return out + norm[last:]


class Understander:
    def __init__(self, reports: list[dict], vocab: Vocabulary | None = None, formula_phrases: dict | None = None,
                 rules: tuple[Rule, ...] | None = None, config: UnderstandingConfig | None = None):
        from ..answer.formulas import default_formulas

        self.config = config or default_understanding_config()
        self.vocab = vocab or default_vocabulary()
        if formula_phrases is None:
            formula_phrases = default_formulas().phrases
        self.companies = CompanyIndex(reports, self.config.company_threshold)
        self.matcher = KeywordMatcher(self.vocab, formula_phrases)
        self.generalizer = Generalizer(self.matcher.phrases, self.config.filler, self.config.item_threshold,
                                       self.config.min_residue, self.config.prefer_longer)
        self.rules = rules or default_rules()
        self.llm_keywords = None  # an LLMKeywords (understand/llm_keywords.py) when a chat model is loaded

    def understand(self, question: str) -> Understanding:
        norm = normalize_question(question or "")
        chinese = bool(_CJK.search(norm))
        companies = self.companies.find(norm) if chinese else []
        years = find_years(norm)
        masked = list(norm)
        for m in companies:
            masked[m.start:m.end] = "#" * (m.end - m.start)
        for s, e in years.spans:
            masked[s:e] = "#" * (e - s)
        masked_text = "".join(masked)
        if chinese and not companies and years.years:
            hit = self.companies.fuzzy(norm, masked_text)
            if hit:
                companies = [hit]
                masked_text = masked_text.replace(hit.text, "#" * len(hit.text))
        keywords, key_text = self.matcher.find(masked_text) if chinese else ([], "")
        generalized: list[Generalized] = []
        if chinese and not keywords:
            generalized = self.generalizer.generalize(key_text)
        model_keywords = []
        if (chinese and not keywords and not generalized and self.llm_keywords is not None
                and self.config.ask_model is not None and self.config.ask_model.search(norm)):
            ext = self.llm_keywords.extract(_llm_masked(norm, companies, years))
            generalized, model_keywords = ext.generalized, ext.keywords
        feats = Features(
            question=norm,
            has_company=bool(companies),
            has_year=bool(years.years),
            years=len(years.years),
            has_items=any(k.kind == "item" for k in keywords) or any(g.kind == "item" for g in generalized),
            has_formula=any(k.kind == "formula" for k in keywords) or any(g.kind == "formula" for g in generalized),
        )
        feats.has_topic = chinese and bool(default_topics().find(masked_text))
        n_items = len({k.name for k in keywords if k.kind == "item"} | {g.name for g in generalized if g.kind == "item"})
        feats.pair_ratio = bool(n_items >= 2 and not feats.has_formula and self.config.pair_ratio
                                and self.config.pair_ratio.search(norm))
        rule = classify(feats, self.rules) if chinese else None
        return Understanding(question, norm, companies, years, keywords, generalized, rule,
                             _decimals(norm, self.config.decimals), chinese, masked_text, model_keywords)
