"""Memory.correct, on both backends: a misheard fact set right, the misheard wording kept,
conflicts found."""

from __future__ import annotations

import pytest

from memory import Action, FactStatus, HistoryAction, Memory, MemoryInputError, Origin, Source


@pytest.fixture
def memory(new_location):
    memory = Memory.open(new_location())
    yield memory
    memory.close()


def test_a_correction_keeps_the_misheard_wording_in_the_history(memory):
    fact = memory.remember("My dog is called Rax", "person").fact
    source = Source(Origin.USER, utterance="No, I said Rex", evidence="Rex")
    outcome = memory.correct(fact.id, "My dog is called Rex", source)
    assert outcome.action is Action.CORRECTED and outcome.conflicts == ()
    assert outcome.fact.id == fact.id and outcome.fact.text == "My dog is called Rex"
    assert outcome.fact.confirm_count == 1  # a correction is not a confirmation
    assert outcome.fact.source.utterance == "No, I said Rex"
    last = memory.history(fact.id)[-1]
    assert last.action is HistoryAction.CORRECT
    assert last.text == "My dog is called Rex"
    assert last.detail == {"misheard_text": "My dog is called Rax", "kind": "person"}
    # Found by its new words, not by the misheard ones.
    assert memory.find("my dog is called Rex").id == fact.id
    assert [f.text for f in memory.facts()] == ["My dog is called Rex"]


def test_a_correction_can_reveal_a_conflict(memory):
    emacs = memory.remember("My favourite editor is Emacs", "preference").fact
    misheard = memory.remember("Vim is my favourite train", "fact").fact
    outcome = memory.correct(misheard.id, "My favourite editor is Vim", kind="preference")
    assert outcome.action is Action.CONFLICT
    assert [f.id for f in outcome.conflicts] == [emacs.id]
    assert memory.get(emacs.id).conflicts_with == (misheard.id,)
    assert memory.get(misheard.id).status is FactStatus.ACTIVE
    assert memory.get(misheard.id).kind.value == "preference"


def test_only_an_active_fact_can_be_corrected(memory):
    fact = memory.remember("My dog is called Rax").fact
    memory.forget(fact.id)
    with pytest.raises(MemoryInputError, match="forgotten"):
        memory.correct(fact.id, "My dog is called Rex")
    with pytest.raises(MemoryInputError, match="no fact 99"):
        memory.correct(99, "My dog is called Rex")
    live = memory.remember("My cat is called Tom").fact
    with pytest.raises(MemoryInputError, match="empty"):
        memory.correct(live.id, "   ")


def test_a_correction_to_a_fact_already_known_confirms_it_without_a_duplicate(memory):
    known = memory.remember("My cat is called Ingrid", "person").fact
    misheard = memory.remember("My dog is called angry", "person").fact
    outcome = memory.correct(misheard.id, "My cat is called Ingrid", kind="person")
    assert outcome.action is Action.MERGED and outcome.fact.id == known.id
    assert outcome.fact.confirm_count == 2
    assert [f.text for f in memory.facts()] == ["My cat is called Ingrid"]
    assert memory.get(misheard.id).status is FactStatus.SUPERSEDED
    actions = [e.action for e in memory.history(misheard.id)]
    assert actions == [HistoryAction.ADD, HistoryAction.CORRECT, HistoryAction.SUPERSEDE]


def test_a_conflict_over_misheard_words_is_judged_again_on_the_words_meant(memory):
    vim = memory.remember("My favourite editor is Vim", "preference").fact
    misheard = memory.remember("My favourite editor is Enax", "preference")
    assert [f.id for f in misheard.conflicts] == [vim.id]
    # Still a disagreement once set right: the dispute stands and is returned to be asked.
    outcome = memory.correct(misheard.fact.id, "My favourite editor is Emacs")
    assert outcome.action is Action.CONFLICT
    assert [f.id for f in outcome.conflicts] == [vim.id]
    assert memory.get(vim.id).conflicts_with == (misheard.fact.id,)
    assert len(memory.conflicts()) == 1


def test_a_conflict_the_correction_ends_is_unlinked_in_both_histories(memory):
    sister = memory.remember("My sister lives in Madrid", "person").fact
    misheard = memory.remember("My sister lives in Barcelona", "person")  # it was "mister"
    assert [f.id for f in misheard.conflicts] == [sister.id]
    outcome = memory.correct(misheard.fact.id, "My mister lives in Barcelona")
    assert outcome.action is Action.CORRECTED and outcome.conflicts == ()
    assert memory.get(sister.id).conflicts_with == ()
    assert memory.conflicts() == []
    for fact_id, other in ((misheard.fact.id, sister.id), (sister.id, misheard.fact.id)):
        [unlink] = [e for e in memory.history(fact_id) if e.action is HistoryAction.UNLINK]
        assert unlink.other_id == other and unlink.detail == {"reason": "corrected"}


def test_a_disputed_fact_corrected_into_the_one_it_disputed_leaves_no_conflict(memory):
    vim = memory.remember("My favourite editor is Vim", "preference").fact
    misheard = memory.remember("My favourite editor is Vin", "preference")
    assert [f.id for f in misheard.conflicts] == [vim.id]
    outcome = memory.correct(misheard.fact.id, "My favourite editor is Vim")
    assert outcome.action is Action.MERGED and outcome.fact.id == vim.id
    assert memory.conflicts() == [] and memory.get(vim.id).conflicts_with == ()
    assert [f.text for f in memory.facts()] == ["My favourite editor is Vim"]


def test_a_dispute_stands_across_a_change_of_kind_the_correction_makes(memory):
    vim = memory.remember("My favourite editor is Vim", "preference").fact
    misheard = memory.remember("My favourite editor is Enax", "preference")
    outcome = memory.correct(misheard.fact.id, "My favourite editor is Emacs", kind="fact")
    assert outcome.action is Action.CONFLICT and [f.id for f in outcome.conflicts] == [vim.id]
    assert memory.get(vim.id).conflicts_with == (misheard.fact.id,)
