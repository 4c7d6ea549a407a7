"""How questions and phrases are compared: half-width brackets, digits and letters, no spaces."""
from __future__ import annotations

import re
from functools import lru_cache

_WIDTH = str.maketrans({"（": "(", "）": ")", "　": "", " ": "", "\t": "", "＊": "*", "，": ",", "？": "?",
                        "：": ":", "；": ";", "！": "!", "－": "-", "—": "-", "–": "-", "～": "~"})
# full-width letters as printed in names (万科Ａ, ＳＴ): compared as the ASCII a user types
_WIDTH.update(str.maketrans({chr(0xFF21 + i): chr(0x41 + i) for i in range(26)}))
_WIDTH.update(str.maketrans({chr(0xFF41 + i): chr(0x61 + i) for i in range(26)}))
_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")
_BOTH: dict[int, int | str | None] = {**_WIDTH, **_DIGITS}   # (neither maps a character the other maps to)


# a quarter written as its code ("Q4营收", "2025年q3"): the quarter's name every rule reads (第四季度); a span of
# them from the first the span's name (Q1-Q2 上半年, Q1-Q3 前三季度, Q1-Q4 全年) — another span (Q2-Q3) each end's name,
# as the periods' rules read two quarters asked
_QUARTER_CODE = re.compile(r"(?<![A-Za-z])[Qq]([1-4])(?![0-9A-Za-z])")
_QUARTER_SPAN = re.compile(r"(?<![A-Za-z])[Qq]([1-4])\s*[-—–~至到]\s*[Qq]?([1-4])(?![0-9A-Za-z])")
_QUARTER_NAME = {"1": "第一季度", "2": "第二季度", "3": "第三季度", "4": "第四季度"}
_SPAN_NAME = {("1", "2"): "上半年", ("1", "3"): "前三季度", ("1", "4"): "全年"}


_NUMBER_GAP = re.compile(r"(?<=[0-9０-９])[ \u3000\t]+(?=[0-9０-９])")
# a year's two digits with its period's code right after them ("24Q3", "23H1")
_CODED_YEAR = re.compile(r"(?<![0-9A-Za-z])([0-3][0-9])(?=[HQ][1-4](?![0-9]))")
# a space typed for the comma after an ask ("…现金流净额多少 上年同期是多少"): a comma, the asks cut there as written
_ASK_GAP = re.compile(r"(?<=多少|多大|是谁|什么)[ \u3000\t]+(?=[\u4e00-\u9fff])")


# YoY (同比), QoQ (环比), as analysts type them
_ON_THE_PERIOD = re.compile(r"(?<![A-Za-z])(?:(YoY|yoy|YOY|Yoy)|QoQ|qoq|QOQ|Qoq)(?![A-Za-z])")


@lru_cache(maxsize=4096)
def normalize_question(text: str) -> str:
    """Half-width brackets, digits and letters, no spaces, a quarter's code (Q4) as its name (第四季度): the form
    every matcher sees (a question is normalised by several matchers: once)."""
    if " " in text or "\u3000" in text or "\t" in text:
        # two numbers a space sets apart stay apart ("600519 25年": a code, then a year — not 60051925)
        text = _ASK_GAP.sub("，", _NUMBER_GAP.sub("\x00", text))
        s = text.translate(_BOTH).strip().replace("\x00", " ")
    else:
        s = text.translate(_BOTH).strip()
    if "Q" in s or "H" in s:
        s = _CODED_YEAR.sub(r"20\1年", s)   # (24Q3, 23H1: the year written out before its period's code)
    if "o" in s or "O" in s:
        s = _ON_THE_PERIOD.sub(lambda m: "同比" if m.group(1) else "环比", s)   # (YoY 同比, QoQ 环比)
    return quarter_names(s) if "q" in s or "Q" in s else s


def quarter_names(s: str) -> str:
    """A text with each quarter's code (Q4) written as its name (第四季度), a span from the first (Q1-Q3) as the span's
    (前三季度); the tables' labels too (answer/tables.py norm)."""
    def span(m: re.Match) -> str:
        name = _SPAN_NAME.get((m.group(1), m.group(2)))
        return name if name is not None else f"{_QUARTER_NAME[m.group(1)]}、{_QUARTER_NAME[m.group(2)]}"
    return _QUARTER_CODE.sub(lambda m: _QUARTER_NAME[m.group(1)], _QUARTER_SPAN.sub(span, s))


def half_width_digits(text: str) -> str:
    """０-９ as 0-9, nothing else changed (report text keeps its spaces and punctuation)."""
    return text.translate(_DIGITS)


def phrase_key(text: str) -> str:
    """How phrases and questions are compared: half-width, no spaces, no 的."""
    return normalize_question(text).replace("的", "")
