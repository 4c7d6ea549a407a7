"""rules/lexicon.yaml, the one vocabulary: which parts of speech are function words, the closed lists of the
verbs of saying and the words of asking, the words naming the report and the asker, the words added to the
segmenter's lexicon, the exceptions each way (fin_qa/understand/lexicon.py reads a question's left-over words
with them) — and the word lists of every other reader of a question: the tables' ask, neutral and period
words (answer/cells.py), the periods a column prints (the router), the words of a description (the
reviewer), the residue's filler and the words said to the reader (understand/), the words a text search
leaves out. Checked as a whole: a word `meaning` lists that another list reads as neutral or filler must be
named in `both_ways` with its reason."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .yamlfile import LDict, RuleError, line_of, load_rules_yaml

# jieba's part-of-speech tags (its dictionary's, and those its HMM gives unknown words)
POS_TAGS = frozenset(
    "a ad ag an b bg c cc d df dg e eng f g h i j k l m mg mq n ng nr nrfg nrt ns nt nz o p q r rg rr rz s t tg "
    "u ud ug uj ul uv uz v vd vg vi vn vq x y z zg".split())
_WORD = re.compile(r"^[\u4e00-\u9fffA-Za-z0-9]+$")
_KEYS = ("function_pos", "saying", "asking", "report", "personal", "words", "filler", "meaning", "period_words", "each_words", "sum_words",
         "table_ask", "table_neutral", "table_named", "table_periods", "column_periods", "description", "residue_filler",
         "left_neutral", "left_neutral_spans", "search_filler", "both_ways")
TABLE_PERIODS = ("current", "previous", "change")
PERIOD_KINDS = ("opening", "closing", "previous", "current")
COLUMN_PERIODS = ("opening", "closing", "current", "previous")


@dataclass(frozen=True)
class LexiconRules:
    function_pos: frozenset[str] = frozenset()      # function words: filler wherever they stand
    saying: frozenset[str] = frozenset()            # the verbs a report says things with: filler anywhere
    asking: frozenset[str] = frozenset()            # asking, requesting, thanking: filler where it asks
    report: frozenset[str] = frozenset()            # words naming the report (年报里记载的)
    personal: frozenset[str] = frozenset()          # the asker, the company (告诉我)
    words: tuple[tuple[str, str], ...] = ()          # (word, part of speech) added to the lexicon
    filler: frozenset[str] = frozenset()
    meaning: frozenset[str] = frozenset()
    # the other readers' lists (see the module docstring)
    table_ask: tuple[str, ...] = ()
    table_neutral: tuple[str, ...] = ()
    # the question's period words by kind (opening, closing, previous, current), in order (the frame's)
    period_words: tuple[tuple[str, tuple[str, ...]], ...] = ()
    table_periods: tuple[tuple[str, tuple[str, ...]], ...] = ()
    column_periods: tuple[tuple[str, tuple[str, ...]], ...] = ()
    description: tuple[str, ...] = ()
    residue_filler: tuple[str, ...] = ()              # regexes, in order
    left_neutral: tuple[re.Pattern, ...] = ()
    left_neutral_spans: tuple[re.Pattern, ...] = ()
    search_filler: tuple[re.Pattern, ...] = ()
    # names holding a table_neutral word that is not neutral there (公司贷款), each kind's names together (公司银行, 公司业务)
    table_named: tuple[tuple[str, ...], ...] = ()

    @property
    def used(self) -> bool:
        """Whether any word can be filler (no file: every left-over word keeps its meaning)."""
        return bool(self.function_pos or self.saying or self.asking or self.filler)


def _words(path: Path, data: LDict, key: str) -> list[str]:
    value = data.get(key)
    if value is None:
        return []
    line = data.key_lines.get(key, line_of(data))
    if not isinstance(value, list) or not all(isinstance(w, str) for w in value):
        raise RuleError(path, line, f"{key}: a list of words")
    for w in value:
        # (a list of kinds — table_named — writes one kind's names together, apart by /)
        if not all(_WORD.match(part) for part in (w.split("/") if key == "table_named" else [w])):
            raise RuleError(path, line, f"{key}: {w!r} is not one word (letters and digits only)"
                            + ("; one kind's names apart by /" if key == "table_named" else ""))
    dup = sorted({w for w in value if value.count(w) > 1})
    if dup:
        raise RuleError(path, line, f"{key}: listed twice: {'、'.join(dup)}")
    return list(value)


def _regexes(path: Path, data: LDict, key: str) -> list[re.Pattern]:
    value = data.get(key) or []
    line = data.key_lines.get(key, line_of(data))
    if not isinstance(value, list):
        raise RuleError(path, line, f"{key}: a list of regexes")
    out = []
    for p in value:
        try:
            out.append(re.compile(str(p)))
        except re.error as exc:
            raise RuleError(path, line_of(value, line), f"{key}: bad regex {p!r}: {exc}") from None
    return out


def _periods(path: Path, data: LDict, key: str, names: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    value = data.get(key)
    if value is None:
        return ()
    line = data.key_lines.get(key, line_of(data))
    if not isinstance(value, LDict) or set(value) - set(names):
        raise RuleError(path, line, f"{key}: a mapping of {', '.join(names)} to lists of words")
    out = []
    for name in names:
        words = value.get(name) or []
        if not isinstance(words, list) or not all(isinstance(w, (str, int)) and str(w) for w in words):
            raise RuleError(path, value.key_lines.get(name, line), f"{key}.{name}: a list of words")
        out.append((name, tuple(str(w) for w in words)))
    return tuple(out)


NAMED = (*PERIOD_KINDS, "each", "sum")   # the word lists the rule files name in their patterns: {opening} … {sum}
# the lists of their own key: name → (key, what its words ask, two of them)
_LISTS = {"each": ("each_words", "asking each of several", "分别, 各自"),
          "sum": ("sum_words", "asking the sum of several", "之和, 合计")}


def load_named_words(path: Path) -> dict[str, tuple[str, ...]]:
    """The word lists of rules/lexicon.yaml that the other rule files name in their patterns (NAMED): the
    period words by kind ({opening}, {closing}, {previous}, {current}), the words asking each of several
    ({each}) and those asking their sum ({sum}); a list missing or empty is a file:line problem. (Kept for the file's text: three rule files
    read them as the catalog loads.)"""
    if not path.is_file():
        raise RuleError(path, 1, "missing: the word lists the rules' patterns name ({opening} … {sum}) are read here")
    raw = path.read_bytes()
    key = (str(path), raw)
    got = _NAMED.get(key)
    if got is not None:
        return got
    data = load_rules_yaml(path)
    if not isinstance(data, LDict):
        raise RuleError(path, line_of(data), f"expected a mapping: {', '.join(_KEYS)}")
    words = dict(_periods(path, data, "period_words", PERIOD_KINDS))
    for kind in PERIOD_KINDS:
        if not words.get(kind):
            raise RuleError(path, data.key_lines.get("period_words", 1), f"period_words.{kind}: missing or empty — "
                            f"the list of {kind} words the rules' patterns name {{{kind}}}")
    for name, (key_, what, some) in _LISTS.items():
        words[name] = tuple(_words(path, data, key_))
        if not words[name]:
            raise RuleError(path, data.key_lines.get(key_, 1), f"{key_}: missing or empty — the words {what} "
                            f"({some}) that the rules' patterns name {{{name}}}")
    _NAMED.clear()
    _NAMED[key] = words
    return words


_NAMED: dict[tuple[str, bytes], dict[str, tuple[str, ...]]] = {}


def period_pattern(words: tuple[str, ...]) -> str:
    """A regex alternation of period words, in their order; '#X' is X right after the masked year."""
    return "|".join(f"(?<=#){re.escape(w[1:])}" if w.startswith("#") else re.escape(w) for w in words)


def _lists_named(rules: Path, line: int, key: str, names: list[str]) -> dict[str, tuple[str, ...]]:
    """The lexicon's word lists (load_named_words, of the lexicon.yaml beside `rules`) for a pattern or word list
    naming `names`; a name that is no list of it ({eachh}), or a list the lexicon lacks, is a problem at `line`."""
    unknown = [n for n in names if n not in NAMED]
    if unknown:
        raise RuleError(rules, line, f"{key}: {{{unknown[0]}}} is no word list of lexicon.yaml (it names "
                                     f"{', '.join('{' + n + '}' for n in NAMED)})")
    lexicon = rules.parent / "lexicon.yaml"
    try:
        return load_named_words(lexicon)
    except RuleError as exc:
        raise RuleError(rules, line, f"{key}: names {{{names[0]}}}, which {lexicon.name} cannot give: {exc}") from None


_NAME = re.compile(r"\{([a-z_]+)\}")


def named_in(rules: Path, line: int, key: str, text: object) -> object:
    """A pattern of a rule file (`rules`, at `line` of its key) with the lexicon's word lists it names
    written in, each a group of its alternatives (read from the lexicon.yaml beside it: _lists_named's
    problems); anything but a string as it is."""
    if not isinstance(text, str):
        return text
    names = [m.group(1) for m in _NAME.finditer(text)]
    if not names:
        return text
    for name, words in _lists_named(rules, line, key, names).items():
        text = text.replace("{" + name + "}", f"(?:{period_pattern(words)})")
    return text


def named_words(rules: Path, line: int, key: str, words: list[str]) -> list[str]:
    """A word list of a rule file with each entry naming a list of the lexicon ('{sum}') replaced by that
    list's words, in their order (_lists_named's problems alike). A name inside a word ('{sum}的') or one of the
    period lists (their '#初' is a pattern's, no word) is a problem at the list's line."""
    out: list[str] = []
    for w in words:
        m = _NAME.fullmatch(w)
        if m is None:
            if "{" in w or "}" in w:
                raise RuleError(rules, line, f"{key}: {w!r} — a list named in a word list is an entry of its own ('{{sum}}')")
            out.append(w)
            continue
        if m.group(1) in PERIOD_KINDS:
            raise RuleError(rules, line, f"{key}: {{{m.group(1)}}} is a list of period patterns, not of words")
        out += _lists_named(rules, line, key, [m.group(1)])[m.group(1)]
    return out


def _both_ways(path: Path, data: LDict, meaning: set[str], others: dict[str, set[str]]) -> None:
    """A word `meaning` lists that another list reads as neutral or filler is a problem unless `both_ways`
    names it with its reason; a word `both_ways` names that reads one way only is one too."""
    said = data.get("both_ways") or LDict()
    line = data.key_lines.get("both_ways", line_of(data))
    if not isinstance(said, LDict) or not all(isinstance(v, str) and v for v in said.values()):
        raise RuleError(path, line, "both_ways: a mapping word → why it reads both ways")
    clash = {w: [k for k, ws in others.items() if w in ws] for w in meaning}
    clash = {w: ks for w, ks in clash.items() if ks}
    unsaid = sorted(set(clash) - set(said))
    if unsaid:
        w = unsaid[0]
        raise RuleError(path, data.key_lines.get("meaning", 1),
                        f"{w!r} is meaning and {', '.join(clash[w])}: name it in both_ways with why")
    stale = sorted(set(said) - set(clash))
    if stale:
        raise RuleError(path, said.key_lines.get(stale[0], line), f"both_ways: {stale[0]!r} reads one way only")


def load_lexicon_rules(path: Path) -> LexiconRules:
    """rules/lexicon.yaml → LexiconRules; an unknown part of speech, a word that is not one word, a word
    listed twice, or a word both meaning and filler (saying, asking) is a file:line problem. No file: no
    word is filler."""
    if not path.is_file():
        return LexiconRules()
    data = load_rules_yaml(path)
    if not isinstance(data, LDict):
        raise RuleError(path, line_of(data), f"expected a mapping: {', '.join(_KEYS)}")
    unknown = sorted(set(data) - set(_KEYS))
    if unknown:
        raise RuleError(path, data.key_lines.get(unknown[0], 1), f"unknown key {unknown[0]!r}")
    pos = _words(path, data, "function_pos")
    bad = [p for p in pos if p not in POS_TAGS]
    if bad:
        raise RuleError(path, data.key_lines.get("function_pos", 1),
                        f"function_pos: {', '.join(bad)} is no part of speech of jieba's tag set")
    added: list[tuple[str, str]] = []
    words = data.get("words")
    if words is not None:
        if not isinstance(words, LDict):
            raise RuleError(path, data.key_lines.get("words", 1), "words: a mapping word → part of speech")
        for w, tag in words.items():
            line = words.key_lines.get(w, words.line)
            if not isinstance(w, str) or not _WORD.match(w):
                raise RuleError(path, line, f"words: {w!r} is not one word")
            if tag not in POS_TAGS:
                raise RuleError(path, line, f"words: {w}: {tag!r} is no part of speech of jieba's tag set")
            added.append((w, str(tag)))
    lists = {key: _words(path, data, key) for key in ("saying", "asking", "report", "personal", "filler", "meaning")}
    for key in ("filler", "saying", "asking"):
        both = sorted(set(lists[key]) & set(lists["meaning"]))
        if both:
            raise RuleError(path, data.key_lines.get("meaning", 1), f"both {key} and meaning: {'、'.join(both)}")
    table = {key: _words(path, data, key) for key in ("table_ask", "table_neutral", "table_named", "description")}
    residue = _regexes(path, data, "residue_filler")
    neutral = _regexes(path, data, "left_neutral")
    spans = _regexes(path, data, "left_neutral_spans")
    search = _regexes(path, data, "search_filler")
    # a word read as meaning here, and as neutral or filler by another reader (a regex's whole match)
    others = {"table_neutral": set(table["table_neutral"]), "table_ask": set(table["table_ask"])}
    for key, rxs in (("residue_filler", residue), ("left_neutral", neutral), ("search_filler", search)):
        others[key] = {w for w in lists["meaning"] if any(rx.fullmatch(w) for rx in rxs)}
    _both_ways(path, data, set(lists["meaning"]), others)
    return LexiconRules(frozenset(pos), frozenset(lists["saying"]), frozenset(lists["asking"]),
                        frozenset(lists["report"]), frozenset(lists["personal"]), tuple(added),
                        frozenset(lists["filler"]), frozenset(lists["meaning"]),
                        tuple(sorted(table["table_ask"], key=len, reverse=True)),
                        tuple(sorted(table["table_neutral"], key=len, reverse=True)),
                        _periods(path, data, "period_words", PERIOD_KINDS),
                        _periods(path, data, "table_periods", TABLE_PERIODS),
                        _periods(path, data, "column_periods", COLUMN_PERIODS),
                        tuple(table["description"]), tuple(rx.pattern for rx in residue), tuple(neutral),
                        tuple(spans), tuple(search),
                        table_named=tuple(tuple(w for w in kind.split("/") if w) for kind in table["table_named"]))
