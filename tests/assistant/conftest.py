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
