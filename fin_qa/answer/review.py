"""Review before an answer leaves: one deterministic reviewer of what an answerer gave for an ask.

The answerers are trusted to read and compute; the reviewer checks that what they give *answers the ask*:

- an ask that is no yes/no question never gets a 是/否 fact ("起诉公司的是哪家" is not 是否存在重大诉讼);
- a yes/no ask ("是否存在…", "有没有…") gets 是/否 (or 相同/不相同, 有/无 …) — never an item's value that
  merely shares a word with it ("是否存在控股股东及其关联方非经营性占用资金" is not "控股股东是黄杰"); a
  quoted 是/否 speaks of every topic asked (资金占用), and names every other company asked of;
- a table cell answers the item the ask is about (its first item stands in the table's caption, the row
  or the column: 营业收入合计 never answers 营业外收入); a change column answers a change only; a share
  column naming its whole (占利润总额比例) answers a share of that whole only;
- a quote answering a value ask speaks of what narrows it (海外, a subsidiary's name), and the rows quoted
  for a value speak of each word the question asks beyond its slots (第一大供应商 is not 前五名供应商合计);
- a value read for one year is the year asked (a previous-period column is said so by its answerer);
- every number a quoting answer states is in its evidence (an amount printed in 万元 stands for its 元):
  no number comes from nowhere (the chat model's prose); the answerers that compute (a formula, a change,
  a ranking) print what they computed from their evidence.

- a column printing a year answers that year only (2010年12月31日 is no 上年末 of 2012);
- a ratio asked (比值, 之比, 多少倍) is a plain number, never a percent.

The checks are named functions run in the order of CHECKS (the first failing one declines), each tested
alone (tests/test_review.py). An answer failing review is declined with the reason (rules/answer_templates.yaml review_*). This is
the "reflection" step of an LLM pipeline (answer, then judge the answer) made deterministic.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from ..catalog.cells import CellWords
from ..catalog.frames import FrameWords
from ..catalog.items import ItemTable
from ..catalog.normalize import phrase_key
from ..numbers import UNIT_FACTORS, parse_number
from ..understand.question import Understanding
from .tables import CHANGE_COLUMN, content, cover, norm, pairs
from .compose import render
from .frames import aging_span
from .model import TABLE_METHODS, Answer, CellEvidence, FactEvidence, PassageEvidence

# how a yes/no answer starts: the word, then a stop (无锡…, 有研新材 are names, not 无/有)
_YES_NO = re.compile(r"^(?:是|否|相同|不相同|有|无|没有|存在|不存在)[。，,：:；;]")
# a text fact saying there is none (不存在控股股东, 无实际控制人, 无): 否, and nothing to refer back to
NONE_VALUE = re.compile(r"^(?:不存在|没有|无)(?:控股股东|实际控制人|控股股东(?:和|及|与)实际控制人)?[。.]?$")
# answerers that quote what they read (each number they state must be in the evidence as printed); the
# others compute theirs, or print a read value in the unit asked, from their evidence
QUOTING = ("stated", "text", "text+llm")
DECLINED = ("declined", "not_found", "bad_input")   # methods that give no value: nothing to review
# an amount as answers print it: grouped digits or decimals ("1,175,301,034.32", "23.59")
# words asking how something stands, which no quoted row needs to say
# a question asking a name, a value or a kind (not whether): what a 是/否 fact never answers
_ASKS_OTHER = re.compile(r"哪|谁|多少|什么|几[个家名人项位]|名称")
# a share column naming its whole (a column of changes: tables.CHANGE_COLUMN)
_SHARE_OF = re.compile(r"占(.+?)(?:的)?(?:比例|比重|百分比|比率)")
# an ask for who or what by name, asking no amount ("控股股东是谁", "审计机构叫什么名字"); and a row label or item of a
# quantity (股东总数(户), 持股比例, 金额): what never names anyone
_ASKS_WHO = re.compile(r"谁|叫什么|名称|名字")
# (最, 第, 前: a rank asked — 第一大股东是谁 — is answered by the row's name beside its quantities)
_ASKS_AMOUNT = re.compile(r"多少|几|比例|比重|占比|金额|数量|数额|总数|[最第前]")
_QUANTITY_LABEL = re.compile(r"数|额|率|比例|比重|占比|合计|总计|小计|[（(](?:户|人|股|元|万元|%)[)）]")
# a year printed in a column's header (2019年12月31日, 2019年度, 2019.12.31)
_YEAR_PRINTED = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")
_SCALED = re.compile(r"(\d+(?:\.\d+)?)\s*(亿元|百万元|万元|千元)")
_AMOUNT = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\d.,])\d+\.\d+")


LONG_NAME = 6   # an item's name of this many characters or more names it inside a row label (Reviewer.item_names)


class Reviewer:
    def __init__(self, templates: dict[str, str], cells: CellWords | None = None, frames: FrameWords | None = None,
                 items: ItemTable | None = None):
        self.t = templates
        self.roles = items.roles if items is not None else frozenset()
        # an item's long names (keyword_tables/items.yaml): a row printing one names the item (归属于上市公司股东的
        # 净利润 is 归母净利润); a short one (营收) could stand inside another item's row
        self.item_names = {name: tuple(content(norm(w)) for w in it.synonyms if len(content(norm(w))) >= LONG_NAME)
                           for name, it in (items.items.items() if items is not None else ())}
        cells = cells or CellWords()
        frames = frames or FrameWords()
        # the words of a rank over a table's rows (最大, 最高, 第二大): rules/frames.yaml
        words = sorted({*frames.rank_max, *frames.rank_min}, key=len, reverse=True)
        parts = [re.escape(w) for w in words] + ([frames.rank_nth.pattern] if frames.rank_nth is not None else [])
        self.rank = re.compile("|".join(parts)) if parts else None
        # words naming what a row is, before its name (控股股东常州投资集团有限公司): no item of their own
        self.appositives = frozenset(cells.appositives)
        # a label's last words saying what kind of value it is (研发投入金额 is the row 研发投入)
        # words no row needs to speak of (periods, the company, verbs, asking words): longest first
        # (of two characters or more: 有 and 股 inside 有限公司 and 持股 are no words of their own)
        self.neutral = tuple(sorted({w for w in (content(norm(x)) for x in (*cells.neutral_words, *cells.ask_words,
                                                                          *cells.description_words)) if len(w) >= 2},
                                    key=len, reverse=True))
        self.suffix = re.compile("(?:" + "|".join(map(re.escape, cells.value_suffixes)) + ")$") \
            if cells.value_suffixes else None

    def _bare(self, name: str) -> str:
        """A name without the appositive before it (全资子公司金宇保灵… → 金宇保灵…)."""
        for a in sorted(self.appositives, key=len, reverse=True):
            if name.startswith(a) and len(name) > len(a):
                return name[len(a):]
        return name

    def _spoken(self, rest: str, spoken: set[str]) -> bool:
        """Whether words ('#' between them) are spoken of: three quarters of their characters, less neutral
        and asking words, in character pairs said; fewer than 3 such characters always are."""
        w = "|".join(content(norm(part)) for part in rest.split("#"))
        for n in self.neutral:
            w = w.replace(n, "|")
        runs = [r for r in w.split("|") if r]
        chars = sum(map(len, runs))
        return chars < 3 or sum(sum(cover(r, spoken)) for r in runs) >= 0.75 * chars

    def review(self, u: Understanding, ans: Answer) -> str | None:
        """None when the answer answers its ask; else why it does not (the decline's reason): the first of
        CHECKS, in their order, that fails."""
        if not ans.answered or ans.method in DECLINED:
            return None
        for _, check in CHECKS:
            reason = check(self, u, ans)
            if reason is not None:
                return reason
        return None

    def failing(self, u: Understanding, ans: Answer) -> list[str]:
        """The names of every check the answer fails (for tests and diagnosis)."""
        if not ans.answered or ans.method in DECLINED:
            return []
        return [name for name, check in CHECKS if check(self, u, ans) is not None]


# ------------------------------------------------------------------------------------------- the checks
# Each check reads the ask's Understanding and the answer and returns None (it holds) or the reason to
# decline. They run in the order of CHECKS below; the first that fails declines the answer.

def yes_no_answered(rv: Reviewer, u: Understanding, ans: Answer) -> str | None:
    """A yes/no ask answered by a fact, cell or stated value starts with 是/否 (相同, 有, 无 …)."""
    if u.shape == "yes_no" and ans.method in ("lookup", *TABLE_METHODS, "stated") and not _YES_NO.match(ans.answer.strip()):
        return render(rv.t, "review_yes_no")
    return None


def no_yes_no_fact_for_a_name(rv: Reviewer, u: Understanding, ans: Answer) -> str | None:
    """A 是/否 fact (是否存在重大诉讼) does not answer an ask for a name or value ("起诉公司的是哪家公司")."""
    facts = [e for e in ans.evidence if isinstance(e, FactEvidence)]
    if u.shape != "yes_no" and _ASKS_OTHER.search(u.norm) and ans.method == "lookup" and facts \
            and all(e.value in ("是", "否") for e in facts):
        return render(rv.t, "review_not_yes_no")
    return None


def a_name_for_who(rv: Reviewer, u: Understanding, ans: Answer) -> str | None:
    """An ask for who or what by name ("控股股东是谁") is not answered by quantities alone: a cell of a quantity's row
    (截至报告期末普通股股东总数(户)) or a number read as a fact."""
    if not _ASKS_WHO.search(u.norm) or _ASKS_AMOUNT.search(u.norm) or not ans.evidence:
        return None
    for e in ans.evidence:
        if isinstance(e, CellEvidence) and _QUANTITY_LABEL.search(e.row or ""):
            continue
        if isinstance(e, FactEvidence) and e.company is None and parse_number(str(e.value)) is not None:
            continue   # (a company's value in a ranking across companies names the company: company set)
        return None
    return render(rv.t, "review_name_not_number")


# a person or a holder the report names (董事会秘书姓名, 法定代表人, 控股股东): an ask of it is "who"; any other ask word
# asks something of that person (学历是什么, 持有多少股) that the name does not answer
_PERSON_ITEMS = re.compile(r"姓名$|^(?:法定代表人|董事长|总经理|控股股东|实际控制人)$")
_OTHER_ASK = re.compile(r"什么|多少|几|哪些|如何|怎么|是否|有没有|有无")
# (beside _ASKS_WHO, which tells a name asked of anything — 名称 of a firm —, this tells who a person is asked)
_WHO_ASK = re.compile(r"谁|哪几?位|哪些人|姓名|名字|叫什么|什么人")
_ASK_FILLER = re.compile(r"[的是为叫有\s?？。!！,，]|什么|多少|几|哪些|如何|怎么|呢|吗|啊")


def a_name_for_who_only(rv: Reviewer, u: Understanding, ans: Answer) -> str | None:
    """A person's or a holder's name (董事会秘书姓名, 控股股东) answers who they are, nothing else asked of them:
    "董秘的学历是什么", "董秘持有公司多少股" (words after the item's, then an ask word) are declined, never answered
    with the name ("法定代表人是什么", "董秘是谁" are answered)."""
    facts = [e for e in ans.evidence if isinstance(e, FactEvidence)]
    if ans.method not in ("lookup", "stated") or u.shape == "yes_no" or not facts or len(facts) != len(ans.evidence) \
            or not all(_PERSON_ITEMS.search(e.item) for e in facts) or _WHO_ASK.search(u.norm) or not u.keywords:
        return None   # (a comparison of names — 法定代表人是否相同 — answers 相同/不相同 of them)
    key = phrase_key(u.question)
    tail = key[max(k.end for k in u.keywords):]
    if _OTHER_ASK.search(tail) and _ASK_FILLER.sub("", tail):
        return render(rv.t, "review_name_attribute")
    return None


def quoted_yes_no_speaks_of_topics(rv: Reviewer, u: Understanding, ans: Answer) -> str | None:
    """The deciding sentence of a quoted 是/否 (or its section's title) speaks of every topic asked: a 否 read
    from "不存在实际控制人" does not answer "是否存在…非经营性占用资金"."""
    if u.shape == "yes_no" and ans.method.startswith("text") and u.topics:
        said = phrase_key(ans.answer.strip())
        missed = [w for t, w in u.topics if not any(x in said for x in t.words + t.titles)]
        if missed:
            return render(rv.t, "review_topic", topic="、".join(dict.fromkeys(missed)))
    return None


def quoted_yes_no_speaks_of_its_words(rv: Reviewer, u: Understanding, ans: Answer) -> str | None:
    """A quoted 是/否 of a question no item or topic read ("有没有派现或者送转股"): its passage speaks of each word
    left (a pair of its characters at least) — a "是" read from "该套期…高度有效" answers nothing asked."""
    if u.shape == "yes_no" and ans.method.startswith("text") and not u.topics and not u.items and u.left:
        said = pairs(content(norm(ans.answer)))
        missed = [w for w in u.left if len(content(w)) >= 2 and not pairs(content(w)) & said]
        if missed:
            return render(rv.t, "review_topic", topic="”“".join(dict.fromkeys(missed)))
    return None


def quoted_yes_no_names_other_companies(rv: Reviewer, u: Understanding, ans: Answer) -> str | None:
    """Another company named ("…前五名客户中有没有惠威科技"): the passage of a quoted 是/否 names it, else its
    是/否 is about something else."""
    if u.shape == "yes_no" and ans.method.startswith("text") and len({c.company.key for c in u.companies}) > 1:
        subject = u.companies[0].company
        said = ans.answer.strip()
        for n in (subject.full_name, subject.short_name):   # (the answer's heading names its own company)
            said = said.replace(n, "") if n else said
        missed = [c.company.short_name or c.company.full_name or "" for c in u.companies
                  if c.company.key != subject.key and not any(n and n in said for n in (c.company.short_name,
                                                                                           c.company.full_name))]
        if missed:
            return render(rv.t, "review_topic", topic="、".join(dict.fromkeys(missed)))
    return None


def _own_heading(where: str) -> list[str]:
    """Of a table's place as its evidence shows it (answer/tables.table_where: its last two headings, then its
    caption where that is no heading), its caption and the heading it stands under — or, with no caption, its
    two headings ("39、应付职工薪酬 > (2).短期薪酬列示")."""
    parts = where.split(" > ")
    return parts[-2:]   # (two parts: the headings of a table with no caption of its own, or a heading and a caption)


_LISTED_AFTER = re.compile(r"\s*(?:和|及|与|、|以及|跟|同|还有)")
# a name a cell's column or value prints (the firm over its fee: "亚太（集团）会计师事务所（特殊普通合伙）| 40")
_NAMED = re.compile(r"[\u4e00-\u9fff）)]{2,}(?:会计师事务所|有限公司|有限责任公司|合伙）|合伙\)|集团|银行)")


def cell_names_the_item(rv: Reviewer, u: Understanding, ans: Answer) -> str | None:
    """The item an ask is about (its first: "营业外收入占营业收入的比重" is about 营业外收入) stands whole in the
    table's caption, the row or the column its cells were read from — 营业收入合计 does not answer 营业外收入 —
    and so does every item of a list asked ("营业收入和营业总收入同比分别增长了多少": a row of 营业收入 alone
    answers half of it); of a share, its first (the whole may be implied: 占比)."""
    if ans.method != "cell":
        return None
    # (a formula named is named too: a cell of "2016 | 期初金额" answers no 资产负债率)
    named = sorted((k for k in u.keywords if k.kind in ("item", "formula") and k.text not in rv.appositives),
                   key=lambda k: k.start)
    cells = [e for e in ans.evidence if isinstance(e, CellEvidence)]
    if named and cells:
        # the table's own caption counts (非经常性损益项目 > 合计) and the heading right above it (the note
        # "32、营业外收入" over a table captioned by a header's words), not the sections above those; a text
        # cell's own words too ("国内审计师：…签字会计师：叶少宽、邹彦")
        where = content(norm(" ".join("".join(_own_heading(e.table)) + e.row + e.column + e.value for e in cells)))
        for k in named[:1] if u.frame.operation == "share" else named:
            words = [content(norm(w)) for w in (k.name, k.text)] + list(rv.item_names.get(k.name, ()))
            if rv.suffix is not None:
                words += [rv.suffix.sub("", w) for w in words]
            # a name's item asked of another value the row prints (会计师事务所名称 of "审计机构的报酬": the
            # row 境内会计师事务所报酬 names the firm) — not the name listed beside that value ("审计机构和审计报酬":
            # the firm's name is asked too)
            at = u.norm.find(k.text)   # (where the question writes it: the keyword's own span is of another text)
            listed = at >= 0 and _LISTED_AFTER.match(u.norm, at + len(k.text)) is not None \
                and "的" not in u.norm[at + len(k.text):]   # ("境内和境外会计师事务所的报酬": the firms' fees, no name asked)
            if not listed:
                words += [w[:-2] for w in words if w.endswith("名称") and len(w) >= 6]
            elif k.name.endswith("名称") and not any(_NAMED.search(e.column + e.value) for e in cells):
                return render(rv.t, "review_item", word=k.text, row=cells[0].row)   # (a name listed: no amount names it)
            if not any(w and w in where for w in words):
                return render(rv.t, "review_item", word=k.text, row=cells[0].row)
    return None


# a header printing two periods' column names run together ("期末余额 期初余额", "本期发生额上期发生额": a table whose
# columns the reading merged) — which period its one value is cannot be told
_TWO_PERIODS = re.compile(r"(?:本期|本年|期末|年末|期初|年初|上期|上年)\s*(?:发生额|余额|金额|数)\S*?\s*"
                          r"(?:本期|本年|期末|年末|期初|年初|上期|上年)\s*(?:发生额|余额|金额|数)")


_WHO = re.compile(r"谁|哪位|哪几位|姓名|名字|叫什么|是哪个人")   # (a person asked: the holder of the post)


def a_post_from_its_table(rv: Reviewer, u: Understanding, ans: Answer) -> str | None:
    """Who holds a post (董事长, 总经理) is read from the officers' table only (a disclosure's `role:` rule, read whole or
    not at all): a passage found by its words names others beside the post — those who left it, other posts (昭衍新药
    2024: 左从林 辞去…副董事长) —, and a cell of a table the rule could not read a name of another post (金花股份 2022:
    马斌, 监事会主席, for its 总经理)."""
    asked = [i for i in u.items if i in rv.roles]
    if asked and ans.method in ("text", "cell", "frame", "stated") and _WHO.search(u.norm):
        return render(rv.t, "review_role", item=asked[0])
    return None


def one_period_column(rv: Reviewer, u: Understanding, ans: Answer) -> str | None:
    """A cell read from a column whose header prints two periods' names run together answers no period: the value
    may be either's (宁德时代 2025 p.164: 1,133,502 under "期末余额 期初余额", printed under 期末)."""
    if ans.method not in ("cell", "frame"):
        return None
    for e in ans.evidence:
        if isinstance(e, CellEvidence) and _TWO_PERIODS.search(e.column) and not CHANGE_COLUMN.search(e.column):
            return render(rv.t, "review_two_periods", column=e.column)
    return None


def change_column_for_a_change(rv: Reviewer, u: Understanding, ans: Answer) -> str | None:
    """A change column (变动比例, 比上年同期增减) answers a change asked, nothing else ("占营业收入的比重")."""
    if ans.method == "cell" and u.frame.operation not in ("change", "growth"):
        cells = [e for e in ans.evidence if isinstance(e, CellEvidence)]
        if cells and all(CHANGE_COLUMN.search(e.column) for e in cells):
            return render(rv.t, "review_item", word=u.frame.operation_word or "所问的数值", row=cells[0].column)
    return None


def share_column_of_the_whole(rv: Reviewer, u: Understanding, ans: Answer) -> str | None:
    """A share column naming its whole ("占利润总额比例") answers a share of that whole only (said another way
    is the same whole: 合并报表中归属于上市公司普通股股东的净利润 for 归母净利润)."""
    if ans.method == "cell" and u.frame.operation == "share" and len(u.items) >= 2:
        whole = pairs(content(norm(u.item_words.get(u.items[-1], u.items[-1])))) | \
            pairs(content(norm(u.items[-1])))
        for c in (e for e in ans.evidence if isinstance(e, CellEvidence)):
            m = _SHARE_OF.search(content(norm(c.column)))
            if m and whole and not whole & pairs(m.group(1)):
                return render(rv.t, "review_item", word=u.frame.operation_word, row=c.column)
    return None


def column_of_the_year_asked(rv: Reviewer, u: Understanding, ans: Answer) -> str | None:
    """A cell read from a column whose printed year is not the year asked ("2010年12月31日" for a question of
    2012's 上年末, an older report's header printed otherwise) answers another year: declined, both said.
    The year of an opening balance is the year asked's or the one before (2019年1月1日, 2018年12月31日)."""
    if ans.method not in TABLE_METHODS or not u.years.years:
        return None
    asked = set(u.years.explicit) or set(u.years.years)   # (上年末 of 2012: 2012 asked, its opening wanted)
    wanted = asked | ({y - 1 for y in asked} if u.frame.period in ("opening", "previous") else set())
    for c in (e for e in ans.evidence if isinstance(e, CellEvidence)):
        printed = {int(y) for y in _YEAR_PRINTED.findall(c.column)}
        if printed and not printed & wanted:
            return render(rv.t, "review_year", found="、".join(map(str, sorted(printed))),
                          asked="、".join(map(str, sorted(wanted))))
    return None


def ranked_row_for_a_rank(rv: Reviewer, u: Understanding, ans: Answer) -> str | None:
    """A rank over a table's rows asked ("最大客户的销售额", "第二大股东") is answered by a ranking (a frame
    query, the cells of a ranked row, the statistics across companies), never by a value stated or looked up
    for the company (the top five's total for "最大客户")."""
    # (a value read for the company, whatever the question's shape; a quote, when a value was asked)
    if ans.method not in _NOT_RANKED or u.shape == "yes_no" or (ans.method.startswith("text") and u.shape != "value"):
        return None
    m = rv.rank.search(norm(u.question)) if rv.rank is not None else None
    if m is not None:
        return render(rv.t, "review_rank", word=m.group(0))
    # an aging range ("账龄1至3年的应收账款") is rows of an aging table, never the item's whole
    span = aging_span(content(norm(u.question)))
    if span:
        return render(rv.t, "review_rank", word=span)
    return None


_NOT_RANKED = ("stated", "text", "text+llm", "lookup", "formula", "change", "items")


def plain_ratio_for_a_ratio(rv: Reviewer, u: Understanding, ans: Answer) -> str | None:
    """A ratio asked (比值, 之比, 是…的多少倍) is a plain number: a percent given for it ("285.10%" for "比值是
    多少") is of another kind, declined — unless a percent is asked too (用百分比表示)."""
    if u.ratio and not u.percent and u.frame.operation in ("share", "spelled", "value") and ans.unit == "%":
        return render(rv.t, "review_kind", asked=u.ratio, given=ans.shown or "百分比")
    return None


def computed_value_not_quoted(rv: Reviewer, u: Understanding, ans: Answer) -> str | None:
    """A share or a formula the question spells ("境外收入/主营业务收入") is a value computed, or one the report prints
    as a percent: a quote printing no percent (a table row's amounts: "境外 737,763,832.75 …") does not answer it."""
    if ans.method in QUOTING and u.frame.operation in ("share", "spelled") and "%" not in ans.answer:
        return render(rv.t, "review_computed")
    return None


# a count asked in its unit ("持股多少股", "多少户", "多少人"), and a number printed in that unit
_COUNT_ASKED = re.compile(r"(?:多少|几)(?:万|亿)?(股|户|人|家|名)")
_HOLDERS = "户人名位"   # the units people and holders are counted in, one for another


def quoted_count_in_its_unit(rv: Reviewer, u: Understanding, ans: Answer) -> str | None:
    """A count asked in its unit (多少股, 多少户) is answered by a passage only where it prints a number in that unit
    (a passage naming the holder, its percentages only, does not say how many shares)."""
    m = _COUNT_ASKED.search(u.norm)
    if m is None or ans.method not in ("text", "text+llm"):
        return None
    unit = _HOLDERS if m.group(1) in _HOLDERS else m.group(1)   # (股东 430,711名 answers 多少户)
    if re.search(r"\d[\d,.]*\s*(?:万|亿)?\s*[" + unit + "]", ans.answer):
        return None
    return render(rv.t, "review_count", unit=m.group(1))


# a change printed: its verb (or 同比) and a figure after it, or a percent
_CHANGE_SAID = re.compile(r"(?:增长|下降|增加|减少|上升|上涨|下跌|降低|提高|变动|变化|增减|同比|较上年|比上年)[^。；;]{0,16}?\d")


def quoted_change_for_a_change(rv: Reviewer, u: Understanding, ans: Answer) -> str | None:
    """A change asked as a value ("股价涨了多少", "营业收入同比增长多少") is answered by a passage only where it prints
    one (a verb of change and a figure after it): a passage on 稳定股价预案 says nothing of how much."""
    if u.shape == "value" and u.frame.operation in ("change", "growth") and ans.method in ("text", "text+llm") \
            and not _CHANGE_SAID.search(ans.answer):
        return render(rv.t, "review_change")
    return None


def quote_speaks_of_what_narrows(rv: Reviewer, u: Understanding, ans: Answer) -> str | None:
    """What narrows a value ask (海外, 业务, a subsidiary's name) is spoken of where the value was quoted from
    (its character pairs, for the most part: a name is quoted without its appositive); table cells account
    for such words themselves. (The report's words: the quoted passages and their headings, not a label
    echoing the question.)"""
    if ans.method in QUOTING and u.shape == "value":
        quoted = [f"{e.heading} {e.text}" for e in ans.evidence if isinstance(e, PassageEvidence)]
        spoken = pairs(content(norm(" ".join(quoted) if quoted else ans.answer)))
        # (a stated value's answerer holds a name against the sentences before it too: only the words
        # narrowing an item — 业务, 海外 — are checked for it here)
        slots = ("modifier",) if ans.method == "stated" else ("modifier", "entity")
        missing = [w for slot, w in u.frame.unused if slot in slots
                   and not held(pairs(content(norm(rv._bare(w)))), spoken)]
        if missing:
            return render(rv.t, "review_entity", entity="”“".join(dict.fromkeys(missing)))
    return None


def quoted_rows_speak_of_the_words_left(rv: Reviewer, u: Understanding, ans: Answer) -> str | None:
    """The rows quoted for a value asked speak of what the question asks beyond its slots (the words the
    text was searched with: "第一大供应商", "前五名供应商采购额"), each for the most part (less neutral and
    asking words: 一共, 报披露, 如何; most of its characters in a pair the rows hold: "前五大客户" is spoken of
    by "前五名客户", "第一大供应商" is not by "前五名供应商合计"). The words are Understanding.left: no slot,
    filler, neutral or lexicon filler word took them."""
    if ans.method.startswith("text") and u.shape == "value":
        quoted = [f"{e.heading} {e.text}" for e in ans.evidence if isinstance(e, PassageEvidence)]
        if quoted and u.left and not rv._spoken("#".join(u.left), pairs(content(norm(" ".join(quoted))))):
            return render(rv.t, "review_quote", words="”“".join(dict.fromkeys(u.left)))
    return None


def fact_of_the_year_asked(rv: Reviewer, u: Understanding, ans: Answer) -> str | None:
    """A value read for one year is the year asked (a previous-period column is said so by its answerer)."""
    if ans.method == "lookup" and u.years.explicit and u.frame.period in (None, "closing", "current") \
            and u.frame.operation == "value":
        years = {e.year for e in ans.evidence if isinstance(e, FactEvidence) and e.year is not None
                 and e.period == "current"}
        if years and not years & set(u.years.years):
            return render(rv.t, "review_year", found="、".join(map(str, sorted(years))),
                          asked="、".join(map(str, u.years.years)))
    return None


def numbers_in_the_evidence(rv: Reviewer, u: Understanding, ans: Answer) -> str | None:
    """Every number a quoting answer states is in its evidence (an amount printed in 万元 stands for its 元):
    no number comes from nowhere (the chat model's prose). The answerers that compute (a formula, a change,
    a ranking) print what they computed from their evidence."""
    if ans.method in QUOTING and ans.evidence:
        stray = untraced(ans)
        if stray:
            # (the stray number itself is never shown: a reader could take it for the answer)
            return render(rv.t, "review_untraced", count=len(stray))
    return None


# the shares a per-share figure is of (每股 of 每股派息, 每10股 of 每10股派息数): 1 where no number is written
_PER_SHARES = re.compile(r"每\s*([0-9一二三四五六七八九十]*)\s*股")


def _per_shares(text: str) -> set[str]:
    return {("10" if n == "十" else n) or "1" for n in _PER_SHARES.findall(text)}


def per_share_basis(rv: Reviewer, u: Understanding, ans: Answer) -> str | None:
    """A figure per 10 shares (每10股派息数 1.88元) answers no question of one share (每股派息), nor the other way:
    the shares the question's 每…股 counts are those of the evidence's."""
    asked = _per_shares(u.norm)
    if not asked:
        return None
    printed: set[str] = set()
    for e in ans.evidence:
        if isinstance(e, CellEvidence):
            printed |= _per_shares(f"{e.row}{e.column}")
        elif isinstance(e, FactEvidence):
            printed |= _per_shares(e.item)
        elif isinstance(e, PassageEvidence):
            printed |= _per_shares(re.sub(r"\s+", "", e.text))
    if printed and not printed & asked:
        return render(rv.t, "review_per_share", asked="、".join(f"每{n}股" if n != "1" else "每股" for n in sorted(asked)),
                      given="、".join(f"每{n}股" if n != "1" else "每股" for n in sorted(printed)))
    return None


# the checks, in the order they run
CHECKS: tuple[tuple[str, Callable[[Reviewer, Understanding, Answer], str | None]], ...] = (
    ("yes_no_answered", yes_no_answered),
    ("no_yes_no_fact_for_a_name", no_yes_no_fact_for_a_name),
    ("a_name_for_who", a_name_for_who),
    ("a_name_for_who_only", a_name_for_who_only),
    ("a_post_from_its_table", a_post_from_its_table),
    ("quoted_yes_no_speaks_of_topics", quoted_yes_no_speaks_of_topics),
    ("quoted_yes_no_speaks_of_its_words", quoted_yes_no_speaks_of_its_words),
    ("quoted_yes_no_names_other_companies", quoted_yes_no_names_other_companies),
    ("cell_names_the_item", cell_names_the_item),
    ("change_column_for_a_change", change_column_for_a_change),
    ("one_period_column", one_period_column),
    ("share_column_of_the_whole", share_column_of_the_whole),
    ("column_of_the_year_asked", column_of_the_year_asked),
    ("plain_ratio_for_a_ratio", plain_ratio_for_a_ratio),
    ("ranked_row_for_a_rank", ranked_row_for_a_rank),
    ("computed_value_not_quoted", computed_value_not_quoted),
    ("quoted_count_in_its_unit", quoted_count_in_its_unit),
    ("quoted_change_for_a_change", quoted_change_for_a_change),
    ("quote_speaks_of_what_narrows", quote_speaks_of_what_narrows),
    ("quoted_rows_speak_of_the_words_left", quoted_rows_speak_of_the_words_left),
    ("fact_of_the_year_asked", fact_of_the_year_asked),
    ("numbers_in_the_evidence", numbers_in_the_evidence),
    ("per_share_basis", per_share_basis),
)


def held(want: set[str], said: set[str]) -> bool:
    """Three quarters of a word's character pairs said (a single character: itself)."""
    return not want or len(want & said) >= 0.75 * len(want)


def _digits(text: str) -> str:
    return text.replace(",", "").replace("，", "")


def untraced(ans: Answer) -> list[str]:
    """The amounts an answer states that none of its evidence holds (as printed, or as stored)."""
    read: list[str] = []
    for e in ans.evidence:
        if isinstance(e, FactEvidence):
            read += [e.value, e.stored or ""]
        elif isinstance(e, CellEvidence):
            read += [e.value, e.cell or ""]
        elif isinstance(e, PassageEvidence):
            read.append(e.text)
        read.append(str(e.to_dict()))
    pool = _digits(" ".join(read)) + " " + _digits(ans.question)
    # an amount printed in a larger unit ("5,595万元") stands for its value in 元 too
    scaled = {n * UNIT_FACTORS[m.group(2)] for m in _SCALED.finditer(pool) if (n := parse_number(m.group(1))) is not None}
    return [m.group(0) for m in _AMOUNT.finditer(ans.answer)
            if _digits(m.group(0)) not in pool and parse_number(m.group(0)) not in scaled]
