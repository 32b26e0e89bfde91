"""Matching terms of two facts: equal words, prefixes, broader terms, and differing values."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from memory.judging import lexicon
from memory.judging.terms import Term, TermKind
from memory.judging.words import clock_agrees

if TYPE_CHECKING:  # a reading is only passed through; reading imports the subject, which matches
    from memory.judging.reading import Reading

PREFIX_MIN_CHARS = 5
"""Two words match when the shorter, at least this long, starts the longer (postgres/postgresql)."""

INDEX_KEY_CHARS = 4
"""Index keys are word beginnings this long, so words that match always share a key."""


def agrees_text(first: str, second: str) -> bool:
    """Equal, or the shorter starts the longer: postgres/postgresql, and a doer and the deed
    ("play" / "player", "teach" / "teacher")."""
    if first == second:
        return True
    if first[:1] != second[:1]:
        return False  # the common case, answered before any slicing
    shorter, longer = (first, second) if len(first) <= len(second) else (second, first)
    if not shorter.isalpha() or not longer.startswith(shorter):
        return False
    if longer[len(shorter)] == "-":
        return False  # a word of its own joined on: "mother" / "mother-in-law"
    agent = longer[len(shorter) :] in _AGENT_ENDINGS and len(shorter) >= INDEX_KEY_CHARS
    return len(shorter) >= PREFIX_MIN_CHARS or agent


_AGENT_ENDINGS = frozenset(("er", "ers"))

_EXACT_KINDS = frozenset((TermKind.NUMBER, TermKind.TIME))


def agrees(term: Term, other: Term) -> bool:
    """The same term: equal numbers, compatible clock times, or words per ``agrees_text``."""
    if term.kind in _EXACT_KINDS or other.kind in _EXACT_KINDS:
        if term.kind is TermKind.TIME and other.kind is TermKind.TIME:
            return clock_agrees(term.text, other.text)
        return term.text == other.text
    return (
        agrees_text(term.text, other.text)
        and not _another_name(term, other)
        and not _compound(term, other)
        and not _place_and_word(term, other)
        and not _place_and_word(other, term)
    )


def _compound(term: Term, other: Term) -> bool:
    """A word and a longer one it starts, with a word's worth after it: "butter" /
    "buttermilk", "cheese" / "cheesecake", "bread" / "breadcrumbs" are two things; "postgres" /
    "postgresql" (two letters on) is one. Names are left to ``_another_name``."""
    if term.kind is not TermKind.WORD or other.kind is not TermKind.WORD:
        return False
    shorter, longer = sorted((term.text, other.text), key=len)
    rest = longer[len(shorter) :]
    # Terms are stemmed: "insuranc", "refundabl" end without their "e".
    ending = rest in _WORD_ENDINGS or rest + "e" in _WORD_ENDINGS
    return longer.startswith(shorter) and len(rest) >= 3 and not ending


_WORD_ENDINGS = frozenset(
    "ion ions tion ity ities able ably ible ance ence ancy ency ment ments ness ical ive ing "
    "ings ers ist ists ism ful fully less al ally ial ous ously ely ily ery ary ory ise ize "
    "ised ized".split()
)
"""What makes another form of one word ("collect" / "collection", "electric" / "electricity",
"refund" / "refundable"), not another word ("butter" / "buttermilk")."""


def _another_name(term: Term, other: Term) -> bool:
    """Two given names one ending apart, where either is a name: "Louis" / "louise",
    "Michael" / "michaela", "Gabriel" / "gabrielle" are two people, not one word inflected."""
    if TermKind.NAME not in (term.kind, other.kind):
        return False
    first, second = _name_letters(term.surface), _name_letters(other.surface)
    shorter, longer = sorted((first, second), key=len)
    return (
        shorter != longer
        and longer.startswith(shorter)
        and longer[len(shorter) :] in (_NAME_ENDINGS)
    )


def _place_and_word(place: Term, word: Term) -> bool:
    """A place named with a capital after "in" or "at", against the same letters said as a
    plain word with no preposition: "Our wedding was in Nice" / "our wedding was nice", "Dad is
    in Reading" / "dad's reading"."""
    return (
        place.kind is TermKind.NAME
        and place.certain
        and place.slot in ("in", "at")
        and word.kind is TermKind.WORD
        and not word.maybe_name
        and not word.slot
        and not word.in_subject
    )


def _name_letters(surface: str) -> str:
    return surface.lower().removesuffix("'s")  # tokenize has made every apostrophe straight


_NAME_ENDINGS = frozenset(("e", "a", "le", "ne", "na", "ie", "ette", "son", "on"))
"""What makes another name of one: Louis-e, Michael-a, Gabriel-le, Jo-anne, Richards-on,
Parker-son (not "s": a transcript writes "Tom's" as "toms", "St Mary's" as "st marys")."""


def related(term: Term, other: Term) -> bool:
    """The same word, or one a kind of the other (dog and pet)."""
    return (
        agrees(term, other)
        or term.text in lexicon.ancestors(other.text)
        or other.text in lexicon.ancestors(term.text)
    )


def covered(term: Term, others: Sequence[Term]) -> bool:
    """Whether another fact says this term, itself or through a narrower word (wine: alcohol)."""
    for other in others:
        if agrees(term, other):
            return True
        parents = lexicon.HYPERNYMS.get(other.text)
        if parents is not None and term.text in parents:
            return True
    return False


def unmatched(terms: Sequence[Term], others: Sequence[Term], other: Reading) -> tuple[Term, ...]:
    """Terms the other side does not say; a state counts as said when the other side negates
    everything it implies ("vegetarian" / "I don't eat meat"). A number said again is said
    again only if the other side says it as often ("six foot six" / "six foot")."""
    said: Counter[str] = Counter()
    left = []
    for term in terms:
        if term.kind is TermKind.NUMBER:
            said[term.text] += 1
            times = sum(1 for o in others if o.kind is TermKind.NUMBER and agrees(term, o))
            if times and said[term.text] > times:
                left.append(term)
                continue
        if not covered(term, others) and not implied_by_negations(term, other):
            left.append(term)
    return tuple(left)


def implied_by_negations(term: Term, other: Reading) -> bool:
    """ "vegetarian" against "I don't eat meat": the other side negates all the state means."""
    if term.text not in lexicon.DEFINED_BY_NEGATION or not other.negated:
        return False
    implied = lexicon.IMPLIED_NEGATIONS[term.text]
    return all(
        any(agrees_text(word, negated.text) for negated in other.negated) for word in implied
    )


def is_generic(term: Term) -> bool:
    """A broad word ("music", "food") that adds nothing when only one side says it."""
    return term.kind is TermKind.WORD and term.text in lexicon.GENERIC


def plain_words(terms: Sequence[Term]) -> tuple[Term, ...]:
    """The words among the terms that are neither values nor broad words."""
    return tuple(term for term in terms if term.kind is TermKind.WORD and not is_generic(term))


def values(terms: Sequence[Term]) -> tuple[Term, ...]:
    """Names, numbers, times and group members among the terms."""
    return tuple(term for term in terms if term.is_value)


def significant(terms: Sequence[Term]) -> bool:
    """Whether any term says more than a broad word."""
    return any(not is_generic(term) for term in terms)


def value_differences(
    new_only: Sequence[Term], old_only: Sequence[Term]
) -> list[tuple[str, tuple[Term, ...], tuple[Term, ...]]]:
    """Values of one type that each side has and the other lacks: (label, new, old)."""
    differences = []
    for kind, label in ((TermKind.NUMBER, "number"), (TermKind.TIME, "time")):
        new = tuple(term for term in new_only if term.kind is kind)
        old = tuple(term for term in old_only if term.kind is kind)
        if new and old:
            differences.append((label, new, old))
    groups = {group for term in new_only for group in term.groups}
    for group in sorted(groups & {group for term in old_only for group in term.groups}):
        new = tuple(term for term in new_only if group in term.groups)
        old = tuple(term for term in old_only if group in term.groups)
        # A Honda and a Toyota are both cars: no difference in how one travels.
        if {member(term, group) for term in new} != {member(term, group) for term in old}:
            differences.append((group.removeprefix("pair-"), new, old))
    new_names = _names(new_only, old_only)
    old_names = _names(old_only, new_only)
    if new_names and old_names:
        differences.append(("name", new_names, old_names))
    return differences


def _names(terms: Sequence[Term], others: Sequence[Term]) -> tuple[Term, ...]:
    """The names among one side's terms; a word written small where a name stands counts when
    the other side has a name ("in manchester" / "to Leeds")."""
    names = tuple(term for term in terms if term.kind is TermKind.NAME)
    if names or not any(term.kind is TermKind.NAME for term in others):
        return names
    return tuple(term for term in terms if term.maybe_name)


def slots_meet(new: Sequence[Term], old: Sequence[Term]) -> bool:
    """Whether some value of each side fills the same slot (or one says no preposition)."""
    return any(not a.slot or not b.slot or a.slot == b.slot for a in new for b in old)


def member(term: Term, group: str) -> str:
    """The member of the group a term stands for: itself, or what it is a kind of."""
    if group in lexicon.groups_of(term.text):
        return term.text
    parents = sorted(p for p in lexicon.ancestors(term.text) if group in lexicon.groups_of(p))
    return parents[0] if parents else term.text


def overlap(new: Sequence[Term], old: Sequence[Term]) -> float:
    """Share of both facts' terms that the other fact covers (0 when either is empty)."""
    if not new or not old:
        return 0.0
    said = sum(covered(term, old) for term in new) + sum(covered(term, new) for term in old)
    return said / (len(new) + len(old))


def surfaces(terms: Iterable[Term]) -> str:
    """The terms as the user wrote them, for a reason; "-" for none."""
    return " ".join(term.surface for term in terms) or "-"
