"""The Ollama client's tool calling on the wire: ``tools`` sent, ``message.tool_calls`` read
(arguments an object, or a JSON string as some templates give them), tool messages sent back with
``tool_name``, and a model without tool support reported as such."""

from __future__ import annotations

import pytest

from assistant.ollama import (
    ChatMessage,
    MalformedReply,
    OllamaClient,
    ToolCall,
    ToolsUnsupported,
)
from assistant.schedule.tools import SCHEMAS
from config import OllamaSettings
from tests.ollama_server import OllamaServer, Reply, tool_call

QUESTION = [ChatMessage("user", "Give me a shout when the eggs are done.")]


def client_for(server: OllamaServer) -> OllamaClient:
    return OllamaClient(OllamaSettings(url=server.url))


def test_tools_are_sent_and_tool_calls_come_back_after_the_text(ollama):
    ollama.script(Reply(text="One moment.", tool_calls=[tool_call("set_timer", seconds=420)]))
    pieces = list(client_for(ollama).chat_stream(QUESTION, tools=SCHEMAS))
    assert "".join(p for p in pieces if isinstance(p, str)) == "One moment."
    assert pieces[-1] == ToolCall("set_timer", {"seconds": 420})
    [request] = ollama.chat_requests()
    assert request["tools"] == list(SCHEMAS)


def test_arguments_given_as_a_json_string_are_read_the_same(ollama):
    as_text = {"function": {"name": "set_timer", "arguments": '{"seconds": 60}'}}
    ollama.script(Reply(tool_calls=[as_text]))
    assert list(client_for(ollama).chat_stream(QUESTION, tools=SCHEMAS)) == [
        ToolCall("set_timer", {"seconds": 60})
    ]


@pytest.mark.parametrize(
    "call",
    [{"function": {"arguments": {}}}, {"function": {"name": "set_timer", "arguments": "[1]"}},
     {"function": {"name": "set_timer", "arguments": "{not json"}}, "set_timer"],
)  # fmt: skip
def test_a_malformed_tool_call_is_a_malformed_reply(ollama, call):
    ollama.script(Reply(tool_calls=[call]))
    with pytest.raises(MalformedReply):
        list(client_for(ollama).chat_stream(QUESTION, tools=SCHEMAS))


def test_tool_messages_go_back_in_ollamas_shape(ollama):
    call = ToolCall("set_timer", {"seconds": 420, "name": "eggs"})
    messages = [
        *QUESTION,
        ChatMessage("assistant", "", (call,)),
        ChatMessage("tool", "Eggs timer set for 7 minutes.", tool_name="set_timer"),
    ]
    list(client_for(ollama).chat_stream(messages, tools=SCHEMAS))
    sent = ollama.chat_requests()[0]["messages"]
    eggs = tool_call("set_timer", seconds=420, name="eggs")
    assert sent[1] == {"role": "assistant", "content": "", "tool_calls": [eggs]}
    assert sent[2] == {"role": "tool", "content": "Eggs timer set for 7 minutes.",
                       "tool_name": "set_timer"}  # fmt: skip
    assert sent[0] == {"role": "user", "content": QUESTION[0].content}  # plain ones stay plain


def test_a_model_without_tool_support_is_reported_and_plain_chat_still_works():
    with OllamaServer(tools=False) as server:
        client = client_for(server)
        with pytest.raises(ToolsUnsupported) as refused:
            list(client.chat_stream(QUESTION, tools=SCHEMAS))
        assert refused.value.model == "llama3.2:3b"
        assert "".join(client.chat_stream(QUESTION)).startswith("You asked")
