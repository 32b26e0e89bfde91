"""Claims and progress through the household's shared PostgreSQL database.

Two small tables beside the memory's, in its ``hearth`` schema, created only once the memory
has made the schema Hearth's (so the memory never finds "another program's tables" there):
``wake_claims`` (one row per wake word a device accepted) and ``wake_progress`` (one row per
device: how far it has heard, and when it last said so, on the server's clock, so devices'
clocks need not agree for freshness). Claims older than an hour are cleared now and then.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from assistant.arbitration.arbiter import Unreachable
from assistant.arbitration.claims import Claim, Peer
from memory import (
    APPLICATION_ID,
    MemoryUnavailable,
    PostgresLink,
    PostgresTarget,
    StoreError,
    Tracking,
)

WAKE_LOCK = (APPLICATION_ID, 3)
"""Only for creating the tables: two devices starting at once must not both create them."""

TABLES = """
CREATE TABLE IF NOT EXISTS hearth.wake_claims (
    device TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    score DOUBLE PRECISION NOT NULL,
    level_db DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (device, at)
);
CREATE TABLE IF NOT EXISTS hearth.wake_progress (
    device TEXT PRIMARY KEY,
    heard_until DOUBLE PRECISION NOT NULL,
    seen_at TIMESTAMPTZ NOT NULL
);
"""

KEEP_CLAIMS_SECONDS = 3600.0


class PostgresTransport:
    """The arbitration's transport on the shared database, on a connection of its own."""

    def __init__(self, target: PostgresTarget):
        tracking = Tracking(WAKE_LOCK, "SELECT 0", "hearth_wakes")
        self._link = PostgresLink(target, tracking, self._prepare)

    def _prepare(self, link: PostgresLink) -> None:
        ((ours,),) = link.execute("SELECT to_regclass('hearth.schema_migrations') IS NOT NULL")
        if not ours:  # retried after the link's pause, like a database that is down
            shown = self._link.target.shown
            raise MemoryUnavailable(f"{shown}: the shared memory is not set up yet")
        with link.atomic(tracked=False):
            link.execute(TABLES)

    def claim(self, claim: Claim) -> None:
        """Store the claim (a repeated one is stored once)."""
        with _reachable():
            self._link.execute(
                "INSERT INTO hearth.wake_claims (device, at, score, level_db) "
                "VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (claim.device, claim.at, claim.score, claim.level_db),
            )
            self._link.execute(
                "DELETE FROM hearth.wake_claims WHERE at < %s",
                (claim.at - KEEP_CLAIMS_SECONDS,),
            )

    def heard_until(self, device: str, at: float) -> None:
        """Say how far ``device`` has heard (and that it is there)."""
        with _reachable():
            self._link.execute(
                "INSERT INTO hearth.wake_progress (device, heard_until, seen_at) "
                "VALUES (%s, %s, clock_timestamp()) ON CONFLICT (device) DO UPDATE "
                "SET heard_until = excluded.heard_until, seen_at = excluded.seen_at",
                (device, at),
            )

    def view(self, since: float, peer_timeout: float) -> tuple[list[Claim], list[Peer]]:
        """Recent claims, and the devices heard from lately."""
        with _reachable():
            claims = self._link.execute(
                "SELECT device, at, score, level_db FROM hearth.wake_claims WHERE at >= %s",
                (since,),
            )
            peers = self._link.execute(
                "SELECT device, heard_until FROM hearth.wake_progress "
                "WHERE seen_at > clock_timestamp() - make_interval(secs => %s)",
                (peer_timeout,),
            )
        return [Claim(*row) for row in claims], [Peer(*row) for row in peers]

    clock_owner = "the shared database's"

    def clock_ahead(self, wall: float) -> float | None:
        """How far the database server's clock is ahead of ``wall``."""
        with _reachable():
            ((server,),) = self._link.execute("SELECT extract(epoch FROM clock_timestamp())")
        return float(server) - wall

    def close(self) -> None:
        """Close the connection."""
        self._link.close()


@contextmanager
def _reachable() -> Iterator[None]:
    """The database's errors as the arbitration's: whatever goes wrong, the others are out of
    reach for this wake, and the device answers by itself."""
    try:
        yield
    except StoreError as error:
        raise Unreachable(str(error)) from error
