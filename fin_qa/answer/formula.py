"""Formula answers (FinGLM type 2-1): a formula of formulas/*.yaml over one report's facts, or A/B
for "A占B的比例" over two items no formula names (a percent when the question asks for one). The
answer shows the value, the expression and every input with its page; a missing input or a zero
denominator is said, never guessed."""
from __future__ import annotations

from ..catalog.formulas import Formula, Input
from ..understand.question import Understanding
from .compose import render
from .lookup import LookupAnswerer, not_found
from .model import Answer
from .values import Values


class FormulaAnswerer:
    def __init__(self, values: Values, lookup: LookupAnswerer):
        self.v = values
        self.t = values.t
        self.lookup = lookup

    def _pair_formula(self, u: Understanding) -> Formula:
        """An ad-hoc A/B for "A占B的比例" over two items no formula file names."""
        a, b = u.items[:2]
        words = u.item_words
        la, lb = words.get(a, a), words.get(b, b)
        if la == lb:
            la, lb = a, b
        out = "percent" if u.percent else "ratio"
        return Formula(f"{la}占{lb}的比例", (), {la: Input(la, a, 0), lb: Input(lb, b, 0)}, f"{la}/{lb}", out, 2,
                       ("/", ("var", la), ("var", lb)), "question", 0)

    def answer(self, u: Understanding) -> Answer:
        if u.formulas and u.items:
            return self.lookup.answer(u)  # 每股收益和每股净资产: several values, some of them computed
        f = self.v.formulas.get(u.formulas[0]) if u.formulas else self._pair_formula(u)
        if f is None:
            return not_found(u, render(self.t, "not_understood"))
        rep, name, year, note = self.v.report(u)
        if rep is None:
            return not_found(u, render(self.t, "not_found_report", company=name, year=year or ""))
        fv = self.v.formula_value(f, rep, u.decimals)
        if fv.problem:
            return Answer(u.question, note + self.v.problem_text(fv.problem, name, year, f.name), u.finglm_type(),
                          fv.method, list(fv.evidence), found=False)
        if fv.method == "lookup":
            text = render(self.t, "lookup", company=name, year=year, item=f.name, value=fv.shown)
            return Answer(u.question, note + text, u.finglm_type(), "lookup", list(fv.evidence))
        parts = "，".join(render(self.t, "formula_part", label=e.label, value=e.value) for e in fv.evidence)
        text = render(self.t, "formula", company=name, year=year, name=f.name, value=fv.shown,
                      expr=f.expr.replace(" ", ""), parts=parts)
        if fv.notes:
            text += "（" + "；".join(fv.notes) + "）"
        return Answer(u.question, note + text, u.finglm_type(), "formula", list(fv.evidence))
