"""The memory's tests run on both backends: ``backend`` is "sqlite" or "postgresql", and
``new_location()`` gives a fresh, empty place for a memory on it (a file under the test's folder,
or an empty database of the session's PostgreSQL server)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

BACKENDS = ("sqlite", "postgresql")

NewLocation = Callable[[], "Path | str"]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Which storage backend the test runs on."""
    return request.param


@pytest.fixture
def new_location(
    backend: str, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> NewLocation:
    """``new_location()``: where a new, empty memory can live on the test's backend (files in
    a folder of their own, so a test's ``tmp_path`` holds only what the test made)."""
    if backend == "postgresql":
        return request.getfixturevalue("postgres_databases")
    folder = tmp_path_factory.mktemp("stores")
    made: list[Path] = []

    def new_file() -> Path:
        made.append(folder / f"memory-{len(made) + 1}.db")
        return made[-1]

    return new_file
