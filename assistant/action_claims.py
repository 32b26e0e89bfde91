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

NOT_DONE = "I couldn't do that."
"""Said instead of a claim nothing backs."""

_DONE = (
    r"(?:set|started|created|scheduled|added|cancel+ed|stopped|deleted|removed|put|turned|"
    r"switched|dimmed|brightened|opened|closed|locked|unlocked)"
)
_THING = r"(?:timer|alarm|reminder|countdown)s?"
_DEVICE = (
    r"(?:lights?|lamps?|lighting|fans?|heat(?:er|ing)|thermostat|plugs?|sockets?|switch(?:es)?|"
    r"blinds?|curtains?|shades?|covers?|doors?|locks?|tv|television|brightness)"
)
_CLAIMS = re.compile(
    "|".join(
        (
            # "I've set a timer", "I have just started", "I set one", "I've gone ahead and set"
            rf"\bi(?:'ve| have)?\s+(?:just\s+|now\s+|already\s+|gone ahead and\s+)?{_DONE}\b",
            # "I'll remind you", "I will let you know", "I'll give you a shout", "I'll ring"
            r"\bi(?:'ll| will| shall)\s+(?:\w+\s+)?(?:remind|alert|notify|ping|ring|wake|"
            r"let you know|give you a (?:shout|call|ping|nudge|heads[- ]up)|tell you when)",
            # "Timer set for seven minutes", "your reminder is set", "the eggs timer has started"
            rf"\b{_THING}\s+(?:(?:is|has been|was|are|have been)\s+)?(?:now\s+)?{_DONE}\b",
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


def claims_action(sentence: str) -> bool:
    """True when ``sentence`` says a timer, alarm or reminder was set, changed or will ring, or
    a device in the home was switched (a typographic apostrophe read as a plain one)."""
    return _CLAIMS.search(sentence.replace("\u2019", "'")) is not None


def backed(sentence: str, acted: bool) -> str:
    """The sentence to say: as it is, unless it claims an action and nothing was done this turn
    (``acted``: a tool call changed the schedule or the home), when it is :data:`NOT_DONE`
    instead."""
    if acted or not claims_action(sentence):
        return sentence
    return NOT_DONE
