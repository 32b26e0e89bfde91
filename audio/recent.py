"""The last seconds of what the microphone heard, addressed by audio-clock sample."""

from __future__ import annotations

import numpy as np


class RecentAudio:
    """A ring buffer of 16 kHz int16 audio; slices are asked for by absolute sample positions."""

    def __init__(self, capacity_samples: int):
        self._buffer = np.zeros(capacity_samples, dtype=np.int16)
        self._end = 0  # absolute position one past the newest sample

    @property
    def end(self) -> int:
        """Audio-clock sample one past the newest sample held."""
        return self._end

    @property
    def start(self) -> int:
        """The oldest audio-clock sample still held."""
        return max(0, self._end - len(self._buffer))

    def append(self, block: np.ndarray) -> None:
        """Add the next block of audio."""
        block = block[-len(self._buffer) :]
        capacity = len(self._buffer)
        offset = self._end % capacity
        first = min(len(block), capacity - offset)
        self._buffer[offset : offset + first] = block[:first]
        self._buffer[: len(block) - first] = block[first:]
        self._end += len(block)

    def skip_to(self, position: int) -> None:
        """Jump the clock forward (a resumed input); what lies between is silence."""
        if position > self._end:
            self.append(np.zeros(min(position - self._end, len(self._buffer)), dtype=np.int16))
            self._end = position

    def between(self, start: int, end: int) -> np.ndarray:
        """Audio from ``start`` to ``end`` (clipped to what is still held)."""
        start, end = max(start, self.start), min(end, self._end)
        if end <= start:
            return np.zeros(0, dtype=np.int16)
        capacity = len(self._buffer)
        indexes = np.arange(start, end) % capacity
        return self._buffer[indexes]
