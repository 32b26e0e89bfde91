"""The fact store: similarity, merge and conflict decisions, SQLite storage with history, recall."""

from memory.kinds import Kind, UnknownKindError, normalise_kind

__all__ = ["Kind", "UnknownKindError", "normalise_kind"]
