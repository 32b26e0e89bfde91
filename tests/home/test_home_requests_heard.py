"""Home requests as tiny.en hears them from several voices, dry and across a measured room, go
to Home Assistant; other requests never do, whatever tiny.en made of them."""

from __future__ import annotations

import os
import subprocess
import wave
from functools import cache
from pathlib import Path

import numpy as np
import pytest
import soxr

from assistant.home import is_home_request
from audio.stt import SpeechToText
from config import SpeechToTextSettings
from tests.rooms import recording
from tests.speech import silence, speech, timeline

pytestmark = pytest.mark.slow

HOME = (
    "Turn on the kitchen lights.", "Is the back door locked?",
    "Set the living room to twenty degrees.", "Switch off the bedroom lamp.",
    "What's the temperature in the living room?", "Close the blinds in the office.",
)  # fmt: skip
NOT_HOME = (
    "What's the weather like in Lisbon?", "Set a timer for ten minutes.",
    "Remember that my favourite editor is Vim.", "Turn up the volume.",
)  # fmt: skip


def espeak(text: str, voice: str) -> np.ndarray:
    made = subprocess.run(["espeak-ng", "-v", voice, "--stdout", text], check=True,
                          capture_output=True).stdout  # fmt: skip
    path = Path(os.environ.get("TMPDIR", "/tmp")) / f"hearth-espeak-{os.getpid()}.wav"
    path.write_bytes(made)
    with wave.open(str(path)) as wav:
        rate, frames = wav.getframerate(), wav.readframes(wav.getnframes())
    path.unlink()
    audio = np.frombuffer(frames, dtype="<i2").astype(np.float32)
    return soxr.resample(audio, rate, 16000).astype(np.int16)


def across_the_room(audio: np.ndarray) -> np.ndarray:
    """``audio`` through a measured room (peak-normalised response, the speech's RMS kept)."""
    response = recording("room-impulse-1").astype(np.float64)
    response /= np.abs(response).max()
    size = len(audio) + len(response)
    wet = np.fft.irfft(np.fft.rfft(audio, size) * np.fft.rfft(response, size), size)
    wet *= np.sqrt(np.mean(audio.astype(np.float64) ** 2) / np.mean(wet**2))
    return np.clip(wet, -32768, 32767).astype(np.int16)


VOICES = {
    "piper": speech,
    "espeak-ng en-gb+m3": lambda text: espeak(text, "en-gb+m3"),
    "piper across a room": lambda text: across_the_room(speech(text)),
}
HARD_VOICES = {
    # tiny.en garbles some of these beyond any rule ("Is the back door locked?" came out as "in
    # the back more locked"; across the room, "is a red board lot"): routed when heard well.
    "espeak-ng en-us+f3": lambda text: espeak(text, "en-us+f3"),
}


@cache
def stt() -> SpeechToText:
    return SpeechToText(SpeechToTextSettings())


def heard(voice, text: str) -> str:
    return stt().transcribe(timeline(silence(0.3), voice(text), silence(0.3))).text


@pytest.mark.parametrize("name", VOICES)
def test_home_requests_are_routed_as_heard(name):
    transcripts = {text: heard(VOICES[name], text) for text in (*HOME, *NOT_HOME)}
    wrong = {said: transcripts[said] for said in HOME if not is_home_request(transcripts[said])}
    assert not wrong, wrong
    stray = {said: transcripts[said] for said in NOT_HOME if is_home_request(transcripts[said])}
    assert not stray, stray


@pytest.mark.parametrize("name", HARD_VOICES)
def test_with_a_hard_voice_most_are_routed_and_nothing_else_is(name):
    transcripts = {text: heard(HARD_VOICES[name], text) for text in (*HOME, *NOT_HOME)}
    routed = [said for said in HOME if is_home_request(transcripts[said])]
    assert len(routed) >= len(HOME) // 2, transcripts
    stray = {said: transcripts[said] for said in NOT_HOME if is_home_request(transcripts[said])}
    assert not stray, stray
