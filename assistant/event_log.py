"""The event stream: one JSON object a line, ``{"t": <audio seconds>, "event": <name>, ...}``."""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

log = logging.getLogger(__name__)


class EventLog:
    """Writes event records to a JSON-lines file (flushed per line) and hands them to a watcher.

    A file that stops taking lines (a full disk, ``/dev/full``) is given up with one logged error,
    and ``failure`` says why: the events are a record of the conversation, and Hearth goes on
    talking without them.
    """

    def __init__(
        self, path: Path | None = None, watcher: Callable[[dict[str, Any]], None] | None = None
    ):
        self.path = path
        self.failure: str | None = None
        """Why the file stopped being written, if it did."""
        self._file: TextIO | None = path.open("a", encoding="utf-8") if path else None
        self._watcher = watcher

    def write(self, record: dict[str, Any]) -> None:
        """Add one event."""
        if self._file is not None:
            try:
                self._follow_the_name()
                self._file.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
                self._file.flush()
            except OSError as error:
                self._give_up(error)
        if self._watcher is not None:
            self._watcher(record)

    def close(self) -> None:
        """Close the file."""
        file, self._file = self._file, None
        if file is not None:
            try:
                file.close()
            except OSError as error:
                self._file = file
                self._give_up(error)

    def _follow_the_name(self) -> None:
        """Go on in a new file at the path if the one open was deleted or replaced (a cleaner,
        a rotation): the rest of the conversation went into a file nobody could read."""
        assert self._file is not None and self.path is not None
        try:
            named = os.stat(self.path)
        except FileNotFoundError:
            named = None
        held = os.fstat(self._file.fileno())
        if named is not None and (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino):
            return
        log.warning("the events file %s was deleted or replaced while Hearth ran; going on in "
                    "a new one", self.path)  # fmt: skip
        self._file.close()
        self._file = self.path.open("a", encoding="utf-8")

    def _give_up(self, error: OSError) -> None:
        self.failure = f"cannot write the events to {self.path}: {error.strerror or error}"
        log.error("%s; going on without them", self.failure)
        file, self._file = self._file, None
        if file is not None:
            with contextlib.suppress(OSError):
                file.close()  # may fail again on the unwritten rest; that rest is lost anyway
