"""The ``hearth`` command line: global options, subcommands, one place mapping errors to exits."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence

from assistant.cli import check as check_commands
from assistant.cli import demo as demo_commands
from assistant.cli import memory as memory_commands
from assistant.cli import run as run_commands
from assistant.cli import schedule as schedule_commands
from assistant.cli import service as service_commands
from assistant.cli import voice as voice_commands
from assistant.cli.common import (
    EXIT_BROKEN_PIPE,
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    Failure,
    UserError,
)
from config import ConfigError

log = logging.getLogger(__name__)

COMMAND_MODULES = (
    run_commands,
    demo_commands,
    check_commands,
    voice_commands,
    memory_commands,
    schedule_commands,
    service_commands,
)


def global_options() -> argparse.ArgumentParser:
    """Options every command accepts, before or after the command name."""
    parser = argparse.ArgumentParser(add_help=False)
    # SUPPRESS lets the same option appear on the main parser and on each subcommand without the
    # subcommand's unset default overwriting a value given before the command name.
    parser.add_argument(
        "--config", metavar="PATH", default=argparse.SUPPRESS, help="extra settings file (YAML)"
    )
    parser.add_argument(
        "--db", metavar="PATH", default=argparse.SUPPRESS, help="memory database to use"
    )
    parser.add_argument(
        "-v", "--verbose", action="store_true", default=argparse.SUPPRESS, help="log more"
    )
    return parser


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every subcommand registered."""
    common = global_options()
    parser = argparse.ArgumentParser(
        prog="hearth",
        description="Hearth: a voice-first assistant for a small computer on a shelf.",
        parents=[common],
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in COMMAND_MODULES:
        module.register(subparsers, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``hearth`` console script; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    for name, default in (("config", None), ("db", None), ("verbose", False)):
        if not hasattr(args, name):
            setattr(args, name, default)
    configure_logging(args.verbose)
    try:
        return args.handler(args)
    except (UserError, ConfigError) as exc:
        print(f"hearth: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except Failure as exc:
        print(f"hearth: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    except KeyboardInterrupt:
        print("hearth: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader stopped reading: say nothing more, and keep Python's own flush at exit
        # from failing on the same pipe.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE


def configure_logging(verbose: bool) -> None:
    """Log to stderr; ``HEARTH_LOG_LEVEL`` or ``--verbose`` raise the detail."""
    level = os.environ.get("HEARTH_LOG_LEVEL", "DEBUG" if verbose else "WARNING").upper()
    logging.basicConfig(
        level=getattr(logging, level, logging.WARNING),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
