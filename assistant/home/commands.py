"""What Home Assistant asks of Hearth over MQTT, parsed from a topic and its payload.

A pure parser: a known topic with a good payload becomes a typed command; anything else raises
``CommandError`` saying exactly what was wrong, for the log (Home Assistant cannot hear a reply).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from assistant.home.device import SWITCH_OFF, SWITCH_ON, DeviceTopics

ANNOUNCE_MAX_CHARS = 2000
"""An automation may publish straight to the topic, past the text entity's 255: say that much,
refuse more (a runaway template, not an announcement)."""


@dataclass(frozen=True)
class Announce:
    """Say ``text`` in the room, in the card's voice, when no one is in the middle of a request."""

    text: str


@dataclass(frozen=True)
class SetMute:
    """Close (True) or open (False) the microphone."""

    muted: bool


@dataclass(frozen=True)
class SetVolume:
    """Speak at ``level`` of full volume, 0.0 to 1.0."""

    level: float


@dataclass(frozen=True)
class Stop:
    """Stop speaking or ringing, as a spoken "stop" would."""


Command = Announce | SetMute | SetVolume | Stop


class CommandError(ValueError):
    """A message on a command topic that is not a command Hearth can carry out."""


def parse_command(topics: DeviceTopics, topic: str, payload: bytes) -> Command:
    """The command a message on one of ``topics.commands`` carries.

    Raises:
        CommandError: an unknown topic, a payload that is not UTF-8, or a value out of range.
    """
    try:
        text = payload.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise CommandError(f"{topic}: the payload is not UTF-8 text") from None
    if topic == topics.stop_command:
        return Stop()
    if topic == topics.mute_command:
        return _mute(topic, text)
    if topic == topics.volume_command:
        return _volume(topic, text)
    if topic == topics.announce_command:
        return _announce(topic, text)
    raise CommandError(f"{topic}: not one of Hearth's command topics")


def _mute(topic: str, text: str) -> SetMute:
    if text.upper() == SWITCH_ON:
        return SetMute(True)
    if text.upper() == SWITCH_OFF:
        return SetMute(False)
    raise CommandError(f"{topic}: microphone mute is {SWITCH_ON} or {SWITCH_OFF}, not {text!r}")


def _volume(topic: str, text: str) -> SetVolume:
    try:
        percent = float(text)
    except ValueError:
        raise CommandError(f"{topic}: volume is a number of percent, not {text[:40]!r}") from None
    if not math.isfinite(percent) or not 0 <= percent <= 100:
        raise CommandError(f"{topic}: volume is 0 to 100 percent, not {text[:40]}")
    return SetVolume(percent / 100)


def _announce(topic: str, text: str) -> Announce:
    if not text:
        raise CommandError(f"{topic}: an announcement needs some text")
    if len(text) > ANNOUNCE_MAX_CHARS:
        raise CommandError(
            f"{topic}: an announcement of {len(text)} characters is longer than the "
            f"{ANNOUNCE_MAX_CHARS} Hearth says"
        )
    return Announce(" ".join(text.split()))
