"""Two arbiters on one real PostgreSQL database, as two Hearths' supervisors and brains use
them: claims and progress through the database, verdicts waited for on the audio clock."""

from __future__ import annotations

import threading
import time

import pytest

from assistant.arbitration import Arbiter, ArbitrationPolicy, Outcome
from assistant.arbitration.postgres import PostgresTransport
from assistant.reply import HeardUtterance
from assistant.schedule import AudioClock
from audio import State, Via, WakeMeasure
from memory import Memory, PostgresTarget

START = 1_780_000_000.0


def request(t: float, score: float, level_db: float) -> HeardUtterance:
    """A request heard at audio second ``t``, its wake word accepted 2 s before."""
    return HeardUtterance(
        "what time is it", Via.WAKE, t, wake=WakeMeasure(t - 2.0, score, level_db)
    )


@pytest.fixture
def household(postgres_databases):
    url = postgres_databases()
    Memory.open(url).close()
    made: list[Arbiter] = []
    seen = PostgresTransport(PostgresTarget(url))

    def arbiter(device: str, timeout: float = 20.0) -> Arbiter:
        transport = PostgresTransport(PostgresTarget(url, retry_seconds=0.2))
        made.append(Arbiter(transport, device, AudioClock(START), ArbitrationPolicy(1.5, timeout)))
        deadline = time.monotonic() + 20
        while device not in {peer.device for peer in seen.view(START, 5.0)[1]}:
            assert time.monotonic() < deadline, f"{device} never told the household it is there"
            time.sleep(0.05)
        return made[-1]

    yield arbiter
    for each in made:
        each.close()
    seen.close()


def test_the_near_device_answers_once_the_far_one_has_claimed_however_late(household):
    kitchen, living = household("kitchen"), household("living-room")
    kitchen.heard(1.0, State.STANDBY)
    living.heard(1.0, State.STANDBY)
    living.heard(10.0, State.LISTENING)  # woken at 8 s: its progress is held until it claims
    near = request(10.0, 0.96, -21.0)
    kitchen.claim(near)
    kitchen.heard(10.0, State.THINKING)
    verdicts = {}
    waiting = threading.Thread(target=lambda: verdicts.update(kitchen=kitchen.verdict(near)))
    waiting.start()
    waiting.join(1.5)
    assert waiting.is_alive(), "decided before the living room, still listening, had claimed"
    far = request(10.1, 0.94, -33.0)
    living.claim(far)
    living.heard(10.1, State.THINKING)
    waiting.join(10)
    assert verdicts["kitchen"].outcome is Outcome.ANSWERED
    deferred = living.verdict(far)
    assert deferred.outcome is Outcome.DEFERRED and deferred.winner == "kitchen"


def test_a_device_that_heard_past_the_wake_without_claiming_it_does_not_hold_it_up(household):
    kitchen, hall = household("kitchen"), household("hall")
    hall.heard(1.0, State.STANDBY)
    near = request(10.0, 0.96, -21.0)
    kitchen.claim(near)
    kitchen.heard(10.0, State.THINKING)
    hall.heard(30.0, State.STANDBY)  # the hall heard no wake word
    verdict = kitchen.verdict(near)
    assert verdict.outcome is Outcome.ANSWERED and [c.device for c in verdict.claims] == ["kitchen"]


def test_a_device_that_cannot_reach_the_others_answers_by_itself():
    target = PostgresTarget("postgresql://hearth@127.0.0.1:9/hearth", connect_timeout_seconds=1)
    arbiter = Arbiter(PostgresTransport(target), "kitchen", AudioClock(START), ArbitrationPolicy())
    try:
        near = request(10.0, 0.96, -21.0)
        arbiter.claim(near)
        verdict = arbiter.verdict(near)
    finally:
        arbiter.close()
    assert verdict.outcome is Outcome.ALONE and verdict.answers and verdict.winner == "kitchen"
