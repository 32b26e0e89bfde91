"""The discovery documents and state payloads, as pure values: what Home Assistant will read."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta, timezone

import pytest

from assistant.home import (
    Announce,
    DeviceEvent,
    DeviceIdentity,
    DeviceState,
    DeviceTopics,
    EventType,
    ItemKind,
    NextItem,
    SetMute,
    SetVolume,
    Stop,
    discovery_documents,
    parse_command,
)
from assistant.home.device import event_payload, next_item_payloads, volume_payload
from config import MqttSettings

# Home Assistant 2024.3's own pattern for a discovery topic under its prefix
# (homeassistant/components/mqtt/discovery.py, TOPIC_MATCHER).
HA_TOPIC = re.compile(
    r"(?P<component>\w+)/(?:(?P<node_id>[a-zA-Z0-9_-]+)/)?(?P<object_id>[a-zA-Z0-9_-]+)/config"
)

KITCHEN = DeviceIdentity("hearth_kitchen", "Hearth Kitchen", "Kitchen", "1.2.3")


def documents(identity=KITCHEN, prefix="homeassistant"):
    return discovery_documents(identity, DeviceTopics(identity.device_id, prefix))


def test_one_device_with_every_entity_the_issue_asks_for():
    by_component = {(doc.component, doc.key) for doc in documents()}
    assert by_component == {
        ("sensor", "state"), ("switch", "mute"), ("number", "volume"), ("text", "announce"),
        ("button", "stop"), ("event", "event"), ("sensor", "next_item"),
    }  # fmt: skip
    devices = {json.dumps(doc.config["device"], sort_keys=True) for doc in documents()}
    assert len(devices) == 1, "every entity belongs to the same device"
    device = documents()[0].config["device"]
    assert device["identifiers"] == ["hearth_kitchen"]
    assert device["name"] == "Hearth Kitchen"
    assert device["suggested_area"] == "Kitchen"
    assert device["sw_version"] == "1.2.3"


def test_topics_are_ones_home_assistant_discovers():
    for doc in documents(prefix="ha/discovery"):
        assert doc.topic.startswith("ha/discovery/")
        match = HA_TOPIC.fullmatch(doc.topic.removeprefix("ha/discovery/"))
        assert match is not None, doc.topic
        assert match["component"] == doc.component
        assert match["node_id"] == "hearth_kitchen"
        assert match["object_id"] == doc.key


def test_unique_ids_are_unique_and_entity_ids_predictable():
    ids = [doc.config["unique_id"] for doc in documents()]
    assert len(set(ids)) == len(ids)
    assert all(doc.config["object_id"] == f"hearth_kitchen_{doc.key}" for doc in documents())


def test_every_entity_follows_one_availability_topic_with_online_and_offline():
    topics = DeviceTopics("hearth_kitchen")
    for doc in documents():
        assert doc.config["availability"] == [
            {"topic": topics.availability, "payload_available": "online",
             "payload_not_available": "offline"}
        ]  # fmt: skip


def test_the_state_sensor_offers_exactly_hearths_states():
    state = next(doc for doc in documents() if doc.key == "state")
    assert state.config["device_class"] == "enum"
    assert state.config["options"] == [
        "standby", "listening", "thinking", "speaking", "follow_up", "ringing"
    ]  # fmt: skip


def test_the_event_entity_fires_on_wakes_and_finished_timers():
    event = next(doc for doc in documents() if doc.component == "event")
    assert {"wake", "timer_finished"} <= set(event.config["event_types"])
    assert set(event.config["event_types"]) == {kind.value for kind in EventType}


def test_every_advertised_command_topic_is_one_the_parser_understands():
    topics = DeviceTopics("hearth_kitchen")
    sample = {"mute": (b"ON", SetMute(True)), "volume": (b"35", SetVolume(0.35)),
              "announce": (b"Dinner is ready", Announce("Dinner is ready")),
              "stop": (b"PRESS", Stop())}  # fmt: skip
    commanded = [doc for doc in documents() if "command_topic" in doc.config]
    assert {doc.key for doc in commanded} == set(sample)
    for doc in commanded:
        payload, expected = sample[doc.key]
        assert parse_command(topics, doc.config["command_topic"], payload) == expected
    assert {doc.config["command_topic"] for doc in commanded} == set(topics.commands)


def test_two_hearths_share_no_topic_and_no_id():
    living = DeviceIdentity.from_settings(MqttSettings(room="Living room"), "pi", "1")
    kitchen = DeviceIdentity.from_settings(MqttSettings(room="Kitchen"), "pi", "1")
    assert living.device_id == "hearth_living_room"
    first, second = documents(living), documents(kitchen)
    assert not {d.topic for d in first} & {d.topic for d in second}
    assert not {d.config["unique_id"] for d in first} & {d.config["unique_id"] for d in second}
    assert not {d.config.get("command_topic") for d in first} & {
        d.config.get("command_topic") for d in second
    } - {None}


def test_identity_from_the_room_else_the_host_else_as_configured():
    assert DeviceIdentity.from_settings(MqttSettings(), "Pi-Kitchen.local", "1") == (
        DeviceIdentity("hearth_pi_kitchen_local", "Hearth (Pi-Kitchen.local)", None, "1")
    )
    named = DeviceIdentity.from_settings(MqttSettings(room="Den", device_id="den2"), "pi", "1")
    assert (named.device_id, named.name, named.room) == ("den2", "Hearth Den", "Den")
    no_room = next(d for d in documents(DeviceIdentity("x", "Hearth (pi)", None, "1")))
    assert "suggested_area" not in no_room.config["device"]


def test_volume_is_shown_in_percent():
    assert volume_payload(0.4) == "40"
    assert volume_payload(1.0) == "100"
    with pytest.raises(ValueError, match="outside"):
        volume_payload(1.5)


def test_the_next_item_is_a_timestamp_with_its_zone_or_unknown():
    due = datetime(2026, 12, 1, 18, 30, tzinfo=timezone(timedelta(hours=1)))
    state, attributes = next_item_payloads(NextItem(ItemKind.TIMER, due, "pasta"))
    assert state == "2026-12-01T18:30:00+01:00"
    assert json.loads(attributes) == {"kind": "timer", "label": "pasta"}
    assert next_item_payloads(None) == ("None", "{}")
    with pytest.raises(ValueError, match="time zone"):
        NextItem(ItemKind.ALARM, datetime(2026, 12, 1, 7, 0))
    assert NextItem(ItemKind.ALARM, datetime(2026, 12, 1, 7, tzinfo=UTC)).label == ""


def test_an_event_carries_its_type_and_attributes():
    payload = json.loads(event_payload(DeviceEvent(EventType.WAKE, {"phrase": "hey jarvis"})))
    assert payload == {"event_type": "wake", "phrase": "hey jarvis"}
    # The type cannot be overridden by an attribute of the same name.
    clash = DeviceEvent(EventType.TIMER_FINISHED, {"event_type": "wake"})
    assert json.loads(event_payload(clash))["event_type"] == "timer_finished"


def test_state_values_are_the_sensor_options():
    assert [state.value for state in DeviceState] == next(
        doc for doc in documents() if doc.key == "state"
    ).config["options"]
