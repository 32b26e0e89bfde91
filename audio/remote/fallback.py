"""Remote speech with the local model as its fallback, behind the local models' own interfaces.

``FallbackSpeechToText`` and ``FallbackTextToSpeech`` take the place of ``SpeechToText`` and
``TextToSpeech`` in the voice process: each call goes to the Wyoming service while it answers,
and to the local model for a call it fails (unreachable, too slow, gone mid-call) and until it
is worth trying again. ``take_notice`` gives the sentence Hearth says, once, when that starts.
What only the local model can do (scoring a closed set of answers) stays local.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from audio.remote.connection import WyomingError
from audio.remote.health import RemoteHealth
from audio.remote.wyoming_stt import WyomingSpeechToText
from audio.remote.wyoming_tts import WyomingTextToSpeech
from audio.stt import SpeechToText, Transcript, _without_phantoms
from audio.tts import SpeechChunk, SpeechParameters, TextToSpeech, speech_parts

log = logging.getLogger(__name__)

HEARING_NOTICE = "My speech recognition server isn't answering, so I'm using my own ears for now."
SPEAKING_NOTICE = "My speech server isn't answering, so I'm using my own voice for now."


@dataclass(frozen=True)
class RemoteSpeechChunk(SpeechChunk):
    """A part the service made: its pace says nothing about how fast the local voice is."""


class FallbackSpeechToText:
    """A Wyoming speech-to-text service first, the local faster-whisper model when it fails."""

    def __init__(
        self, remote: WyomingSpeechToText, local: SpeechToText, health: RemoteHealth
    ) -> None:
        self.remote = remote
        self.local = local
        self.health = health

    @property
    def model_path(self) -> Path:
        """The local fallback model's folder."""
        return self.local.model_path

    def load(self) -> None:
        """Load the local model now and ask the service who it is (a service that is down
        now is noted, not fatal: the local model hears meanwhile)."""
        self.local.load()
        try:
            log.info("speech-to-text by %s at %s", self.remote.describe(), self.remote.uri)
            self.health.succeeded()
        except WyomingError as error:
            self.health.failed(str(error))

    def transcribe(
        self,
        samples: np.ndarray,
        *,
        hotwords: Iterable[str] = (),
        context: str = "",
        vad_speech: bool = True,
    ) -> Transcript:
        """As :meth:`SpeechToText.transcribe`, by the service while it answers.

        The service is not given ``context`` (Wyoming has no field for it) and reports no
        confidence, so its transcript carries a no-speech probability of 0: the voice activity
        gate already heard speech. Known phantom sentences are removed as for the local model.
        """
        if not vad_speech or len(samples) == 0 or not self.health.should_try():
            return self.local.transcribe(samples, hotwords=hotwords, context=context,
                                         vad_speech=vad_speech)  # fmt: skip
        words = tuple(hotwords)
        try:
            heard = self.remote.transcribe(samples, words)
        except WyomingError as error:
            self.health.failed(str(error))
            return self.local.transcribe(samples, hotwords=words, context=context)
        self.health.succeeded()
        text = _without_phantoms(heard)
        rejected = None if text else ("phantom" if heard else "no_speech")
        return Transcript(text, 0.0, 0.0, heard=heard, rejected=rejected)

    def score(
        self, samples: np.ndarray, phrases: Mapping[str, str], context: str = ""
    ) -> dict[str, float]:
        """As :meth:`SpeechToText.score`, always by the local model (it needs the decoder)."""
        return self.local.score(samples, phrases, context=context)

    def take_notice(self) -> str | None:
        """What to say, once, when the service has stopped answering."""
        return self.health.take_notice()


class FallbackTextToSpeech:
    """A Wyoming text-to-speech service first, the local Piper voice when it fails.

    The service speaks in its own voice and at its own speed (``tts.remote_voice``); a part it
    fails is said by the local voice the reply asked for, so a reply may change voice midway
    rather than stop.
    """

    def __init__(
        self, remote: WyomingTextToSpeech, local: TextToSpeech, health: RemoteHealth
    ) -> None:
        self.remote = remote
        self.local = local
        self.health = health

    def load(self, voice: str) -> None:
        """Load the local fallback voice now and ask the service who it is."""
        self.local.load(voice)
        try:
            log.info("text-to-speech by %s at %s", self.remote.describe(), self.remote.uri)
            self.health.succeeded()
        except WyomingError as error:
            self.health.failed(str(error))

    def warm_up(self, voice: str) -> tuple[int, float] | None:
        """The local voice's first run (its pace is the fallback's)."""
        return self.local.warm_up(voice)

    def synthesize(
        self, text: str, params: SpeechParameters, *, starts_reply: bool = True
    ) -> Iterator[SpeechChunk]:
        """As :meth:`TextToSpeech.synthesize`, by the service while it answers."""
        return self.synthesize_stream((text,), params, starts_reply=starts_reply)

    def synthesize_stream(
        self, pieces: Iterable[str], params: SpeechParameters, *, starts_reply: bool = True
    ) -> Iterator[SpeechChunk]:
        """As :meth:`TextToSpeech.synthesize_stream`: the same parts, each by the service while
        it answers, else by the local voice."""
        for part in speech_parts(pieces, starts_reply=starts_reply):
            if self.health.should_try():
                try:
                    samples = self.remote.speak(part, volume=params.volume)
                except WyomingError as error:
                    self.health.failed(str(error))
                else:
                    self.health.succeeded()
                    if samples.size:
                        yield RemoteSpeechChunk(text=part, samples=samples)
                    continue
            yield from self.local.synthesize(part, params, starts_reply=False)

    def take_notice(self) -> str | None:
        """What to say, once, when the service has stopped answering."""
        return self.health.take_notice()
