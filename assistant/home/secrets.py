"""Secrets (Home Assistant's access token, the broker's password) read from a file or the
environment, held so that they never reach a log line, an error message or a repr."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from pydantic import SecretStr

from support import NOT_ONE_WORD, header_safe, read_text_file


class SecretError(ValueError):
    """A secret (or the certificate that vouches for the broker) that is missing or unreadable;
    the message says where it was looked for, never what it holds."""


def read_secret(
    what: str,
    path: Path | None,
    variable: str,
    environ: Mapping[str, str] | None = None,
    *,
    in_header: bool = False,
) -> SecretStr:
    """The secret in the file at ``path`` (when given) or in the environment ``variable``.

    Surrounding white space (a file's trailing newline) is not part of it. ``in_header``: it
    goes into an HTTP header, so it must be one word of printable ASCII.

    Raises:
        SecretError: naming ``what`` and the file or variable, when it is missing, empty, not
        a regular file, or (``in_header``) holds what a header cannot carry.
    """
    env = os.environ if environ is None else environ
    if path is not None:
        try:
            text = read_text_file(path).strip()
        except FileNotFoundError:
            raise SecretError(f"the {what} file {path} does not exist") from None
        except (OSError, UnicodeDecodeError) as error:
            reason = error.strerror if isinstance(error, OSError) else "it is not text"
            raise SecretError(f"cannot read the {what} file {path}: {reason}") from None
        if not text:
            raise SecretError(f"the {what} file {path} is empty")
        where = f"file {path}"
    else:
        text = env.get(variable, "").strip()
        if not text:
            raise SecretError(f"no {what}: set {variable} or give a file for it in the settings")
        where = f"in {variable}"
    if in_header and not header_safe(text):
        raise SecretError(f"the {what} {where} {NOT_ONE_WORD}")
    return SecretStr(text)
