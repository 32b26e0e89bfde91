"""The schedule's storage: in the memory's own file, beside the memory, durable and careful."""

from __future__ import annotations

import os
import sqlite3
import stat
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.schedule import (
    ItemKind,
    ItemState,
    Lateness,
    Outcome,
    Scheduler,
    ScheduleStore,
    ScheduleStoreError,
)
from assistant.schedule.store import LATEST_VERSION
from memory import Memory
from tests.schedule.conftest import Clocks


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
        assert raw.execute("SELECT version FROM schedule_migrations").fetchall() == [
            (LATEST_VERSION,)
        ]
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


def test_an_occurrence_cannot_be_decided_twice_and_the_failed_decision_leaves_nothing(database):
    store = ScheduleStore.open(database)
    scheduler = Scheduler(store)
    item, _ = scheduler.add_timer(Clocks().now, 60, None, "UTC")
    with store.atomic():
        store.record_outcome(item.id, 60.0, Outcome.RUNG, Lateness.ON_TIME, 1.0)
    with pytest.raises(sqlite3.IntegrityError), store.atomic():
        store.put(scheduler.store.get(item.id), 2.0)
        store.record_outcome(item.id, 60.0, Outcome.MISSED, Lateness.LATE, 2.0)
    assert store.outcomes(item.id) == [(item.id, 60.0, Outcome.RUNG, Lateness.ON_TIME)]
    store.close()


def test_a_decision_is_durable_once_wake_returns(database):
    store = ScheduleStore.open(database)
    scheduler = Scheduler(store)
    clocks = Clocks()
    scheduler.wake(clocks.now)
    item, _ = scheduler.add_timer(clocks.now, 10, None, "UTC")
    events = scheduler.wake(clocks.after(10).now)
    assert events
    # Another connection (another process) sees the decision: it was committed before returning.
    with sqlite3.connect(database) as raw:
        state = raw.execute("SELECT state FROM schedule_items WHERE id = ?", (item.id,))
        assert state.fetchone()[0] == ItemState.RINGING.value
    store.close()


def test_items_round_trip_every_field(database):
    store = ScheduleStore.open(database)
    scheduler = Scheduler(store)
    moment = datetime(2027, 1, 20, 7, 0, tzinfo=ZoneInfo("Europe/London"))
    item = scheduler.add_at(Clocks().now, ItemKind.ROUTINE, moment, rule="RRULE:FREQ=DAILY",
                            text="Give me something encouraging", silent=True,
                            source="settings:abc")  # fmt: skip
    assert store.get(item.id) == item
    assert item.local_due == "2027-01-20T07:00:00" and item.zone == "Europe/London"
    store.close()
