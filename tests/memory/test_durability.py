"""Nothing lost, on both backends: random operation sequences, concurrent writers, a process
killed mid-write."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory import Action, Memory, MemoryInputError
from memory.backends import open_backend

STATEMENTS = [
    ("I use Postgres", "fact"),
    ("Database is Postgres", "fact"),
    ("I moved to SQLite", "fact"),
    ("My favourite editor is Vim", "preference"),
    ("My favourite editor is Emacs", "preference"),
    ("I live in Lisbon", "place"),
    ("I live in Porto", "place"),
    ("Lisbon is where I live", "place"),
    ("I like tea more than coffee", "preference"),
    ("I like coffee more than tea", "preference"),
    ("I wake up at 7am", "routine"),
    ("I wake up at 6:30am", "routine"),
    ("I walk the dog every evening", "routine"),
    ("I walk the dog every morning", "fact"),
    ("My brother is called Tom", "person"),
    ("My cousin is called Tom", "person"),
]

operation = st.one_of(
    st.tuples(st.just("remember"), st.sampled_from(range(len(STATEMENTS))), st.booleans()),
    st.tuples(st.just("forget"), st.integers(1, 20), st.just(False)),
    st.tuples(st.just("resolve"), st.integers(1, 20), st.just(False)),
    st.tuples(st.just("both"), st.integers(1, 20), st.just(False)),
)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(operation, max_size=25))
def test_every_text_remembered_and_not_forgotten_can_be_read_back(new_location, operations):
    place = new_location()
    memory = Memory(open_backend(place))
    try:
        _run_and_check(memory, operations)
    finally:
        memory.close()
        new_location.recycle(place)


def _run_and_check(memory: Memory, operations: list[tuple[str, int, bool]]) -> None:
    remembered: dict[int, set[str]] = {}  # fact id -> the wordings that landed in it
    rows_before, history_before = 0, 0
    for name, argument, pinned in operations:
        try:
            if name == "remember":
                text, kind = STATEMENTS[argument]
                outcome = memory.remember(text, kind, pinned=pinned)
                if outcome.action is not Action.IGNORED_FORGOTTEN:
                    remembered.setdefault(outcome.fact.id, set()).add(text)
            elif name == "forget":
                memory.forget(argument)
                remembered.pop(argument, None)
            elif name == "resolve":
                memory.resolve(argument)
            else:
                memory.keep_both(argument)
        except MemoryInputError:
            pass  # an id that does not exist, is not active or has no conflict: refused cleanly
        facts = memory.facts(include_all=True)
        history = memory.history()
        # Rows and history only ever grow.
        assert len(facts) >= rows_before and len(history) >= history_before
        rows_before, history_before = len(facts), len(history)
        readable = {f.text for f in facts if f.text} | {e.text for e in history if e.text}
        for texts in remembered.values():
            assert texts <= readable
        # Links are symmetric and only between active facts.
        by_id = {f.id: f for f in facts}
        for fact in facts:
            for other in fact.conflicts_with:
                assert fact.id in by_id[other].conflicts_with
                assert fact.status.value == "active" == by_id[other].status.value


def _remember_all(path: str, order: list[int], results) -> None:
    memory = Memory.open(path)
    actions = [memory.remember(*STATEMENTS[i]).action.value for i in order]
    memory.close()
    results.put(actions)


def test_two_processes_remembering_at_once_lose_nothing_and_never_duplicate(new_location):
    path = str(new_location())
    Memory.open(path).close()
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    forward = list(range(len(STATEMENTS))) * 2
    workers = [
        context.Process(target=_remember_all, args=(path, order, results))
        for order in (forward, forward[::-1])
    ]
    for worker in workers:
        worker.start()
    outcomes = [results.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(timeout=30)
        assert worker.exitcode == 0
    assert sum(len(actions) for actions in outcomes) == 4 * len(STATEMENTS)

    # The same statements remembered one after another by one process give the same store.
    serial = Memory.open(new_location())
    for i in forward + forward[::-1]:
        serial.remember(*STATEMENTS[i])
    memory = Memory.open(path)
    facts = memory.facts(include_all=True)
    assert len(facts) == len(serial.facts(include_all=True))
    texts = [f.text for f in facts]
    assert len(texts) == len(set(texts)), "the same statement was stored twice"
    assert sum(f.confirm_count for f in facts) == 4 * len(STATEMENTS)


KILL_SCRIPT = textwrap.dedent(
    """
    import sys
    from memory import Memory
    memory = Memory.open(sys.argv[1])
    i = 0
    while True:
        text = f"Locker {i} holds the {['red','blue','green'][i % 3]} bag number {i * 7}"
        outcome = memory.remember(text, "fact")
        print(outcome.fact.id, text, flush=True)
        i += 1
    """
)


def test_a_process_killed_mid_write_loses_nothing_it_acknowledged(new_location, backend):
    path = new_location()
    process = subprocess.Popen(
        [sys.executable, "-c", KILL_SCRIPT, str(path)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))),
    )
    acknowledged = []
    assert process.stdout is not None
    for line in process.stdout:
        fact_id, text = line.rstrip("\n").split(" ", 1)
        acknowledged.append((int(fact_id), text))
        if len(acknowledged) == 60:
            break
    os.kill(process.pid, signal.SIGKILL)
    process.wait()

    if backend == "sqlite":
        with sqlite3.connect(path) as raw:
            assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        raw.close()
    memory = Memory.open(path)
    readable = {(f.id, f.text) for f in memory.facts(include_all=True)}
    readable |= {(e.fact_id, e.text) for e in memory.history()}
    for item in acknowledged:
        assert item in readable
    # And the store still takes writes (on PostgreSQL: the dead writer's lock was let go).
    assert memory.remember("I like jazz", "preference").action is Action.ADDED
    memory.close()
