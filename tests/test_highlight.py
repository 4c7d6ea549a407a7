"""Where a cited value or passage is boxed on its page (fin_qa/serve/pages.locate), from word boxes like
the ones ingest stores: a value on its label's row in any unit, never a year, a count or a note number
that happens to share its digits; a passage whole, or the part of it the page holds."""
from __future__ import annotations

from fin_qa.serve.pages import locate
from fin_qa.store import PageWords, Word


def page(*rows: list[str]) -> PageWords:
    """A page of rows of words, each row 20 points below the last, words 100 points apart."""
    words = [Word(text, 50 + 100 * i, 100 + 20 * r, 50 + 100 * i + 10 * len(text), 110 + 20 * r)
             for r, row in enumerate(rows) for i, text in enumerate(row)]
    return PageWords(1, 595, 842, words)


BALANCE = page(["合并资产负债表"], ["单位：万元"], ["项目", "附注", "2021年12月31日", "2020年12月31日"],
               ["货币资金", "五、1", "12,345.67", "10,234.56"], ["应收账款", "五、2", "4,567.89", "3,987.65"],
               ["研发人员", "123", "人"], ["报告期", "2021"])


def test_a_value_on_its_rows_label_in_the_unit_the_page_prints():
    boxes, how = locate(BALANCE, ["货币资金", "123456700"])
    assert how == "row" and [b.what for b in boxes] == ["货币资金", "123456700"]
    assert boxes[1].x0 == 250 and boxes[1].top == 160   # 12,345.67 (万元), not 10,234.56 or anything else


def test_a_year_a_count_or_a_note_number_is_never_a_scaled_amount():
    assert locate(BALANCE, ["20210000"]) == ([], "none")     # 2021 is no 2021万元
    assert locate(BALANCE, ["123000000"]) == ([], "none")    # a count of 123 is no 1.23亿元
    assert locate(BALANCE, ["100000000"]) == ([], "none")    # 五、1 is no 1亿元
    boxes, how = locate(BALANCE, ["123"])                    # but 123 itself is 123
    assert how == "found" and len(boxes) == 1


def test_an_amount_alone_is_found_but_not_as_a_row():
    boxes, how = locate(BALANCE, ["45678900"])
    assert how == "found" and len(boxes) == 1 and boxes[0].x0 == 250
    boxes, how = locate(BALANCE, ["存货", "45678900"])          # the label is not on the page
    assert how == "partial" and len(boxes) == 1


def test_a_passage_whole_or_the_part_the_page_holds():
    text = page(["本年度公司无重大诉讼、仲裁事项。"], ["公司不存在控股股东及实际控制人。"])
    boxes, how = locate(text, ["本年度公司无重大诉讼、仲裁事项。"])
    assert how == "found" and len(boxes) == 1 and boxes[0].top == 100
    # a passage going on to the next page: the head this page holds is boxed, and said to be partial
    boxes, how = locate(text, ["公司不存在控股股东及实际控制人。报告期内控股股东未变更。"])
    assert how == "partial" and len(boxes) == 1 and boxes[0].top == 120
    assert locate(text, ["利润分配预案已经股东大会审议通过"]) == ([], "none")


def test_a_label_wrapped_over_two_lines_beside_its_value():
    words = [Word("所有者权益（或股东权益）：", 50, 100, 190, 110),            # a heading that starts alike
             Word("所有者权益（或股东权", 60, 300, 160, 310), Word("1,745,401,890.46", 330, 305, 410, 315),
             Word("益）合计", 60, 312, 100, 322), Word("1,745,401,890.46", 330, 400, 410, 410)]
    boxes, how = locate(PageWords(1, 595, 842, words), ["所有者权益（或股东权益）合计", "1745401890.46"])
    assert how == "row"
    assert {(b.x0, b.top) for b in boxes} == {(60, 300), (60, 312), (330, 305)}   # not the heading, not p.400


def test_a_neighbouring_rows_equal_value_or_a_rate_is_not_the_row():
    words = [Word("营业总收入", 50, 100, 100, 110), Word("1,234,567.89", 300, 100, 360, 110),
             Word("营业收入", 50, 112, 90, 122), Word("1,234,567.89", 300, 112, 360, 122),
             Word("增长率", 50, 124, 80, 134), Word("12.35%", 300, 124, 330, 134)]
    boxes, how = locate(PageWords(1, 595, 842, words), ["营业收入", "1234567.89"])
    assert how == "row" and {b.top for b in boxes} == {112}
    # a rate is never an amount in a larger unit (12.35% is not 12,350,000元 in 百万元)
    assert locate(PageWords(1, 595, 842, words), ["12350000"]) == ([], "none")
