"""The heading tree of a report (fin_qa/ingest/headings.py build_sections): the numbered headings kept are their
numbering's chain — a table's row label numbered like a heading ("四、账面价值", "3.本期减少金额") never closes the
notes after it, a list printed one item a line is no heading, a heading printed again (续) goes on."""
from __future__ import annotations

from pathlib import Path

from fin_qa.ingest.headings import build_sections
from fin_qa.ingest.pages import Document, Line, Page


def _paths(*pages: list[str]) -> dict[str, list[str]]:
    doc = Document(Path("x.pdf"), [Page(n, [Line(t) for t in lines]) for n, lines in enumerate(pages, 1)])
    return {s.title: s.path for s in build_sections(doc)}


def _body(n: int) -> list[str]:
    return [f"本公司按照相关规定披露的第{i}段说明文字。" for i in range(n)]


def test_a_tables_row_labels_never_close_the_notes():
    paths = _paths(
        ["第十节 财务报告", "七、合并财务报表项目注释", "1、货币资金", "单位：元", "库存现金 1,000.00 2,000.00",
         "2、固定资产", "(1).固定资产情况", "项目 房屋 合计", "一、账面原值", "1.期初余额 1,000.00 2,000.00",
         "2.本期增加金额 10.00 20.00", "3.本期减少金额", "4.期末余额 1,010.00 2,020.00", "二、累计折旧",
         "1.期初余额 100.00 200.00", "四、账面价值", "1.期末账面价值 24,172,328.28 24,172,328.28"],
        ["3、税金及附加", "单位：元", "城市维护建设税 22,367,760.58 21,315,838.95", "4、销售费用", "运输费 11,995,769.65",
         "八、合并范围的变更", *_body(3)])
    assert paths["3、税金及附加"] == ["第十节 财务报告", "七、合并财务报表项目注释", "3、税金及附加"]
    assert paths["4、销售费用"][:2] == ["第十节 财务报告", "七、合并财务报表项目注释"]
    assert paths["八、合并范围的变更"] == ["第十节 财务报告", "八、合并范围的变更"]
    # the row labels are nested in the note they stand in, never a section of the financial report
    assert paths["四、账面价值"][:3] == ["第十节 财务报告", "七、合并财务报表项目注释", "2、固定资产"]


def test_a_list_printed_one_item_a_line_is_no_heading():
    paths = _paths(["第十节 财务报告", "七、合并财务报表项目注释", "45、资产减值损失", "项目 本期 上期",
                    "三、可供出售金融资产减值损失", "四、持有至到期投资减值损失", "五、长期股权投资减值损失",
                    "六、投资性房地产减值损失", "十三、商誉减值损失", "46、资产处置收益", *_body(2)])
    assert "四、持有至到期投资减值损失" not in paths and "五、长期股权投资减值损失" not in paths
    assert paths["46、资产处置收益"] == ["第十节 财务报告", "七、合并财务报表项目注释", "46、资产处置收益"]


def test_a_heading_printed_again_goes_on():
    paths = _paths(["第十节 财务报告", "(一) 会计政策", *_body(2), "(二) 税项", *_body(2), "(三) 合并财务报表项目附注",
                    "(1) 营业收入", *_body(2), "(2) 主营业务 (分行业)",
                    *_body(2), "(3) 主营业务 (分地区)", *_body(2)],
                   ["(三) 合并财务报表项目附注 (续)", "(4) 公司前五名客户的营业收入情况", *_body(2)])
    assert paths["(4) 公司前五名客户的营业收入情况"] == ["第十节 财务报告", "(三) 合并财务报表项目附注",
                                                "(4) 公司前五名客户的营业收入情况"]


def test_an_audit_reports_list_is_not_the_sections_numbering():
    paths = _paths(["第十节 财务报告", "一、审计报告", "一、审计意见", *_body(3), "二、形成审计意见的基础", *_body(3),
                    "三、关键审计事项", *_body(3)],
                   ["二、财务报表", *_body(40)],
                   ["三、公司基本情况", "1. 公司概况", *_body(20), "四、财务报表的编制基础", *_body(10),
                    "五、重要会计政策及会计估计", *_body(30)])
    for title in ("二、财务报表", "三、公司基本情况", "四、财务报表的编制基础", "五、重要会计政策及会计估计"):
        assert paths[title] == ["第十节 财务报告", title], (title, paths[title])
    # (the audit report's own list is nested in its first heading, never the financial report's 二、三、)
    assert len(paths["二、形成审计意见的基础"]) == 3 and paths["三、关键审计事项"][0] == "第十节 财务报告"


def test_notes_that_do_not_apply_carry_the_chain():
    # a template printing the notes it does not use as bare lines in a row (42、… 43、… 44、…): no headings, yet the
    # notes before them stay the chain's (41、 under 七、), never nested
    paths = _paths(["第十节 财务报告", "七、合并财务报表项目注释", "40、应交税费", *_body(2), "41、其他应付款", *_body(2),
                    "42、持有待售负债", "43、一年内到期的非流动负债", "44、其他流动负债", "45、长期借款", *_body(2),
                    "46、应付债券", *_body(2)])
    for title in ("40、应交税费", "41、其他应付款", "45、长期借款", "46、应付债券"):
        assert paths[title] == ["第十节 财务报告", "七、合并财务报表项目注释", title], (title, paths[title])
    assert "43、一年内到期的非流动负债" not in paths


def test_a_list_starting_anew_after_the_chain_is_its_own():
    # a section whose own heading was not read ("第三节" missed): its 一、… after the section before's 十二、 are its
    # own headings, not nested in that last one
    paths = _paths(["第二节 公司简介", *[x for k, t in enumerate(("一、公司信息", "二、联系人", "三、基本情况", "四、信息披露",
                                                              "五、其他")) for x in (t, *_body(3))]],
                   ["一、报告期内公司所处行业情况", *_body(5), "二、主要业务", *_body(5), "三、核心竞争力", *_body(5),
                    "四、风险因素", *_body(5)])
    assert paths["四、风险因素"] == ["第二节 公司简介", "四、风险因素"]
    assert paths["五、其他"] == ["第二节 公司简介", "五、其他"]
