"""Several Hearths, one memory: devices racing to remember, and each one's cache following the
others' writes.

Two processes on two connections remember conflicting facts at the same moment, a hundred times:
every pair ends up linked, never two unlinked copies (the writers' advisory lock serialises them as
``BEGIN IMMEDIATE`` serialises two writers of one SQLite file). The caches: SQLite tells another
connection's commit by ``PRAGMA data_version``; PostgreSQL by ``LISTEN``/``NOTIFY``.
"""

from __future__ import annotations

import itertools
import multiprocessing
import time

import pytest

from config import EmbedderSettings
from memory import Action, Memory, make_embedder
from memory.backends import open_backend
from tests.memory.embed_server import EmbedServer
from tests.memory.test_memory_with_embedder import PARAPHRASES, same_vector_for_paraphrases

RACES = 100
SAME_STATEMENT_RACES = 20
_SYLLABLES = ("ka", "lo", "mi", "ra", "ten", "vo", "shi", "bel", "dor", "an", "ezu", "pi")
FRIENDS = [(a + b).capitalize() for a, b in itertools.permutations(_SYLLABLES, 2)][:RACES]
CITIES = ("Madrid", "Lisbon")


def _device(url: str, side: int, barrier, results) -> None:
    """One Hearth: for each friend, wait for the other device, then remember at once."""
    memory = Memory.open(url)
    for round_number, friend in enumerate(FRIENDS):
        barrier.wait(timeout=60)
        started = time.monotonic()  # CLOCK_MONOTONIC: comparable between processes
        outcome = memory.remember(f"My friend {friend} lives in {CITIES[side]}", "person")
        results.put((round_number, side, outcome.action.value, started, time.monotonic()))
    for round_number in range(SAME_STATEMENT_RACES):
        barrier.wait(timeout=60)
        outcome = memory.remember(f"My friend {FRIENDS[round_number]} drinks green tea", "fact")
        results.put((RACES + round_number, side, outcome.action.value, 0.0, 0.0))
    memory.close()


def race(url: str) -> dict[int, list[tuple[int, str, float, float]]]:
    """Run the two devices; each round's (side, action, start, end), both sides."""
    Memory.open(url).close()  # the tables exist before the race starts
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(2), context.Queue()
    devices = [
        context.Process(target=_device, args=(url, side, barrier, results)) for side in (0, 1)
    ]
    for device in devices:
        device.start()
    rounds: dict[int, list[tuple[int, str, float, float]]] = {}
    for _ in range(2 * (RACES + SAME_STATEMENT_RACES)):
        number, side, action, start, end = results.get(timeout=120)
        rounds.setdefault(number, []).append((side, action, start, end))
    for device in devices:
        device.join(timeout=60)
        assert device.exitcode == 0
    return rounds


def test_two_devices_remembering_conflicting_facts_at_once_are_linked(new_location, backend):
    url = str(new_location())
    rounds = race(url)
    memory = Memory.open(url)
    about = {friend: [] for friend in FRIENDS}
    for fact in memory.facts():
        assert fact.text is not None
        about[fact.text.split()[2]].append(fact)
    linked = 0
    for friend in FRIENDS:
        facts = [fact for fact in about[friend] if "lives in" in fact.text]
        assert len(facts) == 2, f"{friend}: {[f.text for f in facts]}"
        first, second = facts
        linked += first.conflicts_with == (second.id,) and second.conflicts_with == (first.id,)
    assert linked == RACES
    for number in range(RACES):
        assert sorted(action for _, action, _, _ in rounds[number]) == ["added", "conflict"]
    # The same statement from both devices at once is one fact, confirmed twice.
    for number in range(SAME_STATEMENT_RACES):
        assert sorted(action for _, action, _, _ in rounds[RACES + number]) == ["added", "merged"]
        tea = [fact for fact in about[FRIENDS[number]] if "tea" in (fact.text or "")]
        assert len(tea) == 1 and tea[0].confirm_count == 2
    # They did race: in many rounds both devices were inside remember() at the same moment.
    overlapping = sum(
        max(a[2], b[2]) < min(a[3], b[3]) for a, b in (rounds[n] for n in range(RACES))
    )
    print(f"{backend}: {linked} of {RACES} races linked; {overlapping} overlapped in time")
    assert overlapping >= RACES // 10
    memory.close()


def wait_for_change(memory: Memory, version: int) -> int:
    """A change announced by another connection arrives within moments (NOTIFY is sent at the
    other's commit); poll for it, giving up after 10 s."""
    deadline = time.monotonic() + 10
    while memory.store.data_version() == version and time.monotonic() < deadline:
        time.sleep(0.01)
    return memory.store.data_version()


def test_a_device_sees_that_another_committed_and_not_its_own_commits(new_location):
    place = new_location()
    kitchen, living_room = Memory.open(place), Memory.open(place)
    version = kitchen.store.data_version()
    kitchen.remember("I like jazz", "preference")
    assert kitchen.store.data_version() == version  # its own write: nothing to reload
    living_room.remember("I like tea", "preference")
    assert wait_for_change(kitchen, version) != version
    kitchen.close()
    living_room.close()


@pytest.fixture
def embed_server():
    server = EmbedServer().start()
    server.respond = same_vector_for_paraphrases
    yield server
    server.stop()


def test_a_devices_vector_cache_follows_the_others_writes(new_location, embed_server):
    place = new_location()
    embedder = make_embedder(EmbedderSettings(url=embed_server.url, model="all-minilm"))
    kitchen = Memory(open_backend(place), embedder)
    living_room = Memory(open_backend(place), embedder)
    kitchen.remember("My sister Priya lives in Madrid", "person")  # the kitchen's cache is warm
    version = kitchen.store.data_version()

    fact = living_room.remember(PARAPHRASES[0], "fact").fact
    wait_for_change(kitchen, version)
    # No word in common: the kitchen finds the living room's fact by its vector alone.
    recalled = [item.fact.id for item in kitchen.recall(PARAPHRASES[1]).facts]
    assert fact.id in recalled
    merged = kitchen.remember(PARAPHRASES[1], "fact")
    assert merged.action is Action.MERGED and merged.fact.id == fact.id
    kitchen.close()
    living_room.close()
