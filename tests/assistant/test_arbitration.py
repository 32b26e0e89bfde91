"""The household's arbitration as pure code: which claim of a wake word answers, and when a
device may decide."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from assistant.arbitration import (
    SCORE_DB,
    Claim,
    Outcome,
    Peer,
    decide,
    progress_held,
    same_wake,
    settled,
)
from audio import State

WINDOW = 1.5
NEAR = Claim("kitchen", 1000.00, 0.97, -22.0)
FAR = Claim("living room", 1000.12, 0.98, -34.0)


def test_the_device_that_heard_it_louder_answers_and_the_other_defers():
    assert decide(NEAR, [FAR], WINDOW).outcome is Outcome.ANSWERED
    verdict = decide(FAR, [NEAR], WINDOW)
    assert verdict.outcome is Outcome.DEFERRED and not verdict.answers
    assert verdict.winner == "kitchen"
    assert [claim.device for claim in verdict.claims] == ["kitchen", "living room"]


def test_a_clearly_surer_wake_outweighs_a_few_decibels():
    loud_unsure = Claim("hall", 1000.0, 0.55, -20.0)
    quiet_sure = Claim("study", 1000.0, 0.99, -25.0)  # 5 dB quieter, 0.44 surer: 8.8 dB
    assert quiet_sure.strength - loud_unsure.strength == 0.44 * SCORE_DB - 5.0
    assert decide(loud_unsure, [quiet_sure], WINDOW).winner == "study"


def test_equal_claims_go_to_the_first_name_on_every_device():
    a = Claim("attic", 1000.0, 0.9, -30.0)
    b = Claim("basement", 1000.3, 0.9, -30.0)
    assert decide(a, [b], WINDOW).winner == decide(b, [a], WINDOW).winner == "attic"


def test_claims_outside_the_window_are_another_wake():
    later = Claim("living room", NEAR.at + WINDOW + 0.01, 1.0, -10.0)
    assert same_wake(NEAR, [later], WINDOW) == []
    assert decide(NEAR, [later], WINDOW).outcome is Outcome.ANSWERED
    nearest = Claim("living room", NEAR.at + 0.4, 0.5, -40.0)
    assert same_wake(NEAR, [later, nearest, NEAR], WINDOW) == [nearest]  # its own is not a rival


def test_a_device_decides_only_once_every_peer_claimed_or_heard_past_the_window():
    peers = [Peer("kitchen", NEAR.at), Peer("living room", NEAR.at + 0.5)]
    assert not settled(NEAR, [], peers, WINDOW)  # the living room may still claim
    assert settled(NEAR, [FAR], peers, WINDOW)  # it did
    past = [Peer("kitchen", NEAR.at), Peer("living room", NEAR.at + WINDOW + 0.1)]
    assert settled(NEAR, [], past, WINDOW)  # it heard past the wake without claiming it
    assert settled(NEAR, [], [], WINDOW)  # alone in the household


def test_what_a_device_heard_is_held_back_while_it_listens_to_a_request():
    assert progress_held(State.LISTENING)
    assert not any(progress_held(s) for s in State if s is not State.LISTENING)


claims = st.builds(
    Claim,
    device=st.sampled_from(["attic", "basement", "kitchen", "living room", "study"]),
    at=st.floats(1000.0, 1001.0),
    score=st.floats(0.0, 1.0),
    level_db=st.floats(-90.0, 0.0),
)


@given(st.lists(claims, min_size=1, max_size=5, unique_by=lambda claim: claim.device))
def test_exactly_one_device_answers_whatever_the_claims_and_their_order(wake):
    # Within one wake every device sees the others' claims: all must agree on one winner.
    for order in itertools.islice(itertools.permutations(wake), 6):
        verdicts = [decide(mine, list(order), WINDOW) for mine in wake]
        assert sum(verdict.answers for verdict in verdicts) == 1
        assert len({verdict.winner for verdict in verdicts}) == 1
