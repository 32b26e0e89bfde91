"""Judging one pair of facts, the candidate index keys that go with it, and cosine bands.

``judge`` reads both facts (``reading``), compares the readings (``comparison``) and lets a cosine
from an embedder add evidence within the bands of its model; ``index_keys`` files a fact so that
whatever ``judge`` would not call distinct shares a key with it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from memory.judging import lexicon
from memory.judging.comparison import compare
from memory.judging.judgement import Judgement, Relation
from memory.judging.matching import INDEX_KEY_CHARS
from memory.judging.reading import read
from memory.judging.terms import Term, TermKind
from memory.kinds import Kind


@dataclass(frozen=True)
class CosineBands:
    """Cosine thresholds for one embedding model."""

    merge: float
    """At or above: a paraphrase (merged only when nothing lexical differs)."""
    conflict: float
    """At or above: related enough that a lexical difference is a disagreement."""


# all-MiniLM-L6-v2, measured on the labelled pairs (bench/memory_quality.py): for the pairs the
# lexical rules leave open, its cosine does not tell a paraphrase from a one-word substitution
# ("I call my mom / my dad on Sundays" 0.88, "I rent / own my apartment" 0.90, true paraphrases
# 0.64 to 0.85), so it merges only near-identical wording; typed differences (a day, a name, a
# negation) between facts above 0.80 were disagreements. nomic-embed-text scores unrelated text
# higher (about 0.4 to 0.5), so its bands sit higher; they are not measured here.
_KNOWN_BANDS: dict[str, CosineBands] = {
    "all-minilm": CosineBands(merge=0.95, conflict=0.80),
    "nomic-embed-text": CosineBands(merge=0.97, conflict=0.88),
}

_MODEL_ALIASES = {"all-minilm-l6-v2": "all-minilm", "all-minilm-l12-v2": "all-minilm"}

_DEFAULT_BANDS = CosineBands(merge=0.98, conflict=0.90)
"""For an unknown model: merge only on near-identical vectors, rarely confirm a conflict."""


def cosine_bands(
    model: str, merge: float | None = None, conflict: float | None = None
) -> CosineBands:
    """The cosine bands for a model ("all-minilm:l6-v2", "nomic-embed-text"), each overridable.

    Raises ValueError when a band is outside 0..1 or the conflict band is above the merge band.
    """
    name = model.strip().lower().rsplit("/", 1)[-1]
    name = _MODEL_ALIASES.get(name, name)
    known = _KNOWN_BANDS.get(name) or _KNOWN_BANDS.get(name.split(":", 1)[0]) or _DEFAULT_BANDS
    bands = CosineBands(
        merge=known.merge if merge is None else merge,
        conflict=known.conflict if conflict is None else conflict,
    )
    if not (0.0 <= bands.conflict <= bands.merge <= 1.0):
        raise ValueError(f"cosine bands must satisfy 0 <= conflict <= merge <= 1, got {bands}")
    return bands


def judge(
    new_text: str,
    new_kind: Kind,
    old_text: str,
    old_kind: Kind,
    cosine: float | None = None,
    bands: CosineBands | None = None,
) -> Judgement:
    """Decide how a new fact relates to a stored one.

    ``cosine`` is the embedder's similarity for the pair, or None when either side has no vector
    (then the decision is lexical alone, and a conflict is never made up from a missing vector).
    ``bands`` defaults to the conservative bands for an unknown model.
    """
    new, old = read(new_text), read(old_text)
    verdict = compare(new, old)
    lexical = verdict.lexical
    relation, reason, score = verdict.relation, verdict.reason, lexical
    if cosine is not None and relation is Relation.DISTINCT:
        bands = bands or _DEFAULT_BANDS
        if not verdict.merge_veto and cosine >= bands.merge:
            relation, reason, score = Relation.SAME, f"paraphrase (cosine {cosine:.2f})", cosine
        elif verdict.hint and cosine >= bands.conflict:
            reason = f"{verdict.hint} in related facts (cosine {cosine:.2f})"
            relation, score = Relation.CONFLICT, cosine
    if relation is Relation.CONFLICT and new_kind != old_kind:
        relation, reason = Relation.NEAR_MISS, f"{reason}; kinds differ: {new_kind} / {old_kind}"
    return Judgement(relation, round(score, 4), round(lexical, 4), cosine, reason)


def index_keys(text: str) -> frozenset[str]:
    """Keys under which a candidate index files a fact.

    Whenever ``judge`` (with no cosine) finds two facts anything but distinct, they share a key:
    every content word gives its first four letters (so equal words and prefix matches meet),
    broader terms give theirs (wine files under "alco" too), exclusive groups give a group key,
    and a fact about a relative a holder key. Numbers and times file under their value types.
    A person's name said beside their relation ("my friend Alice") is a key too: it is the
    rarest word such facts share, so among many "my friend X lives in Y" the right X is found.
    """
    reading = read(text)
    keys: set[str] = set()
    words = 0
    for term in reading.content:
        if term.kind in (TermKind.NUMBER, TermKind.TIME):
            # A bare value ("Not at 7am") can dispute a worded fact ("Dentist at 7am"): both file
            # under the value's type. Such keys are common; the store weighs them by rarity.
            keys.update(f"~{group}" for group in _types(term))
            continue
        words += term.kind is not TermKind.GROUP and term.text not in lexicon.GENERIC
        keys.add(_key(term.text))
        specific = [group for group in term.groups if group not in lexicon.SLOT_GROUPS]
        keys.update(f"#{group}" for group in specific)
        if not term.groups or specific:
            keys.update(_key(parent) for parent in lexicon.ancestors(term.text))
    if reading.subject.name:
        keys.add(_key(reading.subject.name))
    if not words:
        keys.update(f"~{group}" for term in reading.content for group in _types(term))
        keys.add("~")
    return frozenset(keys)


def _key(text: str) -> str:
    return text[:INDEX_KEY_CHARS]


def _types(term: Term) -> Iterable[str]:
    return term.groups if term.kind is TermKind.GROUP else (term.kind.value,)
