"""The schedule's storage, beside the memory: the only schedule modules that speak SQL are this
one and ``assistant.schedule.postgres``.

One state to back up: ``--db`` moves the memory and the schedule together. On one device that is
the memory's SQLite file: the memory owns it (creates it mode 0600, whole, then linked into
place; marks it with its application id; keeps ``PRAGMA user_version`` for its own migrations;
refuses any file that is not Hearth's), so opening the schedule first opens (and so creates or
checks) the memory, then takes a connection of its own. The schedule never touches
``user_version`` or the memory's tables: its tables are all named ``schedule_*`` and its
migrations are recorded in ``schedule_migrations``, each in the same transaction as its change.
Both connections use WAL, a busy timeout and ``BEGIN IMMEDIATE``, so the two writers queue
rather than fail.

A household's Hearths share the schedule in the memory's PostgreSQL database instead (the same
tables, in its ``hearth`` schema). There every item has a room: the room of the Hearth that set
it, another room, or EVERY_ROOM; each Hearth sees its own room's items and every room's, and
keeps its own clock reading and volume. Writing transactions are serialised by an advisory
lock, as ``BEGIN IMMEDIATE`` serialises them on one file, so an occurrence is decided once even
when two connections wake at the same moment.

An item for every room is stored once. Its outcomes are kept per room, and each room's progress
through it (ringing, said, its next occurrence) in ``schedule_room_items``: the store shows each
room the item with its own progress laid over it (``_VIEW``), so the first room to say it does
not end it for the others. On one device's file the device is the only room (kept as '').
"""

from __future__ import annotations

import socket
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Protocol

from assistant.schedule.clock import Now
from assistant.schedule.items import (
    EVERY_ROOM,
    Delivery,
    Item,
    ItemKind,
    ItemState,
    Lateness,
    Outcome,
    TimerClock,
)
from memory import (
    DuplicateKey,
    Memory,
    MemoryUnavailable,
    PostgresTarget,
    StoreError,
    StoreFailure,
    is_postgres_url,
)
from support import LARGEST_ID

BUSY_TIMEOUT_MS = 10_000

MIGRATIONS: tuple[tuple[int, str], ...] = (
    (
        1,
        """
        CREATE TABLE schedule_items (
            id          INTEGER PRIMARY KEY,
            kind        TEXT NOT NULL CHECK (kind IN ('timer','alarm','reminder','routine')),
            state       TEXT NOT NULL CHECK (state IN
                        ('pending','paused','ringing','done','missed','cancelled')),
            zone        TEXT NOT NULL,
            due_at      REAL,
            local_due   TEXT,
            rule        TEXT,
            name        TEXT,
            text        TEXT,
            seconds     REAL,
            timer_left  REAL,
            timer_wall  REAL,
            timer_mono  REAL,
            timer_boot  TEXT,
            silent      INTEGER NOT NULL DEFAULT 0 CHECK (silent IN (0, 1)),
            source      TEXT NOT NULL,
            created_at  REAL NOT NULL,
            updated_at  REAL NOT NULL,
            delivery    TEXT CHECK (delivery IN ('ring','say','run')),
            rang_at     REAL,
            CHECK ((state = 'ringing') = (delivery IS NOT NULL)),
            CHECK ((kind = 'timer') = (timer_left IS NOT NULL))
        );
        CREATE INDEX schedule_items_state ON schedule_items(state);

        -- The fate of each occurrence, decided once: a second decision is a primary-key error
        -- that rolls its whole transaction back.
        CREATE TABLE schedule_outcomes (
            item_id    INTEGER NOT NULL REFERENCES schedule_items(id),
            due_at     REAL NOT NULL,
            outcome    TEXT NOT NULL CHECK (outcome IN ('rung','said_late','missed')),
            lateness   TEXT NOT NULL,
            decided_at REAL NOT NULL,
            PRIMARY KEY (item_id, due_at)
        ) WITHOUT ROWID;

        -- The last reading of the clocks the scheduler acted on: tells a jump and a reboot.
        CREATE TABLE schedule_clock (
            id   INTEGER PRIMARY KEY CHECK (id = 1),
            wall REAL NOT NULL,
            mono REAL NOT NULL,
            boot TEXT NOT NULL
        );

        -- Small durable settings changed by voice (the volume).
        CREATE TABLE schedule_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """,
    ),
    (
        2,
        """
        -- The room an item rings in (EVERY_ROOM: all of them), or NULL for an item set before
        -- rooms were known, on the one device that holds this file.
        ALTER TABLE schedule_items ADD COLUMN room TEXT;
        """,
    ),
    (
        3,
        """
        -- An item for every room is one item that each room delivers on its own: its outcomes
        -- are decided once per room (room '' for any other item, and for every item on the one
        -- device that holds this file), and each room's progress through it is its own row.
        CREATE TABLE schedule_outcomes_by_room (
            item_id    INTEGER NOT NULL REFERENCES schedule_items(id),
            due_at     REAL NOT NULL,
            room       TEXT NOT NULL DEFAULT '',
            outcome    TEXT NOT NULL CHECK (outcome IN ('rung','said_late','missed')),
            lateness   TEXT NOT NULL,
            decided_at REAL NOT NULL,
            PRIMARY KEY (item_id, due_at, room)
        ) WITHOUT ROWID;
        INSERT INTO schedule_outcomes_by_room (item_id, due_at, outcome, lateness, decided_at)
            SELECT item_id, due_at, outcome, lateness, decided_at FROM schedule_outcomes;
        DROP TABLE schedule_outcomes;
        ALTER TABLE schedule_outcomes_by_room RENAME TO schedule_outcomes;
        CREATE TABLE schedule_room_items (
            item_id   INTEGER NOT NULL REFERENCES schedule_items(id),
            room      TEXT NOT NULL,
            state     TEXT NOT NULL CHECK (state IN ('pending','ringing','done','missed')),
            due_at    REAL,
            local_due TEXT,
            delivery  TEXT CHECK (delivery IN ('ring','say','run')),
            rang_at   REAL,
            PRIMARY KEY (item_id, room),
            CHECK ((state = 'ringing') = (delivery IS NOT NULL))
        ) WITHOUT ROWID;
        """,
    ),
)
LATEST_VERSION = MIGRATIONS[-1][0]

_COLUMNS = (
    "id, kind, state, zone, due_at, local_due, rule, name, text, seconds, timer_left, "
    "timer_wall, timer_mono, timer_boot, silent, source, created_at, delivery, rang_at, room"
)
_MARKS = ", ".join("?" for _ in range(_COLUMNS.count(",")))
"""One parameter for every column after the id."""
_NAMES = tuple(_COLUMNS.split(", "))
_PROGRESS = ("state", "due_at", "local_due", "delivery", "rang_at")
"""The columns each room keeps for itself of an item for every room."""
_SHARED = tuple(name for name in _NAMES[1:] if name not in _PROGRESS)
"""The columns of an item for every room that are the household's."""
_HOUSEHOLD = "r.item_id IS NULL OR i.state = 'cancelled'"
"""When an item's row speaks for the room looking: it is no item for every room, this room
has not begun it, or it was cancelled (for every room at once)."""
_SEEN = ", ".join(
    f"CASE WHEN {_HOUSEHOLD} THEN i.{name} ELSE r.{name} END AS {name}"
    if name in _PROGRESS
    else f"i.{name}"
    for name in _NAMES
)
_VIEW = (
    f"SELECT {_SEEN} FROM schedule_items AS i LEFT JOIN schedule_room_items AS r "
    "ON r.item_id = i.id AND r.room = ?"
)
"""The items as one room sees them (its room's key the one parameter): an item for every room
with this room's own progress through it."""
_ENDED = (str(ItemState.DONE), str(ItemState.MISSED))


class ScheduleStoreError(Exception):
    """The schedule's database cannot be used; the message says which one and why."""


class ScheduleFailure(ScheduleStoreError):
    """A good request the schedule's database could not carry out (busy, out of reach, damaged,
    a full disk): the command line exits 1 for it, as for the memory's StoreFailure."""


class ScheduleUnavailable(ScheduleFailure):
    """The household's shared database cannot be reached right now; nothing was changed."""


class OccurrenceAlreadyDecided(ScheduleStoreError):
    """An occurrence's fate was already recorded (a second decision is refused, whole)."""


class ScheduleDatabase(Protocol):
    """What the store asks of its database: statements written with ``?`` marks, transactions,
    a number that changes when another connection commits, and the state kept per device."""

    path: str
    shared: bool
    """Whether several Hearths share it (rooms are then kept apart)."""

    def execute(self, sql: str, params: Sequence[object] = ()) -> list[tuple]: ...
    def atomic(self) -> AbstractContextManager[None]: ...
    def data_version(self) -> int: ...
    def close(self) -> None: ...
    def last_clock(self, room: str) -> Now | None: ...
    def clock_rooms(self) -> list[str]: ...
    def joined_at(self, room: str) -> float | None: ...
    def save_clock(self, room: str, now: Now) -> None: ...
    def state(self, room: str, key: str) -> str | None: ...
    def set_state(self, room: str, key: str, value: str) -> None: ...


class ScheduleStore:
    """Items, occurrence outcomes, the last clock reading and the volume: in the memory's SQLite
    file, or in a household's PostgreSQL database."""

    def __init__(self, database: ScheduleDatabase, room: str):
        self._db = database
        self.path = database.path
        self.room = _as_known(room, database) if database.shared else room
        """The room of the Hearth using this store (as the household spells it)."""
        self._key = room if database.shared else ""
        """The room as its outcomes and progress are kept: on a file that one device holds,
        '' (renaming the device's room must not make it say an item again)."""

    @classmethod
    def open(
        cls, path: Path | str | PostgresTarget, room: str | None = None, *, create: bool = True
    ) -> ScheduleStore:
        """Open the schedule beside the memory at ``path`` (a SQLite file, created with the
        memory if new; or a ``postgresql://`` URL or PostgresTarget), for the Hearth in ``room``
        (None: this machine's host name). Without ``create`` a missing memory is refused, never
        made (a command that only reads must not leave an empty store behind).

        Raises ScheduleStoreError for anything the memory refuses, a damaged file, or a schedule
        written by a newer Hearth; ScheduleUnavailable when a shared database cannot be reached.
        """
        room = room if room is not None else socket.gethostname()
        if not room.strip() or room == EVERY_ROOM:
            raise ScheduleStoreError(f"a room needs a name (not {room!r})")
        try:
            # The memory owns the database: it creates and checks it.
            Memory.open(path, create=create).close()
        except StoreError as exc:
            raise schedule_error(exc) from None
        if isinstance(path, PostgresTarget) or is_postgres_url(path):
            from assistant.schedule.postgres import PostgresSchedule

            target = path if isinstance(path, PostgresTarget) else PostgresTarget(str(path))
            return cls(PostgresSchedule.open(target), room)
        return cls(SqliteSchedule.open(path), room)

    def close(self) -> None:
        """Close the connection (committed work is already durable)."""
        self._db.close()

    def atomic(self) -> AbstractContextManager[None]:
        """A write transaction (serialised with every other writer); nested, a savepoint. Any
        error rolls the block back."""
        return self._db.atomic()

    # -- items -----------------------------------------------------------------------------------

    def add(self, item: Item, now: float) -> Item:
        """Store a new item (its ``id`` is ignored; no room: this Hearth's) and return it."""
        if item.room is None:
            item = replace(item, room=self.room)
        with self.atomic():
            ((item_id,),) = self._db.execute(
                f"INSERT INTO schedule_items ({_COLUMNS}, updated_at) VALUES "
                f"((SELECT coalesce(max(id), 0) + 1 FROM schedule_items), {_MARKS}, ?) "
                "RETURNING id",
                (*_row(item)[1:], now),
            )
        return self.get(int(item_id))

    def put(self, item: Item, now: float) -> None:
        """Write an item's new state and fields. An item for every room moves on in this room
        only (said here, ringing here, at its next occurrence here), and ends for the household
        once every known room has ended it; cancelling it cancels it in every room."""
        with self.atomic():
            if item.room != EVERY_ROOM:
                self._db.execute(
                    "UPDATE schedule_items SET kind=?, state=?, zone=?, due_at=?, local_due=?, "
                    "rule=?, name=?, text=?, seconds=?, timer_left=?, timer_wall=?, "
                    "timer_mono=?, timer_boot=?, silent=?, source=?, created_at=?, delivery=?, "
                    "rang_at=?, room=?, updated_at=? WHERE id=?",
                    (*_row(item)[1:], now, item.id),
                )
                return
            # The item's own row keeps the household's state (and is written, so its trigger
            # tells the household's other connections); this room's progress is its own row.
            fields = dict(zip(_NAMES, _row(item), strict=True))
            cancelled = item.state is ItemState.CANCELLED
            self._db.execute(
                f"UPDATE schedule_items SET {', '.join(f'{name}=?' for name in _SHARED)}, "
                "updated_at=?"
                + (", state='cancelled', delivery=NULL, rang_at=NULL" if cancelled else "")
                + " WHERE id=?",
                (*(fields[name] for name in _SHARED), now, item.id),
            )
            if cancelled:
                return
            self._db.execute(
                f"INSERT INTO schedule_room_items (item_id, room, {', '.join(_PROGRESS)}) "
                f"VALUES (?, ?, {', '.join('?' for _ in _PROGRESS)}) "
                "ON CONFLICT (item_id, room) DO UPDATE SET "
                + ", ".join(f"{name} = excluded.{name}" for name in _PROGRESS),
                (item.id, self._key, *(fields[name] for name in _PROGRESS)),
            )
            if str(item.state) in _ENDED:
                self._end_for_household(item.id, now)

    def _end_for_household(self, item_id: int, now: float) -> None:
        """End an item for every room once each known room has ended it (said, missed, or
        come after it was due): DONE if any room delivered it, else MISSED."""
        rows = self._db.execute(
            "SELECT room, state FROM schedule_room_items WHERE item_id = ?", (item_id,)
        )
        ended = {room: state for room, state in rows if state in _ENDED}
        if not set(self._known_keys()) <= set(ended):
            return
        state = ItemState.DONE if str(ItemState.DONE) in ended.values() else ItemState.MISSED
        self._db.execute(
            "UPDATE schedule_items SET state = ?, updated_at = ? WHERE id = ? AND state = ?",
            (str(state), now, item_id, str(ItemState.PENDING)),
        )

    def _known_keys(self) -> list[str]:
        return [self._key] if not self._db.shared else self.known_rooms()

    def get(self, item_id: int, *, household: bool = False) -> Item:
        """One item (of any room) as this room sees it, or with ``household`` as the household
        keeps it (an item for every room without this room's progress); KeyError when there is
        none."""
        if not 0 < item_id <= LARGEST_ID:
            raise KeyError(item_id)  # no row has it, and the driver cannot even ask
        rows = (
            self._db.execute(f"SELECT {_COLUMNS} FROM schedule_items WHERE id = ?", (item_id,))
            if household
            else self._db.execute(
                f"SELECT {_COLUMNS} FROM ({_VIEW}) AS seen WHERE id = ?", (self._key, item_id)
            )
        )
        if not rows:
            raise KeyError(item_id)
        return _item(rows[0])

    def items(
        self, states: Iterable[ItemState] | None = None, *, all_rooms: bool = False
    ) -> list[Item]:
        """Items in these states (all when None), oldest first, as this room sees them: on a
        shared database those of this Hearth's room and of every room, or with ``all_rooms``
        the household's."""
        where: list[str] = []
        params: list[object] = [self._key]
        if states is not None:
            wanted = [str(state) for state in states]
            where.append(f"state IN ({', '.join('?' for _ in wanted)})")
            params += wanted
        if self._db.shared and not all_rooms:
            where.append("room IN (?, ?)")
            params += [self.room, EVERY_ROOM]
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        query = f"SELECT {_COLUMNS} FROM ({_VIEW}) AS seen{clause} ORDER BY id"
        return [_item(row) for row in self._db.execute(query, params)]

    # -- outcomes --------------------------------------------------------------------------------

    def record_outcome(
        self, item: Item, due_at: float, outcome: Outcome, lateness: Lateness, now: float
    ) -> None:
        """Write the fate of one occurrence of ``item`` (of an item for every room: in this
        room); one already decided raises OccurrenceAlreadyDecided (and the transaction around
        it rolls back)."""
        self._db.execute(
            "INSERT INTO schedule_outcomes (item_id, due_at, room, outcome, lateness, decided_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                item.id,
                due_at,
                self._key if item.room == EVERY_ROOM else "",
                str(outcome),
                str(lateness),
                now,
            ),
        )

    def outcomes(self, item_id: int | None = None) -> list[tuple[int, float, Outcome, Lateness]]:
        """Decided occurrences (item, due time, outcome, lateness) as this room sees them (an
        item for every room: its outcomes here), in the order decided."""
        query = (
            "SELECT item_id, due_at, outcome, lateness FROM schedule_outcomes WHERE room IN ('', ?)"
        )
        rows = (
            self._db.execute(query + " ORDER BY decided_at, due_at", (self._key,))
            if item_id is None
            else self._db.execute(query + " AND item_id = ? ORDER BY due_at", (self._key, item_id))
        )
        return [(int(row[0]), row[1], Outcome(row[2]), Lateness(row[3])) for row in rows]

    def data_version(self) -> int:
        """Changes when another connection commits (the desk, ``hearth schedule cancel``,
        another Hearth of the household)."""
        return self._db.data_version()

    # -- the clock and small state (each Hearth's own) -------------------------------------------

    def last_clock(self) -> Now | None:
        """The last clock reading this Hearth's scheduler acted on."""
        return self._db.last_clock(self.room)

    def known_rooms(self) -> list[str]:
        """The rooms a Hearth is known to be in: this one's, and on a shared database every room
        whose Hearth has run its scheduler on it (each keeps its clock reading there)."""
        others = [room for room in self._db.clock_rooms() if room != self.room]
        return [self.room, *sorted(others)]

    def joined_at(self) -> float | None:
        """The wall time this room's Hearth first ran its scheduler on this database (None: not
        yet; 0: before anyone kept count, or the one device that holds a file)."""
        return self._db.joined_at(self.room)

    def save_clock(self, now: Now) -> None:
        """Remember this reading of the clocks (the first one: when this room joined)."""
        self._db.save_clock(self.room, now)

    def state(self, key: str) -> str | None:
        """A small durable setting of this Hearth's (the volume), or None."""
        return self._db.state(self.room, key)

    def set_state(self, key: str, value: str) -> None:
        """Keep a small durable setting."""
        with self.atomic():
            self._db.set_state(self.room, key, value)


def _as_known(room: str, database: ScheduleDatabase) -> str:
    """``room`` as the shared schedule already spells it, whatever its case: a Hearth whose
    ``household.room`` went from "kitchen" to "Kitchen" keeps its timers, alarms and reminders
    (a room's items are found by its name)."""
    rows = database.execute("SELECT DISTINCT room FROM schedule_items")
    known = {*database.clock_rooms(), *(row[0] for row in rows if row[0])} - {EVERY_ROOM}
    if room in known:
        return room
    return min((name for name in known if name.casefold() == room.casefold()), default=room)


def schedule_error(error: StoreError) -> ScheduleStoreError:
    """The memory's error about the shared database, as the schedule's."""
    if isinstance(error, MemoryUnavailable):
        return ScheduleUnavailable(str(error))
    if isinstance(error, DuplicateKey):
        return OccurrenceAlreadyDecided(str(error))
    if isinstance(error, StoreFailure):
        return ScheduleFailure(str(error))
    return ScheduleStoreError(str(error))


class SqliteSchedule:
    """The schedule's tables in the memory's SQLite file, on its own connection."""

    shared = False

    def __init__(self, connection: sqlite3.Connection, path: str):
        self._connection = connection
        self._depth = 0
        self.path = path

    @classmethod
    def open(cls, path: Path | str) -> SqliteSchedule:
        """Connect to the file (which the memory has already checked) and migrate the schedule."""
        path = path if str(path) == ":memory:" else Path(path).expanduser()
        try:
            connection = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
            database = cls(connection, str(path))
            connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            connection.execute("PRAGMA journal_mode = WAL")
            connection.execute("PRAGMA synchronous = FULL")
            connection.execute("PRAGMA foreign_keys = ON")
            database._migrate()
        except sqlite3.DatabaseError as exc:
            raise ScheduleStoreError(f"{path}: the schedule's database is damaged: {exc}") from None
        return database

    def close(self) -> None:
        """Close the connection."""
        self._connection.close()

    def _migrate(self) -> None:
        with self.atomic():
            self.execute(
                "CREATE TABLE IF NOT EXISTS schedule_migrations "
                "(version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)"
            )
            ((version,),) = self.execute(
                "SELECT coalesce(max(version), 0) FROM schedule_migrations"
            )
            if version > LATEST_VERSION:
                raise ScheduleStoreError(
                    f"{self.path}: its schedule was written by a newer Hearth (schema {version}, "
                    f"this one knows {LATEST_VERSION}); upgrade Hearth to use it"
                )
            for number, script in MIGRATIONS:
                if number <= version:
                    continue
                for statement in _statements(script):
                    self.execute(statement)
                self.execute(
                    "INSERT INTO schedule_migrations (version, applied_at) VALUES (?, ?)",
                    (number, time.time()),
                )

    def execute(self, sql: str, params: Sequence[object] = ()) -> list[tuple]:
        """Run one statement; its rows."""
        try:
            return self._connection.execute(sql, tuple(params)).fetchall()
        except sqlite3.IntegrityError as exc:
            if "UNIQUE" in str(exc) and "schedule_outcomes" in str(exc):
                raise OccurrenceAlreadyDecided(f"{self.path}: {exc}") from exc
            raise ScheduleStoreError(f"{self.path}: the schedule's database: {exc}") from exc
        except sqlite3.Error as exc:
            raise ScheduleStoreError(f"{self.path}: the schedule's database: {exc}") from exc

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """A write transaction (BEGIN IMMEDIATE); nested, a savepoint. Any error rolls back."""
        if self._depth == 0:
            self.execute("BEGIN IMMEDIATE")
        else:
            self.execute(f"SAVEPOINT s{self._depth}")
        self._depth += 1
        try:
            yield
        except BaseException:
            self._depth -= 1
            if self._depth == 0:
                self.execute("ROLLBACK")
            else:
                self.execute(f"ROLLBACK TO s{self._depth}")
                self.execute(f"RELEASE s{self._depth}")
            raise
        self._depth -= 1
        if self._depth == 0:
            self.execute("COMMIT")

    def data_version(self) -> int:
        """Changes when another connection commits."""
        return int(self.execute("PRAGMA data_version")[0][0])

    # One device holds the file: one clock reading, one set of settings (the room is not kept).

    def last_clock(self, room: str) -> Now | None:
        """The last clock reading."""
        rows = self.execute("SELECT wall, mono, boot FROM schedule_clock")
        return Now(rows[0][0], rows[0][1], rows[0][2]) if rows else None

    def clock_rooms(self) -> list[str]:
        """No other room: one device holds the file."""
        return []

    def joined_at(self, room: str) -> float | None:
        """Always here: every item in the file is the one device's."""
        return 0.0

    def save_clock(self, room: str, now: Now) -> None:
        """Keep this clock reading."""
        self.execute(
            "INSERT INTO schedule_clock (id, wall, mono, boot) VALUES (1, ?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET wall = excluded.wall, mono = excluded.mono, "
            "boot = excluded.boot",
            (now.wall, now.mono, now.boot),
        )

    def state(self, room: str, key: str) -> str | None:
        """A small durable setting, or None."""
        rows = self.execute("SELECT value FROM schedule_state WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def set_state(self, room: str, key: str, value: str) -> None:
        """Keep a small durable setting."""
        self.execute(
            "INSERT INTO schedule_state (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )


def _row(item: Item) -> tuple:
    timer = item.timer
    return (
        item.id,
        str(item.kind),
        str(item.state),
        item.zone,
        item.due_at,
        item.local_due,
        item.rule,
        item.name,
        item.text,
        item.seconds,
        timer.remaining if timer else None,
        timer.wall if timer else None,
        timer.mono if timer else None,
        timer.boot if timer else None,
        int(item.silent),
        item.source,
        item.created_at,
        str(item.delivery) if item.delivery else None,
        item.rang_at,
        item.room,
    )


def _item(row: tuple) -> Item:
    timer = TimerClock(row[10], row[11], row[12], row[13]) if row[10] is not None else None
    return Item(
        id=row[0],
        kind=ItemKind(row[1]),
        state=ItemState(row[2]),
        zone=row[3],
        due_at=row[4],
        local_due=row[5],
        rule=row[6],
        name=row[7],
        text=row[8],
        seconds=row[9],
        timer=timer,
        silent=bool(row[14]),
        source=row[15],
        created_at=row[16],
        delivery=Delivery(row[17]) if row[17] else None,
        rang_at=row[18],
        room=row[19],
    )


def _statements(script: str) -> list[str]:
    """Split a migration script into statements (none of ours holds a semicolon in a string)."""
    statements = []
    for chunk in script.split(";"):
        lines = [line for line in chunk.splitlines() if not line.strip().startswith("--")]
        statement = "\n".join(lines).strip()
        if statement:
            statements.append(statement)
    return statements
