"""A self-pipe: any thread signals it, and a loop waiting on file descriptors wakes at once.

The voice loop waits on the supervisor's pipe, the microphone and its own workers together (see
:func:`multiprocessing.connection.wait`); a thread without a file descriptor of its own (PortAudio's
audio callback, the speech worker, the speaker's player) signals one of these instead. Signals
coalesce: ten signals before a wait wake it once, and :meth:`Wakeup.clear` forgets them all.
"""

from __future__ import annotations

import contextlib
import os


class Wakeup:
    """A readable file descriptor that any thread can make ready."""

    def __init__(self) -> None:
        self._read, self._write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)

    def fileno(self) -> int:
        """Readable once signalled, until cleared."""
        return self._read

    def signal(self) -> None:
        """Wake whoever waits on :meth:`fileno`. Any thread; never blocks."""
        # A full pipe already holds a wake-up, and a closed one has nobody left to wake.
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._write, b"\0")

    def clear(self) -> None:
        """Forget the signals so far: the next wait sleeps until a new one."""
        with contextlib.suppress(BlockingIOError, OSError):
            while os.read(self._read, 4096):
                pass

    def close(self) -> None:
        """Release both ends. Closing twice is harmless."""
        for fd in (self._read, self._write):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._read = self._write = -1
