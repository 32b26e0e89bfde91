"""Moving a memory between databases: the export document, bringing one back in, and moving a
whole store into another (``hearth memory migrate``).

An export holds every fact (forgotten ones as tombstones without their words), the whole history
and the digests that keep forgotten facts from being learned again. Importing restores what it
carries into a store: a fact already there (the same creation second, kind and first wording) is
left alone, so importing a file twice adds nothing the second time. Migrating is an import of the
store's own export, plus what a file does not carry: the near-miss records and the vectors.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Literal

import numpy as np
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)

from memory.kinds import Kind
from memory.model import (
    Fact,
    FactStatus,
    HistoryAction,
    HistoryEntry,
    MemoryInputError,
    NearMiss,
    Origin,
    Source,
    statement_digests,
)
from memory.store import MemoryBackend
from support import SQLITE_HEADER

EXPORT_FORMAT = "hearth-memory-export"
EXPORT_VERSION = 2
"""2 adds the forgotten facts' digests; an export of version 1 imports as well."""
MAX_EXPORT_BYTES = 256 * 1024 * 1024
"""An export larger than this is no memory of one household: refused before it is read."""
_ERRORS_QUOTED = 3

LARGEST_IMPORTED_ID = 2**53 - 1
"""The largest id an export may give a fact: any JSON reader holds it exactly, and the ids a
store gives after it still fit PostgreSQL's bigint (an id of 2**63 - 1 left every room unable
to remember anything: "bigint out of range")."""
LARGEST_COUNT = 2**31 - 1
"""The largest confirmation count: PostgreSQL's integer column."""
FactId = Field(ge=1, le=LARGEST_IMPORTED_ID)
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
LATEST = datetime(9999, 1, 1, tzinfo=UTC)
"""An exported time outside these is no time Hearth wrote: one at the edge of what Python can
hold (year 9999 at -14:00) would be stored, then break every later show and export."""


def _plausible(moment: datetime) -> datetime:
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    try:
        in_range = EARLIEST <= aware.astimezone(UTC) < LATEST
    except OverflowError:
        in_range = False
    if not in_range:
        raise ValueError("must lie between 1970 and 9999")
    return moment


Instant = Annotated[datetime, AfterValidator(_plausible)]


def _storable(text: str) -> str:
    """Text every store can hold: UTF-8 (half an emoji, a lone surrogate, crashed the import)
    with no NUL (SQLite took it, and PostgreSQL then refused the whole memory on migrate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("holds text that is not valid Unicode (half of a character)") from None
    if "\x00" in text:
        raise ValueError("holds a NUL character")
    return text


Text = Annotated[str, AfterValidator(_storable)]


def _json_safe(detail: dict[str, object]) -> dict[str, object]:
    try:
        written = json.dumps(detail, allow_nan=False, ensure_ascii=False)
    except ValueError:
        raise ValueError("holds a number that is not finite (NaN or Infinity)") from None
    if "\\u0000" in written:  # JSON writes a NUL escaped
        raise ValueError("holds a NUL character")
    _storable(written)
    return detail


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")


class ExportedSource(_Part):
    """Where an exported fact came from."""

    origin: Origin = Origin.USER
    utterance: Text | None = None
    evidence: Text | None = None


class ExportedFact(_Part):
    """One fact as ``Fact.to_json`` writes it."""

    id: int = FactId
    text: Text | None
    kind: Kind
    status: FactStatus
    pinned: bool = False
    created_at: Instant
    updated_at: Instant
    confirmed_at: Instant
    confirm_count: int = Field(1, ge=1, le=LARGEST_COUNT)
    conflicts_with: list[Annotated[int, FactId]] = []
    source: ExportedSource = ExportedSource()

    @model_validator(mode="after")
    def _not_in_conflict_with_itself(self) -> ExportedFact:
        if self.id in self.conflicts_with:
            raise ValueError(f"fact {self.id} is listed as in conflict with itself")
        return self


class ExportedEntry(_Part):
    """One history entry as ``HistoryEntry.to_json`` writes it."""

    fact_id: int = FactId
    at: Instant
    action: HistoryAction
    text: Text | None = None
    other_id: int | None = Field(None, ge=1, le=LARGEST_IMPORTED_ID)
    detail: Annotated[dict[str, object], AfterValidator(_json_safe)] = {}


class ExportedTombstone(_Part):
    """A digest of a forgotten fact's wording (never the words)."""

    fact_id: int = FactId
    digest: str = Field(pattern=r"^[0-9a-f]{64}$")


class ExportDocument(_Part):
    """A whole export."""

    format: Literal["hearth-memory-export"]
    version: Literal[1, 2]
    facts: list[ExportedFact]
    history: list[ExportedEntry] = []
    tombstones: list[ExportedTombstone] = []


@dataclass(frozen=True)
class ImportOutcome:
    """What importing an export did."""

    added: tuple[int, ...]
    """Ids of the facts brought in, in the store they now live in."""
    already_there: int
    """Facts of the export the store already held, or had forgotten: left as they are."""


@dataclass(frozen=True)
class ExportSummary:
    """What an export wrote, and what a damaged file kept out of it."""

    facts: int
    unreadable: tuple[str, ...] = ()
    """Rows on pages that could not be read ("facts 41 to 47"), not in the export."""
    records_left_out: int = 0
    """History entries and tombstones of facts that could not be read: left out, as an export
    holds no record of a fact it does not hold (an import refuses one that does)."""


def export_text(
    facts: Sequence[Fact], history: Sequence[HistoryEntry], tombstones: Sequence[tuple[int, str]]
) -> tuple[str, int]:
    """The export document for a memory, as JSON text, and how many history entries and
    tombstones it left out for naming a fact it does not hold (on a damaged file, a fact whose
    page could not be read)."""
    held = {fact.id for fact in facts}
    kept_history = [entry for entry in history if entry.fact_id in held]
    kept_tombstones = [(fact_id, digest) for fact_id, digest in tombstones if fact_id in held]
    left_out = len(history) - len(kept_history) + len(tombstones) - len(kept_tombstones)
    history, tombstones = kept_history, kept_tombstones
    document = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "facts": [fact.to_json() for fact in facts],
        "history": [entry.to_json() for entry in history],
        "tombstones": [{"fact_id": fact_id, "digest": digest} for fact_id, digest in tombstones],
    }
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n", left_out


def read_export(path: Path) -> ExportDocument:
    """Read and check an export file; MemoryInputError says what is wrong with it."""
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise MemoryInputError(f"{path}: is not a file; give the path of an export")
        if size > MAX_EXPORT_BYTES:
            raise MemoryInputError(f"{path}: {size} bytes is too large for a memory export")
        data = path.read_bytes()
    except OSError as exc:
        raise MemoryInputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if data.startswith(SQLITE_HEADER):
        raise MemoryInputError(
            f"{path}: is a SQLite database, not an export; make one with `hearth memory export`"
        )
    try:
        raw = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise MemoryInputError(f"{path}: not an export: the file is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise MemoryInputError(
            f"{path}: not an export: invalid JSON at line {exc.lineno} column {exc.colno}: "
            f"{exc.msg}"
        ) from None
    except RecursionError:
        raise MemoryInputError(f"{path}: not an export: its JSON is nested too deeply") from None
    if not isinstance(raw, dict) or raw.get("format") != EXPORT_FORMAT:
        raise MemoryInputError(f"{path}: not a Hearth memory export (no \"format\": "
                               f"\"{EXPORT_FORMAT}\")")  # fmt: skip
    try:
        document = ExportDocument.model_validate(raw)
    except ValidationError as exc:
        raise MemoryInputError(f"{path}: not a valid memory export: {_problems(exc)}") from None
    _check_consistent(path, document)
    return document


def _check_consistent(path: Path, document: ExportDocument) -> None:
    ids = [fact.id for fact in document.facts]
    if len(ids) != len(set(ids)):
        raise MemoryInputError(f"{path}: not a valid memory export: a fact id appears twice")
    for fact in document.facts:
        if (fact.status is FactStatus.FORGOTTEN) != (fact.text is None):
            raise MemoryInputError(
                f"{path}: not a valid memory export: fact {fact.id} is {fact.status.value} "
                f"{'without' if fact.text is None else 'with'} text"
            )
    known = set(ids)
    strays = {entry.fact_id for entry in document.history} | {
        tombstone.fact_id for tombstone in document.tombstones
    }
    if strays - known:
        raise MemoryInputError(
            f"{path}: not a valid memory export: history names fact {min(strays - known)}, "
            "which it does not hold"
        )


def _problems(error: ValidationError) -> str:
    """The first few problems a validation found, each at its place in the document."""
    return "; ".join(
        f"{'.'.join(str(part) for part in problem['loc'])}: {problem['msg']}"
        for problem in error.errors()[:_ERRORS_QUOTED]
    )


def document_of(
    facts: Sequence[Fact], history: Sequence[HistoryEntry], tombstones: Sequence[tuple[int, str]]
) -> ExportDocument:
    """The export document of a store's contents, its times kept to the microsecond (an export
    file keeps whole seconds).

    Raises:
        MemoryInputError: the store holds what no store may take in (an older Hearth imported
            a fact id past 2**53 or a NUL): named, never a traceback.
    """
    try:
        return _document_of(facts, history, tombstones)
    except ValidationError as exc:
        raise MemoryInputError(
            f"the memory holds what another store cannot take in: {_problems(exc)}"
        ) from None


def _document_of(
    facts: Sequence[Fact], history: Sequence[HistoryEntry], tombstones: Sequence[tuple[int, str]]
) -> ExportDocument:
    def when(timestamp: float) -> datetime:
        return datetime.fromtimestamp(timestamp, UTC)

    return ExportDocument(
        format=EXPORT_FORMAT,
        version=EXPORT_VERSION,
        facts=[
            ExportedFact(
                id=fact.id, text=fact.text, kind=fact.kind, status=fact.status,
                pinned=fact.pinned, created_at=when(fact.created_at),
                updated_at=when(fact.updated_at), confirmed_at=when(fact.confirmed_at),
                confirm_count=fact.confirm_count, conflicts_with=list(fact.conflicts_with),
                source=ExportedSource(origin=fact.source.origin, utterance=fact.source.utterance,
                                      evidence=fact.source.evidence),
            )
            for fact in facts
        ],
        history=[
            ExportedEntry(fact_id=entry.fact_id, at=when(entry.at), action=entry.action,
                          text=entry.text, other_id=entry.other_id, detail=dict(entry.detail))
            for entry in history
        ],
        tombstones=[ExportedTombstone(fact_id=fact_id, digest=digest)
                    for fact_id, digest in tombstones],
    )  # fmt: skip


def restore(
    store: MemoryBackend, document: ExportDocument, clean: Callable[[str], str]
) -> ImportOutcome:
    """Bring an export's facts, history, links and tombstones into a store (inside a write).

    ``clean`` tidies a statement as remembering does and raises MemoryInputError for one the
    memory cannot hold. Keys are filed by the caller from the returned ids.
    """
    return restore_mapped(store, document, clean)[0]


def restore_mapped(
    store: MemoryBackend, document: ExportDocument, clean: Callable[[str], str]
) -> tuple[ImportOutcome, dict[int, int]]:
    """``restore``, also giving the id each fact brought in has in the store (export id ->
    store id; facts already there are left out)."""
    history: dict[int, list[ExportedEntry]] = {}
    for entry in document.history:
        history.setdefault(entry.fact_id, []).append(entry)
    held = store.fact_identities()
    # The same fact by its words' digests, for a fact forgotten on one side: forgetting erases
    # the words its identity holds.
    held_by_digest = {
        (created, kind, digest): fact_id
        for (created, kind, text), fact_id in held.items()
        if text is not None
        for digest in statement_digests(text)
    }
    # Facts forgotten here, by when they were made, their kind and their words' digests: not
    # another fact in the same words, nor one told again since.
    made = {fact_id: (created, kind) for (created, kind, _), fact_id in held.items()}
    forgotten_here = {
        (*made[fact_id], digest) for fact_id, digest in store.tombstones() if fact_id in made
    }
    forgotten_digests: dict[int, set[str]] = {}
    for tombstone in document.tombstones:
        forgotten_digests.setdefault(tombstone.fact_id, set()).add(tombstone.digest)
    mapping: dict[int, int] = {}
    added: list[ExportedFact] = []
    for fact in sorted(document.facts, key=lambda item: item.id):
        entries = history.get(fact.id, [])
        first_text = entries[0].text if entries else fact.text
        created = int(fact.created_at.timestamp())
        identity = (created, fact.kind.value, first_text)
        if identity in held:
            mapping[fact.id] = held[identity]
            continue
        digests = forgotten_digests.get(fact.id, set())
        here = [held_by_digest.get((created, fact.kind.value, d)) for d in digests]
        if any(here):  # forgotten in the export, held here: the same fact, left as it is
            mapping[fact.id] = next(fact_id for fact_id in here if fact_id)
            continue
        if fact.text is not None and any(
            (created, fact.kind.value, digest) in forgotten_here
            for digest in statement_digests(fact.text)
        ):
            continue  # this very fact, forgotten here: an older export never brings it back
        text = clean(fact.text) if fact.text is not None else None
        mapping[fact.id] = store.restore_fact(
            fact.id,
            text,
            fact.kind,
            fact.status,
            Source(fact.source.origin, fact.source.utterance, fact.source.evidence),
            fact.pinned,
            (fact.created_at.timestamp(), fact.updated_at.timestamp(),
             fact.confirmed_at.timestamp()),
            fact.confirm_count,
        )  # fmt: skip
        added.append(fact)
    brought = {fact.id for fact in added}
    for entry in document.history:  # in the export's order, so the whole history reads the same
        if entry.fact_id in brought:
            other = mapping.get(entry.other_id) if entry.other_id is not None else None
            store.append_history(mapping[entry.fact_id], entry.action, entry.text, other,
                                 dict(entry.detail), entry.at.timestamp())  # fmt: skip
    for fact in added:
        store.append_history(
            mapping[fact.id], HistoryAction.IMPORT, fact.text, detail={"export_id": fact.id}
        )
    for tombstone in document.tombstones:
        if tombstone.fact_id in brought:
            store.add_tombstones(mapping[tombstone.fact_id], [tombstone.digest])
    _link_conflicts(store, document.facts, {fact.id for fact in added}, mapping, history)
    left = len(document.facts) - len(added)
    outcome = ImportOutcome(tuple(mapping[fact.id] for fact in added), left)
    return outcome, {fact.id: mapping[fact.id] for fact in added}


def carry_records(
    misses: Sequence[NearMiss],
    vectors: tuple[str, list[int], np.ndarray] | None,
    target: MemoryBackend,
    mapping: dict[int, int],
) -> None:
    """Copy near-miss records and vectors of the facts brought in (``mapping``) into a store.

    ``vectors`` is (model, ids, matrix) as ``MemoryBackend.vectors`` gives them, or None.
    """
    for miss in misses:
        if miss.fact_id in mapping and miss.other_id in mapping:
            target.add_near_miss(
                NearMiss(mapping[miss.fact_id], mapping[miss.other_id], miss.score,
                         miss.fact_kind, miss.other_kind, miss.reason)
            )  # fmt: skip
    if vectors is None:
        return
    model, ids, matrix = vectors
    for row, fact_id in enumerate(ids):
        if fact_id in mapping:
            target.set_vector(mapping[fact_id], model, matrix[row])


def _link_conflicts(
    store: MemoryBackend,
    facts: Sequence[ExportedFact],
    added: set[int],
    mapping: dict[int, int],
    history: dict[int, list[ExportedEntry]],
) -> None:
    """Link again the open conflicts among active facts, with the score their link recorded:
    each pair with a fact brought in, its partner brought in too or already here."""
    active = {
        fact.id
        for fact in facts
        if fact.status is FactStatus.ACTIVE
        and fact.id in mapping
        and _active_here(store, fact, added, mapping)
    }
    for fact in facts:
        for other in fact.conflicts_with:
            if fact.id not in active or other not in active or other < fact.id:
                continue
            if fact.id not in added and other not in added:
                continue  # both already here, linked as they are
            scores = [
                entry.detail.get("score")
                for entry in history.get(fact.id, [])
                if entry.action is HistoryAction.LINK and entry.other_id == other
            ]
            score = next((f for s in reversed(scores) if (f := _finite(s)) is not None), 0.0)
            store.link_conflict(mapping[fact.id], mapping[other], score)


def _active_here(
    store: MemoryBackend, fact: ExportedFact, added: set[int], mapping: dict[int, int]
) -> bool:
    """A fact brought in is as the export says; one already here is as this store has it (a
    conflict is never linked to a fact superseded here)."""
    if fact.id in added:
        return True
    held = store.get_fact(mapping[fact.id])
    return held is not None and held.status is FactStatus.ACTIVE


def _finite(value: object) -> float | None:
    """A link's recorded score, if it is a number a score can be (an export edited by hand may
    hold anything)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        score = float(value)
    except OverflowError:
        return None
    return score if math.isfinite(score) else None
