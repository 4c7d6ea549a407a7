"""Accounting identities over a report's facts (rules/checks.yaml): 资产 = 负债 + 所有者权益, the
subtotals, 净利润 = 利润总额 − 所得税费用, the cash-flow sum and the cash roll-forward — in the current
and the previous-period column. A check runs when every item of it is in the report; a failure names
both sides, the difference and the pages, so a user knows which reports (and values) to distrust.

Used by `fin-qa ingest` (failed checks are warnings of the file, kept in the store) and `fin-qa check`.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from .catalog.checks import CheckRules
from .catalog.formulas import evaluate
from .store import Store

PERIODS = ("current", "previous")


@dataclass
class CheckResult:
    name: str
    period: str
    ok: bool
    left: Decimal
    right: Decimal
    pages: list[int] = field(default_factory=list)

    @property
    def difference(self) -> Decimal:
        return self.left - self.right

    def to_dict(self) -> dict[str, Any]:
        return {"check": self.name, "period": self.period, "ok": self.ok, "left": str(self.left),
                "right": str(self.right), "difference": str(self.difference), "pages": self.pages}

    def describe(self) -> str:
        where = ", ".join(f"p.{p}" for p in self.pages) or "no page"
        column = "本期" if self.period == "current" else "上期"
        status = "ok    " if self.ok else "FAILED"
        return (f"{status} {self.name}（{column}）: {self.left:,} vs {self.right:,}"
                + ("" if self.ok else f", difference {self.difference:,}") + f" ({where})")


def run_checks(values: dict[tuple[str, str], tuple[Decimal, int | None]], rules: CheckRules) -> list[CheckResult]:
    """values: (item, period) → (number, page). Every check whose items are all there, in each period."""
    out: list[CheckResult] = []
    for check in rules.checks:
        for period in PERIODS:
            got = {i: values.get((i, period)) for i in check.items}
            if any(v is None for v in got.values()):
                continue
            nums = {i: v[0] for i, v in got.items() if v is not None}
            left, right = evaluate(check.left, nums), evaluate(check.right, nums)
            tol = max(Decimal(str(rules.tolerance)), Decimal(str(rules.relative)) * max(abs(left), abs(right)))
            pages = sorted({v[1] for v in got.values() if v is not None and v[1]})
            out.append(CheckResult(check.name, period, abs(left - right) <= tol, left, right, pages))
    return out


def _values(rows: Iterable[Any]) -> dict[tuple[str, str], tuple[Decimal, int | None]]:
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


def check_facts(rows: Iterable[Any], rules: CheckRules) -> list[CheckResult]:
    """The identities over a parsed report's facts (ingest)."""
    return run_checks(_values(r for r in rows if r.statement in ("资产负债表", "利润表", "现金流量表")), rules)


def check_report(store: Store, report_id: int, rules: CheckRules) -> list[CheckResult]:
    """The identities over a stored report's facts (`fin-qa check`)."""
    items = sorted({i for c in rules.checks for i in c.items})
    rows = [f for period in PERIODS for f in store.report_facts(report_id, items, period)]
    return run_checks(_values(rows), rules)
