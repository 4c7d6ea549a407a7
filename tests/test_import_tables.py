import pytest
from click.testing import CliRunner

from conftest import TABLES
from fin_qa.cli import cli
from fin_qa.store import Store


def test_import_csv(tmp_path):
    csv = tmp_path / "t.csv"
    csv.write_text(
        "股票代码,股票简称,年份,营业收入,资产总额,法定代表人,职工人数,某个自定义指标\n"
        "603339,四方科技,2019年,1175301034.32,2464948703.85,黄杰,1406,7\n"
        "2888,惠威科技,2019,-1,,HONGBOYAO,818,-1\n",
        encoding="utf-8",
    )
    res = CliRunner().invoke(cli, ["import-tables", str(csv), "--store", str(tmp_path / "s")])
    assert res.exit_code == 0, res.output
    store = Store(tmp_path / "s")
    f = {(x["stock_code"], x["item"]): x for x in store.facts()}
    assert f[("603339", "营业收入")]["value"] == "1175301034.32"
    assert f[("603339", "资产总计")]["statement"] == "资产负债表"
    assert f[("603339", "在职员工的数量合计")]["unit"] == "人"
    assert f[("603339", "某个自定义指标")]["value"] == "7"  # unknown columns kept under their name
    assert ("002888", "营业收入") not in f and ("002888", "资产总计") not in f  # -1 / blank = missing
    assert f[("002888", "法定代表人")]["source"] == "import:t.csv"
    # importing again replaces, never duplicates
    CliRunner().invoke(cli, ["import-tables", str(csv), "--store", str(tmp_path / "s")])
    assert sum(1 for _ in store.facts()) == len(f)


def test_import_needs_key_columns(tmp_path):
    csv = tmp_path / "bad.csv"
    csv.write_text("a,b\n1,2\n", encoding="utf-8")
    res = CliRunner().invoke(cli, ["import-tables", str(csv), "--store", str(tmp_path / "s")])
    assert res.exit_code == 1 and "needs a year column" in res.output


@pytest.mark.skipif(not (TABLES / "people.xlsx").is_file(), reason="../shared/data/finglm_tables is absent")
def test_import_finglm_people_and_baseinfo(tmp_path):
    res = CliRunner().invoke(cli, ["import-tables", str(TABLES / "people.xlsx"), str(TABLES / "baseinfo.xlsx"),
                                   "--store", str(tmp_path / "s")])
    assert res.exit_code == 0, res.output
    store = Store(tmp_path / "s")
    f = {x["item"]: x["value"] for x in store.facts("四方科技", 2019)}
    assert f["在职员工的数量合计"] == "1406"
    f2020 = {x["item"]: x["value"] for x in store.facts("四方科技", 2020)}
    assert f2020["电子信箱"] == "zqb@ntsquare.com" and f2020["法定代表人"] == "黄杰"
    assert "电子信箱" not in f  # the third-party table has no 2019 profile for it: missing, not guessed
    assert len(store.reports()) >= 11000
