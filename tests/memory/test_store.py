"""The SQLite edge: creation, refusal of foreign files, migrations, append-only history."""

from __future__ import annotations

import hashlib
import sqlite3
import stat

import pytest

from memory.kinds import Kind
from memory.model import HistoryAction, Source
from memory.schema import APPLICATION_ID, LATEST_VERSION
from memory.store import FactStore, StoreError


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_new_database_is_private_wal_with_foreign_keys(tmp_path):
    path = tmp_path / "state" / "memory.db"
    store = FactStore.open(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    db = store._db
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert db.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION
    versions = [row[0] for row in db.execute("SELECT version FROM schema_migrations")]
    assert versions == list(range(1, LATEST_VERSION + 1))
    store.close()


def test_reopen_keeps_facts_and_does_not_migrate_twice(tmp_path):
    path = tmp_path / "memory.db"
    store = FactStore.open(path)
    with store.atomic():
        fact_id = store.insert_fact("I like jazz", Kind.PREFERENCE, Source(), False)
    store.close()
    store = FactStore.open(path)
    fact = store.get_fact(fact_id)
    assert fact is not None and fact.text == "I like jazz"
    assert store._db.execute("SELECT count(*) FROM schema_migrations").fetchone()[0] == 1
    store.close()


def test_empty_file_becomes_a_database(tmp_path):
    path = tmp_path / "memory.db"
    path.touch()
    FactStore.open(path).close()
    assert path.read_bytes().startswith(b"SQLite format 3")


@pytest.mark.parametrize(
    "content",
    [b"hello, this is a text file\n" * 10, b"\x00" * 4096, b"SQLite format 3\x00" + b"\xff" * 20],
    ids=["text", "zeros", "truncated-header"],
)
def test_a_file_that_is_not_a_memory_is_refused_untouched(tmp_path, content):
    path = tmp_path / "memory.db"
    path.write_bytes(content)
    before = digest(path)
    with pytest.raises(StoreError, match=r"memory\.db"):
        FactStore.open(path)
    assert digest(path) == before
    assert not (tmp_path / "memory.db-wal").exists()


def test_another_programs_database_is_refused_untouched(tmp_path):
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE songs (title TEXT)")
        other.execute("INSERT INTO songs VALUES ('Blue in Green')")
    other.close()
    before = digest(path)
    with pytest.raises(StoreError, match="another program"):
        FactStore.open(path)
    assert digest(path) == before


def test_a_damaged_memory_is_refused_untouched(tmp_path):
    path = tmp_path / "memory.db"
    store = FactStore.open(path)
    with store.atomic():
        for n in range(200):
            store.insert_fact(f"fact number {n}", Kind.FACT, Source(), False)
    store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xa5" * (4096 - 100)  # scribble over the schema page
    path.write_bytes(bytes(data))
    before = digest(path)
    with pytest.raises(StoreError, match="damaged"):
        FactStore.open(path)
    assert digest(path) == before


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "memory.db"
    FactStore.open(path).close()
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError, match="newer Hearth"):
        FactStore.open(path)


def test_history_cannot_be_deleted_or_rewritten():
    store = FactStore.open(":memory:")
    with store.atomic():
        fact_id = store.insert_fact("I like jazz", Kind.PREFERENCE, Source(), False)
        store.append_history(fact_id, HistoryAction.ADD, "I like jazz")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store._db.execute("DELETE FROM history")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store._db.execute("UPDATE history SET text = 'I like polka'")
    # Redaction (text to NULL) is the one change allowed, for a user's forget.
    store._db.execute("UPDATE history SET text = NULL")
    assert store.history(fact_id)[0].text is None


def test_atomic_rolls_back_everything_on_error():
    store = FactStore.open(":memory:")
    with pytest.raises(RuntimeError), store.atomic():
        store.insert_fact("I like jazz", Kind.PREFERENCE, Source(), False)
        with store.atomic():
            store.insert_fact("I like tea", Kind.PREFERENCE, Source(), False)
        raise RuntimeError("boom")
    assert store.fact_count() == 0


def test_nested_atomic_rolls_back_only_the_inner_block():
    store = FactStore.open(":memory:")
    with store.atomic():
        store.insert_fact("I like jazz", Kind.PREFERENCE, Source(), False)
        with pytest.raises(RuntimeError), store.atomic():
            store.insert_fact("I like tea", Kind.PREFERENCE, Source(), False)
            raise RuntimeError("boom")
    assert store.fact_count() == 1


def _open_and_close(path: str, results) -> None:
    try:
        FactStore.open(path).close()
        results.put("ok")
    except Exception as error:  # reported to the test
        results.put(repr(error))


def test_processes_creating_a_new_memory_at_once_all_succeed(tmp_path):
    import multiprocessing

    context = multiprocessing.get_context("fork")
    for attempt in range(25):
        path = str(tmp_path / f"memory-{attempt}.db")
        results = context.Queue()
        openers = [context.Process(target=_open_and_close, args=(path, results)) for _ in range(3)]
        for opener in openers:
            opener.start()
        for opener in openers:
            opener.join(30)
        assert [results.get(timeout=5) for _ in openers] == ["ok"] * 3
