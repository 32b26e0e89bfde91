"""Talking to Ollama over HTTP: streamed chat, structured output, and what went wrong, in words.

Every failure becomes one ModelError subclass (``assistant.model_errors``) whose ``spoken`` text is
short and specific enough to be said aloud in a room. Replies are read through
``assistant.model_stream``, so a reply's deadlines hold even against a server that drips.
"""

from __future__ import annotations

import ipaddress
import logging
import os
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from assistant.chat_client import (
    ChatClient,
    ChatMessage,
    StreamedPiece,
    ToolCall,
    decode_object,
)
from assistant.model_errors import (
    MalformedReply,
    ModelError,
    ModelHttpError,
    ModelUnreachable,
    ReplyTimeout,
    StreamCut,
    ToolsUnsupported,
)
from assistant.model_stream import ReplyDeadline
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
    "ToolCall",
    "ToolsUnsupported",
    "ollama_base_url",
    "parse_ollama_host",
]

log = logging.getLogger(__name__)

DEFAULT_PORT = 11434


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


class OllamaClient(ChatClient):
    """A small client for the parts of Ollama's API Hearth uses."""

    chat_path = "/api/chat"
    supports_tools = True
    unreachable = OllamaUnreachable
    http_error = OllamaHttpError

    def __init__(self, settings: OllamaSettings, environ: Mapping[str, str] | None = None):
        super().__init__(settings, ollama_base_url(settings, environ))

    def pulled_models(self) -> list[str]:
        """Names of the models Ollama has pulled (``/api/tags``)."""
        body = self._get_json("/api/tags")
        try:
            return [model["name"] for model in body["models"]]
        except (KeyError, TypeError) as exc:
            raise MalformedReply("unexpected /api/tags body") from exc

    def _options(self, temperature: float | None = None) -> dict[str, Any]:
        return {
            "num_ctx": self.settings.context_tokens,
            "temperature": self._temperature(temperature),
        }

    def _stream_body(self, messages: Sequence[ChatMessage]) -> dict[str, Any]:
        return {
            "model": self.settings.model,
            "messages": [message.to_json() for message in messages],
            "stream": True,
            "keep_alive": self.settings.keep_alive,
            "options": self._options(),
        }

    def _whole_body(
        self,
        messages: Sequence[ChatMessage],
        schema: Mapping[str, Any] | None,
        temperature: float | None,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.settings.model,
            "messages": [message.to_json() for message in messages],
            "stream": False,
            "keep_alive": self.settings.keep_alive,
            "options": self._options(temperature),
        }
        if schema is not None:
            body["format"] = dict(schema)
        return body

    def _read_line(self, line: str) -> StreamedPiece:
        if not line.strip():
            return StreamedPiece()
        chunk = decode_object(line)
        if "error" in chunk:
            raise OllamaHttpError(200, str(chunk["error"]))
        message = chunk.get("message", {})
        piece = message.get("content", "")
        if not isinstance(piece, str):
            raise MalformedReply(f"message content is not text: {line[:200]!r}")
        calls = tuple(_tool_call(call, line) for call in message.get("tool_calls") or ())
        return StreamedPiece(piece, bool(chunk.get("done")), calls)

    def _whole_content(self, text: str) -> object:
        return decode_object(text)["message"]["content"]

    def _error_message(self, body: object) -> str:
        return str(body.get("error", "")) if isinstance(body, dict) else ""

    def _missing_model(self, status: int, message: str) -> ModelError | None:
        if status == 404 and "not found" in message and "model" in message:
            return ModelNotPulled(self.settings.model)
        return None

    def _refuses_tools(self, status: int, message: str) -> bool:
        # Ollama's words: "registry.ollama.ai/library/gemma2:2b does not support tools".
        return status == 400 and "does not support tools" in message


def _tool_call(call: object, line: str) -> ToolCall:
    """One of ``message.tool_calls``: ``function.name`` and ``function.arguments`` (an object;
    some models' templates give it as a JSON string, read the same)."""
    function = call.get("function") if isinstance(call, dict) else None
    name = function.get("name") if isinstance(function, dict) else None
    if not isinstance(name, str) or not name:
        raise MalformedReply(f"a tool call without a name: {line[:200]!r}")
    arguments = function.get("arguments") or {}
    if isinstance(arguments, str):
        arguments = decode_object(arguments)
    if not isinstance(arguments, dict):
        raise MalformedReply(f"tool call arguments are not an object: {line[:200]!r}")
    return ToolCall(name, arguments)


def _say_model(model: str) -> str:
    # "llama3.2:3b" reads better aloud as "llama3.2, 3b"; the exact name is in the command.
    return model.replace(":", " ")
