"""A turn through the real entry point with speech on Wyoming services: ``hearth run --input``
with ``stt.backend: wyoming`` and ``tts.backend: wyoming`` hears the request through
wyoming-faster-whisper and says the reply through wyoming-piper; with both services dead, the
local models do it all and the turn is the same, with each outage said once; with both killed
as the reply starts, the local models finish the turn and the next, each outage said once."""

from __future__ import annotations

import re
import threading
import time

import pytest

from audio.remote.fallback import HEARING_NOTICE, SPEAKING_NOTICE
from audio.stt import SpeechToText
from config import SpeechToTextSettings
from tests.assistant.conftest import hearth  # noqa: F401 (a fixture, found by name)
from tests.ollama_server import Reply
from tests.servers import free_port
from tests.speech import silence, speech, timeline
from tests.wyoming_servers import WyomingService, faster_whisper_service, piper_service

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
    said = [start["text"] for start in run.of("speak_start")]
    assert sorted(said) == sorted([HEARING_NOTICE, SPEAKING_NOTICE, ANSWER]), "each said once"
    start = next(start["t"] for start in run.of("speak_start") if start["text"] == ANSWER)
    reply = SpeechToText(SpeechToTextSettings()).transcribe(run.said_at(start, 4.0))
    assert {"nairobi", "capital", "kenya"} <= words(reply.text), reply
    assert "unreachable" in run.stderr, "the fall back to the local models is logged"


def kill_when_asked(piper: WyomingService, whisper: WyomingService, text: str) -> threading.Thread:
    """Both services killed (-9) the moment wyoming-piper is asked to say ``text`` (the reply's
    first sentence: the request was heard remotely, the reply is under way)."""

    def watch() -> None:
        deadline = time.monotonic() + 240
        while f"raw_text={text}" not in piper.logged() and time.monotonic() < deadline:
            time.sleep(0.01)
        piper.kill()
        whisper.kill()

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    return watcher


def test_services_killed_mid_turn_the_local_models_finish_it_and_each_outage_is_said_once(
    hearth,  # noqa: F811
    ollama,
    tmp_path,
):
    answer = ["Nairobi is the capital of Kenya.", "It is a big city.", "It has a national park."]
    room = timeline(silence(1.0), speech(QUESTION), silence(14.0),
                    speech("Hey Jarvis, what time is it?"), silence(8.0))  # fmt: skip
    whisper = faster_whisper_service(tmp_path).start()
    piper = piper_service(tmp_path).start()
    try:
        ollama.script(Reply(text=" ".join(answer)))
        watcher = kill_when_asked(piper, whisper, answer[0])
        settings = remote_settings(ollama.url, whisper.uri, piper.uri)
        run = hearth(room, settings, args=["--start-time", "2026-03-29T10:00:00+00:00"])
        watcher.join(timeout=10)
        heard = whisper.logged()
    finally:
        whisper.stop()
        piper.stop()
    assert run.returncode == 0, run.summary()
    assert "capital of Kenya" in heard, "the request was heard by wyoming-faster-whisper"
    first, second = run.of("utterance")
    assert {"capital", "kenya"} <= words(first["text"]), run.summary()
    assert "time" in words(second["text"]), "heard by the local model"
    notices = [event["text"] for event in run.of("speech_fallback")]
    assert sorted(notices) == sorted([SPEAKING_NOTICE, HEARING_NOTICE]), run.summary()
    said = [start["text"] for start in run.of("speak_start")]
    for sentence in [*answer, SPEAKING_NOTICE, HEARING_NOTICE, "It's 10 AM."]:
        assert said.count(sentence) == 1, (sentence, said)
    assert said.index(answer[-1]) < said.index(HEARING_NOTICE) < said.index("It's 10 AM.")
    # The last sentence, said by the local voice after the remote one died, is heard.
    last = next(start for start in run.of("speak_start") if start["text"] == answer[-1])
    reply = SpeechToText(SpeechToTextSettings()).transcribe(run.said_at(last["t"], 3.0))
    assert {"national", "park"} <= words(reply.text), reply
