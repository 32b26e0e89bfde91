"""Every model the voice loop needs, loaded once, together."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from audio.remote import (
    FallbackSpeechToText,
    FallbackTextToSpeech,
    Hearing,
    Speaking,
    speech_to_text,
    text_to_speech,
)
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

    def take_notices(self) -> list[str]:
        """What to say, once per outage, about a speech service the local models stand in for
        (none with the local backends)."""
        notices = []
        for model in (self.stt, self.tts):
            if isinstance(model, FallbackSpeechToText | FallbackTextToSpeech):
                notice = model.take_notice()
                if notice is not None:
                    notices.append(notice)
        return notices
