"""Lookup answers (FinGLM types 1 and 1-2): items of one report, and formula names asked beside them
("每股收益和每股净资产": several values, some computed). Every value is cited with item, page, source."""
from __future__ import annotations

from ..understand.question import Understanding
from .compose import render
from .model import Answer, FactEvidence
from .values import Values, fact_evidence, label_of


class LookupAnswerer:
    def __init__(self, values: Values):
        self.v = values
        self.t = values.t

    def answer(self, u: Understanding) -> Answer:
        rep, name, year, note = self.v.report(u)
        if rep is None:
            return not_found(u, render(self.t, "not_found_report", company=name, year=year or ""))
        words = u.item_words
        asked = list(dict.fromkeys([(k.kind, k.name) for k in u.keywords] + [(g.kind, g.name) for g in u.generalized]))
        got = self.v.facts(rep, [n for k, n in asked if k == "item"])
        parts: list[tuple[str, str]] = []
        evidence: list[FactEvidence] = []
        missing: list[str] = []
        for kind, item in asked:
            if kind == "formula":
                f = self.v.formulas.get(item)
                fv = self.v.formula_value(f, rep, u.decimals) if f is not None else None
                if fv is None or fv.problem or fv.shown is None:
                    missing.append(item)
                    continue
                parts.append((item, fv.shown))
                evidence.extend(fv.evidence)
                continue
            fact = got.get(item)
            if fact is None:
                missing.append(item)
                continue
            shown = self.v.show(fact)
            parts.append((label_of(item, words.get(item)), shown))
            evidence.append(fact_evidence(fact, shown))
        if not parts:
            label = "、".join(label_of(i, words.get(i)) for i in missing)
            return not_found(u, render(self.t, "not_found_value", company=name, year=year, item=label))
        if len(parts) == 1 and not missing:
            text = render(self.t, "lookup", company=name, year=year, item=parts[0][0], value=parts[0][1])
        else:
            joined = "，".join(render(self.t, "lookup_part", item=i, value=v) for i, v in parts)
            text = render(self.t, "lookup_many", company=name, year=year, parts=joined)
            if missing:
                label = "、".join(label_of(i, words.get(i)) for i in missing)
                text += render(self.t, "not_found_value", company=name, year=year, item=label)
        ftype = "1-2" if len(asked) > 1 else "1"
        return Answer(u.question, note + text, ftype, "lookup", list(evidence))


def not_found(u: Understanding, msg: str) -> Answer:
    """An answer that admits it has no value, with the question's contest type."""
    return Answer(u.question, msg, u.finglm_type(), "not_found", found=False)
