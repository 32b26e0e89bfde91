"""A small HTTP server on 127.0.0.1 that speaks Ollama's real wire format, for tests and benches.

It streams NDJSON chunks with ``done``, answers ``stream: false`` and structured-output requests,
lists models at /api/tags, returns Ollama's error bodies (404 for a model that is not pulled, 400
for tools offered to a model without tool support), answers with ``message.tool_calls``, and can be
scripted to delay, cut a stream mid-answer, send malformed chunks or fail with HTTP errors.
Every request body is recorded so tests can read the prompts Hearth sent.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, ClassVar

from tests.fake_server import FakeServer, WireHandler


@dataclass
class Reply:
    """One scripted answer to a /api/chat request."""

    text: str = ""
    pieces: list[str] | None = None
    """The stream's pieces; default: ``text`` split after every word."""
    delay_first: float = 0.0
    delay_between: float = 0.0
    cut_after: int | None = None
    """Close the connection after this many pieces, without a done chunk."""
    malformed_after: int | None = None
    """Send a line that is not JSON after this many pieces."""
    status: int = 200
    error: str | None = None
    drip_seconds: float = 0.0
    """Send the stream a byte at a time, this long apart: every read gets something, so a
    timeout between reads never fires (a wedged proxy, a model server thrashing its swap)."""
    raw_lines: list[str] | None = None
    """Lines sent as they are after the pieces (a reply of a shape no server should send)."""
    tool_calls: list[dict[str, Any]] | None = None
    """Calls as Ollama sends them (``{"function": {"name": ..., "arguments": {...}}}``), in one
    chunk after the text, as a model that supports tools answers when it calls them."""

    def stream_pieces(self) -> list[str]:
        if self.pieces is not None:
            return self.pieces
        words = self.text.split(" ")
        return [word + (" " if i < len(words) - 1 else "") for i, word in enumerate(words)]


Responder = Callable[[dict[str, Any]], Reply]


def default_responder(request: dict[str, Any]) -> Reply:
    """Answer a chat with a short sentence naming the question."""
    messages = request.get("messages", [])
    question = next((m["content"] for m in reversed(messages) if m["role"] == "user"), "")
    return Reply(text=f"You asked: {question.strip().rstrip('?.!')}. That is all I know.")


def tool_call(function: str, **arguments: Any) -> dict[str, Any]:
    """One entry of ``message.tool_calls`` as Ollama sends it: arguments as an object."""
    return {"function": {"name": function, "arguments": arguments}}


def tool_results(request: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``role: "tool"`` messages of a chat request (the results Hearth sent back)."""
    return [m for m in request.get("messages", []) if m.get("role") == "tool"]


def no_facts(request: dict[str, Any]) -> Reply:
    """Background requests (fact extraction, summaries): nothing learned, a short summary."""
    if "format" in request:
        return Reply(text=json.dumps({"facts": []}))
    return Reply(text="Earlier they talked briefly.")


class _OllamaHandler(WireHandler):
    owner: ClassVar[OllamaServer]

    def do_GET(self) -> None:
        if self.path == "/api/tags":
            models = [{"name": name, "model": name} for name in self.owner.models]
            self.send_json(200, {"models": models})
        elif self.path == "/api/version":
            self.send_json(200, {"version": "0.12.0"})
        else:
            self.send_json(404, {"error": "not found"})

    def do_POST(self) -> None:
        body = self.read_json()
        body["_path"] = self.path
        body["_port"] = self.client_address[1]  # one per connection the client opened
        body["_authorization"] = self.headers.get("Authorization")
        self.owner.requests.append(body)
        if self.path != "/api/chat":
            self.send_json(404, {"error": "not found"})
            return
        if body.get("model") not in self.owner.models:
            self.send_json(404, {"error": f"model '{body.get('model')}' not found"})
            return
        if body.get("tools") and not self.owner.tools:
            error = f"registry.ollama.ai/library/{body['model']} does not support tools"
            self.send_json(400, {"error": error})
            return
        reply = self.owner.answer(body)
        if reply.status != 200:
            self.send_json(reply.status, {"error": reply.error or "internal error"})
            return
        if reply.delay_first:
            time.sleep(reply.delay_first)
        if not self.owner.streams(body):
            message: dict[str, Any] = {"role": "assistant", "content": reply.text}
            if reply.tool_calls:
                message["tool_calls"] = reply.tool_calls
            self.send_json(200, self._chunk(body, message, done=True))
            return
        self._stream(body, reply)

    def _stream(self, body: dict[str, Any], reply: Reply) -> None:
        self.begin_chunked("application/x-ndjson")
        for index, piece in enumerate(reply.stream_pieces()):
            if reply.cut_after is not None and index >= reply.cut_after:
                self.cut()
                return
            if reply.malformed_after is not None and index == reply.malformed_after:
                self.write_chunk(b'{"message": {"role": "assistant", "content": "oo\n')
                continue
            if index and reply.delay_between:
                time.sleep(reply.delay_between)
            line = self._chunk(body, {"role": "assistant", "content": piece}, done=False)
            self.write_chunk(json.dumps(line).encode() + b"\n", reply.drip_seconds)
        for raw in reply.raw_lines or ():
            self.write_chunk(raw.encode() + b"\n")
        if reply.tool_calls:
            message = {"role": "assistant", "content": "", "tool_calls": reply.tool_calls}
            self.write_chunk(json.dumps(self._chunk(body, message, done=False)).encode() + b"\n")
        final = self._chunk(body, {"role": "assistant", "content": ""}, done=True)
        self.write_chunk(json.dumps(final).encode() + b"\n")
        self.end_chunked()

    def _chunk(self, body: dict[str, Any], message: dict[str, Any], done: bool) -> dict:
        chunk: dict[str, Any] = {
            "model": body.get("model"),
            "created_at": datetime.now(UTC).isoformat(),
            "message": message,
            "done": done,
        }
        if done:
            chunk.update(done_reason="stop", total_duration=1, eval_count=1)
        return chunk


@dataclass
class ChatServer(FakeServer):
    """A model server: ``requests`` records each chat body.

    Streamed chats (the spoken answers) take the scripted replies, then ``responder``; requests
    with ``stream: false`` (extraction, summaries) go to ``background``.
    """

    models: tuple[str, ...] = ("llama3.2:3b",)
    tools: bool = True
    """Whether the model supports tools; without, a chat offering them gets Ollama's 400."""
    responder: Responder = default_responder
    background: Responder = no_facts
    requests: list[dict[str, Any]] = field(default_factory=list)
    _script: deque[Reply] = field(default_factory=deque)

    chat_path: ClassVar[str]
    streams_by_default: ClassVar[bool] = True
    """Whether a chat with no ``stream`` field streams (Ollama's default; OpenAI's is not to)."""

    def script(self, *replies: Reply) -> None:
        """Queue replies used, in order, for the next streamed chats (then the responder again)."""
        self._script.extend(replies)

    def chat_requests(self) -> list[dict[str, Any]]:
        """Recorded chat bodies that asked for a streamed reply (the spoken answers)."""
        return [r for r in self.requests if r.get("_path") == self.chat_path and r.get("stream")]

    def streams(self, body: dict[str, Any]) -> bool:
        """Whether the chat asked for a streamed answer."""
        return bool(body.get("stream", self.streams_by_default))

    def answer(self, body: dict[str, Any]) -> Reply:
        """The reply for a chat request: background, scripted, or the responder's."""
        if not self.streams(body):
            return self.background(body)
        if self._script:
            return self._script.popleft()
        return self.responder(body)


@dataclass
class OllamaServer(ChatServer):
    """Speaks Ollama's /api/chat. Start with ``start()``; ``url`` is its address."""

    handler: ClassVar[type[WireHandler]] = _OllamaHandler
    chat_path: ClassVar[str] = "/api/chat"
