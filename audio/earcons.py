"""Short tones that tell the room what Hearth is doing, made in code (no sound files to ship).

Each is a few notes with a raised-cosine fade in and out, so no note starts or stops with a click,
at a loudness a little below Piper's speech, so it is heard but does not startle.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from audio.format import SAMPLE_RATE, seconds_to_samples

LOUDNESS_RMS = 0.09
"""Root-mean-square level of the sounding part of every earcon, as a fraction of full scale: about
4 dB below Piper's speech (0.14). Levelled by loudness, not peak, so the buzz (a steady square-ish
wave, more energy per peak than a decaying chime) is no louder than the chimes."""
FADE_SECONDS = 0.005
"""Raised-cosine fade at both ends of every note: long enough to avoid a click, short enough to
keep the attack crisp."""


class Earcon(StrEnum):
    """What an earcon announces."""

    WAKE = "wake"
    """A rising two-note chime: Hearth is listening."""
    END_OF_LISTENING = "end_of_listening"
    """A falling two-note chime: Hearth has heard the request."""
    ERROR = "error"
    """A low double buzz: something went wrong."""
    RING = "ring"
    """One period of a timer's or an alarm's ring: two quick rising runs of three bright notes,
    then silence (a stop word said in it is heard clean); played again and again until stopped."""


@dataclass(frozen=True)
class _Note:
    hertz: float
    seconds: float
    gap_seconds: float = 0.0
    """Silence after the note."""
    harmonics: tuple[float, ...] = (1.0, 0.3, 0.1)
    """Relative amplitudes of the fundamental and its overtones (2f, 3f, ...)."""
    decay_per_second: float = 12.0
    """Exponential decay, for a struck-bell feel; 0 holds the note steady."""


# Notes a fourth apart (E5, A5): a clear interval that reads as "up" or "down".
_E5, _A5 = 659.25, 880.0
# The ring: a major triad an octave above, bright and unlike speech (few harmonics, fast decay).
_C6, _E6, _G6 = 1046.5, 1318.5, 1568.0
RING_PERIOD_SECONDS = 2.0
"""One ring, sound and silence: 0.92 s of notes, then 1.08 s of quiet."""
_RUN = (_Note(_C6, 0.10, gap_seconds=0.03), _Note(_E6, 0.10, gap_seconds=0.03))
_BUZZ = (1.0, 0.0, 0.5, 0.0, 0.3, 0.0, 0.2)
"""Odd harmonics only: a soft square-ish buzz, unmistakably not a chime."""
_NOTES: dict[Earcon, tuple[_Note, ...]] = {
    Earcon.WAKE: (_Note(_E5, 0.09, gap_seconds=0.02), _Note(_A5, 0.16)),
    Earcon.END_OF_LISTENING: (_Note(_A5, 0.09, gap_seconds=0.02), _Note(_E5, 0.16)),
    Earcon.ERROR: (
        _Note(180.0, 0.12, gap_seconds=0.07, harmonics=_BUZZ, decay_per_second=0.0),
        _Note(180.0, 0.12, harmonics=_BUZZ, decay_per_second=0.0),
    ),
    Earcon.RING: (
        *_RUN,
        _Note(_G6, 0.10, gap_seconds=0.20),
        *_RUN,
        _Note(_G6, 0.10, gap_seconds=1.08),
    ),
}


def earcon(kind: Earcon) -> np.ndarray:
    """The earcon ``kind`` as 16 kHz mono int16 samples."""
    parts = []
    for note in _NOTES[kind]:
        parts.append(_tone(note))
        parts.append(np.zeros(seconds_to_samples(note.gap_seconds), dtype=np.float64))
    audio = np.concatenate(parts)
    sounding = audio[np.abs(audio) > 0.01 * np.max(np.abs(audio))]
    audio *= LOUDNESS_RMS / np.sqrt(np.mean(sounding**2))
    return np.round(audio * 32767).astype(np.int16)


def _tone(note: _Note) -> np.ndarray:
    t = np.arange(seconds_to_samples(note.seconds)) / SAMPLE_RATE
    wave = sum(
        amplitude * np.sin(2 * np.pi * note.hertz * (overtone + 1) * t)
        for overtone, amplitude in enumerate(note.harmonics)
        if amplitude
    )
    wave = wave * np.exp(-note.decay_per_second * t)
    fade = seconds_to_samples(FADE_SECONDS)
    ramp = 0.5 - 0.5 * np.cos(np.linspace(0, np.pi, fade))
    wave[:fade] *= ramp
    wave[-fade:] *= ramp[::-1]
    return wave
