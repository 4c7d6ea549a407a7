"""rules/report_names.yaml: the FinGLM report-name pattern (company, code, short name, year in a file name)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .yamlfile import LDict, RuleError, load_rules_yaml

GROUPS = {"full", "code", "short", "year"}


@dataclass(frozen=True)
class ReportNames:
    finglm: re.Pattern      # a report anywhere in a line (report lists, --scope files)
    file_name: re.Pattern   # a FinGLM file name: the publish date, then finglm

    def key_of(self, line: str) -> tuple[str, str, str, int] | None:
        """(full name, code, short name, year) of a report a line names, or None."""
        m = self.finglm.search(line)
        return (m.group("full"), m.group("code"), m.group("short"), int(m.group("year"))) if m else None


def load_report_names(path: Path) -> ReportNames:
    data = load_rules_yaml(path)
    if not isinstance(data, LDict) or "finglm" not in data:   # every mapping read is an LDict
        raise RuleError(path, 1, "expected `finglm:` — a regex with groups full, code, short, year")
    lines = data.key_lines
    pats = {}
    for key in ("finglm", "date_prefix"):
        try:
            pats[key] = re.compile(str(data.get(key) or ""))
        except re.error as exc:
            raise RuleError(path, lines.get(key, 1), f"{key}: bad regex: {exc}") from None
    missing = GROUPS - set(pats["finglm"].groupindex)
    if missing:
        raise RuleError(path, lines.get("finglm", 1), f"finglm: missing named group(s) {', '.join(sorted(missing))}")
    if "date" not in pats["date_prefix"].groupindex:
        raise RuleError(path, lines.get("date_prefix", 1), "date_prefix: needs a named group date")
    return ReportNames(pats["finglm"], re.compile(pats["date_prefix"].pattern + pats["finglm"].pattern))
