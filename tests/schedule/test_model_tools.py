"""The model acts through tools, over Ollama's wire format (the test server): a tool call sets a
real timer in the real schedule store, its result goes back as a ``tool`` message, and the final
answer is said; a model without tool support is asked again without them, told it cannot act,
and its claim of a timer is not said."""

from __future__ import annotations

import pytest

from assistant.action_claims import NOT_DONE
from assistant.brain import DONE
from assistant.reply import AwaitAnswer, HeardUtterance, Note, Sentence
from assistant.schedule import AudioClock, ItemKind, ScheduleDesk, Scheduler, ScheduleStore
from tests.ollama_server import OllamaServer, Reply, tool_call, tool_results
from tests.schedule.test_desk import LONDON, SATURDAY_5PM, brain_with_desk

EGGS = "Give me a shout when the eggs are done, about seven minutes."


@pytest.fixture
def store(database):
    store = ScheduleStore.open(database)
    yield store
    store.close()


def serve(tools: bool) -> OllamaServer:
    return OllamaServer(tools=tools).start()


def brain_for(database, store, server):
    desk = ScheduleDesk(AudioClock(SATURDAY_5PM.timestamp()), LONDON, Scheduler(store))
    return brain_with_desk(database, server.url, desk)


def answered(database, store, server, heard: HeardUtterance) -> list:
    """The parts of a brain's reply to ``heard``; the brain is closed and the server stopped
    after (what the server was asked stays readable)."""
    brain = brain_for(database, store, server)
    try:
        return list(brain.respond(heard))
    finally:
        brain.close()
        server.stop()


def said(parts) -> list[str]:
    return [part.text for part in parts if isinstance(part, Sentence)]


def test_a_tool_call_sets_a_real_timer_and_the_model_answers_from_its_result(database, store):
    server = serve(tools=True)
    server.script(
        Reply(tool_calls=[tool_call("set_timer", seconds=420, name="eggs")]),
        Reply(text="I've set a timer for seven minutes. I'll give you a shout."),
    )
    parts = answered(database, store, server, HeardUtterance(EGGS, t=30.0))
    first, second = server.chat_requests()
    [timer] = Scheduler(store).active(ItemKind.TIMER)
    assert timer.name == "eggs"
    assert timer.due_at == pytest.approx(SATURDAY_5PM.timestamp() + 30 + 420)
    assert said(parts) == ["I've set a timer for seven minutes.", "I'll give you a shout."]
    events = {part.event: part.fields for part in parts if isinstance(part, Note)}
    assert events["timer_started"]["item_id"] == timer.id
    assert events["tool_call"]["acted"] is True

    names = {tool["function"]["name"] for tool in first["tools"]}
    assert {"set_timer", "set_reminder", "cancel_timer", "list_timers"} <= names
    assert "You can set timers (set_timer)" in first["messages"][0]["content"]
    # The second request carries the call and its result, in Ollama's shapes.
    assistant = second["messages"][-2]
    assert assistant["role"] == "assistant"
    assert assistant["tool_calls"] == [tool_call("set_timer", seconds=420, name="eggs")]
    [result] = tool_results(second)
    assert result == {"role": "tool", "content": "Eggs timer set for 7 minutes.",
                      "tool_name": "set_timer"}  # fmt: skip


def test_a_claim_the_tools_did_not_back_is_not_said(database, store):
    server = serve(tools=True)
    server.script(
        Reply(tool_calls=[tool_call("list_timers")]),
        Reply(text="I've set a timer for seven minutes. Enjoy the eggs."),
    )
    parts = answered(database, store, server, HeardUtterance(EGGS, t=0.0))
    assert not Scheduler(store).active()
    assert said(parts) == [NOT_DONE, "Enjoy the eggs."]
    [unbacked] = [p for p in parts if isinstance(p, Note) and p.event == "claim_unbacked"]
    assert unbacked.fields["text"] == "I've set a timer for seven minutes."


def test_a_model_without_tools_is_told_it_cannot_act_and_its_claim_is_not_said(database, store):
    server = serve(tools=False)
    claim = Reply(text="Sure! I've set a timer for seven minutes. I'll give you a shout.")
    server.script(claim, Reply(text="Paris is the capital of France."))
    brain = brain_for(database, store, server)
    try:
        first_turn = list(brain.respond(HeardUtterance(EGGS, t=0.0)))
        second_turn = list(brain.respond(HeardUtterance("What's the capital of France?", t=20)))
        requests = [r for r in server.requests if r.get("stream")]
    finally:
        brain.close()
        server.stop()
    assert not Scheduler(store).active()
    # Refused once (Ollama's 400), asked again at once without tools, and not offered them again.
    offered, retried, later = requests
    assert offered["tools"] and "tools" not in retried and "tools" not in later
    for request in (retried, later):
        system = request["messages"][0]["content"]
        assert "you cannot set, change or cancel any of them" in system
        assert "set_timer" not in system
    assert said(first_turn) == ["Sure!", NOT_DONE]  # no claim said; a second denial left out
    [refused] = [p for p in first_turn if isinstance(p, Note) and p.event == "model_tools"]
    assert refused.fields == {"supported": False, "model": "llama3.2:3b"}
    assert said(second_turn) == ["Paris is the capital of France."]


def test_a_model_that_keeps_calling_tools_must_answer_in_words_after_three_rounds(database, store):
    server = serve(tools=True)
    server.responder = lambda request: (
        Reply(tool_calls=[tool_call("list_timers")]) if request.get("tools") else
        Reply(text="You have no timers running.")
    )  # fmt: skip
    parts = answered(database, store, server, HeardUtterance("Any timers going?", t=0.0))
    requests = server.chat_requests()
    assert [bool(r.get("tools")) for r in requests] == [True, True, True, False]
    assert said(parts) == ["You have no timers running."]
    assert len([p for p in parts if isinstance(p, Note) and p.event == "tool_call"]) == 3


def test_a_model_that_calls_a_tool_a_thousand_times_sets_a_few_timers(database, store):
    # A model looping on its own call: a thousand identical timers were set, each rang and was
    # announced, and nothing asked for twenty minutes was heard.
    looped = [tool_call("set_timer", seconds=15, name="eggs")] * 1000
    distinct = [tool_call("set_timer", seconds=60 + n, name=f"pot {n}") for n in range(12)]
    server = serve(tools=True)
    server.script(Reply(tool_calls=looped + distinct), Reply(text="Done."))
    parts = answered(database, store, server, HeardUtterance(EGGS, t=0.0))
    _, second = server.chat_requests()
    timers = Scheduler(store).active(ItemKind.TIMER)
    assert [timer.name for timer in timers] == ["eggs"] + [f"pot {n}" for n in range(7)]
    results = [result["content"] for result in tool_results(second)]
    assert len(results) == 1012  # every call has its result, as the API requires
    assert results.count("Error: the same call was made twice; it was carried out once") == 999
    assert sum("at most 8 calls are carried out" in text for text in results) == 5
    assert said(parts) == ["Done."]


def test_a_model_that_acts_and_then_says_nothing_is_heard_to_have_acted(database, store):
    server = serve(tools=True)
    server.script(Reply(tool_calls=[tool_call("set_timer", seconds=420, name="eggs")]),
                  Reply(text=" "))  # fmt: skip
    parts = answered(database, store, server, HeardUtterance(EGGS, t=0.0))
    assert Scheduler(store).active(ItemKind.TIMER)
    assert said(parts) == [DONE]


def test_a_tool_call_that_needs_a_choice_leaves_the_question_to_the_next_turn(database, store):
    server = serve(tools=True)
    server.script(
        Reply(tool_calls=[tool_call("set_timer", seconds=420, name="eggs"),
                          tool_call("set_timer", seconds=600, name="pasta")]),
        Reply(text="Two timers are going."),
        Reply(tool_calls=[tool_call("cancel_timer")]),
        Reply(text="You have two timers, eggs and pasta. Which one?"),
    )  # fmt: skip
    brain = brain_for(database, store, server)
    try:
        list(brain.respond(HeardUtterance("Eggs seven minutes and pasta ten, please.", t=0.0)))
        asked = list(brain.respond(HeardUtterance("Scrap one of them.", t=10.0)))
        answered = list(brain.respond(HeardUtterance("The eggs.", t=15.0)))
    finally:
        brain.close()
        server.stop()
    assert said(asked) == ["You have two timers, eggs and pasta.", "Which one?"]
    assert isinstance(asked[-1], AwaitAnswer)  # the follow-up window opens for the answer
    assert said(answered) == ["Eggs timer cancelled."]  # taken by the desk, no model
    assert len(server.chat_requests()) == 4
    assert [timer.name for timer in Scheduler(store).active(ItemKind.TIMER)] == ["pasta"]


def test_a_report_of_a_timer_set_in_an_earlier_turn_is_said_and_a_pretence_is_not(database, store):
    server = serve(tools=True)
    server.script(
        Reply(text="Your pasta timer is set for eight minutes."),
        Reply(text="Timer set for seven minutes."),
    )
    brain = brain_for(database, store, server)
    try:
        set_locally = list(brain.respond(HeardUtterance("Set a pasta timer for 8 minutes.", t=0)))
        report = said(brain.respond(HeardUtterance("Is my pasta on?", t=10.0)))
        pretence = said(brain.respond(HeardUtterance(EGGS, t=20.0)))
    finally:
        brain.close()
        server.stop()
    assert any(p.event == "timer_started" for p in set_locally if isinstance(p, Note))
    assert len(server.chat_requests()) == 2  # the timer was the desk's, with no model
    assert report == ["Your pasta timer is set for eight minutes."]
    assert pretence == [NOT_DONE]
    [timer] = Scheduler(store).active(ItemKind.TIMER)
    assert timer.name == "pasta"
