"""rules/answer_templates.yaml: the sentences answers are written in, with checked {placeholders}."""
from __future__ import annotations

import string
from pathlib import Path

from .yamlfile import LDict, RuleError, load_rules_yaml

# template name → the placeholders it may use
PLACEHOLDERS = {
    "lookup": {"company", "year", "item", "value"}, "lookup_yesno": {"company", "year", "item", "value"},
    "lookup_many": {"company", "year", "parts"},
    "lookup_part": {"item", "value"},
    "formula": {"company", "year", "name", "value", "expr", "parts"},
    "formula_printed_growth": {"company", "year", "name", "value", "item", "current", "base_year"},
    "formula_printed_growth_per_share": {"company", "year", "name", "value", "item", "current", "base_year"},
    "formula_printed_growth_negative": {"company", "year", "name", "value", "item", "current", "base_year"}, "formula_which": {"which", "word", "amount"},
    "formula_part": {"label", "value"},
    "compare_same": {"company", "parts"},
    "compare_diff": {"company", "parts"},
    "compare_part": {"year", "item", "value"},
    "rank": {"year", "scope", "item", "order", "parts"},
    "rank_part": {"rank", "company", "value"},
    "count": {"year", "scope", "item", "condition", "n", "examples"},
    "threshold_list": {"year", "scope", "item", "condition", "n", "parts", "more"}, "threshold_more": {"n"},
    "average": {"year", "scope", "item", "value", "n"},
    "not_found_company": set(), "advice_declined": set(),
    "series_latest": {"year", "filing"},
    # a profit's change broken into the income statement's lines (answer/drivers.py)
    "drivers_lines": {"period", "parts"}, "drivers_up": {"parts"}, "drivers_down": {"parts"}, "drivers_derived": set(), "drivers_unread": {"items"},
    # research notes (answer/notes.py)
    "note_quote": {"title", "broker", "date", "page", "heading", "text"},
    "note_view": {"title", "broker", "date", "parts"},
    "note_rating": {"rating", "last"},
    "note_forecast": {"measure", "parts"},
    "note_none": {"what"},
    "note_no_year": {"dates"},
    "note_explains": set(),
    "note_instead": set(),
    "note_target": {"parts"}, "note_no_target": set(), "note_sheet": {"parts"},
    "no_company": set(), "ask_company": {"items"}, "ask_period_year": {"company", "period", "items", "years"},
    "not_found_report": {"company", "year"},
    "not_found_value": {"company", "year", "item"},
    "not_found_prev": {"company", "year", "item", "name"},
    "no_year": {"company", "year"},
    "not_understood": set(),
    "not_computable": {"company", "year", "name", "reason"},
    "lookup_years": {"company", "parts"},
    "years_average": {"years", "item", "value"},
    "years_total": {"years", "item", "value"},
    "years_cagr": {"years", "item", "value", "last", "first", "n"}, "years_cagr_none": {"years", "item"}, "years_cagr_missing": {"years", "item", "missing"},
    "interpretation": {"notes"},
    "change_amount": {"company", "year", "item", "base", "verb", "amount", "signed_amount", "rate", "parts"},
    "change_rate": {"company", "year", "item", "base", "verb", "amount", "signed_amount", "rate", "parts"},
    "change_part": {"when", "value"},
    "change_rate_printed": {"company", "year", "item", "base", "rate", "value", "base_year"},
    "change_printed_label": {"item"},
    "change_times": {"company", "year", "item", "base_year", "times", "ratio", "parts"},
    "change_times_base": {"year", "value"},
    "change_rate_said": {"rate"},
    "change_up_rate": set(), "change_down_rate": set(), "change_up_amount": set(), "change_down_amount": set(), "change_down_by": {"rate"},
    "change_base_opening": set(), "change_base_year": {"year"}, "change_when_closing": set(),
    "change_when_opening": set(), "change_points": {"points"},
    "change_points_rate": {"company", "year", "item", "base", "verb", "amount", "rate", "parts"}, "change_basis_points": {"bp"}, "change_when_year": {"year"}, "change_zero_base": set(),
    "note_negative_base": set(), "note_printed_rate": set(), "note_opening": {"year", "report", "column"}, "note_opening_column": set(),
    "note_closing_column": set(), "note_previous_column": {"year", "report"}, "note_restated_column": {"year", "report"},
    "note_summary_column": {"year", "report"}, "note_input_previous": {"label", "report"},
    "note_unit": {"unit", "approx", "places"}, "note_approx": set(), "note_unit_not_amount": {"items", "unit"}, "note_spelled": {"words"}, "note_printed": {"item", "value", "page"}, "note_printed_series": {"item", "expr", "printed", "points"},
    "declined": {"words", "understood"},
    "parent_scope": {"company", "word"}, "parent_note": set(), "parent_scope_across": {"word"},
    "opening_flow": {"item", "word"},
    "not_chinese": set(),
    "empty": set(),
    "followup_took": {"parts"}, "followup_which": {"companies"}, "followup_which_year": {"years", "word"},
    "bad_line": {"reason"},
    "text_answer": {"company", "year", "section", "page", "excerpt"},
    "subsidiary_answer": {"name", "parent", "year", "where", "page", "item", "value"},
    "subsidiary_which": {"name", "companies"},
    "subsidiary_which_one": {"names", "company"}, "subsidiary_unknown": {"name", "parent", "year"},
    "subsidiary_near": {"name", "names", "company"},
    "subsidiary_unread": {"name", "parent", "year", "item"},
    "cell_answer": {"company", "year", "table", "page", "cells"},
    "cell_unnamed": {"company", "year", "table", "page", "labels", "cells"},
    "stated_answer": {"company", "year", "section", "values", "quotes"},
    "disclosure_quote": {"text", "page"},
    "disclosure_filter": {"year", "item", "value", "n", "examples", "total"},
    "text_yes": {"company", "year", "section", "page", "excerpt"},
    "text_no": {"company", "year", "section", "page", "excerpt"},
    "text_not_applicable": {"company", "year", "section", "page"},
    "text_not_found": {"company", "year", "topic"},
    "subsidiary_each": {"company", "year", "where", "page", "item", "parts"}, 
    "distribution": {"company", "year", "parts", "sentence", "page"}, "distribution_none": {"company", "year"},
    "distribution_cash": {"value", "tax"}, "distribution_cash_share": {"value", "tax"}, "distribution_cash_none": set(), "distribution_cash_unsaid": set(),
    "distribution_bonus": {"value"}, "distribution_bonus_none": set(), "distribution_bonus_unsaid": set(),
    "distribution_transfer": {"value"}, "distribution_transfer_none": set(), "distribution_transfer_unsaid": set(),
    "distribution_total": {"value"}, "distribution_shares_yes": set(), "distribution_shares_no": set(),
    "distribution_shares_total": {"kind", "value"}, "distribution_shares_total_unsaid": {"kind"},
    "text_no_text": {"company", "year"},
    "open_unavailable": set(),
    "open_formula": {"name", "expr"}, "open_definition": {"term", "definition"},
    "open_refused": set(),
    "plan_part": {"n", "answer"}, "plan_same": {"n", "same"}, "plan_unanswered": {"n", "words", "reason"},
    "plan_compare": {"n", "winner", "order", "parts"},
    "plan_compare_tie": {"n", "order", "parts"}, "plan_compare_missing": set(), "chain_company": {"company", "answer"}, "chain_no_set": set(), "chain_pick": {"item", "order", "winner", "parts"}, "chain_pick_unread": {"companies", "item"}, "chain_pick_nothing": set(), "chain_pick_none": {"item"}, "chain_pick_no_fall": {"item", "parts"}, "chain_each_nothing": set(), "chain_explain_nothing": set(), "stand_in": {"asked", "given", "holds"}, "restated_clash": {"words"}, "doubt": {"item", "check", "left", "right", "pages"}, "blank_line": {"item", "statement", "page"}, "plan_not_applicable": {"value"}, "plan_share": {"part", "whole", "value", "a", "b"},
    "rank_fewer": {"year", "item", "n"}, "series_head": {"company"}, "series": {"item", "span", "points"}, "series_point": {"year", "value"},
    "series_change": {"change"}, "series_by_rate": {"verb", "rate", "amount"}, "series_by_amount": {"verb", "amount"},
    "series_by_points": {"verb", "points"}, "series_up_points": set(), "series_down_points": set(),
    "series_trend": {"shape", "whole"}, "series_whole": {"first", "last", "change"}, "series_rising": set(),
    "series_falling": set(), "series_up_down": set(), "series_down_up": set(), "series_mixed": set(),
    "series_flat": set(), "series_missing": {"years", "item"}, "series_none": {"company", "span", "item"},
    "series_counted": {"word", "year", "span"}, "series_every": {"span"},
    "review_declined": {"reason", "understood"}, "report_row": {"word", "table", "page", "understood"}, "review_yes_no": set(), "review_topic": {"topic"}, "review_item": {"word", "row"}, "review_role": {"item"}, "listed_unanswered": {"words"}, "review_two_periods": {"column"}, "review_entity": {"entity"}, "review_quote": {"words"}, "review_not_yes_no": set(), "review_name_not_number": set(), "review_name_attribute": set(), "review_computed": set(), "review_change": set(), "review_count": {"unit"}, "review_year": {"found", "asked"}, "review_untraced": {"count"}, "review_kind": {"asked", "given"}, "review_per_share": {"asked", "given"}, "review_rank": {"word"},
}


def placeholders(text: str) -> set[str]:
    """The {names} a template or prompt uses; ValueError when one is malformed."""
    return {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}


def unknown_placeholders(unknown: set[str], allowed: set[str]) -> str:
    return (f"unknown placeholder(s) {', '.join('{' + u + '}' for u in sorted(unknown))} "
            f"(allowed: {', '.join(sorted(allowed)) or 'none'})")


def load_templates(path: Path) -> dict[str, str]:
    """rules/answer_templates.yaml: every template of PLACEHOLDERS, each using only its placeholders."""
    data = load_rules_yaml(path)
    if not isinstance(data, LDict):   # load_rules_yaml reads every mapping as an LDict
        raise RuleError(path, 1, "expected a mapping template name → sentence")
    lines = data.key_lines
    for name in PLACEHOLDERS:
        if name not in data:
            raise RuleError(path, 1, f"missing template {name!r}")
    for name, text in data.items():
        line = lines.get(name, 1)
        if name not in PLACEHOLDERS:
            raise RuleError(path, line, f"unknown template {name!r}")
        if not isinstance(text, str):
            raise RuleError(path, line, f"template {name!r} must be a string")
        try:
            used = placeholders(text)
        except ValueError as exc:
            raise RuleError(path, line, f"template {name!r}: {exc}") from None
        unknown = used - PLACEHOLDERS[name]
        if unknown:
            raise RuleError(path, line, f"template {name!r}: {unknown_placeholders(unknown, PLACEHOLDERS[name])}")
    return {k: str(v) for k, v in data.items()}
