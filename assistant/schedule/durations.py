"""Durations as tiny.en writes them, read from normalised tokens: "10 minutes", "90 seconds",
"half an hour", "an hour and a half", "1 hour and 30 minutes", "a minute and a half", "10 minute".

Pure: ``find_duration`` returns the seconds and the span of tokens they came from (so the rest of
the request, a timer's name say, can be read around it).
"""

from __future__ import annotations

from dataclasses import dataclass

from assistant.schedule.words import number

UNIT_SECONDS = {
    "hour": 3600, "hours": 3600,
    "minute": 60, "minutes": 60,
    "second": 1, "seconds": 1,
}  # fmt: skip
ARTICLES = ("a", "an")
LONGEST_SECONDS = 7 * 24 * 3600.0
LONGEST_SAID = "a week"
"""The longest timer (and the longest wait a tool may set for a reminder): a week. Past it a
unit was misheard ("a billion hours" was set, and its due date broke every listing)."""


@dataclass(frozen=True)
class Found:
    """A duration found in a token list: its length and the tokens ``[start, end)`` it spans."""

    seconds: float
    start: int
    end: int


def find_duration(words: list[str], start: int = 0) -> Found | None:
    """The first duration in ``words`` at or after ``start``, components joined ("2 hours and 15
    minutes"), or None."""
    for index in range(start, len(words)):
        found = duration_at(words, index)
        if found is not None:
            return found
    return None


def duration_at(words: list[str], index: int) -> Found | None:
    """A duration starting exactly at ``words[index]``, with any further components, or None."""
    first = _component(words, index)
    if first is None:
        return None
    seconds, end, unit = first
    while True:
        nxt = end + 1 if end < len(words) and words[end] == "and" else end
        more = _component(words, nxt)
        if more is None or more[2] >= unit:
            break
        seconds, end, unit = seconds + more[0], more[1], more[2]
    return Found(seconds, index, end)


def _component(words: list[str], i: int) -> tuple[float, int, int] | None:
    """(seconds, end index, unit seconds) of one component at ``i``: "10 minutes", "an hour and a
    half", "half an hour", "a quarter of an hour", "2 and a half minutes"."""
    at = _reader(words)
    if at(i) == "half" and at(i + 1) in ARTICLES and at(i + 2) in UNIT_SECONDS:
        unit = UNIT_SECONDS[at(i + 2)]
        return unit / 2, i + 3, unit
    quarter = i + 1 if at(i) in ARTICLES else i
    if at(quarter) in ("quarter", "quarters") or (
        number(at(quarter)) is not None and at(quarter + 1) in ("quarter", "quarters")
    ):
        count = number(at(quarter)) or 1.0
        rest = quarter + (2 if number(at(quarter)) is not None else 1)
        if at(rest) == "of" and at(rest + 1) in ARTICLES and at(rest + 2) == "hour":
            return count * 900, rest + 3, 3600
        return None
    if at(i) in ARTICLES and number(at(i + 1)) is not None:
        i += 1  # "a 100 seconds", "a 10 minute timer"
    amount = number(at(i))
    if amount is None and at(i) in ARTICLES:
        amount = 1.0
    if amount is None:
        return None
    cursor = i + 1
    if at(cursor) == "and" and at(cursor + 1) in ARTICLES and at(cursor + 2) == "half":
        amount, cursor = amount + 0.5, cursor + 3
    unit_word = at(cursor)
    if unit_word not in UNIT_SECONDS:
        return None
    if at(i) in ARTICLES and unit_word == "second" and at(cursor + 1) in ("timer", "one", "alarm"):
        return None  # "a second timer" counts timers
    unit = UNIT_SECONDS[unit_word]
    cursor += 1
    if at(cursor) == "and" and at(cursor + 1) in ARTICLES and at(cursor + 2) == "half":
        amount, cursor = amount + 0.5, cursor + 3
    return amount * unit, cursor, unit


def _reader(words: list[str]):
    def at(index: int) -> str:
        return words[index] if 0 <= index < len(words) else ""

    return at
