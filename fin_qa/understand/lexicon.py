"""Meaning or filler: the words a question has left once every slot took its own, read with a segmenter's
lexicon (jieba's dictionary, with parts of speech) and rules/lexicon.yaml (its header gives the order).

Filler — how the question is asked — is: a function word by its part of speech (在, 据, 的, 呢, 吗), a
word of `filler:` (年报, 那一年, 谢谢) or `saying:` (the verbs a report says things with: 记载, 披露, 显示,
列示) wherever it stands, and a word of `asking:` or `personal:` (请问, 帮, 查, 告诉, 到底; 我) where the
question says how it is asked — its request before its subject, after its last ask word, right before the
ask, around the asker. Those are marked used and shown as filler in the answer's record
(`Understanding.filler`), never a reason to decline. Every other word names something and stays in the
question's accounting (`Understanding.left`): a qualifier cue, a word of `meaning:`, a noun, a place, a
number, and any other verb, adverb, pronoun, time or locality word (受限的货币资金, 年报里转回的存货,
明年, 其余) — a part of speech cannot tell 记载 from 受限, so the open classes are filler only by those
short closed lists.

How words are cut: as jieba cuts them without its HMM (posseg's `cut(HMM=False)`: the most probable route
through the dictionary's words, log frequencies over the total; a character no word holds stands alone;
tags from the dictionary, `x` for none; runs of Latin letters and digits one word, `eng`). jieba's own
tokenizer takes ~1.5 s and ~150 MB to load its 350,000 words, which every `fin-qa ask` and every batch
process would pay; here its dictionary file is read once into a SQLite index in fin-qa's cache folder
(`lexicon/`, ~2 s the first time on a machine; atomic: a reader sees the whole index or none; a damaged one
is built again; an unwritable folder gets one in memory) and a question looks up only its own substrings
(well under a millisecond). The words rules/lexicon.yaml adds overlay it in memory.
"""
from __future__ import annotations

import math
import re
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..catalog.lexicon import LexiconRules
from ..store.dictionary import PREFIX, DictionaryIndex
from .. import prefilter

_CJK = re.compile(r"[\u4e00-\u9fff]")
USED = "#"   # a character a slot took (understand/frame.py's mark)
# words that ask (the question has asked once one stands), and stops
_ASKED = re.compile(r"多少|几|什么|谁|哪|吗|呢|如何|怎样|怎么样|[是为有]多少")
_STOP = re.compile(r"[，,。？?！!；;：:]+")
_COPULA = ("是", "为", "有")   # (是多少, 为多少, 有多少)
_OF_SAYING = ("d", "ad", "a", "r", "n", "b")   # a word saying how a report says something (官方, 正式, 自己)
_ANY_WORD = ("where in the report", "how the report says", "said to the reader")   # frames taking any word
_NAMES = ("ns", "nt", "nsf")   # places and organisations: never said to the reader alone
_RUNS = re.compile(r"[\u4e00-\u9fff]+|[A-Za-z0-9]+|[^\u4e00-\u9fffA-Za-z0-9\s]+")
NEW_WORD_FREQ = 10000   # a word added to the lexicon: frequent enough to be cut whole among its neighbours
MAX_WORD = 16           # the longest word looked up (the dictionary's longer entries are idioms of no use here)


@dataclass(frozen=True)
class Word:
    text: str
    pos: str
    meaning: bool
    why: str          # used, meaning, filler, saying, cue, function word, a frame's name, or part of speech


# The default dictionary index and what it answered for each string looked up (None: no word), shared by
# every Lexicon of the process that opens no index of its own (each router, each period's view, each serving
# worker): the dictionary file is the same for all, and questions repeat their words
_SHARED_INDEX: DictionaryIndex | None = None
_SHARED_SEEN: dict[str, tuple[int, str] | None] = {}
# the words of each text cut (spans), per lexicon rules' words over the default index: shared by every lexicon
# of the process (a server's workers, the period views, a batch's routers), as the dictionary's answers are
_SHARED_CUTS: dict[int, dict[str, list[tuple[int, int, str]]]] = {}
_SHARED_LOCK = threading.Lock()
_MISSING = object()


def _shared_index() -> DictionaryIndex:
    global _SHARED_INDEX
    with _SHARED_LOCK:
        if _SHARED_INDEX is None:
            _SHARED_INDEX = DictionaryIndex()
        return _SHARED_INDEX


class Lexicon:
    """Splits left-over words into the words that name something and the filler."""

    def __init__(self, rules: LexiconRules, cues: Iterable[re.Pattern] = (), index: DictionaryIndex | None = None):
        self.rules = rules
        self._cues = tuple(cues)
        self._index = index
        self._added: dict[str, tuple[int, str]] | None = None   # the file's words as the lexicon has them
        self._lock = threading.Lock()
        # the dictionary's answer for each string looked up (None: no word), kept: questions repeat their words
        # (the process's, shared, over the default index)
        self._seen: dict[str, tuple[int, str] | None] = {} if index is not None else _SHARED_SEEN
        # text → its words (spans): the same for every lexicon of the same words over the default index
        self._cut: dict[str, list[tuple[int, int, str]]] = \
            _SHARED_CUTS.setdefault(hash(rules.words), {}) if index is None else {}
        self._report_rx: re.Pattern | None = None
        self._words: dict[str, str] = {}   # the file's words → their tag (the last of a word listed twice)
        for w, tag in rules.words:
            self._words[w] = tag
        # (their beginnings: a string is extended while it begins a word, of the dictionary's or the file's)
        self._added_prefixes = {w[:k] for w in self._words for k in range(1, len(w))}
        self._fixed_of: dict[tuple[str, str], Word | None] = {}   # (word, tag) → _fixed's answer
        self._total_of: int | None = None

    @property
    def index(self) -> DictionaryIndex:
        if self._index is None:
            self._index = _shared_index()
        return self._index

    def _entries(self, words: Iterable[str]) -> dict[str, tuple[int, str]]:
        """(frequency, tag) of the words the lexicon has: the dictionary's, with the file's words over them (a
        word the dictionary has keeps its frequency, only its tag changes: 问; a new one is cut whole where it
        stands: 财报, not 财 + 报上)."""
        ws = words if isinstance(words, (set, frozenset)) else set(words)
        seen = self._seen
        found: dict[str, tuple[int, str]] = {}
        unseen = []
        for w in ws:
            e = seen.get(w, _MISSING)   # (each word read once, from the cache or the index: another thread
            if e is _MISSING:           # clearing the cache in between changes nothing)
                unseen.append(w)
            elif e is not None:
                found[w] = e   # type: ignore[assignment]
        if unseen:
            got = self.index.lookup(unseen)
            if len(seen) > 200_000:
                seen.clear()
            for w in unseen:
                e = seen[w] = got.get(w)
                if e is not None:
                    found[w] = e
        added = self._words
        for w in (ws & added.keys()) if len(ws) < len(added) else [w for w in added if w in ws]:
            e = found.get(w)
            found[w] = (e[0] if e is not None and e[1] != PREFIX else NEW_WORD_FREQ, added[w])
        for w in ws & self._added_prefixes:
            found.setdefault(w, (0, PREFIX))   # (the beginning of a word the file adds: 财 of 财报)
        return found

    def known(self, words: list[str]) -> set[str]:
        """The words that are words of the lexicon (its dictionary's, or the file's) — not a string that only
        begins some (金宇 of 金宇车城 is no word)."""
        return {w for w, (_, tag) in self._entries(words).items() if tag != PREFIX}

    def _total(self) -> int:
        """The frequencies' total, the file's words added as jieba's add_word adds them."""
        if self._total_of is None:
            self.index.open()   # (its total read: the words may all be known to the shared cache already)
            if self._added is None:
                self._added = self._entries(w for w, _ in self.rules.words)
            self._total_of = (self.index.total + sum(f for f, _ in self._added.values())) or 1
        return self._total_of

    def cut(self, text: str) -> list[tuple[str, str]]:
        """(word, part of speech) of a text, as jieba's posseg cuts it without its HMM."""
        return [(text[a:b], pos) for a, b, pos in self.spans(text)]

    def spans(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, part of speech) of the words of a text, as jieba's posseg cuts it without its HMM (kept
        per text: questions repeat their pieces)."""
        got = self._cut.get(text)
        if got is None:
            got = self._spans(text)
            if len(self._cut) > 50_000:
                self._cut.clear()
            self._cut[text] = got
        return got

    def _spans(self, text: str) -> list[tuple[int, int, str]]:
        """The words of each run of Chinese characters (each run cut on its own, kept per run as a text of that
        run alone: questions share their runs), the other runs whole."""
        pieces = [(m.start(), m.group()) for m in _RUNS.finditer(text)]
        cut = self._cut
        runs = {run: cut.get(run) for _, run in pieces if _CJK.match(run)}
        new = [run for run, kept in runs.items() if kept is None]
        if new:
            for run, (known, starting) in zip(new, self._words_of(new)):
                runs[run] = cut_run = self._route(run, known, starting)
                if len(cut) > 50_000:
                    cut.clear()
                cut[run] = cut_run
        out: list[tuple[int, int, str]] = []
        for at, run in pieces:
            got = runs.get(run)
            if got is None:
                out.append((at, at + len(run), "m" if run.isdigit() else "eng" if run.isalnum() else "x"))
            else:
                out += [(at + a, at + b, pos) for a, b, pos in got]
        return out

    def _route(self, run: str, known: dict[str, tuple[int, str]],
               starting: list[list[tuple[int, int]]]) -> list[tuple[int, int, str]]:
        """A run's words as jieba cuts it without its HMM: the route of the greatest total log frequency."""
        n = len(run)
        logtotal = math.log(self._total())
        route: list[tuple[float, int]] = [(0.0, 0)] * (n + 1)
        for i in range(n - 1, -1, -1):
            # the words starting here (their last index and frequency, shortest first), else the character
            ends = starting[i] or [(i, 1)]
            route[i] = max((math.log(f or 1) - logtotal + route[j + 1][0], j) for j, f in ends)
        out: list[tuple[int, int, str]] = []
        i = 0
        while i < n:
            j = route[i][1] + 1
            w = run[i:j]
            out.append((i, j, known[w][1] if w in known else "x"))
            i = j
        return out

    def _words_of(self, runs: list[str]) -> list[tuple[dict[str, tuple[int, str]], list[list[tuple[int, int]]]]]:
        """For each run of a text: the words of the dictionary (and the file's) among its substrings, with their
        (frequency, tag), and at each start the words starting there (their last index and frequency,
        shortest first): each start's strings extended one character at a time while they begin some word
        (the index's prefixes), one lookup for each length over all the runs — the same words as looking up
        every substring of MAX_WORD characters at most (a word's beginnings are each a word or a prefix,
        wherever it stands)."""
        got_of: list[tuple[dict[str, tuple[int, str]], list[list[tuple[int, int]]]]] = \
            [({}, [[] for _ in range(len(run))]) for run in runs]
        frontier = [(r, i, i + 1) for r, run in enumerate(runs) for i in range(len(run))]
        while frontier:
            got = self._entries({runs[r][i:j] for r, i, j in frontier})
            longer = []
            for r, i, j in frontier:
                run = runs[r]
                e = got.get(run[i:j])
                if e is None:
                    continue
                if e[1] != PREFIX:
                    words, starting = got_of[r]
                    words[run[i:j]] = e
                    starting[i].append((j - 1, e[0]))
                if j < len(run) and j - i < MAX_WORD:
                    longer.append((r, i, j + 1))
            frontier = longer
        return got_of

    def _fixed(self, word: str, pos: str) -> Word | None:
        """What a word is wherever it stands (steps 1-4 of rules/lexicon.yaml), or None when where it stands
        decides (filler in a frame that takes it, else meaning). (Kept per word and tag: a Word is frozen.)"""
        key = (word, pos)
        got = self._fixed_of.get(key, _MISSING)
        if got is _MISSING:
            if len(self._fixed_of) > 100_000:
                self._fixed_of.clear()
            got = self._fixed_of[key] = self._fixed_now(word, pos)
        return got   # type: ignore[return-value]

    def _fixed_now(self, word: str, pos: str) -> Word | None:
        r = self.rules
        if word in r.meaning:
            return Word(word, pos, True, "meaning")
        if word in r.filler:
            return Word(word, pos, False, "filler")
        if word in r.saying:
            return Word(word, pos, False, "saying")
        if any(prefilter.search(rx, word) for rx in self._cues):
            return Word(word, pos, True, "cue")
        if pos in r.function_pos or pos == "x" and not _CJK.search(word):
            return Word(word, pos, False, "function word")
        return None

    def read(self, text: str, used: str | None = None) -> list[tuple[int, int, Word]]:
        """Every word of a question with what it is: (start, end, Word). `used`: the question with the
        characters its slots took as '#' (same length); a word holding one is used (why "used") and frames
        the others: the request before the first one, the words after the question has asked."""
        used = used if used is not None and len(used) == len(text) else text
        words = self._spans_at_report_words(text, used)
        taken = [USED in used[a:b] for a, b, _ in words]
        fixed = [Word(text[a:b], pos, True, "used") if t else self._fixed(text[a:b], pos)
                 for (a, b, pos), t in zip(words, taken)]
        asking = self._asking(text, words, taken)
        out = []
        r = self.rules
        for (a, b, pos), w, how in zip(words, fixed, asking):
            if w is None:
                word = text[a:b]
                # the frames of the report's words take any word; the others, only words of asking and the asker
                filler = how in _ANY_WORD and pos not in _NAMES or bool(how) and (word in r.asking
                                                                                  or word in r.personal)
                w = Word(word, pos, not filler, how if filler else "part of speech")
            out.append((a, b, w))
        return out

    def _spans_at_report_words(self, text: str, used: str) -> list[tuple[int, int, str]]:
        """The words of a text with each word of `report:` that no slot took a character of cut whole
        ("年报上记载": 年报 + 上 + 记载, where the dictionary alone reads 年 + 报上; "2019年报告中": 报告, the
        year having its 年)."""
        rx = self._report_rx
        if rx is None:
            words = sorted(self.rules.report, key=len, reverse=True)
            rx = self._report_rx = re.compile("(?=(" + "|".join(map(re.escape, words)) + "))") if words else re.compile("(?!)")
        out: list[tuple[int, int, str]] = []
        at = 0
        for m in rx.finditer(text):
            i, w = m.start(), m.group(1)
            if i < at or USED in used[i:i + len(w)]:
                continue
            out += [(a + at, b + at, pos) for a, b, pos in self.spans(text[at:i])]
            out.append((i, i + len(w), "n"))
            at = i + len(w)
        return out + [(a + at, b + at, pos) for a, b, pos in self.spans(text[at:])]

    def _asking(self, text: str, words: list[tuple[int, int, str]], taken: list[bool]) -> list[str]:
        """For each word, the frame that makes it say how the question is asked ("" for none)."""
        r = self.rules
        n = len(words)
        how = [""] * n
        tokens = [text[a:b] for a, b, _ in words]
        function = [pos in r.function_pos for _, _, pos in words]
        first = next((i for i in range(n) if taken[i]), n)
        # the request: the words before the first one a slot took — unless joined to it by 的 (逾期的四方科技)
        if first < n and not (first > 0 and tokens[first - 1] in ("的", "之")):
            for i in range(first):
                how[i] = "request"
        # after the question has asked: the words after its last ask word or stop, past the last word a slot
        # took ("…是多少，辛苦了" — not "多少比例的股份的其中质押了多少股", whose 质押 is asked of)
        last = max((i for i in range(n) if taken[i]), default=-1)
        ends = [i for i in range(last + 1, n) if _ASKED.fullmatch(tokens[i]) or _STOP.fullmatch(tokens[i])]
        if ends:
            tail = ends[-1] + 1
            while tail < n and _STOP.fullmatch(tokens[tail]):
                tail += 1
            if not any(_ASKED.fullmatch(tokens[i]) for i in range(tail, n)):
                for i in range(tail, n):
                    how[i] = how[i] or "after asking"
        # a clause of its own before the question's subject, or after its last ask, set apart by a stop and
        # holding no 的 (a modifier): what is said to the reader ("小白请教：", "老师好，", "？做尽调用")
        stops = [i for i in range(n) if _STOP.fullmatch(tokens[i])]
        lead = next((i for i in stops if i < first), None)
        if lead is not None and "的" not in tokens[:lead]:
            for i in range(lead):
                how[i] = "said to the reader"
        asks = [i for i in ends if _ASKED.fullmatch(tokens[i])]
        if asks:
            after = next((i for i in stops if i > asks[-1]), None)
            if after is not None and "的" not in tokens[after:] and not any(taken[after:]):
                for i in range(after + 1, n):
                    how[i] = "said to the reader"
        # where in the report: the locality word after a word naming it (年报里, 财报上, 报告中)
        for i in range(n - 1):
            if tokens[i] in r.report and not taken[i + 1] and words[i + 1][2] == "f":
                how[i + 1] = how[i + 1] or "where in the report"
        # how the report says it: a word right before a verb of saying (官方披露, 正式披露, 自己披露)
        for i in range(1, n):
            if tokens[i] in r.saying and not taken[i - 1] and words[i - 1][2] in _OF_SAYING \
                    and tokens[i - 1] not in r.meaning:
                how[i - 1] = how[i - 1] or "how the report says"
        # right before the ask: 到底, 究竟, 实际上 + 是多少 (a word of `asking:`; 列示为多少 is a verb of saying)
        for i in range(n):
            if not _ASKED.fullmatch(tokens[i]) or taken[i]:
                continue
            j = i - 1
            while j >= 0 and not taken[j] and (function[j] or tokens[j] in _COPULA):
                j -= 1
            while j >= 0 and not taken[j] and tokens[j] in r.asking:
                how[j] = how[j] or "before the ask"
                j -= 1
                while j >= 0 and not taken[j] and function[j]:
                    j -= 1
        # around the asker: 告诉我, 帮我查一下, 我想了解
        for i in range(n):
            if tokens[i] not in r.personal or taken[i]:
                continue
            how[i] = how[i] or "the asker"
            for step in (-1, 1):
                j = i + step
                while 0 <= j < n and not taken[j] and (tokens[j] in r.asking or function[j]
                                                      or tokens[j] in r.filler):
                    how[j] = how[j] or "the asker"
                    j += step
        return how

    def words(self, text: str) -> list[Word]:
        """The words of a text read on their own (no slot took any of them), each told meaning or filler."""
        if not _CJK.search(text):
            return [Word(text, "x", True, "not Chinese")] if text.strip() else []
        return [w for _, _, w in self.read(text) if w.text.strip()]

    def filler(self, text: str, used: str) -> list[tuple[int, int, Word]]:
        """(start, end, word) of the words no slot used that say how the question is asked."""
        if not self.rules.used or not _CJK.search(text):
            return []
        return [(a, b, w) for a, b, w in self.read(text, used) if not w.meaning and w.text.strip()]

    def ends_asking(self, text: str) -> bool:
        """Whether a question's text before a company's name is only its request ("请问", "麻烦帮我查下"):
        there a name needing a boundary before it may start (请问四方…)."""
        if not text or not _CJK.search(text[-1:]):
            return False
        return all(not w.meaning for w in self._request(text))

    def _request(self, text: str) -> list[Word]:
        """The words of a question's opening, each read as its request (what stands before its subject)."""
        out = []
        for a, b, pos in self.spans(text):
            word = text[a:b]
            w = self._fixed(word, pos)
            asking = word in self.rules.asking or word in self.rules.personal
            out.append(w if w is not None else Word(word, pos, not asking, "request" if asking else "part of speech"))
        return out

    def begins_asking(self, text: str) -> bool:
        """Whether a text starts with a function word or a word of `filler:` ("那年（2020年）", "向华润…"):
        what may follow a company's name (金宇生物那年…) as a boundary does."""
        if not text or not _CJK.search(text[:1]):
            return False
        spans = self.spans(text[:8])
        if not spans:
            return False
        a, b, pos = spans[0]
        w = self._fixed(text[a:b], pos)
        return w is not None and not w.meaning

    def runs(self, piece: str, dropped: Callable[[Word], bool]) -> tuple[list[str], list[str]]:
        """(the runs of words kept, the words dropped) of a piece read on its own."""
        kept: list[str] = []
        out: list[str] = []
        run = ""
        for w in self.words(piece):
            if not dropped(w):
                run += w.text
                continue
            out.append(w.text)
            if run:
                kept.append(run)
                run = ""
        if run:
            kept.append(run)
        return kept, out

    def split(self, piece: str) -> tuple[list[str], list[str]]:
        """(the runs of words that name something, the filler words) of a piece read on its own."""
        return self.runs(piece, lambda w: not w.meaning)
