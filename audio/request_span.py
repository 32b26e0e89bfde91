"""Where the request being heard began and the pauses within it, on the audio clock (pure).

A request is heard from its first word to the end of its speech, with the pauses its speaker went
on from shortened before Whisper hears it (``audio.silences``). A request already taken can come
back: its speaker went on while the model was still thinking, and the turn was taken back
(:class:`~audio.listener.RequestReopened`). It is then heard again from its first word: with its
own pauses, the one its speaker went on from, and those of what they are saying now.
"""

from __future__ import annotations

from audio.listener import RequestReopened
from audio.segmenter import SpeechEnded

Pause = tuple[float, float]
"""A silence within an utterance, ``(start, end)`` in audio seconds."""


class RequestSpan:
    """The start and the pauses of the request being heard, across a turn taken back."""

    def __init__(self) -> None:
        self._pauses: list[Pause] = []
        self._taken_pauses: list[Pause] = []
        """Those of the request last taken, while its speaker may still go on with it."""
        self._reopened: RequestReopened | None = None
        self._ended_while_thinking: SpeechEnded | None = None
        """Speech that ended after the request was taken, before the turn came back."""

    @property
    def pauses(self) -> tuple[Pause, ...]:
        """The pauses the speaker went on from within the request being heard."""
        return tuple(self._pauses)

    @property
    def reopened(self) -> RequestReopened | None:
        """The request taken back and being heard again, if it is one."""
        return self._reopened

    def start(self, utterance_start: float) -> float:
        """Where the request began, for an utterance that began at ``utterance_start``: the
        request's first word when the utterance goes on with one taken back."""
        return self._reopened.start if self._reopened is not None else utterance_start

    def speech_started(self) -> None:
        """A new utterance began: it has no pauses yet."""
        self._pauses.clear()

    def went_on(self, pause: Pause) -> None:
        """The speaker went on after ``pause``, within the utterance."""
        self._pauses.append(pause)

    def new_request(self) -> None:
        """A wake word: what follows is a new request, not the one being heard again."""
        self._reopened = None

    def taken(self) -> None:
        """The request was taken; its pauses are kept in case its speaker goes on with it."""
        self._reopened = self._ended_while_thinking = None
        self._taken_pauses = list(self._pauses)

    def ended_while_thinking(self, ended: SpeechEnded) -> None:
        """Speech ended while the request taken was being answered: perhaps its speaker going on."""
        self._ended_while_thinking = ended

    def reopen(self, reopened: RequestReopened) -> SpeechEnded | None:
        """Hear the request taken back again from its first word. Returns the end of what its
        speaker went on with, if that is already over (to be taken now), else None."""
        self._reopened = reopened
        pause = (reopened.paused_from, reopened.went_on_at)
        self._pauses = [*self._taken_pauses, pause, *self._pauses]
        ended, self._ended_while_thinking = self._ended_while_thinking, None
        return ended if ended is not None and ended.start >= reopened.went_on_at else None
