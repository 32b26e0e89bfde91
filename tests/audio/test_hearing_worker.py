"""The hearing worker: the loop's speech-to-text work runs in order on one thread, a finished
piece wakes the loop, and the loop waits for a result inside its job context."""

from __future__ import annotations

import select
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from audio.hearing_worker import HearingWorker
from audio.wakeup import Wakeup


@pytest.fixture
def wakeup() -> Iterator[Wakeup]:
    made = Wakeup()
    yield made
    made.close()


def woken(wakeup: Wakeup, within: float = 1.0) -> bool:
    return bool(select.select([wakeup], [], [], within)[0])


def test_work_runs_in_order_on_one_thread_and_wakes_the_loop(wakeup: Wakeup):
    waits: list[str] = []

    @contextmanager
    def waiting() -> Iterator[None]:
        waits.append("begin")
        yield
        waits.append("end")

    worker = HearingWorker(wakeup, waiting)
    gate = threading.Event()
    threads: list[str] = []

    def work(name: str) -> str:
        gate.wait(5.0)
        threads.append(threading.current_thread().name)
        return name

    first, second = worker.submit(work, "first"), worker.submit(work, name="second")
    assert not woken(wakeup, within=0.0)
    gate.set()
    assert worker.result(second) == "second" and first.done()
    assert woken(wakeup)
    assert len(set(threads)) == 1 and threads[0].startswith("hearth-stt")
    assert waits == ["begin", "end"]
    worker.close()


def test_an_error_on_the_worker_is_raised_where_its_result_is_waited_for(wakeup: Wakeup):
    ended: list[bool] = []

    @contextmanager
    def waiting() -> Iterator[None]:
        try:
            yield
        finally:
            ended.append(True)

    worker = HearingWorker(wakeup, waiting)

    def fail() -> None:
        raise RuntimeError("the model is gone")

    with pytest.raises(RuntimeError, match="the model is gone"):
        worker.result(worker.submit(fail))
    assert ended == [True]  # the job is over all the same
    worker.close()


def test_closing_drops_the_work_still_queued(wakeup: Wakeup):
    worker = HearingWorker(wakeup, contextmanager(lambda: iter([None])))
    started, gate = threading.Event(), threading.Event()

    def hold() -> str:
        started.set()
        gate.wait(5.0)
        return "finished"

    running = worker.submit(hold)
    queued = worker.submit(str, "never")
    assert started.wait(5.0)
    worker.close()
    gate.set()
    assert queued.cancelled()
    assert running.result(5.0) == "finished"  # the piece under way finishes
