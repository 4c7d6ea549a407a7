"""Statistics across the companies of the corpus (or of --scope): rank and count.

"2019年营业收入最高的前5家公司", "第3高", "最低", "2020年负债合计大于五亿的有多少家", "注册地址在上海的公司中…".
Values come from the facts (pandas, one column per item and year) or from a formula computed per
report; ties keep the order of stock codes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

import pandas as pd

from ..numbers import cn_number
from .compose import format_result, format_value, render

_NUM = r"[0-9.]+|[零〇一二两三四五六七八九十百千万亿]+"
_OPS = {
    ">=": ("不低于", "不少于", "至少", "不小于"),
    "<=": ("不高于", "不超过", "至多", "不大于"),
    ">": ("大于", "超过", "高于", "多于"),
    "<": ("小于", "低于", "少于", "不足", "不到"),
}
_OP_WORDS = sorted(((w, op) for op, ws in _OPS.items() for w in ws), key=lambda x: -len(x[0]))
_THRESHOLD = re.compile(
    r"(" + "|".join(w for w, _ in _OP_WORDS) + r")\s*(" + _NUM + r")\s*(千万|百万|亿|万|千)?\s*(元|%|人|家)?"
)
_THRESHOLD_AFTER = re.compile(r"(" + _NUM + r")\s*(千万|百万|亿|万|千)?\s*(元|%|人)?\s*(以上|以下)")
_TOP = re.compile(r"前\s*(" + _NUM + r")\s*(?:名|家|位|个)?")
_EXTREME_N = re.compile(r"(?:最高|最低|最多|最少|最大|最小)的?\s*(" + _NUM + r")\s*(?:家|个|名|位)")
_NTH = re.compile(r"第\s*(" + _NUM + r")\s*(?:高|低|多|少|大|小|名|位)?")
_PLACE = [
    re.compile(r"(注册地址|办公地址|注册地|办公地|总部)(?:均)?(?:在|位于|为|是|属于|设在)?([\u4e00-\u9fff]{2,8}?)(?:省|市|自治区)?(?:的|，|,|且|并且|、|中|内)"),
    re.compile(r"(?:位于|地处|来自|总部在|在)([\u4e00-\u9fff]{2,4}?)(?:省|市)?(?:的)(?:上市)?(?:公司|企业)"),
]
_DESC = ("最高", "最多", "最大", "高", "多", "大")
_ASC = ("最低", "最少", "最小", "低", "少", "小")


def _scale(num: Decimal, unit: str | None) -> Decimal:
    return num * {"千万": 10 ** 7, "百万": 10 ** 6, "亿": 10 ** 8, "万": 10 ** 4, "千": 1000}.get(unit or "", 1)


@dataclass
class Query:
    target: str                 # item or formula name
    is_formula: bool
    year: int
    mode: str                   # rank | count
    descending: bool = True
    top: int = 1
    nth: int | None = None
    op: str | None = None
    threshold: Decimal | None = None
    threshold_text: str = ""
    place_field: str | None = None
    place: str | None = None


class Statistics:
    def __init__(self, engine):
        self.e = engine

    def parse(self, u) -> Query | None:
        q = u.norm
        formulas, items = u.formulas, [i for i in u.items if self.e._info(i).kind != "text"]
        if not formulas and not items:
            return None
        target, is_formula = (formulas[0], True) if formulas else (items[0], False)
        year = u.years.asked or max((r["year"] for r in self.e.source.reports), default=None)
        if year is None:
            return None
        mode = "count" if re.search(r"多少家|几家|多少个(?:上市)?(?:公司|企业)|(?:公司|企业)(?:的)?(?:数量|数目|个数)", q) else "rank"
        query = Query(target, is_formula, year, mode)
        low = next((w for w in _ASC if w in q), None)
        high = next((w for w in _DESC if w in q), None)
        if low and (not high or q.find(low) < q.find(high)):
            query.descending = False
        m = _TOP.search(q) or _EXTREME_N.search(q)
        if m:
            query.top = max(1, int(cn_number(m.group(1)) or 1))
        m = _NTH.search(q)
        if m:
            query.nth = max(1, int(cn_number(m.group(1)) or 1))
        m = _THRESHOLD.search(q)
        if m:
            op = next(o for w, o in _OP_WORDS if w == m.group(1))
            num = cn_number(m.group(2))
            if num is not None:
                query.op, query.threshold = op, _scale(num, m.group(3))
                query.threshold_text = m.group(0)
        else:
            m = _THRESHOLD_AFTER.search(q)
            num = cn_number(m.group(1)) if m else None
            if num is not None:
                query.op = ">=" if m.group(4) == "以上" else "<="
                query.threshold = _scale(num, m.group(2))
                query.threshold_text = m.group(0)
        if query.threshold is not None and "%" in query.threshold_text:
            query.threshold = query.threshold / 100
        for rx in _PLACE:
            m = rx.search(q)
            if m:
                if m.lastindex == 2:
                    field = "办公地址" if m.group(1).startswith(("办公", "总部")) else "注册地址"
                    query.place_field, query.place = field, m.group(2)
                else:
                    query.place = m.group(1)
                break
        return query

    def values(self, query: Query) -> pd.DataFrame:
        src = self.e.source
        if not query.is_formula:
            df = src.column(query.target, query.year)
            df["dec"] = [Decimal(v) for v in df["value"]]
        else:
            f = self.e.formulas.get(query.target)
            rows = []
            for rep in src.reports:
                if rep["year"] != query.year:
                    continue
                value, evidence, missing, _, error = self.e.compute(f, rep)
                if value is None:
                    continue
                rows.append({"report_id": rep["id"], "company": rep["company"], "short_name": rep["short_name"],
                             "full_name": rep["full_name"], "dec": value, "num": float(value),
                             "page": None, "source": "formula"})
            df = pd.DataFrame(rows, columns=["report_id", "company", "short_name", "full_name", "dec", "num",
                                             "page", "source"])
        if query.place and not df.empty:
            fields = [query.place_field] if query.place_field else ["注册地址", "办公地址"]
            keep: set[int] = set()
            for fld in fields:
                addr = src.text_column(fld, query.year)
                keep |= {rid for rid, v in addr.items() if query.place in (v or "")}
            df = df[df["report_id"].isin(keep)]
        return df

    def _show(self, query: Query, d: Decimal) -> str:
        if query.is_formula:
            f = self.e.formulas.get(query.target)
            return format_result(d, f.output, f.decimals, self.e.style)
        info = self.e._info(query.target)
        return format_value(d, info.kind, self.e.style, info.unit)

    def answer(self, u):
        from .engine import Answer

        t = self.e.t
        query = self.parse(u)
        if query is None:
            return Answer(u.question, render(t, "not_understood"), "2-1", "not_found", found=False)
        df = self.values(query)
        scope = f"注册地址在{query.place}的" if query.place and query.place_field == "注册地址" else (
            f"办公地址在{query.place}的" if query.place and query.place_field else (f"{query.place}的" if query.place else ""))
        label = query.target
        if df.empty:
            return Answer(u.question, render(t, "not_found_value", company=scope or "各公司", year=query.year,
                                             item=label), "2-1", "not_found", found=False)
        df = df.sort_values(["num", "company"], ascending=[not query.descending, True], kind="stable")
        if query.mode == "count" or query.op:
            if query.op:
                ops = {">": df["num"] > float(query.threshold), "<": df["num"] < float(query.threshold),
                       ">=": df["num"] >= float(query.threshold), "<=": df["num"] <= float(query.threshold)}
                hit = df[ops[query.op]]
            else:
                hit = df
            if query.mode == "count":
                names = [r.short_name or r.full_name for r in hit.itertuples()]
                examples = ("：" + "、".join(names)) if 0 < len(names) <= 10 else ""
                text = render(t, "count", year=query.year, scope=scope, item=label,
                              condition=query.threshold_text, n=len(hit), examples=examples)
                evidence = [self._evidence(query, r) for r in hit.head(10).itertuples()]
                return Answer(u.question, text, "2-1", "statistics", evidence)
            df = hit
        if query.nth:
            chosen = df.iloc[query.nth - 1: query.nth]
            start = query.nth
        else:
            chosen = df.head(query.top)
            start = 1
        if chosen.empty:
            return Answer(u.question, render(t, "not_found_value", company=scope or "各公司", year=query.year,
                                             item=label), "2-1", "not_found", found=False)
        parts = "；".join(render(t, "rank_part", rank=start + i, company=r.short_name or r.full_name,
                                 value=self._show(query, r.dec)) for i, r in enumerate(chosen.itertuples()))
        order = ("最高的" if query.descending else "最低的") if not query.nth else \
            f"第{query.nth}{'高' if query.descending else '低'}的"
        if query.top > 1 and not query.nth:
            order += f"前{query.top}家"
        text = render(t, "rank", year=query.year, scope=scope, item=label, order=order, parts=parts)
        return Answer(u.question, text, "2-1", "statistics", [self._evidence(query, r) for r in chosen.itertuples()])

    def _evidence(self, query: Query, r) -> dict:
        return {"item": query.target, "company": r.short_name or r.full_name, "year": query.year,
                "value": self._show(query, r.dec), "page": None if pd.isna(r.page) else int(r.page), "source": r.source}

