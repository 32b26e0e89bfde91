"""Secrets from a file or the environment: found, refused clearly, never shown."""

from __future__ import annotations

import os

import pytest

from assistant.home import SecretError, read_secret

TOKEN = "eyJhbGciOiJIUzI1NiJ9.secret-part"


def test_a_file_wins_and_its_newline_is_not_part_of_the_secret(tmp_path):
    path = tmp_path / "token"
    path.write_text(TOKEN + "\n")
    secret = read_secret("token", path, "HA_TOKEN", {"HA_TOKEN": "from-env"})
    assert secret.get_secret_value() == TOKEN
    assert TOKEN not in repr(secret) and TOKEN not in str(secret)


def test_the_environment_when_there_is_no_file():
    assert read_secret(
        "token", None, "HA_TOKEN", {"HA_TOKEN": f" {TOKEN} "}
    ).get_secret_value() == (TOKEN)


@pytest.mark.parametrize(
    ("content", "says"),
    [(None, "does not exist"), ("  \n", "is empty"), (b"\xff" + TOKEN.encode(), "not text")],
)
def test_a_bad_file_is_named_and_its_content_never_shown(tmp_path, content, says):
    path = tmp_path / "token"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    with pytest.raises(SecretError, match=says) as error:
        read_secret("Home Assistant token", path, "HA_TOKEN", {"HA_TOKEN": TOKEN})
    assert str(path) in str(error.value)
    assert TOKEN not in str(error.value)


def test_an_unreadable_file_says_why(tmp_path):
    with pytest.raises(SecretError, match="cannot read"):
        read_secret("token", tmp_path, "HA_TOKEN", {})  # a folder, not a file


def test_no_file_and_no_variable_names_the_variable():
    with pytest.raises(SecretError, match="set HA_TOKEN"):
        read_secret("token", None, "HA_TOKEN", {"HA_TOKEN": "  "})


def test_a_pipe_named_as_the_file_is_refused_at_once(tmp_path):
    pipe = tmp_path / "token"
    os.mkfifo(pipe)  # reading it would wait for a writer that never comes
    with pytest.raises(SecretError, match="is not a regular file"):
        read_secret("token", pipe, "HA_TOKEN", {})


@pytest.mark.parametrize("content", [f"{TOKEN}\nsecond-line\n", "t\u00f6k\u00e9n\n", "two words\n"])
def test_a_token_no_header_can_carry_is_refused_without_showing_it(tmp_path, content):
    path = tmp_path / "token"
    path.write_text(content)
    with pytest.raises(SecretError, match="an HTTP header cannot carry") as error:
        read_secret("Home Assistant token", path, "HA_TOKEN", {}, in_header=True)
    assert not any(word in str(error.value) for word in content.split())
    # An MQTT password is no header: it is taken as written.
    assert read_secret("MQTT password", path, "P", {}).get_secret_value() == content.strip()
