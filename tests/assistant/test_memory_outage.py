"""A Hearth whose shared memory database goes down: it keeps answering, says so once per outage,
refuses aloud what needs the memory, and is back to its memory when the database is.

The brain runs on a real PostgreSQL server killed with ``pg_ctl stop -m immediate``.
"""

from __future__ import annotations

import json
import re
import time

import psycopg
import pytest

from assistant.brain import Brain, BrainPolicy
from assistant.card_keeper import CardKeeper
from assistant.conversation import ConversationHistory
from assistant.learning import Learner
from assistant.memory_reach import MemoryReach, Reach
from assistant.ollama import OllamaClient
from assistant.reply import HeardUtterance, Note, Sentence
from audio import Via
from audio.stt import SpeechToText
from config import OllamaSettings, SpeechToTextSettings, packaged_file
from memory import Memory, MemoryUnavailable, PostgresTarget
from tests.ollama_server import Reply
from tests.speech import silence, speech, timeline

REFUSED = "I can't reach my memory right now, so I can't remember that."
WITHOUT = "I can't reach my memory right now, so I'll answer without it."


def test_an_outage_is_news_once_and_again_only_after_the_memory_came_back():
    reach = MemoryReach()
    assert reach.state is Reach.REACHED and not reach.reached()
    assert reach.lost() and not reach.lost() and not reach.lost()
    assert reach.state is Reach.LOST
    assert reach.reached() and not reach.reached()
    assert reach.lost()


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def say(brain: Brain, text: str) -> list:
    return list(brain.respond(HeardUtterance(text, Via.WAKE, 1.0)))


def spoken(parts: list) -> list[str]:
    return [part.text for part in parts if isinstance(part, Sentence)]


def notes(parts: list, event: str) -> list[Note]:
    return [part for part in parts if isinstance(part, Note) and part.event == event]


@pytest.fixture
def shared_brain(ollama, postgres_server, postgres_databases):
    """``make(learn=False)``: a brain on a fresh shared database (retrying every 0.2 s), and
    its URL; the server is started again after the test if the test left it down."""
    made: list[Brain] = []

    def make(learn: bool = False) -> tuple[Brain, str]:
        url = postgres_databases()
        target = PostgresTarget(url, retry_seconds=0.2)
        settings = OllamaSettings(url=ollama.url)
        learner = (
            Learner(
                lambda: Memory.open(target, wait=False),
                lambda: OllamaClient(settings),
                learn_facts=True,
            )
            if learn
            else None
        )
        brain = Brain(
            Memory.open(target, wait=False),
            OllamaClient(settings),
            CardKeeper(packaged_file("personality.yaml")),
            ConversationHistory(6000, compaction=True),
            learner,
            BrainPolicy(),
        )
        made.append(brain)
        return brain, url

    yield make
    try:
        with postgres_server.admin():
            pass
    except psycopg.OperationalError:  # left down by the test
        postgres_server.start()
    for brain in made:
        if brain.learner is not None:
            brain.learner.close()
        brain.memory.close()


def wait_until_reachable(memory: Memory) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            memory.facts()
            return
        except MemoryUnavailable:
            assert time.monotonic() < deadline, "the memory never came back"
            time.sleep(0.1)


def test_down_it_answers_without_recall_says_so_once_and_refuses_to_remember_aloud(
    shared_brain, ollama, postgres_server
):
    brain, url = shared_brain()
    assert spoken(say(brain, "Remember that my sister lives in Madrid.")) == [
        "Okay, I'll remember that your sister lives in Madrid."
    ]
    postgres_server.crash()

    ollama.script(Reply(text="Madrid is sunny today."), Reply(text="It is Tuesday."))
    first = say(brain, "Where does my sister live?")
    assert spoken(first) == [WITHOUT, "Madrid is sunny today."]
    assert len(notes(first, "memory_unreachable")) == 1
    second = say(brain, "What day is it?")
    assert spoken(second) == ["It is Tuesday."]  # said once, not once per turn
    assert notes(second, "memory_unreachable") == []
    prompts = [request["messages"][0]["content"] for request in ollama.chat_requests()]
    assert len(prompts) == 2 and not any("Madrid" in prompt for prompt in prompts)

    for _ in range(2):  # refused every time: a request that did nothing says so
        refused = say(brain, "Remember that my favourite colour is green.")
        assert spoken(refused) == [REFUSED]
        assert notes(refused, "memory")[0].fields["action"] == "refused"
    assert spoken(say(brain, "Forget that my sister lives in Madrid.")) == [
        "I can't reach my memory right now, so I can't forget that."
    ]
    assert spoken(say(brain, "What do you remember about my sister?")) == [
        "I can't reach my memory right now, so I can't tell you what I remember."
    ]
    assert brain.reach.state is Reach.LOST

    postgres_server.start()
    wait_until_reachable(Memory.open(url))  # another connection: the brain's stays untouched
    time.sleep(0.3)  # past the brain's own retry pause
    ollama.script(Reply(text="She lives in Madrid."), Reply(text="Still Tuesday."))
    back = say(brain, "Where does my sister live?")
    assert spoken(back) == ["She lives in Madrid."] and len(notes(back, "memory_back")) == 1
    assert "Madrid" in ollama.chat_requests()[-1]["messages"][0]["content"]  # recalled again
    # Nothing refused was kept anywhere: the memory holds what was acknowledged, and only that.
    assert [fact.text for fact in brain.memory.facts()] == ["My sister lives in Madrid"]

    postgres_server.crash()  # lost again: told again
    assert spoken(say(brain, "What day is it?")) == [WITHOUT, "Still Tuesday."]


def test_down_the_learner_keeps_nothing_it_cannot_store(shared_brain, ollama, postgres_server):
    def extract(request):
        facts = [{"statement": "My dog is called Rex", "kind": "person", "evidence": "my dog Rex"}]
        return Reply(text=json.dumps({"facts": facts}))

    ollama.background = extract
    brain, url = shared_brain(learn=True)
    brain.memory.facts()  # connected and migrated while the database is up
    postgres_server.crash()
    ollama.script(Reply(text="Sounds lovely."))
    assert spoken(say(brain, "I walked my dog Rex this morning.")) == [WITHOUT, "Sounds lovely."]
    assert brain.learner is not None and brain.learner.wait_idle(20)
    ollama.script(Reply(text="You're welcome."))
    later = say(brain, "Thanks.")
    assert [note.fields["action"] for note in notes(later, "memory")] == ["not_learned"]

    postgres_server.start()
    memory = Memory.open(url)
    wait_until_reachable(memory)
    assert memory.facts() == []  # not acknowledged, and not held back to be written later
    memory.close()


@pytest.mark.slow
def test_a_hearth_started_with_its_database_down_answers_and_refuses_to_remember_aloud(
    hearth, ollama, postgres_server, postgres_databases
):
    url = postgres_databases()
    memory = Memory.open(url)
    memory.remember("My sister Priya lives in Madrid", "person")
    memory.close()
    ollama.script(Reply(text="It is sunny in Madrid today."))
    room = timeline(
        silence(1.0),
        speech("Hey Jarvis, remember that my favourite colour is green."),
        silence(8.0),
        speech("Hey Jarvis, what is the weather like?"),
        silence(10.0),
    )
    postgres_server.crash()
    try:
        settings = f"ollama:\n  url: {ollama.url}\nhousehold:\n  room: hearth-alone\n"
        run = hearth(room, settings, db=url)
    finally:
        postgres_server.start()
    assert run.returncode == 0, run.summary()
    assert "Traceback" not in run.stderr, run.stderr

    assert [u["via"] for u in run.of("utterance")] == ["wake", "wake"]
    # It could not reach the other Hearths either: it answered by itself, every time.
    assert [e["winner"] for e in run.of("wake_alone")] == ["hearth-alone"] * 2
    assert len(run.of("memory_unreachable")) == 1
    refused = [e for e in run.of("memory") if e.get("action") == "refused"]
    assert [e["request"] for e in refused] == ["remember that"]
    requests = ollama.chat_requests()  # the question was answered, without recall
    assert len(requests) == 1 and "Madrid" not in requests[0]["messages"][0]["content"]

    stt = SpeechToText(SpeechToTextSettings())
    starts = run.of("speak_start")
    refusal = set(words(stt.transcribe(run.said_at(starts[0]["t"], 5.0)).text))
    assert {"can't", "reach", "memory", "remember"} <= refusal, refusal
    answer = set(words(stt.transcribe(run.said_at(starts[-1]["t"], 4.0)).text))
    assert {"sunny", "today"} <= answer, answer

    memory = Memory.open(url)  # nothing was kept to be written later
    assert [fact.text for fact in memory.facts()] == ["My sister Priya lives in Madrid"]
    memory.close()
