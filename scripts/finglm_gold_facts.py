"""Build a facts table (CSV for `fin-qa import-tables`) from the raw values a FinGLM answer file carries.

Each labelled answer's `prompt` holds the values its gold answer was computed from: `营业收入`,
`上年营业收入` (the previous year), `2019年法定代表人` (that year). One row per company-year, one column
per field; stock codes come from the contest's report list when the company is in it. Importing this
table and answering the round measures understanding alone (company, year, item, formula, rounding),
independent of extraction.

    python scripts/finglm_gold_facts.py ../shared/data/finglm/A-list-answer.json -o out/gold_facts.csv \
        [--reports-list ../shared/data/finglm/reports_list.csv]
"""
from __future__ import annotations

import argparse
import csv
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from fin_qa.catalog import Catalog  # noqa: E402

META = {"ent_short_name", "ent_name", "year", "key_word", "prom_answer", "公式"}


def codes_from_list(path: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    if path and path.is_file():
        names = Catalog.shipped().report_names
        for line in path.read_text(encoding="utf-8").splitlines():
            key = names.key_of(line)
            if key:
                out[key[0]] = key[1]
    return out


def build(answer_file: Path, codes: dict[str, str]) -> tuple[list[str], list[dict]]:
    rows: dict[tuple[str, int], dict] = defaultdict(dict)
    columns: dict[str, None] = {}
    for line in answer_file.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        p = rec.get("prompt") or {}
        name, short, year = p.get("ent_name"), p.get("ent_short_name"), p.get("year")
        if not (name and year):
            continue
        for key, value in p.items():
            if key in META or value in (None, ""):
                continue
            y = int(year)
            m = re.match(r"^(\d{4})年(.+)$", key)
            if m:
                y, key = int(m.group(1)), m.group(2)
            elif key.startswith("上年"):
                y, key = y - 1, key[2:]
            row = rows[(name, y)]
            row.setdefault("股票简称", short)
            if key == "证券代码":
                row["股票代码"] = str(value)
                continue
            if key == "证券简称":
                row["股票简称"] = str(value) or short
                continue
            row[key] = str(value)
            columns[key] = None
    out = []
    for (name, year), values in sorted(rows.items()):
        code = values.pop("股票代码", None) or codes.get(name, "")
        out.append({"股票代码": code, "公司名称": name, "股票简称": values.pop("股票简称", ""), "年份": year, **values})
    return ["股票代码", "公司名称", "股票简称", "年份", *columns], out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("answers", type=Path)
    ap.add_argument("-o", "--output", type=Path, required=True)
    ap.add_argument("--reports-list", type=Path, default=None, help="FinGLM reports_list.csv, for stock codes")
    args = ap.parse_args(argv)
    cols, rows = build(args.answers, codes_from_list(args.reports_list))
    args.output.parent.mkdir(parents=True, exist_ok=True)
    with open(args.output, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=cols)
        w.writeheader()
        w.writerows(rows)
    print(f"{len(rows)} company-years, {len(cols) - 4} fields → {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
