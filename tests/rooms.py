"""Real rooms and real noise: speech put across a room and under a household's sound.

The recordings are the SpeechBrain test samples (Apache-2.0) kept in the project's shared data
(``shared/data/audio``, found beside the repository or above it, or at ``$HEARTH_TEST_AUDIO``); the
few that the tests need are copied into ``tests/audio/data`` so that a fresh clone runs without it.
A room is an impulse response: one of the two measured ones, or one simulated with
``pyroomacoustics`` (a test and bench dependency, never a runtime one). As the data's README says:
convolve with the response (peak normalised), restore the speech's RMS, then add a noise at the
chosen signal-to-noise ratio.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
from scipy.signal import fftconvolve

from audio.wav import read_wav
from tests.speech import SAMPLE_RATE

_HERE = Path(__file__).resolve().parent
BUNDLED = _HERE / "audio" / "data"
"""The copies the tests use, so they run without the shared data."""

TRANSCRIPTS = {
    "harvard-spk1-1": "the child almost hurt the small dog",
    "harvard-spk1-2": "drop the two when you add the figures",
    "harvard-spk1-3": "at that high level the air is pure",
    "harvard-spk1-4": "a thin stripe runs down the middle",
    "harvard-spk1-5": "sunday is the best part of the week",
    "harvard-spk1-6": "the pencils have all been used",
    "harvard-birch-canoe": "the birch canoe slid on the smooth planks",
    "harvard-frosty-air": "the frosty air passed through the coat",
    "arithmetic-question": "what's 37.67 minus 75.7",
}
"""What was said in each real recording with a known text (the data's README)."""
READINGS = ("reading-1", "reading-2")
"""Real read speech with no transcript: for false wakes, not word errors."""
NOISES = ("noise1", "noise2", "noise3", "noise4", "noise5")
MEASURED_ROOMS = ("room-impulse-1", "room-impulse-2")


def shared_audio() -> Path | None:
    """The full shared recordings, if this checkout can see them."""
    # Not HEARTH_AUDIO_...: Hearth would read that as a setting of its audio section.
    if "HEARTH_TEST_AUDIO" in os.environ:
        return Path(os.environ["HEARTH_TEST_AUDIO"])
    for parent in _HERE.parents:
        candidate = parent / "shared" / "data" / "audio"
        if (candidate / "README.md").is_file():
            return candidate
    return None


def recording(name: str) -> np.ndarray:
    """A real recording by its stem, from the bundled copies or the shared data."""
    for folder in (BUNDLED, shared_audio()):
        if folder is not None and (folder / f"{name}.wav").is_file():
            return _read(folder / f"{name}.wav")
    raise FileNotFoundError(f"{name}.wav is neither in {BUNDLED} nor in the shared data")


@cache
def _read(path: Path) -> np.ndarray:
    return read_wav(path)


def speech_level(audio: np.ndarray, frame: int = 512) -> float:
    """The RMS of a recording's active speech: of its 32 ms frames within 30 dB of the loudest,
    so that the silence around a sentence does not lower it (what an SNR is measured against)."""
    frames = audio[: len(audio) // frame * frame].astype(np.float64).reshape(-1, frame)
    levels = np.sqrt(np.mean(np.square(frames), axis=1))
    return float(np.sqrt(np.mean(np.square(levels[levels > levels.max() / 31.6]))))


def rms(audio: np.ndarray) -> float:
    """Root mean square of int16 (or float) samples."""
    return float(np.sqrt(np.mean(np.square(audio.astype(np.float64))))) if len(audio) else 0.0


@dataclass(frozen=True)
class Room:
    """An impulse response and where it came from."""

    name: str
    response: np.ndarray
    """float64, peak 1, starting just before the direct sound (no travel delay)."""


def measured_room(name: str) -> Room:
    """One of the two measured rooms."""
    return Room(name, _trimmed(recording(name).astype(np.float64)))


@cache
def simulated_room(
    dims: tuple[float, float, float] = (5.0, 4.0, 2.7),
    absorption: float = 0.2,
    source: tuple[float, float, float] = (1.0, 1.2, 1.6),
    microphone: tuple[float, float, float] = (4.0, 2.8, 0.9),
) -> Room:
    """A shoebox room simulated by the image-source method (a living room by default, the speaker
    three metres from a device on a shelf; lower ``absorption`` rings longer)."""
    import pyroomacoustics as pra

    room = pra.ShoeBox(list(dims), fs=SAMPLE_RATE, materials=pra.Material(absorption), max_order=12)
    room.add_source(list(source))
    room.add_microphone(list(microphone))
    room.compute_rir()
    label = f"sim {dims[0]:g}x{dims[1]:g} a{absorption:g}"
    return Room(label, _trimmed(np.asarray(room.rir[0][0], dtype=np.float64)))


def _trimmed(response: np.ndarray) -> np.ndarray:
    peak = int(np.argmax(np.abs(response)))
    response = response[max(0, peak - 16) :]
    return response / np.max(np.abs(response))


def across(speech: np.ndarray, room: Room) -> np.ndarray:
    """``speech`` heard across ``room``: convolved, the same length, its RMS restored."""
    dry = speech.astype(np.float64)
    wet = fftconvolve(dry, room.response)[: len(dry)]
    wet *= rms(dry) / (rms(wet) or 1.0)
    return np.clip(wet, -32768, 32767).astype(np.int16)


def noise_bed(name: str, samples: int, offset: int = 0) -> np.ndarray:
    """A real noise recording looped to ``samples`` long, starting ``offset`` samples in."""
    noise = recording(name)
    start = offset % len(noise)
    reps = -(-(start + samples) // len(noise))
    return np.tile(noise, reps)[start : start + samples]


def under_noise(
    speech: np.ndarray, noise: np.ndarray, snr_db: float, speech_rms: float | None = None
) -> np.ndarray:
    """``speech`` with ``noise`` added at ``snr_db`` (the speech's level measured over its speech,
    or given as ``speech_rms`` when the audio holds long silences)."""
    level = speech_rms if speech_rms is not None else rms(speech)
    noise = noise[: len(speech)].astype(np.float64)
    scaled = noise * (level / (rms(noise) or 1.0)) / 10 ** (snr_db / 20)
    return np.clip(speech.astype(np.float64) + scaled, -32768, 32767).astype(np.int16)


def at_level(speech: np.ndarray, target_rms: float) -> np.ndarray:
    """``speech`` scaled so its RMS is ``target_rms`` (synthetic voices come at their own level)."""
    scaled = speech.astype(np.float64) * target_rms / (rms(speech) or 1.0)
    return np.clip(scaled, -32768, 32767).astype(np.int16)
