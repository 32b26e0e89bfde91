"""Who this Hearth is on the household's MQTT broker, its topics, and what it reports there.

Pure values and encoders: the discovery documents (``discovery.py``) and the MQTT edge
(``mqtt_device.py``) both build on them, and tests read them with no broker.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from config import MqttSettings

ONLINE = "online"
OFFLINE = "offline"
SWITCH_ON = "ON"
SWITCH_OFF = "OFF"
NO_VALUE = "None"
"""What Home Assistant's MQTT sensors read as "unknown"."""


class DeviceState(StrEnum):
    """What Hearth is doing, as its state sensor shows it."""

    STANDBY = "standby"
    LISTENING = "listening"
    THINKING = "thinking"
    SPEAKING = "speaking"
    FOLLOW_UP = "follow_up"
    RINGING = "ringing"


class EventType(StrEnum):
    """What Hearth's event entity fires on (automations trigger on these)."""

    WAKE = "wake"
    TIMER_FINISHED = "timer_finished"
    ALARM = "alarm"
    REMINDER = "reminder"


class ItemKind(StrEnum):
    """Kinds of scheduled item the next-item sensor shows."""

    TIMER = "timer"
    ALARM = "alarm"
    REMINDER = "reminder"


@dataclass(frozen=True)
class NextItem:
    """The soonest timer, alarm or reminder."""

    kind: ItemKind
    due: datetime
    """When it rings; must carry its time zone (Home Assistant shows it in the house's)."""
    label: str = ""

    def __post_init__(self) -> None:
        if self.due.tzinfo is None:
            raise ValueError("NextItem.due needs a time zone")


@dataclass(frozen=True)
class DeviceEvent:
    """Something that happened, for the event entity: a wake, a finished timer."""

    type: EventType
    attributes: dict[str, str | float | int] = field(default_factory=dict)
    """Extra facts automations may read (the wake phrase, the timer's name)."""


@dataclass(frozen=True)
class DeviceIdentity:
    """One Hearth as Home Assistant knows it."""

    device_id: str
    """Unique among the household's Hearths; the root of its topics and unique ids."""
    name: str
    room: str | None
    version: str

    @classmethod
    def from_settings(cls, settings: MqttSettings, hostname: str, version: str) -> DeviceIdentity:
        """The identity the settings give: the configured id, else one made from the room, else
        from the host name."""
        source = settings.room or hostname
        device_id = settings.device_id or f"hearth_{slug(source)}"
        name = f"Hearth {settings.room}" if settings.room else f"Hearth ({hostname})"
        return cls(device_id=device_id, name=name, room=settings.room, version=version)


def slug(text: str) -> str:
    """``text`` as an MQTT- and entity-id-safe word: "Living room" -> "living_room"."""
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "hearth"


@dataclass(frozen=True)
class DeviceTopics:
    """Every topic one Hearth uses, under ``hearth/<device_id>`` and the discovery prefix."""

    device_id: str
    discovery_prefix: str = "homeassistant"

    @property
    def base(self) -> str:
        """The root of this Hearth's own topics."""
        return f"hearth/{self.device_id}"

    @property
    def availability(self) -> str:
        """Retained ``online``; the broker's last will sets ``offline``."""
        return f"{self.base}/availability"

    @property
    def state(self) -> str:
        return f"{self.base}/state"

    @property
    def mute_state(self) -> str:
        return f"{self.base}/mute"

    @property
    def mute_command(self) -> str:
        return f"{self.base}/mute/set"

    @property
    def volume_state(self) -> str:
        return f"{self.base}/volume"

    @property
    def volume_command(self) -> str:
        return f"{self.base}/volume/set"

    @property
    def announce_command(self) -> str:
        return f"{self.base}/announce"

    @property
    def stop_command(self) -> str:
        return f"{self.base}/stop"

    @property
    def event(self) -> str:
        return f"{self.base}/event"

    @property
    def next_item(self) -> str:
        return f"{self.base}/next_item"

    @property
    def next_item_attributes(self) -> str:
        return f"{self.base}/next_item/attributes"

    @property
    def presence_ask(self) -> str:
        """Where another client with this Hearth's id asks whether it is here (a token)."""
        return f"{self.base}/presence/ask"

    @property
    def presence_answer(self) -> str:
        """Where the Hearth holding the id sends the token back: it is here."""
        return f"{self.base}/presence/answer"

    @property
    def home_assistant_status(self) -> str:
        """Home Assistant's own birth topic: ``online`` when it (re)starts."""
        return f"{self.discovery_prefix}/status"

    @property
    def commands(self) -> tuple[str, ...]:
        """The topics Home Assistant sends commands on."""
        return (self.mute_command, self.volume_command, self.announce_command, self.stop_command)

    @property
    def subscriptions(self) -> tuple[str, ...]:
        """What the device subscribes to: the commands, Home Assistant's birth topic, and the
        question whether it is here."""
        return (*self.commands, self.home_assistant_status, self.presence_ask)

    @property
    def check(self) -> str:
        """Where ``hearth check`` sends its probe under the base topic (nothing listens)."""
        return f"{self.base}/check"

    @property
    def discovery_check(self) -> str:
        """Where ``hearth check`` sends its probe under the discovery prefix: beside the
        device's discovery topics, but not ending in ``config``, which is all Home Assistant
        subscribes to there."""
        return f"{self.discovery_prefix}/sensor/{self.device_id}/check"

    def discovery(self, component: str, key: str) -> str:
        """The discovery topic of one entity: ``<prefix>/<component>/<device_id>/<key>/config``."""
        return f"{self.discovery_prefix}/{component}/{self.device_id}/{key}/config"


def mute_payload(muted: bool) -> str:
    """The microphone switch's state."""
    return SWITCH_ON if muted else SWITCH_OFF


def volume_payload(level: float) -> str:
    """The volume number's state: percent of full volume, from a level of 0.0 to 1.0."""
    if not 0.0 <= level <= 1.0:
        raise ValueError(f"volume level {level} is outside 0.0 to 1.0")
    return str(round(level * 100))


def next_item_payloads(item: NextItem | None) -> tuple[str, str]:
    """The next-item sensor's state (ISO 8601 timestamp, or unknown) and its attributes."""
    if item is None:
        return NO_VALUE, json.dumps({})
    attributes = {"kind": item.kind.value, "label": item.label}
    return item.due.isoformat(timespec="seconds"), json.dumps(attributes)


def event_payload(event: DeviceEvent) -> str:
    """The event entity's message: its type and the attributes automations can read."""
    return json.dumps({**event.attributes, "event_type": event.type.value})
