"""The voice process: the voice loop in a process of its own, spoken to over a pipe.

The supervisor starts ``run_voice_process`` with multiprocessing's spawn method. Everything the
process needs arrives as plain, picklable arguments: the settings, where its audio comes from and
goes to, and which generation it is (failpoints count restarts by it).
"""

from __future__ import annotations

import logging
import os
import signal
from dataclasses import dataclass
from multiprocessing.connection import Connection

import numpy as np

from audio.engine import VoiceEngine
from audio.io import AudioSource
from audio.messages import Command, Failed, Played, Report
from audio.models import VoiceModels
from audio.mouth import SpeakerMouth, TimelineMouth
from audio.stt import SpeechModelError
from audio.tts import VoiceNotFoundError
from audio.wakeword import WakeModelError
from config import Settings
from support import FailpointError, Failpoints

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class VoiceIO:
    """Where the voice process hears and speaks: a WAV file (file mode) or the sound devices."""

    input_path: str | None = None
    """A recording to treat as the room microphone; None means the live input device."""
    start_sample: int = 0
    """After a restart: the audio clock goes on from here (file mode: the recording, too)."""
    script: tuple[str, ...] = ()
    """The demo: lines a scripted room says into the pipeline instead of a microphone."""
    owed_replies: tuple[int, ...] = ()
    """After a restart: replies begun and not finished, whose sentences and ends will come."""

    @property
    def live(self) -> bool:
        """True when Hearth hears and speaks through the sound devices."""
        return self.input_path is None and not self.script


class PipeChannel:
    """The engine's channel over a multiprocessing pipe."""

    def __init__(self, connection: Connection):
        self._connection = connection

    def send(self, report: Report) -> None:
        try:
            self._connection.send(report)
        except (BrokenPipeError, EOFError, OSError):
            # The supervisor is gone: nobody is left to speak for.
            os._exit(0)

    def receive(self, timeout: float) -> Command | None:
        try:
            if self._connection.poll(timeout):
                return self._connection.recv()
        except (EOFError, OSError):
            os._exit(0)
        return None

    def fileno(self) -> int | None:
        """The pipe: the voice loop waits on it with the microphone, so a command wakes it."""
        return self._connection.fileno()


class ReportingSink:
    """File mode's speaker: each sound goes to the supervisor, which owns the output timeline.

    A restarted voice process therefore loses nothing already said.
    """

    def __init__(self, channel: PipeChannel):
        self._channel = channel

    def play(self, samples: np.ndarray, at_sample: int) -> None:
        self._channel.send(Played(at_sample, np.asarray(samples, dtype=np.int16)))

    def close(self) -> None:
        pass


def run_voice_process(
    connection: Connection, settings: Settings, io: VoiceIO, generation: int, log_level: int
) -> None:
    """The voice process's main function."""
    logging.basicConfig(level=log_level, format="%(asctime)s %(levelname)s voice: %(message)s")
    # A hang-up reaches the whole process group: the supervisor stops this process in order.
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    channel = PipeChannel(connection)
    try:
        failpoints = Failpoints.from_environment(generation)
        models = VoiceModels.load(settings)
    except (FailpointError, SpeechModelError, WakeModelError, VoiceNotFoundError) as error:
        # A restart cannot install a model: say so once and let the supervisor stop.
        channel.send(Failed(str(error), retry=False))
        return
    if io.script:
        from audio.scripted_room import ScriptedRoom

        mouth: TimelineMouth | SpeakerMouth = TimelineMouth(ReportingSink(channel))

        def say(at_sample: int, text: str, samples: np.ndarray) -> None:
            channel.send(Played(at_sample, samples, by="room"))

        def open_source() -> AudioSource:
            voice = settings.tts.voice
            return ScriptedRoom(
                io.script, io.start_sample, models.tts, voice, lambda: engine.quiet, say
            )

    elif io.input_path is not None:
        mouth = TimelineMouth(ReportingSink(channel))

        def open_source() -> AudioSource:
            return _file_source(io)

    else:
        from audio.devices import AudioDeviceError, MicrophoneSource, SpeakerSink, refresh_devices

        speaker = SpeakerMouth(lambda: SpeakerSink.from_settings(settings.audio))
        mouth = speaker

        def open_source() -> AudioSource:
            try:
                return MicrophoneSource.from_settings(settings.audio)
            except AudioDeviceError:
                # PortAudio lists only the devices present when it started: a microphone plugged
                # in later is found after a re-scan, which needs every stream closed.
                if not speaker.busy(0):
                    speaker.release()
                    refresh_devices()
                raise

    engine = VoiceEngine(
        settings, models, open_source, mouth, channel, failpoints, io.start_sample, io.owed_replies
    )
    try:
        engine.run()
    finally:
        engine.close()


def _file_source(io: VoiceIO) -> AudioSource:
    from audio.files import WavSource

    source = WavSource(io.input_path or "")
    source.start_at(io.start_sample)  # resume where the previous voice process stopped
    return source
