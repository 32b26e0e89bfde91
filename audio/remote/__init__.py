"""Speech on a bigger box: Wyoming speech-to-text and text-to-speech clients, and wrappers that
fall back to the local models for a call the service fails."""

from audio.remote.backends import (
    Hearing,
    Speaking,
    local_hearing,
    speech_to_text,
    text_to_speech,
)
from audio.remote.connection import Failure, WyomingError
from audio.remote.fallback import (
    HEARING_NOTICE,
    SPEAKING_NOTICE,
    FallbackSpeechToText,
    FallbackTextToSpeech,
    RemoteSpeechChunk,
)
from audio.remote.health import Reach, RemoteHealth
from audio.remote.wyoming_stt import WyomingSpeechToText
from audio.remote.wyoming_tts import WyomingTextToSpeech

__all__ = [
    "HEARING_NOTICE",
    "SPEAKING_NOTICE",
    "Failure",
    "FallbackSpeechToText",
    "FallbackTextToSpeech",
    "Hearing",
    "Reach",
    "RemoteHealth",
    "RemoteSpeechChunk",
    "Speaking",
    "WyomingError",
    "WyomingSpeechToText",
    "WyomingTextToSpeech",
    "local_hearing",
    "speech_to_text",
    "text_to_speech",
]
