"""Whether a URL typed into the settings or on the command line can be used at all, and how to
show one without its password."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit


def url_problem(url: str) -> str | None:
    """What makes ``url`` unusable ("Invalid IPv6 URL", a port that is no number), or None. The
    message shows the URL with its password blanked."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (reading the port is the check)
    except ValueError as error:
        return f"{shown_url(url)} is not a valid URL: {error}"
    scheme, _, rest = url.partition("://")
    address = rest.split("?", 1)[0]
    if address.count("@") > 1:
        # libpq ends the login at the first "@" and takes the rest of the password for the
        # host, which its error then shows; a "/" in the password hides it from the netloc.
        login, _, host = address.rpartition("@")
        user = login.split(":", 1)[0].split("@", 1)[0]
        return (
            f"{scheme}://{user}:***@{host} is not a valid URL: its login holds an '@'; write "
            "each '@' in the user name or password as %40 (and each '/' as %2F)"
        )
    return None


def shown_url(url: str) -> str:
    """``url`` as it may be shown in a message or a log: any password, in the login or as a
    ``password=`` parameter, blanked as ``***``; a URL too malformed to split has anything in a
    password's place blanked."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", url)
    netloc = parts.netloc
    if "@" in netloc:
        login, host = netloc.rsplit("@", 1)
        if ":" in login:
            netloc = f"{login.split(':', 1)[0]}:***@{host}"
    query = parts.query
    if "password=" in query:
        query = urlencode(
            [
                (key, "***" if key == "password" else value)
                for key, value in parse_qsl(query, keep_blank_values=True)
            ],
            safe="/*",
        )
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))
