"""Shared pieces of the schedule's tests: a store in a real database file, and readings of the
clocks made by hand (the clock is the scheduler's seam: it takes a reading, never reads one)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from assistant.schedule import Now, SchedulePolicy, Scheduler, ScheduleStore

START = 1_800_000_000.0  # 2027-01-15 08:00 UTC


@dataclass(frozen=True)
class Clocks:
    """The clocks of an imagined machine: wall, monotonic and boot, advanced together."""

    wall: float = START
    mono: float = 1000.0
    boot: str = "boot-1"

    @property
    def now(self) -> Now:
        return Now(self.wall, self.mono, self.boot)

    def after(self, seconds: float) -> Clocks:
        """Time passes: both clocks move."""
        return replace(self, wall=self.wall + seconds, mono=self.mono + seconds)

    def jumped(self, seconds: float) -> Clocks:
        """The wall clock is set (NTP): only it moves."""
        return replace(self, wall=self.wall + seconds)

    def rebooted(self, down_seconds: float, name: str) -> Clocks:
        """The machine was off this long and booted again: the monotonic clock starts afresh."""
        return Clocks(self.wall + down_seconds, 5.0, name)


@pytest.fixture
def database(tmp_path):
    return tmp_path / "memory.db"


@pytest.fixture
def open_scheduler(database):
    """``open_scheduler(policy=None)``: a new scheduler (a process start) over the same file."""
    stores = []

    def make(policy: SchedulePolicy | None = None) -> Scheduler:
        store = ScheduleStore.open(database)
        stores.append(store)
        return Scheduler(store, policy)

    yield make
    for store in stores:
        store.close()
