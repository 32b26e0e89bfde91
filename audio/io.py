"""The two narrow interfaces between Hearth and the room: where sound comes from and goes to.

A microphone and a WAV file are both an :class:`AudioSource`; a speaker and an output WAV on the
input's timeline are both an :class:`AudioSink`. Everything crossing them is 16 kHz mono int16
(:mod:`audio.format`); positions are audio-clock samples, the count of input samples consumed.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


class AudioSource(Protocol):
    """Sound coming in, block by block."""

    def read(self, n: int) -> np.ndarray | None:
        """The next ``n`` samples; fewer only in the last block of a finite input; None after it.

        A live source blocks until the samples have been heard.
        """
        ...

    def close(self) -> None:
        """Release the device or file; later reads return None. Closing twice is harmless."""
        ...


@runtime_checkable
class LiveSource(AudioSource, Protocol):
    """A source that records in real time (a microphone): it can be asked without waiting, and
    waited on together with other work (:func:`multiprocessing.connection.wait`)."""

    def poll(self, n: int) -> np.ndarray | None:
        """The next ``n`` samples if they have been recorded, else None; never waits."""
        ...

    def fileno(self) -> int:
        """A descriptor that becomes readable when new audio arrives."""
        ...

    recorded_at: float
    """When the first sample of the last frame read was recorded, on the monotonic clock."""


class AudioSink(Protocol):
    """Sound going out: what Hearth says."""

    def play(self, samples: np.ndarray, at_sample: int) -> None:
        """Say ``samples`` starting at audio-clock position ``at_sample``.

        A live speaker plays them now (it has no use for the position) and returns once they have
        been heard; a timeline places them at ``at_sample`` and returns at once.
        """
        ...

    def close(self) -> None:
        """Finish: release the device, or write the file. Closing twice is harmless."""
        ...
