"""Which periodic filing a document is: its period within the year (Q1 | HY | Q3 | FY) and its kind (report |
summary), read from the filing itself (issue 44).

The evidence, strongest first: the cover's title ("2025 年第三季度报告", "2023 年半年度报告摘要"); the sentences of
its 重要提示 naming its kind ("本半年度报告摘要来自半年度报告全文", "第一季度财务报表是否经审计"); the balance
sheet's period end ("2025年9月30日"); 第二节's 报告期 ("2023年1月1日至2023年6月30日"); the file name
("华润三九：2025年三季度报告.pdf"). A filing is never taken for an annual report by default: a document none of
these name is not stored (IngestError names what was read). The patterns are rules/periods.yaml's.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..catalog.normalize import half_width_digits
from ..catalog.periods import FILING_WORDS, PeriodRules, title_period
from .pages import Document, IngestError
from .statements import statement_period_end

COVER_PAGES = 3
MONTH_OF = {"Q1": 3, "HY": 6, "Q3": 9, "FY": 12}
CODE_OF = {m: c for c, m in MONTH_OF.items()}
CN_YEAR = re.compile(r"[一二][〇○零ＯO一二三四五六七八九]{3}(?=\s*年)")
CN_DIGITS = str.maketrans("〇○零ＯO一二三四五六七八九", "0000012345678" + "9")
SPACES = re.compile(r"[ \t\u3000]+")
_PERIOD_RANGE = re.compile(r"报告期[^。；;\n]{0,12}?(?:19|20)\d{2}年\d{1,2}月\d{1,2}日(?:至|—|-|－|~)((?:19|20)\d{2})年(\d{1,2})月"
                           r"(\d{1,2})日")


def filing_name(code: str, kind: str = "report") -> str:
    """第三季度报告, 半年度报告摘要 …"""
    return FILING_WORDS[code] + "报告" + ("摘要" if kind == "summary" else "")


@dataclass
class Filing:
    """What a document says it is: its period code and kind, the year its title and statements print, and
    the evidence read (said when it cannot be told, or when pieces disagree)."""
    code: str | None = None
    kind: str = "report"
    title_year: int | None = None         # the cover's title year ("2025 年第三季度报告")
    statement_year: int | None = None     # the year of the balance sheet's period end, when it is this period's
    period_year: int | None = None        # 第二节's 报告期 end year, when it is this period's
    name_year: int | None = None          # the file name's year (by rules/periods.yaml file_name)
    published: int | None = None          # the year of the publish date a file name prints

    def published_year(self) -> int | None:
        """The period's year its publish date implies: an annual filing is published the year after."""
        if self.published is None or self.code is None:
            return None
        return self.published - 1 if self.code == "FY" else self.published
    evidence: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def said(self) -> str:
        return "; ".join(self.evidence) or "nothing"


def _first_pages(doc: Document) -> list[str]:
    return [SPACES.sub("", CN_YEAR.sub(lambda m: m.group(0).translate(CN_DIGITS), half_width_digits(p.text)))
            for p in doc.pages[:COVER_PAGES]]


# what may stand on a title's line before it: the registered name (…股份有限公司), a 证券代码/简称 header
_BEFORE_TITLE = re.compile(r"^(?:.{2,40}?(?:股份有限公司|有限责任公司|有限公司|股份公司|集团公司|公司))?$")
_AFTER_TITLE = re.compile(r"^(?:全文|正文|[（(](?:修订版|更正后|更新后)[)）])?$")


def _title(lines: list[str], rules: PeriodRules) -> re.Match | None:
    """A title on a line of its own, or after the registered name: never one a sentence speaks of ("公司发布
    2025年第三季度报告。")."""
    for line in lines:
        for rx in rules.titles:
            for m in rx.finditer(line):
                if _BEFORE_TITLE.match(line[:m.start()]) and _AFTER_TITLE.match(line[m.end():]):
                    return m
    return None


class NotAFiling(IngestError):
    """A document that is no periodic filing (a research note)."""


def read_filing(doc: Document, path: Path, rules: PeriodRules) -> Filing:
    """The filing a document is (Filing.code None: not told). A research note (rules/periods.yaml `notes`)
    raises NotAFiling."""
    f = Filing()
    pages = _first_pages(doc)
    for rx in rules.notes:
        m = next((m for text in pages[:2] for m in [rx.search(text)] if m), None)
        if m:
            raise NotAFiling(f"a research note, not a periodic filing (its first pages print \"{m.group(0)}\"): "
                             "it is stored as a note (ingest/notes.py), not as a filing")
    codes: list[tuple[str, str]] = []   # (evidence, code), strongest first
    title_kind = says_kind = None
    lines = [line for text in pages for line in text.split("\n")]
    m = _title(lines, rules)
    if m:
        code = title_period(m)
        f.title_year = int(m.group("year")) if m.group("year") else None
        title_kind = "summary" if m.group("summary") else "report"
        codes.append(("cover", code))
        f.evidence.append(f"cover \"{m.group(0)}\"")
    joined = "".join(pages)
    for s in rules.says:
        m = s.pattern.search(joined)
        if m:
            codes.append(("重要提示", s.code))
            says_kind = says_kind or s.kind
            f.evidence.append(f"重要提示 \"{m.group(0)}\"")
            break
    end = statement_period_end(doc)
    if end is not None:
        year, month, day = end
        f.evidence.append(f"balance sheet dated {year}年{month}月{day}日")
        if month in CODE_OF:
            codes.append(("statements", CODE_OF[month]))
    for page in doc.pages[:25]:
        m = _PERIOD_RANGE.search(SPACES.sub("", half_width_digits(page.text)))
        if m:
            f.evidence.append(f"报告期 to {m.group(1)}年{m.group(2)}月{m.group(3)}日")
            if int(m.group(2)) in CODE_OF:
                codes.append(("报告期", CODE_OF[int(m.group(2))]))
                f.period_year = int(m.group(1))
            break
    name_kind = None
    for rx in rules.file_names:
        m = rx.search(path.name)
        if m:
            codes.append(("file name", title_period(m)))
            f.name_year = int(m.group("year"))
            name_kind = "summary" if m.group("summary") else "report"
            f.evidence.append(f"file name \"{m.group(0)}\"")
            break
    for rx in rules.published:
        m = rx.search(path.name)
        if m:
            f.published = int(m.group("date")[:4])
            f.evidence.append(f"published {m.group('date')} (file name)")
            break
    if not codes:
        return f
    if codes[0][0] == "file name" and codes[0][1] != "FY":
        # a quarter's or a half year's filing is told by its content: a file name alone ("2025年三季报点评.pdf")
        # names what the document speaks of, not what it is
        f.evidence.append("(a period other than the year is not taken from the file name alone)")
        return f
    f.code = codes[0][1]
    f.kind = title_kind or says_kind or name_kind or "report"
    disagree = [f"{where} {c}" for where, c in codes if c != f.code]
    if disagree:
        f.warnings.append(f"period {filing_name(f.code)} read from the {codes[0][0]}; other evidence disagrees "
                          f"({', '.join(disagree)}; {f.said()})")
    if end is not None and CODE_OF.get(end[1]) == f.code:
        f.statement_year = end[0]
    if f.period_year is not None and not any(w == "报告期" and c == f.code for w, c in codes):
        f.period_year = None
    return f


def untold(f: Filing) -> IngestError:
    return IngestError(f"cannot tell which periodic filing this is (年度报告, 半年度报告, 第一/第三季度报告 or a 摘要): "
                       f"no title on its cover, no 重要提示 naming it, no dated balance sheet, no 报告期 and no "
                       f"period in the file name ({f.said()})")
