"""The home's tools for the model: a call becomes the sentence Home Assistant's default agent
carries out (pure), and through the brain with a real Home Assistant core and the Ollama-protocol
test server: a ``turn_on`` call turns on the demo kitchen light, a brightness call sets it, a
state question changes nothing, and a claim no call backs is not said."""

from __future__ import annotations

import pytest

from assistant.action_claims import NOT_DONE
from assistant.brain import Brain
from assistant.card_keeper import CardKeeper
from assistant.conversation import ConversationHistory
from assistant.home import HomeAssistantConversation, HomeControl, HomeTools
from assistant.home.tools import home_request
from assistant.model_tools import CANNOT_ELSE, Toolbox, ToolOutcome
from assistant.ollama import OllamaClient
from assistant.reply import HeardUtterance, Note, Sentence
from assistant.schedule import AudioClock, ScheduleDesk, Scheduler, ScheduleStore, ScheduleTools
from config import HomeAssistantSettings, OllamaSettings, packaged_file
from memory import Memory
from tests.ollama_server import OllamaServer, Reply, tool_call, tool_results
from tests.schedule.test_desk import LONDON
from tests.servers import wait_for

DARK = "It's far too dark in here, can you help?"
KITCHEN = "light.kitchen_lights"


@pytest.mark.parametrize(
    ("name", "arguments", "request_"),
    [
        ("turn_on", {"name": "kitchen lights"}, "turn on kitchen lights"),
        ("turn_off", {"name": "light.kitchen_lights"}, "turn off kitchen lights"),
        ("set_brightness", {"name": "bed light", "percent": 40}, "set bed light brightness to 40%"),
        ("set_brightness", {"name": "lamp", "percent": "55%"}, "set lamp brightness to 55%"),
        ("get_state", {"name": "back door"}, "what is the state of back door"),
    ],
)
def test_a_call_becomes_the_sentence_home_assistant_understands(name, arguments, request_):
    assert home_request(name, arguments) == request_


@pytest.mark.parametrize(
    ("name", "arguments", "why"),
    [
        ("turn_on", {}, "name is required"),
        ("turn_on", {"name": "  "}, "name is required"),
        ("set_brightness", {"name": "bed light", "percent": 140}, "from 0 to 100"),
        ("set_brightness", {"name": "bed light", "percent": 10**400}, "from 0 to 100"),
        ("set_brightness", {"name": "bed light", "percent": "bright"}, "not a number"),
        ("set_brightness", {"name": "bed light", "percent": True}, "must be a number"),
        ("open_pod_bay_doors", {"name": "pod bay"}, "no tool named"),
    ],
)
def test_a_bad_call_is_refused_with_the_reason(name, arguments, why):
    with pytest.raises(ValueError, match=why):
        home_request(name, arguments)


class _Named:
    abilities = "You can wave."

    def __init__(self, *names: str):
        self.schemas = tuple({"type": "function", "function": {"name": n}} for n in names)

    def run(self, name, arguments, audio_seconds):
        return ToolOutcome(f"{name} at {audio_seconds:g}", acted=True)


def test_a_toolbox_offers_every_set_and_hands_each_call_to_its_owner():
    box = Toolbox([_Named("wave"), _Named("bow")])
    assert [schema["function"]["name"] for schema in box.schemas] == ["wave", "bow"]
    assert box.abilities == f"You can wave. You can wave. {CANNOT_ELSE}"
    assert box.run("bow", {}, 3.0) == ToolOutcome("bow at 3", acted=True)
    unknown = box.run("fly", {}, 3.0)
    assert not unknown.acted and "no tool named 'fly'" in unknown.text
    with pytest.raises(ValueError, match="both name 'wave'"):
        Toolbox([_Named("wave"), _Named("wave")])


def _brain(database, url: str, desk: ScheduleDesk | None, home: HomeControl | None) -> Brain:
    return Brain(
        Memory.open(database),
        OllamaClient(OllamaSettings(url=url, connect_timeout_seconds=0.5)),
        CardKeeper(packaged_file("personality.yaml")),
        ConversationHistory(6000, compaction=False),
        desk=desk,
        home=home,
    )


def _offered(server: OllamaServer) -> set[str]:
    return {tool["function"]["name"] for tool in server.chat_requests()[0].get("tools", [])}


def test_the_home_tools_are_offered_only_with_home_assistant_configured(tmp_path):
    store = ScheduleStore.open(tmp_path / "memory.db")
    server = OllamaServer(tools=True).start()
    server.script(Reply(text="Sorry."))
    desk = ScheduleDesk(AudioClock(0.0), LONDON, Scheduler(store))
    brain = _brain(tmp_path / "memory.db", server.url, desk, None)
    try:
        list(brain.respond(HeardUtterance(DARK, t=0.0)))
        offered = _offered(server)
        system = server.chat_requests()[0]["messages"][0]["content"]
    finally:
        brain.close()
        server.stop()
        store.close()
    assert {"set_timer", "list_timers"} <= offered
    assert not offered & {schema["function"]["name"] for schema in HomeTools.schemas}
    assert "Home Assistant" not in system
    assert ScheduleTools.abilities in system and CANNOT_ELSE in system


def said(parts) -> list[str]:
    return [part.text for part in parts if isinstance(part, Sentence)]


@pytest.fixture
def home_control(home):
    control = HomeControl(
        HomeAssistantConversation(
            HomeAssistantSettings(url=home.url),
            environ={"HEARTH_HOME_ASSISTANT_TOKEN": home.token},
        )
    )
    yield control
    control.close()


def _light_off(home) -> None:
    home.call("light", "turn_off", entity_id=KITCHEN)
    wait_for("the kitchen light off", lambda: home.state(KITCHEN)["state"] == "off")


@pytest.mark.slow
def test_a_turn_on_call_turns_on_home_assistants_light_and_its_answer_goes_back(
    tmp_path, home, home_control
):
    _light_off(home)
    server = OllamaServer(tools=True).start()
    server.script(
        Reply(tool_calls=[tool_call("turn_on", name="kitchen lights")]),
        Reply(text="I've turned on the kitchen lights."),
    )
    brain = _brain(tmp_path / "memory.db", server.url, None, home_control)
    try:
        parts = list(brain.respond(HeardUtterance(DARK, t=0.0)))
        first, second = server.chat_requests()
    finally:
        brain.close()
        server.stop()
    assert home.state(KITCHEN)["state"] == "on"
    assert said(parts) == ["I've turned on the kitchen lights."]
    [call] = [p for p in parts if isinstance(p, Note) and p.event == "tool_call"]
    assert call.fields["acted"] is True and call.fields["result"] == "Turned on the light"
    [note] = [p for p in parts if isinstance(p, Note) and p.event == "home"]
    assert note.fields["request"] == "turn on kitchen lights" and note.fields["done"] is True
    assert {"turn_on", "turn_off", "set_brightness", "get_state"} <= {
        tool["function"]["name"] for tool in first["tools"]
    }
    assert "turn devices on (turn_on)" in first["messages"][0]["content"]
    [result] = tool_results(second)
    assert result == {"role": "tool", "content": "Turned on the light", "tool_name": "turn_on"}


@pytest.mark.slow
def test_a_brightness_call_sets_the_light_and_a_bad_one_changes_nothing(
    tmp_path, home, home_control
):
    _light_off(home)
    server = OllamaServer(tools=True).start()
    server.script(
        Reply(tool_calls=[tool_call("set_brightness", name="kitchen lights", percent=140)]),
        Reply(tool_calls=[tool_call("set_brightness", name="kitchen lights", percent=40)]),
        Reply(text="Brightness set to 40 percent."),
    )
    brain = _brain(tmp_path / "memory.db", server.url, None, home_control)
    try:
        parts = list(brain.respond(HeardUtterance("Make the kitchen softer.", t=0.0)))
        requests = server.chat_requests()
    finally:
        brain.close()
        server.stop()
    light = home.state(KITCHEN)
    assert light["state"] == "on" and light["attributes"]["brightness"] == 102  # 40% of 255
    [refused] = tool_results(requests[1])
    assert refused["content"].startswith("Error: percent=140 must be from 0 to 100")
    assert said(parts) == ["Brightness set to 40 percent."]


@pytest.mark.slow
def test_a_claim_after_only_a_state_question_is_not_said_and_nothing_changes(
    tmp_path, home, home_control
):
    _light_off(home)
    server = OllamaServer(tools=True).start()
    server.script(
        Reply(tool_calls=[tool_call("get_state", name="kitchen lights")]),
        Reply(text="I've turned on the kitchen lights. Enjoy your evening."),
    )
    brain = _brain(tmp_path / "memory.db", server.url, None, home_control)
    try:
        parts = list(brain.respond(HeardUtterance(DARK, t=0.0)))
        second = server.chat_requests()[1]
    finally:
        brain.close()
        server.stop()
    assert home.state(KITCHEN)["state"] == "off"
    [result] = tool_results(second)
    assert result["content"] == "Kitchen lights is Off"
    assert said(parts) == [NOT_DONE, "Enjoy your evening."]


@pytest.mark.slow
def test_a_device_home_assistant_does_not_know_is_said_in_its_words_and_not_claimed(
    tmp_path, home, home_control
):
    server = OllamaServer(tools=True).start()
    server.script(
        Reply(tool_calls=[tool_call("turn_on", name="hot tub")]),
        Reply(text="I've turned on the hot tub."),
    )
    brain = _brain(tmp_path / "memory.db", server.url, None, home_control)
    try:
        parts = list(brain.respond(HeardUtterance("Warm up the tub for me.", t=0.0)))
        second = server.chat_requests()[1]
    finally:
        brain.close()
        server.stop()
    [result] = tool_results(second)
    assert "hot tub" in result["content"]  # Home Assistant's own "not aware of any device"
    assert said(parts) == [NOT_DONE]
