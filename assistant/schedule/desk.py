"""The desk the brain asks first: a schedule request becomes a stored item and the sentence said.

``take`` answers a pending question of its own (which timer? for how long? what time?), or
parses the utterance; None means it is not the schedule's, and the brain goes on (its voice
commands, then the model). Questions end in ``AwaitAnswer`` and the answer comes in the
follow-up window, as the memory's conflict question does. Without a scheduler (before the voice
loop can ring) the desk answers only the clock (and, given where the volume is kept, the volume),
so Hearth never promises a ring it cannot make.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from difflib import SequenceMatcher
from zoneinfo import ZoneInfo

from assistant.conflict_question import MIN_ANSWER_SCORE, SCORE_MARGIN
from assistant.reply import AwaitAnswer, HeardUtterance, Note, ReplyPart, Sentence, VolumeSet
from assistant.schedule.clock import Clock, Now, clock_answer, local, prompt_line, spoken_time
from assistant.schedule.durations import LONGEST_SAID, LONGEST_SECONDS, find_duration
from assistant.schedule.intents import (
    AddTime,
    Announce,
    AskClock,
    CancelAlarm,
    CancelReminder,
    CancelTimer,
    ClockTime,
    Intent,
    ListAlarms,
    ListReminders,
    ListTimers,
    Meridiem,
    PauseTimer,
    Place,
    Repeat,
    ResumeTimer,
    SetAlarm,
    SetReminder,
    SetRoutine,
    SetTimer,
    TimeLeft,
    Volume,
    When,
)
from assistant.schedule.items import EVERY_ROOM, Item, ItemKind, ItemState
from assistant.schedule.moments import find_when
from assistant.schedule.parser import parse_request
from assistant.schedule.phrasing import (
    say_length,
    say_list,
    say_moment,
    say_repeat,
    timer_label,
    timers_left,
)
from assistant.schedule.scheduler import ScheduleError, Scheduler
from assistant.schedule.store import ScheduleUnavailable
from assistant.schedule.timing import (
    NoSuchDate,
    WhenError,
    repeat_of_rule,
    repeating,
    rule_time,
)
from assistant.schedule.timing import resolve as resolve_when
from assistant.schedule.volume import VolumeKeeper, changed_level, volume_said
from assistant.schedule.words import normalise, tokens
from assistant.voice_commands import to_second_person

log = logging.getLogger(__name__)

NAME_SIMILARITY = 0.5
"""How alike a heard name must be to a timer's ("faster" for "pasta": 0.55) to mean it..."""
NAME_MARGIN = 0.2
"""...and how much more alike than the next timer's name."""
ALL_ANSWER = "all"
SCHEDULE_UNREACHABLE = "I can't reach my schedule right now, so I can't do that yet."

CAPABILITIES = (
    "Timers, alarms, reminders and routines are set, listed and cancelled by Hearth itself when "
    "the user asks in plain words; you cannot set, change or cancel any of them, so never say "
    'that you did. If asked, tell the user to say it directly, for example "set a timer for ten '
    'minutes".'
)


@dataclass(frozen=True)
class _WhichTimer:
    """Asked "which one?" about timers for this request."""

    request: Intent
    choices: tuple[Item, ...]


@dataclass(frozen=True)
class _WhichAlarm:
    request: CancelAlarm
    choices: tuple[Item, ...]


@dataclass(frozen=True)
class _AskMissing:
    """Asked for the length (a timer) or the time (an alarm or a reminder) of this request."""

    request: SetTimer | SetAlarm | SetReminder


DeskQuestion = _WhichTimer | _WhichAlarm | _AskMissing
"""A question the desk asked and awaits the answer to (opaque outside the desk)."""


class ScheduleDesk:
    """Carries out schedule requests against a scheduler and says what was done."""

    def __init__(
        self,
        clock: Clock,
        zone: ZoneInfo,
        scheduler: Scheduler | None = None,
        volume: VolumeKeeper | None = None,
        open_scheduler: Callable[[], Scheduler] | None = None,
    ):
        self.clock = clock
        self.zone = zone
        self.scheduler = scheduler
        self._open_scheduler = open_scheduler
        """Opens the scheduler on first use, and again after a shared database was unreachable
        (a Hearth starts while its database is down)."""
        self.volume = volume
        """Hearth's output level; without it volume requests are not the desk's."""
        self._pending: DeskQuestion | None = None

    @property
    def pending(self) -> bool:
        """True while a question of the desk awaits its answer."""
        return self._pending is not None

    @property
    def question(self) -> DeskQuestion | None:
        """The question awaiting its answer, to be put back with :meth:`ask_again`."""
        return self._pending

    def ask_again(self, question: DeskQuestion | None) -> None:
        """Put back the question a withdrawn turn took away: nothing was said or done in that
        turn, so the request heard whole may still answer it."""
        self._pending = question

    def close(self) -> None:
        """Close where the volume is kept (the scheduler's store is the scheduler's)."""
        if self.volume is not None:
            self.volume.close()

    def prompt_lines(
        self, audio_seconds: float = 0.0, abilities: str = CAPABILITIES
    ) -> tuple[str, ...]:
        """Lines for the system prompt: the clock, and what the model can do (by default,
        that it cannot set anything itself; with tools, ``abilities`` says what they do)."""
        return (prompt_line(self.clock.now(audio_seconds), self.zone), abilities)

    @property
    def can_act(self) -> bool:
        """Whether timers and reminders can be set (there is a scheduler to ring them)."""
        return self.scheduler is not None or self._open_scheduler is not None

    def act(self, intent: Intent, audio_seconds: float) -> list[ReplyPart]:
        """Carry out a schedule request that came already understood (a model's tool call), at
        ``audio_seconds``: what was done, in notes and the sentence that says it. A question
        (which timer?) is asked as for a spoken request, and its answer taken the same way."""
        if not self.can_act:
            raise ScheduleError("there is no scheduler to carry out schedule requests")
        self._pending = None
        return self._carry_out_reached(intent, self.clock.now(audio_seconds))

    def active_items(self) -> list[Item]:
        """The items still to come or ringing, in any room of the household (none while a
        shared schedule is out of reach)."""
        try:
            return self._scheduler().active(all_rooms=True)
        except ScheduleUnavailable:
            return []

    def standing_names(self) -> tuple[str, ...]:
        """What names each item still to come: a timer's name, a reminder's or routine's text,
        an alarm's time as said ("7 AM", "7:00 AM") (for the claim check: a report of one set in
        an earlier turn is true)."""
        named: list[str] = []
        for item in self.active_items():  # one read of the store
            named += [name for name in (item.name, item.text) if name]
            if item.kind is ItemKind.ALARM and item.due_at is not None:
                moment = local(Now(item.due_at, 0.0, ""), ZoneInfo(item.zone))
                named += [spoken_time(moment).lower(), spoken_time(moment, minutes=True).lower()]
        return tuple(named)

    def local_now(self, audio_seconds: float) -> datetime:
        """The local time at ``audio_seconds`` of the recording (or now, live)."""
        return local(self.clock.now(audio_seconds), self.zone)

    def take(self, heard: HeardUtterance) -> list[ReplyPart] | None:
        """The reply to ``heard`` if it is the schedule's (or answers the desk's question)."""
        now = self.clock.now(heard.t)
        pending, self._pending = self._pending, None
        intent = parse_request(heard.text)
        if pending is not None and intent is None:
            # A whole new request wins over reading it as the answer ("cancel all timers").
            answered = self._answer(pending, heard, now)
            if answered is not None:
                return answered
        if intent is None:
            return None
        if isinstance(intent, AskClock):
            return [Sentence(clock_answer(intent.question, now, self.zone))]
        if isinstance(intent, Volume):
            return self._volume(intent) if self.volume is not None else None
        if not self.can_act:
            return None
        if isinstance(intent, SetAlarm | SetReminder | SetRoutine) and _CALENDAR_REPEAT.search(
            normalise(heard.text)
        ):
            # Read as one day, "every month on the 31st" was set once, without a word.
            return [Sentence(CALENDAR_REPEAT_REFUSED)]
        return self._carry_out_reached(intent, now)

    # -- requests --------------------------------------------------------------------------------

    def _carry_out_reached(self, intent: Intent, now: Now) -> list[ReplyPart]:
        """:meth:`_carry_out` once the scheduler is open; a shared schedule out of reach is
        said, and opened again next time."""
        try:
            self._scheduler()  # opened here, so a handler never meets the outage halfway
            return self._carry_out(intent, now)
        except ScheduleUnavailable as error:
            log.warning("the schedule is unreachable: %s", error)
            return [Sentence(SCHEDULE_UNREACHABLE)]

    def _carry_out(self, intent: Intent, now: Now) -> list[ReplyPart]:
        handlers: dict[type, Callable[..., list[ReplyPart]]] = {
            SetTimer: self._set_timer,
            TimeLeft: self._on_timer,
            CancelTimer: self._on_timer,
            AddTime: self._on_timer,
            PauseTimer: self._on_timer,
            ResumeTimer: self._on_timer,
            ListTimers: self._list_timers,
            SetAlarm: self._set_alarm,
            ListAlarms: self._list_alarms,
            CancelAlarm: self._cancel_alarm,
            SetReminder: self._set_reminder,
            Announce: self._announce,
            ListReminders: self._list_reminders,
            CancelReminder: self._cancel_reminder,
            SetRoutine: self._set_routine,
        }
        return handlers[type(intent)](intent, now)

    def _set_timer(self, intent: SetTimer, now: Now) -> list[ReplyPart]:
        if intent.seconds is None:
            return self._ask(_AskMissing(intent), "For how long?")
        if intent.seconds <= 0:
            unset = SetTimer(None, intent.name)
            return self._ask(_AskMissing(unset), "A timer needs a length. For how long?")
        if intent.seconds > LONGEST_SECONDS:
            return [
                Sentence(
                    f"I can set a timer for up to {LONGEST_SAID}, not {say_length(intent.seconds)}."
                )
            ]
        scheduler = self._scheduler()
        item, started = scheduler.add_timer(now, intent.seconds, intent.name, self.zone.key)
        label = f"{item.name.capitalize()} timer" if item.name else "Timer"
        return [
            Note(started.event, started.fields()),
            Sentence(f"{label} set for {say_length(intent.seconds)}."),
        ]

    def _on_timer(self, intent: Intent, now: Now) -> list[ReplyPart]:
        timers = self._scheduler().active(ItemKind.TIMER)
        if not timers:
            return self._no_timers_here(now)
        name = getattr(intent, "name", None)
        if isinstance(intent, CancelTimer) and intent.every:
            return self._cancel_timers(timers, now)
        if name:
            match = _by_name(name, timers)
            if match is not None:
                return self._timer_action(intent, [match], now)
        if len(timers) == 1 and not name:
            return self._timer_action(intent, timers, now)
        if isinstance(intent, ResumeTimer | PauseTimer):
            wanted = ItemState.PAUSED if isinstance(intent, ResumeTimer) else ItemState.PENDING
            fitting = [timer for timer in timers if timer.state is wanted]
            if len(fitting) == 1 and not name:
                return self._timer_action(intent, fitting, now)
        count = "one timer" if len(timers) == 1 else f"{len(timers)} timers"
        question = f"You have {count}: {self._left(timers, now)}. Which one?"
        if name and _by_name(name, timers) is None:
            question = f"I don't have a timer called {name}. " + question
        return self._ask(_WhichTimer(intent, tuple(timers)), question, timers)

    def _timer_action(self, intent: Intent, timers: list[Item], now: Now) -> list[ReplyPart]:
        scheduler = self._scheduler()
        if isinstance(intent, CancelTimer):
            return self._cancel_timers(timers, now)
        timer = timers[0]
        label = timer_label(timer)
        try:
            if isinstance(intent, TimeLeft):
                left = self._left([timer], now, only=True)
                paused = " It's paused." if timer.state is ItemState.PAUSED else ""
                return [Sentence(f"{left} left on your {label}.{paused}")]
            if isinstance(intent, AddTime):
                if (timer.left(now) or 0.0) + intent.seconds > LONGEST_SECONDS:
                    return [
                        Sentence(
                            f"A timer can run for up to {LONGEST_SAID}; I've left it as it was."
                        )
                    ]
                longer = scheduler.add_time(now, timer.id, intent.seconds)
                return [
                    Note("timer_changed", {"item_id": timer.id, "added_seconds": intent.seconds}),
                    Sentence(
                        f"Added {say_length(intent.seconds)} to your {label}. "
                        f"{say_length(longer.left(now) or 0.0)} left."
                    ),
                ]
            if isinstance(intent, PauseTimer):
                paused_item = scheduler.pause(now, timer.id)
                left = say_length(paused_item.left(now) or 0.0)
                return [
                    Note("timer_paused", {"item_id": timer.id}),
                    Sentence(f"Your {label} is paused with {left} left."),
                ]
            resumed = scheduler.resume(now, timer.id)
            left = say_length(resumed.left(now) or 0.0)
            return [
                Note("timer_resumed", {"item_id": timer.id}),
                Sentence(f"Your {label} is running again, {left} left."),
            ]
        except ScheduleError:
            state = "paused" if timer.state is ItemState.PAUSED else "running"
            return [Sentence(f"Your {label} is already {state}.")]

    def _cancel_timers(self, timers: list[Item], now: Now) -> list[ReplyPart]:
        scheduler = self._scheduler()
        parts: list[ReplyPart] = []
        for timer in timers:
            scheduler.cancel(now, timer.id)
            parts.append(Note("timer_cancelled", {"item_id": timer.id}))
        if len(timers) == 1:
            parts.append(Sentence(f"{_capital(timer_label(timers[0]))} cancelled."))
        else:
            parts.append(Sentence(f"All {len(timers)} timers cancelled."))
        return parts

    def _list_timers(self, intent: ListTimers, now: Now) -> list[ReplyPart]:
        timers = self._scheduler().active(ItemKind.TIMER)
        if not timers:
            return self._no_timers_here(now)
        if len(timers) == 1:
            return [Sentence(f"One timer: {self._left(timers, now)}.")]
        return [Sentence(f"You have {len(timers)} timers: {self._left(timers, now)}.")]

    def _no_timers_here(self, now: Now) -> list[ReplyPart]:
        """None in this room: said so, and on a shared schedule the other rooms' (a timer rings
        where it was set, and "no timers running" is not true of the household)."""
        scheduler = self._scheduler()
        here = scheduler.store.room
        elsewhere: dict[str, list[Item]] = {}
        for timer in scheduler.active(ItemKind.TIMER, all_rooms=True):
            if timer.room not in (here, EVERY_ROOM, None):
                elsewhere.setdefault(timer.room, []).append(timer)
        if not elsewhere:
            return [Sentence("You have no timers running.")]
        said = [
            f"the {room} has {'one' if len(timers) == 1 else len(timers)}: "
            f"{self._left(timers, now)}"
            for room, timers in elsewhere.items()
        ]
        return [Sentence(f"No timers are running here; {say_list(said)}.")]

    def _left(self, timers: list[Item], now: Now, only: bool = False) -> str:
        lefts = [timer.left(now) or 0.0 for timer in timers]
        if only:
            return _capital(say_length(lefts[0]))
        return timers_left(timers, lefts)

    # -- alarms, reminders, routines ---------------------------------------------------------------

    def _set_alarm(self, intent: SetAlarm, now: Now) -> list[ReplyPart]:
        if intent.when == When():
            return self._ask(_AskMissing(intent), "What time should I set the alarm for?")
        try:
            item, moment = self._store_at(
                ItemKind.ALARM, intent.when, intent.repeat, now, wake_up=intent.wake_up
            )
        except NoSuchDate as error:
            return [Sentence(f"{error} When should it be?")]
        except WhenError:
            return [Sentence("That time has already passed. What time should it be?")]
        return [
            Note("alarm_set", {"item_id": item.id, "due_at": item.due_at, "rule": item.rule}),
            Sentence(f"Alarm set for {self._when_said(item, moment, now)}."),
        ]

    def _list_alarms(self, intent: ListAlarms, now: Now) -> list[ReplyPart]:
        alarms = self._scheduler().active(ItemKind.ALARM)
        if not alarms:
            return [Sentence("You have no alarms set.")]
        said = [self._item_when(alarm, now) for alarm in alarms]
        count = "one alarm" if len(alarms) == 1 else f"{len(alarms)} alarms"
        return [Sentence(f"You have {count}: {say_list(said)}.")]

    def _cancel_alarm(self, intent: CancelAlarm, now: Now) -> list[ReplyPart]:
        alarms = self._scheduler().active(ItemKind.ALARM)
        if not alarms:
            return [Sentence("You have no alarms set.")]
        if intent.every:
            return self._cancel_items(alarms, now, "alarm")
        if intent.time is not None:
            asked = intent.time
            fitting = [
                alarm
                for alarm in alarms
                if _rings_at(asked, local(Now(alarm.due_at or 0.0, 0.0, ""), ZoneInfo(alarm.zone)))
            ]
            if len(fitting) == 1:
                return self._cancel_items(fitting, now, "alarm")
            if not fitting:
                # Another alarm is no answer: cancelling it would silence the morning the
                # speaker meant to keep ("Cancel my alarm at 7 AM" with one at 7 PM).
                said = say_list([self._item_when(alarm, now) for alarm in alarms])
                yours = "Your alarm is" if len(alarms) == 1 else "Your alarms are"
                return [Sentence(f"You have no alarm at {_clock_said(asked)}. {yours} at {said}.")]
        elif len(alarms) == 1:
            return self._cancel_items(alarms, now, "alarm")
        said = say_list([self._item_when(alarm, now) for alarm in alarms])
        question = f"You have {len(alarms)} alarms: {said}. Which one?"
        return self._ask(_WhichAlarm(intent, tuple(alarms)), question)

    def _set_reminder(self, intent: SetReminder, now: Now) -> list[ReplyPart]:
        if intent.when == When() and intent.repeat is None:
            return self._ask(_AskMissing(intent), "When should I remind you?")
        room = self._room_of(intent.place)
        if isinstance(room, Sentence):
            return [room]
        try:
            item, moment = self._store_at(
                ItemKind.REMINDER, intent.when, intent.repeat, now, text=intent.text, room=room
            )
        except NoSuchDate as error:
            return [Sentence(f"{error} When should I remind you?")]
        except WhenError:
            return [Sentence("That time has already passed. When should I remind you?")]
        what = to_second_person(intent.text)
        whom = "you" if room is None else _room_said(room, "everyone", "you ")
        when = self._when_said(item, moment, now)
        return [
            Note("reminder_set", _item_fields(item)),
            Sentence(f"Okay, I'll remind {whom} to {what} at {when}."),
        ]

    def _announce(self, intent: Announce, now: Now) -> list[ReplyPart]:
        # An announcement is a reminder due now in the shared schedule: the Hearths of its room
        # (each room of the household for EVERY_ROOM) say it at their next wake, as they would
        # any reminder.
        room = self._room_of(intent.place or Place(everywhere=True))
        if isinstance(room, Sentence):
            return [room]
        item = self._scheduler().add_at(
            now, ItemKind.REMINDER, local(now, self.zone), text=intent.text, room=room
        )
        return [
            Note("announcement_set", {"item_id": item.id, "room": item.room}),
            Sentence(f"Okay, announcing it {_room_said(room, 'to everyone')}."),
        ]

    def _room_of(self, place: Place | None) -> str | Sentence | None:
        """The stored room a spoken place names (None: this Hearth's), or a Sentence saying the
        room is not known: a room is known when a Hearth of the household is in it."""
        if place is None:
            return None
        if place.everywhere:
            return EVERY_ROOM
        assert place.room is not None
        known = self._scheduler().store.known_rooms()
        for room in known:
            if _room_key(room) == _room_key(place.room):
                return room
        rooms = say_list([f"the {room}" for room in known])
        return Sentence(f"I don't know a room called {place.room}. I know {rooms}.")

    def _list_reminders(self, intent: ListReminders, now: Now) -> list[ReplyPart]:
        reminders = self._scheduler().active(ItemKind.REMINDER)
        if not reminders:
            return [Sentence("You have no reminders set.")]
        said = [
            f"{to_second_person(item.text or '')} at {self._item_when(item, now)}"
            for item in reminders
        ]
        count = "one reminder" if len(reminders) == 1 else f"{len(reminders)} reminders"
        return [Sentence(f"You have {count}: {say_list(said)}.")]

    def _cancel_reminder(self, intent: CancelReminder, now: Now) -> list[ReplyPart]:
        reminders = self._scheduler().active(ItemKind.REMINDER)
        if intent.about:
            # Named, it may be one set here for another room: the household's reminders count.
            household = self._scheduler().active(ItemKind.REMINDER, all_rooms=True)
            named = max(household, key=lambda item: _likeness(intent.about or "", item.text or ""),
                        default=None)  # fmt: skip
            if named is not None and _likeness(intent.about, named.text or "") >= NAME_SIMILARITY:
                return self._cancel_items([named], now, "reminder")
            if reminders and _names_something(intent.about):
                # Another reminder is no answer: the one meant may never have been set.
                about = to_second_person(intent.about)
                said = say_list([to_second_person(item.text or "") for item in reminders])
                return [Sentence(f"You have no reminder to {about}. You have one to {said}.")]
        if not reminders:
            return [Sentence("You have no reminders set.")]
        if intent.every:
            return self._cancel_items(reminders, now, "reminder")
        if len(reminders) == 1:
            return self._cancel_items(reminders, now, "reminder")
        said = say_list([to_second_person(item.text or "") for item in reminders])
        return [Sentence(f"You have {len(reminders)} reminders: {said}. Say which one to cancel.")]

    def _set_routine(self, intent: SetRoutine, now: Now) -> list[ReplyPart]:
        try:
            item, moment = self._store_at(
                ItemKind.ROUTINE,
                intent.when,
                intent.repeat,
                now,
                text=intent.prompt,
                silent=intent.silent,
            )
        except NoSuchDate as error:
            return [Sentence(str(error))]
        except WhenError:
            return [Sentence("I couldn't work out when that should happen.")]
        what = to_second_person(intent.prompt)
        quietly = " quietly, without saying it," if intent.silent else ""
        return [
            Note("routine_set", {"item_id": item.id, "due_at": item.due_at, "rule": item.rule}),
            Sentence(
                f"Okay. {_capital(self._when_said(item, moment, now))}, I'll{quietly} {what}."
            ),
        ]

    def _volume(self, intent: Volume) -> list[ReplyPart]:
        assert self.volume is not None
        old = self.volume.output()
        new = changed_level(old, intent)
        kept = self.volume.keep_output(new)
        fields = {"change": str(intent.change), "percent": new.percent, "muted": new.muted}
        parts: list[ReplyPart] = [Note("volume", {**fields, "kept": kept}), VolumeSet(new)]
        said = volume_said(old, new, intent)
        if said is not None:
            parts.append(Sentence(said if kept else f"{said} I couldn't save it for later."))
        return parts

    def _cancel_items(self, items: list[Item], now: Now, noun: str) -> list[ReplyPart]:
        scheduler = self._scheduler()
        parts: list[ReplyPart] = []
        for item in items:
            scheduler.cancel(now, item.id)
            parts.append(Note(f"{noun}_cancelled", {"item_id": item.id}))
        if len(items) == 1:
            said = f"for {self._item_when(items[0], now)}"
            if noun == "reminder":
                said = f"to {to_second_person(items[0].text or '')}"
            parts.append(Sentence(f"Cancelled your {noun} {said}."))
        else:
            parts.append(Sentence(f"Cancelled all {len(items)} {noun}s."))
        return parts

    def _store_at(
        self,
        kind: ItemKind,
        when: When,
        repeat: Repeat | None,
        now: Now,
        wake_up: bool = False,
        text: str | None = None,
        silent: bool = False,
        room: str | None = None,
    ) -> tuple[Item, datetime]:
        today = local(now, self.zone)
        if repeat is not None:
            moment, rule = repeating(repeat, when, today, wake_up)
        else:
            moment = resolve_when(when, today, wake_up)
            rule = None
        item = self._scheduler().add_at(
            now, kind, moment, rule=rule, text=text, silent=silent, room=room
        )
        return item, moment

    def _when_said(self, item: Item, moment: datetime, now: Now) -> str:
        if item.rule:
            # The rule's wall time: its first day may lack it ("1:30 every day" rings at 2:30
            # on the night the clocks skip 1:30, and was said as "2:30 AM every day").
            kept = rule_time(item.rule)
            said = moment if kept is None else moment.replace(hour=kept[0], minute=kept[1])
            return f"{spoken_time(said)} {say_repeat(repeat_of_rule(item.rule))}"
        return say_moment(moment, local(now, self.zone))

    def _item_when(self, item: Item, now: Now) -> str:
        moment = local(Now(item.due_at or 0.0, 0.0, ""), ZoneInfo(item.zone))
        return self._when_said(item, moment, now)

    # -- questions and answers -----------------------------------------------------------------

    def _ask(
        self, pending: DeskQuestion, question: str, timers: list[Item] = ()
    ) -> list[ReplyPart]:
        self._pending = pending
        phrases = {f"item:{timer.id}": timer.name for timer in timers if timer.name}
        if phrases:
            phrases[ALL_ANSWER] = "All of them."
        hotwords = tuple(timer.name for timer in timers if timer.name)
        return [
            Note("schedule_question", {"text": question}),
            Sentence(question),
            AwaitAnswer(phrases, hotwords),
        ]

    def _answer(
        self, pending: DeskQuestion, heard: HeardUtterance, now: Now
    ) -> list[ReplyPart] | None:
        if isinstance(pending, _AskMissing):
            return self._fill_in(pending.request, heard.text, now)
        if isinstance(pending, _WhichAlarm):
            chosen = _choose_by_time(heard.text, pending.choices)
            return self._cancel_items(chosen, now, "alarm") if chosen else None
        chosen = _choose(heard, pending.choices)
        if chosen is None:
            return None
        live = {item.id for item in self._scheduler().active(ItemKind.TIMER)}
        chosen = [item for item in chosen if item.id in live]
        if not chosen:
            return [Sentence("That timer has already finished.")]
        if len(chosen) > 1 and not isinstance(pending.request, CancelTimer):
            return [Sentence(_capital(self._left(chosen, now)) + ".")]
        return self._timer_action(pending.request, chosen, now)

    def _fill_in(
        self, request: SetTimer | SetAlarm | SetReminder, text: str, now: Now
    ) -> list[ReplyPart] | None:
        words = normalise(text).split()
        if isinstance(request, SetTimer):
            found = find_duration(words)
            if found is None:
                return None
            return self._set_timer(SetTimer(found.seconds, request.name), now)
        when = find_when(words)
        if not when.anything:
            return None
        if isinstance(request, SetAlarm):
            return self._set_alarm(
                SetAlarm(when.when, when.repeat or request.repeat, request.wake_up), now
            )
        return self._set_reminder(
            SetReminder(request.text, when.when, when.repeat, request.place), now
        )

    def _scheduler(self) -> Scheduler:
        """The scheduler, opened now if it was not yet (raises ScheduleUnavailable)."""
        if self.scheduler is None:
            assert self._open_scheduler is not None
            self.scheduler = self._open_scheduler()
        return self.scheduler


def _likeness(heard: str, name: str) -> float:
    """How alike two names sound, 0 to 1 (spaces ignored: "past of" is "pasta")."""
    a, b = re.sub(r"\W", "", heard.lower()), re.sub(r"\W", "", name.lower())
    if not a or not b:
        return 0.0
    if a == b or (len(a) > 3 and (a in b or b in a)):
        return 1.0
    return SequenceMatcher(None, a, b).ratio()


def _by_name(name: str, timers: list[Item]) -> Item | None:
    """The timer a heard name means: alike enough, and clearly more alike than any other."""
    ranked = sorted(
        ((_likeness(name, timer.name or ""), timer) for timer in timers if timer.name),
        key=lambda pair: pair[0],
        reverse=True,
    )
    if not ranked or ranked[0][0] < NAME_SIMILARITY:
        return None
    if len(ranked) > 1 and ranked[0][0] - ranked[1][0] < NAME_MARGIN:
        return None
    return ranked[0][1]


def _item_fields(item: Item) -> dict[str, object]:
    """What a stored reminder's note says of it."""
    return {"item_id": item.id, "due_at": item.due_at, "rule": item.rule, "room": item.room}


def _room_key(room: str) -> str:
    """A room's name as compared: "Living_Room" and "the living room" are one room."""
    words = re.sub(r"[^a-z0-9]+", " ", room.casefold()).split()
    return " ".join(words[1:] if words[:1] == ["the"] else words)


CALENDAR_REPEAT_REFUSED = (
    "I can repeat things every day or on days of the week, but not every month or every year."
)
_CALENDAR_REPEAT = re.compile(r"\b(?:every|each) (?:other )?(?:month|year)\b")
"""A repetition the schedule does not keep. Not "monthly": "pay the monthly rent" is a
reminder's words."""


def _names_something(about: str) -> bool:
    """Whether a reminder asked for by its words names what it is about, not only when it is
    ("cancel my reminder for tomorrow", "... at 9")."""
    words = tokens(about)
    when = find_when(words).used
    return any(index not in when and word not in _NOT_ABOUT for index, word in enumerate(words))


_NOT_ABOUT = frozenset("for at on in the a an my to of".split())


def _rings_at(asked: ClockTime, moment: datetime) -> bool:
    """Whether an alarm ringing at ``moment`` is the one asked for: "7 AM" and "19:00" name one
    time of day, "7" either of two."""
    if asked.meridiem is not None:
        hour = asked.hour % 12 + (12 if asked.meridiem is Meridiem.PM else 0)
        return (moment.hour, moment.minute) == (hour, asked.minute)
    if asked.hour == 0 or asked.hour > 12:
        return (moment.hour, moment.minute) == (asked.hour, asked.minute)
    return (moment.hour % 12, moment.minute) == (asked.hour % 12, asked.minute)


def _clock_said(time: ClockTime) -> str:
    """A time of day as it was asked for: "6:00", "6:30 PM"."""
    hour = time.hour if time.meridiem is None else (time.hour % 12 or 12)
    meridiem = "" if time.meridiem is None else f" {time.meridiem.value.upper()}"
    return f"{hour}:{time.minute:02d}{meridiem}"


def _room_said(room: str, who: str, one: str = "") -> str:
    """Where a stored room is, as said: ``one`` "in the kitchen", or ``who`` "in every room"."""
    return f"{who} in every room" if room == EVERY_ROOM else f"{one}in the {room}"


def _capital(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


_ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "last": -1}


def _choose(heard: HeardUtterance, choices: tuple[Item, ...]) -> list[Item] | None:
    """The timers an answer to "which one?" means, or None when it is not an answer."""
    words = normalise(heard.text).split()
    if re.search(r"\b(?:all|both|every|each)\b", " ".join(words)):
        return list(choices)
    named = [item for item in choices if item.name]
    for word_count in (2, 1):
        for start in range(len(words) - word_count + 1):
            phrase = " ".join(words[start : start + word_count])
            match = _by_name(phrase, named) if len(phrase) > 2 else None
            if match is not None:
                return [match]
    for word in words:
        if word in _ORDINALS and len(choices) > abs(_ORDINALS[word]) - (word == "last"):
            return [choices[_ORDINALS[word]]]
    scores: Mapping[str, float] = heard.answer_scores
    ranked = sorted(
        ((score, key) for key, score in scores.items() if key.startswith("item:") or key == "all"),
        reverse=True,
    )
    if (
        ranked
        and ranked[0][0] >= MIN_ANSWER_SCORE
        and (len(ranked) == 1 or ranked[0][0] - ranked[1][0] >= SCORE_MARGIN)
    ):
        key = ranked[0][1]
        if key == ALL_ANSWER:
            return list(choices)
        return [item for item in choices if f"item:{item.id}" == key] or None
    return None


def _choose_by_time(text: str, alarms: tuple[Item, ...]) -> list[Item] | None:
    if re.search(r"\b(?:all|both|every)\b", text.lower()):
        return list(alarms)
    found = find_when(normalise(text).split())
    time = found.when.time
    if time is None:
        return None
    fitting = []
    for alarm in alarms:
        moment = local(Now(alarm.due_at or 0.0, 0.0, ""), ZoneInfo(alarm.zone))
        if (moment.hour % 12, moment.minute) == (time.hour % 12, time.minute):
            fitting.append(alarm)
    return fitting or None
