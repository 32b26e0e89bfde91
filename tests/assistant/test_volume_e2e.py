"""Volume and output mute by voice, end to end: real wake word, VAD, tiny.en and Piper in file
mode. What Hearth plays gets quieter, goes silent and comes back, and a restart keeps the level
(it is kept beside the memory)."""

from __future__ import annotations

import numpy as np
import pytest

from audio.loudness import OutputLevel
from tests.hearth_run import HearthRun
from tests.speech import silence, speech, timeline

pytestmark = pytest.mark.slow

START = ["--start-time", "2026-03-29T10:00:00+00:00"]
"""The clock's answer is then the same sentence every time: "It's 10 AM."."""


def ask(text: str) -> list[np.ndarray]:
    return [speech(f"Hey Jarvis, {text}"), silence(5.0)]


def said(run: HearthRun, event: dict, seconds: float = 1.0) -> np.ndarray:
    return run.said_at(event["t"], seconds).astype(np.float64)


def changes_at(run: HearthRun) -> float:
    return run.of("volume")[0]["t"]


def rms(samples: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(samples))))


def test_the_volume_set_by_voice_is_heard_kept_across_a_restart_muted_and_restored(
    hearth, tmp_path
):
    db = tmp_path / "memory.db"
    room = [*ask("what time is it?"), *ask("set the volume to forty percent.")]
    first = hearth(timeline(silence(1.0), *room, *ask("what time is it?")), db=db, args=START)
    assert first.returncode == 0, first.summary()
    (volume,) = first.of("volume")
    assert (volume["change"], volume["percent"], volume["kept"]) == ("set", 40, True)
    loud, confirmed, quiet = first.of("speak_start")
    assert (loud["text"], confirmed["text"], quiet["text"]) == (
        "It's 10 AM.", "Volume 40 percent.", "It's 10 AM.",
    )  # fmt: skip
    # 40 % on the slider is 0.4 cubed of the amplitude (Piper varies a little between takes).
    ratio = rms(said(first, quiet)) / rms(said(first, loud))
    assert 0.045 < ratio < 0.09, ratio

    # A restart: the same voice, the same first sentence, and the kept level applied to it.
    room = [*ask("what time is it?"), *ask("mute."), *ask("what time is it?")]
    room += [*ask("turn the sound back on."), *ask("louder.")]
    second = hearth(timeline(silence(1.0), *room), db=db, args=START)
    assert second.returncode == 0, second.summary()
    starts = second.of("speak_start")
    expected = OutputLevel(0.4).apply(first.said_at(loud["t"], 1.0))
    assert np.abs(second.said_at(starts[0]["t"], 1.0).astype(int) - expected).max() <= 1
    changes = [(v["change"], v["percent"], v["muted"]) for v in second.of("volume")]
    assert changes == [("mute", 40, True), ("unmute", 40, False), ("up", 50, False)]
    # Muted: nothing is said for the mute itself (its end-of-listening chime was played before
    # it was heard); from the next wake on, every earcon and the answer are silent.
    muted_at = next(wake["t"] for wake in second.of("wake") if wake["t"] > changes_at(second))
    back = next(start for start in starts if start["text"].startswith("Sound on"))
    assert [start["text"] for start in starts] == [
        "It's 10 AM.", "It's 10 AM.", "Sound on, volume 40 percent.", "Volume 50 percent.",
    ]  # fmt: skip
    between = second.said_at(muted_at, back["t"] - muted_at)
    assert not np.any(between), "a muted Hearth plays nothing"
    assert rms(said(second, back)) > 0
    assert rms(said(second, starts[-1])) > rms(said(second, back))  # louder is louder
