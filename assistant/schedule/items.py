"""What the schedule keeps and what it reports: items, their states, and the events they raise.

An item is a timer, an alarm, a reminder or a routine. Its state moves one way through
``PENDING`` (or ``PAUSED``, a timer only) to ``RINGING`` (due: being rung, said or run) and on to
``DONE``, ``MISSED`` or ``CANCELLED``; a repeating item goes back to ``PENDING`` at its next
occurrence instead of ``DONE``. Each occurrence's fate is written once (rung, said late, missed),
in the same transaction that moves the state, so nothing is decided twice.

An item for every room (``EVERY_ROOM``) is one item that each room delivers on its own: each
room sees it with its own state (ringing there, said there) and decides each occurrence once for
itself; it ends for the household when every known room has ended it, and is cancelled for all
at once. A room whose Hearth first ran after an occurrence was due does not say that one.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any, ClassVar

from assistant.schedule.clock import Now


class ItemKind(StrEnum):
    """What an item is."""

    TIMER = "timer"
    ALARM = "alarm"
    REMINDER = "reminder"
    ROUTINE = "routine"


class ItemState(StrEnum):
    """Where an item is in its life."""

    PENDING = "pending"
    PAUSED = "paused"
    RINGING = "ringing"
    """Due and being delivered (ringing, being said, or its routine running) until it ends."""
    DONE = "done"
    MISSED = "missed"
    CANCELLED = "cancelled"


ACTIVE_STATES = (ItemState.PENDING, ItemState.PAUSED, ItemState.RINGING)

EVERY_ROOM = "*"
"""An item's room when it is for every room of the household ("announce dinner is ready")."""


class Delivery(StrEnum):
    """How a due item reaches the room."""

    RING = "ring"
    """The ring sound, repeating until "stop" or the auto-stop (a timer or an alarm on time)."""
    SAY = "say"
    """Said once (a reminder; a timer or alarm that came due while Hearth was down)."""
    RUN = "run"
    """A routine: the model is asked and its answer said (or only recorded, when silent)."""


class Lateness(StrEnum):
    """Why an item is decided after its due time, if it is."""

    ON_TIME = "on_time"
    WHILE_DOWN = "while_down"
    """It came due while Hearth was not running (a crash, a restart, a power cut)."""
    CLOCK_JUMP = "clock_jump"
    """The wall clock leapt over it (an NTP correction)."""
    LATE = "late"
    """Hearth was running but did not look in time (a suspended or overloaded machine)."""


class Outcome(StrEnum):
    """The fate of one occurrence, recorded once."""

    RUNG = "rung"
    SAID_LATE = "said_late"
    MISSED = "missed"


@dataclass(frozen=True)
class TimerClock:
    """A timer's evidence: how much was left at an anchor reading of the clocks.

    Within the anchor's boot the monotonic clock counts it down, so a wall-clock jump does not
    move it; after a reboot only the wall clock is comparable (the downtime counts).
    """

    remaining: float
    wall: float
    mono: float
    boot: str

    def left(self, now: Now) -> float:
        """Seconds left at ``now`` while running."""
        if now.boot == self.boot:
            return self.remaining - (now.mono - self.mono)
        return self.remaining - (now.wall - self.wall)

    def anchored(self, now: Now) -> TimerClock:
        """The same countdown, anchored at ``now``."""
        return TimerClock(self.left(now), now.wall, now.mono, now.boot)


@dataclass(frozen=True)
class Item:
    """One timer, alarm, reminder or routine as stored."""

    id: int
    kind: ItemKind
    state: ItemState
    zone: str
    """The IANA zone it was set in: local times and repetition are read in it."""
    due_at: float | None
    """UTC seconds of the occurrence due next (or ringing now); a timer's is its latest estimate."""
    local_due: str | None = None
    """That occurrence as local wall time (ISO, no offset): the rule repeats from here."""
    rule: str | None = None
    """An ``rrule`` over local wall times, for a repeating item."""
    name: str | None = None
    text: str | None = None
    """A reminder's words or a routine's prompt."""
    seconds: float | None = None
    """A timer's length as set (with any time added)."""
    timer: TimerClock | None = None
    silent: bool = False
    source: str = "voice"
    """``voice``, ``cli`` or ``settings:<key>`` (a routine from the settings)."""
    created_at: float = 0.0
    delivery: Delivery | None = None
    """While ``RINGING``: how it is being delivered."""
    rang_at: float | None = None
    """While ``RINGING``: wall time the delivery began."""
    room: str | None = None
    """The room it rings in: a room's name, or EVERY_ROOM. None until stored: the store gives
    it the room of the Hearth that set it."""

    def due(self, now: Now) -> float | None:
        """The wall time this item is due, judged at ``now`` (a timer by its countdown)."""
        if self.kind is ItemKind.TIMER and self.timer is not None:
            if self.state is ItemState.PAUSED:
                return None
            return now.wall + self.timer.left(now)
        return self.due_at

    def left(self, now: Now) -> float | None:
        """A timer's seconds left (paused: as paused), else None."""
        if self.timer is None:
            return None
        if self.state is ItemState.PAUSED:
            return self.timer.remaining
        return max(0.0, self.timer.left(now))

    def to_json(self) -> dict[str, Any]:
        """The item as plain JSON values."""
        document = asdict(self)
        for key in ("kind", "state", "delivery"):
            document[key] = None if document[key] is None else str(document[key])
        return document


# -- events ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScheduleEvent:
    """Base of the schedule's events: a name for the event stream and the item it is about."""

    event: ClassVar[str] = "schedule"
    item_id: int

    def fields(self) -> dict[str, Any]:
        """The event's fields for the event stream (``event`` itself excluded)."""
        return {
            key: (str(value) if isinstance(value, StrEnum) else value)
            for key, value in asdict(self).items()
        }


@dataclass(frozen=True)
class TimerStarted(ScheduleEvent):
    """A timer was set."""

    event: ClassVar[str] = "timer_started"
    name: str | None
    seconds: float
    due_at: float


@dataclass(frozen=True)
class Due(ScheduleEvent):
    """Base of an item that came due: when, how late and how it is delivered."""

    due_at: float
    late_seconds: float
    lateness: Lateness
    delivery: Delivery


@dataclass(frozen=True)
class TimerFinished(Due):
    """A timer reached zero."""

    event: ClassVar[str] = "timer_finished"
    name: str | None = None


@dataclass(frozen=True)
class AlarmRinging(Due):
    """An alarm's time came."""

    event: ClassVar[str] = "alarm_ringing"


@dataclass(frozen=True)
class ReminderDue(Due):
    """A reminder's time came: its words are said."""

    event: ClassVar[str] = "reminder_due"
    text: str = ""


@dataclass(frozen=True)
class RoutineRun(Due):
    """A routine's time came: its prompt goes to the model."""

    event: ClassVar[str] = "routine_run"
    prompt: str = ""
    silent: bool = False


@dataclass(frozen=True)
class Missed(ScheduleEvent):
    """Occurrences that came due too long ago to ring (past the grace): reported instead."""

    event: ClassVar[str] = "missed"
    kind: ItemKind
    due_at: float
    """The latest missed occurrence."""
    count: int
    lateness: Lateness


@dataclass(frozen=True)
class RingResumed(ScheduleEvent):
    """After a restart: an item that was ringing (or being said) goes on, not decided again."""

    event: ClassVar[str] = "ring_resumed"
    kind: ItemKind
    delivery: Delivery


@dataclass(frozen=True)
class RingEnded(ScheduleEvent):
    """A delivery ended: stopped by the person, auto-stopped, said, or run."""

    event: ClassVar[str] = "ring_end"
    kind: ItemKind
    by: str
    next_due_at: float | None
    """A repeating item's next occurrence."""


@dataclass(frozen=True)
class ClockJumped(ScheduleEvent):
    """The wall clock moved against the monotonic clock by this much (item_id is 0)."""

    event: ClassVar[str] = "clock_jump"
    seconds: float
