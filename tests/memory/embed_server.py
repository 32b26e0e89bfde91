"""A small HTTP server on 127.0.0.1 speaking the embedding wire formats, for the embedder tests.

``POST /api/embed`` answers like Ollama (``{"embeddings": [[...]]}``) and ``POST /v1/embeddings``
like an OpenAI-compatible server (``{"data": [{"embedding": [...], "index": i}]}``, in reverse
order, as servers may). Vectors are deterministic per text. A test can replace the answer with
``respond`` to send HTTP errors, broken bodies or slow replies; every request body is recorded.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

DIMENSION = 8


@dataclass(frozen=True)
class Answer:
    """One HTTP answer: status, raw body, and a delay before sending it."""

    status: int
    body: bytes
    delay_seconds: float = 0.0


def vector_for(text: str, dimension: int = DIMENSION) -> list[float]:
    """A fixed, non-normalised vector for a text (so tests can check normalisation)."""
    digest = hashlib.sha256(text.encode()).digest()
    return [float(byte) - 100.0 for byte in digest[:dimension]]


def wire_answer(path: str, request: dict[str, Any]) -> Answer:
    """The correct answer for a request in the wire format of its path."""
    texts = request["input"] if isinstance(request["input"], list) else [request["input"]]
    vectors = [vector_for(text) for text in texts]
    if path == "/api/embed":
        payload: dict[str, Any] = {"model": request["model"], "embeddings": vectors}
    else:
        items = [
            {"object": "embedding", "embedding": vector, "index": index}
            for index, vector in enumerate(vectors)
        ]
        payload = {"object": "list", "data": items[::-1], "model": request["model"]}
    return Answer(200, json.dumps(payload).encode())


Responder = Callable[[str, dict[str, Any]], Answer]


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that gave up (a timeout test) is not an error worth printing."""


class EmbedServer:
    """Serves embeddings on 127.0.0.1 in a background thread until ``stop``."""

    def __init__(self) -> None:
        self.respond: Responder = wire_answer
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self._server: _QuietServer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None, "start the server first"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> EmbedServer:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                """Keep test output clean."""

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                request = json.loads(self.rfile.read(length) or b"{}")
                owner.requests.append((self.path, request))
                if self.path not in ("/api/embed", "/v1/embeddings"):
                    answer = Answer(404, b"404 page not found")
                else:
                    answer = owner.respond(self.path, request)
                time.sleep(answer.delay_seconds)
                try:
                    self.send_response(answer.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(answer.body)))
                    self.end_headers()
                    self.wfile.write(answer.body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client timed out and left

        self._server = _QuietServer(("127.0.0.1", 0), Handler)
        threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
