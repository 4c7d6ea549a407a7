"""Formula answers (FinGLM type 2-1): a formula of formulas/*.yaml over one report's facts, or A/B
for "A占B的比例" over two items no formula names (a percent when the question asks for one). The
answer shows the value, the expression and every input with its page; a missing input or a zero
denominator is said, never guessed."""
from __future__ import annotations

import re
from dataclasses import replace

from ..catalog.formulas import Formula, Input
from ..numbers import parse_number
from ..understand.question import Understanding
from .compose import render
from .lookup import LookupAnswerer, declined, interpretation, not_found, understood, unit_note
from .model import Answer, Evidence
from .values import Values, fact_evidence, growth_of


_SHARE = re.compile(r"占.*(?:比例|比重|百分比|占比|比率|百分之几)")


class FormulaAnswerer:
    # the frame's operations and periods this answerer implements (the router declines any other)
    operations = frozenset({"value", "share", "sum", "difference", "spelled"})
    periods = frozenset({None, "closing", "current", "opening"})

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
        # an analyst reads a share as a percent ("占营业收入的比例 4.12%"); the contest's style writes the
        # ratio its answers hold (研发人员占职工人数比例 0.14) unless a percent is asked; a ratio asked
        # (比值, 之比, 是…的多少倍) is a number in either style
        out = "percent" if u.percent or (self.v.style != "finglm" and not u.ratio) else "ratio"
        name = f"{la}占{lb}的比例" if not u.ratio else (f"{la}相当于{lb}的倍数" if "倍" in u.ratio else f"{la}与{lb}的比值")
        return Formula(name, (), {la: Input(la, a, 0), lb: Input(lb, b, 0)}, f"{la}/{lb}", out, 2,
                       ("/", ("var", la), ("var", lb)), "question", 0)

    def _spelled_formula(self, u: Understanding) -> Formula:
        """The formula the question spells out ("用A除以B来算", "按(流动资产-存货)/流动负债计算"): its numerator
        terms over its denominator terms, each added or subtracted as written; named and printed as the
        formula it names (净资产收益率 as a percent)."""
        assert u.frame.spelled is not None
        num, den = u.frame.spelled
        named = self.v.formulas.get(u.formulas[0]) if u.formulas else None
        if named is not None and len(num) > 1 and not {t.lstrip("-") for t in num} <= {i.item for i in named.inputs.values()}:
            named = None   # "销售费用+研发费用占营业收入的比例": a sum the formula named in its words (研发费用率) does not add
        inputs = {i.lstrip("-"): Input(i.lstrip("-"), i.lstrip("-"), 0) for i in dict.fromkeys(num + den)}
        expr = f"({_terms(num)}) / ({_terms(den)})"
        tree: tuple = ("/", _sum_tree(num), _sum_tree(den))
        # a share of items listed ("…之和占营业收入的比例") reads as a percent, as any share (_pair_formula)
        share = _SHARE.search(u.norm) is not None and len(den) == 1
        out = "percent" if u.percent or (named is not None and named.output == "percent") or (
            share and self.v.style != "finglm" and not u.ratio) else "ratio"
        name = named.name if named is not None else (
            (f"({_terms(num)})" if len(num) > 1 else _terms(num)) + f"占{den[0]}的比例" if share
            else f"({_terms(num)})/({_terms(den)})").replace(" ", "")
        return Formula(name, (), inputs, expr, out, named.decimals if named is not None else 2, tree, "question", 0)

    def _binary_formula(self, u: Understanding) -> Formula:
        """A与B之和 / A和B的差额 over the items named, in their order."""
        items = u.items
        words = u.item_words
        labels = [words.get(i, i) if words.get(i, i) not in [words.get(j, j) for j in items if j != i] else i
                  for i in items]
        inputs = {lbl: Input(lbl, i, 0) for lbl, i in zip(labels, items)}
        # head counts add up to people, amounts to 元
        out = "count" if all(self.v.info(i).kind == "count" for i in items) else "amount"
        if u.frame.operation == "sum":
            return Formula(f"{'与'.join(labels)}之和", (), inputs, " + ".join(labels), out, 2 if out == "amount" else 0,
                           _sum_tree(labels), "question", 0)
        a, b = labels[:2]
        return Formula(f"{a}与{b}的差额", (), {a: inputs[a], b: inputs[b]}, f"{a} - {b}", out,
                       2 if out == "amount" else 0, ("-", ("var", a), ("var", b)), "question", 0)

    def answer(self, u: Understanding) -> Answer:
        op = u.frame.operation
        f: Formula | None
        if op == "sum" and len(u.items) == 1 and not u.formulas:
            return self.lookup.answer(u)   # one item over the years asked: their total
        if len(u.years.explicit) > 1:   # a formula for each of several years: not one value
            return declined(u, render(self.t, "declined", words="、".join(f"{y}年" for y in u.years.explicit),
                                      understood=understood(u)))
        if op == "difference" and len(u.items) != 2:
            return declined(u, render(self.t, "declined", words=u.frame.operation_word, understood=understood(u)))
        if u.frame.spelled is not None:
            f = self._spelled_formula(u)
        elif op in ("sum", "difference") and len(u.items) >= 2 and not u.formulas:
            f = self._binary_formula(u)
        elif u.formulas and (u.items or len(u.formulas) > 1):
            # 每股收益和每股净资产, 资产负债率和流动比率: several values, some or all of them computed
            return self.lookup.answer(u)
        else:
            f = self.v.formulas.get(u.formulas[0]) if u.formulas else self._pair_formula(u)
        return self._answer(u, f)

    def _printed_growth(self, u: Understanding, f: Formula, rep, name: str, year: int | None,
                        why: str = "") -> Answer | None:
        """A growth rate of one item ((X − 上年X) / 上年X) whose year before no stored filing holds: the filing's own printed
        change on the same period a year before (an interim filing's 本报告期比上年同期增减变动幅度), said as printed; None
        where the formula is another or the filing prints none."""
        if f.output != "percent" or growth_of(f) is None:
            return None
        item = next(iter(f.inputs.values())).item
        cur = self.v.source.facts(rep, [item], "current").get(item)
        got = self.v.printed_change(rep, item, cur) if cur is not None else None
        if cur is None or got is None:
            return None
        rate = self.v.printed_rate(got, u.decimals)
        text = render(self.t, f"formula_printed_growth_{why}" if why else "formula_printed_growth", company=name,
                      year=year, name=f.name, value=rate, item=item, current=self.v.show(cur),
                      base_year=(year or rep.year) - 1)
        evidence: list[Evidence] = [fact_evidence(cur, self.v.show(cur)),
                                    fact_evidence(got, self.v.show(got), render(self.t, "change_printed_label", item=item))]
        return Answer(u.question, text, u.finglm_type(), "formula", evidence, shown=rate)

    def _which(self, u: Understanding, f: Formula, shown: str | None) -> str:
        """"A和B哪个多": which of the two the difference (A − B, as shown) says it is."""
        word = _which_word(u.frame.operation_word) if u.frame.operation == "difference" and re.match(
            r"哪|谁", u.frame.operation_word or "") else ""
        m = re.search(r"-?\d[\d,]*(?:\.\d+)?", shown or "")
        d = parse_number(m.group(0)) if m else None
        labels = list(f.inputs)
        if not word or d is None or d == 0 or len(labels) != 2:
            return ""
        larger, smaller = (labels[0], labels[1]) if d > 0 else (labels[1], labels[0])
        amount = (shown or "").replace(m.group(0), m.group(0).lstrip("-"), 1) if m else ""
        return render(self.t, "formula_which", which=larger if word in "多高大" else smaller, word=word, amount=amount)

    def _answer(self, u: Understanding, f: Formula | None) -> Answer:
        if f is None:
            return not_found(u, render(self.t, "not_understood"))
        rep, name, year, note = self.v.report(u)
        column = "current"
        if u.frame.period == "opening":
            # 期初 / 上年末 of a value computed from balances only (资产负债率): the formula over the opening
            # column of the year's report; a flow in it has no opening (营业利润率 期初 is declined)
            flows = [i.item for i in f.inputs.values() if not self.v.at_a_date(i.item)]
            if flows or rep is None:
                return declined(u, render(self.t, "opening_flow", item=f.name, word=u.frame.period_word))
            fv = self.v.formula_value(f, rep, u.decimals, reported=False, unit=u.frame.unit, column="previous")
            if fv.problem:
                return Answer(u.question, note + self.v.problem_text(fv.problem, name, year, f.name),
                              u.finglm_type(), fv.method, list(fv.evidence), found=False)
            parts = "，".join(render(self.t, "formula_part", label=e.label, value=e.value) for e in fv.evidence)
            text = render(self.t, "formula", company=name, year=year, name=f"{u.frame.period_word}{f.name}",
                          value=fv.shown or "", expr=f.expr.replace(" ", ""), parts=parts)
            return Answer(u.question, note + text, u.finglm_type(), "formula", list(fv.evidence), shown=fv.shown)
        if rep is None and year is not None:
            # a year without its own report: the previous-period column of the next year's report (said)
            rep = self.v.source.report(self.v.company(u)[0].company.key, year + 1)
            column = "previous"
        if rep is None:
            return not_found(u, render(self.t, "not_found_report", company=name, year=year or ""))
        fv = self.v.formula_value(f, rep, u.decimals, reported=f.file != "question", unit=u.frame.unit, column=column)
        if column == "previous":
            fv.notes.insert(0, render(self.t, "note_previous_column", year=year, report=rep.year))
        per_share = len({i.item for i in f.inputs.values()}) == 1 and all(
            self.v.info(i.item).kind == "per_share" for i in f.inputs.values())
        grows = growth_of(f)
        negative = grows is not None and any(e.label == grows[1] and (parse_number(e.stored or "") or 0) < 0 for e in fv.evidence)
        if (fv.problem or per_share or negative) and column == "current":
            # (a base no stored filing holds; a per-share figure's change, which the filing computes from its unrounded
            # values; a negative base, whose sign the formula turns: the printed change, where the filing prints one)
            as_printed = self._printed_growth(u, f, rep, name, year,
                                              "" if fv.problem else "negative" if negative else "per_share")
            if as_printed is not None:
                return as_printed
        if fv.problem:
            return Answer(u.question, note + self.v.problem_text(fv.problem, name, year, f.name), u.finglm_type(),
                          fv.method, list(fv.evidence), found=False)
        if fv.method == "lookup":
            text = render(self.t, "lookup", company=name, year=year, item=f.name, value=fv.shown)
            return Answer(u.question, note + text, u.finglm_type(), "lookup", list(fv.evidence), shown=fv.shown)
        parts = "，".join(render(self.t, "formula_part", label=e.label, value=e.value) for e in fv.evidence)
        shown = (fv.shown or "") + ("倍" if "倍" in u.ratio and f.output == "ratio" else "")
        if f.output == "ratio" and not u.ratio and (u.decimals is None and f.file == "question"
                                                    or re.search(r"比例|占比|比重", f.name)) \
                and self.v.style != "finglm" and re.fullmatch(r"-?0\.\d+", shown) and all(
                    self.v.info(i.item).kind in ("amount", "count") and "股本" not in i.item
                    for i in f.inputs.values()):
            # "(研发费用+管理费用)/营业收入", a 比例 of the formulas ("硕士及以上人员占职工人数的比例"): a quotient of
            # amounts or head counts under 1 also as the percent it is (0.02 is 1.52%), unless a 比值 or 倍 is
            # asked — never 流动比率's kind, nor one over the share capital (净利润/股本: 元 a share)
            pct = self.v.formula_value(replace(f, output="percent"), rep, None, reported=False,
                                       unit=u.frame.unit, column=column).shown
            if pct:
                shown += f"（{pct}）"
        text = render(self.t, "formula", company=name, year=year, name=f.name, value=shown,
                      expr=f.expr.replace(" ", ""), parts=parts)
        text += self._which(u, f, fv.shown)
        notes = list(fv.notes) + [d for i in f.inputs.values() for d in self.v.definition(i.item)]
        evidence: list[Evidence] = list(fv.evidence)
        printed = self.v.source.fact(rep, f.printed, column) if f.printed and u.frame.spelled is None else None
        if printed is not None and printed.number is not None:
            # the measure as the report prints it on its own basis (加权平均净资产收益率), beside the computed one
            shown_printed = self.v.show(printed)
            notes.append(render(self.t, "note_printed", item=f.printed, value=shown_printed,
                                page=printed.page or "-"))
            evidence.append(fact_evidence(printed, shown_printed))
        if f.file == "question" and u.frame.spelled is not None:
            notes.append(render(self.t, "note_spelled", words=u.frame.spelled_text))
        if u.frame.unit and f.output == "amount":
            notes.append(unit_note(self.t, u.frame))
        text += interpretation(self.t, notes)
        return Answer(u.question, note + text, u.finglm_type(), "formula", evidence, shown=fv.shown)


def _which_word(word: str) -> str:
    return next((c for c in reversed(word) if c in "多高大少低小"), "")


def _sum_tree(labels: list[str]) -> tuple:
    """The sum of the labels, a label written "-X" subtracted."""
    first = labels[0]
    tree: tuple = ("neg", ("var", first[1:])) if first.startswith("-") else ("var", first)
    for lbl in labels[1:]:
        tree = ("-", tree, ("var", lbl[1:])) if lbl.startswith("-") else ("+", tree, ("var", lbl))
    return tree


def _terms(labels: list[str]) -> str:
    """The labels as the expression prints them: "流动资产合计 - 存货"."""
    out = ""
    for i, lbl in enumerate(labels):
        sign = "-" if lbl.startswith("-") else "+"
        out += (f" {sign} " if i else ("-" if sign == "-" else "")) + lbl.lstrip("-")
    return out
