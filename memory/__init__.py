"""The fact store: similarity, merge and conflict decisions, storage with history (SQLite on one
device, PostgreSQL for a household), recall."""

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
from memory.store import MemoryUnavailable, StoreError
from memory.transfer import ExportDocument, ImportOutcome, read_export

__all__ = [
    "CONFLICT_NOTICE",
    "EXTRACTION_INSTRUCTIONS",
    "EXTRACTION_SCHEMA",
    "Action",
    "ConflictPair",
    "CosineBands",
    "Embedder",
    "EmbedderError",
    "ExportDocument",
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
    "PostgresTarget",
    "Recall",
    "RecallPolicy",
    "RecalledFact",
    "Relation",
    "RememberOutcome",
    "Source",
    "StoreError",
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
