"""A turn withdrawn as the supervisor withdraws one when its speaker goes on: from another
thread, once the turn waits for the model (a withdrawal is refused while it prepares)."""

from __future__ import annotations

import threading
import time

import pytest

from assistant.brain import Brain
from assistant.reply import HeardUtterance, ReplyPart
from assistant.turn_gate import TurnGate, TurnPhase, TurnWithdrawn


def withdraw_once_waiting(gate: TurnGate) -> bool:
    """Withdraw the turn through ``gate`` once it waits for the model (or after 10 s)."""
    until = time.monotonic() + 10.0
    while gate.phase is TurnPhase.PREPARING and time.monotonic() < until:
        time.sleep(0.005)
    return gate.withdraw()


def withdrawn_turn(brain: Brain, heard: HeardUtterance) -> list[ReplyPart]:
    """Run the brain's turn for ``heard`` on this thread while another withdraws it; the turn
    must end withdrawn. Returns the parts it gave before it stopped."""
    gate = TurnGate()
    withdrawn: list[bool] = []
    supervisor = threading.Thread(target=lambda: withdrawn.append(withdraw_once_waiting(gate)))
    supervisor.start()
    parts: list[ReplyPart] = []
    with pytest.raises(TurnWithdrawn):
        parts.extend(brain.respond(heard, gate))
    supervisor.join()
    assert withdrawn == [True], "the turn was not withdrawn"
    return parts
