"""Two Hearths in one household hear the same questions: one near the speaker, one across the
room (the same speech through a room's impulse response, simulated or measured, 12 dB quieter). Both
run the real ``hearth run`` in file mode at the same time, telling each other through one PostgreSQL
database or one Mosquitto broker: for every wake word the near one answers and the far one logs
that it deferred, and says nothing."""

from __future__ import annotations

import numpy as np
import pytest

from memory import Memory
from tests.hearth_run import RunningHearth
from tests.mosquitto import Mosquitto
from tests.rooms import Room, across, measured_room, simulated_room
from tests.speech import silence, timeline
from tests.voices import PIPER_VOICES

pytestmark = pytest.mark.slow

START = "2026-03-02T18:00:00+00:00"
"""Both recordings begin at the same moment of the household's clock."""
FAR_GAIN = 10 ** (-12 / 20)
QUESTIONS = (
    "Hey Jarvis, what is the capital of France?",
    "Hey Jarvis, how far away is the moon?",
    "Hey Jarvis, what should I cook tonight?",
)


def far_away(audio: np.ndarray, room: Room) -> np.ndarray:
    wet = across(audio, room).astype(np.float64) * FAR_GAIN
    return np.clip(wet, -32768, 32767).astype(np.int16)


def settings(ollama, room: str, broker: Mosquitto | None) -> str:
    text = f"ollama:\n  url: {ollama.url}\nhousehold:\n  room: {room}\n"
    if broker is not None:  # each device on its own SQLite memory: only the broker is shared
        text += "  arbitration_transport: mqtt\n"
        text += f"mqtt:\n  url: {broker.url}\n  device_id: hearth_{room.replace('-', '_')}\n"
    return text


@pytest.mark.parametrize(("transport", "room"), [
    ("postgresql", simulated_room),
    ("postgresql", lambda: measured_room("room-impulse-1")),
    ("mqtt", simulated_room),
], ids=["simulated", "measured", "mqtt-simulated"])  # fmt: skip
def test_of_two_hearths_hearing_one_question_the_near_one_answers_every_time(
    ollama, request, tmp_path, transport, room
):
    broker, url = None, None
    if transport == "mqtt":
        broker = Mosquitto(tmp_path).start()
        request.addfinalizer(broker.stop)
    else:
        url = request.getfixturevalue("postgres_databases")()
        Memory.open(url).close()  # the household's memory exists before either device starts
    parts = [silence(1.0)]
    for question, voice in zip(QUESTIONS, PIPER_VOICES[1:], strict=False):
        parts += [voice.say(question), silence(12.0)]
    near = timeline(*parts)
    devices = {"kitchen": near, "living-room": far_away(near, room())}
    runs = {}
    for room, audio in devices.items():
        folder = tmp_path / room
        folder.mkdir()
        runs[room] = RunningHearth(
            folder, audio, settings(ollama, room, broker), db=url, args=["--start-time", START]
        )
    try:
        for run in runs.values():
            assert run.process.wait(timeout=600) == 0, run.summary()
    finally:
        for run in runs.values():
            if run.process.poll() is None:
                run.process.kill()
                run.process.wait()
    kitchen, living = runs["kitchen"], runs["living-room"]

    answered, deferred = kitchen.of("wake_answered"), living.of("wake_deferred")
    assert len(answered) == len(QUESTIONS), kitchen.summary()
    assert len(deferred) == len(QUESTIONS), living.summary()
    assert all(event["winner"] == "kitchen" for event in answered + deferred)
    for event in deferred:  # both claims compared, the near one louder
        levels = {claim["device"]: claim["level_db"] for claim in event["claims"]}
        assert levels["kitchen"] > levels["living-room"] + 6, levels
    assert kitchen.of("wake_deferred") == [] and living.of("wake_answered") == []

    assert len(kitchen.of("reply")) == len(QUESTIONS)
    assert living.of("reply") == [] and living.of("speak_start") == []
    ends = [e["reason"] for e in living.of("conversation_end")]
    assert ends == ["deferred"] * len(QUESTIONS), living.summary()
    assert len(ollama.chat_requests()) == len(QUESTIONS)  # one answer per question
