"""Talking to Ollama over HTTP: streamed chat, structured output, and what went wrong, in words.

Every failure becomes one ModelError subclass (``assistant.model_errors``) whose ``spoken`` text is
short and specific enough to be said aloud in a room. Replies are read through
``assistant.model_stream``, so a reply's deadlines hold even against a server that drips.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, suppress
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx

from assistant.model_errors import (
    MalformedReply,
    ModelError,
    ModelHttpError,
    ModelUnreachable,
    ReplyTimeout,
    StreamCut,
)
from assistant.model_stream import ReplyDeadline, stream_lines, transport_errors
from config import OllamaSettings

__all__ = [
    "BadModelAddress",
    "ChatMessage",
    "MalformedReply",
    "ModelError",
    "ModelNotPulled",
    "OllamaClient",
    "OllamaHttpError",
    "OllamaUnreachable",
    "ReplyDeadline",
    "ReplyTimeout",
    "StreamCut",
    "ollama_base_url",
    "parse_ollama_host",
]

log = logging.getLogger(__name__)

DEFAULT_PORT = 11434


@dataclass(frozen=True)
class ChatMessage:
    """One message of a chat: role is system, user or assistant."""

    role: str
    content: str

    def to_json(self) -> dict[str, str]:
        """The message as Ollama's wire format has it."""
        return {"role": self.role, "content": self.content}


class OllamaUnreachable(ModelUnreachable):
    """Nothing answers at the Ollama address."""

    spoken = "I can't reach the language model. Is Ollama running?"


class ModelNotPulled(ModelError):
    """Ollama answers, but the configured model has not been pulled."""

    def __init__(self, model: str):
        super().__init__(f"model {model!r} is not pulled")
        self.model = model
        self.spoken = f"The model {_say_model(model)} isn't installed. Run: ollama pull {model}."


class OllamaHttpError(ModelHttpError):
    """Ollama answered with an HTTP error."""


class BadModelAddress(ValueError):
    """``OLLAMA_HOST`` (or the address derived from it) is not a usable server address."""


def ollama_base_url(settings: OllamaSettings, environ: Mapping[str, str] | None = None) -> str:
    """The server address: the setting, else ``OLLAMA_HOST`` read as Ollama's clients read it.

    Raises BadModelAddress, naming the variable and what is wrong, for an ``OLLAMA_HOST`` that
    cannot be an address (the ``url`` setting is checked when the settings are loaded).
    """
    if settings.url:
        return settings.url.rstrip("/")
    env = os.environ if environ is None else environ
    return parse_ollama_host(env.get("OLLAMA_HOST", ""))


def parse_ollama_host(value: str) -> str:
    """Interpret ``OLLAMA_HOST`` like Ollama's own clients do (envconfig.Host).

    No scheme means http; a missing port means 11434 (or 80/443 with an explicit scheme); an empty
    value or one without a host means 127.0.0.1. Where Ollama's clients quietly fall back to the
    default (a port out of range, a broken IPv6 address), this raises BadModelAddress instead: a
    request silently sent to another server is harder to find than an error.
    """
    value = given = value.strip()
    scheme, default_port = "http", DEFAULT_PORT
    if "://" in value:
        scheme, value = value.split("://", 1)
        default_port = {"http": 80, "https": 443}.get(scheme, DEFAULT_PORT)
    if scheme not in ("http", "https"):
        raise BadModelAddress(f"OLLAMA_HOST={given!r}: the scheme must be http or https")
    hostport, _, path = value.partition("/")
    try:
        parts = urlsplit(f"//{hostport}")
        host = parts.hostname
    except ValueError:  # "Invalid IPv6 URL": an unclosed bracket
        raise BadModelAddress(f"OLLAMA_HOST={given!r} is not an address") from None
    try:
        port = parts.port
    except ValueError:
        port = 0
    if port == 0:
        raise BadModelAddress(f"OLLAMA_HOST={given!r}: the port must be a number from 1 to 65535")
    if not host:
        host = "127.0.0.1"
    if port is None:
        port = default_port
    try:
        if ipaddress.ip_address(host).version == 6:
            host = f"[{host}]"
    except ValueError:
        pass
    base = f"{scheme}://{host}:{port}"
    return f"{base}/{path}".rstrip("/") if path else base


class OllamaClient:
    """A small client for the parts of Ollama's API Hearth uses."""

    def __init__(self, settings: OllamaSettings, environ: Mapping[str, str] | None = None):
        self.settings = settings
        self.base_url = ollama_base_url(settings, environ)
        timeout = httpx.Timeout(
            connect=settings.connect_timeout_seconds,
            read=settings.reply_timeout_seconds,
            write=settings.connect_timeout_seconds,
            pool=settings.connect_timeout_seconds,
        )
        # trust_env=False: a proxy meant for the internet must not swallow a LAN model server.
        self._http = httpx.Client(base_url=self.base_url, timeout=timeout, trust_env=False)

    def close(self) -> None:
        """Release the connection pool."""
        self._http.close()

    def _options(self, temperature: float | None = None) -> dict[str, Any]:
        return {
            "num_ctx": self.settings.context_tokens,
            "temperature": self.settings.temperature if temperature is None else temperature,
        }

    def deadline(self) -> ReplyDeadline:
        """Fresh deadlines for one spoken reply, from the settings."""
        return ReplyDeadline(
            self.settings.first_sentence_seconds, self.settings.whole_reply_seconds
        )

    def chat_stream(
        self, messages: Sequence[ChatMessage], deadline: ReplyDeadline | None = None
    ) -> Iterator[str]:
        """Stream a reply's text pieces as they arrive.

        ``deadline`` (else :meth:`deadline`) bounds the time to the first sentence and to the
        whole reply; the caller tells it when a first sentence is complete. Raises a ModelError
        subclass on any failure; pieces already yielded stay yielded, so a caller that speaks
        them as they come keeps what was said.
        """
        body = {
            "model": self.settings.model,
            "messages": [message.to_json() for message in messages],
            "stream": True,
            "keep_alive": self.settings.keep_alive,
            "options": self._options(),
        }
        lines = stream_lines(
            lambda: self._http.stream("POST", "/api/chat", json=body),
            self._check_status,
            deadline or self.deadline(),
            self._errors,
        )
        try:
            for line in lines:
                if not line.strip():
                    continue
                chunk = _decode_chunk(line)
                if "error" in chunk:
                    raise OllamaHttpError(200, str(chunk["error"]))
                piece = chunk.get("message", {}).get("content", "")
                if not isinstance(piece, str):
                    raise MalformedReply(f"message content is not text: {line[:200]!r}")
                if piece:
                    yield piece
                if chunk.get("done"):
                    break
            else:
                raise StreamCut("the stream ended without a done chunk")
            # Ollama ends the body right after ``done``; read to that end, so the connection goes
            # back to the pool for the next turn instead of being closed and opened again.
            with suppress(ModelError):
                for _ in lines:
                    pass
        finally:
            lines.close()

    def chat(
        self,
        messages: Sequence[ChatMessage],
        schema: Mapping[str, Any] | None = None,
        temperature: float | None = None,
    ) -> str:
        """One whole reply (not streamed); with ``schema``, Ollama's structured output as JSON.

        Bounded as a whole by ``whole_reply_seconds``.
        """
        body: dict[str, Any] = {
            "model": self.settings.model,
            "messages": [message.to_json() for message in messages],
            "stream": False,
            "keep_alive": self.settings.keep_alive,
            "options": self._options(temperature),
        }
        if schema is not None:
            body["format"] = dict(schema)
        whole = self.settings.whole_reply_seconds
        text = "\n".join(
            stream_lines(
                lambda: self._http.stream("POST", "/api/chat", json=body),
                self._check_status,
                ReplyDeadline(whole, whole),
                self._errors,
            )
        )
        try:
            content = json.loads(text)["message"]["content"]
        except (ValueError, KeyError, TypeError) as exc:
            raise MalformedReply(f"unexpected reply body: {text[:200]!r}") from exc
        if not isinstance(content, str):
            raise MalformedReply("message content is not text")
        return content

    def pulled_models(self) -> list[str]:
        """Names of the models Ollama has pulled (``/api/tags``)."""
        with self._errors():
            response = self._http.get("/api/tags")
            self._check_status(response)
            try:
                return [model["name"] for model in response.json()["models"]]
            except (ValueError, KeyError, TypeError) as exc:
                raise MalformedReply("unexpected /api/tags body") from exc

    def _check_status(self, response: httpx.Response) -> None:
        if response.status_code < 400:
            return
        response.read()
        try:
            message = str(response.json().get("error", ""))
        except ValueError:
            message = response.text[:200]
        if response.status_code == 404 and "not found" in message and "model" in message:
            raise ModelNotPulled(self.settings.model)
        raise OllamaHttpError(response.status_code, message or response.reason_phrase)

    def _errors(self) -> AbstractContextManager[None]:
        return transport_errors(self.base_url, OllamaUnreachable)


def _decode_chunk(line: str) -> dict[str, Any]:
    try:
        chunk = json.loads(line)
    except json.JSONDecodeError as exc:
        raise MalformedReply(f"not JSON: {line[:200]!r}") from exc
    if not isinstance(chunk, dict):
        raise MalformedReply(f"not a JSON object: {line[:200]!r}")
    return chunk


def _say_model(model: str) -> str:
    # "llama3.2:3b" reads better aloud as "llama3.2, 3b"; the exact name is in the command.
    return model.replace(":", " ")
