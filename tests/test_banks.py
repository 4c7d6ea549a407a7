"""Banks (issue 24): the shared banks' statements read whole, their indicators as facts, and questions on
them — bank_questions.jsonl (made from the values read, checked on their pages: dev) and
bank_questions_heldout.jsonl (written by a helper from the PDFs alone, never tuned on)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import CATALOG, REPORTS, ROOT

BANKS = REPORTS.parent / "banks"
pytestmark = pytest.mark.skipif(not BANKS.is_dir(), reason="../shared/data/banks is absent")

BANK_SETS = [
    # file, split, at least right, at most wrong
    ("bank_questions.jsonl", "dev", 74, 0),
    ("bank_questions_heldout.jsonl", "heldout", 21, 2),
]


@pytest.fixture(scope="module")
def bank_store(tmp_path_factory):
    from fin_qa.ingest.pipeline import ingest
    from fin_qa.store import Store

    d = tmp_path_factory.mktemp("banks")
    store = Store(d / "store")
    summary = ingest([BANKS], store, CATALOG, workers=2)
    assert summary.count("ingested") == 2, [o.detail for o in summary.outcomes]
    yield store
    store.close()


@pytest.fixture(scope="module")
def router(bank_store):
    """One router over the banks' store for the questions of every test here."""
    from fin_qa.answer.facts import FactSource
    from fin_qa.answer.router import Router

    return Router(FactSource(bank_store), CATALOG)


def test_the_issue_table_on_the_banks(router):
    for q, want, page in (("民生银行2021年末的负债合计是多少元？", "6,366,247,000,000.00元", 209),
                          ("兴业银行2022年末吸收存款是多少亿元？", "47,887.54亿元", 163),
                          ("兴业银行2022年的净息差是多少？", "2.1", 51),
                          ("兴业银行2022年的不良贷款率是多少？", "1.09%", 14),
                          ("兴业银行2022年的资本充足率是多少？", "14.44%", 15),
                          ("民生银行2021年的资本充足率是多少？", "13.64%", 25)):
        a = router.answer(q)
        assert a.found and want in a.answer and any(e.page == page for e in a.evidence), (q, a.answer)


def test_the_banks_own_columns_are_the_parent_scope(router):
    """合并及银行…表 print 本集团 | 本行 side by side: 本行's columns are the parent scope (read on the pages:
    民生 本行 资产总计 6,754,867 and 净利润 33,636 百万元; 兴业 本银行 资产总计 9,027,091), asked as 本行, 银行本部
    or 母公司; 归属于本行股东的净利润 stays the group's item."""
    for q, want in (("民生银行2021年本行的净利润是多少？", "33,636,000,000.00元"),
                    ("民生银行2021年母公司的资产总计是多少？", "6,754,867,000,000.00元"),
                    ("兴业银行2022年银行本部的资产总计是多少？", "9,027,091,000,000.00元"),
                    ("民生银行2021年归属于本行股东的净利润是多少？", "34,381,000,000.00元"),
                    # an indicator of the bank alone, where a table prints 本集团 | 本行 (p.51: 13.64 | 13.71)
                    ("民生银行2021年本行的资本充足率是多少？", "13.71%"),
                    # and the year before, from the column of that year (p.25: 1.79 | 1.82)
                    ("民生银行2021年不良贷款率比上年下降了多少？", "0.03个百分点")):
        a = router.answer(q)
        assert a.found and want in a.answer, (q, a.answer)


@pytest.mark.parametrize("name", sorted({f for f, *_ in BANK_SETS}))
def test_bank_question_sets(bank_store, tmp_path, name):
    from test_paraphrases import within_bounds

    out = tmp_path / f"{name}.json"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "eval_paraphrases.py"), "--store", str(bank_store.dir),
                    "--tables-store", str(bank_store.dir), str(ROOT / "tests" / "data" / name), "--json", str(out)],
                   check=True, capture_output=True, text=True)
    within_bounds(json.loads(out.read_text(encoding="utf-8")), BANK_SETS, name)


def test_no_header_rows_as_items_and_outflows_signed_as_paid(bank_store):
    """A continued page's column header ("2021年12月31日本行", "本行2021度本行") or a heading printed again
    ("五、净利润（续）") repeats values read elsewhere and is no item; a bank's cash paid out, printed in
    parentheses between an inflow subtotal and its outflow subtotal, is stored as paid like the listed
    items (兴业 p.168: 客户贷款和垫款净增加额 (596,645), 支付利息、手续费及佣金的现金 (148,689))."""
    from fin_qa.ingest.statements import _header_label

    facts = list(bank_store.facts())
    junk = [f for f in facts if f["statement"] in ("资产负债表", "利润表", "现金流量表") and _header_label(f["item"])]
    assert not junk, junk[:3]
    assert _header_label("（除特别注明外，金额单位为人民币百万元）本集团五、净利润（续）")
    assert not _header_label("归属于本行股东的净利润") and not _header_label("2.归属于少数股东损益")
    got = {(f["item"], f["period"]): f["value"] for f in facts if f["statement"] == "现金流量表"
           and f["short_name"] == "兴业银行"}
    assert got[("客户贷款及垫款净增加额", "current")] == "596645000000"
    assert got[("支付利息、手续费及佣金的现金", "current")] == "148689000000"
    assert got[("经营活动现金流出小计", "current")] == "1205909000000"


def test_bank_indicators_and_principal_amounts(router):
    """Both years of an indicator where the header splits a date across cells ("2022年 12月 31日 2021" |
    "年12月31日") or a change word runs into the value ("25.68 上升"); 存款总额 and 贷款总额 (principal)
    from 补充财务数据 in 元 (兴业 p.15, 百万元: 4,736,982 and 4,982,887; p.13–14: 成本收入比 29.37 | 25.68,
    不良贷款率 1.09 | 1.10)."""
    for q, want, page in (("兴业银行2022年的存款总额是多少亿元？", "47,369.82亿元", 15),
                          ("兴业银行2022年末贷款总额是多少元？", "4,982,887,000,000.00元", 15),
                          ("兴业银行2021年的成本收入比是多少？", "25.68%", 13),
                          ("兴业银行2021年末的不良贷款率是多少？", "1.1%", 14)):
        a = router.answer(q)
        assert a.found and want in a.answer and any(e.page == page for e in a.evidence), (q, a.answer)


def test_the_banks_profile_and_quarters(router):
    # "公司法定代表人 ： 高迎欣", "董事会秘书：华兵" (a contact section of colon lines), "国内会计师事务所 ： …", and a
    # quarter read from the annual report's 分季度主要财务数据 (in 百万元), 单季 asking nothing of its columns
    for q, want in (("民生银行2021年年报里的公司法定代表人是谁？", "高迎欣"), ("民生银行2021年的董事会秘书是谁", "白丹"),
                    ("兴业银行2022年报披露的董事会秘书是谁？", "华兵"),
                    ("民生银行2021年聘请的会计师事务所是哪家", "普华永道中天"),
                    ("兴业银行2022年第四季度单季营业收入是多少亿元？", "515.20亿元"),
                    ("中国民生银行2021年末发放贷款和垫款总额是多少？请用人民币亿元表示", "40,456.92亿元")):
        ans = router.answer(q)
        assert ans.answered and want in ans.answer, (q, ans.answer)


def test_a_kind_of_loan_is_never_the_total(router):
    # 个人贷款, 公司贷款: a kind of the bank's loans — never 贷款总额 (the 人 and 公司 were read as a unit and the
    # company), nor a 期初余额 of an allowance table
    for q in ("兴业银行2022年个人贷款余额是多少", "兴业银行2022年公司贷款余额是多少百万元", "兴业银行2022年公司贷款余额是多少"):
        ans = router.answer(q)
        assert "4,982,887" not in ans.answer and "130,909" not in ans.answer, (q, ans.answer)


def test_a_kind_of_business_or_an_average_is_never_another(router):
    # a bank's 公司贷款 is never its 个人贷款, a 公司重组减值贷款余额 nor a 平均余额 column (a table of 日均余额 answers
    # no 余额 unless the question says 平均 or 日均 — its 平均收益率, a rate, is no amount and answers as before)
    for q in ("兴业银行2022年公司贷款余额是多少", "兴业银行2022年公司贷款余额是多少百万元"):
        ans = router.answer(q)
        assert not any(w in ans.answer for w in ("1,973,907", "2,424,898", "27.66", "4.33")), (q, ans.answer)
    for q, want in (("兴业银行2022年公司贷款日均余额是多少", "2,424,898"), ("兴业银行2022年公司贷款的平均收益率是多少", "4.25%"),
                    ("兴业银行2022年末个人贷款余额是多少", "1,973,907")):
        ans = router.answer(q)
        assert ans.answered and want in ans.answer, (q, ans.answer)
    # a quarter said once before two items joined by 和 is each one's (never every quarter of the second), the
    # parent's owners as the key figures print them (归属于上市公司股东的净利润)
    ans = router.answer("兴业银行2022年第四季度营业收入和归属于母公司股东的净利润分别是多少")
    assert "51,520" in ans.answer and "19,569" in ans.answer, ans.answer
    assert not any(v in ans.answer for v in ("27,578", "17,309", "26,921")), ans.answer


def test_a_kind_of_business_said_by_the_clause_itself(router):
    # 公司业务 is the clause's word for 公司银行业务 (民生 p.62: 723.19亿元); a 小微个人存款 is no bank's 个人存款
    ans = router.answer("民生银行2021年公司银行业务营业收入是多少")
    assert ans.answered and "723.19" in ans.answer, ans.answer
    assert "1,998.24" not in router.answer("民生银行2021年末个人存款是多少").answer
    # a clause saying another kind of the same side is no answer (公司贷款占比 52.81% is no 公司存款占比)
    assert "52.81" not in router.answer("兴业银行2022年末公司存款占比是多少").answer


def test_a_rates_change_in_points_or_bp(router):
    # "降了几个点", "降了几个bp" of a rate: its change in 百分点, both values cited (the words were not understood)
    ans = router.answer("民生银行21年净息差多少 比20年降了几个bp")
    assert "1.91%" in ans.answer and "0.23个百分点" in ans.answer, ans.answer
    ans = router.answer("兴业银行22年拨备覆盖率多少 比上年末降了几个点")
    assert "236.44%" in ans.answer and "32.29个百分点" in ans.answer, ans.answer


def test_a_sentence_of_another_item_states_no_value_asked(router):
    # 民生银行 p.62: "本行对公贷款余额22,999.47亿元" is no 个人定期存款余额 (存款 is no 贷款)
    ans = router.answer("民生银行2021年个人定期存款余额是多少？")
    assert "22,999.47" not in ans.answer, ans.answer


def test_a_part_of_a_row_printed_under_its_whole(router):
    # 兴业银行 p.47: 定期存款 2,608,223 | 其中：公司 1,912,484 | 个人 695,739 — 个人定期存款 is the 个人 under 定期存款
    # (named with its whole, never the whole's total), 公司定期存款 the 公司 under it; its share the 个人 under
    # 定期存款's (14.69%), never the 个人 under 活期存款's (8.23%)
    for q, want, never in (("兴业银行2022年个人定期存款余额是多少？", "695,739", "2,608,223"),
                           ("兴业银行2022年个人活期存款余额", "389,794", "1,779,273"),
                           ("兴业银行2022年公司定期存款余额是多少？", "1,912,484", "2,608,223"),
                           ("兴业银行2022年个人定期存款占比是多少？", "14.69%", "8.23%")):
        ans = router.answer(q)
        assert ans.answered and want in ans.answer and never not in ans.answer, (q, ans.answer)
    assert "定期存款—个人" in router.answer("兴业银行2022年个人定期存款余额是多少？").answer
    # a part's whole is no word of the part's row: an ask naming the whole and another part reads no share of the
    # whole's column (民生 p.45: 个人贷款和垫款中信用卡透支 is never 43.04% or 11.67%)
    for q in ("民生银行2021年个人贷款和垫款中信用卡透支是多少？", "民生银行2021年公司贷款和垫款中票据贴现是多少？"):
        ans = router.answer(q)
        assert not any(v in ans.answer for v in ("43.04%", "11.67%", "56.96%", "6.94%")), (q, ans.answer)
    # a sentence of all personal deposits (个人存款余额10,890.28亿元) states none of the 定期存款 the ask looks in
    ans = router.answer("兴业银行2022年定期存款中个人存款余额是多少？")
    assert "10,890.28" not in ans.answer, ans.answer
