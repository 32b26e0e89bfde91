"""When spoken times fall: am or pm, today or tomorrow, named days, and the DST edges."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.schedule import parse_request
from assistant.schedule.intents import EVERY_DAY, WEEKDAYS, ClockTime, DayRef, Meridiem, When
from assistant.schedule.timing import WhenError, localize, repeating, resolve

LONDON = ZoneInfo("Europe/London")
NEW_YORK = ZoneInfo("America/New_York")
SATURDAY_3PM = datetime(2026, 3, 28, 15, 0, tzinfo=LONDON)  # DST starts that night


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("wake me up at 7", "2026-03-29T07:00+01:00"),  # a wake-up is the morning
        ("remind me at 7 to eat", "2026-03-28T19:00+00:00"),  # the next 7 ahead
        ("remind me at 2 to eat", "2026-03-29T02:00+01:00"),  # 2 PM has passed: 2 AM
        ("set an alarm for 6.30 tomorrow", "2026-03-29T06:30+01:00"),
        ("remind me tomorrow at 3 to eat", "2026-03-29T15:00+01:00"),
        ("remind me tonight at 8 to eat", "2026-03-28T20:00+00:00"),
        ("remind me tomorrow morning to eat", "2026-03-29T08:00+01:00"),
        ("remind me on sunday at 10 to eat", "2026-03-29T10:00+01:00"),
        ("remind me on saturday at 10 to eat", "2026-04-04T10:00+01:00"),  # today's has passed
        ("in 20 minutes remind me to eat", "2026-03-28T15:20+00:00"),
        ("set an alarm for noon", "2026-03-29T12:00+01:00"),
        ("set an alarm for 1:30", "2026-03-29T02:30+01:00"),  # 1:30 is in tonight's gap
        ("set an alarm for 7 pm", "2026-03-28T19:00+00:00"),
        ("set an alarm for 19:30", "2026-03-28T19:30+00:00"),
    ],
)
def test_spoken_times_resolve(said, expected):
    intent = parse_request(said)
    moment = resolve(intent.when, SATURDAY_3PM, getattr(intent, "wake_up", False))
    assert moment == datetime.fromisoformat(expected)


def test_a_time_in_the_spring_gap_moves_on_by_the_gap_and_a_repeated_one_takes_the_first():
    assert localize(datetime(2026, 3, 8, 2, 30), NEW_YORK).isoformat() == (
        "2026-03-08T03:30:00-04:00"
    )
    assert localize(datetime(2026, 11, 1, 1, 30), NEW_YORK).isoformat() == (
        "2026-11-01T01:30:00-04:00"
    )


def test_in_the_repeated_hour_a_time_is_its_next_occurrence_not_one_gone():
    # 01:15 GMT, the second 01:15 of the night the clocks go back: "1:30" is 01:30 GMT, a
    # quarter of an hour on. Its first occurrence, 01:30 BST, was stored (in the past) and the
    # alarm "went off" at once, as if missed while restarting.
    second_quarter_past_one = datetime(2026, 10, 25, 1, 15, tzinfo=LONDON, fold=1)
    moment = resolve(parse_request("set an alarm for 1:30 am").when, second_quarter_past_one)
    assert moment.timestamp() - second_quarter_past_one.timestamp() == 15 * 60
    # Before the clocks go back, the first 01:30 (BST) is still the next one.
    first_quarter_past_one = datetime(2026, 10, 25, 1, 15, tzinfo=LONDON, fold=0)
    moment = resolve(parse_request("set an alarm for 1:30 am").when, first_quarter_past_one)
    assert moment.timestamp() - first_quarter_past_one.timestamp() == 15 * 60
    # A daily one too: its first ring is the coming 01:30, not the one gone.
    daily = parse_request("set an alarm for 1:30 am every day")
    moment, _ = repeating(daily.repeat, daily.when, second_quarter_past_one)
    assert moment.timestamp() - second_quarter_past_one.timestamp() == 15 * 60


def test_a_length_of_time_is_elapsed_time_across_a_clock_change():
    # 00:30 GMT on the night the clocks go forward: two hours on is 02:30 UTC, 03:30 BST. Added
    # to the local time as wall-clock hours, it was 02:30 BST, an hour early.
    night = datetime(2026, 3, 29, 0, 30, tzinfo=LONDON)
    moment = resolve(When(after_seconds=7200), night)
    assert moment.timestamp() - night.timestamp() == 7200
    assert (moment.hour, moment.minute) == (3, 30)


def test_a_repetition_starts_on_its_next_day_at_the_wall_time_meant():
    friday_noon = datetime(2026, 3, 27, 12, 0, tzinfo=LONDON)
    first, rule = repeating(WEEKDAYS, When(time=ClockTime(7)), friday_noon)
    assert first.isoformat() == "2026-03-30T07:00:00+01:00"  # Monday, summer time
    assert "BYDAY=MO,TU,WE,TH,FR" in rule and "BYHOUR=7" in rule
    first, _ = repeating(EVERY_DAY, When(time=ClockTime(7, 30, Meridiem.PM)), friday_noon)
    assert first.isoformat() == "2026-03-27T19:30:00+00:00"


def test_today_at_a_time_already_past_is_an_error():
    with pytest.raises(WhenError):
        resolve(When(day=DayRef.TODAY, time=ClockTime(9, 0, Meridiem.AM)), SATURDAY_3PM)
