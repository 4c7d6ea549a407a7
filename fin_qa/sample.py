"""The bundled sample: a small, realistic annual report that fin-qa makes itself (reportlab, STSong-Light).

It carries what real reports bring: a cover, 公司信息 with a contact table, 员工情况 with 专业构成 and
教育程度 blocks, narrative sections with headings, and the three consolidated statements printed
without ruling lines, in 万元, with a 附注 column, negatives in parentheses, empty cells as "-", a label
wrapped over two lines, a statement running over a page break, the 母公司 statements right after the
consolidated ones, and a "首次执行新准则调整" table titled 合并资产负债表 in the notes (a decoy).
The numbers are fictional and consistent (资产总计 = 负债和所有者权益总计).
"""
from __future__ import annotations

from decimal import Decimal
from pathlib import Path

COMPANY = "星河精密制造股份有限公司"
SHORT = "星河精密"
CODE = "688999"
YEAR = 2021

# (label, note, current, previous) in 万元; None prints "-"
BALANCE = [
    ("流动资产：", "", "", ""),
    ("货币资金", "五、1", "12,345.67", "10,234.56"),
    ("应收票据", "", None, "321.00"),
    ("应收账款", "五、2", "4,567.89", "3,987.65"),
    ("存货", "五、3", "6,789.01", "5,432.10"),
    ("其他流动资产", "", "210.43", "145.69"),
    ("流动资产合计", "", "23,913.00", "20,121.00"),
    ("非流动资产：", "", "", ""),
    ("以公允价值计量且其变动计入", "", "", ""),
    ("当期损益的金融资产", "", "500.00", "600.00"),
    ("固定资产", "五、4", "15,000.00", "14,000.00"),
    ("无形资产", "五、5", "3,087.00", "2,879.00"),
    ("非流动资产合计", "", "18,587.00", "17,479.00"),
    ("资产总计", "", "42,500.00", "37,600.00"),
    ("流动负债：", "", "", ""),
    ("短期借款", "五、6", "5,000.00", "4,000.00"),
    ("应付账款", "五、7", "6,200.00", "5,100.00"),
    ("流动负债合计", "", "11,200.00", "9,100.00"),
    ("非流动负债合计", "", "1,300.00", "1,500.00"),
    ("负债合计", "", "12,500.00", "10,600.00"),
    ("实收资本（或股本）", "", "10,000.00", "10,000.00"),
    ("未分配利润", "", "20,000.00", "17,000.00"),
    ("所有者权益（或股东权益）合计", "", "30,000.00", "27,000.00"),
    ("负债和所有者权益（或股东权益）总计", "", "42,500.00", "37,600.00"),
]
INCOME = [
    ("一、营业总收入", "", "30,000.00", "26,000.00"),
    ("其中：营业收入", "五、8", "30,000.00", "26,000.00"),
    ("二、营业总成本", "", "25,500.00", "22,800.00"),
    ("其中：营业成本", "五、8", "20,000.00", "18,000.00"),
    ("销售费用", "", "1,500.00", "1,400.00"),
    ("管理费用", "", "2,000.00", "1,800.00"),
    ("研发费用", "", "2,100.00", "1,700.00"),
    ("财务费用", "五、9", "(100.00)", "(100.00)"),
    ("加：投资收益（损失以“－”号填列）", "", "(250.00)", "120.00"),
    ("三、营业利润（亏损以“－”号填列）", "", "4,250.00", "3,320.00"),
    ("加：营业外收入", "", "50.00", None),
    ("减：营业外支出", "", "20.00", "30.00"),
    ("四、利润总额（亏损总额以“－”号填列）", "", "4,280.00", "3,290.00"),
    ("减：所得税费用", "", "642.00", "493.50"),
    ("五、净利润（净亏损以“－”号填列）", "", "3,638.00", "2,796.50"),
    ("（一）基本每股收益（元/股）", "", "0.36", "0.28"),
]
CASHFLOW = [
    ("一、经营活动产生的现金流量：", "", "", ""),
    ("销售商品、提供劳务收到的现金", "", "31,000.00", "27,000.00"),
    ("经营活动现金流入小计", "", "31,500.00", "27,300.00"),
    ("经营活动现金流出小计", "", "27,000.00", "24,100.00"),
    ("经营活动产生的现金流量净额", "", "4,500.00", "3,200.00"),
    ("二、投资活动产生的现金流量：", "", "", ""),
    ("购建固定资产、无形资产和其他长期资产支付的现金", "", "2,300.00", "1,900.00"),
    ("投资活动产生的现金流量净额", "", "(2,300.00)", "(1,900.00)"),
    ("筹资活动产生的现金流量净额", "", "(88.89)", "(500.00)"),
    ("五、现金及现金等价物净增加额", "", "2,111.11", "800.00"),
    ("加：期初现金及现金等价物余额", "", "10,234.56", "9,434.56"),
    ("六、期末现金及现金等价物余额", "", "12,345.67", "10,234.56"),
]
# 主要会计数据 (万元): the statements' years and the year before them (what a series of three years reads)
SUMMARY = [
    ("营业收入", "30,000.00", "26,000.00", "15.38", "22,400.00"),
    ("归属于上市公司股东的净利润", "3,638.00", "2,796.50", "30.09", "2,310.00"),
    ("经营活动产生的现金流量净额", "4,500.00", "3,200.00", "40.63", "2,650.00"),
    ("总资产", "42,500.00", "37,600.00", "13.03", "33,800.00"),
]


# 前五名客户 (万元): they sum to the sentence's 12,600.00 and 42.00%
CUSTOMERS = [
    ("1", "客户一", "4,200.00", "14.00"),
    ("2", "客户二", "3,000.00", "10.00"),
    ("3", "客户三", "2,400.00", "8.00"),
    ("4", "客户四", "1,800.00", "6.00"),
    ("5", "客户五", "1,200.00", "4.00"),
    ("合计", "/", "12,600.00", "42.00"),
]


def _half(text: str | None) -> str | None:
    """A value of the parent company's own balance sheet: half the consolidated one (it still foots)."""
    if not text:
        return text
    v = (Decimal(text.replace(",", "")) / 2).quantize(Decimal("0.01"))
    return f"{v:,.2f}"


# the parent company's own balance sheet, right after the consolidated one (scope parent, never mixed)
PARENT_BALANCE = [(l, n, _half(c), _half(p)) for l, n, c, p in BALANCE]

QUESTIONS = [
    "2021年星河精密的营业收入是多少元?",
    "星河精密2021年的法定代表人是谁?",
    "2021年星河精密的货币资金是多少元?",
    "星河精密2021年研发人员数量是多少?",
    "2021年星河精密的财务费用是多少元?",
    "星河精密2021年的资产负债率是多少?保留2位小数。",
    "2021年星河精密营业收入增长率是多少?保留2位小数。",
    "星河精密2021年的速动比率是多少?",
    "星河精密2021年销售费用和管理费用分别是多少？哪一项更高？",
    "星河精密2021年第一名客户的销售额是多少？",
    "星河精密近三年营业收入的变化趋势如何？",
    "请简要介绍星河精密2021年的核心竞争力。",
    "星河精密2021年是否有重大诉讼、仲裁事项?",
    "请简要介绍星河精密2021年主要销售客户的客户集中度情况。",
    "2021年天马科技的营业收入是多少元?",
]


def build_sample_pdf(path: str | Path, with_statements: bool = True) -> Path:
    """Write the sample report to path (a report without statements when with_statements is False)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    width, height = A4
    state = {"y": height - 60, "page": 1}

    def header():
        c.setFont("STSong-Light", 8)
        c.drawString(60, height - 30, f"{COMPANY} {YEAR} 年年度报告")
        c.drawCentredString(width / 2, 30, str(state["page"]))
        state["y"] = height - 60

    def new_page():
        c.showPage()
        state["page"] += 1
        header()

    def line(text, size=10, x=60):
        if state["y"] < 60:
            new_page()
        c.setFont("STSong-Light", size)
        c.drawString(x, state["y"], text)
        state["y"] -= size + 6

    def table(rows, head=("项目", "附注", f"{YEAR} 年 12 月 31 日", f"{YEAR - 1} 年 12 月 31 日")):
        cols = (60, 250, 400, 520)  # label, note, current, previous (right edges for numbers)

        def head_row():
            c.setFont("STSong-Light", 9)
            c.drawString(cols[0], state["y"], head[0])
            c.drawString(cols[1], state["y"], head[1])
            c.drawRightString(cols[2], state["y"], head[2])
            c.drawRightString(cols[3], state["y"], head[3])
            state["y"] -= 16

        head_row()
        for label, note, cur, prev in rows:
            if state["y"] < 70:
                new_page()
                head_row()
            c.setFont("STSong-Light", 9)
            c.drawString(cols[0], state["y"], label)
            if note:
                c.drawString(cols[1], state["y"], note)
            if label.endswith("：") or label == "以公允价值计量且其变动计入":
                state["y"] -= 15
                continue
            c.drawRightString(cols[2], state["y"], cur if cur is not None else "-")
            c.drawRightString(cols[3], state["y"], prev if prev is not None else "-")
            state["y"] -= 15

    header()
    c.setFont("STSong-Light", 22)
    c.drawCentredString(width / 2, height - 250, COMPANY)
    c.drawCentredString(width / 2, height - 290, f"{YEAR} 年年度报告")
    new_page()
    line("第一节 重要提示、目录和释义", 14)
    line("公司董事会、监事会及董事、监事、高级管理人员保证年度报告内容的真实、准确、完整。")
    line("第二节 公司简介和主要财务指标", 14)
    line("一、公司信息", 12)
    for k, v in [("股票简称", SHORT), ("股票代码", CODE), ("股票上市证券交易所", "上海证券交易所"),
                 ("公司的中文名称", COMPANY), ("公司的中文简称", SHORT),
                 ("公司的外文名称", "Xinghe Precision Manufacturing Co., Ltd."),
                 ("公司的法定代表人", "林海峰"), ("注册地址", "江苏省苏州市工业园区星湖街 88 号"),
                 ("注册地址的邮政编码", "215000"), ("办公地址", "江苏省苏州市工业园区星湖街 88 号"),
                 ("公司网址", "www.xinghe-precision.example"), ("电子信箱", "ir@xinghe-precision.example")]:
        line(f"{k}  {v}")
    line("二、联系人和联系方式", 12)
    line("董事会秘书  证券事务代表")
    line("姓名  周晓雯  陈立")
    line("电话  0512-66668888  0512-66668889")
    line("三、近三年主要会计数据和财务指标", 12)
    line("（一）主要会计数据", 11)
    line("单位：万元  币种：人民币", 9)
    cols = (60, 300, 380, 450, 530)   # label, then right edges: this year, last year, change, the year before

    def summary_row(cells, size=9):
        c.setFont("STSong-Light", size)
        c.drawString(cols[0], state["y"], cells[0])
        for x, text in zip(cols[1:], cells[1:]):
            c.drawRightString(x, state["y"], text)
        state["y"] -= 15

    summary_row(("主要会计数据", f"{YEAR}年", f"{YEAR - 1}年", "增减(%)", f"{YEAR - 2}年"))
    for row in SUMMARY:
        summary_row(row)
    state["y"] -= 10
    line("第三节 公司业务概要", 14)
    line("一、报告期内公司从事的主要业务", 12)
    line("公司主要从事精密结构件的研发、生产和销售，产品应用于新能源汽车和消费电子领域。")
    line("二、核心竞争力分析", 12)
    line("公司拥有精密模具设计与制造的核心技术，掌握多项发明专利，研发团队经验丰富。")
    line("公司与多家头部客户建立了长期稳定的合作关系，具备快速响应和规模化交付能力。")
    line("第四节 经营情况讨论与分析", 14)
    line("一、经营情况讨论与分析", 12)
    line("报告期内，公司实现营业收入 30,000.00 万元，同比增长 15.38%。")
    line("（一）研发投入", 11)
    line("研发投入合计  21,000,000.00")
    line("研发投入总额占营业收入比例（%）  7.00")
    line("公司研发人员的数量  128")
    line("研发人员数量占公司总人数的比例（%）  15.24")
    line("（二）主要销售客户及主要供应商情况", 11)
    line("前五名客户销售额 12,600.00 万元，占年度销售总额 42.00%；其中前五名客户销售额中关联方销售额 0 万元。")
    line("前五名供应商采购额 5,400.00 万元，占年度采购总额 27.00%。")
    line("公司前五名客户情况", 10)
    cols5 = (60, 170, 330, 470)   # 序号 | 客户名称 | then right edges: 销售额, 占比

    def customer_row(cells, size=9):
        c.setFont("STSong-Light", size)
        c.drawString(cols5[0], state["y"], cells[0])
        c.drawString(cols5[1], state["y"], cells[1])
        c.drawRightString(cols5[2], state["y"], cells[2])
        c.drawRightString(cols5[3], state["y"], cells[3])
        state["y"] -= 14

    customer_row(("序号", "客户名称", "销售额（万元）", "占年度销售总额比例（%）"))
    for customer in CUSTOMERS:
        customer_row(customer)
    state["y"] -= 6
    line("二、公司未来发展的展望", 12)
    line("（一）公司发展战略", 11)
    line("公司将继续聚焦新能源汽车精密结构件，扩大一体化压铸产能。")
    line("（二）可能面对的风险", 11)
    line("原材料价格波动风险：铝合金价格上涨将压缩毛利。客户集中风险：前五名客户占比较高。")
    line("第五节 重要事项", 14)
    line("一、重大诉讼、仲裁事项")
    line("本年度公司无重大诉讼、仲裁事项。")
    line("二、积极履行社会责任的工作情况")
    line("报告期内，公司向苏州市慈善总会捐赠 50 万元，用于困难家庭助学。")
    line("第六节 董事、监事、高级管理人员和员工情况", 14)
    line("一、员工情况", 12)
    line("母公司在职员工的数量  520")
    line("主要子公司在职员工的数量  320")
    line("在职员工的数量合计  840")
    line("专业构成")
    line("专业构成类别  专业构成人数")
    for k, n in [("生产人员", 560), ("销售人员", 60), ("技术人员", 128), ("财务人员", 22), ("行政人员", 70), ("合计", 840)]:
        line(f"{k}  {n}")
    line("教育程度")
    line("教育程度类别  数量（人）")
    for k, n in [("博士", 3), ("硕士", 41), ("本科", 236), ("大专及以下", 560), ("合计", 840)]:
        line(f"{k}  {n}")
    if with_statements:
        new_page()
        line("第七节 财务报告", 14)
        line("一、审计报告", 12)
        line("我们审计了后附的财务报表，包括合并资产负债表、合并利润表和合并现金流量表。")
        line("二、财务报表", 12)
        line("合并资产负债表", 12, x=250)
        line(f"编制单位：{COMPANY}      单位：万元  币种：人民币", 9)
        table(BALANCE)
        line("法定代表人：林海峰    主管会计工作负责人：王敏    会计机构负责人：李娜", 9)
        line("母公司资产负债表", 12, x=250)
        line("单位：万元  币种：人民币", 9)
        table(PARENT_BALANCE)
        new_page()
        line("合并利润表", 12, x=250)
        line("单位：万元  币种：人民币", 9)
        table(INCOME, head=("项目", "附注", f"{YEAR} 年度", f"{YEAR - 1} 年度"))
        line("法定代表人：林海峰    主管会计工作负责人：王敏    会计机构负责人：李娜", 9)
        line("合并现金流量表", 12, x=250)
        line("单位：万元  币种：人民币", 9)
        table(CASHFLOW, head=("项目", "附注", f"{YEAR} 年度", f"{YEAR - 1} 年度"))
        line("法定代表人：林海峰    主管会计工作负责人：王敏    会计机构负责人：李娜", 9)
        new_page()
        line("三、重要会计政策及会计估计", 12)
        line(f"（1）{YEAR} 年起首次执行新租赁准则调整首次执行当年年初财务报表相关项目情况")
        line("合并资产负债表", 11, x=250)
        line("单位：万元", 9)
        table(BALANCE[:6], head=("项目", "", f"{YEAR - 1} 年 12 月 31 日", f"{YEAR} 年 1 月 1 日"))
    c.save()
    return path


def write_questions(path: str | Path, filings: bool = False, notes: bool = False) -> Path:
    """The sample questions as a batch file (filings: with the questions of the 2022 filings after them; notes:
    then those of the sample research note)."""
    import json

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        for i, q in enumerate(QUESTIONS + (FILING_QUESTIONS if filings else []) + (NOTE_QUESTIONS if notes else [])):
            fh.write(json.dumps({"id": i, "question": q}, ensure_ascii=False) + "\n")
    return path


# ------------------------------------------------------------------------------------ the year after: filings
# The company's 2022 first-quarter report, half-year summary and third-quarter report (issue 44), in 元 as
# quarterly filings print them, consistent with the 2021 annual report above (its year-end balances are their
# 上年度末 columns) and with each other: 1–6月 + 7–9月 = 1–9月; the 2021 fourth quarter alone is the year's
# 30,000.00万元 less 1–9月's 230,000,000.00.
FILING_YEAR = YEAR + 1
FILING_TITLES = {"Q1": "第一季度报告", "HY": "半年度报告摘要", "Q3": "第三季度报告"}
FILING_SAYS = {"Q1": "第一季度财务报表是否经审计  □是 √否",
               "HY": "本半年度报告摘要来自半年度报告全文，为全面了解本公司的经营成果、财务状况及未来发展规划，投资者应当仔细阅读半年度报告全文。",
               "Q3": "第三季度财务报表是否经审计  □是 √否"}
# 主要会计数据 blocks: a header, then rows (label, values…)
FILING_KEY_FIGURES: dict[str, list[tuple[tuple[str, ...], list[tuple[str, ...]]]]] = {
    "Q1": [(("项目", "本报告期", "同比增减(%)"),
            [("营业收入", "80,000,000.00", "14.29"), ("归属于上市公司股东的净利润", "12,000,000.00", "20.00")]),
           (("", "本报告期末", "上年度末", "增减(%)"),
            [("总资产", "430,000,000.00", "425,000,000.00", "1.18")])],
    "HY": [(("", "本报告期末", "上年度末", "增减(%)"),
            [("总资产", "440,000,000.00", "425,000,000.00", "3.53")]),
           (("", "本报告期", "上年同期", "同比增减(%)"),
            [("营业收入", "170,000,000.00", "150,000,000.00", "13.33"),
             ("归属于上市公司股东的净利润", "25,000,000.00", "21,000,000.00", "19.05")])],
    "Q3": [(("项目", "本报告期", "同比增减(%)", "年初至报告期末", "同比增减(%)"),
            [("营业收入", "90,000,000.00", "12.50", "260,000,000.00", "13.04"),
             ("归属于上市公司股东的净利润", "13,000,000.00", "8.33", "38,000,000.00", "15.15")]),
           (("", "本报告期末", "上年度末", "增减(%)"),
            [("总资产", "450,000,000.00", "425,000,000.00", "5.88")])],
}
# the statements of a quarter's report (元): their column dates (the period end, the year end before, the year to
# date, the same a year before) and (label, current, previous) rows
FILING_DATES = {"Q1": ("2022年3月31日", "2021年12月31日", "2022年1-3月", "2021年1-3月"),
                "Q3": ("2022年9月30日", "2021年12月31日", "2022年1-9月", "2021年1-9月")}
FILING_STATEMENTS: dict[str, dict[str, list[tuple[str, str, str]]]] = {
    "Q1": {"合并资产负债表": [("货币资金", "130,000,000.00", "123,456,700.00"), ("流动资产合计", "240,000,000.00", "239,130,000.00"),
                       ("非流动资产合计", "190,000,000.00", "185,870,000.00"), ("资产总计", "430,000,000.00", "425,000,000.00"),
                       ("流动负债合计", "113,000,000.00", "112,000,000.00"), ("非流动负债合计", "12,000,000.00", "13,000,000.00"),
                       ("负债合计", "125,000,000.00", "125,000,000.00"), ("所有者权益合计", "305,000,000.00", "300,000,000.00"),
                       ("负债和所有者权益总计", "430,000,000.00", "425,000,000.00")],
           "合并利润表": [("一、营业总收入", "80,000,000.00", "70,000,000.00"), ("其中：营业收入", "80,000,000.00", "70,000,000.00"),
                     ("其中：营业成本", "55,000,000.00", "49,000,000.00"), ("四、利润总额", "14,000,000.00", "12,000,000.00"),
                     ("减：所得税费用", "2,000,000.00", "2,000,000.00"), ("五、净利润", "12,000,000.00", "10,000,000.00"),
                     ("归属于母公司股东的净利润", "12,000,000.00", "10,000,000.00")],
           "合并现金流量表": [("经营活动产生的现金流量净额", "8,000,000.00", "7,000,000.00"),
                       ("投资活动产生的现金流量净额", "-1,000,000.00", "-2,000,000.00"),
                       ("筹资活动产生的现金流量净额", "-456,700.00", "-1,000,000.00"),
                       ("五、现金及现金等价物净增加额", "6,543,300.00", "4,000,000.00"),
                       ("加：期初现金及现金等价物余额", "123,456,700.00", "110,000,000.00"),
                       ("六、期末现金及现金等价物余额", "130,000,000.00", "114,000,000.00")]},
    "Q3": {"合并资产负债表": [("货币资金", "138,456,700.00", "123,456,700.00"), ("流动资产合计", "250,000,000.00", "239,130,000.00"),
                       ("非流动资产合计", "200,000,000.00", "185,870,000.00"), ("资产总计", "450,000,000.00", "425,000,000.00"),
                       ("流动负债合计", "120,000,000.00", "112,000,000.00"), ("非流动负债合计", "20,000,000.00", "13,000,000.00"),
                       ("负债合计", "140,000,000.00", "125,000,000.00"), ("所有者权益合计", "310,000,000.00", "300,000,000.00"),
                       ("负债和所有者权益总计", "450,000,000.00", "425,000,000.00")],
           "合并利润表": [("一、营业总收入", "260,000,000.00", "230,000,000.00"), ("其中：营业收入", "260,000,000.00", "230,000,000.00"),
                     ("其中：营业成本", "180,000,000.00", "160,000,000.00"), ("四、利润总额", "45,000,000.00", "39,000,000.00"),
                     ("减：所得税费用", "7,000,000.00", "6,000,000.00"), ("五、净利润", "38,000,000.00", "33,000,000.00"),
                     ("归属于母公司股东的净利润", "38,000,000.00", "33,000,000.00")],
           "合并现金流量表": [("经营活动产生的现金流量净额", "30,000,000.00", "25,000,000.00"),
                       ("投资活动产生的现金流量净额", "-10,000,000.00", "-8,000,000.00"),
                       ("筹资活动产生的现金流量净额", "-5,000,000.00", "-4,000,000.00"),
                       ("五、现金及现金等价物净增加额", "15,000,000.00", "13,000,000.00"),
                       ("加：期初现金及现金等价物余额", "123,456,700.00", "110,000,000.00"),
                       ("六、期末现金及现金等价物余额", "138,456,700.00", "123,000,000.00")]},
}
FILING_QUESTIONS = [
    "星河精密2022年第三季度营业收入是多少？",
    "星河精密2022年前三季度净利润同比增长多少？",
    "星河精密2022年第二季度单季营业收入是多少？",
    "星河精密2022年三季度末的资产负债率是多少？",
    "星河精密利润总额是多少？",
]


def build_filing_pdf(path: str | Path, period: str) -> Path:
    """Write the sample company's 2022 filing of a period (Q1: 第一季度报告, HY: 半年度报告摘要, Q3: 第三季度报告)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    width, height = A4
    y = [height - 60]

    def text(s: str, size: float = 10, x: float = 60) -> None:
        c.setFont("STSong-Light", size)
        c.drawString(x, y[0], s)
        y[0] -= size + 8

    def row(cells, edges=(250, 330, 430, 520)) -> None:
        c.setFont("STSong-Light", 9)
        c.drawString(60, y[0], cells[0])
        for x, s in zip(edges, cells[1:]):
            c.drawRightString(x, y[0], s)
        y[0] -= 16

    text(f"证券代码：{CODE}        证券简称：{SHORT}", 9)
    y[0] -= 20
    c.setFont("STSong-Light", 18)
    c.drawCentredString(width / 2, y[0], COMPANY)
    y[0] -= 30
    c.drawCentredString(width / 2, y[0], f"{FILING_YEAR} 年{FILING_TITLES[period]}")
    y[0] -= 40
    text("公司董事会、监事会及董事、监事、高级管理人员保证报告内容的真实、准确、完整。", 9)
    text(FILING_SAYS[period], 9)
    text("一、主要财务数据" if period != "HY" else "2.2 主要财务数据", 12)
    text("（一）主要会计数据和财务指标" if period != "HY" else "", 11)
    text("单位：元  币种：人民币", 9)
    for head, rows in FILING_KEY_FIGURES[period]:
        edges = (250, 350, 450) if len(head) <= 4 else (250, 330, 440, 530)
        row(head, edges)
        for cells in rows:
            row(cells, edges)
        y[0] -= 6
    statements = FILING_STATEMENTS.get(period)
    if statements:
        text("四、季度财务报表", 12)
        end, before, months, months_before = FILING_DATES[period]
        for title in ("合并资产负债表", "合并利润表", "合并现金流量表"):
            c.showPage()
            y[0] = height - 60
            text(title, 12, 250)
            text(f"编制单位：{COMPANY}      单位：元  币种：人民币", 9)
            dates = (end, before) if title == "合并资产负债表" else (months, months_before)
            row(("项目", *dates), (400, 520))
            for label, cur, prev in statements[title]:
                row((label, cur, prev), (400, 520))
            text("公司负责人：林海峰    主管会计工作负责人：王敏    会计机构负责人：李娜", 9)
    c.save()
    return path


# the sample company's research note (a 个股研报 of a fictional broker) and its info sheet (附件5's layout): a
# second kind of document, quoted as the note's (issue 46)
NOTE_TITLE = "精密部件放量，盈利能力稳步提升"
NOTE_BROKER = "星海证券"
NOTE_DATE = "2022-04-28"
NOTE_PAGES = [
    [("title", NOTE_TITLE), ("line", f"证券研究报告•{SHORT}（{CODE}）年报点评"), ("line", "2022 年 4 月 28 日"),
     ("line", "买入（维持）"),
     ("head", "投资要点"),
     ("para", f"事件：公司发布 {YEAR} 年年度报告，全年实现营业收入 3.00 亿元，同比增长 15.38%；归母净利润 0.34 亿元，"
              "同比增长 29.81%，业绩符合预期。"),
     ("head", "经营分析"),
     ("para", "新能源汽车精密结构件放量是收入增长的主要驱动力。公司新增两条自动化产线，产能利用率提升至 92%，"
              "单位成本下降带动毛利率提升 2.1 个百分点。"),
     ("figure", "图表1：公司营业收入及增速"), ("line", "来源：公司公告，星海证券研究所"),
     ("para", "费用端保持稳定，研发投入持续加大，研发费用率达 7.0%，为新产品导入提供支撑。"),
     ("head", "盈利预测与投资建议"),
     ("para", "我们预计公司 2022-2024 年归母净利润分别为 0.42/0.51/0.60 亿元，对应 PE 分别为 25/21/18 倍，"
              "维持“买入”评级。"),
     ("head", "风险提示"),
     ("para", "下游需求不及预期；原材料价格波动；新产能爬坡不及预期。")],
    [("head", "特别声明："),
     ("para", "本报告版权归星海证券股份有限公司所有，本报告仅供参考，不构成投资建议。")],
]
NOTE_QUESTIONS = [
    f"{NOTE_BROKER}的研报给{SHORT}什么投资评级？盈利预测是多少？",   # the note's rating and forecasts (its info sheet)
    f"{SHORT}{YEAR}年营业收入增长的原因是什么？",   # the filing's change, then what the note says of it
    f"《{NOTE_TITLE}》这篇研报有哪些风险提示？",   # a note named by its title
]
NOTE_INFO_COLUMNS = ["title", "stockName", "stockCode", "orgCode", "orgName", "orgSName", "publishDate",
                     "predictNextTwoYearEps", "predictNextTwoYearPe", "predictNextYearEps", "predictNextYearPe",
                     "predictThisYearEps", "predictThisYearPe", "indvInduName", "emRatingName", "lastEmRatingName",
                     "researcher"]
NOTE_INFO_ROW = [NOTE_TITLE, SHORT, int(CODE), 19990001, "星海证券股份有限公司", NOTE_BROKER, f"{NOTE_DATE} 00:00:00.000",
                 0.6, 18.0, 0.51, 21.0, 0.42, 25.0, "专用设备", "买入", "买入", "张明"]


def build_note_pdf(path: str | Path) -> Path:
    """Write the sample company's research note (a 个股研报: headings, a figure's title, its back matter)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    width, height = A4
    for n, page in enumerate(NOTE_PAGES):
        if n:
            c.showPage()
        y = height - 50
        c.setFont("STSong-Light", 8)
        c.drawString(60, 30, "敬请参阅最后一页特别声明")
        for kind, text in page:
            size = {"title": 16, "head": 12, "figure": 9}.get(kind, 10)
            c.setFont("STSong-Light", size)
            if kind == "para":   # (prose wrapped at 38 characters, as a note's column prints it)
                for k in range(0, len(text), 38):
                    c.drawString(60, y, text[k:k + 38])
                    y -= size + 6
            else:
                c.drawString(60, y, text)
                y -= size + 8
            y -= 4
    c.save()
    return path


def write_note_info(path: str | Path) -> Path:
    """The info sheet of the sample note (附件5's 个股_研报信息.xlsx columns)."""
    from openpyxl import Workbook  # type: ignore[import-untyped]

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    wb = Workbook()
    ws = wb.active
    ws.append(NOTE_INFO_COLUMNS)
    ws.append(NOTE_INFO_ROW)
    wb.save(path)
    return path
