"""Small helpers for tests that start real servers on 127.0.0.1: free ports and waiting."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(what: str, check: Callable[[], T | None], timeout: float = 20.0) -> T:
    """Poll ``check`` until it returns something truthy; fail naming ``what`` after ``timeout``
    seconds (a bound against hanging, not a measure of speed)."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(0.05)


def port_open(port: int, host: str = "127.0.0.1") -> bool:
    """Whether something accepts connections on ``port``."""
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False
