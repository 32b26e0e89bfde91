"""Reading a recording of Hearth's speaker: where its ring sounds, and the speech around it.

The ring is found by its own waveform (the ring earcon's notes, matched by normalised
cross-correlation), so a sentence never passes for a ring and a ring's onset is found to the
sample, fade-in included, whatever the output volume.
"""

from __future__ import annotations

import numpy as np
from scipy.signal import fftconvolve

from audio.earcons import RING_PERIOD_SECONDS, Earcon, earcon

SAMPLE_RATE = 16_000
RING_MATCH = 0.7
"""Normalised correlation above which a stretch of the recording is the ring's notes."""
QUIET = 300
"""Peak level under which the speaker is quiet (a null sink carries no noise of its own)."""


def _ring_notes() -> np.ndarray:
    period = earcon(Earcon.RING).astype(np.float64)
    sounding = np.flatnonzero(np.abs(period) > 0)
    return period[: sounding[-1] + 1]


def ring_onsets(audio: np.ndarray) -> list[int]:
    """The samples at which a period of the ring begins, in order."""
    notes = _ring_notes()
    if len(audio) < len(notes):
        return []
    signal = audio.astype(np.float64)
    cross = fftconvolve(signal, notes[::-1], mode="valid")
    energy = np.convolve(signal**2, np.ones(len(notes)), mode="valid")
    score = cross / (np.sqrt(np.maximum(energy, 1e-9)) * np.linalg.norm(notes))
    onsets: list[int] = []
    apart = round(RING_PERIOD_SECONDS * SAMPLE_RATE / 2)
    for index in np.flatnonzero(score > RING_MATCH):
        if onsets and index - onsets[-1] < apart:
            if score[index] > score[onsets[-1]]:
                onsets[-1] = int(index)  # the best match of this period
            continue
        onsets.append(int(index))
    return onsets


def ring_episodes(audio: np.ndarray) -> list[tuple[int, int]]:
    """Each time the ring sounded, period after period: (first sample, end of its last notes)."""
    episodes: list[tuple[int, int]] = []
    period = round(RING_PERIOD_SECONDS * SAMPLE_RATE)
    length = len(_ring_notes())
    for onset in ring_onsets(audio):
        if episodes and onset - episodes[-1][1] < period:
            episodes[-1] = (episodes[-1][0], onset + length)
        else:
            episodes.append((onset, onset + length))
    return episodes


def speech_stretches(audio: np.ndarray, gap_seconds: float = 0.8) -> list[np.ndarray]:
    """What the speaker played apart from its rings, cut at every pause of ``gap_seconds``."""
    rest = audio.copy()
    for start, end in ring_episodes(audio):
        rest[start:end] = 0
    window = SAMPLE_RATE // 100
    frames = rest[: len(rest) // window * window].reshape(-1, window)
    loud = np.flatnonzero(np.abs(frames).max(axis=1) > QUIET)
    stretches: list[np.ndarray] = []
    gap = round(gap_seconds * 100)
    first = previous = None
    for frame in loud:
        if first is None:
            first = frame
        elif frame - previous > gap:
            stretches.append(rest[first * window : (previous + 1) * window])
            first = frame
        previous = frame
    if first is not None:
        stretches.append(rest[first * window : (previous + 1) * window])
    return stretches
