"""Numbers as printed in reports: thousands separators, negatives, empty markers, units."""
from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

# "1,234.56", "-1,234.56", "(1,234.56)", "（1,234.56）", "－1,234.56", "1234", "12.5%"
_NUM_RE = re.compile(
    r"^(?P<open>[\(（])?\s*(?P<sign>[-－—–−])?\s*"
    r"(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?P<frac>\.\d+)?\s*(?P<close>[\)）])?\s*(?P<pct>[%％])?$"
)
EMPTY_MARKERS = {"-", "--", "—", "——", "－", "－－", "–", "/", "不适用", "无", "n/a", "N/A", "—-", "-—"}

UNIT_FACTORS = {
    "元": Decimal(1),
    "千元": Decimal(1000),
    "万元": Decimal(10000),
    "百万元": Decimal(1000000),
    "亿元": Decimal(100000000),
}
# "单位：元", "单位:千元", "金额单位：人民币万元", "(除特别注明外，金额单位均为人民币百万元)"
_UNIT_RE = re.compile(r"(?:金额)?单位\s*(?:均为|为)?\s*[:：]?\s*(?:人民币)?\s*(百万元|千元|万元|亿元|元)")


def parse_number(text: str) -> Decimal | None:
    """Parse one printed number; None when the text is not a number (or is an empty marker)."""
    s = text.strip().replace(" ", "").replace("\u3000", "")
    if not s or s in EMPTY_MARKERS:
        return None
    m = _NUM_RE.match(s)
    if not m:
        return None
    if bool(m.group("open")) != bool(m.group("close")):
        return None
    try:
        value = Decimal(m.group("int").replace(",", "") + (m.group("frac") or ""))
    except InvalidOperation:  # pragma: no cover - the regex admits only digits
        return None
    if m.group("sign") or m.group("open"):
        value = -value
    return value


_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_CN_SMALL = {"十": 10, "百": 100, "千": 1000}
_CN_BIG = {"万": 10 ** 4, "亿": 10 ** 8}


def cn_number(text: str) -> Decimal | None:
    """A number written in digits or Chinese numerals: "5" → 5, "1.5" → 1.5, "两" → 2, "三千万" → 30000000,
    "十亿" → 10^9, "一百二十" → 120; None when it is neither."""
    if re.fullmatch(r"[0-9.]+", text):
        try:
            return Decimal(text)
        except InvalidOperation:
            return None
    total, section, digit = 0, 0, None
    for ch in text:
        if ch in _CN_DIGITS:
            digit = _CN_DIGITS[ch]
        elif ch in _CN_SMALL:
            section += (digit if digit is not None else 1) * _CN_SMALL[ch]
            digit = None
        elif ch in _CN_BIG:
            section += digit or 0
            total = (total + section) * _CN_BIG[ch]
            section, digit = 0, None
        else:
            return None
    return Decimal(total + section + (digit or 0))


def is_number(text: str) -> bool:
    return parse_number(text) is not None


def is_empty_marker(text: str) -> bool:
    return text.strip() in EMPTY_MARKERS


def find_unit(text: str) -> str | None:
    """The amount unit declared in a line of text ("单位：万元" → "万元"), or None."""
    m = _UNIT_RE.search(text.replace(" ", ""))
    return m.group(1) if m else None


def to_yuan(value: Decimal, unit: str) -> Decimal:
    return value * UNIT_FACTORS.get(unit, Decimal(1))


def decimal_str(value: Decimal) -> str:
    """A canonical string for a Decimal: no exponent, trailing zeros of the fraction removed."""
    s = format(value, "f")
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


# Scale words of amounts as questions write them (10亿元, 约多少万元, 超过1千亿): word → factor.
SCALES = {"": 1, "千": 10 ** 3, "万": 10 ** 4, "十万": 10 ** 5, "百万": 10 ** 6, "千万": 10 ** 7, "亿": 10 ** 8,
          "十亿": 10 ** 9, "百亿": 10 ** 10, "千亿": 10 ** 11}
