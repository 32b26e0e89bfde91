"""Building the schedule from settings: the zone, the policies, the store, configured routines."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from assistant.memory_setup import memory_location
from assistant.schedule.clock import (
    AudioClock,
    Clock,
    Now,
    SystemClock,
    system_zone_name,
    zone_named,
)
from assistant.schedule.intents import (
    EVERY_DAY,
    WEEKDAYS,
    WEEKENDS,
    ClockTime,
    Repeat,
    Weekday,
    When,
)
from assistant.schedule.items import Item, ItemKind
from assistant.schedule.policy import RetryPolicy, SchedulePolicy
from assistant.schedule.scheduler import Scheduler
from assistant.schedule.store import ScheduleStore
from assistant.schedule.timing import repeating
from config import RoutineSettings, ScheduleSettings, Settings

_NAMED_DAYS = {"every day": EVERY_DAY, "weekdays": WEEKDAYS, "weekends": WEEKENDS}
SETTINGS_SOURCE = "settings:"
"""The start of a routine's ``source`` when the settings made it (made again from them)."""


def time_zone(settings: Settings, environ: Mapping[str, str] | None = None) -> ZoneInfo:
    """The zone Hearth lives in: ``clock.timezone``, else the system's."""
    return zone_named(settings.clock.timezone or system_zone_name(environ))


def schedule_policy(settings: ScheduleSettings) -> SchedulePolicy:
    """The scheduler's judgement of time, from the settings."""
    return SchedulePolicy(
        on_time_seconds=settings.on_time_seconds,
        grace_seconds=settings.grace_minutes * 60,
        auto_stop_seconds=settings.auto_stop_seconds,
        jump_seconds=settings.clock_jump_seconds,
        clock_hold_seconds=settings.clock_hold_seconds,
    )


def retry_policy(settings: ScheduleSettings) -> RetryPolicy:
    """How a routine retries an unreachable model, from the settings."""
    return RetryPolicy(
        first_seconds=settings.routine_retry_first_seconds,
        longest_seconds=settings.routine_retry_longest_seconds,
        window_seconds=settings.routine_retry_window_seconds,
    )


def open_scheduler(
    settings: Settings, database: Path | str | None = None, *, create: bool = True
) -> Scheduler:
    """The scheduler over the schedule in the memory's database (``database`` overrides), for
    this Hearth's room; without ``create`` a missing database is an error, not a new one."""
    location = memory_location(settings, database)
    store = ScheduleStore.open(location, settings.household.room, create=create)
    return Scheduler(store, schedule_policy(settings.schedule))


def make_clock(start: datetime | None) -> Clock:
    """The clock of a run: the system's, or a recording's from its start (``--start-time``)."""
    return SystemClock() if start is None else AudioClock(start.timestamp())


def routine_source(routine: RoutineSettings) -> str:
    """A configured routine's stable key: the same settings are the same routine."""
    text = f"{routine.prompt}|{routine.at}|{routine.days}|{routine.silent}"
    return SETTINGS_SOURCE + hashlib.sha256(text.encode()).hexdigest()[:16]


def sync_routines(
    scheduler: Scheduler, routines: tuple[RoutineSettings, ...], now: Now, zone: ZoneInfo
) -> list[Item]:
    """Make the stored routines match the settings: add new ones, cancel removed ones.

    A routine whose settings did not change keeps its stored item (and what came due of it).
    """
    wanted = {routine_source(routine): routine for routine in routines}
    stored = {item.source: item for item in scheduler.active(ItemKind.ROUTINE)}
    for source, item in stored.items():
        if source.startswith(SETTINGS_SOURCE) and source not in wanted:
            scheduler.cancel(now, item.id)
    added = []
    for source, routine in wanted.items():
        if source in stored:
            continue
        repeat = _repeat(routine.days)
        hour, minute = (int(part) for part in routine.at.split(":"))
        when = When(time=ClockTime(hour, minute))
        first, rule = repeating(repeat, when, datetime.fromtimestamp(now.wall, zone))
        item = scheduler.add_at(
            now, ItemKind.ROUTINE, first, rule=rule,
            text=routine.prompt, silent=routine.silent, source=source,
        )  # fmt: skip
        added.append(item)
    return added


def _repeat(days: str | tuple[str, ...]) -> Repeat:
    if isinstance(days, str):
        return _NAMED_DAYS[days]
    return Repeat(tuple(sorted({Weekday[day.upper()] for day in days})))
