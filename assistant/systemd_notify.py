"""The sd_notify protocol: READY, STATUS, WATCHDOG and STOPPING datagrams to systemd.

Without ``NOTIFY_SOCKET`` (not under systemd) every call is a no-op, so the same code runs from a
terminal. Watchdog pings come only from the supervisor's health check, never from a timer of their
own, so systemd sees a hung loop for what it is.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger(__name__)


class SystemdNotifier:
    """Sends state changes to systemd when run as a ``Type=notify`` service."""

    def __init__(self, environ: Mapping[str, str] | None = None):
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        # An abstract socket is written with a leading '@' and starts with a NUL byte on the wire.
        self._address = "\0" + address[1:] if address.startswith("@") else address
        usec = env.get("WATCHDOG_USEC", "")
        self.watchdog_seconds = int(usec) / 1_000_000 if usec.isdigit() else None
        self._socket: socket.socket | None = None
        if self._address:
            self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)

    @property
    def enabled(self) -> bool:
        """True when running under systemd with a notify socket."""
        return self._socket is not None

    def ready(self) -> None:
        """Start-up is complete: models loaded, listening."""
        self._send("READY=1")

    def status(self, text: str) -> None:
        """A line a person reads in ``systemctl status``."""
        self._send(f"STATUS={text}")

    def watchdog(self) -> None:
        """The voice loop is healthy (call only after checking that it is)."""
        self._send("WATCHDOG=1")

    def stopping(self) -> None:
        """Shutdown has begun."""
        self._send("STOPPING=1")

    def close(self) -> None:
        """Close the socket."""
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def _send(self, message: str) -> None:
        if self._socket is None:
            return
        try:
            self._socket.sendto(message.encode(), self._address)
        except OSError as error:
            # systemd restarting or the socket gone: the service must keep working regardless.
            log.debug("sd_notify %r failed: %s", message, error)
