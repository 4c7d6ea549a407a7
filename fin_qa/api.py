"""fin-qa's Python API: `fin_qa.open()` and the handle it returns (docs/api.md).

Every method reads the same store and answers with the same rules as the CLI and `fin-qa serve`; tables of
values come back as pandas DataFrames. A user's mistake (a store that is not there, a company or year the
store does not hold, a statement name it does not know) is one FinQAError with a message to show.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Literal

from .base import FinQAError
from .check import DOCUMENTS, STATEMENTS, SUMMARY
from .store import PARENT_STATEMENT_PREFIX as PARENT

if TYPE_CHECKING:
    import pandas as pd

    from .answer.model import Answer
    from .answer.router import Router
    from .catalog import Catalog
    from .store import Store

# the key disclosures read beside the statements (fin-qa facts' statement column)
DISCLOSURES = ("公司信息", "员工情况", "专业构成", "教育程度", "研发投入", "重要事项", "监管指标", "母公司监管指标",
               "补充财务数据")
_PERIODS = {"current": 0, "previous": 1, "previous2": 2}

Scope = Literal["consolidated", "parent"]


@dataclass(frozen=True)
class Table:
    """A table read from a report (`fin-qa tables`): its heading path, caption, unit, pages, the header
    (its header rows merged into one) and the rows as printed."""
    id: int
    company: str | None
    stock_code: str | None
    year: int
    path: tuple[str, ...]
    caption: str | None
    unit: str | None
    page_start: int | None
    page_end: int | None
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    @property
    def title(self) -> str:
        """The caption, else the last heading of its path."""
        return self.caption or (self.path[-1] if self.path else f"表格{self.id}")

    def to_frame(self, numbers: bool = True) -> pd.DataFrame:
        """The table as a DataFrame: one column per header cell (a blank or repeated header made unique:
        列2, 本期金额_2), numbers as numbers (in the table's unit, `frame.attrs['unit']`) unless
        numbers=False, the pages in attrs."""
        import pandas as pd

        from .numbers import parse_number

        width = max([len(self.header)] + [len(r) for r in self.rows]) if (self.header or self.rows) else 0
        names: list[str] = []
        for i in range(width):
            name = (self.header[i] if i < len(self.header) else "").strip() or f"列{i + 1}"
            base, k = name, 2
            while name in names:
                name, k = f"{base}_{k}", k + 1
            names.append(name)
        body = []
        for r in self.rows:
            cells: list[Any] = list(r) + [""] * (width - len(r))
            if numbers:
                for i, c in enumerate(cells):
                    if i and c:
                        n = parse_number(c)
                        if n is not None:
                            cells[i] = float(n)
            body.append(cells)
        frame = pd.DataFrame(body, columns=names)
        frame.attrs.update(unit=self.unit, pages=(self.page_start, self.page_end), title=self.title, id=self.id)
        return frame


BATCH_COLUMNS = ["id", "question", "answer", "value", "unit", "year", "page", "method", "found", "partial"]


def answer_rows(router: Router, items: Iterable[tuple[int, dict | None, str | None]]) -> Iterator[dict[str, Any]]:
    """A batch frame's rows of (line, record, problem) items (answer/batch.read_questions), in order: a line
    that is no question, or a question whose answering broke, is a row saying so, and the rest go on."""
    from .answer.batch import answer_record, bad_line_record

    for n, rec, problem in items:
        out, ans = (bad_line_record(router, n, rec, problem), None) if problem is not None or rec is None \
            else answer_record(router, rec["id"], rec["question"])
        yield answer_row(out["id"], ans) if ans is not None else \
            {k: out[k] for k in ("id", "question", "answer", "method")} | {"found": False, "partial": ""}


def batch_frame(rows: list[dict[str, Any]]) -> "pd.DataFrame":
    """The batch frame of answer rows: BATCH_COLUMNS, then a column for each year of each item a series
    answer gives ("营业收入 2017年"), in the order met (a row without that series leaves it empty)."""
    import pandas as pd

    extra = list(dict.fromkeys(k for r in rows for k in r if k not in BATCH_COLUMNS))
    items = list(dict.fromkeys(k.rsplit(" ", 1)[0] for k in extra))
    extra.sort(key=lambda k: (items.index(k.rsplit(" ", 1)[0]), k.rsplit(" ", 1)[1]))   # each item's years in order
    return pd.DataFrame(rows, columns=BATCH_COLUMNS + extra)


def answer_row(qid: Any, ans: Answer) -> dict[str, Any]:
    """A batch frame's row of an answer: its one value and unit where it gives one (Answer.value), the
    year asked where it asks one, and the first page it cites; a series' values as columns of their own,
    one per item and year (the value in the unit the item is stored in: 元 for an amount)."""
    value, unit = ans.one_value()
    pages = [p for e in ans.evidence for p in [getattr(e, "page", None)] if p]
    page = pages[0] if pages else None
    years = (ans.frame or {}).get("years") or []
    year = years[0] if len(years) == 1 else None
    return {"id": qid, "question": ans.question, "answer": ans.answer, "value": value, "unit": unit, "year": year,
            "page": page, "method": ans.method, "found": ans.found, "partial": "；".join(ans.partial),
            **{f"{s['label']} {p['year']}年": p["value"] for s in ans.series or () for p in s["points"]}}


class FinQA:
    """A store opened for reading, with the rules that answer its questions. Made by fin_qa.open();
    close it (or use `with`) when done."""

    def __init__(self, store: str | Path | None = None, rules: str | Path | None = None, llm: str = "none",
                 search: str | None = None, style: str = "human", device: str = "auto"):
        from .catalog import Catalog
        from .config import rules_root, store_dir
        from .store import Store

        if style not in ("human", "finglm"):
            raise FinQAError(f"style is human or finglm, not {style!r}")
        if device not in ("auto", "cpu", "cuda"):
            raise FinQAError(f"device is auto, cpu or cuda, not {device!r}")
        where = store_dir(str(store) if store is not None else None)
        if not where.is_dir():
            raise FinQAError(f"no store at {where}: ingest reports into it first (fin-qa ingest PATH --store {where})")
        self.catalog: Catalog = Catalog.load(rules_root(str(rules) if rules is not None else None))
        self._store: Store | None = Store(where, create=False, readonly=True)
        self._llm, self._search, self._style, self._device = llm, search, style, device
        self._router: Router | None = None

    # ------------------------------------------------------------------------------ lifetime

    @property
    def store(self) -> Store:
        """The store, opened read-only (a FinQAError once closed)."""
        if self._store is None:
            raise FinQAError("this fin_qa handle is closed: open the store again (fin_qa.open())")
        return self._store

    def close(self) -> None:
        """Close the store (again: nothing); every method after it, and of a ReportData it gave, is a
        FinQAError."""
        if self._store is not None:
            self._store.close()
            self._store, self._router = None, None

    def __enter__(self) -> "FinQA":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        if self._store is None:
            return "<fin_qa.FinQA closed>"
        return f"<fin_qa.FinQA store={self._store.dir} reports={len(self._store.report_list())}>"

    # ------------------------------------------------------------------------------ answering

    @property
    def router(self) -> Router:
        """The answering engine (built at the first question: rules, company index, the chat model)."""
        store = self.store   # (closed: a FinQAError)
        if self._router is None:
            from .answer.router import make_router
            from .config import es_index, es_url, llm_spec, llm_threads, search_backend
            from .llm.load import load_chat_model
            from .search.retrieve import make_backend

            backend = make_backend(search_backend(self._search), store, self.catalog, es_url(), es_index())
            spec = llm_spec(self._llm)
            model = load_chat_model(spec, self.catalog.llm, device=self._device,
                                    threads=llm_threads() if spec.lower() != "none" else None)
            self._router = make_router(store, self.catalog, backend, self._style, model)
        return self._router

    def ask(self, question: str, context: Answer | dict[str, Any] | None = None) -> Answer:
        """The answer of one question (answer.answer its text, .evidence where each value was read, .asks
        each part of a compound question, .value and .unit its one value where it gives one). Pass the
        previous answer as context to ask a follow-up ("那2020年呢？"): what the question leaves out is
        taken from it and said in the answer (.from_context); .context is what the next follow-up takes."""
        from .answer.followup import Context

        ctx: Context | None = None
        if context is not None:
            try:   # (an Answer's record holds its context, else its question and frame)
                ctx = Context.from_dict(context.record() if hasattr(context, "record") else context)
            except (ValueError, TypeError) as e:
                raise FinQAError(f"not a context of a previous answer: {e}") from None
        return self.router.follow(question, ctx)

    def batch(self, questions: Iterable[str] | Iterable[dict[str, Any]]) -> pd.DataFrame:
        """Answer many questions: a DataFrame with id, question, answer, value, unit, year, page, method,
        found and partial, one row per question in order (a question may be a string or {"id", "question"}),
        then a column per year of each series answered ("营业收入 2017年")."""
        from .answer.batch import line_problem

        if isinstance(questions, (str, bytes)):
            raise FinQAError("batch takes a list of questions (ask takes one)")
        items = []
        for n, q in enumerate(questions, 1):   # (a question without an id is numbered from 1, as a file's lines)
            rec = {"id": n, **q} if isinstance(q, dict) else {"id": n, "question": q}
            items.append((n, rec, line_problem(n, rec, "项")))
        return batch_frame(list(answer_rows(self.router, items)))

    # ------------------------------------------------------------------------------ what the store holds

    def reports(self) -> pd.DataFrame:
        """The filings of the store: stock_code, short_name, full_name, year, period (2025Q3, 2024FY), kind
        (report | summary), facts, chunks, files."""
        import pandas as pd

        cols = ["stock_code", "short_name", "full_name", "year", "period", "kind", "publish_date", "facts", "chunks",
                "files", "key"]
        return pd.DataFrame([{k: r[k] for k in cols} for r in self.store.reports()], columns=cols)

    def facts(self, company: str | None = None, year: int | None = None, item: str | None = None) -> pd.DataFrame:
        """The facts read (`fin-qa facts`), with `number` the value as a number where it is one."""
        import pandas as pd

        self._matching(company, year)
        rows = list(self.store.facts(company, year, item))
        for r in rows:
            r["number"] = _number(r["value"])
        cols = ["stock_code", "short_name", "company", "year", "statement", "item", "raw_label", "period", "value",
                "number", "unit", "page", "source"]
        return pd.DataFrame(rows, columns=cols)

    def _matching(self, company: str | None, year: int | None) -> list[str]:
        """The keys of the reports a company and year filter names (all: no filter); naming none is a
        FinQAError, not an empty result."""
        keys = self.store.report_keys(company, year)
        if (company or year) and not keys:
            raise FinQAError(f"no report in the store matches company {company or '*'}, year {year or '*'} "
                             f"(fin-qa reports lists them)")
        return keys

    def report(self, company: str, year: int) -> dict[str, Any]:
        """The one report of this company (stock code, short or full name, or part of one) and year: id, key,
        stock_code, year, full_name, short_name, publish_date."""
        return self.report_data(company, year).info

    def report_data(self, company: str, year: int) -> ReportData:
        """The one report of this company and year (report()), its facts read once: statements, summary,
        disclosures and tables from one read (what the Excel export writes)."""
        if not company or not str(company).strip():
            raise FinQAError("name the company (stock code, short or full name)")
        if isinstance(year, bool) or not isinstance(year, int):
            raise FinQAError(f"a year is a number such as 2021, not {year!r}")
        every = self.store.report_list()
        c = str(company).strip()   # (as the store's --company: a code or a name, or part of a name)
        # a stock code or short name exactly first (two listings may share a full name), then any part of one
        named = [r for r in every if c in (r.stock_code, r.short_name)] or \
            [r for r in every if c == r.full_name or c in (r.short_name or "") or c in (r.full_name or "")]
        if not named:
            raise FinQAError(f"no company in the store is named {company!r} (fin-qa reports lists them)")
        # (the year's annual report, else its summary: another period's filing is no year's report)
        hits = sorted((r for r in named if r.year == year and r.period == "FY"), key=lambda r: r.kind != "report")
        if not hits:
            years = sorted({r.year for r in named if r.period == "FY"})
            others = sorted({f"{r.year}{r.period}" for r in named if r.year == year and r.period != "FY"})
            raise FinQAError(f"the store has no {year} report of {company}: it has {', '.join(map(str, years))}"
                             + (f" (and {year}'s filings {', '.join(others)}, no year's report)" if others else ""))
        if len({r.stock_code for r in hits}) > 1:
            names = "、".join(sorted({r.short_name or r.full_name or r.stock_code or "" for r in hits}))
            raise FinQAError(f"{company!r} names several companies ({names}): name one")
        return ReportData(lambda: self.store, hits[0]._asdict())

    def statement(self, company: str, year: int, name: str = "资产负债表",
                  scope: Scope = "consolidated") -> pd.DataFrame:
        """A statement of a report as read: one row per line item in the order printed (label as printed,
        item its canonical name), one column per period (本期 and 上期, named by year: 2019年末 / 2019年度),
        the unit and the page. scope: consolidated (合并) or parent (母公司)."""
        stmt = _statement_name(name)
        if str(name).strip().startswith(PARENT):   # (母公司资产负债表: the parent's, whatever scope says)
            scope = "parent"
        if scope not in ("consolidated", "parent"):
            raise FinQAError(f"scope is consolidated or parent, not {scope!r}")
        rep = self.report_data(company, year)
        frame = rep.statement(stmt, scope)
        if frame is None:
            raise FinQAError(f"{rep.info['short_name'] or company} {year}: no "
                             f"{PARENT if scope == 'parent' else '合并'}{stmt} was read from the report")
        return frame

    def statements(self, company: str, year: int) -> Iterator[tuple[str, pd.DataFrame]]:
        """(sheet name, frame) of each statement the report printed: consolidated first (合并资产负债表 …),
        then the parent company's (母公司资产负债表 …)."""
        return self.report_data(company, year).statements()

    def summary(self, company: str, year: int) -> pd.DataFrame:
        """The 主要会计数据 summary table as read: one row per item, a column per year it prints."""
        return self.report_data(company, year).summary()

    def disclosures(self, company: str, year: int) -> pd.DataFrame:
        """The key disclosures read (company information, employees, R&D, major events …): section, item,
        value as printed, number, unit, page."""
        return self.report_data(company, year).disclosures()

    def tables(self, company: str | None = None, year: int | None = None, grep: str | None = None) -> list[Table]:
        """The tables read from the reports (`fin-qa tables`), those holding the words of grep only when
        given; each Table's to_frame() is a DataFrame."""
        if company and year:   # (an unknown company or year said, not an empty list)
            return self.report_data(company, year).tables(grep)
        self._matching(company, year)
        return _tables(self.store.tables(company, year, grep))

    def check(self, company: str | None = None, year: int | None = None) -> pd.DataFrame:
        """The accounting identities of the reports (`fin-qa check`): one row per check of each report, with
        ok, both sides, the difference and the pages."""
        import pandas as pd

        from .check import check_reports

        self._matching(company, year)
        rows = []
        for rc in check_reports(self.store, self.catalog.checks, company, year):
            for x in rc.results:
                rows.append({"report": rc.name, "stock_code": rc.report["stock_code"], "year": rc.report["year"],
                             "check": x.name, "period": x.period, "ok": x.ok,
                             "left": None if x.missing else float(x.left),
                             "right": None if x.missing else float(x.right),
                             "difference": None if x.missing else float(x.difference),
                             "pages": ", ".join(str(p) for p in x.pages), "missing": x.missing or None})
        return pd.DataFrame(rows, columns=["report", "stock_code", "year", "check", "period", "ok", "left", "right",
                                           "difference", "pages", "missing"])

    def search(self, query: str, company: str | None = None, year: int | None = None, n: int = 5) -> pd.DataFrame:
        """The report sections best matching the words (`fin-qa search`): report, heading, pages, score, text."""
        import pandas as pd

        if not query or not query.strip():
            raise FinQAError("the search has no words")
        if n < 1:
            raise FinQAError(f"n is the number of sections to list: at least 1, not {n}")
        keys = self._matching(company, year) if company or year else None
        rows = self.router.retriever.search_rows(query, keys, n, False)
        return pd.DataFrame([{"report": r["report"], "heading": r["heading"],
                              "pages": "-".join(str(p) for p in dict.fromkeys(r["pages"]) if p),
                              "score": r["score"], "text": r["text"]} for r in rows],
                            columns=["report", "heading", "pages", "score", "text"])

    def export(self, company: str, year: int, path: str | Path, tables: str | None = None,
               force: bool = False) -> Path:
        """Write the report to an Excel workbook (`fin-qa export`; fin_qa/export.py): its statements, the
        summary, the key disclosures, the checks and the tables read (those holding `tables` only)."""
        from .export import export_report

        return export_report(self, company, year, Path(path), tables, force)


class ReportData:
    """One report of the store, its facts read once: what FinQA's report methods and the Excel export
    read from it."""

    def __init__(self, store: Store | Callable[[], Store], info: dict[str, Any]):
        self._store = store   # (or how to get it: a closed FinQA's is a FinQAError)
        self.info = info
        # its facts read from its documents (not imported tables), in the order read
        self.facts = [f for f in self.store.facts(report_id=info["id"]) if f["source"] in DOCUMENTS]

    @property
    def store(self) -> Store:
        return self._store() if callable(self._store) else self._store

    def _rows(self, stored: str) -> tuple[list[dict[str, Any]], int]:
        """Line items of one stored statement, in the order read, a value per period; and the periods
        printed (2, or 3 where the summary prints a third year)."""
        items: dict[str, dict[str, Any]] = {}
        for f in self.facts:
            if f["statement"] != stored or f["period"] not in _PERIODS:
                continue
            row = items.setdefault(f["item"], {"label": f["raw_label"] or f["item"], "item": f["item"],
                                               "values": [None, None, None], "unit": f["unit"], "page": f["page"]})
            k = _PERIODS[f["period"]]
            if row["values"][k] is None:
                row["values"][k] = _number(f["value"])
        rows = list(items.values())
        return rows, 3 if any(r["values"][2] is not None for r in rows) else 2

    def _frame(self, stored: str, end: str) -> pd.DataFrame | None:
        """A statement's frame (label, item, a column per period named by year + end, unit, page), None
        when the report printed none."""
        import pandas as pd

        rows, width = self._rows(stored)
        if not rows:
            return None
        year = self.info["year"]
        cols = ["label", "item", *(f"{year - k}{end}" for k in range(width)), "unit", "page"]
        return pd.DataFrame([[r["label"], r["item"], *r["values"][:width], r["unit"], r["page"]] for r in rows],
                            columns=cols)

    def statement(self, stmt: str, scope: str) -> pd.DataFrame | None:
        return self._frame(PARENT + stmt if scope == "parent" else stmt,
                           "年末" if stmt == "资产负债表" else "年度")

    def statements(self) -> Iterator[tuple[str, pd.DataFrame]]:
        for scope, prefix in (("consolidated", "合并"), ("parent", PARENT)):
            for stmt in STATEMENTS:
                frame = self.statement(stmt, scope)
                if frame is not None:
                    yield prefix + stmt, frame

    def summary(self) -> pd.DataFrame:
        import pandas as pd

        frame = self._frame(SUMMARY, "年")
        year = self.info["year"]
        return frame if frame is not None else \
            pd.DataFrame(columns=["label", "item", f"{year}年", f"{year - 1}年", "unit", "page"])

    def disclosures(self) -> pd.DataFrame:
        import pandas as pd

        rows = [f for f in self.facts if f["statement"] in DISCLOSURES and f["period"] == "current"]
        return pd.DataFrame([{"section": f["statement"], "item": f["item"], "label": f["raw_label"] or f["item"],
                              # (a number where it has a unit: a stock code or a postcode is text)
                              "value": f["value"], "number": _number(f["value"]) if f["unit"] else None,
                              "unit": f["unit"],
                              "page": f["page"]} for f in rows],
                            columns=["section", "item", "label", "value", "number", "unit", "page"])

    def tables(self, grep: str | None = None) -> list[Table]:
        code, short = self.info["stock_code"], self.info["short_name"]
        return _tables(t for t in self.store.tables(code or short, self.info["year"], grep)
                       if (t["stock_code"], t["short_name"]) == (code, short))

    def files(self) -> str:
        """Its files, '; '-joined ('imported' for an imported report)."""
        return "; ".join(f["path"] for f in self.store.report_files(self.info["id"])) or "imported"


def _tables(records: Iterable[dict[str, Any]]) -> list[Table]:
    return [Table(t["id"], t["short_name"], t["stock_code"], t["year"], tuple(t["path"]), t["caption"], t["unit"],
                  t["page_start"], t["page_end"], tuple(t["header"]), tuple(tuple(r) for r in t["rows"]))
            for t in records]


def _statement_name(name: str) -> str:
    """资产负债表 / 利润表 / 现金流量表 from what a user writes (合并资产负债表, 资产负债, balance …)."""
    aliases = {"balance": "资产负债表", "income": "利润表", "profit": "利润表", "cashflow": "现金流量表",
               "cash": "现金流量表", "损益表": "利润表"}
    n = str(name).strip().lower().replace("合并", "").removeprefix(PARENT)
    n = aliases.get(n, n)
    for s in STATEMENTS:
        if n and (n == s or s.startswith(n)):
            return s
    raise FinQAError(f"no statement named {name!r}: 资产负债表, 利润表 or 现金流量表")


def _number(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None
