"""A timer set by voice rings in the voice loop, end to end: ``hearth run`` in file mode with
``--start-time`` (the schedule on the audio clock), the real wake word, VAD, Whisper and Piper.

File mode is deterministic, so a first hearing tells where the ring sounds; its echo through a
measured room is then added to the recording with a person's "Stop!" over it, as a kitchen would
hear it, and Hearth hears that: the ring goes 20 dB down as the person starts to speak, stops
without the wake word, and Hearth says what finished.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.assistant.test_barge_in_e2e import echo_of, mixed
from tests.speech import silence, speech, timeline

pytestmark = pytest.mark.slow

SAMPLE_RATE = 16_000
START = ["--start-time", "2027-01-15T08:00:00+00:00"]
QUICK_RING = "schedule:\n  auto_stop_seconds: 12\n"
"""A ring nobody stops ends by itself well inside the recording."""
STOP_WITHIN_SECONDS = 0.5


def settings(ollama) -> str:
    return f"ollama:\n  url: {ollama.url}\n{QUICK_RING}"


def the_room() -> np.ndarray:
    return timeline(silence(1.0), speech("Hey Jarvis, set a pasta timer for ten seconds."),
                    silence(26.0))  # fmt: skip


def test_a_timer_set_by_voice_rings_at_its_audio_time_and_ends_by_itself(hearth, ollama):
    run = hearth(the_room(), settings(ollama), args=START)
    assert run.returncode == 0, run.summary()
    [started] = run.of("timer_started")
    assert started["name"] == "pasta" and started["seconds"] == 10
    [finished] = run.of("timer_finished")
    assert finished["item_id"] == started["item_id"] and finished["lateness"] == "on_time"
    [ring] = run.of("ring_start")
    # Due 10 s of audio after it was set (the first frame at or after it), every run.
    assert 0 <= ring["t"] - (started["t"] + 10) < 0.04, (started, ring)
    sound = run.said_at(ring["t"], 1.0)
    assert np.abs(sound).max() > 1000, "the ring is on the output timeline where it began"
    [stopped] = run.of("ring_stop")
    assert stopped["by"] == "command", stopped  # the schedule's auto-stop, sent to the loop
    assert stopped["t"] - ring["t"] == pytest.approx(12, abs=0.1)
    [said] = run.of("announcement")
    assert said["text"] == "Your pasta timer is done."
    assert run.of("ring_end")[0]["by"] == "auto"


def stop_over_the_ring(hearth, ollama, env=None):
    """The room with the ring's echo through a measured room (as loud as the person) and "Stop!"
    3 s into the ring: Hearth's run over it, when the stop ends, and where the ring began."""
    room = the_room()
    quiet = hearth(room, settings(ollama), args=START)
    assert quiet.returncode == 0, quiet.summary()
    [ring] = quiet.of("ring_start")
    echo = echo_of(quiet.reply_audio[: len(room)], speech("Stop!"))
    stop = speech("Stop!")
    at = round((ring["t"] + 3.0) * SAMPLE_RATE)
    person = np.zeros(at + len(stop))
    person[at:] = stop
    said_until = (at + np.flatnonzero(np.abs(stop) > 500)[-1]) / SAMPLE_RATE
    echo[round((said_until + STOP_WITHIN_SECONDS) * SAMPLE_RATE) :] = 0  # the ring stopped
    run = hearth(mixed(room, echo, person), settings(ollama), args=START, env=env)
    assert run.returncode == 0, run.summary()
    return run, said_until, ring["t"]


def stopped_once_and_said(run, said_until: float) -> None:
    [stopped] = run.of("ring_stop")
    assert stopped["by"] == "stop_word", run.summary()
    assert 0 < stopped["t"] - said_until <= STOP_WITHIN_SECONDS, (stopped, said_until)
    [ended] = run.of("ring_end")
    assert ended["by"] == "stop"
    [said] = run.of("announcement")
    assert said["text"] == "Your pasta timer is done."
    [told] = [e for e in run.of("speak_start") if e["text"] == said["text"]]
    assert told["t"] >= stopped["t"]
    assert np.abs(run.said_at(told["t"], 1.0)).max() > 1000


def test_stop_said_over_the_ring_without_the_wake_word_ends_it_and_says_what_finished(
    hearth, ollama
):
    run, said_until, ring = stop_over_the_ring(hearth, ollama)
    assert [e["t"] for e in run.of("ring_start")] == [ring]
    assert not run.of("wake")[1:], "no wake word was needed"
    stopped_once_and_said(run, said_until)
    # As the person starts to speak, the ring goes on 20 dB down (heard better over it).
    [ducked] = run.of("ring_ducked")
    assert ring + 3.0 <= ducked["t"] < said_until, (ducked, ring, said_until)
    full = np.abs(run.said_at(ring, 2.5)).max()
    [stopped] = run.of("ring_stop")
    quieter = np.abs(run.said_at(ducked["t"] + 0.05, stopped["t"] - ducked["t"] - 0.05)).max()
    assert quieter <= full * 0.12, (quieter, full)


def test_a_voice_process_that_dies_mid_ring_rings_again_and_it_ends_once(hearth, ollama):
    # The third transcription is the "Stop!" over the ring: the voice process dies in it.
    run, _, ring = stop_over_the_ring(
        hearth, ollama, env={"HEARTH_FAILPOINTS": "transcribe_crash@3"}
    )
    [restart] = run.of("worker_restart")
    assert restart["t"] >= ring, run.summary()
    # The new process is sent the ring again; it resumes from the last heartbeat, which may be
    # before the "Stop!" (heard again, and it stops the ring) or after it (lost with the process,
    # as any utterance cut by a crash: the auto-stop ends the ring). Either way it ends once, and
    # what finished is said once.
    assert [e["t"] for e in run.of("ring_start")] == [ring, restart["t"]]
    assert len(run.of("timer_finished")) == 1
    [stopped] = run.of("ring_stop")
    [ended] = run.of("ring_end")
    assert (stopped["by"], ended["by"]) in (("stop_word", "stop"), ("command", "auto"))
    assert [e["text"] for e in run.of("announcement")] == ["Your pasta timer is done."]


def test_stop_said_with_no_echo_of_the_ring_ends_it_too(hearth, ollama):
    """A speaker the microphone barely hears (or a recording without the room): nothing to cancel,
    and the stop is still heard (AEC3 against the ring alone made Whisper write it as "dot")."""
    room = the_room()
    stop = speech("Stop!")
    at = round((14.4 + 3.0) * SAMPLE_RATE)  # 3 s into the ring (where the first test has it)
    person = np.zeros(at + len(stop))
    person[at:] = stop
    run = hearth(mixed(room, person), settings(ollama), args=START)
    assert run.returncode == 0, run.summary()
    [ring] = run.of("ring_start")
    assert ring["t"] == pytest.approx(14.4, abs=0.05)
    said_until = (at + np.flatnonzero(np.abs(stop) > 500)[-1]) / SAMPLE_RATE
    stopped_once_and_said(run, said_until)
