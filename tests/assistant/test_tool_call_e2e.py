"""A request the local parser does not understand sets a real timer through the model's tool
call, end to end: ``hearth run`` in file mode (the real wake word, VAD, Whisper and Piper) against
the Ollama-protocol server scripted to answer with ``message.tool_calls``; the timer then rings on
the audio clock and Hearth says what finished. A model without tools is told it cannot act, and
its claim of a timer is not said."""

from __future__ import annotations

import pytest

from assistant.action_claims import NOT_DONE
from tests.assistant.test_ringing_e2e import QUICK_RING, START
from tests.ollama_server import OllamaServer, Reply, tool_call, tool_results
from tests.speech import silence, speech, timeline

pytestmark = pytest.mark.slow

REQUEST = "Hey Jarvis, give me a shout when the eggs are done, about ten seconds."


def the_room():
    return timeline(silence(1.0), speech(REQUEST), silence(30.0))


def test_a_tool_call_sets_a_timer_that_rings_at_its_audio_time(hearth, ollama):
    ollama.script(
        Reply(tool_calls=[tool_call("set_timer", seconds=10, name="eggs")]),
        Reply(text="Okay, I'll give you a shout in ten seconds."),
    )
    run = hearth(the_room(), f"ollama:\n  url: {ollama.url}\n{QUICK_RING}", args=START)
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
    offered, answered = ollama.chat_requests()
    assert offered["tools"] and tool_results(answered)[0]["tool_name"] == "set_timer"


def test_a_model_without_tools_is_told_it_cannot_act_and_no_claim_is_said(hearth):
    with OllamaServer(tools=False) as server:
        server.script(Reply(text="Sure, I've set a timer for ten seconds."))
        run = hearth(the_room(), f"ollama:\n  url: {server.url}\n{QUICK_RING}", args=START)
        requests = server.chat_requests()
    assert run.returncode == 0, run.summary()
    assert not run.of("timer_started") and not run.of("ring_start")
    [refused] = run.of("model_tools")
    assert refused["supported"] is False
    offered, retried = requests
    assert offered["tools"] and "tools" not in retried
    assert "you cannot set, change or cancel any of them" in retried["messages"][0]["content"]
    assert [e["text"] for e in run.of("reply")] == [NOT_DONE]
