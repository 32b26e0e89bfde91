"""Fixtures for the Home Assistant tests: a real Mosquitto broker per test, and one real Home
Assistant core (with its own broker) for the whole session, since it takes a while to start."""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence

import pytest

from tests.audio.pulse import pulse  # noqa: F401 (a fixture, found by its name)
from tests.home_assistant import HomeAssistant, installed, venv
from tests.mosquitto import DYNAMIC_SECURITY, Certificates, Grant, Mosquitto, Watcher
from tests.servers import wait_for

USER, PASSWORD = "hearth", "correct horse battery staple"
"""The one user ``locked_broker`` admits."""


def one_stands_aside(first, second) -> tuple:
    """Start two devices given one id; once one stands aside: (the one aside, the holder)."""
    first.start()
    second.start()
    either = (first, second)
    wait_for("one to stand aside", lambda: any(h.standing_aside for h in either), timeout=60)
    aside, holder = (first, second) if first.standing_aside else (second, first)
    wait_for("the other to hold the id", lambda: holder.connected)
    return aside, holder


def _need_mosquitto() -> None:
    if shutil.which("mosquitto") is None and not shutil.which("/usr/sbin/mosquitto"):
        pytest.fail("mosquitto is not installed: ./scripts/test installs it (Debian: mosquitto)")


@pytest.fixture
def broker(tmp_path):
    """A Mosquitto broker on a free port of 127.0.0.1, stopped after the test."""
    _need_mosquitto()
    server = Mosquitto(tmp_path).start()
    yield server
    server.stop()


@pytest.fixture
def locked_broker(tmp_path):
    """A broker that admits only ``USER`` with ``PASSWORD``."""
    _need_mosquitto()
    server = Mosquitto(tmp_path, users={USER: PASSWORD}).start()
    yield server
    server.stop()


@pytest.fixture
def acl_broker(tmp_path):
    """Makes brokers that admit only ``USER`` with ``PASSWORD`` and grant it some topics: those
    of an ``acl_file``'s text (given without its ``user`` line), or dynamic-security ``Grant``s;
    each is stopped after the test."""
    started: list[Mosquitto] = []

    def make(rules: str | Sequence[Grant]) -> Mosquitto:
        _need_mosquitto()
        folder = tmp_path / f"acl-{len(started)}"
        folder.mkdir()
        users = {USER: PASSWORD}
        if isinstance(rules, str):
            server = Mosquitto(folder, users=users, acl=f"user {USER}\n{rules}")
        else:
            if not DYNAMIC_SECURITY:
                pytest.fail("Mosquitto's dynamic-security plugin is missing (Debian: mosquitto)")
            server = Mosquitto(folder, users=users, grants=rules)
        started.append(server)
        return server.start()

    yield make
    for server in started:
        server.stop()


@pytest.fixture
def certificates(tmp_path):
    """A certificate authority of the test's own, and a server certificate it signed."""
    return Certificates.make(tmp_path)


@pytest.fixture
def tls_broker(tmp_path, certificates):
    """A broker speaking only TLS, with a server certificate signed by ``certificates.ca``."""
    _need_mosquitto()
    server = Mosquitto(tmp_path, certificates=certificates).start()
    yield server
    server.stop()


@pytest.fixture
def watcher(broker):
    """A client that sees everything published on the broker."""
    client = Watcher(broker)
    yield client
    client.close()


@pytest.fixture(scope="session")
def home_broker(tmp_path_factory):
    """The broker Home Assistant's MQTT integration uses, for the session."""
    _need_mosquitto()
    server = Mosquitto(tmp_path_factory.mktemp("home-broker")).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def home(tmp_path_factory, home_broker):
    """Home Assistant 2024.3.3, onboarded, with MQTT on ``home_broker``, its demo lights and its
    default conversation agent; one for the session (tests leave it as they would find it)."""
    if not installed():
        message = f"Home Assistant is not installed at {venv()}: ./scripts/test builds it"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    server = HomeAssistant(tmp_path_factory.mktemp("home")).start()
    server.add_mqtt(home_broker.port)
    yield server
    server.stop()
