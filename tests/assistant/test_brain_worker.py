"""The brain worker's reports through a real brain and an Ollama-protocol server: progress for
each piece of the model's stream, a stuck turn left behind without waiting, a brain that cannot be
built said so, and ``brain_hang`` armed per brain generation."""

from __future__ import annotations

import time
from functools import partial
from multiprocessing.connection import wait

import pytest

from assistant.brain import Brain
from assistant.brain_worker import BrainFailed, BrainWorker, Progress, ReplyEnd, SpeakText
from assistant.composition import build_brain
from assistant.reply import HeardUtterance
from config import ConversationSettings, OllamaSettings, Settings
from support import FailpointError
from tests.ollama_server import Reply, tool_call


@pytest.fixture
def make_brain(ollama, tmp_path):
    """The factory ``hearth run`` gives the worker (no learner: nothing in the background)."""
    settings = Settings(
        ollama=OllamaSettings(url=ollama.url),
        conversation=ConversationSettings(learn_facts=False, compaction=False),
    )
    return partial(build_brain, settings, tmp_path / "memory.db", None)


def parts_of(worker: BrainWorker, reply: int, timeout: float = 10.0) -> list[object]:
    """Everything the worker said about ``reply`` until its end."""
    parts: list[object] = []
    deadline = time.monotonic() + timeout
    while not any(isinstance(part, ReplyEnd) for part in parts):
        assert wait([worker], deadline - time.monotonic()), parts
        parts += [part for number, part in worker.take() if number == reply]
    return parts


def test_every_piece_of_the_models_stream_is_reported_before_its_sentence(ollama, make_brain):
    ollama.script(Reply(pieces=["Nairobi ", "is ", "the ", "capital. ", "It ", "is ", "big."]))
    worker = BrainWorker(make_brain, environ={})
    try:
        worker.ask(1, HeardUtterance("What is the capital of Kenya?"))
        kinds = [type(part).__name__ for part in parts_of(worker, 1)]
    finally:
        worker.close()
    # Four pieces make the first sentence, three the second: progress comes as each arrives.
    assert kinds[:5] == ["Progress"] * 4 + ["SpeakText"]
    assert kinds.count("Progress") == 7 and kinds.count("SpeakText") == 2


def test_brain_hang_hangs_the_nth_turn_of_the_armed_generations_only(ollama, make_brain):
    first = BrainWorker(make_brain, generation=0, environ={"HEARTH_FAILPOINTS": "brain_hang@2"})
    later = BrainWorker(make_brain, generation=1, environ={"HEARTH_FAILPOINTS": "brain_hang@2"})
    try:
        first.ask(1, HeardUtterance("One?"))
        assert any(isinstance(part, SpeakText) for part in parts_of(first, 1))
        first.ask(2, HeardUtterance("Two?"))
        time.sleep(1.0)
        assert [p for n, p in first.take() if n == 2] == []  # hung: nothing, not even progress
        later.ask(2, HeardUtterance("Two?"))  # a new brain answers it
        assert any(isinstance(part, SpeakText) for part in parts_of(later, 2))
    finally:
        began = time.monotonic()
        first.close(timeout=0)  # never waits for a stuck turn
        assert time.monotonic() - began < 1.0
        assert first.alive  # still stuck, closed: it shuts its brain down if it ever returns
        first.close(timeout=0)  # twice is harmless
        later.close()
    assert not later.alive


def test_a_brain_that_cannot_be_built_is_reported_as_such(tmp_path):
    message = f"{tmp_path}/memory.db: not a SQLite database"

    def broken() -> Brain:
        raise OSError(message)

    worker = BrainWorker(broken, environ={})
    try:
        assert worker.wait_ready(10)
        assert wait([worker], 10)
        assert list(worker.take()) == [
            (0, BrainFailed(f"{tmp_path}/memory.db: not a SQLite database"))
        ]
    finally:
        worker.close()


def test_a_typo_in_the_failpoints_is_refused_before_any_thread_starts(make_brain):
    with pytest.raises(FailpointError, match="unknown failpoint 'brain_hnag'"):
        BrainWorker(make_brain, environ={"HEARTH_FAILPOINTS": "brain_hnag"})


def test_progress_is_a_report_of_its_own(ollama, make_brain):
    # A turn answered locally (no model) makes no model progress, only its parts.
    worker = BrainWorker(make_brain, environ={})
    try:
        worker.ask(1, HeardUtterance("Remember that my sister Priya lives in Madrid."))
        parts = parts_of(worker, 1)
    finally:
        worker.close()
    assert not any(isinstance(part, Progress) for part in parts)
    assert ollama.chat_requests() == []


def test_a_withdrawn_turn_says_nothing_and_the_request_heard_whole_is_answered(ollama, make_brain):
    # A model slow to begin, as on a Pi; the speaker goes on while it thinks.
    ollama.script(Reply(text="Sunny.", delay_first=30.0), Reply(text="Rain in Paris tomorrow."))
    worker = BrainWorker(make_brain, environ={})
    try:
        worker.ask(1, HeardUtterance("What's the weather like?"))
        until = time.monotonic() + 10.0
        while not worker.withdraw(1):  # refused while the turn prepares, before the model
            assert time.monotonic() < until
            time.sleep(0.005)
        worker.ask(2, HeardUtterance("What's the weather like in Paris tomorrow?"))
        taken: list[tuple[int, object]] = []
        until = time.monotonic() + 10.0  # the first turn's model would answer after 30 s
        while not any(number == 2 and isinstance(part, ReplyEnd) for number, part in taken):
            assert wait([worker], until - time.monotonic()), taken
            taken += worker.take()
    finally:
        worker.close()
    parts = [part for number, part in taken if number == 2]
    first = [part for number, part in taken if number == 1]
    assert [part.text for part in parts if isinstance(part, SpeakText)] == [
        "Rain in Paris tomorrow."
    ]
    assert not any(isinstance(part, (SpeakText, ReplyEnd)) for part in first)
    asked = [request["messages"][-1]["content"] for request in ollama.chat_requests()]
    assert asked == ["What's the weather like?", "What's the weather like in Paris tomorrow?"]
    assert not worker.withdraw(2)  # answered: there is nothing to take back


def test_a_turn_whose_model_has_acted_is_not_taken_back(ollama, make_brain):
    # The model sets the timer first, then is slow to say so: a speaker going on then must not
    # have the timer set twice, so the turn runs to its end.
    eggs = tool_call("set_timer", seconds=420, name="eggs")
    ollama.script(Reply(tool_calls=[eggs]), Reply(text="Your eggs timer is set.", delay_first=2.0))
    worker = BrainWorker(make_brain, environ={})
    try:
        worker.ask(1, HeardUtterance("Give me a shout when the eggs are done.", t=3.0))
        until = time.monotonic() + 10.0
        while len(ollama.chat_requests()) < 2:  # the timer is set; the model is asked again
            assert time.monotonic() < until
            time.sleep(0.005)
        assert not worker.withdraw(1)
        parts = parts_of(worker, 1)
    finally:
        worker.close()
    assert [part.text for part in parts if isinstance(part, SpeakText)] == [
        "Your eggs timer is set."
    ]
