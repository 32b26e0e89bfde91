"""Whisper's encoder on the speech alone (audio/whisper_window.py), on the real tiny.en model.

The speech window must hear what the whole window hears, on real speakers across real rooms and
on Piper, and ``whole_windows`` must give back the whole window's own encoding.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from faster_whisper import WhisperModel

from audio.stt import SpeechToText
from audio.whisper_window import PADDING_FRAMES, SpeechWindowWhisper
from config.schema import SpeechToTextSettings
from tests.rooms import TRANSCRIPTS, across, measured_room, noise_bed, recording, under_noise
from tests.speech import room_noise, speech, timeline
from tests.wer import word_errors

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def stt() -> SpeechToText:
    hearing = SpeechToText(SpeechToTextSettings())
    hearing.load()
    return hearing


@pytest.fixture(scope="module")
def model(stt: SpeechToText) -> SpeechWindowWhisper:
    return stt._whisper()


def features(model: SpeechWindowWhisper, said: np.ndarray) -> np.ndarray:
    """The log-mel window Whisper encodes for ``said``: its columns, then zeros to 30 s."""
    mel = model.feature_extractor(said.astype(np.float32) / 32768)
    frames = model.feature_extractor.nb_max_frames
    return np.pad(mel[:, :frames], ((0, 0), (0, max(0, frames - mel.shape[1]))))


def real(name: str, room: str | None = None) -> tuple[str, np.ndarray]:
    said = recording(name)
    if room is not None:
        said = under_noise(across(said, measured_room(room)), noise_bed("noise2", len(said)), 15)
    return TRANSCRIPTS[name], timeline(room_noise(0.3), said, room_noise(0.5, seed=8))


def piper(sentence: str, length_scale: float = 1.0) -> tuple[str, np.ndarray]:
    return sentence, timeline(room_noise(0.3), speech(sentence, length_scale), room_noise(0.5))


HEARD = {
    "real speaker": lambda: real("harvard-spk1-1"),
    "another real speaker": lambda: real("harvard-birch-canoe"),
    "real speaker across a measured room": lambda: real("harvard-spk1-1", "room-impulse-2"),
    "another across the other room": lambda: real("harvard-birch-canoe", "room-impulse-1"),
    "piper": lambda: piper("Turn off the lights in the kitchen."),
    "piper, slow": lambda: piper("What is the capital of Kenya?", 1.4),
}


@pytest.mark.parametrize("make", HEARD.values(), ids=HEARD.keys())
def test_the_speech_window_hears_as_well_as_the_whole_window(
    stt: SpeechToText, model: SpeechWindowWhisper, make: Callable[[], tuple[str, np.ndarray]]
) -> None:
    expected, said = make()
    quick = stt.transcribe(said)
    with model.whole_windows():
        whole = stt.transcribe(said)
    # Not always the same words: across a room either can mishear one the other gets right
    # ("birch" against "bridge"), so each is held to the truth, the speech window to no more
    # than one word worse; it must never loop (a repeated sentence is many insertions).
    errors, _ = word_errors(expected, quick.text)
    assert errors <= word_errors(expected, whole.text)[0] + 1, (quick.text, whole.text)
    assert quick.rejected is whole.rejected is None


def test_whole_windows_encode_the_padding_as_whisper_does(model: SpeechWindowWhisper) -> None:
    window = features(model, real("harvard-spk1-1")[1])
    with model.whole_windows():
        whole = np.asarray(model.encode(window))
    assert np.array_equal(whole, np.asarray(WhisperModel.encode(model, window)))
    # Outside, the window's head is encoded afresh and its tail is the padding's own encoding
    quick = np.asarray(model.encode(window))
    assert quick.shape == whole.shape
    assert not np.array_equal(quick, whole)
    spoken = np.flatnonzero(np.any(window != 0, axis=0))[-1] + 1
    head = (spoken + PADDING_FRAMES + 1) // 2  # positions: half the frames, rounded up
    padding = np.asarray(WhisperModel.encode(model, np.zeros_like(window)))
    assert np.array_equal(quick[:, head:], padding[:, head:])
    assert not np.array_equal(quick[:, head - 1], padding[:, head - 1])


def test_whole_windows_end_with_their_block(model: SpeechWindowWhisper) -> None:
    """Only the block asks for the whole window; after it, windows are cut again."""
    window = features(model, real("harvard-birch-canoe")[1])
    with model.whole_windows():
        pass
    after = np.asarray(model.encode(window))
    with model.whole_windows():
        whole = np.asarray(model.encode(window))
    assert not np.array_equal(after, whole)
