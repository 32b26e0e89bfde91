"""When the ear gets a fact wrong, end to end: real wake word, VAD, Whisper and Piper in file
mode, with no hot words. Hearth asks for a value it did not catch, and a fact it misheard is set
right by "No, I said ..." in the follow-up window."""

from __future__ import annotations

import pytest

from memory import HistoryAction, Memory
from tests.speech import silence, speech, timeline

pytestmark = pytest.mark.slow


def facts_and_history(db):
    memory = Memory.open(db)
    try:
        facts = memory.facts()
        return facts, {fact.id: memory.history(fact.id) for fact in facts}
    finally:
        memory.close()


@pytest.mark.parametrize(
    ("answer", "value"),
    [
        ("It's Helix.", "Helix"),
        # Spelled: heard freely as "We I am."; read as letters too, it is Vim.
        ("V. I. M.", "Vim"),
    ],
    ids=["said", "spelled"],
)
def test_a_fact_whose_value_was_lost_is_asked_about_and_the_answer_taken(
    unhinted, ollama, answer, value
):
    # tiny.en hears Piper's "... editor is Vim" as "... editor has been": no value at all.
    room = timeline(
        silence(1.0),
        speech("Hey Jarvis, remember that my favourite editor is Vim."),
        silence(7.0),
        speech(answer),
        silence(7.0),
    )
    run, db = unhinted(room)
    replies = [r["text"] for r in run.of("reply")]
    assert replies == [
        "Your favorite editor is what?",
        f"Okay, I'll remember that your favorite editor is {value}.",
    ], run.summary()
    assert [u["via"] for u in run.of("utterance")] == ["wake", "follow_up"]
    facts, _ = facts_and_history(db)
    assert [f.text for f in facts] == [f"My favorite editor is {value}"]
    assert ollama.chat_requests() == []


def test_a_misheard_name_is_corrected_by_no_i_said(hearth, ollama, tmp_path):
    room = timeline(
        silence(1.0),
        # tiny.en hears "... called angry".
        speech("Hey Jarvis, remember that my cat is called Ingrid."),
        silence(8.0),
        # Said another way, as people do when they were misheard.
        speech("No, I said Ingrid, like Ingrid Bergman."),
        silence(7.0),
    )
    db = tmp_path / "memory.db"
    run = hearth(room, f"ollama:\n  url: {ollama.url}\n", db=db)
    assert run.returncode == 0, run.summary()
    replies = [r["text"] for r in run.of("reply")]
    assert replies[-1] == "Sorry about that. Your cat is called Ingrid.", run.summary()
    facts, history = facts_and_history(db)
    assert [f.text for f in facts] == ["My cat is called Ingrid"]
    entries = history[facts[0].id]
    assert [e.action for e in entries] == [HistoryAction.ADD, HistoryAction.CORRECT]
    assert entries[0].text != "My cat is called Ingrid"  # the misheard wording, kept
    assert entries[1].detail["misheard_text"] == entries[0].text


def test_a_newer_value_misheard_in_a_conflict_question_is_spelled_right_there(unhinted, ollama):
    room = timeline(
        silence(1.0),
        speech("Hey Jarvis, remember that my dog is called Max."),
        silence(30.0),
        # tiny.en hears "... called angry": the conflict question names the wrong dog.
        speech("Hey Jarvis, remember that my dog is called Ingrid."),
        silence(9.0),
        speech("I. N. G. R. I. D."),
        silence(9.0),
        speech("The new one."),
        silence(7.0),
    )
    run, db = unhinted(room)
    assert [r["text"] for r in run.of("reply")] == [
        "Okay, I'll remember that your dog is called Max.",
        "Earlier you told me your dog is called Max; now you say angry. Which one is current?",
        "Earlier you told me your dog is called Max; now you say Ingrid. Which one is current?",
        "Got it: Ingrid it is.",
    ], run.summary()
    facts, history = facts_and_history(db)
    assert [f.text for f in facts] == ["My dog is called Ingrid"]
    [correct] = [e for e in history[facts[0].id] if e.action is HistoryAction.CORRECT]
    assert correct.detail["misheard_text"] == "My dog is called angry"
    assert ollama.chat_requests() == []
