"""Key disclosures (issue 13) read at ingest into facts with their page (keyword_tables/disclosures.yaml),
each checked by reading the page, and answered as facts."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from conftest import CATALOG, fact
from fin_qa.catalog.disclosures import load_disclosures
from fin_qa.catalog.yamlfile import RuleError
from fin_qa.cli import cli

CASES = [
    ("张家界", "审计意见类型", "标准无保留意见", 69),          # "审计意见类型 标准的无保留意见" (审计报告 table)
    ("四方科技", "审计意见类型", "标准无保留意见", 2),          # "…为本公司出具了标准无保留意见的审计报告"
    ("邮储银行", "审计意见类型", "无保留意见", 7),              # "…并出具了无保留意见的审计报告"
    ("万科A", "审计意见类型", "无保留意见", 32),                # KPMG "出具了无保留意见的 2012 年度《审计报告》"
    ("张家界", "是否存在重大诉讼仲裁事项", "否", 35),          # "本报告期公司无重大诉讼、仲裁事项。"
    ("海翔药业", "是否存在重大诉讼仲裁事项", "是", 36),        # "重大诉讼、仲裁事项 √适用 □不适用" + cases
    ("华锦股份", "是否存在重大诉讼仲裁事项", "否", 22),        # "□适用 √不适用"
    ("惠威科技", "是否属于重点排污单位", "否", 34),            # "…是否属于…重点排污单位 否"
    ("海翔药业", "是否属于重点排污单位", "是", 44),
    ("生物股份", "是否属于重点排污单位", "是", 45),            # Shanghai: "1. 属于…的环保情况说明 √适用"
    ("四方科技", "是否属于重点排污单位", "否", 36),            # "… □适用 √不适用"
    ("张家界", "每10股派发现金红利", "0.84", 2),               # 重要提示: "每 10 股派发现金红利 0.84 元（含税）"
    ("生物股份", "每10股派发现金红利", "1.2", 2),              # wrapped: "每10股" / "派送现金红利1.20元"
    ("四方科技", "每10股转增", "4.8", 2),
    ("安靠智电", "每10股转增", "3", 3),
    ("苏常柴", "是否派发现金红利", "否", 3),                   # "公司计划不派发现金红利，不送红股…"
    # positioned rows below the header cell, a wrapped name joined (p.45: "…国有资产监" / "督管理委员会")
    ("张家界", "控股股东", "张家界市经济发展投资集团有限公司", 45),
    ("张家界", "实际控制人", "张家界市人民政府国有资产监督管理委员会", 45),
    ("苏常柴", "控股股东", "常州投资集团有限公司", 39),
    ("华锦股份", "控股股东", "北方华锦化学工业集团有限公司", 30),
    # Shanghai layout, a natural person: "2自然人 √适用 … 姓名 黄杰 国籍 中国" (p.45, and p.46 for the
    # 实际控制人, whose block goes on to "过去10年曾控股的境内外上市公司情况")
    # the Shenzhen 利润分配 table, past the 重要提示 (p.20: "现金分红金额（元）（含税） 375,868,996.20")
    ("华锦股份", "现金分红总额", "375868996.2", 20),
    ("惠威科技", "现金分红总额", "24935280", 25),        # 124,676,400 shares × 2元/10股
    ("四方科技", "控股股东", "黄杰", 45),
    ("四方科技", "实际控制人", "黄杰", 46),
    ("安靠智电", "实际控制人", "陈晓晖、陈晓凌、陈晓鸣", 135),     # three 实际控制人姓名 rows (txt)
    ("万科A", "控股股东", "不存在控股股东", 42),                 # "公司不存在控股股东及实际控制人"
    ("万科A", "实际控制人", "不存在实际控制人", 42),
    ("张家界", "所属行业", "旅游服务行业", 9),                    # "…公司属于旅游服务行业…"
    ("惠威科技", "所属行业", "电子音响行业", 22),
    ("生物股份", "所属行业", "生物药品制造业", 85),                # "…所属行业为生物药品制造业"
    # the shareholders at the year's end (a count of 户), never the month before the filing's
    ("华锦股份", "普通股股东总数", "66737", 29),
    # posts (`role:` rules): the 姓名 of the 董事、监事和高级管理人员 table's row whose 职务 names the post whole
    ("华锦股份", "董事长", "李春建", 32),
    ("华锦股份", "总经理", "任勇强", 32),                          # "董事、总经理"
    ("华锦股份", "监事会主席", "赵显良", 32),
    ("苏常柴", "总经理", "张新", 43),                              # a name printed spaced over two columns
    ("万科A", "董事长", "王石", 47),                               # "董事会主席"
    ("张家界", "总经理", "罗选国", 48),                            # "董事、总裁"
    ("惠威科技", "财务总监", "姜宁", 48),
    ("四方科技", "董事长", "黄杰", 48),                            # "董事长、总经理": both posts
    ("四方科技", "总经理", "黄杰", 48),
    ("安靠智电", "董事长", "陈晓晖", 139),                        # "董事、" / "董事长" wrapped around the name
    ("华锦股份", "副董事长", "杜秉光", 32),                          # a deputy's post is its own
    ("华锦股份", "独立董事", "张黎明、姜欣、高倚云", 32),
]


@pytest.mark.parametrize("short,item,value,page", CASES)
def test_disclosure_facts(all_store, short, item, value, page):
    store, _ = all_store
    f = fact(store, short, item)
    assert (f["value"], f["page"], f["statement"]) == (value, page, "重要事项")


def test_no_fact_when_the_report_does_not_say(all_store):
    store, _ = all_store
    # 张家界 2016: "是否属于…重点排污单位 不适用"; 苏常柴 2019 pays no dividend
    assert not list(store.facts("张家界", 2016, "是否属于重点排污单位"))
    assert not list(store.facts("苏常柴", 2019, "每10股派发现金红利"))
    # a plan per 10 shares is no plan per share: 四方科技 2019's 每股 figure (p.143, the 2018 plan paid in 2019)
    # lies past the 重要提示 the plan is read from
    assert not list(store.facts("四方科技", 2019, "每股派发现金红利"))
    # 海翔药业's officers' table prints its rows wrapped across tables of other columns ("副董事长现任"), and the table
    # after it lists the restricted shares granted, not the officers: no 总经理 is read
    assert not list(store.facts("海翔药业", 2019, "总经理"))
    assert [f["value"] for f in store.facts("四方科技", 2019, "每10股派发现金红利")] == ["1.88"]
    # 四方科技's heading "公司不存在控股股东情况的特别说明 □适用 √不适用" says nothing of the kind: its
    # 控股股东 is the natural person named above it
    assert [f["value"] for f in store.facts("四方科技", 2019, "控股股东")] == ["黄杰"]


def _ask(all_store, question: str) -> str:
    """`fin-qa ask` over the store of reports and reports_more: what it prints."""
    return CliRunner().invoke(cli, ["ask", "--store", str(all_store[0].dir), question]).output


def test_disclosures_answered(all_store):
    out = _ask(all_store, "2019年四方科技的审计意见是什么类型？")
    assert "标准无保留意见" in out and "p.2" in out
    out = _ask(all_store, "华锦股份2019年是否属于重点排污单位？")
    assert out.startswith("是。") and "p.26" in out
    out = _ask(all_store, "安靠智电2019年每10股转增多少股？")
    assert "3股" in out


def _staff(header, rows, page=40, caption=""):
    from fin_qa.ingest.tables import Table

    return Table(page, page, caption, None, header, rows, [page] * len(rows))


def test_a_post_is_read_whole_or_not_at_all():
    """A post's holder is a row whose 职务 names the post whole — read with the lines of a wrapped 职务 cell
    around it, never a post held elsewhere, never a name cut by a wrap."""
    import re

    from fin_qa.ingest.disclosures import _role_holders

    head = ["姓名", "职务", "任职状态", "性别"]
    gm = re.compile("总经理|总裁")
    # 副总经理 is no 总经理
    t = _staff(head, [["甲乙", "副总经理", "现任", "男"], ["戊己", "董事兼总经理", "现任", "男"], ["庚辛", "总经理", "离任", "男"]])
    assert _role_holders([t], {40}, gm) == (
        "戊己（报告期内离任：庚辛）", 40, "姓名：戊己，职务：董事兼总经理，任职状态：现任；姓名：庚辛，职务：总经理，任职状态：离任")
    # "财务总监、副" / "总经理" is a 副总经理 wrapped around the name: read one way a 总经理, the other not — who holds
    # the post cannot be told from that table
    wrapped = _staff(head, [["", "财务总监、副", "", ""], ["丙丁", "总经理", "现任", "女"], ["戊己", "董事兼总经理", "现任", "男"]])
    assert _role_holders([wrapped], {40}, gm) is None
    # a post held at a shareholder (姓名 | 任职股东单位 | 职务) is not the company's
    other = _staff(["姓名", "任职股东单位", "职务"], [["王某", "某某证券股份有限公司", "总经理"]])
    assert _role_holders([other], {40}, gm) is None
    # a name wrapped ("曾毓" over a row printing "群" and no post): no holder from that table
    cut = _staff(head, [["曾毓", "董事长", "现任", "男"], ["群", "", "", ""]])
    assert _role_holders([cut], {40}, re.compile("董事长")) is None
    # the table's last row, its rows going on in a table of other columns ("总经 理" | "年 8 月"): unread
    last = _staff(head, [["张三", "董事长", "现任", "男"]])
    on = _staff(["", "总经 理", "年 8 月"], [["李四", "董事", "现任"]])
    assert _role_holders([last, on], {40}, re.compile("董事长")) is None
    # the posts' cells wrapped across the rows of other names ("董事、副总经" / "理、董事会秘书"): who holds the
    # post cannot be told from that table — never a list without the rows cut
    cut = _staff(head, [["甲乙", "副董事长董事、副总经", "现任", "男"], ["丙丁", "理、董事会秘书", "现任", "女"],
                        ["戊己", "副总经理", "现任", "男"]])
    assert _role_holders([cut], {40}, re.compile("副总经理")) is None
    # a table of options granted lists some of the officers only: no post is read from it
    options = _staff(["姓名", "职务", "年初持有股票期权数量"], [["庚辛", "副总经理", "1,000"]])
    assert _role_holders([options], {40}, re.compile("副总经理")) is None
    # a post run into another's words ("执行董事副行长"): the table does not tell its holders
    run = _staff(head, [["甲乙", "执行董事副行长", "现任", "男"], ["丙丁", "副行长", "现任", "女"]])
    assert _role_holders([run], {40}, re.compile("(?:常务)?副行长")) is None
    # a post whose leaving is printed atop the next page ("董事长" / "（离任）"): no current holder from that table
    top = _staff(["（离任）", "", "日 2024年 12月 10"], [["董事长", "男", "56"]], page=41)
    assert _role_holders([last, top], {40, 41}, re.compile("董事长")) is None
    # … where it goes on in the same columns, a header line printed there is a wrapped line of its rows
    on = _staff(["", "", "", "2012.10-"], [["李四", "董事、总经理", "现任", "男"]])
    assert _role_holders([last, on], {40}, re.compile("董事长"))[0] == "张三"
    assert _role_holders([last, on], {40}, gm)[0] == "李四"


def test_posts_answered(all_store):
    out = _ask(all_store, "华锦股份2019年报披露的董事长是谁？")
    assert "李春建" in out and "第32页" in out
    out = _ask(all_store, "万科2012年的总裁是谁")
    assert "郁亮" in out
    # a deputy, an assistant, a director or a supervisor is never the holder of the main post
    for q, absent in (("华锦股份2019年副董事长是谁？", "李春建"), ("华锦股份2019年总经理助理是谁？", "任勇强"),
                      ("华锦股份2019年董事有哪些？", "董事（董事长）"), ("华锦股份2019年监事是谁？", "（监事会主席）是"),
                      ("万科A2012年的副总经理是谁？", "郁亮")):
        out = _ask(all_store, q)
        assert absent not in out, (q, out)
    # the shareholders of one class are not all of them: said not understood (the sentence's bracket names them)
    out = _ask(all_store, "邮储银行2019年H股股东户数是多少？")
    assert "430711" not in out and "H股" in out, out


def test_rules_checked(tmp_path):
    assert len(CATALOG.disclosures) >= 6
    p = tmp_path / "disclosures.yaml"
    p.write_text("审计意见类型:\n  kind: text\n  rules:\n    - pattern: '审计意见类型(标准'\n", encoding="utf-8")
    with pytest.raises(RuleError, match="bad pattern"):
        load_disclosures(p)
    p.write_text("是否分红:\n  kind: yesno\n  rules:\n    - pattern: '分红'\n", encoding="utf-8")
    with pytest.raises(RuleError, match="value: 是"):
        load_disclosures(p)


def test_statistics_over_disclosures(all_store):
    # every 2019 report in the store read its opinion; 邮储银行's Big Four "无保留意见" is the standard one
    out = _ask(all_store, "2019年审计意见为非标准意见的公司有几家？")
    assert "共有0家" in out and "7家公司" in out
    out = _ask(all_store, "哪些公司2019年的审计意见是标准无保留意见？")
    assert "共有7家" in out and "邮储银行" in out
    # yes/no disclosures: 属于 asks 是, 不属于 asks 否 (华锦股份 p.26 and 海翔药业 p.44 are 是)
    out = _ask(all_store, "2019年哪些公司属于重点排污单位？")
    assert "“是”的公司共有2家" in out and "华锦股份" in out and "海翔药业" in out
    out = _ask(all_store, "2019年不属于重点排污单位的公司有哪些？")
    assert "“否”" in out and "华锦股份" not in out and "惠威科技" in out
    # a value named after 为: the auditor (天健 audits 海翔药业 and 四方科技)
    out = _ask(all_store, "2019年会计师事务所为天健会计师事务所的公司有哪些？")
    assert "共有2家" in out and "海翔药业" in out and "四方科技" in out
