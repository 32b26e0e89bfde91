"""The schedule's arithmetic on wall time: when a spoken time falls, and when a rule next repeats.

Pure. Local times are resolved in the zone the item was set in and stored as UTC instants;
repetition is ``dateutil.rrule`` over local wall times, so an alarm at 07:00 stays at 07:00 local
across a daylight-saving change (its UTC instant moves by the hour instead). A local time that does
not exist (the hour skipped in spring) rings at the same distance after the change (02:30 becomes
03:30); one that happens twice (the hour repeated in autumn) rings at its first occurrence, once.
"""

from __future__ import annotations

import calendar
import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from dateutil.rrule import WEEKLY, rrule, rrulestr

from assistant.schedule.intents import (
    ClockTime,
    DayRef,
    Meridiem,
    PartOfDay,
    Repeat,
    Weekday,
    When,
)

PART_DEFAULT_HOURS = {
    PartOfDay.MORNING: 8,
    PartOfDay.AFTERNOON: 15,
    PartOfDay.EVENING: 18,
    PartOfDay.NIGHT: 20,
}
"""The hour a part of the day means when no time was said ("tomorrow morning": 8:00)."""
DAY_ONLY_HOUR = 9
"""The hour of a day said with no time ("remind me tomorrow to ..."): 9:00."""
_RRULE_DAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
MORNING_HOURS = range(5, 12)
"""With a day but no am/pm ("tomorrow at 7"), these hours are the morning; 1 to 4 the afternoon."""


class WhenError(ValueError):
    """A spoken time that names no moment Hearth can keep (a time already past today, say)."""


class NoSuchDate(WhenError):
    """A date no calendar has ("the 30th of February"); the message says it as spoken."""


def to_utc(moment: datetime) -> float:
    """UTC seconds of an aware datetime."""
    return moment.timestamp()


def localize(naive: datetime, zone: ZoneInfo) -> datetime:
    """A naive local wall time in ``zone`` as an aware datetime that exists.

    zoneinfo gives a skipped time the offset from before the change, so the round trip through
    UTC moves it forward by the gap (02:30 in the spring gap becomes 03:30); a repeated time takes
    ``fold=0``, its first occurrence.
    """
    aware = naive.replace(tzinfo=zone, fold=0)
    return aware.astimezone(UTC).astimezone(zone)


def localize_after(naive: datetime, zone: ZoneInfo, now: datetime) -> datetime:
    """As :func:`localize`, but a time the clocks repeat is its first occurrence after ``now``:
    at 01:15 in the hour after the clocks go back, "1:30" is a quarter of an hour away, not an
    hour and three quarters ago (stored in the past, the alarm "went off" at once)."""
    # Compared as instants: two times of one zone compare as wall clocks, fold ignored.
    first = localize(naive, zone)
    if to_utc(first) > to_utc(now):
        return first
    repeated = naive.replace(tzinfo=zone, fold=1)
    if first.replace(tzinfo=None) == naive and repeated.utcoffset() != first.utcoffset():
        second = repeated.astimezone(UTC).astimezone(zone)
        if to_utc(second) > to_utc(now):
            return second
    return first


def local_naive(wall: float, zone: ZoneInfo) -> datetime:
    """The local wall time (naive) of a UTC instant."""
    return datetime.fromtimestamp(wall, zone).replace(tzinfo=None)


def resolve(when: When, now: datetime, wake_up: bool = False, days_named: bool = False) -> datetime:
    """The first moment after ``now`` (aware, local) that ``when`` names, as aware local.

    An hour with no am/pm takes the earlier of the two readings still ahead ("at 7" at 15:00 is
    19:00), except when the day is named ("tomorrow at 7" is 7:00, "tomorrow at 3" is 15:00) or
    it is a wake-up (always the morning); ``days_named`` says a repetition named the days.
    A named day or weekday with a time already past today moves to the next such day.
    """
    return _resolve(when, now, wake_up, days_named)[1]


def _resolve(
    when: When, now: datetime, wake_up: bool, days_named: bool
) -> tuple[datetime, datetime]:
    """(the local wall time meant, naive; the moment it happens, aware)."""
    zone = now.tzinfo
    assert isinstance(zone, ZoneInfo)
    if when.after_seconds is not None:
        # Elapsed time, counted in UTC: added to a local time it would count wall-clock hours,
        # an hour off across a clock change.
        moment = (now.astimezone(UTC) + timedelta(seconds=when.after_seconds)).astimezone(zone)
        return moment.replace(tzinfo=None), moment
    today = now.replace(tzinfo=None)
    days = _candidate_days(when, today)
    for day in days:
        for hour, minute in _candidate_times(when, days_named or _day_named(when), wake_up):
            naive = day.replace(hour=hour, minute=minute, second=0, microsecond=0)
            moment = localize_after(naive, zone, now)
            if to_utc(moment) > to_utc(now):
                return naive, moment
    raise WhenError("that time has already passed")


def _day_named(when: When) -> bool:
    return when.day is not None or when.weekday is not None or when.date is not None


def _candidate_days(when: When, today: datetime) -> list[datetime]:
    if when.date is not None:
        return _dates(when.date, today)
    if when.day is DayRef.TOMORROW:
        return [today + timedelta(days=1)]
    if when.day is DayRef.TODAY or (when.part is PartOfDay.NIGHT and when.weekday is None):
        return [today]
    if when.weekday is not None:
        ahead = (int(when.weekday) - today.weekday()) % 7
        first = today + timedelta(days=ahead)
        return [first, first + timedelta(days=7)]
    return [today, today + timedelta(days=1)]


def _dates(date: tuple[int, int], today: datetime) -> list[datetime]:
    """The next two days that are ``date`` ((month, day); month 0: any month), from today on:
    the 29th of February waits for a leap year, "the 31st" for a month that has one."""
    month, day = date
    found: list[datetime] = []
    start = today.replace(hour=0, minute=0, second=0, microsecond=0)
    for step in range(12 * 9):  # nine years: past any leap year
        year, month_index = divmod(start.month - 1 + step, 12)
        candidate_month = month_index + 1
        if month and candidate_month != month:
            continue
        try:
            candidate = start.replace(year=start.year + year, month=candidate_month, day=day)
        except ValueError:
            continue
        if candidate.date() >= today.date():
            found.append(candidate)
            if len(found) == 2:
                return found
    if found:
        return found
    named = f"{day}{_ordinal(day)}" + (f" of {calendar.month_name[month]}" if month else "")
    raise NoSuchDate(f"There's no {named}.")


def _ordinal(day: int) -> str:
    if day in (11, 12, 13):
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def _candidate_times(when: When, day_named: bool, wake_up: bool) -> list[tuple[int, int]]:
    time = when.time
    if time is None:
        hour = PART_DEFAULT_HOURS.get(when.part, DAY_ONLY_HOUR) if when.part else DAY_ONLY_HOUR
        return [(hour, 0)]
    return [(hour, time.minute) for hour in _hours(time, when.part, day_named, wake_up)]


def _hours(time: ClockTime, part: PartOfDay | None, day_named: bool, wake_up: bool) -> list[int]:
    if time.meridiem is not None:
        base = time.hour % 12
        return [base + 12 if time.meridiem is Meridiem.PM else base]
    if time.hour == 0 or time.hour > 12:
        return [time.hour]
    morning, afternoon = time.hour % 12, time.hour % 12 + 12
    if part is PartOfDay.MORNING:
        return [morning]
    if part in (PartOfDay.AFTERNOON, PartOfDay.EVENING):
        return [afternoon]
    if part is PartOfDay.NIGHT:
        return [afternoon] if time.hour >= 6 else [morning, afternoon]
    if time.hour == 12:
        return [12]
    if wake_up:
        return [morning]
    if day_named:
        return [morning] if time.hour in MORNING_HOURS else [afternoon]
    return [morning, afternoon]


def repeating(
    repeat: Repeat, when: When, now: datetime, wake_up: bool = False
) -> tuple[datetime, str]:
    """The first occurrence after ``now`` of a repeating ``when``, and its rrule text.

    The rule keeps the wall time meant (2:30), even when its first day lacks it (then 3:30).
    """
    naive, _ = _resolve(When(time=when.time, part=when.part), now, wake_up, days_named=True)
    rule = rrule(
        WEEKLY,
        dtstart=naive,
        byweekday=[int(day) for day in repeat.weekdays],
        byhour=naive.hour,
        byminute=naive.minute,
        bysecond=0,
    )
    first = rule.after(now.replace(tzinfo=None) - timedelta(seconds=1), inc=True)
    zone = now.tzinfo
    assert isinstance(zone, ZoneInfo) and first is not None
    moment = localize_after(first, zone, now)
    while to_utc(moment) <= to_utc(now):  # as instants: the hour the clocks repeat
        upcoming = rule.after(first, inc=False)
        assert upcoming is not None
        first, moment = upcoming, localize_after(upcoming, zone, now)
    return moment, str(rule)


def rule_time(rule: str) -> tuple[int, int] | None:
    """The wall time a repeating rule keeps (hour, minute): what it is said as, even on a day
    the clocks skip it and it rings an hour later."""
    hour, minute = _BY_HOUR.search(rule), _BY_MINUTE.search(rule)
    if hour is None or minute is None:
        return None
    return int(hour.group(1)), int(minute.group(1))


_BY_HOUR = re.compile(r"BYHOUR=(\d+)")
_BY_MINUTE = re.compile(r"BYMINUTE=(\d+)")


def next_after(rule: str, after_local: datetime, zone: ZoneInfo) -> datetime | None:
    """The occurrence of ``rule`` after the local wall time ``after_local`` (naive), as aware."""
    upcoming = rrulestr(rule).after(after_local.replace(tzinfo=None), inc=False)
    return localize(upcoming, zone) if upcoming is not None else None


def occurrences_between(
    rule: str, after_local: datetime, until_wall: float, zone: ZoneInfo, limit: int = 10_000
) -> list[datetime]:
    """Every occurrence after ``after_local`` (naive local) up to the UTC instant ``until_wall``."""
    found: list[datetime] = []
    cursor = after_local
    while len(found) < limit:
        upcoming = next_after(rule, cursor, zone)
        if upcoming is None or to_utc(upcoming) > until_wall:
            break
        found.append(upcoming)
        cursor = upcoming.replace(tzinfo=None)
    return found


def repeat_of_rule(rule: str) -> tuple[Weekday, ...]:
    """The weekdays a stored rule repeats on (for saying it back)."""
    match = re.search(r"BYDAY=([A-Z,]+)", rule)
    names = match.group(1).split(",") if match else []
    return tuple(sorted(Weekday(_RRULE_DAYS.index(name)) for name in names))
