"""One call to a Wyoming service over TCP: events out, events back, within a deadline.

A plain blocking socket (the voice loop and its transcription worker are threads, not an event
loop), with a connect timeout and one deadline for the rest of the call that every read and
write is held to. Whatever goes wrong (refused, too slow, the service gone mid-call, an
``error`` event) raises ``WyomingError`` with the reason, for the caller to fall back on.
"""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator
from enum import StrEnum
from types import TracebackType
from typing import BinaryIO

from wyoming.error import Error
from wyoming.event import Event, Eventable, read_event, write_event
from wyoming.info import Describe, Info

from config import RemoteSpeechSettings
from support import connect_within


class Failure(StrEnum):
    """Why a call to a Wyoming service failed."""

    UNREACHABLE = "unreachable"
    TIMED_OUT = "timed out"
    CLOSED = "closed the connection"
    REFUSED = "answered with an error"
    BAD_ANSWER = "sent something Hearth cannot use"


class WyomingError(RuntimeError):
    """A call to a Wyoming service that did not succeed."""

    def __init__(self, uri: str, failure: Failure, detail: str = "") -> None:
        self.failure = failure
        message = f"the Wyoming service at {uri} {failure.value}"
        super().__init__(f"{message}: {detail}" if detail else message)


class WyomingCall:
    """A connection for one request and its answer (``with`` closes it)."""

    def __init__(self, settings: RemoteSpeechSettings) -> None:
        if settings.uri is None:
            raise ValueError("a Wyoming call needs a uri")
        self.uri = str(settings.uri)
        self._address = (settings.uri.host or "", settings.uri.port or 0)
        self._connect_timeout = settings.connect_timeout_seconds
        self._call_timeout = settings.call_timeout_seconds
        self._socket: socket.socket | None = None
        self._stream: BinaryIO | None = None
        self._deadline = 0.0

    def __enter__(self) -> WyomingCall:
        try:
            # The name's lookup is held to the connect timeout too (the household's DNS down).
            self._socket = connect_within(self._address, self._connect_timeout)
        except TimeoutError:
            raise self._error(Failure.TIMED_OUT, "connecting") from None
        except OSError as error:
            raise self._error(Failure.UNREACHABLE, error.strerror or str(error)) from None
        self._deadline = time.monotonic() + self._call_timeout
        self._stream = self._socket.makefile("rwb")
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        for closable in (self._stream, self._socket):
            if closable is not None:
                with contextlib.suppress(OSError):  # a connection the service already dropped
                    closable.close()

    def send(self, *messages: Eventable) -> None:
        """Write events, in order."""
        stream = self._held_to_deadline()
        try:
            for message in messages:
                write_event(message.event(), stream)
        except TimeoutError:
            raise self._error(Failure.TIMED_OUT, "sending") from None
        except OSError as error:
            raise self._error(Failure.CLOSED, error.strerror or str(error)) from None

    def receive(self) -> Event:
        """The next event from the service (an ``error`` event raises)."""
        stream = self._held_to_deadline()
        try:
            event = read_event(stream)
        except TimeoutError:
            raise self._error(Failure.TIMED_OUT, "waiting for the answer") from None
        except OSError as error:
            raise self._error(Failure.CLOSED, error.strerror or str(error)) from None
        if event is None:
            raise self._error(Failure.CLOSED, "before answering")
        if Error.is_type(event.type):
            raise self._error(Failure.REFUSED, Error.from_event(event).text)
        return event

    def describe(self) -> Info:
        """Ask the service what it offers (``describe`` -> ``info``)."""
        self.send(Describe())
        while True:
            event = self.receive()
            if Info.is_type(event.type):
                return Info.from_event(event)

    @contextlib.contextmanager
    def answers(self) -> Iterator[None]:
        """Inside: reading the service's events. A field missing or of the wrong type (a
        ``transcript`` whose text is null, an ``audio-start`` without a rate) is a bad answer,
        for the caller to fall back on, not a crash of the voice process."""
        try:
            yield
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise self._error(Failure.BAD_ANSWER, f"{type(error).__name__}: {error}") from None

    def bad_answer(self, detail: str) -> WyomingError:
        """The error for an answer that breaks the protocol, for the caller to raise."""
        return self._error(Failure.BAD_ANSWER, detail)

    def _held_to_deadline(self) -> BinaryIO:
        assert self._socket is not None and self._stream is not None, "not connected"
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise self._error(Failure.TIMED_OUT, f"after {self._call_timeout:g} s")
        self._socket.settimeout(left)
        return self._stream

    def _error(self, failure: Failure, detail: str) -> WyomingError:
        return WyomingError(self.uri, failure, detail)
