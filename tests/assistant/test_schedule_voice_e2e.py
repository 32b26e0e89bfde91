"""Timers and reminders by voice, end to end in file mode on the audio clock (``--start-time``):
two named timers, "how long is left" asked without a name and the which-one question answered in
the follow-up window, a reminder said at its time and finished once said."""

from __future__ import annotations

import pytest

from tests.assistant.test_ringing_e2e import START
from tests.speech import silence, speech, timeline

pytestmark = pytest.mark.slow


def test_two_named_timers_the_which_one_question_and_a_reminder_said_at_its_time(hearth, ollama):
    room = timeline(
        silence(1.0),
        speech("Hey Jarvis, set a pasta timer for ten minutes."),
        silence(5.0),
        speech("Set an egg timer for five minutes."),  # each in the window of the reply before
        silence(5.0),
        speech("How long is left on the timer?"),
        silence(6.0),
        speech("The pasta one."),
        silence(6.0),
        speech("In twenty seconds remind me to check the oven."),
        silence(28.0),
    )
    run = hearth(room, f"ollama:\n  url: {ollama.url}\nclock:\n  timezone: UTC\n", args=START)
    assert run.returncode == 0, run.summary()
    timers = {e["name"]: e["seconds"] for e in run.of("timer_started")}
    assert timers == {"pasta": 600, "egg": 300}, run.summary()
    replies = [e["text"] for e in run.of("reply")]
    which = replies[2]
    assert "pasta" in which and "egg" in which and which.endswith("Which one?"), replies
    assert replies[3] == "10 minutes left on your pasta timer.", replies
    [answer] = [e for e in run.of("utterance") if "pasta one" in e["text"].lower()]
    assert answer["via"] == "follow_up"

    [reminder] = run.of("reminder_set")
    [due] = run.of("reminder_due")
    assert due["item_id"] == reminder["item_id"] and due["lateness"] == "on_time"
    assert due["t"] - reminder["t"] == pytest.approx(20, abs=0.05)
    assert [e["text"] for e in run.of("announcement")] == ["A reminder: check the oven."]
    [told] = [e for e in run.of("speak_start") if e["text"] == "A reminder: check the oven."]
    assert told["t"] >= due["t"]
    [ended] = [e for e in run.of("ring_end") if e["item_id"] == reminder["item_id"]]
    assert ended["by"] == "said" and ended["t"] >= told["t"]
    assert not ollama.chat_requests(), "all of it on the device, no model"


def test_an_alarm_set_before_the_clocks_go_forward_rings_at_its_local_time_after(hearth, ollama):
    # London, 28 March 2027: at 01:00 GMT the clocks go to 02:00 BST. Set 10 s before, "five past
    # two" is 02:05 BST, 01:05 UTC: 310 s after the start (an hour later if read as GMT).
    room = timeline(silence(1.0), speech("Hey Jarvis, wake me up at five past two."),
                    silence(320.0))  # fmt: skip
    settings = (f"ollama:\n  url: {ollama.url}\nclock:\n  timezone: Europe/London\n"
                "schedule:\n  auto_stop_seconds: 5\n")  # fmt: skip
    run = hearth(room, settings, args=["--start-time", "2027-03-28T00:59:50+00:00"])
    assert run.returncode == 0, run.summary()
    [alarm] = run.of("alarm_set")
    assert alarm["due_at"] == 1_806_195_900  # 2027-03-28T01:05:00Z
    assert run.of("reply")[0]["text"] == "Alarm set for 2:05 AM today."
    [ring] = run.of("ring_start")
    assert ring["t"] == pytest.approx(310.0, abs=0.04)
    assert [e["text"] for e in run.of("announcement")] == ["That was your 2:05 AM alarm."]
