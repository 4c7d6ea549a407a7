"""Generate a paraphrase corpus: the same facts asked in many analyst phrasings.

    python scripts/paraphrase_corpus.py --store STORE [--tables-store TSTORE] -o tests/data/paraphrases.jsonl

Reads STORE/fin_qa.sqlite directly (facts of source pdf/txt, statements 资产负债表/利润表/现金流量表 and
the employee count) and crosses slot values (period, change, unit, compound, multi_year, company, year,
scope) with at least five phrasings each; with --tables-store it adds place-filter statistics
questions (slot filter) computed from the imported FinGLM tables. Every expected value is computed here
with decimal.Decimal (ROUND_HALF_UP), independently of the engine's rules. The output is deterministic.

Each line: {"id", "question", "slot", "expect", "note"}; slot is "slot/value" (e.g. "period/opening").
expect is {"numbers": [...]} (each entry, or one of its alternatives when it is a list, must appear in the
answer), {"names": [[alt, ...], ...]} or {"decline": true}.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import sqlite3
import sys
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path

# ---------------------------------------------------------------------------------------------------
# Phrasing tables. Placeholders: {co} company, {Y} report year, {P} the year before, {item} statement
# item, {when} "{Y}年末" for balance-sheet items / "{Y}年" for flows, {yr} a year form, {u} a unit,
# {a}/{b} two items, {name} a ratio's name, {place} a place phrase, {t} a threshold, {cmp} a comparison.
# ---------------------------------------------------------------------------------------------------

PERIOD = {
    # balance-sheet item, previous column of the report
    "opening": [
        "{co}{Y}年报中{item}的期初余额是多少？",
        "{co}{Y}年年初的{item}有多少？",
        "{co}{Y}年{item}年初余额为多少元？",
        "{Y}年{co}资产负债表里{item}的年初数是多少？",
        "请问{co}{Y}年期初{item}为多少？",
        "{co}{Y}年度报告披露的{item}上年年末余额是多少？",
        "{co}{Y}年{item}的上年末数是多少？",
    ],
    # balance-sheet item, previous column, asked as the end of the previous year
    "prev_year_end": [
        "{co}{P}年末{item}是多少？",
        "{co}{P}年12月31日的{item}是多少？",
        "截至{P}年底，{co}的{item}余额为多少？",
        "{P}年年末{co}的{item}有多少？",
        "{co}在{P}年末的{item}余额是多少元？",
        "{co}{P}年底账面上的{item}是多少？",
    ],
    # income / cash-flow item, previous column, asked as that year
    "prev_year": [
        "{co}{P}年的{item}是多少？",
        "{co}{P}年度{item}为多少元？",
        "{P}年{co}的{item}有多少？",
        "请告诉我{co}在{P}年的{item}。",
        "{co}{P}全年{item}金额是多少？",
        "查询{co}{P}年{item}的数据",
    ],
    # income / cash-flow item, previous column, asked relative to the report year
    "prev_rel": [
        "{co}{Y}年报中，{item}的上年同期数是多少？",
        "{co}{Y}年年报里去年的{item}是多少？",
        "{Y}年{co}年报披露的上年{item}金额为多少？",
        "{co}{Y}年度报告中{item}上期发生额是多少？",
        "根据{co}{Y}年年报，上一年度的{item}是多少？",
        "{co}{Y}年年报中{item}的上年数是多少？",
    ],
    # balance-sheet item, current column
    "year_end": [
        "{co}{Y}年末{item}是多少？",
        "{co}{Y}年12月31日的{item}余额为多少？",
        "截至{Y}年底，{co}的{item}有多少？",
        "{co}{Y}年期末{item}是多少元？",
        "{co}{Y}年年末资产负债表上的{item}是多少？",
        "{Y}年末{co}账上的{item}余额是多少？",
    ],
    # income / cash-flow item, current column
    "current": [
        "{co}{Y}年的{item}是多少？",
        "{co}{Y}年度{item}发生额是多少？",
        "{Y}年{co}全年的{item}为多少？",
        "{co}在{Y}年报告期内的{item}是多少？",
        "请问{co}{Y}年本期{item}金额是多少？",
        "{co}{Y}年年报中的本年{item}是多少？",
    ],
}

CHANGE = {
    "amount_bs": [
        "{co}{Y}年末{item}较年初增加了多少？",
        "{co}{Y}年{item}比年初增减了多少元？",
        "{co}{Y}年{item}期末与期初相比变动金额是多少？",
        "{co}{Y}年{item}的增减额是多少？",
        "{Y}年{co}{item}较上年末变化了多少？",
        "{co}{item}{Y}年末比{P}年末增加多少？",
    ],
    "amount_flow": [
        "{co}{Y}年{item}比上年增加多少元？",
        "{co}{Y}年{item}同比增减额是多少？",
        "{co}{Y}年{item}较{P}年变动金额是多少？",
        "与上年相比，{co}{Y}年{item}增加了多少？",
        "{co}{Y}年{item}相比去年变化了多少元？",
        "{co}{Y}年{item}的同比变动额为多少？",
    ],
    "rate_bs": [
        "{co}{Y}年末{item}较年初增长了百分之几？",
        "{co}{Y}年{item}期末比期初的增长率是多少？",
        "{co}{Y}年{item}较年初的变动幅度是多少？",
        "{Y}年{co}{item}相对上年末的增幅为多少？",
        "{co}{item}{Y}年末较{P}年末增长率是多少？",
        "{co}{Y}年{item}比年初增长了多少（百分比）？",
    ],
    "rate_flow": [
        "{co}{Y}年{item}同比增长率是多少？",
        "{co}{Y}年{item}比上年增长了百分之多少？",
        "{co}{Y}年{item}的同比变化幅度是多少？",
        "{co}{Y}年{item}增幅为多少？",
        "{co}{Y}年{item}较{P}年的增长率？",
        "{co}{item}{Y}年的同比增速是多少？",
    ],
}

UNITS = {"万元": Decimal(10_000), "亿元": Decimal(100_000_000), "千元": Decimal(1_000), "百万元": Decimal(1_000_000)}
UNIT_TEMPLATES = [  # (template, decimals asked; None: not asked, 2 expected)
    ("{co}{when}{item}约为多少{u}？", None),
    ("{co}{when}{item}是多少{u}？保留两位小数。", 2),
    ("以{u}为单位，{co}{when}{item}是多少？", None),
    ("{co}{when}{item}折合多少{u}？精确到小数点后一位。", 1),
    ("{co}{when}{item}换算成{u}是多少（保留三位小数）？", 3),
    ("{co}{when}{item}有多少{u}？四舍五入保留整数。", 0),
    ("用{u}表示，{co}{when}{item}大概是多少？", None),
    ("{co}{when}{item}是多少{u}，精确到0.01{u}？", 2),
]

COMPOUND = {
    "sanfei": [
        "{co}{Y}年的三费合计是多少？",
        "{co}{Y}年销售费用、管理费用和财务费用三项合计多少？",
        "{co}{Y}年三项费用总额为多少元？",
        "{Y}年{co}三费（销售+管理+财务）一共多少？",
        "请计算{co}{Y}年的三费总和",
        "{co}{Y}年度三费是多少？",
    ],
    "qijian": [
        "{co}{Y}年期间费用总额是多少？",
        "{co}{Y}年的期间费用合计多少元？",
        "{co}{Y}年销售、管理、研发、财务四项期间费用之和是多少？",
        "{Y}年{co}期间费用一共发生了多少？",
        "计算{co}{Y}年度的期间费用",
        "{co}{Y}年四费合计是多少？",
    ],
    "maoli": [
        "{co}{Y}年的毛利是多少？",
        "{co}{Y}年毛利润为多少元？",
        "{co}{Y}年营业收入减去营业成本是多少？",
        "{Y}年{co}实现毛利多少？",
        "请计算{co}{Y}年度毛利额",
        "{co}{Y}年的毛利额有多少？",
    ],
    "sum": [
        "{co}{when}{a}与{b}之和是多少？",
        "{co}{when}{a}和{b}合计多少？",
        "{co}{when}{a}加上{b}一共是多少元？",
        "{when}{co}的{a}、{b}两项合计金额是多少？",
        "请计算{co}{when}{a}与{b}的总和",
        "{co}{when}{a}与{b}合计为多少？",
    ],
    "diff": [
        "{co}{when}{a}与{b}的差额是多少？",
        "{co}{when}{a}比{b}多多少？",
        "{co}{when}{a}减去{b}等于多少？",
        "{when}{co}{a}和{b}相差多少元？",
        "{co}{when}{a}超出{b}多少？",
        "{co}{when}{a}高出{b}的金额是多少？",
    ],
    "share": [  # (template, percent asked)
        ("{co}{when}{a}占{b}的比例是多少？", False),
        ("{co}{when}{a}占{b}的比重为多少？", False),
        ("{co}{when}{a}在{b}中的占比是多少？", False),
        ("{co}{when}{a}占{b}的百分比是多少？", True),
        ("{co}{when}{a}占{b}的百分之几？", True),
        ("{when}{co}的{a}相当于{b}的多少？", False),
    ],
    "divide": [
        "用{a}除以{b}来算，{co}{when}的{name}是多少？",
        "{name}按{a}÷{b}计算，{co}{when}是多少？",
        "以{a}/{b}计算{co}{when}的{name}",
        "{co}{when}的{name}（{a}除以{b}）是多少？",
        "把{a}除以{b}，{co}{when}得到的{name}是多少？",
        "{co}{when}{a}除以{b}的结果是多少？这就是{name}。",
    ],
}
SUM_PAIRS = [("应收账款", "存货"), ("固定资产", "在建工程"), ("货币资金", "应收账款"), ("短期借款", "应付账款"),
             ("销售费用", "管理费用"), ("营业外收入", "其他收益"), ("应付职工薪酬", "应交税费"),
             ("盈余公积", "未分配利润"), ("所得税费用", "净利润")]
DIFF_PAIRS = [("流动资产合计", "流动负债合计"), ("资产总计", "负债合计"), ("利润总额", "净利润"),
              ("经营活动现金流入小计", "经营活动现金流出小计"), ("货币资金", "短期借款"), ("营业外收入", "营业外支出"),
              ("销售商品、提供劳务收到的现金", "购买商品、接受劳务支付的现金")]
SHARE_PAIRS = [("存货", "资产总计"), ("货币资金", "资产总计"), ("负债合计", "资产总计"), ("销售费用", "营业收入"),
               ("净利润", "营业收入"), ("研发费用", "营业收入"), ("营业成本", "营业收入"), ("流动资产合计", "资产总计"),
               ("应收账款", "流动资产合计"), ("管理费用", "营业收入")]
DIVIDE = [("净利润", "营业收入", "净利率"), ("负债合计", "资产总计", "资产负债率"), ("流动资产合计", "流动负债合计", "流动比率"),
          ("营业成本", "营业收入", "营业成本率"), ("研发费用", "营业收入", "研发费用率"), ("销售费用", "营业收入", "销售费用率"),
          ("所得税费用", "利润总额", "实际所得税税率"), ("净利润", "所有者权益合计", "净资产收益率")]

MULTI_YEAR = {
    "flow": [
        "{co}{P}年和{Y}年的{item}分别是多少？",
        "{co}{P}、{Y}两年的{item}各是多少？",
        "请列出{co}{P}年与{Y}年的{item}",
        "{co}{item}在{P}年和{Y}年分别为多少元？",
        "{co}近两年（{P}年、{Y}年）{item}分别是多少？",
        "对比一下{co}{P}年和{Y}年的{item}",
    ],
    "bs": [
        "{co}{P}年末和{Y}年末的{item}分别是多少？",
        "{co}{P}年底、{Y}年底{item}各为多少？",
        "请列出{co}{P}年12月31日与{Y}年12月31日的{item}",
        "{co}{item}在{P}年末和{Y}年末分别为多少元？",
        "{co}最近两个年末（{P}年、{Y}年）的{item}分别是多少？",
        "对比{co}{P}年末和{Y}年末的{item}",
    ],
}

COMPANY = [
    "{co}{when}{item}是多少？",
    "{co}在{when}的{item}为多少元？",
    "请问{co}{when}{item}有多少？",
    "{when}{co}的{item}是多少？",
    "查一下{co}{when}的{item}",
    "{co}{when}{item}金额是多少？",
]
EMPLOYEES = [
    "{co}{Y}年末在职员工总数是多少？",
    "{co}{Y}年共有多少名在职员工？",
    "{Y}年{co}员工人数合计为多少人？",
    "截至{Y}年末，{co}在职员工的数量合计是多少？",
    "{co}{Y}年报披露的员工总数是多少人？",
]
CODE_FORMS = ["股票代码{code}的公司", "证券代码为{code}的公司", "{code}这家公司", "代码{code}对应的公司"]
# the distinctive core of a full registered name, where it differs from the short name
CORE_NAMES = {
    "600201": ["金宇生物"], "002888": ["惠威电声"], "000430": ["张家界旅游"], "300617": ["安靠智能"],
    "601658": ["邮政储蓄银行"], "002099": ["浙江海翔"], "000059": ["华锦化学", "北方华锦"], "200570": ["常柴"],
    "603339": ["四方科技集团"],
}

YEAR_FORMS = {"yy": "{yy}年", "chinese": "{cn}年", "niandu": "{Y}年度", "cainian": "{Y}财年"}
YEAR = [
    "{co}{yr}的{item}是多少？",
    "{yr}{co}{item}为多少元？",
    "{co}在{yr}的{item}有多少？",
    "请问{co}{yr}{item}是多少",
    "{co}{yr}报告期{item}是多少？",
    "查询{co}{yr}{item}",
]

SCOPE_PARENT = [
    "{co}{Y}年母公司的{item}是多少？",
    "{co}{Y}年母公司报表中{item}为多少元？",
    "{co}{Y}年母公司口径的{item}是多少？",
    "{co}{Y}年母公司{stmt}中的{item}是多少？",
    "{co}母公司{Y}年{item}有多少？",
    "不考虑子公司，{co}{Y}年母公司单体的{item}是多少？",
]

# place-filter statistics over the FinGLM tables store
PLACE = {
    "reg": ["在{p}注册的公司", "注册在{p}的公司", "注册地为{p}的上市公司", "注册地址位于{p}的企业", "公司注册地在{p}的企业"],
    "office": ["总部位于{p}的公司", "办公地址在{p}的公司", "总部设在{p}的上市公司", "办公地在{p}的企业", "在{p}办公的公司"],
    "any": ["{p}的上市公司", "{p}本地的上市公司", "来自{p}的公司", "{p}的企业", "{p}地区的上市公司"],
}
FILTER = {
    "top1": [
        "{Y}年{place}中，{item}最高的是哪家？",
        "{Y}年{place}里{item}排名第一的是哪一家？",
        "{place}中{Y}年{item}最多的是哪家公司？",
        "在{Y}年，{place}当中哪家的{item}最高？",
        "{Y}年{place}中{item}位居榜首的是谁？",
    ],
    "top3": [
        "{Y}年{place}中{item}前3名是哪些？",
        "{Y}年{place}里{item}排名前三的公司有哪些？",
        "列出{Y}年{place}中{item}最高的3家",
        "{Y}年{place}按{item}从高到低排前三的是？",
        "{Y}年{place}中{item}位列前3的有哪几家？",
    ],
    "nth": [
        "{Y}年{place}中{item}第{n}高的是哪家？",
        "{Y}年{place}里{item}排第{cn}的公司是哪家？",
        "{Y}年{place}中{item}排名第{n}的是哪一家？",
        "在{Y}年{place}中，{item}第{cn}多的是哪家？",
        "{Y}年{place}按{item}排序，第{n}名是谁？",
    ],
    "count": [
        "{Y}年{place}中{item}{cmp}{t}的有几家？",
        "{Y}年{place}里{item}{cmp}{t}的公司有多少家？",
        "{Y}年{place}有几家{item}{cmp}{t}？",
        "{Y}年{item}{cmp}{t}的{place}共有多少家？",
        "统计{Y}年{place}中{item}{cmp}{t}的数量",
    ],
}
PLACES = ["常州", "合肥", "无锡", "成都", "西安", "佛山", "台州", "烟台", "芜湖", "宁波", "南通", "湖州", "济南", "贵阳",
          "南昌", "汕头", "惠州", "青岛", "沈阳", "长春", "哈尔滨", "石家庄", "海口", "乌鲁木齐", "南京", "金华"]
FILTER_ITEMS = {"营业收入": "营业收入", "净利润": "净利润", "利润总额": "利润总额", "营业利润": "营业利润",
                "经营活动产生的现金流量净额": "经营活动产生的现金流量净额", "在职员工的数量合计": "在职员工人数"}
COMPARE = [("超过", "gt"), ("高于", "gt"), ("大于", "gt"), ("不低于", "ge"), ("低于", "lt")]
MONEY_THRESHOLDS = ["1000万元", "3000万元", "5000万元", "1亿元", "2亿元", "5亿元", "10亿元", "20亿元", "50亿元", "100亿元"]
PEOPLE_THRESHOLDS = ["300人", "500人", "1000人", "2000人", "5000人", "1万人"]

# the statement items asked about (fixed lists, not every label a report happens to have)
BS_ITEMS = ["货币资金", "应收账款", "预付款项", "存货", "其他流动资产", "流动资产合计", "固定资产", "在建工程", "无形资产",
            "递延所得税资产", "非流动资产合计", "资产总计", "短期借款", "应付账款", "应付职工薪酬", "应交税费", "其他应付款",
            "流动负债合计", "负债合计", "资本公积", "盈余公积", "未分配利润", "所有者权益合计"]
FLOW_ITEMS = ["营业收入", "营业成本", "税金及附加", "销售费用", "管理费用", "研发费用", "财务费用", "其他收益", "投资收益",
              "营业利润", "营业外收入", "营业外支出", "利润总额", "所得税费用", "净利润",
              "经营活动产生的现金流量净额", "投资活动产生的现金流量净额", "筹资活动产生的现金流量净额",
              "销售商品、提供劳务收到的现金", "购买商品、接受劳务支付的现金", "支付的各项税费", "现金及现金等价物净增加额"]
STATEMENTS = ("资产负债表", "利润表", "现金流量表")
PARENT = "母公司"
EMPLOYEE_ITEM = "在职员工的数量合计"
CN_DIGITS = "〇一二三四五六七八九"

# ---------------------------------------------------------------------------------------------------



def q(d: Decimal, places: int = 2) -> str:
    return str(d.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def signed(s: str) -> str | list[str]:
    """A negative amount or rate: the signed form or its magnitude ('减少123.45')."""
    return [s, s[1:]] if s.startswith("-") else s


def ratio(a: Decimal, b: Decimal, pct_only: bool) -> str | list[str]:
    pct = q(a / b * 100) + "%"
    return pct if pct_only else [pct, q(a / b)]


def cn_number(text: str) -> str:
    return "".join(CN_DIGITS[int(c)] for c in text)


def threshold(text: str) -> Decimal:
    num, unit = re.fullmatch(r"(\d+)(亿元|万元|万人|人)", text).groups()
    return Decimal(num) * {"亿元": Decimal(10) ** 8, "万元": Decimal(10) ** 4, "万人": Decimal(10) ** 4, "人": 1}[unit]


class Report:
    def __init__(self, rid, key, code, year, full, short):
        self.id, self.key, self.code, self.year, self.full, self.short = rid, key, code, year, full, short
        self.facts: dict[tuple[str, str], Decimal] = {}
        self.stmt: dict[str, str] = {}
        self.parent: dict[tuple[str, str], Decimal] = {}   # the parent company's own statements (母公司…)

    def get(self, item, period="current"):
        return self.facts.get((item, period))

    def label(self):
        return f"{self.short} {self.year} ({self.key})"


def load_reports(path: Path) -> list[Report]:
    db = sqlite3.connect(f"file:{path / 'fin_qa.sqlite'}?mode=ro", uri=True)
    reports = {r[0]: Report(*r) for r in db.execute(
        "SELECT id, key, stock_code, year, full_name, short_name FROM reports ORDER BY key")}
    rows = db.execute(
        "SELECT report_id, item, period, value, statement FROM facts WHERE source IN ('pdf', 'txt') "
        "AND (statement IN (?, ?, ?, ?, ?, ?) OR item = ?) ORDER BY id",
        (*STATEMENTS, *(PARENT + s for s in STATEMENTS), EMPLOYEE_ITEM))
    seen: dict[tuple, set] = {}
    for rid, item, period, value, stmt in rows:
        try:
            d = Decimal(value.replace(",", ""))
        except (InvalidOperation, AttributeError):
            continue
        if stmt.startswith(PARENT):
            reports[rid].parent.setdefault((item, period), d)  # the first row of an item, as the store reads
            continue
        seen.setdefault((rid, item, period), set()).add(d)
        reports[rid].facts[(item, period)] = d
        reports[rid].stmt[item] = stmt
    for (rid, item, period), values in seen.items():  # two different values for one cell: ambiguous, drop it
        if len(values) > 1:
            del reports[rid].facts[(item, period)]
    return sorted(reports.values(), key=lambda r: r.key)


class Corpus:
    def __init__(self, reports: list[Report], seed: int = 20240611):
        self.reports = reports
        self.by_code_year = {(r.code, r.year): r for r in reports}
        self.rng = random.Random(seed)
        self.rows: list[dict] = []
        self.questions: set[str] = set()

    def add(self, slot, question, expect, note):
        if question in self.questions:
            return False
        self.questions.add(question)
        self.rows.append({"id": "", "question": question, "slot": slot, "expect": expect, "note": note})
        return True

    def cross(self, slot, templates, n, build, pool=None):
        """Cross templates with reports (every template first, then every report per template, shuffled),
        call build(report, template) until n questions are made."""
        pool = pool if pool is not None else self.reports
        orders = [self.rng.sample(pool, len(pool)) for _ in templates]
        made = 0
        for round_ in range(len(pool)):
            for t, template in enumerate(templates):
                if made >= n:
                    return
                if build(orders[t][round_], template, slot):
                    made += 1

    def pick(self, report, items, need=("current",), used=None):
        """A random item of the report having every period in need (non-zero), not yet in used."""
        ok = [i for i in items if all(report.get(i, p) for p in need) and (used is None or (report.key, i) not in used)]
        if not ok:
            return None
        item = self.rng.choice(ok)
        if used is not None:
            used.add((report.key, item))
        return item

    def prev_year_ok(self, report, item):
        """A previous-column value asked as the previous year is unambiguous: no report of that year
        in the store, or one whose current value agrees."""
        other = self.by_code_year.get((report.code, report.year - 1))
        return other is None or other.get(item) in (None, report.get(item, "previous"))


def fmt(template, r: Report, co=None, **kw):
    return template.format(co=co if co is not None else r.short, Y=r.year, P=r.year - 1, **kw)


def when(r: Report, *items):
    return f"{r.year}年末" if all(i in BS_ITEMS for i in items) else f"{r.year}年"


def gen_period(c: Corpus, n=16):
    spec = {"opening": (BS_ITEMS, "previous"), "prev_year_end": (BS_ITEMS, "previous"),
            "prev_year": (FLOW_ITEMS, "previous"), "prev_rel": (FLOW_ITEMS, "previous"),
            "year_end": (BS_ITEMS, "current"), "current": (FLOW_ITEMS, "current")}
    for value, (items, period) in spec.items():
        used = set()

        def build(r, t, slot, items=items, period=period, value=value, used=used):
            item = c.pick(r, items, (period,), used)
            if item is None or (value.startswith("prev_year") and not c.prev_year_ok(r, item)):
                return False
            v = q(r.get(item, period))
            return c.add(slot, fmt(t, r, item=item), {"numbers": [v]}, f"{r.label()}, {item}, {period} = {v}")
        c.cross(f"period/{value}", PERIOD[value], n, build)


def gen_change(c: Corpus, n=16):
    for value, templates in CHANGE.items():
        items = BS_ITEMS if value.endswith("_bs") else FLOW_ITEMS
        used = set()

        def build(r, t, slot, items=items, value=value, used=used):
            item = c.pick(r, items, ("current", "previous"), used)
            if item is None:
                return False
            cur, prev = r.get(item), r.get(item, "previous")
            if value.startswith("amount"):
                exp, arith = signed(q(cur - prev)), f"{cur} - {prev}"
            else:
                if prev <= 0:
                    return False
                exp, arith = signed(q((cur - prev) / prev * 100) + "%"), f"({cur} - {prev}) / {prev} * 100"
            return c.add(slot, fmt(t, r, item=item), {"numbers": [exp]}, f"{r.label()}, {item}, {arith}")
        c.cross(f"change/{value}", templates, n, build)


def gen_unit(c: Corpus, n=18):
    for unit, scale in UNITS.items():
        used = set()

        def build(r, tpl, slot, unit=unit, scale=scale, used=used):
            template, places = tpl
            big = [i for i in BS_ITEMS + FLOW_ITEMS if r.get(i) and abs(r.get(i)) >= scale * 10]
            item = c.pick(r, big, ("current",), used)
            if item is None:
                return False
            v = q(r.get(item) / scale, 2 if places is None else places)
            question = fmt(template, r, item=item, u=unit, when=when(r, item))
            return c.add(slot, question, {"numbers": [v]}, f"{r.label()}, {item}, current {r.get(item)} / {scale} -> {v}")
        c.cross(f"unit/{unit}", UNIT_TEMPLATES, n, build)


def gen_compound(c: Corpus):
    fixed = {"sanfei": ["销售费用", "管理费用", "财务费用"], "qijian": ["销售费用", "管理费用", "研发费用", "财务费用"]}
    for value, items in fixed.items():
        def build(r, t, slot, items=items):
            if not all(r.get(i) is not None for i in items):
                return False
            total = sum(r.get(i) for i in items)
            return c.add(slot, fmt(t, r), {"numbers": [q(total)]},
                         f"{r.label()}, current {' + '.join(f'{i} {r.get(i)}' for i in items)}")
        c.cross(f"compound/{value}", COMPOUND[value], 10, build)

    def build_maoli(r, t, slot):
        rev, cost = r.get("营业收入"), r.get("营业成本")
        if not rev or not cost:
            return False
        return c.add(slot, fmt(t, r), {"numbers": [q(rev - cost)]}, f"{r.label()}, current 营业收入 {rev} - 营业成本 {cost}")
    c.cross("compound/maoli", COMPOUND["maoli"], 10, build_maoli)

    def pair_builder(pairs, kind):
        used = set()

        def build(r, t, slot):
            pct_only = False
            if kind == "share":
                t, pct_only = t
            ok = [p for p in pairs if all(r.get(i) for i in p[:2]) and (r.key, p) not in used]
            if not ok:
                return False
            pair = c.rng.choice(ok)
            used.add((r.key, pair))
            a, b = pair[:2]
            va, vb = r.get(a), r.get(b)
            if kind == "sum":
                exp, arith = q(va + vb), f"{a} {va} + {b} {vb}"
            elif kind == "diff":
                if va < vb:
                    a, b, va, vb = b, a, vb, va
                exp, arith = q(va - vb), f"{a} {va} - {b} {vb}"
            else:
                if vb <= 0:
                    return False
                exp, arith = ratio(va, vb, pct_only), f"{a} {va} / {b} {vb}"
            question = fmt(t, r, a=a, b=b, when=when(r, a, b), name=pair[2] if len(pair) > 2 else "")
            return c.add(slot, question, {"numbers": [exp]}, f"{r.label()}, current {arith}")
        return build
    c.cross("compound/sum", COMPOUND["sum"], 14, pair_builder(SUM_PAIRS, "sum"))
    c.cross("compound/diff", COMPOUND["diff"], 14, pair_builder(DIFF_PAIRS, "diff"))
    c.cross("compound/share", COMPOUND["share"], 16, pair_builder(SHARE_PAIRS, "share"))
    c.cross("compound/divide", COMPOUND["divide"], 14, pair_builder(DIVIDE, "divide"))


def gen_multi_year(c: Corpus, n=16):
    for value, items in (("flow", FLOW_ITEMS), ("bs", BS_ITEMS)):
        used = set()

        def build(r, t, slot, items=items, used=used):
            item = c.pick(r, items, ("current", "previous"), used)
            if item is None or not c.prev_year_ok(r, item):
                return False
            prev, cur = q(r.get(item, "previous")), q(r.get(item))
            return c.add(slot, fmt(t, r, item=item), {"numbers": [prev, cur]},
                         f"{r.label()}, {item}, previous {prev} ({r.year - 1}), current {cur} ({r.year})")
        c.cross(f"multi_year/{value}", MULTI_YEAR[value], n, build)


def name_forms(r: Report, rng: random.Random) -> dict[str, str | None]:
    nosuffix = re.sub(r"(股份有限公司|有限责任公司|有限公司)$", "", r.full or "")
    cores = CORE_NAMES.get(r.code, [])
    return {"short": r.short, "full": r.full, "full_nosuffix": nosuffix if nosuffix and nosuffix != r.full else None,
            "core": rng.choice(cores) if cores else None,
            "code": rng.choice(CODE_FORMS).format(code=r.code) if r.code else None}


def gen_company(c: Corpus, n=16):
    for form in ("short", "full", "full_nosuffix", "core", "code"):
        used = set()

        def build(r, t, slot, form=form, used=used):
            co = name_forms(r, c.rng)[form]
            item = c.pick(r, BS_ITEMS + FLOW_ITEMS, ("current",), used)
            if co is None or item is None:
                return False
            v = q(r.get(item))
            return c.add(slot, fmt(t, r, co=co, item=item, when=when(r, item)), {"numbers": [v]},
                         f"{r.label()} as {co}, {item}, current = {v}")
        c.cross(f"company/{form}", COMPANY, n, build)

    def build_emp(r, t, slot):
        v = r.get(EMPLOYEE_ITEM)
        if v is None:
            return False
        co = name_forms(r, c.rng)[c.rng.choice(["short", "full", "core"])] or r.short
        return c.add(slot, fmt(t, r, co=co), {"numbers": [q(v, 0)]}, f"{r.label()} as {co}, {EMPLOYEE_ITEM} = {q(v, 0)}")
    c.cross("company/employees", EMPLOYEES, 10, build_emp)


def gen_year(c: Corpus, n=16):
    for value, form in YEAR_FORMS.items():
        used = set()

        def build(r, t, slot, form=form, used=used):
            item = c.pick(r, FLOW_ITEMS, ("current",), used)
            if item is None:
                return False
            yr = form.format(Y=r.year, yy=str(r.year)[2:], cn=cn_number(str(r.year)))
            v = q(r.get(item))
            return c.add(slot, fmt(t, r, item=item, yr=yr), {"numbers": [v]}, f"{r.label()} as {yr}, {item}, current = {v}")
        c.cross(f"year/{value}", YEAR, n, build)


def gen_scope_parent(c: Corpus, n=40):
    """母公司 questions: the parent company's own statement value; declined for a report without them."""
    used = set()

    def build(r, t, slot):
        item = c.pick(r, [i for i in BS_ITEMS + FLOW_ITEMS if "母公司" not in i], ("current",), used)
        if item is None:
            return False
        question = fmt(t, r, item=item, stmt=r.stmt[item])
        if not r.parent:
            return c.add(slot, question, {"decline": True}, f"{r.label()}, {item}: no parent statements read")
        v = r.parent.get((item, "current"))
        if v is None:
            return False
        return c.add(slot, question, {"numbers": [q(v)]}, f"{r.label()}, {item}: parent statement = {q(v)}")
    c.cross("scope/parent", SCOPE_PARENT, n, build)


# ------------------------------------------ place filters ------------------------------------------

def load_tables(path: Path):
    """{year: {report id: {"short", "full", "注册地址", "办公地址", item: Decimal}}} from the tables store."""
    db = sqlite3.connect(f"file:{path / 'fin_qa.sqlite'}?mode=ro", uri=True)
    out: dict[int, dict[int, dict]] = {}
    names = {rid: (year, short, full) for rid, year, short, full in
             db.execute("SELECT id, year, short_name, full_name FROM reports")}
    wanted = ("注册地址", "办公地址", *FILTER_ITEMS)
    rows = db.execute(f"SELECT report_id, item, value FROM facts WHERE period = 'current' AND item IN "
                      f"({','.join('?' * len(wanted))}) ORDER BY id", wanted)
    for rid, item, value in rows:
        year, short, full = names[rid]
        rec = out.setdefault(year, {}).setdefault(rid, {"short": short, "full": full})
        if item in ("注册地址", "办公地址"):
            rec[item] = value or ""
        else:
            try:
                rec[item] = Decimal(value.replace(",", ""))
            except (InvalidOperation, AttributeError):
                pass
    return out


def clean_places(tables) -> list[str]:
    """The places whose name never appears as a street (常州路, 青岛中路) or another city's district in an address."""
    addresses = [rec.get(k, "") for recs in tables.values() for rec in recs.values() for k in ("注册地址", "办公地址")]
    # also 青岛中路 and 北京市朝阳区-style districts: a place whose name is anything but the place is left out
    return [p for p in PLACES
            if not any(re.search(p + "[东南西北中]?(路|街|大道|大街|巷|弄)|市" + p + "(区|县)", a) for a in addresses)]


def gen_filter(c: Corpus, tables, per_value=30):
    rng = c.rng
    places = clean_places(tables)
    years = sorted(tables)

    def ranked(year, place, key, item):
        recs = [r for r in tables[year].values() if place in r.get(key, "") and item in r]
        return sorted(recs, key=lambda r: (-r[item], r["short"] or ""))

    def names_of(recs):
        return [[x for x in dict.fromkeys((r["short"], r["full"])) if x] for r in recs]

    def answer(value, recs, item, k, op, t):
        """The expectation and a note for one ranked list, or None where the question has no clear answer."""
        vals = [r[item] for r in recs]
        if len(recs) < 4:
            return None
        if value == "count":
            count = sum({"gt": v > t, "ge": v >= t, "lt": v < t}[op] for v in vals)
            if t in vals or count in (0, len(vals)):
                return None
            return {"numbers": [str(count)]}, f"{count} of {len(vals)} with {item} {op} {t}"
        top = {"top1": 1, "top3": 3, "nth": k}[value]
        if len(set(vals[:top + 1])) < top + 1:  # a tie within or at the edge of the asked ranks
            return None
        chosen = recs[k - 1:k] if value == "nth" else recs[:top]
        return {"names": names_of(chosen)}, f"{value} {k or ''}: " + ", ".join(f"{r['short']} {r[item]}" for r in chosen)

    for value, templates in FILTER.items():
        made, attempts = 0, 0
        while made < per_value and attempts < per_value * 50:
            attempts += 1
            template = templates[made % len(templates)]
            mode = ("reg", "office", "any")[(made // len(templates)) % 3]
            place_phrase = PLACE[mode][rng.randrange(len(PLACE[mode]))]
            year, place, item = rng.choice(years), rng.choice(places), rng.choice(sorted(FILTER_ITEMS))
            kw = {"Y": year, "place": place_phrase.format(p=place), "item": FILTER_ITEMS[item]}
            k, op, t = (rng.choice((2, 3)) if value == "nth" else 0), None, None
            if value == "nth":
                kw.update(n=k, cn="二三"[k - 2])
            if value == "count":
                word, op = rng.choice(COMPARE)
                t_text = rng.choice(PEOPLE_THRESHOLDS if item == "在职员工的数量合计" else MONEY_THRESHOLDS)
                t = threshold(t_text)
                kw.update(cmp=word, t=t_text)
            keys = {"reg": ["注册地址"], "office": ["办公地址"], "any": ["注册地址", "办公地址"]}[mode]
            lists = [ranked(year, place, key, item) for key in keys]
            if mode == "any":   # either address: the union must give the same answer as each (else ambiguous)
                lists.append(sorted({id(r): r for recs in lists for r in recs}.values(),
                                    key=lambda r: (-r[item], r["short"] or "")))
            answers = [answer(value, recs, item, k, op, t) for recs in lists]
            if None in answers or any(a[0] != answers[0][0] for a in answers):
                continue  # no clear answer, or "X的上市公司" where registered, office and either address disagree
            (expect, what), recs = answers[0], lists[0]
            question = template.format(**kw)
            if value == "count" and expect["numbers"][0] in re.findall(r"\d+", question):
                continue  # the count must not be readable off the question itself
            note = f"tables {year}, {mode} address contains {place}, {item}, {len(recs)} companies; {what}"
            if c.add(f"filter/{value}", question, expect, note):
                made += 1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", required=True, type=Path, help="store folder with fin_qa.sqlite (reports' facts)")
    ap.add_argument("--tables-store", type=Path, help="store folder with the imported FinGLM tables (filter slot)")
    ap.add_argument("-o", "--output", required=True, type=Path)
    ap.add_argument("--seed", type=int, default=20240611)
    args = ap.parse_args(argv)

    c = Corpus(load_reports(args.store), args.seed)
    for gen in (gen_period, gen_change, gen_unit, gen_compound, gen_multi_year, gen_company, gen_year, gen_scope_parent):
        gen(c)
    if args.tables_store:
        gen_filter(c, load_tables(args.tables_store))
    for n, row in enumerate(c.rows, 1):
        row["id"] = f"g{n:04d}"
    args.output.parent.mkdir(parents=True, exist_ok=True)
    with args.output.open("w", encoding="utf-8") as f:
        for row in c.rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    counts: dict[str, int] = {}
    for row in c.rows:
        counts[row["slot"]] = counts.get(row["slot"], 0) + 1
    for slot, k in counts.items():
        print(f"{slot:28} {k:4}", file=sys.stderr)
    print(f"{len(c.rows)} questions -> {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
