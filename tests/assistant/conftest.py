"""Running the real ``hearth`` in file mode against an Ollama-protocol server on 127.0.0.1."""

from __future__ import annotations

from functools import partial

import pytest

from tests.hearth_run import ROOT, HearthRun, run_hearth

__all__ = ["ROOT", "HearthRun"]


@pytest.fixture
def hearth(tmp_path):
    """Call ``hearth(room_audio, settings_yaml=..., card=..., db=..., timeout=..., env=...,
    args=...)`` to run Hearth over a recording (``run_hearth`` in this test's folder); ``env``
    adds to the environment it runs in (``HEARTH_FAILPOINTS``, say), ``args`` to the ``run``
    command's options (``--start-time``, say)."""
    return partial(run_hearth, tmp_path)


@pytest.fixture
def unhinted(hearth, ollama, tmp_path):
    """Call ``unhinted(room_audio)`` to run Hearth over a recording with ``stt.hotwords`` empty
    (no word hand-fed to the ear) and the Ollama-protocol server; returns the run, after
    checking it exited cleanly, and the path of its memory database."""

    def run(room):
        db = tmp_path / "memory.db"
        done = hearth(room, f"ollama:\n  url: {ollama.url}\nstt:\n  hotwords: []\n", db=db)
        assert done.returncode == 0, done.summary()
        return done, db

    return run
