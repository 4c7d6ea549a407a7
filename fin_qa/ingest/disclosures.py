"""Key disclosures (keyword_tables/disclosures.yaml) → facts of the report (statement 重要事项, with page).

A page's text is read with its lines joined and spaces removed ("每 10 股派发现金红利 0.84 元" → "每10股派发
现金红利0.84元"; a sentence wrapped over two lines reads on). Each item's rules are tried in order, the
pages in order within a rule: the first match gives the fact — a rule for the definite form (a ticked box
"√本年度公司无重大诉讼、仲裁事项", the 审计意见类型 row) before the looser sentence forms.
"""
from __future__ import annotations

from ..catalog.disclosures import Disclosure
from ..numbers import decimal_str, parse_number, to_yuan
from .pages import Document
from .profile import ProfileFact

STATEMENT = "重要事项"


def extract_disclosures(doc: Document, specs: tuple[Disclosure, ...]) -> list[ProfileFact]:
    texts = [(p.number, "".join(line.text.replace(" ", "").replace("\u3000", "") for line in p.lines))
             for p in doc.pages]
    out: list[ProfileFact] = []
    for spec in specs:
        pages = texts[: spec.pages] if spec.pages else texts
        fact = _first(spec, pages)
        if fact is not None:
            out.append(fact)
    return out


def _first(spec: Disclosure, pages: list[tuple[int, str]]) -> ProfileFact | None:
    for rule in spec.rules:
        for number, text in pages:
            m = rule.pattern.search(text)
            if m is None:
                continue
            raw = m.group(0)
            if spec.kind == "yesno":
                return ProfileFact(spec.item, rule.value or "", None, STATEMENT, number, raw)
            value = m.group("v")
            if spec.kind in ("per_share", "amount"):
                num = parse_number(value)
                if num is None:
                    continue
                if spec.kind == "amount":  # in 元, by the unit printed with it (182.83亿元)
                    unit = m.groupdict().get("u") or "元"
                    return ProfileFact(spec.item, decimal_str(to_yuan(num, unit)), "元", STATEMENT, number, raw)
                return ProfileFact(spec.item, decimal_str(num), spec.unit, STATEMENT, number, raw)
            return ProfileFact(spec.item, spec.values.get(value, value), None, STATEMENT, number, raw)
    return None
