"""Answer sentences from rules/answer_templates.yaml, and how numbers are printed.

Styles: `human` (149,399,000.00元; 10.04%; 0.36) and `finglm` (the contest's printing: amounts as
Python prints a float, 149399000.0元). Rounding is ROUND_HALF_UP on Decimal.
"""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from ..numbers import SCALES

STYLES = ("human", "finglm")


def render(templates: dict[str, str], template: str, **values) -> str:
    return templates[template].format(**values)


# ------------------------------------------------------------------------------------ numbers

def round_half_up(d: Decimal, decimals: int) -> Decimal:
    return d.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


def _plain(d: Decimal) -> str:
    s = format(d, "f")
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def float_str(d: Decimal) -> str:
    """The number as Python prints a float (149399000.0, 786054.8) — the contest's printing."""
    return repr(float(d))


def format_amount(d: Decimal, style: str, unit: str = "元") -> str:
    if style == "finglm":
        return float_str(d) + unit
    exponent = d.as_tuple().exponent
    if not isinstance(exponent, int):   # NaN or infinity ('n', 'N', 'F'): no digits to print
        raise TypeError(f"not a finite amount: {d}")
    q = d if exponent < -2 else round_half_up(d, 2)
    return f"{q:,}" + unit


def format_value(value: str | Decimal, kind: str, style: str, unit: str | None = None) -> str:
    """A looked-up value as the answer prints it. kind: amount | per_share | count | percent | text."""
    if kind == "text":
        return str(value)
    d = value if isinstance(value, Decimal) else Decimal(str(value))
    if kind == "amount" and (unit in (None, "元")):
        return format_amount(d, style)
    if kind == "per_share":  # 元/股, or a disclosure's own unit (每10股转增 3股)
        return (float_str(d) if style == "finglm" else _plain(d)) + (unit if unit in ("股", "元") else "元")
    if kind == "count":
        return _plain(d) + ("" if style == "finglm" else unit or "人")   # (人 of a head count, 户 of shareholders)
    if kind == "percent":
        return _plain(d) + "%"
    return _plain(d) + (unit or "")


def format_result(d: Decimal, output: str, decimals: int, style: str) -> str:
    """A computed value: ratio 0.36, percent 10.04%, amount 元, per_share 元."""
    if output == "percent":
        return f"{round_half_up(d * 100, decimals)}%"
    if output == "ratio":
        return str(round_half_up(d, decimals))
    if output == "count":
        return _plain(round_half_up(d, decimals)) + ("" if style == "finglm" else "人")
    r = round_half_up(d, decimals)
    if output == "amount":
        return (float_str(r) + "元") if style == "finglm" else f"{r:,}元"
    return (float_str(r) if style == "finglm" else str(r)) + "元"




def format_scaled(d: Decimal, unit: str, decimals: int | None, style: str) -> str:
    """An amount in 元 printed in the unit a question asked for (万元, 亿元 …), rounded to the decimals
    asked (2 when not said): 903236584.52 in 亿 → 9.03亿元."""
    r = round_half_up(d / SCALES[unit], 2 if decimals is None else decimals)
    return (f"{r}" if style == "finglm" else f"{r:,}") + f"{unit}元"


def signed(text: str, d: Decimal) -> str:
    """A printed number with its sign made explicit (+1,234.00元, -5.67%)."""
    return text if d < 0 or text.startswith("-") else "+" + text
