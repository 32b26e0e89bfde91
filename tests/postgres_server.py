"""A throw-away PostgreSQL server for tests and benches: Debian's ``postgresql`` binaries, a new
cluster under a temporary folder, on a free port of 127.0.0.1 with its unix socket in that folder.

PostgreSQL refuses to run as root, so as root ``initdb`` and ``pg_ctl`` run as the ``postgres``
user (``runuser``), which owns the folder. Two roles: the cluster's superuser for administration
over the socket (trusted), and ``hearth_secret``, the one role that must give a password over TCP,
for the tests of ``memory.password_file`` and libpq's ``PGPASSWORD``.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import psycopg

SECRET_ROLE = "hearth_secret"
SECRET_PASSWORD = "correct horse battery staple"
ADMIN_ROLE = "postgres"


def server_binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``, or None when PostgreSQL is not installed."""
    candidates = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name), reverse=True
    )
    found = shutil.which("pg_ctl")
    if found:
        candidates.append(Path(found).resolve().parent)
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    """One cluster: ``start()``, ``url(db)``, ``new_database()``, ``crash()``, ``stop()``."""

    def __init__(self, binaries: Path):
        self.binaries = binaries
        self.root = Path(tempfile.mkdtemp(prefix="hearth-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self._as_root = os.geteuid() == 0
        self._databases = 0
        self._clean: list[str] = []
        """Databases handed back by finished tests, emptied, ready for the next."""
        if self._as_root:
            user = pwd.getpwnam(ADMIN_ROLE)
            os.chown(self.root, user.pw_uid, user.pw_gid)
        self._initdb()

    def _run(self, *argv: str, check: bool = True) -> subprocess.CompletedProcess:
        command = [str(self.binaries / argv[0]), *argv[1:]]
        if self._as_root:
            command = ["runuser", "-u", ADMIN_ROLE, "--", *command]
        return subprocess.run(command, capture_output=True, text=True, check=check, timeout=120)

    def _initdb(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", ADMIN_ROLE, "--auth-local=trust",
                  "--auth-host=trust", "-E", "UTF8", "--no-instructions", "--no-sync")  # fmt: skip
        hba = self.data / "pg_hba.conf"
        # The secret role must prove itself over TCP; every other role is trusted (a test cluster).
        lines = hba.read_text().splitlines()
        first_host = next(i for i, line in enumerate(lines) if line.startswith("host"))
        lines.insert(first_host, f"host all {SECRET_ROLE} 127.0.0.1/32 scram-sha-256")
        hba.write_text("\n".join(lines) + "\n")
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write(
                f"port = {self.port}\nlisten_addresses = '127.0.0.1'\n"
                f"unix_socket_directories = '{self.root}'\nmax_connections = 200\n"
                # A crash test stops the server with -m immediate: fsync stays on, as deployed.
                "shared_buffers = 32MB\nlog_min_messages = warning\n"
            )

    def start(self) -> PostgresServer:
        """Start the server and wait until it accepts connections."""
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"), "-w",
                  "-t", "60", "start")  # fmt: skip
        with self.admin() as admin:
            exists = admin.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (SECRET_ROLE,))
            if exists.fetchone() is None:
                admin.execute(f"CREATE ROLE {SECRET_ROLE} LOGIN PASSWORD '{SECRET_PASSWORD}'")
        return self

    def crash(self) -> None:
        """Stop the server at once, as a crash or a power cut of its host would (no checkpoint)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def stop(self) -> None:
        """Stop the server (if it runs)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop", check=False)

    def remove(self) -> None:
        """Stop the server (at once: nothing in it is kept) and delete the cluster."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop", check=False)
        shutil.rmtree(self.root, ignore_errors=True)

    @contextlib.contextmanager
    def admin(self, database: str = "postgres") -> Iterator[psycopg.Connection]:
        """A superuser connection over the unix socket, in autocommit."""
        with psycopg.connect(
            host=str(self.root), port=self.port, user=ADMIN_ROLE, dbname=database, autocommit=True
        ) as connection:
            yield connection

    def url(self, database: str, user: str = ADMIN_ROLE) -> str:
        """A libpq URL for a database over TCP."""
        return f"postgresql://{user}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """An empty database (the secret role may use it too); returns its URL."""
        if self._clean:
            return self.url(self._clean.pop())
        self._databases += 1
        name = f"hearth_{self._databases}"
        with self.admin() as admin:
            admin.execute(f"CREATE DATABASE {name}")
            admin.execute(f"GRANT ALL ON DATABASE {name} TO {SECRET_ROLE}")
        with self.admin(name) as admin:
            admin.execute(f"GRANT ALL ON SCHEMA public TO {SECRET_ROLE}")
        return self.url(name)

    def hand_back(self, url: str) -> None:
        """Empty a database a test is done with (ending its connections) for the next test:
        cheaper than creating one, which copies a template."""
        name = url.rsplit("/", 1)[1]
        with self.admin() as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND pid != pg_backend_pid()",
                (name,),
            )
        with self.admin(name) as admin:
            schemas = admin.execute(
                "SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' "
                "AND nspname NOT IN ('information_schema', 'public')"
            ).fetchall()
            for (schema,) in schemas:
                admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
            admin.execute(f"GRANT ALL ON SCHEMA public TO {SECRET_ROLE}")
        with self.admin() as admin:  # as new: a test may have taken the grants away
            admin.execute(f"GRANT ALL ON DATABASE {name} TO {SECRET_ROLE}")
        self._clean.append(name)


def as_role(url: str, role: str, password: str | None = None) -> str:
    """The same database's URL, logging in as another role (with a password in the URL)."""
    login = role if password is None else f"{role}:{quote(password, safe='')}"
    return url.replace(f"//{ADMIN_ROLE}@", f"//{login}@", 1)


def start_server() -> PostgresServer | None:
    """A started server, or None when the PostgreSQL server binaries are not installed."""
    binaries = server_binaries()
    if binaries is None:
        return None
    return PostgresServer(binaries).start()
