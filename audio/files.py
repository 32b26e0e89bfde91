"""File mode's source and sink: a WAV as the room's microphone, and a WAV of what Hearth said.

The output has the input's timeline: what Hearth says at audio-clock sample ``t`` starts at sample
``t`` of the output, with silence wherever it said nothing, so the two files line up in any editor
and a test can cut out a reply by its event time.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from audio.format import SAMPLE_RATE, samples_to_seconds
from audio.wav import WavReader, write_wav_blocks

log = logging.getLogger(__name__)


_TIMELINE_BLOCK_SAMPLES = 10 * SAMPLE_RATE
"""The output is mixed and written this much at a time, so a recording of hours is never held."""


class WavSource:
    """An :class:`audio.io.AudioSource` reading a WAV file (any rate, channels, sample format),
    a block at a time."""

    def __init__(self, path: str | Path):
        """Open the file and read its header, so a file that is no WAV fails at once; the rest
        is read as it is heard (:func:`audio.wav.check_wav` reads it all first, for a caller
        that must know before it starts: a voice process must not, as its watchdog waits).

        Raises:
            audio.wav.WavError: the file is missing, not a WAV, truncated or empty of audio.
        """
        self.path = Path(path)
        self._reader = WavReader(self.path)
        self.total_samples = self._reader.total_samples
        """Length of the input at 16 kHz."""
        self._blocks = self._reader.blocks()
        self._buffer = np.zeros(0, dtype=np.int16)
        self._closed = False
        log.info("Input %s: %.1f s", self.path, samples_to_seconds(self.total_samples))

    def read(self, n: int) -> np.ndarray | None:
        """The next ``n`` samples (fewer in the last block); None at the end or once closed."""
        if self._closed or not self._fill(n):
            return None
        block, self._buffer = self._buffer[:n].copy(), self._buffer[n:]
        return block

    def start_at(self, sample: int) -> None:
        """Read on from 16 kHz sample ``sample`` (where an earlier voice process stopped), before
        anything is read: the file is sought, so a restart an hour in sends its heartbeat at once
        (converting the hour first took seconds, past the watchdog's wait)."""
        self._blocks = self._reader.blocks(sample)
        self._buffer = np.zeros(0, dtype=np.int16)

    def close(self) -> None:
        """Stop reading; later reads return None."""
        self._closed = True
        self._reader.close()

    def _fill(self, n: int) -> bool:
        """At least ``n`` samples buffered, or all that is left; False at the end."""
        pieces = [self._buffer]
        held = len(self._buffer)
        while held < n and (block := next(self._blocks, None)) is not None:
            pieces.append(block)
            held += len(block)
        if len(pieces) > 1:
            self._buffer = np.concatenate(pieces)
        return held > 0


class TimelineSink:
    """An :class:`audio.io.AudioSink` writing what Hearth says into a WAV on the input's timeline.

    Only the speech is held in memory; the file is written (atomically, a block at a time) by
    :meth:`close`, as long as the input (``total_samples``) or longer if the last reply runs past
    its end. Sounds that overlap are mixed, as they would be in a room.
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
        length = max(self._total_samples, *ends, 0)
        write_wav_blocks(self.path, self._mixed(length))
        log.info(
            "Output %s: %d sounds on %.1f s",
            self.path,
            len(self._sounds),
            samples_to_seconds(length),
        )

    def _mixed(self, length: int) -> Iterator[np.ndarray]:
        for first in range(0, max(length, 1), _TIMELINE_BLOCK_SAMPLES):
            last = min(first + _TIMELINE_BLOCK_SAMPLES, length)
            block = np.zeros(last - first, dtype=np.int32)
            for start, sound in self._sounds:
                begin, end = max(start, first), min(start + len(sound), last)
                if begin < end:
                    block[begin - first : end - first] += sound[begin - start : end - start]
            yield np.clip(block, -32768, 32767).astype(np.int16)
