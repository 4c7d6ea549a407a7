"""The raw values in the FinGLM round-A gold answers for the shared reports must match the store."""
import json
import re
from decimal import Decimal

import pytest

from conftest import FINGLM, fact, needs_shared

SHORTS = {"四方科技", "生物股份", "安靠智电"}
# the gold's key words → the item names fin-qa stores
ALIASES = {"职工总数": "在职员工的数量合计"}


def gold_values():
    path = FINGLM / "A-list-answer.json"
    if not path.is_file():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        p = d["prompt"]
        if p.get("ent_short_name") not in SHORTS or d["type"] == "3-1":
            continue
        year = int(p["year"])
        for key in p.get("key_word", "").split("、"):
            raw = p.get(key)
            if not raw or key.startswith("上年"):
                continue
            m = re.match(r"^(\d{4})年(.+)$", key)
            k_year, item = (int(m.group(1)), m.group(2)) if m else (year, key)
            out.append((d["id"], p["ent_short_name"], k_year, ALIASES.get(item, item), raw))
    return out


CASES = gold_values()


@needs_shared
@pytest.mark.skipif(not CASES, reason="../shared/data/finglm/A-list-answer.json is absent")
def test_there_are_gold_values():
    assert len(CASES) >= 7


@needs_shared
@pytest.mark.parametrize("qid,short,year,item,raw", CASES, ids=[f"{c[0]}-{c[3]}" for c in CASES])
def test_gold_raw_value(shared_store, qid, short, year, item, raw):
    reports = {(r["short_name"], r["year"]) for r in shared_store.reports()}
    if (short, year) not in reports:
        pytest.skip(f"{short} {year} is not among the shared reports (the gold spans 2019-2021)")
    f = fact(shared_store, short, item)
    if raw.endswith("元"):
        assert Decimal(f["value"]) == Decimal(raw[:-1])
    else:
        assert f["value"] == raw
