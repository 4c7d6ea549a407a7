"""What an answerer returns: an Answer with typed evidence.

Evidence kinds (each prints itself for `ask` and serialises itself for `--json` and batch lines; the
ones read from a report name it by its key, `report`, which `fin-qa serve` links the cited page with):
  FactEvidence     a value read from a report (item, value, year, page, source; the previous-period
                   column marked; the formula input label; the company in a ranking)
  FormulaEvidence  a definition from formulas/*.yaml (open questions)
  PassageEvidence  a quoted unit of a report section (page, heading path, text, section score)
  NoteEvidence     a quoted passage of a research note (a PassageEvidence with the note's title, broker,
                   date, file and figure; report: note:<id>)
  CellEvidence     a cell of a report table (table heading, row, column, value, page)
  DefinitionEvidence  a term's definition from keyword_tables/glossary.yaml (open questions)
"""
from __future__ import annotations

import re
from decimal import Decimal
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Sequence, Union

from ..numbers import parse_number


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
    within: str | None = None      # the period of its year it describes, as said (第三季度单季（7-9月）: issue 44)

    def to_dict(self) -> dict[str, Any]:
        if self.company is not None:
            out = _with_report({"item": self.item, "company": self.company, "year": self.year, "value": self.value,
                                "page": self.page, "source": self.source}, self.report)
            if self.within:
                out["within"] = self.within
            return out
        out = _with_report({"item": self.item, "value": self.value, "year": self.year, "page": self.page,
                            "source": self.source}, self.report)
        if self.within:
            out["within"] = self.within
        if self.period != "current":
            out["period"] = self.period  # previous, or previous2 (the summary table's third year)
        if self.label is not None:
            out["label"] = self.label
        return out

    def describe(self) -> str:
        where = f"p.{self.page}" if self.page else "no page"
        who = f"{self.company} " if self.company else ""
        return f"{who}{self.year if self.year is not None else ''}年{self.within or ''} {self.label or self.item} = " \
               f"{self.value} ({where}, {self.source})"


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
class NoteEvidence(PassageEvidence):
    """A quoted passage of a research note (report: note:<id>): the note's title, broker, date, file, and the
    title of the figure it speaks of where there is one (its references' paper_image)."""
    note: str = ""
    broker: str | None = None
    date: str | None = None
    path: str | None = None
    figure: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        out["note"] = {"title": self.note, "broker": self.broker, "date": self.date, "path": self.path,
                       "figure": self.figure}
        return out

    def describe(self) -> str:
        return f"研报《{self.note}》（{self.broker or '?'}，{self.date or '?'}）{super().describe()}"


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


_SHOWN = re.compile(r"^([-+−－(（]?\s*\d[\d,]*(?:\.\d+)?[)）]?)\s*(.*)$")


def shown_number(text: str | None) -> tuple[Decimal | None, str | None]:
    """(number, unit) of a value as an answer prints it: '1,175,301,034.32元', '-4.49%', '(77,398)元',
    '172人', '2.35' (the number read by numbers.parse_number, exactly)."""
    m = _SHOWN.match(text.strip()) if text else None
    number = parse_number(m.group(1).replace("−", "-").replace("－", "-")) if m else None
    if m is None or number is None:
        return None, None
    return number, (m.group(2).strip() or None)


def shown_value(text: str | None) -> tuple[float | None, str | None]:
    """shown_number's, the number as a float."""
    number, unit = shown_number(text)
    return (float(number), unit) if number is not None else (None, None)


Evidence = Union[FactEvidence, FormulaEvidence, PassageEvidence, NoteEvidence, CellEvidence, DefinitionEvidence]


class Method(StrEnum):
    """How an answer was made: the router, the plan and the reviewer compare these exactly (an Answer made
    with any other raises)."""
    LOOKUP = "lookup"                # a fact of the report
    FORMULA = "formula"              # computed by a formula file
    CHANGE = "change"                # a change or growth between years
    ITEMS = "items"                  # several items of one report
    COMPARE = "compare"              # across companies
    STATISTICS = "statistics"        # a ranking, count or filter over the store
    CELL = "cell"                    # a table's cells named by the question
    FRAME = "frame"                  # a query over a table's rows (answer/frames.py)
    STATED = "stated"                # a value stated in a sentence
    TEXT = "text"                    # quoted text
    TEXT_LLM = "text+llm"            # quoted text the chat model wrote prose from
    OPEN = "open"                    # a definition
    OPEN_LLM = "open+llm"
    NOTE = "note"                    # research notes quoted (answer/notes.py): their view, never a filing's figure
    PLAN = "plan"                    # a compound question's asks composed
    SERIES = "series"                # an item over several years, with its changes (answer/series.py)
    DISTRIBUTION = "distribution"    # the profit distribution plan, its figures and sentence (answer/distribution.py)
    SHARE_ASKS = "share_asks"        # one ask's value as a share of another's
    COMPARE_ASKS = "compare_asks"    # asks compared
    DECLINED = "declined"            # understood in part: no value given
    NOT_FOUND = "not_found"          # nothing holds it
    BAD_INPUT = "bad_input"
    UNREAD = "unread"                # a subsidiary named whose value was not read (the router's guard)
    ASK_YEAR = "ask_year"            # which year is asked back (去年 after several years; a period with no year)
    ASK_WHICH = "ask_which"          # … which company
    ASK_PERIOD = "ask_period"        # a question of a company with filings of several periods names none


def extended(ans: "Answer", text: str, evidence: "Sequence[Evidence]") -> "Answer":
    """The answer with `text` said after it and its evidence added — the same answer otherwise (found, partial,
    frame, context …: nothing recomputed)."""
    import copy

    out = copy.copy(ans)
    out.answer = ans.answer.rstrip() + "\n" + text
    out.evidence = [*ans.evidence, *(e for e in evidence if e not in ans.evidence)]
    return out


# the statements whose lines answer a value exactly (a sentence stating one is quoted only for what they lack)
STATEMENT_NAMES = ("资产负债表", "利润表", "现金流量表")

# the methods that give a table's cells as the answer (what a plan takes as a row's values)
TABLE_METHODS = (Method.CELL, Method.FRAME)


@dataclass
class Answer:
    question: str
    answer: str
    type: str                      # the contest's type label (1, 1-2, 2-1, 2-2, 3-1, 3-2)
    method: str                    # a Method (made one when the Answer is made)
    evidence: list[Evidence] = field(default_factory=list)
    # found: everything asked is answered. partial: what was asked and is not answered, where the answer
    # gives the rest (an ask of a compound question, an item, a year of a series) — never set with found.
    # Neither: the answer admits it has no value. The same two in --json, batch lines, the API and Python.
    found: bool = True
    partial: list[str] = field(default_factory=list)
    model_keywords: list[str] = field(default_factory=list)  # keywords the chat model gave, when it was asked
    frame: dict[str, Any] | None = None   # what was understood (company, years, items, period, operation …)
    asks: list[dict[str, Any]] | None = None   # a compound question: each ask with its words, answer, evidence
    # a follow-up question (answer/followup.py): what it took from the conversation (company, year, item),
    # the companies it asks to choose between, and the context it leaves for the next question
    from_context: dict[str, Any] | None = None
    ask_which: list[str] | None = None
    context: dict[str, Any] | None = None
    # a series (answer/series.py): per item, its points (year, value, shown, change, change_rate, read_from)
    series: list[dict[str, Any]] | None = None
    shown: str | None = None   # the one value it gives, as printed (a formula's result, a change), where it
    # gives one: else the value of its one fact or cell read, when it read one
    chart: dict[str, Any] | None = None   # the chart its numbers make (answer/chart.py), where they make one

    def __post_init__(self) -> None:
        self.method = Method(self.method)
        if self.partial:
            self.found = False

    @property
    def answered(self) -> bool:
        """Whether it gives a value at all: everything asked (found), or a part of it (partial)."""
        return self.found or bool(self.partial)

    @property
    def value(self) -> float | None:
        """The one number it gives, where it gives one (a value read, or a formula's result), else None."""
        return self.one_value()[0]

    @property
    def unit(self) -> str | None:
        """The unit of `value` as printed (元, %, 人 …; None for a plain ratio)."""
        return self.one_value()[1]

    def one_value(self) -> tuple[float | None, str | None]:
        if not self.answered:
            return None, None
        if self.shown is not None:
            return shown_value(self.shown)
        values = [e for e in self.evidence if isinstance(e, (FactEvidence, CellEvidence))
                  and not getattr(e, "label", None) and not getattr(e, "company", None)]
        return shown_value(values[0].value) if len(values) == 1 else (None, None)

    def record(self, qid: Any = None) -> dict[str, Any]:
        out: dict[str, Any] = {"id": qid, "question": self.question, "answer": self.answer, "type": self.type,
                               "method": self.method, "found": self.found, "partial": list(self.partial)}
        if self.evidence:
            out["evidence"] = [e.to_dict() for e in self.evidence]
        if self.model_keywords:
            out["model_keywords"] = self.model_keywords
        if self.frame:
            out["frame"] = self.frame
        if self.asks:
            out["asks"] = self.asks
        if self.series:
            out["series"] = self.series
        if self.from_context:
            out["from_context"] = self.from_context
        if self.ask_which:
            out["ask_which"] = self.ask_which
        if self.context:
            out["context"] = self.context
        if self.chart:
            out["chart"] = self.chart
        return out
