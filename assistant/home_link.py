"""The supervisor's side of the household: Hearth's output level and microphone, kept across
restarts and given to every voice process, and (with ``mqtt:``) its device in Home Assistant.

The supervisor asks it, on its own loop, for what each new voice process must be told
(:meth:`HomeLink.voice_setup`), for what Home Assistant asked since the last step
(:meth:`HomeLink.take`, as voice commands and announcements to say), and hands it every event
record it writes (:meth:`HomeLink.observe`), from which the state sensor and the event entity
follow. Nothing here waits on the broker: a broker that is down costs Hearth nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from assistant.card_keeper import CardKeeper
from assistant.home import (
    Announce,
    MqttDevice,
    SetMute,
    SetVolume,
    StateReport,
    Stop,
    device_event,
    soonest,
)
from assistant.output_levels import KeptLevels
from assistant.schedule import ACTIVE_STATES, Clock, ScheduleStore, ScheduleStoreError
from audio import Command, OutputLevel, SetMicrophone, SetOutput, StopSaying

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Announcement:
    """Something to say in the room when nobody is in the middle of a request, in the card's
    voice."""

    text: str
    voice: str | None
    speed: float | None


Order = Command | Announcement
"""What the supervisor is to do for Home Assistant: send a command, or announce."""


class HomeLink:
    """Output level, microphone and the MQTT device, for one supervisor."""

    def __init__(
        self,
        levels: KeptLevels,
        cards: CardKeeper,
        device: MqttDevice | None = None,
        schedule: Callable[[], ScheduleStore] | None = None,
        clock: Clock | None = None,
    ):
        """``schedule`` opens the schedule (read only here) for the next-item sensor, read on
        ``clock``; both are needed only with a ``device``."""
        self._levels = levels
        self._cards = cards
        self._device = device
        self._open_schedule = schedule
        self._clock = clock
        self._schedule: ScheduleStore | None = None
        self._schedule_version: int | None = None
        self._schedule_failing = False
        self._state = StateReport()

    # -- the supervisor's side ---------------------------------------------------------------

    def start(self) -> None:
        """Connect to the broker (in the background) with the kept states to show."""
        if self._device is None:
            return
        self._device.publish_state(self._state.shown)
        self._device.publish_mute(self._levels.microphone_muted())
        self._device.publish_volume(self._levels.output().level)
        self._device.start()

    def voice_setup(self) -> list[Command]:
        """What a voice process is told as it starts: the kept output level and microphone."""
        return [SetOutput(self._levels.output()), SetMicrophone(self._levels.microphone_muted())]

    def volume_changed(self, level: OutputLevel) -> Command:
        """The brain changed the volume by voice (and kept it): the command for the voice
        process, and Home Assistant is shown it."""
        if self._device is not None:
            self._device.publish_volume(level.level)
        return SetOutput(level)

    def take(self, audio_seconds: float) -> list[Order]:
        """What Home Assistant asked for since the last call; the next-item sensor follows the
        schedule (``audio_seconds``: the audio clock, which file mode's schedule runs on)."""
        if self._device is None:
            return []
        self._follow_schedule(audio_seconds)
        orders: list[Order] = []
        for command in self._device.take_commands():
            match command:
                case Announce(text=text):
                    voice = self._cards.current().card.voice
                    orders.append(Announcement(text, voice.piper_voice, voice.speed))
                case SetMute(muted=muted):
                    self._levels.keep_microphone(muted)
                    self._device.publish_mute(muted)
                    orders.append(SetMicrophone(muted))
                case SetVolume(level=level):
                    new = OutputLevel(round(level, 2))  # a level asked for is meant to be heard
                    self._levels.keep_output(new)
                    self._device.publish_volume(new.level)
                    orders.append(SetOutput(new))
                case Stop():
                    orders.append(StopSaying())
        return orders

    def observe(self, record: dict[str, Any]) -> None:
        """One event record as it is written: the state sensor and the event entity follow."""
        if self._device is None:
            return
        state = self._state.observe(record)
        if state is not None:
            self._device.publish_state(state)
        event = device_event(record)
        if event is not None:
            self._device.publish_event(event)

    def close(self) -> None:
        """Say offline and disconnect; close the stores."""
        if self._device is not None:
            self._device.close()
        if self._schedule is not None:
            self._schedule.close()
        self._levels.close()

    # -- the next-item sensor ----------------------------------------------------------------

    def _follow_schedule(self, audio_seconds: float) -> None:
        """Publish the soonest item whenever the schedule has changed (``data_version`` tells,
        without reading a table)."""
        if self._open_schedule is None or self._clock is None or self._device is None:
            return
        try:
            if self._schedule is None:
                self._schedule = self._open_schedule()
            version = self._schedule.data_version()
            if version == self._schedule_version:
                return
            items = self._schedule.items(ACTIVE_STATES)
        except ScheduleStoreError as error:
            if not self._schedule_failing:
                log.warning("cannot read the schedule for Home Assistant: %s", error)
            self._schedule_failing = True
            self._schedule_version = None
            return
        self._schedule_failing = False
        self._schedule_version = version
        self._device.publish_next_item(soonest(items, self._clock.now(audio_seconds)))
