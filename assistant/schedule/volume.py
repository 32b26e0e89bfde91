"""What a spoken volume request does to Hearth's output level, and what Hearth says back: pure.

"Mute" and "unmute" here are Hearth's output (it goes quiet, and keeps hearing); the microphone
mute is Home Assistant's switch. The sentence is said at the new level, so "louder" is heard
louder; nothing is said for "mute", which would not be heard.
"""

from __future__ import annotations

from typing import Protocol

from assistant.schedule.intents import Volume, VolumeChange
from audio import OutputLevel


class VolumeKeeper(Protocol):
    """Where the output level is kept (``assistant.output_levels.KeptLevels``)."""

    def output(self) -> OutputLevel:
        """The level now."""
        ...

    def keep_output(self, level: OutputLevel) -> bool:
        """Keep a new level; False when it could not be stored."""
        ...

    def close(self) -> None:
        """Let go of the store."""
        ...


def changed_level(old: OutputLevel, request: Volume) -> OutputLevel:
    """The level ``request`` asks for, from ``old``."""
    match request.change:
        case VolumeChange.UP:
            return old.louder()
        case VolumeChange.DOWN:
            return old.quieter()
        case VolumeChange.SET:
            return old.at(request.percent if request.percent is not None else old.percent)
        case VolumeChange.MUTE:
            return old.with_mute(True)
        case VolumeChange.UNMUTE:
            return old.with_mute(False)


def volume_said(old: OutputLevel, new: OutputLevel, request: Volume) -> str | None:
    """What Hearth says after the change (None: nothing, since it is muted)."""
    if new.muted:
        return None
    level = f"volume {new.percent} percent"
    if request.change is VolumeChange.UP and old.level == new.level == 1.0 and not old.muted:
        return "I'm already at full volume."
    if request.change is VolumeChange.DOWN and old.level == new.level and not old.muted:
        return f"I'm as quiet as I go, {level}. Say mute to silence me."
    if request.change is VolumeChange.UNMUTE:
        return f"Sound on, {level}." if old.muted else f"I'm not muted, {level}."
    return f"{level[:1].upper()}{level[1:]}."
