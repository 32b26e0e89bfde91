"""The event stream's file: one JSON object a line, going on in a new file when the one open is
deleted or replaced while Hearth runs."""

from __future__ import annotations

import json
import logging

from assistant.event_log import EventLog


def lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_deleted_or_rotated_events_file_is_followed_by_name(tmp_path, caplog):
    # Deleted mid-run, every later event went into the deleted file, with no word of it.
    path = tmp_path / "events.jsonl"
    events = EventLog(path)
    events.write({"t": 1.0, "event": "wake"})
    path.unlink()
    with caplog.at_level(logging.WARNING):
        events.write({"t": 2.0, "event": "utterance"})
    assert lines(path) == [{"t": 2.0, "event": "utterance"}]
    assert "deleted or replaced while Hearth ran" in caplog.text
    path.rename(tmp_path / "events.1.jsonl")  # a rotation
    events.write({"t": 3.0, "event": "reply"})
    events.close()
    assert lines(path) == [{"t": 3.0, "event": "reply"}]
    assert events.failure is None
