"""Hearth's own sound made quieter while a person speaks over it, so the stop word they are saying
is heard: full until Silero first scores a frame 0.3, then 20 dB down.

The ring: ``python -m bench.ring`` measured it (a loud ring, three stop phrases, two rooms,
synthetic voices): stop words heard 54 of 96 ducked against 48 of 96 as it is, and a real person's
sentence said over the ring heard with a word error rate of 0.11 against 0.86; AEC3 instead heard
8 of 96. It stays ducked until the ring is over.

A reply, with barge-in: ``python -m bench.echo --stop`` measured it (see the notes in that
bench). AEC3 suppresses the near end during double talk, so the onset of a short "Stop." falls
under Silero's threshold; with the reply 20 dB down there is less echo to suppress and the word
survives. It stays ducked while the person speaks, and each new piece of the reply starts full
again once they have stopped (a cough is not a reason to mumble the rest of the answer).
"""

from __future__ import annotations

import numpy as np

DUCK_PROBABILITY = 0.3
"""Silero's score on a frame over Hearth's sound from which a person is taken to be speaking."""
DUCK_GAIN = 0.1
"""The gain once ducked: 20 dB down."""


class Ducker:
    """Which sound to play, and the rest of the sound to play instead once ducked."""

    def __init__(self) -> None:
        self._sound: tuple[int, np.ndarray] | None = None
        self.ducked = False

    def play(self, sound: np.ndarray, clock: int) -> np.ndarray:
        """``sound`` as it is to be played from audio-clock sample ``clock``: quieter if ducked."""
        full = np.asarray(sound, dtype=np.int16)
        self._sound = (clock, full)
        return _quieter(full) if self.ducked else full

    def duck(self, probability: float | None, clock: int) -> np.ndarray | None:
        """On the first frame a person is heard over the sound: the rest of it sounding now,
        quieter, to play from ``clock`` on (empty when nothing sounds); else None."""
        if self.ducked or probability is None or probability < DUCK_PROBABILITY:
            return None
        self.ducked = True
        if self._sound is None:
            return np.zeros(0, dtype=np.int16)
        at, full = self._sound
        return _quieter(full[max(0, clock - at) :])

    def reset(self) -> None:
        """The next sound plays at full loudness again."""
        self.ducked = False
        self._sound = None


class RingDucker(Ducker):
    """The ring's ducking: one period of sound, played again and again."""

    def __init__(self, sound: np.ndarray) -> None:
        super().__init__()
        self._period = np.asarray(sound, dtype=np.int16)

    @property
    def length(self) -> int:
        """Samples in one period of the ring."""
        return len(self._period)

    def period(self, clock: int) -> np.ndarray:
        """The sound of a period starting at audio-clock sample ``clock``."""
        return self.play(self._period, clock)


def _quieter(sound: np.ndarray) -> np.ndarray:
    return (sound.astype(np.float32) * DUCK_GAIN).astype(np.int16)
