"""The ``hearth`` console script: the command line, or, when a package it needs is missing, a
plain line saying how to fix the install (not a traceback from deep inside an import).

A household that updates Hearth's code (``git pull``) without installing again meets this when
a new version needs a new library; so does an install that left part of Hearth out.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

EXIT_NOT_INSTALLED = 2
_OWN_PACKAGES = ("assistant", "audio", "memory", "config", "support")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; exit 2 with the fix when an import fails for want of a package."""
    try:
        from assistant.cli import main as command_line
    except ModuleNotFoundError as error:
        print(f"hearth: {_missing(error.name or str(error))}", file=sys.stderr)
        return EXIT_NOT_INSTALLED
    return command_line(argv)


def _missing(module: str) -> str:
    if module.split(".")[0] in _OWN_PACKAGES:
        return (
            f"part of Hearth is not installed ({module}): install it again from its folder "
            "(pip install '.[models]', or pip install -e '.[models]' for a clone you update)"
        )
    return (
        f"a library Hearth needs is not installed ({module}): Hearth was updated without its "
        "libraries; run pip install again as you installed it (in a clone: pip install -e "
        "'.[models]'), then start Hearth again"
    )
