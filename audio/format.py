"""The one audio format inside Hearth, and the audio clock built on it.

Everything Hearth hears is 16 kHz mono int16. Conversation timing counts samples consumed, not wall
time, so a recording runs the same way every time and a 25-second window is tested in milliseconds.
"""

from __future__ import annotations

SAMPLE_RATE = 16_000
SAMPLE_WIDTH_BYTES = 2
CHANNELS = 1

VAD_FRAME_SAMPLES = 512
"""Silero VAD's frame at 16 kHz: 32 ms."""
WAKE_CHUNK_SAMPLES = 1280
"""openWakeWord's step: 80 ms."""


def samples_to_seconds(samples: int) -> float:
    """Audio-clock seconds for a count of samples at the internal rate."""
    return samples / SAMPLE_RATE


def seconds_to_samples(seconds: float) -> int:
    """Whole samples at the internal rate for a duration in seconds."""
    return round(seconds * SAMPLE_RATE)
