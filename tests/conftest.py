"""Fixtures every test package may use: the Ollama-protocol server, systemd's notify socket,
a real PostgreSQL server, started once per session, and a DNS that never answers
(``deaf_dns``, from ``tests/deaf_dns.py``).

The PostgreSQL server is Debian's ``postgresql`` (``scripts/test`` installs it), a throw-away
cluster under a temporary folder (see ``tests/postgres_server.py``). Tests that need it are
skipped only when the server's binaries are not installed, and the session's summary then says
so loudly.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hearth_run import NotifySocket
from tests.ollama_server import OllamaServer
from tests.postgres_server import PostgresServer, server_binaries, start_server

pytest_plugins = ["tests.deaf_dns"]

NO_SERVER = (
    "PostgreSQL server binaries (initdb, pg_ctl) are not installed: every PostgreSQL test was "
    "SKIPPED. Install Debian's `postgresql` (./scripts/test does) to run them."
)


@pytest.fixture
def ollama() -> Iterator[OllamaServer]:
    """An Ollama-protocol server on 127.0.0.1 (script it with ``ollama.script(Reply(...))``)."""
    with OllamaServer() as server:
        yield server


@pytest.fixture
def notify(tmp_path: Path) -> Iterator[NotifySocket]:
    """systemd's end of sd_notify; give Hearth ``notify.environment``."""
    listener = NotifySocket(tmp_path / "notify")
    yield listener
    listener.close()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """The session's PostgreSQL server (skips the test when PostgreSQL is not installed)."""
    server = start_server()
    if server is None:
        pytest.skip(NO_SERVER)
    yield server
    server.remove()


class Databases:
    """``databases()`` gives the URL of an empty database of the session's server; each is
    emptied for another test after this one (or at once by ``recycle``)."""

    def __init__(self, server: PostgresServer):
        self.server = server
        self._handed: list[str] = []

    def __call__(self) -> str:
        self._handed.append(self.server.new_database())
        return self._handed[-1]

    def recycle(self, url: str) -> None:
        """Empty a database now (ending its connections), for the next ``databases()``."""
        self._handed.remove(url)
        self.server.hand_back(url)

    def recycle_all(self) -> None:
        for url in list(self._handed):
            self.recycle(url)


@pytest.fixture
def postgres_databases(postgres_server: PostgresServer) -> Iterator[Databases]:
    """Empty databases of the session's PostgreSQL server (see Databases)."""
    databases = Databases(postgres_server)
    yield databases
    databases.recycle_all()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if server_binaries() is None:
        terminalreporter.write_sep("!", NO_SERVER, red=True, bold=True)
