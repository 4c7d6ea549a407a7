"""The fuzz campaign in CI (issue 14): each target of tests/fuzzing.py over a few dozen generated inputs
(Hypothesis, derandomized so a run is reproducible; scripts/fuzz.py --minutes N runs the same strategies
longer). Each input must end in an answer or a one-line message — never a traceback, a hang or a
changed store."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fuzzing as fz
from conftest import CATALOG, REPORTS, needs_shared

def fuzz(n: int) -> settings:
    return settings(max_examples=n, derandomize=True, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def ctx(tmp_path_factory):
    c = fz.make_context(tmp_path_factory.mktemp("fuzz"))
    yield c
    c.store.close()


def test_questions(ctx):
    @fuzz(300)
    @given(fz.questions())
    def run(q):
        fz.check_question(ctx, q)
    run()


def test_question_files(ctx):
    @fuzz(40)
    @given(fz.batch_runs())
    def run(data):
        fz.check_question_file(ctx, data)
    run()


def test_rule_files(ctx):
    @fuzz(60)
    @given(st.data())
    def run(data):
        fz.check_rules(ctx, data)
    run()


def test_formula_expressions(ctx):
    @fuzz(40)
    @given(st.data())
    def run(data):
        fz.check_rules(ctx, data, formulas=True)
    run()


def test_table_cells(ctx):
    @fuzz(30)
    @given(fz.tables())
    def run(table):
        fz.check_table(ctx, table)
    run()


def test_pdf_bytes(ctx):
    @fuzz(25)
    @given(fz.pdf_mutations())
    def run(mutation):
        fz.check_pdf(ctx, mutation)
    run()


@needs_shared
def test_a_bit_flipped_report_with_a_lone_surrogate_in_its_text(tmp_path):
    """Found by scripts/fuzz.py: 57 bits flipped in 生物股份 2020 left a lone UTF-16 surrogate in a page's
    text, and storing it was a UnicodeEncodeError traceback."""
    from fin_qa.ingest.pipeline import ingest
    from fin_qa.store import Store

    src = next(REPORTS.glob("*生物股份*2020*.pdf"))
    f = tmp_path / "flipped.pdf"
    f.write_bytes(fz.mutate_pdf(src.read_bytes(), ("flip", 5537, 57, 1184440)))
    with Store(tmp_path / "s") as s:
        summary = fz.guarded(lambda: ingest([f], s, CATALOG), 120.0)
    assert summary.outcomes[0].status in ("ingested", "failed")
