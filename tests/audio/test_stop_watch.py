"""The stop check's timing over a reply (``audio.stop_watch``), without a model: when a check is
due, what drops it, and a check that fails heard no stop."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

from audio.format import VAD_FRAME_SAMPLES, seconds_to_samples
from audio.hearing_worker import HearingWorker
from audio.segmenter import EndReason, SpeechEnded, SpeechPaused
from audio.stop_check import QUIET_AFTER_SECONDS, LinearHearing
from audio.stop_watch import StopWatch
from audio.wakeup import Wakeup

PAUSE = SpeechPaused(2.0, 1.4, 2.0)
PAUSED_AT = seconds_to_samples(2.0)
DUE = PAUSED_AT + seconds_to_samples(QUIET_AFTER_SECONDS)


class Watched:
    """A stop watch whose model fails when asked (``None``: no model at all), and what it did."""

    def __init__(self) -> None:
        self.records: list[tuple[str, dict[str, Any]]] = []
        self.jobs = 0
        self.wakeup = Wakeup()
        self.worker = HearingWorker(self.wakeup, self._waiting)
        hearing = LinearHearing(seconds_to_samples(10.0), seconds_to_samples(0.2))
        silence = np.zeros(VAD_FRAME_SAMPLES, dtype=np.int16)
        self.watch = StopWatch(hearing, None, self.worker, lambda: ("Jarvis",), self._record)  # type: ignore[arg-type]
        for _ in range(DUE // VAD_FRAME_SAMPLES + 1):
            self.watch.hear(silence, None, 0.0)

    @contextmanager
    def _waiting(self) -> Iterator[None]:
        self.jobs += 1
        yield

    def _record(self, event: str, **fields: Any) -> None:
        self.records.append((event, fields))

    def close(self) -> None:
        self.worker.close()
        self.wakeup.close()


@pytest.fixture
def watched() -> Iterator[Watched]:
    made = Watched()
    yield made
    made.close()


def test_nothing_is_checked_before_the_pause_has_lasted_long_enough(watched: Watched):
    assert not watched.watch.step(DUE, live=False)  # nothing paused: nothing due
    watched.watch.paused(PAUSE, PAUSED_AT)
    assert not watched.watch.step(DUE - 1, live=False)
    assert watched.records == [] and watched.jobs == 0


def test_a_check_that_fails_heard_no_stop_and_is_recorded_once(watched: Watched):
    watched.watch.paused(PAUSE, PAUSED_AT)
    assert not watched.watch.step(DUE, live=False)  # file mode: waited for at once
    assert watched.records == [
        ("stop_check", {"fit": float("-inf"), "echo_words": None, "heard": False})
    ]
    assert watched.jobs == 1
    # Spent: the utterance's end finds no check to wait for.
    assert not watched.watch.heard_in(SpeechEnded(2.5, EndReason.SILENCE, 1.4, 2.0))
    assert len(watched.records) == 1


def test_live_the_loop_goes_on_until_the_check_is_made(watched: Watched):
    watched.watch.paused(PAUSE, PAUSED_AT)
    deadline = time.monotonic() + 5.0
    while not watched.records and time.monotonic() < deadline:
        assert not watched.watch.step(DUE, live=True)
    assert watched.records[0][1]["heard"] is False


def test_the_speaker_going_on_or_another_utterance_ending_drops_the_check(watched: Watched):
    watched.watch.paused(PAUSE, PAUSED_AT)
    watched.watch.drop()
    assert not watched.watch.step(DUE, live=False)
    watched.watch.paused(PAUSE, PAUSED_AT)
    # An utterance other than the one that paused (the speaker went on, then stopped).
    assert not watched.watch.heard_in(SpeechEnded(4.0, EndReason.SILENCE, 1.4, 3.5))
    assert not watched.watch.step(DUE, live=False)
    assert watched.records == [] and watched.jobs == 0
