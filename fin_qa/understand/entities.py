"""Company and year(s) of a question.

Companies: every full name, short name and stock code the store knows, matched longest first (a
name index keyed by its first two characters keeps this at a few microseconds a question), with
variants (闽灿坤B → 闽灿坤, *ST/ST prefixes, a full name without 股份, half/full-width brackets). When
no name matches exactly, thefuzz scores the names that share character bigrams with the question.

Years: 2019年, 2019-2021年 / 2019至2021年, 2019和2020年, and 上年/去年/前年/近三年 relative to the asked year.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from difflib import SequenceMatcher

import numpy as np
from rapidfuzz import fuzz as rf_fuzz
from rapidfuzz import process as rf_process
from thefuzz import fuzz

from ..catalog.frame_rules import CompanyNameRules, WordIndex
from ..catalog.normalize import normalize_question
from ..numbers import cn_number
from ..store import Report
from .codepoints import code_points, printed_mask



@dataclass(frozen=True)
class Company:
    key: str                     # stock code, or name:<full name> when the code is unknown
    full_name: str | None
    short_name: str | None
    stock_code: str | None


_UNKNOWN = object()   # (no verdict kept for a text yet)


@dataclass(frozen=True)
class CompanyMatch:
    company: Company
    text: str                    # the span of the question that named it
    start: int
    end: int
    score: int = 100             # 100 exact, else the thefuzz score


_MARKED = re.compile(r"^(?:\*?ST|S\*?ST|N)")      # a short name's ST / N mark
_CLASS_LETTER = re.compile(r"[AB]$")
_BRACKETED = re.compile(r"\([^)]*\)")


def _variants(name: str, kind: str) -> set[str]:
    name = normalize_question(name)
    out = {name}
    if kind == "short":
        bare = _MARKED.sub("", name)
        out.add(bare)
        out.add(_CLASS_LETTER.sub("", bare) if len(bare) > 3 else bare)
    elif kind == "full":
        if "股份有限公司" in name:
            out.add(name.replace("股份有限公司", "有限公司"))
            out.add(name.replace("股份有限公司", "公司"))
            out.add(name.replace("股份有限公司", "股份公司"))
        if name.endswith("有限公司"):
            out.add(name[: -len("有限公司")])
        for form in ("股份有限公司", "有限责任公司"):
            if name.endswith("集团" + form) and len(name) - len(form) >= 5:
                # (张家界旅游集团股份有限公司 → 张家界旅游集团: a group's name as written without its legal form — not
                # 万科企业, the head of 北京万科企业有限公司, another company's name)
                out.add(name[: -len(form)])
        out.add(_BRACKETED.sub("", name))
    return {v for v in out if len(v) >= 2}


def _strip_end(name: str, index: WordIndex) -> str | None:
    """The name less the first of the words (in their order) it ends with, leaving a character at least."""
    for w in index.by_last.get(name[-1:], ()):   # (only the words ending as the name does, in their order)
        if name.endswith(w) and len(name) > len(w):
            return name[: -len(w)]
    return None


def _without_legal_form(name: str, rules: CompanyNameRules) -> str:
    """A registered name without brackets and its legal form: 常柴股份有限公司 → 常柴."""
    core = normalize_question(_BRACKETED.sub("", normalize_question(name)))
    while (cut := _strip_end(core, rules.legal_form_index)) is not None:
        core = cut
    return core


def _leading_region(core: str, rules: CompanyNameRules, keep: int) -> str | None:
    """The region a name starts with, when at least `keep` characters are left after it."""
    for r in rules.region_index.by_first.get(core[:1], ()):   # (only the regions starting as the name does, in order)
        if core.startswith(r) and len(core) - len(r) >= keep:
            return r
    return None


def regionless_short(short: str | None, rules: CompanyNameRules) -> str | None:
    """A short name without its leading region (贵州茅台 → 茅台): a spoken form read only where something
    that is no part of a name stands before it ("云南铝业股份有限公司" is not 中国铝业's 铝业)."""
    if not short:
        return None
    name = _MARKED.sub("", normalize_question(short))
    region = _leading_region(name, rules, 2)
    return name[len(region):] if region else None


def short_core(short: str | None, rules: CompanyNameRules) -> str | None:
    """A short name without its trailing trade words (四方科技 → 四方, 海翔药业 → 海翔): a spoken form read only
    where something that is no part of a name stands before it, like the regionless short name; None when
    no trade word is cut (a share-class letter or 股份/集团 alone makes a spoken form of its own: 万科A → 万科)
    or what is left is fewer than two characters, a region or a trade word."""
    if not short:
        return None
    name = _MARKED.sub("", normalize_question(short))
    name = _strip_end(name, rules.share_suffix_index) or name   # (华锦股份 → 华锦: a spoken form already)
    core = name
    while (cut := _strip_end(core, rules.trade_word_index)) is not None and len(cut) >= 2:
        core = cut
    plain = core == name or core in rules.region_index.words or core in rules.trade_word_index.words   # (上海电气 → 上海)
    return None if plain or len(core) < 2 else core


def spoken_forms(full: str | None, short: str | None, rules: CompanyNameRules) -> set[str]:
    """Names people use besides the registered ones: the full name without its legal form (常柴股份有限公司
    → 常柴), without a leading region (浙江海翔药业 → 海翔药业) or trailing trade words (金宇生物技术 → 金宇生物),
    its first four characters when it is longer (安靠智能输电工程科技 → 安靠智能);
    the short name without its share-class letter or 股份/集团 (华锦股份 → 华锦) or its leading region (贵州茅台 →
    茅台); the trade name of the group (海翔药业 → 海翔集团). Forms cut by trade words keep at least three
    characters (the trade name two, with 集团 after it)."""
    out: set[str] = set()
    if full:
        core = _without_legal_form(full, rules)
        out.add(core)
        cores = {core}
        # without its region a name keeps three characters at least (中国铝业 → 铝业 is a trade, not a name)
        region = _leading_region(core, rules, 3)
        if region:
            cores.add(core[len(region):])
        for c in cores:
            out.add(c)
            if len(c) >= 6 and (region is None or c != core):
                out.add(c[:4])   # brand + trade: 安靠智能 of 安靠智能输电工程科技 (never 上海复旦 of 上海复旦微电子)
            brand = c
            while (cut := _strip_end(c, rules.trade_word_index)) is not None and len(cut) >= 3:
                out.add(cut)
                c = cut
            while (cut := _strip_end(brand, rules.trade_word_index)) is not None and len(cut) >= 2:
                brand = cut
            if brand != c or len(brand) < len(core):
                out.add(brand + "集团")   # the group by its trade name: 四方科技集团股份有限公司 → 四方集团
    if short:
        name = _MARKED.sub("", normalize_question(short))
        if (cut := _strip_end(name, rules.share_suffix_index)) is not None:
            out.add(cut)
        bare = regionless_short(short, rules)
        if bare:
            out.add(bare)   # 贵州茅台 → 茅台 (read only where a boundary stands before it)
    regions, trades = rules.region_index.words, rules.trade_word_index.words
    return {f for f in out if len(f) >= rules.min_chars and f not in regions and f not in trades}


_YEAR_NEXT = re.compile(r"\s*(?:(?:19|20)\d\d|[〇零一二三四五六七八九]{4}年|[0-3]\d年)")


def _gram_index_plain(names: list[str]) -> dict[str, np.ndarray]:
    """CompanyIndex._gram_index in plain Python (names holding a NUL, or too many names to number in the
    bits numpy's integers leave)."""
    held: dict[str, list[int]] = defaultdict(list)
    for i, name in enumerate(names):
        for g in sorted({name[k:k + 2] for k in range(len(name) - 1)}):
            held[g].append(i)
    return {g: np.array(ids, dtype=np.int32) for g, ids in held.items()}


def _padded_points(names: list[str]) -> tuple[np.ndarray | None, np.ndarray, int]:
    """The names' code points, a row each padded with NULs (None: a name holds a NUL), their lengths, and the
    greatest code point."""
    lengths = np.array([len(n) for n in names], dtype=np.int64)
    width = int(lengths.max()) if names else 0
    if any("\0" in n for n in names):
        return None, lengths, 0
    padded = "".join(n.ljust(width, "\0") for n in names)
    points = code_points(padded)
    return points.reshape(len(names), width), lengths, int(points.max(initial=0))


class CompanyIndex:
    """Names → companies. Built from the store's reports (stock code, full and short names, company key),
    and the spoken forms of those names (spoken_forms) that name one company only and are no item word
    (`reserved`: 生物 of 生物股份 is part of 生产性生物资产)."""

    def __init__(self, reports: Iterable[Report], fuzzy_threshold: int = 80,
                 name_rules: CompanyNameRules | None = None, reserved: Callable[[str], bool] | None = None,
                 former: dict[str, set[str]] | None = None, asked_before: Callable[[str], bool] | None = None,
                 asked_after: Callable[[str], bool] | None = None,
                 common: Callable[[list[str]], set[str]] | None = None):
        self.fuzzy_threshold = fuzzy_threshold
        # whether a question's text ends (starts) with how it is asked (请问, 麻烦帮我查下; 那年, 当时: the
        # lexicon's filler), where a name needing a boundary before (after) it may start (end)
        self._asked_before = asked_before
        self._asked_after = asked_after
        self._fuzzy_made: dict[str, CompanyMatch | None] = {}   # text → fuzzy's verdict (of these names)
        self.companies: dict[str, Company] = {}
        self._names: dict[str, set[str]] = defaultdict(set)      # variant → company keys
        spoken: dict[str, set[str]] = defaultdict(set)
        strict: set[str] = set()      # spoken forms that need a boundary before them too
        cores: dict[str, set[str]] = defaultdict(set)   # short names' cores (四方科技 → 四方) → companies
        seen: set[tuple[str | None, str | None]] = set()
        for r in sorted(reports, key=lambda r: r.year or 0):
            key = r.company
            self.companies[key] = Company(key, r.full_name, r.short_name, r.stock_code)
            for kind, name in (("full", r.full_name), ("short", r.short_name)):
                if name:
                    for v in _variants(name, kind):
                        self._names[v].add(key)
            if r.stock_code:
                self._names[r.stock_code].add(key)
            if name_rules is not None and name_rules.used and (r.full_name, r.short_name) not in seen:
                seen.add((r.full_name, r.short_name))   # a company's reports of other years name it alike
                for form in spoken_forms(r.full_name, r.short_name, name_rules):
                    spoken[form].add(key)
                bare = regionless_short(r.short_name, name_rules)
                if bare:
                    strict.add(bare)
                core = short_core(r.short_name, name_rules)
                if core and core not in spoken:
                    cores[core].add(key)
        # a short name's core (惠威, 海翔) is a name needing a boundary before it; one that is a word of the
        # language (东方 of 东方电气, 第一 of 第一医药, 四方 of 四方科技: `common` says which are the lexicon's
        # words; without it, all are) only where it opens the question with a year after it
        words = common(sorted(cores)) if common is not None and cores else set(cores)
        self._opening: set[str] = set()   # cores that are words: names only where they open the question
        for core, keys in cores.items():
            spoken[core] |= keys
            strict.add(core)
            if core in words:
                self._opening.add(core)
        self._spoken: set[str] = set()
        self._strict = strict
        # former short names the reports print (四方冷链 → 四方科技): a name, unless another company has it now
        for key, olds in (former or {}).items():
            for old in olds:
                n = normalize_question(old)
                if key in self.companies and n not in self._names and len(n) >= 2:
                    self._names[n].add(key)
                    self._spoken.add(n)
        self._boundary = name_rules.boundary if name_rules is not None else None
        self._rules = name_rules if name_rules is not None and name_rules.used else None
        self._reserved = reserved
        # the registered names in order: those starting with a form are one run of them (looked up only for
        # the forms that would be names)
        # (their owners are self._names's: a spoken form below is added only where no name is, so the
        # registered names' sets stay as they are)
        registered = sorted(self._names)
        owners_of = self._names

        def shared_by_another(form: str, keys: set[str]) -> bool:
            """Another company's registered name starts with the form (华西 of 华西股份, and 华西证券)."""
            if len(form) < 2:
                return False
            i = bisect_left(registered, form)
            while i < len(registered) and registered[i].startswith(form):
                if not owners_of[registered[i]] <= keys:
                    return True
                i += 1
            return False

        for form, keys in spoken.items():
            if (form in self._names or len(keys) > 1 or (reserved is not None and reserved(form))
                    or shared_by_another(form, keys)):
                continue
            self._names[form] |= keys
            self._spoken.add(form)
        # the lengths of the names starting with each two characters, longest first: a question's words at a
        # place are looked up once per length (one name at most has those words), not compared name by name
        lengths: dict[str, set[int]] = defaultdict(set)
        for name in self._names:
            lengths[name[:2]].add(len(name))
        self._head_lengths: dict[str, tuple[int, ...]] = {h: tuple(sorted(ns, reverse=True)) for h, ns in lengths.items()}
        # the names the fuzzy fallback scores: the registered ones (a short spoken form — "深圳机场" — would win
        # partial-ratio scores against any question sharing a few characters), numbered in this order; their
        # bigrams indexed when a question first needs them (_sharing)
        self._gram_names: list[str] = [n for n in self._names if len(n) >= 3 and not n.isdigit()
                                       and n not in self._spoken]
        self._gram_ids: dict[str, np.ndarray] | None = None   # character bigram → the numbers of the names having it
        self._gram_points: tuple[np.ndarray | None, np.ndarray, int] | None = None   # (_padded_points, when first needed)

    def find(self, question: str) -> list[CompanyMatch]:
        """Every company named in the question: longest match first, no overlapping spans."""
        q = normalize_question(question)
        hits = self._hits(q)
        hits.sort(key=lambda h: (-(h[1] - h[0]), h[0]))
        taken: list[tuple[int, int]] = []
        out: list[CompanyMatch] = []
        for start, end, name in hits:
            if any(start < e and s < end for s, e in taken):
                continue
            taken.append((start, end))
            for key in sorted(self._names[name]):
                # a spoken form is not the registered name: answers name the company by its short name
                out.append(CompanyMatch(self.companies[key], name, start, end, 99 if name in self._spoken else 100))
        out.sort(key=lambda m: m.start)
        return _listed_again(q, out)

    def _hits(self, q: str) -> list[tuple[int, int, str]]:
        """(start, end, name) of the longest name standing at each place of the (normalised) question."""
        hits: list[tuple[int, int, str]] = []
        names = self._names
        for i in range(len(q) - 1):
            for n in self._head_lengths.get(q[i:i + 2], ()):
                name = q[i:i + n]
                if len(name) == n and name in names:
                    if name in self._spoken and not self._bounded(q, i, i + len(name)):
                        continue  # a spoken form inside other words ("公司中利润" is not 中利集团)
                    if name.isdigit() and (q[i - 1:i].isdigit() or q[i + len(name):i + len(name) + 1].isdigit()):
                        continue  # a stock code must not be part of a longer number
                    hits.append((i, i + len(name), name))
                    break
        return hits

    def _name_span(self, q: str, start: int, most: int) -> str:
        """The question's words from `start` to a legal form, a masked year, a pause or `most` characters."""
        assert self._rules is not None
        text = q[start:]
        cut = min(len(text), most)
        for w in self._rules.legal_forms:
            i = text.find(w)
            if 0 < i < cut:
                cut = i
        m = re.search(r"[#\d的在年,，。?？:：;；、]", text)
        if m and 0 < m.start() < cut:
            cut = m.start()
        return text[:cut]

    def _core(self, name: str) -> str:
        """A full name without its legal form and leading region (深圳市机场股份有限公司 → 机场)."""
        rules = self._rules
        if rules is None:
            return normalize_question(re.sub(r"\([^)]*\)", "", normalize_question(name)))
        core = _without_legal_form(name, rules)
        region = _leading_region(core, rules, 2)
        return core[len(region):].lstrip("市省") if region else core

    def _bounded(self, q: str, start: int, end: int) -> bool:
        """A spoken form stands as a name on both sides ("百川畅银" holds 百川 of 百川股份, but is another name)."""
        rx = self._boundary
        if rx is None:
            return True
        reserved = self._reserved or (lambda w: False)
        # after it: a boundary, or the start of an item word ("常柴员工人数"; "百川畅银" is no item) — and no
        # item word running through its last character ("公司中利润总额": 利润 is not the end of 中利)
        after = (end == len(q) or rx.match(q, end) is not None or reserved(q[end:end + 2])
                 or (self._asked_after is not None and self._asked_after(q[end:]))) \
            and not reserved(q[end - 1:end + 1])
        before = (start == 0 or q[start - 1] == "#" or rx.fullmatch(q, start - 1, start) is not None
                  or (self._asked_before is not None and self._asked_before(q[:start]))) \
            and not reserved(q[start - 1:start + 1])
        if q[start:end] in self._opening:
            # a core that is a word of the language (四方 of 四方科技): a name only opening the question (after
            # its request) with a year right after it ("请问四方2019年…", "四方 2019 …")
            opens = start == 0 or (self._asked_before is not None and self._asked_before(q[:start]))
            return opens and _YEAR_NEXT.match(q, end) is not None
        if q[start:end] in self._strict:
            return after and before
        # the name must end there ("唐山冀东装备" is not 唐山冀东 of 唐山冀东水泥); what stands before it may be
        # any word ("请问惠威电声2019年") that does not run into it
        return after and (before or not reserved(q[start - 1:start + 1]))

    def fuzzy(self, question: str, candidates_text: str | None = None) -> CompanyMatch | None:
        """The best thefuzz match of a name against the question, above the threshold (slow path: a few
        milliseconds; its verdict kept for the text, as the names it is matched against are fixed)."""
        text = candidates_text or question
        got = self._fuzzy_made.get(text, _UNKNOWN)
        if got is not _UNKNOWN:
            return got   # type: ignore[return-value]   # (a verdict, not the marker)
        got = self._fuzzy(text)
        if len(self._fuzzy_made) >= 4096:
            self._fuzzy_made.clear()
        self._fuzzy_made[text] = got
        return got

    def _sharing(self, grams: list[str]) -> list[str]:
        """The 200 names sharing most of the bigrams (two at least), names of equal count in the order first
        met — Counter(names of each bigram in turn).most_common(200) (_sharing_ids: their numbers)."""
        return [self._gram_names[i] for i in self._sharing_ids(grams).tolist()]

    def _sharing_ids(self, grams: list[str]) -> np.ndarray:
        """_sharing's names by their numbers, counted with numpy's bincount over the names' numbers (a common
        bigram such as 有限 lists thousands of names)."""
        if self._gram_ids is None:
            self._gram_ids = self._gram_index()
        arrays = [self._gram_ids[g] for g in grams if g in self._gram_ids]
        if not arrays:
            return np.empty(0, dtype=np.int64)
        met = np.concatenate(arrays)
        n = len(self._gram_names)
        counts = np.bincount(met, minlength=n)
        # where each name is first met: the least position of its number (no sort, as np.unique would)
        first = np.full(n, len(met), dtype=np.int64)
        np.minimum.at(first, met, np.arange(len(met), dtype=np.int64))
        ids = np.flatnonzero(counts >= 2)
        # most shared first, equals in the order first met: one key each (no two names are first met at one
        # place), the 200 least keys picked, then ordered
        key = (len(met) + 1) * (counts.max() - counts[ids]).astype(np.int64) + first[ids]
        if len(key) > 200:
            pick = np.argpartition(key, 199)[:200]
            ids, key = ids[pick], key[pick]
        return ids[np.argsort(key)]

    def _may_score(self, q: str, ids: np.ndarray, cutoff: float) -> np.ndarray:
        """Which of the names (by their numbers) may reach `cutoff` in partial ratio against q; the others
        cannot. partial_ratio scores the shorter string (L characters) against parts of the longer of at
        most L characters: 200·common / (L + part), where the characters in common (in order) are at most
        the name's characters that q prints anywhere (ov, and L): at best 200·ov / (L + ov)."""
        if self._gram_points is None:
            self._gram_points = _padded_points(self._gram_names)
        points, lengths, top = self._gram_points
        if points is None or "\0" in q:
            return np.ones(len(ids), dtype=bool)   # (a NUL in a name or in q: every name scored)
        printed = printed_mask(q, top)   # (q's code points marked; the padding, NUL, is not in q)
        short = np.minimum(lengths[ids], len(q))
        ov = np.minimum(printed[points[ids].astype(np.intp)].sum(axis=1), short)
        return 200 * ov >= cutoff * (short + ov)   # type: ignore[no-any-return]

    def _gram_index(self) -> dict[str, np.ndarray]:
        """Each bigram → the numbers of the names having it, in increasing order: every (bigram, name) pair
        listed once. Worked out in numpy over the names' code points joined by NULs: each pair is one
        integer (the bigram's two code points above the name's number), sorted and made unique, so each
        bigram's run is its names in increasing order, a view of one array."""
        names = self._gram_names
        bits = max(len(names), 1).bit_length()
        joined = "\0".join(names)
        if not names or bits > 63 - 42 or joined.count("\0") != len(names) - 1:   # (42 bits: two code points)
            return _gram_index_plain(names)
        points = code_points(joined).astype(np.uint64)
        owner = np.repeat(np.arange(len(names), dtype=np.uint64), np.array(list(map(len, names))) + 1)[:len(points)]
        first, second = points[:-1], points[1:]
        inside = (first != 0) & (second != 0)   # (no bigram across the NUL between two names)
        code = (first[inside] << np.uint64(21)) | second[inside]
        pairs = np.sort((code << np.uint64(bits)) | owner[:-1][inside])
        pairs = pairs[np.r_[True, pairs[1:] != pairs[:-1]]]   # (a name's bigram printed twice, once)
        codes = pairs >> np.uint64(bits)
        ids = (pairs & np.uint64((1 << bits) - 1)).astype(np.int32)
        starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
        ends = np.r_[starts[1:], len(codes)]
        heads = codes[starts]
        grams = np.stack([heads >> np.uint64(21), heads & np.uint64((1 << 21) - 1)], axis=1).astype("<u4")
        return {g: ids[a:b] for g, a, b in zip(grams.view("<U2").ravel().tolist(), starts.tolist(), ends.tolist())}

    def names_with(self, gram: str) -> list[str]:
        """The names the fuzzy fallback scores that hold a bigram, in their order."""
        if self._gram_ids is None:
            self._gram_ids = self._gram_index()
        return [self._gram_names[i] for i in self._gram_ids.get(gram, np.empty(0, dtype=np.int32)).tolist()]

    def _fuzzy(self, text: str) -> CompanyMatch | None:
        q = normalize_question(text)
        # bigrams in a fixed order, so candidates of equal count keep one order: set order varies with
        # the hash seed, and two names of equal score must not win by chance from one run to the next
        # (counted in one pass, in the order names are first met; the 200 sharing most bigrams, at least
        # two, the first met first among equals: most_common is a stable sort's first 200)
        grams = sorted({q[i:i + 2] for i in range(len(q) - 1)})
        best: tuple[int, int, str] | None = None
        ids = self._sharing_ids(grams)
        names = [self._gram_names[i] for i in ids.tolist()]
        # thefuzz's partial_ratio (rapidfuzz's, rounded) of each name that may reach it, scored in one call:
        # only the names within a point of the threshold come back (a margin: a score rounding to the threshold
        # is never left out, whatever rapidfuzz does with a score at its cutoff), in the names' order as before
        cutoff = max(0.0, self.fuzzy_threshold - 1.0)
        scored = {i: names[i] for i in np.flatnonzero(self._may_score(q, ids, cutoff)).tolist()}
        scores = {i: int(round(score)) for _, score, i in rf_process.extract(
            q, scored, scorer=rf_fuzz.partial_ratio, processor=None, score_cutoff=cutoff, limit=None)}
        for i in sorted(scores):
            name, score = names[i], scores[i]
            if score >= self.fuzzy_threshold and (best is None or (score, len(name)) > best[:2]):
                best = (score, len(name), name)
        if not best:
            return None
        key = sorted(self._names[best[2]])[0]
        # a misspelt name keeps the distinctive part of the name — its first two characters and most of
        # it in one run ("金宇生物科技" for 金宇生物技术); a shared legal form, region or trade word is no
        # name ("深圳市兆驰股份有限公司" is not 深圳市机场股份有限公司, "凯迪生态环境" not 蒙草生态环境)
        c = self.companies[key]
        if self._rules is None:
            m = SequenceMatcher(None, best[2], q, autojunk=False).find_longest_match(0, len(best[2]), 0, len(q))
            return CompanyMatch(c, best[2], -1, -1, best[0]) if m.size >= max(3, (len(best[2]) + 2) // 3) else None
        core = self._core(c.full_name or best[2])
        q = q.replace("(", "").replace(")", "")   # 学大(厦门)教育 is 学大厦门教育
        start = q.find(core[:2]) if len(core) >= 3 else -1
        if start < 0:
            return None
        # the words the question wrote where the name stands, up to a legal form, a year or a pause
        span = self._name_span(q, start, len(core) + 4)
        if fuzz.ratio(core, span) < self.fuzzy_threshold:
            return None
        # and it stands as a name: not inside another one ("上海神开石油化工" is not 中国石油化工)
        before = q[:start]
        bounded = (start <= 0 or q[start - 1] == "#" or self._boundary is None
                   or self._boundary.fullmatch(q, start - 1, start) is not None)
        if not bounded and not before.endswith(tuple(self._rules.regions)):
            return None
        return CompanyMatch(self.companies[key], best[2], -1, -1, best[0])


# a list's joining word, right before or after a name
_JOINED_AFTER = re.compile(r"\s*(?:和|与|及|以及|、)")
_JOINED_BEFORE = re.compile(r"(?:和|与|及|以及|、)\s*$")


def _listed_again(q: str, found: list[CompanyMatch]) -> list[CompanyMatch]:
    """The matches less a company's name written again, in another form, for a thing named after it — a product
    or a segment ("贵州茅台2025年茅台酒和其他系列酒", "贵州茅台2025年茅台酒的营业收入": 茅台酒 is a row of its
    products, not the company once more): a later mention of a company already named by other words, no year
    after it, and a list's joining word right before or after it, or 的 after it — never a name restated in
    brackets ("金宇生物技术股份有限公司（生物股份）") nor the same words again ("四方科技2018年和四方科技2019年",
    "…营业收入和四方科技的净利润" name the company each time). Its words are then left to the tables' rows (read
    there, or the ask declined naming them — never the company's own total)."""
    named: dict[str, tuple[str, int]] = {}   # company key → the words first naming it, and where they end
    out: list[CompanyMatch] = []
    for m in found:
        key = m.company.key
        first = named.get(key)
        if first is not None and first[0] != m.text and m.start >= 0 and _YEAR_NEXT.match(q, m.end) is None and (
                _JOINED_AFTER.match(q, m.end) or _JOINED_BEFORE.search(q, 0, m.start)
                or (q.startswith("的", m.end) and m.start > first[1] and q[m.start - 1:m.start] not in "（(")):
            continue
        named.setdefault(key, (m.text, m.end))
        out.append(m)
    return out


# ---------------------------------------------------------------------------------------- years

_RANGE = re.compile(r"((?:19|20)\d{2})(?:年(?:末|底|度)?)?\s*(?:-|~|至|到)\s*((?:19|20)\d{2})年?")
_YEAR = re.compile(r"(?:(?<![A-Za-z])FY\s?|(?<!\d))((?:19|20)\d{2})(?:年|年度|财年)?(?!\d)", re.IGNORECASE)   # (FY2025: a fiscal year)
# 近三年, 最近3个会计年度, 过去五年: the N years up to the one asked (the router counts back from the
# company's latest report when no year is named)
_RECENT = re.compile(r"(?:近|最近|过去)\s*([一二两三四五六七八九十\d]{1,2})\s*个?(?:完整的?)?(?:会计|财务|自然)?(?:年度|年)")


@dataclass
class Years:
    years: list[int] = field(default_factory=list)   # every year named, in order, relative ones resolved
    asked: int | None = None                          # the report year the question is about
    spans: list[tuple[int, int]] = field(default_factory=list)
    explicit: list[int] = field(default_factory=list)  # the years written out (not 上年/近三年), in order
    recent: int | None = None                          # N of 近N年 (its years are counted back from `asked`)
    recent_word: str = ""                              # as written (近三年, 最近3个会计年度)
    ranged: bool = False                               # a range written out (2017—2019年, 2017至2019年)
    # the years whose figures are asked as restated ("2018年（调整后）"): year → "after"
    restated: dict[int, str] = field(default_factory=dict)


# "2018年（调整后）", "2018年调整后的": a year's figures as a later report restated them (its previous-period
# column). (调整前 stays a word: the later report's 调整前 column is read by the cells, the year's own report else.)
_ADJUSTED = re.compile(r"\s*[（(]?\s*(?:经?重述后?|追溯调整后|调整后)\s*[）)]?")
# "上一年度（2018年）": the relative word restated by the year in brackets names that year, no other
_RESTATED = re.compile(r"(?:度|同期)?[末底]?\s*[（(]\s*(?:19|20)\d\d\s*年")


def find_years(question: str, more: Iterable[tuple[int, int, int]] = ()) -> Years:
    """Years of a question; `more` adds (year, start, end) read by other forms (19年, 二〇一九年)."""
    q = normalize_question(question)
    found: list[int] = []
    spans: list[tuple[int, int]] = []
    covered: list[tuple[int, int]] = []
    for y, s, e in more:
        if 1990 <= y <= 2099 and y not in found:
            found.append(y)
        spans.append((s, e))
        covered.append((s, e))
    ranged = False
    for m in _RANGE.finditer(q):
        a, b = int(m.group(1)), int(m.group(2))
        if a <= b <= a + 10:
            found.extend(range(a, b + 1))
            covered.append(m.span())
            spans.append(m.span())
            ranged = True
    restated: dict[int, str] = {}
    for m in _YEAR.finditer(q):
        if any(s <= m.start() < e for s, e in covered):
            continue
        y = int(m.group(1))
        if y not in found:
            found.append(y)
        adjusted = _ADJUSTED.match(q, m.end())
        if adjusted:   # (its words are the year's: used, and said of it)
            restated[y] = "after"
            spans.append((m.start(), adjusted.end()))
        else:
            spans.append(m.span())
    asked = max(found) if found else None
    explicit = sorted(found)
    relative: list[int] = []
    recent = _RECENT.search(q)
    n_recent = int(cn_number(recent.group(1)) or 0) if recent else 0
    if recent and 1 <= n_recent <= 20:
        spans.append(recent.span())
        if asked is not None:
            relative = list(range(asked - n_recent + 1, asked + 1))
    if asked is not None:
        for word, delta in (("前年", -2), ("上年", -1), ("上一年", -1), ("去年", -1)):
            i = q.find(word)
            if i >= 0 and not q[max(0, i - 1):i] == "上" and not _RESTATED.match(q, i + len(word)):
                relative.append(asked + delta)
    for y in relative:
        if y not in found:
            found.append(y)
    return Years(sorted(found) if len(found) > 1 else found, asked, spans, explicit,
                 n_recent if recent and 1 <= n_recent <= 20 else None,
                 recent.group(0) if recent and 1 <= n_recent <= 20 else "", ranged, restated)
