"""fin-qa ingest: files and folders → parsed reports (in worker processes) → the store (one writer).

Each file is parsed on its own (a worker process when --workers > 1) into a ParsedReport; the main
process writes each one in a single transaction. A file that cannot be ingested gets one line in the
summary and the run goes on. Re-ingesting an unchanged file is skipped by content hash (--force
re-ingests it), so an interrupted run is resumed by running it again.
"""
from __future__ import annotations

import hashlib
import itertools
import os
import re
import time
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from ..catalog import Catalog
from ..catalog.normalize import half_width_digits
from ..store import PARENT_STATEMENT_PREFIX, FactRow, Postings, ReportMeta, Store, encode_words, search_rows
from ..check import SUMMARY_CHECK, as_warning, check_facts, fact_values, run_comparisons, summary_checks
from .headings import build_sections, chunk_sections, section_text
from .tables import extract_tables, table_records
from .pages import Document, IngestError, open_document
from .disclosures import extract_disclosures
from .indicators import extract_indicators
from .profile import audit_signatures, extract_employees, extract_profile
from .notes import NOTE_PARSER, ParsedNote, identify_note, info_rows, read_note
from .period import CN_DIGITS, CN_YEAR, SPACES, NotAFiling, filing_name, read_filing, untold
from .statements import STATEMENT_KINDS, extract_statements, statement_year
from .summary import STATEMENT as SUMMARY
from .summary import checked_changes, extract_summary, reconcile

SUFFIXES = (".pdf", ".txt", ".jsonl")
# "2020年年度报告", "2020 年年度报告", "2012 年度报告", "２０２０年年度报告"
_COVER_YEAR = re.compile(r"(20\d{2}|19\d{2})\s*年?\s*(?:年度报告|年报)"
                         r"|(?:年度报告|年报)\s*[:：]?\s*(20\d{2}|19\d{2})(?![\d\-—/.]|\s*年)"
                         r"|(20\d{2}|19\d{2})\s*annual\s*report|annual\s*report\s*(20\d{2}|19\d{2})(?![\d\-—/])", re.I)
# a year in Chinese numerals ("二○一〇年年度报告", "二〇一一年年度报告")
# 第二节's 报告期 (释义: "报告期 指 2020年1月1日至2020年12月31日", "报告期末 指 2020年12月31日")
_PERIOD = re.compile(r"报告期[^。；;，,\n]{0,16}?(?:指[:：]?((?:19|20)\d{2})年(?![末初底内])|(?:指|为|是)[:：]?((?:19|20)\d{2})年"
                     r"(?:度|0?1月(?:0?1日)?(?:起)?(?:至|-|—|–|－|~|到)(?:(?:19|20)\d{2}年)?12月(?:31日)?))")
# a year in a file name: "XX股份2020年年度报告.pdf", "2-万科A-2012年年度报告.pdf", "600000_2019_annual.pdf"
_NAME_YEAR = re.compile(r"(?<!\d)(20\d{2}|19\d{2})(?!\d)\s*年?\s*(?:年度报告|年报|年度|_|-|\.|\s|annual|$)", re.I)
_NAME_CODE = re.compile(r"(?<!\d)(\d{6})(?!\d)")
_YEAR_END = re.compile(r"(20\d{2}|19\d{2})\s*年\s*12\s*月\s*31\s*日")
# folders a folder walk never enters: hidden ones, virtualenvs, caches
_SKIP_DIRS = re.compile(r"^(?:\..*|venv|env|site-packages|node_modules|__pycache__|build|dist)$")
# "股票代码：603339", "股票简称及代码：万科 A 000002" (older layouts)
# the code and short name as the cover or 公司信息 print them ("股票简称：四方科技 股票代码：603339", Shanghai's
# cover "公司代码：600519 公司简称：贵州茅台", "（A 股代码：601166）", "股票简称 ：民生银行股 票代码 ：600016"), read
# with spaces taken out (a line's end still ends a name)
_CODE = re.compile(r"(?:股票|证券|公司|[ABH]股(?:股票)?)(?:简称及)?代码[:：]?(?:[\u4e00-\u9fff]{2,6}[AB]?)?(\d{6})")
_SHORT = re.compile(r"(?:股票|证券|公司)简称(?:及代码)?[:：]?([\u4e00-\u9fff*＊ST]{2,8}?(?:[AB](?![a-z]))?)"
                    r"(?=股票代码|证券代码|公司代码|代码|股份代号|公告编号|[,，、;；()（）\r\n]|\d|$)")
# … and a bracketed 简称 after the registered name ("兴业银行股份有限公司（简称：兴业银行）"), when no 股票简称 is printed
_SHORT_BRACKET = re.compile(r"[（(]简称[:：]([\u4e00-\u9fff*＊ST]{2,8}(?:[AB](?![a-z]))?)[)）]")
COVER_PAGES = 3        # the cover's pages: the year, the names, the code
PROFILE_PAGES = 25     # 公司信息 lies within these: the code and short name when the cover has none
# a stock code of a Chinese exchange: Shenzhen 000-003 (B: 200), ChiNext 300/301, Shanghai 600-605 (B: 900),
# STAR 688/689, Beijing 43x/83x-89x/92x
_EXCHANGE_CODE = re.compile(r"(?:00[0-3]|30[01]|60[0-5]|68[89]|200|900|43\d|8[3-9]\d|92\d)\d{3}")
_FULL = re.compile(r"(?:公司)?(?:法定)?中文(?:名称|全称)\s*[:：]\s*([\u4e00-\u9fff（）()]{2,40}?(?:股份有限公司|有限责任公司|有限公司|股份公司))")
# the codes of a company's other share classes, on the cover and in 公司信息: a B share's (200xxx Shenzhen,
# 900xxx Shanghai) next to B股 or a short name ending in B ("万科 B 200002", "B股 上海证券交易所 宝信B 900926"), or
# listed after the A code ("公司代码：600845 900926"); an H share's five digits in the 股票简况 row ("H股 香港联合
# 交易所 昭衍新药 06127") or after its label ("H 股股票代码 03750", "股份代号：1398"). Never on a line of an
# address, a postcode or a phone number, nor a count (…股) or a year (…年).
_CODE_END = r"(?![\d,.%年股万])"
_B_CODE = re.compile(r"(?:B\s*股[^\n]{0,30}?|[\u4e00-\u9fff]\s*B\s*[:：]?\s*|(?:股票|公司|证券)代码\s*[:：]?\s*\d{6}"
                     r"\s*[、,，/]?\s*)(?<![\d,.])((?:200|900)\d{3})" + _CODE_END)
_H_CODE = re.compile(r"(?:H\s*股(?:股票)?(?:代码|代號|代号)|股份代[号號])\s*[:：]?\s*(\d{4,5})" + _CODE_END +
                     r"|^\s*H\s*股\s*(?:香港联合交易所|香港聯合交易所|联交所)[^\n]{0,24}?(?<![\d,.])(0\d{4})" + _CODE_END)
_NOT_A_CODE_LINE = re.compile(r"邮编|邮政编码|地址|电话|传真|大厦|号楼|路\d|街\d")
# a company's legal form, at the end of its registered name
_LEGAL_FORM = re.compile(r"(?:股份有限公司|有限责任公司|有限公司|股份公司|集团公司|(?<=[\u4e00-\u9fff）)])公司)$")
# words of a table's header or a profile's labels, never in a registered name
_HEADER_WORDS = re.compile(r"名称|简称|全称|代码|金额|比例|法定代表|地址|网址|邮箱|信箱|董事|监事|股东|"
                           r"报告|子公司|本公司|该公司|关联|控股股东|合计")


@dataclass
class ParsedReport:
    path: str
    kind: str
    sha256: str
    pages: int
    meta: ReportMeta
    facts: list[FactRow]
    sections: list[dict]
    chunks: list[dict]
    warnings: list[str]
    seconds: float
    table_pages: int
    statements: list[str] = field(default_factory=list)
    tables: list[dict] = field(default_factory=list)    # every table of the report (ingest/tables.py)
    # a PDF's pages: (page, width, height, store.encode_words blob): where the page image's highlight goes
    page_words: list[tuple[int, float, float, bytes]] = field(default_factory=list)
    # the tables' and the chunks' words (store.search_rows: the first one's rowid 0): table_words, chunk_words
    words: tuple[Postings | None, Postings | None] | None = None


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


@dataclass(frozen=True)
class Hint:
    """What the user says about a file (--code/--year/--company, or a manifest line): it wins."""
    code: str | None = None
    year: int | None = None
    company: str | None = None
    period: str | None = None     # Q1 | HY | Q3 | FY (with kind: the filing, when the document does not say)
    kind: str | None = None       # report | summary


def read_manifest(path: Path) -> dict[str, Hint]:
    """A manifest CSV (file,code,year[,company][,period][,kind]) → file name and resolved path → Hint. ValueError
    names the line of a bad row."""
    import csv

    out: dict[str, Hint] = {}
    with open(path, encoding="utf-8-sig", newline="") as fh:
        rows = csv.DictReader(fh)
        if not rows.fieldnames or "file" not in rows.fieldnames:
            raise ValueError(f"{path}:1: a manifest needs a header with `file` and any of code, year, company")
        for n, row in enumerate(rows, start=2):
            name = (row.get("file") or "").strip()
            year_text = (row.get("year") or "").strip()
            if not name:
                raise ValueError(f"{path}:{n}: no file name")
            if year_text and not (year_text.isdigit() and 1990 <= int(year_text) <= 2100):
                raise ValueError(f"{path}:{n}: year {year_text!r} is not a year")
            period = (row.get("period") or "").strip().upper() or None
            kind = (row.get("kind") or "").strip() or None
            if period is not None and period not in ("Q1", "HY", "Q3", "FY"):
                raise ValueError(f"{path}:{n}: period {period!r} is not one of Q1, HY, Q3, FY")
            if kind is not None and kind not in ("report", "summary"):
                raise ValueError(f"{path}:{n}: kind {kind!r} is not report or summary")
            hint = Hint((row.get("code") or "").strip() or None, int(year_text) if year_text else None,
                        (row.get("company") or "").strip() or None, period, kind)
            out[name] = hint
            out[str((path.parent / name).resolve())] = hint
    return out


def _plausible_short(name: str | None) -> str | None:
    """A short name as printed (万科A, *ST华锦): two to eight characters, no table header run into it."""
    name = (name or "").replace(" ", "")
    return name if 2 <= len(name) <= 8 and not re.search(r"金额|比例|代码|简称|名称|股票|^[和及与或]", name) else None


def _plausible_full(name: str | None) -> str | None:
    """A registered name as 公司信息 prints it (万科企业股份有限公司, 长春百克生物科技股份公司, 深圳市振业（集团）股份
    有限公司): Chinese words and brackets ending in a legal form, one company's — never a run of a table's
    header words (名称, 简称, 代码 …) nor two names run together."""
    name = (name or "").replace(" ", "").replace("\u3000", "")
    form = _LEGAL_FORM.search(name)
    if not (form and 2 <= form.start() and len(name) <= 40
            and re.fullmatch(r"[\u4e00-\u9fffA-Za-zＡ-Ｚａ-ｚ（）()·]+", name)):
        return None   # (a name wrapped at its legal form: "股份有限公司" alone is none)
    return None if name.count("公司") > 1 or _HEADER_WORDS.search(name) else name


def _plausible_code(code: str | None) -> str | None:
    """A code as a stock code looks: six digits in a known exchange's range (the first such of a list
    "000570、200570")."""
    m = _EXCHANGE_CODE.search(code or "")
    return m.group(0) if m and re.fullmatch(r"[\dA-Za-z、,，/ ]*", code or "") and not re.search(r"\d{7}", code or "") \
        else None


def _name_parts(path: Path) -> tuple[int | None, str | None, str | None]:
    """(year, code, name) read from a file name that is not FinGLM's: "XX股份2020年年度报告.pdf"."""
    stem = half_width_digits(path.stem)
    ym = _NAME_YEAR.search(stem)
    year = int(ym.group(1)) if ym else None
    cm = _NAME_CODE.search(stem)
    code = cm.group(1) if cm else None
    name = stem[:ym.start()] if ym else stem
    name = re.sub(r"[\d_\-\s.()（）]+", " ", name).strip().split(" ")[-1] if name else ""
    return year, code, (name if re.search(r"[\u4e00-\u9fff]", name) else None)


def _most_named_year(doc: Document) -> int | None:
    """The year whose 12月31日 the first pages name most often (报告期指2020年1月1日至2020年12月31日)."""
    counts: dict[int, int] = {}
    for page in doc.pages[:15]:
        for m in _YEAR_END.finditer(half_width_digits(page.text)):
            counts[int(m.group(1))] = counts.get(int(m.group(1)), 0) + 1
    return max(counts, key=lambda y: (counts[y], y)) if counts else None


def identify(doc: Document, path: Path, profile: dict[str, str], catalog: Catalog,
             hint: Hint | None = None) -> tuple[ReportMeta, list[str]]:
    """Company and year, and warnings on how they were found. What the user said (hint) wins, then a FinGLM
    file name (rules/report_names.yaml). The company from the cover and 公司信息 (whitespace and full-width
    digits allowed), then the file name ("XX股份2020年年度报告.pdf"); the year as _report_year weighs its
    evidence. A report whose company is named nowhere is ingested under its file name, with a warning."""
    hint = hint or Hint()
    warnings: list[str] = []
    m = catalog.report_names.file_name.match(path.name)
    if m:   # (a FinGLM name is an annual report's: …__2019年__年度报告)
        meta = ReportMeta(hint.code or m.group("code"), hint.year or int(m.group("year")),
                          m.group("full"), m.group("short"), m.group("date"), hint.period or "FY", hint.kind or "report")
        if hint.company:
            meta.short_name = hint.company
        return meta, warnings
    year = hint.year
    filing = read_filing(doc, path, catalog.periods)
    cover_year = _cover_year(doc)
    if filing.code is None and cover_year is not None:   # "年度报告 2023": an annual report's cover
        filing.code = "FY"
        filing.evidence.append(f"cover year {cover_year} of a 年度报告")
    code_of_period = hint.period or filing.code
    if code_of_period is None:
        raise untold(filing)
    kind = hint.kind or filing.kind
    if hint.period is None:
        warnings += filing.warnings
    code = hint.code or _plausible_code(profile.get("股票代码"))
    short = hint.company or _plausible_short(profile.get("股票简称")) or _plausible_short(profile.get("中文简称"))
    full = _plausible_full(profile.get("中文名称"))
    if (code_of_period, kind) != ("FY", "report"):
        # a quarter's report or a summary prints no 公司信息 of its own: its cover's name line ("华润三九医药股份
        # 有限公司 2023 年半年度报告摘要") names it, never a shareholder's name its tables print
        full = _cover_full(doc, catalog) or full
    for n, page in enumerate(doc.pages[:PROFILE_PAGES]):
        text = half_width_digits(page.text)
        if n < COVER_PAGES and full is None:
            fm = _FULL.search(text)
            full = _plausible_full(fm.group(1)) if fm else None
        if code and short:
            if n >= COVER_PAGES:
                break
            continue
        tight = SPACES.sub("", text)
        if code is None:
            code = next((c for c in (m.group(1) for m in _CODE.finditer(tight)) if _plausible_code(c)), None)
        if short is None:
            short = next((x for x in (m.group(1) for m in _SHORT.finditer(tight)) if _plausible_short(x)), None)
    if full is None:   # the cover's line naming the company alone ("深圳市振业（集团）股份有限公司")
        full = next((f for page in doc.pages[:COVER_PAGES] for f in map(_plausible_full, page.text.split("\n"))
                     if f), None)
    if short is None:
        for page in doc.pages[:PROFILE_PAGES]:
            sm = _SHORT_BRACKET.search(SPACES.sub("", half_width_digits(page.text)))
            if sm and _plausible_short(sm.group(1)):
                short = sm.group(1)
                break
    name_year, name_code, name_short = _name_parts(path)
    if year is None and code_of_period == "FY":
        year, said = _report_year(statement_year(doc), cover_year or filing.title_year, _period_year(doc),
                                  name_year or filing.name_year, lambda: _most_named_year(doc), filing_name("FY", kind))
        warnings += said
    elif year is None:   # the period's own dates: its balance sheet's period end, its title, 报告期, file name
        year, said = _report_year(filing.statement_year, filing.title_year, filing.period_year,
                                  filing.name_year or name_year or filing.published_year(), lambda: _most_named_year(doc),
                                  filing_name(code_of_period, kind))
        warnings += said
    code = code or _plausible_code(name_code)
    short = short or name_short
    if not (code or full or short):
        short = name_short or path.stem
        warnings.append(f"company not named in the report: ingested as {short!r} (the file name); give --company "
                        f"or --code to name it")
    return ReportMeta(code, year, full, short, None, code_of_period, kind), warnings


def _cover_full(doc: Document, catalog: Catalog) -> str | None:
    """The registered name a filing's first page prints on a line of its own, or before its title."""
    for page in doc.pages[:1]:
        for line in page.text.split("\n"):
            tight = SPACES.sub("", half_width_digits(line))
            for rx in catalog.periods.titles:
                tight = rx.sub("", tight)
            name = _plausible_full(tight)
            if name:
                return name
    return None


def share_codes(doc: Document) -> dict[str, tuple[str, int]]:
    """The B and H share codes a report prints beside its A code, with their pages ({"B股股票代码": ("900926",
    5)}): kept as 公司信息 facts (the A code is the report's own)."""
    out: dict[str, tuple[str, int]] = {}
    for page in doc.pages[:PROFILE_PAGES]:
        for line in half_width_digits(page.text).split("\n"):
            if _NOT_A_CODE_LINE.search(line):
                continue
            if "B股股票代码" not in out:
                m = _B_CODE.search(line)
                if m:
                    out["B股股票代码"] = (m.group(1), page.number)
            if "H股股票代码" not in out:
                m = _H_CODE.search(line)
                if m:
                    out["H股股票代码"] = ((m.group(1) or m.group(2)).zfill(5), page.number)
        if len(out) == 2:
            break
    return out


def _cover_year(doc: Document) -> int | None:
    """The year the cover prints: "2019年年度报告", "2012 年度报告", "年度报告 2023", "二○一〇年年度报告"."""
    for page in doc.pages[:COVER_PAGES]:
        text = CN_YEAR.sub(lambda m: m.group(0).translate(CN_DIGITS), half_width_digits(page.text))
        m = _COVER_YEAR.search(text)
        if m:
            return int(next(g for g in m.groups() if g))
    return None


def _period_year(doc: Document) -> int | None:
    """The year 第二节 (释义) names as the 报告期: "报告期 指 2020年1月1日至2020年12月31日"."""
    for page in doc.pages[:PROFILE_PAGES]:
        m = _PERIOD.search(SPACES.sub("", half_width_digits(page.text)))
        if m:
            return int(m.group(1) or m.group(2))
    return None


def _report_year(statements: int | None, cover: int | None, period: int | None, name: int | None,
                 most: Callable[[], int | None], what: str = "年度报告") -> tuple[int, list[str]]:
    """The report year, from the strongest evidence read: its statements' own header dates, then the cover,
    第二节's 报告期, the file name. Where the statements' dates are read they decide, and a warning names every
    evidence that disagrees. Without them the cover, the 报告期 and the file name must agree, else the report is
    not stored (IngestError asks for --year); the file name alone decides with a warning. The year the first
    pages' dates name most (`most`) is said, never decides alone."""
    def said() -> str:
        return (f"its statements' dates {statements or '-'}, cover {cover or '-'}, 报告期 {period or '-'}, "
                f"file name {name or '-'}, the dates its first pages name most {most() or '-'}")

    if statements is not None:
        if any(y is not None and y != statements for y in (cover, period, name)):
            return statements, [f"report year {statements} read from its statements' dates; other evidence "
                                f"disagrees ({said()})"]
        return statements, []
    read = {y for y in (cover, period, name) if y is not None}
    if len(read) > 1:
        raise IngestError(f"cannot tell the report year: {said()}; its statements' dates are not read and the "
                          f"rest disagree: give it with --year or a --manifest line")
    if not read:
        raise IngestError(f"cannot tell the year of this {what}: no \"YYYY年{what}\" on its cover, no 报告期, no "
                          f"year in the file name and no statement dates read ({said()}): give it with --year or a "
                          f"--manifest line")
    year = read.pop()
    if cover is None:
        return year, [f"report year {year} read from the {'file name' if period is None else '报告期'} only ({said()})"]
    return year, []


def _filing_label(meta: ReportMeta) -> str:
    """2019 (an annual report, as always said), 2025Q3 第三季度报告, 2024HY 半年度报告摘要."""
    if meta.period == "FY" and meta.kind == "report":
        return str(meta.year)
    return f"{meta.year}{meta.period} {filing_name(meta.period, meta.kind)}"


def _num(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None


# The version of what parse_file reads from a file. A file ingested by an earlier version is read again
# by `fin-qa ingest` (not skipped as unchanged): bump it whenever a change alters the facts of a report.
# 1: side-by-side balance sheets, signs, the summary table, parent statements, PDFium words (issue 12).
# 2: key disclosures (keyword_tables/disclosures.yaml: 审计意见类型, 重大诉讼, 重点排污单位, 利润分配预案).
# 3: 控股股东, 实际控制人, 所属行业; 签字注册会计师 labels of the profile.
# 4: every table of a report (ingest/tables.py) stored and indexed.
# 5: tables: titles, wrapped numbers and names, continuations; 控股股东/实际控制人 of the Shanghai layout.
# 6: tables: lines grouped into rows by their spacing (wrapped and centred cells), a header at a page's foot
#    joined to its rows, cells set too close cut where PDFium saw a gap; 控股股东/实际控制人 read from the
#    table whose header names them.
# 10: every PDF page's word boxes stored (page_words: the page image's highlight).
# 11: 现金分红总额 read from "预计派发的现金红利共计…", "派送现金红利" too.
# 12: a statement ends at "此财务报表已于…批准" (its last line, 年末现金及现金等价物余额, was run into it);
#     warnings name the essential items not read (rules/checks.yaml essentials).
# 13: a statement whose title each page prints again (合并及银行资产负债表 over three pages) read to its end;
#     "经营活动产生／(使用)的现金流量净额", "净增加/(减少)额" named without their other sign.
# 14: a font whose map to Unicode is shifted (合幵 for 合并, 癿 for 的) read back (keyword_tables/glyphs.yaml).
# 15: a bank's indicators (不良贷款率, 资本充足率, 净息差 …) read from its tables as facts (ingest/indicators.py),
#     also under a group heading run into the label (资产质量指标(%)不良贷款率).
# 16: a bank's 本行 columns beside 本集团 (合并及银行…表) read as its parent-scope statements.
# 17: an opening column named by its date ("2022年1月1日" beside "2022年12月31日") is the previous period.
# 18: a bank's indicators of the year before and of the bank alone (本行 columns) too.
# 19: a continued page's column header or repeated heading ("2021年12月31日本行", "五、净利润（续）") is no
#     item; a bank's cash paid out between an inflow and an outflow subtotal signed as paid; a restated
#     statement's opening column (current | previous | 1月1日) a third period, the statement kept; bank
#     indicators of both years under a header splitting its dates; 存款总额 and 贷款总额 (principal).
# 20: header dates printed as words apart or ISO; note references as a column, run into a label or on a header
#     line of their own; the year from the statements' own dates first; B and H codes; blank lines and
#     summary lines the statements contradict recorded for the checks.
# 21: a summary year printed over 调整前 | 调整后 columns: each value by its own column (a short number — 每股收益,
#     收益率 — right-aligned under 调整前 was read as the year's, ahead of its 调整后).
# 22: a filing is (company, period, kind) — quarterly and half-year reports and summaries keyed by their period;
#     an interim 主要会计数据 read by its column words (本报告期, 年初至报告期末, 上年同期, 本报告期末, 上年度末).
# 23: a cash dividend written 派发现金分红 (每10股派发现金分红69.57元) read as the plan's cash per 10 shares.
# 24: a table whose body repeats its header under another first word (分产品 …, 分地区 …) split into its parts.
# 25: a plan's cash printed per share (每股派发现金红利27.993元) read as its own key disclosure, beside 每10股.
# 26: a 教育程度 row "X以上" printed beside a row X read as those above X (本科以上 beside 本科: 硕士及以上); a row
#     label ending in 学历 read as its category (大专学历, 研究生以上学历).
# 27: a 研发投入 row under a header of the years (2019年 2018年 变动比例; 本年度 上年度) read in each year's column
#     (previous, previous2), the change column left; an amount in the unit its label or 单位 line prints (千元).
# 28: an interim filing's printed change on the same period a year before kept (summary.checked_changes); a group's
#     label printed over its columns given to each (质押或冻结情况 股份状态 | 质押或冻结情况 数量: tables._grouped).
# 29: a header cell's lines set around the header's line ("计入当期非经常性损益的金" / "项目 本期发生额 …" / "额") read
#     as that column's header, not the caption's tail.
PARSER_VERSION = 29


# the parser processes from which they make the tables' and chunks' search rows and words (store.search_rows);
# with fewer, the one process writing the store makes them. Measured on 2 cores with 2 parsers (the six
# shared reports of ../shared/data/reports): with the words made by the writer, ingest took 3–8% longer than
# before they were indexed, made by the parsers 9–15% (the analysed texts sent to the writer cost more
# than making them there); but the writer then spends about 0.33 s a report (0.24 s before) against
# 0.14 s, so that with 3 or more parsers it would become the bottleneck.
PARSERS_MAKING_SEARCH_ROWS = 3


def parse_note(doc: Document, path: Path, sha: str, catalog: Catalog, t0: float) -> ParsedNote:
    """A research note (rules/periods.yaml `filings.notes` says it is one): its identity, prose and figures."""
    meta, warnings = identify_note(doc, path, catalog.notes, info_rows(path.parent, catalog.notes))
    chunks, figures = read_note(doc, catalog.notes, meta.title)
    if not chunks:
        raise IngestError(f"a research note with no text read ({len(doc.pages)} pages): a scanned note has none")
    return ParsedNote(str(path.resolve()), sha, len(doc.pages), meta, chunks, figures, warnings,
                      time.perf_counter() - t0)


def parse_file(path: str | Path, catalog: Catalog, sha256: str | None = None, hint: Hint | None = None,
               search: bool = False) -> ParsedReport | ParsedNote:
    """Everything fin-qa reads from one report file (`search`: with its tables' and chunks' search rows and
    words, else the store makes them as it writes). Raises IngestError with the reason."""
    t0 = time.perf_counter()
    path = Path(path)
    sha = sha256 or sha256_of(path)
    doc = open_document(path, catalog.glyphs)
    try:
        profile_facts = extract_profile(doc, catalog)
        if not any(f.item == "签字会计师姓名" for f in profile_facts):
            signed = audit_signatures(doc, catalog)   # (an older layout: the audit report's signatures)
            if signed is not None:
                profile_facts.append(signed)
        profile = {f.item: f.value for f in profile_facts}
        try:
            meta, id_warnings = identify(doc, path, profile, catalog, hint)
        except NotAFiling:
            return parse_note(doc, path, sha, catalog, t0)   # (a research note: the second kind of document)
        # the report itself is the better source of names when the file name is not FinGLM's
        meta.full_name = meta.full_name or _plausible_full(profile.get("中文名称"))
        meta.short_name = meta.short_name or _plausible_short(profile.get("股票简称")) or _plausible_short(profile.get("中文简称"))
        source = doc.kind
        facts: list[FactRow] = []
        warnings: list[str] = list(id_warnings)
        statements = extract_statements(doc, meta.year, catalog.items)
        for kind, st in statements.items():
            for sf in st.facts:
                facts.append(FactRow(sf.item, sf.value, _num(sf.value), sf.unit, sf.period, kind, sf.page, source,
                                     sf.raw_label))
            warnings.extend(f"{kind}: {w}" for w in st.warnings)
        # the parent company's own statements (scope parent): facts of their own, never mixed with the
        # consolidated ones (statement 母公司资产负债表 …); only a report with consolidated statements has them
        if any("合并" in st.title or st.both_scopes for st in statements.values()):
            for kind, st in extract_statements(doc, meta.year, catalog.items, parent=True).items():
                for sf in st.facts:
                    facts.append(FactRow(sf.item, sf.value, _num(sf.value), sf.unit, sf.period, PARENT_STATEMENT_PREFIX + kind,
                                         sf.page, source, sf.raw_label))
                warnings.extend(f"{PARENT_STATEMENT_PREFIX}{kind}: {w}" for w in st.warnings)
        # the summary table's three years, after the statements: a statement value wins where both exist
        consolidated = fact_values(f for f in facts if f.statement in STATEMENT_KINDS)
        read = extract_summary(doc, meta.year, catalog.items, meta.period)
        summary = [FactRow(sf.item, sf.value, _num(sf.value), sf.unit, sf.period, SUMMARY, sf.page, source,
                           sf.raw_label) for sf in read]
        summary_values = fact_values(summary)
        agree = summary_checks(summary_values, consolidated, catalog.checks)
        if sum(not r.ok for r in agree) * 2 > len(agree):  # read in the wrong unit or columns: not used
            warnings.append(f"主要会计数据 not used: {sum(not r.ok for r in agree)} of {len(agree)} values differ "
                            "from the statements")
        else:
            stated = {k: v[0] for k, v in consolidated.items()}
            kept, notes = reconcile(read, stated)
            warnings.extend(notes)
            # a summary row the statements contradict is not stored: its contradiction is, a failed check
            # naming both figures and their pages (`fin-qa check` reads it back)
            dropped = {f.item for f in read} - {f.item for f in kept}
            every = run_comparisons(SUMMARY_CHECK, summary_values, consolidated,
                                    [(i, p, p) for i in sorted(dropped) for p in ("current", "previous")],
                                    catalog.checks)
            warnings.extend(as_warning(r) for r in every if not r.ok)
            kept, checked = checked_changes(kept, stated)
            warnings.extend(checked)
            facts.extend(FactRow(sf.item, sf.value, _num(sf.value), sf.unit, sf.period, SUMMARY, sf.page, source,
                                 sf.raw_label) for sf in kept)
        missing = [k for k in ("资产负债表", "利润表", "现金流量表") if k not in statements]
        summary_only = meta.kind == "summary"   # (a 摘要 prints its key figures, no statements)
        if missing and not summary_only:
            warnings.append("consolidated statement(s) not found: " + ", ".join(missing))
        blanks = {(item, period): page for st in statements.values() for item, period, page in st.blanks}
        results = check_facts(facts, catalog.checks, f"{meta.short_name or ''} {meta.full_name or ''}", blanks,
                              complete=not summary_only)
        warnings.extend(as_warning(r) for r in results if (not r.ok and not r.missing) or r.blank)
        lacking = list(dict.fromkeys(r.missing for r in results if r.missing))
        if lacking:
            warnings.append(f"incomplete: {len(lacking)} essential item(s) not read: " + "、".join(lacking))
        for f in profile_facts:
            facts.append(FactRow(f.item, f.value, None, None, "current", f.statement, f.page, source, f.raw_label))
        for item, (code, page) in share_codes(doc).items():
            if code != meta.stock_code and item not in profile:
                facts.append(FactRow(item, code, None, None, "current", "公司信息", page, source, item))
        for f in extract_employees(doc, catalog, meta.year):
            facts.append(FactRow(f.item, f.value, _num(f.value), f.unit, f.period, f.statement, f.page, source, f.raw_label))
        parsed_tables = extract_tables(doc)
        facts.extend(extract_indicators(parsed_tables, meta.year, catalog.items, source))
        for f in extract_disclosures(doc, catalog.disclosures, parsed_tables):
            facts.append(FactRow(f.item, f.value, _num(f.value), f.unit, "current", f.statement, f.page, source, f.raw_label))
        sections = build_sections(doc)
        chunks = chunk_sections(sections)
        tables = table_records(parsed_tables, sections)
        sec_rows = [
            {"sid": s.sid, "parent": s.parent, "level": s.level, "title": s.title, "path": s.path,
             "page_start": s.page_start, "page_end": s.page_end, "text": section_text(s)}
            for s in sections
        ]
        chunk_rows = [
            {"section": c.section, "path": c.path, "text": c.text, "page_start": c.page_start, "page_end": c.page_end}
            for c in chunks
        ]
        # the tables' and chunks' rows of the search index and their words, made here (in a parser's
        # process) rather than by the one process writing the store, when there are enough parsers
        words = search_rows(tables, chunk_rows) if search else None
        page_words = [(n, w, h, encode_words(words)) for n, w, h, words in doc.page_layouts()]
        return ParsedReport(str(path.resolve()), doc.kind, sha, len(doc.pages), meta, facts, sec_rows, chunk_rows,
                            warnings, time.perf_counter() - t0, doc.table_pages_parsed, sorted(statements), tables,
                            page_words, words)
    finally:
        doc.close()


# a worker process's catalog: the parent's, sent once when the worker starts (_start_worker); and whether it
# makes the search rows (PARSERS_MAKING_SEARCH_ROWS)
_worker_catalog: Catalog | None = None
_worker_search = False


def _start_worker(catalog: Catalog, search: bool = False) -> None:
    global _worker_catalog, _worker_search
    _worker_catalog, _worker_search = catalog, search


def _parse_in_worker(path: str, sha256: str, hint: Hint | None) -> tuple[str, ParsedReport | ParsedNote | None, str | None]:
    assert _worker_catalog is not None, "worker started without its catalog"
    return _parse_safely(path, sha256, _worker_catalog, hint, _worker_search)


def _parse_safely(path: str, sha256: str, catalog: Catalog, hint: Hint | None = None,
                  search: bool = False) -> tuple[str, ParsedReport | ParsedNote | None, str | None]:
    try:
        return path, parse_file(path, catalog, sha256, hint, search), None
    except IngestError as exc:
        return path, None, str(exc)
    except MemoryError:
        return path, None, "out of memory while parsing"
    except Exception as exc:  # a parser bug must not end a batch: report it as this file's failure
        return path, None, f"internal error while parsing ({type(exc).__name__}: {exc})"


def collect_files(paths: Iterable[str | Path]) -> tuple[list[Path], list[tuple[str, str]]]:
    """Report files under the given paths (folders recursively); missing paths are reported."""
    files: list[Path] = []
    problems: list[tuple[str, str]] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            files.extend(sorted(x for x in p.rglob("*") if x.is_file() and x.suffix.lower() in SUFFIXES
                                and not any(_SKIP_DIRS.match(part) for part in x.relative_to(p).parts[:-1])))
        elif p.is_file():
            files.append(p)
        else:
            problems.append((str(p), "no such file or folder"))
    seen: set[Path] = set()
    unique = []
    for f in files:
        r = f.resolve()
        if r not in seen:
            seen.add(r)
            unique.append(f)
    return unique, problems


@dataclass
class Outcome:
    path: str
    status: str  # ingested | skipped | failed
    detail: str = ""
    report: ParsedReport | None = None
    note: ParsedNote | None = None        # a research note ingested (report None)


@dataclass
class Summary:
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0
    interrupted: bool = False

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)


def ingest(
    paths: Iterable[str | Path],
    store: Store,
    catalog: Catalog,
    workers: int = 1,
    force: bool = False,
    on_progress: Callable[[Outcome], None] | None = None,
    hints: Callable[[Path], Hint | None] | None = None,
) -> Summary:
    """Ingest files and folders. `hints` gives what the user said about a file (--code/--year/--company,
    a manifest line), or None."""
    t0 = time.perf_counter()
    summary = Summary()
    files, problems = collect_files(paths)
    notes = store.notes
    for path, why in problems:
        summary.outcomes.append(Outcome(path, "failed", why))
    todo: list[tuple[str, str, Hint | None]] = []
    for f in files:
        try:
            sha = sha256_of(f)
        except OSError as exc:
            summary.outcomes.append(Outcome(str(f), "failed", f"cannot read: {exc.strerror}"))
            continue
        known = store.file_by_hash(sha, PARSER_VERSION) or notes.by_hash(sha, NOTE_PARSER)
        if known and not force:
            o = Outcome(str(f), "skipped", "unchanged (already ingested)" if known == str(f.resolve())
                        else f"same content as {known} (already ingested)")
            summary.outcomes.append(o)
            if on_progress:
                on_progress(o)
            continue
        todo.append((str(f), sha, hints(f) if hints else None))

    def finish(path: str, rep: ParsedReport | ParsedNote | None, err: str | None) -> None:
        if isinstance(rep, ParsedNote):
            try:
                notes.write(rep.meta, rep.path, rep.sha256, NOTE_PARSER, rep.pages, rep.chunks, rep.figures)
            except (UnicodeError, ValueError, OverflowError) as exc:
                rep, err = None, f"cannot store what was read ({type(exc).__name__}: {str(exc)[:120]})"
            else:
                m = rep.meta
                what = "、".join(x for x in (m.broker, m.publish_date, m.stock_name or m.industry) if x)
                detail = (f"research note 《{m.title}》{f'（{what}）' if what else ''}: {rep.pages} pages, "
                          f"{len(rep.chunks)} chunks, {len(rep.figures)} figures")
                if rep.warnings:
                    detail += "; warnings: " + "; ".join(rep.warnings)
                o = Outcome(path, "ingested", detail, note=rep)
                summary.outcomes.append(o)
                if on_progress:
                    on_progress(o)
                return
        other = store.document_of(rep.meta.key) if rep is not None else None
        # a second file for a report already in the store is said, not silently swapped in
        second = rep is not None and bool(other) and other != rep.path and not force
        if rep is not None and not second:
            try:
                store.write_document(rep.meta, rep.path, rep.sha256, rep.kind, rep.pages, rep.facts, rep.sections,
                                     rep.chunks, rep.warnings, PARSER_VERSION, rep.tables, rep.page_words,
                                     rep.words)
            except (UnicodeError, ValueError, OverflowError) as exc:   # (its transaction rolled back)
                rep, err = None, f"cannot store what was read ({type(exc).__name__}: {str(exc)[:120]})"
        if rep is None:
            o = Outcome(path, "failed", err or "unknown error")
        elif second:
            o = Outcome(path, "skipped", f"{rep.meta.short_name or rep.meta.key} {_filing_label(rep.meta)} is already in the "
                                         f"store from {other}; not replaced (--force replaces it with this file)")
        else:
            n_fin = sum(1 for f in rep.facts if f.statement in ("资产负债表", "利润表", "现金流量表"))
            detail = f"{rep.meta.short_name or rep.meta.full_name or rep.meta.stock_code} {_filing_label(rep.meta)}: " \
                     f"{rep.pages} pages, {n_fin} statement facts, {len(rep.facts) - n_fin} other facts, " \
                     f"{len(rep.chunks)} chunks"
            if rep.warnings:
                detail += "; warnings: " + "; ".join(rep.warnings)
            o = Outcome(path, "ingested", detail, rep)
        summary.outcomes.append(o)
        if on_progress:
            on_progress(o)

    try:
        if workers <= 1 or len(todo) <= 1:
            for path, sha, hint in todo:
                finish(*_parse_safely(path, sha, catalog, hint))
        else:
            n = min(workers, len(todo), os.cpu_count() or 1)
            with ProcessPoolExecutor(max_workers=n, initializer=_start_worker,
                                     initargs=(catalog, n >= PARSERS_MAKING_SEARCH_ROWS)) as pool:
                # written in the files' order, as one process writes them (the store's ids, and so the order
                # of equal search scores, do not depend on which parser finished first), with at most 2
                # files a process read ahead (what waits for an earlier slow file is held in memory)
                ahead: deque[tuple[str, Future]] = deque()
                waiting = iter(todo)
                died = ""   # a parser process that died takes the pool with it: the files after it fail, said
                try:
                    while True:
                        if not died:
                            for path, sha, hint in itertools.islice(waiting, 2 * n - len(ahead)):
                                ahead.append((path, pool.submit(_parse_in_worker, path, sha, hint)))
                        if not ahead:
                            break
                        path, fut = ahead.popleft()
                        try:
                            finish(*fut.result())   # (a file parsed before the process died is written)
                        except BrokenProcessPool:
                            died = ("a parser process died (out of memory, or a crash reading a PDF) before this "
                                    "file was read; ingest it again")
                            finish(path, None, died)
                    for path, _, _ in waiting:
                        finish(path, None, died)
                except BaseException:
                    for _, fut in ahead:
                        fut.cancel()
                    raise
    except KeyboardInterrupt:
        summary.interrupted = True
    if summary.count("ingested"):
        store.optimize_search()
    summary.seconds = time.perf_counter() - t0
    return summary
