"""The values that go into the store and come out of it (plain data, no SQL)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


class Report(NamedTuple):
    """A filing of the store (a company's report of a period: its annual report, a quarter's or a half year's
    report, or a summary), as answers and understanding read it. `company` is the company key answers group years
    by. (A NamedTuple: 11,588 of them are made before the first answer.)"""

    id: int
    key: str                     # stock_code:year (an annual report), stock_code:2025Q3, stock_code:2024HY:summary;
                                 # name:<full name>:… when the code is unknown
    stock_code: str | None
    year: int
    full_name: str | None
    short_name: str | None
    publish_date: str | None = None
    period: str = "FY"           # Q1 | HY | Q3 | FY
    kind: str = "report"         # report | summary

    @property
    def company(self) -> str:
        """The company key: the stock code, else name:<full name, else short name>."""
        return self.stock_code or f"name:{self.full_name or self.short_name}"


@dataclass
class ReportMeta:
    """What a document or a table row says about its report (the store gives it an id)."""

    stock_code: str | None
    year: int
    full_name: str | None = None
    short_name: str | None = None
    publish_date: str | None = None
    period: str = "FY"            # the filing's period within its year: Q1 | HY | Q3 | FY
    kind: str = "report"          # report | summary (摘要)

    @property
    def key(self) -> str:
        """stock_code:year for an annual report (the key every store has used), stock_code:2025Q3 for another
        period, with :summary for a 摘要 (stock_code:2024FY:summary)."""
        return report_key(self.stock_code, self.full_name or self.short_name, self.year, self.period, self.kind)


def report_key(code: str | None, name: str | None, year: int, period: str = "FY", kind: str = "report") -> str:
    own = f"{year}" if period == "FY" else f"{year}{period}"
    if kind == "summary":
        own = f"{year}{period}:summary"
    return f"{code}:{own}" if code else f"name:{name}:{own}"


@dataclass
class FactRow:
    """A fact to write (the report is given alongside)."""

    item: str
    value: str
    num: float | None
    unit: str | None
    period: str
    statement: str | None
    page: int | None
    source: str
    raw_label: str | None = None


class StoredFact(NamedTuple):
    """A fact of one report as an answer reads it."""

    item: str
    value: str
    unit: str | None
    period: str
    statement: str | None
    page: int | None
    source: str
    raw_label: str | None


class ItemValue(NamedTuple):
    """One report's numeric value of an item (a statistics column)."""

    report_id: int
    value: str
    num: float
    page: int | None
    source: str


class SectionHead(NamedTuple):
    """A section without its text: what parent-section retrieval walks."""

    id: int
    parent_id: int | None
    title: str | None
    path: str | None             # the heading path as stored (a JSON list)
    chars: int | None            # length of the section's own text
    page_start: int | None


class TableRecord(NamedTuple):
    """A table of a report (fin_qa/ingest/tables.py): header and body rows aligned to its columns."""

    id: int
    report_id: int
    section_id: int | None
    path: list[str]              # the heading path of its section
    caption: str                 # the text line above it
    unit: str | None             # from its "单位：…" line
    page_start: int
    page_end: int
    header: list[str]
    rows: list[list[str]]
    pages: list[int]             # the page of each row


class ChunkText(NamedTuple):
    """A chunk of a section, in reading order."""

    id: int
    path: list[str]
    text: str
    page_start: int | None
    page_end: int | None


class ChunkRecord(NamedTuple):
    """A chunk with its report, as a search backend indexes it (search.base.ChunkDoc)."""

    chunk_id: int
    report_key: str
    stock_code: str | None
    year: int
    section_id: int | None
    path: list[str]
    text: str
    page_start: int | None
    page_end: int | None


class ChunkMatch(NamedTuple):
    """A chunk a search backend matched, with the backend's own score (higher is better): search.base.Hit
    (the FTS5 index's BM25, or Elasticsearch's)."""

    chunk_id: int
    report_key: str
    section_id: int | None
    path: list[str]
    text: str
    page_start: int | None
    page_end: int | None
    score: float


class ChunkRange(NamedTuple):
    """The chunk ids of one report (a report's chunks are written together, so they are consecutive)."""

    report_id: int
    first: int
    last: int


# The parent company's own statements are facts of scope parent: their statement is 母公司资产负债表 /
# 母公司利润表 / 母公司现金流量表; every read outside that scope leaves them out (Store.report_facts).
PARENT_STATEMENT_PREFIX = "母公司"


class Word(NamedTuple):
    """A word of a PDF page with its box in points, top measured from the page's top (as displayed)."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float


class PageWords(NamedTuple):
    """A PDF page's size as displayed (points) and its words (ingest's page_words)."""

    page: int
    width: float
    height: float
    words: list[Word]
