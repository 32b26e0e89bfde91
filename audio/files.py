"""File mode's source and sink: a WAV as the room's microphone, and a WAV of what Hearth said.

The output has the input's timeline: what Hearth says at audio-clock sample ``t`` starts at sample
``t`` of the output, with silence wherever it said nothing, so the two files line up in any editor
and a test can cut out a reply by its event time.
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np

from audio.format import samples_to_seconds
from audio.wav import read_wav, write_wav

log = logging.getLogger(__name__)


class WavSource:
    """An :class:`audio.io.AudioSource` reading a WAV file (any rate, channels, sample format)."""

    def __init__(self, path: str | Path):
        """Read and convert the whole file now, so a bad file fails before listening starts.

        Raises:
            audio.wav.WavError: the file is missing, not a WAV, truncated or empty of audio.
        """
        self.path = Path(path)
        self._samples = read_wav(self.path)
        self._position = 0
        self._closed = False
        log.info("Input %s: %.1f s", self.path, samples_to_seconds(self.total_samples))

    @property
    def total_samples(self) -> int:
        """Length of the input at 16 kHz."""
        return len(self._samples)

    def read(self, n: int) -> np.ndarray | None:
        """The next ``n`` samples (fewer in the last block); None at the end or once closed."""
        if self._closed or self._position >= len(self._samples):
            return None
        block = self._samples[self._position : self._position + n].copy()
        self._position += len(block)
        return block

    def close(self) -> None:
        """Stop reading; later reads return None."""
        self._closed = True


class TimelineSink:
    """An :class:`audio.io.AudioSink` writing what Hearth says into a WAV on the input's timeline.

    Only the speech is held in memory; the file is written (atomically) by :meth:`close`, as long
    as the input (``total_samples``) or longer if the last reply runs past its end. Sounds that
    overlap are mixed, as they would be in a room.
    """

    def __init__(self, path: str | Path, total_samples: int = 0):
        self.path = Path(path)
        self._total_samples = total_samples
        self._sounds: list[tuple[int, np.ndarray]] = []
        self._closed = False

    def play(self, samples: np.ndarray, at_sample: int) -> None:
        """Place 16 kHz mono int16 ``samples`` at audio-clock sample ``at_sample``."""
        if self._closed:
            raise ValueError(f"timeline {self.path} is already written")
        if at_sample < 0:
            raise ValueError(f"a sound cannot start before the timeline does ({at_sample})")
        self._sounds.append((at_sample, np.asarray(samples, dtype=np.int16).copy()))

    def close(self) -> None:
        """Write the timeline to the file."""
        if self._closed:
            return
        self._closed = True
        ends = (start + len(sound) for start, sound in self._sounds)
        timeline = np.zeros(max(self._total_samples, *ends, 0), dtype=np.int32)
        for start, sound in self._sounds:
            timeline[start : start + len(sound)] += sound
        write_wav(self.path, np.clip(timeline, -32768, 32767).astype(np.int16))
        log.info(
            "Output %s: %d sounds on %.1f s",
            self.path,
            len(self._sounds),
            samples_to_seconds(len(timeline)),
        )
