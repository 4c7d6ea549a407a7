"""Tables as frames (fin_qa/answer/frames.py): each step on its own over tables printed as the reports
print them, then the issue's questions over the shared reports (skipped when ../shared is absent)."""
from __future__ import annotations

import math

import pytest

from fin_qa.answer.frames import (Chosen, FrameAnswerer, Query, aging_range, aging_span, build_frame, level_range,
                                  read_query)
from fin_qa.catalog import Catalog
from fin_qa.store.models import TableRecord

CATALOG = Catalog.shipped()
W = CATALOG.frames


class _Cells:
    """The cells answerer's word functions the frames use (spell, label_text, tables, neutral_marks)."""

    def __init__(self):
        from fin_qa.answer.cells import CellAnswerer
        self.real = CellAnswerer.__new__(CellAnswerer)
        CellAnswerer.__init__(self.real, _Values(), CATALOG.cells)

    def __getattr__(self, name):
        return getattr(self.real, name)


class _NoMoreTables:
    """A store holding the tables of the test only: no table goes on after them."""

    @staticmethod
    def report_tables(report_id, ids=None):
        return []


class _Source:
    store = _NoMoreTables()
    keys: dict = {}


class _Values:
    t = CATALOG.templates
    source = _Source()
    style = "human"


def _table(header, rows, caption="", path=("收入与成本",), unit="元"):
    return TableRecord(1, 1, None, list(path), caption, unit, 10, 10, header, rows, [10] * len(rows))


@pytest.fixture(scope="module")
def cells():
    return _Cells()


# ------------------------------------------------------------------------------------------- the frame

def test_sections_printed_as_rows_and_run_into_labels(cells):
    # 惠威科技's layout: 分行业 run into its row's label, 分产品 lost, 分地区 a row of its own
    t = _table(["", "2019年 金额", "占营业收入比重", "2018年 金额", "占营业收入比重", "同比增减"], [
        ["营业收入合计", "274,816,055.36", "100%", "266,619,585.12", "100%", "3.07%"],
        ["分行业电子音响行业", "274,816,055.36", "100.00%", "266,619,585.12", "100.00%", "3.07%"],
        ["多媒体系列", "85,453,984.32", "31.09%", "88,374,903.76", "33.15%", "-3.31%"],
        ["公共广播系列", "57,558,374.82", "20.94%", "56,798,203.59", "21.30%", "1.34%"],
        ["分地区", "", "", "", "", ""],
        ["内销", "269,979,860.65", "98.24%", "261,443,412.52", "98.06%", "3.27%"],
        ["出口", "4,836,194.71", "1.76%", "5,176,172.60", "1.94%", "-6.57%"],
    ], caption="营业收入构成")
    f = build_frame(t, cells.tables, W)
    assert f.kind == "segment"
    by = {r.label: r for r in f.rows}
    assert "分行业电子音响行业" not in by and by["电子音响行业"].section == "industry"
    assert by["多媒体系列"].section == "product" and by["公共广播系列"].section == "product"   # the lost 分产品
    assert by["出口"].section == "region" and by["营业收入合计"].total
    assert [c.share for c in f.columns] == [False, False, True, False, True, False]
    assert f.columns[1].year == 2019 and f.columns[5].change
    # its numbers as a pandas frame (rows × columns), for analyses over the table
    assert f.values.loc[6, 1] == f.number(6, 1) == 4836194.71 and f.values.shape == (6, 5)


def test_a_section_named_by_the_header_and_a_serial_column(cells):
    f = build_frame(_table(["分地区", "营业收入", "营业成本"], [["境内", "397,875,535.30", "1"], ["境外", "737,763,832.75", "2"]]),
                    cells.tables, W)
    assert f.kind == "segment" and {r.section for r in f.rows} == {"region"}
    g = build_frame(_table(["序号", "客户名称", "销售额", "占年度销售总额比例（%）"],
                           [["1", "第一名", "86,512,221.40", "7.36"], ["2", "第二名", "76,744,556.33", "6.53"],
                            ["", "合计", "329,324,848.37", "28.02"]], caption="前五名客户"), cells.tables, W)
    assert g.kind == "customer" and [r.label for r in g.rows] == ["第一名", "第二名", "合计"] and g.rows[2].total
    # a supplier table under the same caption is told by its header
    s = build_frame(_table(["序号", "供应商名称", "采购额", "占年度采购总额比例"], [["1", "第一名", "2.00", "1"]],
                           caption="主要销售客户及主要供应商情况"), cells.tables, W)
    assert s.kind == "supplier"


def test_a_header_shifted_by_its_unit_line(cells):
    f = build_frame(_table(["账龄", "期末账面余额", "币种：人民币"],
                           [["1年以内小计", "", "32,056,053.95"], ["1至 2年", "", "4,919,516.62"], ["", "合计", "39,219,714.68"]],
                           caption="按账龄披露"), cells.tables, W)
    assert f.kind == "aging" and f.columns[2].key == "期末账面余额"
    assert [r.total for r in f.rows] == [False, False, True]   # "1年以内小计" is a bucket's subtotal


# ------------------------------------------------------------------------------------------- the query

@pytest.mark.parametrize("ask, op, group, order, nth", [
    ("哪个地区营业收入最高", "rank", "region", "max", 1),
    ("哪类产品毛利率最低", "rank", "product", "min", 1),
    ("第二大股东持股比例", "rank", "shareholder", "max", 2),
    ("前5名客户中最大客户销售额", "rank", "customer", "max", 1),
    ("境外收入占营业收入比例", "share", None, "max", 1),
    ("硕士及以上学历员工", "sum", "education", "max", 1),
    ("几家子公司", "count", "subsidiary", "max", 1),
    ("出口收入", "value", None, "max", 1),
])
def test_read_query(ask, op, group, order, nth):
    q = read_query(ask, W)
    assert isinstance(q, Query) and (q.op, q.group, q.order, q.nth) == (op, group, order, nth)


def test_share_whole_words():
    assert read_query("境外收入占营业收入比例", W).whole == "营业收入"
    assert read_query("出口占比", W).whole == ""


@pytest.mark.parametrize("text, span", [
    ("1年以内", (0, 1)), ("1至2年", (1, 2)), ("一至二年", (1, 2)), ("1-2年", (1, 2)), ("3年以上", (3, math.inf)),
    ("6个月以内", (0, 0.5)), ("其中：1年以内分项1年以内小计", (0, 1)),
])
def test_aging_ranges(text, span):
    assert aging_range(text) == span


def test_aging_span_is_the_words_of_the_range():
    assert aging_span("应收账款中一至二年") == "一至二年"


@pytest.mark.parametrize("text, span", [
    ("本科", (3, 3)), ("硕士及以上", (4, math.inf)), ("大专及以下", (-math.inf, 2)), ("研究生", (4, 5)),
])
def test_levels(text, span):
    assert level_range(text, W, W.and_up, W.and_down) == span


def test_levels_say_their_words():
    assert level_range("员工中硕士及以上学历", W, W.and_up, W.and_down, span=True) == "硕士及以上"


# ------------------------------------------------------------------------------------------- the steps

def test_steps_rank_share_sum_and_declines(cells):
    fa = FrameAnswerer(cells, W)
    t = _table(["", "2019年 金额", "占营业收入比重"], [
        ["营业收入合计", "100.00", "100%"], ["分产品", "", ""], ["甲系列", "60.00", "60.00%"], ["乙系列", "40.00", "40.00%"],
        ["分地区", "", ""], ["内销", "90.00", "90%"], ["出口", "10.00", "10%"]], caption="营业收入构成")
    f = build_frame(t, cells.tables, W)
    q = read_query("哪类产品营业收入最高", W)
    rows = fa.name_rows(f, q, "")
    chosen = fa.choose_column(f, q, "营业收入", 2019)
    got = fa.run(f, q, rows, chosen)
    assert got.rows[0].label == "甲系列" and got.value == 60.0
    # its share: the printed column
    share = fa.share_of(f, read_query("占营业收入比例", W), got, chosen)
    assert share.shown == "60.00%" and share.how == "printed"
    # an alias names the row printed 出口
    rows = fa.name_rows(f, read_query("境外收入占营业收入比例", W), "境外")
    assert [r.label for r in rows.rows] == ["出口"] and "出口" in rows.how
    # a rank of one row, or a range no row lies in, gives nothing (never 0)
    one = build_frame(_table(["分地区", "营业收入"], [["境内", "5.00"]]), cells.tables, W)
    q = read_query("哪个地区营业收入最高", W)
    assert fa.run(one, q, fa.name_rows(one, q, ""), fa.choose_column(one, q, "", 2019)).declined
    edu = build_frame(_table(["教育程度", "数量（人）"], [["硕士及以上", "15"], ["本科", "204"], ["大专", "300"]],
                             caption="教育程度"), cells.tables, W)
    assert fa.name_rows(edu, read_query("博士及以上", W), "博士及以上").how == "declined"   # 硕士及以上 reaches past it
    both = fa.name_rows(edu, read_query("本科及以上", W), "本科及以上")
    assert both.how == "sum" and sorted(r.label for r in both.rows) == ["本科", "硕士及以上"]


# ------------------------------------------------------------------------------------------- on the reports

@pytest.fixture(scope="module")
def router(all_store):
    from fin_qa.answer.facts import FactSource
    from fin_qa.answer.router import Router

    store, _ = all_store
    return Router(FactSource(store), CATALOG)


@pytest.mark.parametrize("q, want", [
    ("四方科技2019年哪个地区的营业收入最高？", ["境外", "737,763,832.75", "第12页"]),
    ("惠威科技2019年哪类产品的营业收入最高？占营业收入的比重是多少？", ["多媒体系列", "85,453,984.32", "31.09%"]),
    ("惠威科技2019年境外收入占营业收入的比重是多少？", ["出口", "1.76%"]),
    ("四方科技2019年前五名客户中最大的客户销售额是多少？", ["86,512,221.40"]),
    ("南通四方罐式储运设备制造有限公司2019年的净利润是多少？", ["四方科技", "70,662,576.11元"]),
    ("四方科技2019年末应收账款中账龄1年以内的余额是多少？", ["32,056,053.95"]),
])
def test_the_issue_table(router, q, want):
    a = router.answer(q)
    assert a.found and a.method == "frame" and all(w in a.answer for w in want), a.answer
    assert a.evidence and all(e.page for e in a.evidence)


def test_the_api_answers_the_same(all_store):
    from fin_qa.api import FinQA

    store, _ = all_store
    qa = FinQA(store.dir)
    a = qa.ask("四方科技2019年哪个地区的营业收入最高？")
    assert a.found and "境外" in a.answer and "737,763,832.75" in a.answer


@pytest.mark.parametrize("q", [
    "四方科技2019年哪个地区的营业成本最高是多少亿",        # a unit the frame does not convert: not the frames'
    "四方科技2019年前五名客户中最大的客户叫什么名字",      # 第一名 is no name
    "四方科技2019年国外营业收入占比",                      # no share column, no total row: no whole
])
def test_what_the_frames_leave(router, q):
    a = router.answer(q)
    assert a.method != "frame", a.answer


def test_a_sum_over_buckets_is_printed_with_its_parts(router):
    a = router.answer("四方科技2019年其他应收款账龄2年以内合计")
    assert a.method == "frame" and "5,462,828.83" in a.answer and "2,452,628.83" in a.answer and "3,010,200.00" in a.answer


def test_a_rows_parts_are_named_with_their_whole(cells):
    # a bank's deposits: 个人存款 | 其中：活期存款 | 定期存款 (their values add up to it)
    f = build_frame(_table(["项目", "2021年12月31日 金额", "占比(%)"], [
        ["公司存款", "2,944,013", "77.97"], ["其中：活期存款", "1,215,239", "32.19"], ["定期存款", "1,728,774", "45.78"],
        ["个人存款", "825,423", "21.86"], ["其中：活期存款", "248,459", "6.58"], ["定期存款", "576,964", "15.28"],
        ["合计", "3,775,761", "100.00"]]), cells.tables, W)
    full = [r.full for r in f.rows]
    assert full == ["", "公司活期存款", "公司定期存款", "", "个人活期存款", "个人定期存款", ""]
    fa = FrameAnswerer(cells, W)
    rows = fa.name_rows(f, read_query("个人定期存款", W), "个人定期存款")
    assert [r.index for r in rows.rows] == [5]


def test_counts_and_ranks_take_the_rows_of_the_group(cells):
    fa = FrameAnswerer(cells, W)
    # a name wrapped over two rows is one row: only rows with a number are counted
    f = build_frame(_table(["子公司名称", "主要经营地", "持股比例(%)"], [
        ["甲科技有限公司", "上海", "100.00"], ["乙化工有限", "江苏", "60.00"], ["公司", "", ""]],
        caption="（1）企业集团的构成"), cells.tables, W)
    q = read_query("几家子公司", W, "有几家子公司")
    rows = fa.name_rows(f, q, "")
    assert fa.run(f, q, rows, Chosen(f.columns[0], None, "")).value == 2   # (a count reads no column)
    # 哪家分行: the rows named …分行, not 总行本部 (when most rows are)
    b = build_frame(_table(["机构名称", "营业地址", "机构数", "员工数"], [
        ["总行本部", "福州", "1", "4,805"], ["北京分行", "北京", "80", "2,544"], ["上海分行", "上海", "90", "2,886"],
        ["南京分行", "南京", "140", "3,924"]], caption="分支机构基本情况"), cells.tables, W)
    assert b.kind == "branch"
    q = read_query("员工最多分行", W)
    rows = fa.name_rows(b, q, "员工")
    got = fa.run(b, q, rows, fa.choose_column(b, q, "员工", 2022))
    assert got.rows[0].label.startswith("南京分行") and got.value == 3924


def test_an_entity_ranks_by_its_own_measure_or_not_at_all(cells):
    fa = FrameAnswerer(cells, W)
    f = build_frame(_table(["股东名称", "股东性质", "持股比例", "持有有限售条件的股份数量"], [
        ["甲集团", "国有法人", "30.02%", "62,409,633"], ["乙公司", "国有法人", "9.43%", "90,239,920"]],
        caption="前10名股东持股情况"), cells.tables, W)
    q = read_query("第1大股东", W)
    chosen = fa.choose_column(f, q, "", 2016)
    assert chosen is not None and chosen.column.key.endswith("持股比例")   # never 有限售条件的股份数量
    assert fa.run(f, q, fa.name_rows(f, q, ""), chosen).rows[0].label.startswith("甲集团")


@pytest.mark.parametrize("q, want", [
    ("珠海惠威2019年净利润是多少？", ["珠海惠威科技有限公司", "惠威科技", "21,308,854.09元"]),   # the core of its name
    ("四方罐储2019年净利润是多少？", ["南通四方罐式储运设备制造有限公司", "70,662,576.11元"]),   # its 释义 name
    ("帮我查下子公司南通四方制冷工程2019年的注册资本和净利润", ["1,291,522.10元", "10,000,000.00元"]),
    ("金宇保灵2020年净利润是多少？", ["金宇保灵生物药品有限公司", "30,062万元"]),   # a paragraph of its own
    ("四方科技2019年有几家子公司？", ["共6家", "四方罐储公司", "第134页"]),
    ("华锦股份2019年化肥行业和精细化工两个行业的收入合计是多少？", ["4,062,895,291.70元"]),
    ("苏常柴2019年本科及以上学历的员工有多少人？", ["277人", "本科259", "本科以上18"]),   # 本科以上 beside 本科
    ("四方科技2019年账龄超过1年的应收账款合计多少？", ["7,163,660.73元", "第92页"]),
])
def test_subsidiaries_counts_and_sums_on_the_reports(router, q, want):
    a = router.answer(q)
    assert a.found and a.method == "frame" and all(w in a.answer for w in want), a.answer


@pytest.mark.parametrize("q, never", [
    ("海翔药业2019年台州前进的营业收入", "2,941,412,770.30"),      # a subsidiary named, not read: never the parent's
    ("万科2012年账龄1至3年的应收账款合计", "1,886,548,523.49"),      # an aging range: never the item's whole
    ("生物股份2020年最大客户的销售额是多少？", "27,614.37"),           # no customer listed: never the top five's total
    ("安靠智电2019年第一大客户是哪家公司？", "客户一”，"),             # a name asked of 客户一: not disclosed
])
def test_what_is_declined_rather_than_given_wrong(router, q, never):
    a = router.answer(q)
    assert not a.found and never not in a.answer.split("仅列示为")[0], a.answer


def test_the_cli_answers_a_table_question(all_store):
    import subprocess
    import sys

    store, _ = all_store
    out = subprocess.run([sys.executable, "-m", "fin_qa.cli", "ask", "惠威科技2019年境外收入占营业收入的比重是多少？",
                          "--store", str(store.dir), "--json"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    import json
    rec = json.loads(out.stdout)
    assert rec["method"] == "frame" and "1.76%" in rec["answer"] and rec["evidence"][0]["page"] == 12
