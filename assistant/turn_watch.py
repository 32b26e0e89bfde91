"""The watchdog's judgement of the brain: is a turn making progress?

The brain answers one utterance at a time on a thread of its own and reports as it goes: each
piece of the model's stream, each part of the reply, the end of a turn. The supervisor feeds those
reports here with the monotonic time it took them; a brain with work outstanding that reported
nothing for ``stall_seconds`` is stuck, and the turn it is stuck on is the oldest one not ended.
Pure, like ``VoiceHealth``: tested with reply numbers and seconds.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Stall:
    """The brain made no progress on ``reply`` for ``seconds``."""

    reply: int
    seconds: float

    @property
    def reason(self) -> str:
        """A line for the log and the event stream."""
        return f"the turn made no progress for {self.seconds:.1f} s"


class TurnWatch:
    """Replies the brain owes, and when it last showed progress."""

    def __init__(self, stall_seconds: float):
        self.stall_seconds = stall_seconds
        self._outstanding: list[int] = []
        self._last_progress = 0.0

    @property
    def outstanding(self) -> tuple[int, ...]:
        """Replies asked for and not ended, oldest first."""
        return tuple(self._outstanding)

    def asked(self, reply: int, now: float) -> None:
        """The brain was given an utterance: an idle brain's clock starts now (a busy one's runs
        on, since it answers in order)."""
        if not self._outstanding:
            self._last_progress = now
        self._outstanding.append(reply)

    def progressed(self, now: float) -> None:
        """The brain reported something: a piece from the model, a part of the reply."""
        self._last_progress = max(self._last_progress, now)

    def ended(self, reply: int, now: float) -> None:
        """Reply ``reply`` is complete (or was given up on)."""
        if reply in self._outstanding:
            self._outstanding.remove(reply)
        self.progressed(now)

    def restarted(self, now: float) -> None:
        """A new brain took over the outstanding replies: its clock starts now."""
        self._last_progress = now

    def problem(self, now: float) -> Stall | None:
        """The stall to act on, or None while the brain is idle or making progress."""
        if not self._outstanding:
            return None
        silent = now - self._last_progress
        if silent <= self.stall_seconds:
            return None
        return Stall(self._outstanding[0], silent)
