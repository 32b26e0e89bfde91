
from memory.kinds import Kind, UnknownKindError, guess_kind, normalise_kind
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
from memory.store import StoreError

__all__ = [
    "CONFLICT_NOTICE",
    "Action",
    "Fact",
    "FactStatus",
    "HistoryAction",
    "HistoryEntry",
    "Kind",
    "MemoryInputError",
    "NearMiss",
    "Origin",
    "Recall",
    "RecallPolicy",
    "RecalledFact",
    "RememberOutcome",
    "Source",
    "StoreError",
    "UnknownKindError",
    "guess_kind",
    "normalise_kind",
]
