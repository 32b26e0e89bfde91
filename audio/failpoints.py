"""Named failpoints: faults a test or a curious user can switch on to watch Hearth recover.

``HEARTH_FAILPOINTS=synthesis_hang,transcribe_crash*3`` arms ``synthesis_hang`` in the first voice
process and ``transcribe_crash`` in the first three (a restarted process would otherwise hit the
same fault forever). Each fires on its first hit in a process. Off, a failpoint is one set lookup.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Mapping
from enum import StrEnum

log = logging.getLogger(__name__)

ENVIRONMENT_VARIABLE = "HEARTH_FAILPOINTS"
HANG_SECONDS = 3600.0


class Failpoint(StrEnum):
    """The faults that can be injected."""

    SYNTHESIS_HANG = "synthesis_hang"
    """Text-to-speech never returns."""
    AUDIO_READ_HANG = "audio_read_hang"
    """Reading the microphone (or the input file) never returns."""
    TRANSCRIBE_CRASH = "transcribe_crash"
    """The voice process dies while transcribing."""
    DEVICE_STALL = "device_stall"
    """The microphone keeps the loop alive but delivers no audio."""


class FailpointError(ValueError):
    """An unknown failpoint name in the environment variable."""


class Failpoints:
    """The failpoints armed for one voice process (its restart ``generation`` counts from 0)."""

    def __init__(self, spec: str = "", generation: int = 0):
        self._armed: set[Failpoint] = set()
        for entry in filter(None, (part.strip() for part in spec.split(","))):
            name, _, count = entry.partition("*")
            try:
                failpoint = Failpoint(name.strip())
            except ValueError:
                known = ", ".join(f.value for f in Failpoint)
                raise FailpointError(f"unknown failpoint {name!r}; known: {known}") from None
            generations = int(count) if count.strip().isdigit() else 1
            if generation < generations:
                self._armed.add(failpoint)

    @classmethod
    def from_environment(
        cls, generation: int, environ: Mapping[str, str] | None = None
    ) -> Failpoints:
        """The failpoints named in ``HEARTH_FAILPOINTS`` for this generation of voice process."""
        env = os.environ if environ is None else environ
        return cls(env.get(ENVIRONMENT_VARIABLE, ""), generation)

    def __bool__(self) -> bool:
        return bool(self._armed)

    def hit(self, failpoint: Failpoint) -> bool:
        """True (once) when the failpoint is armed: the caller then misbehaves as named."""
        if failpoint not in self._armed:
            return False
        self._armed.discard(failpoint)
        log.warning("failpoint %s fires", failpoint.value)
        return True

    def hang_if(self, failpoint: Failpoint) -> None:
        """Hang (sleep for an hour) when the failpoint fires."""
        if self.hit(failpoint):
            time.sleep(HANG_SECONDS)

    def crash_if(self, failpoint: Failpoint) -> None:
        """End the process abruptly, as a native crash would, when the failpoint fires."""
        if self.hit(failpoint):
            os._exit(70)
