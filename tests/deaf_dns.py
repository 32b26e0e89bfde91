"""A household DNS that does not answer: ``socket.getaddrinfo`` for a name hangs until the test
ends (an address written as one is still read), and the test can ask whether a lookup is still
hanging, to show that a request was given up before the resolver gave up."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest

_ADDRESSES = ("127.0.0.1", "::1")


class DeafResolver:
    """Stands in for ``socket.getaddrinfo``; names hang until :meth:`release`."""

    def __init__(self) -> None:
        self._real = socket.getaddrinfo
        self._released = threading.Event()
        self._hanging = threading.Semaphore(0)

    def __call__(self, host, *args, **kwargs):
        if host in _ADDRESSES:
            return self._real(host, *args, **kwargs)
        self._hanging.release()
        try:
            self._released.wait(60)
        finally:
            self._hanging.acquire()
        raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")

    def still_hanging(self) -> bool:
        """Whether a lookup is waiting on the resolver right now."""
        if not self._hanging.acquire(blocking=False):
            return False
        self._hanging.release()
        return True

    def release(self) -> None:
        """Let every hanging lookup fail, as the resolver finally does."""
        self._released.set()


@pytest.fixture
def deaf_dns(monkeypatch: pytest.MonkeyPatch) -> Iterator[DeafResolver]:
    """Every name lookup hangs for the length of the test."""
    resolver = DeafResolver()
    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    yield resolver
    resolver.release()
