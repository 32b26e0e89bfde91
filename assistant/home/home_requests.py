"""Which utterances are about the home, for Home Assistant rather than the language model.

Conservative on purpose: a request goes to Home Assistant only when it has the shape of a home
command or question ("turn on the kitchen lights", "is the back door locked?", "set the living
room to 20 degrees") and names a device or a room. Anything else stays with the model, which in
phase 2 can still reach Home Assistant as a tool. Text is matched as tiny.en writes it:
capitals, punctuation, "20 degrees" or "twenty degrees", a "please" before or after.
"""

from __future__ import annotations

import re

DEVICES = (
    "light lights lamp lamps lighting fan fans heater heating thermostat radiator boiler "
    "air conditioning air conditioner aircon ac tv television plug plugs socket sockets outlet "
    "switch blinds blind curtains curtain shades shade shutters shutter cover covers garage "
    "garage door gate door doors lock locks window windows vacuum hoover kettle coffee machine "
    "sprinkler sprinklers dehumidifier humidifier purifier"
)
ROOMS = (
    "kitchen living room lounge bedroom bathroom hall hallway office study garage garden porch "
    "basement attic dining room nursery landing patio upstairs downstairs front back"
)
_DEVICE_WORDS = frozenset(DEVICES.split())
_ROOM_WORDS = frozenset(ROOMS.split())
_NOT_HOME = frozenset("alarm alarms timer timers reminder reminders music song volume".split())
"""Things Hearth itself turns on and off: they are never Home Assistant's to handle."""

_POLITE = re.compile(
    r"^(?:(?:please|kindly|hey|ok|okay|so|and|now|can you|could you|would you|will you)\s+)+"
)
_POLITE_END = re.compile(r"\s+(?:please|for me|thanks|thank you)$")
_DEVICE = frozenset({"device"})
_DEVICE_OR_ROOM = frozenset({"device", "room"})
_ROOM = frozenset({"room"})
_SHAPES: tuple[tuple[re.Pattern[str], frozenset[str]], ...] = (
    # turn on the kitchen lights / switch off the fan / put the heating on / turn the lamp off
    (re.compile(r"^(?:turn|switch|put)\s+(?:on|off|up|down)\s+(?P<thing>.+)$"), _DEVICE),
    (re.compile(r"^(?:turn|switch|put)\s+(?P<thing>.+?)\s+(?:on|off|up|down)$"), _DEVICE),
    # dim the bedroom lamp / brighten the lights
    (re.compile(r"^(?:dim|brighten)\s+(?P<thing>.+)$"), _DEVICE),
    # open the garage door / close the blinds / lock the back door
    (re.compile(r"^(?:open|close|shut|raise|lower|lock|unlock)\s+(?P<thing>.+)$"), _DEVICE),
    # is the back door locked / are the lights on in the kitchen ("lock": tiny.en across a room)
    (re.compile(
        r"^(?:is|are)\s+(?P<thing>.+?)\s+"
        r"(?:on|off|open|closed|shut|locked|lock|unlocked|running)"
        r"(?:\s+in\s+(?P<room>.+))?$"
    ), _DEVICE),
    # set the living room to 20 degrees / set the bedroom lights to blue
    (re.compile(r"^set\s+(?P<thing>.+?)\s+to\s+\S.*$"), _DEVICE_OR_ROOM),
    # what's the temperature in the living room / how warm is it in the bedroom (tiny.en may
    # write the "the" as another short word: "what's not temperature in the living room")
    (re.compile(
        r"^(?:what's|what is|how)\s+(?:\w+\s+)?(?:temperature|warm|cold|hot|humid)"
        r"(?:\s+is\s+it)?\s+in\s+(?P<room>.+)$"
    ), _ROOM),
)  # fmt: skip


def is_home_request(text: str) -> bool:
    """Whether ``text`` asks Home Assistant to act on, or tell about, a device or a room."""
    said = _normal(text)
    for shape, needs in _SHAPES:
        match = shape.match(said)
        if match is None:
            continue
        words = set(" ".join(part for part in match.groupdict().values() if part).split())
        if words & _NOT_HOME:
            return False
        named = {"device"} if words & _DEVICE_WORDS else set()
        named |= {"room"} if words & _ROOM_WORDS else set()
        if named & needs:
            return True
    return False


def _normal(text: str) -> str:
    said = re.sub(r"[^\w'%]+", " ", text.lower()).strip()
    said = _POLITE.sub("", said)
    return _POLITE_END.sub("", said).strip()
