"""The self-pipe the voice loop waits on: any thread wakes it, signals coalesce, clear forgets."""

from __future__ import annotations

import threading
from multiprocessing import connection

from audio.wakeup import Wakeup


def test_a_signal_from_another_thread_wakes_a_wait_at_once_and_stays_until_cleared():
    wakeup = Wakeup()
    try:
        assert connection.wait([wakeup], timeout=0) == []
        thread = threading.Thread(target=wakeup.signal)
        thread.start()
        assert connection.wait([wakeup], timeout=10) == [wakeup]
        thread.join()
        assert connection.wait([wakeup], timeout=0) == [wakeup]  # level, not edge
        wakeup.clear()
        assert connection.wait([wakeup], timeout=0) == []
    finally:
        wakeup.close()


def test_many_signals_before_a_wait_are_one_wake_and_never_block():
    wakeup = Wakeup()
    try:
        for _ in range(200_000):  # far more than a pipe holds: a full pipe is already awake
            wakeup.signal()
        assert connection.wait([wakeup], timeout=0) == [wakeup]
        wakeup.clear()
        assert connection.wait([wakeup], timeout=0) == []
    finally:
        wakeup.close()


def test_signalling_a_closed_wakeup_is_harmless():
    wakeup = Wakeup()
    wakeup.close()
    wakeup.close()
    wakeup.signal()
    wakeup.clear()
