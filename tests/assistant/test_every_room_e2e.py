"""A reminder for everyone, end to end with real ``hearth run`` processes in file mode on one
PostgreSQL household (each recording begins at a moment of the household's clock given by
``--start-time``): set once in the kitchen, it is one item; the kitchen and the living room each
say it at its time, once; a study whose Hearth first runs after it was due does not say it late;
and once every room has had it, it is done for the household."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import psycopg
import pytest

from memory import Memory
from tests.hearth_run import run_in_room
from tests.speech import silence, speech, timeline

pytestmark = pytest.mark.slow

START = datetime(2026, 3, 2, 18, 0, 0, tzinfo=UTC)
SAID = "A reminder: water the plants."


def test_a_reminder_for_everyone_is_said_once_in_each_room_that_was_there(
    ollama, postgres_databases, tmp_path
):
    url = postgres_databases()
    Memory.open(url).close()  # the household's memory exists before any device starts

    def run(room: str, audio, seconds_after_start: float):
        moment = START + timedelta(seconds=seconds_after_start)
        return run_in_room(tmp_path, room, audio, ollama.url, url, moment)

    run("living room", silence(2.0), 0)  # the household now knows a Hearth in the living room
    request = "Hey Jarvis, remind everyone to water the plants in two minutes."
    asked = run("kitchen", timeline(silence(1.0), speech(request), silence(8.0)), 10)
    [reminder] = asked.of("reminder_set")  # one item, not a copy per room
    assert reminder["room"] == "*", asked.summary()
    [reply] = [e["text"] for e in asked.of("reply")]
    assert reply.startswith("Okay, I'll remind everyone in every room to water the plants at")
    due_after = reminder["due_at"] - START.timestamp()
    assert 130 < due_after < 140, reminder

    # The study's Hearth first runs half a minute after it was due: no old announcement.
    study = run("study", silence(5.0), due_after + 30)
    assert study.of("reminder_due") == [] and study.of("missed") == [], study.summary()
    assert study.of("announcement") == [], study.summary()

    # The kitchen and the living room hear the same minutes of the evening: each says it once.
    later = 60.0
    for room in ("kitchen", "living room"):
        heard = run(room, silence(due_after - later + 20), later)
        [due] = heard.of("reminder_due")
        assert due["item_id"] == reminder["item_id"], heard.summary()
        assert due["t"] == pytest.approx(due_after - later, abs=0.1)
        assert [e["text"] for e in heard.of("announcement")] == [SAID], heard.summary()
        [told] = [e for e in heard.of("speak_start") if e["text"] == SAID]
        assert abs(heard.said_at(told["t"], 1.0)).max() > 1000  # heard on the speaker

    # Said once: the living room's next run, later still, says nothing of it; and every room
    # has had it, so the household's item is done.
    again = run("living room", silence(5.0), due_after + 30)
    assert again.of("reminder_due") == [] and again.of("announcement") == [], again.summary()
    with psycopg.connect(url) as raw:
        states = raw.execute("SELECT state FROM hearth.schedule_items").fetchall()
    assert states == [("done",)]
    assert not ollama.chat_requests(), "all of it on the devices, no model"
