"""The memory with an embedder, on both backends: evidence when both sides have vectors, never a
blocker."""

from __future__ import annotations

import json

import pytest

from config import EmbedderSettings
from memory import Action, Memory, make_embedder
from memory.backends import open_backend
from tests.memory.embed_server import Answer, EmbedServer, wire_answer

PARAPHRASES = ("I am pregnant", "We are expecting a baby")  # no word in common


def same_vector_for_paraphrases(path: str, request: dict) -> Answer:
    """Like a real model, the two paraphrases land on one point (cosine 1)."""
    texts = request["input"] if isinstance(request["input"], list) else [request["input"]]
    vectors = [[1.0, 0, 0, 0, 0, 0, 0, 0] if t in PARAPHRASES else None for t in texts]
    answer = json.loads(wire_answer(path, request).body)
    answer["embeddings"] = [v or w for v, w in zip(vectors, answer["embeddings"], strict=True)]
    return Answer(200, json.dumps(answer).encode())


def failing(path: str, request: dict) -> Answer:
    return Answer(500, b'{"error": "model not loaded"}')


@pytest.fixture
def server():
    with EmbedServer() as server:
        yield server


@pytest.fixture
def memory(server, new_location):
    embedder = make_embedder(EmbedderSettings(url=server.url, model="all-minilm"))
    memory = Memory(open_backend(new_location()), embedder)
    yield memory
    memory.close()


def test_with_vectors_on_both_sides_a_paraphrase_is_one_fact(server, memory):
    server.respond = same_vector_for_paraphrases
    first = memory.remember(PARAPHRASES[0], "fact")
    second = memory.remember(PARAPHRASES[1], "fact")
    # Found as a vector neighbour (no shared word) and merged on the embedder's evidence.
    assert second.action is Action.MERGED and second.fact.id == first.fact.id


def test_a_fact_stored_without_a_vector_is_judged_by_words_only(server, memory):
    server.respond = failing
    first = memory.remember(PARAPHRASES[0], "fact")  # the embedder is down: stored plainly
    assert first.action is Action.ADDED
    server.respond = same_vector_for_paraphrases
    second = memory.remember(PARAPHRASES[1], "fact")
    # A partial index must not decide anything: the old fact has no vector, so no cosine.
    assert second.action is Action.ADDED and second.conflicts == ()
    assert len(memory.facts()) == 2


def test_an_embedder_that_fails_never_blocks_a_write(server, memory):
    server.respond = failing
    assert memory.remember("I use Postgres", "fact").action is Action.ADDED
    assert memory.remember("Database is Postgres", "fact").action is Action.MERGED
    # The seed's own change: written, and found to dispute the database by words alone.
    assert memory.remember("I moved to SQLite", "fact").action is Action.CONFLICT
    assert memory.recall("which database do I use").facts  # recall works without vectors too


def test_an_unreachable_embedder_never_blocks_a_write(new_location):
    embedder = make_embedder(EmbedderSettings(url="http://127.0.0.1:9", model="all-minilm",
                                              timeout_seconds=0.5))  # fmt: skip
    memory = Memory(open_backend(new_location()), embedder)
    assert memory.remember("I like jazz", "preference").action is Action.ADDED
    memory.close()
