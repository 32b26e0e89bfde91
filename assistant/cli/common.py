"""What every subcommand shares: exit codes, the user-error type, settings from global options."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from config import Settings, load_settings

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2


class UserError(Exception):
    """Bad input from the person at the keyboard: printed plainly, exit code 2, no traceback."""


def settings_from(args: argparse.Namespace) -> Settings:
    """Load the settings named by the global ``--config`` option (plus the usual layers)."""
    return load_settings(Path(args.config) if args.config else None)


def print_json(value: Any) -> None:
    """Print one JSON document on stdout."""
    json.dump(value, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
