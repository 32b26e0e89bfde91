"""Building the memory from settings: database path, optional embedder, recall policy."""

from __future__ import annotations

from pathlib import Path

from config import Settings, memory_database_path
from memory import Memory, RecallPolicy, cosine_bands, make_embedder


def open_memory(settings: Settings, database: Path | None = None, create: bool = True) -> Memory:
    """Open the memory the settings describe (``database`` overrides the path, e.g. ``--db``);
    without ``create``, a missing database is a StoreError instead of a new empty one."""
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
    path = database or memory_database_path(settings)
    return Memory.open(path, embedder, bands, policy, create=create)
