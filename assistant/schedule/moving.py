"""Moving a device's timers, alarms and reminders still to come into another schedule: the
household's shared database, when ``hearth memory migrate`` moves the memory there (the
schedule lives beside the memory, and an alarm left behind would never ring again)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from assistant.schedule.items import ACTIVE_STATES, EVERY_ROOM, Item
from assistant.schedule.store import ScheduleStore

SETTINGS_SOURCE = "settings:"
"""A routine from the settings is made again from them on the new schedule, so it is not moved."""


@dataclass(frozen=True)
class MovedItems:
    """What moving the schedule did: the new ids, and how many were there already."""

    added: tuple[int, ...]
    already_there: int


def move_items(source: ScheduleStore, target: ScheduleStore, now: float) -> MovedItems:
    """Copy the items still to come (pending, paused or ringing) from ``source`` into
    ``target``, at wall time ``now``: this device's ring in the target's room (this Hearth's),
    those for every room stay for every room. An item already there (the same kind, words and
    time it was set) is left alone, so moving twice adds nothing."""
    there = {_identity(item) for item in target.items(all_rooms=True)}
    added: list[int] = []
    already_there = 0
    with target.atomic():
        for item in source.items(ACTIVE_STATES, all_rooms=True):
            if item.source.startswith(SETTINGS_SOURCE):
                continue
            if _identity(item) in there:
                already_there += 1
                continue
            room = EVERY_ROOM if item.room == EVERY_ROOM else None
            added.append(target.add(replace(item, room=room), now).id)
    return MovedItems(tuple(added), already_there)


def _identity(item: Item) -> tuple[object, ...]:
    """What makes an item the same one on another database (its id does not)."""
    return (item.kind, item.created_at, item.name, item.text, item.rule, item.zone)
