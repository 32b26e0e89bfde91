"""The one check that a name Hearth reads or writes is a regular file (or nothing yet): a pipe or
a device named by mistake would hang a read, and renaming over one would replace it."""

from __future__ import annotations

import errno
import os
from pathlib import Path


class NotARegularFile(OSError):
    """The name is taken by something that is not a regular file (a device such as
    ``/dev/null``, a pipe, a socket, a folder)."""


def require_regular_file(path: str | os.PathLike[str]) -> None:
    """Raise :class:`NotARegularFile` if ``path`` exists and is not a regular file (a symbolic
    link counts as what it names)."""
    if os.path.exists(path) and not os.path.isfile(path):
        raise NotARegularFile(errno.EINVAL, "is not a regular file", str(Path(path)))
