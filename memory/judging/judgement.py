"""The outcome of comparing a new fact with a stored one."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Relation(StrEnum):
    """How a new fact relates to a stored one, and so what the store does with it."""

    SAME = "same"
    """The same fact said again: merge into the stored fact (one fact, not two)."""
    CONFLICT = "conflict"
    """Both cannot be current: keep both, link them, ask the user which is current."""
    NEAR_MISS = "near_miss"
    """Would be a conflict, but the kinds differ: keep an auditable record, no notice."""
    DISTINCT = "distinct"
    """Unrelated or compatible: store the new fact on its own."""


@dataclass(frozen=True)
class Judgement:
    """A decision about one pair of facts, with the evidence behind it."""

    relation: Relation
    score: float
    """The similarity the decision rests on, 0 to 1: the cosine when it decided, else lexical."""
    lexical: float
    """Share of content terms the two facts have in common (synonyms and broader terms count)."""
    cosine: float | None
    """The embedder's cosine for the pair, or None when either side had no vector."""
    reason: str
    """A short explanation for people ("number differs: 1 / 2", "different subject: ...")."""
