"""One-off probes for ``hearth check``: does the MQTT broker take Hearth and let it use its
topics, and do Home Assistant's URL and token work? Each answers within a few seconds, in words
that point at the fix.

The broker probe builds its client as the device does (``broker_client``) but under a client id of
its own and with no last will, so probing never pushes a running Hearth off the broker nor
marks it offline in Home Assistant. A broker's ACL can admit Hearth and still drop what it
publishes (silently, in the MQTT 3.1.1 the device speaks), and then Home Assistant never sees
Hearth; so the probe speaks MQTT 5, whose PUBACK carries the broker's verdict, and publishes one
message, not retained, under Hearth's base topic and one under the discovery prefix (on topics
nothing subscribes to: Home Assistant listens there only to topics ending in ``config``). The one
under the base topic must also come back, as the commands under it must reach the device. A
broker that speaks only 3.1.1 is probed over 3.1.1, and judged by that echo alone.
"""

from __future__ import annotations

import os
import socket
import ssl
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt

from assistant.home.conversation import HomeAssistantConversation, HomeProblem
from assistant.home.device import DeviceIdentity, DeviceTopics
from assistant.home.mqtt_device import QOS, broker_address, broker_client, connect_failure
from assistant.home.secrets import SecretError
from config import HomeAssistantSettings, MqttSettings
from support import look_up

BROKER_PROBE_SECONDS = 5.0
"""The longest the broker probe waits, for the connection and again for the broker's answer."""
ECHO_SECONDS = 1.0
"""The longest the probe waits for the broker to acknowledge its messages and pass one back."""
LOOP_STEP_SECONDS = 0.1
UNSUPPORTED_PROTOCOL = 0x84
"""MQTT 5's CONNACK reason for a protocol version the broker does not speak."""


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
    """Connect to the broker with the device's user, password and TLS; prove it lets Hearth
    subscribe to its topics, publish under its base topic and the discovery prefix, and passes
    back what is published under the base topic; then disconnect.

    A broker that speaks only MQTT 3.1.1 (Mosquitto before 1.6, RabbitMQ before 3.13) is probed
    over 3.1.1, as the device talks to it: what comes back is then all there is to judge by.
    """
    try:
        return _probe(settings, timeout, environ, mqtt.MQTTv5)
    except _NoMqtt5:
        return _probe(settings, timeout, environ, mqtt.MQTTv311)


class _NoMqtt5(Exception):
    """The broker answered an MQTT 5 CONNECT with "unsupported protocol version"."""


def _probe(
    settings: MqttSettings, timeout: float, environ: Mapping[str, str] | None, protocol: int
) -> Probe:
    host, port = broker_address(settings)
    address = f"{settings.url.scheme}://{host}:{port}"
    tls = settings.url.scheme == "mqtts"
    try:
        client = broker_client(settings, f"hearth-check-{os.getpid()}", environ, protocol)
    except SecretError as error:
        return Probe(False, str(error))
    client.connect_timeout = timeout
    answers: list[Any] = []
    client.on_connect = lambda _client, _data, _flags, reason, _props: answers.append(reason)
    try:
        look_up(host, port, timeout)  # paho's connect timeout does not bound the name's lookup
        client.connect(host, port, keepalive=settings.keepalive_seconds)
    except OSError as error:  # refused, timed out, unknown host, TLS handshake failed
        return Probe(False, f"{address} {_failure(error, tls)}")
    try:
        connected = _answer(client, answers, address, tls, timeout)
        if not connected.ok:
            return connected
        return _permissions(client, settings, address, timeout)
    finally:
        client.disconnect()


def _wait(client: mqtt.Client, done: Callable[[], bool], timeout: float) -> bool:
    """Run the client's network loop on this thread (no network thread for a one-off) until
    ``done()`` or ``timeout`` seconds; False when the broker closed the connection first."""
    deadline = time.monotonic() + timeout
    while not done() and time.monotonic() < deadline:
        if client.loop(timeout=LOOP_STEP_SECONDS) != mqtt.MQTT_ERR_SUCCESS and not done():
            return False
    return True


def _answer(client: mqtt.Client, answers: list[Any], address: str, tls: bool,
            timeout: float) -> Probe:  # fmt: skip
    """Wait for the broker's CONNACK.

    Raises:
        _NoMqtt5: the client asked for MQTT 5, which the broker does not speak.
    """
    if not _wait(client, lambda: bool(answers), timeout):
        hint = "" if tls else "; does it speak only TLS? (mqtts:// in mqtt.url)"
        return Probe(False, f"{address} closed the connection without answering{hint}")
    if not answers:
        return Probe(False, f"{address} did not answer within {timeout:g} s")
    reason = answers[0]
    if reason.value == UNSUPPORTED_PROTOCOL:
        if client.protocol == mqtt.MQTTv5:
            raise _NoMqtt5
        return Probe(False, f"{address} speaks neither MQTT 3.1.1 nor 5: is it an MQTT broker?")
    if reason.is_failure:
        return Probe(False, f"{address} refused Hearth: {reason}; check mqtt.username and its "
                            "password (mqtt.password_file or mqtt.password_env)")  # fmt: skip
    return Probe(True, f"connected to {address}")


class _Acks:
    """What the broker answered the probe's subscription and messages (paho's callbacks)."""

    def __init__(self, echo_topic: str, token: bytes) -> None:
        self.granted: list[Any] | None = None
        self.published: dict[int, Any] = {}
        """The PUBACK reason of each message, by its message id."""
        self.echoed = False
        self._echo_topic = echo_topic
        self._token = token

    def on_subscribe(self, _client: Any, _data: Any, _mid: int, reasons: list[Any],
                     _props: Any) -> None:  # fmt: skip
        self.granted = list(reasons)

    def on_publish(self, _client: Any, _data: Any, mid: int, reason: Any, _props: Any) -> None:
        self.published[mid] = reason

    def on_message(self, _client: Any, _data: Any, message: mqtt.MQTTMessage) -> None:
        if message.topic == self._echo_topic and message.payload == self._token:
            self.echoed = True

    def answered(self, mids: Iterable[int]) -> bool:
        """Whether every message of ``mids`` is acknowledged and the echo came back."""
        return self.echoed and all(mid in self.published for mid in mids)


def _permissions(
    client: mqtt.Client, settings: MqttSettings, address: str, timeout: float
) -> Probe:
    """Subscribe as the device does and to the probe's topic, publish the two probe messages,
    and read the broker's verdicts."""
    device_id = DeviceIdentity.from_settings(settings, socket.gethostname(), "").device_id
    topics = DeviceTopics(device_id, settings.discovery_prefix)
    who = f"user {settings.username}" if settings.username else "anonymous clients"

    def denied(what: str) -> Probe:
        return Probe(False, f"the broker accepted Hearth but does not let it {what}: check the "
                            f"ACL for {who}")  # fmt: skip

    token = f"hearth check {uuid.uuid4().hex}".encode()
    acks = _Acks(topics.check, token)
    client.on_subscribe, client.on_publish = acks.on_subscribe, acks.on_publish
    client.on_message = acks.on_message
    wanted = (topics.check, *topics.subscriptions)
    client.subscribe([(topic, QOS) for topic in wanted])
    if not _wait(client, lambda: acks.granted is not None, timeout) or acks.granted is None:
        return Probe(False, f"{address} did not answer Hearth's subscription within {timeout:g} s")
    for topic, reason in zip(wanted, acks.granted, strict=False):
        if reason.is_failure:
            return denied(f"subscribe to {topic} ({reason})")
    probes = {
        f"{topics.base}/": client.publish(topics.check, token, qos=QOS, retain=False).mid,
        f"{topics.discovery_prefix}/": client.publish(
            topics.discovery_check, token, qos=QOS, retain=False
        ).mid,
    }
    if not _wait(client, lambda: acks.answered(probes.values()), ECHO_SECONDS):
        return denied("publish (it closed the connection)")
    for under, mid in probes.items():
        reason = acks.published.get(mid)
        if reason is None:
            return Probe(False, f"{address} did not acknowledge a message under {under} within "
                                f"{ECHO_SECONDS:g} s")  # fmt: skip
        if reason.is_failure:
            return denied(f"publish under {under} ({reason})")
    if client.protocol != mqtt.MQTTv5:  # its PUBACK says nothing: only the echo tells
        if not acks.echoed:
            return denied(f"publish or receive under {topics.base}/")
        return Probe(True, f"connected to {address}; Hearth may publish and receive under "
                           f"{topics.base}/ (the broker speaks only MQTT 3.1.1, which does not "
                           f"say whether it takes what Hearth publishes under "
                           f"{topics.discovery_prefix}/)")  # fmt: skip
    if not acks.echoed:
        return denied(f"receive what is published under {topics.base}/ (its commands)")
    return Probe(True, f"connected to {address}; Hearth may publish under {topics.base}/ and "
                       f"{topics.discovery_prefix}/, and receives its commands")  # fmt: skip


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
    """Ask Home Assistant's REST API whether it runs and takes the token (``GET /api/``), and
    whether it has the conversation agent ``agent_id`` names, if it names one."""
    url = str(settings.url).rstrip("/")
    try:
        client = HomeAssistantConversation(settings, environ=environ)
    except SecretError as error:
        return Probe(False, str(error))
    try:
        status = client.check_api()
        agent_known = client.agent_known() if status.problem is None and settings.agent_id else None
    finally:
        client.close()
    if status.problem is None and agent_known is False:
        return Probe(False, f"{url}: Home Assistant has no conversation agent "
                            f"{settings.agent_id!r}; set home_assistant.agent_id to one it lists "
                            "(Settings, Voice assistants) or leave it out for its own")  # fmt: skip
    if status.problem is None:
        return Probe(True, f"{url}: {status.detail}")
    fix = PROBLEM_FIXES.get(status.problem, status.problem.value)
    return Probe(False, f"{url} {status.problem.value.replace('_', ' ')} ({status.detail}); {fix}")
