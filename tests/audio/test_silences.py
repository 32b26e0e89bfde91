"""Long silences inside an utterance, shortened before Whisper hears it (pure, no model)."""

from __future__ import annotations

import numpy as np

from audio.format import seconds_to_samples
from audio.silences import SILENCE_HEARD_SECONDS, shortened

KEEP = seconds_to_samples(SILENCE_HEARD_SECONDS)


def marked(*parts: tuple[int, int]) -> np.ndarray:
    """Runs of ``(value, length)``: speech as its value, silence as 0."""
    return np.concatenate([np.full(length, value, dtype=np.int16) for value, length in parts])


def test_a_long_silence_keeps_its_edges_and_loses_its_middle():
    samples = marked((1, 1000), (0, 16_000), (2, 1000))
    heard = shortened(samples, [(1000, 17_000)])
    assert len(heard) == 2000 + KEEP
    np.testing.assert_array_equal(heard, marked((1, 1000), (0, KEEP), (2, 1000)))


def test_short_silences_and_none_leave_the_samples_as_they_are():
    samples = marked((1, 1000), (0, KEEP), (2, 1000))
    assert shortened(samples, [(1000, 1000 + KEEP)]) is samples
    assert shortened(samples, []) is samples


def test_every_long_silence_is_shortened_in_order_whatever_order_they_come_in():
    samples = marked((1, 500), (0, 8000), (2, 500), (0, 12_000), (3, 500))
    heard = shortened(samples, [(9000, 21_000), (500, 8500)])
    np.testing.assert_array_equal(heard, marked((1, 500), (0, KEEP), (2, 500), (0, KEEP), (3, 500)))


def test_silences_reaching_past_the_samples_or_overlapping_are_clipped():
    samples = marked((1, 500), (0, 10_000))
    heard = shortened(samples, [(500, 20_000), (600, 30_000), (-5, 200)])
    np.testing.assert_array_equal(heard, marked((1, 500), (0, KEEP)))
