"""A real Mosquitto broker (Debian's ``mosquitto``) on 127.0.0.1 for tests, and a client that
watches everything published on it."""

from __future__ import annotations

import base64
import contextlib
import glob
import hashlib
import json
import os
import shutil
import socket
import subprocess
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Self

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from tests.servers import free_port, port_open, wait_for

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
DYNAMIC_SECURITY = next(iter(glob.glob("/usr/lib/*/mosquitto_dynamic_security.so")), "")
"""Mosquitto's dynamic-security plugin (in Debian's package), whose roles can refuse a
subscription outright: an ``acl_file`` grants every one and then delivers only what it may."""


@dataclass(frozen=True)
class Grant:
    """One ACL entry of a dynamic-security role."""

    kind: str
    """``publishClientSend``, ``publishClientReceive``, ``subscribePattern``, ..."""
    topic: str
    allow: bool = True


def dynamic_security_config(users: dict[str, str], grants: Sequence[Grant]) -> dict:
    """The plugin's JSON: every user (its password hashed as the plugin does, PBKDF2-SHA512)
    in one role holding ``grants``; the rest as ``mosquitto_ctrl dynsec init`` leaves it
    (publishing and subscribing refused, receiving allowed; left out, all are refused)."""
    clients = []
    for name, password in users.items():
        salt = os.urandom(12)
        hashed = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, 101, 64)
        clients.append({"username": name, "password": base64.b64encode(hashed).decode(),
                        "salt": base64.b64encode(salt).decode(), "iterations": 101,
                        "roles": [{"rolename": "tests"}]})  # fmt: skip
    acls = [{"acltype": g.kind, "topic": g.topic, "allow": g.allow} for g in grants]
    defaults = {"publishClientSend": False, "publishClientReceive": True, "subscribe": False,
                "unsubscribe": True}  # fmt: skip
    return {"clients": clients, "roles": [{"rolename": "tests", "acls": acls}],
            "defaultACLAccess": defaults}  # fmt: skip


@dataclass(frozen=True)
class Certificates:
    """A certificate authority of the test's own and a server certificate it signed for
    127.0.0.1, made with the ``openssl`` command (as a household would for its broker)."""

    ca: Path
    server_cert: Path
    server_key: Path

    @classmethod
    def make(cls, folder: Path) -> Self:
        """A new CA and a server certificate for IP 127.0.0.1 in ``folder``."""
        ca, ca_key = folder / "ca.crt", folder / "ca.key"
        cert, key, request = folder / "server.crt", folder / "server.key", folder / "server.csr"
        san = folder / "san.ext"
        san.write_text("subjectAltName=IP:127.0.0.1\n")
        for argv in (
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
             "/CN=Hearth test CA", "-keyout", ca_key, "-out", ca],
            ["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
             "-keyout", key, "-out", request],
            ["x509", "-req", "-in", request, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial",
             "-days", "2", "-extfile", san, "-out", cert],
        ):  # fmt: skip
            subprocess.run(["openssl", *map(str, argv)], check=True, capture_output=True)
        return cls(ca, cert, key)


class Mosquitto:
    """One broker process on a fixed port; it can be stopped and started again on the same port
    (without persistence, so a restarted broker has forgotten every retained message).

    With ``users`` it admits only those (name: password); with ``certificates`` it speaks TLS
    only, with that server certificate; with ``acl`` (an ``acl_file``'s text) a client may use only
    the topics that grants it, and with ``grants`` the users are those of the dynamic-security
    plugin, holding those grants."""

    def __init__(
        self,
        folder: Path,
        port: int | None = None,
        *,
        users: dict[str, str] | None = None,
        certificates: Certificates | None = None,
        acl: str | None = None,
        grants: Sequence[Grant] | None = None,
    ) -> None:
        self.port = port or free_port()
        self.certificates = certificates
        self._config = folder / f"mosquitto-{self.port}.conf"
        self._log = folder / f"mosquitto-{self.port}.log"
        # Started as root, Mosquitto would read its files as the mosquitto user, who cannot
        # enter pytest's private folders.
        lines = [f"listener {self.port} 127.0.0.1", "persistence false", "user root",
                 "log_type error", "log_type warning", "log_type notice"]  # fmt: skip
        if users and grants is not None:
            plugin = folder / f"mosquitto-{self.port}.dynsec.json"
            plugin.write_text(json.dumps(dynamic_security_config(users, grants)))
            lines += ["allow_anonymous false", f"plugin {DYNAMIC_SECURITY}",
                      f"plugin_opt_config_file {plugin}"]  # fmt: skip
        elif users:
            passwords = folder / f"mosquitto-{self.port}.passwd"
            passwords.touch(mode=0o600)
            for name, password in users.items():
                subprocess.run([MOSQUITTO_PASSWD, "-b", str(passwords), name, password],
                               check=True, capture_output=True)  # fmt: skip
            lines += ["allow_anonymous false", f"password_file {passwords}"]
        else:
            lines.append("allow_anonymous true")
        if acl is not None:
            rules = folder / f"mosquitto-{self.port}.acl"
            rules.write_text(acl)
            lines.append(f"acl_file {rules}")
        if certificates:
            lines += [f"cafile {certificates.ca}", f"certfile {certificates.server_cert}",
                      f"keyfile {certificates.server_key}"]  # fmt: skip
        self._config.write_text("\n".join(lines) + "\n")
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        scheme = "mqtts" if self.certificates else "mqtt"
        return f"{scheme}://127.0.0.1:{self.port}"

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

    def __init__(self, broker: Mosquitto, user: tuple[str, str] | None = None) -> None:
        self._lock = threading.Lock()
        self.messages: list[Message] = []
        subscribed = threading.Event()
        self._client = mqtt.Client(CallbackAPIVersion.VERSION2)
        if user is not None:
            self._client.username_pw_set(*user)
        if broker.certificates is not None:
            self._client.tls_set(ca_certs=str(broker.certificates.ca))
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


class Mqtt311Only:
    """A broker as one that speaks only MQTT 3.1.1 (Mosquitto before 1.6, RabbitMQ before 3.13)
    is seen: a proxy on a port of its own in front of a real Mosquitto, which answers an MQTT 5
    CONNECT as such a broker does (CONNACK return code 1, unacceptable protocol version, then
    closes) and passes every other connection through, byte for byte."""

    def __init__(self, broker: Mosquitto) -> None:
        self._broker = broker
        self._listening = socket.create_server(("127.0.0.1", 0))
        self.port = self._listening.getsockname()[1]
        self._threads: list[threading.Thread] = []
        self._spawn(self._accept)

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def _spawn(self, target, *args) -> None:
        thread = threading.Thread(target=target, args=args, daemon=True)
        thread.start()
        self._threads.append(thread)

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listening.accept()
            except OSError:  # closed
                return
            self._spawn(self._serve, client)

    def _serve(self, client: socket.socket) -> None:
        with client:
            head = b""
            # CONNECT: its type, its remaining length (bytes with the top bit set go on), then
            # 0x0004 "MQTT" and the protocol level: 4 for 3.1.1, 5 for MQTT 5.
            while (level := _protocol_level(head)) is None:
                piece = client.recv(4096)
                if not piece:
                    return
                head += piece
            if level == 5:
                client.sendall(b"\x20\x02\x00\x01")
                return
            with socket.create_connection(("127.0.0.1", self._broker.port)) as upstream:
                upstream.sendall(head)
                self._spawn(_pump, upstream, client)
                _pump(client, upstream)

    def close(self) -> None:
        self._listening.close()


def _protocol_level(head: bytes) -> int | None:
    """The protocol level of the CONNECT that ``head`` begins, or None until enough came."""
    end = next((i for i in range(1, min(len(head), 5)) if not head[i] & 0x80), None)
    if end is None or len(head) <= end + 7:
        return None
    return head[end + 7]


def _pump(source: socket.socket, sink: socket.socket) -> None:
    """Copy bytes from ``source`` to ``sink`` until either side closes."""
    try:
        while piece := source.recv(4096):
            sink.sendall(piece)
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)
