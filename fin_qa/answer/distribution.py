"""How a company distributes its profit (怎么分红, 分配方案如何, 有没有送转): the plan's sentence as the report
prints it and each of its figures — cash per 10 shares (含税), bonus shares and shares from the capital
reserve per 10 shares, the cash total — each read from the key disclosures of the report (answer/facts;
keyword_tables/disclosures.yaml), never a bare 是/否. A figure the sentence says is not given ("不以公积金转增
股本", "不送红股") is said as the sentence says it; one the report does not state is said missing."""
from __future__ import annotations

import re

from ..store import Report
from ..understand.question import Understanding
from .facts import Fact
from .compose import render
from .lookup import not_found
from .model import Answer, Evidence, FactEvidence
from .values import Values, fact_evidence

CASH, BONUS, TRANSFER, TOTAL, PAYS = "每10股派发现金红利", "每10股送红股", "每10股转增", "现金分红总额", "是否派发现金红利"
SHARE_CASH = "每股派发现金红利"   # the cash of a plan printed per share (每股派发现金红利27.993元), not per 10
ITEMS = (CASH, SHARE_CASH, BONUS, TRANSFER, TOTAL, PAYS)
# what the plan's sentence says of a part it does not give
_NONE = {BONUS: re.compile(r"不送(?:红)?股|送红股0股|送红股零股"),
         TRANSFER: re.compile(r"不(?:以(?:资本)?公积金?)?(?:转增股本|转增)|转增0股|转增零股"),
         CASH: re.compile(r"不派发现金红利|不进行现金分红|不分配现金红利|不派发现金股利|不进行利润分配|不分配")}
# an ask of the bonus and transferred shares only (有没有送转, 是否送股)
# (asked whether there are any — "有没有送转", "是否送股", "转增了吗" — not how many: "转增几股")
_SHARES_ASKED = re.compile(r"(?:有没有|有无|是否|是不是)[^，,。？?；;]{0,6}(?:送转|送股|转增|送红股)|"
                           r"(?:送转|送股|转增|送红股)[^，,。？?；;几多]{0,4}(?:吗|么|没有|与否)")


# a total of shares asked ("转增多少股", "合计送股多少股", "共转增多少股") — not the shares per 10 ("每10股转增几股")
# (the same asks as the distribution type's regex in rules/question_types.yaml routes here)
_TOTAL_SHARES = re.compile(r"(?:共|合计|总共|一共|总计)计?(?P<kind2>转增|送红股|送股|派送|送)(?![^，,。？?；;]{0,8}(?:现金|红利|股利|股息|钱|元))|"
                           r"(?<!股)(?P<kind>转增|送红股|送股)(?:了|的)?(?:股份|股本)?(?:总数|总额|合计|共计|总计)?(?:是|为)?(?:多少|几)万?股")
_PER_TEN = re.compile(r"每(?:10|十)股")
_CLAUSE_START = re.compile(r"[，,。？?；;！!]")
# a plan's sentence printing a total of shares ("共计转增40,000,000股", "共派送228,232,467股")
_TOTAL_PRINTED = {"转增": re.compile(r"(?:共计?|合计|总计)(?:转增|转增股本)\s*(\d[\d,]*(?:\.\d+)?)\s*(万)?股"),
                  "送红股": re.compile(r"(?:共计?|合计|总计)(?:派送|送红股|送股|送)\s*(\d[\d,]*(?:\.\d+)?)\s*(万)?股")}


class DistributionAnswerer:
    def __init__(self, values: Values):
        self.v = values
        self.t = values.t

    def _plan(self, rep: Report) -> tuple[dict[str, Fact], Fact | None]:
        """The plan's facts of a report, and the one whose label is the plan's sentence (None: none printed)."""
        got = self.v.source.facts(rep, list(ITEMS), "current")
        # (the plan's cash as the 重要提示 says it first: 贵州茅台's per share sentence of p.2 before the table of p.33
        # restating it per 10 shares)
        cash = sorted((got[i] for i in (CASH, SHARE_CASH) if i in got and got[i].label),
                      key=lambda f: f.page if f.page is not None else 10**6)
        return got, next(iter(cash), None) or next((got[i] for i in (PAYS, BONUS, TRANSFER) if i in got and got[i].label),
                                                   None)

    def says_none(self, u: Understanding) -> bool:
        """Whether the report's plan says that none of what is asked is given (每10股派多少 of a plan that 不派发
        现金红利): its sentence says so, or its 是否派发现金红利 fact is 否 for the cash asked."""
        rep = self.v.report(u)[0]
        if rep is None:
            return False
        got, sentence = self._plan(rep)
        said = (sentence.label or "") if sentence is not None else ""
        no_cash = _NONE[CASH].search(said) is not None or (PAYS in got and got[PAYS].value == "否")
        return bool(u.items) and all(
            (no_cash if i in (CASH, SHARE_CASH, TOTAL, PAYS) else _NONE[i].search(said) is not None) for i in u.items)

    def answer(self, u: Understanding) -> Answer:
        rep, name, year, note = self.v.report(u)
        if rep is None:
            return not_found(u, render(self.t, "not_found_report", company=name, year=year or ""))
        got, sentence = self._plan(rep)
        said = (sentence.label or "") if sentence is not None else ""
        if not got or sentence is None:
            return not_found(u, render(self.t, "distribution_none", company=name, year=year))
        parts: list[str] = []
        evidence: list[FactEvidence] = []
        per_share = got.get(SHARE_CASH)
        for item, template in ((CASH, "distribution_cash"), (BONUS, "distribution_bonus"),
                               (TRANSFER, "distribution_transfer")):
            fact = got.get(item)
            if item == CASH and per_share is not None and per_share.number is not None and (
                    fact is None or fact.number is None or sentence is per_share and not _PER_TEN.search(u.norm)):
                # a plan printed per share: said per share, as the sentence quoted prints it (贵州茅台's 重要提示;
                # its 利润分配 table's 每10股 279.93 is the answer to a question asking 每10股)
                item, template, fact = SHARE_CASH, "distribution_cash_share", per_share
            if fact is not None and fact.number is not None:
                # (（含税） as the plan's sentence says it, never added)
                tax = {"tax": "（含税）" if "含税" in said else ""} if item in (CASH, SHARE_CASH) else {}
                parts.append(render(self.t, template, value=self.v.show(fact).rstrip("元股"), **tax))
                evidence.append(fact_evidence(fact, self.v.show(fact)))
            elif _NONE[item].search(said):
                parts.append(render(self.t, f"{template}_none"))
            elif item == CASH and got.get(PAYS) is not None and got[PAYS].value == "否":
                parts.append(render(self.t, "distribution_cash_none"))
            else:
                parts.append(render(self.t, f"{template}_unsaid"))
        total = got.get(TOTAL)
        if total is not None and total.number is not None:
            parts.append(render(self.t, "distribution_total", value=self.v.show(total)))
            evidence.append(fact_evidence(total, self.v.show(total)))
        missing: list[str] = []   # the asks the plan does not answer (a total of shares it does not print)
        for m in _TOTAL_SHARES.finditer(u.norm):
            # a total of shares asked: as the plan's sentence prints it, else said not printed (never dropped) —
            # not the shares per 10 of a clause saying 每10股 before it ("每10股派现多少、转增几股")
            if m.group("kind") and _PER_TEN.search(_CLAUSE_START.split(u.norm[:m.start()])[-1]):
                continue   # (共/合计 say a total wherever they stand)
            kind = "转增" if (m.group("kind") or m.group("kind2")) == "转增" else "送红股"
            per_ten = got.get(TRANSFER if kind == "转增" else BONUS)
            if (per_ten is not None and per_ten.number == 0) or _NONE[TRANSFER if kind == "转增" else BONUS].search(said):
                continue   # (a plan giving none: its part says so — 不以资本公积金转增股本, 每10股送红股0股 — no total)
            # (in any of the plan's sentences read: "…每10股送3股派发现金股利0.6元（含税），共派送228,232,467股")
            printed = _TOTAL_PRINTED[kind].search(" ".join(dict.fromkeys(f.label for f in got.values() if f.label)))
            if printed is not None:
                parts.append(render(self.t, "distribution_shares_total", kind=kind,
                                    value=printed.group(1) + ("万" if printed.group(2) else "")))
            else:
                parts.append(render(self.t, "distribution_shares_total_unsaid", kind=kind))
                missing.append(m.group(0))
        head = ""
        if _SHARES_ASKED.search(u.norm):
            shares = [got.get(i) for i in (BONUS, TRANSFER)]
            given = [f for f in shares if f is not None and f.number is not None and f.number > 0]
            none = [i for i, f in zip((BONUS, TRANSFER), shares)
                    if (f is not None and f.number is not None and f.number == 0) or _NONE[i].search(said)]
            if given:
                head = render(self.t, "distribution_shares_yes")
            elif len(none) == 2:
                head = render(self.t, "distribution_shares_no")
        text = note + head + render(self.t, "distribution", company=name, year=year, parts="；".join(parts),
                                    sentence=said, page=sentence.page or "?")
        if not evidence:
            evidence.append(fact_evidence(sentence, self.v.show(sentence)))
        if missing:   # (answered in part: what it does not answer is said, and counted so)
            return Answer(u.question, text, u.finglm_type(), "distribution", list[Evidence](evidence), found=False,
                          partial=missing)
        return Answer(u.question, text, u.finglm_type(), "distribution", list[Evidence](evidence))
