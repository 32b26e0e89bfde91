"""Named failpoints: faults a test or a curious user can switch on to watch Hearth recover.

``HEARTH_FAILPOINTS=synthesis_hang,transcribe_crash*3`` arms ``synthesis_hang`` in the first voice
process and ``transcribe_crash`` in the first three (a restarted process would otherwise hit the
same fault forever). Each fires once in a process: on its first hit, or on its Nth with ``@N``
(``synthesis_hang@3``: the third synthesis hangs). Off, a failpoint is one dict lookup.

The voice process and the brain read the same variable, each counting its own generations (a
voice process restarted, a brain built again): ``brain_hang*2`` hangs the first turn of the first
two brains. One list of names serves both, so a typo is caught wherever it is read.
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
    BRAIN_HANG = "brain_hang"
    """A turn of the brain never returns (a wedged model stream, a lock, a bug)."""


class FailpointError(ValueError):
    """An unknown failpoint name in the environment variable."""


class Failpoints:
    """The failpoints armed for one voice process or one brain (``generation`` counts from 0)."""

    def __init__(self, spec: str = "", generation: int = 0):
        self._armed: dict[Failpoint, int] = {}
        """Each armed failpoint and the hits still to pass before it fires."""
        for entry in filter(None, (part.strip() for part in spec.split(","))):
            point, _, count = entry.partition("*")
            name, _, nth = point.partition("@")
            try:
                failpoint = Failpoint(name.strip())
            except ValueError:
                known = ", ".join(f.value for f in Failpoint)
                raise FailpointError(f"unknown failpoint {name!r}; known: {known}") from None
            if generation < _count(entry, count):
                self._armed[failpoint] = _count(entry, nth) - 1

    @classmethod
    def from_environment(
        cls, generation: int, environ: Mapping[str, str] | None = None
    ) -> Failpoints:
        """The failpoints named in ``HEARTH_FAILPOINTS`` for this generation (of voice process or
        of brain)."""
        env = os.environ if environ is None else environ
        return cls(env.get(ENVIRONMENT_VARIABLE, ""), generation)

    def __bool__(self) -> bool:
        return bool(self._armed)

    def hit(self, failpoint: Failpoint) -> bool:
        """True (once, at its hit) when armed: the caller then misbehaves as named."""
        to_pass = self._armed.get(failpoint)
        if to_pass is None:
            return False
        if to_pass > 0:
            self._armed[failpoint] = to_pass - 1
            return False
        del self._armed[failpoint]
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


def _count(entry: str, text: str) -> int:
    """The number after ``*`` or ``@`` in ``entry`` (1 when there is none)."""
    if not text:
        return 1
    if not text.strip().isdigit() or int(text) < 1:
        raise FailpointError(f"failpoint {entry!r}: {text!r} is not a count of 1 or more")
    return int(text)
