"""How well a wake word was heard: its score and the level of the speech that carried it.

Several Hearths in one household hear the same "Hey Jarvis"; the one that heard it best answers
(see ``assistant/arbitration``). The wake model's score says how sure it is of the words and the
level says how near the speaker was: a device across the room hears the same voice, reverberant
and some 10 dB quieter. The level is counted over the room's noise floor where that floor is above
a quiet room's: a Hearth beside a playing TV hears the voice louder and worse than one across a
quiet room, and the one that hears it more clearly should take the request.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SILENT_DB = -120.0
"""The level of digital silence (the logarithm of zero has no value)."""
QUIET_FLOOR_DB = -60.0
"""A quiet room's noise floor through a microphone, in dBFS: a floor below it says nothing
about how well the voice was heard, so levels over quiet floors compare as levels."""
FLOOR_SECONDS = 3.0
"""How much audio before the wake word its noise floor is measured on."""
_FLOOR_FRAME = 480
"""30 ms frames."""


@dataclass(frozen=True)
class WakeMeasure:
    """One accepted wake word as this device heard it."""

    t: float
    """Audio-clock seconds when it was accepted."""
    score: float
    """The wake model's score, 0..1."""
    level_db: float
    """RMS level of the audio the wake word was verified on, in dB relative to full scale."""
    floor_db: float = SILENT_DB
    """The room's noise floor before the wake word, dBFS (:func:`noise_floor_db`)."""

    @property
    def clarity_db(self) -> float:
        """How far the wake word stood above the room's noise floor, or above a quiet room's
        when the room was quieter: what devices compare to tell who heard it best."""
        return self.level_db - max(self.floor_db, QUIET_FLOOR_DB)


def level_db(samples: np.ndarray) -> float:
    """RMS level of int16 samples in dBFS (``SILENT_DB`` for silence or no samples)."""
    if samples.size == 0:
        return SILENT_DB
    rms = float(np.sqrt(np.mean(np.square(samples, dtype=np.float64)))) / 32768.0
    return max(SILENT_DB, 20.0 * float(np.log10(rms))) if rms > 0 else SILENT_DB


def noise_floor_db(samples: np.ndarray) -> float:
    """The noise floor of int16 samples in dBFS: the median of their 30 ms frames' levels, the
    sound a typical moment holds (a door's bang does not raise it; a TV talking all the time
    does, which is what it is to be heard over). ``SILENT_DB`` for no samples."""
    frames = len(samples) // _FLOOR_FRAME
    if frames == 0:
        return SILENT_DB
    shaped = samples[: frames * _FLOOR_FRAME].reshape(frames, _FLOOR_FRAME).astype(np.float64)
    rms = np.sqrt(np.mean(np.square(shaped), axis=1)) / 32768.0
    floor = float(np.median(rms))
    return max(SILENT_DB, 20.0 * float(np.log10(floor))) if floor > 0 else SILENT_DB
