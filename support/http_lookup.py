"""An httpx transport that looks the host's name up within a deadline before it connects.

httpx's connect timeout does not bound the lookup: with the household's DNS not answering, every
request to a server named by host name (Home Assistant, the model's server) waited the
resolver's own 10 s whatever the settings allowed. Kept out of ``support/__init__`` so that
importing ``support`` (the voice process does) does not import httpx.

Every request looks the name up first, pooled connection or not: while the DNS is down a
server reached by name is out of reach even over a connection still open, and a request may
wait the connect timeout twice (the lookup, then connecting). A resolver that answers costs a
lookup a request, which the system's cache, where there is one, answers at once.
"""

from __future__ import annotations

import httpx

from support.name_lookup import look_up


class LookupWithin(httpx.BaseTransport):
    """A transport that first looks the host's name up within ``seconds``. A resolver that
    answers in time answers the connection's own lookup as well; an address is read at once."""

    def __init__(self, inner: httpx.BaseTransport, seconds: float) -> None:
        self._inner = inner
        self._seconds = seconds

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        """Look the name up in time (``httpx.ConnectError`` otherwise: nothing was sent), then
        send."""
        url = request.url
        port = url.port or (443 if url.scheme == "https" else 80)
        try:
            look_up(url.host, port, self._seconds)
        except OSError as error:  # a timeout too
            raise httpx.ConnectError(str(error) or type(error).__name__, request=request) from None
        return self._inner.handle_request(request)

    def close(self) -> None:
        """Close the inner transport's connections."""
        self._inner.close()
