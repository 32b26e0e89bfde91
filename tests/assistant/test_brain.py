"""A turn, without audio: the brain against a real memory and an Ollama-protocol server."""

from __future__ import annotations

import json
import threading
import time
from multiprocessing.connection import wait

import pytest

from assistant.brain import Brain, BrainPolicy
from assistant.brain_worker import BrainWorker, KnownNames, ReplyEnd, SpeakText
from assistant.card_keeper import CardKeeper
from assistant.conversation import ConversationHistory
from assistant.learning import Learner
from assistant.ollama import OllamaClient
from assistant.reply import AwaitAnswer, HeardUtterance, Note, Sentence
from audio.listener import Via
from config import OllamaSettings, packaged_file
from memory import FactStatus, Memory, Origin
from tests.ollama_server import Reply


@pytest.fixture
def server(ollama):
    return ollama


@pytest.fixture
def make_brain(server, tmp_path):
    brains = []

    def make(learn: bool = False, history_chars: int = 6000, ask_again: float = 86400) -> Brain:
        database = tmp_path / "memory.db"
        settings = OllamaSettings(url=server.url)
        learner = (
            Learner(
                lambda: Memory.open(database), lambda: OllamaClient(settings), learn_facts=learn
            )
            if learn or history_chars < 6000
            else None
        )
        brain = Brain(
            Memory.open(database),
            OllamaClient(settings),
            CardKeeper(packaged_file("personality.yaml")),
            ConversationHistory(history_chars, compaction=True),
            learner,
            BrainPolicy(ask_again_seconds=ask_again),
        )
        brains.append(brain)
        return brain

    yield make
    for brain in brains:
        if brain.learner is not None:
            brain.learner.close()
        brain.memory.close()


def say(brain: Brain, text: str, scores: dict[str, float] | None = None) -> list:
    return list(brain.respond(HeardUtterance(text, Via.FOLLOW_UP, 1.0, scores or {})))


def spoken(parts: list) -> list[str]:
    return [part.text for part in parts if isinstance(part, Sentence)]


def start_conflict(brain: Brain) -> list:
    say(brain, "Remember that my favourite editor is Vim")
    return say(brain, "Remember that my favourite editor is Emacs")


def statuses(brain: Brain) -> dict[str, FactStatus]:
    return {fact.text: fact.status for fact in brain.memory.facts(include_all=True)}


def test_a_new_conflict_is_asked_in_the_same_turn_with_its_answers(make_brain):
    brain = make_brain()
    parts = start_conflict(brain)
    assert spoken(parts) == [
        "Earlier you told me your favourite editor is Vim; now you say Emacs. Which one is current?"
    ]
    awaited = [part for part in parts if isinstance(part, AwaitAnswer)]
    assert awaited[0].phrases["older"] == "Vim" and awaited[0].phrases["newer"] == "Emacs"
    assert set(awaited[0].hotwords) == {"Vim", "Emacs"}


@pytest.mark.parametrize(
    ("answer", "scores", "expected"),
    [
        ("Emacs.", None, {"Vim": FactStatus.SUPERSEDED, "Emacs": FactStatus.ACTIVE}),
        ("The old one.", None, {"Vim": FactStatus.ACTIVE, "Emacs": FactStatus.SUPERSEDED}),
        # tiny.en's "See you next." for Piper's "Emacs.": the audio scores decide.
        ("See you next.", {"older": -3.3, "newer": -0.5, "both": -5.7, "unsure": -3.2},
         {"Vim": FactStatus.SUPERSEDED, "Emacs": FactStatus.ACTIVE}),
        ("Both are true.", None, {"Vim": FactStatus.ACTIVE, "Emacs": FactStatus.ACTIVE}),
    ],
)  # fmt: skip
def test_the_spoken_answer_resolves_the_conflict(make_brain, answer, scores, expected):
    brain = make_brain()
    start_conflict(brain)
    parts = say(brain, answer, scores)
    assert spoken(parts) and brain.pending_question is None
    found = {text.split()[-1]: status for text, status in statuses(brain).items()}
    assert found == expected
    conflicts = brain.memory.conflicts()
    assert conflicts == []  # answered: no open conflict is left either way


def test_not_sure_leaves_the_conflict_open(make_brain):
    brain = make_brain()
    start_conflict(brain)
    assert spoken(say(brain, "I'm not sure.")) == ["Okay, I'll ask you another time."]
    assert len(brain.memory.conflicts()) == 1 and brain.pending_question is None


def test_another_request_instead_of_an_answer_is_answered_and_the_conflict_stays(
    make_brain, server
):
    brain = make_brain()
    start_conflict(brain)
    parts = say(brain, "What is the capital of Kenya?")
    assert any(isinstance(p, Note) and p.event == "conflict_unanswered" for p in parts)
    assert spoken(parts)[0].startswith("You asked: What is the capital of Kenya")
    assert len(brain.memory.conflicts()) == 1


def test_a_recalled_conflict_is_asked_again_at_most_once_per_period(make_brain, server):
    brain = make_brain(ask_again=3600)
    start_conflict(brain)
    brain._pending = None  # the question went unanswered (silence)
    question = "Which editor should I use for this file?"
    # Just asked: the reply does not ask again, but the prompt carries the notice.
    assert not any("Which one is current" in s for s in spoken(say(brain, question)))
    system = server.chat_requests()[-1]["messages"][0]["content"]
    assert "Ask the user which is current" in system
    # An hour later it is asked again, once.
    for fact in brain.memory.facts():
        brain.memory.store._db.execute(
            "UPDATE facts SET last_asked_at = last_asked_at - 7200 WHERE id = ?", (fact.id,)
        )
    assert any("Which one is current" in s for s in spoken(say(brain, question)))
    assert not any("Which one is current" in s for s in spoken(say(brain, question)))


def test_local_commands_remember_recall_and_forget_without_the_model(make_brain, server):
    brain = make_brain()
    assert spoken(say(brain, "Remember that my sister lives in Madrid.")) == [
        "Okay, I'll remember that your sister lives in Madrid."
    ]
    assert spoken(say(brain, "Remember that my sister lives in Madrid")) == [
        "I know. Your sister lives in Madrid."
    ]
    recalled = spoken(say(brain, "What do you remember about my sister?"))
    assert recalled == ["Here's what I remember.", "Your sister lives in Madrid."]
    assert spoken(say(brain, "Forget that my sister lives in Madrid.")) == [
        "Okay, I've forgotten that your sister lives in Madrid."
    ]
    assert brain.memory.facts() == []
    assert spoken(say(brain, "Forget that I own a boat.")) == [
        "I don't remember anything like that."
    ]
    assert server.chat_requests() == []


def test_facts_are_learned_after_the_reply_with_the_users_words_as_evidence(make_brain, server):
    release = threading.Event()

    def extract(request):
        release.wait(10)  # extraction is slow: the reply must not wait for it
        said = json.loads(request["messages"][-1]["content"])["user_said"]
        facts = [
            {"statement": "My dog is called Rex", "kind": "person", "evidence": "my dog Rex"},
            {"statement": "I hate rain", "kind": "preference", "evidence": "I hate rain"},
        ]
        assert "my dog Rex" in said
        return Reply(text=json.dumps({"facts": facts}))

    server.background = extract
    brain = make_brain(learn=True)
    started = time.monotonic()
    parts = say(brain, "I walked my dog Rex this morning, what a day.")
    assert spoken(parts)  # the reply came while extraction still waits
    assert time.monotonic() - started < 5
    release.set()
    assert brain.learner.wait_idle(20)
    facts = brain.memory.facts()
    assert [f.text for f in facts] == ["My dog is called Rex"]  # "I hate rain" was never said
    assert facts[0].source.origin is Origin.EXTRACTED
    assert facts[0].source.evidence == "my dog Rex"
    # The next turn hands over a note of what was learned.
    notes = [p for p in say(brain, "Thanks.") if isinstance(p, Note) and p.event == "memory"]
    assert notes and notes[0].fields["learned"] is True


def test_a_long_conversation_is_compacted_by_the_model(make_brain, server):
    brain = make_brain(history_chars=300)
    for n in range(6):
        say(brain, f"Tell me fact number {n} about the moon, please.")
    assert brain.learner.wait_idle(20)
    say(brain, "And one more?")
    assert brain.history.summary == "Earlier they talked briefly."
    summaries = [r for r in server.requests if r.get("stream") is False]
    assert summaries and "Summarise" in summaries[0]["messages"][0]["content"]
    last = server.chat_requests()[-1]["messages"]
    assert "Earlier they talked briefly." in last[0]["content"]
    assert len(last) < 2 * 7 + 2  # older turns were folded into the summary


def test_a_failure_mid_answer_keeps_what_was_said(make_brain, server):
    server.script(Reply(text="Nairobi is the capital. It is big and busy today.", cut_after=5))
    brain = make_brain()
    parts = say(brain, "Tell me about Nairobi.")
    assert spoken(parts) == ["Nairobi is the capital.", "My answer was cut off."]
    assert brain.history.last.assistant == "Nairobi is the capital."
    server.script(Reply(text="It is in Kenya."))
    assert spoken(say(brain, "Where is it?")) == ["It is in Kenya."]


def test_the_worker_wakes_a_waiting_loop_as_soon_as_it_has_output(server, tmp_path):
    def make_brain() -> Brain:  # on the worker's thread, which closes what it opened
        return Brain(
            Memory.open(tmp_path / "memory.db"),
            OllamaClient(OllamaSettings(url=server.url)),
            CardKeeper(packaged_file("personality.yaml")),
            ConversationHistory(6000, compaction=True),
        )

    worker = BrainWorker(make_brain)
    try:
        assert worker.wait_ready(30) and worker.error is None
        # Its first output (the names the memory knows) makes it readable; taking empties it.
        assert wait([worker], 10)
        assert [type(part) for _, part in worker.take()] == [KnownNames]
        assert wait([worker], 0) == []
        worker.ask(7, HeardUtterance("What is the capital of Kenya?"))
        parts = []
        while not any(isinstance(part, ReplyEnd) for part in parts):
            assert wait([worker], 10), "the worker had output and did not say so"
            parts += [part for reply, part in worker.take() if reply == 7]
        assert [part.text for part in parts if isinstance(part, SpeakText)] == [
            "You asked: What is the capital of Kenya.",
            "That is all I know.",
        ]
    finally:
        worker.close()
