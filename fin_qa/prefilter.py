"""What a text must hold for a regex to match anywhere in it, told before the regex runs.

Most of the rules' patterns read nothing in most questions, and Python's `re` tries a pattern at every
place of a text (a pattern opening with a lookahead — "(?=[^，。]*?[占在])…" — scans ahead from each one).
`needles(rx)` works out, once per pattern, a few strings one of which every match of it contains (a
literal run it cannot do without, a small set of characters, a branch's alternatives, a lookaround's own
words); `may_match(rx, text)` is False only when none of them is in the text — then no search, finditer,
sub or findall of it finds anything, and none needs to run. A pattern it cannot tell of (case-insensitive,
nothing required) is simply run.
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

_KNOWN: dict[tuple[str, int], tuple[str, ...] | None] = {}           # (pattern, flags) → its needles
# id(rx) → (rx, its needles, a search for any of them): no hash of rx (a compiled pattern's own hash reads its
# whole program each time: the big alternations would pay for it)
_BY_ID: dict[int, tuple[re.Pattern, tuple[str, ...] | None, Callable[[str], Any] | None]] = {}


def needles(rx: re.Pattern) -> tuple[str, ...] | None:
    """Strings one of which every match of rx contains; None when none can be told (worked out once)."""
    return _held(rx)[1]


def _held(rx: re.Pattern) -> tuple[re.Pattern, tuple[str, ...] | None, Callable[[str], Any] | None]:
    held = _BY_ID.get(id(rx))
    if held is not None and held[0] is rx:
        return held
    key = (rx.pattern, rx.flags)
    if key in _KNOWN:
        got = _KNOWN[key]
    else:
        got = None
        if isinstance(rx.pattern, str) and not rx.flags & re.IGNORECASE:   # (a bytes pattern: no filter)
            try:
                need = _sequence(_p.parse(rx.pattern, rx.flags))
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
    held = _BY_ID[id(rx)] = (rx, got, search)   # (rx held: its id is not another pattern's while it is here)
    return held


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
    return None if held[2] is not None and held[2](text) is None else rx.search(text)


def finditer(rx: re.Pattern, text: str) -> Iterator[re.Match]:
    """rx.finditer(text), nothing without running it where rx cannot match."""
    held = _BY_ID.get(id(rx))
    if held is None or held[0] is not rx:
        held = _held(rx)
    return iter(()) if held[2] is not None and held[2](text) is None else rx.finditer(text)


def sub(rx: re.Pattern, repl: Any, text: str) -> str:
    """rx.sub(repl, text), the text itself without running it where rx cannot match."""
    held = _BY_ID.get(id(rx))
    if held is None or held[0] is not rx:
        held = _held(rx)
    return text if held[2] is not None and held[2](text) is None else rx.sub(repl, text)


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
