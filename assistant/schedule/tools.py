"""The schedule's tools for a model that calls tools: their schemas, and a dispatcher that turns
a call into the desk's real action (a timer stored and set to ring) and its result in words.

Arguments are checked here, not trusted: a call with a bad argument does nothing and says why,
so the model can tell the person. Whether a call changed anything is read from the store itself
(the active items before and after), so a reply's claim can be checked against what was done.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from assistant.action_claims import ActionKind
from assistant.model_tools import ToolOutcome
from assistant.reply import AwaitAnswer, Note, Sentence
from assistant.schedule.desk import ScheduleDesk
from assistant.schedule.durations import LONGEST_SECONDS
from assistant.schedule.intents import (
    EVERYWHERE,
    AddTime,
    Announce,
    CancelAlarm,
    CancelTimer,
    ClockTime,
    Intent,
    ListAlarms,
    ListTimers,
    Meridiem,
    PauseTimer,
    Place,
    ResumeTimer,
    SetAlarm,
    SetReminder,
    SetTimer,
    When,
)
from assistant.schedule.timing import localize_after, to_utc

MAX_TEXT_CHARS = 200
"""A reminder or an announcement is said when it comes due, outside any reply's budget: a
model's 3,000-character one was said for over two minutes."""
MAX_NAME_CHARS = 40
"""A timer's name ("eggs", "the pasta") is said in every ring: "Your ... timer is done"."""

ABILITIES = (
    "You can set timers (set_timer), add time to one (add_time), pause (pause_timer) and resume "
    "(resume_timer) one, cancel timers (cancel_timer) and list them (list_timers); set reminders "
    "(set_reminder), for this room, another room or every room; announce something now in a "
    "room or every room (announce); set alarms (set_alarm), cancel them (cancel_alarm) and list "
    "them (list_alarms), by calling the tools given. Call a tool whenever the user asks for one of "
    "these, in any words. Say that something was set or cancelled only when the tool's result "
    "says it was; if a result is an error, say you couldn't do it. Routines are set by Hearth "
    "itself when the user says so directly; you cannot set them."
)


def _function(name: str, description: str, properties: dict[str, Any], required: list[str]):
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {"type": "object", "properties": properties, "required": required},
        },
    }


EVERY_ROOM_WORDS = frozenset({"every", "everywhere", "every room", "all", "all rooms", "everyone"})
"""What a tool's ``room`` may say for every room of the household."""
_ROOM = {
    "type": "string",
    "description": 'The room it is for, e.g. kitchen, or "every" for every room; this room '
    "when left out.",
}

SCHEMAS: tuple[dict[str, Any], ...] = (
    _function(
        "set_timer",
        "Start a countdown timer that rings when it ends.",
        {
            "seconds": {"type": "number", "description": "How long the timer runs, in seconds."},
            "name": {"type": "string", "description": "A short name, e.g. eggs or pasta."},
        },
        ["seconds"],
    ),
    _function(
        "set_reminder",
        "Say a reminder aloud later: give in_seconds (from now) or at (a local time).",
        {
            "text": {"type": "string", "description": "What to remind of, e.g. call mum."},
            "in_seconds": {"type": "number", "description": "Seconds from now."},
            "at": {"type": "string", "description": "Local date and time, ISO 8601."},
            "room": _ROOM,
        },
        ["text"],
    ),
    _function(
        "announce",
        "Say something aloud now, in every room of the house or in one room.",
        {
            "text": {"type": "string", "description": "What to say, e.g. dinner is ready."},
            "room": {**_ROOM, "description": "A room's name; every room when left out."},
        },
        ["text"],
    ),
    _function(
        "cancel_timer",
        "Cancel a running timer (by name), or every timer.",
        {
            "name": {"type": "string", "description": "The timer's name, if it has one."},
            "all": {"type": "boolean", "description": "Cancel every timer."},
        },
        [],
    ),
    _function("list_timers", "The running timers and how long each has left.", {}, []),
    _function(
        "add_time",
        "Add time to a running timer (by name, if there are several).",
        {
            "seconds": {"type": "number", "description": "How much longer, in seconds."},
            "name": {"type": "string", "description": "The timer's name, if it has one."},
        },
        ["seconds"],
    ),
    _function(
        "pause_timer",
        "Pause a running timer (by name, if there are several).",
        {"name": {"type": "string", "description": "The timer's name, if it has one."}},
        [],
    ),
    _function(
        "resume_timer",
        "Resume a paused timer (by name, if there are several).",
        {"name": {"type": "string", "description": "The timer's name, if it has one."}},
        [],
    ),
    _function(
        "set_alarm",
        "Set an alarm that rings at a local time.",
        {"at": {"type": "string", "description": "Local date and time, ISO 8601."}},
        ["at"],
    ),
    _function(
        "cancel_alarm",
        "Cancel the alarm at a time, or every alarm.",
        {
            "time": {"type": "string", "description": "The alarm's local time, HH:MM (24 h)."},
            "all": {"type": "boolean", "description": "Cancel every alarm."},
        },
        [],
    ),
    _function("list_alarms", "The alarms that are set.", {}, []),
)


class ToolArgumentError(ValueError):
    """A tool call's arguments cannot be carried out (missing, of the wrong type, impossible)."""


class ScheduleTools:
    """The schedule's tools, carried out on a desk that has a scheduler."""

    schemas = SCHEMAS
    abilities = ABILITIES
    kind = ActionKind.SCHEDULE

    def __init__(self, desk: ScheduleDesk):
        if not desk.can_act:
            raise ValueError("the desk has no scheduler: tools would promise what cannot ring")
        self.desk = desk

    def run(self, name: str, arguments: Mapping[str, Any], audio_seconds: float) -> ToolOutcome:
        """Carry out one call at ``audio_seconds``; an unknown tool or a bad argument does
        nothing, and the result says why."""
        try:
            intent = self._intent(name, arguments, audio_seconds)
        except ToolArgumentError as error:
            return ToolOutcome(f"Error: {error}")
        before = self._stored()
        parts = self.desk.act(intent, audio_seconds)
        said = " ".join(part.text for part in parts if isinstance(part, Sentence))
        kept = tuple(part for part in parts if isinstance(part, Note | AwaitAnswer))
        return ToolOutcome(said, kept, self._stored() != before)

    def _intent(self, name: str, arguments: Mapping[str, Any], audio_seconds: float) -> Intent:
        if name == "set_timer":
            return SetTimer(_seconds(arguments, "seconds"), _name(arguments))
        if name == "set_reminder":
            text = _words(arguments, "text", "what to remind of")
            after = self._after(arguments, audio_seconds)
            return SetReminder(text, When(after_seconds=after), place=_place(arguments))
        if name == "announce":
            return Announce(_words(arguments, "text", "what to announce"), _place(arguments))
        if name == "cancel_timer":
            return CancelTimer(_name(arguments), every=arguments.get("all") is True)
        if name == "list_timers":
            return ListTimers()
        if name == "add_time":
            return AddTime(_seconds(arguments, "seconds"), _name(arguments))
        if name == "pause_timer":
            return PauseTimer(_name(arguments))
        if name == "resume_timer":
            return ResumeTimer(_name(arguments))
        if name == "set_alarm":
            if not isinstance(arguments.get("at"), str):
                raise ToolArgumentError("at is required: the alarm's local date and time")
            return SetAlarm(When(after_seconds=self._after(arguments, audio_seconds)))
        if name == "cancel_alarm":
            return CancelAlarm(_clock_time(arguments), every=arguments.get("all") is True)
        if name == "list_alarms":
            return ListAlarms()
        raise ToolArgumentError(f"there is no tool named {name!r}")

    def _after(self, arguments: Mapping[str, Any], audio_seconds: float) -> float:
        if arguments.get("in_seconds") is not None:
            return _seconds(arguments, "in_seconds")
        at = arguments.get("at")
        if not isinstance(at, str):
            raise ToolArgumentError("give in_seconds or at")
        try:
            moment = datetime.fromisoformat(at.strip())
        except ValueError:
            raise ToolArgumentError(f"at={at!r} is not an ISO 8601 date and time") from None
        now = self.desk.local_now(audio_seconds)
        if moment.tzinfo is None:
            # As a time said aloud: one the clocks skip moves forward by the gap, one they
            # repeat is its next occurrence.
            moment = localize_after(moment, now.tzinfo, now)
        # In UTC: two times in one zone subtract as wall clocks, an hour off across a change.
        after = to_utc(moment) - to_utc(now)
        if after <= 0:
            raise ToolArgumentError(f"{at} has already passed (it is now {now:%Y-%m-%dT%H:%M})")
        if after > LONGEST_SECONDS:
            raise ToolArgumentError(f"{at} is more than a week away")
        return after

    def _stored(self) -> tuple[tuple[int, str, float | None], ...]:
        return tuple((item.id, item.state.value, item.due_at) for item in self.desk.active_items())


def _seconds(arguments: Mapping[str, Any], key: str) -> float:
    value = arguments.get(key)
    if isinstance(value, str):  # small models often quote numbers
        try:
            value = float(value)
        except ValueError:
            raise ToolArgumentError(f"{key}={value!r} is not a number of seconds") from None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ToolArgumentError(f"{key} must be a number of seconds")
    try:
        value = float(value)  # an integer of 400 digits has no float: OverflowError
    except OverflowError:
        raise ToolArgumentError(f"{key} must be from 1 second to a week") from None
    if not math.isfinite(value):
        raise ToolArgumentError(f"{key} must be a number of seconds")
    if not 1 <= value <= LONGEST_SECONDS:
        raise ToolArgumentError(f"{key}={value:g} must be from 1 second to a week")
    return float(value)


def _clock_time(arguments: Mapping[str, Any]) -> ClockTime | None:
    time = arguments.get("time")
    if time is None:
        return None
    hour, colon, minute = str(time).strip().partition(":")
    try:
        clock = ClockTime(int(hour), int(minute) if colon else 0)
    except ValueError:
        raise ToolArgumentError(f"time={time!r} is not HH:MM") from None
    if not (0 <= clock.hour <= 23 and 0 <= clock.minute <= 59):
        raise ToolArgumentError(f"time={time!r} is not a time of day")
    # 24-hour, as the tool says: "07:00" is the morning's, never the evening's.
    return ClockTime(clock.hour, clock.minute, Meridiem.AM if clock.hour < 12 else Meridiem.PM)


def _place(arguments: Mapping[str, Any]) -> Place | None:
    """The room a call names, as a spoken request's place: the desk resolves it against the
    known rooms (and refuses one no Hearth is in) exactly as it does a room said aloud."""
    room = arguments.get("room")
    if room is None:
        return None
    if not isinstance(room, str) or not room.strip():
        raise ToolArgumentError('room must be a room\'s name, or "every" for every room')
    name = " ".join(room.split())
    if name.casefold() in EVERY_ROOM_WORDS:
        return EVERYWHERE
    words = name.split()
    return Place(" ".join(words[1:] if words[0].casefold() == "the" and words[1:] else words))


def _words(arguments: Mapping[str, Any], key: str, what: str) -> str:
    """A text argument as it will be said: with words in it, and short enough to say."""
    text = arguments.get(key)
    text = text.strip().rstrip(".").strip() if isinstance(text, str) else ""
    if not any(character.isalnum() for character in text):
        raise ToolArgumentError(f"{key} is required: {what}")  # "." was "A reminder: ."
    if len(text) > MAX_TEXT_CHARS:
        raise ToolArgumentError(f"{key} is too long to say: at most {MAX_TEXT_CHARS} characters")
    return text


def _name(arguments: Mapping[str, Any]) -> str | None:
    name = arguments.get("name")
    if not isinstance(name, str):
        return None
    if len(name) > MAX_NAME_CHARS:
        raise ToolArgumentError(f"name is too long: a few words, at most {MAX_NAME_CHARS} "
                                "characters")  # fmt: skip
    # "eggs timer" and "the eggs" name the eggs timer: the desk says "Eggs timer".
    words = [w for w in name.lower().split() if w not in {"the", "timer", "my", "a"}]
    return " ".join(words) or None
