"""The fuzz campaign in CI (issue 14): each target of tests/fuzzing.py over a few dozen generated inputs
(Hypothesis, derandomized so a run is reproducible; scripts/fuzz.py --minutes N runs the same strategies
longer). Each input must end in an answer or a one-line message — never a traceback, a hang or a
changed store."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fuzzing as fz

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
    @given(fz.question_files())
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
