"""Hearth in the household's Home Assistant: an MQTT discovery device, and home control through
Home Assistant's conversation API.

The names below are the package's public API.
"""

from assistant.home.commands import (
    Announce,
    Command,
    CommandError,
    SetMute,
    SetVolume,
    Stop,
    parse_command,
)
from assistant.home.conversation import (
    SPOKEN_PROBLEMS,
    HomeAnswer,
    HomeAssistantConversation,
    HomeProblem,
)
from assistant.home.device import (
    DeviceEvent,
    DeviceIdentity,
    DeviceState,
    DeviceTopics,
    EventType,
    ItemKind,
    NextItem,
)
from assistant.home.discovery import DiscoveryDocument, discovery_documents
from assistant.home.home_requests import is_home_request
from assistant.home.mqtt_device import MqttDevice, broker_address, broker_client, connect_failure
from assistant.home.probes import Probe, probe_broker, probe_home_assistant
from assistant.home.reporting import StateReport, device_event, soonest
from assistant.home.secrets import SecretError, read_secret
from assistant.home.tools import HomeTools
from assistant.home.voice_control import HomeControl

__all__ = [
    "SPOKEN_PROBLEMS",
    "Announce",
    "Command",
    "CommandError",
    "DeviceEvent",
    "DeviceIdentity",
    "DeviceState",
    "DeviceTopics",
    "DiscoveryDocument",
    "EventType",
    "HomeAnswer",
    "HomeAssistantConversation",
    "HomeControl",
    "HomeProblem",
    "HomeTools",
    "ItemKind",
    "MqttDevice",
    "NextItem",
    "Probe",
    "SecretError",
    "SetMute",
    "SetVolume",
    "StateReport",
    "Stop",
    "broker_address",
    "broker_client",
    "connect_failure",
    "device_event",
    "discovery_documents",
    "is_home_request",
    "parse_command",
    "probe_broker",
    "probe_home_assistant",
    "read_secret",
    "soonest",
]
