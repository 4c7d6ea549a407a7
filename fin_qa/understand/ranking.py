"""What a statistics question asks besides its item: rank or count, order, top-N, n-th, a threshold
and a place filter — read with the cues of rules/understanding.yaml `statistics:`.

"2019年营业收入最高的前5家公司" (rank, descending, top 5), "第3高" (n-th), "最低" (ascending),
"2020年负债合计大于五亿的有多少家" (count, > 500000000), "500万元以上" (>=), "注册地址在上海的公司中…"
(place 上海 on 注册地址; "总部/办公…" filters 办公地址; a place without a field word filters both).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from ..catalog.understanding import StatisticsCues
from ..numbers import SCALES, cn_number



def scale(num: Decimal, unit: str | None) -> Decimal:
    """A number written with a scale word (万, 亿 …) in units."""
    return num * SCALES.get(unit or "", 1)


@dataclass
class Ranking:
    mode: str                   # rank | count
    descending: bool = True
    top: int = 1
    top_asked: bool = False          # 前N / 最高的N家 was said (else a threshold lists every company)
    every: bool = False              # the whole order asked (从高到低排个序, no N, no 最): every company
    kind: tuple[str, bool, str] | None = None   # a kind of company left out or kept: (kind, keep, as written)
    nth: int | None = None
    op: str | None = None       # > < >= <=
    threshold: Decimal | None = None
    threshold_text: str = ""
    place_field: str | None = None   # 注册地址 | 办公地址 | None (either)
    place: str | None = None
    place_loose: bool = False        # a bare place word: a filter only when some company's address names it
    place_unknown: str = ""          # a bare place word no address names (set when the filter is tried)
    percent: bool = False            # the threshold was written with % (points: 20% → 20)
    spans: list[tuple[int, int]] = field(default_factory=list)   # the question's characters these cues used


def read_ranking(q: str, cues: StatisticsCues) -> Ranking:
    count = cues.count.search(q)
    r = Ranking("count" if count else "rank")
    if count:
        r.spans.append(count.span())
    low = next((w for w in cues.ascending if w in q), None)
    high = next((w for w in cues.descending if w in q), None)
    for w in (low, high):
        if w:
            r.spans.append((q.find(w), q.find(w) + len(w)))
    if low and (not high or q.find(low) < q.find(high)):
        r.descending = False
    guarded: list[tuple[int, int]] = []   # (the spans of the count asked and of a kind: never a place's)
    m = cues.top.search(q) or cues.extreme_n.search(q)
    if m:
        # 哪几家 / 前几名: several, as many as the rules say
        r.top = cues.several if m.group(1) == "几" else max(1, int(cn_number(m.group(1)) or 1))
        r.top_asked = True
        r.spans.append(m.span())
        # the same count said again ("营收排名前二的是哪两家公司"): its words are read too
        r.spans += [x.span() for x in cues.top.finditer(q) if x.span() != m.span()
                    and (x.group(1) == "几" or int(cn_number(x.group(1)) or 0) == r.top)]
        guarded += [x.span() for x in cues.top.finditer(q)] + [m.span()]
    m = cues.companies_n.search(q) if cues.companies_n is not None and not r.top_asked else None
    if m and (cn_number(m.group(1)) or 0) >= 2:
        # "排在最前面的三家公司": N companies said, no top word — never the first alone
        r.top, r.top_asked = int(cn_number(m.group(1)) or 2), True
        r.spans.append(m.span())
        guarded.append(m.span())
    m = cues.nth.search(q)
    if m:
        r.nth = max(1, int(cn_number(m.group(1)) or 1))
        r.spans.append(m.span())
    for rx, kind, keep, said in cues.kinds:
        m = rx.search(q)
        if m:   # "非银行", "银行除外": a kind of company left out (kept: "各家银行中")
            r.kind = (kind, keep, said or m.group(0))
            r.spans.append(m.span())
            guarded.append(m.span())
            break
    m = cues.every.search(q) if cues.every is not None else None
    if m and not r.top_asked and not r.nth and not any(w.startswith("最") and w in q for w in (*cues.descending, *cues.ascending)):
        # "各公司利润总额从高到低怎么排", "按归母净利润从高到低排个序": the whole order, every company
        r.every = True
        r.spans.append(m.span())
    r.spans += [m.span() for m in cues.rank_words.finditer(q)]
    m = cues.threshold.search(q)
    if m:
        r.spans.append(m.span())
        op = next(o for w, o in cues.ops if w == m.group(1))
        num = cn_number(m.group(2))
        if num is not None:
            r.op, r.threshold = op, scale(num, m.group(3))
            r.threshold_text = m.group(0)
    else:
        m = cues.threshold_after.search(q)
        num = cn_number(m.group(1)) if m else None
        if m and num is not None:
            r.spans.append(m.span())
            r.op = ">=" if m.group(4) == "以上" else "<="
            r.threshold = scale(num, m.group(2))
            r.threshold_text = m.group(0)
    r.percent = r.threshold is not None and "%" in r.threshold_text
    for rx in cues.places:
        m = rx.search(q)
        if m and any(m.start("place") < b and a < m.end("place") for a, b in guarded):
            continue   # (words a count or a kind read — "排在前三位的", "在2019年的非银行上市公司里" — are no place)
        if m:
            fld = m.groupdict().get("field")
            if fld:
                r.place_field = "办公地址" if fld.startswith(cues.office_words) else "注册地址"
            r.place = m.group("place")
            r.place_loose = "loose" in rx.groupindex and m.group("loose") is not None
            r.spans.append(m.span())
            break
    return r
