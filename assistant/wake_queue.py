"""A queue that one thread fills and a loop drains while it sleeps on several things at once.

The loop waits with ``multiprocessing.connection.wait`` (or ``select``) on the queue's ``fileno``
beside a pipe: a byte is written for each item put, so the queue is readable while it may hold
items, and the loop wakes the moment one arrives instead of at its next timeout.
"""

from __future__ import annotations

import contextlib
import queue
import socket
from collections.abc import Iterator
from typing import Generic, TypeVar

Item = TypeVar("Item")


class WakeQueue(Generic[Item]):
    """Items in order, and a file descriptor readable once there are some."""

    def __init__(self) -> None:
        self._items: queue.Queue[Item] = queue.Queue()
        self._reader, self._writer = socket.socketpair()
        self._reader.setblocking(False)
        self._writer.setblocking(False)

    def put(self, item: Item) -> None:
        """Add an item (from any thread) and wake whoever waits."""
        self._items.put(item)
        # A full socket buffer already wakes the reader; a closed one means nobody is waiting.
        with contextlib.suppress(BlockingIOError, OSError):
            self._writer.send(b"\0")

    def fileno(self) -> int:
        """Readable while items may wait (and once after they were taken: harmless)."""
        return self._reader.fileno()

    def take(self) -> Iterator[Item]:
        """The items there are, without waiting."""
        # Wake-ups first, then the items: one put after this is announced by a byte of its own.
        with contextlib.suppress(BlockingIOError, OSError):
            while self._reader.recv(4096):
                pass
        while True:
            try:
                yield self._items.get_nowait()
            except queue.Empty:
                return

    def close(self) -> None:
        """Close the descriptors; later puts still queue, and wake nobody."""
        self._reader.close()
        self._writer.close()
