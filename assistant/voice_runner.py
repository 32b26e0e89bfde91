"""One voice process: started with the spawn method, spoken to over its pipe, and stopped for
real (SIGTERM, then SIGKILL) when it must go.

Its reports are read on a thread of their own: a process that hangs (or is frozen) half-way
through sending a large one (a sentence's samples) would otherwise leave the supervisor's loop
blocked in the middle of reading it, and the watchdog with it. The reader ends when the process
does (its end of the pipe closes).
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import signal
import threading
from collections.abc import Iterator
from multiprocessing.connection import Connection

from assistant.wake_queue import WakeQueue
from audio import Command, Report, VoiceIO, run_voice_process
from config import Settings

KILL_GRACE_SECONDS = 0.25
"""After SIGTERM, before SIGKILL. The voice process keeps SIGTERM's default (die at once), so only
a stopped or wedged process outlives this, and waiting longer would only delay its restart."""
READER_STOP_SECONDS = 1.0
"""After the process is gone: time for the reader to take what was left in the pipe."""


class VoiceRunner:
    """A running voice process and its end of the pipe."""

    def __init__(self, settings: Settings, io: VoiceIO, generation: int):
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        self._process = context.Process(
            target=run_voice_process,
            args=(child, settings, io, generation, logging.getLogger().level),
            name=f"hearth-voice-{generation}",
            daemon=True,
        )
        self._process.start()
        child.close()
        self._connection: Connection | None = parent
        self._reports = ReportReader(parent, f"hearth-voice-reader-{generation}")

    @property
    def alive(self) -> bool:
        """True while the process runs."""
        return self._process.is_alive()

    def fileno(self) -> int:
        """Readable while reports wait (``multiprocessing.connection.wait`` takes it)."""
        return self._reports.fileno()

    def take(self) -> Iterator[Report]:
        """The reports that arrived, in order, without waiting (taken one by one: those left when
        the process is stopped meanwhile come with ``stop``)."""
        return self._reports.take()

    def send(self, command: Command) -> None:
        """Send a command; a dead process cannot take it (what was unsaid is sent again)."""
        if self._connection is None:
            return
        with contextlib.suppress(BrokenPipeError, OSError):
            self._connection.send(command)

    def why_it_left(self) -> str:
        """How a process that is gone ended, in words."""
        code = self._process.exitcode
        if code is not None and code < 0:
            return f"the voice process was killed by {signal.Signals(-code).name}"
        return f"the voice process exited (code {code})"

    def join(self, timeout: float) -> None:
        """Wait up to ``timeout`` for it to leave on its own."""
        self._process.join(timeout)

    def stop(self) -> list[Report]:
        """Kill for real: terminate, then kill if it does not go; close the pipe. What it
        reported before it died (heard, said, played) is returned: it still counts."""
        if self._process.is_alive():
            self._process.terminate()
            self._process.join(KILL_GRACE_SECONDS)
            if self._process.is_alive():
                self._process.kill()
                self._process.join(1.0)
        reports = self.leftovers()
        if self._connection is not None:
            self._connection.close()
            self._connection = None
            self._reports.close()
        return reports

    def leftovers(self) -> list[Report]:
        """Every report still to come from a process that has stopped."""
        self._reports.wait_closed(READER_STOP_SECONDS)
        return list(self.take())


class ReportReader:
    """Reads whole reports off a pipe on a thread of its own; readable (``fileno``) while some
    wait to be taken. A report half-sent by a process that hung is never half-read by the loop:
    the loop only ever takes whole ones."""

    def __init__(self, connection: Connection, name: str):
        self._queue: WakeQueue[Report] = WakeQueue()
        self._thread = threading.Thread(target=self._read, args=(connection,), name=name,
                                        daemon=True)  # fmt: skip
        self._thread.start()

    def fileno(self) -> int:
        """Readable while reports may wait."""
        return self._queue.fileno()

    def take(self) -> Iterator[Report]:
        """The whole reports that arrived, in order, without waiting."""
        return self._queue.take()

    def wait_closed(self, timeout: float) -> bool:
        """Wait until the other end closed (every report before it is then queued)."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def close(self) -> None:
        """Stop waking anyone (the thread ends with the pipe)."""
        self._queue.close()

    def _read(self, connection: Connection) -> None:
        with contextlib.suppress(EOFError, OSError):
            while True:
                self._queue.put(connection.recv())
