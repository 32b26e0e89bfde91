"""A private PulseAudio server for tests: real sound devices with no sound hardware.

The ``pulse`` fixture starts ``pulseaudio`` (it runs as root here with ``--system=false -n`` and
explicit modules) with two null sinks, and everything it writes lives under the test's temporary
folder. Inside the test process sounddevice sees PulseAudio through ALSA's ``pulse`` and
``default`` devices, which follow the server's default sink and source (read when a stream opens):

- ``room``: the room's air. The test plays a person's voice into it (``play_into``); Hearth's
  microphone records its monitor, ``room.monitor`` (the default source).
- ``speaker``: Hearth's loudspeaker (the default sink). The test gets what Hearth said with
  ``start_recording(SPEAKER)`` and ``Recording.stop()``.

The server is stopped by its process id, never by name. To use the fixture from another test
module, import it (``from tests.audio.pulse import pulse``) or list ``tests.audio.pulse`` in
``pytest_plugins``. Tests are skipped, with the reason, when pulseaudio or PortAudio is missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from audio.devices import AudioDeviceError, list_devices, refresh_devices

SAMPLE_RATE = 16_000
ROOM = "room"
SPEAKER = "speaker"
_START_TIMEOUT_SECONDS = 10.0
_SETTLE_SECONDS = 0.5
# Small fragments: by default parec hands over audio in 2-second pieces and loses the last one.
_RAW_FORMAT = (
    "--raw",
    "--format=s16le",
    f"--rate={SAMPLE_RATE}",
    "--channels=1",
    "--latency-msec=20",
)


@dataclass
class PulseServer:
    """A running test sound server and the commands that drive it."""

    folder: Path
    env: dict[str, str]
    """The environment a client needs to reach this server (already set in ``os.environ``)."""
    process: subprocess.Popen[bytes]
    sink_modules: dict[str, int] = field(default_factory=dict)
    """Null sink name to the module index that created it."""
    recorders: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    """Null sink name to the recorder of its monitor (see ``add_sink``)."""

    def pactl(self, *args: str) -> str:
        """Run ``pactl`` against this server and return what it printed."""
        result = subprocess.run(
            ["pactl", *args], env=self.env, capture_output=True, text=True, timeout=10, check=True
        )
        return result.stdout.strip()

    def add_sinks(self, *names: str) -> None:
        """Create null sinks (each with its source ``<name>.monitor``), ready to use.

        A null sink stalls a new stream for about two seconds when it has been idle or when a new
        client has just started recording its monitor. So each sink gets one recorder for its
        whole life (``start_recording`` reads from it) and one short warm-up sound (all sinks'
        warm-ups at once, since each waits out that stall).
        """
        for name in names:
            index = self.pactl("load-module", "module-null-sink", f"sink_name={name}", "rate=48000")
            self.sink_modules[name] = int(index)
        # A new default source drags every recording stream with it, so set it before recording.
        self._restore_defaults()
        for name in names:
            with (self.folder / f"{name}.raw").open("wb") as output:
                self.recorders[name] = subprocess.Popen(
                    ["parec", f"--device={name}.monitor", *_RAW_FORMAT],
                    env=self.env,
                    stdout=output,
                    stderr=subprocess.DEVNULL,
                )
        silence = np.zeros(SAMPLE_RATE // 10, dtype=np.int16)
        warm_ups = [threading.Thread(target=self.play_into, args=(name, silence)) for name in names]
        for warm_up in warm_ups:
            warm_up.start()
        for warm_up in warm_ups:
            warm_up.join()

    def remove_sink(self, name: str) -> None:
        """Take the sink and its monitor away, as if the device were unplugged.

        PulseAudio moves the streams of a removed device to another device when there is one; to
        make a device vanish for a client, remove every sink.
        """
        stop_process(self.recorders.pop(name))
        self.pactl("unload-module", str(self.sink_modules.pop(name)))

    def set_default_sink(self, name: str) -> None:
        """Where ALSA's ``pulse``/``default`` devices play from the next stream opened on.

        (The default source stays ``room.monitor``: changing it would move the sink recorders.)
        """
        self.pactl("set-default-sink", name)

    def _restore_defaults(self) -> None:
        if SPEAKER in self.sink_modules:
            self.pactl("set-default-sink", SPEAKER)
        if ROOM in self.sink_modules:
            self.pactl("set-default-source", f"{ROOM}.monitor")

    def play_into(self, sink: str, samples: np.ndarray) -> None:
        """Play 16 kHz mono int16 ``samples`` into ``sink`` and wait until they are played."""
        subprocess.run(
            ["pacat", "--playback", f"--device={sink}", *_RAW_FORMAT],
            input=samples.astype("<i2").tobytes(),
            env=self.env,
            timeout=60 + len(samples) / SAMPLE_RATE,
            check=True,
        )

    def start_recording(self, sink: str) -> Recording:
        """Start keeping what ``sink`` plays (its monitor), as 16 kHz mono int16."""
        path = self.folder / f"{sink}.raw"
        return Recording(path, path.stat().st_size)

    def start_wall_recording(self, sink: str) -> WallRecording:
        """Start keeping what ``sink`` plays, placed on the wall clock (see ``WallRecording``)."""
        path = self.folder / f"{sink}.raw"
        return WallRecording(path, path.stat().st_size)


@dataclass(frozen=True)
class Recording:
    """A stretch of a sink's monitor recording, from when it was started."""

    path: Path
    start_byte: int

    def stop(self) -> np.ndarray:
        """What the sink played since the recording started (the monitor delivers continuously,
        so this waits briefly for the last sound to come through)."""
        time.sleep(_SETTLE_SECONDS)
        return self.so_far()

    def so_far(self) -> np.ndarray:
        """What the monitor has delivered of the sink's playing since the recording started."""
        data = self.path.read_bytes()[self.start_byte :]
        return np.frombuffer(data[: len(data) // 2 * 2], dtype="<i2").astype(np.int16)


class WallRecording:
    """A stretch of a sink's monitor recording whose samples are placed on the wall clock.

    While it runs, a thread notes every ``MARK_SECONDS`` the wall time (``time.time()``, read
    after the file's size) and how many samples the monitor had delivered by then. A sample is
    delivered only after the sink played it, so a mark delivered ``d`` samples past sample ``k``
    puts ``k`` at most ``d / 16000`` s before the mark; the tightest of the marks in the
    ``WINDOW_SECONDS`` after ``k`` is taken (near ``k`` only: a recorder that fell behind and lost
    audio shifts the samples after the loss). The error: late by the tightest mark's delivery
    delay, early by at most one block of the sink (it renders blocks of its latency, 20 ms
    asked here, at once). ``spread_at`` is how much later than the tightest the other marks
    there came: the delivery's measured jitter.
    """

    MARK_SECONDS = 0.005
    WINDOW_SECONDS = 0.5

    def __init__(self, path: Path, start_byte: int):
        self.path = path
        self.start_byte = start_byte
        self._marks: list[tuple[float, int]] = []
        self._running = True
        self._thread = threading.Thread(target=self._mark, daemon=True)
        self._thread.start()

    def _mark(self) -> None:
        while self._running:
            samples = (self.path.stat().st_size - self.start_byte) // 2
            self._marks.append((time.time(), samples))  # read after: delivered by then
            time.sleep(self.MARK_SECONDS)

    def stop(self) -> np.ndarray:
        """What the sink played since the recording started (after the last sound came through)."""
        time.sleep(_SETTLE_SECONDS)
        self._running = False
        self._thread.join()
        data = self.path.read_bytes()[self.start_byte :]
        return np.frombuffer(data[: len(data) // 2 * 2], dtype="<i2").astype(np.int16)

    @property
    def marks(self) -> int:
        """How many marks were taken."""
        return len(self._marks)

    def _bounds(self, sample: int) -> list[float]:
        window = self.WINDOW_SECONDS * SAMPLE_RATE
        bounds = [at - (delivered - sample) / SAMPLE_RATE for at, delivered in self._marks
                  if sample <= delivered <= sample + window]  # fmt: skip
        if not bounds:
            raise ValueError(f"no mark within {self.WINDOW_SECONDS} s after sample {sample}")
        return bounds

    def wall_at(self, sample: int) -> float:
        """The wall time the sink played the recording's sample ``sample``."""
        return min(self._bounds(sample))

    def spread_at(self, sample: int) -> float:
        """Seconds between the tightest and the loosest mark after ``sample``."""
        bounds = self._bounds(sample)
        return max(bounds) - min(bounds)


@contextmanager
def running_pulse(folder: Path) -> Iterator[PulseServer]:
    """A private PulseAudio with the sinks ``room`` and ``speaker``, its files under ``folder``,
    stopped (by pid, with every recorder) on leaving. Clients find it through ``server.env``."""
    env = _environment(folder)
    process = subprocess.Popen(
        [
            "pulseaudio",
            "--system=false",
            "-n",  # no default.pa: only the modules below
            "--daemonize=no",
            "--use-pid-file=no",
            "--exit-idle-time=-1",
            "--disallow-exit",
            f"--log-target=file:{folder / 'pulseaudio.log'}",
            f"--load=module-native-protocol-unix socket={folder / 'native'} auth-anonymous=1",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    server = PulseServer(folder=folder, env=env, process=process)
    try:
        _wait_until_ready(server)
        server.add_sinks(ROOM, SPEAKER)
        yield server
    finally:
        for recorder in server.recorders.values():
            stop_process(recorder)
        stop_process(process)


@pytest.fixture
def pulse(tmp_path: Path) -> Iterator[PulseServer]:
    """A running PulseAudio with the sinks ``room`` and ``speaker``; see the module docstring."""
    for program in ("pulseaudio", "pactl", "pacat", "parec"):
        if shutil.which(program) is None:
            pytest.skip(f"{program} is not installed (Debian: apt-get install pulseaudio)")
    try:
        list_devices()
    except AudioDeviceError as error:
        pytest.skip(str(error))
    with running_pulse(tmp_path / "pulse") as server, pytest.MonkeyPatch.context() as patch:
        # Only what a client needs; HOME and XDG folders of the test process stay as they are.
        for name in ("PULSE_SERVER", "PULSE_COOKIE"):
            patch.setenv(name, server.env[name])
        refresh_devices()  # PortAudio lists ALSA's pulse devices only once a server answers
        try:
            yield server
        finally:
            refresh_devices()  # forget the server's devices before the environment goes back


def _environment(folder: Path) -> dict[str, str]:
    """Server and client settings that keep every file PulseAudio writes inside ``folder``."""
    for sub in ("home", "config", "state", "runtime"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    (folder / "runtime").chmod(0o700)
    return {
        **os.environ,
        "HOME": str(folder / "home"),
        "XDG_CONFIG_HOME": str(folder / "config"),
        "XDG_RUNTIME_DIR": str(folder / "runtime"),
        "PULSE_RUNTIME_PATH": str(folder / "runtime"),
        "PULSE_STATE_PATH": str(folder / "state"),
        "PULSE_COOKIE": str(folder / "cookie"),
        "PULSE_SERVER": f"unix:{folder / 'native'}",
    }


def _wait_until_ready(server: PulseServer) -> None:
    deadline = time.monotonic() + _START_TIMEOUT_SECONDS
    while True:
        if server.process.poll() is not None:
            log = server.folder / "pulseaudio.log"
            detail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"pulseaudio exited with {server.process.returncode}:\n{detail}")
        try:
            server.pactl("info")
            return
        except subprocess.CalledProcessError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def stop_process(process: subprocess.Popen[bytes]) -> None:
    """End a process we started, by its pid: politely, then for sure."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
