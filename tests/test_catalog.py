"""The catalog: one load of every rule file, file:line problems, an edited copy named by --rules /
$FIN_QA_RULES, and the rules shipped inside a built wheel."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from fin_qa.catalog import Catalog, CatalogError
from fin_qa.catalog.formulas import parse_expr
from fin_qa.cli import cli
from fin_qa.config import RULE_FOLDERS

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def rules_copy(tmp_path):
    """An editable copy of the shipped rules folder."""
    for name in RULE_FOLDERS:
        shutil.copytree(ROOT / name, tmp_path / "r" / name)
    return tmp_path / "r"


def test_load_holds_every_part(catalog):
    assert catalog.items.canonical("总负债") == "负债合计"
    assert catalog.vocabulary.canonical("职工总人数")
    assert catalog.formulas.get("流动比率").output == "ratio"
    assert any(t.name for t in catalog.topics.topics)
    assert catalog.question_rules and catalog.question_rules[0].line > 1
    assert "lookup" in catalog.templates and "text_answer" in catalog.prompts
    assert catalog.report_names.key_of("2020-01-21__江苏安靠智能输电工程科技股份有限公司__300617__安靠智电__2019年__年度报告.pdf") \
        == ("江苏安靠智能输电工程科技股份有限公司", "300617", "安靠智电", 2019)
    assert catalog.es_mappings["chunks"]["mappings"]
    assert catalog.understanding.statistics is not None and catalog.understanding.shapes
    assert catalog.employee_category("博士研究生") == "博士及以上"


def test_check_lists_every_file(rules_copy):
    problems, checked = Catalog.check(rules_copy)
    assert problems == []
    assert any(c.endswith("question_types.yaml") for c in checked)
    assert any("report_names.yaml" in c for c in checked)


def _check_one(root: Path) -> str:
    problems, _ = Catalog.check(root)
    assert len(problems) == 1, problems
    return problems[0]


def test_unbalanced_parenthesis_is_a_line(rules_copy):
    f = rules_copy / "formulas" / "extra.yaml"
    f.write_text("formulas:\n  - name: 测试比率\n    inputs: {销售费用: 销售费用, 营业收入: 营业收入}\n"
                 "    expr: 销售费用 / (营业收入\n    output: ratio\n", encoding="utf-8")
    msg = _check_one(rules_copy)
    assert msg.startswith(f"{f}:2: ") and "unbalanced" in msg
    for bad in ("(a", "a)", "((a)", "a +"):
        with pytest.raises(ValueError):
            parse_expr(bad, ["a"])


def test_gbk_rule_file_is_a_line(rules_copy):
    f = rules_copy / "rules" / "search.yaml"
    text = f.read_text(encoding="utf-8")
    f.write_bytes(("# 搜索设置\n" + text).encode("gbk"))
    msg = _check_one(rules_copy)
    assert msg == f"{f}:1: not UTF-8 text (saved as GBK?): save the file as UTF-8"


def test_broken_keyword_table_is_one_line(rules_copy):
    f = rules_copy / "keyword_tables" / "items.yaml"
    f.write_text(f.read_text(encoding="utf-8") + "\n利润表:\n  营业收入: [收入\n", encoding="utf-8")
    problems, _ = Catalog.check(rules_copy)
    assert problems and "\n" not in problems[0]
    assert problems[0].startswith(f"{f}:") and problems[0].count(str(f)) == 1


def test_label_naming_two_items_has_its_line(rules_copy):
    f = rules_copy / "keyword_tables" / "items.yaml"
    lines = f.read_text(encoding="utf-8").splitlines()
    lines.append("其他表:\n  重复项目: [总负债]")
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    msg = _check_one(rules_copy)
    assert msg.startswith(f"{f}:{len(lines) + 1}: ") and "总负债" in msg


def test_not_a_rules_folder(tmp_path):
    with pytest.raises(CatalogError, match="not a rules folder"):
        Catalog.load(tmp_path)
    assert Catalog.shipped().root.is_dir()


def test_rules_option_and_environment(rules_copy):
    runner = CliRunner()
    res = runner.invoke(cli, ["rules", "check", "--rules", str(rules_copy)])
    assert res.exit_code == 0, res.output
    assert str(rules_copy) in res.output
    (rules_copy / "rules" / "question_types.yaml").write_text("rules:\n  - type: nonsense\n", encoding="utf-8")
    res = runner.invoke(cli, ["rules", "check", "--rules", str(rules_copy)])
    assert res.exit_code == 1
    assert f"{rules_copy / 'rules' / 'question_types.yaml'}:2: unknown type 'nonsense'" in res.output
    res = runner.invoke(cli, ["rules", "check"], env={"FIN_QA_RULES": str(rules_copy)})
    assert res.exit_code == 1 and "unknown type 'nonsense'" in res.output
    # any command stops on a broken rules folder with one line and exit 2
    r = subprocess.run([sys.executable, "-m", "fin_qa.cli", "ask", "x", "--rules", str(rules_copy), "--store",
                        str(rules_copy / "none")], capture_output=True, text=True, cwd=rules_copy)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1 and "question_types.yaml:2: unknown type 'nonsense'" in r.stderr


def test_help_names_the_environment():
    res = CliRunner().invoke(cli, ["--help"])
    for var in ("FIN_QA_RULES", "FIN_QA_STORE", "FIN_QA_SEARCH", "FIN_QA_ES_URL", "FIN_QA_LLM", "FIN_QA_CACHE"):
        assert var in res.output


@pytest.mark.slow
def test_wheel_carries_the_rules_and_works_from_another_folder(tmp_path, sample_pdf):
    """A wheel built from the tree, unpacked as an installed package, from a folder with no rules."""
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                        str(tmp_path / "dist"), str(ROOT)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    wheel = next((tmp_path / "dist").glob("fin_qa-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    for needed in ("fin_qa/_data/rules/question_types.yaml", "fin_qa/_data/formulas/common.yaml",
                   "fin_qa/_data/keyword_tables/items.yaml", "fin_qa/_data/es_mappings/chunks.json",
                   "fin_qa/_data/rules/prompts/text_answer.txt", "fin_qa/catalog/__init__.py",
                   "fin_qa/fonts/NotoSansCJKsc-Regular-GBK.otf", "fin_qa/fonts/OFL.txt"):
        assert needed in names
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("FIN_QA_")}
    env["PYTHONPATH"] = str(site)

    def run(*args):
        return subprocess.run([sys.executable, "-m", "fin_qa.cli", *args], capture_output=True, text=True, cwd=work,
                              env=env)

    out = run("rules", "check")
    assert out.returncode == 0, out.stdout + out.stderr
    assert str(site / "fin_qa" / "_data") in out.stdout
    shutil.copy(sample_pdf, work / sample_pdf.name)
    assert run("ingest", sample_pdf.name, "-q").returncode == 0
    ans = run("ask", "星河精密2021年营业收入是多少元？")
    assert ans.returncode == 0, ans.stdout + ans.stderr
    assert "营业收入" in ans.stdout and "依据" in ans.stdout


def test_a_word_where_a_list_belongs_is_a_line_not_a_split(rules_copy):
    f = rules_copy / "keyword_tables" / "items.yaml"
    f.write_text(f.read_text(encoding="utf-8") + "\n其他表:\n  某收入: 收入\n", encoding="utf-8")
    msg = _check_one(rules_copy)
    assert msg.startswith(f"{f}:") and "某收入" in msg and "must be a list" in msg


def test_keyword_table_shapes_are_checked(rules_copy):
    f = rules_copy / "keyword_tables" / "profile.yaml"
    text = f.read_text(encoding="utf-8")
    f.write_text(text.replace("fields:\n", "fields:\n  网址: 公司网址\n", 1), encoding="utf-8")
    msg = _check_one(rules_copy)
    assert msg.startswith(f"{f}:") and "fields must be a mapping name → [labels]" in msg
    f.write_text(text + "\nsomething_new: [a]\n", encoding="utf-8")
    assert "unknown key 'something_new'" in _check_one(rules_copy)


def test_wrong_structures_are_lines_not_tracebacks(rules_copy):
    growth = rules_copy / "formulas" / "growth.yaml"
    growth.write_text("templates:\n  - name: '{label}增速'\n    inputs: {本期: '{item}'}\n    output: ratio\n",
                      encoding="utf-8")
    assert "a template must be a mapping with name, inputs, expr, output" in _check_one(rules_copy)
    growth.unlink()
    llm = rules_copy / "rules" / "llm.yaml"
    llm.write_text(llm.read_text(encoding="utf-8") + "\ngeneration: 5\n", encoding="utf-8")
    msg = _check_one(rules_copy)
    assert msg.startswith(f"{llm}:1: unexpected structure") and "\n" not in msg


def test_cues_the_answerers_need_are_required(rules_copy):
    f = rules_copy / "rules" / "understanding.yaml"
    text = f.read_text(encoding="utf-8")
    f.write_text(text[: text.index("\nstatistics:")] + "\n", encoding="utf-8")
    assert _check_one(rules_copy) == f"{f}:1: missing statistics (see the shipped understanding.yaml)"


def test_several_problems_name_the_folder_to_check(rules_copy):
    (rules_copy / "rules" / "search.yaml").write_text("nonsense: 1\n", encoding="utf-8")
    (rules_copy / "rules" / "question_types.yaml").write_text("rules: []\n", encoding="utf-8")
    with pytest.raises(CatalogError) as exc:
        Catalog.load(rules_copy)
    assert len(exc.value.problems) == 2 and f"fin-qa rules check --rules {rules_copy}" in str(exc.value)


def test_bad_thread_count_is_one_message_only_when_a_model_is_asked_for(sample_store):
    env = {**os.environ, "FIN_QA_LLM_THREADS": "many"}

    def ask(llm):
        return subprocess.run([sys.executable, "-m", "fin_qa.cli", "ask", "星河精密2021年营业收入是多少？", "--store",
                               str(sample_store.dir), "--llm", llm], capture_output=True, text=True, env=env)

    r = ask("default")
    assert r.returncode == 2 and "FIN_QA_LLM_THREADS='many'" in r.stderr and "Traceback" not in r.stderr
    assert ask("none").returncode == 0


def test_plan_rules_are_checked_with_file_and_line(rules_copy):
    """rules/plan.yaml: a broken regex or a missing group is one file:line problem; no plan.yaml at all
    plans every question as one ask."""
    path = rules_copy / "rules" / "plan.yaml"
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    n = next(i for i, l in enumerate(lines) if l.startswith("compare:")) + 1
    path.write_text(text.replace("(?P<order>", "(?P<winner>"), encoding="utf-8")
    problems, _ = Catalog.check(rules_copy)
    assert len(problems) == 1 and problems[0].startswith(f"{path}:{n}: compare: regex ")
    assert problems[0].endswith("needs a group (?P<order>…)")
    path.write_text(text.replace("clause_end: '[？?；;！!。]'", "clause_end: '[？?'"), encoding="utf-8")
    problems, _ = Catalog.check(rules_copy)
    assert len(problems) == 1 and problems[0].startswith(f"{path}:") and "clause_end: bad regex" in problems[0]
    path.unlink()
    assert Catalog.load(rules_copy).plan is None


def test_stand_ins_and_company_measures_are_checked(rules_copy, catalog):
    assert [(s.asked, s.given) for s in catalog.stand_ins][:1] == [("主营业务收入", "营业收入")]
    assert catalog.plan.company_measures["销售额"] == "营业收入"
    f = rules_copy / "keyword_tables" / "stand_ins.yaml"
    f.write_text("stand_ins:\n  - asked: 主营业务收入\n    given: 主营收入合计\n    holds: 说明\n", encoding="utf-8")
    assert "stand_ins.yaml:2" in _check_one(rules_copy) and "not an item" in _check_one(rules_copy)
    f.write_text("stand_ins:\n  - asked: 营业成本\n    given: 营业收入\n    holds: 说明\n", encoding="utf-8")
    assert "an item of its own" in _check_one(rules_copy)
    f.write_text("stand_ins:\n  - asked: 主营业务收入\n", encoding="utf-8")
    assert "needs `asked:`, `given:` and `holds:`" in _check_one(rules_copy)


def test_a_derived_items_further_ways_in_order(rules_copy, catalog):
    # the shipped 本科及以上: 本科 + 硕士 + 博士及以上, else 本科 + 硕士及以上
    first = catalog.formulas.derived["本科及以上"]
    assert first.expr.replace(" ", "") == "本科+硕士+博士及以上"
    assert [f.expr.replace(" ", "") for f in catalog.formulas.derived_else["本科及以上"]] == ["本科+硕士及以上"]
    # a further way takes item, inputs and expr only: its words, note and unless are the first entry's
    f = rules_copy / "formulas" / "common.yaml"
    f.write_text(f.read_text(encoding="utf-8") + "  - item: 本科及以上\n    inputs: {本科: 本科}\n    expr: 本科\n"
                 "    note: 按本科回答\n", encoding="utf-8")
    msg = _check_one(rules_copy)
    assert msg.startswith(f"{f}:") and "a further way of deriving '本科及以上' takes item, inputs, expr" in msg


def test_education_categories_as_printed(catalog):
    # a closing 学历 is looked up again without it; "X以上" beside a row X is those above X
    assert catalog.employee_category("研究生以上学历") == "硕士及以上"
    assert catalog.employee_category("大专学历") == "大专"
    assert catalog.employee_category("中专、高中及以下") == "中专、高中及以下"   # (unknown: as printed)
    assert catalog.above_category("本科以上", {"本科", "大专"}) == "硕士及以上"
    assert catalog.above_category("大专以上学历", {"大专"}) == "本科及以上"
    assert catalog.above_category("本科以上", {"大专"}) is None        # (no 本科 row: its listed category)
    assert catalog.above_category("本科及以上", {"本科"}) is None


def test_row_kinds_name_appositives(rules_copy):
    f = rules_copy / "keyword_tables" / "cells.yaml"
    f.write_text(f.read_text(encoding="utf-8").replace("row_kinds:\n", "row_kinds:\n  分行: [分行]\n", 1),
                 encoding="utf-8")
    msg = _check_one(rules_copy)
    assert msg.startswith(f"{f}:") and "`row_kinds:` ['分行'] are in no appositive" in msg

