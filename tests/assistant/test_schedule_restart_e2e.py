"""The schedule across a ``kill -9`` of the whole service, end to end in file mode: timers set by
voice are stored before they are acknowledged; after the restart one that came due while Hearth was
down is said once, and one still running goes on with its true remaining time."""

from __future__ import annotations

import signal
from datetime import UTC, datetime

import pytest

from tests.assistant.test_watchdog import wait_gone
from tests.hearth_run import RunningHearth
from tests.speech import silence, speech, timeline

pytestmark = pytest.mark.slow


def settings(ollama) -> str:
    return f"ollama:\n  url: {ollama.url}\nclock:\n  timezone: UTC\n"


def at(wall: float) -> list[str]:
    return ["--start-time", datetime.fromtimestamp(wall, UTC).isoformat()]


def test_after_kill_9_a_timer_due_while_down_is_said_once_and_one_running_keeps_its_time(
    hearth, ollama, tmp_path
):
    db = tmp_path / "memory.db"
    room = timeline(silence(1.0), speech("Hey Jarvis, set a pasta timer for one minute."),
                    silence(7.0), speech("Set an egg timer for ten minutes."),  # the follow-up
                    silence(60.0))  # fmt: skip
    (tmp_path / "first").mkdir()
    running = RunningHearth(tmp_path / "first", room, settings(ollama), db)
    children: list[int] = []
    try:
        running.wait_for(lambda e: e["event"] == "timer_started" and e["name"] == "egg", 180)
        children = running.kill()
    finally:
        running.end()
        wait_gone(children)
    assert running.process.returncode == -signal.SIGKILL
    started = {e["name"]: e for e in running.of("timer_started")}
    assert set(started) == {"pasta", "egg"}, running.summary()
    pasta, egg = started["pasta"]["due_at"], started["egg"]["due_at"]

    # Back two minutes after the pasta was due: said once, when back, at its true time.
    back = pasta + 120
    # After the announcement (the microphone is closed while Hearth speaks).
    question = timeline(silence(8.0), speech("Hey Jarvis, how long is left on the egg timer?"),
                        silence(4.0))  # fmt: skip
    second = hearth(question, settings(ollama), db=db, args=at(back))
    assert second.returncode == 0, second.summary()
    due_at = datetime.fromtimestamp(pasta, UTC)
    expected = f"While I was restarting, your pasta timer finished at {due_at:%-I:%M}"
    said = [e["text"] for e in second.of("announcement")]
    assert len(said) == 1 and said[0].startswith(expected), said
    [finished] = second.of("timer_finished")
    assert finished["lateness"] == "while_down" and not second.of("ring_start")
    [reply] = second.of("reply")
    [asked] = second.of("utterance")
    left = egg - (back + asked["t"])
    assert f"{round(left / 60)} minutes" in reply["text"], (reply, left)

    # And a third start says nothing of it again.
    third = hearth(timeline(silence(3.0)), settings(ollama), db=db, args=at(back + 10))
    assert third.returncode == 0, third.summary()
    assert not third.of("announcement") and not third.of("timer_finished")
