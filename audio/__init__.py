"""Ears and mouth: sources and sinks, wake word, voice activity, speech-to-text, speech, listener.

The names below are the package's public API. They load on first use (PEP 562), so that using
one part (reading a WAV, the message vocabulary) does not load every speech model's runtime.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    # the internal format and the audio clock
    "SAMPLE_RATE": "audio.format",
    "VAD_FRAME_SAMPLES": "audio.format",
    "WAKE_CHUNK_SAMPLES": "audio.format",
    "samples_to_seconds": "audio.format",
    "seconds_to_samples": "audio.format",
    # files and devices
    "WavError": "audio.wav",
    "read_wav": "audio.wav",
    "check_wav": "audio.wav",
    "write_wav": "audio.wav",
    "WavSource": "audio.files",
    "TimelineSink": "audio.files",
    "AudioDeviceError": "audio.devices",
    "MicrophoneSource": "audio.devices",
    "SpeakerSink": "audio.devices",
    "list_devices": "audio.devices",
    # the models
    "VoiceActivity": "audio.vad",
    "WakeWordDetector": "audio.wakeword",
    "WakeModelError": "audio.wakeword",
    "WakeVerifier": "audio.wake_check",
    "WakeVerdict": "audio.wake_check",
    "wake_name": "audio.phrase",
    "SpeechToText": "audio.stt",
    "SpeechModelError": "audio.stt",
    "resolve_model": "audio.stt",
    "TextToSpeech": "audio.tts",
    "SpeechParameters": "audio.tts",
    "VoiceNotFoundError": "audio.tts",
    "VoiceSpeakerError": "audio.tts",
    "speaker_problem": "audio.tts",
    "default_voice_dirs": "audio.tts",
    "resolve_voice": "audio.tts",
    "VoiceModels": "audio.models",
    # speech on a bigger box (Wyoming), the local models as its fallback
    "speech_to_text": "audio.remote",
    "text_to_speech": "audio.remote",
    "WyomingError": "audio.remote",
    # text for speaking
    "IncrementalSentenceSplitter": "audio.sentences",
    "split_sentences": "audio.sentences",
    "split_first_clause": "audio.clauses",
    # the conversation's rhythm and the voice process
    "Via": "audio.listener",
    "State": "audio.listener",
    "Command": "audio.messages",
    "Report": "audio.messages",
    "Speak": "audio.messages",
    "FinishReply": "audio.messages",
    "SetHotwords": "audio.messages",
    "Shutdown": "audio.messages",
    "StandDown": "audio.messages",
    "TakeBack": "audio.messages",
    "WakeMeasure": "audio.wake_measure",
    "SetOutput": "audio.messages",
    "SetMicrophone": "audio.messages",
    "StopSaying": "audio.messages",
    "OutputLevel": "audio.loudness",
    "Ring": "audio.messages",
    "StopRing": "audio.messages",
    "HoldAt": "audio.messages",
    "Held": "audio.messages",
    "RingStopped": "audio.messages",
    "RingEnd": "audio.messages",
    "Ready": "audio.messages",
    "Heartbeat": "audio.messages",
    "Job": "audio.messages",
    "JobKind": "audio.messages",
    "Heard": "audio.messages",
    "WentOn": "audio.messages",
    "Spoken": "audio.messages",
    "Played": "audio.messages",
    "Record": "audio.messages",
    "InputEnded": "audio.messages",
    "Failed": "audio.messages",
    "VoiceEngine": "audio.engine",
    "VoiceIO": "audio.voice_process",
    "run_voice_process": "audio.voice_process",
    "listen_to_recording": "audio.listen",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'audio' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value
