"""The fact store: similarity, merge and conflict decisions, storage with history (SQLite on one
device, PostgreSQL for a household), recall."""

from typing import TYPE_CHECKING

from memory.embedder import Embedder, EmbedderError, make_embedder
from memory.extraction import (
    EXTRACTION_INSTRUCTIONS,
    EXTRACTION_SCHEMA,
    ExtractedFact,
    extraction_request,
    parse_extraction,
)
from memory.facts import ConflictPair, Memory, clean_statement
from memory.judging import CosineBands, Judgement, Relation, cosine_bands, judge
from memory.kinds import Kind, UnknownKindError, guess_kind, normalise_kind
from memory.location import PostgresTarget, is_postgres_url
from memory.model import (
    Action,
    Fact,
    FactStatus,
    HistoryAction,
    HistoryEntry,
    MemoryInputError,
    NearMiss,
    Origin,
    RememberOutcome,
    Source,
)
from memory.recall import CONFLICT_NOTICE, Recall, RecalledFact, RecallPolicy
from memory.schema import APPLICATION_ID
from memory.store import DuplicateKey, MemoryUnavailable, StoreError, StoreFailure
from memory.transfer import ExportDocument, ExportSummary, ImportOutcome, read_export

if TYPE_CHECKING:
    from memory.postgres_link import PostgresLink, Tracking

_SHARED_DATABASE = ("PostgresLink", "Tracking")
"""The shared database's connection, for the schedule's tables beside the memory's: loaded (with
the PostgreSQL driver) only when asked for."""


def __getattr__(name: str) -> object:
    if name in _SHARED_DATABASE:
        from memory import postgres_link

        return getattr(postgres_link, name)
    raise AttributeError(f"module 'memory' has no attribute {name!r}")


__all__ = [
    "APPLICATION_ID",
    "CONFLICT_NOTICE",
    "EXTRACTION_INSTRUCTIONS",
    "EXTRACTION_SCHEMA",
    "Action",
    "ConflictPair",
    "CosineBands",
    "DuplicateKey",
    "Embedder",
    "EmbedderError",
    "ExportDocument",
    "ExportSummary",
    "ExtractedFact",
    "Fact",
    "FactStatus",
    "HistoryAction",
    "HistoryEntry",
    "ImportOutcome",
    "Judgement",
    "Kind",
    "Memory",
    "MemoryInputError",
    "MemoryUnavailable",
    "NearMiss",
    "Origin",
    "PostgresLink",
    "PostgresTarget",
    "Recall",
    "RecallPolicy",
    "RecalledFact",
    "Relation",
    "RememberOutcome",
    "Source",
    "StoreError",
    "StoreFailure",
    "Tracking",
    "UnknownKindError",
    "clean_statement",
    "cosine_bands",
    "extraction_request",
    "guess_kind",
    "is_postgres_url",
    "judge",
    "make_embedder",
    "normalise_kind",
    "parse_extraction",
    "read_export",
]
