"""``hearth listen``: the voice loop over a recording with no brain behind it.

Each utterance gets an empty reply at once, so the follow-up window opens right after it and the
listener behaves as it would in a conversation whose answers take no time.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from audio.engine import VoiceEngine
from audio.files import WavSource
from audio.messages import Command, FinishReply, Heard, Record, Report
from audio.models import VoiceModels
from audio.mouth import TimelineMouth
from audio.wav import check_wav
from config import Settings


class _NoSink:
    """Nowhere: ``hearth listen`` writes no audio."""

    def play(self, samples: Any, at_sample: int) -> None:
        pass

    def close(self) -> None:
        pass


class ListenOnlyChannel:
    """Hands every record to ``on_record`` and answers each utterance with an empty reply."""

    def __init__(self, on_record: Callable[[dict[str, Any]], None]):
        self._on_record = on_record
        self._commands: deque[Command] = deque()
        self._replies = 0

    def send(self, report: Report) -> None:
        match report:
            case Record(fields=fields):
                self._on_record(fields)
            case Heard(text=text):
                self._replies += 1
                self._commands.append(FinishReply(self._replies, context=text))

    def receive(self, timeout: float) -> Command | None:
        return self._commands.popleft() if self._commands else None

    def fileno(self) -> int | None:
        return None  # its commands are made as the reports come, never waited for


def listen_to_recording(
    settings: Settings, path: str, on_record: Callable[[dict[str, Any]], None]
) -> None:
    """Run the listener over a WAV file, handing each event record to ``on_record``."""
    check_wav(path)  # read through first: a bad file fails before the models load
    models = VoiceModels.load(settings)
    source = WavSource(path)  # opened once nothing can fail before the engine closes it
    mouth = TimelineMouth(_NoSink())
    engine = VoiceEngine(settings, models, lambda: source, mouth, ListenOnlyChannel(on_record))
    try:
        engine.run()
    finally:
        engine.close()
