"""Hearth live, through a real sound server: ``hearth run`` with no ``--input`` records and plays
through PortAudio (ALSA's ``pulse`` plugin) on a private PulseAudio with two null sinks.

The tests play Piper's voice into the ``room`` sink, whose monitor is Hearth's microphone (the
server's default source), and record the ``speaker`` sink (the default sink) that Hearth talks
into. Hearth opens ALSA's ``default`` device, or ``pulse`` when the settings name it; both follow
the server's defaults. The language model is an Ollama-protocol server on 127.0.0.1; wake word,
VAD, STT and TTS are real, and systemd's side of sd_notify is a socket the test reads.
"""

from __future__ import annotations

import itertools
import json
import re
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from audio.engine import END_OF_LISTENING_GRACE_SECONDS
from audio.stt import SpeechToText
from config import SpeechToTextSettings
from tests.audio.pulse import ROOM, SPEAKER, PulseServer
from tests.hearth_run import ROOT, NotifySocket, hearth_command, hearth_environment
from tests.ollama_server import OllamaServer, Reply
from tests.speech import silence, speech, timeline

pytestmark = pytest.mark.slow

QUESTION = "Hey Jarvis, what is the capital of Kenya?"
ANSWER = "The capital of Kenya is Nairobi. It is a big and busy city."
SECOND_QUESTION = "Hey Jarvis, what is the capital of France?"
SECOND_ANSWER = "Paris is the capital of France. It is known for good food."
# (Replies tiny.en hears right from Piper's varying voice: "Kampala" comes back "Campala".)
START_SECONDS = 180.0
"""Loading the models and opening the devices (the supervisor allows as long on a cold Pi)."""
ANSWER_SECONDS = 90.0
"""From the question played into the room to the reply said in full."""
SLOW_ANSWER_SECONDS = 2.0
"""A model that takes this long to its first word (a cold one on a Pi takes longer)."""
GONE_SECONDS = 4.0
"""How long the sound device stays away: longer than the supervisor's 3 s limits on missing
heartbeats and on frames standing still, so only a voice process that waits, beating, survives."""


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


@dataclass
class LiveHearth:
    """A running ``hearth run`` on the sound devices, and what it wrote so far."""

    process: subprocess.Popen[bytes]
    events_path: Path
    log_path: Path

    def events(self) -> list[dict[str, Any]]:
        if not self.events_path.exists():
            return []
        lines = self.events_path.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.endswith("}")]  # not a half-written one

    def of(self, name: str) -> list[dict[str, Any]]:
        """Events with this name, in order."""
        return [event for event in self.events() if event["event"] == name]

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def summary(self) -> str:
        """The events that tell the story and the end of the log, for failure messages."""
        shown = {"wake", "wake_check", "utterance", "reply", "error", "device_back",
                 "worker_restart", "speak_start", "speak_end", "hint", "pause_judged",
                 "went_on"}  # fmt: skip
        lines = [json.dumps(e) for e in self.events() if e["event"] in shown]
        return "\n".join(lines) + "\n--- log ---\n" + self.log()[-4000:]

    def wait_for(self, what: str, done: Callable[[], bool], timeout: float) -> None:
        """Wait until ``done()``; fail with the story so far if it takes too long or Hearth
        exits."""
        deadline = time.monotonic() + timeout
        while not done():
            if self.process.poll() is not None:
                pytest.fail(f"hearth exited ({self.process.returncode}) waiting for {what}:\n"
                            f"{self.summary()}")  # fmt: skip
            if time.monotonic() > deadline:
                pytest.fail(f"no {what} within {timeout:.0f} s:\n{self.summary()}")
            time.sleep(0.1)

    def wait_until_listening(self, opened: int = 1) -> None:
        """Models loaded and the microphone (opened for the ``opened``-th time) recording."""
        opens = lambda: len(re.findall(r"Microphone '.*' open", self.log())) >= opened  # noqa: E731
        self.wait_for("open microphone", opens, START_SECONDS)
        # A null sink holds a new recording stream back for a moment before audio flows.
        time.sleep(3.0)

    def wait_for_replies(self, count: int) -> None:
        """Until ``count`` replies have been said in full: the follow-up window opens after each."""
        said = lambda: len(self.of("follow_up_open")) >= count  # noqa: E731
        self.wait_for(f"reply {count} said", said, ANSWER_SECONDS)

    def stop(self) -> int:
        """SIGTERM, as systemd stops the service; the exit code."""
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            pytest.fail(f"hearth did not stop within 30 s of SIGTERM:\n{self.summary()}")


@pytest.fixture
def stt() -> SpeechToText:
    return SpeechToText(SpeechToTextSettings())


@pytest.fixture
def live_hearth(
    pulse: PulseServer, ollama: OllamaServer, notify: NotifySocket, tmp_path: Path
) -> Iterator[Callable[..., LiveHearth]]:
    """Call it to start ``hearth run`` live (``env`` adds to its environment, ``settings`` to its
    settings file)."""
    started: list[LiveHearth] = []

    def start(env: dict[str, str] | None = None, settings: str = "") -> LiveHearth:
        config = tmp_path / "settings.yaml"
        config.write_text(f"ollama:\n  url: {ollama.url}\n{settings}")
        events, log = tmp_path / "events.jsonl", tmp_path / "hearth.log"
        argv = hearth_command(config, tmp_path / "memory.db", "run", "--events", events)
        # PULSE_SERVER and PULSE_COOKIE (set by the pulse fixture) lead it to the test's server.
        environment = hearth_environment(tmp_path, {**notify.environment, **(env or {})})
        with log.open("wb") as output:
            process = subprocess.Popen(
                argv, cwd=ROOT, env=environment, stdout=output, stderr=subprocess.STDOUT
            )
        hearth = LiveHearth(process, events, log)
        started.append(hearth)
        return hearth

    yield start
    for hearth in started:  # a test that failed half-way: end it, by its pid
        if hearth.process.poll() is None:
            hearth.process.kill()
            hearth.process.wait()


def say_in_room(pulse: PulseServer, text: str) -> None:
    """A person in the room says ``text`` (with a breath of silence around it)."""
    pulse.play_into(ROOM, timeline(silence(0.3), speech(text), silence(0.5)))


def ask_in_room(pulse: PulseServer, hearth: LiveHearth, text: str, replies: int) -> np.ndarray:
    """A person in the room asks ``text``: what Hearth's speaker played until its reply number
    ``replies`` was said."""
    recording = pulse.start_recording(SPEAKER)
    say_in_room(pulse, text)
    hearth.wait_for_replies(replies)
    return recording.stop()


def unplug(pulse: PulseServer) -> None:
    """The room's only sound device goes (a USB speakerphone, say), microphone and speaker.

    PulseAudio moves a recording whose source vanishes to any source left, and every sink has a
    monitor source; so for the microphone to vanish for Hearth, both sinks go.
    """
    pulse.remove_sink(ROOM)
    pulse.remove_sink(SPEAKER)


def assert_said(stt: SpeechToText, recording: np.ndarray, text: str) -> None:
    """The recording of Hearth's speaker holds ``text``, as a person in the room would hear it.

    Hearth's Piper speaks with its natural variation, so one word may come back misheard.
    """
    heard = stt.transcribe(recording).text
    missing = set(words(text)) - set(words(heard))
    assert len(missing) <= 1, f"said {text!r}, heard {heard!r}"


def test_a_question_in_the_room_is_answered_through_the_speaker(
    pulse: PulseServer,
    ollama: OllamaServer,
    live_hearth: Callable[..., LiveHearth],
    stt: SpeechToText,
) -> None:
    ollama.script(Reply(text=ANSWER))
    # Devices named in the settings, as a user would name theirs.
    hearth = live_hearth(settings="audio:\n  input_device: pulse\n  output_device: pulse\n")
    hearth.wait_until_listening()

    heard = ask_in_room(pulse, hearth, QUESTION, replies=1)
    assert hearth.stop() == 0, hearth.summary()

    assert "Microphone 'pulse' open" in hearth.log()
    assert "Speaker 'pulse' open" in hearth.log()
    utterances = hearth.of("utterance")
    assert [u["via"] for u in utterances] == ["wake"], hearth.summary()
    assert words(utterances[0]["text"]) == words("What is the capital of Kenya?")
    assert [r["text"] for r in hearth.of("reply")] == [ANSWER]
    assert not hearth.of("error") and not hearth.of("worker_restart"), hearth.summary()
    assert_said(stt, heard, ANSWER)


def test_an_answer_slow_to_begin_is_preceded_by_the_end_of_listening_earcon(
    pulse: PulseServer, ollama: OllamaServer, live_hearth: Callable[..., LiveHearth]
) -> None:
    # The earcon waits a moment for the answer (an answer ready by then needs no earcon before
    # it: tests/assistant/test_first_word_e2e.py); one that takes seconds gets it.
    ollama.script(Reply(text=ANSWER, delay_first=SLOW_ANSWER_SECONDS))
    hearth = live_hearth()
    hearth.wait_until_listening()

    ask_in_room(pulse, hearth, QUESTION, replies=1)
    assert hearth.stop() == 0, hearth.summary()

    [utterance] = hearth.of("utterance")
    start = hearth.of("speak_start")[0]
    ends = [e for e in hearth.of("earcon") if e["kind"] == "end_of_listening"]
    assert len(ends) == 1, hearth.summary()
    assert utterance["t"] + END_OF_LISTENING_GRACE_SECONDS <= ends[0]["t"] < start["t"], (
        hearth.summary()
    )


# Until the words at a pause are known, the pause may be a speaker looking for a word: it ends
# after the trailing silence. On a loaded machine they can take longer than a breath to be known.
WORDS_KNOWN_LATE = "vad:\n  trailing_silence_seconds: 1.0\n  doubtful_silence_seconds: 1.0\n"


@pytest.mark.parametrize(
    ("request_begun", "pause", "rest", "said_whole", "settings"),
    [
        # A breath after a request: taken after a short silence, however long its words took
        # to be known (how long a pause ends it is end_of_turn's, tested on its own).
        ("Hey Jarvis, what's the weather like?", 1.8, "In Paris, tomorrow.",
         {"weather", "paris", "tomorrow"}, WORDS_KNOWN_LATE),
        # Looking for a word: taken only after the trailing silence, and the word comes a second
        # after that, still within the window that counts from the taking.
        ("Hey Jarvis, what's the capital of", 3.5, "Australia?", {"capital", "australia"}, ""),
    ],
    ids=["after-a-whole-request", "after-the-trailing-silence"],
)  # fmt: skip
def test_a_speaker_who_goes_on_while_the_model_thinks_is_answered_once_for_all_they_said(
    pulse: PulseServer,
    ollama: OllamaServer,
    live_hearth: Callable[..., LiveHearth],
    stt: SpeechToText,
    request_begun: str,
    pause: float,
    rest: str,
    said_whole: set[str],
    settings: str,
) -> None:
    # A model slow to begin, as on a Pi: the speaker goes on before it answers. The first turn
    # is taken back, unsaid.
    answer = "Tomorrow in Paris it will rain all day."
    ollama.script(Reply(text="It is sunny here.", delay_first=8.0), Reply(text=answer))
    hearth = live_hearth(settings=settings)
    hearth.wait_until_listening()

    recording = pulse.start_recording(SPEAKER)
    pulse.play_into(ROOM, timeline(
        silence(0.3), speech(request_begun), silence(pause), speech(rest), silence(0.5),
    ))  # fmt: skip
    hearth.wait_for_replies(1)
    heard = recording.stop()
    assert hearth.stop() == 0, hearth.summary()

    utterances = hearth.of("utterance")
    assert len(utterances) == 2, hearth.summary()
    taken, reheard = utterances
    first, whole = taken["text"], reheard["text"]
    assert not set(words(rest)) & set(words(first)), hearth.summary()
    assert hearth.of("went_on")[0]["taken_back"] is True, hearth.summary()
    # Heard again from its first word ("what's the weather light and Paris tomorrow?").
    assert reheard["start"] == taken["start"], hearth.summary()
    assert said_whole <= set(words(whole)), hearth.summary()
    asked = [request["messages"][-1]["content"] for request in ollama.chat_requests()]
    assert asked == [first, whole], hearth.summary()
    assert [r["text"] for r in hearth.of("reply")] == [answer], hearth.summary()
    assert_said(stt, heard, answer)


@pytest.mark.parametrize(
    ("asked_again", "answered"),
    [
        # A speaker who asks again, better, long after the first request (past the window to
        # go on): the first turn is dropped unsaid, the second answered.
        (SECOND_QUESTION, "second"),
        # "Hey Jarvis?" alone, to a slow answer: the first request is asked again, not lost.
        ("Hey Jarvis.", "first"),
    ],
    ids=["a-new-request", "the-wake-word-alone"],
)
def test_the_wake_word_said_while_the_model_thinks_takes_its_turn_back(
    pulse: PulseServer,
    ollama: OllamaServer,
    live_hearth: Callable[..., LiveHearth],
    stt: SpeechToText,
    asked_again: str,
    answered: str,
) -> None:
    ollama.script(Reply(text="It is sunny here.", delay_first=8.0), Reply(text=SECOND_ANSWER))
    hearth = live_hearth()
    hearth.wait_until_listening()

    recording = pulse.start_recording(SPEAKER)
    pulse.play_into(ROOM, timeline(
        silence(0.3), speech("Hey Jarvis, what's the weather like?"), silence(6.0),
        speech(asked_again), silence(0.5),
    ))  # fmt: skip
    hearth.wait_for_replies(1)
    heard = recording.stop()
    assert hearth.stop() == 0, hearth.summary()

    first, second = (utterance["text"] for utterance in hearth.of("utterance"))
    assert "weather" in words(first), hearth.summary()
    assert second == first if answered == "first" else "france" in words(second), hearth.summary()
    [went_on] = hearth.of("went_on")
    assert went_on["wake"] is True and went_on["taken_back"] is True, hearth.summary()
    asked = [request["messages"][-1]["content"] for request in ollama.chat_requests()]
    assert asked == [first, second], hearth.summary()
    assert [r["text"] for r in hearth.of("reply")] == [SECOND_ANSWER], hearth.summary()
    assert_said(stt, heard, SECOND_ANSWER)


def test_a_sound_device_unplugged_mid_conversation_is_waited_for_without_a_restart(
    pulse: PulseServer,
    ollama: OllamaServer,
    live_hearth: Callable[..., LiveHearth],
    notify: NotifySocket,
    stt: SpeechToText,
) -> None:
    ollama.script(Reply(text=ANSWER), Reply(text=SECOND_ANSWER))
    hearth = live_hearth()
    hearth.wait_until_listening()
    say_in_room(pulse, QUESTION)
    hearth.wait_for_replies(1)

    # In the follow-up window after the first answer, the device goes, and stays away a while.
    gone_at = time.monotonic()
    unplug(pulse)
    hearth.wait_for("microphone error", lambda: bool(hearth.of("error")), 20)
    time.sleep(GONE_SECONDS)
    assert not hearth.of("worker_restart"), hearth.summary()
    pulse.add_sinks(ROOM, SPEAKER)  # plugged back in
    hearth.wait_for("device_back", lambda: bool(hearth.of("device_back")), 30)
    back_at = time.monotonic()
    hearth.wait_until_listening(opened=2)

    heard = ask_in_room(pulse, hearth, SECOND_QUESTION, replies=2)
    assert hearth.stop() == 0, hearth.summary()

    errors = hearth.of("error")
    assert [e["what"] for e in errors] == ["microphone"], hearth.summary()
    assert "microphone 'default'" in errors[0]["message"]
    assert len(hearth.of("device_back")) == 1, hearth.summary()
    # One service, one voice process: the voice process waited for the device, beating.
    assert not hearth.of("worker_restart"), hearth.summary()
    assert hearth.log().count("Hearth is ready") == 1
    assert "the voice process is back" not in hearth.log()
    # Healthy all along, as systemd saw it: its watchdog was pinged through the loss (each second).
    pings = [gone_at, *notify.pings(gone_at, back_at), back_at]
    assert max(b - a for a, b in itertools.pairwise(pings)) < 2.5, pings
    assert [words(u["text"]) for u in hearth.of("utterance")] == [
        words("What is the capital of Kenya?"),
        words("What is the capital of France?"),
    ], hearth.summary()
    assert [r["text"] for r in hearth.of("reply")] == [ANSWER, SECOND_ANSWER]
    assert_said(stt, heard, SECOND_ANSWER)  # through the speaker, reopened on its own


def test_sigterm_while_the_sound_device_is_gone_stops_at_once(
    pulse: PulseServer, live_hearth: Callable[..., LiveHearth]
) -> None:
    hearth = live_hearth()
    hearth.wait_until_listening()
    unplug(pulse)
    hearth.wait_for("microphone error", lambda: bool(hearth.of("error")), 20)
    began = time.monotonic()
    assert hearth.stop() == 0, hearth.summary()
    # The voice process leaves its wait for the device at once (not after the 8 s drain).
    assert time.monotonic() - began < 4.0, hearth.summary()
    assert not hearth.of("worker_restart"), hearth.summary()


def test_a_stalled_microphone_restarts_the_voice_process_which_then_answers(
    pulse: PulseServer,
    ollama: OllamaServer,
    live_hearth: Callable[..., LiveHearth],
    stt: SpeechToText,
) -> None:
    ollama.script(Reply(text=ANSWER))
    # The first voice process's loop keeps beating, but its frame counter stands still.
    hearth = live_hearth(env={"HEARTH_FAILPOINTS": "device_stall"})
    hearth.wait_for("worker_restart", lambda: bool(hearth.of("worker_restart")), START_SECONDS)
    hearth.wait_until_listening()  # the first process never opened the microphone

    heard = ask_in_room(pulse, hearth, QUESTION, replies=1)
    assert hearth.stop() == 0, hearth.summary()

    restarts = hearth.of("worker_restart")
    assert len(restarts) == 1, hearth.summary()
    assert restarts[0]["reason"].startswith("no audio frames for "), restarts
    assert "restarting the voice process: no audio frames" in hearth.log()
    assert not hearth.of("error"), hearth.summary()
    assert [words(u["text"]) for u in hearth.of("utterance")] == [
        words("What is the capital of Kenya?")
    ], hearth.summary()
    assert_said(stt, heard, ANSWER)
