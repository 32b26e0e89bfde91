"""Reading a small text file named in the settings (a token, a password) without hanging: a pipe
or a device named by mistake would block the read forever."""

from __future__ import annotations

import os
from pathlib import Path

from support.regular_file import require_regular_file


def read_text_file(path: str | os.PathLike[str]) -> str:
    """The UTF-8 text of the regular file at ``path`` (``~`` expanded).

    Raises:
        NotARegularFile: the path names a pipe, a device, a socket or a folder.
        OSError, UnicodeDecodeError: as reading does.
    """
    path = Path(path).expanduser()
    require_regular_file(path)
    return path.read_text(encoding="utf-8")
