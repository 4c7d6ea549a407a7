"""Company profile (公司信息 …) and employee facts (员工情况, 研发投入 table), read from text lines.

Labels come from keyword_tables/profile.yaml and keyword_tables/employees.yaml. A line holds one or
several "label value" pairs ("公司网址 www.hivi.com 电子信箱 zqb@hivi.com"); a line made only of labels
is the header of a one-row table whose values are on the next line ("股票种类 股票上市交易所 股票简称
股票代码" / "A股 上海证券交易所 四方科技 603339").
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..catalog import Catalog
from ..numbers import UNIT_FACTORS, decimal_str, parse_number, to_yuan
from .pages import Document

_HEADING_TAIL = re.compile(r"\s*(?:[一二三四五六七八九十]+、|[（(][一二三四五六七八九十]+[)）]).*$")
_PROFILE_END = re.compile(r"(?:主要会计数据和财务指标|近三年主要会计数据|主要会计数据)")
_CONTACT_START = re.compile(r"联系人和联系方式")
_SPACE_CJK = re.compile(r"(?<=[\u4e00-\u9fff])\s+|\s+(?=[\u4e00-\u9fff])")


@dataclass
class ProfileFact:
    item: str
    value: str  # text, or a decimal string for counts/ratios/amounts
    unit: str | None
    statement: str  # 公司信息 | 员工情况 | 专业构成 | 教育程度 | 研发投入
    page: int
    raw_label: str
    period: str = "current"   # (研发投入 rows under a header of years: previous, previous2 too)


def _label_regex(labels: list[str]) -> re.Pattern:
    alts = sorted({l for l in labels}, key=len, reverse=True)
    parts = []
    for a in alts:
        # a printed label may have spaces between characters, and brackets in either width
        chars = [re.escape(c) if c not in "（）()" else ("[（(]" if c in "（(" else "[)）]") for c in a]
        parts.append(r"\s*".join(chars))
    return re.compile(r"(?:%s)\s*[:：]?" % "|".join(parts))


def _profile_spec(data: dict) -> tuple[dict[str, str | None], re.Pattern, dict]:
    """keyword_tables/profile.yaml → (label key → field, None for ignored labels; their regex; the table).

    A combined label (股票简称及代码) maps to its own name; _combined splits its value.
    """
    fields: dict[str, list[str]] = data.get("fields", {})
    by_label: dict[str, str | None] = {_key(l): None for l in data.get("ignored") or ()}
    for name, labels in fields.items():
        for l in labels:
            by_label[_key(l)] = name
    for label in data.get("combined") or {}:
        by_label[_key(label)] = label
    return by_label, _label_regex(list(by_label)), data


def _employee_spec(data: dict) -> tuple[dict[str, tuple[str, str]], re.Pattern, dict]:
    """keyword_tables/employees.yaml → (label key → (item, unit); their regex; the table)."""
    by_label: dict[str, tuple[str, str]] = {}
    for group, unit in (("counts", "人"), ("ratios", "%"), ("amounts", "元")):
        for name, labels in (data.get(group) or {}).items():
            for l in labels:
                by_label[_key(l)] = (name, unit)
    return by_label, _label_regex(list(by_label)), data


def _key(label: str) -> str:
    return re.sub(r"\s|[:：]", "", label).replace("（", "(").replace("）", ")")


# "1.公司法定中文名称：…", "（三）股票简称：…": the item numbering of older layouts
_ENUMERATOR = re.compile(r"^\s*(?:\d{1,2}\s*[.、．](?!\d)|[（(]\s*[\d一二三四五六七八九十]{1,3}\s*[)）]|[一二三四五六七八九十]{1,3}、)\s*")
_CODE_TAIL = re.compile(r"^(.*?)\s*(\d{6})$")


def _combined(fields: list[str], value: str) -> list[tuple[str, str]]:
    """A combined label's value "<name> <code>" → [(first field, name), (second field, code)]."""
    m = _CODE_TAIL.match(value.strip())
    if not m or len(fields) != 2:
        return []
    name = _clean_value(m.group(1))
    return [(fields[0], name), (fields[1], m.group(2))] if name else [(fields[1], m.group(2))]


_ALIAS_REMARK = re.compile(r"[（(][^（()）]*简称[^（()）]*[)）]?$")
# a label's own remark wrapped onto its value's place: "（如" of 外文名称缩写（如有）, "（境" of 会计师事务所（境内）
_LABEL_REMARK = re.compile(r"[（(](?:如有?|境内?|境外?|国内|国外)[)）]?")
_WRAPPED_LATIN = re.compile(r"[A-Za-z0-9.,&()（）'’\- ]{2,40}")
# the board secretary named after a colon where the contact table's column name stands ("董事会秘书：华兵",
# "3.董事会秘书：谭华杰", "四、 董事会秘书 ： 白丹"), not its header "董事会秘书 证券事务代表"
_SECRETARY = re.compile(r"^(?:公司)?董事会秘书\s*[:：]\s*([\u4e00-\u9fa5·]{2,8}|[A-Za-z][A-Za-z .]{1,30})\s*$")
_WRAPPABLE = ("中文名称", "注册地址", "办公地址", "董事会秘书联系地址", "外文名称", "信息披露媒体")


def _clean_value(v: str) -> str:
    v = _ALIAS_REMARK.sub("", _HEADING_TAIL.sub("", v.strip(" :：\t")))
    v = _SPACE_CJK.sub("", v).strip()
    if _LABEL_REMARK.fullmatch(v) or v[:1] in "、，,；;":
        return ""   # the "（如有）" of a label wrapped onto its value's place ("公司的外文名称缩写（如" | "有）"); the
        # rest of a label naming two fields ("公司聘请的会计师事务所名称、办公地址")
    half = len(v) // 2
    if len(v) > 3 and len(v) % 2 == 1 and v[:half] == v[half + 1:] and v[half] == " ":
        v = v[:half]  # the same value printed in two columns (董事会秘书 | 证券事务代表)
    return v


def _names(value: str, titles: re.Pattern) -> str:
    """A list of names (each printed after its title, or apart by spaces: "李青龙 梁正勇 曾志"), the titles dropped:
    "、" between the names (a name printed a character at a time, "王 瑜 军", stays one)."""
    out: list[str] = []
    for part in titles.split(value):
        tokens = part.split()
        out += tokens if len(tokens) > 1 and all(len(t) >= 2 for t in tokens) else [part]
    return "、".join(v for v in (_clean_value(x) for x in out) if v)


def _pairs(text: str, rx: re.Pattern) -> list[tuple[str, str]]:
    """The (label, value) pairs of a line that starts with a label — or with the end of a Latin value wrapped
    from the line before ("Medprin 公司的法定代表人 袁玉宇", of 公司的外文名称缩写（如有）)."""
    ms = list(rx.finditer(text))
    if not ms or text[: ms[0].start()].strip() and not _WRAPPED_LATIN.fullmatch(text[: ms[0].start()].strip()):
        return []
    out = []
    for i, m in enumerate(ms):
        end = ms[i + 1].start() if i + 1 < len(ms) else len(text)
        out.append((m.group(0), text[m.end():end]))
    return out


def extract_profile(doc: Document, catalog: Catalog, max_pages: int = 25) -> list[ProfileFact]:
    by_label, rx, spec = _profile_spec(catalog.profile)
    facts: dict[str, ProfileFact] = {}
    contact_cols = spec.get("contact_columns", ["董事会秘书", "证券事务代表"])
    contact_rows = spec.get("contact_rows", {})
    combined = spec.get("combined") or {}
    name_lists = set(spec.get("name_lists") or ())   # fields listing persons: their names apart by "、"
    # a person's title printed before each name of such a list ("中国注册会计师：陈志芳 中国注册会计师：" | "李瑶"): no
    # part of the names; one left open at the line's end has its name on the next line
    words = "|".join(re.escape(t) for t in sorted(spec.get("name_titles") or (), key=len, reverse=True))
    title = re.compile(rf"(?:{words})\s*[:：]" if words else r"(?!)")
    title_open = re.compile(rf"(?:{words})\s*[:：]\s*$" if words else r"(?!)")
    started = False
    in_contact = False
    pending_header: list[str | None] | None = None
    last: ProfileFact | None = None  # the field set by the line before (its value may wrap)
    titled: ProfileFact | None = None   # … whose value ends with a title whose name is on the next line
    for page in doc.pages[:max_pages]:
        for line in page.lines:
            text = line.text.strip()
            exact: list[tuple[str, str]] | None = None
            if line.cells is not None:  # a txt table row: "label：" | "value"
                cells = [c for c in line.cells if c]
                text = " ".join(cells)
                if len(cells) == 2 and rx.fullmatch(cells[0].strip()):
                    exact = [(cells[0].strip(), cells[1])]
            text = _ENUMERATOR.sub("", text)
            flat = _key(text)
            if not started:
                head = rx.match(text)
                started = head is not None and by_label.get(_key(head.group(0))) in (
                    "中文名称", "股票简称", "法定代表人", *combined)
                if not started:
                    continue
            if _PROFILE_END.search(flat) and len(flat) < 30:
                return list(facts.values())
            if _CONTACT_START.search(flat):
                in_contact = True
                continue
            sec = _SECRETARY.match(text.strip())
            if sec is not None:
                field_name = f"{contact_cols[0]}姓名"
                if field_name not in facts:
                    facts[field_name] = ProfileFact(field_name, sec.group(1).strip(), None, "公司信息", page.number,
                                                    "董事会秘书")
                continue
            if pending_header:
                tokens = text.split()
                if len(tokens) >= len(pending_header):
                    for name, tok in zip(pending_header, tokens):
                        if name and name not in facts:
                            facts[name] = ProfileFact(name, tok, None, "公司信息", page.number, name)
                pending_header = None
                continue
            if in_contact:
                first = text.split()[0] if text.split() else ""
                if flat.startswith(tuple(contact_cols)):
                    continue
                row = contact_rows.get(first)
                if row:
                    values = text.split()[1:]
                    if values:
                        val = _clean_value(" ".join(values))
                        # two columns of one-token values: the first is the 董事会秘书's
                        if len(values) == 2:
                            val = values[0]
                        elif len(values) >= 2 and values[0] == values[-1]:
                            val = values[0]
                        name = f"{contact_cols[0]}{row}"
                        if name not in facts and val:
                            facts[name] = ProfileFact(name, val, None, "公司信息", page.number, first)
                            last = facts[name]
                    continue
                in_contact = False
            pairs = exact or _pairs(text, rx)
            if not pairs:
                if titled is not None and page.number == titled.page and not title.search(text) \
                        and re.fullmatch(r"[\u4e00-\u9fa5·]{2,8}(?:\s+[\u4e00-\u9fa5·]{2,8})*", text):
                    # the name of a title left open at the line's end ("中国注册会计师：" | "李瑶")
                    titled.value = "、".join([titled.value, *text.split()]) if titled.value else "、".join(text.split())
                    titled = None
                    continue
                titled = None
                if (last is not None and last.item in _WRAPPABLE and len(flat) <= 12 and page.number == last.page
                        and not re.search(r"\d{5,}|[:：]", flat) and not _HEADING_TAIL.match(text)):
                    last.value += _clean_value(text)  # "…沙尔沁工业" / "园区"
                last = None
                continue
            last = titled = None
            if len(pairs) >= 3 and all(not v.strip() for _, v in pairs):
                pending_header = [by_label.get(_key(l)) for l, _ in pairs]
                continue
            for label, value in pairs:
                name = by_label.get(_key(label))
                if name in combined:
                    for field, val in _combined(combined[name], value):
                        if field not in facts:
                            facts[field] = ProfileFact(field, val, None, "公司信息", page.number, _key(label))
                    continue
                val = _names(value, title) if name in name_lists else _clean_value(value)
                if name in ("电子信箱", "公司网址", "股票代码") and val:
                    val = val.split()[0]
                if name and val and name not in facts:
                    facts[name] = ProfileFact(name, val, None, "公司信息", page.number, _key(label))
                    last = facts[name] if len(pairs) == 1 else None
                    titled = facts[name] if name in name_lists and title_open.search(value) else None
    return list(facts.values())


def audit_signatures(doc: Document, catalog: Catalog) -> ProfileFact | None:
    """签字会计师姓名 from the audit report's signature block, where the report prints no 其他有关资料 listing
    them (older layouts): each name title ("中国注册会计师") followed by a person's name — after it on its line,
    else the last word of the next line ("中审国际会计师事务所 中国注册会计师" | "有限公司 田景亮"). Read on the
    first page after the audit opinion that prints two such names at least; None when none does."""
    spec = catalog.profile
    titles = sorted(spec.get("name_titles") or (), key=len, reverse=True)
    if not titles:
        return None
    title = re.compile("|".join(map(re.escape, titles)))
    started = False
    for page in doc.pages:
        lines = [ln.text.strip() for ln in page.lines]
        if not started:
            started = any(_OPINION.search(x.replace(" ", "")) for x in lines)
            if not started:
                continue
        names: list[str] = []
        for i, text in enumerate(lines):
            m = title.search(text)
            if m is None or len(text) > 40:
                continue
            rest = text[m.end():].lstrip(" ：:")
            after = [rest.replace(" ", "")] if _SPACED_NAME.fullmatch(rest) else rest.split()   # ("刘 汉")
            if after and _PERSON.fullmatch(after[0]):
                names.append(after[0])
            elif not after and i + 1 < len(lines) and not title.search(lines[i + 1]):
                words = lines[i + 1].split()
                if words and _PERSON.fullmatch(words[-1]) and len(lines[i + 1]) <= 30:
                    names.append(words[-1])
        names = list(dict.fromkeys(names))
        if len(names) >= 2:
            return ProfileFact("签字会计师姓名", "、".join(names), None, "公司信息", page.number, "中国注册会计师")
        if started and any(x.startswith(("资产负债表", "合并资产负债表")) for x in lines):
            return None   # (the statements begin: no signature block read)
    return None


_OPINION = re.compile(r"审计意见|审计报告正文|我们审计了")
_SPACED_NAME = re.compile(r"[\u4e00-\u9fa5](?: ?[\u4e00-\u9fa5]){1,3}")
# a person's name: two to four characters, none of a place, a firm or a date
_PERSON = re.compile(r"(?![的对])(?![\u4e00-\u9fa5]*(?:公司|事务所|中国|北京|上海|深圳|年|月|日|会计|盖章|签名|签章|合伙|责任|意见|审计))"
                     r"[\u4e00-\u9fa5·]{2,4}")


_NUM_TOKEN = re.compile(r"[\d,]+(?:\.\d+)?%?")
_EMP_START = re.compile(r"员工情况|员工数量")
_NOT_A_COUNT = re.compile(r"年度报告|年报|有限公司|(?:19|20)\d\d\s*年")


def _first_number(text: str) -> str | None:
    m = _NUM_TOKEN.search(text)
    if not m:
        return None
    v = parse_number(m.group(0).rstrip("%"))
    return decimal_str(v) if v is not None else None


_YEAR_WORD = re.compile(r"((?:19|20)\d\d)\s*年度?")
_HEADER_NOTE = re.compile(r"[（(][^)）]{0,6}[)）]")
_LEADING_NUMBERS = re.compile(r"(?:\s*(?:-?[\d,]+(?:\.\d+)?%?|-{1,3}|—+))+")
_ROW_UNIT = re.compile(r"\s*[（(](人|%|元|千元|万元|百万元|亿元)[)）]")
_UNIT_LINE = re.compile(r"^单位[:：]?(千元|万元|百万元|亿元|元)(?:币种[:：]?\w+)?$")
_UNIT_REACH = 3       # lines a 单位 line stands over its table's header (or first row) at most
_HEADER_REACH = 12   # lines after a header of columns that its rows stand on (the same page)


def _scaled(value: str, unit: str) -> str:
    """A decimal string in 元 of an amount printed in `unit` (千元, 万元, …)."""
    v = parse_number(value)
    return decimal_str(to_yuan(v, unit)) if v is not None else value


def _period_columns(text: str, year: int | None, periods: dict[str, tuple[str, ...]]) -> list[str | None] | None:
    """The periods of a table header's columns (current, previous, previous2; None: a change column) when the
    line is such a header: "本年度 上年度 变化幅度（%）", "2019 年 2018 年 变动比例" (years counted back from the
    report's), "项目 本期 上期"; else None. Words from rules/lexicon.yaml's `table_periods`."""
    tokens = _HEADER_NOTE.sub("", _YEAR_WORD.sub(r"\1年", text)).split()
    if tokens and tokens[0] == "项目":
        tokens = tokens[1:]
    out: list[str | None] = []
    for t in tokens:
        y = _YEAR_WORD.fullmatch(t)
        if y is not None:
            back = year - int(y.group(1)) if year is not None else -1
            if back not in (0, 1, 2):
                return None
            out.append(("current", "previous", "previous2")[back])
        elif t in periods.get("current", ()):
            out.append("current")
        elif t in periods.get("previous", ()):
            out.append("previous")
        elif any(w in t for w in periods.get("change", ())) and len(t) <= 8:
            out.append(None)
        else:
            return None
    kept = [p for p in out if p is not None]
    # (the report year's first, each period once: a header of the years read, not one of quarters or of regions)
    return out if len(kept) >= 2 and kept[0] == "current" and len(set(kept)) == len(kept) else None


def extract_employees(doc: Document, catalog: Catalog, year: int | None = None) -> list[ProfileFact]:
    """The employee facts and the 研发投入 table's (of the report year; of the years before too where a header of
    columns (本年度 上年度, 2019年 2018年 2017年) stands over the row, within a few lines on its page)."""
    by_label, rx, spec = _employee_spec(catalog.employees)
    blocks = {b: names for b, names in (spec.get("blocks") or {}).items()}
    facts: dict[tuple[str, str], ProfileFact] = {}
    earlier: dict[tuple[str, str], ProfileFact] = {}   # (item, period) → a 研发 row's value of a year before
    periods = dict(catalog.lexicon.table_periods)

    def add(item, value, unit, statement, page, raw):
        if (statement, item) not in facts:
            facts[(statement, item)] = ProfileFact(item, value, unit, statement, page, raw)

    block: str | None = None
    totals: dict[str, str | None] = {}   # block → its 合计 row's number
    emp_pages = 0
    for page in doc.pages:
        in_emp_section = emp_pages > 0
        header: tuple[list[str | None], int] | None = None   # (a header's columns, its line's index)
        unit_line: tuple[str, int] | None = None   # (a 单位 line's unit, its line's index)
        for at, line in enumerate(page.lines):
            text = line.text.strip()
            flat = _key(text)
            columns = _period_columns(text, year, periods) if "年" in text or "期" in text else None
            if columns is not None:
                header = (columns, at)
                continue
            said = _UNIT_LINE.match(flat)
            if said is not None:
                unit_line = (said.group(1), at)
            if _EMP_START.search(flat) and len(flat) < 40:
                emp_pages = 3  # the 员工情况 section runs over at most a few pages
            if block:
                m = re.match(r"^(.+?)[（(]?人?[)）]?\s+([\d,]+)(?:\s|$)", text)
                if flat.startswith("合计") or flat.startswith("总计"):
                    totals.setdefault(block, _first_number(flat[2:]))   # (the block's total, as printed)
                    block = None
                    continue
                if m and not re.search(r"类别|人数|数量", m.group(1)):
                    v = _first_number(m.group(2))
                    if v is not None:
                        add(catalog.employee_category(_key(m.group(1))), v, "人", block, page.number, m.group(1))
                    continue
                if re.search(r"类别|人数|数量", flat):
                    continue
                block = None
            if emp_pages:
                for b, names in blocks.items():
                    if any(flat == n or flat.startswith(n + "类别") or flat == n + "情况" for n in names):
                        block = b
                        break
                if block:
                    continue
            ms = list(rx.finditer(text))
            if ms and not text[: ms[0].start()].strip():
                label = ms[0].group(0)
                name, unit = by_label.get(_key(label), (None, None))
                if name is None:
                    continue
                rest = text[ms[0].end():]
                said_unit = _ROW_UNIT.match(rest)
                rest = rest[said_unit.end():] if said_unit else rest
                if _NOT_A_COUNT.search(rest):
                    continue  # a page header run into the line ("深圳能源集团股份有限公司 2016 年年度报告")
                v = _first_number(rest)
                if v is None:
                    continue
                # an amount in the unit its label or its table's 单位 line prints (研发投入金额（千元）: 宁德时代) — the
                # line just over the table's header, or over the row where the table has none
                top = header[1] if header is not None and at - header[1] <= _HEADER_REACH else at
                scale = said_unit.group(1) if said_unit else (
                    unit_line[0] if unit_line and 0 < top - unit_line[1] <= _UNIT_REACH else "元")
                scaled = unit == "元" and scale in UNIT_FACTORS
                if scaled:
                    v = _scaled(v, scale)
                stmt = "研发投入" if name.startswith("研发") else "员工情况"
                if name.startswith("研发") or emp_pages or in_emp_section:
                    add(name, v, unit, stmt, page.number, _key(label))
                if name.startswith("研发") and header is not None and at - header[1] <= _HEADER_REACH:
                    # the row's leading numbers, one a column ("15.77 21.44 减少 5.67 个百分点": 本年度, 上年度)
                    lead = _LEADING_NUMBERS.match(rest)
                    cells = lead.group(0).split() if lead else []
                    kept = facts.get((stmt, name))
                    this_row = kept is not None and kept.page == page.number and kept.value == v   # (its year's)
                    for column, cell in zip(header[0], cells):
                        w = _first_number(cell) if column not in (None, "current") else None
                        if w is None or column is None or (name, column) in earlier or not this_row:
                            continue
                        w = _scaled(w, scale) if scaled else w
                        earlier[(name, column)] = ProfileFact(name, w, unit, stmt, page.number, _key(label), column)
        if emp_pages:
            emp_pages -= 1
    # a row "本科以上" beside a row 本科: those above it (硕士及以上), not 本科及以上 (employees.yaml `above`) — where
    # the table's rows are its parts (they add up to its 合计) and it prints none of those above apart (else it
    # is a subtotal: 本科以上 300 over 本科 200, 硕士 80, 博士 20)
    printed = {item for stmt, item in facts if stmt == "教育程度"}
    rows = [parse_number(f.value) for (stmt, _), f in facts.items() if stmt == "教育程度"]
    total = parse_number(totals.get("教育程度") or "")
    parts = total is not None and None not in rows and sum(rows) == total   # type: ignore[arg-type]
    held = catalog.employees.get("contains") or {}
    for (stmt, item), f in list(facts.items()):
        up = catalog.above_category(f.raw_label, printed) if stmt == "教育程度" and parts else None
        if up is not None and up != item and (stmt, up) not in facts and not printed & set(held.get(up, ())):
            old = (stmt, item)   # (re-keyed where it stands: the facts keep the table's order)
            facts = {((stmt, up) if k == old else k): (replace(f, item=up) if k == old else x) for k, x in facts.items()}
    # banks and insurers write the head count in prose
    for item, patterns in (spec.get("prose") or {}).items():
        if ("员工情况", item) not in facts:
            hit = _first_prose_match(doc, patterns)
            if hit:
                add(item, hit[0], "人", "员工情况", hit[1], hit[2])
    return list(facts.values()) + list(earlier.values())


def _first_prose_match(doc: Document, patterns: list[str]) -> tuple[str, int, str] | None:
    """(number, page, matched text) of the first sentence matching one of the patterns."""
    for page in doc.pages:
        for line in page.lines:
            for p in patterns:
                m = re.search(p, line.text)
                if m is None:
                    continue
                v = parse_number(m.group(1))
                if v is not None:
                    return decimal_str(v), page.number, m.group(0)
    return None
