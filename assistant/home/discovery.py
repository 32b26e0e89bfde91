"""Home Assistant's MQTT discovery documents for one Hearth: a device and its entities.

Each document is published retained on ``<prefix>/<component>/<device_id>/<key>/config``, so
Home Assistant finds the device whenever it starts. All entities share the device block (one
device per Hearth) and the availability topic, whose retained ``online`` and last will
``offline`` make Home Assistant show Hearth unavailable when it dies. Conventions as Home
Assistant 2024.3's MQTT integration reads them: ``unique_id`` per entity, ``object_id`` for a
predictable entity id, an ``enum`` sensor (its ``options`` are read by later releases; 2024.3
drops the key), an ``event`` entity with its ``event_types``, a ``text`` entity for
announcements (that release has no MQTT ``notify``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from assistant.home.device import (
    OFFLINE,
    ONLINE,
    SWITCH_OFF,
    SWITCH_ON,
    DeviceIdentity,
    DeviceState,
    DeviceTopics,
    EventType,
)

STOP_PAYLOAD = "PRESS"
TEXT_ENTITY_MAX_CHARS = 255
"""The longest text Home Assistant's text entity takes (its longest state)."""


@dataclass(frozen=True)
class DiscoveryDocument:
    """One entity's configuration for Home Assistant, published retained on ``topic``."""

    component: str
    key: str
    topic: str
    config: dict[str, Any]


def discovery_documents(
    identity: DeviceIdentity, topics: DeviceTopics
) -> tuple[DiscoveryDocument, ...]:
    """Every entity of one Hearth: state, microphone mute, volume, announce, stop, events, and
    the next timer or alarm."""
    entities: tuple[tuple[str, str, dict[str, Any]], ...] = (
        ("sensor", "state", {
            "name": "State",
            "state_topic": topics.state,
            "device_class": "enum",
            "options": [state.value for state in DeviceState],
            "icon": "mdi:account-voice",
        }),
        ("switch", "mute", {
            "name": "Microphone mute",
            "state_topic": topics.mute_state,
            "command_topic": topics.mute_command,
            "payload_on": SWITCH_ON,
            "payload_off": SWITCH_OFF,
            "icon": "mdi:microphone-off",
        }),
        ("number", "volume", {
            "name": "Volume",
            "state_topic": topics.volume_state,
            "command_topic": topics.volume_command,
            "min": 0,
            "max": 100,
            "step": 1,
            "unit_of_measurement": "%",
            "mode": "slider",
            "icon": "mdi:volume-high",
        }),
        ("text", "announce", {
            "name": "Announce",
            "command_topic": topics.announce_command,
            "min": 1,
            "max": TEXT_ENTITY_MAX_CHARS,
            "mode": "text",
            "icon": "mdi:bullhorn",
        }),
        ("button", "stop", {
            "name": "Stop",
            "command_topic": topics.stop_command,
            "payload_press": STOP_PAYLOAD,
            "icon": "mdi:stop-circle",
        }),
        ("event", "event", {
            "name": "Activity",
            "state_topic": topics.event,
            "event_types": [kind.value for kind in EventType],
            "icon": "mdi:bell-ring",
        }),
        ("sensor", "next_item", {
            "name": "Next timer or alarm",
            "state_topic": topics.next_item,
            "json_attributes_topic": topics.next_item_attributes,
            "device_class": "timestamp",
            "icon": "mdi:timer-outline",
        }),
    )  # fmt: skip
    shared = {
        "availability": [
            {
                "topic": topics.availability,
                "payload_available": ONLINE,
                "payload_not_available": OFFLINE,
            }
        ],
        "device": _device_block(identity),
        "origin": {"name": "Hearth", "sw_version": identity.version},
    }
    return tuple(
        DiscoveryDocument(
            component=component,
            key=key,
            topic=topics.discovery(component, key),
            config={
                **config,
                "unique_id": f"{identity.device_id}_{key}",
                "object_id": f"{identity.device_id}_{key}",
                **shared,
            },
        )
        for component, key, config in entities
    )


def _device_block(identity: DeviceIdentity) -> dict[str, Any]:
    device: dict[str, Any] = {
        "identifiers": [identity.device_id],
        "name": identity.name,
        "manufacturer": "Hearth",
        "model": "Hearth voice assistant",
        "sw_version": identity.version,
    }
    if identity.room:
        device["suggested_area"] = identity.room
    return device
