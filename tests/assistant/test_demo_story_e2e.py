"""The demo's memory story with no hot words, end to end in file mode: real wake word, VAD,
Whisper and Piper, and one of espeak-ng's voices. Without "Vim" in ``stt.hotwords`` tiny.en hears
Piper's "... is Vim." as "... has been"; that statement used to wait the long trailing time, the
next request ("Remember that my favourite editor is Emacs.", said 1.7 s later as in the demo) was
joined to it, and the two were stored as one fact. Now each request is its own, and a statement
whose value was lost is asked about, not stored; and the whole story, conflict and answer, is
heard with no hot words when the lost value is spelled."""

from __future__ import annotations

import re

import numpy as np
import pytest

from memory import FactStatus, Memory
from tests.speech import silence, speech, timeline
from tests.voices import Voice, espeak_available

pytestmark = pytest.mark.slow

ESPEAK = Voice("espeak", "en-us+m1", 1.0, pitch=40)
DEMO_GAP_SECONDS = 1.7
"""The demo's scripted room says its next line this long after the last (as ``hearth demo``
printed it: a pause from 17.9 s to 19.6 s)."""


def stored(db) -> list[str]:
    memory = Memory.open(db)
    try:
        return [fact.text for fact in memory.facts(include_all=True)]
    finally:
        memory.close()


def requests(text: str) -> int:
    return len(re.findall(r"\bremember\b", text, re.I))


@pytest.mark.parametrize(
    ("say", "value_lost"),
    [
        # Piper: "... is Vim." is heard as "... has been" (a value lost, asked about). Its voice
        # with no sampled noise: the same audio whatever ran before in the process.
        (speech, True),
        # espeak-ng: tiny.en hears a wrong name ("win"): stored, to be set right by "No, I
        # said ..."; the story holds only in that each request is heard on its own.
        pytest.param(
            ESPEAK.say,
            False,
            marks=pytest.mark.skipif(not espeak_available(), reason="no espeak-ng"),
        ),
    ],
    ids=["piper", "espeak"],
)
def test_two_facts_said_one_after_the_other_are_two_requests_with_no_hot_words(
    unhinted, say, value_lost
):
    room = timeline(
        silence(1.0),
        say("Hey Jarvis, remember that my favourite editor is Vim."),
        silence(DEMO_GAP_SECONDS),
        say("Remember that my favourite editor is Emacs."),
        silence(9.0),
        say("Emacs."),
        silence(7.0),
    )
    assert room.dtype == np.int16
    run, db = unhinted(room)
    heard = [u["text"] for u in run.of("utterance")]
    assert heard, run.summary()
    # Never two requests in one utterance, and never one stored as a single fact.
    assert all(requests(text) <= 1 for text in heard), run.summary()
    facts = stored(db)
    assert all(requests(text) == 0 for text in facts), (facts, run.summary())
    # A statement whose value was lost is asked about before anything is stored.
    assert not any(text.lower().endswith("been") for text in facts), facts
    if value_lost:
        assert heard[0].rstrip(" .").lower().endswith("has been"), run.summary()
        assert run.of("reply")[0]["text"] == "Your favorite editor is what?", run.summary()
        assert run.of("memory")[0]["action"] == "value_missing", run.summary()


def test_the_whole_conflict_story_with_no_hot_words(unhinted, ollama):
    # Piper's voice with no sampled noise (the same audio whatever ran before). The value lost
    # ("... has been") is asked for and spelled, as a person would when not understood; the
    # second editor is heard, the conflict asked about, and the answer taken.
    room = timeline(
        silence(1.0),
        speech("Hey Jarvis, remember that my favourite editor is Vim."),
        silence(7.0),
        speech("V. I. M."),
        silence(30.0),  # past the follow-up window: the wake word again
        speech("Hey Jarvis, remember that my favourite editor is Emacs."),
        silence(9.0),
        speech("The new one."),
        silence(7.0),
    )
    run, db = unhinted(room)
    assert [r["text"] for r in run.of("reply")] == [
        "Your favorite editor is what?",
        "Okay, I'll remember that your favorite editor is Vim.",
        "Earlier you told me your favorite editor is Vim; now you say Emacs. Which one is current?",
        "Got it: Emacs it is.",
    ], run.summary()
    assert [u["via"] for u in run.of("utterance")] == ["wake", "follow_up", "wake", "follow_up"]
    memory = Memory.open(db)
    try:
        assert [f.text for f in memory.facts()] == ["My favorite editor is Emacs"]
        [vim] = [f for f in memory.facts(include_all=True) if f.text.endswith("Vim")]
        assert vim.status is FactStatus.SUPERSEDED
    finally:
        memory.close()
    assert ollama.chat_requests() == []
