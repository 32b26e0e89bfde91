"""Tool calls over the OpenAI-compatible wire format: fragments streamed by index are assembled,
results go back quoting the call's id, a server refusing tools is told apart, and through the
brain a scripted call sets a real timer in the real schedule store."""

from __future__ import annotations

import json

import pytest

from assistant.brain import Brain
from assistant.card_keeper import CardKeeper
from assistant.chat_client import ChatMessage, ToolCall
from assistant.composition import make_chat_client
from assistant.conversation import ConversationHistory
from assistant.model_errors import ToolsUnsupported
from assistant.reply import HeardUtterance, Sentence
from assistant.schedule import AudioClock, ItemKind, ScheduleDesk, Scheduler, ScheduleStore
from config import OllamaSettings, packaged_file
from memory import Memory
from tests.ollama_server import Reply, tool_call, tool_results
from tests.openai_server import OpenAIServer
from tests.schedule.test_desk import LONDON, SATURDAY_5PM

TOOLS = [{"type": "function", "function": {"name": "set_timer", "parameters": {}}}]
EGGS = [ChatMessage("user", "A timer for the eggs and one for the tea.")]


def client_for(url: str):
    return make_chat_client(OllamaSettings(api="openai", url=url, connect_timeout_seconds=0.5))


def test_two_calls_streamed_in_pieces_arrive_whole_with_their_ids():
    server = OpenAIServer().start()
    server.script(
        Reply(text="Setting them.", tool_calls=[tool_call("set_timer", seconds=420, name="eggs"),
                                               tool_call("set_timer", seconds=180, name="tea")])
    )  # fmt: skip
    client = client_for(server.url)
    try:
        pieces = list(client.chat_stream(EGGS, tools=TOOLS))
    finally:
        client.close()
        server.stop()
    assert "".join(p for p in pieces if isinstance(p, str)) == "Setting them."
    calls = [p for p in pieces if isinstance(p, ToolCall)]
    assert calls == [
        ToolCall("set_timer", {"seconds": 420, "name": "eggs"}, "call_0_set_timer"),
        ToolCall("set_timer", {"seconds": 180, "name": "tea"}, "call_1_set_timer"),
    ]
    assert server.chat_requests()[0]["tools"] == TOOLS


def test_calls_sent_without_ids_get_ids_of_our_own_unique_in_the_chat():
    # llama.cpp builds and LM Studio stream calls with no id; strict servers refuse a result
    # quoting "", and a second round's call_0 would name two calls of the chat alike.
    server = OpenAIServer(call_ids=False).start()
    server.script(
        Reply(tool_calls=[tool_call("set_timer", seconds=420, name="eggs"),
                          tool_call("set_timer", seconds=180, name="tea")]),
        Reply(tool_calls=[tool_call("set_timer", seconds=60, name="toast")]),
    )  # fmt: skip
    client = client_for(server.url)
    try:
        first = [p for p in client.chat_stream(EGGS, tools=TOOLS) if isinstance(p, ToolCall)]
        results = [ChatMessage("tool", f"{call.arguments['name']} set", tool_name=call.name,
                               tool_call_id=call.id) for call in first]  # fmt: skip
        chat = [*EGGS, ChatMessage("assistant", "", tuple(first)), *results]
        second = [p for p in client.chat_stream(chat, tools=TOOLS) if isinstance(p, ToolCall)]
    finally:
        client.close()
        server.stop()
    assert [call.id for call in first] == ["call_0", "call_1"]
    assert [(call.id, call.arguments["name"]) for call in second] == [("call_2", "toast")]
    sent = server.chat_requests()[1]["messages"]
    assert [call["id"] for call in sent[1]["tool_calls"]] == ["call_0", "call_1"]
    assert [(m["tool_call_id"], m["content"]) for m in tool_results({"messages": sent})] == [
        ("call_0", "eggs set"),
        ("call_1", "tea set"),
    ]


def test_a_server_without_tool_support_is_told_apart():
    server = OpenAIServer(tools=False).start()
    client = client_for(server.url)
    try:
        with pytest.raises(ToolsUnsupported):
            list(client.chat_stream(EGGS, tools=TOOLS))
    finally:
        client.close()
        server.stop()


def test_a_brain_over_openai_sets_a_real_timer_and_sends_the_result_by_id(database):
    store = ScheduleStore.open(database)
    server = OpenAIServer().start()
    server.script(
        Reply(tool_calls=[tool_call("set_timer", seconds=420, name="eggs")]),
        Reply(text="I've set a timer for seven minutes."),
    )
    desk = ScheduleDesk(AudioClock(SATURDAY_5PM.timestamp()), LONDON, Scheduler(store))
    brain = Brain(Memory.open(database), client_for(server.url),
                  CardKeeper(packaged_file("personality.yaml")),
                  ConversationHistory(6000, compaction=False), desk=desk)  # fmt: skip
    try:
        parts = list(
            brain.respond(HeardUtterance("Shout when the eggs are done, seven minutes.", t=30.0))
        )
        first, second = server.chat_requests()
    finally:
        brain.close()
        server.stop()
    [timer] = Scheduler(store).active(ItemKind.TIMER)
    store.close()
    assert timer.name == "eggs"
    assert timer.due_at == pytest.approx(SATURDAY_5PM.timestamp() + 30 + 420)
    assert [p.text for p in parts if isinstance(p, Sentence)] == [
        "I've set a timer for seven minutes."
    ]
    assert {tool["function"]["name"] for tool in first["tools"]} >= {"set_timer"}
    assistant = second["messages"][-2]
    arguments = json.dumps({"seconds": 420, "name": "eggs"})
    function = {"name": "set_timer", "arguments": arguments}
    assert assistant["tool_calls"] == [
        {"id": "call_0_set_timer", "type": "function", "function": function}
    ]
    [result] = tool_results(second)
    assert result["tool_call_id"] == "call_0_set_timer"
    assert result["content"] == "Eggs timer set for 7 minutes."
