"""The clock end to end: "what time is it?" said to the real pipeline in file mode, answered from
the audio clock started at ``--start-time``, with the language model unreachable."""

from __future__ import annotations

import pytest

from tests.speech import silence, speech, timeline

pytestmark = pytest.mark.slow

UNREACHABLE = "ollama:\n  url: http://127.0.0.1:9\n  connect_timeout_seconds: 0.5\n"


def test_the_time_and_the_day_are_answered_locally_on_the_recordings_clock(hearth):
    room = timeline(
        silence(1.0),
        speech("Hey Jarvis, what time is it?"),
        silence(6.0),
        speech("What day is it today?"),  # a follow-up, no wake word
        silence(6.0),
    )
    # Half a minute before the clocks go forward in London.
    settings = UNREACHABLE + "clock:\n  timezone: Europe/London\n"
    run = hearth(room, settings, args=("--start-time", "2026-03-29T00:59:00"))
    assert run.returncode == 0, run.summary()
    replies = [reply["text"] for reply in run.of("reply")]
    assert replies == ["It's 12:59 AM.", "It's Sunday, 29 March."], run.summary()
    assert not run.of("error"), run.summary()  # the model was never needed


def test_a_bad_start_time_is_a_plain_error(hearth):
    run = hearth(timeline(silence(1.0)), UNREACHABLE, args=("--start-time", "half past six"))
    assert run.returncode == 2
    assert "--start-time 'half past six': not an ISO 8601 time" in run.stderr
    assert "Traceback" not in run.stderr
