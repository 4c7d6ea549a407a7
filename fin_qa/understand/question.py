"""One question → the Understanding every later stage reads (they never re-read the question text).

companies and years (entities.py), items and formulas (keywords.py regex, generalize.py thefuzz, the
chat model's few-shot keywords when one is loaded), the text topics it names (keyword_tables/
sections.yaml), its type from rules/question_types.yaml (with the contest label), and from the cues of
rules/understanding.yaml: decimals asked, shape (yes_no | value | list | description), a percentage
asked, the unit an amount is asked in, and for statistics the rank/count/top-N/threshold/place frame.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from .. import prefilter
from ..catalog import Catalog
from ..catalog.question_rules import Features, Rule
from ..catalog.topics import Topic
from ..catalog.understanding import UnderstandingConfig
from .classify import classify
from ..catalog.normalize import normalize_question, phrase_key
from .entities import CompanyIndex, CompanyMatch, Years, find_years
from .frame import USED, Frame, mask, mask_phrase, read_frame, read_series, read_years_more, take, unused_cues
from .generalize import Generalized, Generalizer
from .keywords import Keyword, KeywordMatcher, matched_key
from .lexicon import Lexicon
from .ranking import Ranking, read_ranking

if TYPE_CHECKING:
    from .llm_keywords import LLMKeywords

_CJK = re.compile(r"[\u4e00-\u9fff]")
_CLAUSE = re.compile(r"[^，,。？?；;！!]+")
_LEADING_DU = re.compile(r"^度")   # "2012年度…": the year's 度, the year masked before it
_RELATIVE_YEAR = re.compile(r"上一?年度?|去年|前年|上年同期")   # the words find_years counts back from


@dataclass
class Understanding:
    question: str
    norm: str
    companies: list[CompanyMatch]
    years: Years
    keywords: list[Keyword]
    generalized: list[Generalized]
    rule: Rule | None
    chinese: bool
    masked: str = ""      # the question with the company and year spans replaced by '#'
    model_keywords: list[str] = field(default_factory=list)  # what the chat model answered, when it was asked
    topics: list[tuple[Topic, str]] = field(default_factory=list)  # text topics named, with the word naming each
    shape: str = "description"   # yes_no | value | list | description (rules/understanding.yaml shape)
    percent: bool = False         # a percentage asked for (百分比, %)
    ratio: str = ""               # the words asking a plain ratio (比值, 之比, 多少倍): a number, not a percent
    ranking: Ranking | None = None  # statistics: rank/count, order, top-N, threshold, place
    frame: Frame = field(default_factory=Frame)   # period, operation, unit, scope … and the unused cues
    company_unnamed: bool = False   # no company found and no words left that could name one
    rest: str = ""                  # the question with every used character marked '#'
    residue: Callable[[str], list[str]] | None = field(default=None, repr=False)   # filler, neutral words cut out
    # the unused words the lexicon read as how the question is asked (请问, 记载, 那一年 …: understand/lexicon.py),
    # marked used in `rest`: shown in the answer's record, never a reason to decline
    filler: list[str] = field(default_factory=list)

    @cached_property
    def left(self) -> list[str]:
        """The words no slot used that name something (no filler, neutral or lexicon filler word): what the
        answer does not account for (a text question's search words; for a value answer, a word it may have
        dropped). Computed on demand."""
        return self.residue(phrase_key(self.rest)) if self.residue is not None and self.rest else []

    @property
    def decimals(self) -> int | None:
        """The decimals asked (保留N位, 精确到0.01, 保留整数), or None."""
        return self.frame.decimals

    @property
    def unit(self) -> str | None:
        """The scale an amount is asked in: "" (元), 万, 亿 … (None: not said)."""
        return self.frame.unit

    @property
    def type(self) -> str:
        return self.rule.type if self.rule else "not_found"

    @property
    def items(self) -> list[str]:
        return list(self._named["item"])

    @property
    def formulas(self) -> list[str]:
        return list(self._named["formula"])

    @cached_property
    def _named(self) -> dict[str, tuple[str, ...]]:
        # the items and the formulas named, each once, in order (read often: worked out once — an understanding's
        # keywords are not changed once it is made)
        out: dict[str, dict[str, None]] = {"item": {}, "formula": {}}
        named: list[Keyword | Generalized] = [*self.keywords, *self.generalized]
        for k in named:
            if k.kind in out:
                out[k.kind][k.name] = None
        return {kind: tuple(names) for kind, names in out.items()}

    @property
    def asked(self) -> list[tuple[str, str]]:
        """(kind, name) of every keyword and generalized keyword, in order, each once."""
        return list(dict.fromkeys([(k.kind, k.name) for k in self.keywords] + [(g.kind, g.name) for g in self.generalized]))

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


def _shape(q: str, cfg: UnderstandingConfig) -> str:
    return next((name for name, rx in cfg.shapes if rx.search(q)), "description")


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


def _substrings(labels, topics) -> set[str]:
    """Every 2-6 character piece of an item label or text-topic word: a spoken company form that is one of
    these would take an item's words for a company ("生物" of 生物股份 in 生产性生物资产)."""
    out: set[str] = set()
    words = list(labels) + [w for t in topics.topics for w in t.words]
    for w in words:
        for n in range(2, 7):
            out.update(w[i:i + n] for i in range(len(w) - n + 1))
    return out


def _stands_alone(text: str, phrase: str, rules) -> bool:
    """Whether a short item word stands alone where the question has it ("2019年收入", not "海外收入")."""
    i = text.find(phrase)
    if rules.bare_after.match(text, i + len(phrase)) is not None:
        return False  # 利润表, 利润率: another word
    return i <= 0 or rules.bare_before.match(text, i - 1) is not None


# the employees' category tables (every employee counted) and what joins a group of people to a category
# asked of it ("研发人员中硕士")
_CATEGORY_TABLES = ("教育程度", "专业构成")
_POPULATION_GAP = re.compile(r"(?:当中|之中|中|里面?|内)?的?")
# the words before a group a question asks every row of (各学历的人数, 每个地区)
_GROUP_WORDS = ("各", "每")


class Understander:
    """Builds Understandings from the catalog's vocabulary, formulas, topics and rules, and the names of
    the reports the store knows. `llm_keywords` (understand/llm_keywords.py) is set when a chat model
    is loaded: it is asked only when the tables find no item in a value question."""

    def __init__(self, reports: Sequence, catalog: Catalog, llm_keywords: "LLMKeywords | None" = None,
                 former: dict[str, set[str]] | None = None):
        self.config = catalog.understanding
        self.vocab = catalog.vocabulary
        self.topics = catalog.topics
        frame = self.config.frame
        self.lexicon = Lexicon(catalog.lexicon, [rx for _, rx in frame.cues] if frame is not None else [])
        words = _substrings(self.vocab.labels, catalog.topics)
        self.companies = CompanyIndex(reports, self.config.company_threshold, self.config.company_names,
                                      words.__contains__, former, asked_before=self.lexicon.ends_asking,
                                      asked_after=self.lexicon.begins_asking, common=self.lexicon.known)
        self.matcher = KeywordMatcher(self.vocab, catalog.formulas.phrases)
        self.derived = catalog.formulas.derived   # compound items (三费, 期间费用) and their parts
        self.generalizer = Generalizer(self.matcher.phrases, self.config.filler, self.config.item_threshold,
                                       self.config.min_residue, self.config.prefer_longer,
                                       self.config.meaning_words)
        self.rules = catalog.question_rules
        self.llm_keywords = llm_keywords
        self.disclosures = {d.item: d for d in catalog.disclosures if d.kind in ("text", "yesno")}
        self._mentions: dict[str, tuple[str, list[CompanyMatch], Years]] = {}   # question → mentions'

    def mentions(self, question: str) -> tuple[str, list[CompanyMatch], Years]:
        """The question normalized, the companies it names and its years: what understand reads first, for
        the cost of a few lookups (no chat model asked). (The last questions' kept: a question is read by the
        router's plan and by its understanding; a new list of the same matches each time.)"""
        held = self._mentions.get(question)
        if held is None:
            if len(self._mentions) > 256:
                self._mentions.clear()
            held = self._mentions[question] = self._mentions_now(question)
        return held[0], list(held[1]), held[2]

    def _mentions_now(self, question: str) -> tuple[str, list[CompanyMatch], Years]:
        norm = normalize_question(question or "")
        chinese = bool(_CJK.search(norm))
        rules = self.config.frame
        companies = self.companies.find(norm) if chinese else []
        return norm, companies, find_years(norm, read_years_more(norm, rules) if rules and chinese else ())

    def understand(self, question: str) -> Understanding:
        norm, companies, years = self.mentions(question)
        chinese = bool(_CJK.search(norm))
        cfg = self.config
        rules = cfg.frame
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
        if len(keywords) > 1:
            keywords = _shared_rate(keywords, key_text, self.matcher.phrases)
        formulas_named = {k.name for k in keywords if k.kind == "formula"}   # (before the topics take theirs)
        topics = self.topics.find(masked_text) if chinese else []
        if topics:
            # an item word inside a longer topic word is the topic's ("利润" in 利润分配预案, "收入" in 收入构成)
            words = [phrase_key(w) for _, w in topics]
            keywords = [k for k in keywords if not any(k.text in w and len(w) > len(k.text) for w in words)]
        if rules is not None and keywords:
            keywords = [k for k in keywords if k.text not in rules.bare_words or _stands_alone(masked_text, k.text, rules)]
        rest = masked_text
        for k in keywords:
            rest = mask_phrase(rest, k.text)
        if rules is not None and keywords:
            rest = _scope_before_item(masked_text, rest, rules)
        spelled = self._spelled(masked_text, norm, rules, len(formulas_named) > 1) if chinese and rules else None
        if spelled is not None:
            rest = mask(rest, *spelled[2])
        n_items = len({k.name for k in keywords if k.kind == "item"})
        frame = Frame()
        if chinese and rules is not None:
            counted = max(len(years.explicit), 2) if years.recent else len(years.explicit)
            frame, rest = read_frame(rest, norm, rules, n_items, counted, cfg.unit, cfg.decimals)
            read_series(frame, years)
            if spelled is not None:
                if frame.operation in ("change", "growth", "sum", "difference", "average"):
                    # a change (or sum …) of a formula spelled out ("…的比例（A/B）较上年变动了多少"): not computed
                    frame.unused.append(("operation", frame.operation_word or frame.operation))
                frame.spelled, frame.spelled_text = (spelled[0], spelled[1]), spelled[3]
                frame.operation, frame.operation_word = "spelled", spelled[3]
                # words of its numerator or denominator no item took (平均, 期初, 乘以100): not computed as stated
                frame.unused += spelled[4]
        frame.unused += self._population_scoped(phrase_key(masked_text), keywords)
        frame.unused += self._total_of_per_share(masked_text, keywords)
        generalized: list[Generalized] = []
        if chinese and not keywords:
            # the residue after every slot's words are taken: 期初/万元/增长 are not read as item words
            generalized = self.generalizer.generalize(phrase_key(rest))
            for g in generalized:
                rest = mask_phrase(rest, g.residue)
        model_keywords = []
        if (chinese and not keywords and not generalized and self.llm_keywords is not None
                and cfg.ask_model is not None and cfg.ask_model.search(norm)):
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
        feats.has_topic = bool(topics)
        n_items = len({k.name for k in keywords if k.kind == "item"} | {g.name for g in generalized if g.kind == "item"})
        # a plain ratio asked (比值, 之比, 多少倍), read where no item or formula name took the words (利息保障倍数)
        ratio_m = cfg.ratio.search(rest) if cfg.ratio else None
        ratio = ratio_m.group(0) if ratio_m else ""
        if ratio_m and feats.has_formula and not n_items:
            # "流动比率是多少倍": the kind of the formula's own value, no other ask
            rest = mask(rest, ratio_m.start(), ratio_m.end())
        pair = cfg.pair_ratio.search(rest) if n_items >= 2 and cfg.pair_ratio else None
        feats.pair_ratio = bool(pair and not feats.has_formula)
        if pair:
            rest = mask(rest, pair.start(), pair.end())
            if frame.operation == "value":
                frame.operation, frame.operation_word = "share", pair.group(0)
            elif frame.operation not in ("share", "spelled"):
                # a share of a sum or a difference ("A与B之和占C的比例"): two operations, not supported (a share
                # the question spells in a parenthesis — 占营业收入的比例（净利润/营业收入）— is the spelled one)
                frame.unused.append(("operation", pair.group(0)))
            if n_items > 2 or (frame.each_year and len(years.explicit) < 2):
                # "A和B(分别)占C的比例": a share each, not one A/B
                frame.unused.append(("operation", pair.group(0)))
        feats.operation = frame.operation
        rule = classify(feats, self.rules) if chinese else None
        if rule is not None and rule.regex is not None:
            # the words the rule's regex read ("是否相同", "对比") named the type: they are used
            for r in rule.regex.finditer(norm):
                rest = mask(rest, r.start(), r.end())
        ranking = None
        if rule is not None and rule.type == "statistics" and cfg.statistics is not None:
            ranking = read_ranking(norm, cfg.statistics)
            for s, e in ranking.spans:
                rest = rest[:s] + "#" * (e - s) + rest[e:]
            # the value a key disclosure is filtered by ("审计意见为非标准意见的公司"): used
            for name in {k.name for k in keywords} | {g.name for g in generalized}:
                d = self.disclosures.get(name)
                for phrase in d.phrases() if d else ():
                    rest = mask_phrase(rest, phrase)
        filler: list[str] = []
        if chinese and self.generalizer.residue(phrase_key(rest)):
            # the words left that say how the question is asked (请问, 年报里记载, 那一年): used, shown as filler
            for a, b, word in self.lexicon.filler(norm, rest):
                if word.why == "function word":
                    continue   # (left in place for the rules reading them — 及其子公司, 销售、管理 —; `left` drops them)
                rest = mask(rest, a, b)
                filler.append(word.text)
        if chinese and rules is not None:
            frame.unused += unused_cues(rest, rules)
            if rule is not None and rule.type != "statistics" and not model_keywords:   # (the model read it all)
                frame.unused += self._unasked(norm, rest, keywords, generalized, topics, rules)
        if rule is not None and rule.type == "compare" and len(years.years) >= 2:
            # "法定代表人与上年相比相同吗": the relative year is one of the years compared (find_years
            # counted it), not a period; the words the rule's regex read (有变化吗, 是否相同) name the type
            if frame.period == "previous":
                frame.period, frame.period_word = None, ""
            spans = [r.span() for r in rule.regex.finditer(norm)] if rule.regex is not None else []
            frame.unused = [(slot, w) for slot, w in frame.unused
                            if not (slot == "period" and _RELATIVE_YEAR.fullmatch(w))
                            and not any(w in norm[a:b] for a, b in spans)]
            if frame.operation in ("change", "growth") and any(frame.operation_word in norm[a:b] for a, b in spans):
                frame.operation, frame.operation_word, frame.base_word = "value", "", ""   # 有变化吗: compared
        # no company found: did the question name one the store does not know, or none at all?
        unnamed = chinese and not companies and not self.generalizer.residue(phrase_key(rest))
        return Understanding(question, norm, companies, years, keywords, generalized, rule, chinese, masked_text,
                             model_keywords, topics=topics, shape=_shape(norm, cfg),
                             percent=bool(cfg.percent and cfg.percent.search(norm)),
                             ratio=ratio,
                             ranking=ranking, frame=frame,
                             company_unnamed=unnamed, rest=rest if chinese else "", residue=self._left,
                             filler=filler)

    def _population_scoped(self, text: str, keywords: list[Keyword]) -> list[tuple[str, str]]:
        """A category of the employees' tables asked of another group of people ("研发人员中硕士学历的人数",
        "销售人员里本科的有多少"): those tables count every employee, so the group's words stay unused (the
        answer declines rather than give the company's 硕士 as the 研发人员's)."""
        out: list[tuple[str, str]] = []
        items = sorted((k for k in keywords if k.kind == "item"), key=lambda k: k.start)
        for a, b in zip(items, items[1:]):
            ia, ib = self.vocab.items.get(a.name), self.vocab.items.get(b.name)
            if ia is None or ib is None or ia.kind != "count" or ib.statement not in _CATEGORY_TABLES \
                    or ia.statement in (ib.statement, "员工情况"):
                continue
            gap = text[a.start + len(a.text):b.start]
            if _POPULATION_GAP.fullmatch(gap):
                out.append(("scope", a.text + gap))
        return out

    def _total_of_per_share(self, text: str, keywords: list[Keyword]) -> list[tuple[str, str]]:
        """A total asked of a figure per share ("每10股派的合计派多少钱", "每股收益合计"): a total is no figure per
        share, so the total's word stays unused (never the 2.13元 per 10 shares for the 93亿元 paid)."""
        per_share = [k for k in keywords if k.kind == "item" and (info := self.vocab.items.get(k.name)) is not None
                     and info.kind == "per_share"]
        rules = self.config.frame
        if not per_share or rules is None:
            return []
        for clause in _CLAUSE.finditer(phrase_key(text)):
            rest = clause.group()
            if not any(k.text in rest for k in per_share):
                continue   # (a total in a clause of its own asks of its own item: "…？现金分红总额多少？")
            for k in sorted(keywords, key=lambda k: -len(k.text)):
                rest = rest.replace(k.text, "#" * len(k.text))   # (an item's own words: 现金分红总额)
            m = rules.total_asked.search(rest)
            if m:
                return [("operation", m.group(0))]
        return []

    def _left(self, text: str) -> list[str]:
        """The words of a question's unused text (its used characters '#') that are neither filler nor
        neutral (rules/understanding.yaml `neutral_spans`, `neutral`: 结果需要, 记得要, 精确到 … said to the
        reader). (The lexicon's filler is marked used already.)"""
        for rx in self.config.neutral_spans:
            text = prefilter.sub(rx, " ", text)
        pieces = self.generalizer.residue(text)
        # a word naming the group asked (各学历, 每类产品) is never an item's tail: not neutral
        grouped = {w for w in pieces if any(g + w in text for g in _GROUP_WORDS)}
        for rx in self.config.neutral:
            pieces = [p for w in pieces for p in ([w] if w in grouped else prefilter.sub(rx, " ", w).split())]
        return [p for w in pieces if len(w) >= self.config.min_residue for p in self._content(w)]

    def _neutral_left(self, word: str) -> bool:
        """Whether a word keeps something once the neutral words (rules/lexicon.yaml left_neutral) are cut out."""
        for rx in self.config.neutral:
            word = prefilter.sub(rx, " ", word)
        return any(len(p) >= self.config.min_residue for p in word.split())

    def _content(self, piece: str) -> list[str]:
        """A piece of a question's unused words less its function words (据, 向, 及其: the lexicon's), in runs."""
        if not self.lexicon.rules.function_pos or not _CJK.search(piece):
            return [piece]
        return self.lexicon.runs(piece, lambda w: w.why == "function word")[0]

    def _unasked(self, norm: str, rest: str, keywords: list[Keyword], generalized: list[Generalized],
                 topics: list, rules) -> list[tuple[str, str]]:
        """The asks no slot reads: a clause holding an ask word (rules frame.ask) but no item, formula or
        topic word of the question, whose words left unused are more than filler ("总计派发多少元" after
        "每10股派发现金红利多少元"; not "万科A2012年末是多少", all company, year and period)."""
        out: list[tuple[str, str]] = []
        words = [k.text for k in keywords] + [g.residue for g in generalized if g.residue] + [w for _, w in topics]
        for m in _CLAUSE.finditer(norm):
            clause = m.group()
            if not rules.ask.search(clause):
                continue
            key = phrase_key(clause)
            if any(w and w in key for w in words):
                continue
            left = (_LEADING_DU.sub("", w) for w in self.generalizer.residue(phrase_key(rest[m.start():m.end()])))
            # (less the words said to the reader, as the question's accounting reads them: "用万元表示是多少")
            out += [("ask", x) for w in left if len(w) >= 2 for x in self._content(w) if len(x) >= 2
                    and self._neutral_left(x)]
        return out

    def _spelled(self, text: str, norm: str, rules, several: bool = False) -> tuple[
            list[str], list[str], tuple[int, int], str, list[tuple[str, str]]] | None:
        """A formula the question spells out: (numerator terms, denominator terms, span, words, unused cues
        in its numerator or denominator — 平均净资产 is not 净资产); `several`: the question names two formulas
        or more (then a parenthesis defines one of them, not the ask). A term is an item name, "-" before it
        where the question subtracts it ("(流动资产-存货)/流动负债", "流动资产减去存货"): computed as written."""
        for rx in rules.spelled:
            for m in prefilter.finditer(rx, text):
                if several and m.group(0)[:1] in "(（":
                    continue   # a parenthesis of a question computing several values defines one of them
                side_a, side_b = self._heads_spelled(m.group("a"), rules), self._heads_spelled(m.group("b"), rules)
                kw_a, kw_b = self.matcher.find(side_a)[0], self.matcher.find(side_b)[0]
                found_a = [k for k in kw_a if k.kind == "item"]
                found_b = [k for k in kw_b if k.kind == "item"]
                if found_a and found_b:
                    left = side_a + "，" + side_b
                    for k in kw_a + kw_b:   # the formula it names (流动比率（流动资产除以流动负债）) is used too
                        left = mask_phrase(left, k.text)
                    left = _MINUS.sub(lambda x: USED * len(x.group(0)), left)
                    for period, prx in rules.periods:
                        if period in ("closing", "current"):   # 期末归属于母公司所有者权益: the value as read
                            left = take(left, prx)[0]
                    for scope, srx in rules.scope:
                        if scope == "consolidated":   # 合并净利润: the consolidated value, as read
                            left = take(left, srx)[0]
                    return (_signed(side_a, found_a), _signed(side_b, found_b), (m.start(), m.end()),
                            norm[m.start():m.end()], unused_cues(left, rules))
        return self._listed_share(text, norm, rules)

    @staticmethod
    def _heads_spelled(text: str, rules) -> str:
        """Items listed by their heads with one tail spelled whole: "销售、管理、财务费用" → 销售费用、管理费用、财务费用."""
        def whole(m: re.Match) -> str:
            tail = m.group("tail")
            suffix = tail[-2:]
            joins = re.findall(r"[、和及与+＋]", m.group("heads"))
            heads = [h for h in re.split(r"[、和及与+＋]", m.group("heads")) if h]
            words = [h if h.endswith(suffix) else h + suffix for h in heads]
            return "".join(w + j for w, j in zip(words, joins)) + tail
        return rules.listed_heads.sub(whole, text)

    def _listed_share(self, text: str, norm: str, rules) -> tuple[list[str], list[str], tuple[int, int], str,
                                                                  list[tuple[str, str]]] | None:
        """A share of several items the question lists ("期间费用（销售、管理、财务费用之和）占营业收入的百分比"):
        the items listed, added up, over the whole. A parenthesis listing items is the question's own
        definition of the name before it (期间费用 here is these three, not the four of formulas/compound.yaml):
        its items alone are added. None unless two items or more are listed."""
        m = prefilter.search(rules.spelled_share, text)
        if m is None or rules.each_asked.search(norm):
            return None   # ("A和B分别占C的比例": a share each, not one of their sum)
        a = m.group("a")
        # the question's own definition: a parenthesis in group a, or right after the share ("…的比重（销售+管理+
        # 财务）"), listing items — or the heads of the parts of the compound item it names (销售 → 销售费用 of 期间费用)
        inner = _PARENTHESIS.search(a) or _PARENTHESIS.match(text, m.end())
        found_a: list = []
        if inner is not None:
            listed = self._items_listed(inner.group(1), rules) or self._parts_by_heads(inner.group(1), a)
            if len(listed) >= 2:
                found_a = listed
        if not found_a and not rules.sum_asked.search(m.group(0)):
            return None   # (items listed with no 之和/合计 nor a parenthesis defining them: their sum is not asked)
        found_a = found_a or self._items_listed(a, rules)
        found_b = [k for k in self.matcher.find(m.group("b"))[0] if k.kind == "item"]
        names = list(dict.fromkeys(k.name for k in found_a))
        if len(names) < 2 or not found_b:
            return None
        for name in names:   # a compound item with its own parts (期间费用 and 销售费用): never added twice
            d = self.derived.get(name)
            if d is not None and any(i.item in names for i in d.inputs.values()):
                return None
        left = m.group("b")
        for k in found_b:
            left = mask_phrase(left, k.text)
        return (names, _signed(m.group("b"), found_b)[:1], (m.start(), m.end()),
                norm[m.start():m.end()], unused_cues(left, rules))

    def _parts_by_heads(self, inner: str, named: str) -> list[Keyword]:
        """The parts of a compound item the words name (期间费用, 三费) picked by the heads a parenthesis lists
        ("销售+管理+财务": 销售费用, 管理费用, 财务费用); [] unless every head picks one part."""
        heads = [h for h in re.split(r"[、和及与+＋,，]", inner) if h]
        for k in self.matcher.find(named)[0]:
            d = self.derived.get(k.name) if k.kind == "item" else None
            if d is None or len(heads) < 2:
                continue
            parts = [i.item for i in d.inputs.values()]
            picked = [[p for p in parts if p.startswith(h)] for h in heads]
            if all(len(p) == 1 for p in picked):
                return [Keyword("item", p[0], p[0], k.start, k.end) for p in picked]
        return []

    def _items_listed(self, text: str, rules) -> list[Keyword]:
        """The items a list names, a list by heads with one tail spelled whole ("销售、管理、财务费用")."""
        spelled = self._heads_spelled(text, rules)
        found = sorted((k for k in self.matcher.find(spelled)[0] if k.kind == "item"), key=lambda k: k.start)
        # only items standing as a list ("A、B和C", "A+B"): an item word inside another phrase (利润 of
        # 利润分配预案) or words between them (预案现金分红) make no list
        key = phrase_key(spelled)
        for a, b in zip(found, found[1:]):
            if not _LIST_GAP.fullmatch(key[a.end:b.start]):
                return []
        return found


def _scope_before_item(text: str, rest: str, rules) -> str:
    """The parent-scope words an item's synonym ran into kept for the frame ("母公司的研发人员数量": the synonym
    公司研发人员数量 took 公司 of 母公司): a scope word whose first character no item took, and some of whose
    others it did, is unmasked again, so the frame reads the scope asked (an item naming it whole — 归属于
    母公司所有者的净利润 — keeps it)."""
    for scope, rx in rules.scope:
        if scope != "parent":
            continue
        for m in rx.finditer(text):
            if rest[m.start()] != USED and USED in rest[m.start():m.end()]:
                rest = rest[:m.start()] + text[m.start():m.end()] + rest[m.end():]
    return rest


# what may stand between two items of a list
_LIST_GAP = re.compile(r"[、和及与+＋,，]?|以及|加上?")
# a parenthesis in a question: what it holds
_PARENTHESIS = re.compile(r"[(（]([^()（）]+)(?:[)）]|$)")
# what subtracts the term after it in a spelled formula
_MINUS = re.compile(r"[-－−]|减去|减掉|扣除|扣减|(?<![增])减(?![少值])")


def _signed(text: str, keywords: list[Keyword]) -> list[str]:
    """The item names of one side of a spelled formula in order, "-" before a subtracted one."""
    key = phrase_key(text)
    out, end = [], 0
    for k in sorted(keywords, key=lambda k: k.start):
        minus = _MINUS.search(key[end:k.start]) is not None
        out.append(("-" if minus else "") + k.name)
        end = k.end
    return out


# the words a growth rate's name ends with (formulas/growth.yaml "{label}增长率" and its aliases), longest first
_RATE_ENDS = ("同比增长率", "同比增幅", "增长幅度", "增长率", "变动率", "增幅")
_LIST_JOIN = re.compile(r"[、和及与]|以及")


def _shared_rate(keywords: list[Keyword], key_text: str, phrases: dict[str, tuple[str, str]]) -> list[Keyword]:
    """Items listed right before a growth rate share it ("营业收入、利润总额的同比增长率": 营业收入增长率 too, never the
    营业收入 itself): each item joined to the rate by 、/和/及/与 alone becomes its own rate, where the formulas name
    one."""
    out = list(keywords)
    for i in range(len(out) - 1, 0, -1):
        rate, k = out[i], out[i - 1]
        if rate.kind != "formula" or k.kind != "item" or not _LIST_JOIN.fullmatch(key_text[k.end:rate.start]):
            continue
        end = next((e for e in _RATE_ENDS if rate.text.endswith(e)), None)
        hits = [phrases.get(matched_key(k.text + e)) for e in (end, *_RATE_ENDS)] if end else []
        hit = next((h for h in hits if h is not None and h[0] == "formula"), None)
        if hit is not None:
            out[i - 1] = Keyword("formula", hit[1], k.text, k.start, k.end)
    return out
