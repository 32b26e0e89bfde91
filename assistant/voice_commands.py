"""Local voice commands that need no language model: remember, forget, what do you remember.

Pure parsing and phrasing; the turn carries them out against the memory.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class CommandKind(StrEnum):
    """What a local command asks for."""

    REMEMBER = "remember"
    FORGET = "forget"
    RECALL = "recall"


@dataclass(frozen=True)
class VoiceCommand:
    """A recognised local command and the words it is about."""

    kind: CommandKind
    subject: str


_POLITE = r"^(?:(?:ok(?:ay)?|so|and|hey|please|now)[\s,]+)*(?:(?:can|could|would|will) you\s+)?"
_PATTERNS = (
    (CommandKind.REMEMBER, re.compile(_POLITE + r"(?:please\s+)?remember(?:\s+that)?[\s,:]+(.+)$")),
    (
        CommandKind.FORGET,
        re.compile(_POLITE + r"(?:please\s+)?forget(?:\s+(?:that|about))?[\s,:]+(.+)$"),
    ),
    (
        CommandKind.RECALL,
        re.compile(
            _POLITE + r"what\s+(?:do|did)\s+you\s+(?:remember|know|recall)(?:\s+about)?\s*(.*)$"
        ),
    ),
)

_FIRST_TO_SECOND = {
    "i": "you",
    "me": "you",
    "my": "your",
    "mine": "yours",
    "myself": "yourself",
    "i'm": "you're",
    "i've": "you've",
    "i'll": "you'll",
    "i'd": "you'd",
    "am": "are",
    "we": "you",
    "our": "your",
    "us": "you",
    "ours": "yours",
}
_SECOND_TO_FIRST = {
    "you": "I",
    "your": "my",
    "yours": "mine",
    "yourself": "myself",
    "you're": "I'm",
    "you've": "I've",
}


def parse_voice_command(utterance: str) -> VoiceCommand | None:
    """Recognise a local command in a transcript, or None for anything meant for the model."""
    text = utterance.strip().strip(".!?").replace("\u2019", "'")
    lowered = text.lower()
    for kind, pattern in _PATTERNS:
        match = pattern.match(lowered)
        if match:
            start, end = match.span(1)
            subject = text[start:end].strip(" ,.!?")
            if kind is not CommandKind.RECALL and not subject:
                return None
            return VoiceCommand(kind, as_statement(subject) if subject else "")
    return None


def as_statement(words: str) -> str:
    """Tidy a spoken fact into a stored statement: first letter capitalised, no end punctuation."""
    words = words.strip(" ,.!?")
    return words[:1].upper() + words[1:] if words else words


def to_second_person(statement: str) -> str:
    """Say the user's own statement back to them: "my editor is Vim" -> "your editor is Vim"."""
    return _swap_persons(statement, _FIRST_TO_SECOND)


def mid_sentence(statement: str) -> str:
    """Lower-case a leading pronoun so a statement reads inside a sentence ("Your" -> "your")."""
    if statement.startswith(("Your ", "You ", "You're ", "You've ", "You'll ", "You'd ")):
        return statement[0].lower() + statement[1:]
    return statement


def to_first_person(phrase: str) -> str:
    """Read what Hearth was asked about as the user's words: "your editor" -> "my editor"."""
    return _swap_persons(phrase, _SECOND_TO_FIRST)


def _swap_persons(text: str, table: dict[str, str]) -> str:
    def swap(match: re.Match[str]) -> str:
        word = match.group(0)
        replacement = table.get(word.lower().replace("\u2019", "'"))
        if replacement is None:
            return word
        if word[0].isupper() and replacement != "I":
            return replacement[0].upper() + replacement[1:]
        return replacement

    return re.sub(r"[A-Za-z]+(?:['\u2019][a-z]+)?", swap, text)
