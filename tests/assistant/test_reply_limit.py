"""The spoken budget of a reply, as pure arithmetic on sentences."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from assistant.reply_limit import SpokenBudget


def test_sentences_within_the_budget_are_said_whole():
    budget = SpokenBudget(60)
    assert budget.take("Nairobi is the capital.") == "Nairobi is the capital."
    assert budget.take("It is busy.") == "It is busy."
    assert not budget.exhausted


def test_the_sentence_that_crosses_the_budget_is_cut_after_a_whole_word():
    budget = SpokenBudget(41)
    assert budget.take("Nairobi is the capital.") == "Nairobi is the capital."
    assert budget.take("It sits on a high plateau, far from the sea.") == "It sits on a high"
    assert SpokenBudget(16).take("It sits on a high plateau.") == "It sits on a"
    assert budget.exhausted
    assert budget.take("Another.") is None


def test_a_cut_that_leaves_no_word_says_nothing_more():
    budget = SpokenBudget(5)
    assert budget.take("Extraordinarily long word.") is None
    assert budget.exhausted


@given(
    sentences=st.lists(st.text(alphabet="ab ,.", min_size=1, max_size=50), max_size=30),
    limit=st.integers(1, 200),
)
def test_never_more_than_the_budget_and_only_whole_words(sentences, limit):
    budget = SpokenBudget(limit)
    said = [part for s in sentences if (part := budget.take(s)) is not None]
    assert sum(len(part) for part in said) <= limit
    for sentence, part in zip(sentences, said, strict=False):
        assert sentence.startswith(part)
        splits_a_word = part[-1:].isalnum() and sentence[len(part) : len(part) + 1].isalnum()
        assert not splits_a_word
