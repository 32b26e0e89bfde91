"""Whether a sentence of a model's reply says that Hearth did something (set a timer, will remind
you), so a claim no stored item backs is not said as it is.

Pure and conservative: it looks for a first-person or passive report of a schedule action ("I've
set a timer", "Timer set for seven minutes", "I'll remind you", "I'll give you a shout"), not for
every mention of a timer ("You could set a timer" is advice, not a claim).
"""

from __future__ import annotations

import re

NOT_DONE = "I couldn't set that."
"""Said instead of a claim nothing backs."""

_DONE = r"(?:set|started|created|scheduled|added|cancel+ed|stopped|deleted|removed|put)"
_THING = r"(?:timer|alarm|reminder|countdown)s?"
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
            # "Done, seven minutes.", "All set!"
            r"^\s*(?:okay[,!.]?\s+|ok[,!.]?\s+|sure[,!.]?\s+)?(?:done|all set)\b",
        )
    ),
    re.IGNORECASE,
)


def claims_action(sentence: str) -> bool:
    """True when ``sentence`` says a timer, alarm or reminder was set, changed or will ring
    (a typographic apostrophe read as a plain one)."""
    return _CLAIMS.search(sentence.replace("\u2019", "'")) is not None


def backed(sentence: str, acted: bool) -> str:
    """The sentence to say: as it is, unless it claims an action and nothing was done this turn
    (``acted``: the stored schedule changed), when it is :data:`NOT_DONE` instead."""
    if acted or not claims_action(sentence):
        return sentence
    return NOT_DONE
