"""Small pieces every Hearth package may use: durable file writes and the named failpoints.

A leaf: it imports nothing of Hearth's, so ``audio``, ``memory``, ``assistant`` and ``config``
can all use it without bending the import direction (``audio`` and ``memory`` may not import each
other, and ``config`` should not grow file-writing or fault-injection code that is not settings).
"""

from support.atomic_write import write_atomically
from support.failpoints import (
    ENVIRONMENT_VARIABLE,
    Failpoint,
    FailpointError,
    Failpoints,
)

__all__ = [
    "ENVIRONMENT_VARIABLE",
    "Failpoint",
    "FailpointError",
    "Failpoints",
    "write_atomically",
]
