"""The home's tools for a model that calls tools: turn a device on or off, set a light's
brightness, ask a device's state, each carried out by Home Assistant's conversation agent through
:class:`HomeControl` (the one path to Home Assistant the voice uses too).

A call becomes the sentence Home Assistant's default agent understands ("turn on kitchen
lights", "set kitchen lights brightness to 40%", "what is the state of kitchen lights"); its
answer is the result sent back to the model. A call acted only when Home Assistant says it did
(an action done, not a question answered or an error), so a claim can be checked against it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from assistant.action_claims import ActionKind
from assistant.home.voice_control import HomeControl
from assistant.model_tools import ToolOutcome
from assistant.reply import Note

ABILITIES = (
    "You can control the home through Home Assistant: turn devices on (turn_on) and off "
    "(turn_off), set a light's brightness (set_brightness) and ask a device's state (get_state), "
    "naming the device as the user does (kitchen lights). Say that a device changed only when the "
    "tool's result says it did; otherwise say what the result says."
)

_NAME = {"type": "string", "description": "The device's name, e.g. kitchen lights."}
SCHEMAS: tuple[dict[str, Any], ...] = tuple(
    {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {"type": "object", "properties": properties, "required": required},
        },
    }
    for name, description, properties, required in (
        ("turn_on", "Turn a device in the home on.", {"name": _NAME}, ["name"]),
        ("turn_off", "Turn a device in the home off.", {"name": _NAME}, ["name"]),
        (
            "set_brightness",
            "Set a light's brightness, in percent.",
            {"name": _NAME, "percent": {"type": "number", "description": "0 to 100."}},
            ["name", "percent"],
        ),
        ("get_state", "Whether a device is on, off, open, locked...", {"name": _NAME}, ["name"]),
    )
)

_ACTIONS = frozenset({"turn_on", "turn_off", "set_brightness"})


class HomeTools:
    """The home's tools, carried out by Home Assistant."""

    schemas = SCHEMAS
    abilities = ABILITIES
    kind = ActionKind.HOME

    def __init__(self, home: HomeControl):
        self.home = home

    def run(self, name: str, arguments: Mapping[str, Any], audio_seconds: float) -> ToolOutcome:
        """Carry out one call (``audio_seconds`` is not needed: Home Assistant acts now); a bad
        argument or an unknown tool does nothing, and the result says why."""
        try:
            request = home_request(name, arguments)
        except ValueError as error:
            return ToolOutcome(f"Error: {error}")
        answer = self.home.request(request)
        fields: dict[str, Any] = {"request": request, "speech": answer.speech, "done": answer.done}
        if answer.problem is not None:
            fields["problem"] = answer.problem.value
        acted = answer.done and name in _ACTIONS
        return ToolOutcome(answer.speech, (Note("home", fields),), acted)


def home_request(name: str, arguments: Mapping[str, Any]) -> str:
    """The sentence Home Assistant's default agent carries out for one call.

    Raises:
        ValueError: an unknown tool, no device named, or a brightness that is not 0 to 100.
    """
    device = _device(arguments.get("name"))
    if name == "turn_on":
        return f"turn on {device}"
    if name == "turn_off":
        return f"turn off {device}"
    if name == "get_state":
        return f"what is the state of {device}"
    if name == "set_brightness":
        percent = arguments.get("percent")
        if isinstance(percent, str):  # small models often quote numbers
            percent = percent.strip().rstrip("%")
            try:
                percent = float(percent)
            except ValueError:
                raise ValueError(f"percent={arguments['percent']!r} is not a number") from None
        if isinstance(percent, bool) or not isinstance(percent, int | float):
            raise ValueError("percent must be a number from 0 to 100")
        try:
            percent = float(percent)  # an integer of 400 digits has no float: OverflowError
        except OverflowError:
            raise ValueError("percent must be a number from 0 to 100") from None
        if not math.isfinite(percent) or not 0 <= percent <= 100:
            raise ValueError(f"percent={percent:g} must be from 0 to 100")
        return f"set {device} brightness to {round(percent)}%"
    raise ValueError(f"there is no tool named {name!r}")


def _device(value: object) -> str:
    """The device as Home Assistant's agent names it: an entity id (``light.kitchen_lights``) as
    its words, since the agent matches names and aliases, not ids."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError("name is required: the device, e.g. kitchen lights")
    said = value.strip()
    domain, dot, rest = said.partition(".")
    if dot and rest and " " not in said and domain.isidentifier():
        said = rest
    return said.replace("_", " ")
