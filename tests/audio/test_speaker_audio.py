"""Finding the ring and the speech in a recording of Hearth's speaker (tests/speaker_audio.py)."""

from __future__ import annotations

import numpy as np

from audio.earcons import RING_PERIOD_SECONDS, Earcon, earcon
from tests.speaker_audio import ring_episodes, ring_onsets, speech_stretches
from tests.speech import silence, speech

SAMPLE_RATE = 16_000
PERIOD = round(RING_PERIOD_SECONDS * SAMPLE_RATE)


def recording(ring_gain: float = 1.0) -> tuple[np.ndarray, int, np.ndarray]:
    """A sentence, then the ring for two periods from a known sample, then a tone."""
    said = speech("Your pasta timer is done.")
    ring = np.tile(earcon(Earcon.RING), 2) * ring_gain
    tone = 3000 * np.sin(2 * np.pi * 440 * np.arange(SAMPLE_RATE // 2) / SAMPLE_RATE)
    parts = [silence(0.5), said, silence(1.0), ring, silence(1.0), tone, silence(0.5)]
    audio = np.concatenate([part.astype(np.float64) for part in parts])
    return np.round(audio).astype(np.int16), len(silence(0.5)) + len(said) + SAMPLE_RATE, said


def test_each_ring_period_is_found_to_the_sample_whatever_the_volume() -> None:
    for gain in (1.0, 0.05):
        audio, at, _ = recording(gain)
        assert ring_onsets(audio) == [at, at + PERIOD]


def test_the_periods_make_one_episode_and_speech_is_never_a_ring() -> None:
    audio, at, _ = recording()
    [(start, end)] = ring_episodes(audio)
    assert start == at and at + PERIOD < end < at + 2 * PERIOD
    assert ring_onsets(speech("Hey Jarvis, set a timer for ten minutes.")) == []


def test_speech_stretches_leave_the_ring_out() -> None:
    audio, _, said = recording()
    sentence, tone = speech_stretches(audio)
    assert abs(len(sentence) - len(said)) < 0.3 * SAMPLE_RATE
    assert abs(len(tone) - SAMPLE_RATE // 2) < 0.05 * SAMPLE_RATE
