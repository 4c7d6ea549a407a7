"""What an answerer returns: an Answer with typed evidence.

Evidence kinds (each prints itself for `ask` and serialises itself for `--json` and batch lines; the
ones read from a report name it by its key, `report`, which `fin-qa serve` links the cited page with):
  FactEvidence     a value read from a report (item, value, year, page, source; the previous-period
                   column marked; the formula input label; the company in a ranking)
  FormulaEvidence  a definition from formulas/*.yaml (open questions)
  PassageEvidence  a quoted unit of a report section (page, heading path, text, section score)
  CellEvidence     a cell of a report table (table heading, row, column, value, page)
  DefinitionEvidence  a term's definition from keyword_tables/glossary.yaml (open questions)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union


def _with_report(out: dict[str, Any], report: str | None) -> dict[str, Any]:
    if report:
        out["report"] = report
    return out


@dataclass
class FactEvidence:
    item: str
    value: str
    year: int | None
    page: int | None
    source: str
    period: str = "current"        # previous: the previous-period column; previous2: the summary's third year
    label: str | None = None       # the formula input this value fills
    company: str | None = None     # the company, in a ranking or count across companies
    report: str | None = None      # the key of the report it was read from
    # where it stands on the page (not serialised): the row label as printed, and the value as stored
    # (an amount in 元, whatever unit the page prints it in)
    printed_label: str | None = None
    stored: str | None = None

    def to_dict(self) -> dict[str, Any]:
        if self.company is not None:
            return _with_report({"item": self.item, "company": self.company, "year": self.year, "value": self.value,
                                 "page": self.page, "source": self.source}, self.report)
        out = _with_report({"item": self.item, "value": self.value, "year": self.year, "page": self.page,
                            "source": self.source}, self.report)
        if self.period != "current":
            out["period"] = self.period  # previous, or previous2 (the summary table's third year)
        if self.label is not None:
            out["label"] = self.label
        return out

    def describe(self) -> str:
        where = f"p.{self.page}" if self.page else "no page"
        who = f"{self.company} " if self.company else ""
        return f"{who}{self.year if self.year is not None else ''}年 {self.label or self.item} = {self.value} ({where}, {self.source})"


@dataclass
class FormulaEvidence:
    formula: str
    expr: str
    source: str                    # the formula file's name

    def to_dict(self) -> dict[str, Any]:
        return {"formula": self.formula, "expr": self.expr, "source": self.source}

    def describe(self) -> str:
        return f"{self.formula} = {self.expr} ({self.source})"


@dataclass
class PassageEvidence:
    page: int | None
    heading: str                   # the heading path, joined with " > "
    text: str
    section_score: float | None = None
    report: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out = _with_report({"page": self.page, "heading": self.heading, "text": self.text}, self.report)
        if self.section_score is not None:
            out["section_score"] = self.section_score
        return out

    def describe(self) -> str:
        where = f"p.{self.page}" if self.page else "no page"
        return f"{where} {self.heading}: {self.text}"


@dataclass
class CellEvidence:
    table: str                     # the table's heading path
    row: str
    column: str
    value: str
    page: int | None
    report: str | None = None
    cell: str | None = None        # the cell's text as printed (value is it with the table's unit)

    def to_dict(self) -> dict[str, Any]:
        return _with_report({"table": self.table, "row": self.row, "column": self.column, "value": self.value,
                             "page": self.page}, self.report)

    def describe(self) -> str:
        where = f"p.{self.page}" if self.page else "no page"
        cell = f"{self.row} / {self.column}" if self.column else self.row   # a label | value table has no header
        return f"{where} {self.table}「{cell}」= {self.value}"


@dataclass
class DefinitionEvidence:
    term: str
    definition: str
    file: str

    def to_dict(self) -> dict[str, Any]:
        return {"term": self.term, "definition": self.definition, "source": self.file}

    def describe(self) -> str:
        return f"{self.term}（{self.file}）：{self.definition}"


Evidence = Union[FactEvidence, FormulaEvidence, PassageEvidence, CellEvidence, DefinitionEvidence]


@dataclass
class Answer:
    question: str
    answer: str
    type: str                      # the contest's type label (1, 1-2, 2-1, 2-2, 3-1, 3-2)
    method: str                    # lookup | formula | compare | statistics | text | open | not_found | ...
    evidence: list[Evidence] = field(default_factory=list)
    found: bool = True             # False when the answer admits it has no value
    partial: bool = False          # True when it gives some of the values asked and says the others are missing
    model_keywords: list[str] = field(default_factory=list)  # keywords the chat model gave, when it was asked
    frame: dict[str, Any] | None = None   # what was understood (company, years, items, period, operation …)
    asks: list[dict[str, Any]] | None = None   # a compound question: each ask with its words, answer, evidence

    def record(self, qid: Any = None) -> dict[str, Any]:
        out: dict[str, Any] = {"id": qid, "question": self.question, "answer": self.answer, "type": self.type,
                               "method": self.method}
        if self.evidence:
            out["evidence"] = [e.to_dict() for e in self.evidence]
        if self.model_keywords:
            out["model_keywords"] = self.model_keywords
        if self.frame:
            out["frame"] = self.frame
        if self.asks:
            out["asks"] = self.asks
        if self.partial:
            out["partial"] = True
        return out
