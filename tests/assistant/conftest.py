"""Running the real ``hearth`` in file mode against an Ollama-protocol server on 127.0.0.1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from audio.wav import read_wav, write_wav
from tests.ollama_server import OllamaServer
from tests.speech import room_noise

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class HearthRun:
    """What one ``hearth run --input`` produced."""

    returncode: int
    stdout: str
    stderr: str
    events: list[dict[str, Any]]
    reply_audio: np.ndarray

    def of(self, name: str) -> list[dict[str, Any]]:
        """Events with this name, in order."""
        return [event for event in self.events if event["event"] == name]

    def summary(self) -> str:
        """The conversation as the events tell it, for failure messages."""
        shown = ("wake", "utterance", "reply", "error", "worker_restart", "hint",
                 "conversation_end", "memory", "conflict_question")  # fmt: skip
        lines = [json.dumps(e) for e in self.events if e["event"] in shown]
        return "\n".join(lines) + "\n" + self.stderr[-1500:]

    def said_at(self, t: float, seconds: float) -> np.ndarray:
        """Hearth's audio from audio-clock second ``t`` on."""
        start = round(t * 16000)
        return self.reply_audio[start : start + round(seconds * 16000)]


@pytest.fixture
def ollama():
    server = OllamaServer().start()
    yield server
    server.stop()


@pytest.fixture
def hearth(tmp_path):
    """Call ``hearth(room_audio, settings_yaml=..., card=...)`` to run Hearth over a recording;
    ``env`` adds to the environment it runs in (``HEARTH_FAILPOINTS``, say), ``args`` to the
    ``run`` command's options (``--start-time``, say)."""

    def run(
        room: np.ndarray,
        settings_yaml: str = "",
        card: Path | None = None,
        db: Path | None = None,
        timeout: float = 300,
        env: dict[str, str] | None = None,
        args: tuple[str, ...] = (),
    ) -> HearthRun:
        wav = tmp_path / "room.wav"
        noisy = np.clip(room.astype(np.int32) + room_noise(len(room) / 16000), -32768, 32767)
        write_wav(wav, noisy.astype(np.int16))
        config = tmp_path / "settings.yaml"
        config.write_text(settings_yaml)
        output, events = tmp_path / "reply.wav", tmp_path / "events.jsonl"
        events.unlink(missing_ok=True)
        argv = [sys.executable, "-m", "assistant", "--config", str(config),
                "--db", str(db or tmp_path / "memory.db"), "run", "--input", str(wav),
                "--output", str(output), "--events", str(events)]  # fmt: skip
        if card is not None:
            argv += ["--card", str(card)]
        argv += list(args)
        environment = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "xdg-config"),
                           XDG_DATA_HOME=str(tmp_path / "xdg-data"),
                           HEARTH_LOG_LEVEL="INFO")  # fmt: skip
        environment.pop("OLLAMA_HOST", None)
        environment.update(env or {})
        result = subprocess.run(
            argv, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=timeout
        )
        records = [json.loads(line) for line in events.read_text().splitlines()] if (
            events.exists()
        ) else []  # fmt: skip
        audio = read_wav(output) if output.exists() else np.zeros(0, dtype=np.int16)
        return HearthRun(result.returncode, result.stdout, result.stderr, records, audio)

    return run
