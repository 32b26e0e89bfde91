"""Faults a careful user meets: each is named for what it is, nothing is lost, no traceback.

Locks, full disks, damaged pages, logs deleted under a writer, ids no fact can have, paths that
are no database file. The cases that need a user without root's override of file permissions
run the real command with those privileges dropped (``setpriv``) when the tests run as root.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from memory import (
    Action,
    Memory,
    MemoryInputError,
    Origin,
    Source,
    StoreError,
    StoreFailure,
    read_export,
)
from memory.model import FactStatus
from memory.store import FactStore
from tests.memory.damage import scribble_over, scribble_over_a_leaf

ROOT = Path(__file__).resolve().parents[2]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def hearth(*argv: str, privileged: bool = True, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run ``hearth`` as a user would, with file permissions enforced unless ``privileged``."""
    command = [sys.executable, "-m", "assistant", *argv]
    if not privileged and os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: file permissions cannot be enforced")
        command = [setpriv, "--inh-caps=-all", "--bounding-set=-all", *command]
    environment = {**os.environ, "XDG_CONFIG_HOME": "/nonexistent", "HEARTH_TRACE": ""}
    return subprocess.run(
        command, capture_output=True, text=True, cwd=ROOT, timeout=timeout, env=environment
    )


def refused(result: subprocess.CompletedProcess, *words: str) -> str:
    """The message of a command that refused with exit 2; every word must be in it."""
    return _ended(result, 2, words)


def failed(result: subprocess.CompletedProcess, *words: str) -> str:
    """The message of a good request the store could not carry out (exit 1)."""
    return _ended(result, 1, words)


def _ended(result: subprocess.CompletedProcess, code: int, words: tuple[str, ...]) -> str:
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in result.stderr, result.stderr
    return result.stderr


@pytest.fixture
def path(tmp_path: Path) -> Path:
    path = tmp_path / "memory.db"
    memory = Memory.open(path)
    memory.remember("I like jazz", "preference")
    memory.close()
    return path


# Ids ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fact_id", [2**63, 2**63 + 1, 10**30, 0, -1, -(2**63) - 1])
def test_an_id_no_fact_can_have_is_no_fact(fact_id: int) -> None:
    memory = Memory(FactStore.open(":memory:"))
    memory.remember("I like jazz", "preference")
    calls = (
        memory.get,
        memory.forget,
        memory.resolve,
        memory.keep_both,
        memory.history,
        memory.near_misses,
        lambda i: memory.set_pinned(i, True),
        lambda i: memory.set_pinned(i, False),
    )
    for call in calls:
        with pytest.raises(MemoryInputError, match=f"no fact {fact_id}"):
            call(fact_id)


@pytest.mark.parametrize("command", ["show", "forget", "resolve", "pin", "unpin", "history"])
def test_the_command_line_says_so_for_a_huge_id(path: Path, command: str) -> None:
    result = hearth("memory", command, str(2**63), "--db", str(path))
    refused(result, f"no fact {2**63}")
    # A digit of another script is no id (U+0661, the Arabic-Indic one, was fact #1).
    refused(hearth("memory", command, "\u0661", "--db", str(path)), "a fact id is a whole number")


# Paths that are no database file ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "said"), [("/dev/null", "a device"), ("fifo", "a FIFO"), (".", "a folder")]
)
@pytest.mark.parametrize("command", [["list"], ["remember", "I like tea"]])
def test_a_path_that_is_no_file_is_refused_without_hanging(
    tmp_path: Path, target: str, said: str, command: list[str]
) -> None:
    if target == "fifo":
        os.mkfifo(tmp_path / "fifo")
    database = target if target.startswith("/") else str(tmp_path / target)
    result = hearth("memory", *command, "--db", database, timeout=30)
    message = refused(result, said)
    assert "damaged" not in message


@pytest.mark.parametrize(
    "command",
    [["list"], ["show", "1"], ["history"], ["conflicts"], ["recall", "jazz"], ["export", "OUT"]],
)
def test_a_command_that_only_reads_creates_no_store(tmp_path: Path, command: list[str]) -> None:
    typo = tmp_path / "typo" / "memroy.db"
    command = [str(tmp_path / "out.json") if word == "OUT" else word for word in command]
    result = hearth("memory", *command, "--db", str(typo))
    refused(result, "no memory database here")
    assert not typo.parent.exists()


@pytest.mark.parametrize("command", [["list"], ["conflicts"], ["export", "OUT"]])
def test_a_command_that_only_reads_leaves_an_empty_file_empty(
    tmp_path: Path, command: list[str]
) -> None:
    empty = tmp_path / "memory.db"
    empty.touch(mode=0o644)
    empty.chmod(0o644)
    command = [str(tmp_path / "out.json") if word == "OUT" else word for word in command]
    refused(hearth("memory", *command, "--db", str(empty)), "an empty file", "only reads")
    assert empty.stat().st_size == 0 and empty.stat().st_mode & 0o777 == 0o644
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memory.db"]


def test_an_empty_database_path_is_named_as_such(tmp_path: Path) -> None:
    settings = tmp_path / "assistant.yaml"
    settings.write_text('memory:\n  database: ""\n')
    refused(hearth("memory", "list", "--config", str(settings)), "memory.database", "empty path")
    refused(hearth("memory", "list", "--db", ""), "--db", "empty")


def test_an_empty_file_made_by_someone_else_becomes_private(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    path.touch()
    path.chmod(0o644)
    Memory.open(path).remember("I like jazz", "preference")
    for name in ("memory.db", "memory.db-wal", "memory.db-shm"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600, name


# Busy, not writable: never called damaged -------------------------------------------------------


def test_a_store_locked_by_another_writer_is_busy_not_damaged(path: Path) -> None:
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("UPDATE facts SET pinned = 1")
    try:
        memory = Memory(FactStore.open(path, busy_timeout_seconds=0.2))
        # Reading needs no lock: the store opens and lists at once.
        assert [fact.text for fact in memory.facts()] == ["I like jazz"]
        with pytest.raises(StoreFailure, match="busy") as error:
            memory.remember("I like tea", "preference")
        assert "damaged" not in str(error.value)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert memory.remember("I like tea", "preference").action is Action.ADDED


def test_a_read_only_folder_is_named(path: Path) -> None:
    folder = path.parent
    folder.chmod(0o555)
    try:
        message = refused(
            hearth("memory", "remember", "I like tea", "--db", str(path), privileged=False),
            "cannot write in the folder",
        )
    finally:
        folder.chmod(0o755)
    assert "damaged" not in message


def test_a_stale_read_only_shared_index_is_named(path: Path) -> None:
    # A -shm left behind by another user (the service, say), readable but not writable here.
    shutil.copy(path, path.parent / "copy.db")
    keeper = sqlite3.connect(path)
    keeper.execute("SELECT count(*) FROM facts").fetchone()
    shm = Path(f"{path}-shm")
    stale = shm.read_bytes()
    keeper.close()
    shm.write_bytes(stale)
    shm.chmod(0o444)
    before = digest(path)
    listing = hearth("memory", "list", "--db", str(path), privileged=False)
    assert listing.returncode == 0 and "I like jazz" in listing.stdout, listing.stderr
    message = refused(
        hearth("memory", "remember", "I like tea", "--db", str(path), privileged=False),
        "memory.db-shm",
        "read-only",
    )
    assert "damaged" not in message
    assert digest(path) == before


def test_a_shared_index_made_read_only_with_the_database_is_not_blamed_on_another_user(
    path: Path,
) -> None:
    # Listing a read-only copy (from a backup) left -wal and -shm files as read-only as it; once
    # the database was writable again, every write blamed "user id 0, perhaps the Hearth
    # service", the user's own id.
    path.chmod(0o444)
    listing = hearth("memory", "list", "--db", str(path), privileged=False)
    assert listing.returncode == 0, listing.stderr
    path.chmod(0o644)
    companions = [Path(f"{path}{suffix}") for suffix in ("-wal", "-shm")]
    if not any(c.exists() and not c.stat().st_mode & stat.S_IWUSR for c in companions):
        pytest.skip("this SQLite left no read-only companion file")
    message = refused(
        hearth("memory", "remember", "I like tea", "--db", str(path), privileged=False),
        "read-only",
        "made while the database was",
    )
    assert "perhaps the Hearth service" not in message


# Real damage --------------------------------------------------------------------------------------


@pytest.mark.parametrize("index", ["fact_keys_fact", "facts_status", "history_fact"])
def test_a_damaged_page_is_found_at_opening_and_no_write_goes_into_it(
    tmp_path: Path, index: str
) -> None:
    path = tmp_path / "memory.db"
    memory = Memory.open(path)
    for number in range(60):
        memory.remember(f"Locker {number} holds the {number * 7}th blue bag", "fact")
    memory.close()
    scribble_over(path, index)
    before = digest(path)

    memory = Memory.open(path)
    assert len(memory.facts()) == 60  # what can still be read is readable
    with pytest.raises(StoreError, match=r"damaged .*quick_check.*refusing to write"):
        memory.remember("I like tea", "preference")
    memory.close()
    message = failed(hearth("memory", "remember", "I like tea", "--db", str(path)), "damaged")
    assert "refusing to write" in message
    assert digest(path) == before

    # What it says to do works: export what can be read, import it into a new store.
    saved = tmp_path / "saved.json"
    assert hearth("memory", "export", str(saved), "--db", str(path)).returncode == 0
    fresh = tmp_path / "fresh.db"
    assert hearth("memory", "import", str(saved), "--db", str(fresh)).returncode == 0
    assert len(Memory.open(fresh).facts()) == 60


@pytest.mark.parametrize("table", ["facts", "history"])
def test_export_saves_every_row_a_damaged_table_still_holds(tmp_path: Path, table: str) -> None:
    # A full scan stops at the first damaged page: one bad page of the facts table kept export
    # from every fact, although the README promises it saves what can still be read.
    path = tmp_path / "memory.db"
    memory = Memory.open(path)
    said = {memory.remember(f"Locker {n} holds the {n * 7}th blue bag of the summer fair",
                            "fact").fact.id: f"Locker {n} holds the {n * 7}th blue bag of the "
                                             "summer fair" for n in range(200)}  # fmt: skip
    memory.close()
    sound = FactStore.open(path)
    entries = len(sound.history())
    sound.close()
    scribble_over_a_leaf(path, table)
    before = digest(path)

    saved = tmp_path / "saved.json"
    result = hearth("memory", "export", str(saved), "--db", str(path))
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 1, result.stderr  # a partial save: a script must notice
    assert f"damaged pages of {path} could not be read: {table} " in result.stderr
    assert "Everything else is in the export; the database is left as it is." in result.stderr
    assert digest(path) == before

    document = read_export(saved)
    exported = {fact.id: fact.text for fact in document.facts}
    held = FactStore.open(path)
    try:
        assert held.damage, "found at opening: no write goes into it"
        assert held.list_facts(list(FactStatus)) and held.history()  # both read, around the page
        assert held.unreadable[0].startswith(f"{table} "), held.unreadable
        named = list(held.unreadable)
        held.list_facts(list(FactStatus))
        held.history()
        assert held.unreadable == named  # read again: named once, not once a read
    finally:
        held.close()
    assert all(said[i] == text for i, text in exported.items()), "no row read wrong"
    history_ids = [entry.fact_id for entry in document.history]
    if table == "facts":
        missing = set(said) - set(exported)
        assert 0 < len(missing) < 60, "only one page's facts are missing"
        assert f"facts {min(missing)} to {max(missing)}" in result.stderr
        assert "history entries and tombstones of those facts are left out" in result.stderr
        assert not missing & set(history_ids), "no history of a fact the export lacks"
    else:
        assert exported == said
        assert 0 < entries - len(history_ids) < 60, "only one page of history is missing"

    fresh = tmp_path / "fresh.db"
    assert hearth("memory", "import", str(saved), "--db", str(fresh)).returncode == 0
    assert {f.id: f.text for f in Memory.open(fresh).facts()} == exported


# Transactions -------------------------------------------------------------------------------------


def test_a_full_disk_is_reported_not_the_rollback_that_could_not_run(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    Memory.open(path).close()
    connection = sqlite3.connect(path, isolation_level=None)
    pages = connection.execute("PRAGMA page_count").fetchone()[0]
    connection.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full from here on
    memory = Memory(FactStore(connection, str(path)))
    with pytest.raises(StoreFailure, match="disk is full") as error:
        for number in range(40):
            memory.remember(f"Locker {number} holds " + "x" * 900, "fact")
    assert "rollback" not in str(error.value)
    stored = len(memory.facts())
    connection.execute(f"PRAGMA max_page_count = {pages * 10}")  # room again
    assert memory.remember("I like jazz", "preference").action is Action.ADDED
    assert len(memory.facts()) == stored + 1


@pytest.fixture
def full_disk(tmp_path: Path):
    """A folder on a tiny tmpfs (root only), for a disk that fills up."""
    folder = tmp_path / "small"
    folder.mkdir()
    mounted = os.geteuid() == 0 and shutil.which("mount") and subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(folder)], capture_output=True
    ).returncode == 0  # fmt: skip
    if not mounted:
        pytest.skip("mounting a tmpfs needs root")
    yield folder
    subprocess.run(["umount", "-l", str(folder)], check=False)


def test_a_disk_full_before_the_shared_index_is_made_is_said_to_be_full(
    tmp_path: Path, full_disk: Path
) -> None:
    # SQLite could not make its -shm file and said "disk I/O error": Hearth called the disk
    # failing, for `list` and `export` too, when it was only full.
    made = tmp_path / "memory.db"
    memory = Memory.open(made)
    memory.remember("I live in Lisbon", "place")
    memory.close()
    shutil.copy(made, full_disk / "memory.db")
    # the logs and recordings fill the disk
    with open(full_disk / "filler", "wb", buffering=0) as filler, contextlib.suppress(OSError):
        while True:
            filler.write(b"\0" * 4096)
    result = subprocess.run(
        [sys.executable, "-m", "assistant", "memory", "list", "--db", str(full_disk / "memory.db")],
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    failed(result, "the disk is full")


WRITER = textwrap.dedent(
    """
    import sys
    from memory import Memory
    memory = Memory.open(sys.argv[1])
    for line in sys.stdin:
        print(memory.remember(line.strip(), "fact").fact.id, flush=True)
    """
)


def test_a_log_deleted_under_a_running_writer_loses_no_acknowledged_fact(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert writer.stdin is not None and writer.stdout is not None

    def remember(text: str) -> int:
        writer.stdin.write(text + "\n")
        writer.stdin.flush()
        return int(writer.stdout.readline())

    acknowledged = {remember("I like jazz"): "I like jazz"}
    Path(f"{path}-wal").unlink()  # a cleaner, or a careless rm
    acknowledged[remember("My sister lives in Madrid")] = "My sister lives in Madrid"
    acknowledged[remember("I take the bus to work")] = "I take the bus to work"
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait()

    memory = Memory.open(path)
    assert {fact.id: fact.text for fact in memory.facts()} == acknowledged
    assert memory.remember("I like tea", "preference").action is Action.ADDED


def test_a_forgotten_fact_stays_forgotten_after_a_log_is_saved(tmp_path: Path) -> None:
    """The rescue of a deleted log reopens the store; tombstones and links keep working."""
    path = tmp_path / "memory.db"
    memory = Memory.open(path)
    smoke = memory.remember("I smoke", "fact").fact
    memory.forget(smoke.id)
    Path(f"{path}-wal").unlink()
    memory.remember("My favourite editor is Vim", "preference")
    outcome = memory.remember("My favourite editor is Emacs", "preference")
    assert outcome.action is Action.CONFLICT
    relearned = memory.remember("I smoke", "fact", Source(Origin.EXTRACTED, "I smoke", "I smoke"))
    assert relearned.action is Action.IGNORED_FORGOTTEN


def test_a_memory_deleted_under_a_running_hearth_is_written_again_nothing_lost(
    tmp_path: Path,
) -> None:
    # Deleted with its log (a cleaner, a careless rm): reconnecting by name found a new empty
    # file, every turn after failed with "no such table", and all the store held was lost.
    path = tmp_path / "memory.db"
    memory = Memory.open(path)
    memory.remember("I like jazz", "preference")
    for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        leftover.unlink(missing_ok=True)
    assert [f.text for f in memory.facts()] == ["I like jazz"]  # read from the open copy
    memory.remember("My cat is called Miso", "person")  # acknowledged: must survive
    assert path.exists() and stat.S_IMODE(path.stat().st_mode) == 0o600
    memory.remember("I walk the dog at six", "routine")
    memory.close()
    again = Memory.open(path)
    assert sorted(f.text for f in again.facts()) == [
        "I like jazz", "I walk the dog at six", "My cat is called Miso"]  # fmt: skip
    again.close()
    # Deleted with no write after it: written again as the store closes.
    memory = Memory.open(path)
    for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        leftover.unlink(missing_ok=True)
    memory.close()
    assert len(Memory.open(path).facts()) == 3


def test_a_memory_replaced_under_a_store_never_acknowledges_a_write_it_loses(
    tmp_path: Path,
) -> None:
    # The brain and the learner each hold the file open. Deleted, the learner's store wrote it
    # again first; the brain's next write then went into the old, unlinked file and was lost
    # although acknowledged.
    path = tmp_path / "memory.db"
    brain, learner = Memory.open(path), Memory.open(path)
    brain.remember("I like jazz", "preference")
    for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        leftover.unlink(missing_ok=True)
    learner.remember("My cat is called Miso", "person")  # writes the file again
    with pytest.raises(StoreError, match="replaced while Hearth was writing") as replaced:
        brain.remember("I walk the dog at six", "routine")
    [saved] = tmp_path.glob("memory.db.saved-*")
    assert saved.name in str(replaced.value)
    kept = Memory.open(saved)
    assert "I walk the dog at six" in [f.text for f in kept.facts()]  # nothing silently gone
    kept.close()
    brain.remember("I walk the dog at six", "routine")  # said again: now in the file there
    brain.close()
    learner.close()
    assert sorted(f.text for f in Memory.open(path).facts()) == [
        "I like jazz", "I walk the dog at six", "My cat is called Miso"]  # fmt: skip
