"""Comparison answers (FinGLM type 2-2): each field asked of a company across years ("2019年和2020年的法定代表人
是否相同"); one year asked compares it with the year before, none the two latest reports."""
from __future__ import annotations

from ..understand.question import Understanding
from .compose import render
from .facts import Fact
from .lookup import interpretation, not_found
from .model import Answer, Evidence, FactEvidence
from .values import Values, fact_evidence, label_of


class CompareAnswerer:
    # the frame's operations and periods this answerer implements (the router declines any other)
    operations = frozenset({"value"})
    periods = frozenset({None, "closing", "current"})

    def __init__(self, values: Values):
        self.v = values
        self.t = values.t

    def answer(self, u: Understanding) -> Answer:
        """Whether each item asked (every one of them: 资本充足率和一级资本充足率) is the same in the years compared,
        with its values; an item not read in a year is said missing, never left out."""
        m, name = self.v.company(u)
        items = u.items or ["法定代表人"]
        years = list(u.years.years)
        if len(years) == 1:
            years = [years[0] - 1, years[0]]
        if not years:
            years = self.v.source.years_of(m.company.key)[-2:]
        texts: list[str] = []
        evidence: list[FactEvidence] = []
        missing: list[str] = []
        refusal: Answer | None = None
        for item in items:
            label = label_of(item, u.item_words.get(item))
            values: list[tuple[int, Fact]] = []
            notes: list[str] = []
            for y in years:
                # the year's own report, else the next year's previous-period column (said in the answer)
                r = self.v.read_year(m.company.key, [item], y)
                if r.rep is None:
                    return not_found(u, render(self.t, "not_found_report", company=name, year=y))
                f = r.facts.get(item)
                if f is None:
                    refusal = refusal or not_found(u, render(self.t, "not_found_value", company=name, year=y,
                                                             item=label))
                    break
                if r.note:
                    notes.append(r.note)
                values.append((y, f))
            if len(values) < len(years):
                missing.append(label)
                continue
            shown = [(y, self.v.show(f)) for y, f in values]
            evidence += [fact_evidence(f, s) for (y, f), (_, s) in zip(values, shown)]
            same = len({_same_key(f.value) for _, f in values}) == 1
            parts = "，".join(render(self.t, "compare_part", year=y, item=label, value=s) for y, s in shown)
            texts.append(render(self.t, "compare_same" if same else "compare_diff", company=name, parts=parts)
                         + interpretation(self.t, notes))
        if not texts:
            assert refusal is not None
            return refusal
        if missing:
            texts.append(render(self.t, "not_found_value", company=name, year="、".join(map(str, years)),
                                item="、".join(missing)))
        return Answer(u.question, "；".join(t.rstrip("。") for t in texts) + "。", u.finglm_type(), "compare",
                      list[Evidence](evidence),
                      found=not missing, partial=missing)


def _same_key(v: str) -> str:
    return "".join(str(v).split()).replace("（", "(").replace("）", ")")
