"""Where a memory lives: a SQLite file on the device, or a household's PostgreSQL database.

Nothing here talks to a database (nor imports its driver): it tells the two apart, says how to
reach the shared one, and shows its URL without the password, the only form of it that may reach
a message or a log.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from memory.postgres_schema import SCHEMA
from memory.store import StoreError
from support import read_text_file, shown_url

POSTGRES_SCHEMES = ("postgresql", "postgres")
CONNECT_TIMEOUT_SECONDS = 3.0
STATEMENT_TIMEOUT_SECONDS = 10.0
BUSY_TIMEOUT_SECONDS = 5.0
RETRY_SECONDS = 2.0
IDLE_IN_TRANSACTION_SECONDS = 30.0
"""A connection that sits in an open transaction this long (a hung device) is ended by the
server, so the household's writers are never locked out for long."""


def is_postgres_url(location: object) -> bool:
    """Whether a ``memory.database`` / ``--db`` value names a PostgreSQL database (it may still
    be malformed: ``support.url_problem``)."""
    if not isinstance(location, str) or "://" not in location:
        return False
    return location.split("://", 1)[0].strip().lower() in POSTGRES_SCHEMES


@dataclass(frozen=True)
class PostgresTarget:
    """Where the shared database is and how patiently to talk to it."""

    url: str
    """A libpq URL, e.g. ``postgresql://hearth@db.lan/hearth``."""
    password_file: Path | None = None
    """A file holding the password (else libpq's PGPASSWORD, PGPASSFILE or ~/.pgpass)."""
    connect_timeout_seconds: float = CONNECT_TIMEOUT_SECONDS
    statement_timeout_seconds: float = STATEMENT_TIMEOUT_SECONDS
    """The longest a statement may run, and the longest the network may leave a request
    unanswered (TCP), before the call fails."""
    busy_timeout_seconds: float = BUSY_TIMEOUT_SECONDS
    """How long a write waits for another device's write (the lock) before saying "busy";
    shorter than the statement timeout, so a long wait is told as busy, not as unreachable."""
    retry_seconds: float = RETRY_SECONDS
    """After a failed connection attempt, calls fail at once for this long before the next."""

    @property
    def shown(self) -> str:
        """The URL as messages show it (no password)."""
        return shown_url(self.url)

    def scrub(self, text: str, *secrets: str) -> str:
        """A message from the driver with the URL shown and every password in it blanked
        (libpq quotes the part of a URL it cannot parse, password and all)."""
        text = text.replace(self.url, self.shown)
        for secret in sorted({*_url_passwords(self.url), *secrets}, key=len, reverse=True):
            if secret:
                text = text.replace(secret, "***")
        return text

    def connect_arguments(self) -> dict[str, Any]:
        """psycopg's connection arguments beside the URL (each wins over the URL's own)."""
        milliseconds = {
            "statement_timeout": self.statement_timeout_seconds,
            "lock_timeout": self.busy_timeout_seconds,
            "idle_in_transaction_session_timeout": IDLE_IN_TRANSACTION_SECONDS,
        }
        options = " ".join(f"-c {key}={int(value * 1000)}" for key, value in milliseconds.items())
        arguments: dict[str, Any] = {
            "autocommit": True,
            "application_name": "hearth",
            # libpq counts whole seconds and takes at least 2.
            "connect_timeout": max(2, math.ceil(self.connect_timeout_seconds)),
            "keepalives": 1,
            "keepalives_idle": 5,
            "keepalives_interval": 2,
            "keepalives_count": 2,
            "tcp_user_timeout": int(self.statement_timeout_seconds * 1000),
            "options": f"-c search_path={SCHEMA} {options}",
        }
        if self.password_file is not None:
            arguments["password"] = read_password(self.password_file)
        return arguments


def _url_passwords(url: str) -> set[str]:
    """A URL's passwords as written and as meant (percent-decoded)."""
    parts = urlsplit(url)
    found = set()
    if "@" in parts.netloc:
        login = parts.netloc.rsplit("@", 1)[0]
        if ":" in login:
            found.add(login.split(":", 1)[1])
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        if key == "password":
            found.add(value)
    return found | {unquote(secret) for secret in found}


def read_password(path: Path) -> str:
    """The password in a file (its first line); StoreError naming the file, never its content."""
    try:
        text = read_text_file(path)
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not UTF-8 text"
        raise StoreError(f"memory.password_file {path}: cannot read it: {reason}") from None
    lines = text.splitlines()
    if not lines or not lines[0]:
        raise StoreError(f"memory.password_file {path}: is empty; put the password on line one")
    return lines[0]
