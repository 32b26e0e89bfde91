"""The clock: which time zone Hearth lives in, what time it is, and how to say it.

Two seams give "now": ``SystemClock`` reads the real clocks (wall, monotonic and the boot they
belong to); ``AudioClock`` counts a recording's audio seconds from the wall time it began at
(``hearth run --start-time``), so file mode runs the same way every time. Everything else is pure:
the prompt's line and the spoken answers take a ``Now`` and a zone.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from assistant.schedule.intents import ClockQuestion

BOOT_ID_FILE = Path("/proc/sys/kernel/random/boot_id")
LOCALTIME = Path("/etc/localtime")
TIMEZONE_FILE = Path("/etc/timezone")
FALLBACK_ZONE = "UTC"


class ZoneError(ValueError):
    """A time zone name that is not a known IANA zone."""


@dataclass(frozen=True)
class Now:
    """One reading of the clocks: the evidence every schedule decision is made on.

    ``wall`` is UTC seconds since the epoch, as the system believes it (NTP may correct it by
    hours at boot); ``mono`` never jumps but only counts within one ``boot``.
    """

    wall: float
    mono: float
    boot: str


class Clock(Protocol):
    """Where "now" comes from."""

    def now(self, audio_seconds: float = 0.0) -> Now:
        """The clocks now; ``audio_seconds`` is the audio clock's reading (file mode uses it)."""
        ...


class SystemClock:
    """The real clocks of this machine (live mode)."""

    def __init__(self, boot: str | None = None):
        self.boot = boot or read_boot_id()

    def now(self, audio_seconds: float = 0.0) -> Now:
        """The wall clock, the monotonic clock and this boot; the audio clock is not used."""
        return Now(time.time(), time.monotonic(), self.boot)


@dataclass(frozen=True)
class AudioClock:
    """A recording's clock: its start's wall time plus the audio seconds consumed."""

    start_wall: float

    def now(self, audio_seconds: float = 0.0) -> Now:
        """Wall time ``audio_seconds`` into the recording; its monotonic clock is the audio."""
        return Now(self.start_wall + audio_seconds, audio_seconds, f"file:{self.start_wall:.3f}")


def read_boot_id(path: Path = BOOT_ID_FILE) -> str:
    """This boot's id (Linux); monotonic readings compare only within one boot."""
    try:
        return path.read_text().strip()
    except OSError:
        # No boot id (not Linux): the process start stands in, which makes every restart look
        # like a reboot: timers then count wall seconds across it, still correct without a jump.
        return f"process:{os.getpid()}:{time.time():.0f}"


def zone_named(name: str) -> ZoneInfo:
    """The IANA zone ``name`` ("Europe/London"); ZoneError says clearly when there is none."""
    try:
        if not name or name != name.strip() or name.startswith("/") or ".." in name:
            raise ValueError
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ZoneError(
            f"unknown time zone {name!r}: use an IANA name such as Europe/London, "
            "America/New_York or UTC (see `timedatectl list-timezones`)"
        ) from None


def system_zone_name(
    environ: Mapping[str, str] | None = None,
    localtime: Path = LOCALTIME,
    timezone_file: Path = TIMEZONE_FILE,
) -> str:
    """The system's zone as a Pi sets it: ``TZ``, else the ``/etc/localtime`` link, else
    ``/etc/timezone``, else UTC. Only names zoneinfo knows are returned."""
    env = os.environ if environ is None else environ
    candidates = []
    tz = env.get("TZ", "").lstrip(":")
    if tz:
        candidates.append(tz.split("zoneinfo/", 1)[-1])
    try:
        target = str(localtime.resolve(strict=True))
        if "zoneinfo/" in target:
            candidates.append(target.split("zoneinfo/", 1)[1])
    except OSError:
        pass
    with contextlib.suppress(OSError):
        candidates.append(timezone_file.read_text().strip())
    for name in candidates:
        try:
            zone_named(name)
        except ZoneError:
            continue
        return name
    return FALLBACK_ZONE


def local(now: Now, zone: ZoneInfo) -> datetime:
    """The wall reading as an aware local datetime."""
    return datetime.fromtimestamp(now.wall, zone)


def spoken_time(moment: datetime, minutes: bool = False) -> str:
    """A time as Hearth says it: "7:05 AM", "12 PM" (Piper reads these naturally); with
    ``minutes``, on the hour too ("8:00 AM")."""
    hour = moment.hour % 12 or 12
    suffix = "AM" if moment.hour < 12 else "PM"
    if moment.minute == 0 and not minutes:
        return f"{hour} {suffix}"
    return f"{hour}:{moment.minute:02d} {suffix}"


def spoken_date(moment: datetime, year: bool = True) -> str:
    """A date as Hearth says it: "Saturday, 7 March 2026"."""
    text = f"{moment.strftime('%A')}, {moment.day} {moment.strftime('%B')}"
    return f"{text} {moment.year}" if year else text


def prompt_line(now: Now, zone: ZoneInfo) -> str:
    """The system prompt's line about the clock: local date, weekday, time and zone."""
    moment = local(now, zone)
    return (
        f"It is now {spoken_date(moment)}, {spoken_time(moment)} local time "
        f"({zone.key}, UTC{moment.strftime('%z')[:3]}:{moment.strftime('%z')[3:]})."
    )


def clock_answer(question: ClockQuestion, now: Now, zone: ZoneInfo) -> str:
    """The spoken answer to "what time is it?", "what's the date?" or "what day is it?"."""
    moment = local(now, zone)
    if question is ClockQuestion.TIME:
        return f"It's {spoken_time(moment)}."
    if question is ClockQuestion.DATE:
        return f"It's {spoken_date(moment)}."
    return f"It's {spoken_date(moment, year=False)}."
