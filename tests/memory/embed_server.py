"""A small HTTP server on 127.0.0.1 speaking the embedding wire formats, for the embedder tests.

``POST /api/embed`` answers like Ollama (``{"embeddings": [[...]]}``) and ``POST /v1/embeddings``
like an OpenAI-compatible server (``{"data": [{"embedding": [...], "index": i}]}``, in reverse
order, as servers may). Vectors are deterministic per text. A test can replace the answer with
``respond`` to send HTTP errors, broken bodies or slow replies; every request body is recorded.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from tests.fake_server import FakeServer, WireHandler

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


class _EmbedHandler(WireHandler):
    owner: ClassVar[EmbedServer]

    def do_POST(self) -> None:
        request = self.read_json()
        self.owner.requests.append((self.path, request))
        if self.path not in ("/api/embed", "/v1/embeddings"):
            answer = Answer(404, b"404 page not found")
        else:
            answer = self.owner.respond(self.path, request)
        time.sleep(answer.delay_seconds)
        self.send_body(answer.status, answer.body)


class EmbedServer(FakeServer):
    """Serves embeddings on 127.0.0.1 in a background thread until ``stop``."""

    handler: ClassVar[type[WireHandler]] = _EmbedHandler

    def __init__(self) -> None:
        self.respond: Responder = wire_answer
        self.requests: list[tuple[str, dict[str, Any]]] = []
