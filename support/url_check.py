"""Whether a URL typed into the settings or on the command line can be used at all."""

from __future__ import annotations

import re
from urllib.parse import urlsplit


def url_problem(url: str) -> str | None:
    """What makes ``url`` unusable ("Invalid IPv6 URL", a port that is no number), or None. The
    message shows the URL with anything in the place of a password blanked."""
    try:
        urlsplit(url).port  # noqa: B018  (reading the port is the check)
    except ValueError as error:
        shown = re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", url)
        return f"{shown} is not a valid URL: {error}"
    return None
