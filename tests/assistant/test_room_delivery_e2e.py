"""A reminder asked for in one room and meant for another, end to end with two real ``hearth run``
processes in file mode on one PostgreSQL household (the room's clock is the household's: each
recording begins at a moment given by ``--start-time``). The living room's Hearth is known to
the household once it has run; the kitchen's takes "remind me in the living room to ..." and
confirms it for that room; later, over the same minutes of the household's clock, only the
living room says it, once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory import Memory
from tests.hearth_run import run_in_room
from tests.speech import silence, speech, timeline

pytestmark = pytest.mark.slow

START = datetime(2026, 3, 2, 18, 0, 0, tzinfo=UTC)


def test_a_reminder_set_in_the_kitchen_for_the_living_room_is_said_only_there(
    ollama, postgres_databases, tmp_path
):
    url = postgres_databases()
    Memory.open(url).close()  # the household's memory exists before either device starts

    def run(room: str, audio, seconds_after_start: float):
        moment = START + timedelta(seconds=seconds_after_start)
        return run_in_room(tmp_path, room, audio, ollama.url, url, moment)

    run("living room", silence(2.0), 0)  # the household now knows a Hearth in the living room
    request = "Hey Jarvis, remind me in the living room to water the plants in two minutes."
    asked = run("kitchen", timeline(silence(1.0), speech(request), silence(8.0)), 10)
    [reminder] = asked.of("reminder_set")
    assert reminder["room"] == "living room", asked.summary()
    [reply] = [e["text"] for e in asked.of("reply")]
    assert reply.startswith("Okay, I'll remind you in the living room to water the plants at")
    due_after = reminder["due_at"] - START.timestamp()  # seconds into the household's evening
    assert 130 < due_after < 140, reminder

    # Both Hearths hear the same minutes of the evening, past the reminder's time.
    later = 60.0
    kitchen = run("kitchen", silence(due_after - later + 20), later)
    assert kitchen.of("reminder_due") == [] and kitchen.of("announcement") == [], kitchen.summary()
    living = run("living room", silence(due_after - later + 20), later)
    [due] = living.of("reminder_due")
    assert due["item_id"] == reminder["item_id"], living.summary()
    assert due["t"] == pytest.approx(due_after - later, abs=0.1)
    assert [e["text"] for e in living.of("announcement")] == ["A reminder: water the plants."]
    [told] = [e for e in living.of("speak_start") if e["text"] == "A reminder: water the plants."]
    assert abs(living.said_at(told["t"], 1.0)).max() > 1000  # it was heard on the speaker

    # Said once: the living room's next run, later still, says nothing of it.
    again = run("living room", silence(5.0), due_after + 30)
    assert again.of("reminder_due") == [] and again.of("announcement") == [], again.summary()
    assert not ollama.chat_requests(), "all of it on the devices, no model"
