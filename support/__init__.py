"""Small pieces every Hearth package may use: durable file writes, telling a SQLite database
from other files, reading a small text file without hanging, checking a URL and a secret bound
for an HTTP header, looking a host's name up and connecting within a deadline, and the named
failpoints.

A leaf: it imports nothing of Hearth's, so ``audio``, ``memory``, ``assistant`` and ``config``
can all use it without bending the import direction (``audio`` and ``memory`` may not import each
other, and ``config`` should not grow file-writing or fault-injection code that is not settings).
"""

from support.atomic_write import write_atomically
from support.failpoints import (
    ENVIRONMENT_VARIABLE,
    Failpoint,
    FailpointError,
    Failpoints,
)
from support.http_header import NOT_ONE_WORD, header_safe
from support.name_lookup import connect_within, look_up
from support.regular_file import NotARegularFile, require_regular_file
from support.sqlite_file import LARGEST_ID, SQLITE_HEADER, holds_sqlite_database
from support.text_file import read_text_file
from support.url_check import shown_url, url_problem

__all__ = [
    "ENVIRONMENT_VARIABLE",
    "LARGEST_ID",
    "NOT_ONE_WORD",
    "SQLITE_HEADER",
    "Failpoint",
    "FailpointError",
    "Failpoints",
    "NotARegularFile",
    "connect_within",
    "header_safe",
    "holds_sqlite_database",
    "look_up",
    "read_text_file",
    "require_regular_file",
    "shown_url",
    "url_problem",
    "write_atomically",
]
