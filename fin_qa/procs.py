"""Helpers for the processes fin-qa forks (serve --processes, batch --workers)."""
from __future__ import annotations

import signal
import sys


def die_with_parent(sig: int = signal.SIGTERM) -> None:
    """On Linux, this process is sent `sig` when the process that forked it dies (no orphan keeps an
    address, a lock or a pipe); elsewhere nothing is done."""
    import ctypes

    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, int(sig))   # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
