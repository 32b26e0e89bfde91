"""Opening the storage backend for where a memory lives: SQLite for a file, PostgreSQL for a URL.

The PostgreSQL driver is imported only when a URL asks for it, so a device on SQLite never
loads it.
"""

from __future__ import annotations

import time
from pathlib import Path

from memory.location import PostgresTarget, is_postgres_url
from memory.store import Clock, FactStore, MemoryBackend

Location = Path | str | PostgresTarget
"""A SQLite file's path (or ``:memory:``), a ``postgresql://`` URL, or a PostgresTarget."""


def is_shared(location: Location) -> bool:
    """Whether a location names a shared PostgreSQL database rather than a SQLite file."""
    return isinstance(location, PostgresTarget) or is_postgres_url(location)


def open_backend(
    location: Location, clock: Clock = time.time, *, create: bool = True, wait: bool = True
) -> MemoryBackend:
    """Open the backend for a location (see FactStore.open and PostgresStore.open for what each
    refuses); ``wait=False`` lets a PostgreSQL store start while its database is unreachable."""
    if isinstance(location, PostgresTarget) or is_postgres_url(location):
        from memory.postgres_store import PostgresStore

        target = location if isinstance(location, PostgresTarget) else PostgresTarget(location)
        return PostgresStore.open(target, clock, create=create, wait=wait)
    return FactStore.open(location, clock, create=create)
