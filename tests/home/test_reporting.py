"""What the event stream means for Home Assistant, as pure code: the state sensor, the event
entity and the next-item sensor."""

from __future__ import annotations

from datetime import UTC, datetime

from assistant.home import (
    DeviceEvent,
    DeviceState,
    EventType,
    ItemKind,
    StateReport,
    device_event,
    soonest,
)
from assistant.schedule import Item, ItemState, Now
from assistant.schedule import ItemKind as Kind
from assistant.schedule.items import TimerClock

NOW = Now(1_800_000_000.0, 500.0, "boot-1")


def states(records: list[dict]) -> list[DeviceState]:
    report = StateReport()
    changes = [report.observe(record) for record in records]
    return [change for change in changes if change is not None]


def test_the_sensor_follows_the_listener_through_a_conversation():
    records = [
        {"event": "state", "old": "standby", "new": "listening"},
        {"event": "state", "old": "listening", "new": "thinking"},
        {"event": "state", "old": "thinking", "new": "speaking"},
        {"event": "speak_start", "job": 1},
        {"event": "speak_end", "job": 1},
        {"event": "state", "old": "speaking", "new": "follow_up"},
        {"event": "state", "old": "follow_up", "new": "standby"},
    ]
    assert states(records) == [
        DeviceState.LISTENING, DeviceState.THINKING, DeviceState.SPEAKING,
        DeviceState.FOLLOW_UP, DeviceState.STANDBY,
    ]  # fmt: skip


def test_an_announcement_in_standby_shows_as_speaking_until_it_ends_or_is_stopped():
    assert states([{"event": "speak_start"}, {"event": "speak_end"}]) == [
        DeviceState.SPEAKING, DeviceState.STANDBY,
    ]  # fmt: skip
    assert states([{"event": "speak_start"}, {"event": "stop_requested"}]) == [
        DeviceState.SPEAKING, DeviceState.STANDBY,
    ]  # fmt: skip


def test_a_restarted_voice_process_is_in_standby_and_unknown_states_are_left_alone():
    records = [
        {"event": "state", "new": "thinking"},
        {"event": "worker_restart", "reason": "no heartbeat"},
        {"event": "state", "new": "daydreaming"},
        {"event": "utterance", "text": "hello"},
    ]
    assert states(records) == [DeviceState.THINKING, DeviceState.STANDBY]


def test_a_ringing_listener_shows_as_ringing():
    assert states([{"event": "state", "new": "ringing"}]) == [DeviceState.RINGING]


def test_wakes_and_finished_items_fire_the_event_entity():
    assert device_event({"event": "wake", "t": 1.0}) == DeviceEvent(EventType.WAKE)
    finished = {"event": "timer_finished", "item_id": 3, "name": "pasta", "due_at": 1.0}
    assert device_event(finished) == DeviceEvent(
        EventType.TIMER_FINISHED, {"label": "pasta", "item_id": 3}
    )
    assert device_event({"event": "alarm_ringing", "item_id": 4}) == DeviceEvent(
        EventType.ALARM, {"label": "", "item_id": 4}
    )
    reminder = {"event": "reminder_due", "item_id": 5, "text": "water the tomatoes"}
    assert device_event(reminder) == DeviceEvent(
        EventType.REMINDER, {"label": "water the tomatoes", "item_id": 5}
    )
    assert device_event({"event": "utterance", "text": "wake up"}) is None


def item(item_id: int, kind: Kind, due_at: float | None, **fields) -> Item:
    return Item(item_id, kind, fields.pop("state", ItemState.PENDING), "UTC", due_at, **fields)


def test_the_next_item_is_the_soonest_timer_alarm_or_reminder():
    timer = item(1, Kind.TIMER, None, name="pasta", timer=TimerClock(600.0, NOW.wall, 500.0,
                                                                      "boot-1"))  # fmt: skip
    alarm = item(2, Kind.ALARM, NOW.wall + 300)
    routine = item(3, Kind.ROUTINE, NOW.wall + 60, text="encourage me")
    reminder = item(4, Kind.REMINDER, NOW.wall + 900, text="call mum")
    shown = soonest([timer, alarm, routine, reminder], NOW)
    assert shown is not None
    assert (shown.kind, shown.label) == (ItemKind.ALARM, "")
    assert shown.due == datetime.fromtimestamp(NOW.wall + 300, UTC)
    later = Now(NOW.wall + 100, 600.0, "boot-1")
    assert soonest([timer, reminder], later).label == "pasta"  # 500 s left at 'later'


def test_paused_ringing_and_ended_items_are_not_next():
    paused = item(1, Kind.TIMER, None, state=ItemState.PAUSED,
                  timer=TimerClock(60.0, NOW.wall, 500.0, "boot-1"))  # fmt: skip
    ringing = item(2, Kind.ALARM, NOW.wall - 5, state=ItemState.RINGING)
    done = item(3, Kind.REMINDER, NOW.wall + 5, state=ItemState.DONE)
    assert soonest([paused, ringing, done], NOW) is None
