"""Embedding clients against a real HTTP server on 127.0.0.1 speaking both wire formats."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import numpy as np
import pytest

from config import EmbedderSettings
from memory.embedder import EmbedderError, OllamaEmbedder, OpenAIEmbedder, make_embedder
from tests.memory.embed_server import DIMENSION, Answer, EmbedServer, vector_for, wire_answer

TEXTS = ["I live in Lisbon", "I drive a Volvo", "I like jazz"]


@pytest.fixture(scope="module")
def running_server() -> Iterator[EmbedServer]:
    running = EmbedServer().start()
    yield running
    running.stop()


@pytest.fixture
def server(running_server: EmbedServer) -> EmbedServer:
    """The module's server, answering correctly and with no requests recorded."""
    running_server.respond = wire_answer
    running_server.requests.clear()
    return running_server


def _unit(vector: list[float]) -> np.ndarray:
    array = np.asarray(vector, dtype=np.float32)
    return array / np.linalg.norm(array)


@pytest.mark.parametrize("kind", [OllamaEmbedder, OpenAIEmbedder])
def test_embeds_in_input_order_as_unit_float32_rows(
    server: EmbedServer, kind: type[OllamaEmbedder]
) -> None:
    embedder = kind(server.url, "all-minilm")
    matrix = embedder.embed(TEXTS)
    assert matrix.dtype == np.float32
    assert matrix.shape == (len(TEXTS), DIMENSION)
    np.testing.assert_allclose(np.linalg.norm(matrix, axis=1), 1.0, rtol=1e-6)
    for row, text in zip(matrix, TEXTS, strict=True):
        np.testing.assert_allclose(row, _unit(vector_for(text)), rtol=1e-6)


def test_ollama_request_body(server: EmbedServer) -> None:
    OllamaEmbedder(server.url + "/", "nomic-embed-text").embed(TEXTS)
    assert server.requests == [("/api/embed", {"model": "nomic-embed-text", "input": TEXTS})]


@pytest.mark.parametrize("suffix", ["", "/v1", "/v1/"])
def test_openai_base_url_with_or_without_v1(server: EmbedServer, suffix: str) -> None:
    OpenAIEmbedder(server.url + suffix, "text-embedding-nomic").embed(["one"])
    assert server.requests == [
        ("/v1/embeddings", {"model": "text-embedding-nomic", "input": ["one"]})
    ]


def test_nothing_to_embed_sends_nothing(server: EmbedServer) -> None:
    embedder = OllamaEmbedder(server.url, "all-minilm")
    assert embedder.embed([]).shape[0] == 0
    assert server.requests == []


def test_factory_follows_the_settings(server: EmbedServer) -> None:
    ollama = make_embedder(EmbedderSettings(url=server.url, model="all-minilm"))
    openai = make_embedder(EmbedderSettings(url=server.url, model="m", api="openai"))
    assert isinstance(ollama, OllamaEmbedder) and isinstance(openai, OpenAIEmbedder)
    ollama.embed(["a"])
    openai.embed(["b"])
    assert [path for path, _ in server.requests] == ["/api/embed", "/v1/embeddings"]


def test_connection_refused_is_an_embedder_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(EmbedderError, match="cannot reach"):
        OllamaEmbedder(f"http://127.0.0.1:{port}", "all-minilm").embed(["x"])


def test_a_name_the_dns_never_answers_is_an_embedder_error_in_time(deaf_dns) -> None:
    embedder = OllamaEmbedder("http://bigbox.lan:11434", "all-minilm", timeout_seconds=0.2)
    with pytest.raises(EmbedderError, match=r"looking up bigbox\.lan"):
        embedder.embed(["x"])
    assert deaf_dns.still_hanging(), "the embedder waited for the resolver"


def test_timeout_is_an_embedder_error(server: EmbedServer) -> None:
    server.respond = lambda path, request: Answer(200, b"{}", delay_seconds=1.0)
    embedder = OllamaEmbedder(server.url, "all-minilm", timeout_seconds=0.1)
    with pytest.raises(EmbedderError, match=r"did not answer within 0\.1 s"):
        embedder.embed(["x"])


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (Answer(404, b'{"error": "model \\"all-minilm\\" not found"}'), "HTTP 404: model"),
        (Answer(500, b"internal failure"), "HTTP 500: internal failure"),
        (Answer(200, b"not json"), "not JSON"),
        (Answer(200, b'{"embedding": [1, 2]}'), "no 'embeddings' list"),
        (Answer(200, b'["a"]'), "no 'embeddings' list"),
        (Answer(200, b'{"embeddings": [[1, 0]]}'), "returned 1 vectors for 2 texts"),
        (Answer(200, b'{"embeddings": [[1, 0], [1, 0, 0]]}'), "uneven or zero length"),
        (Answer(200, b'{"embeddings": [[], []]}'), "uneven or zero length"),
        (Answer(200, b'{"embeddings": [["a", "b"], [1, 2]]}'), "not numbers"),
        (Answer(200, b'{"embeddings": [[0, 0], [1, 2]]}'), "zero or non-finite"),
        (Answer(200, b'{"embeddings": [[NaN, 1], [1, 2]]}'), "zero or non-finite"),
    ],
)
def test_ollama_failures_are_embedder_errors(
    server: EmbedServer, answer: Answer, message: str
) -> None:
    server.respond = lambda path, request: answer
    with pytest.raises(EmbedderError, match=message):
        OllamaEmbedder(server.url, "all-minilm").embed(["first", "second"])


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"error": {"message": "no such model", "type": "invalid_request_error"}}, "no such"),
        ({"data": "nope"}, "no 'data' list"),
        ({"data": [{"embedding": [1, 2]}]}, "without 'index' and 'embedding'"),
        ({"data": [{"embedding": [1, 2], "index": 0}, {"embedding": [1, 2], "index": 0}]}, "0, 0"),
    ],
)
def test_openai_failures_are_embedder_errors(
    server: EmbedServer, body: dict[str, object], message: str
) -> None:
    status = 400 if "error" in body else 200
    server.respond = lambda path, request: Answer(status, json.dumps(body).encode())
    with pytest.raises(EmbedderError, match=message):
        OpenAIEmbedder(server.url, "m").embed(["first", "second"])


def test_a_changed_dimension_is_an_error(server: EmbedServer) -> None:
    """A different model behind the same name would make every stored cosine meaningless."""
    embedder = OllamaEmbedder(server.url, "all-minilm")
    embedder.embed(["first"])
    server.respond = lambda path, request: Answer(200, b'{"embeddings": [[1, 2, 3]]}')
    with pytest.raises(EmbedderError, match=f"changed dimension from {DIMENSION} to 3"):
        embedder.embed(["second"])


def test_recovers_after_a_failure(server: EmbedServer) -> None:
    embedder = OllamaEmbedder(server.url, "all-minilm")
    server.respond = lambda path, request: Answer(503, b'{"error": "loading"}')
    with pytest.raises(EmbedderError):
        embedder.embed(["x"])
    server.respond = wire_answer
    assert embedder.embed(["x"]).shape == (1, DIMENSION)


def test_a_model_name_is_required() -> None:
    with pytest.raises(ValueError, match="model name"):
        OllamaEmbedder("http://127.0.0.1:1", " ")
