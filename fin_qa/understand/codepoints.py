"""Strings as numpy arrays of their code points, for the bounds the fuzzy matchers score with
(entities.py's company fallback, generalize.py's phrases): one array for many names, one mask for a text."""
from __future__ import annotations

import numpy as np


def code_points(text: str) -> np.ndarray:
    """The text's code points (uint32), a lone surrogate as its own."""
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def printed_mask(text: str, top: int) -> np.ndarray:
    """A boolean array over the code points 0..max(top, the text's greatest): True at each the text prints."""
    asked = [ord(c) for c in text]
    printed = np.zeros(max([top, *asked]) + 1, dtype=bool)
    printed[asked] = True
    return printed
