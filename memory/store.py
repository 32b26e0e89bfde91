"""SQLite storage for facts: the only module that speaks SQL.

One connection per process, WAL, foreign keys, a busy timeout so two writers queue instead of
failing, and every multi-statement change inside ``atomic()``. Opening refuses anything that is not
a Hearth memory database and leaves such a file exactly as it was.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path

import numpy as np

from memory.kinds import Kind
from memory.model import (
    Fact,
    FactStatus,
    HistoryAction,
    HistoryEntry,
    NearMiss,
    Origin,
    Source,
)
from memory.schema import APPLICATION_ID, LATEST_VERSION, MIGRATIONS

SQLITE_HEADER = b"SQLite format 3\x00"
BUSY_TIMEOUT_MS = 10_000
COMMON_KEY_SHARE = 0.02
"""A key held by more than this share of all facts is too common to find candidates by."""
COMMON_KEY_MIN_FACTS = 200

Clock = Callable[[], float]

_FACT_COLUMNS = (
    "id, text, kind, status, created_at, updated_at, confirmed_at, confirm_count, pinned, "
    "origin, utterance, evidence, last_asked_at"
)


class StoreError(Exception):
    """The memory database cannot be used; the message says which file and why."""


class FactStore:
    """Facts, links, near-misses, tombstones, vectors and history in one SQLite file."""

    def __init__(self, connection: sqlite3.Connection, path: str, clock: Clock = time.time):
        self._db = connection
        self._depth = 0
        self.path = path
        self.clock = clock

    # -- opening ---------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path | str, clock: Clock = time.time) -> FactStore:
        """Open (creating with mode 0600 if absent) a memory database, migrating it if older.

        Raises StoreError, touching nothing, for a file that is not SQLite, a SQLite database of
        another program, a damaged database, or one written by a newer Hearth.
        """
        if str(path) == ":memory:":
            connection = sqlite3.connect(":memory:", isolation_level=None)
            store = cls(connection, ":memory:", clock)
            store._configure()
            store._migrate()
            return store
        path = Path(path).expanduser()
        if not path.exists():
            cls._create(path, clock)
        _check_is_ours(path)
        return cls._connect(path, clock)

    @classmethod
    def _connect(cls, path: Path, clock: Clock) -> FactStore:
        try:
            connection = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        except sqlite3.Error as exc:
            raise StoreError(f"{path}: cannot open the memory database: {exc}") from exc
        store = cls(connection, str(path), clock)
        try:
            store._configure()
            store._migrate()
        except sqlite3.DatabaseError as exc:
            connection.close()
            raise StoreError(f"{path}: the memory database is damaged: {exc}") from exc
        return store

    @classmethod
    def _create(cls, path: Path, clock: Clock) -> None:
        """Create a new memory whole, then link it into place.

        Nobody can meet a half-made memory: two processes starting at once each build one in a
        private file (mode 0600), and the first link wins; the other's copy is dropped.
        """
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            descriptor, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        except OSError as exc:
            raise StoreError(
                f"{path}: cannot create the memory database: {exc.strerror or exc}"
            ) from exc
        os.close(descriptor)
        temp = Path(temp_name)
        try:
            cls._connect(temp, clock).close()  # closing checkpoints: the header is complete
            os.link(temp, path)
        except FileExistsError:
            pass
        except OSError as exc:
            raise StoreError(
                f"{path}: cannot create the memory database: {exc.strerror or exc}"
            ) from exc
        finally:
            for leftover in (temp, Path(f"{temp}-wal"), Path(f"{temp}-shm")):
                leftover.unlink(missing_ok=True)

    def close(self) -> None:
        """Close the connection (committed work is already durable)."""
        self._db.close()

    def _configure(self) -> None:
        # WAL must be switched on outside a transaction; NORMAL sync is durable in WAL mode except
        # for the last commits on power loss, which FULL protects: a shelf device loses power.
        self._db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        self._switch_to_wal()
        self._db.execute("PRAGMA synchronous = FULL")
        self._db.execute("PRAGMA foreign_keys = ON")

    def _switch_to_wal(self) -> None:
        # Changing the journal mode takes an exclusive lock without waiting on the busy handler;
        # two processes opening a new memory at once retry briefly instead of failing.
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        while True:
            try:
                self._db.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def _migrate(self) -> None:
        with self.atomic():
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > LATEST_VERSION:
                raise StoreError(
                    f"{self.path}: written by a newer Hearth (schema {version}, this one knows "
                    f"{LATEST_VERSION}); upgrade Hearth to use it"
                )
            if version == 0:
                self._db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                self._db.execute(
                    "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL)"
                )
            for number, script in MIGRATIONS:
                if number <= version:
                    continue
                for statement in _statements(script):
                    self._db.execute(statement)
                self._db.execute(
                    "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)",
                    (number, self.clock()),
                )
                self._db.execute(f"PRAGMA user_version = {number}")

    # -- transactions ----------------------------------------------------------------------------

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """A write transaction (BEGIN IMMEDIATE, so concurrent writers queue); nested: a savepoint.

        Any exception rolls the whole block back and propagates.
        """
        if self._depth == 0:
            self._db.execute("BEGIN IMMEDIATE")
        else:
            self._db.execute(f"SAVEPOINT s{self._depth}")
        self._depth += 1
        try:
            yield
        except BaseException:
            self._depth -= 1
            if self._depth == 0:
                self._db.execute("ROLLBACK")
            else:
                self._db.execute(f"ROLLBACK TO s{self._depth}")
                self._db.execute(f"RELEASE s{self._depth}")
            raise
        self._depth -= 1
        if self._depth == 0:
            self._db.execute("COMMIT")
        else:
            self._db.execute(f"RELEASE s{self._depth}")

    def data_version(self) -> int:
        """Changes when another connection commits (used to refresh in-memory indexes)."""
        return self._db.execute("PRAGMA data_version").fetchone()[0]

    # -- facts -----------------------------------------------------------------------------------

    def insert_fact(self, text: str, kind: Kind, source: Source, pinned: bool) -> int:
        """Add an active fact and return its id."""
        now = self.clock()
        cursor = self._db.execute(
            "INSERT INTO facts (text, kind, status, created_at, updated_at, confirmed_at, "
            "confirm_count, pinned, origin, utterance, evidence) "
            "VALUES (?, ?, 'active', ?, ?, ?, 1, ?, ?, ?, ?)",
            (text, kind.value, now, now, now, int(pinned), source.origin.value, source.utterance,
             source.evidence),
        )  # fmt: skip
        return int(cursor.lastrowid or 0)

    def confirm_fact(self, fact_id: int, text: str, source: Source, pinned: bool) -> None:
        """Record a restatement: the new wording, one more confirmation, the time, active again."""
        now = self.clock()
        self._db.execute(
            "UPDATE facts SET text = ?, status = 'active', updated_at = ?, confirmed_at = ?, "
            "confirm_count = confirm_count + 1, pinned = max(pinned, ?), "
            "utterance = coalesce(?, utterance), evidence = coalesce(?, evidence) WHERE id = ?",
            (text, now, now, int(pinned), source.utterance, source.evidence, fact_id),
        )

    def correct_fact(self, fact_id: int, text: str, kind: Kind, source: Source) -> None:
        """Give a fact its right wording: not a confirmation, so the count stays as it was."""
        self._db.execute(
            "UPDATE facts SET text = ?, kind = ?, updated_at = ?, "
            "utterance = coalesce(?, utterance), evidence = coalesce(?, evidence) WHERE id = ?",
            (text, kind.value, self.clock(), source.utterance, source.evidence, fact_id),
        )

    def set_status(self, fact_id: int, status: FactStatus) -> None:
        """Change a fact's status (active / superseded); forgetting has its own method."""
        self._db.execute(
            "UPDATE facts SET status = ?, updated_at = ? WHERE id = ?",
            (status.value, self.clock(), fact_id),
        )

    def set_pinned(self, fact_id: int, pinned: bool) -> None:
        """Pin or unpin a fact."""
        self._db.execute(
            "UPDATE facts SET pinned = ?, updated_at = ? WHERE id = ?",
            (int(pinned), self.clock(), fact_id),
        )

    def mark_asked(self, fact_ids: Iterable[int]) -> None:
        """Remember when the user was last asked about these facts' conflict."""
        now = self.clock()
        self._db.executemany(
            "UPDATE facts SET last_asked_at = ? WHERE id = ?", [(now, i) for i in fact_ids]
        )

    def erase_fact(self, fact_id: int, digests: Iterable[str]) -> None:
        """Forget: remove the text everywhere it is held, keep a tombstone row and its digests."""
        self._db.execute(
            "UPDATE facts SET text = NULL, utterance = NULL, evidence = NULL, "
            "status = 'forgotten', updated_at = ? WHERE id = ?",
            (self.clock(), fact_id),
        )
        self._db.execute("UPDATE history SET text = NULL WHERE fact_id = ?", (fact_id,))
        self._db.execute("DELETE FROM fact_keys WHERE fact_id = ?", (fact_id,))
        self._db.execute("DELETE FROM vectors WHERE fact_id = ?", (fact_id,))
        self._db.executemany(
            "INSERT OR IGNORE INTO tombstones (digest, fact_id) VALUES (?, ?)",
            [(digest, fact_id) for digest in digests],
        )

    def get_fact(self, fact_id: int) -> Fact | None:
        """One fact by id, with its conflict links, or None."""
        facts = self.facts_by_ids([fact_id])
        return facts[0] if facts else None

    def facts_by_ids(self, fact_ids: Sequence[int]) -> list[Fact]:
        """Facts by id, in the order given (missing ids are skipped)."""
        if not fact_ids:
            return []
        rows = self._select_in(f"SELECT {_FACT_COLUMNS} FROM facts WHERE id IN ", fact_ids)
        by_id = {row[0]: row for row in rows}
        links = self.conflict_links(list(by_id))
        return [_fact(by_id[i], links.get(i, ())) for i in fact_ids if i in by_id]

    def list_facts(self, statuses: Iterable[FactStatus]) -> list[Fact]:
        """Every fact with one of the statuses, oldest first."""
        wanted = [status.value for status in statuses]
        rows = self._select_in(f"SELECT {_FACT_COLUMNS} FROM facts WHERE status IN ", wanted)
        rows.sort(key=lambda row: row[0])
        links = self.conflict_links([row[0] for row in rows])
        return [_fact(row, links.get(row[0], ())) for row in rows]

    def pinned_fact_ids(self) -> list[int]:
        """Ids of active pinned facts."""
        rows = self._db.execute(
            "SELECT id FROM facts WHERE pinned = 1 AND status = 'active' ORDER BY id"
        )
        return [row[0] for row in rows]

    def conflicted_fact_ids(self) -> list[int]:
        """Ids of facts with at least one unresolved conflict."""
        rows = self._db.execute("SELECT DISTINCT fact_id FROM conflicts ORDER BY fact_id")
        return [row[0] for row in rows]

    def fact_count(self) -> int:
        """How many facts are active or superseded."""
        return self._db.execute(
            "SELECT count(*) FROM facts WHERE status != 'forgotten'"
        ).fetchone()[0]

    # -- the candidate index -------------------------------------------------------------------

    def set_keys(self, fact_id: int, keys: Iterable[str]) -> None:
        """Replace a fact's index keys."""
        self._db.execute("DELETE FROM fact_keys WHERE fact_id = ?", (fact_id,))
        self._db.executemany(
            "INSERT OR IGNORE INTO fact_keys (key, fact_id) VALUES (?, ?)",
            [(key, fact_id) for key in keys],
        )

    def fact_ids_with_keys(self, keys: Iterable[str], limit: int) -> list[int]:
        """Facts sharing keys, best first, at most ``limit``.

        Shared keys are weighted by rarity (inverse document frequency): sharing "postgres"
        says more than sharing "like", so a large store still offers the right facts first.
        """
        keys = sorted(set(keys))
        if not keys:
            return []
        marks = ",".join("?" * len(keys))
        counts = dict(
            self._db.execute(
                f"SELECT key, count(*) FROM fact_keys WHERE key IN ({marks}) GROUP BY key", keys
            ).fetchall()
        )
        if not counts:
            return []
        # The newest id stands in for the number of facts: O(1), and close enough for weights.
        total = max(1, self._db.execute("SELECT max(id) FROM facts").fetchone()[0] or 1)
        # A key most facts share ("like", "every") costs a long scan and tells little: skip it,
        # unless nothing rarer is shared.
        common = max(COMMON_KEY_MIN_FACTS, COMMON_KEY_SHARE * total)
        present = sorted(counts, key=counts.__getitem__)
        chosen = [key for key in present if counts[key] <= common] or present[:2]
        weighted = [(key, math.log(1 + total / counts[key])) for key in chosen]
        values = ",".join("(?, ?)" for _ in weighted)
        rows = self._db.execute(
            f"WITH wanted(key, weight) AS (VALUES {values}) "
            "SELECT fact_id FROM fact_keys JOIN wanted USING (key) "
            "GROUP BY fact_id ORDER BY sum(weight) DESC, fact_id DESC LIMIT ?",
            [*(item for pair in weighted for item in pair), int(limit)],
        )
        return [row[0] for row in rows]

    # -- links -----------------------------------------------------------------------------------

    def link_conflict(self, fact_id: int, other_id: int, score: float) -> None:
        """Link two facts as conflicting, both ways."""
        now = self.clock()
        self._db.executemany(
            "INSERT OR REPLACE INTO conflicts (fact_id, other_id, score, created_at) "
            "VALUES (?, ?, ?, ?)",
            [(fact_id, other_id, score, now), (other_id, fact_id, score, now)],
        )

    def unlink_conflict(self, fact_id: int, other_id: int) -> None:
        """Remove the conflict link between two facts, both ways."""
        self._db.execute(
            "DELETE FROM conflicts WHERE (fact_id = ? AND other_id = ?) "
            "OR (fact_id = ? AND other_id = ?)",
            (fact_id, other_id, other_id, fact_id),
        )

    def conflict_links(self, fact_ids: Sequence[int]) -> dict[int, tuple[int, ...]]:
        """For each fact, the ids it conflicts with."""
        if not fact_ids:
            return {}
        links: dict[int, list[int]] = {}
        rows = self._select_in(
            "SELECT fact_id, other_id FROM conflicts WHERE fact_id IN ", fact_ids, " ORDER BY 1, 2"
        )
        for fact_id, other_id in rows:
            links.setdefault(fact_id, []).append(other_id)
        return {fact_id: tuple(others) for fact_id, others in links.items()}

    def add_near_miss(self, miss: NearMiss) -> None:
        """Record a cross-kind pair in the conflict band."""
        self._db.execute(
            "INSERT INTO near_misses (fact_id, other_id, score, fact_kind, other_kind, reason, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (miss.fact_id, miss.other_id, miss.score, miss.fact_kind.value, miss.other_kind.value,
             miss.reason, self.clock()),
        )  # fmt: skip

    def near_misses(self, fact_id: int) -> list[NearMiss]:
        """Near-miss records that involve a fact."""
        rows = self._db.execute(
            "SELECT fact_id, other_id, score, fact_kind, other_kind, reason FROM near_misses "
            "WHERE fact_id = ? OR other_id = ? ORDER BY id",
            (fact_id, fact_id),
        )
        return [NearMiss(a, b, score, Kind(ka), Kind(kb), why) for a, b, score, ka, kb, why in rows]

    # -- tombstones ------------------------------------------------------------------------------

    def forgotten_by_digest(self, digests: Iterable[str]) -> int | None:
        """The id of a forgotten fact whose tombstone carries any of the digests."""
        rows = self._select_in("SELECT fact_id FROM tombstones WHERE digest IN ", list(digests))
        return rows[0][0] if rows else None

    def lift_tombstone(self, fact_id: int) -> None:
        """Drop a tombstone's digests (the user chose to tell Hearth the fact again)."""
        self._db.execute("DELETE FROM tombstones WHERE fact_id = ?", (fact_id,))

    # -- vectors ---------------------------------------------------------------------------------

    def set_vector(self, fact_id: int, model: str, vector: np.ndarray) -> None:
        """Store a fact's embedding from a model."""
        self._db.execute(
            "INSERT OR REPLACE INTO vectors (fact_id, model, vector) VALUES (?, ?, ?)",
            (fact_id, model, np.asarray(vector, dtype=np.float32).tobytes()),
        )

    def vectors(self, model: str) -> tuple[list[int], np.ndarray | None]:
        """Every stored vector from ``model`` as (ids, matrix), or ([], None)."""
        rows = self._db.execute(
            "SELECT v.fact_id, v.vector FROM vectors v JOIN facts f ON f.id = v.fact_id "
            "WHERE v.model = ? AND f.status != 'forgotten' ORDER BY v.fact_id",
            (model,),
        ).fetchall()
        if not rows:
            return [], None
        matrix = np.stack([np.frombuffer(blob, dtype=np.float32) for _, blob in rows])
        return [fact_id for fact_id, _ in rows], matrix

    # -- history ---------------------------------------------------------------------------------

    def append_history(
        self,
        fact_id: int,
        action: HistoryAction,
        text: str | None,
        other_id: int | None = None,
        detail: dict[str, object] | None = None,
    ) -> None:
        """Append one entry to the history."""
        self._db.execute(
            "INSERT INTO history (fact_id, at, action, text, other_id, detail) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (fact_id, self.clock(), action.value, text, other_id,
             json.dumps(detail or {}, ensure_ascii=False, sort_keys=True)),
        )  # fmt: skip

    def history(self, fact_id: int | None = None) -> list[HistoryEntry]:
        """The history, oldest first, of one fact or of all."""
        query = "SELECT id, fact_id, at, action, text, other_id, detail FROM history"
        params: tuple[int, ...] = ()
        if fact_id is not None:
            query += " WHERE fact_id = ?"
            params = (fact_id,)
        rows = self._db.execute(query + " ORDER BY id", params)
        return [
            HistoryEntry(i, f, at, HistoryAction(action), text, other, json.loads(detail))
            for i, f, at, action, text, other, detail in rows
        ]

    # -- helpers ---------------------------------------------------------------------------------

    def _select_in(self, head: str, values: Sequence[object], tail: str = "") -> list[tuple]:
        # SQLite caps bound parameters; chunk long lists. Callers that need a global order
        # (LIMIT) pass short lists, which stay in one chunk.
        rows: list[tuple] = []
        values = list(values)
        for start in range(0, len(values), 900):
            chunk = values[start : start + 900]
            marks = ",".join("?" * len(chunk))
            rows.extend(self._db.execute(f"{head}({marks}){tail}", chunk).fetchall())
        return rows


def _fact(row: tuple, conflicts: tuple[int, ...]) -> Fact:
    (fact_id, text, kind, status, created, updated, confirmed, count, pinned, origin, utterance,
     evidence, asked) = row  # fmt: skip
    return Fact(
        id=fact_id,
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


def _statements(script: str) -> list[str]:
    # sqlite3's executescript() commits first, which would break the migration's transaction;
    # split on complete statements instead (triggers hold ';' inside BEGIN ... END).
    statements, current = [], ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            if current.strip():
                statements.append(current.strip())
            current = ""
    if current.strip():
        statements.append(current.strip())
    return statements


def _check_is_ours(path: Path) -> None:
    """Refuse, without writing a byte, a file that is not a Hearth memory database."""
    try:
        with path.open("rb") as handle:
            header = handle.read(100)
    except OSError as exc:
        raise StoreError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    if len(header) == 0:
        return  # an empty file (e.g. made by touch or mktemp) is a new database
    if len(header) < 100 or not header.startswith(SQLITE_HEADER):
        raise StoreError(f"{path}: not a SQLite database; refusing to use it as Hearth's memory")
    application_id = int.from_bytes(header[68:72], "big")
    user_version = int.from_bytes(header[60:64], "big")
    if application_id != APPLICATION_ID and not (application_id == 0 and user_version == 0):
        raise StoreError(
            f"{path}: a SQLite database of another program (application id {application_id:#x}); "
            "refusing to use it as Hearth's memory"
        )
    if application_id == 0:
        # No mark in the file's header: an empty database, or one whose mark is still in the
        # write-ahead log (another Hearth process creating it right now). Ask SQLite, which reads
        # the log too; only an empty database may become a memory.
        uri = f"{path.resolve().as_uri()}?mode=ro"
        try:
            with closing(sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000)) as probe:
                if probe.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID:
                    return
                tables = probe.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path}: the memory database is damaged: {exc}") from exc
        if tables:
            raise StoreError(
                f"{path}: a SQLite database of another program; refusing to use it as "
                "Hearth's memory"
            )
