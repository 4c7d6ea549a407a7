"""Key disclosures (keyword_tables/disclosures.yaml) → facts of the report (statement 重要事项, with page).

A page's text is read with its lines joined and spaces removed ("每 10 股派发现金红利 0.84 元" → "每10股派发
现金红利0.84元"; a sentence wrapped over two lines reads on). Each item's rules are tried in order, the
pages in order within a rule: the first match gives the fact — a rule for the definite form (a ticked box
"√本年度公司无重大诉讼、仲裁事项", the 审计意见类型 row) before the looser sentence forms.
"""
from __future__ import annotations

import re

from ..catalog.disclosures import Disclosure
from ..numbers import decimal_str, parse_number, to_yuan
from .pages import Document
from .profile import ProfileFact
from .tables import Table

STATEMENT = "重要事项"


def extract_disclosures(doc: Document, specs: tuple[Disclosure, ...], tables: list[Table] | None = None) -> list[ProfileFact]:
    texts = [(p.number, "".join(line.text.replace(" ", "").replace("\u3000", "") for line in p.lines))
             for p in doc.pages]
    # the report's body before its financial statements and notes first: a disclosure the notes repeat
    # (实际控制人名称 in 关联方情况) is cited where the report discloses it
    notes = next((i for i, (_, t) in enumerate(texts) if _STATEMENTS.search(t)), len(texts))
    out: list[ProfileFact] = []
    for spec in specs:
        fact = _first(spec, texts[:notes], doc, tables or []) or _first(spec, texts, doc, tables or [])
        if fact is not None:
            out.append(fact)
    return out


_STATEMENTS = re.compile(r"合并资产负债表|合并及银行资产负债表")


def _table_column(tables: list[Table], number: int, header: re.Pattern, ends: re.Pattern) -> tuple[str, str] | None:
    """(header, value(s)) of the column of a table on the page whose header (its lines merged: "实际控制人" /
    "名称") the rule names: the body rows' cells that end as a whole value does, listed."""
    for t in tables:
        if not t.page_start <= number <= t.page_end:
            continue
        for k, h in enumerate(t.header):
            printed = re.sub(r"\s", "", h)
            if not header.fullmatch(printed):
                continue
            values = [re.sub(r"(?<=[\u4e00-\u9fff])\s+|\s+(?=[\u4e00-\u9fff])", "", r[k].strip())
                      for r in t.rows if k < len(r) and r[k].strip()]
            whole = [v for v in values if ends.search(v)]
            if whole and len(whole) == len(values):
                return printed, "、".join(dict.fromkeys(whole))
    return None


def _column_value(doc: Document, number: int, header: re.Pattern, ends: re.Pattern) -> tuple[str, str] | None:
    """(header, value(s)): the value(s) printed below a table's header cell (控股股东名称 | 法定代表人 | 成立日期 …): the rows'
    leftmost cells no further right than the header, joined while a value wraps ("张家界市人民政府国有资产监"
    / "督管理委员会") until it ends as a whole value does; several one-line values (three 实际控制人姓名
    rows) are listed. Header fragments of other columns ("单位负责人") and other columns' text are skipped."""
    rows = doc.table_rows(number)
    for i, row in enumerate(rows):
        if not row.cells:
            continue
        printed = row.cells[0].text.replace(" ", "")
        if not header.fullmatch(printed):
            # a header cell wrapped in its column ("控股股东名" … "称"): its last line within the next rows, a few
            # characters under it
            x0 = row.cells[0].x0
            tail = next((c.text.replace(" ", "") for r in rows[i + 1:i + 4] for c in r.cells
                         if x0 - 2 <= c.x0 <= x0 + 40 and len(c.text.strip()) <= 3), "")
            if not tail or not header.fullmatch(printed + tail):
                continue
            printed += tail
        limit = row.cells[0].x0 + 8
        values: list[str] = []
        part = ""
        for r in rows[i + 1:i + 16]:
            if not r.cells or r.cells[0].x0 > limit:
                continue
            text = r.cells[0].text.strip()
            if re.search(r"[\u4e00-\u9fff]", text):
                text = text.replace(" ", "")  # a Chinese name has no spaces; "HONGBO YAO" keeps its
            if _HEADER_BIT.search(text):
                continue
            part += text
            if ends.search(part):
                values.append(part)
                part = ""
                continue
            if values or len(part) > 40:
                break
        if values:
            return printed, "、".join(values)
    return None


def _sentence(text: str, start: int, end: int, reach: int = 60) -> str:
    """The sentence of the page's text holding a match, what the answer quotes: reaching out to a sentence
    end at most `reach` characters either side — else no further than the match on that side (a table's
    cells run together have none)."""
    left = max((m.end() for m in _STOP.finditer(text, max(0, start - reach), start)), default=start)
    right = _STOP.search(text, end, min(len(text), end + reach))
    if right is None:
        # (a parenthesis right after the match is the match's own: "每股派发现金红利27.993元（含税）")
        paren = _PAREN_AFTER.match(text, end)
        return text[left:paren.end() if paren else end]
    return text[left:right.end()]


_STOP = re.compile(r"[。；！？]")
_PAREN_AFTER = re.compile(r"[（(][^（）()。；，,]{1,8}[）)]")
_HEADER_BIT = re.compile(r"负责人$|留权$|^国籍|^成立日期|^注册资本|^持股比例|^与实际控制人关系")


def _first(spec: Disclosure, texts: list[tuple[int, str]], doc: Document | None = None,
           tables: list[Table] | None = None) -> ProfileFact | None:
    for rule in spec.rules:
        limit = rule.pages or spec.pages
        pages = texts[:limit] if limit else texts
        if rule.column:
            ends = re.compile(rule.value or "$")
            for number, text in pages:
                # the table whose header (its lines merged) names the column, else the positioned rows below
                # the header cell when the page's text names it
                found = _table_column(tables or [], number, rule.pattern, ends)
                if found is None and doc is not None and rule.pattern.search(text):
                    found = _column_value(doc, number, rule.pattern, ends)
                if found and found[1]:
                    # (quoted as the table prints it: its header cell, then the value(s) below it)
                    return ProfileFact(spec.item, found[1], None, STATEMENT, number, f"{found[0]}：{found[1]}")
            continue
        for number, text in pages:
            m = rule.pattern.search(text)
            if m is None:
                continue
            raw = _sentence(text, m.start(), m.end())
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
