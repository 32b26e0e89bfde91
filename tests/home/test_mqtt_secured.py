"""Hearth's MQTT device against a real Mosquitto that wants a password, and one that speaks only
TLS with a certificate of the household's own authority: the device connects with what its
settings give it, and when the broker turns it away the log says why, once."""

from __future__ import annotations

import logging

import pytest

from assistant.home import MqttDevice
from config import MqttSettings
from tests.home.conftest import PASSWORD, USER, _need_mosquitto, one_stands_aside
from tests.mosquitto import Mosquitto, Watcher
from tests.servers import wait_for


def settings(url: str, **secured) -> MqttSettings:
    return MqttSettings(url=url, room="Kitchen", reconnect_min_seconds=0.1,
                        reconnect_max_seconds=0.2, **secured)  # fmt: skip


def connected(device: MqttDevice) -> MqttDevice:
    device.start()
    wait_for("the device to connect", lambda: device.connected)
    return device


def turned_away(device: MqttDevice, caplog: pytest.LogCaptureFixture) -> str:
    """The warning the device logged when the broker would not have it (it keeps trying)."""
    device.start()
    wait_for("the broker's refusal to be logged", lambda: "unreachable" in caplog.text)
    assert not device.connected
    warnings = [r.getMessage() for r in caplog.records if "unreachable" in r.getMessage()]
    assert len(warnings) == 1, "said once per outage, however often it tries again"
    return warnings[0]


def online(broker: Mosquitto, device: MqttDevice, user: tuple[str, str] | None = None) -> bytes:
    """What the broker holds on the device's availability topic, as another client sees it."""
    watcher = Watcher(broker, user)
    try:
        wait_for("availability", lambda: watcher.last(device.topics.availability) is not None)
        return watcher.last(device.topics.availability)
    finally:
        watcher.close()


def test_the_password_from_a_file_is_taken(locked_broker, tmp_path):
    secret = tmp_path / "mqtt-password"
    secret.write_text(PASSWORD + "\n")
    device = connected(MqttDevice(settings(locked_broker.url, username=USER, password_file=secret)))
    try:
        assert online(locked_broker, device, (USER, PASSWORD)) == b"online"
    finally:
        device.close()


def test_the_password_from_the_environment_is_taken(locked_broker):
    environ = {"HEARTH_MQTT_PASSWORD": PASSWORD}
    device = connected(MqttDevice(settings(locked_broker.url, username=USER), environ=environ))
    try:
        assert online(locked_broker, device, (USER, PASSWORD)) == b"online"
    finally:
        device.close()


@pytest.mark.parametrize("secured", [{"username": USER}, {}], ids=["no-password", "anonymous"])
def test_a_wrong_or_missing_password_is_refused_and_said_so(locked_broker, caplog, secured):
    caplog.set_level(logging.WARNING, logger="assistant.home.mqtt_device")
    environ = {"HEARTH_MQTT_PASSWORD": "wrong"} if secured else {}
    device = MqttDevice(settings(locked_broker.url, **secured), environ=environ)
    try:
        warning = turned_away(device, caplog)
    finally:
        device.close()
    assert "refused: Not authorized" in warning, warning
    assert PASSWORD not in caplog.text and "wrong" not in caplog.text, "no password logged"


def test_tls_with_the_households_own_authority(tls_broker, certificates):
    device = connected(MqttDevice(settings(tls_broker.url, ca_file=certificates.ca)))
    try:
        assert online(tls_broker, device) == b"online"
    finally:
        device.close()


def test_a_certificate_not_trusted_is_refused_and_said_so(tls_broker, caplog):
    caplog.set_level(logging.WARNING, logger="assistant.home.mqtt_device")
    device = MqttDevice(settings(tls_broker.url))  # the system's authorities: not the household's
    try:
        warning = turned_away(device, caplog)
    finally:
        device.close()
    assert "CERTIFICATE_VERIFY_FAILED" in warning, warning


def test_tls_settings_against_a_plain_broker_are_said_so(tmp_path, certificates, caplog):
    _need_mosquitto()
    plain = Mosquitto(tmp_path).start()
    caplog.set_level(logging.WARNING, logger="assistant.home.mqtt_device")
    url = plain.url.replace("mqtt://", "mqtts://")
    device = MqttDevice(settings(url, ca_file=certificates.ca))
    try:
        warning = turned_away(device, caplog)
    finally:
        device.close()
        plain.stop()
    assert "does the broker speak TLS on this port?" in warning, warning


def test_standing_aside_outlives_a_look_that_cannot_log_in(locked_broker, tmp_path, caplog):
    # The password file went while a Hearth stood aside: the look raised, its thread died, and
    # the Hearth never took its id back after the other had gone.
    secret = tmp_path / "mqtt-password"
    secret.write_text(PASSWORD + "\n")
    secured = settings(locked_broker.url, username=USER, password_file=secret)
    first = MqttDevice(secured, aside_look_seconds=0.5)
    second = MqttDevice(secured, aside_look_seconds=0.5)
    try:
        aside, holder = one_stands_aside(first, second)
        secret.unlink()  # the look now cannot read the password
        holder.close()
        wait_for("the one aside to take the id", lambda: aside.connected, timeout=15)
    finally:
        first.close()
        second.close()
    assert "could not look whether id" in caplog.text
