"""Accounting identities over a report's facts (rules/checks.yaml): 资产 = 负债 + 所有者权益, the
subtotals, 净利润 = 利润总额 − 所得税费用, the cash-flow sum and the cash roll-forward — in the current
and the previous-period column; the summary table 主要会计数据 against the statements; and the
previous-period column against the previous year's report when the store has it. A check runs when
every item of it is in the report; a failure names both sides, the difference and the pages, so a user
knows which reports (and values) to distrust.

Used by `fin-qa ingest` (failed checks are warnings of the file, kept in the store) and `fin-qa check`.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from .catalog.checks import CheckRules
from .catalog.formulas import evaluate
from .store import PARENT_STATEMENT_PREFIX as PARENT_PREFIX
from .store import Store

PERIODS = ("current", "previous")
STATEMENTS = ("资产负债表", "利润表", "现金流量表")
DOCUMENTS = ("pdf", "txt")   # the files a report is read from (not an imported table)
SUMMARY = "主要会计数据"
SUMMARY_CHECK = "主要会计数据 = 报表"   # the name of a summary line checked against the statements
PARENT_STATEMENTS = tuple(PARENT_PREFIX + s for s in STATEMENTS)


@dataclass
class CheckResult:
    name: str
    period: str
    ok: bool
    left: Decimal
    right: Decimal
    pages: list[int] = field(default_factory=list)
    missing: str = ""       # a completeness check: the essential item not read (left and right unused)
    blank: bool = False     # … its line printed with the other period's value only: the report leaves it blank

    @property
    def difference(self) -> Decimal:
        return self.left - self.right

    def to_dict(self) -> dict[str, Any]:
        if self.missing:
            return {"check": self.name, "period": self.period, "ok": self.ok, "missing": self.missing}
        if self.blank:
            return {"check": self.name, "period": self.period, "ok": self.ok, "blank": True, "pages": self.pages}
        return {"check": self.name, "period": self.period, "ok": self.ok, "left": str(self.left),
                "right": str(self.right), "difference": str(self.difference), "pages": self.pages}

    def describe(self) -> str:
        where = ", ".join(f"p.{p}" for p in self.pages) or "no page"
        column = {"current": "本期", "previous": "上期"}.get(self.period, self.period)
        if self.missing:
            return f"FAILED {self.name}（{column}）: {self.missing} not read"
        if self.blank:
            return f"ok     {self.name}（{column}）: {BLANK} ({where})"
        if self.name.startswith("完整性"):
            return f"ok     {self.name}（{column}）: {self.left:,} ({where})"
        status = "ok    " if self.ok else "FAILED"
        return (f"{status} {self.name}（{column}）: {self.left:,} vs {self.right:,}"
                + ("" if self.ok else f", difference {self.difference:,}") + f" ({where})")


Values = dict[tuple[str, str], tuple[Decimal, int | None]]  # (item, period) → (number, page)
Blanks = dict[tuple[str, str], int]   # (item, period) → the page printing the item's line with that cell blank
BLANK = "printed without a value"
# the warning a report's file keeps of an essential line it prints blank (as_warning writes it, blanks_of reads it)
_BLANK_WARNING = re.compile(r"：(\S+?)（(本期|上期)）: " + BLANK + r" \(p\.(\d+)\)")


def as_warning(r: CheckResult) -> str:
    """A failed check, or a blank line held, as ingest keeps it among its file's warnings ("check failed: …",
    "check: …": its description without the status), read back by recorded_failures and blanks_of."""
    return ("check: " if r.ok else "check failed: ") + r.describe()[7:]


# a failed check as ingest keeps it among its file's warnings (as_warning)
_FAILED_WARNING = re.compile(r"^check failed: (?P<name>.+)（(?P<period>本期|上期)）: (?P<left>-?[\d,.]+) vs "
                             r"(?P<right>-?[\d,.]+), difference -?[\d,.]+ \((?P<pages>[^)]*)\)$")


def recorded_failures(warnings: Iterable[str]) -> list[CheckResult]:
    """The failed checks ingest recorded of a report's file: what the store's facts cannot show again (a
    summary row contradicting the statements is not stored, its contradiction is)."""
    out = []
    for w in warnings:
        m = _FAILED_WARNING.match(w)
        if m and m.group("name").startswith(SUMMARY_CHECK):   # (the others are checked again from the facts)
            pages = [int(p) for p in re.findall(r"p\.(\d+)", m.group("pages"))]
            out.append(CheckResult(m.group("name"), "current" if m.group("period") == "本期" else "previous", False,
                                   Decimal(m.group("left").replace(",", "")),
                                   Decimal(m.group("right").replace(",", "")), pages))
    return out


def blanks_of(warnings: Iterable[str]) -> Blanks:
    """The blank essential lines a report's file warnings name (check_facts' results, as ingest kept them)."""
    out: Blanks = {}
    for w in warnings:
        for m in _BLANK_WARNING.finditer(w):
            for item in m.group(1).split("|"):
                out[(item, "current" if m.group(2) == "本期" else "previous")] = int(m.group(3))
    return out


def _holds(left: Decimal, right: Decimal, rules: CheckRules) -> bool:
    tol = max(Decimal(str(rules.tolerance)), Decimal(str(rules.relative)) * max(abs(left), abs(right)))
    return abs(left - right) <= tol


def run_checks(values: Values, rules: CheckRules) -> list[CheckResult]:
    """Every identity whose items are all there, in each period."""
    out: list[CheckResult] = []
    if not values:
        return out   # (a report with none of the statements' values: no identity has its items)
    for check in rules.checks:
        for period in PERIODS:
            if not all((i, period) in values for i in check.items):
                continue
            got = {i: values[(i, period)] for i in check.items}
            nums = {i: v[0] for i, v in got.items()}
            left, right = evaluate(check.left, nums), evaluate(check.right, nums)
            pages = sorted({v[1] for v in got.values() if v is not None and v[1]})
            ok = left <= right + Decimal(str(rules.tolerance)) if check.at_most else _holds(left, right, rules)
            out.append(CheckResult(check.name, period, ok, left, right, pages))
    return out


def run_comparisons(name: str, left: Values, right: Values, pairs: Iterable[tuple[str, str, str]],
                    rules: CheckRules) -> list[CheckResult]:
    """One check per (item, left period, right period) that both sides have: left's value = right's."""
    out: list[CheckResult] = []
    if not left or not right:
        return out
    for item, lp, rp in pairs:
        a, b = left.get((item, lp)), right.get((item, rp))
        if a is None or b is None:
            continue
        pages = sorted({p for p in (a[1], b[1]) if p})
        out.append(CheckResult(f"{name}：{item}", lp, _holds(a[0], b[0], rules), a[0], b[0], pages))
    return out


def summary_checks(summary: Values, statements: Values, rules: CheckRules) -> list[CheckResult]:
    """The summary table's values against the statements' (主要会计数据 = 报表)."""
    return run_comparisons(SUMMARY_CHECK, summary, statements,
                           [(i, p, p) for i in rules.summary for p in PERIODS], rules)


def previous_report_checks(report: Values, last_year: Values, rules: CheckRules) -> list[CheckResult]:
    """The report's previous-period column against the previous year's report (上期数 = 上年报告)."""
    return run_comparisons("上期数 = 上年报告本期数", report, last_year,
                           [(i, "previous", "current") for i in rules.previous_report], rules)


def fact_values(rows: Iterable[Any]) -> dict[tuple[str, str], tuple[Decimal, int | None]]:
    """The first value of each (item, period) among fact rows (FactRow or StoredFact)."""
    out: dict[tuple[str, str], tuple[Decimal, int | None]] = {}
    for f in rows:
        key = (f.item, f.period)
        if key in out:
            continue
        try:
            out[key] = (Decimal(str(f.value).replace(",", "")), f.page)
        except (InvalidOperation, ValueError):
            continue
    return out


def _split(rows: Iterable[Any]) -> tuple[Values, Values, Values]:
    """(consolidated statements, summary table, parent statements) values of fact rows."""
    rows = list(rows)
    return (fact_values(r for r in rows if r.statement in STATEMENTS),
            fact_values(r for r in rows if r.statement == SUMMARY),
            fact_values(r for r in rows if r.statement in PARENT_STATEMENTS))


def _all_checks(statements: Values, summary: Values, parent: Values, rules: CheckRules) -> list[CheckResult]:
    out = run_checks(statements, rules) + summary_checks(summary, statements, rules)
    for r in run_checks(parent, rules):  # the parent company's own statements hold the identities too
        r.name = PARENT_PREFIX + "：" + r.name
        out.append(r)
    return out


def completeness(statements: Values, names: str, items: set[str], rules: CheckRules,
                 blanks: Blanks | None = None) -> list[CheckResult]:
    """A failed check for each essential item of the report's kind (rules/checks.yaml essentials) that its
    consolidated statements lack, in either period; `items`: every item among its facts (its kind's
    markers). A line the statement prints with that period's cell blank (`blanks`) holds, said so with
    its page: the report itself prints no value there."""
    kind = rules.kind_of(names, items)
    if kind is None:
        return []
    blanks = {k: page for k, page in (blanks or {}).items() if _nil_holds(statements, k, rules)}
    out = []
    for item in kind.items:
        for period in PERIODS:
            got = next((statements[(i, period)] for i in item.split("|") if (i, period) in statements), None)
            blank = next((blanks[(i, period)] for i in item.split("|") if (i, period) in blanks), None)
            if got is None and blank is not None:
                out.append(CheckResult(f"完整性（{kind.kind}）：{item}", period, True, Decimal(0), Decimal(0), [blank],
                                       blank=True))
            elif got is None:
                out.append(CheckResult(f"完整性（{kind.kind}）：{item}", period, False, Decimal(0), Decimal(0),
                                       missing=item))
            else:
                out.append(CheckResult(f"完整性（{kind.kind}）：{item}", period, True, got[0], got[0],
                                       [got[1]] if got[1] else []))
    return out


def _nil_holds(statements: Values, blank: tuple[str, str], rules: CheckRules) -> bool:
    """Whether a line printed blank is nil by the statement's own arithmetic: an identity naming it holds with
    it 0 — and the lines the statement does not print 0, two of its lines at least read (筹资活动产生的现金流量
    净额 blank: 净增加额 = 经营 + 投资) — a value read into the wrong column leaves no such blank."""
    item, period = blank
    for check in rules.checks:
        if item not in check.items or check.at_most:
            continue
        got = {i: statements.get((i, period)) for i in check.items if i != item}
        if sum(v is not None for v in got.values()) < 2:
            continue   # (a line the statement does not print, 汇率变动的影响 of a company with none, is nil too)
        nums = {i: (v[0] if v is not None else Decimal(0)) for i, v in got.items()}
        nums[item] = Decimal(0)
        if _holds(evaluate(check.left, nums), evaluate(check.right, nums), rules):
            return True
    return False


def check_facts(rows: Iterable[Any], rules: CheckRules, names: str = "",
                blanks: Blanks | None = None, complete: bool = True) -> list[CheckResult]:
    """Every check over a parsed report's facts (ingest), its completeness included (not a summary's:
    complete False)."""
    rows = list(rows)
    statements, summary, parent = _split(rows)
    return _all_checks(statements, summary, parent, rules) + (completeness(
        statements, names, {r.item for r in rows}, rules, blanks) if complete else [])


_ITEMS: dict[int, tuple[CheckRules, list[str]]] = {}   # id(rules) → (rules, the items its checks read)


def _check_items(rules: CheckRules) -> list[str]:
    held = _ITEMS.get(id(rules))
    if held is None or held[0] is not rules:
        items = sorted({i for c in rules.checks for i in c.items} | set(rules.summary) | set(rules.previous_report)
                       | {i for e in rules.essentials for x in e.items for i in x.split("|")})
        held = _ITEMS[id(rules)] = (rules, items)
    return held[1]


def _stored(store: Store, report_id: int, rules: CheckRules) -> tuple[Values, Values, Values]:
    # (one query of both periods and both scopes: each (item, period)'s first fact of a statement group is the
    # one the per-period, per-scope queries put first — the same order, document facts before imported ones)
    return _split(store.report_facts_of_periods(report_id, _check_items(rules), PERIODS))


def check_report(store: Store, report_id: int, rules: CheckRules,
                 previous_report_id: int | None = None, names: str = "", complete: bool = True) -> list[CheckResult]:
    """Every check of a stored report (`fin-qa check`); with the previous year's report of the company,
    its previous-period column against that report too; read from a document, its completeness (`names`:
    the company's names, which may say its kind) — not of a summary (摘要), which prints no statements
    (complete False)."""
    stored = _stored(store, report_id, rules)
    out = _all_checks(*stored, rules)
    warnings = store.report_warnings(report_id)
    ran = {(r.name, r.period) for r in out}
    out += [r for r in recorded_failures(warnings) if (r.name, r.period) not in ran]
    if previous_report_id is not None:
        out += previous_report_checks(stored[0], _stored(store, previous_report_id, rules)[0], rules)
    if complete and any(f["kind"] in DOCUMENTS for f in store.report_files(report_id)):
        # a report read from its document is complete or says what it lacks (an imported table holds
        # what it holds)
        markers = {i for e in rules.essentials for i in e.markers}
        held = {f.item for p in PERIODS for f in store.report_facts(report_id, sorted(markers), p)}
        out += completeness(stored[0], names, held, rules, blanks_of(warnings))
    return out


@dataclass
class ReportCheck:
    """The checks of one stored report (`fin-qa check`, the server's /api/check)."""
    report: dict[str, Any]        # the store's report row (Store.reports)
    results: list[CheckResult]

    @property
    def name(self) -> str:
        r = self.report
        return f"{r['short_name'] or r['full_name'] or '-'} {filing_label(r)} ({r['stock_code'] or '-'})"

    @property
    def failed(self) -> list[CheckResult]:
        return [x for x in self.results if not x.ok]

    def record(self, show_all: bool = False) -> dict[str, Any]:
        r = self.report
        return {"report": self.name, "key": r["key"], "stock_code": r["stock_code"], "year": r["year"],
                "checks": len(self.results), "failed": len(self.failed),
                "results": [x.to_dict() for x in (self.results if show_all else self.failed)]}


def check_reports(store: Store, rules: CheckRules, company: str | None = None,
                  year: int | None = None) -> list[ReportCheck]:
    """The checks of the stored reports of this company (stock code, short or full name, or part of one)
    and year (all when None), each with the previous year's report of the company when stored."""
    every = store.reports()
    rows = [r for r in every if (year is None or r["year"] == year) and (
        not company or any(company in (r.get(k) or "") for k in ("stock_code", "short_name", "full_name")))]
    # (an annual report's previous column against last year's annual report: an interim filing's previous
    # columns are the same period a year before and the year end before, no filing's own period)
    by_key = {(r["stock_code"], r["year"]): r["id"] for r in every if r["stock_code"] and _annual(r)}
    half_years: dict[tuple[str, int], list[int]] = {}
    for r in every:
        if r["stock_code"] and r.get("period") == f"{r['year']}HY":
            half_years.setdefault((r["stock_code"], r["year"]), []).append(r["id"])
    out = []
    for r in rows:
        results = check_report(store, r["id"], rules,
                               by_key.get((r["stock_code"], r["year"] - 1)) if _annual(r) else None,
                               " ".join(r.get(k) or "" for k in ("short_name", "full_name")),
                               r.get("kind", "report") == "report")
        if r.get("period") == f"{r['year']}Q3":
            results += quarter_checks(store, r["id"], half_years.get((r["stock_code"], r["year"]), []))
        out.append(ReportCheck(r, results))
    return out


QUARTER_CHECK = "半年度 + 第三季度单季 = 前三季度"


def quarter_checks(store: Store, q3_id: int, half_year_ids: Sequence[int]) -> list[CheckResult]:
    """A third quarter's report against its half year's filing (the report, else its summary): for every
    amount the report prints for the quarter alone (本报告期), 1–6月 + 7–9月 = 1–9月, to the yuan."""
    quarter = {f.item: f for f in store.report_facts(q3_id, _QUARTER_ITEMS, "quarter") if f.unit == "元"}
    ytd = {f.item: f for f in store.report_facts(q3_id, sorted(quarter), "current")}
    out: list[CheckResult] = []
    for item in sorted(quarter):
        half = next((f for hid in half_year_ids for f in store.report_facts(hid, [item], "current")), None)
        if item not in ytd or half is None:
            continue
        left = Decimal(half.value) + Decimal(quarter[item].value)
        right = Decimal(ytd[item].value)
        out.append(CheckResult(f"{QUARTER_CHECK}：{item}", "current", abs(left - right) <= 1, left, right,
                               [p for p in (half.page, quarter[item].page, ytd[item].page) if p]))
    return out


# the amounts a third quarter's 主要会计数据 prints for the quarter alone
_QUARTER_ITEMS = ["营业收入", "营业总收入", "归属于母公司所有者的净利润", "扣除非经常性损益后的净利润", "经营活动产生的现金流量净额"]


def _annual(r: dict[str, Any]) -> bool:
    return r.get("period", f"{r['year']}FY") == f"{r['year']}FY" and r.get("kind", "report") == "report"


def filing_label(r: dict[str, Any]) -> str:
    """A stored report row's year (an annual report) or period (2025Q3, 2024HY摘要)."""
    if _annual(r):
        return str(r["year"])
    return str(r["period"]) + ("摘要" if r.get("kind") == "summary" else "")


def doubtable(rules: CheckRules) -> frozenset[str]:
    """The items a doubt can name: an identity's, or a summary line's (what `doubts` keys by; a value of any
    other item has no doubt to look for)."""
    return frozenset({i for c in rules.checks for i in c.items} | set(rules.summary))


def doubts(store: Store, report_id: int, rules: CheckRules) -> dict[tuple[str, str, str], CheckResult]:
    """(scope — consolidated or parent —, item, period) → the first failed check of a stored report naming
    that item in that period: an identity, a bound, or a summary line its statements contradict. The report itself prints figures that
    cannot all be right, and an answer built on one says so. (A previous-period column that last year's
    report printed otherwise is a restatement, not a contradiction; completeness names no value.)"""
    items = {c.name: c.items for c in rules.checks}
    out: dict[tuple[str, str, str], CheckResult] = {}
    # (completeness left out: its failures name a missing item, never a value, and are skipped below)
    for r in check_report(store, report_id, rules, complete=False):
        if r.ok or r.missing:
            continue
        scope, name = ("parent", r.name[len(PARENT_PREFIX) + 1:]) if r.name.startswith(PARENT_PREFIX + "：") \
            else ("consolidated", r.name)
        named = items.get(name) or ((name.split("：", 1)[1],) if name.startswith(SUMMARY_CHECK) else ())
        for item in named:
            out.setdefault((scope, item, r.period), r)
    return out
