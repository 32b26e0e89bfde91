"""Rooms in spoken requests: the parser takes the room said (pure), and the desk stores the item
for that room of the shared schedule, names it, and refuses a room no Hearth is known to be in;
only the Hearths of that room (or of every room) are then due to say it."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.reply import HeardUtterance, Note, Sentence
from assistant.schedule import (
    EVERYWHERE,
    Announce,
    AudioClock,
    ClockTime,
    ItemKind,
    Meridiem,
    Now,
    Place,
    ReminderDue,
    ScheduleDesk,
    Scheduler,
    ScheduleStore,
    SetReminder,
    When,
    parse_request,
)

LONDON = ZoneInfo("Europe/London")
SATURDAY_5PM = datetime(2026, 3, 28, 17, 0, tzinfo=LONDON).timestamp()
AT_6 = When(time=ClockTime(6))


@pytest.mark.parametrize(
    ("said", "intent"),
    [
        (
            "Remind me in the living room to water the plants at 6.",
            SetReminder("water the plants", AT_6, place=Place("living room")),
        ),
        (
            "Remind me in the kitchen at 6 to stir the soup.",
            SetReminder("stir the soup", AT_6, place=Place("kitchen")),
        ),
        (
            "Remind everyone to take out the bins at 7pm.",
            SetReminder(
                "take out the bins", When(time=ClockTime(7, 0, Meridiem.PM)), place=EVERYWHERE
            ),
        ),
        ("Remind us everywhere to lock up at 6.", SetReminder("lock up", AT_6, place=EVERYWHERE)),
        # "in" with a duration is a time, not a room; no room said is the room it was said in
        ("Remind me in 20 minutes to call mum.", SetReminder("call mum", When(after_seconds=1200))),
        ("Remind me to water the plants at 6.", SetReminder("water the plants", AT_6)),
        (
            "Announce in the kitchen that dinner is ready.",
            Announce("dinner is ready", Place("kitchen")),
        ),
        ("Announce everywhere that dinner is ready.", Announce("dinner is ready", EVERYWHERE)),
        ("Announce in every room that we are off.", Announce("we are off", EVERYWHERE)),
        ("Make an announcement: dinner is ready.", Announce("dinner is ready")),
        ("Announce dinner is ready.", Announce("dinner is ready")),
    ],
)
def test_the_room_said_is_parsed(said, intent):
    assert parse_request(said) == intent


def test_an_announcement_with_nothing_to_say_is_the_models():
    assert parse_request("Announce.") is None
    assert parse_request("Announce in the kitchen.") is None


class Hearth:
    """A desk and a scheduler for one room over the shared schedule, at audio seconds ``t``."""

    def __init__(self, url: str, room: str):
        self.store = ScheduleStore.open(url, room=room)
        self.scheduler = Scheduler(self.store)
        self.desk = ScheduleDesk(AudioClock(SATURDAY_5PM), LONDON, self.scheduler)
        self.t = 0.0
        self.wake(0)  # a Hearth that runs its scheduler is known to be in its room

    def hears(self, text: str) -> tuple[list[str], list[Note]]:
        self.t += 10
        parts = self.desk.take(HeardUtterance(text, t=self.t))
        assert parts is not None, f"{text!r} was not taken"
        said = [part.text for part in parts if isinstance(part, Sentence)]
        return said, [part for part in parts if isinstance(part, Note)]

    def wake(self, after: float) -> list[str]:
        """What this Hearth says (reminders due) ``after`` seconds past 5 PM."""
        events = self.scheduler.wake(Now(SATURDAY_5PM + after, 1000 + after, "boot"))
        return [event.text for event in events if isinstance(event, ReminderDue)]


@pytest.fixture
def hearths(postgres_databases):
    url = postgres_databases()
    kitchen, living_room = Hearth(url, "kitchen"), Hearth(url, "Living Room")
    yield kitchen, living_room
    kitchen.store.close()
    living_room.store.close()


def test_a_reminder_for_another_room_is_said_there_only(hearths):
    kitchen, living_room = hearths
    said, [note] = kitchen.hears("Remind me in the living room to water the plants at 6.")
    assert said == [
        "Okay, I'll remind you in the Living Room to water the plants at 6:00 PM today."
    ]
    assert note.event == "reminder_set" and note.fields["room"] == "Living Room"
    assert kitchen.wake(3600 + 5) == []
    assert living_room.wake(3600 + 5) == ["water the plants"]


def test_a_reminder_for_everyone_is_kept_for_each_known_room_and_said_in_every_room(hearths):
    kitchen, living_room = hearths
    said, notes = living_room.hears("Remind everyone to take out the bins at 6.")
    assert said == [
        "Okay, I'll remind everyone in every room to take out the bins at 6:00 PM today."
    ]
    # one copy per room: an occurrence is decided once, so one EVERY_ROOM item would be said
    # by whichever Hearth woke first and be done for the others
    assert sorted(note.fields["room"] for note in notes) == ["Living Room", "kitchen"]
    assert kitchen.wake(3605) == ["take out the bins"]
    assert living_room.wake(3605) == ["take out the bins"]


def test_a_reminder_without_a_room_stays_in_the_room_it_was_set_in(hearths):
    kitchen, living_room = hearths
    said, _ = kitchen.hears("Remind me to stir the soup at 6.")
    assert said == ["Okay, I'll remind you to stir the soup at 6:00 PM today."]
    assert kitchen.wake(3605) == ["stir the soup"]
    assert living_room.wake(3605) == []


def test_an_announcement_is_said_now_in_its_room_only(hearths):
    kitchen, living_room = hearths
    said, _ = living_room.hears("Announce in the kitchen that dinner is ready.")
    assert said == ["Okay, announcing it in the kitchen."]
    assert living_room.wake(15) == []
    assert kitchen.wake(15) == ["dinner is ready"]


def test_an_announcement_without_a_room_is_said_in_every_room(hearths):
    kitchen, living_room = hearths
    said, _ = kitchen.hears("Announce the car is here.")
    assert said == ["Okay, announcing it to everyone in every room."]
    assert kitchen.wake(15) == ["the car is here"]
    assert living_room.wake(15) == ["the car is here"]


def test_a_room_no_hearth_is_in_is_refused_plainly_and_nothing_is_stored(hearths):
    kitchen, _ = hearths
    said, notes = kitchen.hears("Remind me in the garage to check the freezer at 6.")
    assert said == ["I don't know a room called garage. I know the kitchen and the Living Room."]
    assert notes == []
    assert kitchen.scheduler.active(ItemKind.REMINDER) == []
    said, _ = kitchen.hears("Announce in the attic that the loft is open.")
    assert said[0].startswith("I don't know a room called attic.")
    assert kitchen.store.items(all_rooms=True) == []


def test_one_hearth_on_its_own_file_knows_only_its_own_room(tmp_path):
    store = ScheduleStore.open(tmp_path / "memory.db", room="kitchen")
    desk = ScheduleDesk(AudioClock(SATURDAY_5PM), LONDON, Scheduler(store))
    parts = desk.take(HeardUtterance("Remind me in the living room to water it at 6.", t=10))
    assert [p.text for p in parts if isinstance(p, Sentence)] == [
        "I don't know a room called living room. I know the kitchen."
    ]
    parts = desk.take(HeardUtterance("Remind me in the kitchen to water it at 6.", t=20))
    [item] = store.items()
    assert item.room == "kitchen" and item.text == "water it"
    store.close()
