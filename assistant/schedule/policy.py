"""The schedule's judgements, pure: how late is too late, whether the clock jumped, and when a
routine whose model is unreachable tries again or gives up.

Why two clocks: the wall clock says what time it is for people (alarms, reminders), but it can
leap by hours when NTP corrects it at boot; the monotonic clock never leaps but restarts at each
boot. Timers count monotonic seconds within a boot; alarms and reminders are due at a wall
instant. Every decision compares the new reading with the last one acted on: within one boot the
wall clock should have moved as much as the monotonic one did, and any difference is a jump.
Lateness alone decides what a due item gets: rung if on time, said ("while I was restarting,
...") if within the grace, reported missed past it. So a forward jump over many items rings none
of them at once; each is said or reported, once. A backward jump re-rings nothing: each
occurrence's fate is recorded, and repetition resumes after the occurrence that last came due.
"""

from __future__ import annotations

from dataclasses import dataclass

from assistant.schedule.clock import Now
from assistant.schedule.items import Delivery, ItemKind, Lateness, Outcome


@dataclass(frozen=True)
class SchedulePolicy:
    """How the scheduler judges time (from the ``schedule:`` settings)."""

    on_time_seconds: float = 60.0
    """A due item decided at most this late still rings as if on time."""
    grace_seconds: float = 3600.0
    """Came due while Hearth was down (or the clock jumped over it): said when back if at most
    this late, else reported as missed."""
    auto_stop_seconds: float = 300.0
    """A ring nobody stops ends by itself after this long."""
    jump_seconds: float = 5.0
    """A wall clock that moved this much more or less than the monotonic one has jumped."""
    clock_hold_seconds: float = 600.0
    """After a reboot with the wall clock behind the last reading (not set yet), wall decisions
    wait at most this long for it to be corrected."""


@dataclass(frozen=True)
class Verdict:
    """What a due occurrence gets."""

    outcome: Outcome
    delivery: Delivery | None
    """None when missed."""


def judge(kind: ItemKind, late_seconds: float, policy: SchedulePolicy) -> Verdict:
    """How an occurrence due ``late_seconds`` ago is delivered, or that it was missed."""
    if late_seconds <= policy.on_time_seconds:
        return Verdict(Outcome.RUNG, _on_time_delivery(kind))
    if late_seconds <= policy.grace_seconds:
        return Verdict(
            Outcome.SAID_LATE, Delivery.RUN if kind is ItemKind.ROUTINE else Delivery.SAY
        )
    return Verdict(Outcome.MISSED, None)


def _on_time_delivery(kind: ItemKind) -> Delivery:
    return {
        ItemKind.TIMER: Delivery.RING,
        ItemKind.ALARM: Delivery.RING,
        ItemKind.REMINDER: Delivery.SAY,
        ItemKind.ROUTINE: Delivery.RUN,
    }[kind]


def clock_shift(last: Now | None, now: Now) -> float | None:
    """How far the wall clock moved against the monotonic one since ``last`` (same boot), or None
    when the two readings cannot be compared (no reading yet, or another boot)."""
    if last is None or last.boot != now.boot:
        return None
    return (now.wall - last.wall) - (now.mono - last.mono)


def cause(
    due_at: float, now: Now, started_wall: float, jumped_from: float | None, clock_held: bool
) -> Lateness:
    """Why an item due at ``due_at`` is late at ``now``.

    ``started_wall``: wall time this process first read (items due before it came due while
    down); ``jumped_from``: the wall time the clock leapt from, if it just leapt forward.
    """
    if clock_held or (jumped_from is not None and due_at > jumped_from):
        return Lateness.CLOCK_JUMP
    if due_at < started_wall:
        return Lateness.WHILE_DOWN
    return Lateness.ON_TIME if now.wall - due_at <= 0 else Lateness.LATE


def clock_untrusted(last: Now | None, now: Now, policy: SchedulePolicy) -> bool:
    """At start in a new boot: is the wall clock behind the last reading acted on?

    A Pi without a real-time clock boots with the time it saved at shutdown and is corrected by
    NTP later; until then, its wall clock would make due items look far in the future.
    """
    return last is not None and last.boot != now.boot and now.wall < last.wall - policy.jump_seconds


@dataclass(frozen=True)
class RetryPolicy:
    """A routine's model call when the model is unreachable: back off, within a bounded window."""

    first_seconds: float = 5.0
    factor: float = 2.0
    longest_seconds: float = 120.0
    window_seconds: float = 900.0
    """After this long since the first try, give up and say once that it could not be done."""

    def next_try(self, first_try_at: float, tries: int, now: float) -> float | None:
        """When to try again after ``tries`` failed tries (monotonic seconds), or None: give up."""
        delay = min(self.longest_seconds, self.first_seconds * self.factor ** max(0, tries - 1))
        at = now + delay
        return at if at - first_try_at <= self.window_seconds else None
