"""How well a wake word was heard: its score and the level of the speech that carried it.

Several Hearths in one household hear the same "Hey Jarvis"; the one that heard it best answers
(see ``assistant/arbitration``). The wake model's score says how sure it is of the words and the
level says how near the speaker was: a device across the room hears the same voice, reverberant
and some 10 dB quieter.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SILENT_DB = -120.0
"""The level of digital silence (the logarithm of zero has no value)."""


@dataclass(frozen=True)
class WakeMeasure:
    """One accepted wake word as this device heard it."""

    t: float
    """Audio-clock seconds when it was accepted."""
    score: float
    """The wake model's score, 0..1."""
    level_db: float
    """RMS level of the audio the wake word was verified on, in dB relative to full scale."""


def level_db(samples: np.ndarray) -> float:
    """RMS level of int16 samples in dBFS (``SILENT_DB`` for silence or no samples)."""
    if samples.size == 0:
        return SILENT_DB
    rms = float(np.sqrt(np.mean(np.square(samples, dtype=np.float64)))) / 32768.0
    return max(SILENT_DB, 20.0 * float(np.log10(rms))) if rms > 0 else SILENT_DB
