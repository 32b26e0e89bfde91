"""Two Hearths, one memory, end to end: the real ``hearth run`` in file mode (real wake word, VAD,
speech-to-text and Piper) in the kitchen and in the living room, both on one PostgreSQL database.
What the kitchen is told, the living room knows; a contradiction told in the other room is asked
about there, and the answer holds for both."""

from __future__ import annotations

from functools import partial

import pytest

from memory import FactStatus, Memory
from tests.hearth_run import run_hearth
from tests.ollama_server import Reply
from tests.speech import silence, speech, timeline

pytestmark = pytest.mark.slow

# tiny.en hears Piper's "Vim" as "them" or "has been"; the household lists such words.
VOCABULARY = "stt:\n  hotwords: [Vim, Emacs, Priya]\n"


def in_room(server, room: str) -> str:
    return f"ollama:\n  url: {server.url}\nhousehold:\n  room: {room}\n{VOCABULARY}"


def test_what_the_kitchen_is_told_the_living_room_knows(tmp_path, ollama, postgres_databases):
    shared = postgres_databases()
    hearth = partial(run_hearth, tmp_path)
    kitchen = hearth(
        timeline(
            silence(1.0),
            speech("Hey Jarvis, remember that my sister Priya lives in Madrid."),
            silence(6.0),
            speech("Remember that Vim is my favourite editor."),
            silence(8.0),
        ),
        in_room(ollama, "kitchen"),
        db=shared,
    )
    assert kitchen.returncode == 0, kitchen.summary()
    assert len(kitchen.of("memory")) == 2, kitchen.summary()

    ollama.script(Reply(text="Priya lives in Madrid."))
    living_room = hearth(
        timeline(
            silence(1.0),
            speech("Hey Jarvis, where does my sister Priya live?"),
            silence(9.0),
            speech("Remember that Emacs is my favourite editor."),
            silence(12.0),
            speech("Emacs."),
            silence(6.0),
        ),
        in_room(ollama, "living room"),
        db=shared,
    )
    assert living_room.returncode == 0, living_room.summary()
    system = ollama.chat_requests()[0]["messages"][0]["content"]
    assert "Priya lives in Madrid" in system  # recalled from what the kitchen heard
    assert len(living_room.of("conflict_question")) == 1, living_room.summary()

    memory = Memory.open(shared)
    status = {fact.text: fact.status for fact in memory.facts(include_all=True)}
    memory.close()
    assert status["Vim is my favorite editor"] is FactStatus.SUPERSEDED
    assert status["Emacs is my favorite editor"] is FactStatus.ACTIVE
