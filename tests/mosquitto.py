"""A real Mosquitto broker (Debian's ``mosquitto``) on 127.0.0.1 for tests, and a client that
watches everything published on it."""

from __future__ import annotations

import shutil
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from tests.servers import free_port, port_open, wait_for

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


class Mosquitto:
    """One broker process on a fixed port; it can be stopped and started again on the same port
    (without persistence, so a restarted broker has forgotten every retained message)."""

    def __init__(self, folder: Path, port: int | None = None) -> None:
        self.port = port or free_port()
        self._config = folder / f"mosquitto-{self.port}.conf"
        self._log = folder / f"mosquitto-{self.port}.log"
        self._config.write_text(
            f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
            "log_type error\nlog_type warning\nlog_type notice\n"
        )
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> Mosquitto:
        """Start the broker and wait until it accepts connections."""
        log = self._log.open("ab")
        self._process = subprocess.Popen([MOSQUITTO, "-c", str(self._config)], stdout=log,
                                         stderr=subprocess.STDOUT)  # fmt: skip
        log.close()
        wait_for(f"mosquitto on port {self.port}", lambda: port_open(self.port), timeout=10)
        return self

    def stop(self) -> None:
        """Stop the broker (if running) and wait for it to exit."""
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            self._process.wait(timeout=10)
        self._process = None


@dataclass(frozen=True)
class Message:
    topic: str
    payload: bytes
    retain: bool


class Watcher:
    """A plain MQTT client subscribed to everything: what the broker holds and passes on."""

    def __init__(self, broker: Mosquitto) -> None:
        self._lock = threading.Lock()
        self.messages: list[Message] = []
        subscribed = threading.Event()
        self._client = mqtt.Client(CallbackAPIVersion.VERSION2)
        self._client.on_connect = lambda client, *_: client.subscribe("#", qos=1)
        self._client.on_subscribe = lambda *_: subscribed.set()
        self._client.on_message = self._on_message
        self._client.connect("127.0.0.1", broker.port)
        self._client.loop_start()
        if not subscribed.wait(timeout=10):
            raise AssertionError(f"could not subscribe on the broker at port {broker.port}")

    def _on_message(self, client, userdata, message) -> None:
        with self._lock:
            self.messages.append(Message(message.topic, message.payload, bool(message.retain)))

    def last(self, topic: str) -> bytes | None:
        """The latest payload seen on ``topic``."""
        with self._lock:
            found = [m.payload for m in self.messages if m.topic == topic]
        return found[-1] if found else None

    def seen(self, topic: str) -> list[bytes]:
        with self._lock:
            return [m.payload for m in self.messages if m.topic == topic]

    def publish(self, topic: str, payload: str | bytes, retain: bool = False) -> None:
        self._client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(timeout=5)

    def close(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()
