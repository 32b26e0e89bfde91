"""SQLite storage for facts: the only module that speaks SQL.

One connection per process, WAL, foreign keys, a busy timeout so two writers queue instead of
failing, and every multi-statement change inside ``atomic()``. Opening refuses anything that is not
a Hearth memory database and leaves such a file exactly as it was.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import shutil
import sqlite3
import stat
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, closing, contextmanager
from pathlib import Path
from typing import Protocol, runtime_checkable

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
from memory.salvage import UnreadablePage, readable_rows
from memory.schema import APPLICATION_ID, LATEST_VERSION, MIGRATIONS
from support import LARGEST_ID

log = logging.getLogger(__name__)

BUSY_TIMEOUT_SECONDS = 10.0
"""How long a write waits for another writer before giving up (and saying the store is busy)."""
QUICK_CHECK_LINES = 10
"""How many of quick_check's complaints are read; a damaged store's message quotes two."""
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


class StoreFailure(StoreError):
    """A good request the memory database could not carry out: busy, unreachable, the disk full
    or failing, its pages damaged. Nothing about the request was wrong; trying again later (or
    a repair) may succeed. The command line exits 1 for it, and 2 for the user's own mistake."""


class MemoryUnavailable(StoreFailure):
    """The shared memory database cannot be reached right now (down, or the network is): nothing
    asked of it was done, and the next call tries again. Hearth keeps running and says so."""


class DuplicateKey(StoreError):
    """A row that must be unique is there already (the schedule: an occurrence decided)."""


@runtime_checkable
class MemoryBackend(Protocol):
    """What the memory's rules (``memory.facts``, ``memory.transfer``) ask of a storage backend.

    The rules speak only these operations, never SQL, so another database (PostgreSQL, for a
    household's shared memory) is one more class with these methods. FactStore, over SQLite, is
    the only one for now; its methods document each operation. Every backend turns its own
    errors into StoreError inside ``errors()`` and runs a write inside ``atomic()``.
    """

    path: str
    clock: Clock

    @property
    def unreadable(self) -> list[str]:
        """What the last whole read of each table left out on a damaged file (SQLite only)."""
        ...

    def close(self) -> None: ...
    def atomic(self) -> AbstractContextManager[None]: ...
    def errors(self) -> AbstractContextManager[None]: ...
    def data_version(self) -> int: ...
    def insert_fact(self, text: str, kind: Kind, source: Source, pinned: bool) -> int: ...
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
    ) -> int: ...
    def fact_identities(self) -> dict[tuple[int, str, str | None], int]: ...
    def confirm_fact(self, fact_id: int, text: str, source: Source, pinned: bool) -> None: ...
    def correct_fact(self, fact_id: int, text: str, kind: Kind, source: Source) -> None: ...
    def set_status(self, fact_id: int, status: FactStatus) -> None: ...
    def set_pinned(self, fact_id: int, pinned: bool) -> None: ...
    def mark_asked(self, fact_ids: Iterable[int]) -> None: ...
    def erase_fact(self, fact_id: int, digests: Iterable[str]) -> None: ...
    def add_tombstones(self, fact_id: int, digests: Iterable[str]) -> None: ...
    def tombstones(self) -> list[tuple[int, str]]: ...
    def forgotten_by_digest(self, digests: Iterable[str]) -> int | None: ...
    def lift_tombstone(self, fact_id: int) -> None: ...
    def get_fact(self, fact_id: int) -> Fact | None: ...
    def facts_by_ids(self, fact_ids: Sequence[int]) -> list[Fact]: ...
    def list_facts(self, statuses: Iterable[FactStatus]) -> list[Fact]: ...
    def pinned_fact_ids(self) -> list[int]: ...
    def conflicted_fact_ids(self) -> list[int]: ...
    def set_keys(self, fact_id: int, keys: Iterable[str]) -> None: ...
    def fact_ids_with_keys(self, keys: Iterable[str], limit: int) -> list[int]: ...
    def link_conflict(self, fact_id: int, other_id: int, score: float) -> None: ...
    def unlink_conflict(self, fact_id: int, other_id: int) -> None: ...
    def add_near_miss(self, miss: NearMiss) -> None: ...
    def near_misses(self, fact_id: int | None = None) -> list[NearMiss]: ...
    def set_vector(self, fact_id: int, model: str, vector: np.ndarray) -> None: ...
    def vectors(self, model: str) -> tuple[list[int], np.ndarray | None]: ...
    def append_history(
        self,
        fact_id: int,
        action: HistoryAction,
        text: str | None,
        other_id: int | None = None,
        detail: dict[str, object] | None = None,
        at: float | None = None,
    ) -> None: ...
    def history(self, fact_id: int | None = None) -> list[HistoryEntry]: ...


class FactStore:
    """Facts, links, near-misses, tombstones, vectors and history in one SQLite file: the
    SQLite MemoryBackend."""

    def __init__(
        self,
        connection: sqlite3.Connection,
        path: str,
        clock: Clock = time.time,
        busy_timeout_seconds: float = BUSY_TIMEOUT_SECONDS,
    ):
        self._db = connection
        self._depth = 0
        self.path = path
        self.clock = clock
        self.busy_timeout_seconds = busy_timeout_seconds
        self.damage = ""
        """What quick_check found wrong at opening ("" when nothing): writes are then refused."""
        self._unreadable: dict[str, list[str]] = {}
        """By table, what its last whole read had to leave out."""
        self._wal: tuple[int, int] | None = None
        self._file = None if path == ":memory:" else _identity(Path(path))
        """(device, inode) of the database file this store opened."""

    @property
    def unreadable(self) -> list[str]:
        """What the last whole read of each table had to leave out, on pages that cannot be
        read ("facts 41 to 47"); empty while the file is sound."""
        return [span for spans in self._unreadable.values() for span in spans]

    # -- opening ---------------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: Path | str,
        clock: Clock = time.time,
        *,
        create: bool = True,
        busy_timeout_seconds: float = BUSY_TIMEOUT_SECONDS,
    ) -> FactStore:
        """Open a memory database, migrating it if older; with ``create``, make it (mode 0600,
        with its folders) when absent.

        Raises StoreError, touching nothing, for a path that is no regular file, a file that is
        not SQLite, a SQLite database of another program, or one written by a newer Hearth; and,
        saying what is really wrong, when the store is busy, not writable or damaged. A store
        whose pages fail SQLite's quick_check opens for reading only (see ``damage``).
        """
        if str(path) == ":memory:":
            connection = sqlite3.connect(":memory:", isolation_level=None)
            store = cls(connection, ":memory:", clock, busy_timeout_seconds)
            store._configure()
            store._migrate()
            return store
        if not str(path).strip():
            raise StoreError("the memory database path is empty")
        path = Path(path).expanduser()
        present = _regular_file(path)
        if present and not create and path.stat().st_size == 0:
            # An empty file becomes a memory on first write; a command that only reads leaves
            # it as it found it, schema and mode alike.
            raise StoreError(
                f"{path}: an empty file, no memory database yet (nothing remembered); this "
                "command only reads, so it does not make one"
            )
        if present:
            _make_private_if_empty(path)
        elif create:
            cls._create(path, clock, busy_timeout_seconds)
        else:
            raise StoreError(
                f"{path}: there is no memory database here (nothing remembered yet, or a "
                "mistyped path); this command only reads, so it does not create one"
            )
        _check_is_ours(path, busy_timeout_seconds)
        return cls._connect(path, clock, busy_timeout_seconds)

    @classmethod
    def _connect(cls, path: Path, clock: Clock, busy_timeout_seconds: float) -> FactStore:
        try:
            connection = sqlite3.connect(path, isolation_level=None, timeout=busy_timeout_seconds)
        except sqlite3.Error as exc:
            raise explain(str(path), exc, busy_timeout_seconds) from exc
        store = cls(connection, str(path), clock, busy_timeout_seconds)
        try:
            store._configure()
            store._check_pages()
            store._migrate()
        except sqlite3.Error as exc:
            connection.close()
            raise explain(str(path), exc, busy_timeout_seconds) from exc
        except StoreError:
            connection.close()
            raise
        store._wal = _identity(store._wal_path)
        return store

    @classmethod
    def _create(cls, path: Path, clock: Clock, busy_timeout_seconds: float) -> None:
        """Create a new memory whole, then link it into place.

        Nobody can meet a half-made memory: two processes starting at once each build one in a
        private file (mode 0600), and the first link wins; the other's copy is dropped.
        """
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            temp = _private_file_beside(path)
        except OSError as exc:
            raise StoreError(
                f"{path}: cannot create the memory database: {exc.strerror or exc}"
            ) from exc
        try:
            cls._connect(temp, clock, busy_timeout_seconds).close()  # closing checkpoints
            os.link(temp, path)
        except FileExistsError:
            pass
        except OSError as exc:
            raise StoreError(
                f"{path}: cannot create the memory database: {exc.strerror or exc}"
            ) from exc
        finally:
            temp.unlink(missing_ok=True)
            _remove_journals(temp)

    def close(self) -> None:
        """Close the connection (committed work is already durable)."""
        try:
            self._follow_the_file()
        except (OSError, sqlite3.Error, StoreError) as error:
            log.error("%s: not the file this store had open, as it closed: %s", self.path,
                      error)  # fmt: skip
        self._db.close()

    def _configure(self) -> None:
        # WAL must be switched on outside a transaction; NORMAL sync is durable in WAL mode except
        # for the last commits on power loss, which FULL protects: a shelf device loses power.
        self._db.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_seconds * 1000)}")
        self._switch_to_wal()
        self._db.execute("PRAGMA synchronous = FULL")
        self._db.execute("PRAGMA foreign_keys = ON")

    def _switch_to_wal(self) -> None:
        # Changing the journal mode takes an exclusive lock without waiting on the busy handler;
        # two processes opening a new memory at once retry briefly instead of failing.
        deadline = time.monotonic() + self.busy_timeout_seconds
        while True:
            try:
                self._db.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def _check_pages(self) -> None:
        """Run SQLite's quick_check: a store with damaged pages is kept for reading only."""
        try:
            rows = self._db.execute(f"PRAGMA quick_check({QUICK_CHECK_LINES})").fetchall()
        except sqlite3.DatabaseError as error:
            # A page too damaged for the check to walk past: still open, for reading only, so
            # `export` can save what the other pages hold.
            if not _is_damage(error):
                raise
            self.damage = str(error)
            return
        # Findings come one a row or several to a row; "*** in database main ***" heads them.
        lines = [line for row in rows for line in str(row[0]).splitlines()]
        findings = [line for line in lines if line.strip() and not line.startswith("***")]
        if lines != ["ok"]:
            findings = findings or lines
            more = len(findings) - 2
            self.damage = "; ".join(findings[:2]) + (f" and {more} more" if more > 0 else "")

    def _migrate(self) -> None:
        # Reading the version needs no lock, so a store another process is writing opens for
        # reading at once; only a store that needs migrating waits for the write lock.
        if self._db.execute("PRAGMA user_version").fetchone()[0] >= LATEST_VERSION:
            self._refuse_newer()
            return
        with self.atomic():
            version = self._refuse_newer()
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

    def _refuse_newer(self) -> int:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > LATEST_VERSION:
            raise StoreError(
                f"{self.path}: written by a newer Hearth (schema {version}, this one knows "
                f"{LATEST_VERSION}); upgrade Hearth to use it"
            )
        return version

    # -- transactions ----------------------------------------------------------------------------

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """A write transaction (BEGIN IMMEDIATE, so concurrent writers queue); nested: a savepoint.

        Any exception rolls the whole block back and propagates: the first error, even when SQLite
        has already rolled back itself (a full disk) and the rollback cannot run. A commit returns
        only once it is durable. Raises StoreError for a store found damaged at opening.
        """
        if self._depth == 0:
            if self.damage:
                raise StoreFailure(
                    f"{self.path}: the memory database is damaged (SQLite's quick_check: "
                    f"{self.damage}); refusing to write into it. Keep a copy of the file; "
                    "`hearth memory export FILE` saves what can still be read, and `hearth "
                    "memory import FILE --db NEW` brings that into a new database"
                )
            self._db.execute("BEGIN IMMEDIATE")
        else:
            self._db.execute(f"SAVEPOINT s{self._depth}")
        self._depth += 1
        try:
            yield
        except BaseException as error:
            self._depth -= 1
            self._roll_back(error)
            raise
        self._depth -= 1
        if self._depth:
            self._db.execute(f"RELEASE s{self._depth}")
            return
        try:
            self._db.execute("COMMIT")
        except BaseException as error:
            self._roll_back(error)
            raise
        self._keep_durable()

    def _roll_back(self, error: BaseException) -> None:
        """Undo the innermost open block; a failing rollback never hides the error behind it."""
        try:
            if self._depth:
                self._db.execute(f"ROLLBACK TO s{self._depth}")
                self._db.execute(f"RELEASE s{self._depth}")
            elif self._db.in_transaction:
                self._db.execute("ROLLBACK")
        except sqlite3.Error as failure:
            log.warning("rolling back after %r failed too: %s", error, failure)

    @property
    def _wal_path(self) -> Path:
        return Path(f"{self.path}-wal")

    def _keep_durable(self) -> None:
        """Make sure what was just committed is in a file SQLite will read again.

        A commit lands in the write-ahead log. If that file was deleted or replaced while the
        store is open (a cleaner, a careless ``rm``), the commit sits in a log no other opening
        will read and is lost with this process: copy the log into the database file now, and
        start a new log, before the write is acknowledged.
        """
        if self.path == ":memory:":
            return
        try:
            if self._follow_the_file():
                return
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(
                f"{self.path}: the memory database was deleted while Hearth was writing, and it "
                f"could not be written again: {exc}"
            ) from exc
        current = _identity(self._wal_path)
        if current == self._wal or self._wal is None:
            self._wal = self._wal or current
            return
        log.warning("%s was deleted or replaced under a running Hearth; saving into the database",
                    self._wal_path)  # fmt: skip
        try:
            busy = self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
            if busy:
                raise sqlite3.OperationalError("the checkpoint could not finish")
            self._reopen()
            self._db.execute("SELECT count(*) FROM facts").fetchone()
        except sqlite3.Error as exc:
            raise StoreError(
                f"{self.path}: its write-ahead log ({self._wal_path.name}) was deleted while "
                f"Hearth was writing, and the last change could not be saved: {exc}"
            ) from exc
        self._wal = _identity(self._wal_path)

    def _follow_the_file(self) -> bool:
        """If the database file is no longer the one this store has open, act on it; whether
        it did. Reconnecting by name found a new empty file: every turn after failed with "no
        such table", and everything the store held was lost when the process ended.

        - Deleted (a cleaner, a careless ``rm``): written again from the copy this connection
          still has open, made whole in a private file and linked into place, and the store goes
          on in it: nothing lost.
        - Replaced (another store of this process wrote it again first, or a backup was put
          back): what this store held is kept beside it (``memory.db.saved-<time>``), the store
          goes on in the file now there, and a StoreError says the last change was not saved,
          so it is never acknowledged and then lost.
        """
        path = Path(self.path)
        if self.path == ":memory:" or _identity(path) == self._file:
            return False
        copy = self._copy_beside(path)
        placed = False
        if _identity(path) is None:
            with contextlib.suppress(FileExistsError):  # someone put one there meanwhile
                os.link(copy, path)
                placed = True
        if placed:
            copy.unlink()
        else:
            saved = path.with_name(f"{path.name}.saved-{time.strftime('%Y%m%d-%H%M%S')}")
            copy.replace(saved)
        self._reopen()
        self._file, self._wal = _identity(path), _identity(self._wal_path)
        if placed:
            log.warning("%s was deleted under a running Hearth; written again from the copy it "
                        "had open, nothing lost", self.path)  # fmt: skip
            return True
        raise StoreError(
            f"{self.path}: the memory database was replaced while Hearth was writing; the last "
            f"change was not saved in it (what this process held is in {saved.name}), say it "
            "again"
        )

    def _reopen(self) -> None:
        """Close the connection and open the file now at the path, configured as at opening."""
        self._db.close()
        self._db = sqlite3.connect(self.path, isolation_level=None,
                                   timeout=self.busy_timeout_seconds)  # fmt: skip
        self._configure()

    def _copy_beside(self, path: Path) -> Path:
        """A whole copy of what this connection has open, in a private file beside ``path``."""
        copy = _private_file_beside(path)
        try:
            with closing(sqlite3.connect(copy)) as target:
                self._db.backup(target)
        except BaseException:
            copy.unlink(missing_ok=True)
            raise
        finally:
            _remove_journals(copy)
        return copy

    @contextmanager
    def errors(self) -> Iterator[None]:
        """Turn SQLite's errors inside the block into StoreErrors saying what is really wrong."""
        try:
            yield
        except sqlite3.Error as error:
            raise explain(self.path, error, self.busy_timeout_seconds) from error

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
        taken = self._db.execute("SELECT 1 FROM facts WHERE id = ?", (wanted_id,)).fetchone()
        created, updated, confirmed = times
        cursor = self._db.execute(
            "INSERT INTO facts (id, text, kind, status, created_at, updated_at, confirmed_at, "
            "confirm_count, pinned, origin, utterance, evidence) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (None if taken else wanted_id, text, kind.value, status.value, created, updated,
             confirmed, confirm_count, int(pinned), source.origin.value, source.utterance,
             source.evidence),
        )  # fmt: skip
        return int(cursor.lastrowid or 0)

    def fact_identities(self) -> dict[tuple[int, str, str | None], int]:
        """Every fact by what identifies it across databases: the second it was created, its
        kind and its first wording (None once forgotten)."""
        rows = self._db.execute(
            "SELECT f.id, f.created_at, f.kind, (SELECT h.text FROM history h "
            "WHERE h.fact_id = f.id ORDER BY h.id LIMIT 1) FROM facts f"
        )
        return {(int(created), kind, text): fact_id for fact_id, created, kind, text in rows}

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
        self.add_tombstones(fact_id, digests)

    def add_tombstones(self, fact_id: int, digests: Iterable[str]) -> None:
        """Keep digests of a forgotten fact's wordings, so they are not learned again."""
        self._db.executemany(
            "INSERT OR IGNORE INTO tombstones (digest, fact_id) VALUES (?, ?)",
            [(digest, fact_id) for digest in digests],
        )

    def tombstones(self) -> list[tuple[int, str]]:
        """Every tombstone digest as (fact id, digest)."""
        rows = self._db.execute("SELECT fact_id, digest FROM tombstones ORDER BY fact_id, digest")
        return [(fact_id, digest) for fact_id, digest in rows]

    def get_fact(self, fact_id: int) -> Fact | None:
        """One fact by id, with its conflict links, or None."""
        facts = self.facts_by_ids([fact_id])
        return facts[0] if facts else None

    def facts_by_ids(self, fact_ids: Sequence[int]) -> list[Fact]:
        """Facts by id, in the order given (missing ids are skipped)."""
        # An id SQLite cannot hold (2**63 and up, or below 1) names no fact.
        fact_ids = [i for i in fact_ids if 0 < i <= LARGEST_ID]
        if not fact_ids:
            return []
        rows = self._select_in(f"SELECT {_FACT_COLUMNS} FROM facts WHERE id IN ", fact_ids)
        by_id = {row[0]: row for row in rows}
        links = self.conflict_links(list(by_id))
        return [_fact(by_id[i], links.get(i, ())) for i in fact_ids if i in by_id]

    def list_facts(self, statuses: Iterable[FactStatus]) -> list[Fact]:
        """Every fact with one of the statuses, oldest first (on a damaged file, every one that
        can still be read: ``unreadable`` names the rest)."""
        wanted = [status.value for status in statuses]
        marks = ",".join("?" * len(wanted))
        # The table itself, not the status index: a household's facts are few, and a damaged
        # index then cannot keep `list` or `export` from saving what the table still holds.
        rows = self._whole_table(
            "facts", f"SELECT {_FACT_COLUMNS} FROM facts NOT INDEXED", f"status IN ({marks})",
            wanted,
        )  # fmt: skip
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

    def near_misses(self, fact_id: int | None = None) -> list[NearMiss]:
        """Near-miss records that involve a fact (every record when None)."""
        query = "SELECT fact_id, other_id, score, fact_kind, other_kind, reason FROM near_misses"
        rows = self._db.execute(
            query + (" ORDER BY id" if fact_id is None else
                     " WHERE fact_id = ? OR other_id = ? ORDER BY id"),
            () if fact_id is None else (fact_id, fact_id),
        )  # fmt: skip
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
        at: float | None = None,
    ) -> None:
        """Append one entry to the history (``at``: now, unless an import says when)."""
        self._db.execute(
            "INSERT INTO history (fact_id, at, action, text, other_id, detail) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (fact_id, self.clock() if at is None else at, action.value, text, other_id,
             json.dumps(detail or {}, ensure_ascii=False, sort_keys=True)),
        )  # fmt: skip

    def history(self, fact_id: int | None = None) -> list[HistoryEntry]:
        """The history, oldest first, of one fact or of all (all on a damaged file: every entry
        that can still be read, ``unreadable`` naming the rest)."""
        query = "SELECT id, fact_id, at, action, text, other_id, detail FROM history"
        if fact_id is not None:
            rows = self._db.execute(query + " WHERE fact_id = ? ORDER BY id", (fact_id,))
        else:
            rows = self._whole_table("history", query, "1", ())
        return [
            HistoryEntry(i, f, at, HistoryAction(action), text, other, json.loads(detail))
            for i, f, at, action, text, other, detail in rows
        ]

    # -- helpers ---------------------------------------------------------------------------------

    def _whole_table(
        self, table: str, select: str, where: str, params: Sequence[object]
    ) -> list[tuple]:
        """``select WHERE where`` over a rowid table, in rowid order. Where a page cannot be
        read, every row the others hold instead (``memory.salvage``), and what was left out is
        added to ``unreadable``."""
        try:
            rows = self._db.execute(f"{select} WHERE {where} ORDER BY rowid", params).fetchall()
        except sqlite3.DatabaseError as error:
            if not _is_damage(error):
                raise
        else:
            self._unreadable.pop(table, None)
            return rows

        def read(first: int, last: int) -> list[tuple]:
            try:
                return self._db.execute(
                    f"{select} WHERE ({where}) AND rowid BETWEEN ? AND ? ORDER BY rowid",
                    (*params, first, last),
                ).fetchall()
            except sqlite3.DatabaseError as error:
                if _is_damage(error):
                    raise UnreadablePage(str(error)) from None
                raise

        salvage = readable_rows(read, 1, LARGEST_ID)
        left_out = [
            f"{table} {first}" if first == last
            else f"{table} from {first} on" if last == LARGEST_ID
            else f"{table} {first} to {last}"
            for first, last in salvage.lost
        ]  # fmt: skip
        self._unreadable[table] = left_out
        log.warning("%s: pages of the %s table cannot be read; left out: %s", self.path, table,
                    ", ".join(left_out))  # fmt: skip
        return salvage.rows

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


def _is_damage(error: sqlite3.DatabaseError) -> bool:
    """Whether SQLite found the file damaged (SQLITE_CORRUPT, SQLITE_NOTADB), not busy or
    refused."""
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    return code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


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


def _regular_file(path: Path) -> bool:
    """Whether a memory file is there; StoreError for anything else at the path (a folder, a
    device such as /dev/null, a FIFO, which would hang), before anything opens it."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise StoreError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    if stat.S_ISDIR(mode):
        raise StoreError(f"{path}: is a folder; the memory database is a file (give its path)")
    if not stat.S_ISREG(mode):
        what = "a FIFO" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode) else "no file"
        raise StoreError(f"{path}: is {what}, not a regular file; the memory database is a file")
    return True


def _make_private_if_empty(path: Path) -> None:
    """An empty file someone made for the memory (touch, mktemp) becomes private, as a memory
    Hearth creates is: SQLite gives the -wal and -shm files the same mode."""
    details = path.stat()
    if details.st_size or not details.st_mode & 0o077:
        return
    try:
        path.chmod(0o600)
    except OSError as exc:
        log.warning("%s: cannot make the new memory private (mode 0600): %s", path, exc)


def _private_file_beside(path: Path) -> Path:
    """A new empty file of mode 0600 in ``path``'s folder, named after it, to build a database
    in before it is linked into place."""
    descriptor, name = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    os.close(descriptor)
    return Path(name)


def _remove_journals(path: Path) -> None:
    """The journal, log and index files SQLite may leave beside a database at ``path``."""
    for journal in ("-journal", "-wal", "-shm"):
        Path(f"{path}{journal}").unlink(missing_ok=True)


def _identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of a file, or None when it is not there."""
    try:
        details = path.stat()
    except FileNotFoundError:
        return None
    return details.st_dev, details.st_ino


def explain(path: str, error: sqlite3.Error, busy_timeout_seconds: float) -> StoreError:
    """What a SQLite error means for the user, so that only real damage is called damage: a
    StoreFailure when the request was good and the store could not carry it out."""
    name = getattr(error, "sqlite_errorname", "") or ""
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in str(error):
        return StoreFailure(
            f"{path}: the memory database is busy: another process has held it locked for more "
            f"than {busy_timeout_seconds:g} s (another Hearth, or a program with a transaction "
            "open on it); nothing was changed, try again once it lets go"
        )
    if name == "SQLITE_READONLY_DBMOVED":
        return StoreError(
            f"{path}: the memory database was moved or deleted while Hearth had it open"
        )
    if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")):
        return StoreError(f"{path}: {_why_not_writable(Path(path), error)}")
    if name.startswith("SQLITE_FULL") or (name.startswith("SQLITE_IOERR") and _disk_full(path)):
        # SQLite calls a full disk an I/O error when it cannot even make its -shm file
        return StoreFailure(f"{path}: the disk is full; the change was not written")
    if name.startswith("SQLITE_IOERR"):
        return StoreFailure(
            f"{path}: the disk failed to read or write the memory database ({error})"
        )
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return StoreFailure(f"{path}: the memory database is damaged: {error}")
    return StoreError(f"{path}: memory database error: {error}")


def _disk_full(path: str) -> bool:
    """Whether the disk holding the database has no room for a page left."""
    try:
        return shutil.disk_usage(Path(path).parent).free < FULL_DISK_BYTES
    except OSError:
        return False


FULL_DISK_BYTES = 64 * 1024
"""Less room than this left (a few pages and a -shm file's first block) is a full disk."""


def _why_not_writable(path: Path, error: sqlite3.Error) -> str:
    """Which file or folder keeps SQLite from writing: it writes the database and keeps its
    write-ahead log (-wal) and shared index (-shm) beside it."""
    folder = path.parent
    if not os.access(folder, os.W_OK):
        return (
            f"cannot write in the folder {folder}: SQLite keeps its -wal and -shm files beside "
            "the database, so the folder must be writable by this user (or move the memory)"
        )
    if path.exists() and not os.access(path, os.W_OK):
        return "the memory database file is read-only for this user"
    for suffix in ("-wal", "-shm"):
        companion = Path(f"{path}{suffix}")
        if companion.exists() and not os.access(companion, os.W_OK):
            owner = companion.stat().st_uid
            if owner == os.geteuid():
                # made read-only with a read-only database (SQLite copies its mode)
                return (
                    f"{companion.name} beside it is read-only (made while the database was); "
                    f"remove it when no Hearth is running, or make it writable (chmod u+w)"
                )
            return (
                f"{companion.name} beside it is read-only for this user (left by user id {owner}, "
                "perhaps the Hearth service); run as that user, or remove it when no Hearth is "
                "running"
            )
    return f"cannot write the memory database: {error}"


def _check_is_ours(path: Path, busy_timeout_seconds: float) -> None:
    """Refuse, without writing a byte, a file that is not a Hearth memory database.

    The file is read through SQLite, never opened by hand: closing a descriptor of the database
    drops every POSIX lock this process holds on it, SQLite's included, and another process
    closing its last connection then deletes the write-ahead log under this one's connections
    (their later reads miss its commits, their writes are lost)."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise StoreError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    if size == 0:
        return  # an empty file (e.g. made by touch or mktemp) is a new database
    if not os.access(path, os.R_OK):
        raise StoreError(f"{path}: cannot read: Permission denied")
    # SQLite reads the write-ahead log too: a mark still in it (another Hearth process creating
    # the database right now) counts. Only an empty database may become a memory.
    uri = f"{path.resolve().as_uri()}?mode=ro"
    try:
        with closing(sqlite3.connect(uri, uri=True, timeout=busy_timeout_seconds)) as probe:
            application_id = probe.execute("PRAGMA application_id").fetchone()[0]
            user_version = probe.execute("PRAGMA user_version").fetchone()[0]
            tables = probe.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        if "not a database" in str(exc):
            raise StoreError(
                f"{path}: not a SQLite database; refusing to use it as Hearth's memory"
            ) from None
        raise explain(str(path), exc, busy_timeout_seconds) from exc
    if application_id == APPLICATION_ID:
        return
    if application_id != 0 or user_version != 0:
        raise StoreError(
            f"{path}: a SQLite database of another program (application id {application_id:#x}); "
            "refusing to use it as Hearth's memory"
        )
    if tables:
        raise StoreError(
            f"{path}: a SQLite database of another program; refusing to use it as Hearth's memory"
        )
