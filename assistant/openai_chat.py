"""Talking to an OpenAI-compatible server: ``/v1/chat/completions`` streamed as server-sent events.

llama.cpp's ``llama-server``, LM Studio and vLLM speak this API. A streamed reply is a series of
``data: {json}`` lines whose ``choices[0].delta.content`` holds the next piece, ended by
``data: [DONE]``; an error is an HTTP status with ``{"error": {"message": ...}}``, or such an
object in the stream. The deadlines, spoken failures and streaming are the shared ones of
:class:`assistant.chat_client.ChatClient`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from assistant.chat_client import ChatClient, ChatMessage, StreamedPiece, decode_object
from assistant.model_errors import MalformedReply, ModelError, ModelHttpError
from config import OllamaSettings

_DONE = "[DONE]"


class ModelNotOnServer(ModelError):
    """The server answers, but has no model of the configured name."""

    def __init__(self, model: str, message: str):
        super().__init__(f"model {model!r} not on the server: {message}")
        self.spoken = f"The model {model.replace(':', ' ')} isn't on the language model server."


class OpenAIClient(ChatClient):
    """A client for an OpenAI-compatible chat server."""

    chat_path = "/v1/chat/completions"

    def __init__(self, settings: OllamaSettings):
        assert settings.url, "the settings require a url with api: openai"
        # "http://box:8080/v1" and "http://box:8080" both mean the same server.
        super().__init__(settings, settings.url.rstrip("/").removesuffix("/v1"))

    def pulled_models(self) -> list[str]:
        """Names of the models the server offers (``/v1/models``)."""
        body = self._get_json("/v1/models")
        try:
            return [model["id"] for model in body["data"]]
        except (KeyError, TypeError) as exc:
            raise MalformedReply("unexpected /v1/models body") from exc

    def _stream_body(self, messages: Sequence[ChatMessage]) -> dict[str, Any]:
        return {
            "model": self.settings.model,
            "messages": [message.to_json() for message in messages],
            "stream": True,
            "temperature": self.settings.temperature,
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
            "temperature": self._temperature(temperature),
        }
        if schema is not None:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "reply", "schema": dict(schema), "strict": True},
            }
        return body

    def _read_line(self, line: str) -> StreamedPiece:
        # Server-sent events: "data:" lines carry the chunks; blank lines end an event, and
        # comments (":") and other fields (event:, id:, retry:) carry nothing Hearth needs.
        if not line.startswith("data:"):
            return StreamedPiece()
        data = line[len("data:") :].strip()
        if data == _DONE:
            return StreamedPiece(done=True)
        chunk = decode_object(data)
        if "error" in chunk:
            raise ModelHttpError(200, self._error_message(chunk))
        try:
            choice = chunk["choices"][0] if chunk.get("choices") else {}
            piece = (choice.get("delta") or {}).get("content") or ""
        except (KeyError, TypeError, AttributeError) as exc:
            raise MalformedReply(f"unexpected chunk: {data[:200]!r}") from exc
        if not isinstance(piece, str):
            raise MalformedReply(f"delta content is not text: {data[:200]!r}")
        # [DONE] follows the chunk with a finish_reason; it is read to the end all the same.
        return StreamedPiece(piece)

    def _whole_content(self, text: str) -> object:
        try:
            return json.loads(text)["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise MalformedReply(f"unexpected reply body: {text[:200]!r}") from exc

    def _error_message(self, body: object) -> str:
        if not isinstance(body, dict):
            return ""
        error = body.get("error")
        if isinstance(error, dict):
            return str(error.get("message", ""))
        return str(error or "")

    def _missing_model(self, status: int, message: str) -> ModelError | None:
        lowered = message.lower()
        if status == 404 and "model" in lowered and ("not" in lowered or "exist" in lowered):
            return ModelNotOnServer(self.settings.model, message)
        return None
