"""A routine from the settings, end to end in file mode on the audio clock: its prompt goes to
the model through the brain worker at its time and the answer is said; a model server that is
down is tried again on the retry policy's backoff, and said once when the window is over."""

from __future__ import annotations

import pytest

from tests.ollama_server import Reply
from tests.speech import silence, timeline

pytestmark = pytest.mark.slow

START = ["--start-time", "2027-01-15T07:59:55+00:00"]  # a Friday; the routine is due 5 s in
ROUTINE = "Give me something encouraging"


def settings(ollama, window: float = 900.0) -> str:
    return (
        f"ollama:\n  url: {ollama.url}\nclock:\n  timezone: UTC\n"
        "schedule:\n  routine_retry_first_seconds: 4\n"
        f"  routine_retry_window_seconds: {window}\n"
        f"  routines:\n    - prompt: {ROUTINE}\n      at: '08:00'\n      days: weekdays\n"
    )


def test_a_routine_whose_model_is_down_at_first_is_tried_again_and_said_once(hearth, ollama):
    ollama.script(Reply(status=503, error="model is loading"), Reply(text="You have got this."))
    run = hearth(timeline(silence(25.0)), settings(ollama), args=START, timeout=150)
    assert run.returncode == 0, run.summary()
    [added] = run.of("routine_set")
    [ran] = run.of("routine_run")
    assert ran["item_id"] == added["item_id"] and 4.9 <= ran["t"] <= 5.1, ran
    [retry] = run.of("routine_retry")
    assert retry["failed"] == 1
    said = [e["text"] for e in run.of("announcement")]
    assert said == ["You have got this."], run.summary()
    [told] = [e for e in run.of("speak_start") if e["text"] == "You have got this."]
    assert told["t"] - ran["t"] == pytest.approx(4.0, abs=0.2)  # the backoff's first pause
    assert [e["by"] for e in run.of("ring_end")] == ["run"]
    asked = [r for r in ollama.chat_requests() if r["messages"][-1]["content"] == ROUTINE]
    assert len(asked) == 2


def test_a_routine_whose_model_stays_down_is_said_once_to_have_failed(hearth, ollama):
    ollama.responder = lambda request: Reply(status=503, error="model is loading")
    run = hearth(timeline(silence(30.0)), settings(ollama, window=10.0), args=START, timeout=150)
    assert run.returncode == 0, run.summary()
    said = [e["text"] for e in run.of("announcement")]
    assert len(said) == 1 and said[0].startswith(f"I couldn't do your routine, {ROUTINE}"), said
    [failed] = run.of("routine_failed")
    assert failed["failed"] == len(run.of("routine_retry")) + 1 >= 2
