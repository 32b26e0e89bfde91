"""Choosing which facts go into a prompt: relevance, pins, staleness, a budget, the notice.

Pure: it is given facts with their relevance and the time, and returns what to recall.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from memory.model import Fact

CONFLICT_NOTICE = (
    "Some facts conflict with each other. "
    "Ask the user which is current instead of asserting either."
)
STALE_WEIGHT = 0.5
"""A fact unconfirmed for the stale period ranks as if half as relevant: lower, never dropped."""
PIN_BONUS = 1.0


@dataclass(frozen=True)
class RecallPolicy:
    """How much to recall and when a fact counts as possibly out of date."""

    budget_chars: int = 1200
    max_facts: int = 12
    stale_after_seconds: float = 180 * 86400


@dataclass(frozen=True)
class RecalledFact:
    """A fact chosen for the prompt, with what the prompt must say about it."""

    fact: Fact
    relevance: float
    stale: bool
    disputed: bool

    @property
    def notes(self) -> str:
        """What a reader must know about the fact, e.g. "(conflicts with another fact)", or ""."""
        notes = []
        if self.disputed:
            notes.append("conflicts with another fact")
        if self.stale:
            notes.append("possibly out of date")
        return f" ({'; '.join(notes)})" if notes else ""

    def line(self) -> str:
        """The fact as one line of a list."""
        return f"- {self.fact.text}{self.notes}"


@dataclass(frozen=True)
class Recall:
    """What memory contributes to one prompt."""

    facts: tuple[RecalledFact, ...]
    notice: str | None

    def render(self) -> str:
        """The facts as prompt lines, followed by the conflict notice when there is one."""
        lines = [recalled.line() for recalled in self.facts]
        if self.notice:
            lines.append(self.notice)
        return "\n".join(lines)

    def to_json(self) -> dict[str, object]:
        """JSON-ready form for the command line."""
        return {
            "facts": [
                {**item.fact.to_json(), "stale": item.stale, "disputed": item.disputed}
                for item in self.facts
            ],
            "notice": self.notice,
        }


def is_stale(fact: Fact, now: float, policy: RecallPolicy) -> bool:
    """True when a fact has gone unconfirmed for the stale period; pinned facts never go stale."""
    return not fact.pinned and now - fact.confirmed_at >= policy.stale_after_seconds


def choose_recall(
    candidates: Iterable[tuple[Fact, float]], now: float, policy: RecallPolicy
) -> Recall:
    """Rank candidate (fact, relevance) pairs and keep what fits the budget.

    Pinned facts rank first, stale ones lower; a fact with no relevance is left out unless pinned.
    A disputed fact brings its conflict partner (when it is a candidate) right after it, so the
    model sees both sides of the disagreement.
    """
    best: dict[int, tuple[Fact, float]] = {}
    for fact, relevance in candidates:
        if fact.text is None:
            continue
        if fact.id not in best or relevance > best[fact.id][1]:
            best[fact.id] = (fact, relevance)

    def rank(item: tuple[Fact, float]) -> float:
        fact, relevance = item
        weight = STALE_WEIGHT if is_stale(fact, now, policy) else 1.0
        return relevance * weight + (PIN_BONUS if fact.pinned else 0.0)

    ordered = sorted(best.values(), key=lambda item: (-rank(item), -item[0].confirmed_at))
    chosen: list[RecalledFact] = []
    used = 0
    taken: set[int] = set()
    for fact, relevance in ordered:
        if relevance <= 0 and not fact.pinned:
            continue  # unrelated: recalled only as the other side of a disputed fact
        group = [(fact, relevance)] + [
            best[other] for other in fact.conflicts_with if other in best and other not in taken
        ]
        for member, member_relevance in group:
            if member.id in taken or len(chosen) >= policy.max_facts:
                continue
            recalled = RecalledFact(
                member, member_relevance, is_stale(member, now, policy), bool(member.conflicts_with)
            )
            cost = len(recalled.line()) + 1
            if used + cost > policy.budget_chars:
                continue
            chosen.append(recalled)
            taken.add(member.id)
            used += cost
    disputed = any(item.disputed for item in chosen)
    return Recall(tuple(chosen), CONFLICT_NOTICE if disputed else None)
