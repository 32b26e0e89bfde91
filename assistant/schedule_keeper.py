"""The supervisor's half of the schedule: what came due, turned into what the room hears.

The supervisor drives it and carries out what it returns, typed actions: ring an item, stop a
ring, say a sentence (and tell the keeper once it was said), run a routine on the brain worker,
write an event. It owns the ``Scheduler`` on the supervisor's own database connection and the
clock readings every decision is made on: live the system's clocks; in file mode the audio
clock from ``--start-time``, where the supervisor holds the voice loop at each moment something
may come due (``hold``), so a ring lands on the same sample every run.

Exactly once: every decision is the scheduler's, committed before its action is returned; a ring
is sounding until the person stops it, the auto-stop ends it or the desk cancels it; a sentence
that delivers an item finishes the item only once it was said; a routine whose model does not
answer is tried again on the ``RetryPolicy``'s backoff and, past its window, said once to have
failed. A schedule that cannot be reached (a household's database down) is said once and tried
again, and Hearth keeps hearing and speaking meanwhile.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any
from zoneinfo import ZoneInfo

from assistant.reply import RoutineAsk, RoutineResult
from assistant.schedule import (
    AlarmRinging,
    Clock,
    ClockJumped,
    Delivery,
    Item,
    ItemKind,
    ItemState,
    Lateness,
    Missed,
    ReminderDue,
    RetryPolicy,
    RingEnded,
    RingResumed,
    RoutineRun,
    ScheduleEvent,
    Scheduler,
    ScheduleStoreError,
    TimerFinished,
    announcement,
    finished,
    sync_routines,
)
from config import RoutineSettings
from memory import StoreError

log = logging.getLogger(__name__)

RING_LOOK_SECONDS = 1.0
"""While something rings, how often the schedule is read for a ring ended elsewhere."""

UNREACHABLE = "I can't reach my schedule, so timers and alarms may not ring until it's back."
UNREACHABLE_RETRY_SECONDS = 5.0
"""While the schedule cannot be reached, how often it is tried again."""
HOLD_STEP_SECONDS = 512 / 16_000
"""One frame of the voice loop: the least a file-mode hold moves on."""
SCHEDULE_ERRORS = (ScheduleStoreError, StoreError)
"""What a schedule that cannot be used raises (its own errors, or the memory file's on opening)."""


# -- actions: what the supervisor carries out -----------------------------------------------------


@dataclass(frozen=True)
class RingItem:
    """Send ``Ring(item)``: the item rings until stopped."""

    item: int


@dataclass(frozen=True)
class SilenceItem:
    """Send ``StopRing(item)``."""

    item: int


@dataclass(frozen=True)
class Announce:
    """Say ``text`` to the room in the card's voice, when nobody is in the middle of a request;
    once said, tell the keeper (``said``) if it delivers ``item``."""

    text: str
    item: int | None = None


@dataclass(frozen=True)
class RunRoutine:
    """Run a routine's prompt through the brain worker; its result comes back to ``routine``."""

    ask: RoutineAsk


@dataclass(frozen=True)
class WriteEvent:
    """One line of the event stream (the supervisor adds ``t``)."""

    fields: dict[str, Any]


Action = RingItem | SilenceItem | Announce | RunRoutine | WriteEvent


@dataclass
class _Attempts:
    """A routine's tries at its model: the first one's (monotonic) time, how many failed, and
    when the next is due (None while one is in flight)."""

    ask: RoutineAsk
    first_at: float
    failed: int = 0
    next_at: float | None = None


@dataclass
class _Outage:
    """The schedule cannot be reached: said once, tried again from ``retry_at`` (monotonic)."""

    retry_at: float
    message: str
    said: bool = False


@dataclass
class ScheduleKeeper:
    """Due items in, actions out; the supervisor's loop asks it when to look next.

    ``open_scheduler`` opens the schedule on a connection of the caller's thread (the
    supervisor's); it is opened on first use, and again after an outage.
    """

    open_scheduler: Callable[[], Scheduler]
    clock: Clock
    zone: ZoneInfo
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    routines: tuple[RoutineSettings, ...] = ()
    _scheduler: Scheduler | None = None
    _sounding: set[int] = field(default_factory=set)
    _attempts: dict[int, _Attempts] = field(default_factory=dict)
    _outage: _Outage | None = None
    _synced: bool = False
    _looked_at: float | None = None
    """The monotonic second of the last ``wake``: while something rings, the next is due a
    :data:`RING_LOOK_SECONDS` after it."""

    # -- when to look ----------------------------------------------------------------------------

    def seconds_until_due(self, t: float) -> float | None:
        """How long the loop may sleep before ``wake`` has work (0: now); None: nothing ahead."""
        now = self.clock.now(t)
        waits = [a.next_at - now.mono for a in self._attempts.values() if a.next_at is not None]
        if self._outage is not None:
            waits.append(self._outage.retry_at - now.mono)
        else:
            try:
                wait = self._schedule().seconds_until_next(now)
            except SCHEDULE_ERRORS as error:
                self._note_outage(error, now.mono)  # said by the ``wake`` this brings on now
                return 0.0
            if wait is not None:
                waits.append(wait)
            if not self._synced:
                waits.append(0.0)
            if self._sounding:
                # Another process may end a ring (`hearth schedule cancel`, another room's desk):
                # looked at each second, or it rang on to its auto-stop.
                looked = now.mono if self._looked_at is None else self._looked_at
                waits.append(looked + RING_LOOK_SECONDS - now.mono)
        return max(0.0, min(waits)) if waits else None

    def hold(self, t: float) -> float | None:
        """File mode: the audio second to hold the voice loop at (where it is, while a routine
        runs, so its answer lands on the same sample every run); None: nothing ahead."""
        if self.routine_running:
            return t
        wait = self.seconds_until_due(t)
        # At least a frame on: what is due now is decided there, and the loop never waits on a
        # hold it has already reached.
        return None if wait is None else t + max(wait, HOLD_STEP_SECONDS)

    @property
    def routine_running(self) -> bool:
        """A routine's model call is in flight."""
        return any(attempt.next_at is None for attempt in self._attempts.values())

    @property
    def sounding(self) -> tuple[int, ...]:
        """Items ringing now: a new voice process is sent their rings again."""
        return tuple(sorted(self._sounding))

    # -- deciding ----------------------------------------------------------------------------------

    def wake(self, t: float) -> list[Action]:
        """Everything due at audio second ``t`` (live: now), decided and turned into actions."""
        now = self.clock.now(t)
        self._looked_at = now.mono
        actions: list[Action] = []
        for attempt in list(self._attempts.values()):
            if attempt.next_at is not None and attempt.next_at <= now.mono:
                attempt.next_at = None
                actions.append(RunRoutine(replace(attempt.ask, t=t)))
        if self._outage is not None and self._outage.retry_at > now.mono:
            return actions + self._tell_outage()
        try:
            if not self._synced:
                actions += self._sync(t)
            events = self._schedule().wake(now)
            actions += self._act_on(events, t)
            actions += self._reconcile()
        except SCHEDULE_ERRORS as error:
            return actions + self._lost(error, now.mono)
        if self._outage is not None:
            log.info("the schedule is back")
            self._outage = None
        return actions

    def changed(self, t: float) -> list[Action]:
        """The brain may have changed items (cancelled a ringing timer, added time to it): stop
        the rings of items that no longer ring."""
        if self._outage is not None:
            return []
        try:
            return self._reconcile()
        except SCHEDULE_ERRORS as error:
            return self._lost(error, self.clock.now(t).mono)

    def stopped(self, items: Iterable[int], t: float, by: str = "stop") -> list[Action]:
        """The voice process stopped these rings (a stop word, or its own backstop): each is
        finished and what finished is said, all together."""
        now = self.clock.now(t)
        ended: list[Item] = []
        events: list[Action] = []
        try:
            scheduler = self._schedule()
            for item_id in items:
                self._sounding.discard(item_id)
                end = scheduler.finish(now, item_id, by)
                if end is not None:
                    ended.append(scheduler.store.get(item_id))
                    events.append(WriteEvent({"event": end.event, **end.fields()}))
        except SCHEDULE_ERRORS as error:
            return events + self._lost(error, now.mono)
        if not ended:
            return []
        return [*events, Announce(" ".join(finished(item) for item in ended))]

    def said(self, item_id: int, t: float) -> list[Action]:
        """The sentence delivering ``item_id`` (a reminder, a late timer) has been said."""
        return self._finish(item_id, t, "said")

    def routine(self, result: RoutineResult, t: float) -> list[Action]:
        """A routine's run came back: finished when the model answered; else tried again after
        the backoff, or, past the retry window, said once to have failed."""
        now = self.clock.now(t)
        attempt = self._attempts.get(result.item_id)
        if result.answered or attempt is None:
            self._attempts.pop(result.item_id, None)
            return self._finish(result.item_id, t, "run")
        attempt.failed += 1
        attempt.next_at = self.retry.next_try(attempt.first_at, attempt.failed, now.mono)
        if attempt.next_at is not None:
            log.info("routine %d: trying again in %.0f s", result.item_id,
                     attempt.next_at - now.mono)  # fmt: skip
            return [WriteEvent({"event": "routine_retry", "item_id": result.item_id,
                                "failed": attempt.failed, "reason": result.failure})]  # fmt: skip
        del self._attempts[result.item_id]
        log.warning("routine %d: giving up after %d tries: %s", result.item_id, attempt.failed,
                    result.failure)  # fmt: skip
        said = f"I couldn't do your routine, {attempt.ask.prompt}: {result.spoken_failure}"
        return [
            WriteEvent({"event": "routine_failed", "item_id": result.item_id,
                        "failed": attempt.failed, "reason": result.failure}),
            *self._finish(result.item_id, t, "failed"),
            Announce(said),
        ]  # fmt: skip

    # -- turning events into actions -------------------------------------------------------------

    def _act_on(self, events: list[ScheduleEvent], t: float) -> list[Action]:
        actions: list[Action] = []
        wall = self.clock.now(t).wall
        for event in events:
            actions.append(WriteEvent({"event": event.event, **event.fields(),
                                       "decided_at": round(wall, 3)}))  # fmt: skip
            actions += self._deliver(event, t)
        return actions

    def _deliver(self, event: ScheduleEvent, t: float) -> list[Action]:
        """What the room gets for one event."""
        if isinstance(event, ClockJumped):
            return []
        item = self._schedule().store.get(event.item_id)
        if isinstance(event, RingEnded):
            if event.by == "auto" and event.item_id in self._sounding:
                self._sounding.discard(event.item_id)
                return [SilenceItem(event.item_id), Announce(finished(item))]
            return []
        if isinstance(event, Missed):
            return [Announce(announcement(event, item) or "")]
        if isinstance(event, RingResumed):
            return self._resume(event, item, t)
        if isinstance(event, RoutineRun):
            return [self._run(item, event.prompt, event.silent, t)]
        assert isinstance(event, TimerFinished | AlarmRinging | ReminderDue)
        if event.delivery is Delivery.RING:
            self._sounding.add(item.id)
            return [RingItem(item.id)]
        return [Announce(announcement(event, item) or finished(item), item.id)]

    def _resume(self, event: RingResumed, item: Item, t: float) -> list[Action]:
        """After a restart: a ring goes on, a sentence is said (again), a routine runs (again)."""
        if event.delivery is Delivery.RING:
            self._sounding.add(item.id)
            return [RingItem(item.id)]
        if event.delivery is Delivery.RUN:
            return [self._run(item, item.text or "", item.silent, t)]
        return [Announce(resumed_announcement(item), item.id)]

    def _run(self, item: Item, prompt: str, silent: bool, t: float) -> RunRoutine:
        ask = RoutineAsk(item.id, prompt, silent, t)
        self._attempts[item.id] = _Attempts(ask, self.clock.now(t).mono)
        return RunRoutine(ask)

    def _reconcile(self) -> list[Action]:
        ringing = {item.id for item in self._schedule().store.items([ItemState.RINGING])}
        gone = self._sounding - ringing
        self._sounding -= gone
        return [SilenceItem(item_id) for item_id in sorted(gone)]

    def _finish(self, item_id: int, t: float, by: str) -> list[Action]:
        now = self.clock.now(t)
        try:
            end = self._schedule().finish(now, item_id, by)
        except SCHEDULE_ERRORS as error:
            return self._lost(error, now.mono)
        if end is None:
            return []
        return [WriteEvent({"event": end.event, **end.fields()})]

    def _sync(self, t: float) -> list[Action]:
        """The routines in the settings, stored (once, at the first wake)."""
        added = sync_routines(self._schedule(), self.routines, self.clock.now(t), self.zone)
        self._synced = True
        return [
            WriteEvent({"event": "routine_set", "item_id": item.id, "due_at": item.due_at,
                        "rule": item.rule, "source": "settings"})
            for item in added
        ]  # fmt: skip

    def close(self) -> None:
        """Close the schedule's connection."""
        if self._scheduler is not None:
            self._scheduler.store.close()
            self._scheduler = None

    def _schedule(self) -> Scheduler:
        if self._scheduler is None:
            self._scheduler = self.open_scheduler()
        return self._scheduler

    def _lost(self, error: Exception, mono: float) -> list[Action]:
        """The schedule cannot be reached: said once per outage, tried again shortly."""
        self._note_outage(error, mono)
        return self._tell_outage()

    def _note_outage(self, error: Exception, mono: float) -> None:
        """Record the outage (logged once) and when to try again (``_tell_outage`` says it)."""
        if self._outage is None:
            log.error("the schedule cannot be reached: %s", error)
            self._outage = _Outage(mono + UNREACHABLE_RETRY_SECONDS, str(error))
        else:
            self._outage.retry_at = mono + UNREACHABLE_RETRY_SECONDS

    def _tell_outage(self) -> list[Action]:
        """The outage, said by the first call that can return actions: it may have been found
        by ``seconds_until_due``, which can only say to look now."""
        outage = self._outage
        if outage is None or outage.said:
            return []
        outage.said = True
        return [
            WriteEvent({"event": "error", "what": "schedule", "message": outage.message}),
            Announce(UNREACHABLE),
        ]


def resumed_announcement(item: Item) -> str:
    """Said again after a restart for an item whose sentence may not have been heard."""
    due = item.due_at or 0.0
    if item.kind is ItemKind.REMINDER:
        event: ScheduleEvent = ReminderDue(item.id, due, 0.0, Lateness.WHILE_DOWN, Delivery.SAY,
                                           text=item.text or "")  # fmt: skip
    elif item.kind is ItemKind.TIMER:
        event = TimerFinished(item.id, due, 0.0, Lateness.WHILE_DOWN, Delivery.SAY, item.name)
    else:
        event = AlarmRinging(item.id, due, 0.0, Lateness.WHILE_DOWN, Delivery.SAY)
    return announcement(event, item) or finished(item)
