"""The scheduler: due, said late, missed, across restarts, reboots, clock jumps and DST."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.schedule import (
    AlarmRinging,
    ClockJumped,
    Delivery,
    ItemKind,
    ItemState,
    Lateness,
    Missed,
    Outcome,
    ReminderDue,
    RingEnded,
    RingResumed,
    SchedulePolicy,
    TimerFinished,
    Weekday,
)
from assistant.schedule.intents import ClockTime, Meridiem, Repeat, When
from assistant.schedule.timing import repeating
from tests.schedule.conftest import START, Clocks

LONDON = ZoneInfo("Europe/London")
NEW_YORK = ZoneInfo("America/New_York")


def run_until(scheduler, clocks: Clocks, seconds: float):
    """Drive the scheduler as the supervisor does: sleep until it has work, wake it, repeat."""
    events = []
    end = clocks.mono + seconds
    events += scheduler.wake(clocks.now)
    while True:
        wait = scheduler.seconds_until_next(clocks.now)
        if wait is None or clocks.mono + wait > end:
            break
        clocks = clocks.after(max(wait, 0.001))
        events += scheduler.wake(clocks.now)
    return clocks.after(end - clocks.mono), events


def test_a_timer_rings_at_its_time_and_stop_ends_it(open_scheduler):
    scheduler = open_scheduler()
    clocks = Clocks()
    scheduler.wake(clocks.now)
    item, started = scheduler.add_timer(clocks.now, 600, "pasta", "Europe/London")
    assert started.seconds == 600 and started.event == "timer_started"
    assert scheduler.seconds_until_next(clocks.now) == 600
    assert scheduler.wake(clocks.after(599.9).now) == []
    events = scheduler.wake(clocks.after(600).now)
    assert events == [
        TimerFinished(item.id, START + 600, 0.0, Lateness.ON_TIME, Delivery.RING, name="pasta")
    ]
    assert scheduler.store.get(item.id).state is ItemState.RINGING
    ended = scheduler.stop_ringing(clocks.after(605).now)
    assert ended == [RingEnded(item.id, ItemKind.TIMER, "stop", None)]
    assert scheduler.store.get(item.id).state is ItemState.DONE
    assert scheduler.wake(clocks.after(700).now) == []  # rung once


def test_a_ring_nobody_stops_ends_by_itself(open_scheduler):
    scheduler = open_scheduler(SchedulePolicy(auto_stop_seconds=120))
    clocks = Clocks()
    scheduler.wake(clocks.now)
    item, _ = scheduler.add_timer(clocks.now, 10, None, "UTC")
    clocks, events = run_until(scheduler, clocks, 200)
    assert [type(e) for e in events] == [TimerFinished, RingEnded]
    assert events[1].by == "auto"
    assert scheduler.store.get(item.id).state is ItemState.DONE


def test_a_wall_clock_jump_neither_rings_a_timer_early_nor_delays_it(open_scheduler):
    scheduler = open_scheduler()
    clocks = Clocks()
    scheduler.wake(clocks.now)
    scheduler.add_timer(clocks.now, 600, "eggs", "UTC")
    forward = clocks.after(100).jumped(3 * 3600)  # NTP sets the clock three hours on
    events = scheduler.wake(forward.now)
    assert [type(e) for e in events] == [ClockJumped]
    assert scheduler.seconds_until_next(forward.now) == 500  # still counts the real seconds
    back = forward.after(200).jumped(-5 * 3600)
    assert [type(e) for e in scheduler.wake(back.now)] == [ClockJumped]
    events = scheduler.wake(back.after(300).now)
    assert [(type(e), e.lateness) for e in events] == [(TimerFinished, Lateness.ON_TIME)]


def test_a_running_timer_resumes_with_its_true_time_left_after_a_restart(open_scheduler):
    first = open_scheduler()
    clocks = Clocks()
    first.wake(clocks.now)
    item, _ = first.add_timer(clocks.now, 600, "pasta", "UTC")
    first.store.close()  # the process dies 200 s in; it is back 50 s later
    second = open_scheduler()
    back = clocks.after(250)
    assert second.wake(back.now) == []
    assert second.store.get(item.id).left(back.now) == 350
    assert second.seconds_until_next(back.now) == 350


def test_a_timer_survives_a_reboot_counting_the_time_it_was_off(open_scheduler):
    first = open_scheduler()
    clocks = Clocks()
    first.wake(clocks.now)
    item, _ = first.add_timer(clocks.now, 3600, "bread", "UTC")
    first.store.close()
    second = open_scheduler()
    booted = clocks.after(600).rebooted(900, "boot-2")  # 600 s running, 900 s off
    assert second.wake(booted.now) == []
    assert second.store.get(item.id).left(booted.now) == 2100
    _, events = run_until(second, booted, 2100)
    assert [type(e) for e in events] == [TimerFinished]


def test_what_came_due_while_down_is_said_within_the_grace_and_missed_past_it(open_scheduler):
    policy = SchedulePolicy(grace_seconds=1800)
    first = open_scheduler(policy)
    clocks = Clocks()
    first.wake(clocks.now)
    soon, _ = first.add_timer(clocks.now, 60, "pasta", "UTC")
    moment = datetime.fromtimestamp(clocks.wall + 600, LONDON)
    reminder = first.add_at(clocks.now, ItemKind.REMINDER, moment, text="call mum")
    much_earlier = datetime.fromtimestamp(clocks.wall - 7200 + 3000, LONDON)
    alarm = first.add_at(clocks.now, ItemKind.ALARM, much_earlier.replace(minute=0))
    first.store.close()
    second = open_scheduler(policy)
    back = clocks.rebooted(1200, "boot-2")  # 20 minutes off
    events = {event.item_id: event for event in second.wake(back.now)}
    assert events[soon.id].delivery is Delivery.SAY  # said, not rung: "While I was restarting"
    assert events[soon.id].lateness is Lateness.WHILE_DOWN
    assert isinstance(events[reminder.id], ReminderDue)
    assert events[reminder.id].lateness is Lateness.WHILE_DOWN
    assert isinstance(events[alarm.id], Missed)
    assert second.store.get(alarm.id).state is ItemState.MISSED
    # The said ones end once said; nothing is decided again.
    for item_id in (soon.id, reminder.id):
        assert second.finish(back.now, item_id, "said") is not None
    assert second.wake(back.after(60).now) == []
    outcomes = {row[0]: row[2] for row in second.store.outcomes()}
    assert outcomes == {soon.id: Outcome.SAID_LATE, reminder.id: Outcome.SAID_LATE,
                        alarm.id: Outcome.MISSED}  # fmt: skip


def test_a_crash_mid_ring_resumes_the_ring_without_deciding_it_again(open_scheduler):
    first = open_scheduler()
    clocks = Clocks()
    first.wake(clocks.now)
    item, _ = first.add_timer(clocks.now, 30, None, "UTC")
    assert [type(e) for e in first.wake(clocks.after(30).now)] == [TimerFinished]
    first.store.close()  # killed while ringing
    second = open_scheduler()
    events = second.wake(clocks.after(40).now)
    assert events == [RingResumed(item.id, ItemKind.TIMER, Delivery.RING)]
    assert len(second.store.outcomes(item.id)) == 1
    assert second.stop_ringing(clocks.after(45).now)[0].by == "stop"


def test_a_forward_jump_over_many_items_rings_none_of_them_at_once(open_scheduler):
    scheduler = open_scheduler(SchedulePolicy(grace_seconds=3600))
    clocks = Clocks()
    scheduler.wake(clocks.now)
    alarms = [
        scheduler.add_at(
            clocks.now, ItemKind.ALARM, datetime.fromtimestamp(clocks.wall + minutes * 60, LONDON)
        )
        for minutes in (30, 90, 150)
    ]
    later = clocks.after(10).jumped(3 * 3600)  # the clock leaps over all three
    events = scheduler.wake(later.now)
    by_item = {event.item_id: event for event in events if not isinstance(event, ClockJumped)}
    assert isinstance(by_item[alarms[0].id], Missed)  # 2.5 h late: past the grace
    assert isinstance(by_item[alarms[1].id], Missed)
    said = by_item[alarms[2].id]
    assert isinstance(said, AlarmRinging) and said.delivery is Delivery.SAY
    assert said.lateness is Lateness.CLOCK_JUMP
    assert not any(e.delivery is Delivery.RING for e in events if isinstance(e, AlarmRinging))


def test_after_a_reboot_with_the_clock_behind_nothing_is_decided_until_it_is_set(open_scheduler):
    policy = SchedulePolicy(clock_hold_seconds=600)
    first = open_scheduler(policy)
    clocks = Clocks()
    first.wake(clocks.now)
    alarm = first.add_at(
        clocks.now, ItemKind.ALARM, datetime.fromtimestamp(clocks.wall + 60, LONDON)
    )
    first.store.close()
    second = open_scheduler(policy)
    # A Pi without a real-time clock boots with the time saved an hour before the power cut.
    booted = Clocks(clocks.wall - 3600, 3.0, "boot-2")
    assert second.wake(booted.now) == []
    assert second.store.get(alarm.id).state is ItemState.PENDING
    synced = booted.after(20).jumped(3600 + 900)  # NTP: 15 minutes after the last reading
    events = second.wake(synced.now)
    assert [type(e) for e in events] == [ClockJumped, AlarmRinging]
    assert events[1].delivery is Delivery.SAY and events[1].lateness is Lateness.CLOCK_JUMP


def daily_alarm(scheduler, clocks: Clocks, zone: ZoneInfo, hour: int):
    repeat = Repeat(tuple(Weekday))
    now = datetime.fromtimestamp(clocks.wall, zone)
    first, rule = repeating(repeat, When(time=ClockTime(hour, 0)), now)
    return scheduler.add_at(clocks.now, ItemKind.ALARM, first, rule=rule)


def ring_days(scheduler, clocks: Clocks, days: int, zone: ZoneInfo) -> list[datetime]:
    rung = []
    clocks, events = run_until_stopping(scheduler, clocks, days * 86400)
    for event in events:
        if isinstance(event, AlarmRinging):
            rung.append(datetime.fromtimestamp(event.due_at, zone))
    return rung


def run_until_stopping(scheduler, clocks: Clocks, seconds: float):
    """As ``run_until``, with someone saying "stop" a minute into every ring."""
    events = []
    end = clocks.mono + seconds
    events += scheduler.wake(clocks.now)
    while True:
        wait = scheduler.seconds_until_next(clocks.now)
        if wait is None or clocks.mono + wait > end:
            return clocks, events
        clocks = clocks.after(max(wait, 0.001))
        woke = scheduler.wake(clocks.now)
        events += woke
        if any(isinstance(e, AlarmRinging) for e in woke):
            clocks = clocks.after(60)
            events += scheduler.stop_ringing(clocks.now)


def test_a_7am_alarm_rings_at_7am_local_across_both_dst_changes_in_london(open_scheduler):
    scheduler = open_scheduler()
    spring = Clocks(datetime(2026, 3, 27, 12, 0, tzinfo=LONDON).timestamp())
    scheduler.wake(spring.now)
    daily_alarm(scheduler, spring, LONDON, 7)
    rung = ring_days(scheduler, spring, 4, LONDON)
    assert [(m.day, m.hour, m.minute) for m in rung] == [(28, 7, 0), (29, 7, 0), (30, 7, 0),
                                                          (31, 7, 0)]  # fmt: skip
    assert [m.utcoffset().total_seconds() / 3600 for m in rung] == [0, 1, 1, 1]


def test_a_7am_alarm_rings_at_7am_local_when_new_york_falls_back(open_scheduler):
    scheduler = open_scheduler()
    autumn = Clocks(datetime(2026, 10, 30, 12, 0, tzinfo=NEW_YORK).timestamp())
    scheduler.wake(autumn.now)
    daily_alarm(scheduler, autumn, NEW_YORK, 7)
    rung = ring_days(scheduler, autumn, 4, NEW_YORK)
    assert [(m.day, m.hour) for m in rung] == [(31, 7), (1, 7), (2, 7), (3, 7)]
    assert [m.utcoffset().total_seconds() / 3600 for m in rung] == [-4, -5, -5, -5]


def test_an_alarm_in_the_repeated_hour_rings_once(open_scheduler):
    scheduler = open_scheduler()
    clocks = Clocks(datetime(2026, 10, 31, 12, 0, tzinfo=NEW_YORK).timestamp())
    scheduler.wake(clocks.now)
    repeat = Repeat(tuple(Weekday))
    now = datetime.fromtimestamp(clocks.wall, NEW_YORK)
    first, rule = repeating(repeat, When(time=ClockTime(1, 30, Meridiem.AM)), now)
    scheduler.add_at(clocks.now, ItemKind.ALARM, first, rule=rule)
    rung = ring_days(scheduler, clocks, 2, NEW_YORK)
    # 1:30 happens twice on 1 November (EDT, then EST): it rings at the first, once.
    assert [(m.day, m.hour, m.minute, m.utcoffset().total_seconds() / 3600) for m in rung] == [
        (1, 1, 30, -4),
        (2, 1, 30, -5),
    ]


def test_an_alarm_in_the_skipped_hour_rings_just_after_the_change(open_scheduler):
    repeat = Repeat(tuple(Weekday))
    spring = Clocks(datetime(2027, 3, 13, 12, 0, tzinfo=NEW_YORK).timestamp())
    other = open_scheduler()
    other.wake(spring.now)
    now = datetime.fromtimestamp(spring.wall, NEW_YORK)
    first, rule = repeating(repeat, When(time=ClockTime(2, 30, Meridiem.AM)), now)
    other.add_at(spring.now, ItemKind.ALARM, first, rule=rule)
    rung = ring_days(other, spring, 2, NEW_YORK)
    # 2:30 does not exist on 14 March: it rings at 3:30, the same distance after the change.
    assert [(m.day, m.hour, m.minute) for m in rung] == [(14, 3, 30), (15, 2, 30)]


def test_a_repeating_alarm_missed_for_days_is_reported_once_and_goes_on(open_scheduler):
    first = open_scheduler()
    clocks = Clocks(datetime(2027, 1, 4, 12, 0, tzinfo=LONDON).timestamp())
    first.wake(clocks.now)
    alarm = daily_alarm(first, clocks, LONDON, 7)
    first.store.close()
    second = open_scheduler()
    back = clocks.rebooted(3 * 86400, "boot-2")  # off for three days, back at noon
    events = second.wake(back.now)
    assert events == [Missed(alarm.id, ItemKind.ALARM, events[0].due_at, 3, Lateness.WHILE_DOWN)]
    item = second.store.get(alarm.id)
    assert item.state is ItemState.PENDING
    assert datetime.fromtimestamp(item.due_at, LONDON).replace(tzinfo=None) == datetime(
        2027, 1, 8, 7, 0
    )


@pytest.mark.parametrize(
    ("zone", "start", "offsets"),
    [
        ("Europe/London", (2026, 3, 27), [0, 1, 1, 1]),  # spring forward on the 29th
        ("Europe/London", (2026, 10, 23), [1, 0, 0, 0]),  # fall back at 2 AM on the 25th
        ("America/New_York", (2026, 3, 6), [-5, -4, -4, -4]),  # spring forward at 2 AM, the 8th
        ("America/New_York", (2026, 10, 30), [-4, -5, -5, -5]),  # fall back on 1 November
    ],
)
def test_a_daily_7am_alarm_keeps_to_7am_local_in_both_directions(
    open_scheduler, zone, start, offsets
):
    tz = ZoneInfo(zone)
    scheduler = open_scheduler()
    clocks = Clocks(datetime(*start, 12, 0, tzinfo=tz).timestamp())
    scheduler.wake(clocks.now)
    daily_alarm(scheduler, clocks, tz, 7)
    rung = ring_days(scheduler, clocks, 4, tz)
    assert [(m.hour, m.minute) for m in rung] == [(7, 0)] * 4
    assert [m.utcoffset().total_seconds() / 3600 for m in rung] == offsets


def test_an_item_added_through_another_connection_is_seen_at_once(open_scheduler):
    supervisor = open_scheduler()  # the supervisor's scheduler
    desk = open_scheduler()  # the brain's, on its own connection
    clocks = Clocks()
    supervisor.wake(clocks.now)
    assert supervisor.seconds_until_next(clocks.now) is None
    desk.add_timer(clocks.now, 30, "tea", "UTC")
    assert supervisor.seconds_until_next(clocks.now) == 30
    item = desk.active()[0]
    desk.cancel(clocks.now, item.id)
    assert supervisor.seconds_until_next(clocks.now) is None
