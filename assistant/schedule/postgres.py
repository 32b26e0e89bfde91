"""The schedule's tables in a household's shared PostgreSQL database, beside the memory's.

The same tables and numbered migrations as the SQLite store (``assistant.schedule.store``), in
PostgreSQL's dialect and the ``hearth`` schema, with two differences a shared database needs:
every item has a room, and the clock reading and the small settings are kept per room (each
Hearth has its own clocks and its own volume). Every writing transaction takes the schedule's
advisory lock first, so two Hearths (or the desk and the scheduler of one) deciding at the same
moment decide each occurrence once. Changes to items and outcomes are announced with
``NOTIFY hearth_schedule``, which is how a scheduler learns of an item another Hearth set.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from assistant.schedule.clock import Now
from assistant.schedule.store import LATEST_VERSION, ScheduleStoreError, schedule_error
from memory import APPLICATION_ID, PostgresLink, PostgresTarget, StoreError, Tracking

SCHEDULE_LOCK = (APPLICATION_ID, 2)
"""The advisory lock every writing transaction of the schedule takes ('HRTH', 2)."""
CHANNEL = "hearth_schedule"

MIGRATIONS: tuple[tuple[int, str], ...] = (
    (
        1,
        """
        CREATE TABLE schedule_items (
            id          BIGINT PRIMARY KEY CHECK (id > 0),
            kind        TEXT NOT NULL CHECK (kind IN ('timer','alarm','reminder','routine')),
            state       TEXT NOT NULL CHECK (state IN
                        ('pending','paused','ringing','done','missed','cancelled')),
            zone        TEXT NOT NULL,
            due_at      DOUBLE PRECISION,
            local_due   TEXT,
            rule        TEXT,
            name        TEXT,
            text        TEXT,
            seconds     DOUBLE PRECISION,
            timer_left  DOUBLE PRECISION,
            timer_wall  DOUBLE PRECISION,
            timer_mono  DOUBLE PRECISION,
            timer_boot  TEXT,
            silent      SMALLINT NOT NULL DEFAULT 0 CHECK (silent IN (0, 1)),
            source      TEXT NOT NULL,
            created_at  DOUBLE PRECISION NOT NULL,
            updated_at  DOUBLE PRECISION NOT NULL,
            delivery    TEXT CHECK (delivery IN ('ring','say','run')),
            rang_at     DOUBLE PRECISION,
            CHECK ((state = 'ringing') = (delivery IS NOT NULL)),
            CHECK ((kind = 'timer') = (timer_left IS NOT NULL))
        );
        CREATE INDEX schedule_items_state ON schedule_items(state);

        -- The fate of each occurrence, decided once: a second decision is a primary-key error
        -- that rolls its whole transaction back.
        CREATE TABLE schedule_outcomes (
            item_id    BIGINT NOT NULL REFERENCES schedule_items(id),
            due_at     DOUBLE PRECISION NOT NULL,
            outcome    TEXT NOT NULL CHECK (outcome IN ('rung','said_late','missed')),
            lateness   TEXT NOT NULL,
            decided_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (item_id, due_at)
        );

        -- Each Hearth's last reading of its clocks (tells a jump and a reboot), by its room.
        CREATE TABLE schedule_clock (
            room TEXT PRIMARY KEY,
            wall DOUBLE PRECISION NOT NULL,
            mono DOUBLE PRECISION NOT NULL,
            boot TEXT NOT NULL
        );

        -- Each Hearth's small durable settings changed by voice (the volume).
        CREATE TABLE schedule_state (
            room  TEXT NOT NULL,
            key   TEXT NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (room, key)
        );

        -- One count of committed changes to items and outcomes, announced on commit.
        CREATE TABLE schedule_version (
            id      INTEGER PRIMARY KEY CHECK (id = 1),
            version BIGINT NOT NULL,
            txid    xid8
        );
        INSERT INTO schedule_version (id, version) VALUES (1, 0);
        CREATE FUNCTION schedule_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            counted BIGINT;
        BEGIN
            UPDATE hearth.schedule_version SET version = version + 1, txid = pg_current_xact_id()
                WHERE id = 1 AND txid IS DISTINCT FROM pg_current_xact_id()
                RETURNING version INTO counted;
            IF FOUND THEN
                PERFORM pg_notify('hearth_schedule', counted::text);
            END IF;
            RETURN NULL;
        END $$;
        CREATE TRIGGER schedule_items_changed AFTER INSERT OR UPDATE OR DELETE ON schedule_items
            FOR EACH STATEMENT EXECUTE FUNCTION schedule_changed();
        CREATE TRIGGER schedule_outcomes_changed AFTER INSERT OR UPDATE OR DELETE
            ON schedule_outcomes FOR EACH STATEMENT EXECUTE FUNCTION schedule_changed();
        """,
    ),
    (
        2,
        """
        -- The room an item rings in (EVERY_ROOM: all of them).
        ALTER TABLE schedule_items ADD COLUMN room TEXT NOT NULL;
        CREATE INDEX schedule_items_room ON schedule_items(room, state);
        """,
    ),
    (
        3,
        """
        -- An item for every room is one item that each room delivers on its own: its outcomes
        -- are decided once per room (room '' for any other item), and each room's progress
        -- through it is its own row.
        ALTER TABLE schedule_outcomes ADD COLUMN room TEXT NOT NULL DEFAULT '';
        ALTER TABLE schedule_outcomes DROP CONSTRAINT schedule_outcomes_pkey;
        ALTER TABLE schedule_outcomes ADD PRIMARY KEY (item_id, due_at, room);
        CREATE TABLE schedule_room_items (
            item_id   BIGINT NOT NULL REFERENCES schedule_items(id),
            room      TEXT NOT NULL,
            state     TEXT NOT NULL CHECK (state IN ('pending','ringing','done','missed')),
            due_at    DOUBLE PRECISION,
            local_due TEXT,
            delivery  TEXT CHECK (delivery IN ('ring','say','run')),
            rang_at   DOUBLE PRECISION,
            PRIMARY KEY (item_id, room),
            CHECK ((state = 'ringing') = (delivery IS NOT NULL))
        );
        -- When each room's Hearth first ran its scheduler here: an every-room occurrence due
        -- before that is not its to say. Rooms known before this migration joined at 0.
        ALTER TABLE schedule_clock ADD COLUMN joined_at DOUBLE PRECISION NOT NULL DEFAULT 0;
        """,
    ),
)


class PostgresSchedule:
    """The schedule's tables on a shared database, on a connection of their own."""

    shared = True

    def __init__(self, target: PostgresTarget):
        self.path = target.shown
        tracking = Tracking(SCHEDULE_LOCK, "SELECT version FROM schedule_version", CHANNEL)
        self._link = PostgresLink(target, tracking, self._prepare)

    @classmethod
    def open(cls, target: PostgresTarget) -> PostgresSchedule:
        """Connect (the memory has made the database Hearth's already) and migrate."""
        database = cls(target)
        with _as_schedule_errors():
            database._link.connect()
        return database

    def _prepare(self, link: PostgresLink) -> None:
        with link.atomic(tracked=False):
            link.execute(
                "CREATE TABLE IF NOT EXISTS schedule_migrations "
                "(version INTEGER PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)"
            )
            ((version,),) = link.execute(
                "SELECT coalesce(max(version), 0) FROM schedule_migrations"
            )
            if version > LATEST_VERSION:
                raise StoreError(
                    f"{self.path}: its schedule was written by a newer Hearth (schema {version}, "
                    f"this one knows {LATEST_VERSION}); upgrade Hearth to use it"
                )
            for number, script in MIGRATIONS:
                if number > version:
                    link.execute(script)
                    link.execute(
                        "INSERT INTO schedule_migrations (version, applied_at) VALUES (%s, %s)",
                        (number, time.time()),
                    )

    def close(self) -> None:
        """Close the connection."""
        self._link.close()

    def execute(self, sql: str, params: Sequence[object] = ()) -> list[tuple]:
        """Run one statement written with ``?`` marks (none of ours has a ``?`` in a string)."""
        with _as_schedule_errors():
            return self._link.execute(sql.replace("?", "%s"), tuple(params))

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """A write transaction under the schedule's lock; nested, a savepoint."""
        with _as_schedule_errors(), self._link.atomic():
            yield

    def data_version(self) -> int:
        """Changes when another connection commits a change to items or outcomes."""
        with _as_schedule_errors():
            return self._link.changes()

    def last_clock(self, room: str) -> Now | None:
        """The last clock reading of the Hearth in ``room``."""
        rows = self.execute("SELECT wall, mono, boot FROM schedule_clock WHERE room = ?", (room,))
        return Now(rows[0][0], rows[0][1], rows[0][2]) if rows else None

    def clock_rooms(self) -> list[str]:
        """The rooms whose Hearth has kept a clock reading here."""
        return [row[0] for row in self.execute("SELECT room FROM schedule_clock")]

    def joined_at(self, room: str) -> float | None:
        """When the Hearth in ``room`` first kept a clock reading here (None: never)."""
        rows = self.execute("SELECT joined_at FROM schedule_clock WHERE room = ?", (room,))
        return rows[0][0] if rows else None

    def save_clock(self, room: str, now: Now) -> None:
        """Keep the clock reading of the Hearth in ``room`` (its first: when it joined)."""
        self.execute(
            "INSERT INTO schedule_clock (room, wall, mono, boot, joined_at) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (room) DO UPDATE SET wall = excluded.wall, mono = excluded.mono, "
            "boot = excluded.boot",
            (room, now.wall, now.mono, now.boot, now.wall),
        )

    def state(self, room: str, key: str) -> str | None:
        """A small durable setting of the Hearth in ``room``, or None."""
        rows = self.execute(
            "SELECT value FROM schedule_state WHERE room = ? AND key = ?", (room, key)
        )
        return rows[0][0] if rows else None

    def set_state(self, room: str, key: str, value: str) -> None:
        """Keep a small durable setting of the Hearth in ``room``."""
        self.execute(
            "INSERT INTO schedule_state (room, key, value) VALUES (?, ?, ?) "
            "ON CONFLICT (room, key) DO UPDATE SET value = excluded.value",
            (room, key, value),
        )


@contextmanager
def _as_schedule_errors() -> Iterator[None]:
    try:
        yield
    except ScheduleStoreError:
        raise
    except StoreError as error:
        raise schedule_error(error) from error
