#!/usr/bin/env python3
"""Ingest speed on the shared real reports, against the FinGLM reference approach.

For every PDF in ../shared/data/reports: pages, seconds and pages/s for fin-qa's parse (pypdfium2 text of
every page + PDFium word positions of every page, for every table) and, in the same run, for pdfplumber
extract_text() on every page (what the FinGLM reference converter does). Then pypdfium2's bare text of the
same PDFs (the practical limit) and fin-qa ingest of those PDFs as a share of it, --workers scaling over
the whole folder (PDF and txt), and import-tables over ../shared/data/finglm_tables.

With --big-txt MB: a FinGLM txt of about MB megabytes (a shared txt report's lines repeated, pages
renumbered) is opened in a fresh process and its peak memory (max RSS) and seconds printed.

usage: python scripts/bench_ingest.py [--reports DIR] [--workers 1 2] [--no-baseline] [--no-tables]
                                      [--big-txt MB]
"""
from __future__ import annotations

import argparse
import glob
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reports", default=str(ROOT.parent / "shared" / "data" / "reports"))
    ap.add_argument("--tables", default=str(ROOT.parent / "shared" / "data" / "finglm_tables"))
    ap.add_argument("--workers", type=int, nargs="*", default=[1, 2])
    ap.add_argument("--no-baseline", action="store_true")
    ap.add_argument("--no-tables", action="store_true")
    ap.add_argument("--big-txt", type=int, default=0, metavar="MB")
    args = ap.parse_args()
    if args.big_txt:
        return big_txt(args.big_txt, Path(args.reports))

    from fin_qa.catalog import Catalog
    from fin_qa.ingest.pipeline import ingest, parse_file
    from fin_qa.store import Store

    catalog = Catalog.shipped()

    pdfs = sorted(glob.glob(str(Path(args.reports) / "*.pdf")))
    if not pdfs:
        print(f"no PDFs under {args.reports}", file=sys.stderr)
        return 1
    # stmt pp: the pages the statement parsers read rows of; tables: the report's table records
    print(f"{'report':<12}{'pages':>6}{'stmt pp':>9}{'tables':>8}{'fin-qa s':>10}{'pages/s':>9}{'plumber s':>11}{'pages/s':>9}{'speed-up':>10}")
    tot = [0, 0.0, 0.0]
    for f in pdfs:
        name = Path(f).name.split("__")[3] if "__" in Path(f).name else Path(f).stem
        t = time.perf_counter()
        rep = parse_file(f, catalog)
        ours = time.perf_counter() - t
        base = float("nan")
        if not args.no_baseline:
            import pdfplumber

            t = time.perf_counter()
            with pdfplumber.open(f) as pdf:
                for page in pdf.pages:
                    page.extract_text()
                    page.flush_cache()
            base = time.perf_counter() - t
        tot[0] += rep.pages
        tot[1] += ours
        tot[2] += base
        print(f"{name:<12}{rep.pages:>6}{rep.table_pages:>9}{len(rep.tables):>8}{ours:>10.2f}{rep.pages / ours:>9.0f}"
              f"{base:>11.2f}{rep.pages / base:>9.1f}{base / ours:>9.1f}x")
    print(f"{'total':<12}{tot[0]:>6}{'':>9}{'':>8}{tot[1]:>10.2f}{tot[0] / tot[1]:>9.0f}{tot[2]:>11.2f}"
          f"{tot[0] / tot[2]:>9.1f}{tot[2] / tot[1]:>9.1f}x")

    # the practical limit: pypdfium2's bare text of every page of the same PDFs, one process
    t = time.perf_counter()
    bare_pages = 0
    for f in pdfs:
        import pypdfium2

        pdf = pypdfium2.PdfDocument(f)
        for page in pdf:
            page.get_textpage().get_text_range()
            bare_pages += 1
        pdf.close()
    bare = time.perf_counter() - t
    print(f"\npypdfium2 bare text of the same {len(pdfs)} PDFs: {bare_pages} pages in {bare:.2f} s = "
          f"{bare_pages / bare:.0f} pages/s (one process)")

    print("\nfin-qa ingest of the PDFs (parse + store, the whole command's work), by --workers:")
    for w in args.workers:
        with tempfile.TemporaryDirectory() as d:
            for f in pdfs:
                Path(d, "pdfs").mkdir(exist_ok=True)
                Path(d, "pdfs", Path(f).name).symlink_to(Path(f).resolve())
            store = Store(Path(d) / "store")
            t = time.perf_counter()
            s = ingest([Path(d) / "pdfs"], store, catalog, workers=w)
            dt = time.perf_counter() - t
            pages = sum(o.report.pages for o in s.outcomes if o.report)
            print(f"  workers={w}: {s.count('ingested')} reports, {pages} pages in {dt:.2f} s = {pages / dt:.0f} pages/s"
                  f" = {(pages / dt) / (bare_pages / bare):.2f} of pypdfium2's bare text")
            store.close()

    print("\nfin-qa ingest of the whole folder (PDF and txt, parse + store), by --workers:")
    for w in args.workers:
        with tempfile.TemporaryDirectory() as d:
            store = Store(d)
            t = time.perf_counter()
            s = ingest([args.reports], store, catalog, workers=w)
            dt = time.perf_counter() - t
            pages = sum(o.report.pages for o in s.outcomes if o.report)
            print(f"  workers={w}: {s.count('ingested')} reports, {pages} pages in {dt:.2f} s = {pages / dt:.0f} pages/s")
            store.close()

    tables = sorted(glob.glob(str(Path(args.tables) / "*.xlsx")))
    if tables and not args.no_tables:
        from fin_qa.ingest.tables_import import import_table

        with tempfile.TemporaryDirectory() as d:
            store = Store(d)
            t = time.perf_counter()
            n = 0
            for f in tables:
                n += import_table(f, store, catalog).facts
            dt = time.perf_counter() - t
            print(f"\nimport-tables: {len(tables)} tables, {store.counts()['reports']} reports, {n} facts in {dt:.1f} s")
            store.close()
    return 0


def big_txt(mb: int, reports: Path) -> int:
    """Peak memory of opening a FinGLM txt of about mb megabytes (in a child process, max RSS)."""
    import json
    import subprocess

    src = sorted(reports.glob("*.txt"))
    if not src:
        print(f"no .txt report under {reports}", file=sys.stderr)
        return 1
    lines = src[0].read_text(encoding="utf-8").splitlines()
    pages = max(json.loads(x)["page"] for x in lines if x.strip())
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "big.txt"
        size = 0
        with open(path, "w", encoding="utf-8") as fh:
            k = 0
            while size < mb * 2 ** 20:
                for x in lines:
                    if not x.strip():
                        continue
                    obj = json.loads(x)
                    obj["page"] += k * pages
                    out = json.dumps(obj, ensure_ascii=False) + "\n"
                    fh.write(out)
                    size += len(out.encode("utf-8"))
                k += 1
        code = ("import resource, sys, time; sys.path.insert(0, %r); from fin_qa.ingest.pages import open_document; "
                "t = time.perf_counter(); doc = open_document(%r); dt = time.perf_counter() - t; "
                "print(len(doc.pages), dt, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)") % (str(ROOT), str(path))
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
        print(f"txt of {size / 2 ** 20:.0f} MB ({src[0].name[:40]}… x{k}): {out[0]} pages opened in {float(out[1]):.1f} s, "
              f"peak memory {int(out[2]) / 1024:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
