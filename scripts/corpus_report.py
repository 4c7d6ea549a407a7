#!/usr/bin/env python3
"""A folder of reports, ingested and checked: one line a report and the totals.

For every report file under FOLDER (PDF or txt): how it was identified (code, short name, full name, year, and
its period within the year and kind — 2025Q3 report, 2024HY summary — against the folder's manifest.csv when it
has one, or --manifest: `ok`, or what differs; tests/data/periodic_manifest.csv is ../shared/data/periodic's), whether it is complete (the
essential lines of its kind read, else how many are not), its identities (checks holding / run), its facts,
the seconds its parse took, and its warnings. The manifest (file,code,short_name,full_name,year, as
../shared/data/corpus/manifest.csv has it) is the truth compared against, never a hint given to ingest:
each report is identified from its own content and file name.

With --store the reports are ingested into that store (read again when already there). Exit status 1 when a
file is not stored, identified otherwise than its manifest line says, or incomplete; a report whose own
figures contradict each other is printed, its failed identity named, and does not change the status.

usage: python scripts/corpus_report.py FOLDER [--manifest CSV] [--store DIR] [--workers N] [--warnings]
"""
from __future__ import annotations

import argparse
import csv
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def read_truth(path: Path | None) -> dict[str, dict[str, str]]:
    if path is None or not path.is_file():
        return {}
    with open(path, encoding="utf-8-sig", newline="") as fh:
        return {row["file"].strip(): row for row in csv.DictReader(fh)}


def pad(text: str, width: int) -> str:
    """The text padded to a width counted in terminal columns (a Chinese character takes two)."""
    import unicodedata

    used = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    return text + " " * max(1, width - used)


def identified(meta: dict, truth: dict[str, str] | None) -> str:
    """`ok`, what differs from the manifest, or `-` without a manifest line."""
    if not truth:
        return "-"
    got = {"code": meta["stock_code"], "short_name": meta["short_name"], "full_name": meta["full_name"],
           "year": str(meta["year"]), "period": meta["period"][4:], "kind": meta["kind"]}
    diff = [f"{k} {got[k] or '-'}≠{truth[k]}" for k in got if truth.get(k) and (got[k] or "") != truth[k].strip()]
    return "ok" if not diff else "; ".join(diff)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder")
    ap.add_argument("--manifest", help="the truth to compare with (default: FOLDER/manifest.csv when there)")
    ap.add_argument("--store", help="the store to ingest into (default: a temporary one)")
    ap.add_argument("--workers", type=int, default=None, help="parser processes (default: as fin-qa ingest)")
    ap.add_argument("--warnings", action="store_true", help="print every report's warnings in full")
    args = ap.parse_args()

    from fin_qa.catalog import Catalog
    from fin_qa.check import check_report, filing_label
    from fin_qa.cli import _cores
    from fin_qa.ingest.pipeline import ingest
    from fin_qa.store import Store

    folder = Path(args.folder)
    if not folder.is_dir():
        print(f"no such folder: {folder}", file=sys.stderr)
        return 2
    truth = read_truth(Path(args.manifest) if args.manifest else folder / "manifest.csv")
    catalog = Catalog.shipped()
    tmp = None if args.store else tempfile.TemporaryDirectory()
    store = Store(args.store or tmp.name)   # type: ignore[union-attr]
    workers = args.workers or min(_cores(), 4)   # fin-qa ingest's default
    t = time.perf_counter()
    summary = ingest([folder], store, catalog, workers=workers, force=True)
    wall = time.perf_counter() - t

    by_path = {str(Path(f).resolve()): r for r in store.reports() for f in (r["files"] or "").split("; ") if f}
    print(f"{pad('file', 30)}{pad('report', 26)}{'identified':<12}{'complete':<11}{'identities':<12}{'facts':>6}"
          f"{'s':>7}  warnings")
    totals: dict[str, object] = {"n": 0, "identified": 0, "unlisted": 0, "complete": 0, "identities": 0, "facts": 0,
                                 "pages": 0, "failed": 0}
    notes = 0
    for o in summary.outcomes:
        name = Path(o.path).name
        if o.status == "ingested" and o.note is not None:   # (a research note: stored as a note, no filing)
            notes += 1
            print(f"{pad(name, 30)}{pad('research note', 26)}  {o.detail}")
            continue
        totals["n"] += 1
        if o.status != "ingested" or o.report is None:
            totals["failed"] += 1
            print(f"{pad(name, 30)}{pad('NOT STORED', 26)}{'-':<12}{'-':<11}{'-':<12}{'-':>6}{'-':>7}  {o.detail}")
            continue
        rep = o.report
        row = by_path.get(str(Path(o.path).resolve()))
        if row is None:
            print(f"{pad(name, 30)}{pad('(not in the store)', 26)}  {o.detail}")
            continue
        results = check_report(store, row["id"], catalog.checks,
                               names=" ".join(row.get(k) or "" for k in ("short_name", "full_name")),
                               complete=row["kind"] == "report")   # (a summary prints no statements)
        missing = {x.missing for x in results if x.missing and not x.ok}
        held = [x for x in results if not x.missing]
        ok_ids = sum(1 for x in held if x.ok)
        ident = identified(row, truth.get(name))
        totals["identified"] += ident == "ok"
        totals["unlisted"] += ident == "-"
        totals["complete"] += not missing
        totals["identities"] += ok_ids == len(held)
        totals["facts"] += row["facts"]
        totals["pages"] += rep.pages
        label = f"{row['short_name'] or row['full_name'] or '-'} {filing_label(row)} {row['stock_code'] or ''}"
        totals.setdefault("kinds", {})
        kinds = totals["kinds"]
        assert isinstance(kinds, dict)
        kinds[(row["period"][4:], row["kind"])] = kinds.get((row["period"][4:], row["kind"]), 0) + 1
        warn = f"{len(rep.warnings)}" + (": " + " | ".join(rep.warnings) if rep.warnings and args.warnings else "")
        print(f"{pad(name, 30)}{pad(label, 26)}{ident if len(ident) < 12 else 'differs':<12}{'ok' if not missing else f'{len(missing)} not read':<11}"
              f"{f'{ok_ids}/{len(held)}':<12}{row['facts']:>6}{rep.seconds:>7.2f}  {warn}")
        if ident not in ("ok", "-") and not args.warnings:
            print(f"{'':<30}differs from the manifest: {ident}")
        for item in sorted(missing):
            print(f"{'':<30}not read: {item}")
        for x in held:
            if not x.ok:
                print(f"{'':<30}{x.describe()}")
    n = totals["n"]
    said = (f"{totals['identified']}/{n} identified as the manifest says"
            + (f" ({totals['unlisted']} not in it)" if totals["unlisted"] else "")) if truth else "no manifest"
    kinds = totals.get("kinds") or {}
    assert isinstance(kinds, dict)
    order = {"Q1": 0, "HY": 1, "Q3": 2, "FY": 3}
    by_kind = ", ".join(f"{k[0]} {'摘要' if k[1] == 'summary' else '报告'} {v}"
                        for k, v in sorted(kinds.items(), key=lambda kv: (order.get(kv[0][0], 9), kv[0][1])))
    print(f"\n{n} files: {n - totals['failed']} stored ({by_kind}), {said}, {totals['complete']}/{n} complete, "
          f"{totals['identities']}/{n} with every identity holding; {totals['facts']} facts; "
          f"{totals['pages']} pages in {wall:.1f} s ({totals['pages'] / wall:.0f} pages/s, --workers {workers})"
          + (f"; {notes} research note(s) stored as notes" if notes else ""))
    store.close()
    if tmp is not None:
        tmp.cleanup()
    stored = n - totals["failed"]
    bad = totals["failed"] or totals["complete"] < stored or (truth and totals["identified"] < stored)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
