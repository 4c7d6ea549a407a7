"""fin-qa ingest: files and folders → parsed reports (in worker processes) → the store (one writer).

Each file is parsed on its own (a worker process when --workers > 1) into a ParsedReport; the main
process writes each one in a single transaction. A file that cannot be ingested gets one line in the
summary and the run goes on. Re-ingesting an unchanged file is skipped by content hash (--force
re-ingests it), so an interrupted run is resumed by running it again.
"""
from __future__ import annotations

import hashlib
import os
import re
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from ..catalog import Catalog
from ..store import FactRow, ReportMeta, Store
from .headings import build_sections, chunk_sections, section_text
from .pages import Document, IngestError, open_document
from .profile import extract_employees, extract_profile
from .statements import extract_statements

SUFFIXES = (".pdf", ".txt", ".jsonl")
_COVER_YEAR = re.compile(r"(20\d{2}|19\d{2})\s*年\s*(?:年度报告|年报)")
_CODE = re.compile(r"(?:股票|证券)代码\s*[:：]?\s*(\d{6})")
_SHORT = re.compile(r"(?:股票|证券)简称\s*[:：]?\s*([\u4e00-\u9fffA-Za-z*＊ST]{2,10})")


@dataclass
class ParsedReport:
    path: str
    kind: str
    sha256: str
    pages: int
    meta: ReportMeta
    facts: list[FactRow]
    sections: list[dict]
    chunks: list[dict]
    warnings: list[str]
    seconds: float
    table_pages: int
    statements: list[str] = field(default_factory=list)


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def identify(doc: Document, path: Path, profile: dict[str, str], catalog: Catalog) -> ReportMeta:
    """Company and year: from a FinGLM-style file name when there is one (rules/report_names.yaml),
    else from the report."""
    m = catalog.report_names.file_name.match(path.name)
    if m:
        return ReportMeta(m.group("code"), int(m.group("year")), m.group("full"), m.group("short"), m.group("date"))
    year = None
    code = profile.get("股票代码")
    short = profile.get("股票简称") or profile.get("中文简称")
    for page in doc.pages[:3]:
        text = page.text
        if year is None:
            ym = _COVER_YEAR.search(text)
            year = int(ym.group(1)) if ym else None
        if code is None:
            cm = _CODE.search(text)
            code = cm.group(1) if cm else None
        if short is None:
            sm = _SHORT.search(text)
            short = sm.group(1) if sm else None
    if year is None:
        raise IngestError("cannot tell the report year (no \"YYYY年年度报告\" on the first pages, no FinGLM file name)")
    full = profile.get("中文名称")
    if not (code or full or short):
        raise IngestError("cannot identify the company (no 股票代码, 股票简称 or 公司的中文名称 found)")
    return ReportMeta(code, year, full, short, None)


def _num(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None


def parse_file(path: str | Path, catalog: Catalog, sha256: str | None = None) -> ParsedReport:
    """Everything fin-qa reads from one report file. Raises IngestError with the reason."""
    t0 = time.perf_counter()
    path = Path(path)
    sha = sha256 or sha256_of(path)
    doc = open_document(path)
    try:
        profile_facts = extract_profile(doc, catalog)
        profile = {f.item: f.value for f in profile_facts}
        meta = identify(doc, path, profile, catalog)
        # the report itself is the better source of names when the file name is not FinGLM's
        meta.full_name = meta.full_name or profile.get("中文名称")
        meta.short_name = meta.short_name or profile.get("股票简称") or profile.get("中文简称")
        source = doc.kind
        facts: list[FactRow] = []
        warnings: list[str] = []
        statements = extract_statements(doc, meta.year, catalog.items)
        for kind, st in statements.items():
            for sf in st.facts:
                facts.append(FactRow(sf.item, sf.value, _num(sf.value), sf.unit, sf.period, kind, sf.page, source,
                                     sf.raw_label))
            warnings.extend(f"{kind}: {w}" for w in st.warnings)
        missing = [k for k in ("资产负债表", "利润表", "现金流量表") if k not in statements]
        if missing:
            warnings.append("consolidated statement(s) not found: " + ", ".join(missing))
        for f in profile_facts:
            facts.append(FactRow(f.item, f.value, None, None, "current", f.statement, f.page, source, f.raw_label))
        for f in extract_employees(doc, catalog):
            facts.append(FactRow(f.item, f.value, _num(f.value), f.unit, "current", f.statement, f.page, source, f.raw_label))
        sections = build_sections(doc)
        chunks = chunk_sections(sections)
        sec_rows = [
            {"sid": s.sid, "parent": s.parent, "level": s.level, "title": s.title, "path": s.path,
             "page_start": s.page_start, "page_end": s.page_end, "text": section_text(s)}
            for s in sections
        ]
        chunk_rows = [
            {"section": c.section, "path": c.path, "text": c.text, "page_start": c.page_start, "page_end": c.page_end}
            for c in chunks
        ]
        return ParsedReport(str(path.resolve()), doc.kind, sha, len(doc.pages), meta, facts, sec_rows, chunk_rows,
                            warnings, time.perf_counter() - t0, doc.table_pages_parsed, sorted(statements))
    finally:
        doc.close()


# a worker process's catalog: the parent's, sent once when the worker starts (_start_worker)
_worker_catalog: Catalog | None = None


def _start_worker(catalog: Catalog) -> None:
    global _worker_catalog
    _worker_catalog = catalog


def _parse_in_worker(path: str, sha256: str) -> tuple[str, ParsedReport | None, str | None]:
    assert _worker_catalog is not None, "worker started without its catalog"
    return _parse_safely(path, sha256, _worker_catalog)


def _parse_safely(path: str, sha256: str, catalog: Catalog) -> tuple[str, ParsedReport | None, str | None]:
    try:
        return path, parse_file(path, catalog, sha256), None
    except IngestError as exc:
        return path, None, str(exc)
    except MemoryError:
        return path, None, "out of memory while parsing"
    except Exception as exc:  # a parser bug must not end a batch: report it as this file's failure
        return path, None, f"internal error while parsing ({type(exc).__name__}: {exc})"


def collect_files(paths: Iterable[str | Path]) -> tuple[list[Path], list[tuple[str, str]]]:
    """Report files under the given paths (folders recursively); missing paths are reported."""
    files: list[Path] = []
    problems: list[tuple[str, str]] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            files.extend(sorted(x for x in p.rglob("*") if x.is_file() and x.suffix.lower() in SUFFIXES))
        elif p.is_file():
            files.append(p)
        else:
            problems.append((str(p), "no such file or folder"))
    seen: set[Path] = set()
    unique = []
    for f in files:
        r = f.resolve()
        if r not in seen:
            seen.add(r)
            unique.append(f)
    return unique, problems


@dataclass
class Outcome:
    path: str
    status: str  # ingested | skipped | failed
    detail: str = ""
    report: ParsedReport | None = None


@dataclass
class Summary:
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0
    interrupted: bool = False

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)


def ingest(
    paths: Iterable[str | Path],
    store: Store,
    catalog: Catalog,
    workers: int = 1,
    force: bool = False,
    on_progress: Callable[[Outcome], None] | None = None,
) -> Summary:
    t0 = time.perf_counter()
    summary = Summary()
    files, problems = collect_files(paths)
    for path, why in problems:
        summary.outcomes.append(Outcome(path, "failed", why))
    todo: list[tuple[str, str]] = []
    for f in files:
        try:
            sha = sha256_of(f)
        except OSError as exc:
            summary.outcomes.append(Outcome(str(f), "failed", f"cannot read: {exc.strerror}"))
            continue
        known = store.file_by_hash(sha)
        if known and not force:
            o = Outcome(str(f), "skipped", "unchanged (already ingested)" if known == str(f.resolve())
                        else f"same content as {known} (already ingested)")
            summary.outcomes.append(o)
            if on_progress:
                on_progress(o)
            continue
        todo.append((str(f), sha))

    def finish(path: str, rep: ParsedReport | None, err: str | None) -> None:
        if rep is None:
            o = Outcome(path, "failed", err or "unknown error")
        else:
            store.write_document(rep.meta, rep.path, rep.sha256, rep.kind, rep.pages, rep.facts, rep.sections,
                                 rep.chunks, rep.warnings)
            n_fin = sum(1 for f in rep.facts if f.statement in ("资产负债表", "利润表", "现金流量表"))
            detail = f"{rep.meta.short_name or rep.meta.full_name or rep.meta.stock_code} {rep.meta.year}: " \
                     f"{rep.pages} pages, {n_fin} statement facts, {len(rep.facts) - n_fin} other facts, " \
                     f"{len(rep.chunks)} chunks"
            if rep.warnings:
                detail += "; warnings: " + "; ".join(rep.warnings)
            o = Outcome(path, "ingested", detail, rep)
        summary.outcomes.append(o)
        if on_progress:
            on_progress(o)

    try:
        if workers <= 1 or len(todo) <= 1:
            for path, sha in todo:
                finish(*_parse_safely(path, sha, catalog))
        else:
            with ProcessPoolExecutor(max_workers=min(workers, len(todo), os.cpu_count() or 1),
                                     initializer=_start_worker, initargs=(catalog,)) as pool:
                futures = [pool.submit(_parse_in_worker, p, sha) for p, sha in todo]
                try:
                    for fut in as_completed(futures):
                        finish(*fut.result())
                except KeyboardInterrupt:
                    for fut in futures:
                        fut.cancel()
                    raise
    except KeyboardInterrupt:
        summary.interrupted = True
    if summary.count("ingested"):
        store.optimize_search()
    summary.seconds = time.perf_counter() - t0
    return summary
