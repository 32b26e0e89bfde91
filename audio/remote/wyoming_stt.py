"""Speech-to-text by a Wyoming service (``wyoming-faster-whisper`` on a bigger box).

``Transcribe``, then the utterance as ``AudioStart``, ``AudioChunk``s and ``AudioStop`` (16 kHz
mono 16-bit), and the service answers with a ``Transcript``. Hearth's hot words go along as the
protocol's ``transcript_names``, for services that bias towards them.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from wyoming.asr import Transcribe, Transcript
from wyoming.audio import AudioChunk, AudioStart, AudioStop

from audio.format import SAMPLE_RATE
from audio.remote.connection import WyomingCall
from config import SpeechToTextSettings

CHUNK_SAMPLES = 1600
"""Audio is sent in 100 ms chunks, as Wyoming satellites send it."""
SAMPLE_WIDTH = 2


class WyomingSpeechToText:
    """A client of one Wyoming speech-to-text service."""

    def __init__(self, settings: SpeechToTextSettings) -> None:
        self._settings = settings

    @property
    def uri(self) -> str:
        return str(self._settings.uri)

    def transcribe(self, samples: np.ndarray, hotwords: Iterable[str] = ()) -> str:
        """What the service heard in 16 kHz mono audio (int16, or float32 in [-1, 1]).

        Raises:
            WyomingError: the service was unreachable, too slow, or failed.
        """
        audio = _as_pcm16(samples)
        names = [word.strip() for word in hotwords if word.strip()]
        form = {"rate": SAMPLE_RATE, "width": SAMPLE_WIDTH, "channels": 1}
        step = CHUNK_SAMPLES * SAMPLE_WIDTH
        with WyomingCall(self._settings) as call, call.answers():
            call.send(
                Transcribe(language=self._settings.language, transcript_names=names or None),
                AudioStart(**form),
                *(
                    AudioChunk(audio=audio[i : i + step], **form)
                    for i in range(0, len(audio), step)
                ),
                AudioStop(),
            )
            while True:
                event = call.receive()
                if Transcript.is_type(event.type):
                    text = Transcript.from_event(event).text
                    if not isinstance(text, str):
                        raise call.bad_answer(f"a transcript whose text is {text!r}")
                    return text.strip()

    def describe(self) -> str:
        """The service's name and models, as it describes itself.

        Raises:
            WyomingError: the service was unreachable, too slow, or is not a speech-to-text one.
        """
        with WyomingCall(self._settings) as call, call.answers():
            programs = call.describe().asr
            if not programs:
                raise call.bad_answer("it offers no speech-to-text")
        models = ", ".join(model.name for program in programs for model in program.models)
        return f"{programs[0].name} ({models or 'no models listed'})"


def _as_pcm16(samples: np.ndarray) -> bytes:
    if samples.dtype == np.int16:
        return samples.tobytes()
    if np.issubdtype(samples.dtype, np.floating):
        return (np.clip(samples, -1.0, 1.0) * 32767).astype("<i2").tobytes()
    raise TypeError(f"audio to transcribe is int16 or float, not {samples.dtype}")
