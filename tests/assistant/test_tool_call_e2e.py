"""A request the local parser does not understand sets a real timer through the model's tool
call, end to end: ``hearth run`` in file mode (the real wake word, VAD, Whisper and Piper) against
a model server scripted to call ``set_timer``, over either wire Hearth speaks: Ollama's
(``message.tool_calls``) and the OpenAI-compatible one (``api: openai``, the call streamed in
fragments, its result sent back quoting the call's id). The timer then rings on the audio clock
and Hearth says what finished. A model without tools is told it cannot act, and its claim of a
timer is not said."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from assistant.action_claims import NOT_DONE
from tests.assistant.test_ringing_e2e import QUICK_RING, START
from tests.ollama_server import ChatServer, OllamaServer, Reply, tool_call, tool_results
from tests.openai_server import OpenAIServer
from tests.speech import silence, speech, timeline

pytestmark = pytest.mark.slow

REQUEST = "Hey Jarvis, give me a shout when the eggs are done, about ten seconds."
EGGS = {"seconds": 10, "name": "eggs"}


@dataclass(frozen=True)
class Wire:
    """One wire format Hearth's model client speaks, and what a turn's tool call looks like on
    it when Hearth sends it back with its result."""

    server: type[ChatServer]
    settings: str
    """What Hearth's ``ollama:`` settings add to speak it."""
    call_sent: dict[str, Any]
    """The assistant message's call, in the next request."""
    result_names: dict[str, str | None]
    """How the ``role: "tool"`` result names the call it answers."""


WIRES = {
    "ollama": Wire(OllamaServer, "", {"function": {"name": "set_timer", "arguments": EGGS}},
                   {"tool_name": "set_timer", "tool_call_id": None}),
    # The id the server streamed goes back in the assistant's call and in the result.
    "openai": Wire(OpenAIServer, "  api: openai\n",
                   {"id": "call_0_set_timer", "type": "function",
                    "function": {"name": "set_timer", "arguments": json.dumps(EGGS)}},
                   {"tool_call_id": "call_0_set_timer"}),
}  # fmt: skip


def the_room():
    return timeline(silence(1.0), speech(REQUEST), silence(30.0))


@pytest.fixture(params=sorted(WIRES))
def wire(request):
    return WIRES[request.param]


def test_a_tool_call_sets_a_timer_that_rings_at_its_audio_time(hearth, wire):
    with wire.server() as server:
        server.script(
            Reply(tool_calls=[tool_call("set_timer", **EGGS)]),
            Reply(text="Okay, I'll give you a shout in ten seconds."),
        )
        settings = f"ollama:\n{wire.settings}  url: {server.url}\n{QUICK_RING}"
        run = hearth(the_room(), settings, args=START)
        offered, answered = server.chat_requests()
    assert run.returncode == 0, run.summary()
    [call] = run.of("tool_call")
    assert call["name"] == "set_timer" and call["acted"] is True, call
    [started] = run.of("timer_started")
    assert started["name"] == "eggs" and started["seconds"] == 10
    [ring] = run.of("ring_start")
    assert 0 <= ring["t"] - (started["t"] + 10) < 0.04, (started, ring)
    assert [e["text"] for e in run.of("announcement")] == ["Your eggs timer is done."]
    replies = [e["text"] for e in run.of("reply")]
    assert replies[0] == "Okay, I'll give you a shout in ten seconds.", replies
    assert {tool["function"]["name"] for tool in offered["tools"]} >= {"set_timer"}
    assert answered["messages"][-2]["tool_calls"] == [wire.call_sent], answered["messages"][-2]
    [result] = tool_results(answered)
    assert result["content"] == call["result"], result
    assert {key: result.get(key) for key in wire.result_names} == wire.result_names, result


def test_a_model_without_tools_is_told_it_cannot_act_and_no_claim_is_said(hearth, wire):
    with wire.server(tools=False) as server:
        server.script(Reply(text="Sure, I've set a timer for ten seconds."))
        settings = f"ollama:\n{wire.settings}  url: {server.url}\n{QUICK_RING}"
        run = hearth(the_room(), settings, args=START)
        requests = server.chat_requests()
    assert run.returncode == 0, run.summary()
    assert not run.of("timer_started") and not run.of("ring_start")
    [refused] = run.of("model_tools")
    assert refused["supported"] is False
    offered, retried = requests
    assert offered["tools"] and "tools" not in retried
    assert "you cannot set, change or cancel any of them" in retried["messages"][0]["content"]
    assert [e["text"] for e in run.of("reply")] == [NOT_DONE]
