"""thefuzz generalisation: the words of a question no keyword table matched → a canonical item or formula.

"研发经费投入多少" has no exact phrase; after the filler words are removed the residue "研发经费投入"
is scored (thefuzz ratio) against every item and formula phrase; the best above the threshold wins,
equal scores going to the longer name. The chat model's keywords (issue 5) go through the same
function. (Scored with rapidfuzz's ratio, which thefuzz's rounds, and only the phrases a bound on the
ratio lets reach the threshold: the same 8 best as thefuzz's extract gives, less those below it.)
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass

import numpy as np
from rapidfuzz import fuzz as rf_fuzz
from rapidfuzz import process as rf_process

from ..numbers import cn_number
from .. import prefilter
from .codepoints import code_points, printed_mask


@dataclass(frozen=True)
class Generalized:
    kind: str         # item | formula
    name: str
    phrase: str       # the table phrase it matched
    residue: str      # the question words it came from
    score: int


_RATE = re.compile(r"(?:率|比|比例|比重|占比)$")
_AMOUNT = re.compile(r"(?:额|金额|余额|总额)$")


# the numbers a phrase says (10 of 每10股派息, 2 of 一至2年): a phrase and a question's words saying different
# ones never mean the same
_NUMBER = re.compile(r"\d+(?:\.\d+)?|[零一二两三四五六七八九十百千]+")


def _numbers(text: str) -> list[str]:
    """The numbers a text says, as digits (十 of 每十股 is 10), in order."""
    out = []
    for m in _NUMBER.findall(text):
        n = cn_number(m)
        out.append(format(n.normalize(), 'f') if n is not None else m)
    return out


def _measure(words: str) -> str | None:
    """What the words end by naming: a rate (…率, …比重) or an amount (…额, …余额), else None."""
    return "rate" if _RATE.search(words) else ("amount" if _AMOUNT.search(words) else None)


# each keyword's verdict, shared by every Generalizer of the process over the same phrases and settings (each
# router of a batch, each period's view, each round of a benchmark): the verdicts are the same
_SHARED_MEMO: dict[tuple, dict[str, "Generalized | None"]] = {}
_MEMO_LOCK = threading.Lock()


class Generalizer:
    def __init__(self, phrases: dict[str, tuple[str, str]], filler: list[str], threshold: int = 75,
                 min_residue: int = 2, prefer_longer: bool = True, meaning_words: tuple[str, ...] = ()):
        self.phrases = phrases
        self.meaning_words = meaning_words
        self.choices = list(phrases)
        self.filler = [re.compile(p) for p in filler]
        self.threshold = threshold
        self.min_residue = min_residue
        self.prefer_longer = prefer_longer
        self._points: tuple[np.ndarray, np.ndarray, np.ndarray, int] | None = None   # (_may_reach, when first needed)
        what = (tuple(phrases.items()), threshold, min_residue, prefer_longer, tuple(meaning_words))
        with _MEMO_LOCK:
            if what not in _SHARED_MEMO and len(_SHARED_MEMO) >= 8:
                _SHARED_MEMO.clear()
            self._memo: dict[str, Generalized | None] = _SHARED_MEMO.setdefault(what, {})

    def _best(self, keyword: str) -> list[tuple[str, int]]:
        """thefuzz's extract(keyword, choices, scorer=ratio, processor=None, limit=8) — the 8 best phrases, best
        first, equals in the choices' order, each with its ratio rounded — down to a point below the threshold
        (the caller keeps those at it): rapidfuzz's ratio of only the phrases that may score that (_may_reach).
        (A point, not half of one: a margin — a ratio rounding to T is never left out, whatever rapidfuzz does
        with a score at its cutoff; a few more phrases scored.)"""
        cutoff = max(0.0, self.threshold - 1.0)
        may = {i: self.choices[i] for i in np.flatnonzero(self._may_reach(keyword, cutoff)).tolist()}
        return [(phrase, int(round(score))) for phrase, score, _ in rf_process.extract(
            keyword, may, scorer=rf_fuzz.ratio, processor=None, score_cutoff=cutoff, limit=8)]

    def _may_reach(self, keyword: str, cutoff: float) -> np.ndarray:
        """Which phrases may reach `cutoff` in ratio against the keyword; the others cannot. ratio is
        200·common / (its length + the keyword's), where the characters in common (in order) are at most the
        phrase's characters that the keyword prints anywhere (ov), and either length."""
        if self._points is None:
            lengths = np.array([len(c) for c in self.choices], dtype=np.int64)
            points = code_points("".join(self.choices))
            owner = np.repeat(np.arange(len(self.choices)), lengths)
            self._points = (points.astype(np.intp), owner, lengths, int(points.max(initial=0)))
        points, owner, lengths, top = self._points
        ov = np.bincount(owner, weights=printed_mask(keyword, top)[points], minlength=len(lengths))
        ov = np.minimum(ov, np.minimum(lengths, len(keyword)))
        return 200 * ov >= cutoff * (lengths + len(keyword))   # type: ignore[no-any-return]

    def residue(self, text: str) -> list[str]:
        """The pieces of text left after the filler patterns are cut out."""
        for rx in self.filler:
            text = prefilter.sub(rx, " ", text)
        return [p for p in text.split() if len(p) >= self.min_residue]

    def match(self, keyword: str) -> Generalized | None:
        """The canonical item/formula a free keyword means, or None below the threshold (remembered: the
        tables do not change while the process runs; shared by the generalizers of the same tables)."""
        if keyword in self._memo:
            return self._memo[keyword]
        got = self._match(keyword)
        if len(self._memo) > 1 << 15:
            self._memo.clear()
        self._memo[keyword] = got
        return got

    def _match(self, keyword: str) -> Generalized | None:
        if len(keyword) < self.min_residue:
            return None
        best = None
        for phrase, score in self._best(keyword):
            if score < self.threshold:
                continue
            if any((w in phrase) != (w in keyword) for w in self.meaning_words):
                continue   # "非经常性损益" is not 扣除非经常性损益后的净利润, nor 主营业务收入 营业收入: the word
                # one of them says and the other does not changes what it means
            if _numbers(phrase) != _numbers(keyword):
                continue   # "每股派息" is not 每10股派息: a number in one and not the other counts otherwise
            if _measure(phrase) and _measure(keyword) and _measure(phrase) != _measure(keyword):
                continue   # "不良贷款余额" is not 不良贷款率: an amount is never a rate, nor a rate an amount
            if self._names_more(phrase, keyword):
                continue   # "占营收比重" is not 三费占营业收入比重: it does not say 三费
            key = (score, len(phrase) if self.prefer_longer else -len(phrase))
            if best is None or key > best[0]:
                best = (key, phrase)
        if best is None:
            return None
        phrase = best[1]
        kind, name = self.phrases[phrase]
        return Generalized(kind, name, phrase, keyword, best[0][0])

    def _names_more(self, phrase: str, words: str) -> bool:
        """Whether the phrase holds another item or formula word of the tables (三费 in 三费占营业收入比重)
        of which the words have not half the characters: it then names something they do not."""
        for i in range(len(phrase)):
            for j in range(i + 2, len(phrase) + 1):
                part = phrase[i:j]
                if part != phrase and part in self.phrases and 2 * sum(ch in words for ch in part) < len(part):
                    return True
        return False

    def match_all(self, words: list[str]) -> list[Generalized]:
        """Each word's canonical item/formula, once each, in order; words below the threshold dropped."""
        out: list[Generalized] = []
        for w in words:
            g = self.match(w)
            if g and all(o.name != g.name for o in out):
                out.append(g)
        return out

    def generalize(self, text: str) -> list[Generalized]:
        return self.match_all(self.residue(text))
