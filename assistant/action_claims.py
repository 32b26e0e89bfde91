"""Whether a sentence of a model's reply says that Hearth did something (set a timer, will remind
you, turned on the lights), so a claim no tool call backs is not said as it is.

Pure and conservative: it looks for a first-person or passive report of a schedule action ("I've
set a timer", "Timer set for seven minutes", "I'll remind you", "I'll give you a shout") or of a
home action ("I've turned on the kitchen lights", "The lights are now off", "Brightness set to
40%"), not for every mention of a timer or a light ("You could set a timer" is advice, "the
lights are on" a state, not a claim).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from enum import StrEnum

NOT_DONE = "I couldn't do that."
"""Said instead of a claim nothing backs."""


class ActionKind(StrEnum):
    """What a tool call changed, and what a claim says was changed."""

    SCHEDULE = "schedule"
    """A timer, alarm or reminder."""
    HOME = "home"
    """A device in the home."""


_DONE = (
    r"(?:set|started|created|scheduled|added|cancel+ed|stopped|deleted|removed|put|turned|"
    r"switched|dimmed|brightened|opened|closed|locked|unlocked|announced)"
)
_THING = r"(?:timer|alarm|reminder|countdown)s?"
_DEVICE = (
    r"(?:lights?|lamps?|lighting|fans?|heat(?:er|ing)|thermostat|plugs?|sockets?|switch(?:es)?|"
    r"blinds?|curtains?|shades?|covers?|doors?|locks?|tv|television|brightness)"
)
_DEEDS = re.compile(
    "|".join(
        (
            # "I've set a timer", "I have just started", "I set one", "I've gone ahead and set"
            rf"\bi(?:'ve| have)?\s+(?:just\s+|now\s+|already\s+|gone ahead and\s+)?{_DONE}\b",
            # "I'll remind you", "I will let you know", "I'll give you a shout", "I'll ring"
            r"\bi(?:'ll| will| shall)\s+(?:\w+\s+)?(?:remind|alert|notify|ping|ring|wake|"
            r"let you know|give you a (?:shout|call|ping|nudge|heads[- ]up)|tell you when)",
            # "the fan has been switched off", "Brightness set to 40%", "lights turned on"
            rf"\b{_DEVICE}\s+(?:(?:is|are|has been|have been|was|were)\s+)?(?:now\s+)?"
            r"(?:turned|switched|dimmed|brightened|set)\b",
            # "The kitchen lights are now on" (without "now", "the door is locked" is a state)
            rf"\b{_DEVICE}\s+(?:is|are)\s+now\s+(?:on|off|open|closed|locked|unlocked)\b",
            # "Done, seven minutes.", "All set!"
            r"^\s*(?:okay[,!.]?\s+|ok[,!.]?\s+|sure[,!.]?\s+)?(?:done|all set)\b",
        )
    ),
    re.IGNORECASE,
)
"""Claims that something was done just now: only this turn's tool calls back them."""

_REPORTS = re.compile(
    # "Timer set for seven minutes", "your reminder is set", "the eggs timer has started"
    rf"\b{_THING}\s+(?:(?:is|has been|was|are|have been)\s+)?(?:now\s+)?{_DONE}\b",
    re.IGNORECASE,
)
"""Claims that a timer, alarm or reminder stands: true too of one set in an earlier turn."""

_DENIED = re.compile(
    rf"\bno\s+(?:\w+\s+)?{_THING}\b"
    rf"|\b{_THING}\s+(?:is|are|was|were|has|have)(?:\s+not\b|n't\b|n't\s)",
    re.IGNORECASE,
)
"""A report that none stands ("You have no alarms set", "Your timer isn't set"): no claim."""

_NAMES = {
    ActionKind.SCHEDULE: re.compile(
        rf"\b(?:{_THING}|remind|alert|notify|ring|wake|shout|let you know|tell you when|announc)",
        re.IGNORECASE,
    ),
    ActionKind.HOME: re.compile(rf"\b{_DEVICE}\b", re.IGNORECASE),
}
"""What a claim names: "I've set a timer" is the schedule's, "I've turned on the lights" the
home's; "Done." names neither."""


def claims_action(sentence: str) -> bool:
    """True when ``sentence`` says a timer, alarm or reminder was set, changed or will ring, or
    a device in the home was switched (a typographic apostrophe read as a plain one)."""
    text = _plain(sentence)
    return _DEEDS.search(text) is not None or _REPORTS.search(text) is not None


def claimed_kinds(sentence: str) -> frozenset[ActionKind]:
    """The kinds of action a claim names (empty for a claim that names none, or no claim)."""
    text = _plain(sentence)
    return frozenset(kind for kind, named in _NAMES.items() if named.search(text))


def backed(sentence: str, acted: Collection[ActionKind], standing: Collection[str] = ()) -> str:
    """The sentence to say: as it is, unless it claims an action that no tool call of this turn
    took (``acted``: the kinds of action its calls took), when it is :data:`NOT_DONE` instead.
    A claim naming no kind ("Done.") is backed by any action; one naming the lights, only by a
    call that changed the home.

    ``standing`` names the schedule's items still to come (a timer's name, a reminder's text):
    a report that one stands ("Your pasta timer is set for eight minutes") is true of an item
    set in an earlier turn, so it is backed when it names one of them by a word of its own. An
    unnamed "Timer set." is not: it is how a model pretends to set a new one."""
    text = _plain(sentence)
    if _DEEDS.search(text) is None:
        if _REPORTS.search(text) is None or _DENIED.search(text):
            return sentence
        if ActionKind.SCHEDULE in acted or _names_any(text, standing):
            return sentence
        return NOT_DONE
    named = claimed_kinds(sentence)
    taken = named <= set(acted) if named else bool(acted)
    return sentence if taken else NOT_DONE


_WORD = re.compile(r"[a-z]+")
_CLOCK = re.compile(r"\d{1,2}(?::\d{2})? [ap]m")
"""An alarm's time as the schedule names it ("7 am", "6:30 pm")."""
_NOT_NAMING = frozenset(
    "the a an and for to of in on at my your you me it is are was has have been set timer timers "
    "alarm alarms reminder reminders minute minutes hour hours second seconds".split()
)
"""Words that name no particular item."""


def _names_any(text: str, standing: Collection[str]) -> bool:
    """Whether the text names a standing item: a word of its name or text, or an alarm's time
    said whole ("7 AM"; not inside "17 AM" or "11 PM", and "7" alone is any number)."""
    lowered = text.lower().replace(".", "")
    said = set(_WORD.findall(lowered)) - _NOT_NAMING
    for item in standing:
        if _CLOCK.fullmatch(item.lower()):
            if re.search(rf"(?<![\d:]){re.escape(item.lower())}\b", lowered):
                return True
        elif said & set(_WORD.findall(item.lower())):
            return True
    return False


def _plain(sentence: str) -> str:
    return sentence.replace("\u2019", "'")
