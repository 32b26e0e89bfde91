"""Word error rate, as the hearing bench and the tests count it (``jiwer`` does the alignment)."""

from __future__ import annotations

import jiwer


def normalised(text: str) -> str:
    """Lower case, no punctuation (a decimal point stays), one space between words."""
    text = text.lower().replace("\u2019", "'")
    text = "".join(c if c.isalnum() or c in "'." else " " for c in text)
    return " ".join(word.strip(".") for word in text.split() if word.strip("."))


def word_errors(expected: str, heard: str) -> tuple[int, int]:
    """(substituted, deleted and inserted words, words expected) of ``heard`` against
    ``expected``; nothing heard is every word missed."""
    truth = normalised(expected)
    if not normalised(heard):
        return len(truth.split()), len(truth.split())
    out = jiwer.process_words(truth, normalised(heard))
    return out.substitutions + out.deletions + out.insertions, len(truth.split())
