"""Speech through real Wyoming services on 127.0.0.1 (wyoming-faster-whisper, wyoming-piper), and
the local models stepping in when a service dies mid-call, hangs, or is not there at all.

The speech is real people's (data/audio), espeak-ng's and Piper's; what a service did is read
from its own log, so a test knows which side answered."""

from __future__ import annotations

import logging
import re
import subprocess
import threading
import wave
from pathlib import Path

import numpy as np
import pytest
import soxr

from audio.remote import (
    HEARING_NOTICE,
    SPEAKING_NOTICE,
    FallbackSpeechToText,
    Reach,
    WyomingSpeechToText,
    speech_to_text,
    text_to_speech,
)
from audio.stt import SpeechToText
from audio.tts import SpeechParameters
from audio.wav import read_wav, write_wav
from config import SpeechToTextSettings, TextToSpeechSettings
from tests.hearth_run import hearth_cli
from tests.rooms import recording
from tests.servers import free_port, wait_for
from tests.speech import speech
from tests.wyoming_servers import faster_whisper_service, piper_service

pytestmark = pytest.mark.slow


PARAMS = SpeechParameters(variation=False)


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z']+", text.lower()))


def espeak(text: str, voice: str, tmp_path: Path) -> np.ndarray:
    """espeak-ng saying ``text`` (a voice unlike Piper's), as 16 kHz int16."""
    path = tmp_path / "espeak.wav"
    subprocess.run(["espeak-ng", "-v", voice, "-w", str(path), text], check=True)
    with wave.open(str(path)) as wav:
        rate, frames = wav.getframerate(), wav.readframes(wav.getnframes())
    audio = np.frombuffer(frames, dtype="<i2").astype(np.float32)
    return soxr.resample(audio, rate, 16000).astype(np.int16)


@pytest.fixture(scope="module")
def whisper(tmp_path_factory):
    service = faster_whisper_service(tmp_path_factory.mktemp("whisper")).start()
    yield service
    service.stop()


@pytest.fixture(scope="module")
def piper(tmp_path_factory):
    service = piper_service(tmp_path_factory.mktemp("piper")).start()
    yield service
    service.stop()


@pytest.fixture(scope="module")
def local_stt():
    return SpeechToText(SpeechToTextSettings())


def hearing_settings(uri: str, **changes) -> SpeechToTextSettings:
    # Generous timeouts: this machine is shared and a cold service is slow; the hang tests
    # shorten them.
    return SpeechToTextSettings(
        **{"backend": "wyoming", "uri": uri, "call_timeout_seconds": 15.0, **changes}
    )


def speaking_settings(uri: str, **changes) -> TextToSpeechSettings:
    return TextToSpeechSettings(
        **{"backend": "wyoming", "uri": uri, "call_timeout_seconds": 15.0, **changes}
    )


def spoken(chunks) -> tuple[list[str], np.ndarray]:
    chunks = list(chunks)
    return [c.text for c in chunks], np.concatenate([c.samples for c in chunks])


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("harvard-spk1-1", "the child almost hurt the small dog"),
        ("harvard-birch-canoe", "the birch canoe slid on the smooth planks"),
    ],
)
def test_real_voices_are_transcribed_by_the_service(whisper, name, expected):
    hearing = speech_to_text(hearing_settings(whisper.uri))
    hearing.load()
    transcript = hearing.transcribe(recording(name))
    assert words(expected) <= words(transcript.text), transcript
    assert transcript.text in whisper.logged(), "the service, not the local model, heard it"
    assert hearing.health.reach is Reach.UP
    assert hearing.take_notice() is None


def test_synthetic_voices_are_transcribed_by_the_service(whisper, tmp_path):
    hearing = speech_to_text(hearing_settings(whisper.uri))
    for audio in (espeak("Turn on the kitchen lights.", "en-us+f3", tmp_path),
                  speech("Is the back door locked?", length_scale=1.2)):  # fmt: skip
        transcript = hearing.transcribe(audio)
        assert transcript.text in whisper.logged()
        assert words(transcript.text) & {"kitchen", "lights", "back", "door", "locked"}
    assert hearing.health.reach is Reach.UP


def test_speech_is_made_by_the_service_in_hearths_parts(piper, local_stt):
    speaking = text_to_speech(speaking_settings(piper.uri))
    speaking.load(PARAMS.voice)
    first, second = "The kitchen light is on,", "and the oven has been warming for ten minutes."
    parts, audio = spoken(speaking.synthesize(f"{first} {second} Dinner soon.", PARAMS))
    # The same parts the local voice would say: the first clause of a long first sentence alone.
    assert parts == [first, second, "Dinner soon."]
    for part in parts:
        assert f"raw_text={part}" in piper.logged(), "the service said it"
    heard = words(local_stt.transcribe(audio).text)
    assert {"kitchen", "light", "oven", "minutes", "dinner"} <= heard, heard
    assert speaking.take_notice() is None


def test_the_service_killed_mid_transcription_the_local_model_answers(tmp_path):
    service = faster_whisper_service(tmp_path).start()
    try:
        hearing = speech_to_text(hearing_settings(service.uri, retry_after_seconds=60.0))
        hearing.load()
        service.freeze()  # it takes the connection and the audio, and never answers...
        threading.Timer(1.0, service.kill).start()  # ...until it dies mid-call
        transcript = hearing.transcribe(recording("harvard-spk1-2"))
    finally:
        service.stop()
    assert words("drop the two when you add the figures") <= words(transcript.text), transcript
    assert hearing.health.reach is Reach.DOWN
    assert "closed the connection" in hearing.health.last_failure
    assert hearing.take_notice() == HEARING_NOTICE
    assert hearing.take_notice() is None, "said once"
    # Until the retry time, the local model hears at once, without asking the dead service.
    again = hearing.transcribe(recording("harvard-spk1-3"))
    assert words("the air is pure") <= words(again.text), again
    assert "closed the connection" in hearing.health.last_failure


def test_a_hung_service_times_out_and_is_asked_again_once_it_answers(whisper, caplog):
    hearing = speech_to_text(hearing_settings(whisper.uri, call_timeout_seconds=1.0,
                                              retry_after_seconds=0.0))  # fmt: skip
    whisper.freeze()
    try:
        transcript = hearing.transcribe(recording("harvard-spk1-4"))
    finally:
        whisper.thaw()
    assert words("a thin stripe runs down the middle") <= words(transcript.text), transcript
    assert "timed out" in hearing.health.last_failure
    assert hearing.health.reach is Reach.DOWN
    assert hearing.take_notice() == HEARING_NOTICE
    # The thawed service finishes the request it was left with; then, its retry time being 0,
    # the next call asks it again (with time enough for this busy machine) and it is back.
    wait_for("the service to finish the abandoned request",
             lambda: "a thin stripe" in whisper.logged().lower())  # fmt: skip
    patient = FallbackSpeechToText(WyomingSpeechToText(hearing_settings(whisper.uri)),
                                   hearing.local, hearing.health)  # fmt: skip
    with caplog.at_level(logging.INFO, logger="audio.remote.health"):
        result = patient.transcribe(recording("harvard-spk1-5"))
    assert words("sunday is the best part of the week") <= words(result.text), result
    assert result.text in whisper.logged()
    assert hearing.health.reach is Reach.UP
    assert any("answers again" in record.getMessage() for record in caplog.records)


def test_the_service_killed_mid_speech_the_local_voice_says_it(tmp_path, local_stt):
    service = piper_service(tmp_path).start()
    try:
        speaking = text_to_speech(speaking_settings(service.uri, retry_after_seconds=60.0))
        speaking.load(PARAMS.voice)
        service.freeze()
        threading.Timer(1.0, service.kill).start()
        parts, audio = spoken(speaking.synthesize("The back door is locked.", PARAMS))
    finally:
        service.stop()
    assert parts == ["The back door is locked."]
    assert {"back", "door", "locked"} <= words(local_stt.transcribe(audio).text)
    assert "closed the connection" in speaking.health.last_failure
    assert speaking.take_notice() == SPEAKING_NOTICE
    assert speaking.take_notice() is None


def test_services_down_at_start_are_noted_and_the_local_models_do_the_work(local_stt):
    nobody = f"tcp://127.0.0.1:{free_port()}"
    hearing = speech_to_text(hearing_settings(nobody))
    speaking = text_to_speech(speaking_settings(nobody))
    hearing.load()
    speaking.load(PARAMS.voice)
    assert hearing.health.reach is speaking.health.reach is Reach.DOWN
    assert "unreachable" in hearing.health.last_failure
    assert (hearing.take_notice(), speaking.take_notice()) == (HEARING_NOTICE, SPEAKING_NOTICE)
    _, audio = spoken(speaking.synthesize("Nairobi is the capital of Kenya.", PARAMS))
    assert {"nairobi", "capital", "kenya"} <= words(hearing.transcribe(audio).text)
    assert speaking.warm_up(PARAMS.voice) is not None, "the local voice's pace is known"


def test_the_command_line_uses_the_services_the_settings_name(whisper, piper, tmp_path):
    """``check`` asks each service who it is; ``transcribe`` and ``say`` go to them (they used
    the local models whatever the settings said)."""
    config = tmp_path / "wyoming.yaml"
    config.write_text(f"stt:\n  backend: wyoming\n  uri: {whisper.uri}\n"
                      "  call_timeout_seconds: 15\n"
                      f"tts:\n  backend: wyoming\n  uri: {piper.uri}\n"
                      "  call_timeout_seconds: 15\n"
                      "voice_process:\n  heartbeat_timeout_seconds: 30\n")  # fmt: skip
    checked = hearth_cli(tmp_path, "--config", config, "check")
    assert "Traceback" not in checked.stdout + checked.stderr, checked.stderr
    assert "ok   speech-to-text service: faster-whisper" in checked.stdout, checked.stdout
    assert f"at {whisper.uri}" in checked.stdout
    assert "ok   text-to-speech service: piper" in checked.stdout, checked.stdout

    heard = tmp_path / "heard.wav"
    write_wav(heard, recording("harvard-spk1-1"))
    transcribed = hearth_cli(tmp_path, "--config", config, "transcribe", heard)
    assert transcribed.returncode == 0, transcribed.stderr
    text = transcribed.stdout.strip()
    assert words("the child almost hurt the small dog") <= words(text), text
    assert text in whisper.logged(), "the service, not the local model, heard it"

    said = tmp_path / "said.wav"
    sentence = "The kettle has boiled."
    spoken_out = hearth_cli(tmp_path, "--config", config, "say", sentence, "--output", said)
    assert spoken_out.returncode == 0, spoken_out.stderr
    assert f"raw_text={sentence}" in piper.logged(), "the service said it"
    assert {"kettle", "boiled"} <= words(SpeechToText(SpeechToTextSettings()).transcribe(
        read_wav(said)).text)  # fmt: skip
