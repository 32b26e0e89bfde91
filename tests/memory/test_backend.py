"""The storage backend seam: the rules need nothing of a store beyond MemoryBackend."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from memory import Action, Memory, Origin, Source, StoreError, read_export
from memory.backends import open_backend
from memory.postgres_store import PostgresStore
from memory.store import FactStore, MemoryBackend

ROOT = Path(__file__).resolve().parents[2]
MEMBERS = frozenset(name for name in dir(MemoryBackend) if not name.startswith("_")) | frozenset(
    MemoryBackend.__annotations__
)


class OnlyTheInterface:
    """A backend that forwards the protocol's operations to a FactStore and nothing else, so a
    rule reaching past the interface fails here as it would on another database."""

    def __init__(self, store: MemoryBackend) -> None:
        self._store = store

    def __getattr__(self, name: str) -> object:
        if name not in MEMBERS:
            raise AttributeError(f"{name} is not part of MemoryBackend")
        return getattr(self._store, name)


def test_both_stores_are_memory_backends(new_location) -> None:
    store = open_backend(new_location())
    assert isinstance(store, MemoryBackend)
    store.close()


def test_every_rule_runs_through_the_interface_alone(tmp_path: Path, new_location) -> None:
    memory = Memory(OnlyTheInterface(open_backend(new_location())))  # type: ignore[arg-type]
    vim = memory.remember("My favourite editor is Vim", "preference").fact
    emacs = memory.remember("My favourite editor is Emacs", "preference")
    assert emacs.action is Action.CONFLICT
    assert memory.remember("Vim is my favourite editor", "preference").action is Action.MERGED
    memory.resolve(emacs.fact.id)
    assert memory.remember("My favourite editor is Vim", "preference").action is Action.REVIVED
    memory.keep_both(vim.id)
    smoke = memory.remember("I smoke", "fact").fact
    memory.forget(smoke.id)
    heard = Source(Origin.EXTRACTED, "I smoke", "I smoke")
    assert memory.remember("I smoke", "fact", heard).action is Action.IGNORED_FORGOTTEN
    memory.set_pinned(vim.id, True)
    memory.mark_asked([vim.id])
    assert memory.find("my favourite editor") is not None
    assert "Vim" in memory.recall("which editor do I use").render()
    assert memory.near_misses(vim.id) == [] and memory.conflicts() == []
    memory.export(tmp_path / "export.json")
    other = Memory(OnlyTheInterface(open_backend(new_location())))  # type: ignore[arg-type]
    assert len(other.import_export(read_export(tmp_path / "export.json")).added) == 3
    assert len(memory.history()) == len([e for e in other.history() if e.action != "import"])


def test_a_backend_error_reaches_the_caller_as_a_store_error(tmp_path: Path) -> None:
    store = FactStore.open(tmp_path / "memory.db")
    with pytest.raises(StoreError, match="memory database"), store.errors():
        store.facts_by_ids([1])
        store.history(None)
        raise sqlite3.OperationalError("no such table: facts")


def test_a_postgresql_error_reaches_the_caller_as_a_store_error(postgres_databases) -> None:
    import psycopg

    store = PostgresStore.open(postgres_databases())
    with pytest.raises(StoreError, match="memory database error") as raised, store.errors():
        store.facts_by_ids([1])
        raise psycopg.errors.UndefinedTable("relation facts does not exist")
    assert not isinstance(raised.value, psycopg.Error)
    store.close()


def test_the_rules_speak_no_sql() -> None:
    for name in ("facts.py", "transfer.py", "recall.py"):
        text = (ROOT / "memory" / name).read_text(encoding="utf-8")
        assert not re.search(r"^\s*import sqlite3|^\s*from sqlite3", text, re.M), name
        assert "execute(" not in text, name
