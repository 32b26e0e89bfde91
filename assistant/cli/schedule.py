"""``hearth schedule ...``: timers, alarms, reminders and routines from the command line."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime

from assistant.cli.common import (
    EXIT_FAILURE,
    EXIT_OK,
    UserError,
    print_json,
    record_id,
    refusal,
    settings_from,
)
from assistant.memory_setup import database_option
from assistant.schedule import (
    ACTIVE_STATES,
    EVERY_ROOM,
    Item,
    ItemKind,
    ItemState,
    ScheduleError,
    Scheduler,
    ScheduleStoreError,
    SystemClock,
    open_scheduler,
    say_length,
)
from assistant.schedule.clock import spoken_date, spoken_time
from assistant.schedule.phrasing import local_moment
from memory import StoreError


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``hearth schedule`` and its subcommands."""
    parser = subparsers.add_parser(
        "schedule", parents=[common], help="list and cancel timers, alarms, reminders, routines"
    )
    commands = parser.add_subparsers(dest="schedule_command", metavar="ACTION", required=True)
    listing = commands.add_parser(
        "list", parents=[common], help="list what is pending (with --all, everything kept)"
    )
    listing.add_argument("--all", action="store_true", help="include ended items")
    listing.add_argument(
        "--kind", choices=[kind.value for kind in ItemKind], help="only timers, alarms, ..."
    )
    listing.add_argument("--json", action="store_true", help="print JSON")
    listing.set_defaults(handler=_list)
    cancel = commands.add_parser("cancel", parents=[common], help="cancel one item by its id")
    cancel.add_argument("id", type=record_id("a schedule item's id"))
    cancel.add_argument("--json", action="store_true", help="print JSON")
    cancel.set_defaults(handler=_cancel)


def _open(args: argparse.Namespace) -> Scheduler:
    settings = settings_from(args)
    try:
        # Neither listing nor cancelling makes a memory where there is none.
        database = database_option(args.db) if args.db else None
        return open_scheduler(settings, database, create=False)
    except (ScheduleStoreError, StoreError) as exc:
        raise refusal(exc) from None


def _list(args: argparse.Namespace) -> int:
    scheduler = _open(args)
    try:
        now = SystemClock().now()
        items = scheduler.store.items(None if args.all else ACTIVE_STATES)
        items = [item for item in items if args.kind is None or item.kind.value == args.kind]
        if args.json:
            print_json([_json(item, now) for item in items])
        elif not items:
            print("nothing scheduled" if not args.all else "nothing kept")
        else:
            for item in items:
                print(_describe(item, now))
    finally:
        scheduler.store.close()
    return EXIT_OK


def _cancel(args: argparse.Namespace) -> int:
    scheduler = _open(args)
    try:
        now = SystemClock().now()
        try:
            scheduler.store.get(args.id)
        except KeyError:
            raise UserError(
                f"no schedule item #{args.id} (see: hearth schedule list --all)"
            ) from None
        try:
            item = scheduler.cancel(now, args.id)
        except ScheduleError as exc:
            print(f"hearth: {exc}", file=sys.stderr)
            return EXIT_FAILURE
        if args.json:
            print_json(_json(item, now))
        else:
            print(f"cancelled: {_describe(item, now)}")
    finally:
        scheduler.store.close()
    return EXIT_OK


def _json(item: Item, now) -> dict:
    document = item.to_json()
    document["left_seconds"] = item.left(now)
    moment = _due_local(item)
    document["due_local"] = moment.isoformat() if moment is not None else None
    return document


def _due_local(item: Item) -> datetime | None:
    """When the item is due, in its zone; None when it has no date a calendar holds (an item
    stored before timers were capped at a week, due in the year 116105)."""
    if item.due_at is None:
        return None
    try:
        return local_moment(item.due_at, item.zone)
    except (OverflowError, ValueError, OSError):
        return None


def _describe(item: Item, now) -> str:
    what = item.name or item.text or ""
    head = f"#{item.id} {item.kind.value}{' ' + what if what else ''} [{item.state.value}]"
    if item.room == EVERY_ROOM:
        head += " (every room)"
    if item.kind is ItemKind.TIMER and item.state in (ItemState.PENDING, ItemState.PAUSED):
        return f"{head} {say_length(item.left(now) or 0.0)} left"
    moment = _due_local(item)
    if moment is None:
        return head
    repeat = " (repeats)" if item.rule else ""
    return f"{head} {spoken_date(moment)} {spoken_time(moment)} {item.zone}{repeat}"
