"""What every subcommand shares: exit codes, the user-error type, settings from global options."""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from assistant.ollama import BadModelAddress, ollama_base_url
from config import Settings, load_settings
from support import holds_sqlite_database

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
"""Stopped by Ctrl-C (128 + SIGINT, as shells report it): never success, so a script's
``hearth memory migrate ... && rm memory.db`` does not go on."""
EXIT_BROKEN_PIPE = 141
"""The reader of the output went away (128 + SIGPIPE): ``hearth memory list | head``."""


class UserError(Exception):
    """Bad input from the person at the keyboard: printed plainly, exit code 2, no traceback."""


class Failure(Exception):
    """A good request that could not be carried out now (the memory database busy or out of
    reach, the disk full or failing): printed plainly, exit code 1, no traceback."""


def refusal(error: Exception) -> Exception:
    """A memory's or a schedule's error as the command line reports it: a Failure when the
    request was good and the store could not carry it out, otherwise a UserError (the user's
    to fix)."""
    # The stores load only for the commands that use them.
    from assistant.schedule import ScheduleFailure
    from memory import StoreFailure

    failed = isinstance(error, (StoreFailure, ScheduleFailure))
    return Failure(str(error)) if failed else UserError(str(error))


def settings_from(args: argparse.Namespace) -> Settings:
    """Load the settings named by the global ``--config`` option (plus the usual layers)."""
    return load_settings(Path(args.config) if args.config else None)


def print_json(value: Any) -> None:
    """Print one JSON document on stdout."""
    json.dump(value, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def model_address(settings: Settings) -> str:
    """The language model's address, or a UserError for an ``OLLAMA_HOST`` that is not one."""
    try:
        return ollama_base_url(settings.ollama)
    except BadModelAddress as error:
        raise UserError(f"{error}; fix it, or set ollama.url in the settings") from None


def record_id(what: str) -> Callable[[str], int]:
    """An argparse type for the id of a record (``what``: "a fact id"): a whole number written
    in ASCII digits. One no record can have (0, past the largest integer) is parsed as it is, to
    be told there is no such record."""

    def parse(text: str) -> int:
        digits = text.strip().removeprefix("-").removeprefix("+")
        if not (digits.isascii() and digits.isdigit()):
            raise argparse.ArgumentTypeError(f"{what} is a whole number, not {text!r}")
        return int(text)

    return parse


def check_output_file(path: Path, what: str, *, devices: bool = False) -> None:
    """Refuse, before any work is done, a file that Hearth could not write at the end.

    ``what`` names it in the message ("--output"). A file is written beside itself and renamed
    into place, so its folder must exist and be writable, and the name must not be a folder;
    with ``devices``, a device (``/dev/stdout``) may take it instead, appended to as it is.
    A SQLite database (the memory, a schedule) is never written over.
    """
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise UserError(f"{what} {path}: {error.strerror}") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise UserError(f"{what} {path}: is a folder; give the name of a file to write")
    if mode is not None and not stat.S_ISREG(mode):
        if devices:
            return
        raise UserError(f"{what} {path}: is not a regular file")
    if holds_sqlite_database(path):
        raise UserError(
            f"{what} {path}: is a SQLite database (a memory or schedule?); Hearth never writes "
            "over one: give a new file"
        )
    folder = path.parent
    if not folder.is_dir():
        raise UserError(f"{what} {path}: the folder {folder} does not exist")
    writable = os.access(folder, os.W_OK | os.X_OK)
    if not writable or (mode is not None and not os.access(path, os.W_OK)):
        raise UserError(f"{what} {path}: no permission to write there")


def check_card_file(card: Path | None) -> None:
    """Refuse a ``--card`` that names no file: a mistyped path, not a card being edited (whose
    mistakes are said aloud while Hearth runs on)."""
    if card is not None and not card.is_file():
        raise UserError(f"{card}: no such personality card")


def check_distinct_files(named: dict[str, Path | None]) -> None:
    """Refuse two options naming the same file (``--output`` over the ``--input`` recording)."""
    given = [(option, path) for option, path in named.items() if path is not None]
    for index, (option, path) in enumerate(given):
        for other, other_path in given[index + 1 :]:
            if _same_file(path, other_path):
                raise UserError(
                    f"{option} and {other} name the same file ({path}); give each its own"
                )


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one does not exist yet: compare where they would be
        return a.resolve() == b.resolve()
