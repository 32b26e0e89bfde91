"""``hearth schedule`` through the real entry point: list, cancel, JSON, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from assistant.schedule import EVERY_ROOM, ItemKind, Scheduler, ScheduleStore, SystemClock

ROOT = Path(__file__).resolve().parents[2]


def hearth(*args: str, tmp_path: Path, room: str | None = None) -> subprocess.CompletedProcess:
    environment = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "xdg-config"),
                       XDG_DATA_HOME=str(tmp_path / "xdg-data"))  # fmt: skip
    if room is not None:
        environment["HEARTH_HOUSEHOLD__ROOM"] = room
    return subprocess.run(
        [sys.executable, "-m", "assistant", *args],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def seeded(database: Path) -> tuple[int, int]:
    store = ScheduleStore.open(database)
    scheduler = Scheduler(store)
    now = SystemClock().now()
    timer, _ = scheduler.add_timer(now, 600, "pasta", "Europe/London")
    moment = datetime.fromtimestamp(now.wall + 3600, ZoneInfo("Europe/London"))
    alarm = scheduler.add_at(now, ItemKind.ALARM, moment)
    store.close()
    return timer.id, alarm.id


def test_list_and_cancel_in_text_and_json(tmp_path):
    database = tmp_path / "memory.db"
    timer, alarm = seeded(database)
    listed = hearth("schedule", "list", "--db", str(database), tmp_path=tmp_path)
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[0].startswith(f"#{timer} timer pasta [pending] ") and "minutes left" in lines[0]
    assert lines[1].startswith(f"#{alarm} alarm [pending] ") and "Europe/London" in lines[1]
    cancelled = hearth("schedule", "cancel", str(timer), "--json", "--db", str(database),
                       tmp_path=tmp_path)  # fmt: skip
    assert cancelled.returncode == 0, cancelled.stderr
    assert json.loads(cancelled.stdout)["state"] == "cancelled"
    documents = json.loads(
        hearth("schedule", "list", "--json", "--db", str(database), tmp_path=tmp_path).stdout
    )
    assert [(d["id"], d["kind"], d["state"]) for d in documents] == [(alarm, "alarm", "pending")]
    everything = hearth("--db", str(database), "schedule", "list", "--all", tmp_path=tmp_path)
    assert f"#{timer} timer pasta [cancelled]" in everything.stdout


def test_mistakes_are_plain_errors_with_their_exit_codes(tmp_path):
    database = tmp_path / "memory.db"
    timer, _ = seeded(database)
    missing = hearth("schedule", "cancel", "99", "--db", str(database), tmp_path=tmp_path)
    assert missing.returncode == 2 and "no schedule item #99" in missing.stderr
    beyond = hearth("schedule", "cancel", str(2**63), "--db", str(database), tmp_path=tmp_path)
    assert beyond.returncode == 2 and f"no schedule item #{2**63}" in beyond.stderr
    # Another script's digit is no id: U+0661 (Arabic-Indic one) cancelled item #1.
    foreign = hearth("schedule", "cancel", "\u0661", "--db", str(database), tmp_path=tmp_path)
    assert foreign.returncode == 2 and "is a whole number" in foreign.stderr
    hearth("schedule", "cancel", str(timer), "--db", str(database), tmp_path=tmp_path)
    again = hearth("schedule", "cancel", str(timer), "--db", str(database), tmp_path=tmp_path)
    assert again.returncode == 1 and "already ended (cancelled)" in again.stderr
    not_ours = tmp_path / "notes.db"
    not_ours.write_text("shopping list")
    refused = hearth("schedule", "list", "--db", str(not_ours), tmp_path=tmp_path)
    assert refused.returncode == 2 and "not a SQLite database" in refused.stderr
    assert not_ours.read_text() == "shopping list"
    zone = tmp_path / "zone.yaml"
    zone.write_text("clock:\n  timezone: Europe/Londn\n")
    bad = hearth("--config", str(zone), "schedule", "list", "--db", str(database),
                 tmp_path=tmp_path)  # fmt: skip
    assert bad.returncode == 2 and "Europe/Londn" in bad.stderr and "IANA" in bad.stderr
    for result in (missing, beyond, foreign, again, refused, bad):
        assert "Traceback" not in result.stderr


def test_reading_the_schedule_of_a_memory_that_is_not_there_creates_nothing(tmp_path):
    typo = tmp_path / "nowhere" / "memroy.db"
    for command in (("list",), ("cancel", "1")):
        result = hearth("schedule", *command, "--db", str(typo), tmp_path=tmp_path)
        assert result.returncode == 2, result.stderr
        assert str(typo) in result.stderr and "Traceback" not in result.stderr
    assert not typo.exists() and not typo.parent.exists()


def test_an_item_for_every_room_is_listed_once_in_each_room(postgres_databases, tmp_path):
    url = postgres_databases()
    kitchen = ScheduleStore.open(url, room="kitchen")
    now = SystemClock().now()
    moment = datetime.fromtimestamp(now.wall + 3600, ZoneInfo("Europe/London"))
    item = Scheduler(kitchen).add_at(
        now, ItemKind.REMINDER, moment, text="take out the bins", room=EVERY_ROOM
    )
    Scheduler(kitchen).add_at(now, ItemKind.REMINDER, moment, text="stir the soup")
    kitchen.close()
    for room in ("kitchen", "living room"):
        listed = hearth("schedule", "list", "--db", url, tmp_path=tmp_path, room=room)
        assert listed.returncode == 0, listed.stderr
        every = [line for line in listed.stdout.splitlines() if "take out the bins" in line]
        assert len(every) == 1 and every[0].startswith(
            f"#{item.id} reminder take out the bins [pending] (every room) "
        )
    documents = json.loads(
        hearth("schedule", "list", "--json", "--db", url, tmp_path=tmp_path, room="study").stdout
    )
    assert [(d["id"], d["room"]) for d in documents] == [(item.id, EVERY_ROOM)]


def test_an_item_due_past_any_calendar_is_listed_without_a_traceback(tmp_path):
    # Stored before timers were capped at a week: "a billion hours" is due in the year 116105,
    # and `list --json` died with "year 116105 is out of range".
    database = tmp_path / "memory.db"
    store = ScheduleStore.open(database)
    timer, _ = Scheduler(store).add_timer(SystemClock().now(), 3.6e12, "forever", "Europe/London")
    store.close()
    for form in ((), ("--json",)):
        listed = hearth("schedule", "list", *form, "--db", str(database), tmp_path=tmp_path)
        assert listed.returncode == 0, listed.stderr
        assert "Traceback" not in listed.stderr
    [document] = json.loads(listed.stdout)
    assert document["id"] == timer.id and document["due_local"] is None
