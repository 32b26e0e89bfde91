"""The schedule's storage: in the memory's own file, beside the memory, durable and careful; and
in a household's shared PostgreSQL database, with rooms, decided once across connections."""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
import time
from datetime import datetime
from zoneinfo import ZoneInfo

import psycopg
import pytest

from assistant.schedule import (
    EVERY_ROOM,
    Item,
    ItemKind,
    ItemState,
    Lateness,
    OccurrenceAlreadyDecided,
    Outcome,
    Scheduler,
    ScheduleStore,
    ScheduleStoreError,
    ScheduleUnavailable,
)
from assistant.schedule import postgres as shared_schedule
from assistant.schedule.store import LATEST_VERSION, MIGRATIONS
from memory import Memory
from tests.schedule.conftest import START, Clocks


@pytest.fixture(params=["sqlite", "postgresql"])
def place(request, tmp_path):
    """Where the memory (and so the schedule) lives: a file, or a shared PostgreSQL database."""
    if request.param == "sqlite":
        return tmp_path / "memory.db"
    return request.getfixturevalue("postgres_databases")()


def test_the_schedule_lives_in_the_memorys_file_and_both_work(database):
    memory = Memory.open(database)
    memory.remember("My sister Priya lives in Madrid", "person")
    store = ScheduleStore.open(database)  # while the memory is open: two connections, one file
    scheduler = Scheduler(store)
    timer, _ = scheduler.add_timer(Clocks().now, 60, "tea", "UTC")
    memory.remember("My favourite editor is Vim", "preference")
    memory.close()
    store.close()
    with sqlite3.connect(database) as raw:
        tables = {
            row[0] for row in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
        assert {"facts", "history", "schedule_items", "schedule_outcomes"} <= tables
        # The memory keeps its own version; the schedule records its migrations apart.
        assert raw.execute("PRAGMA user_version").fetchone()[0] >= 1
        versions = raw.execute("SELECT version FROM schedule_migrations ORDER BY 1").fetchall()
        assert versions == [(number,) for number in range(1, LATEST_VERSION + 1)]
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert stat.S_IMODE(os.stat(database).st_mode) == 0o600
    reopened = Memory.open(database)
    assert len(reopened.facts()) == 2
    reopened.close()
    again = ScheduleStore.open(database)
    assert again.get(timer.id).name == "tea"
    again.close()


def test_a_new_file_opened_by_the_schedule_first_is_a_memory_too(database):
    ScheduleStore.open(database).close()
    memory = Memory.open(database)
    assert memory.facts() == []
    memory.close()


def test_a_file_that_is_not_hearths_is_refused_untouched(tmp_path):
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as raw:
        raw.execute("CREATE TABLE photos (id INTEGER)")
    before = other.read_bytes()
    with pytest.raises(ScheduleStoreError, match="another program"):
        ScheduleStore.open(other)
    assert other.read_bytes() == before
    text = tmp_path / "notes.db"
    text.write_text("hello")
    with pytest.raises(ScheduleStoreError, match="not a SQLite database"):
        ScheduleStore.open(text)


def test_a_schedule_from_a_newer_hearth_is_refused(database):
    ScheduleStore.open(database).close()
    with sqlite3.connect(database) as raw:
        raw.execute("INSERT INTO schedule_migrations (version, applied_at) VALUES (99, 0)")
    with pytest.raises(ScheduleStoreError, match="newer Hearth"):
        ScheduleStore.open(database)


def test_an_occurrence_cannot_be_decided_twice_and_the_failed_decision_leaves_nothing(place):
    store = ScheduleStore.open(place)
    scheduler = Scheduler(store)
    item, _ = scheduler.add_timer(Clocks().now, 60, None, "UTC")
    with store.atomic():
        store.record_outcome(item, 60.0, Outcome.RUNG, Lateness.ON_TIME, 1.0)
    with pytest.raises(OccurrenceAlreadyDecided), store.atomic():
        store.put(scheduler.store.get(item.id), 2.0)
        store.record_outcome(item, 60.0, Outcome.MISSED, Lateness.LATE, 2.0)
    assert store.outcomes(item.id) == [(item.id, 60.0, Outcome.RUNG, Lateness.ON_TIME)]
    store.close()


def test_a_decision_is_durable_once_wake_returns(database, place):
    store = ScheduleStore.open(place)
    scheduler = Scheduler(store)
    clocks = Clocks()
    scheduler.wake(clocks.now)
    item, _ = scheduler.add_timer(clocks.now, 10, None, "UTC")
    events = scheduler.wake(clocks.after(10).now)
    assert events
    # Another connection (another process) sees the decision: it was committed before returning.
    if isinstance(place, str):
        with psycopg.connect(place) as raw:
            state = raw.execute("SELECT state FROM hearth.schedule_items WHERE id = %s", (item.id,))
            assert state.fetchone()[0] == ItemState.RINGING.value
    else:
        with sqlite3.connect(place) as raw:
            state = raw.execute("SELECT state FROM schedule_items WHERE id = ?", (item.id,))
            assert state.fetchone()[0] == ItemState.RINGING.value
    store.close()


def test_items_round_trip_every_field(place):
    store = ScheduleStore.open(place, room="kitchen")
    scheduler = Scheduler(store)
    moment = datetime(2027, 1, 20, 7, 0, tzinfo=ZoneInfo("Europe/London"))
    item = scheduler.add_at(Clocks().now, ItemKind.ROUTINE, moment, rule="RRULE:FREQ=DAILY",
                            text="Give me something encouraging", silent=True,
                            source="settings:abc")  # fmt: skip
    assert store.get(item.id) == item
    assert item.local_due == "2027-01-20T07:00:00" and item.zone == "Europe/London"
    assert item.room == "kitchen"  # the room of the Hearth that set it
    timer, _ = scheduler.add_timer(Clocks().now, 90, "tea", "UTC")
    assert store.get(timer.id) == timer and timer.timer is not None and timer.seconds == 90
    store.close()


def older_schedule(place, version: int, *statements: tuple[str, tuple]) -> None:
    """The schedule as a Hearth that knew its first ``version`` migrations left it (by those
    migrations themselves), with these statements run on it (``?`` marks)."""
    Memory.open(place).close()
    if isinstance(place, str):
        scripts = [script for number, script in shared_schedule.MIGRATIONS if number <= version]
        with psycopg.connect(place) as raw:
            raw.execute("SET search_path TO hearth")
            raw.execute("CREATE TABLE schedule_migrations (version INTEGER PRIMARY KEY, "
                        "applied_at DOUBLE PRECISION NOT NULL)")  # fmt: skip
            for number, script in enumerate(scripts, start=1):
                raw.execute(script)
                raw.execute("INSERT INTO schedule_migrations VALUES (%s, 0)", (number,))
            for sql, params in statements:
                raw.execute(sql.replace("?", "%s"), params)
        return
    raw = sqlite3.connect(place)
    raw.execute("CREATE TABLE schedule_migrations (version INTEGER PRIMARY KEY, applied_at REAL)")
    for number, script in MIGRATIONS[:version]:
        raw.executescript(script)
        raw.execute("INSERT INTO schedule_migrations VALUES (?, 0)", (number,))
    for sql, params in statements:
        raw.execute(sql, params)
    raw.commit()
    raw.close()


def test_an_older_schedule_file_gains_rooms_and_keeps_its_items(database):
    older_schedule(database, 1, (
        "INSERT INTO schedule_items (id, kind, state, zone, due_at, source, created_at, "
        "updated_at) VALUES (1, 'alarm', 'pending', 'UTC', ?, 'voice', 0, 0)", (START + 60,),
    ))  # fmt: skip
    store = ScheduleStore.open(database, room="kitchen")
    [old] = store.items()
    assert old.kind is ItemKind.ALARM and old.room is None  # set before rooms: this device's
    store.close()


def test_a_schedule_with_one_copy_per_room_migrates_and_its_copies_stay_decided_once(place):
    """Before an item for every room was one item, "remind everyone" kept a copy per room: the
    copies, and the outcome already decided for one, come through the migration unchanged."""
    insert = ("INSERT INTO schedule_items (id, kind, state, zone, due_at, text, source, "
              "created_at, updated_at, room) VALUES (?, 'reminder', ?, 'UTC', ?, 'bins', "
              "'voice', ?, ?, ?)")  # fmt: skip
    key = "room" if isinstance(place, str) else "id"  # a file keeps one clock, of its device
    clock = f"INSERT INTO schedule_clock ({key}, wall, mono, boot) VALUES (?, ?, 5, 'b')"
    key_value = "living room" if isinstance(place, str) else 1
    older_schedule(
        place, 2,
        (insert, (1, "done", START + 60, START, START, "kitchen")),
        (insert, (2, "pending", START + 60, START, START, "living room")),
        ("INSERT INTO schedule_outcomes (item_id, due_at, outcome, lateness, decided_at) "
         "VALUES (1, ?, 'rung', 'on_time', ?)", (START + 60, START + 60)),
        (clock, (key_value, START)),
    )  # fmt: skip
    kitchen = ScheduleStore.open(place, room="kitchen")
    room = "living room" if isinstance(place, str) else "kitchen"  # a file has one room
    living_room = ScheduleStore.open(place, room=room) if room != "kitchen" else kitchen
    # a room known before the migration counts as there from the start (every item is its)
    assert living_room.joined_at() == 0 and living_room.last_clock().wall == START
    copies = kitchen.items(all_rooms=True)
    assert [(item.id, item.state, item.room) for item in copies] == [
        (1, ItemState.DONE, "kitchen"), (2, ItemState.PENDING, "living room"),
    ]  # fmt: skip
    assert kitchen.outcomes() == [(1, START + 60, Outcome.RUNG, Lateness.ON_TIME)]
    with pytest.raises(OccurrenceAlreadyDecided), kitchen.atomic():
        kitchen.record_outcome(copies[0], START + 60, Outcome.MISSED, Lateness.LATE, START + 90)
    # the living room's copy is said there, once, and the kitchen's is not said again
    events = Scheduler(living_room).wake(Clocks().after(65).now)
    assert [event.item_id for event in events] == [2]
    assert living_room.outcomes(2) == [(2, START + 60, Outcome.RUNG, Lateness.ON_TIME)]
    for store in {kitchen, living_room}:
        store.close()


# -- a household's shared schedule ---------------------------------------------------------------


def test_both_stores_have_the_same_numbered_migrations():
    assert [n for n, _ in shared_schedule.MIGRATIONS] == [n for n, _ in MIGRATIONS]


def test_the_shared_schedule_lives_beside_the_memory_and_refuses_a_newer_one(postgres_databases):
    url = postgres_databases()
    ScheduleStore.open(url, room="kitchen").close()
    with psycopg.connect(url) as raw:
        rows = raw.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'hearth'")
        assert {"facts", "schedule_items", "schedule_outcomes", "schedule_migrations"} <= {
            row[0] for row in rows
        }
        versions = raw.execute("SELECT version FROM hearth.schedule_migrations ORDER BY 1")
        assert [row[0] for row in versions] == list(range(1, LATEST_VERSION + 1))
        raw.execute("INSERT INTO hearth.schedule_migrations VALUES (99, 0)")
    with pytest.raises(ScheduleStoreError, match="newer Hearth"):
        ScheduleStore.open(url, room="kitchen")


def test_each_room_sees_its_own_items_and_every_rooms(postgres_databases):
    url = postgres_databases()
    kitchen = ScheduleStore.open(url, room="kitchen")
    living_room = ScheduleStore.open(url, room="living room")
    clocks = Clocks()
    pasta, _ = Scheduler(kitchen).add_timer(clocks.now, 480, "pasta", "Europe/London")
    due = Item(0, ItemKind.REMINDER, ItemState.PENDING, "Europe/London", START + 600,
               text="dinner is ready", created_at=START)  # fmt: skip
    for_all = kitchen.add(replace_room(due, EVERY_ROOM), START)
    for_living_room = kitchen.add(replace_room(due, "living room"), START)  # set for another room
    assert [item.id for item in kitchen.items()] == [pasta.id, for_all.id]
    assert [item.id for item in living_room.items()] == [for_all.id, for_living_room.id]
    assert len(kitchen.items(all_rooms=True)) == 3
    assert pasta.room == "kitchen" and for_all.room == EVERY_ROOM
    # Each Hearth keeps its own clock reading and its own volume.
    kitchen.save_clock(clocks.now)
    living_room.save_clock(clocks.rebooted(0, "other-boot").now)
    assert kitchen.last_clock() == clocks.now and living_room.last_clock().boot == "other-boot"
    kitchen.set_state("volume", "0.4")
    assert kitchen.state("volume") == "0.4" and living_room.state("volume") is None
    kitchen.close()
    living_room.close()


def test_a_room_renamed_only_in_its_capitals_keeps_its_items(postgres_databases):
    # household.room "kitchen" became "Kitchen": its alarm was left to a room no Hearth had.
    url = postgres_databases()
    kitchen = ScheduleStore.open(url, room="kitchen")
    pasta, _ = Scheduler(kitchen).add_timer(Clocks().now, 480, "pasta", "Europe/London")
    kitchen.close()
    renamed = ScheduleStore.open(url, room="Kitchen")
    assert renamed.room == "kitchen"
    assert [item.id for item in renamed.items()] == [pasta.id]
    renamed.close()
    hall = ScheduleStore.open(url, room="hall")
    assert hall.room == "hall"  # a new room is its own
    hall.close()


def replace_room(item: Item, room: str) -> Item:
    from dataclasses import replace

    return replace(item, room=room)


def test_two_connections_waking_at_once_decide_each_occurrence_once(postgres_databases):
    """The desk and the scheduler of one Hearth, or two Hearths with an item for every room:
    both wake at the same moment, and each occurrence is decided (and announced) once."""
    url = postgres_databases()
    stores = [ScheduleStore.open(url, room="kitchen") for _ in range(2)]
    schedulers = [Scheduler(store) for store in stores]
    clocks = Clocks()
    for scheduler in schedulers:
        scheduler.wake(clocks.now)  # the first wake after a start settles; nothing is due
    moment = datetime.fromtimestamp(START + 30, ZoneInfo("UTC"))
    items = []
    for round_number in range(20):
        kind = ItemKind.REMINDER if round_number % 2 else ItemKind.ALARM
        item = schedulers[0].add_at(clocks.now, kind, moment, text="stretch")
        if round_number % 3 == 0:  # some for every room, seen by both Hearths
            stores[0].put(replace_room(item, EVERY_ROOM), clocks.now.wall)
        items.append(item)
    barrier = threading.Barrier(2)
    events: list[list] = [[], []]
    failures: list[BaseException] = []

    def wake(side: int) -> None:
        try:
            barrier.wait(timeout=30)
            events[side] = schedulers[side].wake(clocks.after(31).now)
        except BaseException as error:  # reported to the test
            failures.append(error)

    threads = [threading.Thread(target=wake, args=(side,)) for side in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert failures == []
    decided = [event.item_id for side in events for event in side]
    assert sorted(decided) == sorted(item.id for item in items)  # each exactly once
    assert len(stores[0].outcomes()) == len(items)
    for store in stores:
        store.close()


def test_a_scheduler_hears_of_an_item_another_hearth_set(postgres_databases):
    url = postgres_databases()
    kitchen = Scheduler(ScheduleStore.open(url, room="kitchen"))
    living_room = ScheduleStore.open(url, room="living room")
    clocks = Clocks()
    kitchen.wake(clocks.now)
    assert kitchen.seconds_until_next(clocks.now) is None  # nothing ahead
    due = Item(0, ItemKind.REMINDER, ItemState.PENDING, "UTC", START + 120, text="call mum",
               created_at=START, room=EVERY_ROOM)  # fmt: skip
    living_room.add(due, START)
    deadline = time.monotonic() + 10  # NOTIFY arrives moments after the other's commit
    while kitchen.seconds_until_next(clocks.now) is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert kitchen.seconds_until_next(clocks.now) == pytest.approx(120)
    kitchen.store.close()
    living_room.close()


def test_another_connection_of_the_room_hears_that_an_every_room_item_was_said(
    postgres_databases,
):
    """Home Assistant's next-item sensor reads the schedule on a connection of its own, and
    re-reads it only when the version moves: a room's progress through an item for every room
    (said, so no longer next) moves it."""
    url = postgres_databases()
    kitchen = Scheduler(ScheduleStore.open(url, room="kitchen"))
    sensor = ScheduleStore.open(url, room="kitchen")
    clocks = Clocks()
    kitchen.wake(clocks.now)
    due = Item(0, ItemKind.REMINDER, ItemState.PENDING, "UTC", START + 60, text="call mum",
               created_at=START, room=EVERY_ROOM)  # fmt: skip
    item = kitchen.store.add(due, START)
    [said] = kitchen.wake(clocks.after(61).now)
    assert sensor.get(item.id).state is ItemState.RINGING
    version = sensor.data_version()
    kitchen.finish(clocks.after(62).now, said.item_id, "said")
    deadline = time.monotonic() + 10  # NOTIFY arrives moments after the other's commit
    while sensor.data_version() == version and time.monotonic() < deadline:
        time.sleep(0.01)
    assert sensor.data_version() != version
    assert sensor.items([ItemState.PENDING, ItemState.RINGING]) == []
    kitchen.store.close()
    sensor.close()


def test_a_shared_schedule_that_cannot_be_reached_says_so(postgres_server, postgres_databases):
    url = postgres_databases()
    store = ScheduleStore.open(url, room="kitchen")
    postgres_server.crash()
    try:
        with pytest.raises(ScheduleUnavailable):
            store.items()
        with pytest.raises(ScheduleUnavailable):
            Scheduler(store).add_timer(Clocks().now, 60, None, "UTC")
        with pytest.raises(ScheduleUnavailable):
            ScheduleStore.open(url, room="kitchen")
    finally:
        postgres_server.start()
    store.close()
