"""``hearth memory migrate``: a device's SQLite memory into the household's PostgreSQL database and
back, history, conflicts, tombstones, near-misses and vectors intact, idempotently."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from config import EmbedderSettings
from memory import Action, HistoryAction, Memory, Origin, PostgresTarget, Source, make_embedder
from memory.backends import open_backend
from tests.memory.embed_server import EmbedServer
from tests.memory.test_transfer import told
from tests.postgres_server import SECRET_PASSWORD, SECRET_ROLE, as_role

ROOT = Path(__file__).resolve().parents[2]


def hearth(*argv: str, home: Path) -> subprocess.CompletedProcess:
    environment = {"PATH": "/usr/bin:/bin", "HOME": str(home), "XDG_CONFIG_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "assistant", *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=environment,
    )


def picture(memory: Memory) -> tuple:
    """Everything a migration must keep, with ids (imports keep them where they are free)."""
    facts = [
        (f.id, f.text, f.kind, f.status, f.pinned, f.confirm_count, f.conflicts_with,
         int(f.created_at), f.source)
        for f in memory.facts(include_all=True)
    ]  # fmt: skip
    # To the microsecond an export keeps (rounding a float to the millisecond flipped one in
    # about 2000 entries across the export's own rounding).
    history = [
        (e.fact_id, e.action, e.text, e.other_id, datetime.fromtimestamp(e.at, UTC))
        for e in memory.history()
        if e.action is not HistoryAction.IMPORT
    ]
    misses = [(m.fact_id, m.other_id, round(m.score, 6), m.fact_kind, m.other_kind, m.reason)
              for f in memory.facts(include_all=True) for m in memory.near_misses(f.id)
              if m.fact_id == f.id]  # fmt: skip
    return facts, history, misses


def a_household_memory(path: Path) -> Memory:
    memory = told(path)
    memory.remember("I walk the dog every evening", "routine")
    memory.remember("I walk the dog every morning", "fact")  # a near-miss
    return memory


def test_migrate_to_postgresql_and_back_keeps_everything_and_twice_adds_nothing(
    tmp_path, postgres_databases
):
    device = tmp_path / "memory.db"
    original = picture(a_household_memory(device))
    assert original[2], "the near-miss record is part of what is migrated"
    shared = postgres_databases()

    first = hearth(
        "memory", "migrate", "--to", shared, "--db", str(device), "--json", home=tmp_path
    )
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["added"] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert picture(Memory.open(shared)) == original
    again = hearth("memory", "migrate", "--to", shared, "--db", str(device), home=tmp_path)
    assert again.returncode == 0 and "migrated 0 facts" in again.stdout
    assert "8 were already there" in again.stdout
    assert picture(Memory.open(shared)) == original

    # The shared memory works as the device's did, then goes back to a file.
    memory = Memory.open(shared)
    heard = Source(Origin.EXTRACTED, "I smoke", "I smoke")
    assert memory.remember("I smoke", "fact", heard).action is Action.IGNORED_FORGOTTEN
    assert memory.remember("Vim is my favourite editor", "preference").action is Action.MERGED
    memory.close()
    back = tmp_path / "back.db"
    result = hearth("memory", "migrate", "--to", str(back), "--db", shared, home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert picture(Memory.open(back)) == picture(Memory.open(shared))
    into_the_original = hearth("memory", "migrate", "--to", str(device), "--db", shared,
                               home=tmp_path)  # fmt: skip
    assert "migrated 0 facts" in into_the_original.stdout  # every fact is there already


def test_the_timers_alarms_and_reminders_still_to_come_move_with_the_memory(
    tmp_path, postgres_databases
):
    # Moved as the README says, the kitchen's memory went, and its weekday alarm and its
    # reminder stayed in the file: nothing said so, and they would never ring again.
    from assistant.schedule import EVERY_ROOM, ItemKind, Scheduler, ScheduleStore, SystemClock

    device = tmp_path / "memory.db"
    Memory.open(device).close()
    here = Scheduler(ScheduleStore.open(device, "kitchen"))
    now = SystemClock().now()
    london = ZoneInfo("Europe/London")
    tomorrow = datetime.fromtimestamp(now.wall + 86400, london).replace(hour=7, minute=0)
    alarm = here.add_at(now, ItemKind.ALARM, tomorrow, rule="FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")
    reminder = here.add_at(now, ItemKind.REMINDER, tomorrow, text="call mum")
    everyone = here.add_at(now, ItemKind.REMINDER, tomorrow, text="bins", room=EVERY_ROOM)
    here.add_at(now, ItemKind.ROUTINE, tomorrow, text="weather", source="settings:morning")
    ended = here.add_at(now, ItemKind.REMINDER, tomorrow, text="old")
    here.cancel(now, ended.id)
    here.store.close()
    (tmp_path / "hearth").mkdir()
    (tmp_path / "hearth" / "assistant.yaml").write_text("household:\n  room: kitchen\n")
    shared = postgres_databases()

    first = hearth("memory", "migrate", "--to", shared, "--db", str(device), home=tmp_path)
    assert first.returncode == 0, first.stderr
    assert "and 3 timers, alarms and reminders to" in first.stdout
    again = hearth("memory", "migrate", "--to", shared, "--db", str(device), "--json",
                   home=tmp_path)  # fmt: skip
    assert json.loads(again.stdout)["schedule_already_there"] == 3

    there = ScheduleStore.open(shared, "kitchen")
    moved = {(item.kind, item.text, item.rule, item.room, item.due_at)
             for item in there.items(all_rooms=True)}  # fmt: skip
    there.close()
    assert moved == {
        (ItemKind.ALARM, None, alarm.rule, "kitchen", alarm.due_at),
        (ItemKind.REMINDER, "call mum", None, "kitchen", reminder.due_at),
        (ItemKind.REMINDER, "bins", None, EVERY_ROOM, everyone.due_at),
    }


def test_a_shared_schedule_moved_back_into_a_file_keeps_only_this_rooms_items(
    tmp_path, postgres_databases
):
    # The bedroom's alarm became the kitchen's, rung by the kitchen's device.
    from assistant.schedule import EVERY_ROOM, ItemKind, Scheduler, ScheduleStore, SystemClock

    shared = postgres_databases()
    Memory.open(shared).close()
    now = SystemClock().now()
    tomorrow = datetime.fromtimestamp(now.wall + 86400, ZoneInfo("Europe/London")).replace(
        hour=7, minute=0
    )
    bedroom = Scheduler(ScheduleStore.open(shared, "bedroom"))
    bedroom.add_at(now, ItemKind.ALARM, tomorrow)
    bedroom.store.close()
    kitchen = Scheduler(ScheduleStore.open(shared, "kitchen"))
    kitchen.add_at(now, ItemKind.REMINDER, tomorrow, text="call mum")
    kitchen.add_at(now, ItemKind.REMINDER, tomorrow, text="bins", room=EVERY_ROOM)
    kitchen.store.close()
    (tmp_path / "hearth").mkdir()
    (tmp_path / "hearth" / "assistant.yaml").write_text("household:\n  room: kitchen\n")
    device = tmp_path / "back.db"
    result = hearth("memory", "migrate", "--to", str(device), "--db", shared, home=tmp_path)
    assert result.returncode == 0, result.stderr
    back = ScheduleStore.open(device, "kitchen")
    assert sorted(item.text for item in back.items()) == ["bins", "call mum"]
    back.close()


def test_a_migration_logs_in_as_the_settings_say(tmp_path, postgres_databases):
    # With the README's password file, the facts moved and then the schedule was refused the
    # login ("no password supplied"): it was opened by the bare URL.
    from assistant.schedule import ItemKind, Scheduler, ScheduleStore, SystemClock

    device = tmp_path / "memory.db"
    Memory.open(device).close()
    here = Scheduler(ScheduleStore.open(device, "kitchen"))
    now = SystemClock().now()
    later = datetime.fromtimestamp(now.wall + 86400, ZoneInfo("Europe/London"))
    here.add_at(now, ItemKind.REMINDER, later, text="call mum")
    here.store.close()
    url = as_role(postgres_databases(), SECRET_ROLE)
    secret = tmp_path / "password"
    secret.write_text(SECRET_PASSWORD + "\n")
    (tmp_path / "hearth").mkdir()
    (tmp_path / "hearth" / "assistant.yaml").write_text(
        f"household:\n  room: kitchen\nmemory:\n  database: {url}\n  password_file: {secret}\n"
    )
    result = hearth("memory", "migrate", "--to", url, "--db", str(device), home=tmp_path)
    assert result.returncode == 0, result.stderr
    there = ScheduleStore.open(PostgresTarget(url, password_file=secret), "kitchen")
    assert [item.text for item in there.items()] == ["call mum"]
    there.close()


def test_what_rings_now_moves_on_to_its_next_time_and_a_paused_timer_stays_paused(
    tmp_path, postgres_databases
):
    # A ringing item was copied with this room's ring: every other room rang it again, and the
    # household kept it ringing for good.
    from assistant.schedule import EVERY_ROOM, ItemKind, ItemState, Scheduler, ScheduleStore
    from assistant.schedule.clock import Now
    from assistant.schedule.moving import move_items

    device = tmp_path / "memory.db"
    Memory.open(device).close()
    wall = datetime(2026, 12, 7, 6, 59, 55, tzinfo=ZoneInfo("Europe/London")).timestamp()
    now = Now(wall, 1000.0, "boot-a")
    here = Scheduler(ScheduleStore.open(device, "kitchen"))
    seven = datetime(2026, 12, 7, 7, 0, tzinfo=ZoneInfo("Europe/London"))
    rule = "DTSTART:20261207T070000\nRRULE:FREQ=DAILY;BYHOUR=7;BYMINUTE=0;BYSECOND=0"
    daily = here.add_at(now, ItemKind.ALARM, seven, rule=rule, room=EVERY_ROOM)
    once = here.add_at(now, ItemKind.REMINDER, seven, text="dinner is ready", room=EVERY_ROOM)
    paused, _ = here.add_timer(now, 600, "pasta", "Europe/London")
    here.pause(now, paused.id)
    here.wake(Now(wall + 6, 1006.0, "boot-a"))  # both ring here
    assert {item.state for item in here.store.items() if item.id != paused.id} == {
        ItemState.RINGING
    }
    shared = postgres_databases()
    Memory.open(shared).close()
    there = ScheduleStore.open(shared, "kitchen")
    moved = move_items(here.store, there, wall + 7)
    here.store.close()
    kept = {item.kind: item for item in there.items(all_rooms=True)}
    there.close()
    assert len(moved.added) == 2 and set(kept) == {ItemKind.ALARM, ItemKind.TIMER}
    assert kept[ItemKind.ALARM].state is ItemState.PENDING
    assert kept[ItemKind.ALARM].due_at == daily.due_at + 86400  # tomorrow's, not a ring now
    assert kept[ItemKind.TIMER].state is ItemState.PAUSED
    assert once.text not in {item.text for item in kept.values()}  # said here already
    bedroom = Scheduler(ScheduleStore.open(shared, "bedroom"))
    assert bedroom.wake(Now(wall + 120, 5.0, "boot-b")) == []  # nothing rings again
    bedroom.store.close()


def test_a_schedule_that_cannot_move_is_said_apart_from_the_facts_that_did(
    tmp_path, postgres_databases
):
    from assistant.schedule import ScheduleStore

    device = tmp_path / "memory.db"
    memory = Memory.open(device)
    memory.remember("I like jazz", "preference")
    memory.close()
    ScheduleStore.open(device, "kitchen").close()
    with sqlite3.connect(device) as raw:  # a schedule a newer Hearth wrote
        raw.execute("INSERT INTO schedule_migrations (version, applied_at) VALUES (99, 0)")
    shared = postgres_databases()
    result = hearth("memory", "migrate", "--to", shared, "--db", str(device), home=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "the facts moved, the schedule did not" in result.stderr
    assert "newer Hearth" in result.stderr and "Traceback" not in result.stderr
    assert [fact.text for fact in Memory.open(shared).facts()] == ["I like jazz"]


def test_vectors_move_with_the_facts(tmp_path, postgres_databases):
    server = EmbedServer().start()
    try:
        embedder = make_embedder(EmbedderSettings(url=server.url, model="all-minilm"))
        device = Memory(open_backend(tmp_path / "memory.db"), embedder)
        device.remember("I like jazz", "preference")
        device.remember("My sister Priya lives in Madrid", "person")
        shared = Memory(open_backend(postgres_databases()), embedder)
        device.migrate_to(shared)
        ids, matrix = shared.store.vectors("all-minilm")
        before_ids, before = device.store.vectors("all-minilm")
        assert ids == before_ids == [1, 2]
        assert matrix is not None and before is not None and (matrix == before).all()
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("target", "said"),
    [
        ("{device}", "is the memory being migrated itself"),
        ("mysql://db.lan/hearth", "mysql://"),
        ("postgresql://nobody@127.0.0.1:1/hearth", "cannot reach the memory database"),
        ("", "empty"),
    ],
)
def test_migrate_refusals_are_clear_and_change_nothing(tmp_path, target, said):
    device = tmp_path / "memory.db"
    a_household_memory(device).close()
    before = device.read_bytes()
    result = hearth("memory", "migrate", "--to", target.format(device=device), "--db",
                    str(device), home=tmp_path)  # fmt: skip
    # A database out of reach is a failure (exit 1), a target the user got wrong bad input (2)
    expected = 1 if said == "cannot reach the memory database" else 2
    assert result.returncode == expected and "Traceback" not in result.stderr
    assert said in result.stderr, result.stderr
    assert device.read_bytes() == before


def test_migrating_into_the_memory_the_settings_use_names_the_file_to_move(tmp_path):
    # The README's steps (the shared database in the settings, then `migrate --to` it) were
    # refused as "the memory being migrated itself", with no word of the device's file.
    shared = "postgresql://hearth@127.0.0.1:1/hearth"
    (tmp_path / "hearth").mkdir()
    (tmp_path / "hearth" / "assistant.yaml").write_text(f"memory:\n  database: {shared}\n")
    result = hearth("memory", "migrate", "--to", shared, home=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"name the file: hearth memory migrate --db {tmp_path}" in result.stderr, result.stderr
    assert f"memory.db --to {shared}" in result.stderr


def test_a_memory_holding_what_no_store_takes_is_named_not_a_traceback(tmp_path):
    # An older Hearth took in a count past PostgreSQL's integer (or an id past 2**53, or a
    # NUL); migrating it raised pydantic's ValidationError with a traceback.
    device = tmp_path / "memory.db"
    a_household_memory(device).close()
    with sqlite3.connect(device) as database:
        database.execute("UPDATE facts SET confirm_count = ? WHERE id = 1", (2**40,))
    result = hearth("memory", "migrate", "--to", str(tmp_path / "copy.db"), "--db", str(device),
                    home=tmp_path)  # fmt: skip
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert "the memory holds what another store cannot take in: confirm_count" in result.stderr


def test_migrating_a_memory_that_is_not_there_creates_nothing(tmp_path, postgres_databases):
    shared = postgres_databases()
    result = hearth("memory", "migrate", "--to", shared, "--db", str(tmp_path / "none.db"),
                    home=tmp_path)  # fmt: skip
    assert result.returncode == 2 and "no memory database here" in result.stderr
    assert not (tmp_path / "none.db").exists()


@pytest.mark.parametrize("command", [["memory", "list"], ["schedule", "list"]])
def test_a_shared_database_out_of_reach_is_a_failure_not_bad_input(tmp_path, command):
    # The README: exit 1 for a failure (try again), 2 for bad input (fix what was typed).
    result = hearth(*command, "--db", "postgresql://nobody@127.0.0.1:1/hearth", home=tmp_path)
    assert result.returncode == 1, result.stderr
    assert "cannot reach the memory database" in result.stderr
    assert "Traceback" not in result.stderr
