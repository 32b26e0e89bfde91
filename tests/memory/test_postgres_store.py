"""The PostgreSQL edge: its schema and migrations, the history's triggers, refusals, logging in."""

from __future__ import annotations

import logging
import threading

import psycopg
import pytest

from config import ConfigError, load_settings
from memory import Memory, MemoryUnavailable, PostgresTarget, StoreError
from memory.postgres_schema import LATEST_VERSION, MIGRATIONS
from memory.postgres_store import MEMORY_LOCK, PostgresStore
from memory.schema import MIGRATIONS as SQLITE_MIGRATIONS
from tests.postgres_server import SECRET_PASSWORD, SECRET_ROLE, as_role


def tables(url: str, schema: str = "hearth") -> set[str]:
    with psycopg.connect(url) as raw:
        rows = raw.execute("SELECT tablename FROM pg_tables WHERE schemaname = %s", (schema,))
        return {row[0] for row in rows}


def test_both_backends_have_the_same_numbered_migrations():
    assert [number for number, _ in MIGRATIONS] == [number for number, _ in SQLITE_MIGRATIONS]


def test_a_new_memory_lives_in_its_schema_with_each_migration_recorded(postgres_databases):
    url = postgres_databases()
    Memory.open(url).close()
    assert {"facts", "history", "conflicts", "near_misses", "tombstones", "vectors",
            "fact_keys", "schema_migrations"} <= tables(url)  # fmt: skip
    assert tables(url, "public") == set()  # nothing outside the hearth schema
    Memory.open(url).close()  # reopening migrates nothing again
    with psycopg.connect(url) as raw:
        versions = raw.execute("SELECT version FROM hearth.schema_migrations ORDER BY 1")
        assert [row[0] for row in versions] == list(range(1, LATEST_VERSION + 1))


def test_devices_opening_a_new_memory_at_once_all_succeed(postgres_databases):
    failures: list[BaseException] = []

    def open_and_close(url: str) -> None:
        try:
            Memory.open(url).close()
        except BaseException as error:  # reported to the test
            failures.append(error)

    for _ in range(3):
        url = postgres_databases()
        threads = [threading.Thread(target=open_and_close, args=(url,)) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert failures == []


def test_the_history_is_append_only_in_the_database_itself(postgres_databases):
    url = postgres_databases()
    memory = Memory.open(url)
    fact = memory.remember("I like jazz", "preference").fact
    with psycopg.connect(url, autocommit=True) as raw:
        for statement in (
            "DELETE FROM hearth.history",
            "UPDATE hearth.history SET text = 'polka'",
            "UPDATE hearth.history SET at = 0",
            "TRUNCATE hearth.history",
        ):
            with pytest.raises(psycopg.errors.IntegrityConstraintViolation, match="append-only"):
                raw.execute(statement)
        # Redaction (text to NULL) is the one change allowed, for a user's forget.
        raw.execute("UPDATE hearth.history SET text = NULL")
    assert memory.history(fact.id)[0].text is None
    memory.close()


def test_a_memory_from_a_newer_hearth_is_refused(postgres_databases):
    url = postgres_databases()
    Memory.open(url).close()
    with psycopg.connect(url) as raw:
        raw.execute("INSERT INTO hearth.schema_migrations VALUES (%s, 0)", (LATEST_VERSION + 1,))
    with pytest.raises(StoreError, match="newer Hearth"):
        Memory.open(url)


def test_a_memory_upgraded_by_another_device_while_running_is_unusable_not_an_error(
    postgres_databases,
):
    # The kitchen's newer Hearth upgraded the shared tables; the living room's older one
    # connects again after a blip. Every turn there failed with the refusal ("Sorry, something
    # went wrong"); now the memory is unusable, as if unreachable, and tried again later.
    url = postgres_databases()
    memory = Memory.open(PostgresTarget(url, retry_seconds=300))
    memory.remember("I like jazz", "preference")
    with psycopg.connect(url, autocommit=True) as raw:
        raw.execute("INSERT INTO hearth.schema_migrations VALUES (%s, 0)", (LATEST_VERSION + 1,))
        raw.execute("SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()")  # fmt: skip
    with pytest.raises(MemoryUnavailable, match="newer Hearth"):
        memory.facts()
    with pytest.raises(MemoryUnavailable, match="trying again in"):
        memory.facts()  # not checked at every call
    memory.close()


def test_another_programs_hearth_schema_is_refused_untouched(postgres_databases):
    url = postgres_databases()
    with psycopg.connect(url) as raw:
        raw.execute("CREATE SCHEMA hearth")
        raw.execute("CREATE TABLE hearth.photos (title TEXT)")
        raw.execute("INSERT INTO hearth.photos VALUES ('Blue in Green')")
    with pytest.raises(StoreError, match="another program's tables"):
        Memory.open(url)
    assert tables(url) == {"photos"}


def test_a_command_that_only_reads_creates_nothing(postgres_databases):
    url = postgres_databases()
    with pytest.raises(StoreError, match="no Hearth memory in this database"):
        Memory.open(url, create=False)
    with psycopg.connect(url) as raw:
        assert raw.execute("SELECT 1 FROM pg_namespace WHERE nspname = 'hearth'").fetchone() is None


def test_the_password_comes_from_a_file_or_libpq_and_is_never_shown(
    postgres_databases, tmp_path, monkeypatch, caplog
):
    url = as_role(postgres_databases(), SECRET_ROLE)
    caplog.set_level(logging.DEBUG)
    secret = tmp_path / "password"
    secret.write_text(SECRET_PASSWORD + "\n")
    memory = Memory.open(PostgresTarget(url, password_file=secret))
    memory.remember("I like jazz", "preference")
    memory.close()
    monkeypatch.setenv("PGPASSWORD", SECRET_PASSWORD)  # libpq's own variable
    assert [f.text for f in Memory.open(url).facts()] == ["I like jazz"]
    monkeypatch.delenv("PGPASSWORD")

    with pytest.raises(StoreError, match="refused the login") as no_password:
        Memory.open(url)
    wrong = tmp_path / "wrong"
    wrong.write_text("hunter2")
    with pytest.raises(StoreError, match="refused the login") as wrong_password:
        Memory.open(PostgresTarget(url, password_file=wrong))
    in_url = as_role(url.replace(SECRET_ROLE, "postgres"), SECRET_ROLE, "hunter2")
    with pytest.raises(StoreError, match="refused the login") as in_the_url:
        Memory.open(in_url)
    # libpq quotes the part of a URL it cannot read: a password with a space, unencoded.
    unencoded = in_url.replace("hunter2", "hunter 2")
    with pytest.raises(StoreError, match="not a usable database URL") as unreadable:
        Memory.open(unencoded)
    refusals = (no_password, wrong_password, in_the_url, unreadable)
    said = " ".join(str(e.value) for e in refusals)
    assert "hunter" not in said and SECRET_PASSWORD not in said and ":***@" in said
    assert "hunter" not in caplog.text and SECRET_PASSWORD not in caplog.text
    with pytest.raises(StoreError, match=r"password_file .*cannot read"):
        Memory.open(PostgresTarget(url, password_file=tmp_path / "missing"))


def test_a_role_that_may_not_create_the_schema_is_told_what_to_ask_for(postgres_databases):
    admin_url = postgres_databases()
    name = admin_url.rsplit("/", 1)[1]
    with psycopg.connect(admin_url, autocommit=True) as raw:
        raw.execute(f"REVOKE CREATE ON DATABASE {name} FROM {SECRET_ROLE}")
    url = as_role(admin_url, SECRET_ROLE, SECRET_PASSWORD)
    with pytest.raises(StoreError, match="may not") as refused:
        Memory.open(url)
    assert "README" in str(refused.value)
    with psycopg.connect(admin_url) as raw:  # what the README tells the database's owner to do
        raw.execute(f"CREATE SCHEMA hearth AUTHORIZATION {SECRET_ROLE}")
    Memory.open(url).close()


def test_nothing_listening_is_unavailable_not_a_driver_error(postgres_server):
    target = PostgresTarget(postgres_server.url("postgres").replace(
        str(postgres_server.port), "1"))  # fmt: skip
    with pytest.raises(MemoryUnavailable, match="cannot reach the memory database"):
        Memory.open(target)
    # A device may start while its database is down: the memory opens, and each call says so.
    store = PostgresStore.open(target, wait=False)
    memory = Memory(store)
    with pytest.raises(MemoryUnavailable):
        memory.facts()
    with pytest.raises(MemoryUnavailable, match="trying again in"):
        memory.remember("I like jazz", "preference")  # no new attempt for retry_seconds


def test_the_settings_name_a_shared_memory(tmp_path):
    path = tmp_path / "assistant.yaml"
    path.write_text("memory:\n  database: postgresql://hearth@db.lan/hearth\n")
    settings = load_settings(path, environ={}, search_path=[])
    assert settings.memory.database == "postgresql://hearth@db.lan/hearth"  # not folded as a Path
    for text, said in (
        ("memory:\n  database: mysql://db.lan/hearth\n", "no database Hearth knows"),
        ("memory:\n  database: /var/lib/m.db\n  password_file: /etc/pw\n", "password_file"),
    ):
        path.write_text(text)
        with pytest.raises(ConfigError, match=said):
            load_settings(path, environ={}, search_path=[])


def test_a_write_waiting_on_another_devices_lock_says_busy_and_changes_nothing(
    postgres_databases,
):
    url = postgres_databases()
    memory = Memory.open(PostgresTarget(url, busy_timeout_seconds=0.3))
    with psycopg.connect(url) as other:  # another device, in the middle of a write
        other.execute("SELECT pg_advisory_xact_lock(%s, %s)", MEMORY_LOCK)
        with pytest.raises(StoreError, match="busy: another device") as busy:
            memory.remember("I like jazz", "preference")
        assert not isinstance(busy.value, MemoryUnavailable)
    assert memory.facts() == []
    assert memory.remember("I like jazz", "preference").fact.text == "I like jazz"
    memory.close()


def test_a_login_refused_while_running_leaves_the_memory_unusable_for_a_while(
    postgres_server, postgres_databases, tmp_path
):
    # A running Hearth whose role's password changed (or whose rights were revoked) under it:
    # a StoreError from every call made its brain thread die and the service exit. Now the
    # memory is unusable, as if unreachable: the brain answers without it and tries again.
    url = as_role(postgres_databases(), SECRET_ROLE)
    secret = tmp_path / "password"
    secret.write_text(SECRET_PASSWORD)
    memory = Memory.open(PostgresTarget(url, password_file=secret, retry_seconds=30))
    memory.remember("I like jazz", "preference")
    with postgres_server.admin() as admin:
        admin.execute(f"ALTER ROLE {SECRET_ROLE} PASSWORD 'changed'")
        # With a timeout, it returns once the connection has ended.
        admin.execute("SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity "
                      f"WHERE usename = '{SECRET_ROLE}'")  # fmt: skip
    try:
        # The ended connection is found closed before the call uses it, and the login again
        # is what fails: the real cause, said at once.
        with pytest.raises(MemoryUnavailable, match="refused the login"):
            memory.facts()
        with pytest.raises(MemoryUnavailable, match="trying again in"):
            memory.facts()  # no new login until the wait is over
    finally:
        with postgres_server.admin() as admin:
            admin.execute(f"ALTER ROLE {SECRET_ROLE} PASSWORD '{SECRET_PASSWORD}'")
        memory.close()
    # Refused at the first connection, it is still what the command line says to fix.
    wrong = tmp_path / "wrong"
    wrong.write_text("hunter2")
    with pytest.raises(StoreError, match="refused the login") as first:
        Memory.open(PostgresTarget(url, password_file=wrong))
    assert not isinstance(first.value, MemoryUnavailable)
