"""What a secret must be to travel in an HTTP header as a bearer token."""

from __future__ import annotations

NOT_ONE_WORD = (
    "holds more than one word of printable ASCII (a second line, a space or an accented "
    "letter), which an HTTP header cannot carry"
)
"""Why a secret is not :func:`header_safe`, said without the secret."""


def header_safe(secret: str) -> bool:
    """Whether ``secret`` can travel in an HTTP header as a bearer token: one word of printable
    ASCII (a token pasted with a second line, or with an accented letter, cannot)."""
    return bool(secret) and secret.isascii() and secret.isprintable() and " " not in secret
