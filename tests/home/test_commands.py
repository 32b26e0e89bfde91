"""Commands from Home Assistant, parsed as pure code: good ones typed, bad ones named."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assistant.home import (
    Announce,
    CommandError,
    DeviceTopics,
    SetMute,
    SetVolume,
    Stop,
    parse_command,
)

TOPICS = DeviceTopics("hearth_kitchen")


@pytest.mark.parametrize(
    ("topic", "payload", "command"),
    [
        (TOPICS.mute_command, b"ON", SetMute(True)),
        (TOPICS.mute_command, b"off", SetMute(False)),
        (TOPICS.volume_command, b"40", SetVolume(0.4)),
        (TOPICS.volume_command, b"72.5", SetVolume(0.725)),
        (TOPICS.volume_command, b"0", SetVolume(0.0)),
        (TOPICS.stop_command, b"PRESS", Stop()),
        (TOPICS.announce_command, b"  Dinner is\n ready ", Announce("Dinner is ready")),
        (TOPICS.announce_command, "Café ouvert à 8h".encode(), Announce("Café ouvert à 8h")),
    ],
)
def test_good_commands(topic, payload, command):
    assert parse_command(TOPICS, topic, payload) == command


@pytest.mark.parametrize(
    ("topic", "payload", "says"),
    [
        (TOPICS.mute_command, b"MAYBE", "ON or OFF, not 'MAYBE'"),
        (TOPICS.volume_command, b"loud", "a number of percent"),
        (TOPICS.volume_command, b"150", "0 to 100 percent, not 150"),
        (TOPICS.volume_command, b"-1", "0 to 100 percent"),
        (TOPICS.volume_command, b"nan", "0 to 100 percent"),
        (TOPICS.announce_command, b"   ", "needs some text"),
        (TOPICS.announce_command, b"x" * 2001, "2001 characters"),
        (TOPICS.announce_command, b"\xff\xfe", "not UTF-8"),
        ("hearth/hearth_other/stop", b"PRESS", "not one of Hearth's command topics"),
    ],
)
def test_bad_commands_say_what_is_wrong(topic, payload, says):
    with pytest.raises(CommandError, match=r"^" + topic) as error:
        parse_command(TOPICS, topic, payload)
    assert says in str(error.value)


@given(st.floats(min_value=0, max_value=100))
def test_any_percent_is_a_level_between_zero_and_one(percent):
    command = parse_command(TOPICS, TOPICS.volume_command, repr(percent).encode())
    assert isinstance(command, SetVolume)
    assert 0.0 <= command.level <= 1.0


@given(st.binary(max_size=300), st.sampled_from(TOPICS.commands))
def test_any_payload_is_a_command_or_a_command_error(payload, topic):
    try:
        command = parse_command(TOPICS, topic, payload)
    except CommandError:
        return
    assert isinstance(command, Announce | SetMute | SetVolume | Stop)
