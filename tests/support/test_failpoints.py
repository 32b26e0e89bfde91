"""Failpoints as a user switches them on: which process, which hit, and a clear error for a typo."""

import pytest

from support import Failpoint, FailpointError, Failpoints


def hits(failpoints: Failpoints, failpoint: Failpoint, times: int) -> list[bool]:
    return [failpoints.hit(failpoint) for _ in range(times)]


def test_a_failpoint_fires_once_on_its_first_hit_and_only_where_named():
    failpoints = Failpoints("synthesis_hang")
    assert hits(failpoints, Failpoint.SYNTHESIS_HANG, 3) == [True, False, False]
    assert hits(failpoints, Failpoint.TRANSCRIBE_CRASH, 2) == [False, False]


def test_at_n_fires_on_the_nth_hit():
    failpoints = Failpoints("synthesis_hang@3, transcribe_crash")
    assert hits(failpoints, Failpoint.SYNTHESIS_HANG, 5) == [False, False, True, False, False]
    assert hits(failpoints, Failpoint.TRANSCRIBE_CRASH, 2) == [True, False]


def test_times_n_arms_the_first_n_voice_processes():
    armed = [bool(Failpoints("transcribe_crash*2", generation)) for generation in range(4)]
    assert armed == [True, True, False, False]
    later = [Failpoints("synthesis_hang@2*2", generation) for generation in range(3)]
    assert [hits(f, Failpoint.SYNTHESIS_HANG, 2) for f in later] == [
        [False, True],
        [False, True],
        [False, False],
    ]


def test_nothing_armed_costs_nothing_and_says_so():
    assert not Failpoints("")
    assert not Failpoints.from_environment(0, {})


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("synthesis_hnag", "unknown failpoint 'synthesis_hnag'; known: synthesis_hang,"),
        ("synthesis_hang@x", "failpoint 'synthesis_hang@x': 'x' is not a count of 1 or more"),
        ("device_stall*0", "failpoint 'device_stall*0': '0' is not a count of 1 or more"),
    ],
)
def test_a_typo_is_a_clear_error(spec: str, message: str):
    with pytest.raises(FailpointError) as error:
        Failpoints(spec)
    assert str(error.value).startswith(message)
