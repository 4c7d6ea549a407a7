"""Question type: the first rule of rules/question_types.yaml whose conditions the question's features meet."""
from __future__ import annotations

from collections.abc import Iterable

from ..catalog.question_rules import Features, Rule


def classify(features: Features, rules: Iterable[Rule]) -> Rule | None:
    for rule in rules:
        if rule.matches(features):
            return rule
    return None
