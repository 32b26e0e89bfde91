"""The memory's tests run on both backends: ``backend`` is "sqlite" or "postgresql", and
``new_location()`` gives a fresh, empty place for a memory on it (a file under the test's folder,
or an empty database of the session's PostgreSQL server)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import Databases

BACKENDS = ("sqlite", "postgresql")


class Files:
    """``files()`` gives a new SQLite file's path in a folder of the test's own; ``recycle``
    deletes one."""

    def __init__(self, folder: Path):
        self.folder = folder
        self._made = 0

    def __call__(self) -> Path:
        self._made += 1
        return self.folder / f"memory-{self._made}.db"

    def recycle(self, path: Path) -> None:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Which storage backend the test runs on."""
    return request.param


@pytest.fixture
def new_location(
    backend: str, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Files | Databases:
    """``new_location()``: where a new, empty memory can live on the test's backend (files in
    a folder of their own, so a test's ``tmp_path`` holds only what the test made);
    ``new_location.recycle(place)`` empties one for reuse (a hypothesis example's)."""
    if backend == "postgresql":
        return request.getfixturevalue("postgres_databases")
    return Files(tmp_path_factory.mktemp("stores"))
