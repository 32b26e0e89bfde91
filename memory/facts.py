"""The memory's rules for change: remember (merge, conflict, revive), resolve, forget, recall.

Nothing here deletes or rewrites a fact on its own. Every change is one transaction that also
appends to the history, so any earlier wording can be read back.
"""

from __future__ import annotations

import logging
import os
import re
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from memory.backends import Location, open_backend
from memory.embedder import Embedder, EmbedderError
from memory.judging import CosineBands, Judgement, Relation, cosine_bands, index_keys, judge
from memory.kinds import Kind, normalise_kind
from memory.model import (
    MAX_FACT_CHARS,
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
    statement_digests,
)
from memory.recall import Recall, RecallPolicy, choose_recall
from memory.store import MemoryBackend
from memory.transfer import (
    ExportDocument,
    ExportSummary,
    ImportOutcome,
    carry_records,
    document_of,
    export_text,
    restore,
    restore_mapped,
)
from memory.vectors import VectorIndex
from support import holds_sqlite_database, write_atomically

log = logging.getLogger(__name__)

CANDIDATE_LIMIT = 32
"""Facts compared per statement: those sharing the most index keys, plus vector neighbours."""
VECTOR_NEIGHBOURS = 16


@dataclass(frozen=True)
class ConflictPair:
    """Two active facts linked as disagreeing, waiting for the user to say which is current."""

    older: Fact
    newer: Fact


class Memory:
    """Hearth's memory of facts about its people, over a storage backend (SQLite or PostgreSQL)."""

    def __init__(
        self,
        store: MemoryBackend,
        embedder: Embedder | None = None,
        bands: CosineBands | None = None,
        policy: RecallPolicy | None = None,
    ):
        self.store = store
        self.policy = policy or RecallPolicy()
        self._embedder = embedder
        self._bands = bands or (cosine_bands(embedder.model) if embedder else None)
        self._vectors: VectorIndex | None = None
        self._vectors_version: int | None = None

    @classmethod
    def open(
        cls,
        path: Location,
        embedder: Embedder | None = None,
        bands: CosineBands | None = None,
        policy: RecallPolicy | None = None,
        *,
        create: bool = True,
        wait: bool = True,
    ) -> Memory:
        """Open the memory at ``path``: a SQLite file, or a ``postgresql://`` URL or
        PostgresTarget for a household's shared database. It is created unless ``create`` is
        False (see FactStore.open and PostgresStore.open for what is refused); ``wait=False``
        lets a shared memory start while its database cannot be reached."""
        return cls(open_backend(path, create=create, wait=wait), embedder, bands, policy)

    def close(self) -> None:
        """Close the database."""
        self.store.close()

    # -- remembering -----------------------------------------------------------------------------

    def remember(
        self,
        text: str,
        kind: str | Kind | None = None,
        source: Source | None = None,
        pinned: bool = False,
    ) -> RememberOutcome:
        """Store a statement: merge it into the same fact, revive it, or add it (linking conflicts).

        Raises MemoryInputError for text or a kind that cannot be remembered. An embedder failure
        or a failed comparison never stops the write: a fact whose comparison failed is left
        unlinked, and what the comparisons with the other facts found still applies.
        """
        text = clean_statement(text)
        kind = _kind(kind)
        source = source or Source()
        digests = statement_digests(text)
        vector = self._embed(text)
        with self._writing():
            forgotten_id = self.store.forgotten_by_digest(digests)
            if forgotten_id is not None:
                if source.origin is Origin.EXTRACTED:
                    tombstone = self.store.get_fact(forgotten_id)
                    assert tombstone is not None
                    return RememberOutcome(
                        Action.IGNORED_FORGOTTEN, tombstone, reason="the user asked to forget this"
                    )
                self.store.lift_tombstone(forgotten_id)
            judged = self._compare(text, kind, vector)
            return self._apply(text, kind, source, pinned, vector, judged)

    def _compare(
        self, text: str, kind: Kind, vector: np.ndarray | None, also: Sequence[int] = ()
    ) -> list[tuple[Fact, Judgement]]:
        """The statement judged against its candidates, and against the facts ``also`` names
        whether the index finds them or not."""
        vectors = self._vector_index() if vector is not None else None
        judged = []
        ids = list(dict.fromkeys([*also, *self._candidate_ids(text, vector, vectors)]))
        for fact in self.store.facts_by_ids(ids):
            if fact.status is FactStatus.FORGOTTEN or fact.text is None:
                continue
            try:
                # Cosine is evidence only when both sides were embedded by the configured model;
                # a cold or partial index must never manufacture a conflict.
                cosine = None
                if vectors is not None and vector is not None:
                    cosine = vectors.cosine(fact.id, vector)
                judgement = judge(text, kind, fact.text, fact.kind, cosine, self._bands)
            except Exception:  # a comparison bug must not lose the statement or other verdicts
                log.exception("comparing with fact %s failed; not linking the two", fact.id)
                continue
            judged.append((fact, judgement))
        return judged

    def _candidate_ids(
        self, text: str, vector: np.ndarray | None, vectors: VectorIndex | None
    ) -> list[int]:
        """Facts worth comparing with a statement: from the word index, plus vector neighbours."""
        ids = self.store.fact_ids_with_keys(index_keys(text), CANDIDATE_LIMIT)
        if vectors is not None and vector is not None:
            ids += [fid for fid, _ in vectors.nearest(vector, VECTOR_NEIGHBOURS)]
        return list(dict.fromkeys(ids))

    def _apply(
        self,
        text: str,
        kind: Kind,
        source: Source,
        pinned: bool,
        vector: np.ndarray | None,
        judged: list[tuple[Fact, Judgement]],
    ) -> RememberOutcome:
        same = [(f, j) for f, j in judged if j.relation is Relation.SAME]
        # Prefer the current fact over a superseded one, then the closest wording.
        same.sort(key=lambda item: (item[0].status is not FactStatus.ACTIVE, -item[1].score))
        if same:
            target, judgement = same[0]
            fact_id = target.id
            revived = target.status is FactStatus.SUPERSEDED
            self.store.confirm_fact(fact_id, text, source, pinned)
            self.store.append_history(
                fact_id,
                HistoryAction.REVIVE if revived else HistoryAction.MERGE,
                text,
                detail={"previous_text": target.text, "score": round(judgement.score, 3),
                        "reason": judgement.reason},
            )  # fmt: skip
            action, reason = (Action.REVIVED if revived else Action.MERGED), judgement.reason
        else:
            fact_id = self.store.insert_fact(text, kind, source, pinned)
            self.store.append_history(
                fact_id, HistoryAction.ADD, text, detail={"kind": kind.value, "pinned": pinned}
            )
            action, reason = Action.ADDED, ""
        self.store.set_keys(fact_id, index_keys(text))
        if vector is not None and self._embedder is not None:
            self.store.set_vector(fact_id, self._embedder.model, vector)
            if self._vectors is not None:
                self._vectors.add(fact_id, vector)

        linked, misses = self._link_related(fact_id, text, kind, judged)
        if linked and action is Action.ADDED:
            action = Action.CONFLICT
            reason = "; ".join(j.reason for f, j in judged if f in linked)
        final = self.store.get_fact(fact_id)
        assert final is not None
        conflicts = tuple(self.store.facts_by_ids([f.id for f in linked]))
        return RememberOutcome(action, final, conflicts, tuple(misses), reason)

    def _link_related(
        self, fact_id: int, text: str, kind: Kind, judged: list[tuple[Fact, Judgement]]
    ) -> tuple[list[Fact], list[NearMiss]]:
        """Link the active facts a statement disagrees with; record cross-kind near-misses."""
        current = self.store.get_fact(fact_id)
        assert current is not None
        linked: list[Fact] = []
        misses: list[NearMiss] = []
        for other, judgement in judged:
            if other.id == fact_id or other.status is not FactStatus.ACTIVE:
                continue
            if judgement.relation is Relation.CONFLICT and other.id not in current.conflicts_with:
                self.store.link_conflict(fact_id, other.id, judgement.score)
                detail = {"score": round(judgement.score, 3), "reason": judgement.reason}
                self.store.append_history(fact_id, HistoryAction.LINK, text, other.id, detail)
                self.store.append_history(other.id, HistoryAction.LINK, other.text, fact_id, detail)
                linked.append(other)
            elif judgement.relation is Relation.NEAR_MISS:
                miss = NearMiss(
                    fact_id, other.id, judgement.score, kind, other.kind, judgement.reason
                )
                self.store.add_near_miss(miss)
                self.store.append_history(
                    fact_id, HistoryAction.NEAR_MISS, text, other.id,
                    {"score": round(judgement.score, 3), "kinds": [kind.value, other.kind.value]},
                )  # fmt: skip
                misses.append(miss)
        return linked, misses

    # -- correcting ------------------------------------------------------------------------------

    def correct(
        self,
        fact_id: int,
        text: str,
        source: Source | None = None,
        kind: str | Kind | None = None,
    ) -> RememberOutcome:
        """Set right the wording of a fact that was misheard ("No, I said Vim"); ``kind``, when
        given, replaces the kind too (a misheard word can change it).

        The fact takes the new wording; the misheard one stays in its history, in a ``correct``
        entry, never silently rewritten. The corrected fact is then compared with the rest of the
        store as a new statement is: a disagreement is linked as a conflict and returned (action
        CONFLICT) to be asked about; the same fact already stored takes the correction as a
        confirmation, and the corrected one is superseded by it (action MERGED, no duplicate).
        Raises MemoryInputError for a fact that is not active, or text that cannot be a fact.
        """
        text = clean_statement(text)
        source = source or Source()
        vector = self._embed(text)
        with self._writing():
            fact = self._active(fact_id)
            new_kind = fact.kind if kind is None else _kind(kind)
            self.store.correct_fact(fact_id, text, new_kind, source)
            self.store.append_history(
                fact_id, HistoryAction.CORRECT, text,
                detail={"misheard_text": fact.text, "kind": new_kind.value},
            )  # fmt: skip
            self.store.set_keys(fact_id, index_keys(text))
            if vector is not None and self._embedder is not None:
                self.store.set_vector(fact_id, self._embedder.model, vector)
                if self._vectors is not None:
                    self._vectors.add(fact_id, vector)
            # The facts it was disputed with are judged again, found by the index or not: the
            # dispute was over the misheard words.
            disputed = fact.conflicts_with
            judged = [
                (f, j)
                for f, j in self._compare(text, new_kind, vector, also=disputed)
                if f.id != fact_id
            ]
            same = [f for f, j in judged
                    if j.relation is Relation.SAME and f.status is FactStatus.ACTIVE]  # fmt: skip
            if same:
                self._unlink(fact_id, disputed, {"reason": "corrected"})
                return self._merge_correction(fact_id, text, source, same[0])
            # A dispute stands while the two are still judged to disagree, or close across a
            # change of kind the correction made (a near miss): asked again, never dropped.
            standing = [
                f
                for f, j in judged
                if f.id in disputed and j.relation in (Relation.CONFLICT, Relation.NEAR_MISS)
            ]
            still = {f.id for f in standing}
            settled = [i for i in disputed if i not in still]
            self._unlink(fact_id, settled, {"reason": "corrected"})
            linked, misses = self._link_related(fact_id, text, new_kind, judged)
            final = self.store.get_fact(fact_id)
            assert final is not None
            conflicts = tuple(self.store.facts_by_ids([f.id for f in (*standing, *linked)]))
        action = Action.CONFLICT if conflicts else Action.CORRECTED
        reason = "; ".join(j.reason for f, j in judged if f in linked or f in standing)
        return RememberOutcome(action, final, conflicts, tuple(misses), reason)

    def _unlink(self, fact_id: int, others: Sequence[int], detail: dict) -> None:
        """Clear a fact's conflict links with ``others``, in both facts' histories."""
        fact = self.store.get_fact(fact_id)
        assert fact is not None
        for other in others:
            self.store.unlink_conflict(fact_id, other)
            self.store.append_history(fact_id, HistoryAction.UNLINK, fact.text, other, detail)
            partner = self.store.get_fact(other)
            self.store.append_history(
                other, HistoryAction.UNLINK, partner.text if partner else None, fact_id, detail
            )

    def _merge_correction(
        self, fact_id: int, text: str, source: Source, known: Fact
    ) -> RememberOutcome:
        """The corrected fact was known already: confirm that one, supersede the corrected one."""
        self.store.confirm_fact(known.id, text, source, known.pinned)
        detail = {"previous_text": known.text, "reason": "a correction"}
        self.store.append_history(known.id, HistoryAction.MERGE, text, fact_id, detail)
        self.store.set_status(fact_id, FactStatus.SUPERSEDED)
        self.store.append_history(fact_id, HistoryAction.SUPERSEDE, text, known.id)
        merged = self.store.get_fact(known.id)
        assert merged is not None
        return RememberOutcome(Action.MERGED, merged, reason="the corrected fact was known")

    # -- resolving and forgetting ----------------------------------------------------------------

    def resolve(self, keep_id: int, over: Sequence[int] | None = None) -> list[Fact]:
        """Keep one fact of a conflict as current; the others become superseded (never deleted).

        ``over``: only these of its conflicts are superseded (the ones a question named), the
        rest stay open; None: all of them. Returns the superseded facts. Raises
        MemoryInputError when the fact has no open conflict, or not with each of ``over``.
        """
        with self._writing():
            keep = self._active(keep_id)
            if not keep.conflicts_with:
                raise MemoryInputError(f"fact {keep_id} has no open conflict to resolve")
            losing = list(keep.conflicts_with) if over is None else list(over)
            if not losing or any(other not in keep.conflicts_with for other in losing):
                raise MemoryInputError(f"fact {keep_id} has no such open conflict")
            for other_id in losing:
                other = self.store.get_fact(other_id)
                assert other is not None
                self.store.unlink_conflict(keep_id, other_id)
                self.store.set_status(other_id, FactStatus.SUPERSEDED)
                self.store.append_history(keep_id, HistoryAction.RESOLVE, keep.text, other_id)
                self.store.append_history(other_id, HistoryAction.SUPERSEDE, other.text, keep_id)
                # The superseded fact may still disagree with others; those links stay meaningful
                # only between current facts.
                for third in other.conflicts_with:
                    if third != keep_id:
                        self.store.unlink_conflict(other_id, third)
                        self.store.append_history(other_id, HistoryAction.UNLINK, other.text, third)
            return self.store.facts_by_ids(losing)

    def keep_both(self, fact_id: int, other_id: int | None = None) -> list[Fact]:
        """Both (or all) sides of a conflict are true: clear the link, keep every fact active."""
        with self._writing():
            fact = self._active(fact_id)
            others = [other_id] if other_id is not None else list(fact.conflicts_with)
            if not others or any(o not in fact.conflicts_with for o in others):
                raise MemoryInputError(f"fact {fact_id} has no such open conflict")
            self._unlink(fact_id, others, {"resolution": "both"})
            return self.store.facts_by_ids([fact_id, *others])

    def forget(self, fact_id: int) -> Fact:
        """Remove a fact's text at the user's request, clean its links, leave a tombstone.

        The tombstone keeps only digests of the wording, so an old transcript cannot teach the
        fact again while the words themselves are gone.
        """
        with self._writing():
            fact = self.store.get_fact(fact_id)
            if fact is None:
                raise MemoryInputError(f"there is no fact {fact_id}")
            if fact.status is FactStatus.FORGOTTEN or fact.text is None:
                raise MemoryInputError(f"fact {fact_id} is already forgotten")
            for other_id in fact.conflicts_with:
                self.store.unlink_conflict(fact_id, other_id)
                other = self.store.get_fact(other_id)
                self.store.append_history(other_id, HistoryAction.UNLINK,
                                          other.text if other else None, fact_id,
                                          {"reason": "the other fact was forgotten"})  # fmt: skip
            wordings = {entry.text for entry in self.store.history(fact_id) if entry.text}
            wordings.add(fact.text)
            digests = {digest for wording in wordings for digest in statement_digests(wording)}
            self.store.erase_fact(fact_id, digests)
            self.store.append_history(fact_id, HistoryAction.FORGET, None)
            forgotten = self.store.get_fact(fact_id)
            assert forgotten is not None
            return forgotten

    def set_pinned(self, fact_id: int, pinned: bool) -> Fact:
        """Pin a fact (stated on purpose: never goes stale, always recalled) or unpin it."""
        with self._writing():
            fact = self._active(fact_id)
            self.store.set_pinned(fact_id, pinned)
            action = HistoryAction.PIN if pinned else HistoryAction.UNPIN
            self.store.append_history(fact_id, action, fact.text)
            updated = self.store.get_fact(fact_id)
            assert updated is not None
            return updated

    def mark_asked(self, fact_ids: list[int]) -> None:
        """Record that the user was just asked which of these conflicting facts is current."""
        with self._writing():
            self.store.mark_asked(fact_ids)
            for fact_id in fact_ids:
                self.store.append_history(fact_id, HistoryAction.ASK, None)

    # -- reading ---------------------------------------------------------------------------------

    def get(self, fact_id: int) -> Fact:
        """One fact by id; MemoryInputError when there is none."""
        with self._reading():
            fact = self.store.get_fact(fact_id)
        if fact is None:
            raise MemoryInputError(f"there is no fact {fact_id}")
        return fact

    def facts(self, include_all: bool = False) -> list[Fact]:
        """Active facts, or with ``include_all`` every fact including superseded and forgotten."""
        statuses = list(FactStatus) if include_all else [FactStatus.ACTIVE]
        with self._reading():
            return self.store.list_facts(statuses)

    def history(self, fact_id: int | None = None) -> list[HistoryEntry]:
        """The append-only history of one fact, or of the whole memory."""
        with self._reading():
            if fact_id is not None and self.store.get_fact(fact_id) is None:
                raise MemoryInputError(f"there is no fact {fact_id}")
            return self.store.history(fact_id)

    def near_misses(self, fact_id: int) -> list[NearMiss]:
        """Cross-kind near-miss records that involve a fact."""
        with self._reading():
            if self.store.get_fact(fact_id) is None:
                raise MemoryInputError(f"there is no fact {fact_id}")
            return self.store.near_misses(fact_id)

    def conflicts(self) -> list[ConflictPair]:
        """Every open conflict, each pair once, oldest first."""
        with self._reading():
            facts = {f.id: f for f in self.store.facts_by_ids(self.store.conflicted_fact_ids())}
        pairs = []
        for fact in facts.values():
            for other_id in fact.conflicts_with:
                if other_id > fact.id and other_id in facts:
                    pairs.append(ConflictPair(fact, facts[other_id]))
        return pairs

    def find(self, description: str) -> Fact | None:
        """The active fact a description points at ("forget that I smoke"), or None.

        The same fact said again wins; otherwise the fact sharing the most of its words with the
        description, when it shares at least half of them.
        """
        text = clean_statement(description)
        wanted = index_keys(text)
        best: tuple[float, Fact] | None = None
        with self._reading():
            ids = self.store.fact_ids_with_keys(wanted, CANDIDATE_LIMIT)
            facts = [f for f in self.store.facts_by_ids(ids) if f.status is FactStatus.ACTIVE]
        for fact in facts:
            assert fact.text is not None
            if judge(text, fact.kind, fact.text, fact.kind).relation is Relation.SAME:
                return fact
            keys = index_keys(fact.text)
            overlap = len(keys & wanted) / max(1, len(keys))
            if overlap >= 0.5 and (best is None or overlap > best[0]):
                best = (overlap, fact)
        return best[1] if best else None

    def recall(self, utterance: str, now: float | None = None) -> Recall:
        """Facts relevant to an utterance, plus pinned ones, within the budget, with the notice."""
        now = self.store.clock() if now is None else now
        query_keys = index_keys(utterance) if utterance.strip() else frozenset()
        vector = self._embed(utterance) if utterance.strip() else None
        with self._reading():
            vectors = self._vector_index() if vector is not None else None
            ids = self._candidate_ids(utterance, vector, vectors) if utterance.strip() else []
            ids = list(dict.fromkeys([*ids, *self.store.pinned_fact_ids()]))
            facts = [f for f in self.store.facts_by_ids(ids) if f.status is FactStatus.ACTIVE]
            partner_ids = {o for f in facts for o in f.conflicts_with} - {f.id for f in facts}
            facts += self.store.facts_by_ids(sorted(partner_ids))
        candidates = []
        for fact in facts:
            assert fact.text is not None
            keys = index_keys(fact.text)
            lexical = len(keys & query_keys) / max(1, len(keys)) ** 0.5 if keys else 0.0
            candidates.append((fact, max(lexical, self._related_cosine(fact.id, vector, vectors))))
        return choose_recall(candidates, now, self.policy)

    def export(self, path: Path) -> ExportSummary:
        """Write every fact, the whole history and the tombstones' digests as JSON, atomically.

        On a damaged SQLite file, everything that can still be read is written, and the summary
        names what could not be. MemoryInputError for a path that holds a database (this one
        or another), which an export must never overwrite."""
        path = Path(path)
        if self.store.path != ":memory:" and any(
            _same_file(path, Path(self.store.path + suffix)) for suffix in ("", "-wal", "-shm")
        ):
            raise MemoryInputError(f"{path}: is the memory database itself; export to another file")
        if holds_sqlite_database(path):
            raise MemoryInputError(
                f"{path}: is a SQLite database; an export never overwrites one (choose a new "
                "file, e.g. memory-export.json)"
            )
        with self._reading():
            facts = self.store.list_facts(list(FactStatus))
            history = self.store.history()
            tombstones = self.store.tombstones()
        text, left_out = export_text(facts, history, tombstones)
        write_atomically(path, text)
        return ExportSummary(len(facts), tuple(self.store.unreadable), left_out)

    def import_export(self, document: ExportDocument) -> ImportOutcome:
        """Bring in the facts of an export (``export`` writes one; ``read_export`` reads it),
        with their history, links and tombstones, in one transaction. A fact the store already
        holds is left as it is, so importing the same file again adds nothing. Imported facts are
        not compared with the facts already here."""
        with self._writing():
            outcome = restore(self.store, document, clean_statement)
            for fact in self.store.facts_by_ids(list(outcome.added)):
                if fact.text is not None:
                    self.store.set_keys(fact.id, index_keys(fact.text))
        return outcome

    def migrate_to(self, target: Memory) -> ImportOutcome:
        """Copy this memory into another store (a device's SQLite file into the household's
        PostgreSQL database, or back): every fact, the whole history, the open conflicts, the
        tombstones, the near-miss records, and the vectors of the configured embedder's model.

        Idempotent, as importing is: a fact the target already holds is left as it is, so a
        second run (or a run into the store it came from) adds nothing. The source is read in
        one transaction and the target written in one, so a failure part way brings in nothing.
        """
        model = self._embedder.model if self._embedder is not None else None
        with self._writing():  # the writers' lock: a consistent picture of a shared source
            facts = self.store.list_facts(list(FactStatus))
            document = document_of(facts, self.store.history(), self.store.tombstones())
            misses = self.store.near_misses()
            vectors = None
            if model is not None:
                ids, matrix = self.store.vectors(model)
                vectors = (model, ids, matrix) if matrix is not None else None
        with target._writing():
            outcome, mapping = restore_mapped(target.store, document, clean_statement)
            for fact in target.store.facts_by_ids(list(outcome.added)):
                if fact.text is not None:
                    target.store.set_keys(fact.id, index_keys(fact.text))
            carry_records(misses, vectors, target.store, mapping)
        return outcome

    # -- helpers ---------------------------------------------------------------------------------

    def _active(self, fact_id: int) -> Fact:
        fact = self.store.get_fact(fact_id)
        if fact is None:
            raise MemoryInputError(f"there is no fact {fact_id}")
        if fact.status is not FactStatus.ACTIVE:
            raise MemoryInputError(f"fact {fact_id} is {fact.status.value}, not active")
        return fact

    def _related_cosine(
        self, fact_id: int, vector: np.ndarray | None, vectors: VectorIndex | None
    ) -> float:
        """Cosine as relevance, counted only in the model's related band (else 0)."""
        if vector is None or vectors is None or self._bands is None:
            return 0.0
        cosine = vectors.cosine(fact_id, vector)
        return cosine if cosine is not None and cosine >= self._bands.conflict else 0.0

    def _embed(self, text: str) -> np.ndarray | None:
        if self._embedder is None:
            return None
        try:
            return self._embedder.embed([text])[0]
        except EmbedderError as exc:
            log.warning("embedder unavailable, comparing by words only: %s", exc)
            return None

    def _vector_index(self) -> VectorIndex | None:
        if self._embedder is None:
            return None
        version = self.store.data_version()
        if self._vectors is None or version != self._vectors_version:
            # Another process may have written facts; reload the matrix from the database.
            ids, matrix = self.store.vectors(self._embedder.model)
            self._vectors = VectorIndex(ids, matrix)
            self._vectors_version = version
        return self._vectors

    @contextmanager
    def _writing(self) -> Iterator[None]:
        try:
            with self._database_errors(), self.store.atomic():
                yield
        except BaseException:
            # The vector cache may hold a fact the rollback undid, whose id a later fact takes.
            self._vectors = None
            raise

    @contextmanager
    def _reading(self) -> Iterator[None]:
        with self._database_errors():
            yield

    def _database_errors(self) -> AbstractContextManager[None]:
        return self.store.errors()


def clean_statement(text: object) -> str:
    """Validate and tidy a statement; MemoryInputError says what is wrong with it."""
    if not isinstance(text, str):
        raise MemoryInputError("a fact must be text")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise MemoryInputError("the fact is not valid UTF-8 text") from None
    text = unicodedata.normalize("NFC", text)
    text = "".join(ch if ch.isprintable() else " " for ch in text)
    text = re.sub(r"\s+", " ", text).strip()
    if not text:
        raise MemoryInputError("the fact is empty")
    if len(text) > MAX_FACT_CHARS:
        raise MemoryInputError(
            f"the fact is {len(text)} characters long; a fact holds at most {MAX_FACT_CHARS}"
        )
    return text


def _same_file(first: Path, second: Path) -> bool:
    """Whether two paths name one file (through links and relative paths alike)."""
    try:
        return os.path.samefile(first, second)
    except OSError:  # one of them is not there
        return first.resolve() == second.resolve()


def _kind(kind: str | Kind | None) -> Kind:
    try:
        return normalise_kind(kind)
    except ValueError as exc:
        raise MemoryInputError(str(exc)) from None
