"""The speech-to-text and text-to-speech the settings ask for: local, or remote with a local
fallback."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from audio.remote.fallback import (
    HEARING_NOTICE,
    SPEAKING_NOTICE,
    FallbackSpeechToText,
    FallbackTextToSpeech,
)
from audio.remote.health import RemoteHealth
from audio.remote.wyoming_stt import WyomingSpeechToText
from audio.remote.wyoming_tts import WyomingTextToSpeech
from audio.stt import SpeechToText
from audio.tts import TextToSpeech
from config import SpeechToTextSettings, TextToSpeechSettings

Hearing = SpeechToText | FallbackSpeechToText
Speaking = TextToSpeech | FallbackTextToSpeech


def speech_to_text(settings: SpeechToTextSettings) -> Hearing:
    """faster-whisper here, or (``backend: wyoming``) the service with it as the fallback."""
    local = SpeechToText(settings)
    if settings.backend == "local":
        return local
    health = RemoteHealth(f"speech-to-text at {settings.uri}", HEARING_NOTICE,
                          settings.retry_after_seconds)  # fmt: skip
    return FallbackSpeechToText(WyomingSpeechToText(settings), local, health)


def local_hearing(hearing: Hearing) -> SpeechToText:
    """The local model of ``hearing``: for what is calibrated on it (the wake check's greedy
    decode and its near-miss margins), never sent to a service that may run another model."""
    return hearing.local if isinstance(hearing, FallbackSpeechToText) else hearing


def text_to_speech(
    settings: TextToSpeechSettings, voice_dirs: Sequence[Path] | None = None
) -> Speaking:
    """Piper here, or (``backend: wyoming``) the service with Piper as the fallback."""
    local = TextToSpeech(voice_dirs)
    if settings.backend == "local":
        return local
    health = RemoteHealth(f"text-to-speech at {settings.uri}", SPEAKING_NOTICE,
                          settings.retry_after_seconds)  # fmt: skip
    return FallbackTextToSpeech(WyomingTextToSpeech(settings), local, health)
