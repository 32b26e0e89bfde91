"""Times, days and repetition as tiny.en writes them, read from normalised tokens.

"7", "7:30", "6.30 pm", "7 am", "6 30", "7 oh 5", "half past 6", "quarter to 8", "20 past 6",
"noon", "midnight", "tonight at 8", "tomorrow morning", "on sunday", "every weekday",
"every sunday", "every day", "in 20 minutes". Pure: ``find_when`` says what was found and which
tokens it used, so the words left over (a reminder's text) can be read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from assistant.schedule.durations import duration_at
from assistant.schedule.intents import (
    EVERY_DAY,
    WEEKDAYS,
    WEEKENDS,
    ClockTime,
    DayRef,
    Meridiem,
    PartOfDay,
    Repeat,
    Weekday,
    When,
)
from assistant.schedule.words import clock_token, number

WEEKDAY_NAMES = {day.name.lower(): day for day in Weekday}
PLURAL_WEEKDAYS = {f"{name}s": day for name, day in WEEKDAY_NAMES.items()}
ANY_WEEKDAY = {**WEEKDAY_NAMES, **PLURAL_WEEKDAYS}
PARTS = {
    "morning": PartOfDay.MORNING,
    "afternoon": PartOfDay.AFTERNOON,
    "evening": PartOfDay.EVENING,
    "night": PartOfDay.NIGHT,
}
NAMED_TIMES = {"noon": ClockTime(12, 0), "midday": ClockTime(12, 0), "midnight": ClockTime(0, 0)}
TIME_PREPOSITIONS = ("at", "for", "by", "around")
MONTHS = {
    name: number
    for number, name in enumerate(
        "january february march april may june july august september october november "
        "december".split(),
        start=1,
    )
}
_ORDINAL = re.compile(r"(\d{1,2})(?:st|nd|rd|th)")
_NOT_HOUR_FOLLOWERS = ("minutes", "minute", "seconds", "hours", "hour", "percent")


@dataclass
class WhenFound:
    """What ``find_when`` read: the moment, the repetition, and the tokens they used."""

    when: When = field(default_factory=When)
    repeat: Repeat | None = None
    used: set[int] = field(default_factory=set)

    @property
    def anything(self) -> bool:
        """True when a time, a day, a delay or a repetition was found."""
        return self.when != When() or self.repeat is not None


def find_when(words: list[str], bare_hour: bool = True) -> WhenFound:
    """Every piece of "when" in ``words``; the first of each kind wins.

    ``bare_hour``: a lone number after "at"/"for" is an hour ("wake me up at 7").
    """
    found = WhenFound()
    values: dict[str, object] = {}
    spans: dict[str, range] = {}
    i = 0
    while i < len(words):
        step = _piece_at(words, i, bare_hour)
        if step is None:
            i += 1
            continue
        kind, value, end = step
        if kind not in values:
            values[kind] = value
            spans[kind] = range(i, end)
        i = end
    if "date" in values and ("day" in values or "weekday" in values):
        # "tomorrow at 9 to buy a card for Sam's birthday on April 20th": the day said is when,
        # the date is what the reminder is about (and stays in its words).
        del values["date"], spans["date"]
    found.used.update(index for span in spans.values() for index in span)
    repeat = values.get("repeat")
    part = values.get("part")
    if isinstance(repeat, tuple):  # "every morning": daily, in the morning
        repeat, part = repeat
    found.repeat = repeat  # type: ignore[assignment]
    found.when = When(
        after_seconds=values.get("after"),  # type: ignore[arg-type]
        day=values.get("day"),  # type: ignore[arg-type]
        weekday=values.get("weekday"),  # type: ignore[arg-type]
        part=part,  # type: ignore[arg-type]
        time=values.get("time"),  # type: ignore[arg-type]
        date=values.get("date"),  # type: ignore[arg-type]
    )
    return found


def _piece_at(words: list[str], i: int, bare_hour: bool) -> tuple[str, object, int] | None:
    at = _reader(words)
    word = at(i)
    if word == "in" and (delay := duration_at(words, i + 1)) is not None:
        return "after", delay.seconds, delay.end
    if (
        (delay := duration_at(words, i)) is not None
        and at(delay.end) == "from"
        and (at(delay.end + 1) == "now")
    ):
        return "after", delay.seconds, delay.end + 2
    if word in ("every", "each") or (word == "on" and at(i + 1) in ("weekdays", "weekends")):
        repeat = _repeat_at(words, i + 1)
        if repeat is not None:
            return "repeat", repeat[0], repeat[1]
    if word in ("daily", "weekdays", "weekends") or word in PLURAL_WEEKDAYS:
        repeat = _repeat_at(words, i)
        if repeat is not None:
            return "repeat", repeat[0], repeat[1]
    if word == "tonight":
        return "part", PartOfDay.NIGHT, i + 1
    if word in ("today", "tomorrow"):
        return "day", DayRef(word), i + 1
    if word in ("this", "in", "tomorrow") and at(i + 1) == "the" and at(i + 2) in PARTS:
        return "part", PARTS[at(i + 2)], i + 3
    if word in ("this", "at") and at(i + 1) in PARTS:
        return "part", PARTS[at(i + 1)], i + 2
    if word in PARTS and i > 0 and at(i - 1) in ("tomorrow", "today", "sunday", *WEEKDAY_NAMES):
        return "part", PARTS[word], i + 1
    if word == "on" and (date := _date_at(words, i + 1)) is not None:
        # Only after "on": "book the restaurant for the 5th of May" is a reminder's words.
        return "date", date[0], date[1]
    if word in ("on", "next", "this") and at(i + 1) in WEEKDAY_NAMES:
        return "weekday", WEEKDAY_NAMES[at(i + 1)], i + 2
    if word in WEEKDAY_NAMES:
        return "weekday", WEEKDAY_NAMES[word], i + 1
    start = i + 1 if word in TIME_PREPOSITIONS else i
    time = _time_at(words, start, bare_hour and start > i)
    if time is not None:
        return "time", time[0], time[1]
    return None


def _date_at(words: list[str], i: int) -> tuple[tuple[int, int], int] | None:
    """A date: "march 31st", "march 31", "march the 31st", "the 31st of march", "31st march",
    and after "on", "the 31st" (the next month that has one)."""
    at = _reader(words)
    if at(i) in MONTHS:
        day = _day_of_month(at(i + 1), plain=True)
        if day is not None:
            return (MONTHS[at(i)], day), i + 2
        if at(i + 1) == "the" and (day := _day_of_month(at(i + 2))) is not None:
            return (MONTHS[at(i)], day), i + 3
        return None
    start = i + 1 if at(i) == "the" else i
    day = _day_of_month(at(start))
    if day is None:
        return None
    if at(start + 1) == "of" and at(start + 2) in MONTHS:
        return (MONTHS[at(start + 2)], day), start + 3
    if at(start + 1) in MONTHS:
        return (MONTHS[at(start + 1)], day), start + 2
    if start > i:
        return (0, day), start + 1  # "on the 31st"
    return None


def _day_of_month(word: str, plain: bool = False) -> int | None:
    """An ordinal day ("31st"), or with ``plain`` a bare number after a month ("march 31")."""
    match = _ORDINAL.fullmatch(word)
    if match is None and plain and word.isdigit() and len(word) <= 2:
        day = int(word)
    elif match is not None:
        day = int(match.group(1))
    else:
        return None
    return day if 1 <= day <= 31 else None


def _repeat_at(words: list[str], i: int) -> tuple[object, int] | None:
    """A repetition after "every" (or standing alone: "weekdays", "daily", "sundays")."""
    at = _reader(words)
    word = at(i)
    if word in ("day", "daily"):
        return EVERY_DAY, i + 1
    if word in ("weekday", "weekdays") or (word == "work" and at(i + 1) == "day"):
        return WEEKDAYS, i + (2 if word == "work" else 1)
    if word in ("weekend", "weekends"):
        return WEEKENDS, i + 1
    if word in PARTS:
        return (EVERY_DAY, PARTS[word]), i + 1
    days: list[Weekday] = []
    cursor = i
    while at(cursor) in ANY_WEEKDAY:
        days.append(ANY_WEEKDAY[at(cursor)])
        cursor += 1
        if at(cursor) in ("and", "or") and at(cursor + 1) in ANY_WEEKDAY:
            cursor += 1
    if days:
        return Repeat(tuple(sorted(set(days)))), cursor
    return None


def _time_at(words: list[str], i: int, bare_hour: bool) -> tuple[ClockTime, int] | None:
    """A time of day starting at ``words[i]`` and how far it reaches."""
    at = _reader(words)
    word = at(i)
    if word in NAMED_TIMES:
        return NAMED_TIMES[word], i + 1
    # "half past 6", "quarter to 8", "20 past 6", "10 minutes to 7"
    offset = {"half": 30, "quarter": 15}.get(word)
    cursor = i + 1
    if offset is None and (n := number(word)) is not None and n == int(n) and 0 < n < 60:
        offset = int(n)
        if at(cursor) in ("minutes", "minute"):
            cursor += 1
    if offset is not None and at(cursor) in ("past", "after", "to", "before"):
        hour = number(at(cursor + 1))
        if hour is not None and hour == int(hour) and 0 <= hour <= 23:
            hour_int = int(hour)
            if at(cursor) in ("past", "after"):
                time = (hour_int, offset)
            else:
                time = ((hour_int - 1) % 24, 60 - offset)
            meridiem, end = _meridiem_at(words, cursor + 2)
            return ClockTime(time[0], time[1], meridiem), end
        if word in ("half", "quarter"):
            return None
    written = clock_token(word)
    if written is not None:
        hour, minute = written
        meridiem, end = _meridiem_at(words, i + 1)
        return _clock(hour, minute, meridiem, end)
    hour_number = number(word)
    if hour_number is None or hour_number != int(hour_number) or not 0 <= hour_number <= 23:
        return None
    hour = int(hour_number)
    following = at(i + 1)
    if following == "oh" and (minute := number(at(i + 2))) is not None and minute < 10:
        meridiem, end = _meridiem_at(words, i + 3)
        return _clock(hour, int(minute), meridiem, end)
    minute_number = number(following)
    if (
        minute_number is not None
        and len(following) == 2
        and minute_number == int(minute_number)
        and 0 <= minute_number < 60
        and at(i + 2) not in ("minutes", "minute", "seconds", "hours")
    ):
        meridiem, end = _meridiem_at(words, i + 2)
        return _clock(hour, int(minute_number), meridiem, end)
    if following == "oclock":
        meridiem, end = _meridiem_at(words, i + 2)
        return _clock(hour, 0, meridiem, end)
    meridiem, end = _meridiem_at(words, i + 1)
    if meridiem is not None or (bare_hour and following not in _NOT_HOUR_FOLLOWERS):
        return _clock(hour, 0, meridiem, end)
    return None


def _clock(hour: int, minute: int, meridiem: Meridiem | None, end: int):
    if meridiem is not None and not 1 <= hour <= 12 and (hour == 0 or hour > 12):
        meridiem = None  # "19:30 pm": the 24-hour reading stands
    return ClockTime(hour, minute, meridiem), end


def _meridiem_at(words: list[str], i: int) -> tuple[Meridiem | None, int]:
    at = _reader(words)
    if at(i) in ("am", "pm"):
        return Meridiem(at(i)), i + 1
    return None, i


def _reader(words: list[str]):
    def at(index: int) -> str:
        return words[index] if 0 <= index < len(words) else ""

    return at
