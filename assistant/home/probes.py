"""One-off probes for ``hearth check``: does the MQTT broker take Hearth, and do Home Assistant's
URL and token work? Each answers within a few seconds, in words that point at the fix.

The broker probe builds its client as the device does (``broker_client``) but under a client id of
its own and with no last will, so probing never pushes a running Hearth off the broker nor
marks it offline in Home Assistant.
"""

from __future__ import annotations

import os
import ssl
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt

from assistant.home.conversation import HomeAssistantConversation, HomeProblem
from assistant.home.mqtt_device import broker_address, broker_client, connect_failure
from assistant.home.secrets import SecretError
from config import HomeAssistantSettings, MqttSettings

BROKER_PROBE_SECONDS = 5.0
"""The longest the broker probe waits, for the connection and again for the broker's answer."""
LOOP_STEP_SECONDS = 0.1


@dataclass(frozen=True)
class Probe:
    """What a probe found: fine or not, and the words to show."""

    ok: bool
    detail: str


def probe_broker(
    settings: MqttSettings,
    timeout: float = BROKER_PROBE_SECONDS,
    environ: Mapping[str, str] | None = None,
) -> Probe:
    """Connect to the broker with the device's user, password and TLS, then disconnect."""
    host, port = broker_address(settings)
    address = f"{settings.url.scheme}://{host}:{port}"
    tls = settings.url.scheme == "mqtts"
    try:
        client = broker_client(settings, f"hearth-check-{os.getpid()}", environ)
    except SecretError as error:
        return Probe(False, str(error))
    except OSError as error:  # ssl.SSLError is one: a ca_file holding no certificate
        return Probe(False, f"mqtt.ca_file {settings.ca_file}: {error}")
    client.connect_timeout = timeout
    answers: list[Any] = []
    client.on_connect = lambda _client, _data, _flags, reason, _props: answers.append(reason)
    try:
        client.connect(host, port, keepalive=settings.keepalive_seconds)
    except OSError as error:  # refused, timed out, unknown host, TLS handshake failed
        return Probe(False, f"{address} {_failure(error, tls)}")
    try:
        return _answer(client, answers, address, tls, timeout)
    finally:
        client.disconnect()


def _answer(client: mqtt.Client, answers: list[Any], address: str, tls: bool,
            timeout: float) -> Probe:  # fmt: skip
    """Wait for the broker's CONNACK on this thread (no network thread for a one-off)."""
    deadline = time.monotonic() + timeout
    while not answers and time.monotonic() < deadline:
        if client.loop(timeout=LOOP_STEP_SECONDS) != mqtt.MQTT_ERR_SUCCESS and not answers:
            hint = "" if tls else "; does it speak only TLS? (mqtts:// in mqtt.url)"
            return Probe(False, f"{address} closed the connection without answering{hint}")
    if not answers:
        return Probe(False, f"{address} did not answer within {timeout:g} s")
    reason = answers[0]
    if reason.is_failure:
        return Probe(False, f"{address} refused Hearth: {reason}; check mqtt.username and its "
                            "password (mqtt.password_file or mqtt.password_env)")  # fmt: skip
    return Probe(True, f"connected to {address}")


def _failure(error: OSError, tls: bool) -> str:
    """Why connecting failed, as ``connect_failure`` words it, with what kind of failure."""
    words = connect_failure(error, tls=tls)
    if isinstance(error, ssl.SSLCertVerificationError):
        return f"TLS handshake failed: {words}; the broker's certificate is not trusted: set "\
               "mqtt.ca_file to the CA that signed it"  # fmt: skip
    if tls and isinstance(error, ssl.SSLError | ConnectionResetError):
        return f"TLS handshake failed: {words}"
    return f"unreachable: {words}"


PROBLEM_FIXES = {
    HomeProblem.UNREACHABLE: "is Home Assistant running there? (home_assistant.url)",
    HomeProblem.TOO_SLOW: "no answer in time (home_assistant.connect_timeout_seconds)",
    HomeProblem.TOKEN_REFUSED: (
        "the token was refused: make a long-lived access token (your profile in Home Assistant, "
        "Security) and put it in home_assistant.token_file or token_env"
    ),
    HomeProblem.NOT_HOME_ASSISTANT: "this is not Home Assistant's API (home_assistant.url)",
}


def probe_home_assistant(
    settings: HomeAssistantSettings, environ: Mapping[str, str] | None = None
) -> Probe:
    """Ask Home Assistant's REST API whether it runs and takes the token (``GET /api/``)."""
    url = str(settings.url).rstrip("/")
    try:
        client = HomeAssistantConversation(settings, environ=environ)
    except SecretError as error:
        return Probe(False, str(error))
    try:
        status = client.check_api()
    finally:
        client.close()
    if status.problem is None:
        return Probe(True, f"{url}: {status.detail}")
    fix = PROBLEM_FIXES.get(status.problem, status.problem.value)
    return Probe(False, f"{url} {status.problem.value.replace('_', ' ')} ({status.detail}); {fix}")
