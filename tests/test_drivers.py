"""A why-question of a profit answered with figures (issue 46, answer/drivers.py): the profit's change, each line of
the income statement over the year before, and the lines that moved it most — every value read and cited; nothing
said where the statements are not read."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from conftest import CATALOG
from fin_qa.answer.facts import FactSource
from fin_qa.answer.model import FactEvidence
from fin_qa.answer.router import Router


def test_a_profits_change_is_broken_into_its_lines(sample_store):
    ans = Router(FactSource(sample_store), CATALOG).answer("星河精密2021年净利润增长的原因是什么？")
    text = ans.answer
    assert "利润表各项目的变动（2021年，与上年同期相比）" in text
    # the sample's 万元 as 元: 净利润 3,638.00 vs 2,796.50; 营业收入 30,000 vs 26,000; 营业成本 20,000 vs 18,000
    assert "净利润增加8,415,000.00元（36,380,000.00元，上年同期27,965,000.00元，+30.09%）" in text
    assert "营业收入增加40,000,000.00元" in text and "营业成本增加20,000,000.00元" in text
    assert "投资收益减少3,700,000.00元" in text and "所得税费用增加1,485,000.00元" in text
    ups, downs = text.split("使利润增加最多的：")[1].split("使利润减少最多的：")
    assert ups.startswith("营业收入（+40,000,000.00元）")
    assert downs.startswith("营业成本（-20,000,000.00元）") and "研发费用（-4,000,000.00元）" in downs
    # every figure read is cited: each line's two values
    cited = {(e.item, e.year) for e in ans.evidence if isinstance(e, FactEvidence)}
    assert {("营业收入", 2021), ("营业收入", 2020), ("投资收益", 2020)} <= cited


def test_a_profit_before_tax_stops_at_its_own_lines(sample_store):
    text = Router(FactSource(sample_store), CATALOG).answer("星河精密2021年营业利润变化的原因是什么？").answer
    lines = text[text.index("利润表各项目的变动"):]
    assert "营业利润增加9,300,000.00元" in lines and "营业外收入" not in lines and "所得税费用" not in lines
    assert "财务费用持平" in lines


def test_nothing_is_said_without_a_why_or_without_statements(sample_store):
    router = Router(FactSource(sample_store), CATALOG)
    assert "利润表各项目" not in router.answer("星河精密2021年净利润同比增长了多少？").answer
    assert "利润表各项目" not in router.answer("星河精密2021年营业收入增长的原因是什么？").answer   # (no profit)
    assert "利润表各项目" not in router.answer("星河精密2015年净利润增长的原因是什么？").answer   # (no such year)


def test_rules_check_names_an_unknown_line(tmp_path):
    root = tmp_path / "rules"
    for d in ("keyword_tables", "rules", "formulas", "es_mappings"):
        shutil.copytree(Path(CATALOG.root) / d, root / d)
    p = root / "rules" / "drivers.yaml"
    p.write_text(p.read_text(encoding="utf-8").replace("税金及附加, 销售费用", "税金及附加, 销售费用合计"), encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "fin_qa.cli", "rules", "check", "--rules", str(root)], capture_output=True,
                       text=True)
    assert r.returncode != 0 and "drivers.yaml" in r.stdout + r.stderr and "销售费用合计" in r.stdout + r.stderr


def test_the_parents_share_takes_the_minority_out(sample_store):
    text = Router(FactSource(sample_store), CATALOG).answer("星河精密2021年归母净利润增长的原因是什么？").answer
    lines = text[text.index("利润表各项目的变动"):]
    assert "少数股东损益" in lines or "未读到：" in lines and "少数股东损益" in lines.split("未读到：")[1]
