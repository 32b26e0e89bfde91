"""What Hearth says about the schedule: lengths, moments, repetition, lists, and announcements.

Pure. Numbers stay digits ("10 minutes", "7:30 AM"): Piper's espeak front end reads them as a
person says them, and the event stream keeps them exact.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from assistant.schedule.clock import spoken_time
from assistant.schedule.intents import EVERY_DAY, WEEKDAYS, WEEKENDS, Weekday
from assistant.schedule.items import (
    AlarmRinging,
    Delivery,
    Item,
    ItemKind,
    Lateness,
    Missed,
    ReminderDue,
    ScheduleEvent,
    TimerFinished,
)

NEAR = timedelta(hours=1)
"""How soon a moment is said with its minutes even on the hour."""

LATE_OPENINGS = {
    Lateness.WHILE_DOWN: "While I was restarting, ",
    Lateness.CLOCK_JUMP: "While my clock was being set, ",
    Lateness.LATE: "",
    Lateness.ON_TIME: "",
}


def say_length(seconds: float) -> str:
    """A length as said: "10 minutes", "1 hour and 30 minutes", "45 seconds".

    Over two minutes it is rounded to the minute (a person does not want the seconds).
    """
    total = max(0, round(seconds))
    if total >= 120:
        total = round(total / 60) * 60
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [
        _unit(value, name)
        for value, name in ((hours, "hour"), (minutes, "minute"), (secs, "second"))
        if value
    ]
    if not parts:
        return "0 seconds"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _unit(value: int, name: str) -> str:
    return f"{value} {name}" if value == 1 else f"{value} {name}s"


def say_list(parts: list[str]) -> str:
    """ "a", "a and b", "a, b, and c"."""
    if len(parts) <= 2:
        return " and ".join(parts)
    return ", ".join(parts[:-1]) + ", and " + parts[-1]


def say_moment(moment: datetime, now: datetime) -> str:
    """A moment relative to now: "7 AM today", "7 AM tomorrow", "10 AM on Sunday",
    "9 AM on 3 April". Within the hour the minutes are said on the hour too ("8:00 AM today"):
    "8 AM" for a reminder due a minute from now sounds like a morning hours away."""
    time = spoken_time(moment, minutes=moment - now < NEAR)
    days = (moment.date() - now.date()).days
    if days == 0:
        return f"{time} today"
    if days == 1:
        return f"{time} tomorrow"
    if 1 < days < 7:
        return f"{time} on {moment.strftime('%A')}"
    year = f" {moment.year}" if moment.year != now.year else ""
    return f"{time} on {moment.day} {moment.strftime('%B')}{year}"


def say_repeat(weekdays: tuple[Weekday, ...]) -> str:
    """ "every day", "every weekday", "every weekend", "every Sunday", "every Monday and Friday"."""
    days = tuple(sorted(weekdays))
    if days == EVERY_DAY.weekdays:
        return "every day"
    if days == WEEKDAYS.weekdays:
        return "every weekday"
    if days == WEEKENDS.weekdays:
        return "every weekend"
    return "every " + say_list([day.name.capitalize() for day in days])


def timer_label(item: Item) -> str:
    """ "pasta timer", or by its length when it has no name: "10 minute timer"."""
    if item.name:
        return f"{item.name} timer"
    if item.seconds:
        return re.sub(r"(hour|minute|second)s\b", r"\1", say_length(item.seconds)) + " timer"
    return "timer"


def timers_left(timers: list[Item], lefts: list[float]) -> str:
    """ "pasta, 3 minutes left, and eggs, 5 minutes" (a paused one says so)."""
    parts = []
    for index, (item, left) in enumerate(zip(timers, lefts, strict=True)):
        name = item.name or f"the {timer_label(item)}"
        tail = " left" if index == 0 else ""
        paused = ", paused" if item.state.value == "paused" else ""
        parts.append(f"{name}, {say_length(left)}{tail}{paused}")
    return say_list(parts)


def local_moment(wall: float, zone: str) -> datetime:
    """A UTC instant in the item's zone."""
    return datetime.fromtimestamp(wall, ZoneInfo(zone))


def announcement(event: ScheduleEvent, item: Item) -> str | None:
    """What is said for a schedule event (None: the ring itself says it, nothing to add yet)."""
    if isinstance(event, Missed):
        when = spoken_time(local_moment(event.due_at, item.zone))
        what = _what(item, when)
        times = f" {event.count} times" if event.count > 1 else ""
        return f"I missed {what}{times} while I was off."
    if isinstance(event, ReminderDue):
        opening = LATE_OPENINGS[event.lateness]
        if event.lateness is Lateness.ON_TIME:
            return f"A reminder: {event.text}."
        when = spoken_time(local_moment(event.due_at, item.zone))
        return _capital(f"{opening}a reminder came due at {when}: {event.text}.")
    if isinstance(event, TimerFinished | AlarmRinging) and event.delivery is Delivery.SAY:
        when = spoken_time(local_moment(event.due_at, item.zone))
        what = _what(item, when)
        done = f"finished at {when}" if item.kind is ItemKind.TIMER else "went off"
        return _capital(f"{LATE_OPENINGS[event.lateness]}{what} {done}.")
    return None


def finished(item: Item) -> str:
    """Said when a ring ends: "Your pasta timer is done." or "That was your 7 AM alarm."."""
    if item.kind is ItemKind.TIMER:
        return f"Your {timer_label(item)} is done."
    when = spoken_time(local_moment(item.due_at or 0.0, item.zone))
    return f"That was your {when} alarm."


def _what(item: Item, when: str) -> str:
    if item.kind is ItemKind.TIMER:
        return f"your {timer_label(item)}"
    if item.kind is ItemKind.ALARM:
        return f"your {when} alarm"
    if item.kind is ItemKind.REMINDER:
        return f"your reminder to {item.text}"
    return "a routine"


def _capital(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]
