"""The memory's rules through its public API: merge, conflict, resolve, revive, forget, recall,
on both backends (SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest

from memory import (
    CONFLICT_NOTICE,
    Action,
    FactStatus,
    HistoryAction,
    Kind,
    Memory,
    MemoryInputError,
    Origin,
    Source,
)
from memory.backends import open_backend


class Clock:
    """A settable clock, so staleness and history times are tested without waiting."""

    def __init__(self, now: float = 1_700_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def memory(clock, new_location):
    memory = Memory(open_backend(new_location(), clock))
    yield memory
    memory.close()


def test_the_classic_example_is_one_fact_not_two(memory):
    first = memory.remember("I use Postgres", "fact")
    second = memory.remember("Database is Postgres", "fact")
    assert first.action is Action.ADDED
    assert second.action is Action.MERGED
    assert second.fact.id == first.fact.id
    assert second.fact.confirm_count == 2
    assert [f.text for f in memory.facts()] == ["Database is Postgres"]
    # The earlier wording is still in the history.
    texts = [entry.text for entry in memory.history(first.fact.id)]
    assert "I use Postgres" in texts and "Database is Postgres" in texts


def test_a_contradiction_is_kept_and_linked_both_ways(memory):
    vim = memory.remember("My favourite editor is Vim", "preference")
    emacs = memory.remember("My favourite editor is Emacs", "preference")
    assert emacs.action is Action.CONFLICT
    assert [f.id for f in emacs.conflicts] == [vim.fact.id]
    assert emacs.fact.conflicts_with == (vim.fact.id,)
    assert memory.get(vim.fact.id).conflicts_with == (emacs.fact.id,)
    assert len(memory.facts()) == 2
    pairs = memory.conflicts()
    assert len(pairs) == 1 and {pairs[0].older.id, pairs[0].newer.id} == {1, 2}
    actions = [e.action for e in memory.history(vim.fact.id)]
    assert HistoryAction.LINK in actions


def test_word_order_and_numbers_never_merge(memory):
    memory.remember("I like tea more than coffee", "preference")
    outcome = memory.remember("I like coffee more than tea", "preference")
    assert outcome.action is not Action.MERGED
    memory.remember("I wake up at 7am", "routine")
    outcome = memory.remember("I wake up at 6:30am", "routine")
    assert outcome.action is Action.CONFLICT


def test_resolve_supersedes_the_other_and_deletes_nothing(memory):
    vim = memory.remember("My favourite editor is Vim", "preference").fact
    emacs = memory.remember("My favourite editor is Emacs", "preference").fact
    superseded = memory.resolve(emacs.id)
    assert [f.id for f in superseded] == [vim.id]
    assert memory.get(vim.id).status is FactStatus.SUPERSEDED
    assert memory.get(vim.id).text == "My favourite editor is Vim"
    assert memory.get(emacs.id).conflicts_with == ()
    assert memory.conflicts() == []
    assert [f.id for f in memory.facts()] == [emacs.id]
    with pytest.raises(MemoryInputError, match="no open conflict"):
        memory.resolve(emacs.id)


def test_resolve_over_named_facts_leaves_the_other_conflicts_open(memory):
    vim = memory.remember("My favourite editor is Vim", "preference").fact
    emacs = memory.remember("My favourite editor is Emacs", "preference").fact
    nano = memory.remember("My favourite editor is Nano", "preference").fact
    superseded = memory.resolve(emacs.id, over=[vim.id])
    assert [f.id for f in superseded] == [vim.id]
    assert memory.get(nano.id).status is FactStatus.ACTIVE
    assert memory.get(emacs.id).conflicts_with == (nano.id,)
    with pytest.raises(MemoryInputError, match="no such open conflict"):
        memory.resolve(emacs.id, over=[vim.id])  # settled already (in another room, say)


def test_changing_your_mind_back_revives_instead_of_a_third_copy(memory):
    vim = memory.remember("My favourite editor is Vim", "preference").fact
    emacs = memory.remember("My favourite editor is Emacs", "preference").fact
    memory.resolve(emacs.id)
    again = memory.remember("My favourite editor is Vim", "preference")
    assert again.action is Action.REVIVED
    assert again.fact.id == vim.id
    assert again.fact.status is FactStatus.ACTIVE
    # Back to a disagreement between two current facts: asked about, not auto-resolved.
    assert [f.id for f in again.conflicts] == [emacs.id]
    assert len(memory.facts(include_all=True)) == 2


def test_both_clears_the_link_and_keeps_both(memory):
    a = memory.remember("I live in Lisbon", "place").fact
    b = memory.remember("I live in Porto", "place").fact
    kept = memory.keep_both(b.id)
    assert {f.id for f in kept} == {a.id, b.id}
    assert all(f.status is FactStatus.ACTIVE and not f.conflicts_with for f in kept)
    assert memory.recall("where do I live").notice is None


def test_forget_removes_text_everywhere_and_cleans_links(memory):
    vim = memory.remember("My favourite editor is Vim", "preference").fact
    emacs = memory.remember("My favourite editor is Emacs", "preference").fact
    forgotten = memory.forget(vim.id)
    assert forgotten.status is FactStatus.FORGOTTEN and forgotten.text is None
    assert memory.get(emacs.id).conflicts_with == ()
    assert all(entry.text is None for entry in memory.history(vim.id))
    assert all(f.text != "My favourite editor is Vim" for f in memory.facts(include_all=True))
    assert memory.recall("editor").notice is None


def test_a_forgotten_fact_is_not_relearned_from_old_transcripts(memory):
    fact = memory.remember("I smoke", "fact").fact
    memory.forget(fact.id)
    extracted = Source(Origin.EXTRACTED, utterance="yeah I smoke", evidence="I smoke")
    outcome = memory.remember("I smoke", "fact", source=extracted)
    assert outcome.action is Action.IGNORED_FORGOTTEN
    assert memory.facts() == []
    # Told again on purpose by the user, it is remembered.
    again = memory.remember("I smoke", "fact")
    assert again.action is Action.ADDED and again.fact.text == "I smoke"


def test_cross_kind_pair_in_conflict_band_is_a_near_miss_without_notice(memory):
    first = memory.remember("I walk the dog every evening", "routine").fact
    outcome = memory.remember("I walk the dog every morning", "fact")
    assert outcome.action is Action.ADDED
    assert outcome.conflicts == ()
    assert len(outcome.near_misses) == 1
    miss = outcome.near_misses[0]
    assert {miss.fact_id, miss.other_id} == {first.id, outcome.fact.id}
    assert {miss.fact_kind, miss.other_kind} == {Kind.ROUTINE, Kind.FACT}
    assert memory.near_misses(first.id) == [miss]
    assert memory.recall("walk the dog").notice is None


def test_recall_carries_the_notice_for_disputed_facts(memory):
    memory.remember("My favourite editor is Vim", "preference")
    memory.remember("My favourite editor is Emacs", "preference")
    memory.remember("I like jazz", "preference")
    recall = memory.recall("which editor should I open")
    texts = [r.fact.text for r in recall.facts]
    assert "My favourite editor is Vim" in texts and "My favourite editor is Emacs" in texts
    assert recall.notice == CONFLICT_NOTICE


def test_staleness_is_configurable_and_pins_never_go_stale(clock, new_location):
    from memory import RecallPolicy

    memory = Memory(
        open_backend(new_location(), clock), policy=RecallPolicy(stale_after_seconds=10 * 86400)
    )
    memory.remember("I drive a Volvo", "fact")
    memory.remember("My name is Sam", "person", pinned=True)
    clock.now += 11 * 86400
    recall = memory.recall("what car do I drive")
    by_text = {r.fact.text: r for r in recall.facts}
    assert by_text["I drive a Volvo"].stale
    assert not by_text["My name is Sam"].stale  # pinned: recalled always, never stale
    clock.now += 1
    memory.remember("I drive a Volvo", "fact")  # confirmed again: fresh
    assert not memory.recall("what car do I drive").facts[0].stale


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("   \n\t ", "empty"),
        ("x" * 100_000, "at most"),
        ("I like caf\udce9", "UTF-8"),
        (None, "text"),
    ],
    ids=["empty", "blank", "100kB", "invalid-utf8", "not-text"],
)
def test_bad_statements_are_clear_errors_and_change_nothing(memory, text, message):
    with pytest.raises(MemoryInputError, match=message):
        memory.remember(text, "fact")
    assert memory.facts(include_all=True) == []
    assert memory.history() == []


def test_unknown_kind_is_a_clear_error_and_free_form_kinds_are_mapped(memory):
    with pytest.raises(MemoryInputError, match="unknown kind 'xyzzy'"):
        memory.remember("I like jazz", "xyzzy")
    assert memory.remember("I like jazz", "Music Preference").fact.kind is Kind.PREFERENCE


def test_a_failed_comparison_still_stores_the_fact(memory, monkeypatch):
    memory.remember("I like jazz", "preference")

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug in the rules")

    monkeypatch.setattr("memory.facts.judge", broken)
    outcome = memory.remember("I love jazz", "preference")
    assert outcome.action is Action.ADDED
    assert len(memory.facts()) == 2


def test_one_failed_comparison_keeps_what_the_others_found(memory, monkeypatch):
    """A comparison that fails with one stored fact skips that fact only: the conflict found with
    another fact is still linked, and a merge with a third still merges."""
    from memory.judging import judge

    vim = memory.remember("My favourite editor is Vim", "preference").fact
    colour = memory.remember("My favourite colour is blue", "preference").fact

    def broken_for_colour(new_text, new_kind, old_text, *args, **kwargs):
        if old_text == colour.text:
            raise ZeroDivisionError("a bug in the rules")
        return judge(new_text, new_kind, old_text, *args, **kwargs)

    monkeypatch.setattr("memory.facts.judge", broken_for_colour)
    outcome = memory.remember("My favourite editor is Emacs", "preference")
    assert outcome.action is Action.CONFLICT
    assert [fact.id for fact in outcome.conflicts] == [vim.id]
    merged = memory.remember("Vim is my favourite editor", "preference")
    assert merged.action is Action.MERGED and merged.fact.id == vim.id


def test_unknown_ids_are_clear_errors(memory):
    for call in (memory.forget, memory.resolve, memory.get, memory.history):
        with pytest.raises(MemoryInputError, match="no fact 42"):
            call(42)


def test_export_is_complete_and_atomic(memory, tmp_path):
    import json

    memory.remember("I like jazz", "preference")
    path = tmp_path / "export.json"
    path.write_text("old export")
    assert memory.export(path).facts == 1
    document = json.loads(path.read_text())
    assert document["facts"][0]["text"] == "I like jazz"
    assert document["history"][0]["action"] == "add"
    assert [p.name for p in tmp_path.iterdir()] == ["export.json"]  # no temp file left behind
