"""The remote service's health as pure code: when to ask it, when to go local, what to say."""

from __future__ import annotations

import logging

from audio.remote import Reach, RemoteHealth


class Clock:
    """Seconds that move only when the test says so."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def health(clock: Clock, retry_after: float = 30.0) -> RemoteHealth:
    return RemoteHealth("speech-to-text at tcp://box:10300", "I'm using my own ears.",
                        retry_after, clock)  # fmt: skip


def test_a_healthy_service_is_asked_and_says_nothing():
    state = health(Clock())
    assert state.should_try()
    state.succeeded()
    assert state.reach is Reach.UP
    assert state.take_notice() is None


def test_a_failure_goes_local_until_the_retry_time_and_leaves_one_notice():
    clock = Clock()
    state = health(clock)
    state.failed("timed out")
    assert state.reach is Reach.DOWN
    assert not state.should_try()
    clock.now += 29.9
    assert not state.should_try()
    clock.now += 0.1
    assert state.should_try()
    assert state.take_notice() == "I'm using my own ears."
    assert state.take_notice() is None, "said once"


def test_failing_again_in_the_same_outage_waits_again_but_says_nothing_new(caplog):
    clock = Clock()
    state = health(clock)
    with caplog.at_level(logging.INFO, logger="audio.remote.health"):
        state.failed("unreachable")
        assert state.take_notice() is not None
        clock.now += 30
        state.failed("unreachable")
        assert not state.should_try()
        assert state.take_notice() is None
        clock.now += 30
        state.succeeded()
        assert state.reach is Reach.UP and state.should_try()
        state.failed("closed the connection")
    assert state.take_notice() == "I'm using my own ears.", "a new outage is told again"
    messages = [record.getMessage() for record in caplog.records]
    assert sum("failed" in m for m in messages) == 2, "one warning per outage"
    assert sum("answers again" in m for m in messages) == 1
    assert state.last_failure == "closed the connection"


def test_no_wait_retries_every_call():
    state = health(Clock(), retry_after=0)
    state.failed("timed out")
    assert state.should_try()
