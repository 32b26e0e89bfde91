"""Hearth's volume, output mute and microphone mute, kept across restarts.

They live in the schedule's small durable state, beside the memory (a room's own on a shared
database). The brain's desk changes the volume by voice on its thread, the supervisor changes all
three from Home Assistant on its own, each through its own ``KeptLevels`` (each thread its own
connection); a value is read from the store every time, so each side sees what the other kept.
A store that cannot be used never silences or deafens Hearth: the last value known is used, the
failure is logged once, and the store is opened again on the next change.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable

from assistant.schedule import ScheduleStore, ScheduleStoreError
from audio import OutputLevel

log = logging.getLogger(__name__)

VOLUME_KEY = "volume"
"""The volume level, in whole percent."""
OUTPUT_MUTED_KEY = "output_muted"
MICROPHONE_MUTED_KEY = "microphone_muted"
_TRUE, _FALSE = "true", "false"


class KeptLevels:
    """The volume and the two mutes, read from and written to the store."""

    def __init__(self, open_store: Callable[[], ScheduleStore]):
        self._open_store = open_store
        self._store: ScheduleStore | None = None
        self._output = OutputLevel()
        self._microphone_muted = False
        self._failing = False

    def output(self) -> OutputLevel:
        """The volume and output mute as kept (the last known when the store cannot be read)."""
        volume = self._read(VOLUME_KEY)
        muted = self._read(OUTPUT_MUTED_KEY)
        if volume is not None and volume.isdigit() and int(volume) <= 100:
            self._output = OutputLevel(int(volume) / 100, self._output.muted)
        if muted in (_TRUE, _FALSE):
            self._output = self._output.with_mute(muted == _TRUE)
        return self._output

    def keep_output(self, level: OutputLevel) -> bool:
        """Keep a new volume and output mute; False when it could not be stored (it still holds
        until Hearth restarts)."""
        self._output = level
        return self._write(
            {VOLUME_KEY: str(level.percent), OUTPUT_MUTED_KEY: _TRUE if level.muted else _FALSE}
        )

    def microphone_muted(self) -> bool:
        """Whether the microphone is closed, as kept."""
        muted = self._read(MICROPHONE_MUTED_KEY)
        if muted in (_TRUE, _FALSE):
            self._microphone_muted = muted == _TRUE
        return self._microphone_muted

    def keep_microphone(self, muted: bool) -> bool:
        """Keep the microphone closed or open; False when it could not be stored."""
        self._microphone_muted = muted
        return self._write({MICROPHONE_MUTED_KEY: _TRUE if muted else _FALSE})

    def close(self) -> None:
        """Close the store's connection."""
        store, self._store = self._store, None
        if store is not None:
            with contextlib.suppress(ScheduleStoreError):
                store.close()

    def _read(self, key: str) -> str | None:
        try:
            value = self._opened().state(key)
        except ScheduleStoreError as error:
            self._failed(error)
            return None
        self._failing = False
        return value

    def _write(self, values: dict[str, str]) -> bool:
        try:
            store = self._opened()
            with store.atomic():
                for key, value in values.items():
                    store.set_state(key, value)
        except ScheduleStoreError as error:
            self._failed(error)
            return False
        self._failing = False
        return True

    def _opened(self) -> ScheduleStore:
        if self._store is None:
            self._store = self._open_store()
        return self._store

    def _failed(self, error: ScheduleStoreError) -> None:
        if not self._failing:
            log.warning("cannot keep the volume and mutes: %s; using the last known", error)
        self._failing = True
        self.close()  # opened afresh next time (a shared database that was down may be back)
