"""Piper off the voice loop: a thread that carries out :class:`audio.playback.Synthesize` requests.

The loop hands over an immutable request and goes on hearing the room; the worker makes the
sentence piece by piece and posts each piece, then the sentence's end, to a queue the loop drains,
signalling a :class:`~audio.wakeup.Wakeup` so a loop waiting for work sees it at once. Requests are
carried out one at a time, in order. A request cancelled while it runs stops after its current
piece, so a barge-in does not leave Piper making a sentence nobody will hear.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass

from audio.playback import PieceMade, SentenceMade, Synthesize
from audio.tts import TextToSpeech
from audio.wakeup import Wakeup
from support import Failpoint, Failpoints

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Made:
    """One answer from the worker: a piece (with the wall seconds it took) or a sentence's end."""

    result: PieceMade | SentenceMade
    voice: str
    seconds: float = 0.0
    """Wall time the piece took to make (0 for a sentence's end)."""


@dataclass(frozen=True)
class Making:
    """The piece the worker is making now: whose it is, and since when (monotonic)."""

    token: int
    since: float


class WorkerCrashed(RuntimeError):
    """The worker met an error it cannot speak around; the loop re-raises it, ending the process."""


class SpeechWorker:
    """One thread making speech for the voice loop."""

    def __init__(self, tts: TextToSpeech, failpoints: Failpoints, wakeup: Wakeup):
        self._tts = tts
        self._failpoints = failpoints
        self._wakeup = wakeup
        self._requests: queue.SimpleQueue[Synthesize | None] = queue.SimpleQueue()
        self._results: queue.SimpleQueue[Made | BaseException] = queue.SimpleQueue()
        self._cancelled: set[int] = set()
        self._making: Making | None = None
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="hearth-tts", daemon=True)
        self._thread.start()

    def submit(self, request: Synthesize) -> None:
        """Make ``request``'s speech after anything submitted before it."""
        self._requests.put(request)

    def cancel(self, token: int) -> None:
        """Stop making ``token`` after its current piece (its end is still posted)."""
        with self._lock:
            self._cancelled.add(token)

    def making(self) -> Making | None:
        """The piece being made right now, if any: a synthesis's deadline runs only while Piper
        works on it, not while the request waits behind the sentence before it."""
        with self._lock:
            return self._making

    def take(self, timeout: float | None = 0.0) -> list[Made]:
        """What was made since the last call, waiting up to ``timeout`` seconds for the first
        (None: until something comes). Raises :class:`WorkerCrashed` if the worker failed."""
        results: list[Made] = []
        try:
            if timeout == 0:
                first = self._results.get_nowait()
            else:
                first = self._results.get(timeout=timeout)
        except queue.Empty:
            return results
        pending: list[Made | BaseException] = [first]
        while True:
            try:
                pending.append(self._results.get_nowait())
            except queue.Empty:
                break
        for item in pending:
            if isinstance(item, BaseException):
                raise WorkerCrashed(f"the speech worker failed: {item!r}") from item
            results.append(item)
        return results

    def close(self) -> None:
        """Let the thread end after the request it is on (it is a daemon: a hung one is left)."""
        self._requests.put(None)

    def _run(self) -> None:
        while (request := self._requests.get()) is not None:
            try:
                self._make(request)
            except BaseException as error:  # handed to the loop, which ends the process with it
                self._post(error)
                return

    def _make(self, request: Synthesize) -> None:
        voice = request.params.voice
        failure = ""
        try:
            chunks = self._tts.synthesize(
                request.job.text, request.params, starts_reply=request.starts_reply
            )
            while not self._is_cancelled(request.token):
                began = self._begin_piece(request.token)
                self._failpoints.hang_if(Failpoint.SYNTHESIS_HANG)
                chunk = next(chunks, None)
                self._end_piece()
                if chunk is None:
                    break
                seconds = time.monotonic() - began
                self._post(Made(PieceMade(request.token, chunk), voice, seconds))
        except (OSError, ValueError) as error:  # a missing voice, a bad speaker number
            log.error("cannot say %r: %s", request.job.text, error)
            failure = str(error) or type(error).__name__
        with self._lock:
            self._making = None
            self._cancelled.discard(request.token)
        self._post(Made(SentenceMade(request.token, failure), voice))

    def _begin_piece(self, token: int) -> float:
        began = time.monotonic()
        with self._lock:
            self._making = Making(token, began)
        return began

    def _end_piece(self) -> None:
        with self._lock:
            self._making = None

    def _is_cancelled(self, token: int) -> bool:
        with self._lock:
            return token in self._cancelled

    def _post(self, item: Made | BaseException) -> None:
        self._results.put(item)
        self._wakeup.signal()
