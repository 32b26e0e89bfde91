"""Settings: packaged defaults, layers in order, environment overrides, errors naming the line."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from config import ConfigError, Settings, load_settings, memory_database_path, packaged_file

PACKAGED = packaged_file("assistant.yaml")


def layers(tmp_path: Path, *texts: str) -> list[Path]:
    paths = [PACKAGED]
    for index, text in enumerate(texts):
        path = tmp_path / f"layer{index}.yaml"
        path.write_text(text)
        paths.append(path)
    return paths


def test_the_packaged_file_documents_exactly_the_schema_defaults():
    assert load_settings(search_path=[PACKAGED], environ={}) == Settings()


def test_later_layers_win_and_untouched_keys_keep_defaults(tmp_path):
    system, user = layers(
        tmp_path, "ollama:\n  model: a\n  temperature: 0.2\n", "ollama:\n  model: b\n"
    )[1:]
    explicit = tmp_path / "explicit.yaml"
    explicit.write_text("vad:\n  end_silence_seconds: 0.9\n")
    settings = load_settings(explicit, environ={}, search_path=[PACKAGED, system, user])
    assert settings.ollama.model == "b"
    assert settings.ollama.temperature == 0.2
    assert settings.vad.end_silence_seconds == 0.9
    assert settings.vad.max_utterance_seconds == Settings().vad.max_utterance_seconds


def test_missing_layers_are_skipped(tmp_path):
    settings = load_settings(search_path=[PACKAGED, tmp_path / "absent.yaml"], environ={})
    assert settings == Settings()


def test_environment_overrides_everything(tmp_path):
    paths = layers(tmp_path, "ollama:\n  model: from-file\n")
    env = {
        "HEARTH_OLLAMA__MODEL": "qwen2.5:3b",
        "HEARTH_LISTENER__FOLLOW_UP_SECONDS": "10",
        "HEARTH_LISTENER__STOP_WORDS": "[stop, halt]",
        "HEARTH_FAILPOINTS": "not a setting",
    }
    settings = load_settings(environ=env, search_path=paths)
    assert settings.ollama.model == "qwen2.5:3b"
    assert settings.listener.follow_up_seconds == 10.0
    assert settings.listener.stop_words == ("stop", "halt")


def test_an_unknown_key_names_file_line_and_key(tmp_path):
    paths = layers(tmp_path, "ollama:\n  model: x\n  temprature: 0.3\n")
    with pytest.raises(ConfigError) as error:
        load_settings(environ={}, search_path=paths)
    message = str(error.value)
    assert f"{paths[1]}, line 3" in message
    assert "ollama.temprature" in message and "unknown key" in message


def test_a_wrong_value_names_file_line_and_key(tmp_path):
    paths = layers(tmp_path, "vad:\n  threshold: 0.5\n  end_silence_seconds: -1\n")
    with pytest.raises(
        ConfigError, match=r"line 3: key 'vad.end_silence_seconds': .*greater than 0"
    ):
        load_settings(environ={}, search_path=paths)


def test_an_error_inside_a_list_names_the_item(tmp_path):
    paths = layers(tmp_path, "wake:\n  models:\n    - model: alexa\n      treshold: 0.7\n")
    with pytest.raises(ConfigError, match=r"line 4: key 'wake.models\[0\].treshold': unknown key"):
        load_settings(environ={}, search_path=paths)


def test_broken_yaml_names_the_line(tmp_path):
    paths = layers(tmp_path, "ollama:\n  model: x\n    temperature: 0.3\n")
    with pytest.raises(ConfigError, match=r"layer0.yaml, line 3: invalid YAML"):
        load_settings(environ={}, search_path=paths)


def test_a_duplicate_key_is_an_error(tmp_path):
    paths = layers(tmp_path, "ollama:\n  model: a\n  model: b\n")
    with pytest.raises(ConfigError, match=r"line 3: key 'ollama.model' appears twice"):
        load_settings(environ={}, search_path=paths)


def test_a_bad_environment_value_names_the_variable(tmp_path):
    with pytest.raises(ConfigError, match="environment variable HEARTH_VAD__THRESHOLD"):
        load_settings(environ={"HEARTH_VAD__THRESHOLD": "loud"}, search_path=[PACKAGED])
    with pytest.raises(ConfigError, match=r"HEARTH_OLAMA__MODEL.*unknown key"):
        load_settings(environ={"HEARTH_OLAMA__MODEL": "x"}, search_path=[PACKAGED])


def test_a_top_level_list_or_binary_file_is_an_error(tmp_path):
    paths = layers(tmp_path, "- a\n- b\n")
    with pytest.raises(ConfigError, match="expected a mapping"):
        load_settings(environ={}, search_path=paths)
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_settings(binary, environ={}, search_path=[PACKAGED])


def test_an_explicit_file_that_does_not_exist_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="no such settings file"):
        load_settings(tmp_path / "nope.yaml", environ={}, search_path=[PACKAGED])


def test_the_database_path_follows_setting_then_systemd_then_xdg(tmp_path):
    settings = Settings()
    assert memory_database_path(settings, {"STATE_DIRECTORY": "/var/lib/hearth"}) == Path(
        "/var/lib/hearth/memory.db"
    )
    assert memory_database_path(settings, {"XDG_DATA_HOME": str(tmp_path)}) == (
        tmp_path / "hearth" / "memory.db"
    )
    custom = Settings.model_validate({"memory": {"database": str(tmp_path / "m.db")}})
    assert memory_database_path(custom, {"STATE_DIRECTORY": "/x"}) == tmp_path / "m.db"


def test_an_alias_bomb_is_refused_at_once_naming_the_file(tmp_path):
    lines = ['lol: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"l{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 9)}]" for n in range(1, 9)]
    paths = layers(tmp_path, "\n".join(lines) + "\n")
    # Expanded, nine levels of nine hold 387 million strings; the walk stops at the bound.
    with pytest.raises(ConfigError, match=r"layer0\.yaml, line \d+: more than 10000 values"):
        load_settings(environ={}, search_path=paths)


def test_an_alias_inside_itself_is_refused(tmp_path):
    paths = layers(tmp_path, "stt:\n  hotwords: &words [Vim, *words]\n")
    with pytest.raises(ConfigError, match=r"layer0\.yaml, line \d+: nested more than 32 levels"):
        load_settings(environ={}, search_path=paths)


def test_brackets_nested_past_the_stack_are_refused_naming_the_file(tmp_path):
    paths = layers(tmp_path, "stt:\n  hotwords: " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(ConfigError, match=r"layer0\.yaml: nested too deeply to read"):
        load_settings(environ={}, search_path=paths)
    deep = {"HEARTH_STT__HOTWORDS": "[" * 5000 + "]" * 5000}
    with pytest.raises(ConfigError, match="variable HEARTH_STT__HOTWORDS: nested too deeply"):
        load_settings(environ=deep, search_path=())


@pytest.mark.parametrize(
    ("text", "key"),
    [("stt:\n  cpu_threads: 99999999999999999999\n", "stt.cpu_threads"),
     ("tts:\n  speaker: -1\n", "tts.speaker"),
     ("audio:\n  output_device: 99999999999999999999999\n", "audio.output_device"),
     ("mqtt:\n  url: mqtt://127.0.0.1\n  keepalive_seconds: 100000\n",
      "mqtt.keepalive_seconds")],
)  # fmt: skip
def test_numbers_no_machine_or_voice_can_take_are_refused(tmp_path, text, key):
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        load_settings(environ={}, search_path=layers(tmp_path, text))


@pytest.mark.parametrize("key", ["t\u00f6k\u00e9n", "two words", "line\nbreak"])
def test_an_api_key_no_header_can_carry_is_refused_without_showing_it(tmp_path, key):
    environ = {"HEARTH_OLLAMA__API_KEY": key}
    with pytest.raises(ConfigError, match="an HTTP header cannot carry") as error:
        load_settings(environ=environ, search_path=())
    assert key not in str(error.value)


def test_an_empty_device_name_is_the_system_default(tmp_path):
    text = 'audio:\n  input_device: ""\n  output_device: "  "\n'
    settings = load_settings(environ={}, search_path=layers(tmp_path, text))
    assert settings.audio.input_device is None and settings.audio.output_device is None


def test_an_utterance_that_must_be_longer_than_its_cap_is_refused(tmp_path):
    text = "vad:\n  min_utterance_seconds: 20\n  max_utterance_seconds: 15\n"
    with pytest.raises(ConfigError, match="min_utterance_seconds must be less than"):
        load_settings(environ={}, search_path=layers(tmp_path, text))


def test_a_settings_file_that_is_a_pipe_is_refused_not_waited_on(tmp_path):
    pipe = tmp_path / "settings.yaml"
    os.mkfifo(pipe)
    with pytest.raises(ConfigError, match="is not a regular file"):
        load_settings(pipe, environ={}, search_path=())


def test_aliases_of_a_sensible_size_still_work(tmp_path):
    text = "stt:\n  hotwords: &names [Priya, Siobhan]\nwake:\n  models:\n    - model: alexa\n"
    settings = load_settings(environ={}, search_path=layers(tmp_path, text))
    assert settings.stt.hotwords == ("Priya", "Siobhan")


@pytest.mark.parametrize("value", [".inf", "-.inf", ".nan", "1e308"])
def test_a_duration_must_be_a_finite_sensible_number(tmp_path, value):
    paths = layers(tmp_path, f"listener:\n  follow_up_seconds: {value}\n")
    with pytest.raises(ConfigError, match=r"line 2: key 'listener.follow_up_seconds'"):
        load_settings(environ={}, search_path=paths)
    with pytest.raises(ConfigError, match="HEARTH_VAD__END_SILENCE_SECONDS"):
        load_settings(environ={"HEARTH_VAD__END_SILENCE_SECONDS": value}, search_path=[PACKAGED])


def test_no_setting_takes_infinity(tmp_path):
    paths = layers(tmp_path, "ollama:\n  temperature: .nan\n")
    with pytest.raises(ConfigError, match="finite number"):
        load_settings(environ={}, search_path=paths)


@pytest.mark.parametrize(
    ("name", "meant"),
    [
        ("HEARTH_OLLAMA_MODEL", "HEARTH_OLLAMA__MODEL"),
        ("HEARTH_VOICE_PROCESS_MAX_RESTARTS", "HEARTH_VOICE_PROCESS__MAX_RESTARTS"),
    ],
)
def test_a_setting_with_a_single_underscore_says_how_to_write_it(name, meant):
    with pytest.raises(ConfigError, match=rf"{name}: .*double underscore.*: {meant}$"):
        load_settings(environ={name: "3"}, search_path=[PACKAGED])


def test_a_section_set_whole_says_to_set_it_key_by_key():
    # HEARTH_MQTT=null looks like "no broker", but was silently ignored.
    with pytest.raises(ConfigError, match=r"HEARTH_MQTT: .*one key at a time.*HEARTH_MQTT__KEY"):
        load_settings(environ={"HEARTH_MQTT": "null"}, search_path=[PACKAGED])


def test_hearths_other_variables_are_not_settings():
    env = {"HEARTH_FAILPOINTS": "synthesis_hang", "HEARTH_TRACE": "1", "HEARTH_LOG_LEVEL": "INFO"}
    assert load_settings(environ=env, search_path=[PACKAGED]) == Settings()


def test_the_secrets_default_variables_are_not_settings():
    # Named like settings with one underscore; the broker's password and HA's token live there.
    env = {"HEARTH_MQTT_PASSWORD": "s3cret", "HEARTH_HOME_ASSISTANT_TOKEN": "abc.def"}
    assert load_settings(environ=env, search_path=[PACKAGED]) == Settings()


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("http://[::1", "is not an address"),
        ("http://127.0.0.1:99999", "port must be a number from 1 to 65535"),
        ("box.lan:11434", "is not an http:// or https:// address"),
    ],
)
def test_a_model_url_that_is_not_an_address_is_refused(tmp_path, url, problem):
    paths = layers(tmp_path, f'ollama:\n  url: "{url}"\n')
    with pytest.raises(ConfigError, match=rf"line 2: key 'ollama.url': .*{re.escape(problem)}"):
        load_settings(environ={}, search_path=paths)


def test_a_time_written_without_quotes_is_a_time_not_a_base_60_number(tmp_path):
    # YAML 1.1 (PyYAML's default) reads 17:30 as 1050 and 1:30 as 90; YAML 1.2 and every user
    # read them as written.
    text = "schedule:\n  routines:\n    - prompt: Evening.\n      at: 17:30\n"
    settings = load_settings(environ={}, search_path=layers(tmp_path, text))
    assert settings.schedule.routines[0].at == "17:30"
    env = {"HEARTH_SCHEDULE__ON_TIME_SECONDS": "1:30"}
    with pytest.raises(ConfigError, match="on_time_seconds': Input should be a valid number"):
        load_settings(environ=env, search_path=[PACKAGED])
    bad = layers(tmp_path, "schedule:\n  on_time_seconds: 1:30\n")
    with pytest.raises(ConfigError, match=r"line 2: key 'schedule\.on_time_seconds'"):
        load_settings(environ={}, search_path=bad)


def test_a_routine_whose_prompt_is_only_spaces_is_refused_naming_its_line(tmp_path):
    # It passed `hearth check`, and its spaces were sent to the model every day as the whole
    # of a user's message.
    text = 'schedule:\n  routines:\n    - prompt: "   "\n      at: "07:00"\n'
    with pytest.raises(ConfigError, match=r"line 3: .*prompt.*the prompt is empty"):
        load_settings(environ={}, search_path=layers(tmp_path, text))


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("mqtt:\n  url: mqtt://127.0.0.1:0\n", "mqtt.url"),
        ("stt:\n  backend: wyoming\n  uri: tcp://127.0.0.1:0\n", "stt.uri"),
        ("home_assistant:\n  url: http://ha.lan:0\n", "home_assistant.url"),
    ],
)
def test_port_0_is_refused_not_read_as_the_default_port(tmp_path, text, key):
    with pytest.raises(ConfigError, match="the port must be a number from 1 to 65535") as error:
        load_settings(environ={}, search_path=layers(tmp_path, text))
    assert f"key '{key}'" in str(error.value)


@pytest.mark.parametrize("how", ["file", "environment"])
def test_a_lengthened_end_of_speech_from_an_older_hearth_carries_the_longer_waits(tmp_path, how):
    # An older Hearth allowed end_silence_seconds up to 2.6 before the trailing (2.5) and
    # doubtful (2.2) waits existed; after an upgrade every command refused the settings,
    # naming two keys the household never wrote, and the service did not come back.
    if how == "file":
        paths, environ = layers(tmp_path, "vad:\n  end_silence_seconds: 2.6\n"), {}
    else:
        paths, environ = [PACKAGED], {"HEARTH_VAD__END_SILENCE_SECONDS": "2.6"}
    vad = load_settings(environ=environ, search_path=paths).vad
    assert vad.end_silence_seconds == 2.6
    assert vad.trailing_silence_seconds == vad.doubtful_silence_seconds == 2.6
    assert vad.complete_silence_seconds == Settings().vad.complete_silence_seconds


def test_waits_set_in_the_wrong_order_name_both_keys_and_values(tmp_path):
    paths = layers(tmp_path, "vad:\n  end_silence_seconds: 2.6\n  trailing_silence_seconds: 2\n")
    with pytest.raises(ConfigError) as error:
        load_settings(environ={}, search_path=paths)
    assert "trailing_silence_seconds (2) must not be less than end_silence_seconds (2.6)" in str(
        error.value
    )
