"""The plan of ``hearth install-service``: every step of setting Hearth up as a systemd service.

A pure function turns what is asked (``Request``) and what the target system looks like
(``Machine``) into a list of steps: commands to run, directories to make, files to write, and
notes on what is skipped and why. ``assistant.cli.service`` looks at the machine, prints the plan
for ``--dry-run`` and otherwise carries it out; tests read plans without touching a system.
With a prefix (an image being built, or a test) every path lands under it, the user tools get
``--prefix`` and systemctl ``--root``, and nothing is started.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

UNIT_NAME = "hearth.service"
UNIT_PATH = Path("/etc/systemd/system") / UNIT_NAME
CONFIG_DIR = Path("/etc/hearth")
CONFIG_FILES = ("assistant.yaml", "personality.yaml")
STATE_DIR = Path("/var/lib/hearth")
"""The unit's StateDirectory, also the service user's home."""
SOUND_GROUP = "audio"
HIDDEN_FROM_SERVICE = {
    Path("/home"): "ProtectHome=yes",
    Path("/root"): "ProtectHome=yes",
    Path("/run/user"): "ProtectHome=yes",
    Path("/tmp"): "PrivateTmp=yes",
    Path("/var/tmp"): "PrivateTmp=yes",
}
"""What the unit hides from the service, and the setting that hides it: an installation there
cannot start."""
_USER_NAME = re.compile(r"[a-z_][a-z0-9_-]{0,31}")


# The steps of a plan -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """Run a command."""

    argv: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class MakeDirectory:
    """Create a directory (and its parents)."""

    path: Path
    mode: int


@dataclass(frozen=True)
class WriteFile:
    """Write a file atomically; with ``replace`` false, never over an existing one."""

    path: Path
    text: str
    mode: int
    why: str
    replace: bool = True
    show: bool = False
    """Print the whole text in a dry run (the unit), not only the file name."""


@dataclass(frozen=True)
class Note:
    """Something skipped or left to the user, and why."""

    text: str


Step = Run | MakeDirectory | WriteFile | Note


# What is asked, and what the machine looks like ---------------------------------------------------


@dataclass(frozen=True)
class Request:
    """The options of one ``install-service``."""

    user: str
    executable: Path
    """The ``hearth`` the service runs."""
    prefix: Path | None = None
    code: Path | None = None
    """Where Hearth's code lives, if not beside ``executable`` (an editable install's clone)."""

    def target(self, path: Path) -> Path:
        """Where a system path lands: itself, or the same path under the prefix."""
        return path if self.prefix is None else self.prefix / path.relative_to("/")


@dataclass(frozen=True)
class Machine:
    """The facts about the target system the plan depends on."""

    user_exists: bool
    user_groups: frozenset[str]
    sound_group_exists: bool
    existing: frozenset[Path]
    """Which of the target directories and files already exist (paths as the plan writes them)."""
    installed_unit: str | None
    has_systemctl: bool
    systemd_running: bool


class ServiceRequestError(ValueError):
    """A request the service could not run with (the message says why and what to do)."""


def check_request(request: Request) -> None:
    """Raise ServiceRequestError for a request the service could not run with."""
    if not _USER_NAME.fullmatch(request.user):
        raise ServiceRequestError(f"--user {request.user!r}: not a valid name for a system user")
    if request.user == "root":
        raise ServiceRequestError(
            "--user root: the service is hardened to run as an unprivileged user"
        )
    executable = request.executable
    if not executable.is_absolute() or "\n" in str(executable):
        raise ServiceRequestError(f"{executable}: the service needs an absolute path to hearth")
    for needed in (executable, request.code):
        hidden = next((h for h in HIDDEN_FROM_SERVICE if needed and needed.is_relative_to(h)), None)
        if hidden is not None:
            raise ServiceRequestError(
                f"{needed} is under {hidden}, which the service cannot see "
                f"({HIDDEN_FROM_SERVICE[hidden]}): install Hearth outside home and temporary "
                "folders and without -e, e.g. "
                "python3 -m venv /opt/hearth/venv && /opt/hearth/venv/bin/pip install "
                "'/path/to/hearth[models]', then run /opt/hearth/venv/bin/hearth install-service"
            )


# The planner -------------------------------------------------------------------------------------


def plan(
    request: Request, machine: Machine, template: str, defaults: Mapping[str, str]
) -> list[Step]:
    """Every step of the installation, in order; ``defaults`` maps config file names to text."""
    return [
        *_user_steps(request, machine),
        *_config_steps(request, machine, defaults),
        *_unit_steps(request, machine, template),
        *_systemctl_steps(request, machine),
    ]


def _user_steps(request: Request, machine: Machine) -> list[Step]:
    prefix = ("--prefix", str(request.prefix)) if request.prefix else ()
    steps: list[Step] = []
    if not machine.sound_group_exists:
        steps.append(
            Run(
                ("groupadd", *prefix, "--system", SOUND_GROUP),
                "create the group that owns the sound devices",
            )
        )
    if machine.user_exists:
        steps.append(Note(f"user {request.user} already exists: kept as it is"))
    else:
        argv = (
            "useradd",
            *prefix,
            "--system",
            "--user-group",
            "--home-dir",
            str(STATE_DIR),
            "--no-create-home",
            "--shell",
            "/usr/sbin/nologin",
            request.user,
        )
        steps.append(Run(argv, f"create the system user {request.user}"))
    if SOUND_GROUP not in machine.user_groups:
        argv = ("usermod", *prefix, "--append", "--groups", SOUND_GROUP, request.user)
        steps.append(Run(argv, f"let {request.user} use the sound devices"))
    return steps


SETTINGS_TEMPLATE_HEADER = (
    "# Hearth's settings for the service. Every setting is shown with its packaged default,\n"
    "# commented out: uncomment and change only what you need, so an upgrade's new defaults\n"
    "# still reach the rest.\n"
)


def settings_template(packaged: str) -> str:
    """The packaged settings with every setting commented out, for /etc/hearth/assistant.yaml."""
    lines = [
        line if not line.strip() or line.lstrip().startswith("#") else f"# {line}"
        for line in packaged.splitlines()
    ]
    return SETTINGS_TEMPLATE_HEADER + "\n".join(lines) + "\n"


def _config_steps(request: Request, machine: Machine, defaults: Mapping[str, str]) -> list[Step]:
    directory = request.target(CONFIG_DIR)
    steps: list[Step] = []
    if directory not in machine.existing:
        steps.append(MakeDirectory(directory, 0o755))
    for name in CONFIG_FILES:
        path = directory / name
        if path in machine.existing:
            steps.append(Note(f"{path} exists: kept (your settings are never overwritten)"))
        else:
            why = f"a copy of the packaged {name} to edit"
            steps.append(WriteFile(path, defaults[name], 0o644, why, replace=False))
    return steps


def _unit_steps(request: Request, machine: Machine, template: str) -> list[Step]:
    path = request.target(UNIT_PATH)
    text = render_unit(template, request.executable, request.user)
    if machine.installed_unit == text:
        return [Note(f"{path} is already up to date")]
    steps: list[Step] = []
    if path.parent not in machine.existing:
        steps.append(MakeDirectory(path.parent, 0o755))
    if machine.installed_unit is not None:
        steps.append(
            Note(f"{path} differs and is replaced; keep local changes in `systemctl edit hearth`")
        )
    steps.append(WriteFile(path, text, 0o644, "the service unit", show=True))
    return steps


def _systemctl_steps(request: Request, machine: Machine) -> list[Step]:
    if not machine.has_systemctl:
        return [
            Note(
                "no systemctl here: once systemd runs, enable the service with "
                f"`systemctl daemon-reload && systemctl enable --now {UNIT_NAME}`"
            )
        ]
    if request.prefix is not None:
        return [
            Run(
                ("systemctl", f"--root={request.prefix}", "enable", UNIT_NAME),
                f"start it at every boot of the system in {request.prefix}",
            ),
            Note(f"with --prefix nothing is started: the system in {request.prefix} starts it"),
        ]
    if not machine.systemd_running:
        return [
            Run(("systemctl", "enable", UNIT_NAME), "start it at every boot"),
            Note("systemd is not running here: the service is enabled for the next boot only"),
        ]
    steps: list[Step] = [Run(("systemctl", "daemon-reload"), "make systemd read the unit")]
    if machine.installed_unit is not None:
        why = "restart it if it was running, so the new unit takes effect"
        steps.append(Run(("systemctl", "try-restart", UNIT_NAME), why))
    steps.append(Run(("systemctl", "enable", "--now", UNIT_NAME), "start it now and at every boot"))
    return steps


INSTALLED_HEADER = """\
# Written by `hearth install-service` from the unit packaged with Hearth; running it again
# replaces this file. Keep local changes in a drop-in: `systemctl edit hearth`.
"""


def render_unit(template: str, executable: Path, user: str) -> str:
    """The packaged unit with ExecStart running ``executable`` and User/Group set to ``user``;
    its opening comment (about the packaged file) gives way to ``INSTALLED_HEADER``."""
    values = {"ExecStart": f"{unit_quote(str(executable))} run", "User": user, "Group": user}
    template_lines = template.splitlines(keepends=True)
    while template_lines and template_lines[0].startswith("#"):
        template_lines.pop(0)
    lines = [INSTALLED_HEADER]
    seen: set[str] = set()
    for line in template_lines:
        key, equals, _ = line.partition("=")
        if equals and key in values:
            if key in seen:
                raise ValueError(f"the packaged unit sets {key}= twice")
            seen.add(key)
            line = f"{key}={values[key]}\n"
        lines.append(line)
    if missing := sorted(values.keys() - seen):
        raise ValueError(f"the packaged unit has no {', '.join(missing)} line")
    return "".join(lines)


def unit_quote(word: str) -> str:
    """``word`` as one word of a unit's command line: specifiers and variables escaped."""
    escaped = word.replace("\\", "\\\\").replace('"', '\\"').replace("%", "%%").replace("$", "$$")
    return f'"{escaped}"' if escaped != word or any(c.isspace() for c in word) else word


def describe(step: Step) -> list[str]:
    """The lines that tell a person what a step does."""
    match step:
        case Run(argv, why):
            return [f"run    {shlex.join(argv)}", f"       ({why})"]
        case MakeDirectory(path, mode):
            return [f"mkdir  {path} (mode {mode:04o})"]
        case WriteFile(path, text, mode, why, replace, show):
            kind = "" if replace else ", only if it is not there"
            lines = [f"write  {path} (mode {mode:04o}{kind}): {why}"]
            if show:
                lines += [f"       | {line}".rstrip() for line in text.splitlines()]
            return lines
        case Note(text):
            return [f"note   {text}"]
    raise TypeError(f"not a step: {step!r}")
