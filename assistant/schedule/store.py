"""SQLite storage for the schedule, in the memory's own database file: the only schedule module
that speaks SQL.

One state file to back up: ``--db`` moves the memory and the schedule together. The memory owns
the file: it creates it (mode 0600, whole, then linked into place), marks it with its
application id, keeps ``PRAGMA user_version`` for its own migrations, and refuses any file that is
not Hearth's. So opening the schedule first opens (and so creates or checks) the memory, then
takes a connection of its own. The schedule never touches ``user_version`` or the memory's
tables: its tables are all named ``schedule_*`` and its migrations are recorded in
``schedule_migrations``, each in the same transaction as its change. Both connections use WAL, a
busy timeout and ``BEGIN IMMEDIATE``, so the two writers queue rather than fail.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from assistant.schedule.clock import Now
from assistant.schedule.items import (
    Delivery,
    Item,
    ItemKind,
    ItemState,
    Lateness,
    Outcome,
    TimerClock,
)
from memory import Memory, StoreError

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
)
LATEST_VERSION = MIGRATIONS[-1][0]

_COLUMNS = (
    "id, kind, state, zone, due_at, local_due, rule, name, text, seconds, timer_left, "
    "timer_wall, timer_mono, timer_boot, silent, source, created_at, delivery, rang_at"
)


class ScheduleStoreError(Exception):
    """The schedule's database cannot be used; the message says which file and why."""


class ScheduleStore:
    """Items, occurrence outcomes, the last clock reading and the volume, in SQLite."""

    def __init__(self, connection: sqlite3.Connection, path: str):
        self._db = connection
        self._depth = 0
        self.path = path

    @classmethod
    def open(cls, path: Path | str) -> ScheduleStore:
        """Open the schedule in the memory database at ``path`` (created with the memory if new).

        Raises ScheduleStoreError for anything the memory refuses, a damaged file, or a schedule
        written by a newer Hearth.
        """
        if str(path) != ":memory:":
            path = Path(path).expanduser()
            try:
                Memory.open(path).close()
            except StoreError as exc:
                raise ScheduleStoreError(str(exc)) from None
        try:
            connection = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
            store = cls(connection, str(path))
            connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            connection.execute("PRAGMA journal_mode = WAL")
            connection.execute("PRAGMA synchronous = FULL")
            connection.execute("PRAGMA foreign_keys = ON")
            store._migrate()
        except sqlite3.DatabaseError as exc:
            raise ScheduleStoreError(f"{path}: the schedule's database is damaged: {exc}") from None
        return store

    def close(self) -> None:
        """Close the connection (committed work is already durable)."""
        self._db.close()

    def _migrate(self) -> None:
        with self.atomic():
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS schedule_migrations "
                "(version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)"
            )
            version = self._db.execute(
                "SELECT coalesce(max(version), 0) FROM schedule_migrations"
            ).fetchone()[0]
            if version > LATEST_VERSION:
                raise ScheduleStoreError(
                    f"{self.path}: its schedule was written by a newer Hearth (schema {version}, "
                    f"this one knows {LATEST_VERSION}); upgrade Hearth to use it"
                )
            for number, script in MIGRATIONS:
                if number <= version:
                    continue
                for statement in _statements(script):
                    self._db.execute(statement)
                self._db.execute(
                    "INSERT INTO schedule_migrations (version, applied_at) VALUES (?, ?)",
                    (number, time.time()),
                )

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """A write transaction (BEGIN IMMEDIATE); nested, a savepoint. Any error rolls back."""
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

    # -- items -----------------------------------------------------------------------------------

    def add(self, item: Item, now: float) -> Item:
        """Store a new item (its ``id`` is ignored) and return it with its id."""
        with self.atomic():
            cursor = self._db.execute(
                f"INSERT INTO schedule_items ({_COLUMNS}, updated_at) "
                "VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*_row(item)[1:], now),
            )
        return self.get(int(cursor.lastrowid or 0))

    def put(self, item: Item, now: float) -> None:
        """Write an item's new state and fields."""
        with self.atomic():
            self._db.execute(
                "UPDATE schedule_items SET kind=?, state=?, zone=?, due_at=?, local_due=?, rule=?, "
                "name=?, text=?, seconds=?, timer_left=?, timer_wall=?, timer_mono=?, "
                "timer_boot=?, silent=?, source=?, created_at=?, delivery=?, rang_at=?, "
                "updated_at=? WHERE id=?",
                (*_row(item)[1:], now, item.id),
            )

    def get(self, item_id: int) -> Item:
        """One item; KeyError when there is none."""
        row = self._db.execute(
            f"SELECT {_COLUMNS} FROM schedule_items WHERE id = ?", (item_id,)
        ).fetchone()
        if row is None:
            raise KeyError(item_id)
        return _item(row)

    def items(self, states: Iterable[ItemState] | None = None) -> list[Item]:
        """Items in these states (all when None), oldest first."""
        if states is None:
            rows = self._db.execute(f"SELECT {_COLUMNS} FROM schedule_items ORDER BY id")
        else:
            wanted = [str(state) for state in states]
            marks = ", ".join("?" for _ in wanted)
            rows = self._db.execute(
                f"SELECT {_COLUMNS} FROM schedule_items WHERE state IN ({marks}) ORDER BY id",
                wanted,
            )
        return [_item(row) for row in rows]

    # -- outcomes --------------------------------------------------------------------------------

    def record_outcome(
        self, item_id: int, due_at: float, outcome: Outcome, lateness: Lateness, now: float
    ) -> None:
        """Write the fate of one occurrence; an occurrence already decided raises IntegrityError."""
        self._db.execute(
            "INSERT INTO schedule_outcomes (item_id, due_at, outcome, lateness, decided_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (item_id, due_at, str(outcome), str(lateness), now),
        )

    def outcomes(self, item_id: int | None = None) -> list[tuple[int, float, Outcome, Lateness]]:
        """Decided occurrences (item, due time, outcome, lateness), in the order decided."""
        query = "SELECT item_id, due_at, outcome, lateness FROM schedule_outcomes"
        rows = (
            self._db.execute(query + " ORDER BY decided_at, due_at")
            if item_id is None
            else self._db.execute(query + " WHERE item_id = ? ORDER BY due_at", (item_id,))
        )
        return [(row[0], row[1], Outcome(row[2]), Lateness(row[3])) for row in rows]

    def data_version(self) -> int:
        """Changes when another connection commits (the desk, ``hearth schedule cancel``)."""
        return int(self._db.execute("PRAGMA data_version").fetchone()[0])

    # -- the clock and small state ---------------------------------------------------------------

    def last_clock(self) -> Now | None:
        """The last clock reading the scheduler acted on."""
        row = self._db.execute("SELECT wall, mono, boot FROM schedule_clock").fetchone()
        return Now(row[0], row[1], row[2]) if row else None

    def save_clock(self, now: Now) -> None:
        """Remember this reading of the clocks."""
        self._db.execute(
            "INSERT INTO schedule_clock (id, wall, mono, boot) VALUES (1, ?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET wall = excluded.wall, mono = excluded.mono, "
            "boot = excluded.boot",
            (now.wall, now.mono, now.boot),
        )

    def state(self, key: str) -> str | None:
        """A small durable setting (the volume), or None."""
        row = self._db.execute("SELECT value FROM schedule_state WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_state(self, key: str, value: str) -> None:
        """Keep a small durable setting."""
        with self.atomic():
            self._db.execute(
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
