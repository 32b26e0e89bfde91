"""What a spoken request about the clock, the schedule or the volume means: typed, immutable values.

The parser makes them from a transcript with no clock and no state; the desk carries them out.
Times are kept as spoken ("seven", "tomorrow morning") and resolved against the local clock only
when an item is stored (``assistant.schedule.timing``), so parsing stays pure.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum


class Meridiem(StrEnum):
    """Morning or afternoon, when the speaker said which."""

    AM = "am"
    PM = "pm"


class PartOfDay(StrEnum):
    """A spoken part of the day, with or without a time ("tomorrow morning", "tonight at 8")."""

    MORNING = "morning"
    AFTERNOON = "afternoon"
    EVENING = "evening"
    NIGHT = "night"


class DayRef(StrEnum):
    """A spoken day relative to today."""

    TODAY = "today"
    TOMORROW = "tomorrow"


class Weekday(IntEnum):
    """Days of the week, numbered as ``datetime.weekday`` and ``dateutil.rrule`` number them."""

    MONDAY = 0
    TUESDAY = 1
    WEDNESDAY = 2
    THURSDAY = 3
    FRIDAY = 4
    SATURDAY = 5
    SUNDAY = 6


@dataclass(frozen=True)
class ClockTime:
    """A time of day as said: hour 0-23, minute, and am/pm when given ("7" has none)."""

    hour: int
    minute: int = 0
    meridiem: Meridiem | None = None


@dataclass(frozen=True)
class When:
    """When something should happen, as said: after a while, or a day and a time of day."""

    after_seconds: float | None = None
    """"in twenty minutes": this long from now; the other fields are then empty."""
    day: DayRef | None = None
    weekday: Weekday | None = None
    part: PartOfDay | None = None
    time: ClockTime | None = None
    date: tuple[int, int] | None = None
    """(month, day) as said: "on March 31st" is (3, 31); "on the 31st" is (0, 31), the next
    month that has one."""


@dataclass(frozen=True)
class Repeat:
    """A weekly repetition: the weekdays it happens on (all seven for "every day")."""

    weekdays: tuple[Weekday, ...]


EVERY_DAY = Repeat(tuple(Weekday))
WEEKDAYS = Repeat(tuple(Weekday)[:5])
WEEKENDS = Repeat((Weekday.SATURDAY, Weekday.SUNDAY))


# -- timers ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SetTimer:
    """Start a timer ("a pasta timer for eight minutes")."""

    seconds: float | None
    """None: "set a timer" said no length, so the desk asks for one."""
    name: str | None = None


@dataclass(frozen=True)
class TimeLeft:
    """How long is left on a timer (the only one, the named one, or ask which)."""

    name: str | None = None


@dataclass(frozen=True)
class CancelTimer:
    """Cancel a timer, or every timer."""

    name: str | None = None
    every: bool = False


@dataclass(frozen=True)
class AddTime:
    """Add time to a running timer."""

    seconds: float
    name: str | None = None


@dataclass(frozen=True)
class PauseTimer:
    """Pause a running timer."""

    name: str | None = None


@dataclass(frozen=True)
class ResumeTimer:
    """Resume a paused timer."""

    name: str | None = None


@dataclass(frozen=True)
class ListTimers:
    """Which timers are running and how long each has left."""


# -- rooms ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """A room as said ("the living room"), or every room ("everyone", "everywhere")."""

    room: str | None = None
    """The room's name as heard, without "the"; None with ``everywhere``."""
    everywhere: bool = False


EVERYWHERE = Place(everywhere=True)


# -- alarms, reminders, routines ------------------------------------------------------------------


@dataclass(frozen=True)
class SetAlarm:
    """An alarm at a time, once or repeating ("wake me up every weekday at seven")."""

    when: When
    """Empty when no time was heard: the desk asks for one."""
    repeat: Repeat | None = None
    wake_up: bool = False
    """Said as "wake me up": an hour without am/pm means the morning."""


@dataclass(frozen=True)
class ListAlarms:
    """Which alarms are set."""


@dataclass(frozen=True)
class CancelAlarm:
    """Cancel an alarm (the only one, the one at a time, or every alarm)."""

    time: ClockTime | None = None
    every: bool = False


@dataclass(frozen=True)
class SetReminder:
    """Say ``text`` back at a time ("remind me to water the tomatoes at seven pm")."""

    text: str
    when: When
    """Empty when no time was heard: the desk asks for one."""
    repeat: Repeat | None = None
    place: Place | None = None
    """Where it is said ("remind me in the living room ..."); None: the room it was asked in."""


@dataclass(frozen=True)
class Announce:
    """Say ``text`` now in one room or in all of them ("announce in the kitchen that ...")."""

    text: str
    place: Place | None = None
    """None: every room (an announcement is for the household unless a room is named)."""


@dataclass(frozen=True)
class ListReminders:
    """Which reminders are set."""


@dataclass(frozen=True)
class CancelReminder:
    """Cancel a reminder (the one about some words, or every reminder)."""

    about: str | None = None
    every: bool = False


@dataclass(frozen=True)
class SetRoutine:
    """Run a model prompt at a time and say (or, silent, only record) the result."""

    prompt: str
    when: When
    repeat: Repeat | None
    silent: bool = False


# -- volume and the clock -------------------------------------------------------------------------


class VolumeChange(StrEnum):
    """What a volume request asks for."""

    UP = "up"
    DOWN = "down"
    SET = "set"
    MUTE = "mute"
    UNMUTE = "unmute"


@dataclass(frozen=True)
class Volume:
    """Change Hearth's output volume."""

    change: VolumeChange
    percent: int | None = None
    """For ``SET``: the level asked for, 0 to 100."""


class ClockQuestion(StrEnum):
    """What is asked of the clock."""

    TIME = "time"
    DATE = "date"
    DAY = "day"


@dataclass(frozen=True)
class AskClock:
    """ "What time is it?", "what's the date?", "what day is it?"."""

    question: ClockQuestion


TimerIntent = SetTimer | TimeLeft | CancelTimer | AddTime | PauseTimer | ResumeTimer | ListTimers
ItemIntent = (
    SetAlarm
    | ListAlarms
    | CancelAlarm
    | SetReminder
    | Announce
    | ListReminders
    | CancelReminder
    | SetRoutine
)
Intent = TimerIntent | ItemIntent | Volume | AskClock
