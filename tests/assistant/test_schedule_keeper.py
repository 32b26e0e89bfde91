"""The supervisor's half of the schedule: due items in, actions out, on a real database file and
the audio clock (the clock is its seam: file mode's, driven by hand)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.reply import RoutineAsk, RoutineResult
from assistant.schedule import (
    AudioClock,
    ItemKind,
    ItemState,
    RetryPolicy,
    SchedulePolicy,
    Scheduler,
    ScheduleStore,
)
from assistant.schedule_keeper import (
    HOLD_STEP_SECONDS,
    UNREACHABLE,
    Announce,
    RingItem,
    RunRoutine,
    ScheduleKeeper,
    SilenceItem,
    WriteEvent,
)
from config import RoutineSettings

START = 1_800_000_000.0  # 2027-01-15 08:00 UTC
LONDON = ZoneInfo("Europe/London")
CLOCK = AudioClock(START)


@pytest.fixture
def keepers(tmp_path):
    """``keepers(**options)``: a keeper over the test's database (a new one is a new process)."""
    made: list[ScheduleKeeper] = []

    def make(path=None, policy=None, **options) -> ScheduleKeeper:
        database = path or tmp_path / "memory.db"

        def open_scheduler() -> Scheduler:
            return Scheduler(ScheduleStore.open(database), policy or SchedulePolicy())

        keeper = ScheduleKeeper(open_scheduler, CLOCK, LONDON, **options)
        made.append(keeper)
        return keeper

    yield make
    for keeper in made:
        keeper.close()


@pytest.fixture
def desk_side(tmp_path):
    """The brain's own scheduler on its own connection, as the desk has it."""
    store = ScheduleStore.open(tmp_path / "memory.db")
    yield Scheduler(store)
    store.close()


def named(actions, event: str) -> list[dict]:
    return [a.fields for a in actions if isinstance(a, WriteEvent) and a.fields["event"] == event]


def run(keeper: ScheduleKeeper, until: float, t: float = 0.0) -> tuple[list, float]:
    """Drive the keeper as the supervisor does in file mode: hold, wake there, repeat."""
    actions = keeper.wake(t)
    # A routine in flight holds the loop where it is until its result comes back: stop there.
    while not keeper.routine_running and (hold := keeper.hold(t)) is not None and hold <= until:
        t = hold
        actions += keeper.wake(t)
    return actions, t


def test_a_timer_rings_at_its_audio_time_and_stop_says_what_finished(keepers, desk_side):
    keeper = keepers()
    keeper.wake(0.0)
    item, _ = desk_side.add_timer(CLOCK.now(1.0), 30, "pasta", "Europe/London")
    assert keeper.hold(1.0) == pytest.approx(31.0)
    actions, t = run(keeper, until=31.0, t=1.0)
    [finished] = named(actions, "timer_finished")
    assert finished["item_id"] == item.id and finished["lateness"] == "on_time"
    assert RingItem(item.id) in actions and keeper.sounding == (item.id,)
    *ended, said = keeper.stopped([item.id], t + 4)
    assert said == Announce("Your pasta timer is done.")
    assert [(e.fields["event"], e.fields["by"]) for e in ended] == [("ring_end", "stop")]
    assert desk_side.store.get(item.id).state is ItemState.DONE
    assert keeper.sounding == ()
    assert keeper.stopped([item.id], t + 5) == []  # reported twice: said once


def test_two_that_finish_together_ring_as_one_and_are_both_said(keepers, desk_side):
    keeper = keepers()
    keeper.wake(0.0)
    pasta, _ = desk_side.add_timer(CLOCK.now(1.0), 30, "pasta", "Europe/London")
    eggs, _ = desk_side.add_timer(CLOCK.now(1.0), 30, "eggs", "Europe/London")
    actions, t = run(keeper, until=31.0, t=1.0)
    assert [a for a in actions if isinstance(a, RingItem)] == [
        RingItem(pasta.id),
        RingItem(eggs.id),
    ]
    *ended, said = keeper.stopped([pasta.id, eggs.id], t + 2)
    assert [e.fields["item_id"] for e in ended] == [pasta.id, eggs.id]
    assert said == Announce("Your pasta timer is done. Your eggs timer is done.")


def test_a_ring_nobody_stops_ends_by_itself_and_says_what_finished(keepers, desk_side):
    keeper = keepers(policy=SchedulePolicy(auto_stop_seconds=60))
    keeper.wake(0.0)
    item, _ = desk_side.add_timer(CLOCK.now(0.0), 10, None, "Europe/London")
    actions, _ = run(keeper, until=71.0)
    assert RingItem(item.id) in actions
    assert actions[-2:] == [SilenceItem(item.id), Announce("Your 10 second timer is done.")]
    [ended] = named(actions, "ring_end")
    assert ended["by"] == "auto"


def test_a_reminder_is_said_at_its_time_and_finished_once_it_was_said(keepers, desk_side):
    keeper = keepers()
    keeper.wake(0.0)
    moment = datetime.fromtimestamp(START + 60, LONDON)
    item = desk_side.add_at(CLOCK.now(0.0), ItemKind.REMINDER, moment, text="call mum")
    actions, t = run(keeper, until=60.0)
    assert named(actions, "reminder_due")[0]["item_id"] == item.id
    assert Announce("A reminder: call mum.", item.id) in actions
    assert desk_side.store.get(item.id).state is ItemState.RINGING  # not yet said
    [ended] = keeper.said(item.id, t + 2)
    assert ended.fields["event"] == "ring_end" and ended.fields["by"] == "said"
    assert desk_side.store.get(item.id).state is ItemState.DONE


def test_a_ring_the_desk_cancels_or_lengthens_stops_ringing(keepers, desk_side):
    keeper = keepers()
    keeper.wake(0.0)
    pasta, _ = desk_side.add_timer(CLOCK.now(0.0), 10, "pasta", "Europe/London")
    eggs, _ = desk_side.add_timer(CLOCK.now(0.0), 10, "eggs", "Europe/London")
    run(keeper, until=10.0)
    assert keeper.sounding == (pasta.id, eggs.id)
    assert keeper.changed(11.0) == []
    desk_side.cancel(CLOCK.now(12.0), pasta.id)
    desk_side.add_time(CLOCK.now(12.0), eggs.id, 60)
    assert keeper.changed(12.0) == [SilenceItem(pasta.id), SilenceItem(eggs.id)]
    actions, _ = run(keeper, until=72.0, t=12.0)
    assert RingItem(eggs.id) in actions  # it runs again, and rings again at its new end


def test_file_mode_holds_a_frame_on_at_least_and_where_it_is_while_a_routine_runs(keepers):
    keeper = keepers(routines=(RoutineSettings(prompt="Say hello", at="08:01"),))
    assert keeper.hold(0.0) == pytest.approx(HOLD_STEP_SECONDS)  # the first wake settles the start
    [added] = named(keeper.wake(0.0), "routine_set")
    assert keeper.hold(0.0) == pytest.approx(60.0)
    actions, t = run(keeper, until=60.0)
    [run_it] = [a for a in actions if isinstance(a, RunRoutine)]
    assert run_it.ask == RoutineAsk(added["item_id"], "Say hello", False, t)
    assert keeper.routine_running and keeper.hold(t + 3) == t + 3  # its answer lands here


def test_a_routine_whose_model_is_down_is_tried_again_with_backoff_then_said_once(keepers):
    retry = RetryPolicy(first_seconds=5, factor=2, longest_seconds=60, window_seconds=30)
    keeper = keepers(retry=retry, routines=(RoutineSettings(prompt="Cheer me up", at="08:01"),))
    actions, t = run(keeper, until=60.0)
    [first] = [a.ask for a in actions if isinstance(a, RunRoutine)]
    down = RoutineResult(first.item_id, failure="cannot connect", spoken_failure="It's down.")
    tries = [t]
    for _ in range(5):
        actions = keeper.routine(down, t)
        if not named(actions, "routine_retry"):
            break
        t = keeper.hold(t)
        again = [a for a in keeper.wake(t) if isinstance(a, RunRoutine)]
        assert len(again) == 1 and again[0].ask.item_id == first.item_id
        tries.append(t)
    # Tried at 0, 5, 15 s (then 35 s would be past the 30 s window): said once, and finished.
    assert [round(at - tries[0]) for at in tries] == [0, 5, 15]
    said = [a for a in actions if isinstance(a, Announce)]
    assert said == [Announce("I couldn't do your routine, Cheer me up: It's down.")]
    assert named(actions, "routine_failed")[0]["failed"] == 3
    assert not keeper.routine_running


def test_a_routine_that_answers_on_a_later_try_is_finished_and_repeats_tomorrow(keepers):
    keeper = keepers(routines=(RoutineSettings(prompt="Cheer me up", at="08:01"),))
    actions, t = run(keeper, until=60.0)
    [ask] = [a.ask for a in actions if isinstance(a, RunRoutine)]
    keeper.routine(RoutineResult(ask.item_id, failure="503"), t)
    t = keeper.hold(t)
    keeper.wake(t)
    [ended] = keeper.routine(RoutineResult(ask.item_id, "You've got this."), t)
    assert ended.fields["by"] == "run"
    assert ended.fields["next_due_at"] == pytest.approx(START + 60 + 24 * 3600)


def test_after_a_restart_a_ring_goes_on_and_a_half_said_reminder_is_said_again(keepers, desk_side):
    first = keepers()
    first.wake(0.0)
    timer, _ = desk_side.add_timer(CLOCK.now(0.0), 10, "pasta", "Europe/London")
    moment = datetime.fromtimestamp(START + 10, LONDON)
    reminder = desk_side.add_at(CLOCK.now(0.0), ItemKind.REMINDER, moment, text="call mum")
    run(first, until=10.0)
    first.close()  # killed: neither the ring was stopped nor the reminder said
    second = keepers()
    actions = second.wake(12.0)
    assert RingItem(timer.id) in actions and second.sounding == (timer.id,)
    said = [a for a in actions if isinstance(a, Announce)]
    assert said == [
        Announce("While I was restarting, a reminder came due at 8 AM: call mum.", reminder.id)
    ]
    assert len(named(actions, "ring_resumed")) == 2


def test_a_schedule_that_cannot_be_opened_is_said_once_and_tried_again(keepers, tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database, " * 100)
    keeper = keepers(path=junk)
    actions = keeper.wake(0.0)
    assert Announce(UNREACHABLE) in actions and named(actions, "error")[0]["what"] == "schedule"
    assert keeper.seconds_until_due(1.0) == pytest.approx(4.0)
    assert keeper.wake(2.0) == []  # not tried again before the pause
    assert keeper.wake(6.0) == []  # tried, still broken: not said again
    junk.unlink()
    assert keeper.wake(12.0) == []  # a fresh file now: back
    assert keeper.seconds_until_due(12.0) is None


def test_an_outage_found_while_asking_when_to_look_is_still_said_once(keepers, tmp_path):
    # The loop asks when to look before it wakes the keeper: the outage found there was logged,
    # and the announcement and the error event were lost with it.
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database, " * 100)
    keeper = keepers(path=junk)
    assert keeper.seconds_until_due(0.0) == 0.0  # look now
    actions = keeper.wake(0.0)
    assert Announce(UNREACHABLE) in actions and named(actions, "error")[0]["what"] == "schedule"
    assert keeper.wake(6.0) == []  # said once


def ringing_from_elsewhere(keepers, tmp_path):
    """A keeper ringing a timer that another process (the command line) set and can cancel."""
    keeper = keepers()
    keeper.wake(0.0)
    command_line = Scheduler(ScheduleStore.open(tmp_path / "memory.db"))
    pasta, _ = command_line.add_timer(CLOCK.now(0.0), 10, "pasta", "Europe/London")
    run(keeper, until=10.0)
    assert keeper.sounding == (pasta.id,)
    return keeper, command_line, pasta


def test_a_ring_cancelled_by_another_process_stops_within_a_second(keepers, tmp_path):
    # `hearth schedule cancel` printed "cancelled" while the timer rang on to its auto-stop:
    # nothing looked at the schedule until then.
    keeper, command_line, pasta = ringing_from_elsewhere(keepers, tmp_path)
    command_line.cancel(CLOCK.now(20.0), pasta.id)
    command_line.store.close()
    hold = keeper.hold(20.0)
    assert hold is not None and 20.0 < hold <= 21.0
    assert SilenceItem(pasta.id) in keeper.wake(hold)
    assert keeper.sounding == ()


def test_live_a_ring_cancelled_by_another_process_is_looked_at_each_second(keepers, tmp_path):
    # The live loop asks how long it may sleep and wakes the keeper only at 0: a ring gave
    # "1 s" at every ask, so it never woke, and the cancelled timer rang on.
    keeper, command_line, pasta = ringing_from_elsewhere(keepers, tmp_path)
    actions, t = [], 10.0
    while t < 23.0:
        if t >= 20.0 and command_line.active(ItemKind.TIMER):
            command_line.cancel(CLOCK.now(t), pasta.id)
        wait = keeper.seconds_until_due(t)
        if wait is not None and wait <= 0:
            actions += keeper.wake(t)
        t = round(t + 0.05, 2)
    command_line.store.close()
    assert SilenceItem(pasta.id) in actions and keeper.sounding == ()


def test_a_ring_resumed_after_a_restart_rings_only_what_is_left_of_its_auto_stop(
    keepers, desk_side
):
    # Resumed 200 s into a 300 s auto-stop, it rang another 300 s.
    first = keepers(policy=SchedulePolicy(auto_stop_seconds=300))
    first.wake(0.0)
    timer, _ = desk_side.add_timer(CLOCK.now(0.0), 10, "pasta", "Europe/London")
    run(first, until=10.0)
    first.close()
    second = keepers(policy=SchedulePolicy(auto_stop_seconds=300))
    assert RingItem(timer.id) in second.wake(210.0)
    actions, _ = run(second, until=320.0, t=210.0)
    [ended] = named(actions, "ring_end")
    assert ended["by"] == "auto" and SilenceItem(timer.id) in actions
