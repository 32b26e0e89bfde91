"""The base of the tests' wire servers: HTTP on 127.0.0.1 in a background thread.

A server class names its request handler (a ``WireHandler`` with ``do_GET``/``do_POST``); the
base starts it on a free port, gives its ``url``, records nothing on its own and stops it again.
Clients that hang up mid-answer (a timeout test, a cut stream) are expected, not news.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar, Self


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that gave up is not an error worth printing."""


class WireHandler(BaseHTTPRequestHandler):
    """A request handler that reads and writes bodies; ``owner`` is the server object."""

    protocol_version = "HTTP/1.1"
    # As Ollama (Go sets TCP_NODELAY on every connection): otherwise each small write on a
    # kept-alive connection waits about 40 ms for the client's delayed ACK.
    disable_nagle_algorithm = True
    owner: ClassVar[Any]

    def log_message(self, *args: Any) -> None:
        """Keep test output clean."""

    def read_json(self) -> dict[str, Any]:
        """The request body as JSON (an empty body is an empty object)."""
        length = int(self.headers.get("Content-Length", 0))
        return json.loads(self.rfile.read(length) or b"{}")

    def send_body(self, status: int, body: bytes, content_type: str = "application/json") -> None:
        """A whole answer; a client that left meanwhile is ignored."""
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def send_json(self, status: int, payload: dict[str, Any]) -> None:
        """A whole JSON answer."""
        self.send_body(status, json.dumps(payload).encode(), "application/json; charset=utf-8")

    def begin_chunked(self, content_type: str, **headers: str) -> None:
        """Start a streamed answer (chunked transfer encoding)."""
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

    def write_chunk(self, data: bytes, drip_seconds: float = 0.0) -> None:
        """One piece of a streamed answer; with ``drip_seconds``, a byte at a time that far
        apart, so every read gets something and a timeout between reads never fires."""
        pieces = [bytes([byte]) for byte in data] if drip_seconds else [data]
        for piece in pieces:
            if drip_seconds:
                time.sleep(drip_seconds)
            self.wfile.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
            self.wfile.flush()

    def end_chunked(self) -> None:
        """The streamed answer is complete."""
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def cut(self) -> None:
        """Close the connection mid-answer: a broken stream, not a clean end."""
        self.wfile.flush()
        self.connection.shutdown(2)


class FakeServer:
    """Start with ``start()`` (or ``with``); ``url`` is its address; ``stop()`` ends it."""

    handler: ClassVar[type[WireHandler]]

    _server: _QuietServer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None, "start the server first"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> Self:
        handler = type(self.handler.__name__, (self.handler,), {"owner": self})
        self._server = _QuietServer(("127.0.0.1", 0), handler)
        threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
