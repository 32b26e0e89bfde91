"""Watching for "Stop." over Hearth's reply: when the stop check is made, and what it found.

``audio.stop_check`` says whether a stretch of audio was "Stop."; this module decides when to ask
it and keeps its ear. With barge-in and echo cancellation, the :class:`StopWatch` is fed every
frame (the microphone and what was played) and every piece Hearth plays; when an utterance over
the reply pauses, a check is due once the pause has lasted ``stop_check.QUIET_AFTER_SECONDS``.
The check runs on the hearing worker (``audio.hearing_worker``); the loop asks whether it heard a
stop, and ends the utterance as one when it did. A speaker who goes on, or an utterance that ends,
drops the check.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass

import numpy as np

from audio import stop_check
from audio.format import seconds_to_samples
from audio.hearing_worker import HearingWorker
from audio.remote import Hearing, local_hearing
from audio.segmenter import SpeechEnded, SpeechPaused
from audio.stop_check import LinearHearing, Overheard, StopCheck

log = logging.getLogger(__name__)


@dataclass
class _Due:
    """A stop check on an utterance heard over the reply whose transcript was not a stop word,
    made once the pause after it has lasted ``QUIET_AFTER_SECONDS``."""

    pause: SpeechPaused
    due: int
    """The audio-clock sample to check at."""
    future: Future[StopCheck] | None = None
    check: StopCheck | None = None
    """What it found, once taken from ``future``."""


class StopWatch:
    """The stop check's ear over a reply, and the one check due on it."""

    def __init__(
        self,
        hearing: LinearHearing,
        stt: Hearing,
        worker: HearingWorker,
        names: Callable[[], tuple[str, ...]],
        record: Callable[..., None],
    ):
        self._hearing = hearing
        """The microphone with Hearth's voice subtracted but not suppressed by AEC3, where a
        person's "Stop." over the reply is whole."""
        self._stt = stt
        self._worker = worker
        self._names = names
        """The names a transcription is given now (for transcribing what Hearth played)."""
        self._record = record
        """Records an event (name and fields) on the event stream."""
        self._due: _Due | None = None

    def playing(self, text: str, at: int, samples: int) -> None:
        """Hearth plays ``text``, ``samples`` long, from audio-clock sample ``at`` on: the check's
        guard reads Hearth's own words."""
        self._hearing.playing(text, at, samples)

    def hear(
        self, microphone: np.ndarray, played: np.ndarray | None, probability: float | None
    ) -> None:
        """One frame of the microphone, what was played meanwhile (None: nothing) and Silero's
        verdict on it: the ear learns the room only while nobody is heard speaking."""
        speaking = (probability or 0.0) >= stop_check.ADAPT_BELOW
        self._hearing.hear(microphone, played, speaking=speaking)

    def paused(self, pause: SpeechPaused, clock: int) -> None:
        """An utterance over the reply paused at audio-clock sample ``clock``: check it once the
        pause has lasted long enough for "Stop." to be all that was said."""
        self._due = _Due(pause, clock + seconds_to_samples(stop_check.QUIET_AFTER_SECONDS))

    def step(self, clock: int, *, live: bool) -> bool:
        """Make the check that is due at ``clock`` (``live``, on the worker; in file mode waited
        for at once), and say whether it heard "Stop.": the utterance then ends as a stop."""
        due = self._due
        if due is None:
            return False
        if due.future is None:
            if clock < due.due:
                return False
            # From just before the utterance to now: the pause after it, where a sentence that
            # goes on would be heard, is part of what must fit "Stop.".
            first = seconds_to_samples(due.pause.start - stop_check.PRE_ROLL_SECONDS)
            heard = self._hearing.between(first, clock)
            due.future = self._worker.submit(self._check, heard, self._names())
        if live and not due.future.done():
            return False
        if not self._took(due):
            self._due = None
            return False
        return True

    def heard_in(self, end: SpeechEnded) -> bool:
        """Whether the check heard "Stop." in the utterance ``end`` ends, waiting for one still
        being made (and forget it: the utterance is over)."""
        due = self._due
        heard = due is not None and due.pause.ended_by(end) and self._took(due)
        self.drop()
        return heard

    def drop(self) -> None:
        """Forget the check: the speaker went on, or the utterance is over."""
        if self._due is not None and self._due.future is not None:
            self._due.future.cancel()
        self._due = None

    def _took(self, due: _Due) -> bool:
        """Whether the check made heard "Stop.", waited for, and recorded once."""
        if due.check is None:
            if due.future is None or due.future.cancelled():
                return False
            try:
                due.check = self._worker.result(due.future)
            except Exception as error:  # a second opinion: its failure never stops the hearing
                log.warning("the stop check failed: %s", error)
                due.check = StopCheck(float("-inf"))
            self._record("stop_check", fit=round(due.check.fit, 2),
                         echo_words=due.check.echo_words, heard=due.check.heard)  # fmt: skip
        return due.check.heard

    def _check(self, heard: Overheard, hotwords: tuple[str, ...]) -> StopCheck:
        """Run on the worker: forced decoding needs the local model, whatever hears requests."""
        return stop_check.check_stop(local_hearing(self._stt), heard, hotwords)
