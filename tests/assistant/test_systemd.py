"""Hearth under systemd: the unit's hardening and validity, sd_notify, and install-service.

The unit is checked by systemd's own tools (``systemd-analyze security`` and ``verify``); the
notifier talks to real AF_UNIX datagram sockets; install-service runs through its command line
with ``--dry-run``, and for real only into a ``--prefix`` under ``tmp_path`` with its commands
recorded instead of run, so no test touches /etc or the users of this machine.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import socket
import subprocess
import tomllib
import uuid
from collections.abc import Iterator, Sequence
from importlib import resources
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.cli import service as install
from assistant.cli.service import carry_out, config_copies, installed_hearth, look_at
from assistant.service_plan import (
    CONFIG_FILES,
    Machine,
    MakeDirectory,
    Note,
    Request,
    Run,
    ServiceRequestError,
    WriteFile,
    check_request,
    plan,
    render_unit,
)
from assistant.systemd_notify import SystemdNotifier
from config import packaged_file

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTED_UNIT = ROOT / "systemd" / "hearth.service"
MAX_EXPOSURE = 2.0
SYSTEMD_ANALYZE = shutil.which("systemd-analyze")
needs_systemd_analyze = pytest.mark.skipif(
    SYSTEMD_ANALYZE is None, reason="systemd-analyze is not installed (Debian: apt install systemd)"
)
REAL_SYSTEM_FILES = (Path("/etc/hearth"), Path("/etc/systemd/system/hearth.service"))


def packaged_unit() -> str:
    return resources.files("assistant").joinpath("hearth.service").read_text(encoding="utf-8")


def defaults() -> dict[str, str]:
    return config_copies()


STAND_IN_HEARTH = Path("/usr/bin/env")


def hearth_executable() -> Path:
    """The real ``hearth`` of the environment running the tests."""
    return installed_hearth()


def unit_settings(text: str) -> dict[str, list[str]]:
    """Every ``Key=value`` of a unit, values in order (keys may repeat)."""
    settings: dict[str, list[str]] = {}
    for line in text.splitlines():
        key, equals, value = line.partition("=")
        if equals and not line.startswith(("#", ";", "[")):
            settings.setdefault(key.strip(), []).append(value.strip())
    return settings


# The unit ----------------------------------------------------------------------------------------


def exposure(unit: Path) -> float:
    """The overall exposure ``systemd-analyze security --offline=true`` gives a unit file."""
    result = subprocess.run(
        [SYSTEMD_ANALYZE, "security", "--offline=true", "--no-pager", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    found = re.search(r"Overall exposure level for \S+: (\d+(?:\.\d+)?)", result.stdout)
    assert found, f"no exposure level in:\n{result.stdout}\n{result.stderr}"
    return float(found.group(1))


@needs_systemd_analyze
def test_the_documented_unit_scores_at_most_two() -> None:
    assert exposure(DOCUMENTED_UNIT) <= MAX_EXPOSURE


@needs_systemd_analyze
def test_the_installed_unit_scores_at_most_two(tmp_path: Path) -> None:
    unit = tmp_path / "hearth.service"
    unit.write_text(render_unit(packaged_unit(), hearth_executable(), "hearth"))
    assert exposure(unit) <= MAX_EXPOSURE


def verify(unit: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [SYSTEMD_ANALYZE, "verify", "--man=no", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )


@needs_systemd_analyze
def test_the_unit_verifies_with_the_real_hearth(tmp_path: Path) -> None:
    unit = tmp_path / "hearth.service"
    unit.write_text(render_unit(packaged_unit(), hearth_executable(), "hearth"))
    result = verify(unit)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    # verify exits 0 on unknown keys and bad values, printing a warning that names the file
    assert "hearth.service" not in output, output


@needs_systemd_analyze
def test_verify_catches_a_missing_executable(tmp_path: Path) -> None:
    """The check above has teeth: the same unit pointing nowhere fails."""
    unit = tmp_path / "hearth.service"
    unit.write_text(render_unit(packaged_unit(), tmp_path / "no-such" / "hearth", "hearth"))
    result = verify(unit)
    assert result.returncode != 0
    assert "not executable" in result.stdout + result.stderr


def test_the_documented_unit_is_the_packaged_one() -> None:
    """One source of truth: systemd/hearth.service is the package data install-service writes."""
    assert DOCUMENTED_UNIT.read_text(encoding="utf-8") == packaged_unit()
    assert DOCUMENTED_UNIT.resolve() == (ROOT / "assistant" / "hearth.service").resolve()


def test_the_unit_ships_as_package_data() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "hearth.service" in pyproject["tool"]["setuptools"]["package-data"]["assistant"]


def test_the_hardening_leaves_sound_and_network_reachable() -> None:
    settings = unit_settings(packaged_unit())
    assert settings["Type"] == ["notify"]
    assert settings["SupplementaryGroups"] == ["audio"]
    assert settings["DevicePolicy"] == ["closed"]
    assert "char-alsa rw" in settings["DeviceAllow"]
    families = settings["RestrictAddressFamilies"][0].split()
    assert {"AF_UNIX", "AF_INET", "AF_INET6"} <= set(families)
    # Each of these would break a real run (see the comments in the unit): hidden /dev/snd, no
    # network for Ollama, no /proc/cpuinfo for XNNPACK (the wake word), no W+X for cffi callbacks.
    for breaking in ("PrivateDevices", "PrivateNetwork", "ProcSubset", "MemoryDenyWriteExecute"):
        assert breaking not in settings, breaking
    environment = dict(pair.split("=", 1) for pair in settings["Environment"][0].split())
    assert environment["HOME"] == "/var/lib/hearth"
    assert environment["XDG_CONFIG_HOME"] == "/etc"
    assert settings["StateDirectory"] == ["hearth"]
    assert settings["ConfigurationDirectory"] == ["hearth"]


# sd_notify ---------------------------------------------------------------------------------------


@pytest.fixture
def notify_socket(tmp_path: Path) -> Iterator[tuple[str, socket.socket]]:
    """A datagram socket at a file path, standing in for systemd's."""
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(path))
        server.settimeout(5)
        yield str(path), server


def received(server: socket.socket, count: int) -> list[str]:
    return [server.recv(4096).decode() for _ in range(count)]


def tell_everything(notifier: SystemdNotifier) -> None:
    notifier.ready()
    notifier.status("standby: say “hey Jarvis”")
    notifier.watchdog()
    notifier.stopping()


def test_the_notifier_sends_each_state_to_a_socket_path(
    notify_socket: tuple[str, socket.socket],
) -> None:
    address, server = notify_socket
    notifier = SystemdNotifier({"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "30000000"})
    assert notifier.enabled
    assert notifier.watchdog_seconds == 30.0
    tell_everything(notifier)
    notifier.close()
    assert received(server, 4) == [
        "READY=1",
        "STATUS=standby: say “hey Jarvis”",
        "WATCHDOG=1",
        "STOPPING=1",
    ]


def test_the_notifier_sends_to_an_abstract_socket() -> None:
    name = f"hearth-test-{os.getpid()}-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind("\0" + name)
        server.settimeout(5)
        notifier = SystemdNotifier({"NOTIFY_SOCKET": "@" + name})
        tell_everything(notifier)
        notifier.close()
        assert received(server, 4)[::3] == ["READY=1", "STOPPING=1"]


def test_the_notifier_does_nothing_outside_systemd() -> None:
    notifier = SystemdNotifier({})
    assert not notifier.enabled
    assert notifier.watchdog_seconds is None
    tell_everything(notifier)  # no socket, no error
    notifier.close()


def test_a_vanished_socket_does_not_stop_the_service(tmp_path: Path) -> None:
    notifier = SystemdNotifier({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert notifier.enabled
    tell_everything(notifier)  # systemd restarting: sends fail quietly
    notifier.close()


# install-service: the plan -----------------------------------------------------------------------

EXECUTABLE = Path("/opt/hearth/venv/bin/hearth")


def fresh_machine(**changes: object) -> Machine:
    """A Debian system with systemd running and nothing of Hearth's on it."""
    facts: dict[str, object] = dict(
        user_exists=False,
        user_groups=frozenset(),
        sound_group_exists=True,
        existing=frozenset({Path("/etc/systemd/system")}),
        installed_unit=None,
        has_systemctl=True,
        systemd_running=True,
    )
    facts.update(changes)
    return Machine(**facts)  # type: ignore[arg-type]


def commands(steps: Sequence[object]) -> list[tuple[str, ...]]:
    return [step.argv for step in steps if isinstance(step, Run)]


def writes(steps: Sequence[object]) -> dict[Path, WriteFile]:
    return {step.path: step for step in steps if isinstance(step, WriteFile)}


def test_a_fresh_install_plans_every_step_in_order() -> None:
    steps = plan(Request("hearth", EXECUTABLE), fresh_machine(), packaged_unit(), defaults())
    assert commands(steps) == [
        (
            "useradd",
            "--system",
            "--user-group",
            "--home-dir",
            "/var/lib/hearth",
            "--no-create-home",
            "--shell",
            "/usr/sbin/nologin",
            "hearth",
        ),
        ("usermod", "--append", "--groups", "audio", "hearth"),
        ("systemctl", "daemon-reload"),
        ("systemctl", "enable", "--now", "hearth.service"),
    ]
    assert MakeDirectory(Path("/etc/hearth"), 0o755) in steps
    written = writes(steps)
    assert list(written) == [
        Path("/etc/hearth/assistant.yaml"),
        Path("/etc/hearth/personality.yaml"),
        Path("/etc/systemd/system/hearth.service"),
    ]
    for name in CONFIG_FILES:
        copy = written[Path("/etc/hearth") / name]
        assert copy.text == defaults()[name]
        assert not copy.replace
    unit = unit_settings(written[Path("/etc/systemd/system/hearth.service")].text)
    assert unit["ExecStart"] == ["/opt/hearth/venv/bin/hearth run"]
    assert unit["User"] == unit["Group"] == ["hearth"]
    # the order: the user first, then the files, then systemctl
    order = [
        step.argv[0] if isinstance(step, Run) else type(step).__name__
        for step in steps
        if not isinstance(step, Note)
    ]
    assert order == [
        "useradd",
        "usermod",
        "MakeDirectory",
        "WriteFile",
        "WriteFile",
        "WriteFile",
        "systemctl",
        "systemctl",
    ]


def test_a_second_install_keeps_the_user_the_settings_and_an_equal_unit() -> None:
    request = Request("hearth", EXECUTABLE)
    unit = render_unit(packaged_unit(), EXECUTABLE, "hearth")
    machine = fresh_machine(
        user_exists=True,
        user_groups=frozenset({"hearth", "audio"}),
        existing=frozenset(
            {
                Path("/etc/hearth"),
                Path("/etc/hearth/assistant.yaml"),
                Path("/etc/hearth/personality.yaml"),
                Path("/etc/systemd/system"),
            }
        ),
        installed_unit=unit,
    )
    steps = plan(request, machine, packaged_unit(), defaults())
    assert writes(steps) == {}
    assert not any(isinstance(step, MakeDirectory) for step in steps)
    assert commands(steps) == [
        ("systemctl", "daemon-reload"),
        ("systemctl", "try-restart", "hearth.service"),
        ("systemctl", "enable", "--now", "hearth.service"),
    ]
    notes = " ".join(step.text for step in steps if isinstance(step, Note))
    assert "never overwritten" in notes
    assert "up to date" in notes


def test_a_changed_unit_is_replaced_and_the_service_restarted() -> None:
    machine = fresh_machine(installed_unit="[Service]\nExecStart=/old/hearth run\n")
    steps = plan(Request("hearth", EXECUTABLE), machine, packaged_unit(), defaults())
    assert Path("/etc/systemd/system/hearth.service") in writes(steps)
    assert ("systemctl", "try-restart", "hearth.service") in commands(steps)


def test_without_systemd_the_service_is_enabled_for_the_next_boot() -> None:
    machine = fresh_machine(systemd_running=False)
    steps = plan(Request("hearth", EXECUTABLE), machine, packaged_unit(), defaults())
    assert [c for c in commands(steps) if c[0] == "systemctl"] == [
        ("systemctl", "enable", "hearth.service")
    ]
    assert any(isinstance(s, Note) and "not running" in s.text for s in steps)


def test_without_systemctl_nothing_is_enabled_and_the_user_is_told() -> None:
    machine = fresh_machine(has_systemctl=False, systemd_running=False)
    steps = plan(Request("hearth", EXECUTABLE), machine, packaged_unit(), defaults())
    assert not [c for c in commands(steps) if c[0] == "systemctl"]
    assert any(isinstance(s, Note) and "enable --now" in s.text for s in steps)


def test_a_missing_audio_group_is_created_first() -> None:
    machine = fresh_machine(sound_group_exists=False)
    steps = plan(Request("hearth", EXECUTABLE), machine, packaged_unit(), defaults())
    assert commands(steps)[0] == ("groupadd", "--system", "audio")


def test_with_a_prefix_every_command_stays_inside_it(tmp_path: Path) -> None:
    request = Request("hearth", EXECUTABLE, tmp_path)
    steps = plan(request, fresh_machine(existing=frozenset()), packaged_unit(), defaults())
    for argv in commands(steps):
        assert ("--prefix", str(tmp_path)) == argv[1:3] or f"--root={tmp_path}" in argv, argv
    assert ("systemctl", f"--root={tmp_path}", "enable", "hearth.service") in commands(steps)
    assert all(path.is_relative_to(tmp_path) for path in writes(steps))


def test_the_unit_runs_the_given_hearth_as_the_given_user() -> None:
    unit = render_unit(packaged_unit(), Path("/srv/my apps/100%/$HOME/hearth"), "alice")
    settings = unit_settings(unit)
    # quoted for the space, % and $ doubled so systemd reads them literally
    assert settings["ExecStart"] == ['"/srv/my apps/100%%/$$HOME/hearth" run']
    assert settings["User"] == settings["Group"] == ["alice"]
    assert unit.startswith("# Written by `hearth install-service`")
    assert "systemd/hearth.service links to it" not in unit


def test_a_unit_template_without_exec_start_is_refused() -> None:
    with pytest.raises(ValueError, match="ExecStart"):
        render_unit("[Service]\nUser=x\nGroup=x\n", EXECUTABLE, "hearth")


@pytest.mark.parametrize(
    ("user", "executable", "complaint"),
    [
        ("root", EXECUTABLE, "unprivileged"),
        ("Hearth Bot", EXECUTABLE, "not a valid name"),
        ("hearth", Path("/home/pi/venv/bin/hearth"), "ProtectHome"),
        ("hearth", Path("/root/venv/bin/hearth"), "ProtectHome"),
        ("hearth", Path("/tmp/hearth/.venv/bin/hearth"), "PrivateTmp"),
        ("hearth", Path("/var/tmp/venv/bin/hearth"), "PrivateTmp"),
    ],
)
def test_requests_the_service_could_not_run_with_are_refused(
    user: str, executable: Path, complaint: str
) -> None:
    with pytest.raises(ServiceRequestError, match=complaint):
        check_request(Request(user, executable))


def test_an_editable_install_from_a_home_clone_is_refused() -> None:
    request = Request("hearth", EXECUTABLE, code=Path("/home/pi/hearth"))
    with pytest.raises(ServiceRequestError, match="/home/pi/hearth is under /home"):
        check_request(request)
    check_request(Request("hearth", EXECUTABLE, code=Path("/opt/hearth/src")))


# install-service: through the command line -------------------------------------------------------


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(root)): path.read_bytes() if path.is_file() else b"<dir>"
        for path in sorted(root.rglob("*"))
    }


def real_system_state() -> dict[Path, tuple[bool, float | None]]:
    return {
        path: (path.exists(), path.stat().st_mtime if path.exists() else None)
        for path in REAL_SYSTEM_FILES
    }


@pytest.fixture(autouse=True)
def installed_where_the_service_can_see_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command-line tests plan for an installation the service can see, wherever the
    checkout running them lives (under /tmp, say, which the unit's PrivateTmp hides, and which
    install-service rightly refuses): /usr/bin/env stands in for an installed hearth."""
    monkeypatch.setattr(install, "installed_hearth", lambda: STAND_IN_HEARTH)
    monkeypatch.setattr(install, "installed_code", lambda: STAND_IN_HEARTH.parent)


@pytest.fixture
def image(tmp_path: Path) -> Path:
    """A system image root: the account files, with an audio group and no hearth user."""
    root = tmp_path / "image"
    (root / "etc").mkdir(parents=True)
    (root / "etc/passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (root / "etc/group").write_text("root:x:0:\naudio:x:29:pulse\n")
    return root


def test_a_dry_run_prints_every_step_and_changes_nothing(
    image: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before, system_before = snapshot(image), real_system_state()
    assert main(["install-service", "--dry-run", "--prefix", str(image)]) == 0
    out = capsys.readouterr().out
    assert snapshot(image) == before
    assert real_system_state() == system_before
    assert f"useradd --prefix {image} --system --user-group" in out
    assert "--shell /usr/sbin/nologin hearth" in out
    assert f"usermod --prefix {image} --append --groups audio hearth" in out
    assert f"write  {image}/etc/hearth/assistant.yaml" in out
    assert f"write  {image}/etc/hearth/personality.yaml" in out
    assert f"write  {image}/etc/systemd/system/hearth.service" in out
    assert f"| ExecStart={STAND_IN_HEARTH} run" in out
    assert "| User=hearth" in out
    assert "| Group=hearth" in out
    assert f"systemctl --root={image} enable hearth.service" in out


def test_malformed_lines_in_the_account_files_are_skipped(
    image: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A stray edit or byte in the image's account files was a traceback (int("xyz")).
    with (image / "etc/passwd").open("ab") as passwd:
        passwd.write(b"hearth:x:abc:xyz::/:/bin/false\nbroken\n\xff\xfe:x:1:1::/:\n")
    with (image / "etc/group").open("ab") as group:
        group.write(b"hearth:x:notanumber:\n\xff\n")
    assert main(["install-service", "--dry-run", "--prefix", str(image)]) == 0
    out = capsys.readouterr().out
    assert f"useradd --prefix {image} --system --user-group" in out  # no hearth user was read
    assert f"usermod --prefix {image} --append --groups audio hearth" in out


def test_a_dry_run_as_another_user(image: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["install-service", "--dry-run", "--prefix", str(image), "--user", "alice"]) == 0
    out = capsys.readouterr().out
    assert "--shell /usr/sbin/nologin alice" in out
    assert "| User=alice" in out
    assert "| Group=alice" in out


def test_a_dry_run_on_this_machine_changes_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    system_before = real_system_state()
    assert main(["install-service", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert real_system_state() == system_before
    assert "write  /etc/systemd/system/hearth.service" in out
    assert "systemctl" in out or "no systemctl here" in out


def test_only_root_may_install(
    image: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(install.os, "geteuid", lambda: 1000)
    assert main(["install-service", "--prefix", str(image)]) == 2
    assert "sudo" in capsys.readouterr().err
    assert not (image / "etc/hearth").exists()


def record_commands(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """Run no command: note each one instead (the user tools and systemctl)."""
    recorded: list[tuple[str, ...]] = []
    monkeypatch.setattr(install, "run_command", lambda argv: recorded.append(tuple(argv)))
    monkeypatch.setattr(install.os, "geteuid", lambda: 0)
    return recorded


def test_a_real_run_into_a_prefix_writes_the_files(
    image: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    recorded = record_commands(monkeypatch)
    system_before = real_system_state()
    assert main(["install-service", "--prefix", str(image)]) == 0
    assert real_system_state() == system_before
    for name in CONFIG_FILES:
        copy = image / "etc/hearth" / name
        assert copy.read_text() == defaults()[name]
        assert copy.stat().st_mode & 0o777 == 0o644
    unit_file = image / "etc/systemd/system/hearth.service"
    assert unit_file.stat().st_mode & 0o777 == 0o644
    unit = unit_settings(unit_file.read_text())
    assert unit["ExecStart"] == [f"{STAND_IN_HEARTH} run"]
    assert unit["User"] == ["hearth"]
    assert [argv[0] for argv in recorded] == ["useradd", "usermod", "systemctl"]
    assert all(str(image) in " ".join(argv) for argv in recorded)
    assert not list(image.rglob(".*.yaml.*")), "no temporary files left behind"
    assert "Done." in capsys.readouterr().out


def test_a_second_run_never_overwrites_the_settings(
    image: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record_commands(monkeypatch)
    assert main(["install-service", "--prefix", str(image)]) == 0
    edited = image / "etc/hearth/assistant.yaml"
    edited.write_text("ollama:\n  model: qwen2.5:3b\n")
    card = image / "etc/hearth/personality.yaml"
    card.unlink()  # a removed card comes back; an edited file stays
    assert main(["install-service", "--prefix", str(image), "--user", "alice"]) == 0
    assert edited.read_text() == "ollama:\n  model: qwen2.5:3b\n"
    assert card.read_text() == defaults()["personality.yaml"]
    unit = unit_settings((image / "etc/systemd/system/hearth.service").read_text())
    assert unit["User"] == ["alice"]


def test_a_settings_file_that_appears_meanwhile_is_kept(image: Path) -> None:
    request = Request("hearth", hearth_executable(), image)
    steps = plan(request, look_at(request), packaged_unit(), defaults())
    late = image / "etc/hearth/assistant.yaml"
    late.parent.mkdir(parents=True)
    late.write_text("# mine\n")
    out = io.StringIO()
    carry_out(steps, out, run=lambda argv: None)
    assert late.read_text() == "# mine\n"
    assert "appeared meanwhile: kept" in out.getvalue()


def test_the_machine_is_read_from_the_prefix(image: Path) -> None:
    (image / "etc/passwd").write_text("hearth:x:999:999::/var/lib/hearth:/usr/sbin/nologin\n")
    (image / "etc/group").write_text("hearth:x:999:\naudio:x:29:pulse,hearth\n")
    machine = look_at(Request("hearth", hearth_executable(), image))
    assert machine.user_exists
    assert machine.user_groups == {"hearth", "audio"}
    assert not machine.systemd_running
    assert machine.existing == frozenset()


def test_an_installation_in_a_home_directory_is_refused(
    image: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(install, "installed_hearth", lambda: Path("/home/pi/venv/bin/hearth"))
    assert main(["install-service", "--dry-run", "--prefix", str(image)]) == 2
    assert "ProtectHome" in capsys.readouterr().err


def test_the_service_settings_copy_pins_no_default(tmp_path):
    from assistant.service_plan import settings_template
    from config import Settings, load_settings

    template = settings_template(packaged_file("assistant.yaml").read_text())
    copy = tmp_path / "assistant.yaml"
    copy.write_text(template)
    # Every setting is there to uncomment, none is set: the packaged defaults stay in force.
    assert "# ollama:" in template and "#   model: llama3.2:3b" in template
    assert load_settings(search_path=[copy], environ={}) == Settings()
