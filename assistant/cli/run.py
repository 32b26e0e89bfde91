"""``hearth run``: the assistant itself, on the sound devices or over a recording."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime, timedelta
from pathlib import Path

from assistant.arbitration import open_arbiter
from assistant.cli.common import (
    EXIT_FAILURE,
    EXIT_OK,
    UserError,
    check_card_file,
    check_distinct_files,
    check_output_file,
    model_address,
    settings_from,
)
from assistant.composition import build_brain, build_home_link, build_keeper, home_control
from assistant.home import SecretError
from assistant.home_link import HomeLink
from assistant.memory_setup import database_option
from assistant.schedule import make_clock, time_zone
from assistant.supervisor import RunFiles, Supervisor
from config import Settings
from memory import StoreError


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``hearth run``."""
    run = subparsers.add_parser(
        "run",
        parents=[common],
        help="run Hearth (live devices, or --input a recording)",
        description="Run Hearth. With --input, the WAV is the room's microphone: Hearth writes "
        "what it said to --output on the same timeline and exits at the end of the input.",
    )
    run.add_argument("--input", type=Path, help="a WAV recording to use as the microphone")
    run.add_argument("--output", type=Path, help="file mode: write what Hearth said to this WAV")
    run.add_argument("--events", type=Path, help="write every event as JSON lines to this file")
    run.add_argument("--card", type=Path, help="the personality card to use (YAML)")
    run.add_argument(
        "--start-time",
        metavar="ISO8601",
        help="file mode: the wall time the recording begins at, e.g. 2026-03-29T00:59:00+00:00 "
        "(without an offset: in the configured time zone; default: now)",
    )
    run.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    settings = settings_from(args)
    if args.output and not args.input:
        raise UserError("--output needs --input (live mode speaks through the speaker)")
    # Everything the run will need is checked first: a recording is heard to its end before the
    # output is written, and a mistake found only then would lose it.
    if args.input is not None:
        _check_recording(args.input)
    if args.output is not None:
        check_output_file(args.output, "--output")
    if args.events is not None:
        check_output_file(args.events, "--events", devices=True)
    check_distinct_files({"--input": args.input, "--output": args.output, "--events": args.events})
    check_card_file(args.card)
    model_address(settings)
    try:
        database = database_option(args.db) if args.db else None
    except StoreError as exc:
        raise UserError(str(exc)) from None
    start = _start_time(args.start_time, settings) if args.input is not None else None
    try:
        arbiter = open_arbiter(settings, database, make_clock(start))
    except SecretError as error:
        raise UserError(str(error)) from None
    supervisor = Supervisor(
        settings,
        lambda: build_brain(settings, database, args.card, start, arbiter),
        RunFiles(args.input, args.output, args.events),
        arbiter=arbiter,
        home=_home_link(settings, database, args.card, start),
        schedule=lambda: build_keeper(settings, database, start),
    )
    try:
        result = supervisor.run()
    finally:
        if arbiter is not None:
            arbiter.close()
    if supervisor.events.failure:
        raise UserError(supervisor.events.failure)
    return EXIT_OK if result == 0 else EXIT_FAILURE


def _home_link(
    settings: Settings, database: Path | str | None, card: Path | None, start: datetime | None
) -> HomeLink:
    """The link to the household, its secrets read now: a missing token or password is said
    before anything starts, not by a brain that cannot be built."""
    try:
        home = home_control(settings)
        if home is not None:
            home.close()
        return build_home_link(settings, database, card, start)
    except SecretError as error:
        raise UserError(str(error)) from None


def _start_time(text: str | None, settings: Settings) -> datetime:
    """``--start-time`` as an aware datetime (naive: in the configured zone); default: now."""
    zone = time_zone(settings)
    if text is None:
        return datetime.now(zone)
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UserError(
            f"--start-time {text!r}: not an ISO 8601 time such as 2026-03-29T07:00:00+01:00"
        ) from None
    moment = moment if moment.tzinfo is not None else moment.replace(tzinfo=zone)
    try:
        # The recording's clock runs on from here for hours, in UTC and in the local zone.
        (moment + timedelta(days=1)).astimezone(UTC).astimezone(zone)
        (moment - timedelta(days=1)).astimezone(UTC).astimezone(zone)
    except OverflowError:
        raise UserError(f"--start-time {text!r}: too near the end of the calendar") from None
    return moment


def _check_recording(path: Path) -> None:
    from audio import WavError, check_wav

    try:
        check_wav(path)
    except WavError as error:
        raise UserError(str(error)) from None
