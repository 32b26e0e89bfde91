"""The client's deadline on a statement: called once when a block runs past it, never otherwise."""

from __future__ import annotations

import threading

from memory.statement_watch import StatementWatch


def test_a_block_that_outlives_its_deadline_is_cut_once() -> None:
    cut = threading.Event()
    calls: list[str] = []

    def sever() -> None:
        calls.append("cut")
        cut.set()

    watch = StatementWatch(sever)
    with watch.watching(0.05):
        assert cut.wait(timeout=30), "the deadline never fired"  # a bound on a hang only
    assert watch.overdue and calls == ["cut"]


def test_a_block_that_ends_in_time_is_left_alone_and_the_next_is_watched_afresh() -> None:
    calls: list[str] = []
    watch = StatementWatch(lambda: calls.append("cut"))
    for _ in range(3):
        with watch.watching(60):
            pass
    assert not watch.overdue and calls == []
    fired = threading.Event()
    later = StatementWatch(fired.set)
    with later.watching(60):
        pass
    with later.watching(0.05):
        assert fired.wait(timeout=30)
    with later.watching(60):
        assert not later.overdue  # each block starts with a clean slate
