"""Hearth's MQTT device against a real Mosquitto broker: discovery retained, commands parsed,
the last will when the process dies, birth on every reconnect, a broker that comes and goes."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from assistant.home import (
    Announce,
    DeviceEvent,
    DeviceState,
    EventType,
    MqttDevice,
    SetMute,
    SetVolume,
    Stop,
    discovery_documents,
)
from assistant.home.short_connections import IN_A_ROW
from config import MqttSettings
from tests.home.conftest import one_stands_aside
from tests.mosquitto import Mosquitto, Watcher
from tests.servers import free_port, wait_for

ROOT = Path(__file__).resolve().parents[2]


def settings(url: str, room: str = "Kitchen") -> MqttSettings:
    return MqttSettings(url=url, room=room, reconnect_min_seconds=0.1, reconnect_max_seconds=0.5)


@pytest.fixture
def device(broker):
    hearth = MqttDevice(settings(broker.url))
    hearth.start()
    wait_for("the device to connect", lambda: hearth.connected)
    yield hearth
    hearth.close()


def retained(broker: Mosquitto, topics: list[str]) -> dict[str, bytes]:
    """What a client subscribing now is given, retained, on ``topics``.

    The broker hands a new subscriber what it retains first; a publication arriving meanwhile
    (the device re-sending its state as it connects) comes after, unflagged, and is not counted.
    So a first client waits until every topic has reached the broker (flagged or not): only
    then does what a new subscriber is given show all that the broker retains.
    """
    probe = Watcher(broker)
    try:
        wait_for("every topic to reach the broker",
                 lambda: {m.topic for m in list(probe.messages)} >= set(topics))  # fmt: skip
    finally:
        probe.close()
    late = Watcher(broker)

    def held() -> dict[str, bytes]:
        found: dict[str, bytes] = {}
        for message in list(late.messages):
            if message.topic in topics and message.retain:
                found[message.topic] = message.payload
        return found

    try:
        wait_for(f"{len(topics)} retained messages", lambda: len(held()) == len(topics))
        return held()
    finally:
        late.close()


def test_discovery_availability_and_states_are_retained_on_the_broker(broker, device):
    device.publish_state(DeviceState.LISTENING)
    device.publish_mute(False)
    device.publish_volume(0.6)
    documents = discovery_documents(device.identity, device.topics)
    topics = device.topics
    state_topics = [topics.availability, topics.state, topics.mute_state, topics.volume_state]
    held = retained(broker, [doc.topic for doc in documents] + state_topics)
    for doc in documents:
        assert json.loads(held[doc.topic]) == doc.config
    assert held[topics.availability] == b"online"
    assert held[topics.state] == b"listening"
    assert held[topics.mute_state] == b"OFF"
    assert held[topics.volume_state] == b"60"


def test_commands_published_by_home_assistant_are_taken_in_order(device, watcher, caplog):
    topics = device.topics
    watcher.publish(topics.mute_command, "ON")
    watcher.publish(topics.volume_command, "not a number")
    watcher.publish(topics.volume_command, "25")
    watcher.publish(topics.announce_command, "The washing machine has finished")
    watcher.publish(topics.stop_command, "PRESS")
    taken: list = []
    wait_for("four commands", lambda: taken.extend(device.take_commands()) or len(taken) >= 4)
    assert taken == [SetMute(True), SetVolume(0.25),
                     Announce("The washing machine has finished"), Stop()]  # fmt: skip
    assert device.take_commands() == []
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("volume is a number of percent, not 'not a number'" in w for w in warnings)


def taken_after_connecting(broker, watcher) -> list:
    """What a device starting now takes, up to a stop pressed once it is connected."""
    hearth = MqttDevice(settings(broker.url))
    hearth.start()
    try:
        wait_for("the device to connect", lambda: hearth.connected)
        watcher.publish(hearth.topics.stop_command, "PRESS")
        taken: list = []
        wait_for("the stop", lambda: taken.extend(hearth.take_commands()) or Stop() in taken)
        return taken
    finally:
        hearth.close()


def test_a_command_left_retained_on_the_broker_is_not_carried_out_at_each_connect(
    broker, watcher, caplog
):
    # An automation's `retain: true`: the broker hands it to Hearth at every connect, which
    # muted it again after every restart and said an old announcement again.
    topics = MqttDevice(settings(broker.url)).topics
    watcher.publish(topics.mute_command, "ON", retain=True)
    watcher.publish(topics.announce_command, "The washing machine has finished.", retain=True)
    for _ in range(2):  # a restart
        assert taken_after_connecting(broker, watcher) == [Stop()]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any(f"ignored a retained command on {topics.mute_command}" in w for w in warnings)


def test_two_hearths_with_one_device_id_are_named_and_the_log_is_not_flooded(broker, caplog):
    # The broker closes one for the other every second: each saw only a dropped connection,
    # logged "unreachable" and "reachable again" every second, forever.
    caplog.set_level(logging.INFO, logger="assistant.home.mqtt_device")
    kitchen, old_kitchen = MqttDevice(settings(broker.url)), MqttDevice(settings(broker.url))
    kitchen.start()
    old_kitchen.start()
    try:
        wait_for("the cause to be named", lambda: "another client is connected as "
                 "hearth-hearth_kitchen" in caplog.text, timeout=60)  # fmt: skip
        time.sleep(3.0)  # the two go on taking the id from each other
    finally:
        kitchen.close()
        old_kitchen.close()
    said = [r.getMessage() for r in caplog.records]
    assert sum("another client is connected" in line for line in said) <= 2  # once each
    assert "a second Hearth with mqtt.device_id hearth_kitchen" in caplog.text
    assert sum("unreachable" in line for line in said) <= 2 * IN_A_ROW


def test_of_two_hearths_with_one_device_id_one_stands_aside_until_the_other_goes(broker, caplog):
    # The two took the id from each other every second, forever: Home Assistant saw the device
    # come and go. Now one leaves the broker to the other, looks now and then without taking
    # the id, and takes it once the other has gone offline.
    caplog.set_level(logging.INFO, logger="assistant.home.mqtt_device")
    kitchen = MqttDevice(settings(broker.url), aside_look_seconds=1.0)
    old_kitchen = MqttDevice(settings(broker.url), aside_look_seconds=1.0)
    try:
        aside, holder = one_stands_aside(kitchen, old_kitchen)
        watcher = Watcher(broker)
        try:
            time.sleep(4.0)  # several looks from the one aside
            assert holder.connected and aside.standing_aside
            availability = [m.payload for m in list(watcher.messages)
                            if m.topic == holder.topics.availability]  # fmt: skip
            assert availability == [b"online"]  # retained once, never offline meanwhile
        finally:
            watcher.close()
        holder.close()  # says offline
        wait_for("the one aside to take the id", lambda: aside.connected, timeout=10)
        assert retained(broker, [aside.topics.availability])[aside.topics.availability] == (
            b"online"
        )
    finally:
        kitchen.close()
        old_kitchen.close()
    assert "takes the id back when it goes offline" in caplog.text
    assert "is free again: connecting as it" in caplog.text


def test_events_pass_through_and_are_not_retained(broker, device, watcher):
    device.publish_event(DeviceEvent(EventType.TIMER_FINISHED, {"label": "pasta"}))
    payload = wait_for("the event", lambda: watcher.last(device.topics.event))
    assert json.loads(payload) == {"event_type": "timer_finished", "label": "pasta"}
    late = Watcher(broker)
    time.sleep(0.3)  # long enough for retained messages to arrive, were there any
    assert late.last(device.topics.event) is None
    late.close()


def test_a_clean_close_says_offline(broker):
    hearth = MqttDevice(settings(broker.url))
    hearth.start()
    wait_for("the device to connect", lambda: hearth.connected)
    hearth.close()
    assert retained(broker, [hearth.topics.availability])[hearth.topics.availability] == (
        b"offline"
    )


def device_process(url: str) -> subprocess.Popen[str]:
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.home.device_process", url, "Kitchen"],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert child.stdout.readline().strip() == "connected"
    return child


def test_killed_hearth_goes_offline_by_its_last_will_and_comes_back_online(broker, watcher):
    availability = "hearth/hearth_kitchen/availability"
    first = device_process(broker.url)
    wait_for("online", lambda: watcher.last(availability) == b"online")
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    wait_for("the last will", lambda: watcher.last(availability) == b"offline")
    assert retained(broker, [availability])[availability] == b"offline"
    second = device_process(broker.url)
    try:
        wait_for("online again", lambda: watcher.last(availability) == b"online")
        assert watcher.seen(availability)[-3:] == [b"online", b"offline", b"online"]
    finally:
        second.stdin.close()
        second.wait(timeout=10)
    assert watcher.last(availability) == b"offline", "a clean exit says offline too"


def test_a_broker_down_at_start_is_waited_for_without_blocking_and_logged_once(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="assistant.home.mqtt_device")
    port = free_port()
    hearth = MqttDevice(settings(f"mqtt://127.0.0.1:{port}"))
    hearth.start()
    try:
        hearth.publish_state(DeviceState.SPEAKING)  # returns at once, broker or not
        hearth.publish_event(DeviceEvent(EventType.WAKE))
        time.sleep(1.5)  # several reconnection attempts, 0.1 s to 0.5 s apart
        assert not hearth.connected
        outage = [r for r in caplog.records if "unreachable" in r.getMessage()]
        assert len(outage) == 1, "one log line per outage, not one per attempt"
        broker = Mosquitto(tmp_path, port).start()
        try:
            wait_for("the device to connect", lambda: hearth.connected)
            held = retained(broker, [hearth.topics.state, hearth.topics.availability])
            assert held == {hearth.topics.state: b"speaking", hearth.topics.availability: b"online"}
            assert any("reachable again" in r.getMessage() for r in caplog.records)
        finally:
            hearth.close()
            broker.stop()
    finally:
        hearth.close()


def test_a_restarted_broker_gets_discovery_birth_and_the_latest_state_again(broker, device):
    broker.stop()  # it keeps nothing: no persistence
    wait_for("the device to notice", lambda: not device.connected)
    device.publish_state(DeviceState.FOLLOW_UP)  # while the broker is away
    broker.start()
    wait_for("the device to reconnect", lambda: device.connected)
    documents = discovery_documents(device.identity, device.topics)
    held = retained(broker, [documents[0].topic, device.topics.availability, device.topics.state])
    assert held[device.topics.availability] == b"online"
    assert held[device.topics.state] == b"follow_up"


def test_home_assistant_coming_online_gets_the_discovery_documents_again(device, watcher):
    config_topic = discovery_documents(device.identity, device.topics)[0].topic
    watcher.publish(device.topics.home_assistant_status, "online")
    wait_for("discovery sent again", lambda: watcher.seen(config_topic))
    assert device.take_commands() == []


def test_a_broker_whose_name_the_dns_never_answers_does_not_hold_the_stop(deaf_dns):
    # paho looks the broker up on its network thread with no bound; with the household's DNS
    # down, close() waited for that lookup, and so did Hearth's stop.
    hearth = MqttDevice(settings("mqtt://broker.lan"))
    hearth.start()
    wait_for("the lookup to begin", deaf_dns.still_hanging)
    closed = threading.Event()
    threading.Thread(target=lambda: (hearth.close(), closed.set()), daemon=True).start()
    assert closed.wait(10), "close() waited for the resolver"
    assert deaf_dns.still_hanging()
