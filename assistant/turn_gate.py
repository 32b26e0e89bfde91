"""Whether a turn may still be withdrawn: its speaker went on after the request was taken, or
the wake word was said again for a new one.

A person who pauses mid-request ("What's the weather like ... in Paris tomorrow?") may be taken at
the pause; if they go on before the reply begins, the voice process asks for the turn back, to hear
the request whole. The brain gives it back only while the turn has done nothing: no sentence said,
no timer set, no fact stored. Everything before the model's answer is quick and may act (a timer, a
light, a remembered fact), so a turn is withdrawable only while it waits for the model, and the
first sentence or tool call commits it. The gate is the one place both threads meet: whichever of
``commit`` and ``withdraw`` comes first wins, under a lock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from enum import StrEnum


class TurnPhase(StrEnum):
    """Where a turn stands, as far as withdrawing it goes."""

    PREPARING = "preparing"
    """Working out what to do, which may act at once: not withdrawable."""
    AWAITING_MODEL = "awaiting_model"
    """Nothing done or said, waiting for the model's answer: withdrawable."""
    COMMITTED = "committed"
    """Something was said or done: the turn runs to its end."""
    WITHDRAWN = "withdrawn"
    """Given back: it stops where it is, having done nothing."""


class TurnWithdrawn(Exception):
    """Raised in the brain's thread where a withdrawn turn would have gone on."""


class TurnGate:
    """One turn's phase, shared by the brain's thread and the supervisor's."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._phase = TurnPhase.PREPARING
        self._on_withdraw: list[Callable[[], None]] = []

    @property
    def phase(self) -> TurnPhase:
        return self._phase

    def await_model(self) -> None:
        """The turn has done nothing and now waits for the model: it may be withdrawn."""
        with self._lock:
            if self._phase is TurnPhase.PREPARING:
                self._phase = TurnPhase.AWAITING_MODEL

    def commit(self) -> None:
        """The turn is about to say or do something. Raises :class:`TurnWithdrawn` if it was
        given back first."""
        with self._lock:
            if self._phase is TurnPhase.WITHDRAWN:
                raise TurnWithdrawn
            self._phase = TurnPhase.COMMITTED

    def withdraw(self) -> bool:
        """Give the turn back if it has done nothing yet; whether it was."""
        with self._lock:
            if self._phase is TurnPhase.AWAITING_MODEL:
                self._phase = TurnPhase.WITHDRAWN
                callbacks, self._on_withdraw = self._on_withdraw, []
            else:
                return self._phase is TurnPhase.WITHDRAWN
        for callback in callbacks:
            callback()
        return True

    def on_withdraw(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (from the withdrawing thread) when the turn is given back: a wait
        for the model stops at once. Called now if it already was."""
        with self._lock:
            if self._phase is not TurnPhase.WITHDRAWN:
                self._on_withdraw.append(callback)
                return
        callback()
