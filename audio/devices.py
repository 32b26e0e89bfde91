"""Live sound devices through sounddevice (PortAudio): the microphone and the speaker.

sounddevice is imported on first use, not with this module, so a machine without PortAudio still
runs file mode and every test that needs no device. Devices are named as in ``assistant.yaml``'s
``audio`` section: a sounddevice name (or part of one), an index, or None for the system default.

A device that cannot be found, opened or kept running raises :class:`AudioDeviceError` naming it;
the caller closes the source or sink and may open a new one (after :func:`refresh_devices` when the
device was unplugged and plugged back).
"""

from __future__ import annotations

import logging
import queue
import select
import threading
import time
from collections import deque
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Literal, NoReturn

import numpy as np
import soxr

from audio.format import SAMPLE_RATE
from audio.wakeup import Wakeup
from audio.wav import ToInternal
from config import AudioSettings

log = logging.getLogger(__name__)

STALL_SECONDS = 2.0
"""A running microphone that delivers nothing for this long has failed."""
QUEUE_SECONDS = 10.0
BLOCK_SECONDS = 0.064
"""Microphone audio kept while the reader is busy; beyond it the oldest is dropped."""
INPUT_LATENCY_SECONDS = 0.1
OUTPUT_LATENCY_SECONDS = 0.1
"""Device buffers. Generous, since a voice assistant gains nothing from a few milliseconds and a
buffer that runs dry on a busy 2-core machine is an audible click; ``stop`` still cuts speech
within this much, and consecutive ``play`` calls are this far apart (each returns once heard)."""
PLAYED_KEPT_SECONDS = 3.0
"""How long the speaker remembers what it played, for the echo canceller to look up."""
PLAYBACK_MARGIN_SECONDS = 2.0
"""How much longer than the sound itself playing may take before the speaker counts as stuck."""
_POLL_SECONDS = 0.1

Kind = Literal["input", "output"]


class AudioDeviceError(RuntimeError):
    """A sound device that cannot be found, opened or kept running; the message names it."""


@dataclass(frozen=True)
class DeviceInfo:
    """A sound device as PortAudio lists it."""

    index: int
    name: str
    host_api: str
    input_channels: int
    output_channels: int
    default_samplerate: float
    is_default_input: bool
    is_default_output: bool


def list_devices() -> list[DeviceInfo]:
    """Every device PortAudio knows, inputs and outputs."""
    sd = _sounddevice()
    default_input, default_output = _default_indexes(sd)
    host_apis = sd.query_hostapis()
    return [
        DeviceInfo(
            index=device["index"],
            name=device["name"],
            host_api=host_apis[device["hostapi"]]["name"],
            input_channels=device["max_input_channels"],
            output_channels=device["max_output_channels"],
            default_samplerate=device["default_samplerate"],
            is_default_input=device["index"] == default_input,
            is_default_output=device["index"] == default_output,
        )
        for device in sd.query_devices()
    ]


def refresh_devices() -> None:
    """Scan for devices again; PortAudio only sees those present when it started.

    Call it only while no stream is open (after closing every source and sink): it restarts
    PortAudio, which ends every stream.
    """
    sd = _sounddevice()
    # PortAudio has no re-scan; restarting it is the sounddevice maintainer's advice (issue 125).
    sd._terminate()
    sd._initialize()


class MicrophoneSource:
    """An :class:`audio.io.AudioSource` on a live input device.

    Records at the device's own rate, mixes to mono and converts to 16 kHz with soxr's streaming
    resampler (:class:`audio.wav.ToInternal`), so blocks join without seams. Audio is queued by
    PortAudio's thread and converted in the reader's, which keeps the audio callback trivial.

    Besides the blocking :meth:`read`, it is an :class:`audio.io.LiveSource`: :meth:`poll` never
    waits, and :meth:`fileno` becomes readable as each block arrives, so a loop can wait on the
    microphone and other work at once.
    """

    def __init__(self, device: str | int | None = None, *, stall_seconds: float = STALL_SECONDS):
        sd = _sounddevice()
        info = _query(sd, device, "input")
        self.name: str = info["name"]
        """The device's name as PortAudio reports it."""
        self._stall_seconds = stall_seconds
        # Recording at 16 kHz where the device (or the sound server) can saves resampling here;
        # blocks of two VAD frames halve the wake-ups of a 20 ms default on a quiet shelf.
        rate = (
            SAMPLE_RATE
            if _supports(sd, "input", info["index"], SAMPLE_RATE, 1)
            else int(info["default_samplerate"])
        )
        channels = _channels(sd, info, "input", rate)
        block_samples = round(rate * BLOCK_SECONDS)
        self._blocks: queue.Queue[tuple[np.ndarray, float]] = queue.Queue(
            maxsize=max(1, int(QUEUE_SECONDS * rate / block_samples))
        )
        self._latency = INPUT_LATENCY_SECONDS
        self._dropped_blocks = 0
        self._arrived = Wakeup()
        """Signalled by PortAudio's thread after each block it queues."""
        self._converter = ToInternal(rate)
        self._pending = np.zeros(0, dtype=np.int16)
        self._pending_at = 0.0  # when the first pending sample was recorded (monotonic)
        self.recorded_at = 0.0
        """When the first sample of the last frame read was recorded (the monotonic clock): what
        the speaker played then is that frame's echo."""
        self._closed = False
        self._last_block_at = time.monotonic()
        try:
            self._stream = sd.InputStream(
                device=info["index"],
                samplerate=rate,
                channels=channels,
                dtype="float32",
                blocksize=block_samples,
                latency=INPUT_LATENCY_SECONDS,
                callback=self._on_audio,
            )
            self._stream.start()
            self._latency = float(self._stream.latency)
        except sd.PortAudioError as error:
            self._arrived.close()
            raise AudioDeviceError(f"cannot open microphone {self.name!r}: {error}") from error
        log.info("Microphone %r open: %d Hz, %d channel(s)", self.name, rate, channels)

    @classmethod
    def from_settings(cls, settings: AudioSettings) -> MicrophoneSource:
        """The microphone named in the ``audio`` settings."""
        return cls(settings.input_device)

    def read(self, n: int) -> np.ndarray | None:
        """The next ``n`` samples at 16 kHz; blocks until recorded. None once closed.

        Raises:
            AudioDeviceError: the device stopped (unplugged, failed) or delivers nothing.
        """
        while not self._closed:
            samples = self.poll(n)
            if samples is not None:
                return samples
            select.select([self._arrived], [], [], _POLL_SECONDS)
        return None

    def poll(self, n: int) -> np.ndarray | None:
        """The next ``n`` samples at 16 kHz if they have been recorded, else None; never waits.

        Raises:
            AudioDeviceError: the device stopped (unplugged, failed) or delivers nothing.
        """
        if self._closed:
            return None
        # Cleared before the queue is looked at: a block queued after this signals afresh.
        self._arrived.clear()
        while len(self._pending) < n:
            try:
                block, recorded_at = self._blocks.get_nowait()
            except queue.Empty:
                self._check_running()
                return None
            self._last_block_at = time.monotonic()
            self._report_drops()
            # Samples still pending came just before this block.
            self._pending_at = recorded_at - len(self._pending) / SAMPLE_RATE
            self._pending = np.concatenate((self._pending, self._converter.process(block)))
        samples, self._pending = self._pending[:n], self._pending[n:]
        self.recorded_at = self._pending_at
        self._pending_at += n / SAMPLE_RATE
        return samples

    def fileno(self) -> int:
        """A descriptor that is readable once audio has arrived since the last :meth:`poll`."""
        return self._arrived.fileno()

    def close(self) -> None:
        """Stop recording and release the device; later reads return None."""
        if self._closed:
            return
        self._closed = True
        _close_stream(self._stream, f"microphone {self.name!r}")
        self._arrived.close()

    def _check_running(self) -> None:
        if not self._stream.active:
            raise AudioDeviceError(
                f"microphone {self.name!r} stopped recording (unplugged or failed)"
            )
        waited = time.monotonic() - self._last_block_at
        if waited >= self._stall_seconds:
            raise AudioDeviceError(
                f"microphone {self.name!r} delivered no audio for {waited:.1f} s"
            )

    def _report_drops(self) -> None:
        dropped, self._dropped_blocks = self._dropped_blocks, 0
        if dropped:
            log.warning("Microphone %r: %d blocks dropped, reading fell behind", self.name, dropped)

    def _on_audio(self, indata: np.ndarray, frames: int, timing: Any, status: Any) -> None:
        # PortAudio's thread: copy (the buffer is reused) and hand over; mixing and resampling
        # happen in the reader's thread.
        block = (indata.copy(), time.monotonic() - _delay(timing, "input", self._latency))
        try:
            self._blocks.put_nowait(block)
        except queue.Full:
            # The reader fell behind; keep the newest audio, the listener cares about now.
            self._dropped_blocks += 1
            try:
                self._blocks.get_nowait()
                self._blocks.put_nowait(block)
            except (queue.Empty, queue.Full):
                pass
        self._arrived.signal()


class SpeakerSink:
    """An :class:`audio.io.AudioSink` on a live output device.

    One output stream stays open between replies (so a sentence starts without a device open);
    ``play`` feeds it and waits until the sound has been heard, and ``stop`` from another thread
    cuts it short. Devices that cannot play 16 kHz mono get the device's own rate and channels.
    """

    def __init__(self, device: str | int | None = None):
        sd = _sounddevice()
        self._sd = sd
        info = _query(sd, device, "output")
        self.name: str = info["name"]
        """The device's name as PortAudio reports it."""
        self._index: int = info["index"]
        self._rate = (
            SAMPLE_RATE
            if _supports(sd, "output", self._index, SAMPLE_RATE, 1)
            else int(info["default_samplerate"])
        )
        self._channels = _channels(sd, info, "output", self._rate)
        self._lock = threading.Lock()
        self._sound = np.zeros((0, self._channels), dtype=np.float32)
        self._said = np.zeros(0, dtype=np.int16)
        """The sound being played as it was given (16 kHz): the echo canceller's reference."""
        self._position = 0
        self._played: deque[tuple[float, np.ndarray]] = deque()
        """(when it reaches the speaker, on the monotonic clock; the 16 kHz samples) per block."""
        self._latency = OUTPUT_LATENCY_SECONDS
        self._drained = threading.Event()
        """Set when the sound being played has all been handed to the device."""
        self._interrupted = threading.Event()
        """Set by ``stop``."""
        self._stream: Any = None
        self._closed = False

    @classmethod
    def from_settings(cls, settings: AudioSettings) -> SpeakerSink:
        """The speaker named in the ``audio`` settings."""
        return cls(settings.output_device)

    def play(self, samples: np.ndarray, at_sample: int = 0) -> None:
        """Play 16 kHz mono int16 ``samples`` now; return once heard or after :meth:`stop`.

        ``at_sample`` is not used: a live speaker plays when asked.

        Raises:
            AudioDeviceError: the device cannot be opened or stopped playing.
        """
        if self._closed:
            raise AudioDeviceError(f"speaker {self.name!r} is closed")
        sound = self._convert(samples)
        stream = self._open()
        with self._lock:
            self._sound, self._position = sound, 0
            self._said = np.asarray(samples, dtype=np.int16)
            self._drained.clear()
            self._interrupted.clear()
        waited, limit = 0.0, len(sound) / self._rate + stream.latency + PLAYBACK_MARGIN_SECONDS
        while not self._drained.wait(_POLL_SECONDS):
            waited += _POLL_SECONDS
            if not stream.active or waited > limit:
                self._fail("stopped playing")
        # The last samples are in the device's buffer; they are heard one latency later.
        self._interrupted.wait(stream.latency)

    def played(self, start: float, samples: int) -> np.ndarray:
        """What reached the speaker during ``samples`` samples from ``start`` (the monotonic
        clock), at 16 kHz: silence where nothing played. Any thread."""
        out = np.zeros(samples, dtype=np.int16)
        with self._lock:
            blocks = list(self._played)
        for at, block in blocks:
            offset = round((at - start) * SAMPLE_RATE)
            first, last = max(offset, 0), min(offset + len(block), samples)
            if first < last:
                out[first:last] = block[first - offset : last - offset]
        return out

    def stop(self) -> None:
        """Cut the sound being played; the blocked :meth:`play` returns at once. Any thread."""
        with self._lock:
            self._sound = self._sound[:0]
            self._position = 0
            self._interrupted.set()
            self._drained.set()

    def close(self) -> None:
        """Stop and release the device."""
        if self._closed:
            return
        self._closed = True
        self.stop()
        self._discard_stream()

    def _fail(self, what: str) -> NoReturn:
        self._discard_stream()
        raise AudioDeviceError(f"speaker {self.name!r} {what} (unplugged or failed)")

    def _open(self) -> Any:
        if self._stream is not None and not self._stream.active:
            self._discard_stream()  # it failed while idle; the device may be back
        if self._stream is None:
            try:
                stream = self._sd.OutputStream(
                    device=self._index,
                    samplerate=self._rate,
                    channels=self._channels,
                    dtype="float32",
                    latency=OUTPUT_LATENCY_SECONDS,
                    callback=self._on_output,
                )
                stream.start()
            except self._sd.PortAudioError as error:
                raise AudioDeviceError(f"cannot open speaker {self.name!r}: {error}") from error
            log.info("Speaker %r open: %d Hz, %d channel(s)", self.name, self._rate, self._channels)
            self._latency = float(stream.latency)
            self._stream = stream
        return self._stream

    def _discard_stream(self) -> None:
        stream, self._stream = self._stream, None
        if stream is not None:
            _close_stream(stream, f"speaker {self.name!r}")

    def _convert(self, samples: np.ndarray) -> np.ndarray:
        sound = samples.astype(np.float32) / 32768.0
        if self._rate != SAMPLE_RATE:
            sound = soxr.resample(sound, SAMPLE_RATE, self._rate, quality="HQ")
        return np.repeat(sound[:, np.newaxis], self._channels, axis=1)

    def _on_output(self, outdata: np.ndarray, frames: int, timing: Any, status: Any) -> None:
        heard_at = time.monotonic() + _delay(timing, "output", self._latency)
        with self._lock:
            start = self._position
            chunk = self._sound[start : start + frames]
            self._position += len(chunk)
            # Under the lock, so a new sound handed over by ``play`` is never taken as finished.
            if self._position >= len(self._sound):
                self._drained.set()
            if len(chunk):
                said = self._said[
                    start * SAMPLE_RATE // self._rate : self._position * SAMPLE_RATE // self._rate
                ]
                self._played.append((heard_at, said))
            while self._played and self._played[0][0] < heard_at - PLAYED_KEPT_SECONDS:
                self._played.popleft()
        outdata[: len(chunk)] = chunk
        outdata[len(chunk) :] = 0


def _delay(timing: Any, kind: Kind, latency: float) -> float:
    """Seconds between a callback and the moment its block was recorded (input) or will be heard
    (output), from PortAudio's timestamps; the stream's latency where the host gives none."""
    now = timing.currentTime
    stamp = timing.inputBufferAdcTime if kind == "input" else timing.outputBufferDacTime
    delay = now - stamp if kind == "input" else stamp - now
    return delay if now and stamp and 0 <= delay < 2.0 else latency


def _sounddevice() -> ModuleType:
    try:
        import sounddevice
    except OSError as error:  # sounddevice raises OSError when the PortAudio library is missing
        raise AudioDeviceError(
            f"PortAudio is not available ({error}); on Debian: apt install libportaudio2"
        ) from error
    return sounddevice


def _default_indexes(sd: ModuleType) -> tuple[int, int]:
    default_input, default_output = sd.default.device
    return int(default_input), int(default_output)


def _query(sd: ModuleType, device: str | int | None, kind: Kind) -> dict[str, Any]:
    try:
        return dict(sd.query_devices(device, kind))
    except (ValueError, sd.PortAudioError) as error:
        channels = "input_channels" if kind == "input" else "output_channels"
        names = [repr(d.name) for d in list_devices() if getattr(d, channels) > 0]
        wanted = "the default device" if device is None else repr(device)
        raise AudioDeviceError(
            f"no {kind} device {wanted}: {error}; available: {', '.join(names) or 'none'}"
        ) from error


def _supports(sd: ModuleType, kind: Kind, index: int, rate: int, channels: int) -> bool:
    check = sd.check_input_settings if kind == "input" else sd.check_output_settings
    try:
        check(device=index, samplerate=rate, channels=channels, dtype="float32")
    except (ValueError, sd.PortAudioError):
        return False
    return True


def _channels(sd: ModuleType, info: dict[str, Any], kind: Kind, rate: int) -> int:
    """Mono when the device offers it, else its first two channels (some USB devices are stereo)."""
    if _supports(sd, kind, info["index"], rate, 1):
        return 1
    return min(2, info[f"max_{kind}_channels"])


def _close_stream(stream: Any, what: str) -> None:
    try:
        stream.stop()
        stream.close()
    except Exception as error:  # a vanished device may fail to stop; it is released either way
        log.debug("Closing %s: %s", what, error)
