"""Statistics across the companies of the corpus (or of --scope): rank and count.

"2019年营业收入最高的前5家公司", "第3高", "最低", "2020年负债合计大于五亿的有多少家", "注册地址在上海的公司中…".
What is asked (rank or count, order, top-N, n-th, threshold, place) is the Understanding's `ranking`
(understand/ranking.py, cues in rules/understanding.yaml). Values come from the facts (pandas, one
column per item and year) or from a formula computed per report; ties keep the order of stock codes.
"""
from __future__ import annotations

import re
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import pandas as pd

from ..understand.question import Understanding
from ..understand.ranking import Ranking
from .compose import format_result, format_value, render, round_half_up
from .model import Answer, FactEvidence
from .values import Values, display_name

if TYPE_CHECKING:
    from ..catalog.checks import CheckRules
    from ..catalog.disclosures import Disclosure

_COLUMNS = ["report_id", "company", "short_name", "full_name", "dec", "num", "page", "source"]


LIST_LIMIT = 20  # companies named in a threshold list ("超过10亿元的公司有哪些"); the rest are counted


class StatisticsAnswerer:
    # the frame's operations and periods this answerer implements (the router declines any other)
    operations = frozenset({"value", "average"})
    periods = frozenset({None, "closing", "current"})

    def __init__(self, values: Values, disclosures: "tuple[Disclosure, ...]" = (), kinds: "CheckRules | None" = None):
        self.v = values
        self.kinds = kinds   # (rules/checks.yaml: the kind of company a name says — 银行, 保险, 证券)
        self.t = values.t
        self.places = values.places
        # key disclosures with text or yes/no values: companies are filtered by them, not ranked
        self.disclosures = {d.item: d for d in disclosures if d.kind in ("text", "yesno")}

    def _filtered(self, u: Understanding) -> Answer | None:
        """"哪些公司2019年审计意见为非标准意见", "2019年属于重点排污单位的公司有几家": the companies whose key
        disclosure (keyword_tables/disclosures.yaml) is the value asked — a group of values (非标准), a
        stored value, a yes/no (不属于/没有… asks 否), or the words after 是/为 ("会计师事务所为天健的公司").
        Said over the companies whose report the disclosure was read from. None: no such item asked."""
        item = next((i for i in u.items if i in self.disclosures), None)
        r = u.ranking
        if item is None or r is None:
            return None
        d = self.disclosures[item]
        year = u.years.asked or max((rep.year for rep in self.v.source.reports), default=None)
        if year is None:
            return None
        said = self.v.source.text_column(item, year)
        words = next((k.text for k in u.keywords if k.name == item), item)
        if d.kind == "yesno":
            word = "否" if re.search(r"(?:不|没有|无|未)(?:属于|是|存在|发生|涉及)?(?:的)?" + re.escape(words), u.norm) else "是"
            hit = [rid for rid, v in said.items() if v == word]
        else:
            word = next((p for p in d.phrases() if p in u.norm), "")
            if not word:
                m = re.search(r"(?:是|为|属于)([^，。？?、的]{2,20})的?(?:公司|企业|上市公司)", u.norm)
                word = m.group(1) if m else ""
            if not word:
                return Answer(u.question, render(self.t, "not_understood"), u.finglm_type(), "not_found", found=False)
            hit = [rid for rid, v in said.items() if d.holds(v, word)]
        reports = {rep.id: rep for rep in self.v.source.reports}
        rows = sorted((reports[rid] for rid in hit if rid in reports), key=lambda rep: str(rep.company))
        names = [self._name(rep) for rep in rows]
        shown = "：" + "、".join(names[:LIST_LIMIT]) + (render(self.t, "threshold_more", n=len(names) - LIST_LIMIT)
                                                     if len(names) > LIST_LIMIT else "") if names else ""
        text = render(self.t, "disclosure_filter", year=year, item=item, value=word, n=len(names), examples=shown,
                      total=len(said))
        return Answer(u.question, text, u.finglm_type(), "statistics",
                      [FactEvidence(item, said[rep.id], year, None, "disclosure", company=rep.short_name or rep.full_name,
                                    report=rep.key) for rep in rows[:10]])

    def _target(self, u: Understanding) -> tuple[str, bool] | None:
        """(item or formula name, is a formula) the question ranks by."""
        items = [i for i in u.items if self.v.info(i).kind != "text"]
        if u.formulas:
            return u.formulas[0], True
        if items:
            return items[0], False
        return None

    def values(self, target: str, is_formula: bool, year: int, r: Ranking) -> pd.DataFrame:
        src = self.v.source
        if not is_formula:
            df = src.column(target, year)
            df["dec"] = [Decimal(v) for v in df["value"]]
        else:
            f = self.v.formulas.get(target)
            rows: list[dict[str, Any]] = []
            for rep in src.reports:
                if f is None or rep.year != year:
                    continue
                value = self.v.compute(f, rep).value
                if value is None:
                    continue
                rows.append({"report_id": rep.id, "company": rep.company, "short_name": rep.short_name,
                             "full_name": rep.full_name, "dec": value, "num": float(value),
                             "page": None, "source": "formula"})
            df = pd.DataFrame(rows, columns=_COLUMNS)
        if r.kind is not None and not df.empty:
            # a kind of company left out or kept (rules/checks.yaml essentials: its names say it — 银行, 保险, 证券)
            kind, kept, _ = r.kind
            of_kind = {row.report_id for row in df.itertuples() if self._kind(row) == kind}
            df = df[df["report_id"].isin(of_kind) == kept]
        if r.place and not df.empty:
            fields = [r.place_field] if r.place_field else ["注册地址", "办公地址"]
            keep: set[int] = set()
            for fld in fields:
                addr = src.text_column(fld, year)
                keep |= {rid for rid, v in addr.items() if self.places.holds(v, r.place)}
            if keep or not r.place_loose:
                df = df[df["report_id"].isin(keep)]
            else:
                # "2019年营业收入的公司": no address names it, so it was no place (answer() declines one
                # that is no item's words either: "两家火星公司")
                r.place_unknown, r.place = r.place, None
        return df

    def _kind(self, row: Any) -> str:
        """The kind of a report's company by its names (rules/checks.yaml essentials; general when none says)."""
        e = self.kinds.kind_of(f"{row.full_name or ''} {row.short_name or ''}", set()) if self.kinds else None
        return e.kind if e is not None else "general"

    def _show(self, target: str, is_formula: bool, d: Decimal) -> str:
        f = self.v.formulas.get(target) if is_formula else None
        if f is not None:
            return format_result(d, f.output, f.decimals, self.v.style)
        info = self.v.info(target)
        return format_value(d, info.kind, self.v.style, info.unit)

    def _name(self, row: Any) -> str:
        """finglm: the registered full name (the contest's references); human: 简称（全称，代码）."""
        short = row.short_name or row.full_name
        if self.v.style == "finglm":
            return row.full_name or short
        return display_name(short, row.full_name, row.company if str(row.company).isdigit() else None)

    def answer(self, u: Understanding) -> Answer:
        t = self.t
        target = self._target(u)
        if target is None:
            filtered = self._filtered(u)
            if filtered is not None:
                return filtered
        year = u.years.asked or max((rep.year for rep in self.v.source.reports), default=None)
        r = u.ranking
        if target is None or year is None or r is None:
            return Answer(u.question, render(t, "not_understood"), u.finglm_type(), "not_found", found=False)
        name, is_formula = target
        asked = [i for i in u.items if self.v.info(i).kind != "text"] + u.formulas
        if len(asked) > 1:
            # "营业收入最高的公司的净利润": ranked by one value, another asked — not one ranking
            return Answer(u.question, render(t, "declined", words="、".join(asked[1:]), understood=asked[0]),
                          u.finglm_type(), "declined", found=False)
        df = self.values(name, is_formula, year, r)
        unknown = r.place_unknown
        if unknown and not any(unknown in w or w in unknown for w in u.item_words.values()):
            return Answer(u.question, render(t, "declined", words=unknown, understood=name), u.finglm_type(),
                          "declined", found=False)
        scope = f"注册地址在{r.place}的" if r.place and r.place_field == "注册地址" else (
            f"办公地址在{r.place}的" if r.place and r.place_field else (f"{r.place}的" if r.place else ""))
        if r.kind is not None:
            scope += f"（{r.kind[2]}）"
        if df.empty:
            return Answer(u.question, render(t, "not_found_value", company=scope or "各公司", year=year, item=name),
                          u.finglm_type(), "not_found", found=False)

        keys = self.v.source.keys

        def evidence(row: Any) -> FactEvidence:
            return FactEvidence(name, self._show(name, is_formula, row.dec), year,
                                None if pd.isna(row.page) else int(row.page), row.source,
                                company=row.short_name or row.full_name, report=keys.get(row.report_id),
                                stored=None if is_formula else str(row.dec))

        df = df.sort_values(["num", "company"], ascending=[not r.descending, True], kind="stable")
        if u.frame.operation == "average":
            if r.op and r.threshold is not None:
                return Answer(u.question, render(t, "declined", words=r.threshold_text, understood=name),
                              u.finglm_type(), "declined", found=False)
            mean = sum(df["dec"], Decimal(0)) / len(df) if len(df) else Decimal(0)
            if not is_formula:
                mean = round_half_up(mean, 2)
            text = render(t, "average", year=year, scope=scope, item=name, value=self._show(name, is_formula, mean),
                          n=len(df))
            return Answer(u.question, text, u.finglm_type(), "statistics", [evidence(row) for row in df.head(10).itertuples()])
        if r.mode == "count" or r.op:
            if r.op and r.threshold is not None:
                limit = float(r.threshold)
                if r.percent and is_formula:
                    limit /= 100   # a computed percent is a ratio (0.2); a stated %-item is in points (20)
                ops = {">": df["num"] > limit, "<": df["num"] < limit, ">=": df["num"] >= limit, "<=": df["num"] <= limit}
                hit = df[ops[r.op]]
            else:
                hit = df
            if r.mode == "count":
                names = [self._name(row) for row in hit.itertuples()]
                examples = ("：" + "、".join(names)) if 0 < len(names) <= 10 else ""
                text = render(t, "count", year=year, scope=scope, item=name, condition=r.threshold_text, n=len(hit),
                              examples=examples)
                return Answer(u.question, text, u.finglm_type(), "statistics", [evidence(row) for row in hit.head(10).itertuples()])
            df = hit
            if r.op and r.threshold is not None and not r.top_asked and not r.nth:
                # "营业收入超过10亿元的公司有哪些": every company past the threshold, not the first of them
                if df.empty:
                    return Answer(u.question, render(t, "count", year=year, scope=scope, item=name,
                                                     condition=r.threshold_text, n=0, examples=""),
                                  u.finglm_type(), "statistics", [])
                shown = df.head(LIST_LIMIT)
                parts = "；".join(render(t, "rank_part", rank=i + 1, company=self._name(row),
                                         value=self._show(name, is_formula, row.dec))
                                  for i, row in enumerate(shown.itertuples()))
                more = render(t, "threshold_more", n=len(df) - len(shown)) if len(df) > len(shown) else ""
                text = render(t, "threshold_list", year=year, scope=scope, item=name, condition=r.threshold_text,
                              n=len(df), parts=parts, more=more)
                return Answer(u.question, text, u.finglm_type(), "statistics",
                              [evidence(row) for row in shown.itertuples()])
        if r.nth:
            chosen = df.iloc[r.nth - 1: r.nth]
            start = r.nth
        elif r.every:
            chosen = df.head(LIST_LIMIT)   # (the whole order asked: every company holding the value)
            start = 1
        else:
            chosen = df.head(r.top)
            start = 1
        if chosen.empty:
            return Answer(u.question, render(t, "not_found_value", company=scope or "各公司", year=year, item=name),
                          u.finglm_type(), "not_found", found=False)
        parts = "；".join(render(t, "rank_part", rank=start + i, company=self._name(row),
                                 value=self._show(name, is_formula, row.dec)) for i, row in enumerate(chosen.itertuples()))
        order = ("最高的" if r.descending else "最低的") if not r.nth else f"第{r.nth}{'高' if r.descending else '低'}的"
        if r.top > 1 and not r.nth:
            order += f"前{r.top}家"
        if r.every and not r.nth:
            order = ("从高到低" if r.descending else "从低到高") + f"的{len(chosen)}家"
        text = render(t, "rank", year=year, scope=scope, item=name, order=order, parts=parts)
        missing: list[str] = []
        if r.top > 1 and not r.nth and len(chosen) < r.top:
            # fewer companies hold the year's value than were asked for: said, never left to be guessed
            text += render(t, "rank_fewer", year=year, item=name, n=len(chosen))
            missing = [f"第{len(chosen) + 1}—{r.top}名" if r.top > len(chosen) + 1 else f"第{r.top}名"]
        return Answer(u.question, text, u.finglm_type(), "statistics", [evidence(row) for row in chosen.itertuples()],
                      partial=missing)
