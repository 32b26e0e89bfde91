"""The stt/tts backend settings: a Wyoming service needs a tcp://host:port, and its timeouts must
leave the local fallback time before the watchdog's deadline."""

from __future__ import annotations

from pathlib import Path

import pytest

from audio.remote import (
    Failure,
    FallbackSpeechToText,
    FallbackTextToSpeech,
    WyomingError,
    WyomingSpeechToText,
    local_hearing,
    speech_to_text,
    text_to_speech,
)
from audio.stt import SpeechToText
from audio.tts import TextToSpeech
from config import ConfigError, Settings, SpeechToTextSettings, load_settings, packaged_file
from tests.hearth_run import hearth_cli
from tests.servers import free_port


def load(tmp_path: Path, text: str) -> Settings:
    path = tmp_path / "settings.yaml"
    path.write_text(text)
    return load_settings(path, environ={}, search_path=[packaged_file("assistant.yaml")])


def test_local_is_the_default_and_builds_the_local_models(tmp_path):
    settings = load(tmp_path, "")
    assert settings.stt.backend == settings.tts.backend == "local"
    assert type(speech_to_text(settings.stt)) is SpeechToText
    assert type(text_to_speech(settings.tts)) is TextToSpeech
    hearing = speech_to_text(settings.stt)
    assert local_hearing(hearing) is hearing


def test_wyoming_builds_the_service_with_its_local_fallback(tmp_path):
    text = (
        "stt:\n  backend: wyoming\n  uri: tcp://127.0.0.1:10300\n"
        "tts:\n  backend: wyoming\n  uri: tcp://127.0.0.1:10200\n"
    )
    settings = load(tmp_path, text)
    hearing, speaking = speech_to_text(settings.stt), text_to_speech(settings.tts)
    assert isinstance(hearing, FallbackSpeechToText) and isinstance(hearing.local, SpeechToText)
    assert isinstance(speaking, FallbackTextToSpeech) and isinstance(speaking.local, TextToSpeech)
    assert hearing.remote.uri == "tcp://127.0.0.1:10300"
    assert local_hearing(hearing) is hearing.local, "what is calibrated on the local model"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("stt:\n  backend: wyoming\n", "line 1: key 'stt': Value error, backend wyoming needs uri"),
        ("tts:\n  backend: wyoming\n  uri: http://box:10200\n", "URL scheme should be 'tcp'"),
        ("stt:\n  uri: tcp://box\n", "has no port"),
        ("tts:\n  backend: wyoming\n  uri: tcp://box:1\n  call_timeout_seconds: 2.5\n",
         "3 s) must be shorter than voice_process.heartbeat_timeout_seconds (the shortest a "
         "speech deadline can be) (3 s)"),
        ("voice_process:\n  transcribe_deadline_seconds: 4\n"
         "stt:\n  backend: wyoming\n  uri: tcp://box:1\n",
         "voice_process.transcribe_deadline_seconds (4 s)"),
    ],
)  # fmt: skip
def test_a_bad_backend_setting_says_what_to_fix(tmp_path, text, says):
    with pytest.raises(ConfigError, match=r"settings\.yaml") as error:
        load(tmp_path, text)
    assert says in str(error.value)


def test_a_service_nobody_listens_on_is_unreachable():
    settings = SpeechToTextSettings(backend="wyoming", uri=f"tcp://127.0.0.1:{free_port()}")
    with pytest.raises(WyomingError, match="unreachable") as error:
        WyomingSpeechToText(settings).describe()
    assert error.value.failure is Failure.UNREACHABLE


def test_check_names_services_nobody_listens_on_and_how_hearth_copes(tmp_path):
    port = free_port()
    config = tmp_path / "wyoming.yaml"
    config.write_text(f"stt:\n  backend: wyoming\n  uri: tcp://127.0.0.1:{port}\n"
                      f"tts:\n  backend: wyoming\n  uri: tcp://127.0.0.1:{port}\n")  # fmt: skip
    result = hearth_cli(tmp_path, "--config", config, "check")
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    assert result.returncode == 1, result.stdout
    assert (f"FIX  speech-to-text service: the Wyoming service at tcp://127.0.0.1:{port} "
            "unreachable") in result.stdout  # fmt: skip
    assert "fix stt.uri (meanwhile Hearth hears with the local model)" in result.stdout
    assert "FIX  text-to-speech service:" in result.stdout
    assert "fix tts.uri (meanwhile Hearth speaks with the local voice)" in result.stdout
    # The local models are still checked: they are the fallback.
    assert "ok   speech-to-text model: tiny.en" in result.stdout
