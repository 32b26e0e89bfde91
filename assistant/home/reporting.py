"""What Hearth's event stream means for its device in Home Assistant: pure.

The supervisor hands every event record it writes (``{"t", "event", ...}``) to a
:class:`StateReport`, which says when the state sensor changes, and to :func:`device_event`, which
says what the event entity fires; :func:`soonest` picks the next-item sensor's timer, alarm or
reminder from the schedule. Reading the same stream as a person debugging Hearth means the
sensor can never tell a different story from the events.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from assistant.home.device import DeviceEvent, DeviceState, EventType, ItemKind, NextItem
from assistant.schedule import Item, ItemState, Now
from assistant.schedule import ItemKind as ScheduleKind

_QUIET = (DeviceState.STANDBY, DeviceState.FOLLOW_UP)
_SPEECH_OVER = frozenset({"speak_end", "stop_speaking", "stop_requested"})
_SHOWN_KINDS = {
    ScheduleKind.TIMER: ItemKind.TIMER,
    ScheduleKind.ALARM: ItemKind.ALARM,
    ScheduleKind.REMINDER: ItemKind.REMINDER,
}
"""Routines run a prompt; they are not something a person waits for."""


class StateReport:
    """The state sensor's value, followed from the event stream.

    It is the listener's state, except that speech outside a conversation (an announcement, a
    hint) shows as speaking while it plays. A restarted voice process starts in standby.
    """

    def __init__(self) -> None:
        self._listener = DeviceState.STANDBY
        self._saying = False
        self.shown = DeviceState.STANDBY

    def observe(self, record: Mapping[str, Any]) -> DeviceState | None:
        """Take one event record; the new state when the sensor changes, else None."""
        event = record.get("event")
        if event == "state":
            try:
                self._listener = DeviceState(record.get("new"))
            except ValueError:
                return None  # a state Home Assistant's sensor does not list
        elif event == "speak_start":
            self._saying = True
        elif event in _SPEECH_OVER:
            self._saying = False
        elif event == "worker_restart":
            self._listener, self._saying = DeviceState.STANDBY, False
        else:
            return None
        shown = (
            DeviceState.SPEAKING if self._saying and self._listener in _QUIET else self._listener
        )
        if shown is self.shown:
            return None
        self.shown = shown
        return shown


def device_event(record: Mapping[str, Any]) -> DeviceEvent | None:
    """What the event entity fires for one event record (a wake, a finished timer, an alarm, a
    reminder), or None."""
    match record.get("event"):
        case "wake":
            return DeviceEvent(EventType.WAKE)
        case "timer_finished":
            return DeviceEvent(
                EventType.TIMER_FINISHED, _item_attributes(record, label=record.get("name"))
            )
        case "alarm_ringing":
            return DeviceEvent(EventType.ALARM, _item_attributes(record))
        case "reminder_due":
            return DeviceEvent(
                EventType.REMINDER, _item_attributes(record, label=record.get("text"))
            )
    return None


def _item_attributes(record: Mapping[str, Any], label: object = None) -> dict[str, str | int]:
    attributes: dict[str, str | int] = {"label": str(label or "")}
    if isinstance(record.get("item_id"), int):
        attributes["item_id"] = record["item_id"]
    return attributes


def soonest(items: Iterable[Item], now: Now) -> NextItem | None:
    """The timer, alarm or reminder due next at ``now`` (a paused timer is not due)."""
    best: tuple[float, Item] | None = None
    for item in items:
        if item.state is not ItemState.PENDING or item.kind not in _SHOWN_KINDS:
            continue
        due = item.due(now)
        if due is not None and (best is None or due < best[0]):
            best = (due, item)
    if best is None:
        return None
    due, item = best
    label = item.name or item.text or ""
    return NextItem(_SHOWN_KINDS[item.kind], datetime.fromtimestamp(due, UTC), label)
