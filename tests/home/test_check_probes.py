"""``hearth check`` probes the MQTT broker and Home Assistant: against a real Mosquitto (with a
password, with TLS of the household's own authority, with an ACL granting only some topics), a
real Home Assistant core, and ports where nothing listens. Each failure is named for its fix,
within a few seconds, never a traceback; the probe's own client never takes the device's place
on the broker, and leaves nothing retained there."""

from __future__ import annotations

import contextlib
import http.server
import socket
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from assistant.home import DeviceTopics, probe_broker, probe_home_assistant
from config import HomeAssistantSettings, MqttSettings
from tests.hearth_run import hearth_cli
from tests.home.conftest import PASSWORD, USER
from tests.mosquitto import Grant, Mqtt311Only, Watcher


def hearth_check(tmp_path: Path, settings_yaml: str):
    """``python -m assistant check`` with ``settings_yaml`` as its extra settings file."""
    config = tmp_path / "settings.yaml"
    config.write_text(settings_yaml)
    return hearth_cli(tmp_path, "--config", config, "check")


def line(result: subprocess.CompletedProcess, what: str) -> str:
    """The one line of ``hearth check``'s output about ``what``."""
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    found = [text for text in result.stdout.splitlines() if f" {what}: " in text]
    assert len(found) == 1, result.stdout
    return found[0]


@contextlib.contextmanager
def dead_port() -> Iterator[int]:
    """A port held bound but not listening, so nothing else can take it: connecting is refused."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield held.getsockname()[1]


@contextlib.contextmanager
def silent_port() -> Iterator[int]:
    """A port that takes connections (the kernel's backlog) and never says a word."""
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen(8)
        yield listening.getsockname()[1]


@pytest.fixture
def not_home_assistant(tmp_path):
    """A plain web server (an empty folder): it answers HTTP, but 404 on ``/api/``."""
    folder = tmp_path / "www"
    folder.mkdir()

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(folder), **kwargs)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join()


# -- the broker ------------------------------------------------------------------------------


def test_check_passes_the_password_broker_and_names_a_dead_home_assistant(locked_broker, tmp_path):
    secret = tmp_path / "mqtt-password"
    secret.write_text(PASSWORD + "\n")
    token = tmp_path / "token"
    token.write_text("some-token\n")
    with dead_port() as dead:
        result = hearth_check(tmp_path, f"""
mqtt:
  url: {locked_broker.url}
  username: {USER}
  password_file: {secret}
home_assistant:
  url: http://127.0.0.1:{dead}
  token_file: {token}
""")  # fmt: skip
    assert line(result, "MQTT broker").startswith(
        f"ok   MQTT broker: connected to {locked_broker.url}; Hearth may publish under hearth/"
    )
    home = line(result, "Home Assistant")
    assert home.startswith(f"FIX  Home Assistant: http://127.0.0.1:{dead} unreachable"), home
    assert "some-token" not in result.stdout + result.stderr
    assert result.returncode == 1, "a failed check fails hearth check, as for every check"


def test_check_names_a_wrong_password_and_a_dead_broker(locked_broker, tmp_path):
    secret = tmp_path / "mqtt-password"
    secret.write_text("not the password\n")
    wrong = hearth_check(tmp_path, f"mqtt:\n  url: {locked_broker.url}\n  username: {USER}\n"
                                   f"  password_file: {secret}\n")  # fmt: skip
    refused = line(wrong, "MQTT broker")
    assert refused.startswith(f"FIX  MQTT broker: {locked_broker.url} refused Hearth: Not author")
    assert "not the password" not in wrong.stdout + wrong.stderr
    assert wrong.returncode == 1

    with dead_port() as port:
        dead = probe_broker(MqttSettings(url=f"mqtt://127.0.0.1:{port}"))
    assert not dead.ok
    assert "unreachable" in dead.detail and "Connection refused" in dead.detail, dead.detail


def test_without_the_sections_check_probes_neither(tmp_path):
    result = hearth_check(tmp_path, "{}\n")
    assert " MQTT broker: " not in result.stdout and " Home Assistant: " not in result.stdout
    assert "Traceback" not in result.stderr, result.stderr


KITCHEN = DeviceTopics("hearth_kitchen")
HOUSEHOLD_ACL = """topic readwrite hearth/#
topic write homeassistant/#
topic read homeassistant/status
"""
"""What a household grants Hearth: its own topics, and the discovery prefix to publish under
(reading there only Home Assistant's birth topic)."""
WITH_PASSWORD = {"HEARTH_MQTT_PASSWORD": PASSWORD}


def kitchen(broker, **overrides) -> MqttSettings:
    return MqttSettings(url=broker.url, username=USER, device_id="hearth_kitchen", **overrides)


def test_the_households_acl_passes(acl_broker):
    broker = acl_broker(HOUSEHOLD_ACL)
    probe = probe_broker(kitchen(broker), environ=WITH_PASSWORD)
    assert probe.ok, probe.detail
    assert probe.detail == (
        f"connected to {broker.url}; Hearth may publish under hearth/hearth_kitchen/ and "
        "homeassistant/, and receives its commands"
    )


def test_the_probe_leaves_nothing_retained(locked_broker):
    assert probe_broker(kitchen(locked_broker), environ=WITH_PASSWORD).ok
    # A client that subscribes afterwards is handed whatever is retained, before what follows.
    later = Watcher(locked_broker, (USER, PASSWORD))
    try:
        later.publish("hearth/hearth_kitchen/marker", "after")
        assert [m.topic for m in later.messages] == ["hearth/hearth_kitchen/marker"]
    finally:
        later.close()


def test_the_probe_under_the_discovery_prefix_is_on_no_topic_home_assistant_reads():
    # Home Assistant 2024.3's discovery subscribes to exactly these (mqtt/discovery.py).
    for reads in ("homeassistant/+/+/config", "homeassistant/+/+/+/config", "homeassistant/status"):
        assert not mqtt.topic_matches_sub(reads, KITCHEN.discovery_check), reads
    assert KITCHEN.discovery_check.startswith("homeassistant/sensor/hearth_kitchen/")


def test_check_names_an_acl_that_forbids_the_discovery_prefix(acl_broker, tmp_path):
    broker = acl_broker("topic readwrite hearth/#\ntopic read homeassistant/status\n")
    secret = tmp_path / "mqtt-password"
    secret.write_text(PASSWORD + "\n")
    settings = (f"mqtt:\n  url: {broker.url}\n  username: {USER}\n  password_file: {secret}\n"
                "  device_id: hearth_kitchen\n")  # fmt: skip
    result = hearth_check(tmp_path, settings)
    assert line(result, "MQTT broker") == (
        "FIX  MQTT broker: the broker accepted Hearth but does not let it publish under "
        f"homeassistant/ (Not authorized): check the ACL for user {USER}"
    )
    assert result.returncode == 1


def test_an_acl_that_lets_hearth_only_read_its_topics_is_named(acl_broker):
    broker = acl_broker("topic read hearth/#\ntopic write homeassistant/#\n")
    probe = probe_broker(kitchen(broker), environ=WITH_PASSWORD)
    assert not probe.ok
    assert probe.detail == (
        "the broker accepted Hearth but does not let it publish under hearth/hearth_kitchen/ "
        f"(Not authorized): check the ACL for user {USER}"
    )


def test_an_acl_that_keeps_hearths_commands_from_it_is_named(acl_broker):
    broker = acl_broker("topic write hearth/#\ntopic write homeassistant/#\n")
    probe = probe_broker(kitchen(broker), environ=WITH_PASSWORD)
    assert not probe.ok
    assert probe.detail == (
        "the broker accepted Hearth but does not let it receive what is published under "
        f"hearth/hearth_kitchen/ (its commands): check the ACL for user {USER}"
    )


def test_a_role_that_refuses_home_assistants_birth_topic_is_named(acl_broker):
    # Dynamic security refuses a subscription in the SUBACK; Hearth would never hear that
    # Home Assistant restarted, and its entities would stay unavailable after every restart.
    grants = [Grant("publishClientSend", "hearth/#"), Grant("publishClientSend", "homeassistant/#"),
              Grant("subscribePattern", "hearth/#")]  # fmt: skip
    birth = Grant("subscribePattern", "homeassistant/status")
    granted = probe_broker(kitchen(acl_broker([*grants, birth])), environ=WITH_PASSWORD)
    assert granted.ok, granted.detail
    probe = probe_broker(kitchen(acl_broker(grants)), environ=WITH_PASSWORD)
    assert not probe.ok
    assert probe.detail == (
        "the broker accepted Hearth but does not let it subscribe to homeassistant/status "
        f"(Not authorized): check the ACL for user {USER}"
    )


def test_a_broker_speaking_only_mqtt_311_is_probed_as_the_device_talks_to_it(acl_broker):
    # Its PUBACK carries no verdict: what comes back under the base topic is all there is.
    household = Mqtt311Only(acl_broker(HOUSEHOLD_ACL))
    read_only = Mqtt311Only(acl_broker("topic read hearth/#\ntopic write homeassistant/#\n"))
    try:
        passed = probe_broker(kitchen(household), environ=WITH_PASSWORD)
        refused = probe_broker(kitchen(read_only), environ=WITH_PASSWORD)
    finally:
        household.close()
        read_only.close()
    assert passed.ok, passed.detail
    assert passed.detail == (
        f"connected to {household.url}; Hearth may publish and receive under "
        "hearth/hearth_kitchen/ (the broker speaks only MQTT 3.1.1, which does not say whether "
        "it takes what Hearth publishes under homeassistant/)"
    )
    assert not refused.ok
    assert refused.detail == (
        "the broker accepted Hearth but does not let it publish or receive under "
        f"hearth/hearth_kitchen/: check the ACL for user {USER}"
    )


def test_a_discovery_prefix_of_the_households_own_is_probed(acl_broker):
    broker = acl_broker("topic readwrite hearth/#\ntopic write homeassistant/#\n")
    probe = probe_broker(kitchen(broker, discovery_prefix="ha"), environ=WITH_PASSWORD)
    assert not probe.ok and "does not let it publish under ha/ (" in probe.detail, probe.detail


def test_a_missing_password_file_is_named(locked_broker, tmp_path):
    missing = tmp_path / "no-such-password"
    probe = probe_broker(MqttSettings(url=locked_broker.url, username=USER, password_file=missing))
    assert not probe.ok and str(missing) in probe.detail, probe.detail


def test_tls_with_the_households_ca_passes(tls_broker, certificates):
    probe = probe_broker(MqttSettings(url=tls_broker.url, ca_file=certificates.ca))
    assert probe.ok, probe.detail
    assert probe.detail.startswith(f"connected to {tls_broker.url}; Hearth may"), probe.detail


def test_tls_without_the_ca_says_the_certificate_is_not_trusted(tls_broker):
    probe = probe_broker(MqttSettings(url=tls_broker.url))
    assert not probe.ok
    assert probe.detail.startswith(f"{tls_broker.url} TLS handshake failed: "), probe.detail
    assert "certificate verify failed" in probe.detail, probe.detail
    assert "set mqtt.ca_file" in probe.detail, probe.detail


def test_tls_against_a_broker_asks_whether_the_port_speaks_tls(broker):
    probe = probe_broker(MqttSettings(url=f"mqtts://127.0.0.1:{broker.port}"), timeout=3)
    assert not probe.ok
    assert "does the broker speak TLS on this port?" in probe.detail, probe.detail


def test_plain_against_a_tls_broker_asks_whether_it_wants_tls(tls_broker):
    probe = probe_broker(MqttSettings(url=f"mqtt://127.0.0.1:{tls_broker.port}"), timeout=3)
    assert not probe.ok
    assert "does it speak only TLS? (mqtts://" in probe.detail, probe.detail


def test_a_broker_that_never_answers_is_given_up_on_in_bounded_time():
    with silent_port() as port:
        probe = probe_broker(MqttSettings(url=f"mqtt://127.0.0.1:{port}"), timeout=1)
    assert not probe.ok
    assert probe.detail == f"mqtt://127.0.0.1:{port} did not answer within 1 s"


def test_a_broker_whose_name_the_dns_never_answers_is_given_up_on_in_bounded_time(deaf_dns):
    # paho's connect timeout bounds connecting, not the lookup: `hearth check` waited the
    # resolver's own timeouts with the household's DNS down.
    probe = probe_broker(MqttSettings(url="mqtt://broker.lan"), timeout=0.5)
    assert deaf_dns.still_hanging(), "the check waited for the resolver"
    assert not probe.ok
    assert probe.detail.startswith("mqtt://broker.lan:1883 unreachable: looking up broker.lan")


# -- Home Assistant --------------------------------------------------------------------------


def test_a_web_server_that_is_not_home_assistant_is_named(not_home_assistant):
    probe = probe_home_assistant(HomeAssistantSettings(url=not_home_assistant),
                                 environ={"HEARTH_HOME_ASSISTANT_TOKEN": "a-token"})  # fmt: skip
    assert not probe.ok
    assert probe.detail.startswith(f"{not_home_assistant} not home assistant (HTTP 404)")


def test_no_token_is_named_before_anything_is_asked():
    with dead_port() as port:
        probe = probe_home_assistant(HomeAssistantSettings(url=f"http://127.0.0.1:{port}"),
                                     environ={})  # fmt: skip
    assert not probe.ok and "HEARTH_HOME_ASSISTANT_TOKEN" in probe.detail, probe.detail


def test_a_server_that_never_answers_is_too_slow():
    with silent_port() as port:
        url = f"http://127.0.0.1:{port}"
        settings = HomeAssistantSettings(url=url, connect_timeout_seconds=0.5)
        probe = probe_home_assistant(settings, environ={"HEARTH_HOME_ASSISTANT_TOKEN": "a-token"})
    assert not probe.ok
    assert probe.detail.startswith(f"{url} too slow (ReadTimeout)"), probe.detail


@pytest.mark.slow
def test_check_passes_a_real_home_assistant_and_names_a_refused_token(home, tmp_path):
    token = tmp_path / "token"
    token.write_text(home.token + "\n")
    result = hearth_check(tmp_path, f"home_assistant:\n  url: {home.url}\n"
                                    f"  token_file: {token}\n")  # fmt: skip
    assert line(result, "Home Assistant") == f"ok   Home Assistant: {home.url}: API running."

    wrong = {"HEARTH_HOME_ASSISTANT_TOKEN": "not-a-token"}
    refused = probe_home_assistant(HomeAssistantSettings(url=home.url), environ=wrong)
    assert not refused.ok
    assert refused.detail.startswith(f"{home.url} token refused (HTTP 401)"), refused.detail
    assert "not-a-token" not in refused.detail

    # An agent_id Home Assistant does not have failed every request while check said "ok".
    token_env = {"HEARTH_HOME_ASSISTANT_TOKEN": home.token}
    unknown = probe_home_assistant(
        HomeAssistantSettings(url=home.url, agent_id="conversation.nobody"), environ=token_env
    )
    assert not unknown.ok
    assert "no conversation agent 'conversation.nobody'" in unknown.detail, unknown.detail
    known = probe_home_assistant(
        HomeAssistantSettings(url=home.url, agent_id="homeassistant"), environ=token_env
    )
    assert known.ok, known.detail
