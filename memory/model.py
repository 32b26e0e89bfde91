"""The memory's vocabulary: facts, their status and origin, what remembering did, and history."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum

from memory.kinds import Kind

MAX_FACT_CHARS = 1000
"""A fact is a sentence or two; anything longer is a paste, not something a person told Hearth."""


class FactStatus(StrEnum):
    """Where a fact stands. Nothing leaves the store except the text of a forgotten fact."""

    ACTIVE = "active"
    SUPERSEDED = "superseded"
    """The user chose another fact of a conflict as current; kept, and revived if stated again."""
    FORGOTTEN = "forgotten"
    """Text removed at the user's request; the row stays as a tombstone."""


class Origin(StrEnum):
    """Who put a fact into words."""

    USER = "user"
    """Said on purpose: "remember that ...", or typed at the command line."""
    EXTRACTED = "extracted"
    """Picked out of a conversation by the model; never re-teaches a forgotten fact."""


class Action(StrEnum):
    """What remembering a statement did to the store."""

    ADDED = "added"
    MERGED = "merged"
    CONFLICT = "conflict"
    REVIVED = "revived"
    IGNORED_FORGOTTEN = "ignored_forgotten"
    """The statement matches a fact the user asked to forget, and came from an old transcript."""
    CORRECTED = "corrected"
    """A misheard fact was given its right wording (the misheard one stays in its history)."""


class HistoryAction(StrEnum):
    """Every kind of change the append-only history records."""

    ADD = "add"
    MERGE = "merge"
    LINK = "link"
    NEAR_MISS = "near_miss"
    RESOLVE = "resolve"
    SUPERSEDE = "supersede"
    REVIVE = "revive"
    UNLINK = "unlink"
    FORGET = "forget"
    PIN = "pin"
    UNPIN = "unpin"
    ASK = "ask"
    IMPORT = "import"
    """Brought in from an export (its earlier history comes with it)."""
    CORRECT = "correct"
    """The user set a misheard wording right; ``detail["misheard_text"]`` keeps the old one."""


class MemoryInputError(ValueError):
    """A statement the memory cannot take (empty, too long, not text, unknown kind)."""


def utc_iso(timestamp: float) -> str:
    """An epoch timestamp as ISO 8601 in UTC, to the second."""
    return datetime.fromtimestamp(timestamp, UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Source:
    """Where a statement came from: the utterance it was heard in and the words that support it."""

    origin: Origin = Origin.USER
    utterance: str | None = None
    evidence: str | None = None


@dataclass(frozen=True)
class Fact:
    """One remembered fact as stored (text is None once forgotten)."""

    id: int
    text: str | None
    kind: Kind
    status: FactStatus
    created_at: float
    updated_at: float
    confirmed_at: float
    confirm_count: int
    pinned: bool
    source: Source
    conflicts_with: tuple[int, ...] = ()
    last_asked_at: float | None = None

    def to_json(self) -> dict[str, object]:
        """The fact as a JSON-ready dict (times in ISO 8601 UTC)."""
        return {
            "id": self.id,
            "text": self.text,
            "kind": self.kind.value,
            "status": self.status.value,
            "pinned": self.pinned,
            "created_at": utc_iso(self.created_at),
            "updated_at": utc_iso(self.updated_at),
            "confirmed_at": utc_iso(self.confirmed_at),
            "confirm_count": self.confirm_count,
            "conflicts_with": list(self.conflicts_with),
            "source": {
                "origin": self.source.origin.value,
                "utterance": self.source.utterance,
                "evidence": self.source.evidence,
            },
        }


@dataclass(frozen=True)
class NearMiss:
    """A pair related enough to have been a conflict, not claimed as one because kinds differ."""

    fact_id: int
    other_id: int
    score: float
    fact_kind: Kind
    other_kind: Kind
    reason: str


@dataclass(frozen=True)
class RememberOutcome:
    """What remembering one statement did, with the fact it landed in."""

    action: Action
    fact: Fact
    conflicts: tuple[Fact, ...] = ()
    near_misses: tuple[NearMiss, ...] = ()
    reason: str = ""

    def to_json(self) -> dict[str, object]:
        """The outcome as the JSON object ``hearth memory remember --json`` prints."""
        return {
            "action": self.action.value,
            "fact": self.fact.to_json(),
            "conflicts": [fact.to_json() for fact in self.conflicts],
            "near_misses": [
                {
                    "fact_id": miss.fact_id,
                    "other_id": miss.other_id,
                    "score": round(miss.score, 3),
                    "kinds": [miss.fact_kind.value, miss.other_kind.value],
                    "reason": miss.reason,
                }
                for miss in self.near_misses
            ],
            "reason": self.reason,
        }


@dataclass(frozen=True)
class HistoryEntry:
    """One line of the append-only history."""

    id: int
    fact_id: int
    at: float
    action: HistoryAction
    text: str | None
    other_id: int | None = None
    detail: dict[str, object] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        """The entry as a JSON-ready dict."""
        return {
            "id": self.id,
            "fact_id": self.fact_id,
            "at": utc_iso(self.at),
            "action": self.action.value,
            "text": self.text,
            "other_id": self.other_id,
            "detail": self.detail,
        }


def statement_digests(text: str) -> set[str]:
    """Digests a tombstone keeps: the wording, and its words in any order (never the words)."""
    words = re.findall(r"[\w']+", text.casefold())
    return {
        hashlib.sha256(("seq:" + " ".join(words)).encode()).hexdigest(),
        hashlib.sha256(("bag:" + " ".join(sorted(words))).encode()).hexdigest(),
    }
