"""The fixed taxonomy of fact kinds, and mapping free-form labels onto it.

The same-kind gate for conflicts rests on this label, so a model that says "food preference" and a
user who says "likes" must land on the same kind every time.
"""

from __future__ import annotations

import re
from enum import StrEnum


class Kind(StrEnum):
    """What a fact is about."""

    PREFERENCE = "preference"
    FACT = "fact"
    PERSON = "person"
    PLACE = "place"
    ROUTINE = "routine"
    PLAN = "plan"


class UnknownKindError(ValueError):
    """A kind label that cannot be mapped onto the taxonomy."""


# Words that commonly appear in free-form labels from models and people, by the kind they mean.
_KIND_WORDS: dict[Kind, frozenset[str]] = {
    Kind.PREFERENCE: frozenset(
        "preference preferences prefer prefers like likes liking dislike dislikes taste tastes"
        " favourite favorite favourites favorites opinion opinions want wants wish style".split()
    ),
    Kind.PERSON: frozenset(
        "person people family relative relatives friend friends relationship relationships"
        " contact contacts name names partner spouse child children pet pets".split()
    ),
    Kind.PLACE: frozenset(
        "place places location locations home address city town country where residence"
        " workplace office".split()
    ),
    Kind.ROUTINE: frozenset(
        "routine routines habit habits schedule schedules daily weekly regular recurring"
        " ritual rituals".split()
    ),
    Kind.PLAN: frozenset(
        "plan plans planned event events appointment appointments trip trips travel goal goals"
        " intention intentions todo reminder reminders upcoming future deadline".split()
    ),
    Kind.FACT: frozenset(
        "fact facts info information detail details biography bio profile background personal"
        " health work job career skill skills possession possessions general other misc"
        " miscellaneous attribute attributes note notes".split()
    ),
}


def normalise_kind(label: str | Kind | None) -> Kind:
    """Map a free-form kind label onto the taxonomy; empty means ``fact``.

    Raises UnknownKindError when the label names nothing the taxonomy knows.
    """
    if isinstance(label, Kind):
        return label
    if label is None or not label.strip():
        return Kind.FACT
    words = re.findall(r"[a-z]+", label.lower())
    for word in words:
        if word in Kind.__members__.values():
            return Kind(word)
    for word in words:
        for kind, vocabulary in _KIND_WORDS.items():
            if word in vocabulary:
                return kind
    known = ", ".join(kind.value for kind in Kind)
    raise UnknownKindError(f"unknown kind {label!r}; use one of: {known}")


# Cues in a statement that say what kind of fact it is, checked in this order.
_STATEMENT_CUES: tuple[tuple[Kind, re.Pattern[str]], ...] = (
    (
        Kind.PLAN,
        re.compile(
            r"\b(tomorrow|tonight|next (week|month|year|weekend)|going to|gonna|will|plan(ning)?"
            r"|appointment|flying|trip|this (weekend|evening|afternoon))\b"
        ),
    ),
    (
        Kind.ROUTINE,
        re.compile(
            r"\b(every|each|daily|weekly|usually|always|mornings|evenings|nights|weekends"
            r"|on (mon|tues|wednes|thurs|fri|satur|sun)days)\b"
        ),
    ),
    (
        Kind.PREFERENCE,
        re.compile(
            r"\b(favou?rite|like|likes|love|loves|enjoy|enjoys|prefer|prefers|hate|hates|dislike"
            r"|can't stand|rather)\b"
        ),
    ),
    (
        Kind.PERSON,
        re.compile(
            r"\b(called|named|name is|(brother|sister|mother|mom|mum|father|dad|wife|husband"
            r"|partner|son|daughter|friend|cousin|aunt|uncle|boss|neighbou?r)('s)?)\b"
        ),
    ),
    (Kind.PLACE, re.compile(r"\b(live in|lives in|living in|from|moved to|based in|address)\b")),
)


def guess_kind(statement: str) -> Kind:
    """The kind a plain statement most likely has (for facts told by voice with no label)."""
    lowered = statement.lower()
    for kind, cue in _STATEMENT_CUES:
        if cue.search(lowered):
            return kind
    return Kind.FACT
