"""Building the memory from settings: where it lives (a SQLite file or a shared PostgreSQL
database), the optional embedder, the recall policy."""

from __future__ import annotations

from pathlib import Path

from config import Settings, memory_database_path
from memory import (
    Memory,
    PostgresTarget,
    RecallPolicy,
    StoreError,
    cosine_bands,
    is_postgres_url,
    make_embedder,
)
from support import url_problem


def database_option(text: str) -> Path | str:
    """A ``--db`` value as typed: a ``postgresql://`` URL stays text, a path becomes a Path;
    StoreError for another kind of URL (never taken for a file named ``mysql:``)."""
    if is_postgres_url(text.strip()):
        if (problem := url_problem(text.strip())) is not None:
            raise StoreError(problem)
        return text.strip()
    if "://" in text:
        raise StoreError(
            f"{text.split('://')[0]}:// is no database Hearth knows: give a SQLite file's path "
            "or a postgresql:// URL"
        )
    return Path(text)


def memory_location(
    settings: Settings, database: Path | str | None = None
) -> Path | PostgresTarget:
    """Where the memory lives: ``database`` (``--db``) or the settings; a URL becomes a
    PostgresTarget with the settings' password file and timeouts."""
    location = database if database is not None else memory_database_path(settings)
    if isinstance(location, str) and is_postgres_url(location):
        return PostgresTarget(
            location,
            password_file=settings.memory.password_file,
            connect_timeout_seconds=settings.memory.connect_timeout_seconds,
            statement_timeout_seconds=settings.memory.statement_timeout_seconds,
        )
    return Path(location)


def open_memory(
    settings: Settings,
    database: Path | str | None = None,
    create: bool = True,
    wait: bool = True,
) -> Memory:
    """Open the memory the settings describe (``database`` overrides the place, e.g. ``--db``);
    without ``create``, a missing memory is a StoreError instead of a new empty one. With
    ``wait=False`` a shared memory whose database cannot be reached still opens (for a running
    Hearth: each call then raises MemoryUnavailable until the database is back)."""
    embedder_settings = settings.memory.embedder
    embedder = make_embedder(embedder_settings) if embedder_settings else None
    bands = (
        cosine_bands(
            embedder_settings.model,
            embedder_settings.merge_cosine,
            embedder_settings.conflict_cosine,
        )
        if embedder_settings
        else None
    )
    policy = RecallPolicy(
        budget_chars=settings.memory.recall_budget_chars,
        max_facts=settings.memory.recall_max_facts,
        stale_after_seconds=settings.memory.stale_after_days * 86400,
    )
    location = memory_location(settings, database)
    return Memory.open(location, embedder, bands, policy, create=create, wait=wait)
