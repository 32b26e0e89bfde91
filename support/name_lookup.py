"""Connecting to a host by name within a deadline, the name's lookup included.

``socket.create_connection``'s timeout bounds connecting, not finding the address: with the
household's DNS not answering, the lookup alone waits the resolver's own timeouts (5 s a try,
twice), whatever the caller allowed, long enough for the voice process to overrun its deadline
and be restarted. Here the lookup runs on a thread of its own and is given up at the deadline
(the thread ends when the resolver does).
"""

from __future__ import annotations

import ipaddress
import queue
import socket
import threading
import time

AddressInfo = tuple[socket.AddressFamily, socket.SocketKind, int, str, tuple]


def connect_within(address: tuple[str, int], seconds: float) -> socket.socket:
    """A TCP connection to ``address`` (host, port), made within ``seconds`` with the name's
    lookup. Raises TimeoutError when the time runs out, OSError when the name is unknown or
    every address refuses."""
    deadline = time.monotonic() + seconds
    host, port = address
    failure: OSError = OSError(f"no address for {host}")
    for family, kind, protocol, _, where in look_up(host, port, seconds):
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"connecting to {host}")
        connection = socket.socket(family, kind, protocol)
        connection.settimeout(left)
        try:
            connection.connect(where)
        except OSError as error:
            connection.close()
            failure = error
            continue
        return connection
    raise failure


def look_up(host: str, port: int, seconds: float) -> list[AddressInfo]:
    """``socket.getaddrinfo`` for a TCP connection, given up after ``seconds`` (TimeoutError);
    an address written as one is read at once."""
    host = host.strip("[]")  # an IPv6 address as a URL writes it, "[::1]"
    if _literal(host):
        return socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    answers: queue.SimpleQueue[list[AddressInfo] | OSError] = queue.SimpleQueue()

    def ask() -> None:
        try:
            answers.put(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except OSError as error:
            answers.put(error)

    threading.Thread(target=ask, name=f"look up {host}", daemon=True).start()
    try:
        answer = answers.get(timeout=seconds)
    except queue.Empty:
        raise TimeoutError(f"looking up {host} took over {seconds:g} s") from None
    if isinstance(answer, OSError):
        raise answer
    return answer


def _literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True
