"""Two arbiters on one real PostgreSQL database, or on one real Mosquitto broker, as two Hearths'
supervisors and brains use them: claims and progress through the transport, verdicts waited for
on the audio clock."""

from __future__ import annotations

import logging
import threading
import time

import pytest

from assistant.arbitration import Arbiter, ArbitrationPolicy, Outcome, Transport, Unreachable
from assistant.arbitration.mqtt import MqttTransport
from assistant.arbitration.postgres import PostgresTransport
from assistant.reply import HeardUtterance
from assistant.schedule import AudioClock, Now, SystemClock
from audio import State, Via, WakeMeasure
from config import MqttSettings
from memory import Memory, PostgresTarget
from tests.mosquitto import Mosquitto, Watcher
from tests.servers import wait_for

START = 1_780_000_000.0


def request(t: float, score: float, level_db: float) -> HeardUtterance:
    """A request heard at audio second ``t``, its wake word accepted 2 s before."""
    return HeardUtterance(
        "what time is it", Via.WAKE, t, wake=WakeMeasure(t - 2.0, score, level_db)
    )


def mqtt_settings(url: str) -> MqttSettings:
    return MqttSettings(url=url, reconnect_min_seconds=0.2, reconnect_max_seconds=0.5)


@pytest.fixture(params=["postgresql", "mqtt"])
def transports(request, tmp_path):
    """A maker of transports for one device each, on one real database or broker."""
    if request.param == "postgresql":
        url = request.getfixturevalue("postgres_databases")()
        Memory.open(url).close()
        yield lambda device: PostgresTransport(PostgresTarget(url, retry_seconds=0.2))
    else:
        broker = Mosquitto(tmp_path).start()
        yield lambda device: MqttTransport(mqtt_settings(broker.url), device)
        broker.stop()


def peers_seen(transport: Transport) -> set[str]:
    try:
        return {peer.device for peer in transport.view(START, 5.0)[1]}
    except Unreachable:
        return set()  # not connected yet


@pytest.fixture
def household(transports):
    made: list[Arbiter] = []
    seen = transports("observer")

    def arbiter(device: str, timeout: float = 20.0) -> Arbiter:
        policy = ArbitrationPolicy(1.5, timeout)
        made.append(Arbiter(transports(device), device, AudioClock(START), policy))
        deadline = time.monotonic() + 20
        while device not in peers_seen(seen):
            assert time.monotonic() < deadline, f"{device} never told the household it is there"
            time.sleep(0.05)
        return made[-1]

    yield arbiter
    for each in made:
        each.close()
    seen.close()


def test_the_near_device_answers_once_the_far_one_has_claimed_however_late(household):
    kitchen, living = household("kitchen"), household("living room/+sofa")
    kitchen.heard(1.0, State.STANDBY)
    living.heard(1.0, State.STANDBY)
    living.heard(10.0, State.LISTENING)  # woken at 8 s: its progress is held until it claims
    near = request(10.0, 0.96, -21.0)
    kitchen.claim(near)
    kitchen.heard(10.0, State.THINKING)
    verdicts = {}
    waiting = threading.Thread(target=lambda: verdicts.update(kitchen=kitchen.verdict(near)))
    waiting.start()
    waiting.join(1.5)
    assert waiting.is_alive(), "decided before the living room, still listening, had claimed"
    far = request(10.1, 0.94, -33.0)
    living.claim(far)
    living.heard(10.1, State.THINKING)
    waiting.join(10)
    assert verdicts["kitchen"].outcome is Outcome.ANSWERED
    deferred = living.verdict(far)
    assert deferred.outcome is Outcome.DEFERRED and deferred.winner == "kitchen"


def test_a_device_that_heard_past_the_wake_without_claiming_it_does_not_hold_it_up(household):
    kitchen, hall = household("kitchen"), household("hall")
    hall.heard(1.0, State.STANDBY)
    near = request(10.0, 0.96, -21.0)
    kitchen.claim(near)
    kitchen.heard(10.0, State.THINKING)
    hall.heard(30.0, State.STANDBY)  # the hall heard no wake word
    verdict = kitchen.verdict(near)
    assert verdict.outcome is Outcome.ANSWERED and [c.device for c in verdict.claims] == ["kitchen"]


@pytest.mark.parametrize("unreachable", ["postgresql", "mqtt"])
def test_a_device_that_cannot_reach_the_others_answers_by_itself(unreachable, caplog):
    if unreachable == "postgresql":
        target = PostgresTarget("postgresql://hearth@127.0.0.1:9/hearth", connect_timeout_seconds=1)
        transport: Transport = PostgresTransport(target)
    else:
        transport = MqttTransport(mqtt_settings("mqtt://127.0.0.1:9"), "kitchen")
    arbiter = Arbiter(transport, "kitchen", AudioClock(START), ArbitrationPolicy())
    try:
        verdicts = []
        for t in (10.0, 30.0):
            near = request(t, 0.96, -21.0)
            arbiter.claim(near)
            verdicts.append(arbiter.verdict(near))
    finally:
        arbiter.close()
    for verdict in verdicts:
        assert verdict.outcome is Outcome.ALONE and verdict.answers and verdict.winner == "kitchen"
    told = [r for r in caplog.records if "cannot reach the other Hearths" in r.getMessage()]
    assert len(told) == 1, "the outage is logged once, not on every wake or poll"


def test_over_mqtt_a_device_whose_broker_returns_is_heard_from_again(tmp_path):
    broker = Mosquitto(tmp_path).start()
    kitchen = MqttTransport(mqtt_settings(broker.url), "kitchen")
    hall = MqttTransport(mqtt_settings(broker.url), "hall")
    try:
        wait_until(lambda: {"kitchen", "hall"} <= told_by(kitchen, hall), "both heard")
        broker.stop()
        wait_until(lambda: raises_unreachable(kitchen), "the outage noticed")
        broker.start()
        wait_until(lambda: {"kitchen", "hall"} <= told_by(kitchen, hall), "both heard again")
        hall.close()  # a clean goodbye: gone at once, not after the peer timeout
        wait_until(lambda: "hall" not in told_by(kitchen), "the hall gone")
    finally:
        kitchen.close()
        broker.stop()


@pytest.mark.parametrize("payload", ["5", "[1, 2]", '"heard"', "null"])
def test_over_mqtt_a_stray_message_on_the_households_topics_is_ignored(tmp_path, payload):
    # Valid JSON that is no object raised AttributeError in paho's thread, which ended it: the
    # device never heard the others, or the broker, again.
    broker = Mosquitto(tmp_path).start()
    kitchen = MqttTransport(mqtt_settings(broker.url), "kitchen")
    hall = MqttTransport(mqtt_settings(broker.url), "hall")
    stranger = Watcher(broker)
    try:
        wait_until(lambda: {"kitchen", "hall"} <= told_by(kitchen, hall), "both heard")
        stranger.publish("hearth/household/garage/heard", payload)
        stranger.publish("hearth/household/garage/claim", payload)
        porch = MqttTransport(mqtt_settings(broker.url), "porch")  # a device new since
        wait_until(lambda: "porch" in told_by(kitchen, porch), "the new device heard", 10.0)
        porch.close()
    finally:
        stranger.close()
        hall.close()
        kitchen.close()
        broker.stop()


def told_by(viewer: MqttTransport, *others: MqttTransport) -> set[str]:
    """Each transport says how far it heard; the devices ``viewer`` sees."""
    try:
        for transport in (viewer, *others):
            transport.heard_until(transport._device, START + 1.0)
    except Unreachable:
        return set()
    return peers_seen(viewer)


def raises_unreachable(transport: MqttTransport) -> bool:
    try:
        transport.view(START, 5.0)
    except Unreachable:
        return True
    return False


def wait_until(condition, what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.1)


class SkewedClock(SystemClock):
    """This machine's clocks, the wall clock ``ahead`` seconds fast (a Pi before NTP)."""

    def __init__(self, ahead: float) -> None:
        super().__init__(boot="test")
        self.ahead = ahead

    def now(self, audio_seconds: float = 0.0) -> Now:
        real = super().now(audio_seconds)
        return Now(real.wall + self.ahead, real.mono, real.boot)


def both_claim_one_wake(kitchen: Arbiter, living: Arbiter) -> list[Outcome]:
    """The kitchen (the louder) and the living room claim one wake word: what each does."""
    kitchen.claim(request(10.0, 0.9, 30.0))
    living.claim(request(10.0, 0.9, 18.0))
    return [kitchen.verdict(request(10.0, 0.9, 30.0)).outcome,
            living.verdict(request(10.0, 0.9, 18.0)).outcome]  # fmt: skip


def test_live_devices_whose_clocks_disagree_still_answer_a_wake_word_once(postgres_databases):
    # The living room's clock is 3 s fast: stamped on it, its claim fell outside the kitchen's
    # window and both rooms answered. Stamped on the database's clock, the louder one answers.
    url = postgres_databases()
    Memory.open(url).close()
    policy = ArbitrationPolicy(1.5, 5.0, live=True)
    transport = PostgresTransport(PostgresTarget(url, retry_seconds=0.2))
    kitchen = Arbiter(transport, "kitchen", SkewedClock(0.0), policy)
    transport = PostgresTransport(PostgresTarget(url, retry_seconds=0.2))
    living = Arbiter(transport, "living room", SkewedClock(3.0), policy)
    try:
        time.sleep(1.0)  # each has measured its clock
        outcomes = both_claim_one_wake(kitchen, living)
    finally:
        kitchen.close()
        living.close()
    assert outcomes == [Outcome.ANSWERED, Outcome.DEFERRED]


def test_over_mqtt_live_devices_whose_clocks_disagree_still_answer_a_wake_word_once(
    tmp_path, caplog
):
    # A broker has no clock: the living room, 3 s fast, stamped its claims on its own clock and
    # both rooms answered. It now keeps the household's time on the kitchen's (the first name),
    # read from the kitchen's "heard" messages, and says its own is off.
    caplog.set_level(logging.INFO, logger="assistant.arbitration.arbiter")
    broker = Mosquitto(tmp_path).start()
    policy = ArbitrationPolicy(1.5, 5.0, live=True)
    kitchen = Arbiter(
        MqttTransport(mqtt_settings(broker.url), "kitchen"), "kitchen", SkewedClock(0.0), policy
    )
    living = Arbiter(
        MqttTransport(mqtt_settings(broker.url), "living room"),
        "living room",
        SkewedClock(3.0),
        policy,
    )
    listening = threading.Event()

    def hear() -> None:  # the voice processes' heartbeats
        while not listening.is_set():
            kitchen.heard(0.0, State.STANDBY)
            living.heard(0.0, State.STANDBY)
            time.sleep(0.1)

    heartbeats = threading.Thread(target=hear)
    heartbeats.start()
    try:
        wait_for("the living room to read the household's clock", lambda: "clock is" in caplog.text)
        # Then a wake word: while a request is heard, no progress is told (its claim is to
        # come), so neither has "heard past" the wake without claiming it.
        listening.set()
        heartbeats.join()
        time.sleep(1.0)
        outcomes = both_claim_one_wake(kitchen, living)
    finally:
        listening.set()
        heartbeats.join()
        kitchen.close()
        living.close()
        broker.stop()
    assert outcomes == [Outcome.ANSWERED, Outcome.DEFERRED]
    said = [record.getMessage() for record in caplog.records if "clock is" in record.getMessage()]
    assert len(said) == 1 and "clock is 3.0 s ahead of the household's" in said[0], said
    assert "the first Hearth's by name, over MQTT" in said[0]


def test_a_live_device_whose_clock_is_off_the_households_says_so(postgres_databases, caplog):
    # Claims stamped 3 s apart for one wake word fall in two windows: both rooms answered.
    url = postgres_databases()
    Memory.open(url).close()
    policy = ArbitrationPolicy(1.5, 3.0, live=True)
    caplog.set_level(logging.INFO, logger="assistant.arbitration.arbiter")
    for ahead, says in ((0.05, False), (3.0, True), (-3.0, True)):
        caplog.clear()
        transport = PostgresTransport(PostgresTarget(url, retry_seconds=0.2))
        arbiter = Arbiter(transport, "kitchen", SkewedClock(ahead), policy)
        try:
            if says:
                wait_for("the clock to be named", lambda: "clock is" in caplog.text)
            else:
                time.sleep(1.0)
        finally:
            arbiter.close()
        assert ("clock is 3.0 s" in caplog.text) is says, caplog.text
        assert (("ahead of" if ahead > 0 else "behind") in caplog.text) is says
