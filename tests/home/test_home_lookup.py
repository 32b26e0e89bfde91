"""Home Assistant out of reach: a host whose lookup the household's DNS never answers, or a box
that never takes the connection. The request is given up in time and said as not done (nothing
was sent), not held for the resolver's own 10 s nor said as "I don't know if that worked"."""

from __future__ import annotations

import httpx
from pydantic import SecretStr

from assistant.home import HomeAssistantConversation, HomeProblem
from config import HomeAssistantSettings


def test_a_host_whose_lookup_never_answers_is_out_of_reach_in_time(deaf_dns):
    settings = HomeAssistantSettings(
        url="http://homeassistant.lan:8123", connect_timeout_seconds=0.3
    )
    client = HomeAssistantConversation(settings, token=SecretStr("token"))
    try:
        answer = client.process("Turn on the kitchen lights.")
        assert deaf_dns.still_hanging(), "the request waited for the resolver"
    finally:
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
