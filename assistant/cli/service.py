"""``hearth install-service``: set Hearth up as a systemd service (user, config, unit, enable).

``assistant.service_plan`` decides the steps from what this module finds on the machine; this
module prints them (``--dry-run``) or carries them out in order, stopping at the first failure.
``--prefix DIR`` installs into DIR as if it were ``/`` and leaves the running system alone.
"""

from __future__ import annotations

import argparse
import grp
import os
import pwd
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import TextIO

from assistant.cli.common import EXIT_FAILURE, EXIT_OK, UserError
from assistant.service_plan import (
    CONFIG_DIR,
    CONFIG_FILES,
    SOUND_GROUP,
    UNIT_NAME,
    UNIT_PATH,
    Machine,
    MakeDirectory,
    Request,
    Run,
    ServiceRequestError,
    Step,
    WriteFile,
    check_request,
    describe,
    plan,
    settings_template,
)
from config import SETTINGS_FILE, packaged_file
from support import write_atomically

# Looking at the machine ---------------------------------------------------------------------------


def look_at(request: Request) -> Machine:
    """Gather the facts for ``plan``: the target's users, files and systemd."""
    users, groups = _accounts(request.prefix)
    user_groups = {name for name, members in groups.items() if request.user in members}
    primary = users.get(request.user)
    user_groups |= {name for name, gid in _group_ids(request.prefix).items() if gid == primary}
    candidates = [request.target(CONFIG_DIR), request.target(UNIT_PATH).parent]
    candidates += [request.target(CONFIG_DIR) / name for name in CONFIG_FILES]
    unit = request.target(UNIT_PATH)
    return Machine(
        user_exists=request.user in users,
        user_groups=frozenset(user_groups),
        sound_group_exists=SOUND_GROUP in groups,
        existing=frozenset(path for path in candidates if path.exists()),
        installed_unit=unit.read_text() if unit.is_file() else None,
        has_systemctl=shutil.which("systemctl") is not None,
        systemd_running=request.prefix is None and Path("/run/systemd/system").is_dir(),
    )


def _accounts(prefix: Path | None) -> tuple[dict[str, int], dict[str, set[str]]]:
    """Users with their primary group ID, and groups with their members."""
    if prefix is None:
        users = {entry.pw_name: entry.pw_gid for entry in pwd.getpwall()}
        groups = {entry.gr_name: set(entry.gr_mem) for entry in grp.getgrall()}
        return users, groups
    users = {fields[0]: int(fields[3]) for fields in _colon_file(prefix / "etc/passwd", 4, 3)}
    groups = {
        fields[0]: set(filter(None, fields[3].split(",")))
        for fields in _colon_file(prefix / "etc/group", 4, 2)
    }
    return users, groups


def _group_ids(prefix: Path | None) -> dict[str, int]:
    if prefix is None:
        return {entry.gr_name: entry.gr_gid for entry in grp.getgrall()}
    return {fields[0]: int(fields[2]) for fields in _colon_file(prefix / "etc/group", 3, 2)}


def _colon_file(path: Path, fields: int, number: int) -> list[list[str]]:
    """The well-formed records of a passwd-style file, with at least ``fields`` fields and a
    whole number in field ``number`` (none when it is missing). A malformed line is skipped, as
    the C library's own readers skip it."""
    if not path.is_file():
        return []
    text = path.read_text(encoding="utf-8", errors="replace")
    records = [line.split(":") for line in text.splitlines()]
    return [
        record
        for record in records
        if len(record) >= fields
        and record[0]
        and record[number].isascii()
        and record[number].isdigit()
    ]


# Carrying the plan out ----------------------------------------------------------------------------

Runner = Callable[[Sequence[str]], None]


def run_command(argv: Sequence[str]) -> None:
    """Run a command, its output going to the terminal; raise CalledProcessError on failure."""
    subprocess.run(argv, check=True)


def carry_out(steps: Sequence[Step], out: TextIO, run: Runner | None = None) -> None:
    """Take every step in order, saying what each does; stop at the first that fails.

    ``run`` runs the commands (default: ``run_command``, looked up at call time)."""
    run = run or run_command
    for step in steps:
        for line in describe(step):
            print(line, file=out, flush=True)
        match step:
            case Run(argv):
                run(argv)
            case MakeDirectory(path, mode):
                path.mkdir(mode=mode, parents=True, exist_ok=True)
                path.chmod(mode)
            case WriteFile():
                if not write_file(step):
                    print(f"note   {step.path} appeared meanwhile: kept", file=out)


def write_file(step: WriteFile) -> bool:
    """Write atomically and durably; False if it exists and may not be replaced (never over a
    user's edits)."""
    return write_atomically(step.path, step.text, mode=step.mode, replace=step.replace)


# The command --------------------------------------------------------------------------------------


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``hearth install-service``."""
    parser = subparsers.add_parser(
        "install-service",
        parents=[common],
        help="set Hearth up as a system service (run as root)",
        description="Create the system user (in the audio group), copy the default settings to "
        "/etc/hearth unless they are there already, write the hardened unit to "
        "/etc/systemd/system/hearth.service running this installation's hearth, and enable and "
        "start it.",
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="print every step and change nothing"
    )
    parser.add_argument(
        "--user", default="hearth", help="the system user the service runs as (default: hearth)"
    )
    parser.add_argument(
        "--prefix",
        type=Path,
        metavar="DIR",
        help="install into DIR as if it were / (an image being built); nothing is started",
    )
    parser.set_defaults(handler=_install_service)


def installed_hearth() -> Path:
    """The ``hearth`` script of the running installation (beside its Python)."""
    # No resolve(): a virtual environment's python is a link to the system one, and the
    # environment's bin directory is the one that holds hearth.
    return Path(os.path.abspath(sys.executable)).parent / "hearth"


def installed_code() -> Path:
    """Where the running Hearth's code is (a clone's folder when installed with ``pip -e``)."""
    return Path(str(resources.files("assistant"))).parent


def config_copies() -> dict[str, str]:
    """What install-service puts in /etc/hearth: the card to edit, the settings commented out."""
    copies = {name: packaged_file(name).read_text(encoding="utf-8") for name in CONFIG_FILES}
    copies[SETTINGS_FILE] = settings_template(copies[SETTINGS_FILE])
    return copies


def _install_service(args: argparse.Namespace) -> int:
    if not args.dry_run and os.geteuid() != 0:
        raise UserError(
            "install-service changes the system: run it as root "
            f"(sudo {installed_hearth()} install-service), or add --dry-run to see the steps"
        )
    prefix = None
    if args.prefix is not None:
        if not args.prefix.is_dir():
            raise UserError(f"--prefix {args.prefix}: no such directory")
        prefix = Path(os.path.abspath(args.prefix))
    request = Request(args.user, installed_hearth(), prefix, code=installed_code())
    try:
        check_request(request)
    except ServiceRequestError as error:
        raise UserError(str(error)) from None
    if not os.access(request.executable, os.X_OK):
        raise UserError(
            f"no hearth program at {request.executable}: run install-service with the hearth "
            "of the installation the service should use"
        )
    template = resources.files("assistant").joinpath(UNIT_NAME).read_text(encoding="utf-8")
    steps = plan(request, look_at(request), template, config_copies())
    if args.dry_run:
        print("Dry run: the steps install-service would take; nothing is changed.")
        for step in steps:
            print("\n".join(describe(step)))
        return EXIT_OK
    try:
        carry_out(steps, sys.stdout)
    except (subprocess.CalledProcessError, OSError) as error:
        print(f"hearth: install-service stopped: {error}", file=sys.stderr)
        return EXIT_FAILURE
    if any(isinstance(step, Run) and "--now" in step.argv for step in steps):
        print("Hearth runs as a service: `systemctl status hearth`, `journalctl -u hearth`.")
    else:
        print("Done.")
    return EXIT_OK
