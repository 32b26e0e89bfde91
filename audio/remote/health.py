"""Whether a remote speech service is worth asking, and the notice Hearth gives when it is not.

A pure state machine fed results and a clock: after a failed call the service is left alone for
``retry_after_seconds`` (each call in the meantime goes straight to the local model instead of
waiting out another timeout), then tried again. The first failure of an outage leaves one
notice for the caller to say; further failures of the same outage leave none.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from enum import Enum

log = logging.getLogger(__name__)


class Reach(Enum):
    """The service as the last call found it."""

    UP = "up"
    DOWN = "down"


class RemoteHealth:
    """One remote service's health; safe to share between the voice loop and its worker."""

    def __init__(
        self,
        service: str,
        notice: str,
        retry_after_seconds: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``service`` names it in the log; ``notice`` is what Hearth says once per outage."""
        self._service = service
        self._notice = notice
        self._retry_after = retry_after_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._reach = Reach.UP
        self._retry_at = 0.0
        self._pending_notice: str | None = None
        self.last_failure = ""
        """Why the last failed call failed."""

    @property
    def reach(self) -> Reach:
        return self._reach

    def should_try(self) -> bool:
        """Whether to ask the service now (it is up, or its wait after a failure is over)."""
        with self._lock:
            return self._reach is Reach.UP or self._clock() >= self._retry_at

    def failed(self, reason: str) -> None:
        """A call failed: use the local model until the retry time; a new outage leaves a
        notice and a log line."""
        with self._lock:
            self._retry_at = self._clock() + self._retry_after
            self.last_failure = reason
            if self._reach is Reach.UP:
                self._reach = Reach.DOWN
                self._pending_notice = self._notice
                log.warning("%s failed (%s): the local model takes over, the service is tried "
                            "again in %g s", self._service, reason, self._retry_after)  # fmt: skip

    def succeeded(self) -> None:
        """A call succeeded: the service is up."""
        with self._lock:
            if self._reach is Reach.DOWN:
                log.info("%s answers again", self._service)
            self._reach = Reach.UP

    def take_notice(self) -> str | None:
        """The sentence to say about a new outage, once; None when there is nothing to say."""
        with self._lock:
            notice, self._pending_notice = self._pending_notice, None
            return notice
