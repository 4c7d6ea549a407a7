"""Values read from the six shared real reports, each checked by reading the document.

(item, period, value, page): amounts in 元 after the table's unit (邮储银行 prints 百万元); page is the
page of the document (PDF page index + 1, FinGLM "page") where the row is printed.
"""
from decimal import Decimal

import pytest

from conftest import fact, needs_shared

C, P = "current", "previous"
EXPECTED = {
    "四方科技": [  # Shanghai layout, 附注 column, 2019
        ("货币资金", C, "905402299.44", 59), ("货币资金", P, "627041535.44", 59),
        ("应收票据", P, "4668878.50", 59),  # one value in the row: it is the 2018 column
        ("存货", C, "637768124.78", 59), ("资产总计", C, "2464948703.85", 60),
        ("资产总计", P, "2051223456.86", 60), ("流动负债合计", C, "696435257.06", 60),
        ("以公允价值计量且其变动计入当期损益的金融负债", P, "6049569.00", 60),  # wrapped label, values below
        ("营业收入", C, "1175301034.32", 63), ("营业成本", C, "903236584.52", 63),
        ("财务费用", C, "-12024894.14", 64), ("财务费用", P, "-34606861.02", 64),
        ("净利润", C, "129465020.68", 64), ("经营活动产生的现金流量净额", C, "369100908.49", 68),
        ("期末现金及现金等价物余额", P, "598780835.94", 68),
        ("电子信箱", C, "zqb@ntsquare.com", 4), ("法定代表人", C, "黄杰", 4),
        ("股票代码", C, "603339", 5), ("在职员工的数量合计", C, "1406", 52), ("硕士", C, "14", 52),
        ("研发人员数量", C, "172", 14),
    ],
    "生物股份": [  # Shanghai layout, 2020, decoy 合并资产负债表 (新收入准则调整) on p.117
        ("货币资金", C, "1516034246.28", 66), ("货币资金", P, "1108509231.31", 66),
        ("交易性金融资产", C, "639476372.38", 66), ("应收账款", P, "576253532.88", 66),
        ("资产总计", C, "6278282683.24", 67), ("负债合计", C, "1015342820.46", 67),
        ("其他综合收益", C, "-196713.26", 68), ("营业收入", C, "1581905632.48", 70),
        ("研发费用", C, "130828817.71", 70), ("财务费用", C, "-19572506.45", 70),
        ("投资收益", P, "-1230641.03", 70), ("净利润", C, "422390078.91", 71),
        ("经营活动产生的现金流量净额", C, "699612782.08", 74),
        ("法定代表人", C, "张翀宇", 4),
        ("注册地址", C, "内蒙古自治区呼和浩特市经济技术开发区沙尔沁工业园区金宇大街1号", 4),  # wrapped
        ("在职员工的数量合计", C, "1444", 59), ("技术人员", C, "269", 59), ("研发人员数量", C, "269", 17),
    ],
    "惠威科技": [  # Shenzhen layout, decoy "新金融工具准则调整" 合并资产负债表 on p.98
        ("货币资金", C, "131585718.02", 60), ("货币资金", P, "87000917.41", 60),
        ("应收票据", C, "600000.00", 60), ("应收利息", C, "973446.57", 60), ("存货", P, "112086534.01", 60),
        ("资产总计", C, "472099906.72", 61), ("未分配利润", C, "136784081.88", 63),
        ("营业收入", C, "274816055.36", 66), ("财务费用", C, "-1295944.12", 66),
        ("资产减值损失", C, "-2185357.57", 67), ("净利润", P, "28226111.48", 67),
        ("基本每股收益", C, "0.21", 68), ("投资活动产生的现金流量净额", P, "-151048199.08", 71),
        ("股票代码", C, "002888", 5), ("法定代表人", C, "HONGBOYAO", 5),
        ("在职员工的数量合计", C, "818", 48), ("生产人员", C, "417", 49), ("研发人员数量", C, "165", 15),
    ],
    "张家界": [  # Shenzhen layout 2016, 期末余额/期初余额 and 本期发生额/上期发生额 headers
        ("货币资金", C, "119653068.38", 70), ("货币资金", P, "113584786.87", 70),
        ("应收账款", C, "3612481.74", 70), ("资产总计", C, "2044165239.73", 71),
        ("资产总计", P, "872799072.88", 71), ("未分配利润", P, "162507444.34", 73),
        ("营业总收入", C, "592183264.90", 75), ("营业成本", P, "383016787.95", 76),
        ("投资收益", C, "-633023.52", 76),  # label wrapped over two lines, values between them
        ("少数股东损益", C, "-714146.35", 76), ("净利润", C, "60441744.23", 76),
        ("基本每股收益", P, "0.36", 77), ("经营活动产生的现金流量净额", C, "132474551.10", 80),
        ("中文简称", C, "张旅集团", 5), ("法定代表人", C, "赵文胜", 5),
        ("在职员工的数量合计", C, "1274", 56), ("技术人员", C, "447", 56), ("本科及以上", C, "281", 57),
    ],
    "安靠智电": [  # FinGLM txt, excel rows
        ("货币资金", C, "73992141.96", 161), ("货币资金", P, "63189391.11", 161),
        ("交易性金融资产", C, "202921506.85", 161), ("应收票据", P, "6998976.53", 161),
        ("资产总计", C, "1050566795.15", 162), ("营业收入", C, "318024319.30", 168),
        ("营业成本", C, "157633818.13", 168), ("营业外收入", C, "35271.14", 169),
        ("营业外支出", C, "288733.45", 169), ("对联营企业和合营企业的投资收益", C, "-42800.71", 168),
        ("净利润", P, "75829404.65", 169), ("经营活动产生的现金流量净额", C, "36228660.52", 175),
        ("法定代表人", C, "陈晓晖", 7), ("电子信箱", C, "ankura01@ankura.com.cn", 7),
        ("在职员工的数量合计", C, "642", 146), ("研发人员数量", C, "74", 29), ("硕士及以上", C, "10", 146),
    ],
    "邮储银行": [  # FinGLM txt, a bank, 百万元, numbers run together in text rows
        ("现金及存放中央银行款项", C, "1154843000000", 219), ("现金及存放中央银行款项", P, "1202935000000", 219),
        ("存放同业款项", C, "28373000000", 219), ("发放贷款和垫款", C, "4808062000000", 219),
        ("资产总计", C, "10216706000000", 219), ("吸收存款", C, "9314066000000", 220),
        ("负债合计", P, "9040898000000", 220), ("利息收入", C, "388238000000", 221),
        ("利息支出", C, "148014000000", 221), ("营业收入", C, "276809000000", 221),
        ("净利润", C, "61036000000", 222), ("归属于母公司所有者的净利润", C, "60933000000", 222),
        ("投资活动产生的现金流量净额", C, "-173714000000", 223),
        ("期末现金及现金等价物余额", C, "280348000000", 224),
        ("法定代表人", C, "张金良", 8), ("在职员工的数量合计", C, "174406", 69),
    ],
}

CASES = [(c, *row) for c, rows in EXPECTED.items() for row in rows]


@needs_shared
@pytest.mark.parametrize("company,item,period,value,page", CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CASES])
def test_value(shared_store, company, item, period, value, page):
    f = fact(shared_store, company, item, period)
    try:
        assert Decimal(f["value"]) == Decimal(value)
    except ArithmeticError:
        assert f["value"] == value
    assert f["page"] == page


@needs_shared
def test_at_least_15_values_per_report():
    assert all(len(rows) >= 15 for rows in EXPECTED.values())


@needs_shared
def test_balance_sheets_cross_foot(shared_store):
    for company in EXPECTED:
        a = fact(shared_store, company, "资产总计")
        le = fact(shared_store, company, "负债和所有者权益总计")
        assert Decimal(a["value"]) == Decimal(le["value"]), company


@needs_shared
def test_parent_and_decoy_statements_not_taken(shared_store):
    # 四方科技's 母公司资产负债表 has 货币资金 on p.62 and the 生物股份 新准则 decoy table repeats the
    # 2019 balance on p.117: neither may replace the consolidated statement
    assert fact(shared_store, "四方科技", "货币资金")["page"] == 59
    assert fact(shared_store, "生物股份", "货币资金")["page"] == 66
    assert fact(shared_store, "惠威科技", "货币资金")["page"] == 60


@needs_shared
def test_reports_identified(shared_store):
    reps = {r["short_name"]: r for r in shared_store.reports()}
    assert set(reps) == set(EXPECTED)
    assert reps["四方科技"]["stock_code"] == "603339" and reps["四方科技"]["year"] == 2019
    assert reps["张家界"]["year"] == 2016 and reps["邮储银行"]["full_name"] == "中国邮政储蓄银行股份有限公司"
    assert all(r["chunks"] > 100 for r in reps.values())
