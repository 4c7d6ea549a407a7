"""keyword_tables/places.yaml: provinces with their cities, and whether an address lies in a place.

"注册在广东的公司" must count a company at "深圳市南山区…" (a city of 广东) and must not count one at
"上海市中山南路…" for "在中山注册" (a road named after a city) nor "北京市朝阳区" for 辽宁 (朝阳 is also a
city of 辽宁): a name counts unless a road word follows it or it is another city's 区/县.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .yamlfile import LDict, RuleError, line_of, load_rules_yaml


@dataclass
class Places:
    provinces: dict[str, tuple[str, ...]] = field(default_factory=dict)   # province → its cities
    # a place name followed by a road word is a street (上海市中山南路, 荆州市北京东路, 威海市青岛中路)
    street: re.Pattern = re.compile(r"[东南西北中]?(?:路|街|大街|大道|巷|弄)")
    # after another city's name and followed by 区/县 it is that city's district (北京市朝阳区, 大连市中山区)
    district: re.Pattern = re.compile(r"(?:区|县)")

    def names(self, place: str) -> list[str]:
        """The names an address may use for a place: itself, and a province's cities."""
        return [place, *self.provinces.get(place, ())]

    def holds(self, address: str, place: str) -> bool:
        """Whether the address lies in the place (a province or a city): a name of it that is not a street
        and not another city's district. Addresses come in every form ("中国（四川）自由贸易试验区成都高新区",
        "新疆乌鲁木齐高新…", a stray "公司注册地址" before them), so the name is looked for anywhere."""
        address = address or ""
        for name in self.names(place):
            for m in re.finditer(re.escape(name), address):
                i, j = m.start(), m.end()
                if self.street.match(address, j):
                    continue
                if address[i - 1:i] == "市" and self.district.match(address, j):
                    continue
                return True
        return False


def load_places(path: Path) -> Places:
    """keyword_tables/places.yaml → Places; a city listed under two provinces is a file:line problem."""
    if not path.is_file():
        return Places()
    data = load_rules_yaml(path)
    provinces = data.get("provinces") if isinstance(data, LDict) else None
    if not isinstance(provinces, LDict) or not provinces:
        raise RuleError(path, line_of(data), "expected `provinces:` — province → [its cities]")
    out: dict[str, tuple[str, ...]] = {}
    seen: dict[str, str] = {}
    for prov, cities in provinces.items():
        line = provinces.key_lines.get(prov, 1)
        if cities is None:
            cities = []
        if not isinstance(cities, list) or not all(isinstance(c, str) and c for c in cities):
            raise RuleError(path, line, f"{prov}: a list of city names")
        for c in [prov, *cities]:
            if c in seen and not (c == prov and seen[c] == prov):
                raise RuleError(path, line, f"{c!r} is listed under {seen[c]} too")
            seen[c] = str(prov)
        out[str(prov)] = tuple(cities)
    places = Places(out)
    for key in ("street", "district"):
        if key in data:
            try:
                setattr(places, key, re.compile(str(data[key])))
            except re.error as exc:
                raise RuleError(path, data.key_lines.get(key, 1), f"{key}: bad regex {data[key]!r}: {exc}") from None
    return places
