"""The brain's watchdog as pure code: a busy brain that shows no progress past the stall time is
stuck on its oldest unfinished turn; an idle one never is."""

from __future__ import annotations

from assistant.turn_watch import Stall, TurnWatch


def test_an_idle_brain_is_never_stuck():
    watch = TurnWatch(stall_seconds=5)
    assert watch.problem(now=1000.0) is None


def test_a_turn_without_progress_past_the_stall_time_is_stuck():
    watch = TurnWatch(stall_seconds=5)
    watch.asked(1, now=10.0)
    assert watch.problem(now=15.0) is None
    assert watch.problem(now=15.5) == Stall(1, 5.5)
    assert Stall(1, 5.5).reason == "the turn made no progress for 5.5 s"


def test_progress_keeps_a_long_turn_alive_and_its_end_clears_it():
    watch = TurnWatch(stall_seconds=5)
    watch.asked(1, now=0.0)
    for now in range(4, 60, 4):  # a model streaming slowly for a minute
        watch.progressed(float(now))
        assert watch.problem(float(now) + 4.9) is None
    watch.ended(1, now=60.0)
    assert watch.outstanding == () and watch.problem(now=600.0) is None


def test_a_question_waiting_behind_a_busy_turn_shares_its_clock():
    watch = TurnWatch(stall_seconds=5)
    watch.asked(1, now=0.0)
    watch.progressed(now=4.0)
    watch.asked(2, now=4.5)  # the brain is busy: the clock is the turn in progress's
    assert watch.problem(now=9.5) == Stall(1, 5.5)
    watch.ended(1, now=9.6)
    assert watch.outstanding == (2,)
    assert watch.problem(now=14.0) is None
    assert watch.problem(now=14.7) == Stall(2, 14.7 - 9.6)


def test_a_new_brain_gets_a_fresh_clock_for_the_turns_it_takes_over():
    watch = TurnWatch(stall_seconds=5)
    watch.asked(1, now=0.0)
    watch.asked(2, now=1.0)
    stall = watch.problem(now=6.0)
    assert stall == Stall(1, 6.0)
    watch.ended(stall.reply, now=6.0)  # abandoned with an apology
    watch.restarted(now=6.0)
    assert watch.problem(now=10.9) is None
    assert watch.problem(now=11.5) == Stall(2, 5.5)
