"""File mode's output timeline: where the audio clock stands, and Hearth's sounds held until the
clock has passed their end.

The supervisor owns it, so a voice process that dies loses nothing already said: its sounds are
written once the clock has passed them, and the sound it was making when it died stops where its
clock stopped, as a speaker falls silent with its process. Pure: it returns the sounds to write.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from audio import seconds_to_samples


@dataclass(frozen=True, eq=False)
class Sound:
    """Samples (16 kHz mono int16) placed on the audio clock."""

    at_sample: int
    samples: np.ndarray

    @property
    def end_sample(self) -> int:
        """The sample just after the sound."""
        return self.at_sample + len(self.samples)


class OutputTimeline:
    """The audio clock the voice processes reached, and the sounds it has not yet passed."""

    def __init__(self) -> None:
        self._position = 0.0
        self._pending: list[Sound] = []

    @property
    def position(self) -> float:
        """Audio seconds reached so far: where a new voice process goes on."""
        return self._position

    @property
    def position_sample(self) -> int:
        """The same, in samples."""
        return seconds_to_samples(self._position)

    def reached(self, t: float) -> list[Sound]:
        """A voice process reported reaching audio second ``t``: the sounds now settled."""
        self._position = max(self._position, t)
        return self._settle()

    def played(self, sound: Sound) -> list[Sound]:
        """A voice process played ``sound``: the sounds now settled (it too, once passed)."""
        self._pending.append(sound)
        return self._settle()

    def cut(self) -> list[Sound]:
        """The voice process died: what it had begun to play, up to where its clock stopped;
        what it had not begun is dropped (its sentence was not acknowledged and is said again)."""
        now = self.position_sample
        cut = [
            Sound(sound.at_sample, sound.samples[: now - sound.at_sample])
            for sound in self._pending
            if now > sound.at_sample
        ]
        self._pending = []
        return cut

    def rest(self) -> list[Sound]:
        """The end of the run: every sound still held."""
        rest, self._pending = self._pending, []
        return rest

    def _settle(self) -> list[Sound]:
        now = self.position_sample
        settled = [sound for sound in self._pending if sound.end_sample <= now]
        self._pending = [sound for sound in self._pending if sound.end_sample > now]
        return settled
