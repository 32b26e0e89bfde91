"""Rooms in spoken requests: the parser takes the room said (pure), and the desk stores the item
for that room of the shared schedule, names it, and refuses a room no Hearth is known to be in;
only the Hearths of that room (or of every room) are then due to say it. An item for every room
is one item that each room says once: also a room that joins before it is due, never one that
joins after; cancelled in one room, it is cancelled in all; a restart says nothing twice."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import psycopg
import pytest

from assistant.reply import HeardUtterance, Note, Sentence
from assistant.schedule import (
    EVERY_ROOM,
    EVERYWHERE,
    Announce,
    AudioClock,
    ClockTime,
    ItemKind,
    ItemState,
    Lateness,
    Meridiem,
    Missed,
    Now,
    Outcome,
    Place,
    ReminderDue,
    RingResumed,
    ScheduleDesk,
    ScheduleError,
    ScheduleEvent,
    Scheduler,
    ScheduleStore,
    SetReminder,
    When,
    parse_request,
)

LONDON = ZoneInfo("Europe/London")
SATURDAY_5PM = datetime(2026, 3, 28, 17, 0, tzinfo=LONDON).timestamp()
SIX = SATURDAY_5PM + 3600
NEXT_SIX = datetime(2026, 3, 29, 18, 0, tzinfo=LONDON).timestamp()  # summer time: 23 h later
THIRD_SIX = datetime(2026, 3, 30, 18, 0, tzinfo=LONDON).timestamp()
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
    """A desk and a scheduler for one room over the shared schedule, at audio seconds ``t``,
    started ``starts`` seconds past 5 PM."""

    def __init__(self, url: str, room: str, starts: float = 0):
        self.url, self.room = url, room
        self.store = ScheduleStore.open(url, room=room)
        self.scheduler = Scheduler(self.store)
        self.desk = ScheduleDesk(AudioClock(SATURDAY_5PM), LONDON, self.scheduler)
        self.t = starts
        self.wake(starts)  # a Hearth that runs its scheduler is known to be in its room

    def hears(self, text: str) -> tuple[list[str], list[Note]]:
        self.t += 10
        parts = self.desk.take(HeardUtterance(text, t=self.t))
        assert parts is not None, f"{text!r} was not taken"
        said = [part.text for part in parts if isinstance(part, Sentence)]
        return said, [part for part in parts if isinstance(part, Note)]

    def wake(self, after: float, *, say: bool = True) -> list[str]:
        """What this Hearth decides to say (reminders due) ``after`` seconds past 5 PM; with
        ``say``, it says them, as the voice loop does (without: it dies before it could)."""
        now = self.now(after)
        events = self.scheduler.wake(now)
        due = [event for event in events if isinstance(event, ReminderDue)]
        for event in due if say else ():
            self.scheduler.finish(now, event.item_id, "said")
        return [event.text for event in due]

    def now(self, after: float) -> Now:
        return Now(SATURDAY_5PM + after, 1000 + after, "boot")

    def restart(self, after: float) -> list[ScheduleEvent]:
        """The process dies and starts again: a new store and scheduler over the same room; the
        events of its first wake ``after`` seconds past 5 PM."""
        self.store.close()
        self.store = ScheduleStore.open(self.url, room=self.room)
        self.scheduler = Scheduler(self.store)
        self.desk = ScheduleDesk(AudioClock(SATURDAY_5PM), LONDON, self.scheduler)
        return self.scheduler.wake(self.now(after))


def household_states(url: str) -> list[str]:
    """The items' own states, as the household keeps them (not as one room sees them)."""
    with psycopg.connect(url) as raw:
        return [row[0] for row in raw.execute("SELECT state FROM hearth.schedule_items")]


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


def test_a_reminder_for_everyone_is_one_item_that_each_room_says_once(hearths):
    kitchen, living_room = hearths
    said, [note] = living_room.hears("Remind everyone to take out the bins at 6.")
    assert said == [
        "Okay, I'll remind everyone in every room to take out the bins at 6:00 PM today."
    ]
    assert note.fields["room"] == EVERY_ROOM
    [item] = kitchen.store.items(all_rooms=True)
    assert kitchen.wake(3605) == ["take out the bins"]
    # said in the kitchen, it is not over for the household: the living room still says it
    assert kitchen.store.get(item.id).state is ItemState.DONE
    assert living_room.store.get(item.id).state is ItemState.PENDING
    assert living_room.wake(3605) == ["take out the bins"]
    assert kitchen.wake(3700) == [] and living_room.wake(3700) == []
    assert kitchen.store.outcomes(item.id) == [(item.id, SIX, Outcome.RUNG, Lateness.ON_TIME)]
    assert living_room.store.outcomes(item.id) == kitchen.store.outcomes(item.id)
    # every known room has said it: it is done for the household
    assert household_states(kitchen.url) == ["done"]


def test_a_room_that_joins_before_it_is_due_says_it_and_one_after_does_not(hearths):
    kitchen, living_room = hearths
    kitchen.hears("Remind everyone to take out the bins at 6.")
    study = Hearth(kitchen.url, "study", starts=1800)  # joins at 5:30
    assert study.hears("What reminders do I have?")[0] == [
        "You have one reminder: take out the bins at 6:00 PM today."
    ]
    assert [h.wake(3605) for h in (kitchen, study)] == [["take out the bins"]] * 2
    # a room whose Hearth first runs after 6 says no old announcement, missed or late
    garage = Hearth(kitchen.url, "garage", starts=3610)
    assert garage.scheduler.active() == []
    assert garage.store.outcomes() == []
    assert household_states(kitchen.url) == ["pending"]  # the living room has still to say it
    assert living_room.wake(3620) == ["take out the bins"]
    assert household_states(kitchen.url) == ["done"]
    for hearth in (study, garage):
        hearth.store.close()


def test_cancelling_it_in_one_room_cancels_it_in_every_room(hearths):
    kitchen, living_room = hearths
    kitchen.hears("Remind everyone to take out the bins at 6.")
    said, [note] = living_room.hears("Cancel the reminder to take out the bins.")
    assert note.event == "reminder_cancelled"
    assert said == ["Cancelled your reminder to take out the bins."]
    assert kitchen.scheduler.active() == [] and living_room.scheduler.active() == []
    assert kitchen.wake(3605) == [] and living_room.wake(3605) == []
    assert kitchen.store.outcomes() == [] and living_room.store.outcomes() == []


def test_cancelling_it_after_one_room_said_it_stops_it_in_the_others(hearths):
    kitchen, living_room = hearths
    kitchen.hears("Remind everyone to take out the bins at 6.")
    assert kitchen.wake(3605) == ["take out the bins"]
    # said in the kitchen, it is still to come in the living room, where it is cancelled
    said, _ = living_room.hears("Cancel the reminder to take out the bins.")
    assert said == ["Cancelled your reminder to take out the bins."]
    assert living_room.wake(3605) == []
    assert household_states(kitchen.url) == ["cancelled"]
    assert kitchen.scheduler.active() == []  # said here, and then cancelled: nothing to come


def test_a_room_that_has_said_it_can_still_cancel_it_for_the_others(hearths):
    """As ``hearth schedule cancel <id>`` does, by the item's number."""
    kitchen, living_room = hearths
    _, [note] = kitchen.hears("Remind everyone to take out the bins at 6.")
    assert kitchen.wake(3605) == ["take out the bins"]
    cancelled = kitchen.scheduler.cancel(kitchen.now(3606), note.fields["item_id"])
    assert cancelled.state is ItemState.CANCELLED
    assert living_room.wake(3610) == [] and household_states(kitchen.url) == ["cancelled"]
    with pytest.raises(ScheduleError, match="already ended"):
        living_room.scheduler.cancel(living_room.now(3611), cancelled.id)


def test_a_restart_midway_says_nothing_twice(hearths):
    kitchen, living_room = hearths
    kitchen.hears("Remind everyone every day at 6 PM to take out the bins.")
    assert kitchen.wake(3605) == ["take out the bins"]
    # the living room decides to say it and dies before it has; the kitchen restarts too
    assert living_room.wake(3605, say=False) == ["take out the bins"]
    [resumed] = living_room.restart(3610)
    assert isinstance(resumed, RingResumed)  # said (again) as resumed, not decided again
    living_room.scheduler.finish(living_room.now(3610), resumed.item_id, "said")
    assert not [e for e in kitchen.restart(3610) if isinstance(e, ReminderDue | Missed)]
    assert kitchen.wake(3700) == [] and living_room.wake(3700) == []
    # the next day each room says it once more
    day = NEXT_SIX - SIX
    assert kitchen.wake(day + 3605) == ["take out the bins"]
    assert living_room.restart(day + 3605)[0].text == "take out the bins"
    assert kitchen.wake(day + 3700) == []
    for hearth in (kitchen, living_room):
        assert [o[1] for o in hearth.store.outcomes()] == [SIX, NEXT_SIX]


def test_a_repeating_reminder_starts_in_a_late_room_at_its_next_occurrence(hearths):
    kitchen, _ = hearths
    kitchen.hears("Remind everyone every day at 6 PM to take out the bins.")
    study = Hearth(kitchen.url, "study", starts=NEXT_SIX - SIX + 7200)  # the next day at 8 PM
    [item] = study.scheduler.active()
    assert item.due_at == THIRD_SIX and study.store.outcomes() == []
    assert study.wake(THIRD_SIX - SATURDAY_5PM + 5) == ["take out the bins"]
    study.store.close()


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


def test_on_one_devices_file_a_reminder_for_everyone_is_said_once_across_a_restart(tmp_path):
    hearth = Hearth(tmp_path / "memory.db", "kitchen")
    _, [note] = hearth.hears("Remind everyone every day at 6 PM to take out the bins.")
    assert note.fields["room"] == EVERY_ROOM
    assert hearth.wake(3605, say=False) == ["take out the bins"]
    [resumed] = hearth.restart(3610)  # died before saying it: said as resumed, not decided again
    assert isinstance(resumed, RingResumed)
    hearth.scheduler.finish(hearth.now(3610), resumed.item_id, "said")
    assert not [e for e in hearth.restart(3620) if isinstance(e, ReminderDue | Missed)]
    assert hearth.wake(NEXT_SIX - SATURDAY_5PM + 5) == ["take out the bins"]
    assert [o[1] for o in hearth.store.outcomes()] == [SIX, NEXT_SIX]
    [item] = hearth.store.items()
    assert item.due_at == THIRD_SIX and item.room == EVERY_ROOM
    hearth.store.close()


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


def test_a_reminder_set_here_for_another_room_is_cancelled_from_here_by_its_words(hearths):
    kitchen, living_room = hearths
    kitchen.hears("Remind me in the living room to water the plants at 6.")
    assert kitchen.hears("Cancel the reminder to water the plants.")[0] == [
        "Cancelled your reminder to water the plants."
    ]
    assert living_room.wake(3600 + 5) == []
    # Unnamed, "cancel my reminder" is about this room's own: there are none here.
    living_room.hears("Remind me to feed the cat at 7.")
    assert kitchen.hears("Cancel my reminder.")[0] == ["You have no reminders set."]
    assert living_room.wake(2 * 3600 + 5) == ["feed the cat"]


def test_a_room_without_timers_names_the_timers_running_elsewhere(hearths):
    # "How long is left on the pasta timer?" in the living room, of the kitchen's timer, was
    # "You have no timers running": not true of the household.
    kitchen, living_room = hearths
    kitchen.hears("Set a pasta timer for 8 minutes.")
    said, _ = living_room.hears("How long is left on the pasta timer?")
    assert said == ["No timers are running here; the kitchen has one: pasta, 8 minutes left."]
    said, _ = kitchen.hears("How long is left on the pasta timer?")
    assert said and "here" not in said[0]
