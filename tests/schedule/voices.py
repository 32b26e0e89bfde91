"""Voices for the schedule's hearing tests: Piper at several paces, espeak-ng voices, a real room.

A phrase table that only Piper's voice has said proves little: espeak-ng's voices sound nothing
like it, and a measured room impulse response (``data/audio/room-impulse-*.wav``) plus real noise
puts a voice across a room as a microphone on a shelf hears it.
"""

from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from audio.wav import read_wav
from tests.rooms import recording
from tests.speech import SAMPLE_RATE, speech


@dataclass(frozen=True)
class Voice:
    """One way of saying a phrase: a synthesiser, its settings, and an optional room."""

    name: str
    engine: str
    """``piper`` or ``espeak``."""
    setting: str
    """Piper: the length scale; espeak-ng: the voice name."""
    room: str | None = None
    """A measured impulse response to put the voice across a room (with real noise)."""

    def say(self, text: str) -> np.ndarray:
        """The phrase as 16 kHz mono int16."""
        if self.engine == "piper":
            dry = speech(text, length_scale=float(self.setting))
        else:
            dry = espeak(text, self.setting)
        return across_room(dry, self.room) if self.room else dry


VOICES = (
    Voice("piper", "piper", "1.0"),
    Voice("piper-fast", "piper", "0.8"),
    Voice("piper-slow-room", "piper", "1.3", room="room-impulse-1.wav"),
    Voice("espeak-f3", "espeak", "en-us+f3"),
    Voice("espeak-m3-room", "espeak", "en+m3", room="room-impulse-2.wav"),
)


def espeak(text: str, voice: str) -> np.ndarray:
    """espeak-ng saying ``text`` in ``voice``, as 16 kHz mono int16."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "said.wav"
        subprocess.run(
            ["espeak-ng", "-v", voice, "-s", "150", "-w", str(path), text],
            check=True,
            capture_output=True,
        )
        return read_wav(path)  # resampled to 16 kHz mono int16


def across_room(dry: np.ndarray, impulse_file: str, snr_db: float = 20.0) -> np.ndarray:
    """``dry`` convolved with a measured room (peak-normalised, RMS restored) plus real noise."""
    impulse = recording(Path(impulse_file).stem).astype(np.float64)
    impulse /= np.max(np.abs(impulse))
    signal = dry.astype(np.float64)
    wet = np.convolve(signal, impulse)[: len(signal) + SAMPLE_RATE // 4]
    wet *= _rms(signal) / max(_rms(wet), 1e-9)
    noise = recording("noise2").astype(np.float64)
    noise = np.resize(noise, len(wet))
    noise *= _rms(wet) / max(_rms(noise), 1e-9) / (10 ** (snr_db / 20))
    return np.clip(wet + noise, -32768, 32767).astype(np.int16)


def _rms(values: np.ndarray) -> float:
    return float(np.sqrt(np.mean(values**2))) if len(values) else 0.0
