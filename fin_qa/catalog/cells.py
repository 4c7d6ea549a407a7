"""keyword_tables/cells.yaml: how a question's words meet the rows and columns of a report's tables
(fin_qa/answer/cells.py). `fin-qa rules check` validates it: question_words maps a phrase to a phrase,
value_suffixes, appositives, change_words and generic_labels are lists of words. The ask, neutral, period and
description words are rules/lexicon.yaml's (the one vocabulary): the catalog puts them here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .yamlfile import LDict, RuleError, line_of, load_rules_yaml

PERIODS = ("current", "previous", "change")


@dataclass(frozen=True)
class CellWords:
    question_words: tuple[tuple[str, str], ...] = ()    # (phrase, header words), longest phrase first
    period_columns: dict[str, tuple[str, ...]] = field(default_factory=dict)
    ask_words: tuple[str, ...] = ()
    generic_labels: frozenset[str] = frozenset()
    neutral_words: tuple[str, ...] = ()    # words of an ask no cell needs to explain (longest first)
    named_words: tuple[str, ...] = ()      # names holding a neutral word that is not neutral in them (公司贷款)
    named_kinds: tuple[tuple[str, ...], ...] = ()   # … by kind: the names of one kind together (公司银行, 公司业务)
    value_suffixes: tuple[str, ...] = ()   # a label's last words saying what kind of value it is (longest first)
    appositives: tuple[str, ...] = ()      # words naming what a row is, just before its name (longest first)
    change_words: tuple[str, ...] = ()     # words a change column explains (longest first)
    description_words: tuple[str, ...] = ()   # what a description asks (如何, 情况): a quote need not speak of it
    # an appositive's kind (子公司) → words one of which a table whose rows are of that kind says in its title or header
    row_kinds: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # a ranked group's noun (前5名供应商) → words one of which a table listing that group says in its caption or header
    ranked_groups: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # (printed, said): words of a column's header or a table's title saying its amounts are another kind than the
    # item's plain value (平均余额, 日均余额), and the question's words that ask that kind (平均, 日均)
    column_qualifiers: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = ()
    # those of them (`exclusive: true`) whose kind, where the question asks it (质押), only their columns answer
    exclusive_qualifiers: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = ()
    # rules/lexicon.yaml period_words as a row's whole label prints them (年末余额, 期初数): a period, no entity
    period_labels: frozenset[str] = frozenset()


def _words(path: Path, data: LDict, key: str) -> tuple[str, ...]:
    value = data.get(key) or []
    if not isinstance(value, list) or not all(isinstance(w, str) and w for w in value):
        raise RuleError(path, line_of(data), f"`{key}:` must be a list [..] of words")
    return tuple(value)


def load_cell_words(path: Path) -> CellWords:
    if not path.is_file():
        return CellWords()
    data = load_rules_yaml(path)
    if not isinstance(data, LDict):
        raise RuleError(path, 1, "expected question_words, period_columns and word lists (see the file's head)")
    qw = data.get("question_words") or {}
    if not isinstance(qw, dict) or not all(isinstance(k, str) and k and isinstance(v, str) and v for k, v in qw.items()):
        raise RuleError(path, line_of(data), "`question_words:` must map a phrase to the words headers use")
    pc = data.get("period_columns") or {}
    if not isinstance(pc, dict) or set(pc) - set(PERIODS):
        raise RuleError(path, line_of(data), f"`period_columns:` takes {', '.join(PERIODS)}")
    periods = {}
    for k in PERIODS:
        words = pc.get(k) or []
        if not isinstance(words, list) or not all(isinstance(w, str) and w for w in words):
            raise RuleError(path, line_of(pc), f"period_columns.{k} must be a list [..] of words")
        periods[k] = tuple(words)
    ok = data.get("row_kinds") or {}
    if not isinstance(ok, dict) or not all(isinstance(k, str) and k and isinstance(v, list) and v and
                                           all(isinstance(w, str) and w for w in v) for k, v in ok.items()):
        raise RuleError(path, line_of(data), "`row_kinds:` must map an appositive's kind to a list [..] of title words")
    rg = data.get("ranked_groups") or {}
    if not isinstance(rg, dict) or not all(isinstance(k, str) and k and isinstance(v, list) and v and
                                           all(isinstance(w, str) and w for w in v) for k, v in rg.items()):
        raise RuleError(path, line_of(data), "`ranked_groups:` must map a group's noun to a list [..] of title words")
    cq = data.get("column_qualifiers") or []
    if not isinstance(cq, list) or not all(
            isinstance(g, dict) and {"printed", "said"} <= set(g) <= {"printed", "said", "exclusive"}
            and isinstance(g.get("exclusive", False), bool) and all(
                isinstance(g[k], list) and g[k] and all(isinstance(w, str) and w for w in g[k]) for k in ("printed", "said"))
            and all(any(s in p for s in g["said"]) for p in g["printed"]) for g in cq):
        raise RuleError(path, line_of(data), "`column_qualifiers:` must be a list of {printed: [..], said: [..]} "
                                             "(exclusive: true|false), each printed phrase holding a said word")

    def longest_first(key: str) -> tuple[str, ...]:
        return tuple(sorted(_words(path, data, key), key=len, reverse=True))

    words = CellWords(tuple(sorted(qw.items(), key=lambda kv: -len(kv[0]))), periods, longest_first("ask_words"),
                      frozenset(_words(path, data, "generic_labels")), neutral_words=longest_first("neutral_words"),
                      value_suffixes=longest_first("value_suffixes"), appositives=longest_first("appositives"),
                      change_words=longest_first("change_words"), row_kinds={k: tuple(v) for k, v in ok.items()},
                      ranked_groups={k: tuple(v) for k, v in rg.items()},
                      column_qualifiers=tuple((tuple(g["printed"]), tuple(g["said"])) for g in cq),
                      exclusive_qualifiers=tuple((tuple(g["printed"]), tuple(g["said"])) for g in cq if g.get("exclusive")))
    unknown = [k for k in words.row_kinds if not any(k in a for a in words.appositives)]
    if unknown:
        raise RuleError(path, line_of(ok), f"`row_kinds:` {unknown} are in no appositive")
    return words
