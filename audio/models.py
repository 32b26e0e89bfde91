"""Every model the voice loop needs, loaded once, together."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from audio.remote import FallbackSpeechToText, Hearing, Speaking, speech_to_text, text_to_speech
from audio.stt import SpeechToText
from audio.vad import VoiceActivity
from audio.wakeword import WakeWordDetector
from config import Settings

log = logging.getLogger(__name__)

PIPER_SEED = 20261201


@dataclass
class VoiceModels:
    """The wake word detector, voice activity, speech-to-text and text-to-speech."""

    wake: WakeWordDetector
    vad: VoiceActivity
    stt: Hearing
    tts: Speaking
    """Local, or a Wyoming service with the local model as its fallback (``backend``)."""

    @property
    def local_stt(self) -> SpeechToText:
        """The faster-whisper model on this device, whatever the backend: a wake is verified
        here, against margins calibrated on it and without waiting on the network."""
        return self.stt.local if isinstance(self.stt, FallbackSpeechToText) else self.stt

    @classmethod
    def load(cls, settings: Settings, voice: str | None = None) -> VoiceModels:
        """Load all models now (a missing model fails here, at start-up, with what to install).

        Piper's natural variation is seeded first, so a voice process says the same sentences
        the same way every run: a recording heard in file mode gives the same output each time.
        """
        import onnxruntime  # Piper's runtime; seeded before any of its sessions is made

        onnxruntime.set_seed(PIPER_SEED)
        wake = WakeWordDetector(settings.wake)
        vad = VoiceActivity()
        stt = speech_to_text(settings.stt)
        stt.load()
        tts = text_to_speech(settings.tts)
        tts.load(voice or settings.tts.voice)
        log.info("voice models loaded")
        return cls(wake, vad, stt, tts)
