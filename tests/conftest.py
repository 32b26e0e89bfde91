"""Fixtures every test package may use: the Ollama-protocol server and systemd's notify socket."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hearth_run import NotifySocket
from tests.ollama_server import OllamaServer


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
