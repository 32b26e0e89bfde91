"""One atomic, durable file write: temporary file, fsync, rename (or link), fsync of the folder.

A reader sees the old file or the whole new one, never a part; once the call returns, a power cut
keeps the new file (the rename itself is made durable by syncing the folder that holds it).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from support.regular_file import require_regular_file

Content = bytes | str | Callable[[BinaryIO], None]
"""Bytes, text (written as UTF-8), or a function that writes into the open binary file."""


def write_atomically(
    path: str | os.PathLike[str], content: Content, *, mode: int = 0o600, replace: bool = True
) -> bool:
    """Write ``content`` to ``path`` atomically and durably; True once it is in place.

    ``mode`` is the new file's permission bits exactly (the umask does not apply); the default is
    private, as ``tempfile.mkstemp`` makes it. With ``replace=False`` an existing file is never
    replaced (the new one is linked into place, which fails if the name is taken): the call then
    returns False and leaves the existing file as it was. The temporary file lives beside the
    target, so the rename never crosses a file system, and it is removed on every failure.

    A symbolic link is written through: the file it names gets the content, and the link stays.
    :class:`NotARegularFile` if the name is taken by anything but a regular file.
    """
    path = Path(os.path.realpath(path))
    require_regular_file(path)
    folder = path.parent
    descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb") as file:
            os.fchmod(file.fileno(), mode)
            if callable(content):
                content(file)
            else:
                file.write(content.encode("utf-8") if isinstance(content, str) else content)
            file.flush()
            os.fsync(file.fileno())
        if replace:
            os.replace(temporary, path)
        else:
            try:
                os.link(temporary, path)
            except FileExistsError:
                return False
        _sync_folder(folder)
        return True
    finally:
        if os.path.lexists(temporary):
            os.unlink(temporary)


def _sync_folder(folder: Path) -> None:
    """Make a rename or link in ``folder`` durable."""
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
