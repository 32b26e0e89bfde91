"""A turn through the real entry point with speech on Wyoming services: ``hearth run --input``
with ``stt.backend: wyoming`` and ``tts.backend: wyoming`` hears the request through
wyoming-faster-whisper and says the reply through wyoming-piper; with both services dead, the
local models do it all and the turn is the same."""

from __future__ import annotations

import re

import pytest

from audio.stt import SpeechToText
from config import SpeechToTextSettings
from tests.assistant.conftest import hearth  # noqa: F401 (a fixture, found by name)
from tests.ollama_server import Reply
from tests.servers import free_port
from tests.speech import silence, speech, timeline
from tests.wyoming_servers import faster_whisper_service, piper_service

pytestmark = pytest.mark.slow

QUESTION = "Hey Jarvis, what is the capital of Kenya?"
ANSWER = "Nairobi is the capital of Kenya."


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z']+", text.lower()))


def remote_settings(ollama_url: str, stt_uri: str, tts_uri: str) -> str:
    # The watchdog's heartbeat timeout bounds a remote sentence; on this busy shared machine
    # wyoming-piper takes over a second for one, so it is raised to leave it room.
    return (
        f"ollama:\n  url: {ollama_url}\n"
        "voice_process:\n  heartbeat_timeout_seconds: 10\n"
        f"stt:\n  backend: wyoming\n  uri: {stt_uri}\n  call_timeout_seconds: 15\n"
        f"tts:\n  backend: wyoming\n  uri: {tts_uri}\n  call_timeout_seconds: 8\n"
    )


@pytest.fixture
def room():
    return timeline(silence(1.0), speech(QUESTION), silence(8.0))


def test_a_turn_heard_and_spoken_by_wyoming_services(hearth, ollama, room, tmp_path):  # noqa: F811
    whisper = faster_whisper_service(tmp_path).start()
    piper = piper_service(tmp_path).start()
    try:
        ollama.script(Reply(text=ANSWER))
        run = hearth(room, remote_settings(ollama.url, whisper.uri, piper.uri))
        heard, said = whisper.logged(), piper.logged()
    finally:
        whisper.stop()
        piper.stop()
    assert run.returncode == 0, run.summary()
    utterances = run.of("utterance")
    assert len(utterances) == 1, run.summary()
    assert {"capital", "kenya"} <= words(utterances[0]["text"]), run.summary()
    assert "capital of Kenya" in heard, "wyoming-faster-whisper heard the request"
    assert f"raw_text={ANSWER}" in said, "wyoming-piper said the reply"
    start = run.of("speak_start")[0]["t"]
    reply = SpeechToText(SpeechToTextSettings()).transcribe(run.said_at(start, 4.0))
    assert {"nairobi", "capital", "kenya"} <= words(reply.text), reply


def test_with_the_services_dead_the_local_models_take_the_turn(hearth, ollama, room):  # noqa: F811
    nobody = f"tcp://127.0.0.1:{free_port()}"
    ollama.script(Reply(text=ANSWER))
    run = hearth(room, remote_settings(ollama.url, nobody, nobody))
    assert run.returncode == 0, run.summary()
    assert {"capital", "kenya"} <= words(run.of("utterance")[0]["text"]), run.summary()
    assert [r["text"] for r in run.of("reply")] == [ANSWER]
    start = run.of("speak_start")[0]["t"]
    reply = SpeechToText(SpeechToTextSettings()).transcribe(run.said_at(start, 4.0))
    assert {"nairobi", "capital", "kenya"} <= words(reply.text), reply
    assert "unreachable" in run.stderr, "the fall back to the local models is logged"
