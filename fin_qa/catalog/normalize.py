"""How questions and phrases are compared: half-width brackets and digits, no spaces."""
from __future__ import annotations

_WIDTH = str.maketrans({"（": "(", "）": ")", "　": "", " ": "", "\t": "", "＊": "*", "，": ",", "？": "?",
                        "：": ":", "；": ";", "！": "!", "－": "-", "—": "-", "～": "~"})
_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")


def normalize_question(text: str) -> str:
    """Half-width brackets and digits, no spaces: the form every matcher sees."""
    return text.translate(_WIDTH).translate(_DIGITS).strip()


def phrase_key(text: str) -> str:
    """How phrases and questions are compared: half-width, no spaces, no 的."""
    return normalize_question(text).replace("的", "")
