"""Open answers (FinGLM type 3-2): a definition question. The formula files answer what they define
("流动比率的计算公式：流动比率 = 流动资产/流动负债"); the chat model, when there is one, writes the
explanation around it (its numbers checked against the formula and the question)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..catalog.formulas import FormulaBook
from ..understand.question import Understanding
from .compose import render
from .model import Answer, FormulaEvidence

if TYPE_CHECKING:
    from .prose import Prose


class OpenAnswerer:
    def __init__(self, formulas: FormulaBook, templates: dict[str, str], prose: "Prose | None" = None):
        self.formulas = formulas
        self.t = templates
        self.prose = prose

    def answer(self, u: Understanding) -> Answer:
        formulas = [f for f in map(self.formulas.get, u.formulas) if f is not None and not f.template]
        defs = [(f.name, f.expr.replace(" ", "")) for f in formulas]
        fixed = "".join(render(self.t, "open_formula", name=n, expr=e) for n, e in defs)
        ev = [FormulaEvidence(n, e, Path(f.file).name) for (n, e), f in zip(defs, formulas)]
        if self.prose is not None:
            pr = self.prose.open_answer(u.norm, defs)
            if pr.text:
                return Answer(u.question, pr.text + (f"\n{fixed}" if fixed else ""), u.finglm_type(), "open+llm", list(ev))
        if fixed:
            return Answer(u.question, fixed, u.finglm_type(), "open", list(ev))
        template = "open_refused" if self.prose is not None else "open_unavailable"
        return Answer(u.question, render(self.t, template), u.finglm_type(), "open", found=False)
