"""A Home Assistant named by a host whose lookup the household's DNS never answers: the request
is given up within the connect timeout and said as out of reach (nothing was sent), not held
for the resolver's own 10 s."""

from __future__ import annotations

import socket
import threading

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
