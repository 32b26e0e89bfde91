"""Hearth as a device on the household's MQTT broker, seen by Home Assistant through discovery.

``paho-mqtt`` runs the connection on its own network thread and reconnects with a doubling
backoff, so nothing here blocks the caller: a publish is fire-and-forget, and with the broker
down Hearth hears and speaks as before (one log line per outage, one when the broker is back).
The last value of every state is kept and published again, retained, on each connection and
whenever Home Assistant announces that it has restarted; events are momentary and are dropped
while the broker is away. Commands from Home Assistant wait in a queue for ``take_commands``.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import queue
import random
import socket
import ssl
import sys
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from enum import Enum
from importlib import metadata
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from assistant.home.commands import Command, CommandError, parse_command
from assistant.home.device import (
    OFFLINE,
    ONLINE,
    DeviceEvent,
    DeviceIdentity,
    DeviceState,
    DeviceTopics,
    NextItem,
    event_payload,
    mute_payload,
    next_item_payloads,
    volume_payload,
)
from assistant.home.discovery import discovery_documents
from assistant.home.secrets import SecretError, read_secret
from assistant.home.short_connections import ShortConnections
from config import MqttSettings
from support import require_regular_file

log = logging.getLogger(__name__)

QOS = 1
CLOSE_WAIT_SECONDS = 2.0
"""How long closing waits for the broker to take the retained ``offline``."""
ASIDE_LOOK_SECONDS = 60.0
"""While another client holds Hearth's id, how often (give or take half) Hearth asks whether
the holder is still here, without taking the id from it."""
LOOK_WAIT_SECONDS = 3.0
"""How long a look waits for the holder's answer."""
DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}


class Link(Enum):
    """The connection to the broker, as the network thread sees it."""

    CONNECTING = "connecting"
    CONNECTED = "connected"
    DOWN = "down"
    ASIDE = "aside"
    """Another client holds the id: Hearth stays off the broker and looks now and then."""
    CLOSED = "closed"


def hearth_version() -> str:
    """The installed version of Hearth, for the device block."""
    try:
        return metadata.version("hearth-assistant")
    except metadata.PackageNotFoundError:
        return "unknown"


class MqttDevice:
    """One Hearth on the broker: discovery, availability, states, events and commands."""

    def __init__(
        self,
        settings: MqttSettings,
        identity: DeviceIdentity | None = None,
        environ: Mapping[str, str] | None = None,
        aside_look_seconds: float = ASIDE_LOOK_SECONDS,
    ) -> None:
        """Prepare the connection; nothing is sent before :meth:`start`.

        Raises:
            SecretError: a password or ca_file that is missing, unreadable or empty.
        """
        self._settings = settings
        self.identity = identity or DeviceIdentity.from_settings(
            settings, socket.gethostname(), hearth_version()
        )
        self.topics = DeviceTopics(self.identity.device_id, settings.discovery_prefix)
        self._documents = discovery_documents(self.identity, self.topics)
        self._host, self._port = broker_address(settings)
        self._address = f"{settings.url.scheme}://{self._host}:{self._port}"
        self._commands: queue.SimpleQueue[Command] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._retained: dict[str, str] = {}
        """The last payload of every state topic, sent again on each connection."""
        self._link = Link.CONNECTING
        self._link_lock = threading.Lock()
        self._client_id = f"hearth-{self.identity.device_id}"
        self._short = ShortConnections()
        self._environ = environ
        self._aside_look_seconds = aside_look_seconds
        self._closing = threading.Event()
        self._client = self._make_client(environ)

    def _make_client(self, environ: Mapping[str, str] | None) -> mqtt.Client:
        client = broker_client(self._settings, self._client_id, environ)
        client.will_set(self.topics.availability, OFFLINE, qos=QOS, retain=True)
        client.on_connect = _guarded(self._on_connect)
        client.on_connect_fail = _guarded(self._on_connect_fail)
        client.on_disconnect = _guarded(self._on_disconnect)
        client.on_message = _guarded(self._on_message)
        return client

    # -- the caller's side -------------------------------------------------------------------

    def start(self) -> None:
        """Begin connecting on the network thread and return at once (the broker may be down)."""
        log.info("MQTT device %s on %s", self.identity.device_id, self._address)
        self._client.connect_async(
            self._host, self._port, keepalive=self._settings.keepalive_seconds
        )
        self._client.loop_start()

    @property
    def connected(self) -> bool:
        """Whether the broker is reachable right now."""
        return self._link is Link.CONNECTED

    @property
    def standing_aside(self) -> bool:
        """Whether another client holds this Hearth's id and Hearth has left it the broker."""
        return self._link is Link.ASIDE

    def publish_state(self, state: DeviceState) -> None:
        """What Hearth is doing now (the state sensor)."""
        self._publish_retained(self.topics.state, state.value)

    def publish_mute(self, muted: bool) -> None:
        """Whether the microphone is closed (the mute switch)."""
        self._publish_retained(self.topics.mute_state, mute_payload(muted))

    def publish_volume(self, level: float) -> None:
        """The speaking volume, 0.0 to 1.0 of full (the volume number)."""
        self._publish_retained(self.topics.volume_state, volume_payload(level))

    def publish_next_item(self, item: NextItem | None) -> None:
        """The soonest timer, alarm or reminder, or None when nothing is set."""
        state, attributes = next_item_payloads(item)
        with self._lock:
            self._retained[self.topics.next_item_attributes] = attributes
            self._retained[self.topics.next_item] = state
        self._send(self.topics.next_item_attributes, attributes, retain=True)
        self._send(self.topics.next_item, state, retain=True)

    def publish_event(self, event: DeviceEvent) -> None:
        """Something that happened (the event entity); dropped while the broker is away."""
        if not self._send(self.topics.event, event_payload(event), retain=False):
            log.debug("event %s not sent: the MQTT broker is not connected", event.type.value)

    def take_commands(self) -> list[Command]:
        """The commands Home Assistant sent since the last call, oldest first."""
        taken = []
        while True:
            try:
                taken.append(self._commands.get_nowait())
            except queue.Empty:
                return taken

    def close(self) -> None:
        """Say ``offline`` (a clean exit sends no last will), disconnect, stop the thread."""
        was_connected = self.connected
        self._closing.set()
        self._change_link(Link.CLOSED)
        if was_connected:
            info = self._client.publish(self.topics.availability, OFFLINE, qos=QOS, retain=True)
            # The connection may go while waiting: the last will says offline then.
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(timeout=CLOSE_WAIT_SECONDS)
        self._client.disconnect()
        # The network thread may be looking the broker's name up, which paho cannot bound: with
        # the household's DNS down that held Hearth's stop for the resolver's own 10-20 s. It
        # is a daemon thread, so one still busy after a short wait is left to end with Hearth.
        stopping = threading.Thread(target=self._client.loop_stop, name="mqtt-stop", daemon=True)
        stopping.start()
        stopping.join(CLOSE_WAIT_SECONDS)
        if stopping.is_alive():
            log.info("MQTT network thread still busy (a name lookup?): not waiting for it")

    def _publish_retained(self, topic: str, payload: str) -> None:
        with self._lock:
            self._retained[topic] = payload
        self._send(topic, payload, retain=True)

    def _send(self, topic: str, payload: str, *, retain: bool) -> bool:
        # Not queued while away: the connection sends every current state anew when it is back.
        if not self.connected:
            return False
        self._client.publish(topic, payload, qos=QOS, retain=retain)
        return True

    # -- the network thread --------------------------------------------------------------------

    def _change_link(self, new: Link, reason: str = "") -> None:
        """The one place the link changes (closed stays closed); logs once per outage and once
        when it ends."""
        with self._link_lock:  # the network thread and close() may both change it
            old = self._link
            if old is Link.CLOSED or new is old or (old is Link.ASIDE and new is not Link.CLOSED):
                return  # closed stays closed; only the look ends standing aside
            self._link = new
        if self._short.taken_over:
            log.debug("MQTT link %s -> %s (%s)", old.value, new.value, reason)  # said once
        elif new is Link.DOWN:
            log.warning(
                "MQTT broker %s unreachable (%s): Hearth goes on without it and keeps trying",
                self._address, reason or "no answer",
            )  # fmt: skip
        elif new is Link.CONNECTED and old is Link.DOWN:
            log.info("MQTT broker %s reachable again", self._address)
        elif new is Link.CONNECTED:
            log.info("connected to MQTT broker %s as %s", self._address, self.identity.device_id)

    def _on_connect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any
    ) -> None:
        if reason.is_failure:
            self._change_link(Link.DOWN, f"refused: {reason}")
            return
        # Connected first: a state published from now on is sent by its caller, and one stored
        # before is in the snapshot the announcement takes; none falls between the two.
        self._short.accepted(time.monotonic())
        self._change_link(Link.CONNECTED)
        client.subscribe([(topic, QOS) for topic in self.topics.subscriptions])
        self._announce(client)

    def _announce(self, client: mqtt.Client) -> None:
        """Discovery documents, ``online``, and every current state, all retained."""
        for document in self._documents:
            client.publish(
                document.topic,
                json.dumps(document.config, separators=(",", ":")),
                qos=QOS,
                retain=True,
            )
        client.publish(self.topics.availability, ONLINE, qos=QOS, retain=True)
        with self._lock:
            current = dict(self._retained)
        for topic, payload in current.items():
            client.publish(topic, payload, qos=QOS, retain=True)

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        # paho calls this inside its ``except OSError`` and passes no reason: the one handled
        # says what a user must fix (refused, a certificate not trusted, an unknown host).
        error = sys.exc_info()[1]
        tls = self._settings.url.scheme == "mqtts"
        self._change_link(Link.DOWN, connect_failure(error, tls=tls))

    def _on_disconnect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any
    ) -> None:
        if self._short.ended(time.monotonic()):
            log.warning(
                "MQTT broker %s keeps ending the connection as soon as it accepts it: another "
                "client is connected as %s (a second Hearth with mqtt.device_id %s, or an old one "
                "still running?). Give each Hearth its own mqtt.device_id (or mqtt.room). This "
                "one leaves the broker to it, and takes the id back when it goes offline.",
                self._address, self._client_id, self.identity.device_id,
            )  # fmt: skip
            self._stand_aside(client)
            return
        self._change_link(Link.DOWN, str(reason))

    def _stand_aside(self, client: mqtt.Client) -> None:
        """Stop taking the id back (the two would take it from each other every second, and
        Home Assistant would see the device come and go): the other keeps the broker, and a
        thread looks now and then whether it is still online."""
        self._change_link(Link.ASIDE)
        client.loop_stop()  # called on the network thread: it ends instead of reconnecting
        network = threading.current_thread()
        threading.Thread(
            target=self._look_while_aside, args=(network,), name="mqtt-aside", daemon=True
        ).start()

    def _look_while_aside(self, network: threading.Thread) -> None:
        while True:
            # Two Hearths aside at once would look at the same moment: a spread breaks the tie.
            wait = self._aside_look_seconds * random.uniform(0.5, 1.5)
            if self._closing.wait(wait):
                return
            try:
                here = holder_answers(self._settings, self.topics, self._client_id, self._environ)
            except Exception as error:  # a password file gone meanwhile: the thread lives on
                log.warning("MQTT could not look whether id %s is free: %s", self._client_id, error)
                here = None
            if here is not True:  # gone, or the look failed: try the id again
                break
            log.debug("MQTT id %s is still held by another client", self._client_id)
        network.join()  # the old network thread, ended when Hearth stood aside
        # Under the lock close() takes: it either finds the link aside and ends it, or finds it
        # connecting, with a network thread it then stops.
        with self._link_lock:
            if self._link is not Link.ASIDE or self._closing.is_set():
                return  # closed meanwhile
            self._link = Link.CONNECTING
            log.info("MQTT id %s is free again: connecting as it", self._client_id)
            self._short = ShortConnections()
            self._client.connect_async(
                self._host, self._port, keepalive=self._settings.keepalive_seconds
            )
            self._client.loop_start()

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if message.topic == self.topics.presence_ask:
            if not message.retain:
                client.publish(self.topics.presence_answer, message.payload, qos=QOS)
            return
        if message.topic == self.topics.home_assistant_status:
            if message.payload == ONLINE.encode():
                log.info("Home Assistant restarted: sending discovery and states again")
                self._announce(client)
            return
        if message.retain:
            # Kept by the broker from some time ago (a `retain: true` in an automation): carried
            # out at every connect, it muted Hearth again after every restart and said an old
            # announcement again. A command is for the moment it is sent.
            log.warning("ignored a retained command on %s: publish commands without retain "
                        "(mosquitto_pub -r -n -t %s clears it)", message.topic,
                        message.topic)  # fmt: skip
            return
        try:
            command = parse_command(self.topics, message.topic, message.payload)
        except CommandError as error:
            log.warning("ignored a command from MQTT: %s", error)
            return
        log.debug("command from MQTT: %s", command)
        self._commands.put(command)


def holder_answers(
    settings: MqttSettings,
    topics: DeviceTopics,
    client_id: str,
    environ: Mapping[str, str] | None = None,
) -> bool | None:
    """Whether a Hearth holding ``client_id`` answers that it is here, asked under an id of its
    own so the holder keeps its connection. A retained ``online`` would not do: two Hearths that
    stood aside at once leave one behind them. None when the look itself fails (the broker
    away, a subscription refused)."""
    token = uuid.uuid4().hex.encode()
    answer: queue.SimpleQueue[bool | None] = queue.SimpleQueue()
    look = broker_client(settings, f"{client_id}-look-{token[:8].decode()}", environ)

    def on_connect(client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            answer.put(None)
        else:
            client.subscribe(topics.presence_answer, qos=QOS)

    def on_subscribe(client: mqtt.Client, userdata: Any, mid: Any, codes: Any, props: Any) -> None:
        if any(code.is_failure for code in codes):
            answer.put(None)
        else:
            client.publish(topics.presence_ask, token, qos=QOS, retain=False)

    def on_message(client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if message.payload == token:
            answer.put(True)

    look.on_connect, look.on_subscribe, look.on_message = on_connect, on_subscribe, on_message
    try:
        look.connect(*broker_address(settings), keepalive=settings.keepalive_seconds)
    except OSError:
        return None
    look.loop_start()
    try:
        return answer.get(timeout=LOOK_WAIT_SECONDS)
    except queue.Empty:
        return False  # no one here
    finally:
        look.disconnect()
        look.loop_stop()


def connect_failure(error: BaseException | None, *, tls: bool) -> str:
    """Why a connection attempt failed, in words that point at the fix."""
    if error is None:
        return ""
    reason = str(error) or type(error).__name__
    handshake = isinstance(error, ConnectionResetError | ssl.SSLError)
    if tls and handshake and not isinstance(error, ssl.SSLCertVerificationError):
        # A plain listener drops a TLS hello, or answers it with bytes that are not TLS.
        return f"{reason}; does the broker speak TLS on this port? (mqtts:// in mqtt.url)"
    return reason


def broker_address(settings: MqttSettings) -> tuple[str, int]:
    """The broker's host and port (the scheme's usual port unless one is given)."""
    return settings.url.host or "", settings.url.port or DEFAULT_PORTS[settings.url.scheme]


def broker_client(
    settings: MqttSettings,
    client_id: str,
    environ: Mapping[str, str] | None = None,
    protocol: int = mqtt.MQTTv311,
) -> mqtt.Client:
    """A paho client for the household's broker, not yet connected: its credentials, TLS and
    reconnection backoff from ``settings`` (shared by every Hearth connection to the broker).
    The device speaks MQTT 3.1.1; ``hearth check`` asks for MQTT 5, whose acknowledgements say
    whether the broker took a publish.

    Raises:
        SecretError: a password file that is missing, unreadable or empty, or a ``ca_file``
        that cannot be read or holds no certificate.
    """
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=protocol)
    client.reconnect_delay_set(
        min_delay=settings.reconnect_min_seconds, max_delay=settings.reconnect_max_seconds
    )
    env = os.environ if environ is None else environ
    if settings.username:
        password = None  # a broker may take a user name alone
        if settings.password_file is not None or env.get(settings.password_env):
            secret = read_secret(
                "MQTT password", settings.password_file, settings.password_env, env
            )
            password = secret.get_secret_value()
        client.username_pw_set(settings.username, password)
    if settings.url.scheme == "mqtts":
        ca = settings.ca_file.expanduser() if settings.ca_file else None
        try:
            if ca is not None:
                require_regular_file(ca)  # a pipe would hang the read
            client.tls_set(ca_certs=str(ca) if ca else None, cert_reqs=ssl.CERT_REQUIRED)
        except OSError as error:  # ssl.SSLError is one: a file holding no certificate
            reason = error.strerror or str(error)
            raise SecretError(f"mqtt.ca_file {settings.ca_file}: {reason}") from None
    return client


def _guarded(callback: Callable[..., None]) -> Callable[..., None]:
    """``callback`` for paho's network thread: a fault in it is logged with its traceback, and
    the thread, which keeps the connection alive, goes on."""

    @functools.wraps(callback)
    def guarded(*args: Any) -> None:
        try:
            callback(*args)
        except Exception:
            log.exception("MQTT %s failed", callback.__name__)

    return guarded
