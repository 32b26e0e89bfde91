"""Finding a wake phrase in a transcript, forgiving about how Whisper wrote it.

A wake detection is verified by transcribing the wake window and looking for the phrase. What must
be there is the name: the greeting before it is swapped or dropped by people ("Okay Jarvis",
"Jarvis") and by Whisper ("A Jarvis"). The name is compared by sound, so Whisper's spellings of the
same sounds pass ("Jarvis's", "Jervis", "my craft" for Mycroft, "raspy" for Rhasspy) while other
names fail ("Charlie", "darling", "Travis", "Davis", "Mavis", "Jared", "Alex" for Alexa).
"""

from __future__ import annotations

import re

GREETINGS = frozenset({"hey", "hi", "hello", "ok", "okay", "oh", "a", "yo", "there"})
"""Words before a wake name that decide nothing: the name alone verifies a wake ("there" as in
"hello there computer", whose name is "computer")."""

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+")
_SOUNDS = (("ph", "f"), ("ck", "k"), ("rh", "r"), ("q", "k"), ("c", "k"), ("g", "k"), ("x", "ks"))
_VOWELS = "aeiouy"
_MAX_NAME_PIECES = 3
"""A name may come out of Whisper in up to this many words ("my craft", "Jar-vis")."""


def sound_key(word: str) -> str:
    """A rough key of how a word sounds: its first letter, then its consonants with similar ones
    merged and repeats collapsed, and ``*`` when it ends on a vowel ("Jarvis" and "Jervis" ->
    ``jrvs``; "Alexa" -> ``alks*`` but "Alex" -> ``alks``)."""
    letters = re.sub(r"[^a-z]", "", word.lower())
    if not letters:
        return ""
    for spelling, sound in _SOUNDS:
        letters = letters.replace(spelling, sound)
    key = letters[0]
    for letter in letters[1:]:
        if letter not in _VOWELS + "hw" and letter != key[-1]:
            key += letter
    return key + "*" if letters[-1] in _VOWELS else key


def _normalise(word: str) -> str:
    word = word.lower()
    return re.sub(r"'s$", "", word).replace("'", "")


def _name_words(phrase: str) -> list[str]:
    words = _WORD.findall(phrase)
    while len(words) > 1 and _normalise(words[0]) in GREETINGS:
        words.pop(0)
    return words


def wake_name(phrase: str) -> str:
    """The name in a wake phrase, capitalised: what Hearth is called in a hint, and the hot word
    that spells it in a request. "hey jarvis" -> "Jarvis", "okay nabu" -> "Nabu", "hey_mycroft"
    -> "Mycroft", "hello there computer" -> "Computer"; a phrase that is nothing but a greeting is
    kept whole ("hey" -> "Hey")."""
    return " ".join(word.capitalize() for word in _name_words(phrase))


def _name(phrase: str) -> str:
    return "".join(_normalise(word) for word in _name_words(phrase))


def find_phrase(text: str, phrase: str, *, at_start: bool = False) -> tuple[int, int] | None:
    """Where the wake phrase's name is in ``text`` (start and end character), matched as
    ``contains_phrase`` does: the first match, or with ``at_start`` only one that nothing but
    greetings precede (or as many other words as the phrase has greetings, which Whisper may have
    misheard). ``text[end:]`` is what was said after the wake phrase."""
    name = _name(phrase)
    if not name:
        return None
    key = sound_key(name)
    # Whisper mishears a greeting as any word ("And Jarvis", "They Jarvis"): as many words as
    # the phrase has greetings may stand before the name, besides greetings
    misheard = len(_WORD.findall(phrase)) - len(_name_words(phrase))
    words = list(_WORD.finditer(text))
    for first in range(len(words)):
        before = [w for w in words[:first] if _normalise(w.group()) not in GREETINGS]
        if at_start and len(before) > misheard:
            return None
        for count in range(1, min(_MAX_NAME_PIECES, len(words) - first) + 1):
            pieces = words[first : first + count]
            heard = "".join(_normalise(piece.group()) for piece in pieces)
            if heard == name or sound_key(heard) == key:
                return pieces[0].start(), pieces[-1].end()
    return None


def contains_phrase(text: str, phrase: str) -> bool:
    """Whether a transcript holds the wake phrase, forgiving punctuation, case, the greeting and
    spellings of the same sounds: "Hey, Jarvis." and "Jarvis" hold "hey jarvis"; "Hey Charlie" and
    "Hi Travis" do not. The name must begin its sentence (after greetings at most): a wake word is
    said to someone, not in passing ("We need milk. Hey Jarvis" holds "hey jarvis"; "He has a
    raspy voice" does not hold "hey rhasspy", though Whisper writes a real Rhasspy "raspy")."""
    return any(
        find_phrase(sentence, phrase, at_start=True) is not None
        for sentence in _SENTENCE_END.split(text)
    )
