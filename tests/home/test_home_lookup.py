"""Home Assistant out of reach: a host whose lookup the household's DNS never answers, or a box
that never takes the connection. The request is given up in time and said as not done (nothing
was sent), not held for the resolver's own 10 s nor said as "I don't know if that worked"."""

from __future__ import annotations

import socket
import threading

import httpx
from pydantic import SecretStr

from assistant.home import HomeAssistantConversation, HomeProblem
from config import HomeAssistantSettings


def test_a_host_whose_lookup_never_answers_is_out_of_reach_in_time(monkeypatch):
    released = threading.Event()
    hanging = threading.Semaphore(0)

    def hang(*args, **kwargs):
        hanging.release()  # one lookup in progress
        released.wait(60)
        hanging.acquire()
        raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")

    monkeypatch.setattr(socket, "getaddrinfo", hang)
    settings = HomeAssistantSettings(
        url="http://homeassistant.lan:8123", connect_timeout_seconds=0.3
    )
    client = HomeAssistantConversation(settings, token=SecretStr("token"))
    try:
        answer = client.process("Turn on the kitchen lights.")
        # Given up while the lookup still hangs, not after the resolver gave up.
        assert hanging.acquire(blocking=False), "the request waited for the resolver"
        hanging.release()
    finally:
        released.set()
        client.close()
    assert answer.problem is HomeProblem.UNREACHABLE
    assert "couldn't do that" in answer.speech


def test_a_request_that_never_left_is_said_as_not_done(monkeypatch):
    # A Home Assistant box switched off drops the connection attempt: that was "didn't answer
    # in time, so I don't know if that worked", of a request that never left.
    def never_connects(self, request):
        raise httpx.ConnectTimeout("timed out", request=request)

    monkeypatch.setattr(httpx.HTTPTransport, "handle_request", never_connects)
    client = HomeAssistantConversation(
        HomeAssistantSettings(url="http://127.0.0.1:8123"), token=SecretStr("token")
    )
    answer = client.process("Turn on the kitchen lights.")
    client.close()
    assert answer.problem is HomeProblem.UNREACHABLE
