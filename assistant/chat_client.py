"""What every language-model client shares: the HTTP connection, deadlines, streaming, errors.

A client for one API (Ollama's ``/api/chat``, the OpenAI-compatible ``/v1/chat/completions``)
says only how a request body looks and how its reply lines read; reading the body against the
reply's deadlines, status errors and transport errors are here, once.
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, suppress
from dataclasses import dataclass, field
from typing import Any

import httpx

from assistant.model_errors import (
    MalformedReply,
    ModelError,
    ModelHttpError,
    ModelUnreachable,
    StreamCut,
    ToolsUnsupported,
)
from assistant.model_stream import ReplyDeadline, stream_lines, transport_errors
from config import OllamaSettings
from support import shown_url
from support.http_lookup import LookupWithin

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")

SHAPE_ERRORS = (ValueError, TypeError, AttributeError, KeyError, IndexError, RecursionError)
"""What reading a reply of an unexpected shape raises (a ``message`` that is null, ``tool_calls``
that is a number, JSON nested past the stack, a number of 5,000 digits): a malformed reply."""


def decode_object(text: str) -> dict[str, Any]:
    """One line of a streamed reply (or a whole answer) as the JSON object it must be.

    Half an emoji (``"\\ud83d"`` with no partner) is dropped: no encoder takes it, and kept, it
    broke the event log, Whisper's prompt and every later request that carried the reply.
    """
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise MalformedReply(f"not JSON: {text[:200]!r}") from exc
    if not isinstance(value, dict):
        raise MalformedReply(f"not a JSON object: {text[:200]!r}")
    if _SURROGATE_ESCAPE.search(text):
        # A pair became one character when read; only lone halves are left as surrogates.
        value = json.loads(_LONE_SURROGATE.sub("", json.dumps(value, ensure_ascii=False)))
    return value


@dataclass(frozen=True)
class ToolCall:
    """A call the model asked for: a tool's name and its arguments (a JSON object).

    ``id`` is the call's name that its result quotes back (OpenAI's ``tool_calls[].id``): the
    server's, or one of Hearth's own when an OpenAI-compatible server gives none; Ollama has
    none and it stays empty.
    """

    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)
    id: str = ""

    def to_json(self) -> dict[str, Any]:
        """The call as Ollama's ``message.tool_calls`` holds it."""
        return {"function": {"name": self.name, "arguments": dict(self.arguments)}}


@dataclass(frozen=True)
class ChatMessage:
    """One message of a chat: role is system, user, assistant or tool.

    An assistant message may carry the tool calls the model made; a tool message is one call's
    result, named by ``tool_name`` (Ollama) and ``tool_call_id`` (the call's id, for OpenAI).
    """

    role: str
    content: str
    tool_calls: tuple[ToolCall, ...] = ()
    tool_name: str | None = None
    tool_call_id: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The message as both wire formats have it (plain messages; tool fields as Ollama's)."""
        message: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            message["tool_calls"] = [call.to_json() for call in self.tool_calls]
        if self.tool_name is not None:
            message["tool_name"] = self.tool_name
        return message


@dataclass(frozen=True)
class StreamedPiece:
    """What one line of a streamed reply held: text to say, tool calls, and whether it is done."""

    text: str = ""
    done: bool = False
    tool_calls: tuple[ToolCall, ...] = ()


class ChatClient(ABC):
    """A client for a chat API: streamed replies, whole ones (with a JSON schema), model names."""

    chat_path: str
    supports_tools: bool = False
    """Whether ``chat_stream`` may be given tools (the API's wire format for them is known)."""
    unreachable: type[ModelUnreachable] = ModelUnreachable
    http_error: type[ModelHttpError] = ModelHttpError

    def __init__(self, settings: OllamaSettings, base_url: str):
        self.settings = settings
        self.base_url = shown_url(base_url)
        """The server's address as messages show it: a password written into it is blanked (the
        connection below uses it as given: httpx sends it as basic authentication)."""
        timeout = httpx.Timeout(
            connect=settings.connect_timeout_seconds,
            read=settings.reply_timeout_seconds,
            write=settings.connect_timeout_seconds,
            pool=settings.connect_timeout_seconds,
        )
        headers = {"Authorization": f"Bearer {settings.api_key}"} if settings.api_key else {}
        # trust_env=False: a proxy meant for the internet must not swallow a LAN model server.
        # The lookup counts within the connect timeout (a household DNS that does not answer).
        transport = LookupWithin(
            httpx.HTTPTransport(trust_env=False), settings.connect_timeout_seconds
        )
        self._http = httpx.Client(
            base_url=base_url,
            timeout=timeout,
            trust_env=False,
            headers=headers,
            transport=transport,
        )

    def close(self) -> None:
        """Release the connection pool."""
        self._http.close()

    def deadline(self) -> ReplyDeadline:
        """Fresh deadlines for one spoken reply, from the settings."""
        return ReplyDeadline(
            self.settings.first_sentence_seconds, self.settings.whole_reply_seconds
        )

    def chat_stream(
        self,
        messages: Sequence[ChatMessage],
        deadline: ReplyDeadline | None = None,
        tools: Sequence[Mapping[str, Any]] = (),
    ) -> Iterator[str | ToolCall]:
        """Stream a reply's text pieces as they arrive (and, offered ``tools``, its tool calls).

        ``deadline`` (else :meth:`deadline`) bounds the time to the first sentence and to the
        whole reply; the caller tells it when a first sentence is complete. Raises a ModelError
        subclass on any failure (ToolsUnsupported when the model refuses the tools); pieces
        already yielded stay yielded, so a caller that speaks them as they come keeps what was
        said. Without tools only text is yielded.
        """
        body = self._stream_body(messages)
        if tools:
            if not self.supports_tools:
                raise ValueError(f"{type(self).__name__} cannot offer tools")
            body["tools"] = [dict(tool) for tool in tools]
        lines = self._lines(body, deadline or self.deadline())
        read = self._line_reader(messages)
        try:
            for line in lines:
                try:
                    piece = read(line)
                except SHAPE_ERRORS as exc:
                    raise MalformedReply(f"unexpected reply: {line[:200]!r}") from exc
                if piece.text:
                    yield piece.text
                yield from piece.tool_calls
                if piece.done:
                    break
            else:
                raise StreamCut("the stream ended before the server said it was done")
            # The server ends the body right after; read to that end, so the connection goes
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
        """One whole reply (not streamed); with ``schema``, structured output as JSON.

        Bounded as a whole by ``whole_reply_seconds``.
        """
        whole = self.settings.whole_reply_seconds
        body = self._whole_body(messages, schema, temperature)
        text = "\n".join(self._lines(body, ReplyDeadline(whole, whole)))
        try:
            content = self._whole_content(text)
        except SHAPE_ERRORS as exc:
            raise MalformedReply(f"unexpected reply body: {text[:200]!r}") from exc
        if not isinstance(content, str):
            raise MalformedReply("message content is not text")
        return content

    @abstractmethod
    def pulled_models(self) -> list[str]:
        """Names of the models the server offers."""

    # -- what each API says its own way ----------------------------------------------------------

    @abstractmethod
    def _stream_body(self, messages: Sequence[ChatMessage]) -> dict[str, Any]:
        """The request body for a streamed reply."""

    @abstractmethod
    def _whole_body(
        self,
        messages: Sequence[ChatMessage],
        schema: Mapping[str, Any] | None,
        temperature: float | None,
    ) -> dict[str, Any]:
        """The request body for a whole reply."""

    @abstractmethod
    def _read_line(self, line: str) -> StreamedPiece:
        """One line of a streamed reply (raises MalformedReply or an HTTP error it reports)."""

    def _line_reader(self, messages: Sequence[ChatMessage]) -> Callable[[str], StreamedPiece]:
        """What reads the lines of the reply to ``messages``: :meth:`_read_line`, unless an
        API's pieces depend on earlier lines or on the chat so far (OpenAI's tool calls arrive
        in fragments, and a call's id must differ from those of the chat's earlier calls)."""
        return self._read_line

    @abstractmethod
    def _whole_content(self, text: str) -> object:
        """The reply text in a whole (not streamed) reply body."""

    @abstractmethod
    def _error_message(self, body: object) -> str:
        """The message in an error body."""

    def _missing_model(self, status: int, message: str) -> ModelError | None:
        """The error for a model the server does not have, when the reply says so."""
        return None

    def _refuses_tools(self, status: int, message: str) -> bool:
        """Whether an error reply says the model cannot use the tools it was offered."""
        return False

    # -- shared ----------------------------------------------------------------------------------

    def _temperature(self, temperature: float | None) -> float:
        return self.settings.temperature if temperature is None else temperature

    def _lines(self, body: dict[str, Any], deadline: ReplyDeadline) -> Iterator[str]:
        return stream_lines(
            lambda: self._http.stream("POST", self.chat_path, json=body),
            self._check_status,
            deadline,
            self._errors,
        )

    def _get_json(self, path: str) -> Any:
        with self._errors():
            response = self._http.get(path)
            self._check_status(response)
            try:
                return response.json()
            except ValueError as exc:
                raise MalformedReply(f"unexpected {path} body") from exc

    def _check_status(self, response: httpx.Response) -> None:
        if response.status_code < 400:
            return
        response.read()
        try:
            message = self._error_message(response.json())
        except ValueError:
            message = response.text[:200]
        missing = self._missing_model(response.status_code, message)
        if missing is not None:
            raise missing
        if self._refuses_tools(response.status_code, message):
            raise ToolsUnsupported(self.settings.model)
        raise self.http_error(response.status_code, message or response.reason_phrase)

    def _errors(self) -> AbstractContextManager[None]:
        return transport_errors(self.base_url, self.unreachable)
