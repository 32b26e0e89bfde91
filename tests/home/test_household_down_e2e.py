"""Home control by voice when Home Assistant cannot do it, end to end: a real ``hearth run`` in
file mode (real wake word, VAD, tiny.en and Piper) whose ``home_assistant:`` points at a port
nobody listens on, or at the real Home Assistant with a token it does not know. The request about
the home is answered with what went wrong, said in Hearth's voice (heard back by Whisper), and
the next request is answered as usual: nothing else breaks. With the MQTT broker down, Hearth
hears and answers as it does without one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from assistant.home import SPOKEN_PROBLEMS, HomeProblem
from audio.stt import SpeechToText
from config import SpeechToTextSettings
from tests.hearth_run import HearthRun, run_hearth
from tests.home_assistant import HomeAssistant
from tests.servers import free_port
from tests.speech import silence, speech, timeline

pytestmark = pytest.mark.slow

START = ["--start-time", "2026-03-29T10:00:00+00:00"]
"""The clock's answer is then always "It's 10 AM."."""
TOKEN = "not-a-token-home-assistant-made"


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def home_run(folder: Path, url: str) -> HearthRun:
    """The kitchen lights asked for, then the time, with Home Assistant at ``url``."""
    token = folder / "home-assistant.token"
    token.write_text(f"{TOKEN}\n")
    token.chmod(0o600)
    settings = (
        f"ollama:\n  url: http://127.0.0.1:{free_port()}\n"
        f"home_assistant:\n  url: {url}\n  token_file: {token}\n"
    )
    room = timeline(
        silence(1.0), speech("Hey Jarvis, turn on the kitchen lights."), silence(7.0),
        speech("Hey Jarvis, what time is it?"), silence(5.0),
    )  # fmt: skip
    return run_hearth(folder, room, settings, args=START)


def said_wrong(run: HearthRun, problem: HomeProblem, heard: set[str]) -> None:
    """The home request got ``problem``'s sentence (Whisper hears ``heard`` in it), the time
    request its answer, and the token was never logged."""
    assert run.returncode == 0, run.summary()
    (asked,) = run.of("home")
    assert words(asked["request"]) == words("turn on the kitchen lights"), run.summary()
    assert (asked["done"], asked["problem"]) == (False, problem.value), asked
    texts = [start["text"] for start in run.of("speak_start")]
    assert texts == [SPOKEN_PROBLEMS[problem], "It's 10 AM."], run.summary()
    said = SpeechToText(SpeechToTextSettings()).transcribe(
        run.said_at(run.of("speak_start")[0]["t"], 4.0)
    )
    assert heard <= set(words(said.text)), said.text
    assert TOKEN not in run.stderr, "the token is never logged"


def test_home_assistant_unreachable_is_said_and_the_next_request_is_answered(tmp_path):
    run = home_run(tmp_path, f"http://127.0.0.1:{free_port()}")
    said_wrong(run, HomeProblem.UNREACHABLE, {"reach", "home", "assistant"})


def test_a_token_home_assistant_refuses_is_said_and_the_light_stays_off(
    tmp_path, home: HomeAssistant
):
    home.call("light", "turn_off", entity_id="light.kitchen_lights")
    run = home_run(tmp_path, home.url)
    said_wrong(run, HomeProblem.TOKEN_REFUSED, {"token", "home", "assistant"})
    assert home.state("light.kitchen_lights")["state"] == "off"


def test_a_broker_that_is_down_costs_hearing_and_speaking_nothing(tmp_path):
    """``mqtt:`` at a port nobody listens on: the same turns heard and answered as without it,
    the outage logged once however many times the device tries again."""
    settings = (
        f"ollama:\n  url: http://127.0.0.1:{free_port()}\n"
        f"mqtt:\n  url: mqtt://127.0.0.1:{free_port()}\n  room: Study\n"
        "  reconnect_min_seconds: 0.1\n  reconnect_max_seconds: 0.2\n"
    )
    room = timeline(
        silence(1.0), speech("Hey Jarvis, what time is it?"), silence(5.0),
        speech("Hey Jarvis, set the volume to eighty percent."), silence(5.0),
    )  # fmt: skip
    run = run_hearth(tmp_path, room, settings, args=START)
    assert run.returncode == 0, run.summary()
    said = [start["text"] for start in run.of("speak_start")]
    assert said == ["It's 10 AM.", "Volume 80 percent."], run.summary()
    assert run.stderr.count("unreachable") == 1, run.stderr[-3000:]
