"""Spoken requests about the clock, timers, alarms, reminders, routines and volume, parsed locally.

``parse_request`` turns a transcript into a typed intent, or None when it is not such a request
(the language model takes it). Pure and instant: it works with Ollama down. It is written for what
tiny.en actually writes (``tests/schedule/data/heard.tsv``): digits or words, "7am", "6.30",
"10-minute", "Set in alarm", "at 5 minutes to the pasta timer" for "add five minutes ...".
A request must be about the schedule as a whole: "what time is it in Tokyo?" is the model's.
"""

from __future__ import annotations

import re

from assistant.schedule.durations import find_duration
from assistant.schedule.intents import (
    EVERYWHERE,
    AddTime,
    Announce,
    AskClock,
    CancelAlarm,
    CancelReminder,
    CancelTimer,
    ClockQuestion,
    Intent,
    ListAlarms,
    ListReminders,
    ListTimers,
    PauseTimer,
    Place,
    ResumeTimer,
    SetAlarm,
    SetReminder,
    SetRoutine,
    SetTimer,
    TimeLeft,
    Volume,
    VolumeChange,
    When,
)
from assistant.schedule.moments import find_when
from assistant.schedule.words import normalise

_POLITE = re.compile(
    r"^(?:(?:hey|ok|okay|so|and|um|uh|please|now|hearth|jarvis|alright|right)\s+)*"
    r"(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?(?:please\s+)?"
)
_TRAILING = re.compile(r"\s+(?:please|thanks|thank you|for me|now)$")

_CLOCK_QUESTIONS = (
    (ClockQuestion.TIME, re.compile(
        r"(?:what(?:'s| is)? the time|what time is it|what time it is|tell me the time|"
        r"(?:do you )?(?:know|have) (?:what time it is|the time)|the time)(?: now| right now)?"
    )),
    (ClockQuestion.DATE, re.compile(
        r"(?:what(?:'s| is)(?: the| today's) date|what date is it|what's today's date|"
        r"tell me the date|what is today's date)(?: today)?"
    )),
    (ClockQuestion.DAY, re.compile(
        r"(?:what(?:'s| is) the day|what day is it|what day is today|what day it is|"
        r"what's today|what is today|which day is it)(?: today)?"
    )),
)  # fmt: skip

# Words that are not a timer's name when they stand before "timer".
_NOT_NAMES = frozenset(
    "a an the my this that your one new another second first set start make create timer timers "
    "minute minutes second seconds hour hours for of to on up in it its is all every each any "
    "santa share it's and at what how long much".split()
)
_LIST_ALARMS = re.compile(
    r"(?:what|which) alarms?(?: do i have| have i got| are (?:set|on))?(?: set)?(?: for \w+)?|"
    r"(?:do i have|have i got|are there) (?:any|an) alarms?(?: set)?(?: for \w+)?|"
    r"(?:list|show|tell) (?:me )?(?:my |the |all )?alarms|"
    r"(?:when|what time) is my (?:next )?alarm(?: set for)?|my alarms"
)
_LIST_REMINDERS = re.compile(
    r"(?:what|which) reminders?(?: do i have| have i got| are (?:set|there))?|"
    r"(?:do i have|have i got|are there) any reminders?|"
    r"(?:list|show|tell) (?:me )?(?:my |the |all )?reminders|my reminders"
)
_CANCEL = ("cancel", "stop", "delete", "remove", "clear", "end", "kill", "turn", "console", "can")
_SET = ("set", "start", "make", "create", "put", "give", "add", "santa", "share", "begin")


def parse_request(utterance: str) -> Intent | None:
    """The intent of ``utterance``, or None when it is for the model."""
    text = _TRAILING.sub("", _POLITE.sub("", normalise(utterance)))
    if not text:
        return None
    for parse in (_clock, _volume, _timer, _alarm, _announce, _reminder, _routine):
        intent = parse(text)
        if intent is not None:
            return intent
    return None


# -- the clock and the volume ---------------------------------------------------------------------


def _clock(text: str) -> AskClock | None:
    for question, pattern in _CLOCK_QUESTIONS:
        if pattern.fullmatch(text):
            return AskClock(question)
    return None


def _volume(text: str) -> Volume | None:
    if re.fullmatch(r"(?:un ?mute|unmute yourself|turn (?:the )?sound back on)", text):
        return Volume(VolumeChange.UNMUTE)
    if re.fullmatch(r"(?:mute|mute yourself|be muted|silence)", text):
        return Volume(VolumeChange.MUTE)
    up = (
        r"(?:(?:turn|put) (?:the )?(?:volume|sound|it) up|(?:volume|sound) up|louder|speak up|"
        r"(?:a bit |a little )?louder(?: please)?|raise the volume|increase the volume)"
    )
    down = (
        r"(?:(?:turn|put) (?:the )?(?:volume|sound|it) down|(?:volume|sound) down|quieter|"
        r"softer|(?:a bit |a little )?quieter|lower the volume|decrease the volume)"
    )
    if re.fullmatch(up, text):
        return Volume(VolumeChange.UP)
    if re.fullmatch(down, text):
        return Volume(VolumeChange.DOWN)
    match = re.fullmatch(
        r"(?:set |turn |put |change )?(?:the |your )?volume (?:to |at )?(\d{1,3})(?: percent)?",
        text,
    )
    if match and int(match.group(1)) <= 100:
        return Volume(VolumeChange.SET, int(match.group(1)))
    return None


# -- timers ---------------------------------------------------------------------------------------


def _timer(text: str) -> Intent | None:
    words = text.split()
    mentions_timer = "timer" in words or "timers" in words
    if re.fullmatch(r"how (?:long|much time)(?: is| has| does)? (?:left|remaining|to go)"
                    r"(?: on (?:the |my )?(?:\w+ )*timer)?", text) or (
        mentions_timer and re.match(r"how (?:long|much)", text)
    ) or (  # "what's left on the pasta timer?", a misheard "how on is left on the egg timer?"
        mentions_timer and re.match(r"(?:how|what)\b", text)
        and re.search(r"\b(?:left|remaining|to go)\b", text)
    ):  # fmt: skip
        return TimeLeft(_timer_name(words))
    if re.fullmatch(r"(?:what|which) timers (?:do i have|are (?:running|set|on))|"
                    r"(?:list|show) (?:me )?(?:my |the |all )?timers|how many timers"
                    r"(?: do i have| are (?:running|set))?", text):  # fmt: skip
        return ListTimers()
    if not mentions_timer and not re.match(r"(?:time|timer) for ", text):
        return None
    first = words[0]
    if first in _CANCEL or re.match(r"(?:turn off|switch off|get rid of) ", text):
        if re.search(r"\b(?:all|every|both)\b", text) or "timers" in words:
            return CancelTimer(every=True)
        return CancelTimer(_timer_name(words))
    if first in ("pause", "hold", "freeze"):
        return PauseTimer(_timer_name(words))
    if first in ("resume", "continue", "unpause", "restart", "unfreeze"):
        return ResumeTimer(_timer_name(words))
    duration = find_duration(words)
    if duration is None:
        # "set a timer": the desk asks for how long
        return SetTimer(None, _timer_name(words)) if first in _SET else None
    before = words[: duration.start]
    after = words[duration.end :]
    # "add 5 minutes to the pasta timer"; tiny.en: "at 5 minutes to ...", "and 5 minutes to ..."
    onto = any(w in ("to", "on", "onto") for w in after[:2]) and "timer" in after
    if onto or (before[:1] == ["add"] and "to" in after):
        return AddTime(duration.seconds, _timer_name(after))
    name = _named(after) or _timer_name([*before, "|", *after])
    # "minus five minutes" is no length: the desk says so, rather than set five minutes.
    sign = -1.0 if before[-1:] in (["minus"], ["negative"]) else 1.0
    return SetTimer(sign * duration.seconds, name)


def _timer_name(words: list[str]) -> str | None:
    """The name in "... the pasta timer", "called pasta", "for the eggs"."""
    named = _named(words)
    if named:
        return named
    for index, word in enumerate(words):
        if word in ("timer", "timers") and index > 0:
            name = []
            cursor = index - 1
            while cursor >= 0 and words[cursor] not in _NOT_NAMES and words[cursor] != "|":
                if re.fullmatch(r"\d+(?:\.\d+)?|\d+(?:st|nd|rd|th)", words[cursor]):
                    break
                name.insert(0, words[cursor])
                cursor -= 1
            if name:
                return " ".join(name[-2:])
    return None


def _named(words: list[str]) -> str | None:
    for index, word in enumerate(words):
        if word in ("called", "named", "labelled", "labeled") and index + 1 < len(words):
            return " ".join(words[index + 1 : index + 3])
    if len(words) >= 2 and words[0] == "for":
        rest = words[2:] if words[1] in ("the", "my") else words[1:]
        rest = [w for w in rest if w not in ("timer", "|")]
        if rest and len(rest) <= 2 and not any(w in _NOT_NAMES for w in rest):
            return " ".join(rest)
    return None


# -- alarms, reminders, routines ------------------------------------------------------------------


def _alarm(text: str) -> Intent | None:
    words = text.split()
    wake = re.match(r"wake (?:me|us)(?: up)?\b", text) is not None
    if not wake and not ({"alarm", "alarms"} & set(words)):
        return None
    if _LIST_ALARMS.fullmatch(text):
        return ListAlarms()
    found = find_when(words)
    if words[0] in _CANCEL or re.match(r"(?:turn off|switch off|get rid of) ", text):
        every = bool(re.search(r"\b(?:all|every|both)\b", text)) or "alarms" in words
        return CancelAlarm(found.when.time, every)
    heard_time = found.when != When()
    if not (wake or heard_time or words[0] in _SET or words[:2] == ["alarm", "for"]):
        return None
    # With no time heard ("set an alarm for half passics"), the desk asks for one.
    return SetAlarm(found.when, found.repeat, wake_up=wake)


def _reminder(text: str) -> Intent | None:
    words = text.split()
    if _LIST_REMINDERS.fullmatch(text):
        return ListReminders()
    if words[0] in _CANCEL and re.search(r"\breminders?\b", text):
        every = bool(re.search(r"\b(?:all|every)\b", text)) or "reminders" in words
        about = re.sub(r"^.*?\breminders?\b\s*(?:to|about|for)?\s*", "", text).strip() or None
        return CancelReminder(None if every else about, every)
    match = re.search(r"\bremind (?:(me|us)|everyone|everybody|all of us)\b", text)
    if match is None:
        return None
    found = find_when(words)
    start = len(text[: match.end()].split())
    kept = [w for i, w in enumerate(words) if i >= start and i not in found.used]
    place, kept = _place(kept)
    if match.group(1) is None:
        place = EVERYWHERE
    if not found.anything and kept[:1] not in (["to"], ["about"], ["that"]):
        return None  # "remind me what we talked about" is a question for the model
    while kept and kept[0] in ("to", "that", "about", "of", "and"):
        kept.pop(0)
    while kept and kept[-1] in ("at", "on", "in", "by", "and"):
        kept.pop()
    if not kept:
        return None
    return SetReminder(" ".join(kept), found.when, found.repeat, place)


_EVERYWHERE = re.compile(
    r"(?:everywhere|to everyone|to everybody|in (?:every|each|all(?: the)?) rooms?|"
    r"(?:in|to|throughout) the (?:whole )?house|to all rooms)\b"
)
_ROOM_WORDS = 3
"""The most words a room's name takes ("the downstairs guest room")."""


def _place(words: list[str]) -> tuple[Place | None, list[str]]:
    """The room named at the start of ``words`` ("in the living room ...", "everywhere ..."),
    and the words after it."""
    text = " ".join(words)
    every = _EVERYWHERE.match(text)
    if every:
        return EVERYWHERE, text[every.end() :].split()
    if words[:1] != ["in"]:
        return None, words
    name = words[2:] if words[1:2] == ["the"] else words[1:]
    for end, word in enumerate(name[: _ROOM_WORDS + 1]):
        if word in ("to", "that", "about", "and"):
            if end == 0:
                return None, words
            return Place(" ".join(name[:end])), name[end:]
    if 0 < len(name) <= _ROOM_WORDS:  # "announce in the kitchen": a room and nothing to say
        return Place(" ".join(name)), []
    return None, words


def _announce(text: str) -> Announce | None:
    match = re.match(r"(?:make an |an )?announce(?:ment)?\b\s*", text)
    if match is None:
        return None
    place, kept = _place(text[match.end() :].split())
    while kept and kept[0] in ("that", "to", "and"):
        kept.pop(0)
    return Announce(" ".join(kept), place) if kept else None


def _routine(text: str) -> SetRoutine | None:
    words = text.split()
    found = find_when(words)
    if found.repeat is None or found.when.time is None:
        return None
    silent = bool(re.search(r"\b(?:silently|quietly|without (?:saying|speaking))\b", text))
    kept = [w for i, w in enumerate(words) if i not in found.used]
    kept = [w for w in kept if w not in ("silently", "quietly")]
    while kept and kept[0] in ("and", "then", "please"):
        kept.pop(0)
    if len(kept) < 2 or kept[0] not in (
        "give", "tell", "say", "read", "ask", "check", "summarise", "summarize", "suggest",
        "share", "run", "make", "write", "remind", "offer", "find",
    ):  # fmt: skip
        return None
    return SetRoutine(" ".join(kept), found.when, found.repeat, silent)
