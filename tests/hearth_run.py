"""Running the real ``hearth`` through its entry point, as a user does, for tests and benches.

``python -m assistant ... run`` from the repository root, with configuration folders of its own
(never the user's), on a recording in quiet room noise: to its end (``run_hearth``, giving a
``HearthRun``) or in the background, to be signalled and watched (``RunningHearth``). Both read
the event stream it writes (``EventsFile``); ``NotifySocket`` is systemd's end of sd_notify,
recording every datagram with the time it came.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from audio.wav import read_wav, write_wav
from tests.speech import SAMPLE_RATE, room_noise

ROOT = Path(__file__).resolve().parents[1]
Event = dict[str, Any]


def hearth_environment(home: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment ``hearth`` runs in: this one, with configuration and data folders under
    ``home`` and info-level logging, without the user's ``OLLAMA_HOST``; ``extra`` is added."""
    environment = dict(
        os.environ,
        XDG_CONFIG_HOME=str(home / "xdg-config"),
        XDG_DATA_HOME=str(home / "xdg-data"),
        HEARTH_LOG_LEVEL="INFO",
    )
    environment.pop("OLLAMA_HOST", None)
    environment.update(extra or {})
    return environment


def hearth_cli(
    home: Path, *argv: str | bytes | Path, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """One command of ``hearth`` (``check``, ``say``, ...) to its end, as a user types it: its
    configuration and data folders under ``home``, none of this shell's ``HEARTH_`` settings or
    ``OLLAMA_HOST``; ``env`` is added."""
    environment = dict(os.environ, XDG_CONFIG_HOME=str(home / "xdg-config"),
                       XDG_DATA_HOME=str(home / "xdg-data"))  # fmt: skip
    for name in [n for n in environment if n.startswith("HEARTH_") or n == "OLLAMA_HOST"]:
        del environment[name]
    environment.update(env or {})
    command = [os.fsencode(sys.executable), b"-m", b"assistant",
               *(a if isinstance(a, bytes) else os.fsencode(a) for a in argv)]  # fmt: skip
    return subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True,
                          timeout=300)  # fmt: skip


def hearth_command(config: Path, db: Path | str, *arguments: str | Path) -> list[str]:
    """``python -m assistant --config CONFIG --db DB ARGUMENTS``."""
    return [sys.executable, "-m", "assistant", "--config", str(config), "--db", str(db),
            *map(str, arguments)]  # fmt: skip


def write_room(path: Path, room: np.ndarray) -> Path:
    """``room`` with quiet room noise under all of it, as a WAV (silence is never perfect)."""
    noise = room_noise(len(room) / SAMPLE_RATE)
    noisy = np.clip(room.astype(np.int32) + noise, -32768, 32767).astype(np.int16)
    write_wav(path, noisy)
    return path


class EventsFile:
    """The JSON lines ``hearth`` writes with ``--events``: whole lines only, as they come."""

    def __init__(self, path: Path):
        self.path = path
        self.seen: list[Event] = []
        self._offset = 0

    def new(self) -> list[Event]:
        """Events written since the last call."""
        if not self.path.exists():
            return []
        with self.path.open("rb") as file:
            file.seek(self._offset)
            data = file.read()
        complete = data[: data.rfind(b"\n") + 1]
        self._offset += len(complete)
        fresh = [json.loads(line) for line in complete.splitlines()]
        self.seen += fresh
        return fresh

    def all(self) -> list[Event]:
        """Every event written so far."""
        self.new()
        return list(self.seen)


def events_named(events: Sequence[Event], name: str) -> list[Event]:
    """Events with this name, in order."""
    return [event for event in events if event["event"] == name]


SUMMARY_EVENTS = ("wake", "utterance", "reply", "error", "worker_restart", "brain_restart", "hint",
                  "conversation_end", "memory", "conflict_question", "speech_dropped")  # fmt: skip


def summary(events: Sequence[Event], log: str) -> str:
    """The conversation as the events tell it, and the end of the log, for failure messages."""
    lines = [json.dumps(e) for e in events if e["event"] in SUMMARY_EVENTS]
    return "\n".join(lines) + "\n" + log[-1500:]


@dataclass
class HearthRun:
    """What one ``hearth run --input`` produced."""

    returncode: int
    stdout: str
    stderr: str
    events: list[Event]
    reply_audio: np.ndarray

    def of(self, name: str) -> list[Event]:
        """Events with this name, in order."""
        return events_named(self.events, name)

    def summary(self) -> str:
        """The conversation as the events tell it, for failure messages."""
        return summary(self.events, self.stderr)

    def said_at(self, t: float, seconds: float) -> np.ndarray:
        """Hearth's audio from audio-clock second ``t`` on."""
        start = round(t * SAMPLE_RATE)
        return self.reply_audio[start : start + round(seconds * SAMPLE_RATE)]


@dataclass(frozen=True)
class Folder:
    """Where one run keeps its files."""

    room: Path
    config: Path
    output: Path
    events: Path

    @classmethod
    def at(cls, path: Path) -> Folder:
        """The files of a run in folder ``path``."""
        names = ("room.wav", "settings.yaml", "reply.wav", "events.jsonl")
        return cls(*(path / name for name in names))

    def prepare(self, room: np.ndarray | None, settings_yaml: str) -> None:
        """Write the recording and the settings; forget the events of a run before."""
        if room is not None:
            write_room(self.room, room)
        self.config.write_text(settings_yaml)
        self.events.unlink(missing_ok=True)

    def file_mode(self) -> list[str]:
        """``run --input room.wav --output reply.wav --events events.jsonl``."""
        return ["run", "--input", str(self.room), "--output", str(self.output),
                "--events", str(self.events)]  # fmt: skip


def run_hearth(
    folder: Path,
    room: np.ndarray,
    settings_yaml: str = "",
    card: Path | None = None,
    db: Path | str | None = None,
    timeout: float = 300,
    env: Mapping[str, str] | None = None,
    args: Sequence[str] = (),
) -> HearthRun:
    """``hearth run`` over ``room`` in file mode, to its end; ``args`` adds to the ``run``
    command's options (``--start-time``, say)."""
    files = Folder.at(folder)
    files.prepare(room, settings_yaml)
    arguments = files.file_mode() + (["--card", str(card)] if card is not None else [])
    arguments += list(args)
    result = subprocess.run(
        hearth_command(files.config, db or folder / "memory.db", *arguments),
        cwd=ROOT,
        env=hearth_environment(folder, env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    audio = read_wav(files.output) if files.output.exists() else np.zeros(0, dtype=np.int16)
    return HearthRun(
        result.returncode, result.stdout, result.stderr, EventsFile(files.events).all(), audio
    )


def run_in_room(
    folder: Path, room: str, room_audio: np.ndarray, ollama_url: str, db: str, at: datetime
) -> HearthRun:
    """``hearth run`` in file mode, to a clean end, for the Hearth in ``room`` of a household
    sharing the database ``db``; its recording begins at ``at`` on the household's clock."""
    runs = folder / f"{room.replace(' ', '-')}-{at:%H%M%S%f}"
    runs.mkdir()
    settings = (f"ollama:\n  url: {ollama_url}\nclock:\n  timezone: UTC\n"
                f"household:\n  room: {room}\n")  # fmt: skip
    done = run_hearth(runs, room_audio, settings, db=db, args=["--start-time", at.isoformat()])
    assert done.returncode == 0, done.summary()
    return done


class RunningHearth:
    """``hearth run`` started in the background: over a recording (``room``) or, without one,
    live on the sound devices; its log (stdout and stderr) goes to ``hearth.log``."""

    def __init__(
        self,
        folder: Path,
        room: np.ndarray | None,
        settings_yaml: str,
        db: Path | str | None = None,
        env: Mapping[str, str] | None = None,
        args: Sequence[str] = (),
    ):
        files = Folder.at(folder)
        files.prepare(room, settings_yaml)
        arguments = files.file_mode() if room is not None else ["run", "--events", files.events]
        arguments += list(args)
        self.output = files.output
        self.log_path = folder / "hearth.log"
        self.events = EventsFile(files.events)
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                hearth_command(files.config, db or folder / "memory.db", *arguments),
                cwd=ROOT,
                env=hearth_environment(folder, env),
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def of(self, name: str) -> list[Event]:
        """Events with this name so far, in order."""
        return events_named(self.events.all(), name)

    def wait_for(self, found: Callable[[Event], bool], timeout: float) -> Event:
        """The first event for which ``found`` is true, waiting for it while Hearth runs."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for event in self.events.all():
                if found(event):
                    return event
            assert self.process.poll() is None, self.log()
            time.sleep(0.02)
        raise AssertionError(f"not seen within {timeout} s:\n{self.log()}")

    def processes(self) -> list[int]:
        """The supervisor and every process it started (the voice process, multiprocessing's
        resource tracker), the supervisor first."""
        found, queue = [], [self.process.pid]
        while queue:
            pid = queue.pop()
            found.append(pid)
            for task in Path(f"/proc/{pid}/task").glob("*"):
                with contextlib.suppress(OSError):
                    queue += [int(child) for child in (task / "children").read_text().split()]
        return found

    def voice_process(self) -> int | None:
        """The voice process's pid, while there is one."""
        for pid in self.processes()[1:]:
            with contextlib.suppress(OSError):
                if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    return pid
        return None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def summary(self) -> str:
        return summary(self.events.all(), self.log())

    def stop(self, timeout: float = 30) -> int:
        """SIGTERM, as systemd stops the service; the exit code (killed if it does not go)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                return self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
        return self.process.wait()

    def kill(self) -> list[int]:
        """``kill -9`` of the whole service at once (the supervisor and every process it
        started, as systemd kills a unit's control group), waited for; the pids killed."""
        pids = self.processes()
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        return pids

    def end(self) -> None:
        """A test that failed half-way: end it, by its pid."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


class NotifySocket:
    """systemd's end of sd_notify: each datagram Hearth sends, with the monotonic time it came."""

    def __init__(self, path: Path):
        self.path = path
        self.messages: list[tuple[float, str]] = []
        self._lock = threading.Lock()
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._socket.bind(str(path))
        self._socket.settimeout(0.2)
        self._open = True
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    @property
    def environment(self) -> dict[str, str]:
        """What the service needs to find this socket."""
        return {"NOTIFY_SOCKET": str(self.path)}

    def lines(self) -> list[tuple[float, str]]:
        """Every line so far, with the monotonic time it came, in order."""
        with self._lock:
            return list(self.messages)

    def pings(self, since: float = 0.0, until: float = float("inf")) -> list[float]:
        """When ``WATCHDOG=1`` came between the two monotonic times."""
        return [at for at, line in self.lines() if line == "WATCHDOG=1" and since <= at <= until]

    def status_after(self, since: float, prefix: str) -> float | None:
        """When the first ``STATUS=`` line starting with ``prefix`` came after ``since``."""
        for at, line in self.lines():
            if at >= since and line.startswith(f"STATUS={prefix}"):
                return at
        return None

    def close(self) -> None:
        self._open = False
        self._reader.join()
        self._socket.close()

    def _read(self) -> None:
        while self._open:
            try:
                data = self._socket.recv(4096)
            except TimeoutError:
                continue
            except OSError:
                return
            now = time.monotonic()
            with self._lock:
                self.messages += [(now, line) for line in data.decode().splitlines()]
