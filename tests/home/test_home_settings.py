"""The mqtt and home_assistant settings: off by default, the packaged examples valid, mistakes
named with their file and line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from config import ConfigError, load_settings, packaged_file

PACKAGED = packaged_file("assistant.yaml")


def load(tmp_path: Path, text: str):
    path = tmp_path / "settings.yaml"
    path.write_text(text)
    return load_settings(path, environ={}, search_path=[PACKAGED])


def commented_example(section: str) -> str:
    """The packaged file's commented-out example of a section, uncommented."""
    text = PACKAGED.read_text()
    block = re.search(rf"^# {section}:\n((?:#   .*\n)+)", text, re.MULTILINE)
    assert block is not None, f"no commented example of {section}"
    return f"{section}:\n" + re.sub(r"^# ", "", block.group(1), flags=re.MULTILINE)


def test_both_are_off_by_default(tmp_path):
    settings = load(tmp_path, "")
    assert settings.mqtt is None and settings.home_assistant is None


def test_the_packaged_examples_are_valid_settings(tmp_path):
    settings = load(tmp_path, commented_example("mqtt") + commented_example("home_assistant"))
    assert settings.mqtt.room == "Kitchen"
    assert settings.mqtt.url.port == 1883
    assert str(settings.home_assistant.url).startswith("http://homeassistant.local:8123")
    assert settings.home_assistant.token_env == "HEARTH_HOME_ASSISTANT_TOKEN"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("mqtt:\n  url: http://broker:1883\n", "URL scheme should be 'mqtt' or 'mqtts'"),
        ("mqtt:\n  device_id: Kitchen Hearth\n", "String should match pattern"),
        ("mqtt:\n  discovery_prefix: home/\n", "String should match pattern"),
        ("mqtt:\n  keepalive_seconds: 1\n", "greater than or equal to 5"),
        (
            "home_assistant:\n  token_file: /x\n",
            "key 'home_assistant.url': required key is missing",
        ),
        ("home_assistant:\n  url: homeassistant.local\n", "relative URL without a base"),
        ("home_assistant:\n  url: http://ha:8123\n  tokn: x\n", "tokn"),
    ],
)
def test_mistakes_are_named(tmp_path, text, says):
    with pytest.raises(ConfigError, match=r"settings\.yaml, line \d") as error:
        load(tmp_path, text)
    assert says in str(error.value)


def test_arbitration_over_mqtt_needs_the_broker_named(tmp_path):
    with pytest.raises(ConfigError, match="there is no mqtt: section naming the broker"):
        load(tmp_path, "household:\n  arbitration_transport: mqtt\n")
    settings = load(tmp_path, "household:\n  arbitration_transport: mqtt\nmqtt: {}\n")
    assert settings.household.arbitration_transport == "mqtt"
    with pytest.raises(ConfigError, match="arbitration_transport"):
        load(tmp_path, "household:\n  arbitration_transport: carrier-pigeon\n")
