"""The schedule across a ``kill -9`` of the whole live service, on the tests' PulseAudio: items
pending when the service dies ring or are reported exactly once, at the right wall time, after a
restart, and a second restart says nothing of them again.

``hearth run`` live (no ``--input``) on a private PulseAudio with two null sinks (see
``tests/audio/pulse.py``): a person asks for a one-minute timer by voice, played into the room; the
test also puts a reminder and a pasta timer in the store, as another client of the database would.
Then the supervisor and every process it started are killed at once with SIGKILL, as systemd
kills a unit's control group. Wall time is the real clock. The reminder comes due while Hearth is
down and stays down past the grace: it is reported as missed. The voice's timer comes due while
Hearth is down, later than the on-time window but within the grace: it is said once as finished
while restarting. The pasta timer comes due after the restart: it rings once, at its due wall time.
Proven from the event streams and from the speaker: the sink's monitor is recorded, placed on the
wall clock (``WallRecording``), its ring found by the ring's own waveform and its speech
transcribed by the real faster-whisper.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import numpy as np
import pytest

from assistant.schedule import ItemKind, Scheduler, ScheduleStore, SystemClock
from audio.stt import SpeechToText
from config import SpeechToTextSettings
from tests.assistant.test_watchdog import wait_gone
from tests.audio.pulse import ROOM, SPEAKER, PulseServer, pulse  # noqa: F401 (a fixture)
from tests.hearth_run import Event, NotifySocket, RunningHearth
from tests.speaker_audio import QUIET, ring_episodes, speech_stretches
from tests.speech import silence, speech, timeline

pytestmark = pytest.mark.slow

ON_TIME_SECONDS = 5.0
GRACE_SECONDS = 60.0
AUTO_STOP_SECONDS = 4.0
START_SECONDS = 180.0
"""Loading the models and opening the devices (the supervisor allows as long on a cold Pi)."""
HEARD_SECONDS = 90.0
"""From a request played into the room to the timer it sets."""
BACK_AFTER_SECONDS = 25.0
"""The pasta timer is due this long after the restart: well after the models are loaded."""
RING_WITHIN_SECONDS = 3.0
"""A ring at its due time: not before it, and not seconds later (correctness, not speed)."""
ALIGNMENT_SECONDS = 0.05
"""How far the speaker recording's wall times may be off (the sinks' 20 ms latency, twice)."""
TOMATOES = "water the tomatoes"
UTC_ZONE = ZoneInfo("UTC")


def settings(ollama) -> str:
    return (f"ollama:\n  url: {ollama.url}\nclock:\n  timezone: UTC\nschedule:\n"
            f"  on_time_seconds: {ON_TIME_SECONDS}\n  grace_minutes: {GRACE_SECONDS / 60}\n"
            f"  auto_stop_seconds: {AUTO_STOP_SECONDS}\n")  # fmt: skip


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def in_standby(running: RunningHearth, notify: NotifySocket, since: float) -> None:
    """Until the service says it is waiting for the wake word (after ``since``, monotonic)."""
    deadline = time.monotonic() + START_SECONDS
    while notify.status_after(since, "Standby") is None:
        assert running.process.poll() is None, running.log()
        assert time.monotonic() < deadline, f"not in standby:\n{running.log()}"
        time.sleep(0.1)
    time.sleep(3.0)  # a null sink holds a new recording stream back for a moment


def said_in_full(running: RunningHearth, text: str) -> Callable[[Event], bool]:
    """Matches the ``speak_end`` of the sentence ``text``."""

    def found(event: Event) -> bool:
        if event["event"] != "speak_end":
            return False
        jobs = {e["job"] for e in running.of("speak_start") if e["text"] == text}
        return event["job"] in jobs

    return found


def schedule_events(running: RunningHearth) -> list[Event]:
    names = {"timer_finished", "alarm_ringing", "reminder_due", "missed", "ring_start",
             "ring_resumed", "announcement"}  # fmt: skip
    return [event for event in running.events.all() if event["event"] in names]


def test_after_kill_9_live_each_pending_item_rings_or_is_reported_once_at_its_wall_time(
    pulse: PulseServer,  # noqa: F811 (the fixture)
    ollama,
    notify: NotifySocket,
    tmp_path: Path,
) -> None:
    db = tmp_path / "memory.db"
    runs: list[RunningHearth] = []

    def start(name: str) -> RunningHearth:
        (tmp_path / name).mkdir()
        since = time.monotonic()
        runs.append(RunningHearth(tmp_path / name, None, settings(ollama), db, notify.environment))
        in_standby(runs[-1], notify, since)
        return runs[-1]

    try:
        first = start("first")
        pulse.play_into(ROOM, timeline(silence(0.3), speech(
            "Hey Jarvis, set a timer for one minute."), silence(0.5)))  # fmt: skip
        started = first.wait_for(lambda e: e["event"] == "timer_started", HEARD_SECONDS)
        assert started["seconds"] == 60, first.summary()
        # Another client of the database adds the rest while the service runs.
        store = ScheduleStore.open(db)
        scheduler = Scheduler(store)
        now = SystemClock().now()
        soon = datetime.fromtimestamp(now.wall + 3, UTC_ZONE)
        reminder = scheduler.add_at(now, ItemKind.REMINDER, soon, text=TOMATOES)
        assert reminder.due_at is not None
        minute_due = started["due_at"]
        # Back when the reminder is past the grace and the first timer past its on-time window.
        back = max(reminder.due_at + GRACE_SECONDS, minute_due + ON_TIME_SECONDS + 10) + 3
        due = back + BACK_AFTER_SECONDS
        pasta, _ = scheduler.add_timer(now, due - now.wall, "pasta", "UTC")
        wait_gone(first.kill())
        pending = {item.id for item in scheduler.active()}
        assert pending == {started["item_id"], reminder.id, pasta.id}
        assert not first.of("timer_finished") and not first.of("reminder_due")

        time.sleep(max(0.0, back - time.time()))
        recording = pulse.start_wall_recording(SPEAKER)
        second = start("second")
        done = "Your pasta timer is done."
        second.wait_for(said_in_full(second, done), due - time.time() + HEARD_SECONDS)
        time.sleep(1.0)  # the last sentence's end reaches the supervisor
        assert scheduler.active() == [], "every item was delivered and ended"
        wait_gone(second.kill())
        heard = recording.stop()

        quiet = pulse.start_wall_recording(SPEAKER)
        third = start("third")
        time.sleep(5.0)
        assert third.stop() == 0, third.summary()
        store.close()
    finally:
        for running in runs:
            running.end()

    # Back: the first timer said once as finished while restarting, the reminder reported
    # missed, the pasta timer rung once at its due wall time, each decided once.
    finished = {e["item_id"]: e for e in second.of("timer_finished")}
    assert len(second.of("timer_finished")) == 2 and set(finished) == {started["item_id"], pasta.id}
    minute = finished[started["item_id"]]
    assert (minute["lateness"], minute["delivery"]) == ("while_down", "say"), minute
    [missed] = second.of("missed")
    assert missed["item_id"] == reminder.id and not second.of("reminder_due"), missed
    ring = finished[pasta.id]
    assert (ring["lateness"], ring["delivery"]) == ("on_time", "ring"), ring
    assert due <= ring["decided_at"] <= due + RING_WITHIN_SECONDS, (ring, due)
    assert [e["items"] for e in second.of("ring_start")] == [[pasta.id]], second.summary()
    said = [e["text"] for e in second.of("announcement")]
    [late] = [text for text in said if text.startswith("While I was restarting, your ")]
    when = time.gmtime(minute_due)
    at = {time.strftime("%-I:%M %p", when), time.strftime("%-I %p", when)}
    assert " timer finished at " in late and late.rsplit(" at ", 1)[1][:-1] in at, (late, at)
    assert sorted(said) == sorted([late, f"I missed your reminder to {TOMATOES} while I was off.",
                                   done]), said  # fmt: skip

    # The speaker: one ring, starting at the pasta timer's due wall time.
    [(onset, end)] = ring_episodes(heard)
    rang_at = recording.wall_at(onset)
    assert due - ALIGNMENT_SECONDS <= rang_at <= due + RING_WITHIN_SECONDS, (rang_at, due)
    assert (end - onset) / 16_000 <= AUTO_STOP_SECONDS + 1, "it rang once, until the auto-stop"
    # And the three sentences, each once, as a person in the room heard them. (The words counted
    # are ones tiny.en hears in every take of Piper's varied voice: "egg" was "right" in 1 of 30,
    # "missed" was "messed" in one CI run; "reminder" stands for that sentence beside "tomatoes".)
    stt = SpeechToText(SpeechToTextSettings())
    transcript = words(" ".join(stt.transcribe(part).text for part in speech_stretches(heard)))
    for word in ("restarting", "finished", "reminder", "tomatoes", "pasta"):
        assert transcript.count(word) == 1, (word, " ".join(transcript))

    # A third start says and rings nothing: every item was decided once.
    assert not schedule_events(third), schedule_events(third)
    assert np.abs(quiet.stop()).max(initial=0) < QUIET, "the speaker stayed quiet"
