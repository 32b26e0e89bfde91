"""The event stream: one JSON object a line, ``{"t": <audio seconds>, "event": <name>, ...}``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO


class EventLog:
    """Writes event records to a JSON-lines file (flushed per line) and hands them to a watcher."""

    def __init__(
        self, path: Path | None = None, watcher: Callable[[dict[str, Any]], None] | None = None
    ):
        self._file: TextIO | None = path.open("a", encoding="utf-8") if path else None
        self._watcher = watcher

    def write(self, record: dict[str, Any]) -> None:
        """Add one event."""
        if self._file is not None:
            self._file.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
            self._file.flush()
        if self._watcher is not None:
            self._watcher(record)

    def close(self) -> None:
        """Close the file."""
        if self._file is not None:
            self._file.close()
            self._file = None
