"""Silero VAD streaming: warm-up frames are unknown, speech is told from silence and noise."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from audio.format import VAD_FRAME_SAMPLES, seconds_to_samples
from audio.vad import STALE_AFTER_SECONDS, WARM_UP_FRAMES, VoiceActivity
from tests.speech import room_noise, silence, speech, timeline


def probabilities(
    vad: VoiceActivity, audio: np.ndarray, at: Callable[[int], int] | None = None
) -> list[float | None]:
    """The VAD's verdict on each whole frame of ``audio``; with ``at``, frame ``i`` is placed at
    sample ``at(i)`` of the stream's clock."""
    whole = len(audio) // VAD_FRAME_SAMPLES * VAD_FRAME_SAMPLES
    frames = audio[:whole].reshape(-1, VAD_FRAME_SAMPLES)
    if at is None:
        return [vad.process(frame) for frame in frames]
    return [vad.process(frame, at_sample=at(i)) for i, frame in enumerate(frames)]


@pytest.fixture(scope="module")
def vad() -> VoiceActivity:
    return VoiceActivity()


def test_the_first_frames_after_a_reset_are_unknown(vad: VoiceActivity) -> None:
    vad.reset()
    first = probabilities(vad, room_noise(0.5))
    assert first[:WARM_UP_FRAMES] == [None] * WARM_UP_FRAMES
    assert all(isinstance(p, float) for p in first[WARM_UP_FRAMES:])
    vad.reset()
    assert probabilities(vad, room_noise(0.1))[0] is None


def test_reset_makes_the_stream_repeatable(vad: VoiceActivity) -> None:
    audio = room_noise(1.0, level=400, seed=3)
    vad.reset()
    first = probabilities(vad, audio)
    vad.reset()
    assert probabilities(vad, audio) == first


@pytest.mark.parametrize(
    "audio", [silence(3.0), room_noise(3.0), room_noise(3.0, level=1500, seed=2)]
)
def test_silence_and_noise_are_not_speech(vad: VoiceActivity, audio: np.ndarray) -> None:
    vad.reset()
    known = [p for p in probabilities(vad, audio) if p is not None]
    assert max(known) < 0.3


def test_a_frame_must_be_512_samples(vad: VoiceActivity) -> None:
    with pytest.raises(ValueError, match="512"):
        vad.process(np.zeros(480, np.int16))


def test_a_missing_model_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"nothing\.onnx"):
        VoiceActivity(tmp_path / "nothing.onnx")


@pytest.mark.slow
@pytest.mark.parametrize("gain", [1.0, 0.15])
def test_piper_speech_is_speech_and_the_pauses_around_it_are_not(
    vad: VoiceActivity, gain: float
) -> None:
    said = speech("What is the capital of Kenya?", gain=gain)
    lead, tail = room_noise(1.0), room_noise(1.0, seed=8)
    vad.reset()
    result = probabilities(vad, timeline(lead, said, tail))
    frames = [len(part) // VAD_FRAME_SAMPLES for part in (lead, said, tail)]
    before = result[WARM_UP_FRAMES : frames[0]]
    during = np.array(result[frames[0] : frames[0] + frames[1]])
    after = result[frames[0] + frames[1] + 10 :]  # Silero holds on briefly after speech
    assert max(before) < 0.3
    assert np.mean(during > 0.5) > 0.7
    assert max(after) < 0.3


def test_a_frame_after_a_gap_starts_from_a_fresh_state(vad: VoiceActivity) -> None:
    before = room_noise(2.0, level=1500, seed=5)
    after = timeline(speech("What time is it?"), silence(0.3))
    vad.reset()
    fresh = probabilities(vad, after)
    vad.reset()
    probabilities(vad, before, at=lambda i: i * VAD_FRAME_SAMPLES)
    gap = 10 * len(before)  # the frames between were never heard (a quiet standby spares them)
    assert probabilities(vad, after, at=lambda i: gap + i * VAD_FRAME_SAMPLES) == fresh


def test_frames_that_follow_on_keep_the_state(vad: VoiceActivity) -> None:
    audio = timeline(room_noise(1.0, level=1500, seed=5), speech("What time is it?"))
    vad.reset()
    unplaced = probabilities(vad, audio)
    vad.reset()
    placed = probabilities(vad, audio, at=lambda i: 1000 + i * VAD_FRAME_SAMPLES)
    assert placed == unplaced
    assert placed.count(None) == WARM_UP_FRAMES


def test_a_short_gap_keeps_the_state(vad: VoiceActivity) -> None:
    audio = speech("What time is it?")
    vad.reset()
    unplaced = probabilities(vad, audio)
    vad.reset()
    # The quiet between two words, spared in standby: no reset, so no unknown frames mid-phrase
    gap = seconds_to_samples(STALE_AFTER_SECONDS) // 2
    placed = probabilities(vad, audio, at=lambda i: i * VAD_FRAME_SAMPLES + (gap if i >= 10 else 0))
    assert placed == unplaced
