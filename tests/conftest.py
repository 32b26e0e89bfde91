"""Fixtures every test package may use: a real PostgreSQL server, started once per session.

The server is Debian's ``postgresql`` (``scripts/test`` installs it), a throw-away cluster under a
temporary folder (see ``tests/postgres_server.py``). Tests that need it are skipped only when the
server's binaries are not installed, and the session's summary then says so loudly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.postgres_server import PostgresServer, server_binaries, start_server

NO_SERVER = (
    "PostgreSQL server binaries (initdb, pg_ctl) are not installed: every PostgreSQL test was "
    "SKIPPED. Install Debian's `postgresql` (./scripts/test does) to run them."
)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """The session's PostgreSQL server (skips the test when PostgreSQL is not installed)."""
    server = start_server()
    if server is None:
        pytest.skip(NO_SERVER)
    yield server
    server.remove()


@pytest.fixture
def postgres_databases(postgres_server: PostgresServer) -> Iterator[Callable[[], str]]:
    """``new()`` gives the URL of an empty database of the session's server; each is emptied
    again after the test."""
    handed: list[str] = []

    def new() -> str:
        handed.append(postgres_server.new_database())
        return handed[-1]

    yield new
    for url in handed:
        postgres_server.hand_back(url)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if server_binaries() is None:
        terminalreporter.write_sep("!", NO_SERVER, red=True, bold=True)
