"""What every part of fin-qa shares: its version and the error a user can cause (re-exported by fin_qa)."""

__version__ = "0.1.0"


class FinQAError(Exception):
    """An error a user can cause (bad file, broken rules file, unknown store...).

    The CLI prints its message on one line and exits non-zero; it never shows a traceback.
    """
