"""Whether a file is a SQLite database: no export, recording or log may be written over one."""

from __future__ import annotations

from pathlib import Path

SQLITE_HEADER = b"SQLite format 3\x00"
"""The first bytes of every SQLite database file."""
LARGEST_ID = 2**63 - 1
"""SQLite's (and PostgreSQL's bigint's) largest integer: no row can have a larger id, and asking
for one overflows the driver."""


def holds_sqlite_database(path: Path) -> bool:
    """Whether ``path`` is a regular file that begins as a SQLite database does."""
    if not path.is_file():
        return False  # a FIFO would block the read; a folder or nothing holds no database
    try:
        with path.open("rb") as handle:
            return handle.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False  # unreadable: writing it will say why
