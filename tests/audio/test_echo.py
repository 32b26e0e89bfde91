"""The echo canceller on Hearth's real voice through a measured room: echo out, a person kept."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from audio.echo import TAIL_SECONDS, EchoCanceller
from audio.format import VAD_FRAME_SAMPLES
from audio.wav import read_wav
from tests.speech import speech

ROOM = Path(__file__).parent / "data" / "room-impulse-2.wav"
"""A measured room impulse response (SpeechBrain's test samples, Apache-2.0)."""


def through_the_room(said: np.ndarray) -> np.ndarray:
    response = read_wav(ROOM).astype(np.float64)
    echo = np.convolve(said.astype(np.float64), response / np.abs(response).max())[: len(said)]
    return np.clip(echo * 0.5, -32768, 32767).astype(np.int16)


def cancel(canceller: EchoCanceller, microphone: np.ndarray, reference: np.ndarray) -> np.ndarray:
    frames = len(microphone) // VAD_FRAME_SAMPLES
    parts = [
        canceller.process(microphone[i * 512 : (i + 1) * 512], reference[i * 512 : (i + 1) * 512])
        for i in range(frames)
    ]
    return np.concatenate(parts)


def power(samples: np.ndarray) -> float:
    return float(np.mean(samples.astype(np.float64) ** 2))


@pytest.mark.slow
def test_hearth_s_voice_through_a_room_is_taken_out_and_a_person_speaking_over_it_is_kept():
    said = speech("Nairobi is the capital of Kenya. It is a big and busy city with many parks.")
    echo = through_the_room(said)
    person = np.zeros(len(said), dtype=np.int16)
    voice = speech("Stop.", length_scale=1.3)
    at = len(said) - len(voice) - 8000
    person[at : at + len(voice)] = voice // 2
    microphone = np.clip(echo.astype(np.int32) + person, -32768, 32767).astype(np.int16)
    cleaned = cancel(EchoCanceller(), microphone, said)
    converged = slice(2 * 16_000, at - 4000)  # echo alone, after the first two seconds
    erle = 10 * np.log10(power(microphone[converged]) / power(cleaned[converged]))
    assert erle > 15, erle
    spoken = slice(at, at + len(voice))
    kept = power(cleaned[spoken]) / power(person[spoken])
    assert kept > 0.1, kept  # the person is still heard (the echo alone is 15 dB down)


def test_with_nothing_played_for_the_room_s_tail_the_microphone_passes_untouched():
    canceller = EchoCanceller()
    rng = np.random.default_rng(1)
    microphone = rng.normal(0, 2000, 512).astype(np.int16)
    quiet = np.zeros(512, dtype=np.int16)
    assert canceller.process(microphone, quiet) is microphone  # nothing was ever played
    canceller.process(microphone, rng.normal(0, 2000, 512).astype(np.int16))
    lingering = 0  # frames after the sound in which its echo may still be heard
    while canceller.process(microphone, quiet) is not microphone:
        lingering += 1
        assert lingering < 1000
    assert lingering * 512 == pytest.approx(TAIL_SECONDS * 16_000, abs=512)


def test_a_reference_of_another_length_is_refused():
    with pytest.raises(ValueError, match="reference"):
        EchoCanceller().process(np.zeros(512, np.int16), np.zeros(256, np.int16))
