"""A SQLite file of plain tables written whole (`fin-qa export --schema teddy`): not a store — each table created
with its columns' types and filled, the file written beside its path and moved into place when complete."""
from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def write_tables_file(path: Path, tables: Mapping[str, tuple[Sequence[tuple[str, str]], Sequence[Sequence[Any]]]]) -> None:
    """Each table: (its (column, SQL type) pairs, its rows in that order). A half-written file never stands at
    `path`."""
    tmp = path.with_name(path.name + ".part")
    tmp.unlink(missing_ok=True)
    db = sqlite3.connect(tmp)
    try:
        with db:
            for name, (columns, rows) in tables.items():
                db.execute(f'CREATE TABLE "{name}" ({", ".join(f"{c} {t}" for c, t in columns)})')
                db.executemany(f'INSERT INTO "{name}" VALUES ({", ".join("?" for _ in columns)})', rows)
    finally:
        db.close()
    tmp.replace(path)
