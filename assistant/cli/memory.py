"""``hearth memory ...``: the fact store from the command line (a contract other tools rely on)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.cli.common import (
    EXIT_FAILURE,
    EXIT_OK,
    UserError,
    print_json,
    record_id,
    refusal,
    settings_from,
)
from assistant.memory_setup import database_option, memory_location, open_memory
from config.loader import memory_database_path
from memory import Fact, Kind, Memory, MemoryInputError, PostgresTarget, StoreError, read_export

if TYPE_CHECKING:
    from assistant.schedule.moving import MovedItems
    from config import Settings

Handler = Callable[[Memory, argparse.Namespace], int]
_FACT_ID = record_id("a fact id")


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``hearth memory`` and its subcommands."""
    parser = subparsers.add_parser(
        "memory", parents=[common], help="remember, list, resolve and forget facts"
    )
    commands = parser.add_subparsers(dest="memory_command", metavar="ACTION", required=True)

    def add(
        name: str, handler: Handler, help_text: str, writes: bool = False
    ) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, parents=[common], help=help_text, description=help_text)
        sub.set_defaults(handler=lambda args: _with_memory(args, handler, writes))
        return sub

    remember = add(
        "remember", _remember, "remember a fact (merged, linked as a conflict, or added)", True
    )
    remember.add_argument("text")
    remember.add_argument(
        "--kind",
        default="fact",
        help=f"one of {', '.join(k.value for k in Kind)} (free-form labels are mapped onto these)",
    )
    remember.add_argument("--pin", action="store_true", help="stated on purpose: never goes stale")
    _json_flag(remember)

    listing = add("list", _list, "list active facts")
    listing.add_argument(
        "--all", action="store_true", help="include superseded and forgotten facts"
    )
    _json_flag(listing)

    show = add("show", _show, "show one fact with its links and near-misses")
    show.add_argument("id", type=_FACT_ID)
    _json_flag(show)

    history = add("history", _history, "the append-only history, of one fact or of all")
    history.add_argument("id", type=_FACT_ID, nargs="?")
    _json_flag(history)

    forget = add("forget", _forget, "remove a fact's text for good (a tombstone stays)", True)
    forget.add_argument("id", type=_FACT_ID)
    _json_flag(forget)

    resolve = add(
        "resolve",
        _resolve,
        "keep a fact as current; the facts it conflicts with are superseded",
        True,
    )
    resolve.add_argument("id", type=_FACT_ID)
    resolve.add_argument(
        "--both", action="store_true", help="both sides are true: clear the conflict, keep both"
    )
    _json_flag(resolve)

    conflicts = add("conflicts", _conflicts, "list open conflicts")
    _json_flag(conflicts)

    recall = add("recall", _recall, "what Hearth would recall for an utterance, with the notice")
    recall.add_argument("text")
    _json_flag(recall)

    for name, pinned in (("pin", True), ("unpin", False)):
        pin = add(name, _pin_handler(pinned), f"{name} a fact", True)
        pin.add_argument("id", type=_FACT_ID)

    export = add("export", _export, "write every fact and the history to a JSON file, atomically")
    export.add_argument("path", type=Path)

    bring_in = add(
        "import",
        _import,
        "bring in the facts and history of an export (a fact already here is left as it is)",
        True,
    )
    bring_in.add_argument("path", type=Path)
    _json_flag(bring_in)
    # The export is read and checked before the memory is opened (or created) for it.
    bring_in.set_defaults(handler=_read_then_import)

    migrate_help = (
        "copy this memory (facts, history, conflicts, tombstones) into another database, e.g. "
        "a household's PostgreSQL; running it again adds nothing"
    )
    migrate = commands.add_parser(
        "migrate", parents=[common], help=migrate_help, description=migrate_help
    )
    migrate.add_argument(
        "--to",
        required=True,
        metavar="DATABASE",
        help="where to: a postgresql:// URL, or a SQLite file's path (to move back)",
    )
    _json_flag(migrate)
    migrate.set_defaults(handler=_migrate)


def _json_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON")


def _with_memory(args: argparse.Namespace, handler: Handler, writes: bool) -> int:
    settings = settings_from(args)
    try:
        # A command that only reads never creates a store (a mistyped --db stays a mistake).
        memory = open_memory(settings, _db_option(args), create=writes)
    except StoreError as exc:
        raise refusal(exc) from None
    try:
        return handler(memory, args)
    except (MemoryInputError, StoreError) as exc:
        raise refusal(exc) from None
    finally:
        memory.close()


def _db_option(args: argparse.Namespace) -> Path | str | None:
    """``--db`` as given (None: the settings' place)."""
    database = getattr(args, "db", None)
    if database is None:
        return None
    if not database.strip():
        raise UserError("--db: the memory database path is empty")
    return database_option(database)


def _describe(fact: Fact) -> str:
    status = "" if fact.status.value == "active" else f" ({fact.status.value})"
    pin = " [pinned]" if fact.pinned else ""
    text = fact.text if fact.text is not None else "<forgotten>"
    links = f"  conflicts with {', '.join(f'#{i}' for i in fact.conflicts_with)}"
    return f"#{fact.id} [{fact.kind.value}]{pin}{status} {text}" + (
        links if fact.conflicts_with else ""
    )


def _remember(memory: Memory, args: argparse.Namespace) -> int:
    outcome = memory.remember(args.text, args.kind, pinned=args.pin)
    if args.json:
        print_json(outcome.to_json())
        return EXIT_OK
    print(f"{outcome.action.value}: {_describe(outcome.fact)}")
    for other in outcome.conflicts:
        print(f"  disagrees with {_describe(other)}")
    if outcome.conflicts:
        print("  keep one with: hearth memory resolve ID  (or --both if both are true)")
    return EXIT_OK


def _list(memory: Memory, args: argparse.Namespace) -> int:
    facts = memory.facts(include_all=args.all)
    if args.json:
        print_json([fact.to_json() for fact in facts])
    else:
        for fact in facts:
            print(_describe(fact))
    return EXIT_OK


def _show(memory: Memory, args: argparse.Namespace) -> int:
    fact = memory.get(args.id)
    misses = memory.near_misses(args.id)
    if args.json:
        document = fact.to_json()
        document["near_misses"] = [
            {"fact_id": m.fact_id, "other_id": m.other_id, "score": round(m.score, 3),
             "kinds": [m.fact_kind.value, m.other_kind.value], "reason": m.reason}
            for m in misses
        ]  # fmt: skip
        print_json(document)
        return EXIT_OK
    print(_describe(fact))
    print(f"  confirmed {fact.confirm_count} time(s), last {fact.to_json()['confirmed_at']}")
    if fact.source.utterance:
        print(f"  heard in: {fact.source.utterance}")
    for miss in misses:
        other = miss.other_id if miss.fact_id == fact.id else miss.fact_id
        print(
            f"  near-miss with #{other} (score {miss.score:.2f}, kinds "
            f"{miss.fact_kind.value}/{miss.other_kind.value}): not claimed as a conflict"
        )
    return EXIT_OK


def _history(memory: Memory, args: argparse.Namespace) -> int:
    entries = memory.history(args.id)
    if args.json:
        print_json([entry.to_json() for entry in entries])
        return EXIT_OK
    for entry in entries:
        other = f" (#{entry.other_id})" if entry.other_id is not None else ""
        text = f" {entry.text}" if entry.text else ""
        print(f"{entry.to_json()['at']} #{entry.fact_id} {entry.action.value}{other}{text}")
    return EXIT_OK


def _forget(memory: Memory, args: argparse.Namespace) -> int:
    fact = memory.forget(args.id)
    if args.json:
        print_json(fact.to_json())
    else:
        print(f"forgotten: #{fact.id}")
    return EXIT_OK


def _resolve(memory: Memory, args: argparse.Namespace) -> int:
    if args.both:
        facts = memory.keep_both(args.id)
        if args.json:
            print_json({"kept": [fact.to_json() for fact in facts], "superseded": []})
        else:
            print("kept both: " + ", ".join(f"#{fact.id}" for fact in facts))
        return EXIT_OK
    superseded = memory.resolve(args.id)
    if args.json:
        print_json(
            {
                "kept": [memory.get(args.id).to_json()],
                "superseded": [f.to_json() for f in superseded],
            }
        )
    else:
        print(f"current: #{args.id}; superseded: " + ", ".join(f"#{f.id}" for f in superseded))
    return EXIT_OK


def _conflicts(memory: Memory, args: argparse.Namespace) -> int:
    pairs = memory.conflicts()
    if args.json:
        print_json([[pair.older.to_json(), pair.newer.to_json()] for pair in pairs])
        return EXIT_OK
    if not pairs:
        print("no open conflicts")
    for pair in pairs:
        print(f"{_describe(pair.older)}\n  vs {_describe(pair.newer)}")
    return EXIT_OK


def _recall(memory: Memory, args: argparse.Namespace) -> int:
    recall = memory.recall(args.text)
    if args.json:
        print_json(recall.to_json())
    else:
        print(recall.render() or "nothing relevant remembered")
    return EXIT_OK


def _pin_handler(pinned: bool) -> Handler:
    def handler(memory: Memory, args: argparse.Namespace) -> int:
        print(_describe(memory.set_pinned(args.id, pinned)))
        return EXIT_OK

    return handler


def _export(memory: Memory, args: argparse.Namespace) -> int:
    try:
        summary = memory.export(args.path)
    except OSError as exc:
        raise UserError(f"{args.path}: cannot write: {exc.strerror or exc}") from None
    print(f"exported {summary.facts} facts to {args.path}")
    if not summary.unreadable:
        return EXIT_OK
    # A partial save: the file holds all that could be read, and a script must still notice.
    records = (f"; {summary.records_left_out} history entries and tombstones of those facts "
               "are left out with them") if summary.records_left_out else ""  # fmt: skip
    print(f"damaged pages of {memory.store.path} could not be read: "
          f"{', '.join(summary.unreadable)}{records}. Everything else is in the export; the "
          "database is left as it is.", file=sys.stderr)  # fmt: skip
    return EXIT_FAILURE


def _read_then_import(args: argparse.Namespace) -> int:
    try:
        args.document = read_export(args.path)
    except MemoryInputError as exc:
        raise refusal(exc) from None
    return _with_memory(args, _import, writes=True)


def _import(memory: Memory, args: argparse.Namespace) -> int:
    outcome = memory.import_export(args.document)
    if args.json:
        print_json({"added": list(outcome.added), "already_there": outcome.already_there})
        return EXIT_OK
    print(
        f"imported {len(outcome.added)} facts from {args.path}"
        + (f"; {outcome.already_there} were already here" if outcome.already_there else "")
    )
    return EXIT_OK


def _migrate(args: argparse.Namespace) -> int:
    settings = settings_from(args)
    if not args.to.strip():
        raise UserError("--to: the database to migrate to is empty")
    try:
        source = memory_location(settings, _db_option(args))
        target = memory_location(settings, database_option(args.to))
    except StoreError as exc:
        raise refusal(exc) from None
    if _same_place(source, target):
        hint = ""
        if _db_option(args) is None:
            # The settings already name the shared memory: the device's own file is elsewhere.
            local = settings.memory.model_copy(update={"database": None})
            device = memory_database_path(settings.model_copy(update={"memory": local}))
            hint = (
                f"; your settings already use it: to move this device's file into it, name the "
                f"file: hearth memory migrate --db {device} --to {_shown(target)}"
            )
        raise UserError(f"--to {_shown(target)}: is the memory being migrated itself{hint}")
    try:
        memory = open_memory(settings, _option(source), create=False)
    except StoreError as exc:
        raise refusal(exc) from None
    try:
        destination = open_memory(settings, _option(target))
    except StoreError as exc:
        memory.close()
        raise refusal(exc) from None
    try:
        outcome = memory.migrate_to(destination)
    except (MemoryInputError, StoreError) as exc:
        raise refusal(exc) from None
    finally:
        memory.close()
        destination.close()
    items = _migrate_schedule(settings, source, target)
    if args.json:
        print_json({"added": list(outcome.added), "already_there": outcome.already_there,
                    "schedule_added": list(items.added),
                    "schedule_already_there": items.already_there,
                    "to": _shown(target)})  # fmt: skip
        return EXIT_OK
    moved = len(outcome.added)
    print(
        f"migrated {moved} fact{'' if moved == 1 else 's'} with their history and "
        f"{_counted(len(items.added), 'timer, alarm or reminder', 'timers, alarms and reminders')}"
        f" to {_shown(target)}"
        + (f"; {outcome.already_there} were already there" if outcome.already_there else "")
        + (f"; {items.already_there} of the schedule's too" if items.already_there else "")
    )
    return EXIT_OK


def _migrate_schedule(
    settings: Settings, source: Path | PostgresTarget, target: Path | PostgresTarget
) -> MovedItems:
    """Move the timers, alarms and reminders still to come with the memory: they live beside
    it, and one left behind would never ring."""
    from assistant.schedule import ScheduleStore, ScheduleStoreError
    from assistant.schedule.moving import move_items

    room = settings.household.room
    try:  # the locations as the settings made them: a password file, the timeouts
        here = ScheduleStore.open(source, room, create=False)
        try:
            there = ScheduleStore.open(target, room)
            try:
                return move_items(here, there, time.time())
            finally:
                there.close()
        finally:
            here.close()
    except (ScheduleStoreError, StoreError) as exc:
        error = refusal(exc)
        raise type(error)(f"the facts moved, the schedule did not: {error}") from None


def _counted(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def _option(location: Path | PostgresTarget) -> Path | str:
    return location.url if isinstance(location, PostgresTarget) else location


def _shown(location: Path | PostgresTarget) -> str:
    return location.shown if isinstance(location, PostgresTarget) else str(location)


def _same_place(first: Path | PostgresTarget, second: Path | PostgresTarget) -> bool:
    if isinstance(first, PostgresTarget) or isinstance(second, PostgresTarget):
        return first == second
    try:
        return first.resolve() == second.resolve() or first.samefile(second)
    except OSError:
        return False
