"""Progress of long commands on stderr: a tqdm bar on a terminal; in a log (not a terminal), a plain
line now and then ("batch: 120/2000 q (6%), 3.1 s") instead of a stream of bar frames."""
from __future__ import annotations

import os
import sys
import time
from typing import Any


class Progress:
    def __init__(self, total: int, unit: str, label: str, quiet: bool = False, every_s: float | None = None):
        self.total, self.unit, self.label = total, unit, label
        self.done = 0
        self.postfix: dict[str, Any] = {}
        self.t0 = self.last = time.perf_counter()
        self.every_s = every_s if every_s is not None else _every()
        self.bar = None
        self.plain = not quiet and total > 0 and not _isatty()
        if not quiet and total > 0 and not self.plain:
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit=unit, file=sys.stderr, dynamic_ncols=True)

    def update(self, n: int = 1, **postfix: Any) -> None:
        self.done += n
        self.postfix.update(postfix)
        if self.bar is not None:
            self.bar.update(n)
            if postfix:
                self.bar.set_postfix(**self.postfix)
        elif self.plain:
            now = time.perf_counter()
            if now - self.last >= self.every_s:
                self.last = now
                self._line(now)

    def _line(self, now: float) -> None:
        more = "".join(f", {v} {k}" for k, v in self.postfix.items())
        pct = 100 * self.done / self.total if self.total else 100.0
        print(f"{self.label}: {self.done}/{self.total} {self.unit} ({pct:.0f}%){more}, {now - self.t0:.1f} s",
              file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.plain and self.done and self.last != self.t0:
            self._line(time.perf_counter())   # the last line says where it ended


def _every() -> float:
    """Seconds between two plain lines: $FIN_QA_PROGRESS_SECONDS (default 10)."""
    try:
        return max(0.0, float(os.environ.get("FIN_QA_PROGRESS_SECONDS", "10")))
    except ValueError:
        return 10.0


def _isatty() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def plural(n: int, word: str, many: str | None = None) -> str:
    """"1 report", "2 reports"."""
    return f"{n} {word if n == 1 else (many or word + 's')}"
