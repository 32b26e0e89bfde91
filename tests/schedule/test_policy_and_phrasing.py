"""Pure pieces: lateness verdicts, the jump measure, a routine's retries, configured routines,
and what Hearth says about lengths, repetition and late or missed items."""

from __future__ import annotations

import itertools
from datetime import datetime
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

from assistant.schedule import (
    AlarmRinging,
    Delivery,
    ItemKind,
    Lateness,
    Missed,
    Now,
    Outcome,
    ReminderDue,
    RetryPolicy,
    SchedulePolicy,
    TimerFinished,
    announcement,
    finished,
    say_length,
    sync_routines,
)
from assistant.schedule.intents import EVERY_DAY, WEEKDAYS, Weekday
from assistant.schedule.phrasing import say_moment, say_repeat
from assistant.schedule.policy import clock_shift, judge
from config import RoutineSettings
from tests.schedule.conftest import Clocks

LONDON = ZoneInfo("Europe/London")


def test_lateness_decides_ring_said_or_missed():
    policy = SchedulePolicy(on_time_seconds=60, grace_seconds=1800)
    assert judge(ItemKind.TIMER, 0, policy).delivery is Delivery.RING
    assert judge(ItemKind.REMINDER, 30, policy).delivery is Delivery.SAY
    assert judge(ItemKind.ALARM, 61, policy).outcome is Outcome.SAID_LATE
    assert judge(ItemKind.ROUTINE, 600, policy).delivery is Delivery.RUN
    assert judge(ItemKind.ALARM, 1801, policy).outcome is Outcome.MISSED


def test_a_jump_is_wall_movement_the_monotonic_clock_did_not_see():
    before = Now(1000.0, 50.0, "a")
    assert clock_shift(before, Now(1010.0, 60.0, "a")) == 0
    assert clock_shift(before, Now(4610.0, 60.0, "a")) == 3600
    assert clock_shift(before, Now(10.0, 60.0, "b")) is None  # another boot: not comparable


@given(st.integers(1, 50))
def test_a_routine_retries_with_backoff_and_gives_up_within_its_window(tries):
    policy = RetryPolicy(first_seconds=5, factor=2, longest_seconds=120, window_seconds=900)
    first, now = 100.0, 100.0
    schedule = []
    for attempt in range(1, tries + 1):
        upcoming = policy.next_try(first, attempt, now)
        if upcoming is None:
            break
        schedule.append(upcoming - now)
        now = upcoming
    assert all(later >= earlier for earlier, later in itertools.pairwise(schedule))
    assert all(delay <= 120 for delay in schedule)
    assert now - first <= 900
    assert schedule[:3] == [5, 10, 20][: len(schedule[:3])]


def test_configured_routines_are_added_once_and_removed_when_dropped(open_scheduler):
    scheduler = open_scheduler()
    clocks = Clocks()
    routine = RoutineSettings(prompt="Give me something encouraging", at="7:30", days="weekdays")
    added = sync_routines(scheduler, (routine,), clocks.now, LONDON)
    assert len(added) == 1 and added[0].silent is False
    assert datetime.fromtimestamp(added[0].due_at, LONDON).strftime("%H:%M") == "07:30"
    assert sync_routines(scheduler, (routine,), clocks.now, LONDON) == []  # unchanged: kept
    assert sync_routines(scheduler, (), clocks.now, LONDON) == []
    assert scheduler.active(ItemKind.ROUTINE) == []


def test_lengths_and_repetition_are_said_plainly():
    assert say_length(600) == "10 minutes"
    assert say_length(5400) == "1 hour and 30 minutes"
    assert say_length(90) == "1 minute and 30 seconds"
    assert say_length(3 * 60 + 40) == "4 minutes"  # past two minutes, to the minute
    assert say_repeat(EVERY_DAY.weekdays) == "every day"
    assert say_repeat(WEEKDAYS.weekdays) == "every weekday"
    assert say_repeat((Weekday.MONDAY, Weekday.FRIDAY)) == "every Monday and Friday"


def test_late_and_missed_items_are_said_with_why_and_when(open_scheduler):
    scheduler = open_scheduler()
    clocks = Clocks()
    timer, _ = scheduler.add_timer(clocks.now, 60, "pasta", "Europe/London")
    moment = datetime(2027, 1, 15, 7, 0, tzinfo=LONDON)
    alarm = scheduler.add_at(clocks.now, ItemKind.ALARM, moment)
    reminder = scheduler.add_at(clocks.now, ItemKind.REMINDER, moment, text="call mum")
    six_oh_two = datetime(2027, 1, 15, 6, 2, tzinfo=LONDON).timestamp()
    late_timer = TimerFinished(timer.id, six_oh_two, 600, Lateness.WHILE_DOWN, Delivery.SAY)
    assert announcement(late_timer, timer) == (
        "While I was restarting, your pasta timer finished at 6:02 AM."
    )
    late_alarm = AlarmRinging(alarm.id, moment.timestamp(), 900, Lateness.CLOCK_JUMP, Delivery.SAY)
    assert announcement(late_alarm, alarm) == (
        "While my clock was being set, your 7 AM alarm went off."
    )
    due = ReminderDue(reminder.id, moment.timestamp(), 0, Lateness.ON_TIME, Delivery.SAY,
                      text="call mum")  # fmt: skip
    assert announcement(due, reminder) == "A reminder: call mum."
    missed = Missed(alarm.id, ItemKind.ALARM, moment.timestamp(), 3, Lateness.WHILE_DOWN)
    assert announcement(missed, alarm) == "I missed your 7 AM alarm 3 times while I was off."
    on_time = TimerFinished(timer.id, six_oh_two, 0, Lateness.ON_TIME, Delivery.RING)
    assert announcement(on_time, timer) is None  # the ring says it; then:
    assert finished(timer) == "Your pasta timer is done."
    assert finished(alarm) == "That was your 7 AM alarm."


def test_a_moment_within_the_hour_is_said_with_its_minutes_even_on_the_hour():
    zone = ZoneInfo("Europe/London")
    now = datetime(2026, 3, 28, 7, 59, 40, tzinfo=zone)
    due = datetime(2026, 3, 28, 8, 0, 10, tzinfo=zone)  # "in 30 seconds"
    assert say_moment(due, now) == "8:00 AM today"
    assert say_moment(datetime(2026, 3, 28, 8, 45, tzinfo=zone), now) == "8:45 AM today"
    # Hours away, on the hour, it is said as a person says it.
    assert say_moment(datetime(2026, 3, 28, 19, 0, tzinfo=zone), now) == "7 PM today"
    assert say_moment(datetime(2026, 3, 29, 7, 0, tzinfo=zone), now) == "7 AM tomorrow"
