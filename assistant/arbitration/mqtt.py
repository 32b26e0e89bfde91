"""Claims and progress through the household's MQTT broker (``mqtt:``), for a household without
a shared database, or that would rather not poll it.

Each device publishes on ``hearth/household/<device>/`` (the name percent-encoded): ``claim``
(its latest wake word, retained, so a device that connects a moment later still sees it) and
``heard`` (how far it has heard, sent
again every second; not retained, since a stale position must not look fresh). Its last will
empties ``heard``: a device whose connection drops is gone at once rather than after the timeout.
Freshness is measured on the receiving device's own monotonic clock, so clocks need not agree.
A broker has no clock, so a live device keeps the household's time on the first Hearth's by name:
it reads how far ahead that Hearth's clock is from the ``heard`` messages it sends (the least
delayed of the last minute's), as a device on a shared database reads the database's.
One client publishes every message at QoS 1, and the broker passes on one client's messages in
order, so a peer that sees this device heard past a moment has its claims before it.

The connection is paho's (``assistant.home.broker_client``: credentials, TLS, backoff): it
reconnects on its own network thread. While it is down every call raises ``Unreachable``, as the
PostgreSQL transport does while its database is down, and the device answers by itself.
"""

from __future__ import annotations

import contextlib
import json
import math
import sys
import threading
import time
from collections import deque
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote, unquote

import paho.mqtt.client as mqtt

from assistant.arbitration.arbiter import PEER_TIMEOUT_SECONDS, Unreachable
from assistant.arbitration.claims import Claim, Peer
from assistant.home import broker_address, broker_client, connect_failure
from config import MqttSettings

QOS = 1
PREFIX = "hearth/household"
CLAIM_ACK_SECONDS = 2.0
"""How long a claim waits for the broker to take it before the others count as out of reach."""
KEEP_CLAIMS_SECONDS = 3600.0
STAMP_SECONDS = 60.0
"""How long a peer's ``heard`` stamps count when its clock is read: long enough to hold one sent
at once (not a keepalive's repeat), short enough to follow a clock that NTP sets."""


class MqttTransport:
    """The arbitration's transport on the household's broker, on a connection of its own."""

    def __init__(
        self, settings: MqttSettings, device: str, environ: Mapping[str, str] | None = None
    ) -> None:
        """Start connecting (on paho's thread) and return at once: the broker may be down.

        Raises:
            SecretError: a password file that is missing, unreadable or empty.
        """
        self._device = device
        self._lock = threading.Lock()
        self._claims: dict[tuple[str, float], Claim] = {}
        self._peers: dict[str, tuple[Peer, float]] = {}
        """Each device heard from: how far it has heard, and when (this device's monotonic)."""
        self._stamps: dict[str, deque[tuple[float, float]]] = {}
        """Each device's recent ``sent`` stamps (its household seconds) and when each came."""
        self._told: tuple[float | None, float] = (None, 0.0)
        """The last ``heard_until`` told, and when it was new (this device's monotonic)."""
        self._connected = threading.Event()
        self._problem = "not connected yet"
        self._tls = settings.url.scheme == "mqtts"
        self._client = broker_client(settings, f"hearth-household-{device}", environ)
        self._client.will_set(self._topic(device, "heard"), b"", qos=QOS)
        self._client.on_connect = self._on_connect
        self._client.on_connect_fail = self._on_connect_fail
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message
        host, port = broker_address(settings)
        self._address = f"{settings.url.scheme}://{host}:{port}"
        self._client.connect_async(host, port, keepalive=settings.keepalive_seconds)
        self._client.loop_start()

    @staticmethod
    def _topic(device: str, what: str) -> str:
        # A room's name may hold what a topic may not ("/", "+", "#"): percent-encoded.
        return f"{PREFIX}/{quote(device, safe='')}/{what}"

    # -- Transport ---------------------------------------------------------------------------

    def claim(self, claim: Claim) -> None:
        """Publish the claim, retained, and wait for the broker to take it."""
        payload = json.dumps({"at": claim.at, "score": claim.score, "level_db": claim.level_db})
        info = self._publish(self._topic(claim.device, "claim"), payload, retain=True)
        try:
            info.wait_for_publish(timeout=CLAIM_ACK_SECONDS)
        except (RuntimeError, ValueError) as error:
            raise Unreachable(f"MQTT broker {self._address}: {error}") from error
        if not info.is_published():
            raise Unreachable(f"MQTT broker {self._address} did not take the claim in time")
        self._keep(claim)

    def heard_until(self, device: str, at: float) -> None:
        """Say how far ``device`` has heard (and that it is there), and the household's time
        now as this device keeps it (``sent``: ``at`` when it was new, plus the time since, so
        a keepalive that repeats ``at`` is no stale reading of the clock)."""
        now = time.monotonic()
        if at != self._told[0]:
            self._told = (at, now)
        sent = at + (now - self._told[1])
        payload = json.dumps({"heard_until": at, "sent": sent})
        self._publish(self._topic(device, "heard"), payload, retain=False)

    def view(self, since: float, peer_timeout: float) -> tuple[list[Claim], list[Peer]]:
        """The claims received made at or after ``since``, and the devices heard from in the
        last ``peer_timeout`` seconds."""
        self._reachable()
        fresh = time.monotonic() - peer_timeout
        with self._lock:
            claims = [claim for claim in self._claims.values() if claim.at >= since]
            peers = [peer for peer, seen in self._peers.values() if seen > fresh]
        return claims, peers

    clock_owner = "the first Hearth's by name, over MQTT"

    def clock_ahead(self, wall: float) -> float | None:
        """How far the first Hearth's clock (by name, of the devices heard from) is ahead of
        ``wall``: each of its recent stamps less when it came, on this device's clock, the least
        delayed. 0 when this device is the first; None while no other device is heard from."""
        self._reachable()
        now = time.monotonic()
        fresh = now - PEER_TIMEOUT_SECONDS
        with self._lock:
            others = [
                device
                for device, (_, seen) in self._peers.items()
                if device != self._device and seen > fresh
            ]
            if not others:
                return None
            first = min(others)
            if self._device < first:
                return 0.0
            stamps = [
                at - (wall - (now - came))
                for at, came in self._stamps.get(first, ())
                if came > now - STAMP_SECONDS
            ]
        return max(stamps) if stamps else None

    def close(self) -> None:
        """Say this device is gone (a clean exit sends no last will) and disconnect."""
        if self._connected.is_set():
            info = self._client.publish(self._topic(self._device, "heard"), b"", qos=QOS)
            # The connection may go while waiting: the last will says it is gone then.
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(timeout=CLAIM_ACK_SECONDS)
        self._client.disconnect()
        self._client.loop_stop()

    def _reachable(self) -> None:
        if not self._connected.is_set():
            raise Unreachable(f"MQTT broker {self._address}: {self._problem}")

    def _publish(self, topic: str, payload: str, *, retain: bool) -> mqtt.MQTTMessageInfo:
        # Nothing is queued while the broker is away: a late claim would be a wrong one.
        self._reachable()
        info = self._client.publish(topic, payload, qos=QOS, retain=retain)
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            raise Unreachable(f"MQTT broker {self._address}: {mqtt.error_string(info.rc)}")
        return info

    def _keep(self, claim: Claim) -> None:
        with self._lock:
            self._claims[(claim.device, claim.at)] = claim
            old = [key for key in self._claims if key[1] < claim.at - KEEP_CLAIMS_SECONDS]
            for key in old:
                del self._claims[key]

    # -- paho's network thread -----------------------------------------------------------------

    def _on_connect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any
    ) -> None:
        if reason.is_failure:
            self._problem = f"refused: {reason}"
            return
        client.subscribe([(f"{PREFIX}/+/claim", QOS), (f"{PREFIX}/+/heard", QOS)])
        self._connected.set()

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        # As the device's: paho passes no reason, the exception it is handling has it.
        self._problem = connect_failure(sys.exc_info()[1], tls=self._tls) or "no answer"
        self._connected.clear()

    def _on_disconnect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any
    ) -> None:
        self._problem = f"disconnected: {reason}"
        self._connected.clear()

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        parts = message.topic.split("/")
        device, what = unquote(parts[-2]), parts[-1]
        try:
            fields = json.loads(message.payload) if message.payload else None
            if fields is not None and not isinstance(fields, dict):
                return  # valid JSON, but no Hearth's message (an exception here ends paho's thread)
            if what == "claim" and fields is not None:
                self._keep(Claim(device, float(fields["at"]), float(fields["score"]),
                                 float(fields["level_db"])))  # fmt: skip
            elif what == "heard" and fields is None:
                self._heard(device, None, None)
            elif what == "heard":
                sent = fields.get("sent")  # not from a Hearth before this field
                self._heard(device, float(fields["heard_until"]),
                            None if sent is None else float(sent))  # fmt: skip
        except (ValueError, KeyError, TypeError):
            return  # not a Hearth's message: nothing of the household's is in it

    def _heard(self, device: str, at: float | None, sent: float | None) -> None:
        with self._lock:
            if at is None:  # its last will, or a clean goodbye
                self._peers.pop(device, None)
                return
            came = time.monotonic()
            self._peers[device] = (Peer(device, at), came)
            if sent is not None and math.isfinite(sent):
                self._stamps.setdefault(device, deque(maxlen=256)).append((sent, came))
