"""Embedding clients: Ollama's /api/embed and OpenAI-compatible /v1/embeddings, over httpx.

An embedder only adds evidence to the lexical comparison, so every way it can fail (a refused
connection, a timeout, an HTTP error, a reply of the wrong shape) raises one EmbedderError, which
the caller turns into "compare by words only". Vectors come back as float32 rows, L2-normalised,
so a dot product is a cosine.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

import httpx
import numpy as np

from support.http_lookup import LookupWithin

if TYPE_CHECKING:
    from config import EmbedderSettings

DEFAULT_TIMEOUT_SECONDS = 5.0


class EmbedderError(RuntimeError):
    """The embedder gave no usable vectors; the message says why."""


class Embedder(Protocol):
    """Turns texts into unit vectors, one row per text, from one named model."""

    model: str

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Float32 matrix of shape (len(texts), dimension) with L2-normalised rows.

        Raises EmbedderError on any failure.
        """
        ...


class _HttpEmbedder(ABC):
    """What both wire formats share: one pooled client, error mapping and vector checks."""

    path = ""

    def __init__(
        self, url: str, model: str, timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS
    ) -> None:
        if not model.strip():
            raise ValueError("an embedder needs a model name")
        self.url = url.rstrip("/")
        self.model = model
        self.timeout_seconds = timeout_seconds
        self.dimension: int | None = None
        """Set by the first good reply; a later reply of another size is an error."""
        # The name's lookup counts within the timeout (a household DNS that does not answer).
        self._client = httpx.Client(
            timeout=httpx.Timeout(timeout_seconds),
            transport=LookupWithin(httpx.HTTPTransport(), timeout_seconds),
        )

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed the texts; raises EmbedderError on any failure."""
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dimension or 0), dtype=np.float32)
        reply = self._post({"model": self.model, "input": texts})
        return self._matrix(self._rows(reply), len(texts))

    def close(self) -> None:
        """Release the pooled connections."""
        self._client.close()

    def _endpoint(self) -> str:
        return f"{self.url}{self.path}"

    @abstractmethod
    def _rows(self, reply: Any) -> list[Any]:
        """The vectors in a decoded reply, in input order; EmbedderError if it has none."""

    def _post(self, payload: dict[str, Any]) -> Any:
        endpoint = self._endpoint()
        try:
            response = self._client.post(endpoint, json=payload)
        except httpx.TimeoutException as exc:
            raise EmbedderError(
                f"embedder at {endpoint} did not answer within {self.timeout_seconds:g} s"
            ) from exc
        except httpx.HTTPError as exc:
            raise EmbedderError(f"cannot reach the embedder at {endpoint}: {exc}") from exc
        if response.status_code != httpx.codes.OK:
            raise EmbedderError(
                f"embedder at {endpoint} answered HTTP {response.status_code}: "
                f"{_error_text(response)}"
            )
        try:
            return response.json()
        except ValueError as exc:
            raise EmbedderError(f"embedder at {endpoint} sent a reply that is not JSON") from exc

    def _matrix(self, rows: list[Any], expected: int) -> np.ndarray:
        endpoint = self._endpoint()
        if len(rows) != expected:
            raise EmbedderError(
                f"embedder at {endpoint} returned {len(rows)} vectors for {expected} texts"
            )
        lengths = {len(row) if isinstance(row, list) else -1 for row in rows}
        if len(lengths) != 1 or lengths.pop() <= 0:
            raise EmbedderError(f"embedder at {endpoint} sent vectors of uneven or zero length")
        try:
            matrix = np.asarray(rows, dtype=np.float32)
        except (TypeError, ValueError) as exc:
            raise EmbedderError(
                f"embedder at {endpoint} sent vectors that are not numbers"
            ) from exc
        if self.dimension is not None and matrix.shape[1] != self.dimension:
            raise EmbedderError(
                f"embedder at {endpoint} changed dimension from {self.dimension} to "
                f"{matrix.shape[1]} (was model {self.model!r} replaced?)"
            )
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        if not np.all(np.isfinite(matrix)) or np.any(norms == 0):
            raise EmbedderError(f"embedder at {endpoint} sent a zero or non-finite vector")
        self.dimension = matrix.shape[1]
        return matrix / norms


class OllamaEmbedder(_HttpEmbedder):
    """Ollama's ``POST /api/embed`` with ``{"model", "input": [...]}``.

    ``url`` is the server's base address, e.g. http://127.0.0.1:11434.
    """

    path = "/api/embed"

    def _rows(self, reply: Any) -> list[Any]:
        rows = reply.get("embeddings") if isinstance(reply, dict) else None
        if not isinstance(rows, list):
            raise EmbedderError(f"embedder at {self._endpoint()} sent no 'embeddings' list")
        return rows


class OpenAIEmbedder(_HttpEmbedder):
    """An OpenAI-compatible ``POST /v1/embeddings`` (LM Studio, llama.cpp server, vLLM...).

    ``url`` is the server's base address, with or without the trailing ``/v1``.
    """

    path = "/v1/embeddings"

    def _endpoint(self) -> str:
        base = self.url.removesuffix("/v1")
        return f"{base}{self.path}"

    def _rows(self, reply: Any) -> list[Any]:
        data = reply.get("data") if isinstance(reply, dict) else None
        if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
            raise EmbedderError(f"embedder at {self._endpoint()} sent no 'data' list")
        # The spec gives each vector its input's index; servers may answer out of order.
        try:
            ordered = sorted(data, key=lambda item: int(item["index"]))
            indexes = [int(item["index"]) for item in ordered]
            rows = [item["embedding"] for item in ordered]
        except (KeyError, TypeError, ValueError) as exc:
            raise EmbedderError(
                f"embedder at {self._endpoint()} sent items without 'index' and 'embedding'"
            ) from exc
        if indexes != list(range(len(rows))):
            raise EmbedderError(f"embedder at {self._endpoint()} sent indexes {indexes}")
        return rows


def make_embedder(settings: EmbedderSettings) -> Embedder:
    """The embedder the settings describe (``api: ollama`` or ``api: openai``)."""
    if settings.api == "openai":
        return OpenAIEmbedder(settings.url, settings.model, settings.timeout_seconds)
    return OllamaEmbedder(settings.url, settings.model, settings.timeout_seconds)


def _error_text(response: httpx.Response) -> str:
    """The server's own error message: Ollama's {"error": "..."}, OpenAI's {"error": {...}}."""
    try:
        body = response.json()
    except ValueError:
        return response.text.strip()[:200] or response.reason_phrase
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict):
        error = error.get("message")
    return str(error)[:200] if error else response.reason_phrase
