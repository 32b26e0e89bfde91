"""``hearth memory``: the JSON contract, global options anywhere, exit codes, no tracebacks, with
``--db`` a SQLite file or a PostgreSQL URL."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from assistant.cli import main
from memory import Memory
from tests.servers import wait_for

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    # Keep the user's real files out of every test.
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("CONFIGURATION_DIRECTORY", str(tmp_path / "etc"))


@pytest.fixture
def db(isolated, new_location):
    """The memory the commands use: a SQLite file or a PostgreSQL URL (both backends)."""
    return new_location()


def run_json(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(captured.out)


def test_remember_prints_the_action_and_fact(db, capsys):
    first = run_json(capsys, "--db", str(db), "memory", "remember", "I use Postgres", "--json")
    assert first["action"] == "added" and isinstance(first["fact"]["id"], int)
    # Global options are accepted after the command too.
    second = run_json(
        capsys, "memory", "remember", "Database is Postgres", "--db", str(db), "--json"
    )
    assert second["action"] == "merged" and second["fact"]["id"] == first["fact"]["id"]


def test_conflict_lists_the_facts_it_disagrees_with(db, capsys):
    vim = run_json(capsys, "memory", "--db", str(db), "remember", "My favourite editor is Vim",
                   "--kind", "preference", "--json")  # fmt: skip
    emacs = run_json(capsys, "memory", "--db", str(db), "remember", "My favourite editor is Emacs",
                     "--kind", "preference", "--json")  # fmt: skip
    assert emacs["action"] == "conflict"
    assert [f["id"] for f in emacs["conflicts"]] == [vim["fact"]["id"]]

    listing = run_json(capsys, "memory", "list", "--db", str(db), "--json")
    assert {f["id"]: f["conflicts_with"] for f in listing} == {
        vim["fact"]["id"]: [emacs["fact"]["id"]],
        emacs["fact"]["id"]: [vim["fact"]["id"]],
    }
    assert {"id", "text", "kind", "status", "conflicts_with"} <= set(listing[0])

    recall = run_json(capsys, "memory", "recall", "which editor", "--db", str(db), "--json")
    assert "Ask the user which is current" in recall["notice"]

    run_json(capsys, "memory", "resolve", str(emacs["fact"]["id"]), "--db", str(db), "--json")
    everything = run_json(capsys, "memory", "list", "--all", "--db", str(db), "--json")
    assert {f["text"]: f["status"] for f in everything} == {
        "My favourite editor is Vim": "superseded",
        "My favourite editor is Emacs": "active",
    }
    history = run_json(
        capsys, "memory", "history", str(vim["fact"]["id"]), "--db", str(db), "--json"
    )
    assert [h["action"] for h in history] == ["add", "link", "supersede"]


def test_forget_show_and_export(db, capsys, tmp_path):
    fact = run_json(capsys, "memory", "remember", "I smoke", "--db", str(db), "--json")["fact"]
    assert main(["memory", "forget", str(fact["id"]), "--db", str(db)]) == 0
    assert capsys.readouterr().out == f"forgotten: #{fact['id']}\n"
    shown = run_json(capsys, "memory", "show", str(fact["id"]), "--db", str(db), "--json")
    assert shown["status"] == "forgotten" and shown["text"] is None
    out = tmp_path / "export.json"
    assert main(["memory", "export", str(out), "--db", str(db)]) == 0
    assert "I smoke" not in out.read_text()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["memory", "remember", ""], "empty"),
        (["memory", "remember", "I like jazz", "--kind", "xyzzy"], "unknown kind"),
        (["memory", "show", "99"], "no fact 99"),
        (["memory", "resolve", "99"], "no fact 99"),
        (["memory", "list", "--config", "/nonexistent/hearth.yaml"], "no such settings file"),
    ],
)
def test_bad_input_exits_2_with_a_message(db, capsys, argv, message):
    Memory.open(db).close()  # an existing store: a read of a missing one has its own message
    assert main([*argv, "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_usage_errors_exit_2(isolated, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["memory", "remember"])
    assert exit_info.value.code == 2


def test_a_foreign_database_is_refused_by_the_real_command(isolated, tmp_path):
    foreign = tmp_path / "notes.txt"
    foreign.write_text("my shopping list\n" * 20)
    result = subprocess.run(
        [sys.executable, "-m", "assistant", "memory", "list", "--db", str(foreign)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.returncode == 2
    assert "not a SQLite database" in result.stderr and "Traceback" not in result.stderr
    assert foreign.read_text() == "my shopping list\n" * 20


def test_invalid_utf8_argument_is_a_clear_error(db, tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "assistant", "memory", "remember", b"caf\xe9 au lait", "--db",
         str(db)],
        capture_output=True,
        cwd=ROOT,
    )  # fmt: skip
    assert result.returncode == 2
    assert b"UTF-8" in result.stderr and b"Traceback" not in result.stderr


AT_A_TERMINAL = (
    "import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "sys.argv[0] = 'hearth'; runpy.run_module('assistant', run_name='__main__')"
)
"""``python -m assistant`` as started at a terminal, where Ctrl-C reaches it: a test run as a
background job (``./.ci/run &``) has SIGINT ignored, and its children inherit that."""


def holds_open(pid: int, path: Path) -> bool:
    """Whether the process has the file open."""
    try:
        return any(fd.resolve() == path.resolve() for fd in Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return False


def test_ctrl_c_is_never_success(isolated, tmp_path):
    # Ctrl-C during `migrate` or `import` exited 0, so `hearth memory migrate ... && rm
    # memory.db` went on to delete the only copy. A command waiting on a memory another process
    # holds is stopped the same way.
    path = tmp_path / "memory.db"
    Memory.open(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        command = subprocess.Popen(
            [sys.executable, "-c", AT_A_TERMINAL, "memory", "remember", "I like coffee", "--db",
             str(path)],
            stderr=subprocess.PIPE, text=True, cwd=ROOT,
        )  # fmt: skip
        # It waits for the memory once it has it open (however long a busy machine takes to
        # start it); then a moment more, inside the wait.
        wait_for("the command to open the memory", lambda: holds_open(command.pid, path), 60)
        time.sleep(0.5)
        command.send_signal(signal.SIGINT)
        _, err = command.communicate(timeout=60)
    finally:
        holder.rollback()
        holder.close()
    assert command.returncode == 130
    assert "hearth: interrupted" in err and "Traceback" not in err


def test_output_read_by_a_reader_that_stops_is_no_traceback(isolated, tmp_path):
    # `hearth memory list --all --json | head -1` raised BrokenPipeError with a traceback.
    path = tmp_path / "memory.db"
    memory = Memory.open(path)
    for number in range(120):
        memory.remember(f"Note {number}: " + " ".join(f"w{number}x{i}" for i in range(120)))
    memory.close()
    command = subprocess.Popen(
        [sys.executable, "-m", "assistant", "memory", "list", "--all", "--json", "--db",
         str(path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
    )  # fmt: skip
    assert command.stdout is not None
    command.stdout.readline()  # `head -1`
    command.stdout.close()
    err = command.stderr.read() if command.stderr else b""
    assert command.wait(timeout=60) == 141
    assert b"Traceback" not in err and b"BrokenPipe" not in err
