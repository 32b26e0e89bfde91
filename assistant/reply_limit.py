"""How much of a model's reply is said aloud: a budget of characters, cut at a word boundary.

Small models fall into repetition loops ("and then the river" four hundred times) and a long
answer said aloud ties up the room: a question asked during it is lost. A reply is said up to its
budget; the sentence that crosses it is cut after its last whole word, and the rest is dropped
(the brain stops reading the model then, and says a short note in the card's manner). Pure.
"""

from __future__ import annotations

from dataclasses import dataclass

_TRAILING = " ,;:-\u2013\u2014"
"""Left at the end of a cut sentence they would make it sound unfinished in the wrong way."""


@dataclass
class SpokenBudget:
    """The characters one reply may still say."""

    max_chars: int
    used: int = 0
    exhausted: bool = False
    """True once a sentence did not fit: nothing more is said."""

    def take(self, sentence: str) -> str | None:
        """What to say of ``sentence``: all of it, its words up to the budget, or None."""
        if self.exhausted:
            return None
        left = self.max_chars - self.used
        if len(sentence) <= left:
            self.used += len(sentence) + 1  # and the pause between sentences
            return sentence
        self.exhausted = True
        head = words_within(sentence, left)
        self.used += len(head)
        return head or None


def words_within(text: str, max_chars: int) -> str:
    """The words of ``text`` that fit in ``max_chars``, cut after the last whole one."""
    if len(text) <= max_chars:
        return text
    head = text[: max(max_chars, 0) + 1]
    if not head[-1:].isspace():
        head = head[: head.rfind(" ")] if " " in head else ""
    return head.rstrip(_TRAILING)
