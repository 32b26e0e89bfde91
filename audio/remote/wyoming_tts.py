"""Text-to-speech by a Wyoming service (``wyoming-piper`` on a bigger box).

``Synthesize`` one part of a reply (a sentence, or a long first sentence's first clause, as the
local voice would say it), and the service answers ``AudioStart``, ``AudioChunk``s and
``AudioStop`` at its own rate; the speech comes back as Hearth's 16 kHz mono int16. Each chunk
is read in the format it names: the protocol lets a chunk differ from its ``AudioStart``.
"""

from __future__ import annotations

import itertools

import numpy as np
import soxr
from wyoming.audio import AudioChunk, AudioFormat, AudioStart, AudioStop
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
        chunks: list[AudioChunk] = []
        start: AudioStart | None = None
        with WyomingCall(self._settings) as call, call.answers():
            call.send(Synthesize(text=text, voice=voice))
            while True:
                event = call.receive()
                if AudioStart.is_type(event.type):
                    start = AudioStart.from_event(event)
                elif AudioChunk.is_type(event.type):
                    chunks.append(AudioChunk.from_event(event))
                elif AudioStop.is_type(event.type):
                    break
            if start is None:
                raise call.bad_answer("audio without an audio-start")
            _check_format(call, start)
            audio = _to_hearth_audio(call, chunks, volume)
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


def _check_format(call: WyomingCall, audio: AudioFormat) -> None:
    form = (audio.rate, audio.width, audio.channels)
    if not all(isinstance(number, int) for number in form):
        raise call.bad_answer(f"audio of rate, width and channels {form!r}")
    if audio.width != 2:
        raise call.bad_answer(f"{audio.width * 8}-bit audio (Hearth plays 16-bit)")
    if not 1 <= audio.channels <= 8 or not 1_000 <= audio.rate <= 384_000:
        raise call.bad_answer(f"audio at {audio.rate} Hz with {audio.channels} channels")


def _to_hearth_audio(call: WyomingCall, chunks: list[AudioChunk], volume: float) -> np.ndarray:
    """The chunks as one 16 kHz mono int16 sound; each run of chunks in one format is converted
    whole, so a resampler's edges fall only where the format changes."""
    runs: list[np.ndarray] = []
    for form, grouped in itertools.groupby(chunks, key=lambda c: (c.rate, c.width, c.channels)):
        run = list(grouped)
        _check_format(call, run[0])
        rate, _, channels = form
        pcm = b"".join(chunk.audio for chunk in run)
        frames = np.frombuffer(pcm[: len(pcm) - len(pcm) % (2 * channels)], dtype="<i2")
        audio = frames.reshape(-1, channels).mean(axis=1) if channels > 1 else frames
        audio = audio.astype(np.float32) * volume
        if rate != SAMPLE_RATE:
            audio = soxr.resample(audio, rate, SAMPLE_RATE, quality="HQ")
        runs.append(audio)
    audio = np.concatenate(runs) if runs else np.zeros(0, dtype=np.float32)
    return np.clip(audio, -32768, 32767).astype(np.int16)
