"""A small HTTP server on 127.0.0.1 that speaks the OpenAI-compatible chat API, as llama.cpp's
``llama-server``, LM Studio and vLLM serve it, for tests.

``POST /v1/chat/completions`` streams server-sent events (``data: {chunk}`` lines, a blank line
after each, a last chunk with ``finish_reason``, then ``data: [DONE]``), or answers
``stream: false`` with one ``chat.completion`` object; ``GET /v1/models`` lists models; errors are
an HTTP status with ``{"error": {"message", "type", "code"}}`` (404 ``model_not_found`` for an
unknown model; a 400 in vLLM's words for tools offered to a server without tool support, as
``tools=False``). A reply's ``tool_calls`` (Ollama's shape, as ``tool_call`` makes them) stream as
OpenAI's fragments: each call's id (none with ``call_ids=False``) and name in one delta, its
JSON arguments in three more, then ``finish_reason: "tool_calls"``. Replies are scripted with the
``Reply`` of tests/ollama_server.py (delays, cuts, malformed chunks, drips), on the same
chat-server base.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, ClassVar

from tests.fake_server import WireHandler
from tests.ollama_server import ChatServer, Reply, Responder


def no_facts(request: dict[str, Any]) -> Reply:
    """Background requests (fact extraction, summaries): nothing learned, a short summary."""
    if "response_format" in request:
        return Reply(text=json.dumps({"facts": []}))
    return Reply(text="Earlier they talked briefly.")


REFUSAL = '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'
"""vLLM's 400 for a request offering tools when the server was started without tool calling."""


def _call_fragments(index: int, call: dict[str, Any], with_id: bool) -> list[dict[str, Any]]:
    """One call as streamed deltas: id (``with_id``), type and name first, the arguments string
    in 3 pieces."""
    function = call["function"]
    arguments = json.dumps(function.get("arguments") or {})
    third = max(1, len(arguments) // 3)
    pieces = [arguments[:third], arguments[third : 2 * third], arguments[2 * third :]]
    head = {"index": index, "type": "function",
            "function": {"name": function["name"], "arguments": ""}}  # fmt: skip
    if with_id:
        head["id"] = f"call_{index}_{function['name']}"
    return [head, *({"index": index, "function": {"arguments": piece}} for piece in pieces)]


class _OpenAIHandler(WireHandler):
    owner: ClassVar[OpenAIServer]

    def do_GET(self) -> None:
        if not self._authorised():
            return
        if self.path == "/v1/models":
            data = [{"id": name, "object": "model", "owned_by": "tests"}
                    for name in self.owner.models]  # fmt: skip
            self.send_json(200, {"object": "list", "data": data})
        else:
            self._error(404, "not found", "invalid_request_error", "not_found")

    def do_POST(self) -> None:
        body = self.read_json()
        body["_path"] = self.path
        body["_port"] = self.client_address[1]
        body["_authorization"] = self.headers.get("Authorization")
        self.owner.requests.append(body)
        if not self._authorised():
            return
        if self.path != self.owner.chat_path:
            self._error(404, "not found", "invalid_request_error", "not_found")
            return
        if body.get("model") not in self.owner.models:
            self._error(404, f"The model `{body.get('model')}` does not exist",
                        "invalid_request_error", "model_not_found")  # fmt: skip
            return
        if body.get("tools") and not self.owner.tools:
            self._error(400, REFUSAL, "BadRequestError", 400)
            return
        reply = self.owner.answer(body)
        if reply.status != 200:
            self._error(reply.status, reply.error or "internal error", "server_error",
                        reply.status)  # fmt: skip
            return
        if reply.delay_first:
            time.sleep(reply.delay_first)
        if not self.owner.streams(body):
            self.send_json(200, self._completion(body, reply.text))
            return
        self._stream(body, reply)

    def _authorised(self) -> bool:
        key = self.owner.api_key
        if key is None or self.headers.get("Authorization") == f"Bearer {key}":
            return True
        self._error(401, "Incorrect API key provided", "invalid_request_error",
                    "invalid_api_key")  # fmt: skip
        return False

    def _stream(self, body: dict[str, Any], reply: Reply) -> None:
        self.begin_chunked("text/event-stream", Cache_Control="no-cache")
        self._event(self._chunk(body, {"role": "assistant", "content": ""}), reply)
        for index, piece in enumerate(reply.stream_pieces()):
            if reply.cut_after is not None and index >= reply.cut_after:
                self.cut()
                return
            if reply.malformed_after is not None and index == reply.malformed_after:
                self.write_chunk(b'data: {"choices": [{"delta": {"content": "oo\n\n')
                continue
            if index and reply.delay_between:
                time.sleep(reply.delay_between)
            self._event(self._chunk(body, {"content": piece}), reply)
        for index, call in enumerate(reply.tool_calls or ()):
            for fragment in _call_fragments(index, call, self.owner.call_ids):
                self._event(self._chunk(body, {"tool_calls": [fragment]}), reply)
        finish = "tool_calls" if reply.tool_calls else "stop"
        self._event(self._chunk(body, {}, finish=finish), reply)
        self.write_chunk(b"data: [DONE]\n\n")
        self.end_chunked()

    def _event(self, chunk: dict[str, Any], reply: Reply) -> None:
        self.write_chunk(b"data: " + json.dumps(chunk).encode() + b"\n\n", reply.drip_seconds)

    def _chunk(
        self, body: dict[str, Any], delta: dict[str, Any], finish: str | None = None
    ) -> dict[str, Any]:
        return {
            "id": "chatcmpl-tests",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": body.get("model"),
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    def _completion(self, body: dict[str, Any], text: str) -> dict[str, Any]:
        return {
            "id": "chatcmpl-tests",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model"),
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }  # fmt: skip

    def _error(self, status: int, message: str, kind: str, code: object) -> None:
        error = {"message": message, "type": kind, "param": None, "code": code}
        self.send_json(status, {"error": error})


@dataclass
class OpenAIServer(ChatServer):
    """Speaks /v1/chat/completions. Start with ``start()``; ``url`` is its address."""

    background: Responder = no_facts
    api_key: str | None = None
    """When set, requests without ``Authorization: Bearer <key>`` get 401."""
    call_ids: bool = True
    """Whether streamed tool calls carry an ``id`` (llama.cpp builds and LM Studio send none)."""

    handler: ClassVar[type[WireHandler]] = _OpenAIHandler
    chat_path: ClassVar[str] = "/v1/chat/completions"
    streams_by_default: ClassVar[bool] = False
