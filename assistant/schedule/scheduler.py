"""The scheduler the supervisor drives: given "now", it decides what is due, what to say late and
what was missed, durably and once.

Every decision is made inside one transaction with the clock reading it was made on, and its
events are handed out only after that transaction commits: a crash before the commit decides
nothing (the next start decides it), a crash after it finds the item ``RINGING`` and resumes it
without deciding it again. The reasoning about the two clocks is in ``assistant.schedule.policy``.

The supervisor asks ``seconds_until_next`` (cheap: no database read) and sleeps that long;
``wake`` then does the work. Live, "now" is ``SystemClock``; in file mode, ``AudioClock``.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime
from zoneinfo import ZoneInfo

from assistant.schedule.clock import Now
from assistant.schedule.items import (
    ACTIVE_STATES,
    EVERY_ROOM,
    AlarmRinging,
    ClockJumped,
    Delivery,
    Item,
    ItemKind,
    ItemState,
    Lateness,
    Missed,
    Outcome,
    ReminderDue,
    RingEnded,
    RingResumed,
    RoutineRun,
    ScheduleEvent,
    TimerClock,
    TimerFinished,
    TimerStarted,
)
from assistant.schedule.policy import (
    SchedulePolicy,
    cause,
    clock_shift,
    clock_untrusted,
    judge,
)
from assistant.schedule.store import ScheduleStore
from assistant.schedule.timing import next_after, occurrences_between, to_utc

log = logging.getLogger(__name__)


class ScheduleError(Exception):
    """A request the schedule cannot carry out (no such item, not a timer, already ended)."""


class Scheduler:
    """Items in a ``ScheduleStore``, judged against readings of the clocks."""

    def __init__(self, store: ScheduleStore, policy: SchedulePolicy | None = None):
        self.store = store
        self.policy = policy or SchedulePolicy()
        self._started_wall: float | None = None
        self._hold: tuple[float, float] | None = None
        """While the wall clock is not trusted: (the wall time it must reach, monotonic start)."""
        self._next_wall: float | None = None
        self._next_mono: float | None = None
        self._ring_started: dict[int, float] = {}
        """Monotonic time each ring began in this process (the auto-stop counts from it)."""
        self._fresh = False
        self._version: int | None = None

    # -- items -----------------------------------------------------------------------------------

    def active(self, kind: ItemKind | None = None, *, all_rooms: bool = False) -> list[Item]:
        """Items not yet ended, oldest first (of one kind when given): this room's and every
        room's, or with ``all_rooms`` those of any room of the household."""
        items = self.store.items(ACTIVE_STATES, all_rooms=all_rooms)
        return [item for item in items if kind is None or item.kind is kind]

    def add_timer(
        self, now: Now, seconds: float, name: str | None, zone: str
    ) -> tuple[Item, TimerStarted]:
        """Start a timer; returns it and its ``timer_started`` event (after the commit)."""
        if seconds <= 0:
            raise ScheduleError("a timer needs a length above zero")
        item = self.store.add(
            Item(
                0,
                ItemKind.TIMER,
                ItemState.PENDING,
                zone,
                now.wall + seconds,
                name=name,
                seconds=seconds,
                timer=TimerClock(seconds, now.wall, now.mono, now.boot),
                created_at=now.wall,
            ),
            now.wall,
        )
        self._fresh = False
        return item, TimerStarted(item.id, name, seconds, now.wall + seconds)

    def add_at(
        self,
        now: Now,
        kind: ItemKind,
        moment: datetime,
        *,
        rule: str | None = None,
        text: str | None = None,
        silent: bool = False,
        source: str = "voice",
        room: str | None = None,
    ) -> Item:
        """Store an alarm, reminder or routine due at ``moment`` (aware, in its zone), for
        ``room`` (a room's name or EVERY_ROOM; None: this Hearth's)."""
        if kind is ItemKind.TIMER:
            raise ScheduleError("timers are set with add_timer")
        zone = moment.tzinfo
        if not isinstance(zone, ZoneInfo):
            raise ScheduleError("a moment needs an IANA time zone")
        item = self.store.add(
            Item(
                0,
                kind,
                ItemState.PENDING,
                zone.key,
                to_utc(moment),
                local_due=moment.replace(tzinfo=None).isoformat(),
                rule=rule,
                text=text,
                silent=silent,
                source=source,
                created_at=now.wall,
                room=room,
            ),
            now.wall,
        )
        self._fresh = False
        return item

    def cancel(self, now: Now, item_id: int) -> Item:
        """Cancel an item (a ringing one stops); ScheduleError if it has already ended. An item
        for every room is cancelled in every room, also from a room that has said it already."""
        # The household's own row: an item for every room may have ended here only.
        item = self._active(item_id, household=True)
        cancelled = replace(item, state=ItemState.CANCELLED, delivery=None, rang_at=None)
        self.store.put(cancelled, now.wall)
        self._ring_started.pop(item_id, None)
        self._fresh = False
        return cancelled

    def pause(self, now: Now, item_id: int) -> Item:
        """Pause a running timer."""
        item = self._timer(item_id, ItemState.PENDING)
        assert item.timer is not None
        paused = replace(item, state=ItemState.PAUSED, timer=item.timer.anchored(now), due_at=None)
        self.store.put(paused, now.wall)
        self._fresh = False
        return paused

    def resume(self, now: Now, item_id: int) -> Item:
        """Resume a paused timer with the time it had left."""
        item = self._timer(item_id, ItemState.PAUSED)
        assert item.timer is not None
        left = item.timer.remaining
        resumed = replace(
            item,
            state=ItemState.PENDING,
            due_at=now.wall + left,
            timer=TimerClock(left, now.wall, now.mono, now.boot),
        )
        self.store.put(resumed, now.wall)
        self._fresh = False
        return resumed

    def add_time(self, now: Now, item_id: int, seconds: float) -> Item:
        """Add time to a timer; a ringing one stops and runs again for that long."""
        item = self._active(item_id)
        if item.kind is not ItemKind.TIMER or item.timer is None:
            raise ScheduleError(f"item {item_id} is not a timer")
        if item.state is ItemState.RINGING:
            clock = TimerClock(seconds, now.wall, now.mono, now.boot)
            state = ItemState.PENDING
        else:
            anchored = item.timer.anchored(now) if item.state is ItemState.PENDING else item.timer
            clock = replace(anchored, remaining=anchored.remaining + seconds)
            state = item.state
        due = now.wall + clock.remaining if state is ItemState.PENDING else None
        longer = replace(
            item,
            state=state,
            timer=clock,
            due_at=due,
            seconds=(item.seconds or 0) + seconds,
            delivery=None,
            rang_at=None,
        )
        self.store.put(longer, now.wall)
        self._ring_started.pop(item_id, None)
        self._fresh = False
        return longer

    def _active(self, item_id: int, household: bool = False) -> Item:
        try:
            item = self.store.get(item_id, household=household)
        except KeyError:
            raise ScheduleError(f"no schedule item {item_id}") from None
        if item.state not in ACTIVE_STATES:
            raise ScheduleError(f"item {item_id} has already ended ({item.state})")
        return item

    def _timer(self, item_id: int, state: ItemState) -> Item:
        item = self._active(item_id)
        if item.kind is not ItemKind.TIMER:
            raise ScheduleError(f"item {item_id} is not a timer")
        if item.state is not state:
            raise ScheduleError(f"timer {item_id} is {item.state}, not {state}")
        return item

    # -- driving ---------------------------------------------------------------------------------

    def seconds_until_next(self, now: Now) -> float | None:
        """How long the caller may sleep before ``wake`` has work (0: now); None: nothing ahead.

        Reads no table once warm: the next due times are kept from the last change, and
        ``PRAGMA data_version`` tells when another connection (the brain's desk, the command
        line, another process) has changed the schedule.
        """
        version = self.store.data_version()
        if not self._fresh or version != self._version:
            self._version = version
            self._refresh(now)
        waits = []
        if self._next_mono is not None:
            waits.append(self._next_mono - now.mono)
        if self._next_wall is not None and self._hold is None:
            waits.append(self._next_wall - now.wall)
        if self._hold is not None:
            waits.append(
                min(
                    self._hold[0] - now.wall,
                    self._hold[1] + self.policy.clock_hold_seconds - now.mono,
                )
            )
        if self._started_wall is None:
            waits.append(0.0)  # the first wake after a start settles what came due while down
        return max(0.0, min(waits)) if waits else None

    def wake(self, now: Now) -> list[ScheduleEvent]:
        """Decide everything due at ``now``; returns the events, all committed."""
        events: list[ScheduleEvent] = []
        with self.store.atomic():
            last = self.store.last_clock()
            first = self._started_wall is None
            if first:
                self._started_wall = now.wall
                if clock_untrusted(last, now, self.policy):
                    assert last is not None
                    self._hold = (last.wall, now.mono)
                    log.info("wall clock behind the last reading: waiting for it to be set")
            released = False
            if self._hold is not None and (
                now.wall >= self._hold[0]
                or now.mono - self._hold[1] >= self.policy.clock_hold_seconds
            ):
                self._hold, released = None, True
            shift = clock_shift(last, now)
            jumped = shift is not None and abs(shift) > self.policy.jump_seconds
            jumped_from = None
            if jumped:
                assert shift is not None
                log.info("wall clock jumped by %.1f s", shift)
                events.append(ClockJumped(0, round(shift, 3)))
                jumped_from = now.wall - shift if shift > 0 else None
            # Timers are re-anchored to the wall clock they will be judged by after a reboot.
            reanchor = self._hold is None and (released or jumped or shift is None)
            joined = self.store.joined_at()
            joined = now.wall if joined is None else joined
            for item in self.store.items(ACTIVE_STATES):
                if first and item.state is ItemState.RINGING:
                    events.extend(self._resume(item, now))
                    continue
                held = self._hold is not None and not (
                    item.timer is not None and item.timer.boot == now.boot
                )
                if held:
                    continue
                if reanchor and item.timer is not None and item.state is ItemState.PENDING:
                    item = replace(
                        item, timer=item.timer.anchored(now), due_at=now.wall + item.timer.left(now)
                    )
                    self.store.put(item, now.wall)
                if item.state is ItemState.PENDING:
                    due = item.due(now)
                    if item.room == EVERY_ROOM and due is not None and due < joined:
                        item, due = self._join(item, joined, now)
                    if due is not None and due <= now.wall:
                        events.extend(self._decide(item, due, now, jumped_from, released))
                elif item.state is ItemState.RINGING and self._ring_over(item, now):
                    events.append(self._finish(item, now, "auto"))
            self.store.save_clock(now)
        self._fresh = False
        return events

    def finish(self, now: Now, item_id: int, by: str = "stop") -> RingEnded | None:
        """End a delivery: stopped by the person, said, or run. None if it was not ringing."""
        with self.store.atomic():
            item = self.store.get(item_id)
            if item.state is not ItemState.RINGING:
                return None
            ended = self._finish(item, now, by)
        self._fresh = False
        return ended

    def stop_ringing(self, now: Now) -> list[RingEnded]:
        """ "Stop": end every ring sounding now (deliveries being said or run go on)."""
        ended = []
        with self.store.atomic():
            for item in self.store.items([ItemState.RINGING]):
                if item.delivery is Delivery.RING:
                    ended.append(self._finish(item, now, "stop"))
        self._fresh = False
        return ended

    # -- deciding --------------------------------------------------------------------------------

    def _decide(
        self, item: Item, due: float, now: Now, jumped_from: float | None, released: bool
    ) -> list[ScheduleEvent]:
        assert self._started_wall is not None
        why = cause(due, now, self._started_wall, jumped_from, released)
        if item.rule is None or item.local_due is None:
            verdict = judge(item.kind, now.wall - due, self.policy)
            lateness = Lateness.ON_TIME if verdict.outcome is Outcome.RUNG else why
            self.store.record_outcome(item, due, verdict.outcome, lateness, now.wall)
            if verdict.delivery is None:
                self.store.put(replace(item, state=ItemState.MISSED, due_at=due), now.wall)
                return [Missed(item.id, item.kind, due, 1, lateness)]
            self._ring(item, due, item.local_due, verdict.delivery, now)
            return [_due_event(item, due, now.wall - due, lateness, verdict.delivery)]
        zone = ZoneInfo(item.zone)
        later = occurrences_between(
            item.rule, datetime.fromisoformat(item.local_due), now.wall, zone
        )
        due_times = [due, *(to_utc(moment) for moment in later)]
        local_times = [item.local_due, *(m.replace(tzinfo=None).isoformat() for m in later)]
        latest = due_times[-1]
        verdict = judge(item.kind, now.wall - latest, self.policy)
        missed = due_times if verdict.delivery is None else due_times[:-1]
        events: list[ScheduleEvent] = []
        for missed_due in missed:
            self.store.record_outcome(item, missed_due, Outcome.MISSED, why, now.wall)
        if missed:
            events.append(Missed(item.id, item.kind, missed[-1], len(missed), why))
        if verdict.delivery is not None:
            lateness = Lateness.ON_TIME if verdict.outcome is Outcome.RUNG else why
            self.store.record_outcome(item, latest, verdict.outcome, lateness, now.wall)
            self._ring(item, latest, local_times[-1], verdict.delivery, now)
            events.append(_due_event(item, latest, now.wall - latest, lateness, verdict.delivery))
        else:
            upcoming = next_after(item.rule, datetime.fromisoformat(local_times[-1]), zone)
            self.store.put(moved_on(item, upcoming), now.wall)
        return events

    def _join(self, item: Item, joined: float, now: Now) -> tuple[Item, float | None]:
        """An item for every room, met by a room that joined the household after it was due:
        what was due before the room joined is not its to say (no surprise old announcements),
        so a one-shot ends here unsaid and a repeating one moves on to its first occurrence
        after. Returns the item and its due time here (None: nothing left)."""
        if item.rule is None or item.local_due is None:
            self.store.put(replace(item, state=ItemState.DONE), now.wall)
            log.info("item %d was due before this room joined: not said here", item.id)
            return item, None
        zone = ZoneInfo(item.zone)
        start = datetime.fromisoformat(item.local_due)
        before = occurrences_between(item.rule, start, joined, zone)
        last = before[-1].replace(tzinfo=None) if before else start
        moved = moved_on(item, next_after(item.rule, last, zone))
        self.store.put(moved, now.wall)
        return moved, moved.due_at if moved.state is ItemState.PENDING else None

    def _ring(
        self, item: Item, due: float, local_due: str | None, delivery: Delivery, now: Now
    ) -> None:
        ringing = replace(
            item,
            state=ItemState.RINGING,
            due_at=due,
            local_due=local_due,
            delivery=delivery,
            rang_at=now.wall,
        )
        self.store.put(ringing, now.wall)
        self._ring_started[item.id] = now.mono

    def _resume(self, item: Item, now: Now) -> list[ScheduleEvent]:
        if self._ring_over(item, now):
            return [self._finish(item, now, "auto")]
        assert item.delivery is not None
        # It goes on for what is left of its auto-stop, not a whole one again (a ring resumed
        # four minutes in rang 466 s in all against 300).
        rung = max(0.0, now.wall - item.rang_at) if item.rang_at is not None else 0.0
        self._ring_started[item.id] = now.mono - rung
        return [RingResumed(item.id, item.kind, item.delivery)]

    def _ring_over(self, item: Item, now: Now) -> bool:
        if item.delivery is not Delivery.RING:
            return False
        started = self._ring_started.get(item.id)
        if started is not None:
            return now.mono - started >= self.policy.auto_stop_seconds
        return item.rang_at is not None and now.wall - item.rang_at >= self.policy.auto_stop_seconds

    def _finish(self, item: Item, now: Now, by: str) -> RingEnded:
        self._ring_started.pop(item.id, None)
        if item.rule is not None and item.local_due is not None:
            zone = ZoneInfo(item.zone)
            upcoming = next_after(item.rule, datetime.fromisoformat(item.local_due), zone)
            ended = moved_on(item, upcoming)
        else:
            ended = replace(item, state=ItemState.DONE, delivery=None, rang_at=None)
        self.store.put(ended, now.wall)
        return RingEnded(item.id, item.kind, by, ended.due_at if ended.rule else None)

    def _refresh(self, now: Now) -> None:
        """Recompute the next due times (wall and monotonic) from the stored items."""
        walls, monos = [], []
        for item in self.store.items(ACTIVE_STATES):
            if item.state is ItemState.RINGING:
                started = self._ring_started.get(item.id)
                if item.delivery is Delivery.RING and started is not None:
                    monos.append(started + self.policy.auto_stop_seconds)
                continue
            if item.state is not ItemState.PENDING:
                continue
            if item.timer is not None and item.timer.boot == now.boot:
                monos.append(item.timer.mono + item.timer.remaining)
            elif item.timer is not None:
                walls.append(item.timer.wall + item.timer.remaining)
            elif item.due_at is not None:
                walls.append(item.due_at)
        self._next_wall = min(walls) if walls else None
        self._next_mono = min(monos) if monos else None
        self._fresh = True


def moved_on(item: Item, upcoming: datetime | None) -> Item:
    """A repeating item moved on to its next occurrence (DONE when the rule has no more)."""
    if upcoming is None:
        return replace(item, state=ItemState.DONE, delivery=None, rang_at=None)
    return replace(
        item,
        state=ItemState.PENDING,
        due_at=to_utc(upcoming),
        local_due=upcoming.replace(tzinfo=None).isoformat(),
        delivery=None,
        rang_at=None,
    )


def _due_event(
    item: Item, due: float, late: float, lateness: Lateness, delivery: Delivery
) -> ScheduleEvent:
    late = round(max(0.0, late), 3)
    if item.kind is ItemKind.TIMER:
        return TimerFinished(item.id, due, late, lateness, delivery, name=item.name)
    if item.kind is ItemKind.ALARM:
        return AlarmRinging(item.id, due, late, lateness, delivery)
    if item.kind is ItemKind.REMINDER:
        return ReminderDue(item.id, due, late, lateness, delivery, text=item.text or "")
    return RoutineRun(
        item.id, due, late, lateness, delivery, prompt=item.text or "", silent=item.silent
    )
