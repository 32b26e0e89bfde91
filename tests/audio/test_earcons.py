"""Earcons: short, soft, click-free, and each recognisable by its shape."""

from __future__ import annotations

import numpy as np
import pytest

from audio.earcons import LOUDNESS_RMS, RING_PERIOD_SECONDS, Earcon, earcon
from audio.format import SAMPLE_RATE

MILLISECOND = SAMPLE_RATE // 1000


def pitch(samples: np.ndarray) -> float:
    """Dominant frequency in Hz."""
    spectrum = np.abs(np.fft.rfft(samples.astype(np.float64) * np.hanning(len(samples))))
    return float(np.argmax(spectrum) * SAMPLE_RATE / len(samples))


def bursts(samples: np.ndarray, threshold: float = 0.02) -> list[tuple[int, int]]:
    """(start, end) of each stretch of sound, in 1 ms windows above ``threshold`` of full scale."""
    windows = samples[: len(samples) // MILLISECOND * MILLISECOND].reshape(-1, MILLISECOND)
    loud = np.abs(windows).max(axis=1) > threshold * 32767
    edges = np.flatnonzero(np.diff(np.concatenate(([0], loud.astype(int), [0]))))
    starts, ends = edges[::2], edges[1::2]
    return [(int(a) * MILLISECOND, int(b) * MILLISECOND) for a, b in zip(starts, ends, strict=True)]


@pytest.mark.parametrize("kind", list(Earcon))
def test_every_earcon_is_short_soft_internal_audio(kind: Earcon) -> None:
    sound = earcon(kind)
    assert sound.dtype == np.int16 and sound.ndim == 1
    if kind is Earcon.RING:  # one period of a ring: its notes, then the quiet a stop is said in
        assert len(sound) / SAMPLE_RATE == pytest.approx(RING_PERIOD_SECONDS)
        sound = sound[: bursts(sound)[-1][1]]
        assert len(sound) / SAMPLE_RATE < 1.0
    else:
        assert 0.1 < len(sound) / SAMPLE_RATE < 0.5
    level = sound.astype(np.float64) / 32767
    sounding = level[np.abs(level) > 0.01 * np.abs(level).max()]
    assert np.sqrt(np.mean(sounding**2)) == pytest.approx(LOUDNESS_RMS, rel=0.01)
    assert 0.1 < np.abs(level).max() < 0.3  # heard, but well below speech at full scale


@pytest.mark.parametrize("kind", list(Earcon))
def test_every_note_fades_in_and_out(kind: Earcon) -> None:
    sound = earcon(kind).astype(np.int32)
    peak = np.abs(sound).max()
    for start, end in bursts(earcon(kind)):
        # The first and last millisecond of each note are far quieter than its body: no click.
        assert np.abs(sound[start : start + MILLISECOND]).max() < 0.6 * peak
        assert np.abs(sound[end - MILLISECOND : end]).max() < 0.6 * peak
    assert abs(int(sound[0])) < 0.02 * peak and abs(int(sound[-1])) < 0.02 * peak


def test_wake_rises_and_end_of_listening_falls() -> None:
    for kind, rising in ((Earcon.WAKE, True), (Earcon.END_OF_LISTENING, False)):
        sound = earcon(kind)
        notes = bursts(sound)
        assert len(notes) == 2
        first, second = (pitch(sound[a:b]) for a, b in notes)
        assert (second > first) == rising
        assert min(first, second) > 400
        assert max(first, second) < 1200


def test_error_is_a_low_double_buzz() -> None:
    sound = earcon(Earcon.ERROR)
    notes = bursts(sound)
    assert len(notes) == 2
    gap = (notes[1][0] - notes[0][1]) / SAMPLE_RATE
    assert gap > 0.04
    assert all(pitch(sound[a:b]) < 300 for a, b in notes)
    assert pitch(sound) < pitch(earcon(Earcon.WAKE)) / 2


def test_the_ring_is_two_rising_runs_of_bright_notes_then_quiet() -> None:
    sound = earcon(Earcon.RING)
    notes = bursts(sound)
    assert len(notes) == 6
    pitches = [pitch(sound[a:b]) for a, b in notes]
    assert pitches[0] < pitches[1] < pitches[2] and pitches[3] < pitches[4] < pitches[5]
    assert min(pitches) > 1000  # above speech's formants: unlike a voice
    assert (len(sound) - notes[-1][1]) / SAMPLE_RATE > 1.0
