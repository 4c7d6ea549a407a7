"""Open questions answered from keyword_tables/glossary.yaml with no model (issue 13): the definition,
and for a ratio its formula from formulas/; the file's checks (file:line)."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from conftest import CATALOG
from fin_qa.catalog.glossary import load_glossary
from fin_qa.catalog.yamlfile import RuleError
from fin_qa.cli import cli


def test_shipped_glossary_is_large_and_consistent():
    g = CATALOG.glossary
    assert len(g.terms) >= 150
    cats = {t.category for t in g.terms}
    assert cats == {"item", "ratio", "concept"}
    # every ratio naming a formula names one of formulas/ (checked at load); most ratios do
    ratios = [t for t in g.terms if t.category == "ratio"]
    assert sum(t.formula is not None for t in ratios) >= 20
    assert all(len(t.definition) >= 15 for t in g.terms)


def test_find_takes_the_longest_name():
    g = CATALOG.glossary
    found = [t.term for t in g.find("什么是速动比率？")]
    assert found == ["速动比率"]


@pytest.mark.parametrize("q, term, formula", [
    ("什么是流动比率？", "流动比率", "流动比率的计算公式"),
    ("商誉是什么意思", "商誉", None),
    ("如何计算速动比率", "速动比率", "速动比率的计算公式"),
    ("请解释一下什么是关联交易", "关联交易", None),
    ("资产负债率是什么", "资产负债率", "资产负债比率的计算公式"),
])
def test_open_questions_answered_without_a_model(sample_store, q, term, formula):
    r = CliRunner().invoke(cli, ["ask", "--store", str(sample_store.dir), "--json", q])
    assert r.exit_code == 0, r.output
    import json
    rec = json.loads(r.output)
    assert rec["method"] == "open" and rec["answer"].startswith(term + "：")
    assert rec["evidence"][0]["term"] == term and rec["evidence"][0]["source"] == "glossary.yaml"
    if formula:
        assert formula in rec["answer"]


def _write(tmp_path, text):
    p = tmp_path / "glossary.yaml"
    p.write_text(text, encoding="utf-8")
    return p


def test_glossary_problems_are_file_line(tmp_path):
    ok = "terms:\n  - term: 商誉\n    category: item\n    definition: 非同一控制下企业合并中合并成本大于可辨认净资产公允价值份额的差额。\n"
    assert [t.term for t in load_glossary(_write(tmp_path, ok)).terms] == ["商誉"]
    dup = ok + "  - term: 商誉价值\n    aliases: [商誉]\n    category: item\n    definition: 重复的名称。\n"
    with pytest.raises(RuleError, match="names both"):
        load_glossary(_write(tmp_path, dup))
    with pytest.raises(RuleError, match="is not a formula"):
        load_glossary(_write(tmp_path, ok.replace("category: item", "category: ratio\n    formula: 不存在的公式")),
                      {"流动比率"})
    with pytest.raises(RuleError, match="category"):
        load_glossary(_write(tmp_path, ok.replace("category: item", "category: other")))
