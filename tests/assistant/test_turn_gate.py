"""The turn gate as pure code: a turn is given back only while it waits for the model, having
said and done nothing; whichever of commit and withdraw comes first wins."""

from __future__ import annotations

import threading

import pytest

from assistant.turn_gate import TurnGate, TurnPhase, TurnWithdrawn


def test_a_turn_waiting_for_the_model_is_given_back_and_goes_no_further():
    gate = TurnGate()
    called = []
    gate.on_withdraw(lambda: called.append("off"))
    gate.await_model()
    assert gate.withdraw() and gate.withdraw()  # asked twice: still given back
    assert gate.phase is TurnPhase.WITHDRAWN and called == ["off"]
    with pytest.raises(TurnWithdrawn):
        gate.commit()
    late = []
    gate.on_withdraw(lambda: late.append("off"))  # registered after: called at once
    assert late == ["off"]


def test_a_turn_that_is_preparing_or_has_said_something_is_not_given_back():
    preparing = TurnGate()  # a timer, a light or a fact may be acted on before any word
    assert not preparing.withdraw() and preparing.phase is TurnPhase.PREPARING
    said = TurnGate()
    said.await_model()
    said.commit()
    said.await_model()  # a later model round does not reopen it
    assert not said.withdraw() and said.phase is TurnPhase.COMMITTED


def test_commit_and_withdraw_racing_agree_on_one_winner():
    for _ in range(200):
        gate = TurnGate()
        gate.await_model()
        results: dict[str, bool] = {}

        def commit(gate: TurnGate = gate, results: dict[str, bool] = results) -> None:
            try:
                gate.commit()
                results["committed"] = True
            except TurnWithdrawn:
                results["committed"] = False

        thread = threading.Thread(target=commit)
        thread.start()
        results["withdrawn"] = gate.withdraw()
        thread.join()
        assert results["committed"] != results["withdrawn"]
