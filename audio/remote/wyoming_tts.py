"""Text-to-speech by a Wyoming service (``wyoming-piper`` on a bigger box).

``Synthesize`` one part of a reply (a sentence, or a long first sentence's first clause, as the
local voice would say it), and the service answers ``AudioStart``, ``AudioChunk``s and
``AudioStop`` at its own rate; the speech comes back as Hearth's 16 kHz mono int16.
"""

from __future__ import annotations

import numpy as np
import soxr
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.tts import Synthesize, SynthesizeVoice

from audio.format import SAMPLE_RATE
from audio.remote.connection import WyomingCall
from config import TextToSpeechSettings


class WyomingTextToSpeech:
    """A client of one Wyoming text-to-speech service."""

    def __init__(self, settings: TextToSpeechSettings) -> None:
        self._settings = settings

    @property
    def uri(self) -> str:
        return str(self._settings.uri)

    def speak(self, text: str, volume: float = 1.0) -> np.ndarray:
        """The service saying ``text``, as 16 kHz mono int16, ``volume`` times as loud.

        Raises:
            WyomingError: the service was unreachable, too slow, failed, or sent audio Hearth
                cannot play.
        """
        voice = None
        if self._settings.remote_voice:
            speaker = self._settings.speaker
            voice = SynthesizeVoice(self._settings.remote_voice,
                                    speaker=None if speaker is None else str(speaker))  # fmt: skip
        parts: list[bytes] = []
        start: AudioStart | None = None
        with WyomingCall(self._settings) as call, call.answers():
            call.send(Synthesize(text=text, voice=voice))
            while True:
                event = call.receive()
                if AudioStart.is_type(event.type):
                    start = AudioStart.from_event(event)
                elif AudioChunk.is_type(event.type):
                    parts.append(AudioChunk.from_event(event).audio)
                elif AudioStop.is_type(event.type):
                    break
            if start is None:
                raise call.bad_answer("audio without an audio-start")
            audio = _to_hearth_audio(call, start, b"".join(parts), volume)
            if not audio.size:
                raise call.bad_answer("no audio")  # said by the local voice, not left silent
            return audio

    def describe(self) -> str:
        """The service's name and voices, as it describes itself.

        Raises:
            WyomingError: the service was unreachable, too slow, or is not a text-to-speech one.
        """
        with WyomingCall(self._settings) as call, call.answers():
            programs = call.describe().tts
            if not programs:
                raise call.bad_answer("it offers no text-to-speech")
        voices = sum(len(program.voices) for program in programs)
        return f"{programs[0].name} ({voices} voices)"


def _to_hearth_audio(call: WyomingCall, start: AudioStart, pcm: bytes, volume: float) -> np.ndarray:
    form = (start.rate, start.width, start.channels)
    if not all(isinstance(number, int) for number in form):
        raise call.bad_answer(f"audio of rate, width and channels {form!r}")
    if start.width != 2:
        raise call.bad_answer(f"{start.width * 8}-bit audio (Hearth plays 16-bit)")
    if not 1 <= start.channels <= 8 or not 1_000 <= start.rate <= 384_000:
        raise call.bad_answer(f"audio at {start.rate} Hz with {start.channels} channels")
    frames = np.frombuffer(pcm[: len(pcm) - len(pcm) % (2 * start.channels)], dtype="<i2")
    audio = frames.reshape(-1, start.channels).mean(axis=1) if start.channels > 1 else frames
    audio = audio.astype(np.float32) * volume
    if start.rate != SAMPLE_RATE:
        audio = soxr.resample(audio, start.rate, SAMPLE_RATE, quality="HQ")
    return np.clip(audio, -32768, 32767).astype(np.int16)
