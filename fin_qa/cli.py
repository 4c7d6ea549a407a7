"""The fin-qa command line: parse options, call the library, print. No logic lives here."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import click

from .base import FinQAError, __version__
from .progress import plural
from .config import ENVIRONMENT, es_index, es_url, llm_spec, llm_threads, rules_root, search_backend, store_dir

if TYPE_CHECKING:
    from .store import Store

STORE_OPTION = click.option(
    "--store", "store_path", type=click.Path(file_okay=False), default=None,
    help="Store folder (default: $FIN_QA_STORE, else ./fin_qa_store).",
)
RULES_OPTION = click.option(
    "--rules", "rules_path", type=click.Path(file_okay=False), default=None, metavar="DIR",
    help="Rules folder holding rules/, formulas/, keyword_tables/, es_mappings/ (default: $FIN_QA_RULES, "
         "else the rules shipped with fin-qa).",
)


def _catalog(rules_path):
    """The catalog of the rules folder, loaded once per command (a broken file: one message, exit 2)."""
    from .catalog import Catalog

    return Catalog.load(rules_root(rules_path))


SEARCH_OPTION = click.option(
    "--search", "search", default=None, metavar="BACKEND",
    help="Text search backend: sqlite (embedded FTS5, default) or elasticsearch "
         "($FIN_QA_SEARCH; node $FIN_QA_ES_URL, index $FIN_QA_ES_INDEX).",
)


def _backend(store, search, catalog, check=True):
    from .search.retrieve import make_backend

    backend = make_backend(search_backend(search), store, catalog, es_url(), es_index())
    if check:
        backend.check()
    return backend


def _report_keys(store, company, year) -> list[str] | None:
    """The reports --company/--year name (None: no filter); naming none is a user error."""
    if not (company or year):
        return None
    keys = store.report_keys(company, year)
    if not keys:
        raise FinQAError(f"no report in the store matches --company {company or '*'} --year {year or '*'}")
    return keys


def _open_store(store_path: str | None, create: bool = True, readonly: bool = False) -> Store:
    """The store of --store; readonly: the commands that only read it (a read-only file or file system works)."""
    from .store import Store

    return Store(store_dir(store_path), create=create, readonly=readonly)


_ENV_HELP = "\n".join(f"  {k:<20} {v}" for k, v in ENVIRONMENT.items())


@click.group(context_settings={"help_option_names": ["-h", "--help"]},
             epilog="\b\nEnvironment (a flag wins over its variable):\n" + _ENV_HELP)
@click.version_option(__version__, prog_name="fin-qa")
def cli():
    """Question answering over company periodic reports (年度报告, 半年度报告, 季度报告 and their 摘要),
    keyword- and structure-first."""


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@STORE_OPTION
@click.option("--workers", default=None, type=click.IntRange(1, 64),
              help="Parser processes (default: one per core, at most 4; one for a single file). The store is "
                   "written in the files' order whatever their number.")
@click.option("--force", is_flag=True, help="Re-ingest files already in the store.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--code", help="The stock code of the report given (when the report does not say it).")
@click.option("--year", type=click.IntRange(1990, 2100), help="The report year of the report given.")
@click.option("--company", help="The company's short name for the report given.")
@click.option("--period", type=click.Choice(["Q1", "HY", "Q3", "FY"]),
              help="The period of the filing given (Q1 第一季度, HY 半年度, Q3 第三季度, FY 年度): it wins over what its content "
                   "says, as --year does.")
@click.option("--manifest", type=click.Path(exists=True, dir_okay=False),
              help="CSV with columns file,code,year[,company][,period][,kind]: what each file of a folder is (file: its "
                   "name or path; period Q1|HY|Q3|FY, kind report|summary).")
@SEARCH_OPTION
@RULES_OPTION
def ingest(paths, store_path, workers, force, quiet, code, year, company, period, manifest, search, rules_path):
    """Ingest periodic filings (PDF, FinGLM txt) or folders of them (recursively; hidden folders and
    virtualenvs are skipped): 年度报告, 半年度报告, 第一季度报告 and 第三季度报告, and the 摘要 of the annual and
    half-year reports. Research notes (证券研究报告: 个股研报, 行业研报) are stored as notes, a second kind of
    document: their title, broker, date, company and rating from an info sheet beside them (附件5's
    个股_研报信息.xlsx / 行业_研报信息.xlsx, in the notes' folder or the two above it), else from their pages; their
    prose under its headings, and their figures' titles; `fin-qa notes` lists them.

    A filing is (company, period, kind): the period is read from its content — the cover's title ("2025 年第三
    季度报告", "2024 年半年度报告摘要"), its 重要提示 ("本半年度报告摘要来自半年度报告全文"), the balance sheet's
    period end ("2025年9月30日"), 第二节's 报告期 — the file name the weakest evidence (alone it may tell an annual
    report, never a quarter or half year); never an annual report by default: a filing whose period cannot be told
    is not stored, the evidence read said. `fin-qa reports` lists each filing's period (2025Q3, 2024HY摘要).

    The company comes from a FinGLM file name, else the cover and 公司信息, else the file name ("XX股份2020年
    年度报告.pdf"). The year from the statements' own dates, else the cover, 报告期 and the file name (a publish
    date in it: 600080_20241030_XN72.pdf), which must then agree (else the filing is not stored: give --year).
    --code/--year/--company/--period (one file) or a --manifest (a folder) say them instead.

    Ask a period with its words: 2025年第三季度 (both 7-9月 and 1-9月, labelled), 前三季度 / 1-9月, 第三季度单季,
    上半年 / 半年报 / 中报, 一季度 / Q1, 第二季度 / 第四季度 / 下半年 (derived, said how), 三季度末, 最新一期; 同比,
    环比.

    The embedded search index is written with the store; with --search elasticsearch the ingested reports are
    also (re)indexed into Elasticsearch."""
    from .ingest.pipeline import Hint, collect_files, ingest as run_ingest, read_manifest
    from .progress import Progress

    catalog = _catalog(rules_path)
    files, _ = collect_files(paths)
    if workers is None:
        workers = min(_cores(), 4)
    hints: Callable[[Path], Hint | None] | None = None
    if code or year or company or period:
        if len(files) != 1:
            raise click.UsageError("--code/--year/--company/--period describe one report file; for a folder give "
                                   "--manifest")
        one = Hint(code, year, company, period)
        hints = lambda f: one  # noqa: E731 - one file, one hint
    elif manifest:
        try:
            table = read_manifest(Path(manifest))
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
        hints = lambda f: table.get(str(Path(f).resolve())) or table.get(Path(f).name)  # noqa: E731
    with _open_store(store_path) as store:
        bar = Progress(len(files), "files", "ingest", quiet)
        pages = [0]

        def progress(o):
            if o.report:
                pages[0] += o.report.pages
            bar.update(1, pages=pages[0])

        backend = _backend(store, search, catalog, check=False)
        backend.ensure_index()  # an unreachable node is reported before the long part, not after
        summary = run_ingest(paths, store, catalog, workers=workers, force=force, on_progress=progress, hints=hints)
        bar.close()
        keys = sorted({o.report.meta.key for o in summary.outcomes if o.status == "ingested" and o.report})
        if backend.name != "sqlite" and keys:
            from .search.indexer import sync

            res = sync(store, backend, keys)
            click.echo(f"indexed   {plural(res.chunks, 'chunk')} of {plural(res.reports, 'report')} into "
                       f"{backend.name} in {res.seconds:.1f} s")
        if backend.name != "sqlite" and any(o.note for o in summary.outcomes if o.status == "ingested"):
            from .search.indexer import sync_notes

            click.echo(f"indexed   {plural(sync_notes(store, backend), 'chunk')} of research notes into {backend.name}")
    for o in summary.outcomes:
        click.echo(f"{o.status:9} {o.path}" + (f" — {o.detail}" if o.detail else ""))
    n_in, n_skip, n_fail = summary.count("ingested"), summary.count("skipped"), summary.count("failed")
    total_pages = sum(o.report.pages if o.report else o.note.pages if o.note else 0 for o in summary.outcomes)
    click.echo(
        f"{n_in} ingested, {n_skip} skipped, {n_fail} failed; {plural(total_pages, 'page')} in {summary.seconds:.1f} s"
        + (" (interrupted: run the same command again to resume)" if summary.interrupted else "")
    )
    if summary.interrupted:
        sys.exit(130)
    if n_in == 0 and n_skip == 0:
        sys.exit(1)


@cli.command("import-tables")
@click.argument("files", nargs=-1, required=True, type=click.Path())
@STORE_OPTION
@RULES_OPTION
def import_tables(files, store_path, rules_path):
    """Import wide CSV/XLSX tables (one row per company-year) as facts."""
    import time

    from .ingest.tables_import import import_table
    catalog = _catalog(rules_path)
    failed = bad = 0
    with _open_store(store_path) as store:
        for f in files:
            t = time.perf_counter()
            try:
                res = import_table(f, store, catalog)
            except FinQAError as exc:
                failed += 1
                click.echo(f"failed    {exc}")
                continue
            for cell in res.bad[:20]:
                click.echo(f"bad cell  {cell}", err=True)
            if len(res.bad) > 20:
                click.echo(f"bad cell  … and {len(res.bad) - 20} more in {f}", err=True)
            bad += len(res.bad)
            click.echo(f"imported  {f}: {plural(res.facts, 'fact')} for {plural(res.reports, 'report')} in "
                       f"{time.perf_counter() - t:.1f} s" + (f"; {plural(len(res.bad), 'bad cell')} not imported"
                                                             if res.bad else ""))
    if failed:
        sys.exit(1)   # a file not imported (the others were)
    if bad:
        sys.exit(3)   # imported, but not all of it: a script sees it


@cli.command()
@STORE_OPTION
@click.option("--company", help="Stock code, short name or (part of) the full name.")
@click.option("--year", type=int)
@click.option("--item", help="Canonical item name, e.g. 营业收入.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object a line.")
def facts(store_path, company, year, item, as_json):
    """List facts: stock code, company, year (another filing's period: 2025Q3, 2024HY摘要), item, value, unit,
    period (the filing's column: current, previous; quarter: a third quarter's 7-9月), statement, page, source."""
    from .check import filing_label

    with _open_store(store_path, readonly=True) as store:
        n = 0
        for f in store.facts(company, year, item):
            n += 1
            if as_json:
                click.echo(json.dumps(f, ensure_ascii=False))
            else:
                page = f["page"] if f["page"] is not None else "-"
                click.echo(
                    f"{f['stock_code'] or '-'}\t{f['short_name'] or f['company'] or '-'}\t"
                    f"{filing_label({'year': f['year'], 'period': f['filing'], 'kind': f['kind']})}\t{f['item']}\t"
                    f"{f['value']}\t{f['unit'] or ''}\t{f['period']}\t{f['statement'] or ''}\tp.{page}\t{f['source']}"
                )
    if n == 0:
        if not as_json:
            click.echo("no facts match", err=True)
        sys.exit(1)   # nothing found: 1, as search


@cli.command()
@STORE_OPTION
@click.option("--company", help="Stock code, short name or (part of) the full name.")
@click.option("--year", type=int)
@click.option("--grep", "words", help="Only tables whose caption, heading path, header or cells hold these words.")
@click.option("--page", type=int, help="Only tables on this page.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object a line.")
def tables(store_path, company, year, words, page, as_json):
    """List the tables read from the reports (what table questions are answered from): heading path,
    caption, unit, pages, header and rows."""
    with _open_store(store_path, readonly=True) as store:
        n = 0
        for t in store.tables(company, year, words, page):
            n += 1
            if as_json:
                click.echo(json.dumps(t, ensure_ascii=False))
                continue
            pages = f"p.{t['page_start']}" + (f"-{t['page_end']}" if t["page_end"] != t["page_start"] else "")
            where = " > ".join(t["path"][-2:] + ([t["caption"]] if t["caption"] else []))
            unit = f"  单位：{t['unit']}" if t["unit"] else ""
            click.echo(f"{t['stock_code'] or '-'} {t['short_name'] or '-'} {t['year']}  #{t['id']}  {pages}  {where}{unit}")
            if any(t["header"]):
                click.echo("    " + " | ".join(t["header"]))
            for r in t["rows"]:
                click.echo("    " + " | ".join(r))
    if n == 0:
        click.echo("no tables match", err=True)
        sys.exit(1)


@cli.command()
@STORE_OPTION
@click.option("--json", "as_json", is_flag=True)
def reports(store_path, as_json):
    """List the reports in the store: each filing's year (an annual report) or period (2025Q3, 2024HY摘要);
    --json gives its "period" (2025Q3, 2024FY) and "kind" (report | summary)."""
    from .check import filing_label

    with _open_store(store_path, readonly=True) as store:
        rows = store.reports()
    for r in rows:
        if as_json:
            click.echo(json.dumps(r, ensure_ascii=False))
        else:
            click.echo(
                f"{r['stock_code'] or '-'}\t{r['short_name'] or '-'}\t{filing_label(r)}\t{r['full_name'] or '-'}\t"
                f"{r['facts']} facts\t{r['chunks']} chunks\t{r['files'] or 'imported'}"
            )
    if not as_json:
        click.echo(plural(len(rows), "report"), err=True)


@cli.command("notes")
@STORE_OPTION
@click.option("--json", "as_json", is_flag=True, help="One JSON line per note (its info sheet's row under info).")
def notes_cmd(store_path, as_json):
    """List the research notes in the store: kind (stock | industry), date, broker, company or industry, rating,
    title, file."""
    from dataclasses import asdict

    with _open_store(store_path, readonly=True) as store:
        rows = store.notes.all()
    for n in rows:
        m = n.meta
        if as_json:
            click.echo(json.dumps({"key": n.key, "path": n.path, "pages": n.pages, **asdict(m)}, ensure_ascii=False))
        else:
            click.echo(f"{m.kind}\t{m.publish_date or '-'}\t{m.broker or '-'}\t{m.stock_name or m.industry or '-'}\t"
                       f"{m.rating or '-'}\t{m.title}\t{n.path}")
    if not as_json:
        click.echo(plural(len(rows), "note"), err=True)


@cli.command("check")
@STORE_OPTION
@click.option("--company", help="Only reports whose stock code, short or full name contains this.")
@click.option("--year", type=int, help="Only reports of this year.")
@click.option("--json", "as_json", is_flag=True, help="One JSON line per report.")
@click.option("--all", "show_all", is_flag=True, help="Print the checks that hold too.")
@RULES_OPTION
def check(store_path, company, year, as_json, show_all, rules_path):
    """Check the accounting identities of the stored reports (rules/checks.yaml): 资产 = 负债 + 所有者权益,
    the subtotals, 净利润 = 利润总额 − 所得税费用, the cash flows — in both columns; the summary table
    主要会计数据 against the statements; the previous-period column against last year's report when
    stored. Exit 1 when one fails."""
    from .check import check_reports

    catalog = _catalog(rules_path)
    with _open_store(store_path, readonly=True) as store:
        rows = check_reports(store, catalog.checks, company, year)
    for rc in rows:
        if as_json:
            click.echo(json.dumps(rc.record(show_all), ensure_ascii=False))
            continue
        results = rc.results
        click.echo(f"{rc.name}: {len(results) - len(rc.failed)}/{len(results)} checks hold"
                   + ("" if results else " (no statements to check)"))
        for x in results if show_all else rc.failed:
            click.echo("  " + x.describe())
    failed_reports = sum(bool(rc.failed) for rc in rows)
    if not as_json:
        click.echo(f"{len(rows)} report{'s' if len(rows) != 1 else ''}, {failed_reports} with a failed check", err=True)
    if not rows:
        click.echo("no report matches", err=True)
        sys.exit(1)
    sys.exit(1 if failed_reports else 0)


# ------------------------------------------------------------------------------------ answering

STYLE_OPTION = click.option("--style", type=click.Choice(["human", "finglm"]), default="human", show_default=True,
                            help="Number printing: human (149,399,000.00元) or finglm (149399000.0元).")
BATCH_STYLE_OPTION = click.option(
    "--style", type=click.Choice(["human", "finglm", "teddy"]), default="human", show_default=True,
    help="Number printing: human (149,399,000.00元) or finglm (149399000.0元); teddy: QUESTIONS is a file of "
         "conversations (the Teddy Cup 2026 problem B's 附件4/附件6, .xlsx or .jsonl), each turn answered in the "
         "context of the turns before it, OUTPUT in its result layout (.xlsx or .jsonl).")
SCOPE_OPTION = click.option("--scope", type=click.Path(dir_okay=False), default=None,
                            help="A report list (FinGLM file names or 'code year' lines): answer and rank within it.")
LLM_OPTION = click.option("--llm", default=None, metavar="none|default|PATH",
                          help="Chat model: none (deterministic paths only; default, or $FIN_QA_LLM), default "
                               "(Gemma 3 270M from PyPI, converted once into the cache) or a model folder / .gguf file.")
DEVICE_OPTION = click.option("--device", default="auto", show_default=True, type=click.Choice(["auto", "cpu", "cuda"]),
                             help="Where the chat model runs (auto: CUDA when present).")


def _router(store, catalog, scope, style, llm, search=None, device="auto", batch_size=None):
    from .answer.facts import read_scope
    from .answer.router import make_router

    # the node is reached when a question searches text, not before: a number question answers without
    # it, and an unreachable node or a missing index is said by the first search (one message, exit 2)
    backend = _backend(store, search, catalog, check=False)
    model = _chat_model(catalog, llm, device, batch_size)
    return make_router(store, catalog, backend, style, model, read_scope(scope, catalog.report_names) if scope else None)


def _chat_model(catalog, llm, device="auto", batch_size=None):
    """The chat model --llm names (None for none), loaded once."""
    from .llm.load import load_chat_model

    spec = llm_spec(llm)
    threads = llm_threads() if spec.lower() != "none" else None
    return load_chat_model(spec, catalog.llm, device=device, batch_size=batch_size, threads=threads)


@cli.command()
@click.argument("question")
@STORE_OPTION
@SCOPE_OPTION
@STYLE_OPTION
@LLM_OPTION
@DEVICE_OPTION
@SEARCH_OPTION
@RULES_OPTION
@click.option("--json", "as_json", is_flag=True, help="The answer line as JSON (type, method, evidence).")
@click.option("--context", "context_path", type=click.Path(dir_okay=False), default=None,
              help="A previous answer (`ask --json` output, saved): a follow-up question takes what it leaves "
                   "out (company, year, item) from it, and says so.")
def ask(question, store_path, scope, style, llm, device, search, rules_path, as_json, context_path):
    """Answer one question."""
    context = _read_context(context_path) if context_path else None
    catalog = _catalog(rules_path)
    with _open_store(store_path, readonly=True) as store:
        router = _router(store, catalog, scope, style, llm, search, device)
        ans = router.follow(question, context)   # (its record carries the context a next --context reads)
    if as_json:
        click.echo(json.dumps(ans.record(), ensure_ascii=False))
    else:
        click.echo(ans.answer)
        for ev in ans.evidence:
            click.echo(f"  依据: {ev.describe()}")
    if not ans.answered:
        sys.exit(1)


def _read_context(path: str):
    """The context of `ask --context FILE`: a previous answer as `ask --json` wrote it (one message when
    the file is not one)."""
    from .answer.followup import Context

    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except OSError as e:
        raise FinQAError(f"{path}: cannot read the context ({e.strerror or e})") from None
    except UnicodeDecodeError:
        raise FinQAError(f"{path}: not a previous answer (not UTF-8 text)") from None
    try:
        lines = [line for line in text.splitlines() if line.strip()]
        return Context.from_dict(json.loads(lines[-1]) if lines else {})
    except (json.JSONDecodeError, ValueError, TypeError) as e:
        raise FinQAError(f"{path}: not a previous answer (save one with `fin-qa ask --json`): {e}") from None


@cli.command()
@click.option("--company", help="Stock code, short name or (part of) the full name (the report schema).")
@click.option("--year", type=int, help="The report's year (the report schema).")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="The workbook to write (.xlsx); with --schema teddy, OUT: OUT.sqlite and OUT.xlsx.")
@click.option("--schema", type=click.Choice(["report", "teddy"]), default="report", show_default=True,
              help="report: one report's statements, disclosures, checks and tables; teddy: every filing of the "
                   "store as the four tables of the Teddy Cup 2026 problem B (keyword_tables/teddy.yaml).")
@click.option("--tables", "grep", default=None, metavar="GREP",
              help="Only the tables holding these words (default: every table read).")
@click.option("--force", is_flag=True, help="Replace OUTPUT when it exists.")
@STORE_OPTION
@RULES_OPTION
def export(company, year, output, schema, grep, force, store_path, rules_path):
    """Write a report to Excel: its statements (consolidated, then the parent company's), 主要会计数据,
    the key disclosures, the checks and the tables read, numbers as numbers with the unit in the header.
    With --schema teddy: every filing of the store (年报, 半年报, 一季报, 三季报) as the problem's four tables
    (业绩指标, 资产负债, 利润, 现金流量; 万元 where the schema says), in SQLite and Excel, with where each value
    was read (teddy_sources)."""
    import time

    if schema == "teddy":
        if company or year is not None or grep:
            raise click.UsageError("--schema teddy exports every filing of the store: --company, --year and --tables "
                                   "are the report schema's")
        return _export_teddy(Path(output), force, store_path, rules_path)
    if not company or year is None:
        raise click.UsageError("--company and --year name the report to export (or give --schema teddy)")
    from .api import FinQA
    from .export import writable

    writable(Path(output), force)   # (said before the store is opened)
    t = time.perf_counter()
    with FinQA(store_dir(store_path), rules_path, "none") as qa:
        path = qa.export(company, year, output, grep, force)
    click.echo(f"wrote {path} ({path.stat().st_size / 1024:.0f} KiB) in {time.perf_counter() - t:.1f} s", err=True)


def _export_teddy(output: Path, force: bool, store_path, rules_path) -> None:
    import time

    from .teddy import TeddyExport, writable

    writable(output, force)   # (said before the store is opened)
    t = time.perf_counter()
    catalog = _catalog(rules_path)
    with _open_store(store_path, create=False, readonly=True) as store:
        db, xlsx, counts = TeddyExport(store, catalog).write(output, force)
    rows = ", ".join(f"{name} {n}" for name, n in counts.items())
    click.echo(f"wrote {db} and {xlsx} ({rows} rows) in {time.perf_counter() - t:.1f} s", err=True)


@cli.command()
@click.argument("questions", type=click.Path(dir_okay=False))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="Answer file: JSON lines, or an Excel sheet when it ends in .xlsx.")
@click.option("--force", is_flag=True, help="Replace an .xlsx OUTPUT that exists.")
@STORE_OPTION
@SCOPE_OPTION
@BATCH_STYLE_OPTION
@LLM_OPTION
@DEVICE_OPTION
@click.option("--batch-size", type=click.IntRange(1, 256), default=None,
              help="Chat-model requests generated together (default: 8 on a GPU, 1 on a CPU).")
@SEARCH_OPTION
@click.option("--plain", is_flag=True, help="Only id, question, answer on each line (and line, for a bad input line; no type/method/evidence).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@RULES_OPTION
@click.option("--layout", type=click.Choice(["result_2", "result_3"]), default=None,
              help="--style teddy: the result layout — result_2 (附件7 表3: 编号, 问题, SQL查询语句, 图形格式, 回答) or "
                   "result_3 (表6: 编号, 问题, SQL查询语法, 回答). Default: OUTPUT's name when it is one of them, "
                   "else result_2.")
@click.option("--workers", default=None, type=click.IntRange(1, 64),
              help="Processes answering at once, each on its own read-only store connection (with --llm none "
                   "only: a question is Python work, one core each). Default: one per CPU core, at most 4, with "
                   "--llm none; 1 with a chat model. A process is started for each 100 questions to answer at "
                   "least; answers are written in the file's order either way.")
def batch(questions, output, force, store_path, scope, style, llm, device, batch_size, search, plain, quiet,
          rules_path, workers, layout):
    """Answer a question file (FinGLM JSON lines) into OUTPUT; a rerun resumes where it stopped (JSON
    lines). OUTPUT.xlsx: one sheet of the answers with their values, units, years and pages, answered in
    this process and written at the end (no --workers, no resuming)."""
    from . import gc_tuning

    if layout is not None and style != "teddy":
        raise click.UsageError("--layout is the layout of --style teddy's results")
    if style == "teddy":
        if workers is not None or plain or batch_size is not None:
            raise click.UsageError("--style teddy answers conversations in this process, written at the end: "
                                   "--workers, --plain and --batch-size are not its")
        return _batch_teddy(Path(questions), Path(output), force, store_path, scope, llm, device, search, rules_path,
                            quiet, layout)
    if Path(output).suffix.lower() == ".xlsx":
        return _batch_xlsx(Path(questions), Path(output), force, store_path, scope, style, llm, device, search,
                           rules_path, quiet)
    from .answer.batch import prepare, run_batch, start_pool
    from .progress import Progress

    catalog = _catalog(rules_path)
    no_model = llm_spec(llm).lower() == "none"
    if workers is None:
        workers = min(_cores(), 4) if no_model and hasattr(os, "fork") else 1
    if workers > 1 and not no_model:
        raise FinQAError("--workers needs --llm none: each process would load its own chat model (one process "
                         "batches the model's requests instead: --batch-size)")
    if workers > 1 and not hasattr(os, "fork"):
        raise FinQAError("--workers needs a system that can fork (Linux, macOS)")
    qpath, opath = Path(questions), Path(output)
    options = {"store": str(store_dir(store_path).resolve()), "scope": str(Path(scope).resolve()) if scope else None,
               "style": style, "llm": llm_spec(llm), "search": search_backend(search),
               "rules": str(rules_root(rules_path).resolve())}
    # the output opened, locked and checked before the store and the model load, not after
    prepared = prepare(qpath, opath, options, extra_fields=not plain)
    failed = True
    pool = None
    try:
        def make_router():
            # a forked answering process's own router, on its own store connection (open until it ends)
            own = _router(_open_store(store_path, readonly=True), catalog, scope, style, llm, search, device,
                          batch_size)
            gc_tuning.for_answering()
            return own

        # the answering processes forked before this one opens the store (no connection across a fork)
        pool = start_pool(prepared, workers, make_router) if workers > 1 else None
        with _open_store(store_path, readonly=True) as store:
            router = _router(store, catalog, scope, style, llm, search, device, batch_size)
            gc_tuning.for_answering()
            size = getattr(router.model, "batch_size", 1) if router.model is not None else 1
            bar = Progress(len(prepared.items), "q", "batch", quiet)
            try:
                res = run_batch(router, qpath, opath, on_progress=lambda _: bar.update(1), extra_fields=not plain,
                                batch_size=size, prepared=prepared, pool=pool)
            finally:
                bar.close()
        failed = False
    finally:
        if pool is not None:
            pool.close()
        prepared.close(failed=failed)
    rate = res.answered / res.seconds if res.seconds else 0.0
    click.echo(f"{res.answered} answered ({res.not_found} without a value), {plural(res.bad, 'bad input line')}, "
               f"{res.skipped} already in {output}; {res.seconds:.1f} s ({rate:.0f} questions/s"
               + (f", {res.processes} processes)" if res.processes > 1 else ")"))


def _batch_xlsx(qpath: Path, opath: Path, force: bool, store_path, scope, style, llm, device, search, rules_path,
                quiet) -> None:
    """batch -o ANSWERS.xlsx: the questions answered in this process, written as one sheet at the end (a
    bad input line, or a question whose answering broke, is an answer that says so, and the run goes on)."""
    import time

    from .answer.batch import read_questions
    from .api import answer_rows, batch_frame
    from .export import write_answers, writable
    from .progress import Progress

    writable(opath, force)
    items = read_questions(qpath)
    catalog = _catalog(rules_path)
    t = time.perf_counter()
    rows = []
    with _open_store(store_path, readonly=True) as store:
        router = _router(store, catalog, scope, style, llm, search, device)
        bar = Progress(len(items), "q", "batch", quiet)
        try:
            for row in answer_rows(router, items):
                rows.append(row)
                bar.update(1)
        finally:
            bar.close()
    frame = batch_frame(rows)
    write_answers(frame, opath)
    took = time.perf_counter() - t
    bad = int((frame["method"] == "bad_input").sum())
    unfound = int((~frame["found"].astype(bool) & (frame["partial"] == "")).sum()) - bad
    click.echo(f"{len(frame) - bad} answered ({unfound} without a value), {plural(bad, 'bad input line')} into "
               f"{opath}; {took:.1f} s", err=True)


def _batch_teddy(qpath: Path, opath: Path, force: bool, store_path, scope, llm, device, search, rules_path,
                 quiet, layout: str | None = None) -> None:
    """batch --style teddy: a file of conversations, each turn answered in the context of the turns before it,
    written in the problem's result layout at the end (a row that cannot be read says so; the run goes on)."""
    import time

    from .conversations import RESULT, Conversations, layout_of, read_conversations, write_results
    from .progress import Progress

    if opath.suffix.lower() not in (".xlsx", ".jsonl"):
        raise FinQAError(f"{opath}: the results of conversations are written to .xlsx or .jsonl")
    if opath.exists() and not force:
        raise FinQAError(f"{opath} exists: give --force to replace it")
    if not opath.parent.is_dir():
        raise FinQAError(f"cannot write {opath}: the folder {opath.parent} does not exist")
    convs = read_conversations(qpath)
    catalog = _catalog(rules_path)
    t = time.perf_counter()
    rows = []
    with _open_store(store_path, readonly=True) as store:
        router = _router(store, catalog, scope, "human", llm, search, device)

        def file_of(key: str) -> str | None:
            rid = store.report_id(key)
            files = store.report_files(rid) if rid is not None else []
            return files[0]["path"] if files else None

        # the charts drawn under result/ beside the results (编号_n.jpg)
        answering = Conversations(router.follow, catalog.teddy, file_of, opath.parent / RESULT)
        bar = Progress(len(convs), "conv", "batch", quiet)
        try:
            for conv in convs:
                rows.append(answering.answer(conv))
                bar.update(1)
        finally:
            bar.close()
    write_results(rows, opath, layout_of(opath, layout))
    bad = sum(1 for c in convs if c.problem)
    click.echo(f"{len(convs) - bad} conversations answered ({sum(len(c.turns) for c in convs)} turns), "
               f"{plural(bad, 'row')} not read, into {opath}; {time.perf_counter() - t:.1f} s", err=True)


@cli.command()
@STORE_OPTION
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0: every interface).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port (0: any free one).")
@LLM_OPTION
@DEVICE_OPTION
@SEARCH_OPTION
@RULES_OPTION
@click.option("--workers", default=None, type=click.IntRange(1, 64),
              help="Questions answered at once by each server process, each by a worker with its own read-only "
                   "store connection (on a GPU, at least --batch-size: the model batches what the workers ask "
                   "together). Default: 4 with a chat model; 1 without (a question is Python work: more threads "
                   "of one process only wait for each other).")
@click.option("--queue", "queue_size", default=64, show_default=True, type=click.IntRange(1, 100000),
              help="Questions that may wait for a worker, and chat-model requests that may wait for the model; "
                   "beyond either a request gets 503.")
@click.option("--batch-size", type=click.IntRange(1, 256), default=None,
              help="Chat-model requests generated together (default: 8 on a GPU, 1 on a CPU).")
@click.option("--processes", default=None, type=click.IntRange(1, 64),
              help="Server processes sharing the address, each with its --workers (with --llm none only: a "
                   "question is Python work, so threads share one core; processes use them all). Default: one "
                   "per CPU core, at most 4, with --llm none; 1 with a chat model.")
def serve(store_path, host, port, llm, device, search, rules_path, workers, queue_size, batch_size, processes):
    """Serve the API (/api/…, schema at /docs) and the page (/) over HTTP: the store, the rules and the
    chat model loaded once."""
    try:
        import uvicorn

        from .serve.app import create_app
        from .serve.service import Recent, Service
    except ImportError as exc:
        raise FinQAError(f"fin-qa serve needs {exc.name}: pip install fastapi uvicorn") from None

    catalog = _catalog(rules_path)
    # what can be wrong is said before the model loads (minutes, for a large one): the store, the address
    _open_store(store_path, readonly=True).close()
    no_model = llm_spec(llm).lower() == "none"
    if processes is None:
        processes = min(_cores(), 4) if no_model and hasattr(os, "fork") else 1
    if workers is None:
        # one process: 4, so that a long batch or a search node's answer holds up no other question
        workers = 1 if processes > 1 else 4
    if processes > 1 and not no_model:
        raise FinQAError("--processes needs --llm none: each process would load its own chat model (one process "
                         "batches the model's requests of all its workers instead)")
    if processes > 1 and not hasattr(os, "fork"):
        raise FinQAError("--processes needs a system that can fork (Linux, macOS); use --workers here")
    sock = _listen(host, port)
    if processes > 1:
        with _open_store(store_path, readonly=True) as st:
            banner = f"{plural(st.counts()['reports'], 'report')} in {store_dir(store_path)}; chat model none; " \
                     f"search {search_backend(search)}"
        recent = Recent(shared=True)   # (shared by the processes: made before they fork)
        _serve_processes(sock, host, processes, banner, lambda: Service(
            store_dir(store_path), catalog, search_backend(search), es_url(), es_index(), None, workers=workers,
            queue_size=queue_size, recent=recent), create_app, uvicorn)
        return
    service = None
    try:
        model = _chat_model(catalog, llm, device, batch_size)
        service = Service(store_dir(store_path), catalog, search_backend(search), es_url(), es_index(), model,
                          workers=workers, queue_size=queue_size,
                          batch_size=(batch_size or getattr(model, "batch_size", 1)))
        health = service.health()
        server = uvicorn.Server(uvicorn.Config(create_app(service), log_level="warning", access_log=False))
        shown = f"[{host}]" if ":" in host else host
        click.echo(f"fin-qa serving http://{shown}:{sock.getsockname()[1]}/ ({plural(health['reports'], 'report')} "
                   f"in {service.store_dir}; chat model {model.name if model else 'none'}; search {service.search}); "
                   "Ctrl-C stops", err=True)
        server.run(sockets=[sock])
    finally:
        sock.close()
        if service is not None:
            service.close()


def _serve_processes(sock, host: str, processes: int, banner: str, make_service, create_app, uvicorn) -> None:
    """`processes` forked servers accepting on one listening socket (the kernel hands each connection to
    one of them); this process waits, and stops them all on Ctrl-C or SIGTERM. The catalog is loaded once,
    before the fork; each process opens its own store connections and holds its own caches."""
    import signal

    from .procs import die_with_parent

    stopping = (signal.SIGINT, signal.SIGTERM)
    children: list[int] = []

    def stop(signum=None, frame=None) -> None:
        for pid in children:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    # (blocked while forking: a Ctrl-C now stops the children made so far, not the parent alone)
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, stopping)
    try:
        for _ in range(processes):
            pid = os.fork()
            if pid == 0:   # a server process: stopped with its parent, stopped by uvicorn on SIGINT/SIGTERM
                code = 0
                try:
                    for sig in stopping:
                        signal.signal(sig, signal.SIG_DFL)
                    die_with_parent()   # (SIGTERM: no orphan keeps the address)
                    signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
                    service = make_service()
                    uvicorn.Server(uvicorn.Config(create_app(service), log_level="warning", access_log=False)).run(
                        sockets=[sock])
                except KeyboardInterrupt:
                    pass
                except BaseException:   # noqa: BLE001 - said on stderr; the parent sees the exit status
                    import traceback

                    traceback.print_exc()
                    code = 1
                os._exit(code)
            children.append(pid)
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    port = sock.getsockname()[1]
    sock.close()   # (the server processes hold it)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"fin-qa serving http://{shown}:{port}/ ({processes} processes, {banner}); Ctrl-C stops", err=True)
    failed = 0
    left = set(children)
    while left:
        try:
            pid, status = os.wait()
        except InterruptedError:
            continue
        except ChildProcessError:
            break
        left.discard(pid)
        if os.waitstatus_to_exitcode(status) not in (0, -signal.SIGTERM, -signal.SIGINT):
            failed += 1
            if left:   # one failed: the others stop too, and the failure is said (not a half-served address)
                click.echo(f"fin-qa serve: a server process ended (status {os.waitstatus_to_exitcode(status)}); "
                           "stopping the others", err=True)
                stop()
    if failed:
        raise FinQAError(f"{failed} of the {processes} server processes failed (their errors are above)")


def _cores() -> int:
    """The CPU cores this process may run on (its affinity, which a container's limit may narrow)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:
        return os.cpu_count() or 1


def _listen(host: str, port: int):
    """A socket bound to host:port (0: a free port), or one message saying why it cannot be."""
    import socket

    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)   # connections wait in the backlog from now on, until uvicorn takes them
    except OSError as exc:
        raise FinQAError(f"could not listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


@cli.command()
@click.argument("query")
@STORE_OPTION
@SEARCH_OPTION
@click.option("--company", help="Stock code, short name or (part of) the full name.")
@click.option("--year", type=int)
@click.option("-n", "size", default=5, show_default=True, type=click.IntRange(1, 100), help="Sections to list.")
@click.option("--chunks", is_flag=True, help="List the backend's raw chunk hits instead of sections.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object a line.")
@RULES_OPTION
def search(query, store_path, search, company, year, size, chunks, as_json, rules_path):
    """Search the reports' text: sections (heading path, pages, score) for QUERY."""
    from .search.retrieve import Retriever

    if not query.strip():
        raise click.UsageError("QUERY is empty: give the words to search for")
    catalog = _catalog(rules_path)
    with _open_store(store_path, readonly=True) as store:
        keys = _report_keys(store, company, year)
        retriever = Retriever(store, _backend(store, search, catalog), catalog.topics, catalog.search)
        rows = retriever.search_rows(query, keys, size, chunks)
    for n, r in enumerate(rows, 1):
        if as_json:
            click.echo(json.dumps(r, ensure_ascii=False))
            continue
        pages = "-".join(str(p) for p in dict.fromkeys(r["pages"]) if p) or "?"
        click.echo(f"{n:2d}. {r['score']:7.3f}  {r['report']}  p.{pages}  {r['heading']}")
        snippet = r["text"].replace("\n", " ")
        click.echo(f"      {snippet[:120]}{'…' if len(snippet) > 120 else ''}")
    if not rows:
        click.echo("no match", err=True)
        sys.exit(1)


@cli.command()
@STORE_OPTION
@SEARCH_OPTION
@click.option("--company", help="Only this company's reports.")
@click.option("--year", type=int, help="Only this year's reports.")
@click.option("--recreate", is_flag=True, help="Drop and rebuild the whole index (with its mapping).")
@RULES_OPTION
def index(store_path, search, company, year, recreate, rules_path):
    """(Re)build the search index of the store's chunks (Elasticsearch, or the embedded FTS5 table), and index
    the table and text words of reports ingested before fin-qa indexed them."""
    from .search.indexer import sync, sync_notes

    catalog = _catalog(rules_path)
    with _open_store(store_path, create=False) as store:
        keys = _report_keys(store, company, year)
        if recreate and keys is not None:
            raise FinQAError("--recreate rebuilds the whole index: leave out --company/--year")
        backend = _backend(store, search, catalog, check=False)
        res = sync(store, backend, keys, recreate=recreate)
        noted = sync_notes(store, backend) if keys is None and store.notes.count() else 0
        older = store.index_words(keys)
    click.echo(f"indexed {plural(res.chunks, 'chunk')} of {plural(res.reports, 'report')} into {backend.name} in {res.seconds:.1f} s "
               f"({res.rate:.0f} chunks/s)")
    if noted:
        click.echo(f"indexed {plural(noted, 'chunk')} of research notes into {backend.name}")
    if older:
        click.echo(f"indexed the table and text words of {plural(older, 'report')} ingested before they were indexed")


@cli.command("eval")
@click.argument("answers", type=click.Path(dir_okay=False))
@click.argument("gold", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True)
def eval_cmd(answers, gold, as_json):
    """Score ANSWERS against a labelled GOLD file with the FinGLM rules (per type and overall)."""
    from .evaluate import evaluate, format_report, read_jsonl

    rep = evaluate(read_jsonl(answers, "answers"), read_jsonl(gold, "gold answers", gold=True))
    if as_json:
        click.echo(json.dumps({"types": rep.by_type(), "groups": rep.groups(), "final": rep.final(),
                               "missing": rep.missing}, ensure_ascii=False))
    else:
        click.echo(format_report(rep))


@cli.group()
def rules():
    """The rule files maintainers edit (rules/, formulas/, keyword_tables/, es_mappings/)."""


@rules.command("check")
@RULES_OPTION
def rules_check(rules_path):
    """Validate every rule file of the rules folder; print file:line: problem for each problem."""
    from .catalog import Catalog

    problems, checked = Catalog.check(rules_root(rules_path))
    for c in checked:
        click.echo(f"ok        {c}")
    for p in problems:
        click.echo(p)
    if problems:
        click.echo(f"{len(problems)} problem(s)", err=True)
        sys.exit(1)


def main(argv=None):
    try:
        cli.main(args=argv, prog_name="fin-qa", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except FinQAError as exc:
        click.echo(f"fin-qa: {exc}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)


if __name__ == "__main__":  # pragma: no cover
    main()
