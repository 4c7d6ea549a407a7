"""Charts that fit an answer's numbers (issue 46): the chart an answer carries (fin_qa/answer/chart.py) — a line for a
series or a period's values, bars for companies or a table's rows, a pie for parts of a whole, a table for many
columns — and the same chart drawn as an image (fin_qa/chart_image.py) with the package's own CJK font: each image
opened, its size and its ink checked, and no glyph missing; the Teddy Cup batch writes them under result/."""
from __future__ import annotations

import json
import warnings
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner
from PIL import Image

from conftest import CATALOG

from fin_qa.answer.chart import chart_of
from fin_qa.answer.model import Answer, CellEvidence, FactEvidence
from fin_qa.chart_image import FONT, SIZE, draw
from fin_qa.cli import cli


@pytest.fixture(scope="module")
def router(sample_store):
    from fin_qa.answer.facts import FactSource
    from fin_qa.answer.router import Router

    return Router(FactSource(sample_store), CATALOG)


def _inked(path: Path) -> int:
    """How many of the image's pixels are not (near) white."""
    im = Image.open(path).convert("L")
    assert im.size == SIZE
    return sum(im.histogram()[:200])


def _drawn(chart: dict, path: Path) -> Path:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        draw(chart, path)
    missing = [str(w.message) for w in caught if "missing from" in str(w.message) or "Glyph" in str(w.message)]
    assert not missing, missing   # (every character drawn with the package's font: no empty boxes)
    assert _inked(path) > 2000, path
    return path


def test_a_series_is_a_line_drawn_with_its_unit(router, tmp_path):
    rec = router.answer("星河精密近三年营业收入的变化趋势如何？").record()
    chart = rec["chart"]
    assert chart["kind"] == "line" and chart["name"] == "折线图"
    assert chart["labels"] == ["2019年", "2020年", "2021年"] and chart["unit"] in ("万元", "亿元")
    assert "营业收入" in chart["title"] and "星河" in chart["title"]
    # each point keeps the value as the answer gives it, and is drawn scaled to the axis's unit
    shown = chart["datasets"][0]["shown"]
    assert all(s.endswith("元") for s in shown) and all(s.replace(",", "").rstrip("元") in rec["answer"].replace(",", "")
                                                       for s in shown)
    _drawn(chart, tmp_path / "series.jpg")


def test_companies_compared_are_bars(router, tmp_path):
    rec = router.answer("星河精密和星河二号2021年的营业收入分别是多少？").record()
    chart = rec["chart"]
    assert chart["kind"] == "bar" and chart["labels"] == ["星河精密", "星河二号"], chart
    assert chart["unit"] == "亿元" and chart["datasets"][0]["data"] == [3.0, 3.0]
    assert chart["datasets"][0]["shown"] == ["300,000,000.00元", "300,000,000.00元"]
    _drawn(chart, tmp_path / "bars.png")


def test_one_value_makes_no_chart(router):
    assert "chart" not in router.answer("星河精密2021年的营业收入是多少？").record()
    assert "chart" not in router.answer("星河精密2021年的法定代表人是谁？").record()


def _cells(rows: list[tuple[str, str]], column: str = "营业收入") -> list[CellEvidence]:
    return [CellEvidence("五、经营情况 > (1). 主营业务分地区情况", row, column, value, 12, "688999:2021") for row, value in rows]


def test_parts_of_a_whole_are_a_pie_and_a_kind_asked_is_drawn():
    rows = [("华东", "120,000,000.00元"), ("华南", "80,000,000.00元"), ("境外", "50,000,000.00元")]
    whole = rows + [("合计", "250,000,000.00元")]
    parts = Answer("星河精密2021年各地区营业收入的构成", "…", "1", "frame", _cells(whole))
    chart = chart_of(parts)
    assert chart is not None and chart.kind == "pie" and chart.title == "主营业务分地区情况：营业收入"
    assert chart.labels == ["华东", "华南", "境外"]   # (the total row is no part)
    assert chart.unit == "亿元" and chart.datasets[0]["data"] == [1.2, 0.8, 0.5]
    # rows that are not shown to make up the whole (no total row, or one they do not add up to) are bars: a pie of
    # the top five customers would make their shares of the five's sum look like shares of the year's sales
    assert chart_of(Answer("各地区营业收入的构成", "…", "1", "frame", _cells(rows))).kind == "bar"
    short = rows[:2] + [("合计", "250,000,000.00元")]
    assert chart_of(Answer("各地区营业收入的构成，画饼图", "…", "1", "frame", _cells(short))).kind == "bar"
    # the same rows asked without parts words are bars; a kind named is drawn as named …
    assert chart_of(Answer("星河精密2021年各地区营业收入", "…", "1", "frame", _cells(whole))).kind == "bar"
    assert chart_of(Answer("各地区营业收入，画成折线图", "…", "1", "frame", _cells(whole))).kind == "line"
    as_table = chart_of(Answer("各地区营业收入，用表格列出", "…", "1", "frame", _cells(rows)))
    assert as_table.kind == "table" and as_table.rows[0] == ["华东", "120,000,000.00元"]
    # … but never a pie of a negative part
    negative = [("华东", "120,000,000.00元"), ("华南", "-8,000,000.00元")]
    assert chart_of(Answer("各地区利润的构成，画饼图", "…", "1", "frame", _cells(negative, "利润"))).kind == "bar"


def test_several_items_of_one_period_are_a_table(tmp_path):
    facts = [FactEvidence(item, value, 2021, 5, "pdf", report="688999:2021") for item, value in
             (("营业收入", "300,000,000.00元"), ("营业成本", "200,000,000.00元"), ("销售费用", "12,000,000.00元"))]
    chart = chart_of(Answer("星河精密2021年营业收入、营业成本和销售费用", "…", "1", "lookup", facts),
                     lambda key: "星河精密" if key == "688999:2021" else "")
    assert chart.kind == "table" and chart.columns == ["项目", "数值", "页码"] and chart.title == "星河精密2021年"
    assert chart.rows[2] == ["销售费用", "12,000,000.00元", "5"]
    _drawn(chart.to_dict(), tmp_path / "table.jpg")


def test_every_kind_drawn_is_readable_and_in_chinese(tmp_path):
    """Each kind drawn at 800×500 with Chinese titles, labels and company names: ink on it, no glyph missing; a
    chart that cannot be drawn is one clear error."""
    from fin_qa.base import FinQAError

    assert FONT.is_file() and FONT.stat().st_size > 1_000_000
    pie = {"kind": "pie", "title": "华润三九2024年各业务板块收入构成", "labels": ["消费者健康", "处方药", "传统国药"],
           "datasets": [{"label": "营业收入", "data": [150.2, 80.5, 40.1], "shown": ["", "", ""]}], "unit": "亿元"}
    _drawn(pie, tmp_path / "pie.jpg")
    line = {"kind": "line", "title": "金花股份利润总额（2023年第一季度—2024年第三季度）",
            "labels": ["2023年一季度", "2023年上半年", "2024年一季度"],
            "datasets": [{"label": "利润总额", "data": [-0.12, 0.3, None], "shown": ["", "", ""]}], "unit": "亿元"}
    _drawn(line, tmp_path / "line.png")
    with pytest.raises(FinQAError, match="positive"):
        draw(dict(pie, datasets=[{"label": "x", "data": [1.0, -2.0, 3.0], "shown": []}]), tmp_path / "bad.jpg")
    with pytest.raises(FinQAError, match="kind"):
        draw({"kind": "radar"}, tmp_path / "bad.jpg")
    with pytest.raises(FinQAError, match=".jpg or .png"):
        draw(pie, tmp_path / "bad.gif")


def test_the_teddy_batch_writes_its_charts_under_result(sample_store, tmp_path):
    """`batch --style teddy`: a turn whose numbers make a chart has its image under result/ beside the output,
    named 编号_n.jpg, listed in the turn's "image"; 图形格式 names the kinds drawn, 无 where none is."""
    rows = [{"编号": "B1002", "问题类型": "数据统计分析查询", "问题": [{"Q": "星河精密近三年营业收入的变化趋势如何？"},
                                                           {"Q": "星河精密和星河二号2021年的营业收入分别是多少？"}]},
            {"编号": "B1003", "问题类型": "数据基本查询", "问题": [{"Q": "星河精密2021年的营业收入是多少？"}]},
            # 编号s a file name makes alike: each its own image, none drawn over another's
            {"编号": "B1/1", "问题类型": "数据统计分析查询", "问题": [{"Q": "星河精密近三年营业收入的变化趋势如何？"}]},
            {"编号": "B1_1", "问题类型": "数据统计分析查询", "问题": [{"Q": "星河精密近三年净利润的变化趋势如何？"}]}]
    qfile = tmp_path / "q.jsonl"
    qfile.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "out" / "result_2.xlsx"
    out.parent.mkdir()
    r = CliRunner().invoke(cli, ["batch", str(qfile), "--style", "teddy", "-o", str(out), "--store",
                                 str(sample_store.dir), "-q"])
    assert r.exit_code == 0, r.output
    sheet = list(openpyxl.load_workbook(out, read_only=True).active.iter_rows(values_only=True))
    got = {row[0]: (row[3], json.loads(row[4])) for row in sheet[1:]}
    kinds, turns = got["B1002"]
    assert kinds == "折线图、柱状图"
    assert [t["A"]["image"] for t in turns] == [["./result/B1002_1.jpg"], ["./result/B1002_2.jpg"]]
    for name in ("B1002_1.jpg", "B1002_2.jpg"):
        assert _inked(out.parent / "result" / name) > 2000
    assert got["B1003"][0] == "无" and "image" not in got["B1003"][1][0]["A"]
    assert got["B1/1"][1][0]["A"]["image"] == ["./result/B1_1_1.jpg"]
    assert got["B1_1"][1][0]["A"]["image"] == ["./result/B1_1_1-2.jpg"]


def test_one_axis_one_kind_and_one_span():
    """A per-share figure is never drawn on an amount's axis (nor scaled to 亿元); 7–9月 and 1–9月 never on one
    line; periods drawn in time order whatever order the answer gave them."""
    def point(year, value):
        return {"year": year, "value": value, "shown": f"{value}元"}

    series = [{"item": "营业收入", "label": "营业收入", "unit": "元", "kind": "amount",
               "points": [point(2022, 18079461482.75), point(2023, 24738963319.76)]},
              {"item": "基本每股收益", "label": "基本每股收益", "unit": "元", "kind": "per_share",
               "points": [point(2022, 2.48), point(2023, 2.9)]}]
    ans = Answer("华润三九近两年营业收入和基本每股收益", "…", "1", "series", [])
    ans.series = series
    chart = chart_of(ans)
    assert [d["item"] for d in chart.datasets] == ["营业收入"] and chart.unit == "亿元"
    ans.series = series[1:]
    eps = chart_of(ans)
    assert eps.unit == "元" and eps.datasets[0]["data"] == [2.48, 2.9]   # (never 0.00 on a 亿元 axis)

    def fact(within, value, year=2024):
        return FactEvidence("营业收入", value, year, 1, "pdf", report="000999:2024Q3", within=within)

    mixed = Answer("华润三九2024年第三季度营业收入", "…", "1", "lookup",
                   [fact("第三季度单季（7-9月）", "5,634,274,230.28元"), fact("前三季度（1-9月）", "19,740,286,995.36元")])
    assert chart_of(mixed) is None
    quarters = Answer("华润三九2024年各季度营业收入", "…", "1", "lookup",
                      [fact("第三季度单季（7-9月）", "5,634,274,230.28元"), fact("第一季度（1-3月）", "7,294,070,557.82元"),
                       fact("第二季度单季（4-6月）", "6,811,942,207.26元")])
    assert chart_of(quarters).labels == ["2024年第一季度", "2024年第二季度单季", "2024年第三季度单季"]
    ends = Answer("华润三九2024年一季度末和三季度末的营业收入", "…", "1", "lookup",
                  [fact("第一季度（1-3月）", "7,294,070,557.82元"), fact("第三季度末（9月30日）", "1.00元")])
    assert chart_of(ends) is None


def test_two_companies_given_after_a_question_back_are_both_answered(router):
    from fin_qa.answer.followup import Context

    back = router.follow("2021年的营业收入是多少？", None)
    assert back.method == "ask_which"
    both = router.follow("星河精密和星河二号", Context.from_dict(back.record()))
    assert both.found and both.answer.count("300,000,000.00元") == 2, both.answer
    assert both.chart["kind"] == "bar" and both.chart["labels"] == ["星河精密", "星河二号"]
