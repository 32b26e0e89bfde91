"""Choosing what to recall: relevance, pins, staleness, the budget and the conflict notice."""

from __future__ import annotations

from memory.kinds import Kind
from memory.model import Fact, FactStatus, Source
from memory.recall import CONFLICT_NOTICE, RecallPolicy, choose_recall

DAY = 86400.0
NOW = 1_000 * DAY


def fact(fact_id, text, *, confirmed_days_ago=1.0, pinned=False, conflicts=()):
    confirmed = NOW - confirmed_days_ago * DAY
    return Fact(
        id=fact_id,
        text=text,
        kind=Kind.FACT,
        status=FactStatus.ACTIVE,
        created_at=confirmed,
        updated_at=confirmed,
        confirmed_at=confirmed,
        confirm_count=1,
        pinned=pinned,
        source=Source(),
        conflicts_with=tuple(conflicts),
    )


POLICY = RecallPolicy(budget_chars=400, max_facts=5, stale_after_seconds=30 * DAY)


def test_most_relevant_first_and_no_notice_without_conflicts():
    recall = choose_recall(
        [(fact(1, "I like jazz"), 0.2), (fact(2, "My editor is Vim"), 0.9)], NOW, POLICY
    )
    assert [r.fact.id for r in recall.facts] == [2, 1]
    assert recall.notice is None
    assert CONFLICT_NOTICE not in recall.render()


def test_pinned_facts_rank_first_and_never_go_stale():
    pinned = fact(1, "My name is Sam", pinned=True, confirmed_days_ago=900)
    relevant = fact(2, "My editor is Vim")
    recall = choose_recall([(pinned, 0.0), (relevant, 0.9)], NOW, POLICY)
    assert [r.fact.id for r in recall.facts] == [1, 2]
    assert not recall.facts[0].stale


def test_stale_facts_rank_lower_but_are_never_dropped():
    old = fact(1, "I drive a Volvo", confirmed_days_ago=400)
    fresh = fact(2, "I drive to work on Mondays", confirmed_days_ago=2)
    recall = choose_recall([(old, 0.8), (fresh, 0.5)], NOW, POLICY)
    assert [r.fact.id for r in recall.facts] == [2, 1]
    assert recall.facts[1].stale
    assert "possibly out of date" in recall.render()


def test_a_disputed_fact_brings_its_partner_and_the_notice():
    vim = fact(1, "My favourite editor is Vim", conflicts=[2])
    emacs = fact(2, "My favourite editor is Emacs", conflicts=[1])
    jazz = fact(3, "I like jazz")
    recall = choose_recall([(vim, 0.9), (jazz, 0.5), (emacs, 0.1)], NOW, POLICY)
    assert [r.fact.id for r in recall.facts] == [1, 2, 3]
    assert recall.notice == CONFLICT_NOTICE
    assert recall.render().endswith(CONFLICT_NOTICE)
    assert all(r.disputed for r in recall.facts[:2])


def test_the_budget_and_count_are_respected():
    facts = [(fact(i, f"Fact number {i} is a fairly long sentence about things"), 1 - i / 100)
             for i in range(1, 40)]  # fmt: skip
    recall = choose_recall(facts, NOW, POLICY)
    assert len(recall.facts) <= POLICY.max_facts
    assert sum(len(r.line()) + 1 for r in recall.facts) <= POLICY.budget_chars
    tight = choose_recall(facts, NOW, RecallPolicy(budget_chars=120, max_facts=50))
    assert 1 <= len(tight.facts) < 5


def test_forgotten_facts_are_never_recalled():
    gone = Fact(**{**fact(1, "x").__dict__, "text": None, "status": FactStatus.FORGOTTEN})
    assert choose_recall([(gone, 1.0)], NOW, POLICY).facts == ()
