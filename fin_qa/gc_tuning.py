"""The garbage collector set for a process that answers many questions (fin-qa batch, serve).

Answering builds many small, short-lived containers (a table's words worked out, a question's pieces),
and the engine holds many long-lived ones (the catalog, the company names, the reports' tables read).
CPython's default collector runs its youngest generation every 700 allocations and its oldest one
through every object the engine holds. Measured on the shared reports' paraphrases in one cold pass
(`scripts/bench_answer.py`, `fin-qa batch`): about 15% of the time. So, once the engine is built:

- what it holds is collected once and frozen (gc.freeze): later collections never walk it again (an
  engine built again — serve, after the store changed — unfreezes first, so the old one is freed);
- the youngest generation is collected every 50,000 allocations, not 700 (answers make few cycles;
  they are freed by reference counting).
"""
from __future__ import annotations

import gc

THRESHOLD = (50_000, 20, 20)


def for_answering() -> None:
    """Collect, freeze what the process holds now, and collect less often from here on."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLD)
