"""The schedule's tools: schemas in Ollama's shape, and calls carried out on a real store (the
timer stored and due; a bad argument does nothing and says why)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.reply import AwaitAnswer, Note
from assistant.schedule import (
    EVERY_ROOM,
    AudioClock,
    ItemKind,
    Now,
    ReminderDue,
    ScheduleDesk,
    Scheduler,
    ScheduleStore,
    ScheduleTools,
)

LONDON = ZoneInfo("Europe/London")
SATURDAY_5PM = datetime(2026, 3, 28, 17, 0, tzinfo=LONDON)


@pytest.fixture
def store(database):
    store = ScheduleStore.open(database)
    yield store
    store.close()


@pytest.fixture
def tools(store):
    desk = ScheduleDesk(AudioClock(SATURDAY_5PM.timestamp()), LONDON, Scheduler(store))
    return ScheduleTools(desk)


def test_the_schemas_are_ollama_functions_with_their_required_arguments():
    desk = ScheduleDesk(AudioClock(0.0), LONDON, Scheduler.__new__(Scheduler))
    schemas = {tool["function"]["name"]: tool for tool in ScheduleTools(desk).schemas}
    assert set(schemas) == {
        "set_timer", "set_reminder", "announce", "cancel_timer", "list_timers", "add_time",
        "pause_timer", "resume_timer", "set_alarm", "cancel_alarm", "list_alarms",
    }  # fmt: skip
    assert all(tool["type"] == "function" for tool in schemas.values())
    timer = schemas["set_timer"]["function"]["parameters"]
    assert timer["type"] == "object" and timer["required"] == ["seconds"]
    assert set(timer["properties"]) == {"seconds", "name"}
    assert "room" in schemas["set_reminder"]["function"]["parameters"]["properties"]
    assert schemas["announce"]["function"]["parameters"]["required"] == ["text"]


def test_a_desk_without_a_scheduler_offers_no_tools():
    with pytest.raises(ValueError, match="no scheduler"):
        ScheduleTools(ScheduleDesk(AudioClock(0.0), LONDON))


def test_set_timer_stores_a_real_timer_due_at_its_time(tools, store):
    outcome = tools.run("set_timer", {"seconds": 420, "name": "the eggs"}, 10.0)
    assert outcome.acted and outcome.text == "Eggs timer set for 7 minutes."
    [timer] = Scheduler(store).active(ItemKind.TIMER)
    assert timer.name == "eggs"
    assert timer.due_at == pytest.approx(SATURDAY_5PM.timestamp() + 10 + 420)
    [started] = [p for p in outcome.parts if isinstance(p, Note)]
    assert started.event == "timer_started" and started.fields["item_id"] == timer.id


def test_quoted_numbers_are_read_and_bad_arguments_do_nothing(tools, store):
    assert tools.run("set_timer", {"seconds": "90"}, 0.0).acted
    for arguments in ({}, {"seconds": -5}, {"seconds": "soon"}, {"seconds": True},
                      {"seconds": 10**9}, {"seconds": 10**400}):  # fmt: skip
        outcome = tools.run("set_timer", arguments, 0.0)
        assert not outcome.acted and outcome.text.startswith("Error: "), arguments
    assert tools.run("open_the_pod_bay_doors", {}, 0.0).text == (
        "Error: there is no tool named 'open_the_pod_bay_doors'"
    )
    assert len(Scheduler(store).active()) == 1


@pytest.mark.parametrize(
    ("name", "arguments", "why"),
    [
        ("set_reminder", {"text": ".", "in_seconds": 5}, "text is required"),
        ("announce", {"text": "..."}, "text is required"),
        ("set_reminder", {"text": "call mum " * 40, "in_seconds": 5}, "too long to say"),
        ("announce", {"text": "beep " * 600}, "too long to say"),
        ("set_timer", {"seconds": 5, "name": "beep " * 600}, "name is too long"),
    ],
)
def test_what_would_be_said_empty_or_for_minutes_is_refused(tools, store, name, arguments, why):
    # "." became "A reminder: ." said aloud; a 3,000-character timer name rang for 137 s.
    outcome = tools.run(name, arguments, 0.0)
    assert not outcome.acted and outcome.text.startswith("Error: ") and why in outcome.text
    assert not Scheduler(store).active()


def test_an_alarm_across_the_clock_change_rings_at_the_local_time_it_names(tools, store):
    # Saturday 17:00 GMT; the clocks go forward at 01:00 on Sunday. The two times subtracted as
    # wall clocks: the alarm for 08:00 would ring at 09:00 BST.
    outcome = tools.run("set_alarm", {"at": "2026-03-29T08:00"}, 0.0)
    assert outcome.acted and outcome.text == "Alarm set for 8 AM tomorrow."
    [alarm] = Scheduler(store).active(ItemKind.ALARM)
    assert alarm.due_at == datetime(2026, 3, 29, 8, 0, tzinfo=LONDON).timestamp()
    # 01:30 does not exist that night: it rings at 02:30 BST, and says so.
    skipped = tools.run("set_alarm", {"at": "2026-03-29T01:30"}, 0.0)
    assert skipped.text == "Alarm set for 2:30 AM tomorrow."
    due = sorted(alarm.due_at for alarm in Scheduler(store).active(ItemKind.ALARM))
    assert due[0] == datetime(2026, 3, 29, 2, 30, tzinfo=LONDON).timestamp()


def test_set_reminder_in_seconds_or_at_a_local_time(tools, store):
    soon = tools.run("set_reminder", {"text": "call mum", "in_seconds": 1200}, 0.0)
    assert soon.acted and soon.text == "Okay, I'll remind you to call mum at 5:20 PM today."
    later = tools.run("set_reminder", {"text": "water the tomatoes", "at": "2026-03-28T19:00"}, 0.0)
    assert later.acted and "water the tomatoes at 7 PM" in later.text
    dues = sorted(item.due_at for item in Scheduler(store).active(ItemKind.REMINDER))
    assert dues == [SATURDAY_5PM.timestamp() + 1200, SATURDAY_5PM.timestamp() + 7200]
    past = tools.run("set_reminder", {"text": "x", "at": "2026-03-28T09:00"}, 0.0)
    assert not past.acted and "already passed" in past.text
    assert not tools.run("set_reminder", {"text": "x", "at": "at seven"}, 0.0).acted
    assert not tools.run("set_reminder", {"in_seconds": 60}, 0.0).acted


def test_list_and_cancel_timers(tools, store):
    assert tools.run("list_timers", {}, 0.0).text == "You have no timers running."
    tools.run("set_timer", {"seconds": 420, "name": "eggs"}, 0.0)
    tools.run("set_timer", {"seconds": 600, "name": "pasta"}, 0.0)
    listed = tools.run("list_timers", {}, 0.0)
    assert not listed.acted and "eggs" in listed.text and "pasta" in listed.text
    # Two timers and no name: the desk asks which, and the question awaits its answer.
    which = tools.run("cancel_timer", {}, 0.0)
    assert not which.acted and which.text.endswith("Which one?")
    assert any(isinstance(p, AwaitAnswer) for p in which.parts)
    cancelled = tools.run("cancel_timer", {"name": "eggs timer"}, 0.0)
    assert cancelled.acted and cancelled.text == "Eggs timer cancelled."
    assert [t.name for t in Scheduler(store).active(ItemKind.TIMER)] == ["pasta"]
    assert tools.run("cancel_timer", {"all": True}, 0.0).acted
    assert not Scheduler(store).active()


def test_add_pause_and_resume_change_the_stored_timer(tools, store):
    assert tools.run("set_timer", {"seconds": 600, "name": "pasta"}, 0.0).acted
    added = tools.run("add_time", {"seconds": 300, "name": "pasta timer"}, 60.0)
    [timer] = Scheduler(store).active(ItemKind.TIMER)
    assert added.acted and timer.due_at == pytest.approx(SATURDAY_5PM.timestamp() + 900)
    paused = tools.run("pause_timer", {"name": "pasta"}, 120.0)
    [timer] = Scheduler(store).active(ItemKind.TIMER)
    assert paused.acted and timer.state.value == "paused"
    resumed = tools.run("resume_timer", {}, 180.0)
    [timer] = Scheduler(store).active(ItemKind.TIMER)
    assert resumed.acted and timer.state.value != "paused"
    assert timer.due_at == pytest.approx(SATURDAY_5PM.timestamp() + 180 + 780)
    assert not tools.run("add_time", {"seconds": "lots"}, 200.0).acted


def test_set_list_and_cancel_an_alarm_at_a_local_time(tools, store):
    set_ = tools.run("set_alarm", {"at": "2026-03-29T07:00"}, 0.0)
    [alarm] = Scheduler(store).active(ItemKind.ALARM)
    assert set_.acted and set_.text == "Alarm set for 7 AM tomorrow."
    assert alarm.due_at == pytest.approx(datetime(2026, 3, 29, 7, 0, tzinfo=LONDON).timestamp())
    listed = tools.run("list_alarms", {}, 10.0)
    assert not listed.acted and "7 AM tomorrow" in listed.text
    assert not tools.run("set_alarm", {}, 10.0).acted
    assert not tools.run("set_alarm", {"at": "2026-03-28T09:00"}, 10.0).acted  # passed
    assert not tools.run("cancel_alarm", {"time": "25:99"}, 20.0).acted
    cancelled = tools.run("cancel_alarm", {"time": "07:00"}, 20.0)
    assert cancelled.acted and not Scheduler(store).active(ItemKind.ALARM)


def test_set_reminder_and_announce_take_a_room_known_as_a_spoken_one_is(postgres_databases):
    url = postgres_databases()
    stores = {room: ScheduleStore.open(url, room=room) for room in ("kitchen", "Living Room")}
    schedulers = {room: Scheduler(store) for room, store in stores.items()}
    start = SATURDAY_5PM.timestamp()
    for scheduler in schedulers.values():
        scheduler.wake(Now(start, 100.0, "boot"))  # each Hearth is known in its room
    tools = ScheduleTools(ScheduleDesk(AudioClock(start), LONDON, schedulers["kitchen"]))
    there = tools.run("set_reminder", {"text": "water the plants", "in_seconds": 600,
                                       "room": "the living room"}, 0.0)  # fmt: skip
    assert there.acted
    assert (
        there.text
        == "Okay, I'll remind you in the Living Room to water the plants at 5:10 PM today."
    )
    everywhere = tools.run(
        "set_reminder", {"text": "lock up", "in_seconds": 600, "room": "every"}, 0.0
    )
    assert everywhere.acted and "remind everyone in every room to lock up" in everywhere.text
    # a room no Hearth is in is refused as it is when said aloud, and nothing is stored
    unknown = tools.run("set_reminder", {"text": "x", "in_seconds": 60, "room": "garage"}, 0.0)
    assert not unknown.acted
    assert (
        unknown.text == "I don't know a room called garage. I know the kitchen and the Living Room."
    )
    assert not tools.run("set_reminder", {"text": "x", "in_seconds": 60, "room": 7}, 0.0).acted
    assert not tools.run("set_reminder", {"text": "x", "in_seconds": 60, "room": " "}, 0.0).acted
    rooms = [(item.text, item.room) for item in stores["kitchen"].items(all_rooms=True)]
    assert rooms == [("water the plants", "Living Room"), ("lock up", EVERY_ROOM)]
    # announcements: every room unless one is named
    assert tools.run("announce", {"text": "dinner is ready"}, 10.0).acted
    one = tools.run("announce", {"text": "the soup is on", "room": "kitchen"}, 10.0)
    assert one.acted and one.text == "Okay, announcing it in the kitchen."
    assert not tools.run("announce", {"text": "hi", "room": "attic"}, 10.0).acted
    assert not tools.run("announce", {"room": "kitchen"}, 10.0).acted
    said = {
        room: sorted(event.text for event in scheduler.wake(Now(start + 605, 705.0, "boot"))
                     if isinstance(event, ReminderDue))
        for room, scheduler in schedulers.items()
    }  # fmt: skip
    assert said == {
        "kitchen": ["dinner is ready", "lock up", "the soup is on"],
        "Living Room": ["dinner is ready", "lock up", "water the plants"],
    }
    for store in stores.values():
        store.close()


def test_a_room_on_one_devices_file_is_its_own_or_every(tmp_path):
    store = ScheduleStore.open(tmp_path / "memory.db", room="kitchen")
    tools = ScheduleTools(
        ScheduleDesk(AudioClock(SATURDAY_5PM.timestamp()), LONDON, Scheduler(store))
    )
    assert tools.run("set_reminder", {"text": "a", "in_seconds": 60, "room": "Kitchen"}, 0.0).acted
    assert tools.run(
        "set_reminder", {"text": "b", "in_seconds": 60, "room": "everywhere"}, 0.0
    ).acted
    refused = tools.run("set_reminder", {"text": "c", "in_seconds": 60, "room": "hall"}, 0.0)
    assert refused.text == "I don't know a room called hall. I know the kitchen."
    assert [(item.text, item.room) for item in store.items()] == [
        ("a", "kitchen"),
        ("b", EVERY_ROOM),
    ]
    store.close()


def test_cancelling_an_alarm_at_another_time_keeps_the_only_alarm(tools, store):
    assert tools.run("set_alarm", {"at": "2026-03-29T07:00"}, 0.0).acted
    kept = tools.run("cancel_alarm", {"time": "06:00"}, 10.0)
    assert len(Scheduler(store).active(ItemKind.ALARM)) == 1
    assert not kept.acted
    assert kept.text == "You have no alarm at 6:00 AM. Your alarm is at 7 AM tomorrow."
    evening = tools.run("cancel_alarm", {"time": "19:00"}, 15.0)  # 24-hour: not 7 AM
    assert not evening.acted and len(Scheduler(store).active(ItemKind.ALARM)) == 1
    assert tools.run("cancel_alarm", {}, 20.0).acted  # no time: the only alarm
    assert not Scheduler(store).active(ItemKind.ALARM)
