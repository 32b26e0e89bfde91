"""Small pieces every Hearth package may use: durable file writes, telling a SQLite database
from other files, checking a URL, and the named failpoints.

A leaf: it imports nothing of Hearth's, so ``audio``, ``memory``, ``assistant`` and ``config``
can all use it without bending the import direction (``audio`` and ``memory`` may not import each
other, and ``config`` should not grow file-writing or fault-injection code that is not settings).
"""

from support.atomic_write import NotARegularFile, write_atomically
from support.failpoints import (
    ENVIRONMENT_VARIABLE,
    Failpoint,
    FailpointError,
    Failpoints,
)
from support.sqlite_file import LARGEST_ID, SQLITE_HEADER, holds_sqlite_database
from support.url_check import url_problem

__all__ = [
    "ENVIRONMENT_VARIABLE",
    "LARGEST_ID",
    "SQLITE_HEADER",
    "Failpoint",
    "FailpointError",
    "Failpoints",
    "NotARegularFile",
    "holds_sqlite_database",
    "url_problem",
    "write_atomically",
]
