"""A device that loses the shared database: the memory's own error at once, nothing acknowledged
lost, and back to work by itself when the database returns.

The database is killed with ``pg_ctl stop -m immediate`` (no shutdown checkpoint: what a crash or
a power cut of its host leaves), then started again, which recovers from its write-ahead log.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from memory import Memory, MemoryInputError, MemoryUnavailable, PostgresTarget, read_export

ROOT = Path(__file__).resolve().parents[2]

WRITER = textwrap.dedent(
    """
    import sys, time
    from memory import Memory, MemoryUnavailable, PostgresTarget
    memory = Memory.open(PostgresTarget(sys.argv[1], retry_seconds=0.2))
    i = 0
    while True:
        text = f"Locker {i} holds the {['red', 'blue', 'green'][i % 3]} bag number {i * 7}"
        try:
            outcome = memory.remember(text, "fact")
        except MemoryUnavailable as error:
            print("down", error, flush=True)
            time.sleep(0.05)
            continue  # the same statement again: it was not acknowledged
        print("ok", outcome.fact.id, text, flush=True)
        i += 1
    """
)


def test_a_database_crash_during_writes_loses_nothing_acknowledged(
    postgres_server, postgres_databases
):
    url = postgres_databases()
    Memory.open(url).close()
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert writer.stdout is not None
    acknowledged: list[tuple[int, str]] = []
    outages = 0
    try:
        for line in writer.stdout:
            word, rest = line.rstrip("\n").split(" ", 1)
            if word == "ok":
                fact_id, text = rest.split(" ", 1)
                acknowledged.append((int(fact_id), text))
            else:
                assert word == "down" and ("lost the memory database" in rest or "reach" in rest)
                outages += 1
            if len(acknowledged) == 40 and outages == 0:
                postgres_server.crash()  # mid-stream: a write is very likely in flight
            if outages == 5:
                postgres_server.start()
                outages += 1
            if len(acknowledged) == 80:
                break
    finally:
        writer.kill()
        writer.wait()
    print(f"{len(acknowledged)} writes acknowledged, {outages} refused while the database was down")
    assert outages > 5, "the writer never noticed the crash"
    stderr = writer.stderr.read() if writer.stderr else ""
    assert "Traceback" not in stderr, stderr  # the device kept running through the outage

    memory = Memory.open(url)
    readable = {(f.id, f.text) for f in memory.facts(include_all=True)}
    readable |= {(e.fact_id, e.text) for e in memory.history()}
    for item in acknowledged:
        assert item in readable
    texts = [fact.text for fact in memory.facts()]
    assert len(texts) == len(set(texts)), "a statement retried after the outage was stored twice"
    memory.close()


def test_while_the_database_is_down_every_call_says_so_and_then_it_comes_back(
    postgres_server, postgres_databases, tmp_path
):
    memory = Memory.open(PostgresTarget(postgres_databases(), retry_seconds=0.2))
    vim = memory.remember("My favourite editor is Vim", "preference").fact
    emacs = memory.remember("My favourite editor is Emacs", "preference").fact
    memory.export(tmp_path / "export.json")
    version = memory.store.data_version()
    postgres_server.crash()
    try:
        calls = {
            "remember": lambda: memory.remember("I like jazz", "preference"),
            "recall": lambda: memory.recall("which editor"),
            "facts": memory.facts,
            "get": lambda: memory.get(vim.id),
            "history": memory.history,
            "conflicts": memory.conflicts,
            "find": lambda: memory.find("my favourite editor"),
            "near_misses": lambda: memory.near_misses(vim.id),
            "resolve": lambda: memory.resolve(vim.id),
            "keep_both": lambda: memory.keep_both(vim.id),
            "forget": lambda: memory.forget(emacs.id),
            "pin": lambda: memory.set_pinned(vim.id, True),
            "mark_asked": lambda: memory.mark_asked([vim.id]),
            "export": lambda: memory.export(tmp_path / "again.json"),
            "import": lambda: memory.import_export(read_export(tmp_path / "export.json")),
        }
        for name, call in calls.items():
            with pytest.raises(MemoryUnavailable):
                call()
                pytest.fail(f"{name} did not raise")
    finally:
        postgres_server.start()
    deadline = time.monotonic() + 30
    while True:  # the next call after the retry pause reconnects by itself
        try:
            facts = memory.facts()
            break
        except MemoryUnavailable:
            assert time.monotonic() < deadline, "never reconnected"
            time.sleep(0.1)
    assert [fact.id for fact in facts] == [vim.id, emacs.id]
    assert memory.store.data_version() != version  # what others wrote meanwhile is reloaded
    assert memory.remember("I like jazz", "preference").fact.text == "I like jazz"
    with pytest.raises(MemoryInputError):  # a user's mistake is still that, not an outage
        memory.forget(999)
    memory.close()


def test_a_database_server_that_stops_answering_is_given_up_on(postgres_databases):
    """A server process stopped (SIGSTOP stands in for a disk that hangs every write) while its
    host's kernel keeps the connection open: no server timeout fires, so the client's own
    deadline must, and the memory works again once the server does."""
    memory = Memory.open(PostgresTarget(postgres_databases(), statement_timeout_seconds=0.5))
    memory.remember("The boiler was serviced in May", "fact")
    server_process = memory.store._link._connected().info.backend_pid
    outcome: list[BaseException | str] = []

    def remember() -> None:
        try:
            memory.remember("The boiler code is 4471", "fact")
            outcome.append("remembered")
        except BaseException as error:  # reported to the test's thread
            outcome.append(error)

    os.kill(server_process, signal.SIGSTOP)
    try:
        caller = threading.Thread(target=remember, daemon=True)
        caller.start()
        caller.join(timeout=120)  # a bound on a hang, not a measure of speed
        assert outcome, "the call still waits on a server that stopped answering"
    finally:
        os.kill(server_process, signal.SIGCONT)
    assert isinstance(outcome[0], MemoryUnavailable), outcome
    assert "did not answer" in str(outcome[0]) and "not confirmed" in str(outcome[0])
    assert memory.remember("The boiler code is 4471", "fact").fact.text == (
        "The boiler code is 4471"
    )
    assert [fact.text for fact in memory.facts()] == [
        "The boiler was serviced in May",
        "The boiler code is 4471",
    ]
    memory.close()


@pytest.mark.parametrize("restart", ["stop", "crash"])
def test_a_database_restarted_while_idle_is_reconnected_to_by_the_next_call(
    postgres_server, postgres_databases, restart
):
    # A restart (an upgrade, a reboot of its box) closes every idle connection; the next call
    # finds that out before its first statement and connects again, with nothing refused. A
    # long retry pause proves it is not the retry after a failure that gets it back.
    memory = Memory.open(PostgresTarget(postgres_databases(), retry_seconds=300))
    vim = memory.remember("My favourite editor is Vim", "preference").fact
    getattr(postgres_server, restart)()
    postgres_server.start()
    assert [fact.id for fact in memory.facts()] == [vim.id]
    assert memory.remember("I like jazz", "preference").fact.text == "I like jazz"
    memory.close()
