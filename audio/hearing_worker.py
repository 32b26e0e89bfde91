"""Whisper off the voice loop: the one thread that does the loop's speech-to-text work.

What the loop asks of the speech-to-text model while it goes on hearing the room (a transcription
begun at a pause, the ear's reading of where the words end, the stop check over a reply) runs
here, one piece at a time and in order: one thread, so that work never competes with itself for
a small device's cores. A finished piece signals the loop's :class:`~audio.wakeup.Wakeup`, so a
loop waiting for work sees it at once. The loop waits for a result as a transcription job (the
``waiting`` context it gives): the supervisor holds a job that does not come back to its deadline,
since heartbeats pause while the loop waits.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import AbstractContextManager
from typing import ParamSpec, TypeVar

from audio.wakeup import Wakeup

_Params = ParamSpec("_Params")
_Done = TypeVar("_Done")
"""What a piece of work on the thread gives back."""


class HearingWorker:
    """One thread running the loop's speech-to-text work, in order."""

    def __init__(self, wakeup: Wakeup, waiting: Callable[[], AbstractContextManager[object]]):
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hearth-stt")
        self._wakeup = wakeup
        self._waiting = waiting

    def submit(
        self, work: Callable[_Params, _Done], *args: _Params.args, **kwargs: _Params.kwargs
    ) -> Future[_Done]:
        """Queue ``work``; the loop is woken when it is done (or cancelled)."""
        future = self._executor.submit(work, *args, **kwargs)
        future.add_done_callback(lambda _: self._wakeup.signal())
        return future

    def result(self, future: Future[_Done]) -> _Done:
        """What the work made, waited for inside the ``waiting`` context; its error is raised."""
        with self._waiting():
            return future.result()

    def close(self) -> None:
        """Drop the work still queued; the piece under way finishes, unread."""
        self._executor.shutdown(wait=False, cancel_futures=True)
