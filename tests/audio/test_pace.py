"""The synthesis pace: a deadline scaled to the text, from the slowest pace seen, per voice."""

import pytest

from audio.pace import MARGIN, MIN_CHARS, PACE_WINDOW, SynthesisPace

VOICE = "en_US-joe-medium"


def test_a_voice_not_heard_yet_has_no_deadline_of_its_own():
    pace = SynthesisPace()
    assert pace.deadline(VOICE, 100) is None
    pace.observe(VOICE, 100, 0.5)
    assert pace.deadline("en_GB-alan-low", 100) is None


def test_the_deadline_scales_with_the_text_and_allows_a_margin():
    pace = SynthesisPace()
    pace.observe(VOICE, 100, 0.5)  # 5 ms a character
    assert pace.deadline(VOICE, 100) == pytest.approx(MARGIN * 0.5)
    assert pace.deadline(VOICE, 400) == pytest.approx(MARGIN * 2.0)
    assert pace.deadline(VOICE, 400) > 4 * 0.5 * 2  # four times the text, twice as slow


def test_the_slowest_recent_pace_sets_it():
    pace = SynthesisPace()
    pace.observe(VOICE, 100, 2.0)
    for _ in range(PACE_WINDOW - 1):
        pace.observe(VOICE, 100, 0.5)
    assert pace.deadline(VOICE, 100) == pytest.approx(MARGIN * 2.0)
    pace.observe(VOICE, 100, 0.5)  # the slow one has left the window
    assert pace.deadline(VOICE, 100) == pytest.approx(MARGIN * 0.5)


def test_a_short_piece_counts_as_a_minimum_length():
    pace = SynthesisPace()
    pace.observe(VOICE, 2, 0.2)  # "Ok." costs Piper's fixed overhead, not 0.1 s a character
    per_char = 0.2 / MIN_CHARS
    assert pace.deadline(VOICE, 200) == pytest.approx(MARGIN * per_char * 200)
    assert pace.deadline(VOICE, 1) == pace.deadline(VOICE, MIN_CHARS)
