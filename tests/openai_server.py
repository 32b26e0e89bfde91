"""A small HTTP server on 127.0.0.1 that speaks the OpenAI-compatible chat API, as llama.cpp's
``llama-server``, LM Studio and vLLM serve it, for tests.

``POST /v1/chat/completions`` streams server-sent events (``data: {chunk}`` lines, a blank line
after each, a last chunk with ``finish_reason``, then ``data: [DONE]``), or answers
``stream: false`` with one ``chat.completion`` object; ``GET /v1/models`` lists models; errors are
an HTTP status with ``{"error": {"message", "type", "code"}}`` (404 ``model_not_found`` for an
unknown model). Replies
are scripted with the ``Reply`` of tests/ollama_server.py (delays, cuts, malformed chunks, drips),
on the same server base.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.ollama_server import Reply, Responder, _QuietServer, default_responder


def no_facts(request: dict[str, Any]) -> Reply:
    """Background requests (fact extraction, summaries): nothing learned, a short summary."""
    if "response_format" in request:
        return Reply(text=json.dumps({"facts": []}))
    return Reply(text="Earlier they talked briefly.")


@dataclass
class OpenAIServer:
    """Start with ``start()``; ``url`` is its address; ``requests`` records each request body."""

    models: tuple[str, ...] = ("llama3.2:3b",)
    responder: Responder = default_responder
    background: Responder = no_facts
    api_key: str | None = None
    """When set, requests without ``Authorization: Bearer <key>`` get 401."""
    requests: list[dict[str, Any]] = field(default_factory=list)
    _script: deque[Reply] = field(default_factory=deque)
    _server: _QuietServer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def script(self, *replies: Reply) -> None:
        """Queue replies used, in order, for the next streamed chats (then the responder again)."""
        self._script.extend(replies)

    def chat_requests(self) -> list[dict[str, Any]]:
        """Recorded chat bodies that asked for a streamed reply (the spoken answers)."""
        return [
            r for r in self.requests if r["_path"] == "/v1/chat/completions" and r.get("stream")
        ]

    def start(self) -> OpenAIServer:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                if not self._authorised():
                    return
                if self.path == "/v1/models":
                    data = [{"id": name, "object": "model", "owned_by": "tests"}
                            for name in server.models]  # fmt: skip
                    self._send_json(200, {"object": "list", "data": data})
                else:
                    self._error(404, "not found", "invalid_request_error", "not_found")

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                body["_path"] = self.path
                body["_port"] = self.client_address[1]
                body["_authorization"] = self.headers.get("Authorization")
                server.requests.append(body)
                if not self._authorised():
                    return
                if self.path != "/v1/chat/completions":
                    self._error(404, "not found", "invalid_request_error", "not_found")
                    return
                if body.get("model") not in server.models:
                    self._error(404, f"The model `{body.get('model')}` does not exist",
                                "invalid_request_error", "model_not_found")  # fmt: skip
                    return
                if not body.get("stream"):
                    reply = server.background(body)
                elif server._script:
                    reply = server._script.popleft()
                else:
                    reply = server.responder(body)
                if reply.status != 200:
                    self._error(reply.status, reply.error or "internal error", "server_error",
                                reply.status)  # fmt: skip
                    return
                if reply.delay_first:
                    time.sleep(reply.delay_first)
                if not body.get("stream"):
                    self._send_json(200, self._completion(body, reply.text))
                    return
                self._stream(body, reply)

            def _authorised(self) -> bool:
                if server.api_key is None:
                    return True
                if self.headers.get("Authorization") == f"Bearer {server.api_key}":
                    return True
                self._error(401, "Incorrect API key provided", "invalid_request_error",
                            "invalid_api_key")  # fmt: skip
                return False

            def _stream(self, body: dict[str, Any], reply: Reply) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                self._event(self._chunk(body, {"role": "assistant", "content": ""}), reply)
                for index, piece in enumerate(reply.stream_pieces()):
                    if reply.cut_after is not None and index >= reply.cut_after:
                        self.wfile.flush()
                        self.connection.shutdown(2)  # a broken stream, not a clean end
                        return
                    if reply.malformed_after is not None and index == reply.malformed_after:
                        self._write_chunk(b'data: {"choices": [{"delta": {"content": "oo\n\n')
                        continue
                    if index and reply.delay_between:
                        time.sleep(reply.delay_between)
                    self._event(self._chunk(body, {"content": piece}), reply)
                self._event(self._chunk(body, {}, finish="stop"), reply)
                self._write_chunk(b"data: [DONE]\n\n")
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()

            def _event(self, chunk: dict[str, Any], reply: Reply) -> None:
                data = b"data: " + json.dumps(chunk).encode() + b"\n\n"
                if reply.drip_seconds:
                    for byte in data:
                        time.sleep(reply.drip_seconds)
                        self._write_chunk(bytes([byte]))
                else:
                    self._write_chunk(data)

            def _write_chunk(self, data: bytes) -> None:
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                self.wfile.flush()

            def _chunk(
                self, body: dict[str, Any], delta: dict[str, str], finish: str | None = None
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
                self._send_json(status, {"error": error})

            def _send_json(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._server = _QuietServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
