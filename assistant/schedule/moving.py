"""Moving a device's timers, alarms and reminders still to come into another schedule: the
household's shared database, when ``hearth memory migrate`` moves the memory there, or back into
a file (the schedule lives beside the memory, and an alarm left behind would never ring)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from zoneinfo import ZoneInfo

from assistant.schedule.from_settings import SETTINGS_SOURCE
from assistant.schedule.items import ACTIVE_STATES, EVERY_ROOM, Item, ItemKind, ItemState
from assistant.schedule.scheduler import moved_on
from assistant.schedule.store import ScheduleStore
from assistant.schedule.timing import next_after


@dataclass(frozen=True)
class MovedItems:
    """What moving the schedule did: the new ids, and how many were there already."""

    added: tuple[int, ...]
    already_there: int


def move_items(source: ScheduleStore, target: ScheduleStore, now: float) -> MovedItems:
    """Copy this Hearth's items still to come (pending, paused or ringing) from ``source`` into
    ``target``, at wall time ``now``: its own ring in the target's room (this Hearth's), those
    for every room stay for every room; another room's stay where they are. An item already
    there (the same kind, words and time it was set) is left alone, so moving twice adds
    nothing. Routines from the settings are made again from them, so they are not moved."""
    there = {_identity(item) for item in target.items(all_rooms=True)}
    added: list[int] = []
    already_there = 0
    with target.atomic():
        for item in source.items(ACTIVE_STATES):  # shared: this room's and every room's
            if item.source.startswith(SETTINGS_SOURCE):
                continue
            if _identity(item) in there:
                already_there += 1
                continue
            moved = _as_moved(item, source)
            if moved is not None:
                added.append(target.add(moved, now).id)
    return MovedItems(tuple(added), already_there)


def _as_moved(item: Item, source: ScheduleStore) -> Item | None:
    """The item as the other schedule takes it, or None when nothing is left of it to move: one
    for every room as the household keeps it (not this room's progress), and one ringing here
    moved on to its next time (a timer, or an alarm or reminder that does not repeat, has
    rung: no other room says it again)."""
    rung = item.state is ItemState.RINGING  # here: for every room, this room's progress
    if item.room == EVERY_ROOM:
        item = source.get(item.id, household=True)
    else:
        item = replace(item, room=None)  # the target's room: this Hearth's
    if not rung:
        return item
    if item.kind is ItemKind.TIMER or item.rule is None or item.local_due is None:
        return None
    zone = ZoneInfo(item.zone)
    moved = moved_on(item, next_after(item.rule, datetime.fromisoformat(item.local_due), zone))
    return moved if moved.state is ItemState.PENDING else None


def _identity(item: Item) -> tuple[object, ...]:
    """What makes an item the same one on another database (its id does not)."""
    return (item.kind, item.created_at, item.name, item.text, item.rule, item.zone)
