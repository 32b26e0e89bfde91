"""Asking aloud which of two conflicting facts is current, and understanding the short answer.

Pure: phrasing the question, the closed set of answers, and matching a transcript (plus, when
the voice process scored them, how well each answer fits the audio) onto that set.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from difflib import SequenceMatcher
from enum import StrEnum

from assistant.voice_commands import mid_sentence, to_second_person
from memory import Fact


class Choice(StrEnum):
    """What the user's answer to a conflict question means."""

    OLDER = "older"
    NEWER = "newer"
    BOTH = "both"
    UNSURE = "unsure"


# The words of the answers a person gives, by meaning (checked after the facts' own values).
_CUE_WORDS: dict[Choice, tuple[str, ...]] = {
    Choice.BOTH: ("both", "both of them", "both are true", "either", "all of them", "each"),
    Choice.UNSURE: ("not sure", "don't know", "dont know", "no idea", "i'm not sure", "skip",
                    "later", "ask me later", "neither", "maybe", "dunno", "never mind"),
    Choice.NEWER: ("new one", "newer", "the new", "latest", "second", "the last", "the latter",
                   "now", "current", "recent", "the new one"),
    Choice.OLDER: ("old one", "older", "the old", "first", "earlier", "former", "previous",
                   "original", "the first one"),
}  # fmt: skip

_FILLER = frozenset(
    "i my me you your the a an is are was it its it's that this one now earlier said say told "
    "to and of in on at is current which think guess".split()
)

MIN_SOUND_SIMILARITY = 0.75
SCORE_MARGIN = 0.5
"""How much better (mean log-probability per token) the best answer must fit than the next."""
MIN_ANSWER_SCORE = -1.5
"""Below this the best answer does not fit the audio at all: the person said something else."""


@dataclass(frozen=True)
class ConflictQuestion:
    """A question about one conflict: the older fact, the newer one, and what tells them apart."""

    older: Fact
    newer: Fact

    @property
    def older_value(self) -> str:
        """The words only the older fact has ("Vim"), or its whole text."""
        return _distinct_words(self.older.text or "", self.newer.text or "")

    @property
    def newer_value(self) -> str:
        """The words only the newer fact has ("Emacs"), or its whole text."""
        return _distinct_words(self.newer.text or "", self.older.text or "")

    def text(self) -> str:
        """The question as spoken, e.g. "Earlier you told me your favourite editor is Vim; ..."."""
        older = mid_sentence(to_second_person(self.older.text or ""))
        newer_value = self.newer_value
        if len(newer_value.split()) > 4 or newer_value == self.newer.text:
            newer_value = mid_sentence(to_second_person(self.newer.text or ""))
        return f"Earlier you told me {older}; now you say {newer_value}. Which one is current?"

    def answer_phrases(self) -> dict[Choice, str]:
        """One natural spoken answer for each choice (for scoring against the audio)."""
        return {
            Choice.OLDER: self.older_value,
            Choice.NEWER: self.newer_value,
            Choice.BOTH: "Both.",
            Choice.UNSURE: "I'm not sure.",
        }

    def hotwords(self) -> tuple[str, ...]:
        """Words to bias recognition toward while the answer is awaited."""
        return (self.older_value, self.newer_value)

    def interpret(
        self, transcript: str, audio_scores: Mapping[Choice, float] | None = None
    ) -> Choice | None:
        """The choice an answer means, or None when it does not answer the question.

        Text decides when it clearly names a value or a cue; otherwise the audio scores (mean
        log-probability of each answer phrase given the recording) decide when one stands out.
        """
        by_text = self._match_text(transcript)
        if by_text is not None:
            return by_text
        if audio_scores:
            ranked = sorted(audio_scores.items(), key=lambda item: item[1], reverse=True)
            best = ranked[0][1]
            runner_up = ranked[1][1] if len(ranked) > 1 else float("-inf")
            if best >= MIN_ANSWER_SCORE and best - runner_up >= SCORE_MARGIN:
                return ranked[0][0]
        return None

    def is_set_right_by(self, value: str) -> bool:
        """Whether ``value``, said as a correction in answer ("No, I said Emacs", "E M A C S"),
        sets the newer fact's value right rather than choosing: it names neither fact's value
        nor an answer's cue, or it names the newer value only by sound, as the ear's "Enax" was
        Emacs. "No, I said Vim" (the older value) and "No, the old one" are answers."""
        words = _words(value)
        spoken = " ".join(words)
        if not words or any(_has_cue(spoken, choice) for choice in Choice):
            return False
        if _mentions(words, _words(self.older_value)):
            return False
        return words != _words(self.newer_value)

    def _match_text(self, transcript: str) -> Choice | None:
        words = _words(transcript)
        if not words:
            return None
        spoken = " ".join(words)
        older, newer = _words(self.older_value), _words(self.newer_value)
        names_older = _mentions(words, older)
        names_newer = _mentions(words, newer)
        if names_older and names_newer:
            return Choice.BOTH if _has_cue(spoken, Choice.BOTH) else None
        if names_older != names_newer:
            return Choice.OLDER if names_older else Choice.NEWER
        for choice in (Choice.BOTH, Choice.UNSURE, Choice.NEWER, Choice.OLDER):
            if _has_cue(spoken, choice):
                return choice
        return None


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text.lower().replace("\u2019", "'"))


def _has_cue(spoken: str, choice: Choice) -> bool:
    return any(re.search(rf"\b{re.escape(cue)}\b", spoken) for cue in _CUE_WORDS[choice])


def _mentions(words: list[str], value: list[str]) -> bool:
    """True when the answer holds the value's content words, exactly or by close sound/spelling."""
    content = [w for w in value if w not in _FILLER] or value
    if not content:
        return False
    return all(any(_sounds_alike(word, target) for word in words) for target in content)


def _sounds_alike(heard: str, target: str) -> bool:
    if heard == target:
        return True
    if min(len(heard), len(target)) < 3:
        return False
    heard_key, target_key = _sound_key(heard), _sound_key(target)
    # Misheard words keep their first sound ("Vin" for Vim, "Emax" for Emacs); a different first
    # sound ("next" for Emacs) is a different word, left to the audio scores.
    if heard_key[:1] != target_key[:1] or abs(len(heard_key) - len(target_key)) > 1:
        return False
    return SequenceMatcher(None, heard_key, target_key).ratio() >= MIN_SOUND_SIMILARITY


def _sound_key(word: str) -> str:
    """A rough phonetic spelling: collapses letters that sound alike in English."""
    key = word.lower()
    for pattern, replacement in (
        (r"ph", "f"), (r"ck", "k"), (r"q", "k"), (r"x", "ks"), (r"c(?=[eiy])", "s"), (r"c", "k"),
        (r"z", "s"), (r"v", "f"), (r"m", "n"), (r"w", ""), (r"h", ""), (r"[aeiouy]+", "a"),
        (r"(.)\1+", r"\1"),
    ):  # fmt: skip
        key = re.sub(pattern, replacement, key)
    return key


def _distinct_words(text: str, other: str) -> str:
    """The words of ``text`` that ``other`` lacks, in order; the whole text if none stand out."""
    others = set(_words(other))
    tokens = re.findall(r"[\w'\u2019.-]+", text)
    distinct = [
        t for t in tokens if t.lower().strip(".") not in others and t.lower() not in _FILLER
    ]
    return " ".join(distinct).strip(".") if distinct else text
