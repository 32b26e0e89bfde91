"""Damage done to a SQLite memory file as a failing disk or a stray write would do it."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path


def scribble_over(path: Path, index: str) -> None:
    """Overwrite the root page of one index, as a failing disk or a stray write would."""
    with sqlite3.connect(path) as raw:
        root = raw.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (index,))
        page = root.fetchone()[0]
        size = raw.execute("PRAGMA page_size").fetchone()[0]
    raw.close()
    data = bytearray(path.read_bytes())
    data[(page - 1) * size + 8 : page * size] = b"\xa5" * (size - 8)
    path.write_bytes(bytes(data))


def scribble_over_a_leaf(path: Path, table: str) -> None:
    """Overwrite one leaf page in the middle of a table, as a failing SD card would."""
    with closing(sqlite3.connect(path)) as raw:
        leaves = [page for (page,) in raw.execute(
            "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY path",
            (table,))]  # fmt: skip
        size = raw.execute("PRAGMA page_size").fetchone()[0]
    assert len(leaves) >= 3, "the table must span several pages for a page in its middle"
    page = leaves[len(leaves) // 2]
    data = bytearray(path.read_bytes())
    data[(page - 1) * size : page * size] = b"\xa5" * size
    path.write_bytes(bytes(data))
