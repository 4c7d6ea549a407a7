"""Every table of a report as a record (fin_qa/ingest/tables.py), stored and indexed, and table questions
answered from its cells (fin_qa/answer/cells.py). The values asserted on the shared reports were read on
the page named."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from fin_qa.cli import cli
from fin_qa.ingest.pages import Cell, Row
from fin_qa.ingest.tables import Table, extract_tables, page_tables
from fin_qa.answer.cells import core, norm


def row(top: float, *cells: tuple[str, float, float], page: int = 1) -> Row:
    return Row([Cell(t, x0, x1) for t, x0, x1 in cells], top, top + 10, page)


HEADER = row(100, ("序号", 60, 80), ("客户名称", 160, 200), ("销售额（元）", 290, 350), ("占年度销售总额比例", 410, 500))


def customers(top: float = 100, page: int = 1) -> list[Row]:
    return [
        row(top - 20, ("公司前", 57, 84), ("5大客户资料", 86, 137), page=page),
        row(top, *[(c.text, c.x0, c.x1) for c in HEADER.cells], page=page),
        row(top + 18, ("1", 58, 62), ("中国兵器工业集团有限公司", 98, 206), ("4,661,463,413.42", 319, 376), ("11.77%", 509, 534), page=page),
        row(top + 36, ("2", 58, 62), ("中石化", 98, 125), ("1,643,300,841.48", 319, 376), ("4.15%", 513, 534), page=page),
        row(top + 54, ("合计", 58, 76), ("--", 177, 182), ("6,304,764,254.90", 319, 376), ("15.92%", 509, 534), page=page),
    ]


def test_a_table_with_caption_header_and_rows():
    rows = [row(40, ("主要销售客户情况说明如下，详见下表。这是一行足够长的正文文字，不是表格的一部分。", 57, 540))] + customers()
    [t] = page_tables(rows, 1)
    assert t.caption == "公司前 5大客户资料"
    assert t.header == ["序号", "客户名称", "销售额（元）", "占年度销售总额比例"]
    assert t.rows[0] == ["1", "中国兵器工业集团有限公司", "4,661,463,413.42", "11.77%"]
    assert t.rows[-1] == ["合计", "--", "6,304,764,254.90", "15.92%"]
    assert t.pages == [1, 1, 1]


def test_two_tables_in_one_run_are_cut_where_the_columns_change():
    # "前五名客户合计销售金额 | 金额" rows, then the five-customer table right below it (华锦股份 p.13)
    top = [row(40, ("前五名客户合计销售金额（元）", 58, 184), ("6,304,764,254.90", 476, 534)),
           row(58, ("前五名客户合计销售金额占年度销售总额比例", 58, 238), ("15.92%", 509, 534))]
    tables = page_tables(top + customers(100), 1)
    assert [t.width for t in tables] == [2, 4]
    assert tables[0].rows[1] == ["前五名客户合计销售金额占年度销售总额比例", "15.92%"]
    assert tables[1].caption == "公司前 5大客户资料" and tables[1].header[1] == "客户名称"


def test_wrapped_cell_unit_line_and_a_header_over_two_rows():
    rows = [
        row(20, ("单位：万元", 480, 530)),
        row(40, ("2019年", 200, 240), ("2018年", 320, 360)),
        row(58, ("项目", 60, 80), ("金额", 200, 230), ("金额", 320, 350)),
        row(76, ("计入当期损益的政府补助（与企业业务", 60, 180), ("1,234.00", 200, 240), ("987.00", 320, 360)),
        row(87, ("密切相关）", 60, 100)),          # 1 point below: the label's second line
        row(105, ("非经常性损益合计", 60, 140), ("2,000.00", 200, 240), ("1,500.00", 320, 360)),
    ]
    [t] = page_tables(rows, 3)
    assert t.unit == "万元"
    assert t.header == ["项目", "2019年 金额", "2018年 金额"]
    assert t.rows[0][0] == "计入当期损益的政府补助（与企业业务密切相关）"
    assert core(t.rows[0][0]) == "计入当期损益的政府补助"


def test_a_table_continued_on_the_next_page_drops_the_repeated_header():
    class Doc:
        kind = "pdf"

        def __init__(self):
            self.pages = [type("P", (), {"number": n, "lines": []})() for n in (1, 2)]
            first = customers(700)
            second = [row(40, *[(c.text, c.x0, c.x1) for c in HEADER.cells], page=2),
                      row(58, ("3", 58, 62), ("浙江舟山澜海石化有限公司", 98, 206), ("1,181,639,181.77", 319, 376),
                          ("2.98%", 513, 534), page=2)]
            self._rows = {1: first, 2: second}

        def rows(self, n):
            return self._rows[n]

    [t] = extract_tables(Doc())
    assert (t.page_start, t.page_end) == (1, 2)
    assert [r[0] for r in t.rows] == ["1", "2", "合计", "3"]
    assert t.pages == [1, 1, 1, 2]


def test_text_only_table_has_its_first_row_as_header():
    # a FinGLM txt table of names (控股股东): no numbers, one header row
    rows = [row(0, ("控股股东名称", 0, 90), ("法定代表人", 100, 190)),
            row(1, ("北方华锦化学工业集团有限公司", 0, 90), ("任勇强", 100, 190))]
    [t] = page_tables(rows, 5, wraps=False)
    assert t.header == ["控股股东名称", "法定代表人"] and t.rows == [["北方华锦化学工业集团有限公司", "任勇强"]]


def test_numbers_wrapped_in_narrow_columns_are_joined():
    # "260,760,875.5" with its last digit on the line below (华锦股份 p.109); a whole number is left alone
    rows = [row(40, ("子公司名称", 60, 120), ("净利润", 300, 340)),
            row(58, ("盘锦北方沥青股份有限公司", 60, 160), ("260,760,875.5", 290, 345)),
            row(68, ("0", 338, 345)),
            row(86, ("锦西天然气化工有限责任公司", 60, 170), ("108,622,006.86", 290, 345)),
            row(96, ("3", 338, 345))]
    [t] = page_tables(rows, 109)
    assert t.rows[0] == ["盘锦北方沥青股份有限公司", "260,760,875.50"]
    assert t.rows[1] == ["锦西天然气化工有限责任公司", "108,622,006.86"]


def test_shareholder_table_under_the_counts_with_wrapped_header_and_name():
    # 苏常柴 p.37 (shape of): the shareholder counts, the table's title, a header over three lines, a
    # name wrapped above its values
    rows = [row(10, ("报告期末普通股股东总数", 58, 111), ("50,382", 131, 159), ("年度报告披露日前上一月末普通股股东总数", 173, 247),
                ("48,072", 266, 296), ("报告期末表决权恢复的优先股股东总数", 297, 360), ("0", 391, 396)),
            row(40, ("持股5%以上的股东或前 10名股东持股情况", 196, 396)),
            row(60, ("报告期内", 298, 340), ("质押或冻结情况", 458, 531)),
            row(68, ("持股比", 202, 233), ("报告期末持", 240, 293)),
            row(76, ("股东名称", 75, 117), ("例", 210, 220), ("股数量", 245, 280), ("增减变动", 298, 340)),
            row(96, ("常州投资集团有", 58, 130)),
            row(104, ("限公司", 58, 90), ("30.43%", 200, 230), ("170,845,236", 240, 293), ("质押", 460, 480))]
    tables = page_tables(rows, 37)
    t = tables[-1]
    assert "10名股东持股情况" in t.caption
    assert t.header[:4] == ["股东名称", "持股比 例", "报告期末持 股数量", "报告期内 增减变动"]
    assert t.rows[0][:3] == ["常州投资集团有限公司", "30.43%", "170,845,236"]


def test_question_words_normalised_as_tables_print_them():
    assert norm("前五名客户") == "前5名客户" and norm("第一大股东") == "第1大股东"
    assert core("1、营业收入（元）") == "营业收入" and core("其中：利息费用") == "利息费用"


# ------------------------------------------------------------------------------- the shared reports


def test_tables_stored_and_indexed(all_store):
    store, _ = all_store
    counts = dict(store.db.execute("SELECT r.short_name, COUNT(*) FROM tables t JOIN reports r ON r.id = t.report_id"
                                   " GROUP BY r.short_name"))
    assert set(counts) >= {"华锦股份", "四方科技", "安靠智电", "邮储银行", "万科A"}
    assert min(counts.values()) >= 50
    rid = store.db.execute("SELECT id FROM reports WHERE short_name='华锦股份'").fetchone()[0]
    ids = store.table_match('"客户" OR "销售"', rid, 10)
    tables = store.report_tables(rid, ids)
    top5 = next(t for t in tables if "客户名称" in t.header)
    assert top5.page_start == 13 and top5.rows[0][1] == "中国兵器工业集团有限公司"
    assert top5.path and "主要销售客户" in "".join(top5.path)


CELL_CASES = [
    # (question, words the answer must hold, pages that print it) — each value read on the page
    ("华锦股份2019年前五名客户合计销售金额是多少？占年度销售总额的比例是多少？", ["9,344,898,794.54", "23.59%"], (13,)),
    ("北方华锦2019年的第一大客户是哪家公司？", ["中国兵器工业集团有限公司", "4,661,463,413.42"], (13,)),
    ("四方科技2019年罐式集装箱业务营业收入多少，毛利率多少？", ["764,321,152.14", "17.30"], (11, 12)),
    ("华锦股份2019年向大连北方化学工业有限公司采购了多少金额？", ["378,247,771.96"], (112,)),
    # 主要子公司 (p.18) and 重要非全资子公司的主要财务信息 (p.109, its numbers wrapped: "260,760,875.5" / "0")
    ("华锦股份子公司盘锦北方沥青股份有限公司2019年净利润是多少？", ["260,760,875.50"], (18, 109)),
    # two asks, two rows of a label | value table; 每10股派 names 每10股派息数 (p.30)
    ("张家界旅游2016年度现金分红总额是多少？每10股派多少？", ["26,950,152.52", "0.84"], (30,)),
    # the revenue and its change column of the row; the header is on p.15, the rows on p.16
    ("张家界2016年杨家界索道营业收入多少，同比变化多少？", ["77,389,616.90", "-43.37%"], (16,)),
    # 合计 of the table its title names (p.7-8: labels wrapped around their values over a page break)
    ("苏常柴2019年非经常性损益合计是多少？", ["10,557,802.90"], (8, 168)),
    # a rank, a name wrapped in a narrow column under a header of eight lines (p.38)
    ("惠威科技2019年的第一大股东是谁？持股比例多少？", ["HONGBO YAO", "62.78%"], (38,)),
    # a subsidiary's name and business centred on its values' line, numbers cut by narrow columns (p.21)
    ("惠威科技2019年子公司珠海惠威科技有限公司的总资产和净利润？", ["315,182,458.33", "21,308,854.09"], (21,)),
    # the report year's row of a table of years, its header over fifteen lines (p.24-25)
    ("惠威科技2019年度现金分红占合并报表归属于上市公司普通股股东净利润的比率是多少？", ["95.32%"], (25,)),
]


def test_cells_answer_table_questions(all_store):
    store, _ = all_store
    for question, words, pages in CELL_CASES:
        out = CliRunner().invoke(cli, ["ask", "--store", str(store.dir), "--json", question]).output
        rec = json.loads(out)
        assert rec["method"] in ("cell", "frame"), (question, rec["answer"])   # (a rank: a frame query)
        assert all(w in rec["answer"] for w in words), (question, rec["answer"])
        assert any(e["page"] in pages for e in rec["evidence"]), (question, rec["evidence"])


def test_a_row_the_items_do_not_explain_never_gets_the_company_total(all_store):
    store, _ = all_store
    total = "1,175,301,034.32"   # 四方科技 2019 营业收入 (利润表)
    out = CliRunner().invoke(cli, ["ask", "--store", str(store.dir), "四方科技2019年罐式集装箱的营业收入是多少？"]).output
    assert total not in out and "764,321,152.14" in out
    out = CliRunner().invoke(cli, ["ask", "--store", str(store.dir), "2019年四方科技的营业收入是多少？"]).output
    assert total in out   # the plain question is still the statement's value


def test_list_questions_get_whole_rows_with_their_headers(all_store):
    store, _ = all_store
    ask = ["ask", "--store", str(store.dir)]
    out = CliRunner().invoke(cli, [*ask, "华锦股份2019年的前五名供应商都是谁？"]).output
    assert all(name in out for name in ("中国兵器工业集团有限公司", "中石油", "国家电网", "中石化", "中海油"))
    assert "采购额（元）：751,339,981.95元" in out      # p.13, each row with its header
    # 苏常柴 p.37-38: the table goes on over the page break in fewer filled columns
    out = CliRunner().invoke(cli, [*ask, "苏常柴2019年前十名股东有哪些？"]).output
    assert "常州投资集团有限公司（股东性质：国有法人，持股比例：30.43%，报告期末持股数量：170,845,236" in out
    assert "雷延琴（股东性质：境内自然人，持股比例：0.39%" in out


def test_a_column_the_question_does_not_ask_is_never_the_answer(all_store):
    store, _ = all_store
    ask = ["ask", "--store", str(store.dir)]
    # 惠威科技 prints 珠海惠威科技有限公司's 所得税税率 (15%) in a table of its own: not its 净利润
    out = CliRunner().invoke(cli, [*ask, "惠威科技2019年子公司珠海惠威科技有限公司的总资产和净利润？"]).output
    assert "15%" not in out
    # 华锦股份 p.109's 本期发生额 | 上期发生额 columns: 净利润 once, the report year's
    out = CliRunner().invoke(cli, [*ask, "安靠智电子公司河南安靠电力工程设计有限公司2019年净利润和营业收入？"]).output
    assert "5,557,627.30" in out and "3,694,123.71" not in out


def test_total_rows_unit_asked_and_meaning_words(all_store):
    store, _ = all_store
    ask = ["ask", "--store", str(store.dir)]
    # 合计 names the total row of the table whose title the question names (万科A p.4: 非经常性损益项目)
    out = CliRunner().invoke(cli, [*ask, "万科A 2012年非经常性损益合计金额？"]).output
    assert "39,879,299.64" in out
    # an amount asked in 亿元 is converted from the table's 元, the printed value beside it
    out = CliRunner().invoke(cli, [*ask, "华锦股份2019年前五名客户合计销售金额是多少亿元？"]).output
    assert "93.45亿元（表中为9,344,898,794.54元）" in out
    # "非经常性损益" is not 扣除非经常性损益后的净利润 (14,376,783.21), however close the words
    out = CliRunner().invoke(cli, [*ask, "苏常柴2019年非经常性损益合计是多少？"]).output
    assert "14,376,783.21" not in out



# --------------------------------------------------------------------------- rows of wrapped and centred cells


def test_a_label_wrapped_above_and_below_its_values_is_one_row():
    # 苏常柴 p.8 (shape of): a label over several lines, its values on a middle line; rows further apart
    # than a cell's lines
    rows = [row(40, ("项目", 60, 80), ("2019年金额", 240, 290), ("2018年金额", 320, 370)),
            row(60, ("计入当期损益的对非金融企业收", 60, 200)),
            row(66, ("536,504.84", 250, 290), ("938,737.87", 330, 370)),
            row(75, ("取的资金占用费", 60, 130)),
            row(95, ("企业取得子公司、联营企业及合营", 60, 210)),
            row(110, ("企业的投资成本小于取得投资时", 60, 200)),
            row(116, ("19,924,486.12", 240, 290)),
            row(125, ("应享有被投资单位可辨认净资产", 60, 200)),
            row(145, ("合计", 60, 80), ("10,557,802.90", 240, 290), ("105,354,570.17", 310, 370))]
    [t] = page_tables(rows, 8)
    assert t.header == ["项目", "2019年金额", "2018年金额"]
    assert [r[0] for r in t.rows] == ["计入当期损益的对非金融企业收取的资金占用费",
                                     "企业取得子公司、联营企业及合营企业的投资成本小于取得投资时应享有被投资单位可辨认净资产",
                                     "合计"]
    assert t.rows[0][1:] == ["536,504.84", "938,737.87"] and t.rows[1][1] == "19,924,486.12"


def test_a_name_and_a_description_centred_on_the_values_line():
    # 惠威科技 p.21 (shape of): 公司名称 and 主要业务 over several lines around one values line
    head = [row(40, ("公司名称", 60, 100), ("主要业务", 140, 180), ("注册资本", 200, 240), ("净利润", 300, 330))]
    body = [row(60, ("研发、生产、", 138, 190)), row(68, ("珠海", 62, 80)), row(76, ("加工和销售", 138, 183)),
            row(84, ("惠威", 62, 80)), row(90, ("各类喇叭、", 138, 183), ("236,072,490.00", 198, 245),
                                          ("21,308,854.09", 290, 330)),
            row(99, ("科技有限公司", 62, 110)), row(106, ("音响器材等。", 138, 183))]
    [t] = page_tables(head + body, 21)
    assert t.rows == [["珠海惠威科技有限公司", "研发、生产、加工和销售各类喇叭、音响器材等。", "236,072,490.00", "21,308,854.09"]]


def test_every_number_of_a_row_cut_over_two_lines_around_its_label():
    # 苏常柴 p.20 (shape of): columns so narrow that each number's rest is on the line under it, the
    # name centred between; the rest line is no row of its own
    head = [row(40, ("公司名称", 65, 107), ("公司类型", 121, 143), ("注册资本", 213, 247), ("净利润", 493, 525))]
    body = [row(60, ("子公", 121, 142), ("37,250,", 213, 245), ("8,591,28", 493, 530)),
            row(68, ("常柴罗宾", 62, 104)),
            row(76, ("司", 121, 131), ("000.00", 213, 242), ("7.04", 511, 530)),
            row(96, ("子公", 121, 142), ("100,000", 213, 247), ("-393,596.", 489, 530)),
            row(104, ("常柴机械", 62, 104)),
            row(112, ("司", 121, 131), (",000.00", 213, 245), ("34", 519, 530))]
    [t] = page_tables(head + body, 20)
    assert t.rows == [["常柴罗宾", "子公司", "37,250,000.00", "8,591,287.04"],
                      ["常柴机械", "子公司", "100,000,000.00", "-393,596.34"]]


def test_a_header_at_a_pages_foot_is_joined_to_its_rows_on_the_next():
    class Doc:
        kind = "pdf"

        def __init__(self):
            self.pages = [type("P", (), {"number": n, "lines": []})() for n in (15, 16)]
            foot = [row(700, ("营业收入比上年", 333, 396), ("毛利率比上年", 470, 533), page=15),
                    row(707, ("营业收入", 141, 177), ("毛利率", 282, 309), page=15),
                    row(714, ("同期增减", 346, 382), ("同期增减", 480, 515), page=15)]
            rows = [row(80, ("旅行社服务业", 58, 112), ("202,358,241.85", 136, 192), ("7.15%", 305, 329),
                         ("-11.29%", 367, 397), ("1.23%", 511, 534), page=16),
                    row(100, ("杨家界索道", 58, 103), ("77,389,616.90", 140, 192), ("50.94%", 301, 329),
                         ("-43.37%", 366, 397), ("-13.09%", 503, 534), page=16)]
            self._rows = {15: foot, 16: rows}

        def rows(self, n):
            return self._rows[n]

    [t] = extract_tables(Doc())
    assert (t.page_start, t.page_end) == (15, 16)
    assert t.header[1:] == ["营业收入", "毛利率", "营业收入比上年 同期增减", "毛利率比上年 同期增减"]
    assert t.rows[1] == ["杨家界索道", "77,389,616.90", "50.94%", "-43.37%", "-13.09%"] and t.pages == [16, 16]


def test_cells_set_too_close_are_cut_where_pdfium_saw_a_gap():
    # 华锦股份 p.29: "北方华锦化学工业集团有限公司" runs into "国有法人" (1.6 points apart, one word)
    name = Cell("北方华锦化学工业集团有限公司国有法人", 51, 215,
                (Cell("北方华锦化学工业集团有限公司", 51, 177), Cell("国有法人", 178.6, 215)))
    rows = [row(40, ("股东名称", 95, 131), ("股东性质", 184, 220), ("持股比例", 232, 254)),
            Row([name, Cell("32.16%", 229, 254)], 60, 70, 1),
            row(80, ("黄杰", 51, 69), ("境内自然人", 179, 224), ("2.03%", 233, 254))]
    [t] = page_tables(rows, 29)
    assert t.rows[0] == ["北方华锦化学工业集团有限公司", "国有法人", "32.16%"]


def test_a_sentence_set_apart_around_its_numbers_is_no_table():
    # 万科A p.16: "…公司从前 | 5 | 名材料设备供应商的采购额合计 | 26.4 | 亿元，比 | 2011 | 年增加…"
    rows = [row(40, ("采购规模效益。报告期内，公司从前", 57, 200), ("5", 205, 210), ("名材料设备供应商的采购额合计", 215, 350),
                ("26.4", 355, 375), ("亿元，比", 380, 420), ("2011", 425, 445), ("年增加", 450, 480))]
    assert page_tables(rows, 16) == []


def test_tables_on_two_pages_are_one_only_when_their_columns_align():
    class Doc:
        kind = "pdf"

        def __init__(self):
            self.pages = [type("P", (), {"number": n, "lines": []})() for n in (51, 52)]
            a = [row(700, ("报酬的决策程序", 90, 180), ("由股东大会决定", 200, 500), page=51),
                 row(720, ("报酬确定依据", 90, 180), ("按公司制度结算发放", 200, 500), page=51)]
            b = [row(20, ("(一)员工情况", 90, 153), page=52),
                 row(40, ("母公司在职员工的数量", 90, 195), ("652", 515, 531), page=52),
                 row(60, ("在职员工的数量合计", 90, 185), ("1,406", 505, 531), page=52)]
            self._rows = {51: a, 52: b}

        def rows(self, n):
            return self._rows[n]

    tables = extract_tables(Doc())
    assert len(tables) == 2 and tables[1].rows[1] == ["在职员工的数量合计", "1,406"] and not any(tables[1].header)


def test_cells_never_answer_what_their_words_do_not_say(all_store):
    store, _ = all_store
    ask = ["ask", "--store", str(store.dir)]
    # 注册资本 is no column of 企业集团的构成 (注册地 | 持股比例): its 100.00% is not the answer
    out = CliRunner().invoke(cli, [*ask, "扬州优邦生物药品有限公司注册资本是多少（生物股份2020年报）？"]).output
    assert "100.00%" not in out
    # "营业收入是上年的多少" asks a ratio to last year: no cell prints it
    out = CliRunner().invoke(cli, [*ask, "四方科技2019年营业收入是上年的多少"]).output
    assert "1,175,301,034.32" not in out
    # 营业总收入 (万科A p.177) is not 营业收入: the statement's 营业收入 answers
    rec = json.loads(CliRunner().invoke(cli, [*ask, "--json", "万科A 2012年营业收入是多少"]).output)
    assert rec["method"] == "lookup"
    # a header's words inside another (注册 of 注册地, 营业 of 营业成本) name no column
    out = CliRunner().invoke(cli, [*ask, "张家界2016年杨家界索道营业收入多少？"]).output
    assert "占营业成本比重" not in out and "77,389,616.90" in out
    # "净利润占营业收入的比例" names no 营业收入 row (生物股份 p.14's change table: 营业收入 变动比例 40.39%)
    rec = json.loads(CliRunner().invoke(cli, [*ask, "--json", "生物股份2020年净利润占营业收入的比例是多少？"]).output)
    assert "40.39" not in rec["answer"] and rec["method"] == "formula"


def test_a_name_the_report_does_not_print_is_said_not_disclosed(all_store):
    store, _ = all_store
    ask = ["ask", "--store", str(store.dir), "--json"]
    # 安靠智电 p.25 lists its customers as 客户一…客户五
    rec = json.loads(CliRunner().invoke(cli, [*ask, "安靠智电2019年第一大客户是哪家公司？"]).output)
    assert rec["method"] == "declined" and "未披露其名称" in rec["answer"] and "客户一" in rec["answer"]
    # its amount is still answered
    rec = json.loads(CliRunner().invoke(cli, [*ask, "安靠智电2019年第一大客户的销售额是多少？"]).output)
    assert rec["method"] in ("cell", "frame") and "103,558,585.83" in rec["answer"]


def test_an_ask_no_slot_reads_is_never_dropped(all_store):
    store, _ = all_store
    ask = ["ask", "--store", str(store.dir), "--json"]
    # 邮储银行 p.7: the second ask (派息总额) is answered from the sentence, not dropped after the first
    rec = json.loads(CliRunner().invoke(cli, [*ask, "中国邮政储蓄银行2019年度每10股派发现金股利多少元，派息总额约多少？"]).output)
    assert "182.83亿元" in rec["answer"] or "18,283,000,000" in rec["answer"]
    # 苏常柴: "2018年度每10股派多少元" is no part of 是否派发现金红利 — an ask of its own (issue 23), said
    # unanswered in its place (the 2018 report is not in the store), never left out
    rec = json.loads(CliRunner().invoke(cli, [*ask, "苏常柴2019年度是否派发现金红利？2018年度每10股派多少元？"]).output)
    first, second = rec["answer"].splitlines()
    assert rec["partial"] and first.startswith("（1）否") and second.startswith("（2）2018年度每10股派"), rec["answer"]
    assert "2018年的年报" in second and [a["found"] for a in rec["asks"]] == [True, False]


def test_the_tables_command_lists_what_cells_are_read_from(all_store):
    store, _ = all_store
    out = CliRunner().invoke(cli, ["tables", "--store", str(store.dir), "--company", "华锦股份", "--grep", "前5名供应商"])
    assert out.exit_code == 0 and "p.13" in out.output
    assert "序号 | 供应商名称 | 采购额（元） | 占年度采购总额比例" in out.output
    assert "1 | 中国兵器工业集团有限公司 | 28,576,350,961.38 | 86.93%" in out.output
    rec = json.loads(CliRunner().invoke(cli, ["tables", "--store", str(store.dir), "--company", "华锦股份", "--page", "18",
                                              "--json"]).output.splitlines()[0])
    assert rec["header"][:4] == ["公司名称", "公司类型", "主要业务", "注册资本"] and rec["page_start"] == 18
    out = CliRunner().invoke(cli, ["tables", "--store", str(store.dir), "--grep", "没有这样的表"])
    assert out.exit_code == 1 and "no tables match" in out.output


def test_a_notes_heading_between_two_tables_set_close_starts_the_next():
    # 国农科技 2011 p.84 (shape of): each note's heading one line between the tables, the header rows alike — the
    # heading (short, numbered) starts a table of its own, never a row's wrapped label ("合计28、管理费用")
    def note(top: float, title: str, rows: list[tuple[str, str, str]]) -> list[Row]:
        out = [row(top, (title, 112, 190)), row(top + 26, ("项目", 167, 185), ("本期发生额", 311, 356), ("上期发生额", 446, 491))]
        return out + [row(top + 45 + 19 * k, (a, 90, 160), (b, 351, 395), (c, 490, 534)) for k, (a, b, c) in enumerate(rows)]
    rows = note(40, "27、销售费用", [("职工薪酬", "1,406,589.85", "1,918,804.63"), ("合计", "5,463,422.39", "4,992,875.99")]) \
        + note(140, "28、管理费用", [("职工薪酬", "7,724,058.61", "7,213,936.07"), ("研发费用", "2,952,345.13", "5,767,031.08"),
                                    ("合计", "18,993,280.75", "20,310,559.05")])
    tables = page_tables(rows, 84)
    assert [t.caption for t in tables] == ["27、销售费用", "28、管理费用"]
    assert tables[0].rows[-1] == ["合计", "5,463,422.39", "4,992,875.99"]
    assert tables[1].header == ["项目", "本期发生额", "上期发生额"] and tables[1].rows[1][0] == "研发费用"


def test_a_number_cut_at_its_point_keeps_its_table_whole():
    # 百克生物 2024 p.255 (shape of): narrow columns cut "81,887,220." from its "36" on the line below; a row whose
    # numbers are all cut there ("二、职工福利费 | 13,601,361. | 13,601,361.") is a row of the table, no header of another
    head = [row(316, ("项目", 111, 130), ("期初余额", 205, 240), ("本期增加", 285, 320), ("本期减少", 366, 400),
                ("期末余额", 446, 480))]
    body = [row(332, ("一、工资、奖金、津贴", 64, 160), ("81,887,220.", 198, 248), ("135,571,122", 278, 328),
                ("192,047,646", 358, 408), ("25,410,696.", 439, 489)),
            row(348, ("和补贴", 64, 94), ("36", 252, 262), (".46", 326, 336), (".47", 406, 416), ("35", 493, 503)),
            row(364, ("二、职工福利费", 64, 134), ("13,601,361.", 278, 328), ("13,601,361.", 358, 408)),
            row(380, ("72", 332, 342), ("72", 412, 422)),
            row(396, ("三、社会保险费", 64, 134), ("27,350.50", 210, 248), ("10,729,824.", 278, 328),
                ("10,715,267.", 358, 408), ("41,907.50", 451, 489)),
            row(412, ("36", 332, 342), ("36", 412, 422))]
    [t] = page_tables(head + body, 255)
    assert [r[0] for r in t.rows] == ["一、工资、奖金、津贴和补贴", "二、职工福利费", "三、社会保险费"]
    assert t.rows[1][2] == "13,601,361.72" and t.rows[2][2] == "10,729,824.36"


def test_each_table_under_a_repeated_header_line_is_its_own_notes():
    # the header line "项目 本期发生额 上期发生额" printed by every note on a page: each table takes the section whose
    # title is its caption, else the next printing of its first line — never the first note's for all of them
    from fin_qa.ingest.headings import build_sections
    from fin_qa.ingest.pages import Document, Line, Page
    from fin_qa.ingest.tables import table_records
    lines = ["第十一节 财务报告", "五、合并财务报表项目注释", "27、销售费用", "项目 本期发生额 上期发生额", "职工薪酬 1.00 2.00",
             "28、管理费用", "项目 本期发生额 上期发生额", "研发费用 3.00 4.00", "29、财务费用", "项目 本期发生额 上期发生额",
             "利息支出 5.00 6.00"]
    doc = Document(Path("x.pdf"), [Page(84, [Line(t) for t in lines])])
    tables = [Table(84, 84, caption, None, ["项目", "本期发生额", "上期发生额"], [[label, "1.00", "2.00"]], [84],
                    ["项目 本期发生额 上期发生额", f"{label} 1.00 2.00"] + ([caption] if caption else []))
              for caption, label in (("", "职工薪酬"), ("28、管理费用", "研发费用"), ("", "利息支出"))]
    paths = [r["path"][-1] for r in table_records(tables, build_sections(doc))]
    assert paths == ["27、销售费用", "28、管理费用", "29、财务费用"]


def test_a_heading_then_its_unit_line_then_a_header_starts_a_table():
    # 惠威科技 2019 p.126 (shape of): "（2）短期薪酬列示" | "单位：元" | "项目 | 期初余额 …" right under the rows of
    # (1): a table of its own, its unit read — never rows of (1) with the heading in a 合计 row's label
    def head(top: float) -> Row:
        return row(top, ("项目", 114, 130), ("期初余额", 211, 250), ("本期增加", 296, 335), ("本期减少", 390, 430),
                   ("期末余额", 477, 516))
    rows = [head(78), row(98, ("一、短期薪酬", 62, 122), ("5,492,638.62", 215, 266), ("63,524,941.49", 303, 360),
                          ("62,773,996.11", 399, 456), ("6,243,584.00", 483, 534)),
            row(138, ("合计", 62, 80), ("5,496,345.86", 215, 266), ("67,847,699.12", 303, 360),
                ("67,097,926.18", 398, 455), ("6,246,118.80", 483, 534)),
            row(169, ("（2）短期薪酬列示", 57, 140)), row(202, ("单位：元", 498, 534)), head(222),
            row(241, ("1、工资、奖金、津贴和补贴", 62, 180), ("5,458,585.45", 212, 263), ("59,172,929.84", 305, 362),
                ("58,425,932.11", 397, 454), ("6,205,583.18", 483, 534)),
            row(261, ("2、职工福利费", 62, 125), ("201,619.52", 316, 362), ("201,619.52", 408, 454))]
    first, second = page_tables(rows, 126)
    assert first.rows[-1][0] == "合计" and second.caption.startswith("（2）短期薪酬列示") and second.unit == "元"
    assert second.rows[0] == ["1、工资、奖金、津贴和补贴", "5,458,585.45", "59,172,929.84", "58,425,932.11", "6,205,583.18"]


def test_a_groups_label_names_each_of_its_columns():
    from fin_qa.ingest.tables import _grouped

    # 质押或冻结情况 printed over 股份状态 | 数量, read with the first alone: the bare 数量 is the group's, no 持股数量
    assert _grouped(["股东名称", "报告期末 持股数量", "质押或冻结情况 股份状 态", "数量"])[-1] == "质押或冻结情况 数量"
    # a bare 数量 after a column of no group keeps its own name
    assert _grouped(["股东名称", "持股比例", "数量"]) == ["股东名称", "持股比例", "数量"]


def test_a_header_cells_lines_set_around_the_header_line_are_its_column():
    # 惠威科技 2019 p.135 (coordinates as printed): "计入当期非经常性损益的金" / "项目 本期发生额 上期发生额" / "额" —
    # the fourth column's header set on two lines around the header's line, its first line reaching into it: that
    # column's header, never the caption's tail (the 营业外收入 table is no table of 非经常性损益), and its last line
    # "额" no column of its own
    above = [Row([Cell("资产处置收益的来源", 95.9, 176.9), Cell("本期发生额", 273.4, 318.4), Cell("上期发生额", 432.8, 477.8)],
                 181.8, 190.8, 1),
             Row([Cell("固定资产处置利得（损益以“-”填列）", 62.0, 215.3), Cell("76,581.55", 334.2, 370.3)], 200.5, 212.3, 1),
             Row([Cell("合计", 62.0, 80.0), Cell("76,581.55", 334.2, 370.3)], 220.6, 232.4, 1)]   # (73、资产处置收益's)
    rows = above + [Row([Cell("74、营业外收入", 56.6, 130.3)], 252.6, 266.5, 1), Row([Cell("单位：元", 498.1, 538.6)], 285.7, 294.7, 1),
            Row([Cell("计入当期非经常性损益的金", 421.3, 529.3)], 305.8, 314.8, 1),
            Row([Cell("项目", 107.4, 125.4), Cell("本期发生额", 213.5, 258.5), Cell("上期发生额", 333.2, 378.2)], 313.6, 322.6, 1),
            Row([Cell("额", 470.8, 479.8)], 321.4, 330.4, 1),
            Row([Cell("政府补助", 62.0, 98.0), Cell("3,528,369.20", 243.2, 290.6), Cell("9,121,700.00", 362.9, 410.1),
                 Cell("528,369.20", 489.2, 529.7)], 341.5, 352.0, 1),
            Row([Cell("合计", 62.0, 80.0), Cell("4,081,315.08", 243.2, 290.6), Cell("9,603,652.64", 362.9, 410.1),
                 Cell("1,081,315.08", 489.2, 529.7)], 361.6, 372.0, 1)]
    _, t = page_tables(rows, 135)
    assert "非经常性损益" not in t.caption and t.caption.startswith("74、营业外收入") and t.unit == "元"
    assert t.header[:3] == ["项目", "本期发生额", "上期发生额"] and len(t.header) == 4
    assert core(t.header[3]).replace(" ", "") == "计入当期非经常性损益的金额"
    assert t.rows[0] == ["政府补助", "3,528,369.20", "9,121,700.00", "528,369.20"]
    # a caption stands clear above its table: a long line right over a header, not reaching into it, stays the caption
    rows2 = above + [Row([Cell("计入当期非经常性损益的金额明细表", 421.3, 529.3)], 290.0, 299.0, 1)] + rows[6:7] + rows[8:]
    _, t2 = page_tables(rows2, 135)
    assert t2.caption == "计入当期非经常性损益的金额明细表"
