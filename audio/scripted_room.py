"""A room that speaks a script: the demo's microphone.

Each line is said by Piper into the real pipeline once Hearth has gone quiet (in standby or in the
follow-up window), after a short pause, the way a person waits for an answer before going on.
Each line is handed to ``on_line`` as it starts, so the demo can write the whole conversation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from audio.format import seconds_to_samples
from audio.tts import SpeechParameters, TextToSpeech

PAUSE_BEFORE_LINE_SECONDS = 1.5
PAUSE_AT_END_SECONDS = 3.0
ROOM_SPEED = 0.9
"""The person in the room speaks a little slower than Hearth, so the two are easy to tell apart."""


class ScriptedRoom:
    """An audio source that says each scripted line when ``quiet()`` says Hearth is listening."""

    def __init__(
        self,
        lines: Sequence[str],
        start_sample: int,
        tts: TextToSpeech,
        voice: str,
        quiet: Callable[[], bool],
        on_line: Callable[[int, str, np.ndarray], None],
    ):
        self._lines = list(lines)
        self._tts = tts
        # Without Piper's random variation the demo sounds, and is heard, the same every run.
        self._params = SpeechParameters(voice=voice, speed=ROOM_SPEED, variation=False)
        self._quiet = quiet
        self._on_line = on_line
        self._current = np.zeros(0, dtype=np.int16)
        self._quiet_for = 0
        self._closed = False
        self._position = start_sample

    def read(self, n: int) -> np.ndarray | None:
        """The next ``n`` samples of the room: a line, or silence while waiting; None at the end."""
        if self._closed:
            return None
        if not len(self._current):
            if self._quiet():
                self._quiet_for += n
            else:
                self._quiet_for = 0
            pause = PAUSE_BEFORE_LINE_SECONDS if self._lines else PAUSE_AT_END_SECONDS
            if self._quiet_for >= seconds_to_samples(pause):
                if not self._lines:
                    return None
                self._start_line(self._lines.pop(0))
        block = self._current[:n]
        self._current = self._current[n:]
        if len(block) < n:
            block = np.pad(block, (0, n - len(block)))
        self._position += n
        return block

    def close(self) -> None:
        """Stop: later reads return None."""
        self._closed = True

    def _start_line(self, text: str) -> None:
        chunks = self._tts.synthesize(text, self._params, starts_reply=False)
        self._current = np.concatenate([chunk.samples for chunk in chunks])
        self._on_line(self._position, text, self._current)
        self._quiet_for = 0
