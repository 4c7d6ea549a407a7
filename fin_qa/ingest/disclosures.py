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


_NAME_HEADER = re.compile(r"姓名")
_ROLE_HEADER = re.compile(r"(?:现任)?职务(?:[（(]注[^）)]*[）)])?|职位")
_STATUS_HEADER = re.compile(r"任职状态")
_ROLES_APART = re.compile(r"[、，,；;/\s]+|兼(?:任)?")
_LEFT_MARK = re.compile(r"[（(]\s*(?:已)?离任\s*[）)]")
_WHO = re.compile(r"性别|年龄|出生|任期|任职状态|任职日期|起止")
_ELSEWHERE = re.compile(r"单位(?:名称)?$")   # (任职股东单位, 其他单位名称: where the post is held)
_STATUS = re.compile(r"现任|离任|已?离职|任期满离任")
_LEFT = "离"


def _role_holders(tables: list[Table], pages: set[int], role: re.Pattern) -> tuple[str, int, str] | None:
    """(names, page, quote) of the persons holding a post (董事长): the 姓名 of each row whose 职务 names the
    post whole ("董事、总经理", "董事长兼总经理": 总经理; never 副总经理), in the first table of the pages with
    姓名 and 职务 columns (with the tables printed on after it with no header) that names its holders
    readably — a name read whole, a post read with its wrapped lines; where a table's rows are not (a
    name wrapped, "曾毓" / "群"), the next such table (报酬情况 prints them again). Where a 任职状态 column
    tells, those who left (离任) are said apart."""
    for columns, rows, whole in _staff_tables(tables, pages):
        found = _holders(columns, rows, whole, role)
        if not found:
            continue   # (none, or none read: the next such table)
        left = [f for f in found if _LEFT in f[2]]
        now = [f for f in found if f not in left]
        quote = "；".join(f"姓名：{f[0]}，职务：{f[1]}" + (f"，任职状态：{f[2]}" if f[2] else "") for f in now + left)
        gone = "、".join(dict.fromkeys(f[0] for f in left))
        if not now:
            return f"{gone}（报告期内离任）", left[0][3], quote
        value = "、".join(dict.fromkeys(f[0] for f in now))
        return value + (f"（报告期内离任：{gone}）" if gone else ""), now[0][3], quote
    return None


def _staff_columns(t: Table) -> tuple[int, int, int | None] | None:
    header = [re.sub(r"\s", "", h) for h in t.header]
    names = [k for k, h in enumerate(header) if _NAME_HEADER.fullmatch(h)]
    roles = [k for k, h in enumerate(header) if _ROLE_HEADER.fullmatch(h)]
    if not names or not roles or any(_ELSEWHERE.search(h) for h in header):
        return None   # (a post held elsewhere: 姓名 | 任职股东单位 | 职务 is no post of the company)
    if not any(_WHO.search(h) for h in header):
        return None   # (the officers' own table prints who they are — 性别, 年龄, 任期, 任职状态 —; a table of
        # options or restricted shares granted, or of holdings, lists some of them only)
    return names[0], roles[0], next((k for k, h in enumerate(header) if _STATUS_HEADER.fullmatch(h)), None)


def _staff_tables(tables: list[Table], pages: set[int]):
    """Each table of the pages with 姓名 and 职务 columns: (its columns, its rows with their pages — the rows of
    the tables printed on after it with no header too — a header line there, a name column's empty, read as a
    row —, whole: False where a table after it is of other columns, "总经 理" | "年 8 年 12 月", its rows
    wrapped beyond reading)."""
    i = 0
    while i < len(tables):
        t = tables[i]
        columns = _staff_columns(t)
        i += 1
        if columns is None or t.page_start not in pages:
            continue
        rows = _paged_rows(t)
        end, whole = t.page_end, True
        while i < len(tables) and tables[i].page_start <= end + 1:
            own = _staff_columns(tables[i])
            if own is not None and (own != columns or tables[i].header != t.header):
                break   # (another officers' table)
            if own is not None:   # (the table printed on under its header again: its rows)
                rows += _paged_rows(tables[i])
                end = tables[i].page_end
                i += 1
                continue
            header = [re.sub(r"\s", "", h) for h in tables[i].header]
            if header and header[0]:
                if tables[i].page_start == end + 1 and _LEFT_MARK.search("".join(header)):
                    # (the last row's cells wrapped over the page: "董事长" / "（离任）" atop the next page)
                    rows.append((tables[i].header, tables[i].page_start))
                break   # (a table of its own)
            u = tables[i]
            if any(header) and u.width != t.width:
                whole = False   # (its columns not the table's: its rows are read no further)
                break
            # (a "header" printed with a name column empty is a wrapped line of the rows: read as a row)
            rows += [(u.header, u.page_start)] if any(header) else []
            rows += _paged_rows(u)
            end = u.page_end
            i += 1
        yield columns, rows, whole


def _paged_rows(t: Table) -> list[tuple[list[str], int]]:
    """A table's body rows, each with its page."""
    return [(r, t.pages[k] if k < len(t.pages) else t.page_start) for k, r in enumerate(t.rows)]


def _holders(columns: tuple[int, int, int | None], rows: list[tuple[list[str], int]], whole: bool,
             role: re.Pattern) -> list[tuple[str, str, str, int]] | None:
    """(name, post as printed, status, page) of the rows holding the post; None where one of them is not read
    whole (its name wrapped or not a name, its row the last of a table whose rows go on in fragments)."""
    n, r, st = columns
    cells = [row for row, _ in rows]
    if any(_cut(role, re.sub(r"\s", "", row[r])) for row in cells if r < len(row)):
        return None   # (the posts' cells wrapped across the rows of other names: "董事、副总经" / "理、董事会秘书")
    found = []
    for k, (row, page) in enumerate(rows):
        if max(n, r) >= len(row) or not row[n].strip():
            continue
        own = re.sub(r"\s", "", row[r])
        # a post wrapped in its cell prints its lines on the rows above and below a name (vertically
        # centred: "财务总监、副" / "总经理"): the row holds the post only read with its neighbours' lines too
        above, below = _wrapped(cells, k - 1, n, r), _wrapped(cells, k + 1, n, r)
        readings = {own, above + own, own + below, above + own + below} - {""}
        # (a post printed with its holder's leaving — "董事长（离任）", the bracket wrapped onto the row below —:
        # the post, held by one who left)
        gone = any(_LEFT_MARK.search(x) for x in readings)
        readings = {_LEFT_MARK.sub("", x) for x in readings} - {""}
        holds = [any(role.fullmatch(p) for p in _ROLES_APART.split(x) if p) for x in readings]
        if any(holds) and not all(holds) or not any(holds) and any(_inside(role, x) for x in readings):
            return None   # (a post read one way and not another, or run into another's words — "执行董事副行长":
            # who holds it cannot be told from this table, and a list without the row is no list of them)
        if not readings or not all(holds):
            continue
        name = _person(row, n, r, cells, k)
        if name is None or k == len(rows) - 1 and not whole:
            return None
        state = re.sub(r"\s", "", row[st]) if st is not None and st < len(row) else ""
        state = state if _STATUS.fullmatch(state) else ""   # (a column shifted in a table printed on: no status)
        state = "离任" if gone else state
        found.append((name, max(readings, key=len), state, page))
    return found


_PERSON = re.compile(r"[\u4e00-\u9fff]{2,4}|[\u4e00-\u9fff]{1,6}·[\u4e00-\u9fff]{1,8}|[A-Z][A-Za-z .'-]{2,40}")


def _person(row: list[str], n: int, r: int, rows: list[list[str]], k: int) -> str | None:
    """The name in a row's 姓名 cell when it reads as a person's whole name (2–4 characters, a name with ·, a
    Latin name) and no row next to it prints a piece of a name without a post (a name wrapped: "欧阳" / "楚英");
    a two-character name printed spaced over two columns ("张" | "新", the left one headed by nothing) joined."""
    name = re.sub(r"(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])", "", row[n].strip())
    if len(name) == 1 and n > 0 and len(row[n - 1].strip()) == 1:
        name = row[n - 1].strip() + name
    for j in (k - 1, k + 1):
        if 0 <= j < len(rows) and max(n, r) < len(rows[j]) and rows[j][n].strip() and not rows[j][r].strip():
            return None
    return name if _PERSON.fullmatch(name) else None


# the ends a post's name may be cut at by a narrow column, and the beginnings of the rest
_TAILS = ("理", "经理", "总经理", "书", "秘书", "监", "总监", "席", "主席", "长", "事长", "裁", "总裁", "官", "行官")
_POSTS_OF_THEIR_OWN = {"董事", "监事", "经理", "副总", "行长", "总裁", "独立董事", "职工监事", "职工代表监事", "执行董事"}
_HEADS = ("副总经", "总经", "副总", "董事会秘", "财务总", "监事会主", "董事", "副董事", "副行", "行", "首席执", "首席财务")


def _cut(role: re.Pattern, text: str) -> bool:
    """Whether a post cell holds the post cut in two — its beginning ending a part ("董事、副总经") or its end starting
    the cell ("理、董事会秘书")."""
    parts = [p for p in _ROLES_APART.split(text) if p]
    if not parts or any(role.fullmatch(p) for p in parts):
        return False
    return any(len(p) >= 2 and p not in _POSTS_OF_THEIR_OWN and any(role.fullmatch(p + t) for t in _TAILS)
               for p in parts) or any(role.fullmatch(h + parts[0]) for h in _HEADS)


def _inside(role: re.Pattern, text: str) -> bool:
    """Whether a post is printed inside a cell's words without standing apart ("执行董事副行长"): not as a deputy's or an
    assistant's (副总经理 holds no 总经理; 总经理助理 neither)."""
    for m in role.finditer(text):
        if not text[:m.start()].endswith(("副", "常务", "执行", "高级")) and not text.startswith("助理", m.end()):
            if not any(role.fullmatch(p) for p in _ROLES_APART.split(text) if p):
                return True
    return False


def _wrapped(rows: list[list[str]], k: int, n: int, r: int) -> str:
    """The 职务 cell of row k where it is a line of a wrapped cell (a row printing no name), else ""."""
    if not 0 <= k < len(rows) or max(n, r) >= len(rows[k]) or rows[k][n].strip():
        return ""
    return re.sub(r"\s", "", rows[k][r])


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
        if rule.role:
            held = _role_holders(tables or [], {number for number, _ in pages}, rule.pattern)
            if held is not None:
                return ProfileFact(spec.item, held[0], None, STATEMENT, held[1], held[2])
            continue
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
            if spec.kind in ("per_share", "amount", "count"):
                num = parse_number(value)
                if num is None:
                    continue
                if spec.kind == "amount":  # in 元, by the unit printed with it (182.83亿元)
                    unit = m.groupdict().get("u") or "元"
                    return ProfileFact(spec.item, decimal_str(to_yuan(num, unit)), "元", STATEMENT, number, raw)
                # (a count in the unit printed with it — 户, 名 — else the item's)
                printed = (m.groupdict().get("u") or m.groupdict().get("w")) if spec.kind == "count" else None
                return ProfileFact(spec.item, decimal_str(num), printed or spec.unit, STATEMENT, number, raw)
            return ProfileFact(spec.item, spec.values.get(value, value), None, STATEMENT, number, raw)
    return None
