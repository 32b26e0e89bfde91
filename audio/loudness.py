"""How loud Hearth plays: a volume level and an output mute, turned into a gain on its samples.

A pure value: the supervisor keeps it (changed by voice or from Home Assistant, stored durably)
and sends it to the voice process, which scales every sound it plays with :meth:`OutputLevel.apply`.
The level is a position on a volume slider, not an amplitude: the gain follows the cube of the
level, as PulseAudio's software volume does, so each step of the slider sounds about as big as
the last (a linear gain would leave the top half of the slider sounding nearly the same).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

STEP = 0.1
"""How far "volume up" or "quieter" moves the level."""
QUIETEST_STEP_DOWN = 0.1
""""Quieter" goes no lower than this: silence is what "mute" or "volume zero" ask for."""


@dataclass(frozen=True)
class OutputLevel:
    """Hearth's volume level (0.0 to 1.0 of full) and whether its output is muted.

    Output mute silences what Hearth plays (speech and earcons) and keeps the level to come back
    to; it is not the microphone mute, which stops Hearth hearing the room.
    """

    level: float = 1.0
    muted: bool = False

    def __post_init__(self) -> None:
        if not (math.isfinite(self.level) and 0.0 <= self.level <= 1.0):
            raise ValueError(f"volume level {self.level} is outside 0.0 to 1.0")

    @property
    def percent(self) -> int:
        """The level as a whole percentage, as it is said and shown."""
        return round(self.level * 100)

    @property
    def gain(self) -> float:
        """The factor every sample is multiplied by: 0 when muted, else the level cubed."""
        return 0.0 if self.muted else self.level**3

    def apply(self, samples: np.ndarray) -> np.ndarray:
        """``samples`` (int16) at this level; untouched at full volume."""
        gain = self.gain
        if gain == 1.0:
            return samples
        scaled = np.rint(samples.astype(np.float32) * gain)
        return np.clip(scaled, -32768, 32767).astype(np.int16)

    def louder(self) -> OutputLevel:
        """One step up (and unmuted: asking for more sound means wanting to hear it)."""
        return OutputLevel(_rounded(min(1.0, self.level + STEP)))

    def quieter(self) -> OutputLevel:
        """One step down, not below the quietest step (and unmuted)."""
        floor = min(self.level, QUIETEST_STEP_DOWN)
        return OutputLevel(_rounded(max(floor, self.level - STEP)))

    def at(self, percent: int) -> OutputLevel:
        """Set to ``percent`` of full volume (and unmuted)."""
        return OutputLevel(min(100, max(0, percent)) / 100)

    def with_mute(self, muted: bool) -> OutputLevel:
        """The same level, muted or not."""
        return OutputLevel(self.level, muted)


def _rounded(level: float) -> float:
    """Steps land on whole percents (0.7 + 0.1 is not 0.7999999)."""
    return round(level, 2)
