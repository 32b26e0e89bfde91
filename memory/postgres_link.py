"""One connection to a household's shared PostgreSQL database, kept usable across outages.

What every user of the shared database (the memory, the schedule) needs from it, and nothing
about their tables:

- Timeouts everywhere, so a lost database is an error in seconds, not a hang: libpq's connect
  timeout, TCP keepalives and ``tcp_user_timeout`` (a vanished host or network), on the server a
  statement timeout, a lock timeout (the "busy" wait) and an idle-in-transaction timeout (a
  device that hangs holding the writers' lock frees it), and the client's own deadline on each
  statement for a server process that has stopped (``memory.statement_watch``).
- Errors become StoreError, and MemoryUnavailable when the database cannot be reached, with the
  URL shown without its password. A broken connection is replaced on the next call, never in the
  middle of a transaction (that would drop what the transaction already did); after a failed
  attempt the next one waits ``retry_seconds``, so a down database costs every call nothing.
- Writing transactions are serialised across the household by one transaction-scoped advisory
  lock per table family, taken first thing: the same guarantee SQLite's ``BEGIN IMMEDIATE``
  gives one device, so rules written for one writer stay exact with several.
- A change counter (bumped once per writing transaction by the tables' triggers, announced with
  ``NOTIFY``) tells this connection when another one has committed, without a round trip.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import errors as pg_errors

from memory.location import PostgresTarget
from memory.statement_watch import StatementWatch
from memory.store import DuplicateKey, MemoryUnavailable, StoreError, StoreFailure

log = logging.getLogger(__name__)

_UNREACHABLE_STATES = frozenset({"57P01", "57P02", "57P03", "08000", "08003", "08006", "08001"})
"""SQLSTATEs that mean the server is going away, starting up or the link broke."""
_PASSWORD_REFUSED = ("password authentication failed", "no password supplied", "authentication")
_TRANSIENT = ("starting up", "shutting down", "in recovery", "too many", "not yet accepting")
"""What a server says when it will take the connection a moment later (libpq reports the
server's words without their SQLSTATE)."""
OVERDUE_MARGIN_SECONDS = 5.0
"""How long past the server's statement timeout the client waits before it cuts the connection:
a server that is only slow has answered (or timed itself out) by then."""


@dataclass(frozen=True)
class Tracking:
    """One family of tables on the shared database: its writers' lock, its change counter and
    the channel its commits are announced on."""

    lock: tuple[int, int]
    """The two keys of the transaction-scoped advisory lock every writing transaction takes."""
    counter_sql: str
    """A query reading the change counter (one row, one number)."""
    channel: str


Prepare = Callable[["PostgresLink"], None]


class PostgresLink:
    """A connection (replaced when it breaks) with the transactions and errors described above.

    ``prepare`` runs on every new connection before it is used: checking or migrating the
    tables; ``ready`` is False until it has succeeded once.
    """

    def __init__(self, target: PostgresTarget, tracking: Tracking, prepare: Prepare):
        self.target = target
        self.tracking = tracking
        self._prepare = prepare
        self._connection: psycopg.Connection | None = None
        self._connecting = False
        self._depth = 0
        self._next_attempt = 0.0
        self._last_failure: MemoryUnavailable | None = None
        self._was_connected = False
        self._seen = -1
        """The change count this connection has accounted for (its own commits and others')."""
        self._changes = 0
        """How many times others' commits (or a reconnection) were seen: the data version."""
        self._watch = StatementWatch(self._sever)
        self._watched: socket.socket | None = None

    # -- connecting ------------------------------------------------------------------------------

    def connect(self) -> None:
        """Connect now (and prepare); MemoryUnavailable when the database cannot be reached."""
        self._connected()

    def close(self) -> None:
        """Close the connection (committed work is already durable)."""
        self._watch.forget()  # a cut of this connection says nothing of the next
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def _connected(self) -> psycopg.Connection:
        connection = self._connection
        if connection is not None and not connection.closed and not connection.broken:
            if self._depth or _still_open(connection):
                return connection
            log.info("the memory database at %s closed the connection (restarted?); "
                     "connecting again", self.target.shown)  # fmt: skip
        if self._depth:
            # Never reconnect inside a transaction: the work it has done would silently vanish.
            raise self._lost("the connection broke during a change; the change was not saved")
        if connection is not None:
            connection.close()
            self._connection = None
        if self._connecting:
            raise self._lost("the connection broke while it was being set up")
        wait = self._next_attempt - time.monotonic()
        if wait > 0 and self._last_failure is not None:
            raise MemoryUnavailable(f"{self._last_failure} (trying again in {wait:.0f} s)")
        return self._reconnect()

    def _reconnect(self) -> psycopg.Connection:
        self._connecting = True
        try:
            self._connection = self._open()
            self._prepare(self)
            self.execute(f"LISTEN {self.tracking.channel}")
            self._seen = self._count()
        except MemoryUnavailable as failure:
            self._give_up(failure)
            raise
        except StoreError as refusal:
            # The tables refused once this link had worked (another device upgraded them to a
            # newer Hearth's): unusable for now, not a failure of every turn.
            failure = self._while_running(refusal)
            if not isinstance(failure, MemoryUnavailable):
                self.close()
                raise
            self._give_up(failure)
            raise failure from refusal
        except BaseException:
            self.close()
            raise
        finally:
            self._connecting = False
        self._changes += 1  # others' commits while away went unheard: every cache reloads
        self._was_connected = True
        if self._last_failure is not None:
            log.info("the memory database at %s is reachable again", self.target.shown)
        self._last_failure = None
        return self._connection

    def _open(self) -> psycopg.Connection:
        arguments = self.target.connect_arguments()
        try:
            return psycopg.connect(self.target.url, **arguments)
        except psycopg.Error as exc:
            reason = self.target.scrub(_first_line(exc), arguments.get("password", ""))
            refusal = self._refusal(exc, reason.removeprefix("connection failed: "))
            raise self._while_running(refusal) from None

    def _while_running(self, refusal: StoreError) -> StoreError:
        """A refusal (the login, a lost grant) once this link has worked: the memory is
        unusable for now, as if unreachable, so a running Hearth answers without it and tries
        again after ``retry_seconds``, instead of failing the turn and every one after it. At
        the first connection it stays a StoreError: the command line says what to fix."""
        if not self._was_connected or isinstance(refusal, MemoryUnavailable):
            return refusal
        return MemoryUnavailable(str(refusal))

    def _refusal(self, error: psycopg.Error, reason: str) -> StoreError:
        """A failed connection: a refusal to fix (a bad URL, the login, a missing database) is
        a StoreError; a server down, starting or full, or a failing network, is unavailable."""
        said = reason.lower()
        if isinstance(error, psycopg.ProgrammingError) or said.startswith("connection is bad"):
            return StoreError(f"{self.target.shown}: not a usable database URL: {reason}")
        if any(words in said for words in _PASSWORD_REFUSED):
            return StoreError(
                f"{self.target.shown}: the database refused the login: {reason} (the password "
                "comes from memory.password_file, PGPASSWORD, PGPASSFILE or ~/.pgpass)"
            )
        if "fatal:" in said and not any(words in said for words in _TRANSIENT):
            return StoreError(f"{self.target.shown}: the database refused Hearth: {reason}")
        return MemoryUnavailable(f"{self.target.shown}: cannot reach the memory database: {reason}")

    def _give_up(self, failure: MemoryUnavailable) -> None:
        """A connection attempt failed: the next waits ``retry_seconds``."""
        self._forget_connection(failure)
        self._next_attempt = time.monotonic() + self.target.retry_seconds

    def _lost(self, why: str) -> MemoryUnavailable:
        """A working connection broke: the next call tries a new one at once."""
        failure = MemoryUnavailable(f"{self.target.shown}: lost the memory database: {why}")
        self._forget_connection(failure)
        return failure

    def _forget_connection(self, failure: MemoryUnavailable) -> None:
        self.close()
        # Logged once an outage, not once a call; a first connection that fails is the caller's
        # to report (the command line prints it).
        if self._last_failure is None and self._was_connected:
            log.warning("%s", failure)
        self._last_failure = failure

    # -- statements ------------------------------------------------------------------------------

    def execute(self, sql: str, params: Sequence[Any] | None = None) -> list[tuple]:
        """Run one statement (or, without parameters, a script); its rows, if it returns any."""
        with self.errors():
            connection = self._connected()
            with self._watching(connection):
                cursor = connection.execute(sql, params)
                return cursor.fetchall() if cursor.description is not None else []

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement for each row of parameters."""
        if not rows:
            return
        with self.errors():
            connection = self._connected()
            with self._watching(connection), connection.cursor() as cursor:
                cursor.executemany(sql, rows)

    @contextmanager
    def _watching(self, connection: psycopg.Connection) -> Iterator[None]:
        """Cut the connection if a round trip outlives the server's own timeout for it (a
        pipeline of many rows is one round trip). The socket is held by a duplicate for the
        block, so the number cannot pass to another file while the watch may still shut it."""
        self._watched = socket.socket(fileno=os.dup(connection.fileno()))
        try:
            seconds = self.target.statement_timeout_seconds + OVERDUE_MARGIN_SECONDS
            with self._watch.watching(seconds):
                yield
        finally:
            self._watched.close()
            self._watched = None

    def _sever(self) -> None:
        """Shut the watched connection's socket (from the watch's thread): the statement
        waiting on it fails at once, and the connection is replaced on the next call."""
        watched = self._watched
        if watched is None:
            return
        try:
            watched.shutdown(socket.SHUT_RDWR)
        except OSError as error:
            log.warning("could not cut the memory database's connection: %s", error)

    @contextmanager
    def errors(self) -> Iterator[None]:
        """Turn psycopg's errors inside the block into StoreErrors saying what is wrong."""
        try:
            yield
        except psycopg.Error as error:
            raise self.explain(error) from error

    def explain(self, error: psycopg.Error) -> StoreError:
        """What a PostgreSQL error means for the user; unreachable ones mark the link broken."""
        if self._watch.overdue:
            return self._lost(
                f"it did not answer within {self.target.statement_timeout_seconds:g} s, nor "
                f"{OVERDUE_MARGIN_SECONDS:g} s after (its server has stopped responding); the "
                "change, if any, was not confirmed"
            )
        state = getattr(error, "sqlstate", None)
        connection = self._connection
        gone = connection is None or connection.closed or connection.broken
        if gone or state in _UNREACHABLE_STATES or isinstance(error, psycopg.InterfaceError):
            return self._lost(_first_line(error))
        if isinstance(error, pg_errors.LockNotAvailable):
            return StoreFailure(
                f"{self.target.shown}: the memory database is busy: another device has held it "
                f"locked for more than {self.target.busy_timeout_seconds:g} s; nothing was "
                "changed, try again once it lets go"
            )
        if isinstance(error, pg_errors.QueryCanceled):
            return MemoryUnavailable(
                f"{self.target.shown}: the memory database did not answer within "
                f"{self.target.statement_timeout_seconds:g} s; nothing was changed"
            )
        if isinstance(error, pg_errors.InsufficientPrivilege):
            refused = self._while_running(StoreError(
                f"{self.target.shown}: the database role may not do this: {_first_line(error)} "
                "(see the README for the grants Hearth needs)"
            ))  # fmt: skip
            if isinstance(refused, MemoryUnavailable):
                self._give_up(refused)  # asked again after retry_seconds, not at every call
            return refused
        if isinstance(error, pg_errors.UniqueViolation):
            return DuplicateKey(f"{self.target.shown}: {_first_line(error)}")
        return StoreError(
            f"{self.target.shown}: memory database error: {self.target.scrub(_first_line(error))}"
        )

    # -- transactions ----------------------------------------------------------------------------

    @contextmanager
    def atomic(self, *, tracked: bool = True) -> Iterator[None]:
        """A writing transaction, serialised with every other device's by the advisory lock;
        nested: a savepoint. Any exception rolls the block back and propagates (the first
        error, even when the rollback fails too). Returns only once the commit is durable.

        ``tracked=False`` is for a migration, which may run before the change counter exists.
        """
        if self._depth == 0:
            self.execute("BEGIN")
            try:
                self.execute("SELECT pg_advisory_xact_lock(%s, %s)", self.tracking.lock)
                if tracked:  # under the lock, so everything committed before is seen
                    self._note(self._count())
            except BaseException as error:
                self._roll_back(error)
                raise
        else:
            self.execute(f"SAVEPOINT s{self._depth}")
        self._depth += 1
        try:
            yield
        except BaseException as error:
            self._depth -= 1
            self._roll_back(error)
            raise
        self._depth -= 1
        if self._depth:
            self.execute(f"RELEASE s{self._depth}")
            return
        try:
            counted = self._count() if tracked else self._seen
            self.execute("COMMIT")
        except BaseException as error:
            self._roll_back(error)
            raise
        self._seen = max(self._seen, counted)  # this connection's own change, not another's

    def _roll_back(self, error: BaseException) -> None:
        """Undo the innermost open block; a failing rollback never hides the error behind it."""
        connection = self._connection
        if connection is None or connection.closed or connection.broken:
            return  # the server drops a transaction whose connection is gone
        try:
            with self._watching(connection):
                if self._depth:
                    connection.execute(f"ROLLBACK TO s{self._depth}")
                    connection.execute(f"RELEASE s{self._depth}")
                else:
                    connection.execute("ROLLBACK")
        except psycopg.Error as failure:
            log.warning("rolling back after %r failed too: %s", error, failure)

    @property
    def in_transaction(self) -> bool:
        """Whether a writing transaction is open."""
        return self._depth > 0

    # -- changes by others -----------------------------------------------------------------------

    def changes(self) -> int:
        """A number that changes when another connection has committed (or after a reconnect).

        Inside a transaction it reads the counter (exact, under the lock); outside one it takes
        the notifications already received, with no round trip to the server.
        """
        if self._depth:
            self._note(self._count())
            return self._changes
        connection = self._connected()
        own = connection.info.backend_pid
        with self.errors():
            for notice in connection.notifies(timeout=0):
                if notice.pid != own and notice.payload.isdigit():
                    self._note(int(notice.payload))
        return self._changes

    def _count(self) -> int:
        return int(self.execute(self.tracking.counter_sql)[0][0])

    def _note(self, counted: int) -> None:
        if counted > self._seen:
            self._changes += 1
            self._seen = counted


def _still_open(connection: psycopg.Connection) -> bool:
    """Whether an idle connection is still open at the server's end, found with no round trip: a
    server that restarted has closed it, and its socket already reads the goodbye. Without this
    the next call's first statement would fail and be refused though the database is back.
    Notifications read on the way are handed on as psycopg itself does."""
    pgconn = connection.pgconn
    try:
        # Reads what has arrived, never waiting (libpq's socket). The server's goodbye (a fatal
        # "terminating connection") comes before the end of the stream, which a second read
        # finds; on an open connection it reads nothing.
        pgconn.consume_input()
        pgconn.consume_input()
    except psycopg.OperationalError:
        return False
    while (notice := pgconn.notifies()) is not None:
        if pgconn.notify_handler is not None:
            pgconn.notify_handler(notice)
    return pgconn.status == psycopg.pq.ConnStatus.OK


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
