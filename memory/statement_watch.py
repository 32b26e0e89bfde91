"""A deadline the client keeps on a statement, for a database server that has stopped.

The server enforces its own statement timeout, and TCP keepalives catch a vanished host; neither
fires when the server process itself is stopped (SIGSTOP, a disk that hangs every I/O) while its
host's kernel keeps answering for it. Then only the client can give up: one watcher thread per
connection calls ``on_overdue`` once a watched block outlives its deadline. The thread ends after
a minute with nothing to watch, so an idle Hearth keeps none.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

IDLE_SECONDS = 60.0
"""How long the watcher thread waits for a block to watch before it ends."""


class StatementWatch:
    """Calls ``on_overdue`` (on its own thread) when a ``watching`` block runs past its time."""

    def __init__(self, on_overdue: Callable[[], None]):
        self._on_overdue = on_overdue
        self._condition = threading.Condition()
        self._due: float | None = None
        self._overdue = False
        self._thread: threading.Thread | None = None

    @contextmanager
    def watching(self, seconds: float) -> Iterator[None]:
        """Watch the block for ``seconds``; blocks do not nest."""
        with self._condition:
            self._due = time.monotonic() + seconds
            self._overdue = False
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._watch, name="statement-watch", daemon=True
                )
                self._thread.start()
            self._condition.notify()
        try:
            yield
        finally:
            with self._condition:
                self._due = None
                self._condition.notify()

    @property
    def overdue(self) -> bool:
        """Whether the last watched block ran past its time (and ``on_overdue`` was called)."""
        with self._condition:
            return self._overdue

    def forget(self) -> None:
        """Clear ``overdue``: what it said was of a connection now closed."""
        with self._condition:
            self._overdue = False

    def _watch(self) -> None:
        with self._condition:
            while True:
                if self._due is None:
                    if not self._condition.wait(IDLE_SECONDS) and self._due is None:
                        self._thread = None
                        return
                    continue
                remaining = self._due - time.monotonic()
                if remaining > 0:
                    self._condition.wait(remaining)
                    continue
                self._due = None
                self._overdue = True
                self._on_overdue()
