"""Reading a language model's streamed HTTP reply as lines, against deadlines that really hold.

httpx's read timeout counts between reads, so a server that drips a byte a second never trips it:
Hearth once sat "thinking" for 325 s. Here a pump thread reads the body and hands each chunk over a
queue; the reader waits on the queue no longer than the reply's deadline allows, so the deadline
holds whatever the server does. A pump left behind by a deadline stops at its next chunk, or at the
read timeout, and closes its connection.

The wire formats (Ollama's NDJSON, OpenAI's server-sent events) are parsed by the clients; this
module only moves bytes, splits lines and maps transport failures onto ModelError subclasses.
"""

from __future__ import annotations

import codecs
import queue
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field

import httpx

from assistant.model_errors import (
    ModelError,
    ModelUnreachable,
    ReplyTimeout,
    StreamCut,
)
from assistant.turn_gate import TurnWithdrawn

Clock = Callable[[], float]


@dataclass
class ReplyDeadline:
    """The two deadlines of one reply: its first sentence, and the whole of it.

    Pure: the clock is an argument. The caller says when the first sentence is complete (only it
    knows where sentences end); until then the earlier of the two deadlines holds.
    """

    first_sentence_seconds: float
    whole_reply_seconds: float
    clock: Clock = time.monotonic
    started: float = field(default=0.0)
    first_sentence_done: bool = False
    called_off: bool = False
    """The reply is no longer wanted: its turn was withdrawn (``assistant.turn_gate``)."""
    _wake: Callable[[], None] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.started = self.clock()

    def call_off(self) -> None:
        """The reply is no longer wanted: a reader waiting for it stops now (from any thread)."""
        self.called_off = True
        if self._wake is not None:
            self._wake()

    def wake_with(self, wake: Callable[[], None]) -> None:
        """How :meth:`call_off` wakes the reader waiting on this reply."""
        self._wake = wake

    def sentence_done(self) -> None:
        """A first sentence is complete: from now on only the whole reply's deadline holds."""
        self.first_sentence_done = True

    def seconds_left(self) -> float:
        """Time left before the deadline now in force (negative once it has passed)."""
        limit = self.whole_reply_seconds
        if not self.first_sentence_done:
            limit = min(limit, self.first_sentence_seconds)
        return self.started + limit - self.clock()

    def expired(self) -> ReplyTimeout:
        """The error for a deadline that passed, saying which one."""
        if self.first_sentence_done:
            return ReplyTimeout(
                f"the reply was not complete within {self.whole_reply_seconds:g} s",
                spoken="The language model was taking too long, so I stopped there.",
            )
        return ReplyTimeout(f"no sentence within {self.first_sentence_seconds:g} s")


_END = object()
_CALLED_OFF = object()


class _Pump:
    """Reads a response body on its own thread and hands over each chunk as it arrives."""

    def __init__(self, open_response: Callable[[], AbstractContextManager[httpx.Response]],
                 check: Callable[[httpx.Response], None]):  # fmt: skip
        self.chunks: queue.Queue[object] = queue.Queue()
        self._stop = threading.Event()
        self._open_response = open_response
        self._check = check
        threading.Thread(target=self._run, name="hearth-model-stream", daemon=True).start()

    def stop(self) -> None:
        """Stop reading at the next chunk; the connection is closed then."""
        self._stop.set()

    def _run(self) -> None:
        try:
            with self._open_response() as response:
                self._check(response)
                for chunk in response.iter_bytes():
                    if self._stop.is_set():
                        return
                    self.chunks.put(chunk)
            self.chunks.put(_END)
        except BaseException as error:  # handed to the reader, which raises it as its own
            self.chunks.put(error)


def stream_lines(
    open_response: Callable[[], AbstractContextManager[httpx.Response]],
    check: Callable[[httpx.Response], None],
    deadline: ReplyDeadline,
    errors: Callable[[], AbstractContextManager[None]],
) -> Iterator[str]:
    """The lines of a streamed response body (without their line ends), each as soon as it is
    complete; the last one may lack a line end.

    ``check`` looks at the status before the body is read (and raises a ModelError); ``errors``
    maps transport failures onto ModelError subclasses (see :func:`transport_errors`). Raises
    ReplyTimeout when ``deadline`` passes, and TurnWithdrawn as soon as it is called off.
    Stopping early (closing the iterator) stops the reading too.
    """
    pump = _Pump(open_response, check)
    deadline.wake_with(lambda: pump.chunks.put(_CALLED_OFF))
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    partial: list[str] = []
    try:
        with errors():
            while True:
                if deadline.called_off:
                    raise TurnWithdrawn
                left = deadline.seconds_left()
                if left <= 0:
                    raise deadline.expired()
                try:
                    item = pump.chunks.get(timeout=left)
                except queue.Empty:
                    raise deadline.expired() from None
                if item is _CALLED_OFF:
                    raise TurnWithdrawn
                if item is _END:
                    break
                if isinstance(item, BaseException):
                    raise item
                assert isinstance(item, bytes)
                *complete, rest = decoder.decode(item).split("\n")
                for line in complete:
                    partial.append(line)
                    yield "".join(partial).rstrip("\r")
                    partial = []
                partial.append(rest)
        tail = "".join(partial) + decoder.decode(b"", final=True)
        if tail.strip():
            yield tail.rstrip("\r")
    finally:
        pump.stop()


@contextmanager
def transport_errors(
    base_url: str, unreachable: type[ModelUnreachable] = ModelUnreachable
) -> Iterator[None]:
    """Map httpx's transport exceptions onto ModelError subclasses (``unreachable`` says which
    server was meant, for the spoken text)."""
    try:
        yield
    except ModelError:
        raise
    except (httpx.ConnectError, httpx.ConnectTimeout) as error:
        raise unreachable(f"cannot connect to {base_url}: {error}") from error
    except (httpx.ReadTimeout, httpx.WriteTimeout, httpx.PoolTimeout) as error:
        raise ReplyTimeout(f"no reply from {base_url} in time") from error
    except (httpx.RemoteProtocolError, httpx.ReadError) as error:
        raise StreamCut(f"connection to {base_url} broke: {error}") from error
    except httpx.HTTPError as error:
        raise ModelError(f"{base_url}: {error}") from error
