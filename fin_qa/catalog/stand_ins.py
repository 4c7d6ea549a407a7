"""keyword_tables/stand_ins.yaml: an item a report may not print on its own (主营业务收入) and the printed item that
holds it (营业收入), said as what it is when nothing answers the first (fin_qa/answer/router.py). `given` must be an
item of keyword_tables/items.yaml (`fin-qa rules check`)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .items import ItemTable
from .yamlfile import LDict, RuleError, line_of, load_rules_yaml


@dataclass(frozen=True)
class StandIn:
    asked: str     # the words a question asks (主营业务收入)
    given: str     # the item answered in their place, said as itself (营业收入)
    holds: str     # what the given item holds, said to the reader


def load_stand_ins(path: Path, items: ItemTable) -> tuple[StandIn, ...]:
    if not path.is_file():
        return ()
    data = load_rules_yaml(path)
    if not isinstance(data, LDict) or not isinstance(data.get("stand_ins"), list):
        raise RuleError(path, 1, "expected `stand_ins:` — a list of {asked, given, holds}")
    out = []
    for entry in data["stand_ins"]:
        line = line_of(entry) if isinstance(entry, LDict) else data.key_lines.get("stand_ins", 1)
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) and entry[k] for k in ("asked", "given", "holds")):
            raise RuleError(path, line, "a stand-in needs `asked:`, `given:` and `holds:` (words)")
        if entry["given"] not in items.items:
            raise RuleError(path, line, f"given: not an item of keyword_tables/items.yaml: {entry['given']}")
        if entry["asked"] in items.items or entry["asked"] == entry["given"]:
            raise RuleError(path, line, f"asked: {entry['asked']} is an item of its own, read as itself")
        out.append(StandIn(entry["asked"], entry["given"], entry["holds"]))
    return tuple(out)
