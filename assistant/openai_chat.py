"""Talking to an OpenAI-compatible server: ``/v1/chat/completions`` streamed as server-sent events.

llama.cpp's ``llama-server``, LM Studio and vLLM speak this API. A streamed reply is a series of
``data: {json}`` lines whose ``choices[0].delta.content`` holds the next piece, ended by
``data: [DONE]``; an error is an HTTP status with ``{"error": {"message": ...}}``, or such an
object in the stream. A tool call streams in fragments: ``delta.tool_calls[]`` entries keyed by
``index``, the first with the call's ``id`` and ``function.name``, the later ones adding pieces of
``function.arguments`` (a JSON string); the calls are whole when the reply finishes. Some servers
(llama.cpp builds, LM Studio) send no ``id``: such a call is named ``call_<n>``, ``n`` counting the
chat's calls, so its result quotes an id that no other call of the chat has (strict servers
refuse ``tool_call_id: ""``).
The deadlines, spoken failures and streaming are the shared ones of
:class:`assistant.chat_client.ChatClient`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from assistant.chat_client import ChatClient, ChatMessage, StreamedPiece, ToolCall, decode_object
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
    supports_tools = True

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
            "messages": [openai_message(message) for message in messages],
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
            "messages": [openai_message(message) for message in messages],
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
        return self._read_event(line, _CallFragments())

    def _line_reader(self, messages: Sequence[ChatMessage]) -> Callable[[str], StreamedPiece]:
        # One reply's calls, gathered across its lines; ids of our own skip the chat's.
        taken = {call.id for message in messages for call in message.tool_calls if call.id}
        fragments = _CallFragments(ids_taken=taken)
        return lambda line: self._read_event(line, fragments)

    def _read_event(self, line: str, fragments: _CallFragments) -> StreamedPiece:
        # Server-sent events: "data:" lines carry the chunks; blank lines end an event, and
        # comments (":") and other fields (event:, id:, retry:) carry nothing Hearth needs.
        if not line.startswith("data:"):
            return StreamedPiece()
        data = line[len("data:") :].strip()
        if data == _DONE:
            return StreamedPiece(done=True, tool_calls=fragments.take(data))
        chunk = decode_object(data)
        if "error" in chunk:
            raise ModelHttpError(200, self._error_message(chunk))
        try:
            choice = chunk["choices"][0] if chunk.get("choices") else {}
            delta = choice.get("delta") or {}
            piece = delta.get("content") or ""
            for call in delta.get("tool_calls") or ():
                fragments.add(call, data)
            finished = choice.get("finish_reason") is not None
        except (KeyError, TypeError, AttributeError) as exc:
            raise MalformedReply(f"unexpected chunk: {data[:200]!r}") from exc
        if not isinstance(piece, str):
            raise MalformedReply(f"delta content is not text: {data[:200]!r}")
        # [DONE] follows the chunk with a finish_reason; it is read to the end all the same.
        return StreamedPiece(piece, tool_calls=fragments.take(data) if finished else ())

    def _whole_content(self, text: str) -> object:
        return decode_object(text)["choices"][0]["message"]["content"]

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

    def _refuses_tools(self, status: int, message: str) -> bool:
        # vLLM without --enable-auto-tool-choice: 400 '"auto" tool choice requires
        # --enable-auto-tool-choice and --tool-call-parser to be set'; llama.cpp's server
        # without --jinja: "tools param requires --jinja flag" (a 400 or a 500 by version).
        lowered = message.lower()
        return status in (400, 500) and any(words in lowered for words in _REFUSALS)


_REFUSALS = ("tool choice requires", "tools param requires", "does not support tools")
"""What servers that cannot take tools say when offered them."""


def openai_message(message: ChatMessage) -> dict[str, Any]:
    """One message as the OpenAI API has it: an assistant's calls as ``tool_calls`` entries
    with the arguments as a JSON string, a result as ``role: "tool"`` quoting its call's id."""
    body: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.tool_calls:
        body["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": json.dumps(dict(call.arguments))},
            }
            for call in message.tool_calls
        ]
    if message.tool_call_id is not None:
        body["tool_call_id"] = message.tool_call_id
    return body


@dataclass
class _Fragment:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


@dataclass
class _CallFragments:
    """One streamed reply's tool calls, gathered by ``index`` as their pieces arrive."""

    by_index: dict[int, _Fragment] = field(default_factory=dict)
    ids_taken: set[str] = field(default_factory=set)
    """The ids of the chat's calls so far (earlier rounds' and this reply's)."""

    def add(self, delta: Mapping[str, Any], data: str) -> None:
        """One ``delta.tool_calls`` entry: an id or name sets, an arguments piece appends."""
        index = delta.get("index", len(self.by_index))
        if not isinstance(index, int):
            raise MalformedReply(f"a tool call without an index: {data[:200]!r}")
        fragment = self.by_index.setdefault(index, _Fragment())
        fragment.id = delta.get("id") or fragment.id
        function = delta.get("function") or {}
        fragment.name = function.get("name") or fragment.name
        piece = function.get("arguments")
        if isinstance(piece, str):
            fragment.arguments.append(piece)
        elif isinstance(piece, dict):  # some servers send the object whole, once
            fragment.arguments.append(json.dumps(piece))

    def take(self, data: str) -> tuple[ToolCall, ...]:
        """The whole calls gathered so far, in index order, each with an id (its own, else a
        fresh ``call_<n>``); none are kept for later."""
        fragments = [self.by_index[i] for i in sorted(self.by_index)]
        self.by_index.clear()
        self.ids_taken.update(fragment.id for fragment in fragments if fragment.id)
        return tuple(_whole_call(fragment, fragment.id or self._fresh_id(), data)
                     for fragment in fragments)  # fmt: skip

    def _fresh_id(self) -> str:
        number = len(self.ids_taken)
        while f"call_{number}" in self.ids_taken:
            number += 1
        self.ids_taken.add(f"call_{number}")
        return f"call_{number}"


def _whole_call(fragment: _Fragment, call_id: str, data: str) -> ToolCall:
    if not fragment.name:
        raise MalformedReply(f"a tool call without a name: {data[:200]!r}")
    text = "".join(fragment.arguments).strip() or "{}"
    return ToolCall(fragment.name, decode_object(text), call_id)
