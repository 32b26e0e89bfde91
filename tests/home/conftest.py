"""Fixtures for the Home Assistant tests: a real Mosquitto broker per test."""

from __future__ import annotations

import shutil

import pytest

from tests.mosquitto import Mosquitto, Watcher


@pytest.fixture
def broker(tmp_path):
    """A Mosquitto broker on a free port of 127.0.0.1, stopped after the test."""
    if shutil.which("mosquitto") is None and not shutil.which("/usr/sbin/mosquitto"):
        pytest.fail("mosquitto is not installed: ./scripts/test installs it (Debian: mosquitto)")
    server = Mosquitto(tmp_path).start()
    yield server
    server.stop()


@pytest.fixture
def watcher(broker):
    """A client that sees everything published on the broker."""
    client = Watcher(broker)
    yield client
    client.close()
