"""PostgreSQL storage for facts: the MemoryBackend a household's Hearths share.

The same operations with the same meaning as ``memory.store.FactStore`` over SQLite, so the rules
in ``memory.facts`` run unchanged: the same numbered migrations (``memory.postgres_schema``),
recorded in ``schema_migrations`` in the same transaction; the append-only history enforced by
triggers; every write inside ``atomic()``, serialised across devices by an advisory lock (see
``memory.postgres_link``), so two devices remembering conflicting facts at the same moment end
up linked, as two writers on one SQLite file do. ``data_version`` follows the other devices'
commits through ``LISTEN``/``NOTIFY``, which is what keeps each device's vector cache current.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from typing import Any

import numpy as np
from psycopg.types.json import Jsonb

from memory.kinds import Kind
from memory.location import PostgresTarget
from memory.model import Fact, FactStatus, HistoryAction, HistoryEntry, NearMiss, Origin, Source
from memory.postgres_link import PostgresLink, Tracking
from memory.postgres_schema import CHANNEL, LATEST_VERSION, MIGRATIONS, SCHEMA
from memory.schema import APPLICATION_ID
from memory.store import (
    COMMON_KEY_MIN_FACTS,
    COMMON_KEY_SHARE,
    LARGEST_ID,
    Clock,
    MemoryUnavailable,
    StoreError,
)

MEMORY_LOCK = (APPLICATION_ID, 1)
"""The advisory lock every writing transaction of the memory takes ('HRTH', 1)."""

_FACT_COLUMNS = (
    "id, text, kind, status, created_at, updated_at, confirmed_at, confirm_count, pinned, "
    "origin, utterance, evidence, last_asked_at"
)
_NEXT_ID = "(SELECT coalesce(max(id), 0) + 1 FROM facts)"
"""The next fact id as SQLite gives it (the largest plus one): safe, writers hold the lock."""


class PostgresStore:
    """Facts, links, near-misses, tombstones, vectors and history in a shared PostgreSQL
    database: the PostgreSQL MemoryBackend."""

    def __init__(self, target: PostgresTarget, clock: Clock = time.time, *, create: bool = True):
        self.path = target.shown
        """The database as messages show it (its URL without a password)."""
        self.clock = clock
        self.damage = ""
        """Always "": PostgreSQL checks its own pages (kept for FactStore's callers)."""
        self.unreadable: list[str] = []
        """Always empty: PostgreSQL checks its own pages (kept for FactStore's callers)."""
        self._create = create
        tracking = Tracking(MEMORY_LOCK, "SELECT version FROM memory_version", CHANNEL)
        self._link = PostgresLink(target, tracking, self._prepare)

    @classmethod
    def open(
        cls,
        target: PostgresTarget | str,
        clock: Clock = time.time,
        *,
        create: bool = True,
        wait: bool = True,
    ) -> PostgresStore:
        """Open the memory in a PostgreSQL database, creating its tables when ``create`` and
        migrating older ones.

        Raises StoreError for a database that refuses the login, holds another program's
        ``hearth`` schema or one written by a newer Hearth, or (without ``create``) holds no
        memory; MemoryUnavailable when it cannot be reached. With ``wait=False`` an unreachable
        database is no error: the store connects (and migrates) on its first use, so a device
        can start while the database is down.
        """
        target = target if isinstance(target, PostgresTarget) else PostgresTarget(target)
        store = cls(target, clock, create=create)
        try:
            store._link.connect()
        except StoreError as error:
            if wait or not isinstance(error, MemoryUnavailable):
                raise
        return store

    def _prepare(self, link: PostgresLink) -> None:
        """Check the tables on a new connection: refuse what is not ours, migrate what is old."""
        (ours, schema_tables), = link.execute(
            "SELECT to_regclass(%s) IS NOT NULL, (SELECT count(*) FROM pg_tables "
            "WHERE schemaname = %s)",
            (f"{SCHEMA}.schema_migrations", SCHEMA),
        )  # fmt: skip
        if not ours and schema_tables:
            raise StoreError(
                f"{self.path}: its schema {SCHEMA!r} holds another program's tables; refusing "
                "to use it as Hearth's memory"
            )
        if not ours and not self._create:
            raise StoreError(
                f"{self.path}: there is no Hearth memory in this database (nothing remembered "
                "yet, or a mistyped URL); this command only reads, so it does not create one"
            )
        if ours and self._version(link) >= LATEST_VERSION:
            self._refuse_newer(link)
            return
        with link.atomic(tracked=False):
            if not link.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (SCHEMA,)):
                link.execute(f"CREATE SCHEMA {SCHEMA}")
            link.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(version INTEGER PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)"
            )
            version = self._refuse_newer(link)
            for number, script in MIGRATIONS:
                if number > version:
                    link.execute(script)
                    link.execute(
                        "INSERT INTO schema_migrations (version, applied_at) VALUES (%s, %s)",
                        (number, self.clock()),
                    )

    @staticmethod
    def _version(link: PostgresLink) -> int:
        return int(link.execute("SELECT coalesce(max(version), 0) FROM schema_migrations")[0][0])

    def _refuse_newer(self, link: PostgresLink) -> int:
        version = self._version(link)
        if version > LATEST_VERSION:
            raise StoreError(
                f"{self.path}: written by a newer Hearth (schema {version}, this one knows "
                f"{LATEST_VERSION}); upgrade Hearth to use it"
            )
        return version

    def close(self) -> None:
        """Close the connection (committed work is already durable)."""
        self._link.close()

    # -- transactions ----------------------------------------------------------------------------

    def atomic(self) -> AbstractContextManager[None]:
        """A write transaction, serialised with the other devices' writes; nested: a savepoint.
        Any exception rolls the block back and propagates; a commit returns once durable."""
        return self._link.atomic()

    def errors(self) -> AbstractContextManager[None]:
        """Turn database errors inside the block into StoreErrors (MemoryUnavailable when the
        database cannot be reached)."""
        return self._link.errors()

    def data_version(self) -> int:
        """Changes when another device commits (heard by NOTIFY), or after a reconnection."""
        return self._link.changes()

    def _rows(self, sql: str, params: Sequence[Any] | None = None) -> list[tuple]:
        return self._link.execute(sql, params)

    # -- facts -----------------------------------------------------------------------------------

    def insert_fact(self, text: str, kind: Kind, source: Source, pinned: bool) -> int:
        """Add an active fact and return its id."""
        now = self.clock()
        (fact_id,), = self._rows(
            f"INSERT INTO facts ({_FACT_COLUMNS}) VALUES ({_NEXT_ID}, %s, %s, 'active', %s, %s, "
            "%s, 1, %s, %s, %s, %s, NULL) RETURNING id",
            (text, kind.value, now, now, now, pinned, source.origin.value, source.utterance,
             source.evidence),
        )  # fmt: skip
        return int(fact_id)

    def restore_fact(
        self,
        wanted_id: int,
        text: str | None,
        kind: Kind,
        status: FactStatus,
        source: Source,
        pinned: bool,
        times: tuple[float, float, float],
        confirm_count: int,
    ) -> int:
        """Bring back a fact from an export, under its old id when that is free; returns its id.

        ``times`` are when it was created, last updated and last confirmed.
        """
        taken = self._rows("SELECT 1 FROM facts WHERE id = %s", (wanted_id,))
        created, updated, confirmed = times
        fact_id = _NEXT_ID if taken else "%s"
        (stored,), = self._rows(
            f"INSERT INTO facts ({_FACT_COLUMNS}) VALUES ({fact_id}, %s, %s, %s, %s, %s, %s, %s, "
            "%s, %s, %s, %s, NULL) RETURNING id",
            ((() if taken else (wanted_id,)) + (text, kind.value, status.value, created, updated,
             confirmed, confirm_count, pinned, source.origin.value, source.utterance,
             source.evidence)),
        )  # fmt: skip
        return int(stored)

    def fact_identities(self) -> dict[tuple[int, str, str | None], int]:
        """Every fact by what identifies it across databases: the second it was created, its
        kind and its first wording (None once forgotten)."""
        rows = self._rows(
            "SELECT f.id, f.created_at, f.kind, (SELECT h.text FROM history h "
            "WHERE h.fact_id = f.id ORDER BY h.id LIMIT 1) FROM facts f"
        )
        return {(int(created), kind, text): fact_id for fact_id, created, kind, text in rows}

    def confirm_fact(self, fact_id: int, text: str, source: Source, pinned: bool) -> None:
        """Record a restatement: the new wording, one more confirmation, the time, active again."""
        now = self.clock()
        self._rows(
            "UPDATE facts SET text = %s, status = 'active', updated_at = %s, confirmed_at = %s, "
            "confirm_count = confirm_count + 1, pinned = pinned OR %s, "
            "utterance = coalesce(%s, utterance), evidence = coalesce(%s, evidence) WHERE id = %s",
            (text, now, now, pinned, source.utterance, source.evidence, fact_id),
        )

    def correct_fact(self, fact_id: int, text: str, kind: Kind, source: Source) -> None:
        """Give a fact its right wording: not a confirmation, so the count stays as it was."""
        self._rows(
            "UPDATE facts SET text = %s, kind = %s, updated_at = %s, "
            "utterance = coalesce(%s, utterance), evidence = coalesce(%s, evidence) WHERE id = %s",
            (text, kind.value, self.clock(), source.utterance, source.evidence, fact_id),
        )

    def set_status(self, fact_id: int, status: FactStatus) -> None:
        """Change a fact's status (active / superseded); forgetting has its own method."""
        self._rows(
            "UPDATE facts SET status = %s, updated_at = %s WHERE id = %s",
            (status.value, self.clock(), fact_id),
        )

    def set_pinned(self, fact_id: int, pinned: bool) -> None:
        """Pin or unpin a fact."""
        self._rows(
            "UPDATE facts SET pinned = %s, updated_at = %s WHERE id = %s",
            (pinned, self.clock(), fact_id),
        )

    def mark_asked(self, fact_ids: Iterable[int]) -> None:
        """Remember when the user was last asked about these facts' conflict."""
        self._rows(
            "UPDATE facts SET last_asked_at = %s WHERE id = ANY(%s)", (self.clock(), list(fact_ids))
        )

    def erase_fact(self, fact_id: int, digests: Iterable[str]) -> None:
        """Forget: remove the text everywhere it is held, keep a tombstone row and its digests."""
        self._rows(
            "UPDATE facts SET text = NULL, utterance = NULL, evidence = NULL, "
            "status = 'forgotten', updated_at = %s WHERE id = %s",
            (self.clock(), fact_id),
        )
        self._rows("UPDATE history SET text = NULL WHERE fact_id = %s", (fact_id,))
        self._rows("DELETE FROM fact_keys WHERE fact_id = %s", (fact_id,))
        self._rows("DELETE FROM vectors WHERE fact_id = %s", (fact_id,))
        self.add_tombstones(fact_id, digests)

    def add_tombstones(self, fact_id: int, digests: Iterable[str]) -> None:
        """Keep digests of a forgotten fact's wordings, so they are not learned again."""
        self._rows(
            "INSERT INTO tombstones (digest, fact_id) SELECT unnest(%s::text[]), %s "
            "ON CONFLICT DO NOTHING",
            (sorted(set(digests)), fact_id),
        )

    def tombstones(self) -> list[tuple[int, str]]:
        """Every tombstone digest as (fact id, digest)."""
        rows = self._rows("SELECT fact_id, digest FROM tombstones ORDER BY fact_id, digest")
        return [(int(fact_id), digest) for fact_id, digest in rows]

    def get_fact(self, fact_id: int) -> Fact | None:
        """One fact by id, with its conflict links, or None."""
        facts = self.facts_by_ids([fact_id])
        return facts[0] if facts else None

    def facts_by_ids(self, fact_ids: Sequence[int]) -> list[Fact]:
        """Facts by id, in the order given (missing ids are skipped)."""
        fact_ids = [i for i in fact_ids if 0 < i <= LARGEST_ID]
        if not fact_ids:
            return []
        rows = self._rows(
            f"SELECT {_FACT_COLUMNS} FROM facts WHERE id = ANY(%s)", (sorted(set(fact_ids)),)
        )
        by_id = {row[0]: row for row in rows}
        links = self.conflict_links(list(by_id))
        return [_fact(by_id[i], links.get(i, ())) for i in fact_ids if i in by_id]

    def list_facts(self, statuses: Iterable[FactStatus]) -> list[Fact]:
        """Every fact with one of the statuses, oldest first."""
        wanted = [status.value for status in statuses]
        rows = self._rows(
            f"SELECT {_FACT_COLUMNS} FROM facts WHERE status = ANY(%s) ORDER BY id", (wanted,)
        )
        links = self.conflict_links([row[0] for row in rows])
        return [_fact(row, links.get(row[0], ())) for row in rows]

    def pinned_fact_ids(self) -> list[int]:
        """Ids of active pinned facts."""
        rows = self._rows("SELECT id FROM facts WHERE pinned AND status = 'active' ORDER BY id")
        return [int(row[0]) for row in rows]

    def conflicted_fact_ids(self) -> list[int]:
        """Ids of facts with at least one unresolved conflict."""
        rows = self._rows("SELECT DISTINCT fact_id FROM conflicts ORDER BY fact_id")
        return [int(row[0]) for row in rows]

    def fact_count(self) -> int:
        """How many facts are active or superseded."""
        return int(self._rows("SELECT count(*) FROM facts WHERE status != 'forgotten'")[0][0])

    # -- the candidate index -------------------------------------------------------------------

    def set_keys(self, fact_id: int, keys: Iterable[str]) -> None:
        """Replace a fact's index keys."""
        self._rows("DELETE FROM fact_keys WHERE fact_id = %s", (fact_id,))
        self._rows(
            "INSERT INTO fact_keys (key, fact_id) SELECT unnest(%s::text[]), %s "
            "ON CONFLICT DO NOTHING",
            (sorted(set(keys)), fact_id),
        )

    def fact_ids_with_keys(self, keys: Iterable[str], limit: int) -> list[int]:
        """Facts sharing keys, best first, at most ``limit``: shared keys weighted by rarity
        (inverse document frequency), the commonest skipped, as FactStore does."""
        keys = sorted(set(keys))
        if not keys:
            return []
        counts = dict(
            self._rows(
                "SELECT key, count(*) FROM fact_keys WHERE key = ANY(%s) GROUP BY key", (keys,)
            )
        )
        if not counts:
            return []
        total = max(1, self._rows("SELECT max(id) FROM facts")[0][0] or 1)
        common = max(COMMON_KEY_MIN_FACTS, COMMON_KEY_SHARE * total)
        present = sorted(counts, key=lambda key: (counts[key], key))
        chosen = [key for key in present if counts[key] <= common] or present[:2]
        weights = [math.log(1 + total / counts[key]) for key in chosen]
        rows = self._rows(
            "SELECT fact_id FROM fact_keys JOIN unnest(%s::text[], %s::float8[]) AS "
            "wanted(key, weight) USING (key) GROUP BY fact_id "
            "ORDER BY sum(weight) DESC, fact_id DESC LIMIT %s",
            (chosen, weights, int(limit)),
        )
        return [int(row[0]) for row in rows]

    # -- links -----------------------------------------------------------------------------------

    def link_conflict(self, fact_id: int, other_id: int, score: float) -> None:
        """Link two facts as conflicting, both ways."""
        now = self.clock()
        self._rows(
            "INSERT INTO conflicts (fact_id, other_id, score, created_at) "
            "VALUES (%s, %s, %s, %s), (%s, %s, %s, %s) ON CONFLICT (fact_id, other_id) "
            "DO UPDATE SET score = excluded.score, created_at = excluded.created_at",
            (fact_id, other_id, score, now, other_id, fact_id, score, now),
        )

    def unlink_conflict(self, fact_id: int, other_id: int) -> None:
        """Remove the conflict link between two facts, both ways."""
        self._rows(
            "DELETE FROM conflicts WHERE (fact_id = %s AND other_id = %s) "
            "OR (fact_id = %s AND other_id = %s)",
            (fact_id, other_id, other_id, fact_id),
        )

    def conflict_links(self, fact_ids: Sequence[int]) -> dict[int, tuple[int, ...]]:
        """For each fact, the ids it conflicts with."""
        if not fact_ids:
            return {}
        links: dict[int, list[int]] = {}
        rows = self._rows(
            "SELECT fact_id, other_id FROM conflicts WHERE fact_id = ANY(%s) ORDER BY 1, 2",
            (list(fact_ids),),
        )
        for fact_id, other_id in rows:
            links.setdefault(int(fact_id), []).append(int(other_id))
        return {fact_id: tuple(others) for fact_id, others in links.items()}

    def add_near_miss(self, miss: NearMiss) -> None:
        """Record a cross-kind pair in the conflict band."""
        self._rows(
            "INSERT INTO near_misses (fact_id, other_id, score, fact_kind, other_kind, reason, "
            "created_at) VALUES (%s, %s, %s, %s, %s, %s, %s)",
            (miss.fact_id, miss.other_id, miss.score, miss.fact_kind.value, miss.other_kind.value,
             miss.reason, self.clock()),
        )  # fmt: skip

    def near_misses(self, fact_id: int | None = None) -> list[NearMiss]:
        """Near-miss records that involve a fact (every record when None)."""
        query = "SELECT fact_id, other_id, score, fact_kind, other_kind, reason FROM near_misses"
        if fact_id is None:
            rows = self._rows(query + " ORDER BY id")
        else:
            where = " WHERE fact_id = %s OR other_id = %s ORDER BY id"
            rows = self._rows(query + where, (fact_id, fact_id))
        return [
            NearMiss(int(a), int(b), score, Kind(ka), Kind(kb), why)
            for a, b, score, ka, kb, why in rows
        ]

    # -- tombstones ------------------------------------------------------------------------------

    def forgotten_by_digest(self, digests: Iterable[str]) -> int | None:
        """The id of a forgotten fact whose tombstone carries any of the digests."""
        rows = self._rows(
            "SELECT fact_id FROM tombstones WHERE digest = ANY(%s) ORDER BY fact_id LIMIT 1",
            (list(digests),),
        )
        return int(rows[0][0]) if rows else None

    def lift_tombstone(self, fact_id: int) -> None:
        """Drop a tombstone's digests (the user chose to tell Hearth the fact again)."""
        self._rows("DELETE FROM tombstones WHERE fact_id = %s", (fact_id,))

    # -- vectors ---------------------------------------------------------------------------------

    def set_vector(self, fact_id: int, model: str, vector: np.ndarray) -> None:
        """Store a fact's embedding from a model."""
        self._rows(
            "INSERT INTO vectors (fact_id, model, vector) VALUES (%s, %s, %s) "
            "ON CONFLICT (fact_id) DO UPDATE SET model = excluded.model, vector = excluded.vector",
            (fact_id, model, np.asarray(vector, dtype=np.float32).tobytes()),
        )

    def vectors(self, model: str) -> tuple[list[int], np.ndarray | None]:
        """Every stored vector from ``model`` as (ids, matrix), or ([], None)."""
        rows = self._rows(
            "SELECT v.fact_id, v.vector FROM vectors v JOIN facts f ON f.id = v.fact_id "
            "WHERE v.model = %s AND f.status != 'forgotten' ORDER BY v.fact_id",
            (model,),
        )
        if not rows:
            return [], None
        matrix = np.stack([np.frombuffer(bytes(blob), dtype=np.float32) for _, blob in rows])
        return [int(fact_id) for fact_id, _ in rows], matrix

    # -- history ---------------------------------------------------------------------------------

    def append_history(
        self,
        fact_id: int,
        action: HistoryAction,
        text: str | None,
        other_id: int | None = None,
        detail: dict[str, object] | None = None,
        at: float | None = None,
    ) -> None:
        """Append one entry to the history (``at``: now, unless an import says when)."""
        self._rows(
            "INSERT INTO history (fact_id, at, action, text, other_id, detail) "
            "VALUES (%s, %s, %s, %s, %s, %s)",
            (fact_id, self.clock() if at is None else at, action.value, text, other_id,
             Jsonb(detail or {})),
        )  # fmt: skip

    def history(self, fact_id: int | None = None) -> list[HistoryEntry]:
        """The history, oldest first, of one fact or of all."""
        query = "SELECT id, fact_id, at, action, text, other_id, detail FROM history"
        if fact_id is None:
            rows = self._rows(query + " ORDER BY id")
        else:
            rows = self._rows(query + " WHERE fact_id = %s ORDER BY id", (fact_id,))
        return [
            HistoryEntry(int(i), int(f), at, HistoryAction(action), text,
                         None if other is None else int(other), detail)
            for i, f, at, action, text, other, detail in rows
        ]  # fmt: skip


def _fact(row: tuple, conflicts: tuple[int, ...]) -> Fact:
    (fact_id, text, kind, status, created, updated, confirmed, count, pinned, origin, utterance,
     evidence, asked) = row  # fmt: skip
    return Fact(
        id=int(fact_id),
        text=text,
        kind=Kind(kind),
        status=FactStatus(status),
        created_at=created,
        updated_at=updated,
        confirmed_at=confirmed,
        confirm_count=count,
        pinned=bool(pinned),
        source=Source(Origin(origin), utterance, evidence),
        conflicts_with=conflicts,
        last_asked_at=asked,
    )
