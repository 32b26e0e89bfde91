"""Connecting by name within a deadline: a resolver that never answers is given up, not waited
on past the caller's time (the household's DNS down once got the voice process restarted)."""

from __future__ import annotations

import socket

import pytest

from support.name_lookup import connect_within, look_up


def test_a_lookup_the_resolver_never_answers_is_given_up_at_the_deadline(deaf_dns):
    with pytest.raises(TimeoutError, match=r"looking up bigbox\.lan"):
        look_up("bigbox.lan", 10200, 0.2)
    with pytest.raises(TimeoutError):
        connect_within(("bigbox.lan", 10200), 0.2)


def test_an_address_is_read_without_a_lookup_and_connected_to(deaf_dns):
    server = socket.create_server(("127.0.0.1", 0))
    try:
        port = server.getsockname()[1]
        connection = connect_within(("127.0.0.1", port), 2.0)
        connection.close()
    finally:
        server.close()


def test_a_name_is_connected_to_and_a_closed_port_refuses():
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    connect_within(("localhost", port), 5.0).close()
    server.close()
    with pytest.raises(ConnectionRefusedError):
        connect_within(("127.0.0.1", port), 5.0)


def test_an_ipv6_address_as_a_url_writes_it_is_read_as_one(deaf_dns):
    assert look_up("[::1]", 80, 0.2)[0][4][0] == "::1"
