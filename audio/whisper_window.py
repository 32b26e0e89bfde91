"""Whisper's encoder run on the speech in a window, not on the silence that pads it to 30 s.

Whisper hears in windows of 30 s, and a request of 3 s is padded with 27 s of silence (feature
columns of zeros) before the encoder sees it: on two cores tiny.en spent about 0.5 s encoding such
a window, five times the decoding that follows, and most of the wait for a transcript. Encoding
the speech alone in a short window is quick but Whisper then loops ("The pencils have all been
used. The pencils have all been used. ..."): its decoder learned that a window is 30 s long and
ends in padding. So the window keeps its length, and only its padding is not encoded again: the
speech and a second of padding after it go through the encoder, and the positions after them are
taken from the encoding of a window of padding alone, made once when the model loads.

Measured on 84 clips (real speakers and two synthetic voice families, clean and across two
measured rooms and a simulated one under real noise, /tmp benches before this module): the same
word error rate as the whole window (real speech across rooms 4.8% against 3.2%, one word; the
synthetic voices 17 to 21% against 21 to 27%), no loops, a third to a quarter of the time. Whisper
writes the final full stop less often (53 of 84 against 75), which the end of a turn allows for
(``audio.end_of_turn``: a request of a few whole words needs no mark).
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import ctranslate2
import numpy as np
from faster_whisper import WhisperModel

PADDING_FRAMES = 100
"""Feature columns (10 ms each) of padding encoded with the speech: a second of silence after it."""


class SpeechWindowWhisper(WhisperModel):
    """A faster-whisper model (on the CPU) whose encoder skips a window's padding (see above)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        frames = self.feature_extractor.nb_max_frames
        blank = np.zeros((1, self.model.n_mels, frames), dtype=np.float32)
        self._padding = np.asarray(super().encode(blank))
        """The encoding of a window of padding alone: (1, positions, width)."""
        self._whole = threading.local()
        self._last = threading.local()
        """This thread's last window encoded: its key and the encoder's output."""

    @contextmanager
    def whole_windows(self) -> Iterator[None]:
        """Within this, this thread's windows are encoded whole, padding and all (a figure
        calibrated on whole windows, such as the no-speech probability, is wanted as it was)."""
        self._whole.on = True
        try:
            yield
        finally:
            self._whole.on = False

    def encode(self, features: np.ndarray) -> ctranslate2.StorageView:
        """The encoder's output for ``features`` ((mels, frames) or (batch, mels, frames)): the
        columns up to the last non-padding one and :data:`PADDING_FRAMES` more are encoded, the
        remaining positions are the padding's own encoding. Windows of another length, or that
        need nearly all of it, are encoded whole.

        The last window encoded on this thread is kept: the forced decoding that follows a
        transcription of the same audio (``SpeechToText.end_readings``) reuses it."""
        whole = getattr(self._whole, "on", False)
        window = np.ascontiguousarray(features)
        key = (whole, window.shape, hashlib.blake2b(window.view(np.uint8)).digest())
        if getattr(self._last, "key", None) == key:
            return self._last.output
        output = self._encode(window, whole)
        self._last.key, self._last.output = key, output
        return output

    def _encode(self, features: np.ndarray, whole: bool) -> ctranslate2.StorageView:
        if whole:
            return super().encode(features)
        window = features if features.ndim == 3 else features[np.newaxis]
        frames = window.shape[-1]
        spoken = np.flatnonzero(np.any(window != 0, axis=(0, 1)))
        keep = (int(spoken[-1]) + 1 if spoken.size else 0) + PADDING_FRAMES
        keep += keep % 2  # the encoder's stride halves the frames into positions
        if frames != self.feature_extractor.nb_max_frames or keep >= frames:
            return super().encode(features)
        head = np.asarray(super().encode(np.ascontiguousarray(window[..., :keep])))
        tail = np.repeat(self._padding[:, head.shape[1] :], head.shape[0], axis=0)
        whole = np.ascontiguousarray(np.concatenate([head, tail], axis=1))
        return ctranslate2.StorageView.from_array(whole)
