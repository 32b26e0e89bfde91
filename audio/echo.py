"""Hearth's own voice taken out of its microphone: an acoustic echo canceller fed what was played.

With barge-in the microphone stays open while Hearth speaks, so its own voice comes back through
the room, loud enough to wake it ("... say Hey Jarvis") or stop it ("... just say stop"). WebRTC's
AEC3 (the ``pywebrtc-audio`` binding) subtracts it, given the speaker's signal as its reference,
aligned to the microphone: in file mode the output timeline at the same audio-clock samples, live
what the speaker played when the microphone recorded (``audio.mouth``). AEC3 was chosen over
speexdsp's canceller by ``bench/echo.py``: over three rooms, two echo levels and a misaligned
reference, its output never woke the wake model on the echo alone (speexdsp's did in 5 of 12) and
its own delay estimate copes with an echo that arrives late; it costs about 0.01 CPU seconds per
audio second here, and runs only while there is an echo to cancel.
"""

from __future__ import annotations

import numpy as np

from audio.format import seconds_to_samples

TAIL_SECONDS = 1.5
"""How long after the speaker falls silent its echo may still be heard (a reverberant room), and
the canceller keeps running."""


class EchoCanceller:
    """One canceller for one microphone, fed 32 ms frames with their reference."""

    def __init__(self, sample_rate: int = 16_000) -> None:
        # Imported here: the voice process needs it only with barge-in on.
        from pywebrtc_audio import EchoCanceller as Aec3

        self._aec = Aec3(sample_rate, 1)
        self._tail = seconds_to_samples(TAIL_SECONDS)
        self._quiet = self._tail  # reference samples since it last had sound: none at first

    def process(self, microphone: np.ndarray, reference: np.ndarray) -> np.ndarray:
        """The microphone frame without the echo of ``reference`` (what was played meanwhile).

        While the reference has been silent for longer than the room's tail, the frame is passed
        on untouched, so an idle Hearth pays nothing for the canceller.
        """
        if len(microphone) != len(reference):
            raise ValueError(f"{len(microphone)} microphone samples, {len(reference)} reference")
        if np.any(reference):
            self._quiet = 0
        else:
            self._quiet += len(reference)
        if self._quiet > self._tail:
            return microphone
        return np.asarray(self._aec.process(microphone, reference), dtype=np.int16)
