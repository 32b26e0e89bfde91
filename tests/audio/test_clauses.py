"""The first clause of a reply's first sentence: where it is cut, where it must not be, and the
pause where its audio joins the rest."""

from __future__ import annotations

import numpy as np
import pytest

from audio.clauses import MAX_CLAUSE_CHARS, split_first_clause
from audio.format import SAMPLE_RATE
from audio.tts import CLAUSE_LEAD_SECONDS, CLAUSE_PAUSE_SECONDS, trim_join


@pytest.mark.parametrize(
    ("sentence", "parts"),
    [
        ("You asked: how far away is the moon.", ("You asked:", "how far away is the moon.")),
        (
            "The weather in London is mild today, around twelve degrees, with light rain later.",
            (
                "The weather in London is mild today,",
                "around twelve degrees, with light rain later.",
            ),
        ),
        ("The bakery is shut today; it opens again on Monday.",
         ("The bakery is shut today;", "it opens again on Monday.")),
        ("Green tea is lovely - just keep the water below boiling.",
         ("Green tea is lovely -", "just keep the water below boiling.")),
        ("Green tea is lovely\u2014just keep the water below boiling.",
         ("Green tea is lovely\u2014", "just keep the water below boiling.")),
        ("I would fly there tomorrow but the tickets are all sold out.",
         ("I would fly there tomorrow", "but the tickets are all sold out.")),
        ("The kitchen light is on, and the oven has been warming for ten minutes.",
         ("The kitchen light is on,", "and the oven has been warming for ten minutes.")),
        ("Take an umbrella because it will rain in the afternoon.",
         ("Take an umbrella", "because it will rain in the afternoon.")),
    ],
)  # fmt: skip
def test_a_first_sentence_is_cut_at_its_first_clause(sentence: str, parts: tuple) -> None:
    assert split_first_clause(sentence) == parts
    assert "".join(parts).replace(" ", "") == sentence.replace(" ", "")


@pytest.mark.parametrize(
    "sentence",
    [
        "Your total comes to 1,250 pounds and 40 pence today.",  # a number
        "The bus leaves at 7:30 from the stop outside the school.",  # a time
        "Ask your dentist, e.g., Doctor Ahmed about the filling.",  # an abbreviation
        "For the cake you need eggs, flour and milk from the shop.",  # a list
        "Tonight the guests are Tom, Priya and Sam from next door.",  # a list of names
        "For the cake you need eggs, flour, and milk from the shop.",  # an Oxford comma
        "Pick a number between 3 and 5 and I will guess it.",  # no clause mark in reach
        "The answer is somewhere between three and five hundred metres away.",
        "Yes, it is open.",  # short: made whole
        "Sure, that is fine by me.",  # one word before the comma
        "It is open on Sundays, mostly.",  # a word or two would be left
        "Something with rice, please.",
        "You need 1, 2 or 3 spoons of sugar in the tea.",  # a list of numbers
    ],
)
def test_no_cut_where_it_would_sound_wrong(sentence: str) -> None:
    assert split_first_clause(sentence) == (sentence,)


def test_a_clause_beyond_the_first_few_seconds_is_not_waited_for() -> None:
    long_head = "word " * (MAX_CLAUSE_CHARS // 5 + 2)
    sentence = f"{long_head.strip()}, and then a rest that goes on for a while."
    assert split_first_clause(sentence) == (sentence,)


def test_the_parts_say_the_whole_sentence_in_order() -> None:
    sentence = "  Well, my friend, the moon is about 384,400 kilometres away from the Earth.  "
    parts = split_first_clause(sentence)
    rest = "the moon is about 384,400 kilometres away from the Earth."
    assert parts == ("Well, my friend,", rest)
    assert " ".join(parts) == sentence.strip()


def test_nothing_to_say_gives_no_parts() -> None:
    assert split_first_clause("   ") == ()


def _tone(quiet_before: float, loud: float, quiet_after: float) -> np.ndarray:
    """A tone with quiet (a little noise) on either side, as Piper's pieces have."""
    rng = np.random.default_rng(3)
    n = [round(seconds * SAMPLE_RATE) for seconds in (quiet_before, loud, quiet_after)]
    tone = (8000 * np.sin(np.arange(n[1]) * 0.2)).astype(np.int16)
    hush = [rng.integers(-20, 20, size, dtype=np.int16) for size in (n[0], n[2])]
    return np.concatenate([hush[0], tone, hush[1]])


def test_the_join_of_a_clause_and_its_rest_keeps_one_pause() -> None:
    clause, rest = _tone(0.05, 0.5, 0.25), _tone(0.06, 0.5, 0.2)
    head = trim_join(clause, first=True, last=False)
    tail = trim_join(rest, first=False, last=True)
    pause = round(CLAUSE_PAUSE_SECONDS * SAMPLE_RATE)
    lead = round(CLAUSE_LEAD_SECONDS * SAMPLE_RATE)
    window = SAMPLE_RATE // 100
    assert np.array_equal(head[:800], clause[:800])  # the sentence's own start is kept
    assert abs(len(head) - (len(clause) - round(0.25 * SAMPLE_RATE) + pause)) <= window
    assert np.array_equal(tail[-3200:], rest[-3200:])  # and its own end
    assert abs(len(tail) - (len(rest) - round(0.06 * SAMPLE_RATE) + lead)) <= window
    # Nothing loud is cut.
    assert np.abs(head).astype(int).sum() >= np.abs(clause).astype(int).sum() * 0.99
    assert np.abs(tail).astype(int).sum() >= np.abs(rest).astype(int).sum() * 0.99


def test_silence_or_a_tiny_piece_is_left_as_made() -> None:
    silent = np.zeros(4000, dtype=np.int16)
    assert trim_join(silent, first=True, last=False) is silent
    tiny = np.ones(10, dtype=np.int16)
    assert trim_join(tiny, first=False, last=True) is tiny
