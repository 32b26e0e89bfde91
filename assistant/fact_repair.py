"""Setting right a fact the ear got wrong: corrections, spelled words, and missing values. Pure.

Short names are what speech-to-text mishears most ("Vim" as "then", "is Vim" as "has been"). Two
things follow. A statement whose value is missing or only a small word ("my favourite editor is
then") is not stored as heard: Hearth asks for the value (:func:`missing_value`). And a fact just
stored can be set right in the next breath: "No, I said Vim", "that's wrong, it's Vim", "not then,
Vim", or spelled, "V I M" (Whisper also writes letters as "vee eye em"): :func:`parse_correction`
reads what was meant, :func:`corrected_statement` puts it into the stored wording.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.voice_commands import as_statement, to_second_person
from assistant.wording import (
    FUNCTION_WORDS,
    NEGATIONS,
    content_words,
    is_function_word,
    is_question,
    words,
)

_LINKS = (
    "has been", "have been", "is called", "are called", "is named", "is", "are", "am", "was",
    "were", "called", "named", "in", "at", "on", "to", "for", "from", "with", "by", "of", "uses",
    "use", "like", "likes", "love", "loves", "prefer", "prefers",
)  # fmt: skip
"""Words after which a statement's value comes; the last one in a statement wins."""
_LINK = re.compile(r"\b(?:" + "|".join(re.escape(link) for link in _LINKS) + r")\b", re.I)
_MISHEARD_COPULA = {"has been": "is", "have been": "are"}
"""A statement ending in "has been" is nearly always "is <a short name>" misheard."""

LETTER_NAMES: dict[str, str] = {
    "ay": "a", "bee": "b", "be": "b", "see": "c", "sea": "c", "cee": "c", "dee": "d",
    "ee": "e", "ef": "f", "eff": "f", "gee": "g", "aitch": "h", "eye": "i", "jay": "j",
    "kay": "k", "el": "l", "ell": "l", "em": "m", "en": "n", "oh": "o", "pee": "p", "pea": "p",
    "cue": "q", "queue": "q", "ar": "r", "are": "r", "es": "s", "ess": "s", "tee": "t",
    "tea": "t", "you": "u", "vee": "v", "ex": "x", "why": "y", "wye": "y", "zed": "z",
    "zee": "z",
}  # fmt: skip
"""How Whisper writes letters said one by one, when it writes them as words."""
_COMMON_LETTER_NAMES = frozenset("a i o be see sea are you why oh eye tea pea queue cue ex".split())
"""Letter names that are also everyday words: a spelling needs at least one letter that is not."""

_LEAD_INS = re.compile(
    r"^(?:(?:no|nope|oh|um|uh|sorry|well|actually|wait|hang on)\b[\s,.!]*)*"
    r"(?:(?:that's|that is|it's|it is)\s+"
    r"(?:wrong|not right|not what i said|incorrect)\b[\s,.!;:-]*)?"
    r"(?:(?:no|nope)\b[\s,.!]*)?"
    r"(?:i\s+(?:said|meant|mean|say)|it's|it is|its|that's|that is|it should be|"
    r"make that|the answer is|i'd say)?[\s,:]*",
    re.I,
)
_WRONG_CUE = re.compile(
    r"^(?:(?:no|nope|sorry|oh)\b[\s,.!]*)*(?:that's|that is|it's|it is)\s+"
    r"(?:wrong|not right|not what i said|incorrect)\b|^(?:no|nope|wrong)\b|^i\s+(?:said|meant)\b",
    re.I,
)
_NOT_THIS = re.compile(r"^(?:(?:no|nope)\b[\s,.!]*)?not\s+(.+?)\s*[,;:.!-]+\s*(.+)$", re.I)
_SPELLED_SAID = re.compile(r"\b(?:spelled|spelt|spelling)\b[\s,:]*", re.I)
_NOT_VALUES = frozenset(
    "thanks|thank you|problem|worries|never mind|nothing|fine|it's fine|all good|good|that's all|"
    "that's it|that's fine|that's right|right|correct|great|perfect|cool|stop|sorry|"
    "the new one|new one|the newer one|the old one|old one|the older one|the first one|"
    "the second one|the other one|both|both of them|neither".split("|")
)
"""What follows "no" in "no thanks", "no worries": manners, not a value; nor is an answer to
"which one is current?" ("No, the old one"), said as a change of mind."""
_AS_IN = re.compile(r"^(?P<value>.+?)(?P<comma>,?)\s+(?:like|as in)\s+(?P<example>.+)$", re.I)
""""Ingrid, like Ingrid Bergman": the value, then an example that holds it."""
_NAMED_BY_EXAMPLE_WORDS = 2
"""A value this short set off by a comma before "like" is a name with an example, even when the
ear spelled the example's copy of it otherwise ("angry, like angered Bergman")."""
MAX_VALUE_WORDS = 5
"""An answer longer than this is a new request, not the value asked for."""


@dataclass(frozen=True)
class Correction:
    """What a person said to set a fact right: the value meant, and the misheard word if named."""

    right: str | None
    """The value meant ("Vim"), or None for a bare "that's wrong" (then Hearth asks for it)."""
    wrong: str | None = None
    """The misheard words they named ("not then, Vim"), if any."""


@dataclass(frozen=True)
class ValueQuestion:
    """Hearth asked for the value of a statement it could not take as heard."""

    prefix: str
    """The statement up to its value: "My favourite editor is"."""
    fact_id: int | None = None
    """The stored fact the value corrects, or None for a statement not stored yet."""
    utterance: str = ""
    """What the person said that led to the question."""
    tries: int = 1

    def text(self) -> str:
        """The question as spoken: "Your favourite editor is what?"."""
        asked = to_second_person(self.prefix)
        return f"{asked[:1].upper()}{asked[1:]} what?"

    def statement(self, value: str) -> str:
        """The statement with the value given in the answer (or the answer, if it is one)."""
        return corrected_statement(self.prefix, Correction(value))


def value_prefix(statement: str) -> str:
    """The statement up to its value: through its last linking word, else all but its last word
    ("My dog is called Rax" -> "My dog is called")."""
    missing = missing_value(statement)
    if missing is not None:
        return missing
    links = list(_LINK.finditer(statement))
    if links:
        return statement[: links[-1].end()]
    head, _, _ = statement.rstrip(" .").rpartition(" ")
    return head


def missing_value(statement: str) -> str | None:
    """The statement up to where its value should be, when that value is missing or only small
    words ("My favourite editor is then" -> "My favourite editor is"), else None."""
    links = list(_LINK.finditer(statement))
    if not links:
        return None
    last = links[-1]
    value = words(statement[last.end() :])
    if value and any(not is_function_word(word) for word in value):
        return None
    if not words(statement[: last.start()]):
        return None  # "Is ..." is not a statement with a subject
    link = _MISHEARD_COPULA.get(last.group(0).lower(), last.group(0))
    return f"{statement[: last.start()].rstrip()} {link}"


def parse_correction(utterance: str) -> Correction | None:
    """A correction of the fact just stored, or None when the utterance is something else (a
    question is never one: "No, what about Uganda?")."""
    text = utterance.strip().rstrip(".!").replace("\u2019", "'")
    if not text or text.endswith("?") or is_question(_LEAD_INS.sub("", text)):
        return None
    named = _NOT_THIS.match(text)
    if named:
        right = _value(_LEAD_INS.sub("", named.group(2)))
        return Correction(right, named.group(1).strip(" ,")) if right else None
    spelled = spelled_word(_LEAD_INS.sub("", _SPELLED_SAID.sub(" ", text)))
    if spelled is not None:
        return Correction(spelled)
    if not _WRONG_CUE.match(text):
        return None
    rest = _without_example(_LEAD_INS.sub("", text).strip(" ,.;:!-"))
    if rest.lower() in _NOT_VALUES:
        return None  # "no thanks", "no, that's right": not a correction at all
    if _LINK.search(rest) and len(words(rest)) >= 3:
        return Correction(rest)  # the whole statement said again, however long
    return Correction(_value(rest))


def answer_value(utterance: str) -> str | None:
    """The value in an answer to "... is what?" ("Vim", "It's Vim", "V I M"), or None when the
    utterance does not give one (only small words again, or a new request)."""
    text = utterance.strip().rstrip(".!").replace("\u2019", "'")
    if text.endswith("?"):
        return None
    return _value(_LEAD_INS.sub("", _SPELLED_SAID.sub(" ", text)))


def corrected_statement(statement: str, correction: Correction) -> str:
    """The stored wording with the correction put in: the named misheard words replaced, else the
    value (after the last linking word, else the last word); a whole statement replaces all."""
    assert correction.right is not None
    right = correction.right
    prefix = value_prefix(statement)
    said_again = set(content_words(words(right))) & set(content_words(words(prefix)))
    if _LINK.search(right) and len(words(right)) >= 3 and said_again:
        return as_statement(right)  # the whole statement, said again ("No, I said my cat ...")
    if correction.wrong:
        pattern = re.compile(rf"\b{re.escape(correction.wrong)}\b", re.I)
        found = list(pattern.finditer(statement))
        if found:
            last = found[-1]
            return as_statement(statement[: last.start()] + right + statement[last.end() :])
    return as_statement(f"{prefix} {right}" if prefix else right)


def as_meant(text: str, spelled: str) -> str:
    """The reading of an answer to take: ``spelled`` (the ear's letters, "V I M.") when the
    person most likely spelled a word, else ``text`` (the free reading).

    The ear offers letters only where it found them likelier than the words. Said letter by
    letter, a word comes out of free transcription as at least as many short words as it has
    letters ("We I am." for V, I, M); said whole, as fewer ("Priya.", "Emax."), and the letters
    reading ("P A.", "E M X.") is then the ear forcing letters onto it: one letter fewer let
    a correct "Priya." become "Pa" (measured: ``bench.spelling``).
    """
    letters = [token for token in re.split(r"[\s.,-]+", spelled) if token]
    if len(letters) < 2:
        return text
    return spelled if len(words(text)) >= len(letters) else text


def spelled_word(text: str) -> str | None:
    """The word spelled letter by letter ("V I M", "V-I-M", "vee eye em" -> "Vim"), or None."""
    tokens = [t for t in re.split(r"[\s.,-]+", text.strip().lower()) if t]
    if len(tokens) < 2:
        return None
    letters = []
    for token in tokens:
        if len(token) == 1 and token.isalpha():
            letters.append(token)
        elif token in LETTER_NAMES:
            letters.append(LETTER_NAMES[token])
        else:
            return None
    if all(token in _COMMON_LETTER_NAMES for token in tokens):
        return None  # "are you", "oh I see": words, not letters
    word = "".join(letters)
    return word[0].upper() + word[1:]


def _without_example(text: str) -> str:
    """ "Ingrid, like Ingrid Bergman" -> "Ingrid"; anything else as it is."""
    example = _AS_IN.match(text)
    if example is None:
        return text
    value = words(example["value"])
    if set(value) <= set(words(example["example"])) or (
        example["comma"] and len(value) <= _NAMED_BY_EXAMPLE_WORDS
    ):
        return example["value"]
    return text


def _value(text: str) -> str | None:
    """The value words of an answer, tidied; None when they are only small words or too many."""
    text = text.strip(" ,.;:!-")
    if text.lower() in _NOT_VALUES:
        return None
    spelled = spelled_word(text)
    if spelled is not None:
        return spelled
    text = _without_example(text)
    value = words(text)
    if not value or len(value) > MAX_VALUE_WORDS:
        return None
    if all(word in FUNCTION_WORDS or word in NEGATIONS for word in value):
        return None
    return text
