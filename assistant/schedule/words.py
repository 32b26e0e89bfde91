"""A transcript made plain for the schedule's parser: lower case, numbers as digits, tidy tokens.

tiny.en writes numbers as digits or words ("10 minutes", "eight minutes"), times as "6.30",
"7:30", "7am" or "7 a.m.", hyphenates ("10-minute", "half-past") and ends with punctuation.
``text2num``'s ``alpha2digit`` turns the number words into digits (chosen over ovos-number-parser,
ovos-date-parser and dateparser by measurement on tiny.en's spellings: see ``bench/schedule.py``);
the rest is spelling, done here.
"""

from __future__ import annotations

import re

from text_to_num import alpha2digit

_MERIDIEM = re.compile(r"\b([ap])\.?\s?m\b\.?")
_HYPHEN = re.compile(r"(?<=[\w])-(?=[a-z])")
_CLOCK_TOKEN = re.compile(r"(\d{1,2})([:.])(\d{2})")
_GLUED_MERIDIEM = re.compile(r"\b(\d{1,2}(?:[:.]\d{2})?)(am|pm)\b")
_PUNCTUATION = re.compile(r"[^\w\s:.']|(?<!\d)[:.]|[:.](?!\d)|'(?![a-z])|(?<![a-z])'")

# Spoken words tiny.en uses for the same thing, folded to one.
_FOLD = {
    "o'clock": "oclock",
    "o": "oh",
    "mins": "minutes",
    "min": "minutes",
    "secs": "seconds",
    "sec": "seconds",
    "hrs": "hours",
    "hr": "hours",
    "tonite": "tonight",
}


def normalise(text: str) -> str:
    """``text`` in the parser's spelling: "Set a 10-minute timer at 7 a.m.!" ->
    "set a 10 minute timer at 7 am"."""
    lowered = text.lower().replace("\u2019", "'").replace("%", " percent")
    lowered = _MERIDIEM.sub(lambda m: f" {m.group(1)}m ", lowered)
    lowered = _HYPHEN.sub(" ", lowered)
    digits = alpha2digit(lowered, "en", threshold=0)
    digits = _GLUED_MERIDIEM.sub(r"\1 \2", digits)
    digits = re.sub(r"\bo'clock\b", "oclock", digits)
    plain = _PUNCTUATION.sub(" ", digits)
    words = [_FOLD.get(word, word) for word in plain.split()]
    return " ".join(words)


def tokens(text: str) -> list[str]:
    """The normalised words of ``text``."""
    return normalise(text).split()


def clock_token(word: str) -> tuple[int, int] | None:
    """Hour and minute of a written time ("7:30", "6.30"), or None."""
    match = _CLOCK_TOKEN.fullmatch(word)
    if not match:
        return None
    hour, minute = int(match.group(1)), int(match.group(3))
    return (hour, minute) if hour < 24 and minute < 60 else None


def number(word: str) -> float | None:
    """A number token ("10", "1.5"), or None (a written time such as "6.30" is not a number)."""
    if re.fullmatch(r"\d+", word):
        return float(word)
    if re.fullmatch(r"\d+\.\d", word):
        return float(word)
    return None
