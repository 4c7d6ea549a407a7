"""Open answers (FinGLM type 3-2): a definition question ("什么是流动比率", "商誉是什么意思", "如何计算速动比率").

keyword_tables/glossary.yaml answers the terms it defines, with no model: the definition and, for a
ratio, its formula from formulas/ ("流动比率的计算公式：流动比率 = 流动资产合计/流动负债合计"). A formula
the glossary does not define is answered with its formula. Without either, the chat model, when there is
one, writes the explanation (its numbers checked against the formula and the question)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..catalog.formulas import FormulaBook
from ..catalog.glossary import Glossary
from ..understand.question import Understanding
from .compose import render
from .model import Answer, DefinitionEvidence, Evidence, FormulaEvidence

GLOSSARY_FILE = "glossary.yaml"

if TYPE_CHECKING:
    from .prose import Prose


class OpenAnswerer:
    def __init__(self, formulas: FormulaBook, templates: dict[str, str], prose: "Prose | None" = None,
                 glossary: Glossary | None = None):
        self.formulas = formulas
        self.t = templates
        self.prose = prose
        self.glossary = glossary or Glossary()

    def answer(self, u: Understanding) -> Answer:
        terms = self.glossary.find(u.norm)
        formulas = [f for f in map(self.formulas.get, u.formulas) if f is not None and not f.template]
        for t in terms:   # a ratio the glossary defines brings its formula
            f = self.formulas.get(t.formula) if t.formula else None
            if f is not None and f not in formulas:
                formulas.append(f)
        defs = [(f.name, f.expr.replace(" ", "")) for f in formulas]
        fixed = "".join(render(self.t, "open_formula", name=n, expr=e) for n, e in defs)
        ev: list[Evidence] = [FormulaEvidence(n, e, Path(f.file).name) for (n, e), f in zip(defs, formulas)]
        if terms:
            text = "".join(render(self.t, "open_definition", term=t.term, definition=t.definition) for t in terms)
            ev = [DefinitionEvidence(t.term, t.definition, GLOSSARY_FILE) for t in terms] + ev
            if self.prose is not None:
                # the model explains around the definitions and formulas (its numbers checked against them)
                pr = self.prose.open_answer(u.norm, [(t.term, t.definition) for t in terms] + defs)
                if pr.text:
                    return Answer(u.question, f"{pr.text}\n{text}{fixed}", u.finglm_type(), "open+llm", ev)
            return Answer(u.question, text + fixed, u.finglm_type(), "open", ev)
        if self.prose is not None:
            pr = self.prose.open_answer(u.norm, defs)
            if pr.text:
                return Answer(u.question, pr.text + (f"\n{fixed}" if fixed else ""), u.finglm_type(), "open+llm", list(ev))
        if fixed:
            return Answer(u.question, fixed, u.finglm_type(), "open", list(ev))
        template = "open_refused" if self.prose is not None else "open_unavailable"
        return Answer(u.question, render(self.t, template), u.finglm_type(), "open", found=False)


class AdviceAnswerer:
    """An opinion on buying or selling a company's shares, or its price to come (rules/question_types.yaml
    `advice`): declined as what no report says — never a passage of the report read as if it said it."""

    def __init__(self, templates: dict[str, str]):
        self.t = templates

    def answer(self, u: Understanding) -> Answer:
        return Answer(u.question, render(self.t, "advice_declined"), u.finglm_type(), "declined", found=False)
