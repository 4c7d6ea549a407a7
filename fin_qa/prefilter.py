"""What a text must hold for a regex to match anywhere in it, told before the regex runs.

Most of the rules' patterns read nothing in most questions, and Python's `re` tries a pattern at every
place of a text (a pattern opening with a lookahead — "(?=[^，。]*?[占在])…" — scans ahead from each one).
`needles(rx)` works out, once per pattern, a few strings one of which every match of it contains (a
literal run it cannot do without, a small set of characters, a branch's alternatives, a lookaround's own
words); `may_match(rx, text)` is False only when none of them is in the text — then no search, finditer,
sub or findall of it finds anything, and none needs to run. A pattern it cannot tell of (case-insensitive,
nothing required) is simply run.

Where a pattern runs, `re` tries it at every place of the text; one opening with a lookbehind, a group or a
branch whose alternatives open so (the rules' big alternations) is tried whole at each place — `re` skips
ahead only over a pattern opening with a literal, a class, or a branch of literals. `quick(rx)` is rx behind
a lookahead for the characters any match of it starts with ("(?=[排及哪第…])(?:…)"): the same matches, the
same groups, and at a place no match can start one test of a class instead of every alternative. The
guarded calls (search, finditer, sub) run it.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

try:   # (Python 3.11+: re._parser and re._constants; before: sre_parse, sre_constants)
    from re import _constants as _c  # type: ignore[attr-defined]
    from re import _parser as _p  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - older Pythons
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

MOST = 12         # a requirement of more strings than this is no filter worth its checks
SET_CHARS = 12    # a character class of more characters than this is no requirement
FIRST_CHARS = 256   # a lookahead of more first characters than this saves little (the 4e00-9fff range: none)

_KNOWN: dict[tuple[str, int], tuple[str, ...] | None] = {}           # (pattern, flags) → its needles
# id(rx) → (rx, its needles, a search for any of them): no hash of rx (a compiled pattern's own hash reads its
# whole program each time: the big alternations would pay for it)
_BY_ID: dict[int, tuple[re.Pattern, tuple[str, ...] | None, Callable[[str], Any] | None, re.Pattern]] = {}
_QUICK: dict[tuple[str, int], re.Pattern | None] = {}   # (pattern, flags) → quick's pattern (None: rx itself)


def needles(rx: re.Pattern) -> tuple[str, ...] | None:
    """Strings one of which every match of rx contains; None when none can be told (worked out once)."""
    return _held(rx)[1]


def _held(rx: re.Pattern) -> tuple[re.Pattern, tuple[str, ...] | None, Callable[[str], Any] | None, re.Pattern]:
    held = _BY_ID.get(id(rx))
    if held is not None and held[0] is rx:
        return held
    key = (rx.pattern, rx.flags)
    parsed = None
    if key in _KNOWN:
        got = _KNOWN[key]
    else:
        got = None
        if isinstance(rx.pattern, str) and not rx.flags & re.IGNORECASE:   # (a bytes pattern: no filter)
            try:
                parsed = _p.parse(rx.pattern, rx.flags)   # (read, never changed: quick reads it too)
                need = _sequence(parsed)
            except Exception:   # (a pattern the parser reads otherwise: no filter, never a wrong one)
                need = None
            if need and len(need) <= MOST and all(need):
                got = tuple(sorted(need, key=lambda s: (-len(s), s)))
        if len(_KNOWN) > 4096:
            _KNOWN.clear()
        _KNOWN[key] = got
    # the needles looked for in one pass of C: a character class when each is one character, else their
    # alternation (plain strings: no pattern of the rule's own)
    search = None if got is None else re.compile(
        "[" + "".join(re.escape(n) for n in got) + "]" if all(len(n) == 1 for n in got)
        else "|".join(re.escape(n) for n in got)).search
    if len(_BY_ID) > 4096:
        _BY_ID.clear()
    held = _BY_ID[id(rx)] = (rx, got, search, quick(rx, parsed))   # (rx held: its id is not another pattern's while it is here)
    return held


def quick(rx: re.Pattern, parsed: Any = None) -> re.Pattern:
    """rx, or rx behind a lookahead for the characters its matches start with where `re` would try it whole
    at every place: the same matches (spans, groups, names) in every text (worked out once a pattern). A
    match's `.re` is the pattern run, the wrapped one (no reader of a guarded call's match reads it).
    `parsed`: rx's pattern as re's parser reads it, where the caller has it."""
    key = (rx.pattern, rx.flags)
    if key not in _QUICK:
        got = None
        if isinstance(rx.pattern, str) and not rx.flags & (re.IGNORECASE | re.VERBOSE):
            try:
                if parsed is None:   # (else the pattern as _held parsed it)
                    parsed = _p.parse(rx.pattern, rx.flags)
                firsts, empty = (None, True) if _skips_ahead(list(parsed)) else _firsts(parsed)
                if firsts is not None and not empty and 0 < sum(b - a + 1 for a, b in firsts) <= FIRST_CHARS:
                    cls = "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
                                  for a, b in sorted(set(firsts)))
                    got = re.compile(f"(?=[{cls}])(?:{rx.pattern})", rx.flags)
                    if got.groupindex != rx.groupindex or got.groups != rx.groups:
                        got = None
            except Exception:   # (a pattern that cannot be wrapped — global flags inside it —: run as it is)
                got = None
        if len(_QUICK) > 4096:
            _QUICK.clear()
        _QUICK[key] = got
    return _QUICK[key] or rx


def _skips_ahead(seq: list) -> bool:
    """Whether `re` finds the places a pattern may match by itself: it opens (inside groups) with a literal,
    a class, or a branch whose every alternative opens with a literal (re's own literal or charset prefix)."""
    while seq and seq[0][0] is _c.SUBPATTERN:
        seq = list(seq[0][1][3])
    if not seq:
        return False
    op, av = seq[0]
    if op in (_c.LITERAL, _c.IN):
        return True
    return op is _c.BRANCH and all(alt and list(alt)[0][0] is _c.LITERAL for alt in av[1])


_ZERO_WIDTH = (_c.AT, _c.ASSERT, _c.ASSERT_NOT)


def _firsts(seq: Any) -> tuple[list[tuple[int, int]] | None, bool]:
    """(the ranges of characters a match of the sequence may start with, whether it may match nothing);
    None when not told (any character, a back reference, case-insensitive words)."""
    out: list[tuple[int, int]] = []
    for op, av in seq:
        if op in _ZERO_WIDTH:
            continue   # (a lookaround or an anchor reads no character: the next item's is the first)
        got, empty = _first_of(op, av)
        if got is None:
            return None, False
        out += got
        if not empty:
            return out, False
    return out, True


def _first_of(op: Any, av: Any) -> tuple[list[tuple[int, int]] | None, bool]:
    if op is _c.LITERAL:
        return [(av, av)], False
    if op is _c.IN:
        ranges: list[tuple[int, int]] = []
        for kind, value in av:
            if kind is _c.LITERAL:
                ranges.append((value, value))
            elif kind is _c.RANGE:
                ranges.append(value)
            else:
                return None, False   # (a negated class, a category)
        return ranges, False
    if op is _c.SUBPATTERN:
        group, add_flags, del_flags, p = av
        return (None, False) if add_flags & re.IGNORECASE else _firsts(p)
    if op is getattr(_c, "ATOMIC_GROUP", object()):
        return _firsts(av)
    if op is _c.BRANCH:
        out: list[tuple[int, int]] = []
        empty = False
        for alt in av[1]:
            got, nothing = _firsts(alt)
            if got is None:
                return None, False
            out += got
            empty = empty or nothing
        return out, empty
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", object())):
        low, high, p = av
        if high == 0:
            return [], True
        got, nothing = _firsts(p)
        return got, nothing or low == 0
    return None, False   # (ANY, NOT_LITERAL, CATEGORY, GROUPREF, GROUPREF_EXISTS …)


def may_match(rx: re.Pattern, text: str) -> bool:
    """False only when rx cannot match anywhere in text (none of its needles is in it)."""
    held = _BY_ID.get(id(rx))
    if held is None or held[0] is not rx:
        held = _held(rx)
    search = held[2]
    return search is None or search(text) is not None


# The pattern's own calls, run only where it may match (what the rules' readers call: the guard in one place;
# may_match's lookup written out in each, a call less on every rule tried).

def search(rx: re.Pattern, text: str) -> re.Match | None:
    """rx.search(text), None without running it where rx cannot match."""
    held = _BY_ID.get(id(rx))
    if held is None or held[0] is not rx:
        held = _held(rx)
    return None if held[2] is not None and held[2](text) is None else held[3].search(text)


def finditer(rx: re.Pattern, text: str) -> Iterator[re.Match]:
    """rx.finditer(text), nothing without running it where rx cannot match."""
    held = _BY_ID.get(id(rx))
    if held is None or held[0] is not rx:
        held = _held(rx)
    return iter(()) if held[2] is not None and held[2](text) is None else held[3].finditer(text)


def sub(rx: re.Pattern, repl: Any, text: str) -> str:
    """rx.sub(repl, text), the text itself without running it where rx cannot match."""
    held = _BY_ID.get(id(rx))
    if held is None or held[0] is not rx:
        held = _held(rx)
    return text if held[2] is not None and held[2](text) is None else held[3].sub(repl, text)


def _better(a: set[str] | None, b: set[str] | None) -> set[str] | None:
    """The more selective of two requirements (fewer strings, then longer ones)."""
    if a is None:
        return b
    if b is None:
        return a
    return a if (len(a), -min(map(len, a))) <= (len(b), -min(map(len, b))) else b


def _sequence(seq: Any) -> set[str] | None:
    """A requirement of a sequence of items: the best of its items' (each is required), a run of
    literal characters read as one string."""
    best: set[str] | None = None
    run: list[str] = []
    for op, av in list(seq) + [(None, None)]:
        if op is _c.LITERAL:
            run.append(chr(av))
            continue
        if run:
            best = _better(best, {"".join(run)})
            run = []
        if op is None:
            break
        best = _better(best, _item(op, av))
    return best


def _item(op: Any, av: Any) -> set[str] | None:
    if op is _c.IN:
        chars: set[str] = set()
        for kind, value in av:
            if kind is _c.LITERAL:
                chars.add(chr(value))
            elif kind is _c.RANGE and value[1] - value[0] < SET_CHARS:
                chars.update(chr(x) for x in range(value[0], value[1] + 1))
            else:
                return None   # (a negated class, a category, a wide range: anything)
        return chars if 0 < len(chars) <= SET_CHARS else None
    if op is _c.SUBPATTERN:
        group, add_flags, del_flags, p = av
        return None if add_flags & re.IGNORECASE else _sequence(p)
    if op is getattr(_c, "ATOMIC_GROUP", object()):
        return _sequence(av)
    if op is _c.BRANCH:
        out: set[str] = set()
        for alt in av[1]:
            need = _sequence(alt)
            if not need:
                return None   # (an alternative requiring nothing: the branch requires nothing)
            out |= need
        return out
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", object())):
        low, _, p = av
        return _sequence(p) if low >= 1 else None
    if op is _c.ASSERT:   # a lookahead or lookbehind that holds matches words of the text too
        return _sequence(av[1])
    return None   # (ANY, AT, NOT_LITERAL, ASSERT_NOT, GROUPREF …: nothing required)
