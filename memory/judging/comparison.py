"""Comparing two readings: the lexical decision, and what a cosine may and may not add to it.

Errors are not equal: a wrong merge loses the user's words, so anything that differs (a number, a
name, a negation, an order, a change word, the subject) vetoes a merge; between the same and a
conflict the comparison says conflict, and between the same and distinct, distinct.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import pairwise

from memory.judging import converse, lexicon, markers, small_words
from memory.judging.judgement import Relation
from memory.judging.matching import (
    agrees,
    covered,
    is_generic,
    overlap,
    plain_words,
    significant,
    slots_meet,
    surfaces,
    unmatched,
    value_differences,
    values,
)
from memory.judging.reading import OBJECT_PRONOUNS, Attitude, Reading, read
from memory.judging.subject import verb_ending
from memory.judging.terms import Term, TermKind, is_known
from memory.judging.words import (
    COPULAS,
    PREPOSITIONS,
    STOP_WORDS,
    SUBJECT_PRONOUNS,
    TIME_PREPOSITIONS,
    stem,
    undashed_digits,
)

MAX_SUBSTITUTED_WORDS = 3
"""A fact with more new words than this is a different fact, not a different value."""


@dataclass(frozen=True)
class Verdict:
    """The lexical decision, with what a cosine may and may not add to it."""

    relation: Relation
    reason: str
    lexical: float
    hint: str = ""
    """A difference too weak to call a conflict alone; a related cosine confirms it."""
    merge_veto: str = ""
    """Why no cosine may turn this pair into a merge."""


def compare(new: Reading, old: Reading) -> Verdict:
    """The lexical decision for a pair of readings, with the hints a cosine may use."""
    subject = (
        new.subject.differs(old.subject, new.content, old.content)
        or _doer_against_setting(new, old)
        or _doer_against_setting(old, new)
    )
    if subject:
        lexical = overlap(new.content, old.content)
        return Verdict(Relation.DISTINCT, subject, lexical, merge_veto=subject)
    pair = _Pair(new, old)
    lexical = pair.overlap()
    if converse.said_from_the_other_side(new.plain, old.plain):
        return Verdict(Relation.SAME, "same relation, said from the other side", lexical)
    conflict = pair.conflict()
    if conflict:
        return Verdict(Relation.CONFLICT, conflict, lexical, merge_veto=conflict)
    if pair.same():
        return Verdict(Relation.SAME, pair.same_reason(), lexical)
    return Verdict(
        Relation.DISTINCT, pair.distinct_reason(), lexical, pair.hint(), pair.merge_veto()
    )


_SETTING_SLOTS = frozenset("in at on during until since".split())
"""Prepositions before where or when something is, not who takes part ("by", "with", "from",
"near": "Mark lives near us" / "we live near Mark")."""
_PLACE_SLOTS = frozenset(("in", "near", "to"))
_TALKING = frozenset(
    "speak spoke speaking talk talked talking chat chatted chatting write wrote writing listen "
    "listened listening say said explain explained reply replied read sing sang wave waved".split()
)
"""Verbs after which "to" names whom, as "with" does ("speak to Mum", "speak with Mum")."""
_DEED_WORDS = frozenset(
    "has have had does did will would can could paid lent sent heard found told held built".split()
)
"""Auxiliaries, and pasts that are neither "-ed" nor in the lexicon's irregular verbs."""


_SPEAKER_PRONOUNS = frozenset(("i", "we", "me", "us"))


def _a_name_given(term: Term, reading: Reading) -> bool:
    """Whether a term stands where "call" puts a name: straight after whom it is given to
    ("call my mum Nana", "calls me Grandad")."""
    before = _token_at(reading, term.at - 1)
    return (
        before in OBJECT_PRONOUNS
        or lexicon.lookup(lexicon.RELATIONS, before, stem(before)) is not None
    )


def _done_to(reading: Reading, other: Reading) -> tuple[str, ...]:
    """Who a fact's object pronouns name, without a "her" that says whose: before a word the
    other fact says after "the", "a" or an owner ("lent me her car" / "lent me the car")."""
    tokens, theirs = reading.said_tokens, other.said_tokens
    owned = {then for first, then in pairwise(theirs) if first in _DETERMINERS}
    whose = sum(
        1 for first, then in pairwise(tokens) if first == "her" and then in owned and then.isalpha()
    )
    done_to = list(reading.done_to)
    for _ in range(min(whose, done_to.count("her"))):
        done_to.remove("her")
    return tuple(done_to)


def _speaker_at(reading: Reading) -> int:
    """The index of the first pronoun that names the speaker (a fact with a role has one)."""
    return next((i for i, word in enumerate(reading.said_tokens) if word in _SPEAKER_PRONOUNS), 0)


_PIVOTS = (
    "than", "above", "below", "under", "underneath", "beneath", "behind", "owe", "top", "love",
    "jealous", "afraid", "scared", "frightened", "proud", "fond", "north", "south", "east",
    "west", "past", "there", "to", "into", "onto",
)  # fmt: skip
"""Words with one side before and another after that are not the same both ways ("I back up
my laptop to the NAS")."""
_TOWARDS = frozenset(("to", "into", "onto"))
_EXCHANGING = frozenset(
    "replace replaced replaces replacing trade traded trades trading exchange exchanged".split()
)
"""Verbs whose "with" or "for" parts the old thing from the new ("replaced butter with
margarine")."""
_SAID_ALIKE = {
    "owes": "owe", "owed": "owe", "loves": "love", "loved": "love", "me": "i", "us": "we",
    "does": "do",
}  # fmt: skip
_SAID_ANYWAY = COPULAS | {"'s", "a", "an", "the", "my", "our", "do", "did"}
"""Words a transcript drops or contracts ("the back door key's older", "than I do")."""


def _said_words(reading: Reading) -> frozenset[str]:
    """The words a fact says, function words too, with a verb's and a pronoun's forms as one
    (but "more than" and "less than" apart: "likes football more than rugby" is "likes rugby
    less than football")."""
    said = (_SAID_ALIKE.get(word, word) for word in reading.said_tokens)
    return frozenset(
        stem(word)
        for word in said
        if word not in _SAID_ANYWAY and any(char.isalnum() for char in word)
    )


def _alike_said(word: str) -> str:
    """A said word as ``_sides`` compares it: "more than" is "than", "owes" is "owe"."""
    return "than" if word.endswith("-than") else _SAID_ALIKE.get(word, word)


def _sides(
    reading: Reading, tokens: Sequence[str], pivot: str
) -> tuple[frozenset[str], frozenset[str]]:
    """What a fact says before and after its ``pivot`` word, found in ``tokens`` (its said
    tokens as ``_alike_said`` reads them): its terms, and the speaker where a pronoun names
    them."""
    at = tokens.index(pivot)
    said = [(term.at, term.text) for term in reading.terms]
    said += [(i, "speaker") for i, word in enumerate(tokens) if word in _SPEAKER_PRONOUNS]
    before = frozenset(text for index, text in said if index < at)
    after = frozenset(text for index, text in said if index > at)
    return before, after


def _speaker_doing(reading: Reading) -> bool | None:
    """Whether the speaker does what the fact says (None when no pronoun tells): "I" in an
    active fact and "me" after a passive's "by" are who does it. A passive elsewhere in the
    fact ("I sold the car that was built by Tom") is not the speaker's."""
    if not reading.speaker_role:
        return None
    return (reading.speaker_role == "subject") != _speaker_passive(reading)


def _speaker_passive(reading: Reading) -> bool:
    """A passive of the speaker's: "I was hired by", "I'm managed by", "... by me"."""
    if not reading.passive:
        return False
    pairs = list(pairwise(reading.said_tokens))
    return any(first in ("i", "we") and then in _PASSIVE_BE for first, then in pairs) or any(
        first == "by" and then in ("me", "us") for first, then in pairs
    )


_PASSIVE_BE = frozenset("am is are was were got get been".split())


def _doer_against_setting(doing: Reading, other: Reading) -> str:
    """ "Sydney had a heart scan" / "I had a heart scan in Sydney", "bill paid for my glasses" /
    "i paid the bill for my glasses": a word that opens one fact as who did something (a name
    that is also a place, a month or a thing) and is where or when, or a thing, straight after
    its preposition or article in a fact about the speaker."""
    said, other_said = doing.said_tokens, other.said_tokens
    if len(said) < 2 or not other_said or other_said[0] not in SUBJECT_PRONOUNS:
        return ""
    if not _a_deed(said[1]) and not (said[1] in COPULAS and said[2:3] and _ongoing(said[2])):
        return ""  # "Lisbon is where I live", "boiler service is ...": no one did anything
    doer = next((t for t in doing.terms if t.at == 0 and not t.slot), None)
    if doer is None or doer.text in _RELATIVES or doer.kind is TermKind.NUMBER:
        return ""
    if doer.surface.lower().endswith("s"):
        return ""  # "Bins go out on Tuesday" / "we put the bins out": things, not a name
    for term in other.terms:
        before = other_said[term.at - 1] if term.at else ""
        after_preposition = term.slot in _SETTING_SLOTS and before == term.slot
        setting = after_preposition or (not term.slot and before == "the")
        if setting and agrees(doer, term):
            return f"different subject: {doer.surface} / I ({before} {term.surface})"
    return ""


def _ongoing(word: str) -> bool:
    """ "having" in "Sydney is having a hip replacement": a deed under way."""
    return word.endswith("ing") and len(word) > 4


def _a_deed(word: str) -> bool:
    """Whether a word after a fact's first one says what was done: an auxiliary or a verb's
    ending ("has", "paid", "sorts"), not "is" nor a second noun."""
    if word in COPULAS:
        return False
    if word in _DEED_WORDS or word in lexicon.IRREGULAR or word in lexicon.IRREGULAR_PAST:
        return True
    return word.isalpha() and verb_ending(word, past_from=4)


class _Pair:
    """Two readings of the same subject, aligned term by term."""

    def __init__(self, new: Reading, old: Reading) -> None:
        self.new, self.old = new, old
        # Two negative facts compare everything they say; otherwise the positive parts compare
        # and negation is weighed on its own.
        both_negative = bool(new.negated) and bool(old.negated)
        self.new_side = new.content if both_negative else new.terms
        self.old_side = old.content if both_negative else old.terms
        self.new_only = unmatched(self.new_side, self.old_side, old)
        self.old_only = unmatched(self.old_side, self.new_side, new)
        self.shared = (
            len(self.new_side) - len(self.new_only) + len(self.old_side) - len(self.old_only)
        )
        # Who the facts are about beyond the speaker: one relative, or none. The holders differ
        # only when one fact introduces the relative the other is about ("I have a cat named
        # Luna" / "My cat is called Luna"); then both facts are about it.
        self.relatives = frozenset(reading.subject.relative for reading in (new, old)) - {""}
        # What both say beyond who it is about ("brother" in two facts about a brother).
        self.shared_keyed = any(
            term.kind not in _UNKEYED and term.text not in self.relatives and term not in only
            for side, only in ((self.new_side, self.new_only), (self.old_side, self.old_only))
            for term in side
        )
        self.new_words = plain_words(self.new_only)
        self.old_words = plain_words(self.old_only)
        self.differences = value_differences(self.new_only, self.old_only)

    def overlap(self) -> float:
        """Share of the compared terms that the other side covers."""
        total = len(self.new_side) + len(self.old_side)
        return self.shared / total if total else 0.0

    # Conflicts -------------------------------------------------------------------------------

    def conflict(self) -> str:
        """The reason the two facts disagree, or "" when they do not."""
        if {self.new.attitude, self.old.attitude} == {Attitude.WISH, Attitude.STATE}:
            return ""  # "I want a Tesla" does not dispute "I drive a BMW"
        if self._direction_clash():
            return ""  # "we fly to Lisbon on the 3rd" / "we fly back from Lisbon on the 17th"
        reason = (
            self._order()
            or _compared_otherwise(self.new, self.old)
            or (self._nothing_else() and _lists_paired_otherwise(self.new, self.old))
            or self._sequence()
            or _clauses_traded(self.new, self.old)
            or _denied_in_turn(self.new, self.old)
            or self._markers()
            or self._bounds()
            or _denied_there(self.new, self.old)
            or _denied_there(self.old, self.new)
            or self._swapped_roles()
            or self._doer_and_done_to()
            or self._partner_or_done_to()
            or _denied_state(self.new, self.old)
            or _denied_state(self.old, self.new)
            or self._never_or_once()
            or _kept_or_given_up(self.new, self.old)
            or (self._nothing_else(but=_WHEN_MEANT) and _planned_or_done(self.new, self.old))
            or self._negation(self.new, self.old)
            or self._negation(self.old, self.new)
            or self._feeling()
            or self._frequency()
            or self._bare_negation()
            or self._speaker_role()
            or self._done_to()
            or self._persons_swapped()
            or self._called_otherwise()
            or self._speaker_deed()
            or self._passive_turned()
            or self._receiver_turned()
            or self._how_many()
            or self._partner_or_place()
            or self._modifiers_moved()
            or self._sides_swapped()
            or _relatives_reordered(self.new, self.old)
            or _joined_the_other_way(self.new, self.old)
            or (self._alike() and _role_of_role(self.new, self.old))
            or self._owner_moved()
            or _whose_role(self.new, self.old, self._matched())
            or _whose_role(self.old, self.new, [(o, t) for t, o in self._matched()])
            or self._tense()
            or self._literal()
        )
        # Two negative facts do not dispute values ("I don't play any instruments" / "I no
        # longer play tennis"), unless they are two instructions ("Don't call before 9/10am").
        # A state that implies negations ("vegetarian": no meat) is no negative fact, on either
        # side ("I've been vegetarian for 5 years" / "I haven't eaten meat for 6 years").
        negative = (
            self.new.negated
            and self.old.negated
            and not self.new.implying
            and not self.old.implying
        )
        instructions = self.new.attitude is Attitude.WISH and self.old.attitude is Attitude.WISH
        if not reason and (not negative or instructions):
            reason = self._value() or self._substitution() or self._stated_value()
        if reason and self._change_word():
            reason = f"{reason}; change word '{self._change_word()}'"
        return reason

    def _order(self) -> str:
        new, old = self.new.order, self.old.order
        if new is None or old is None:
            return ""
        if agrees(new[0], old[1]) and agrees(new[1], old[0]):
            return f"order differs: {_ranking(new)} / {_ranking(old)}"
        return ""

    def _owner_moved(self) -> str:
        """ "Ann's sister works with Tom" / "Tom's sister works with Ann", "Tom's mum phones
        him" / "Tom phones his mum": the same words, the person whose someone is changing."""
        if significant(self.new_only) or significant(self.old_only):
            return ""
        new, old = _possessors(self.new), _possessors(self.old)
        # As many on each side: "Tom's mother's name" says no more than "tom's mum is called"
        if new and len(new) == len(old) and new != old:
            return f"whose differs: {_listed(frozenset(new))} / {_listed(frozenset(old))}"
        # "Sam's car is in the garage" / "sam's in the car": whose it is, against who is there
        for owners, other in ((new, self.old), (old, self.new)):
            there = _SOMEONE_THERE.match(other.said.lower())
            if there and lexicon.RELATIONS.get(there[1], there[1]) in owners:
                return f"whose differs: {there[1]}'s / {there[1]} is"
        # "Pete waters our plants" / "we water pete's plants": ours in one, and his in the
        # other, where he is who does it
        # "Our car is in Pete's garage" / "Pete's car is in our garage": the same owners and
        # things, each owning the other's
        owned_now, owned_before = _whose_things(self.new), _whose_things(self.old)
        if (
            len(owned_now) > 1
            and owned_now.keys() == owned_before.keys()
            and owned_now != owned_before
            and sorted(owned_now.values()) == sorted(owned_before.values())
        ):
            said = ", ".join(f"{owner} {thing}" for owner, thing in owned_now.items())
            return f"whose differs: {said}"
        if _owners_traded(self.new, self.old):
            said = ", ".join(f"{owner} {thing}" for owner, thing in _owned_in_turn(self.new))
            return f"whose differs: {said}, the other way round"
        pairs = ((new, self.new, self.old, old), (old, self.old, self.new, new))
        for owners, theirs, ours, ours_owners in pairs:
            if len(owners) != 1 or "speaker" not in ours.owners or ours_owners:
                continue
            (owner,) = owners
            if _OPENING_OWNER.match(theirs.said.lower()):
                continue  # whose the fact is about, or "'s" for "is": "biscuit's our dog"
            side, their_side = (
                (self.old_side, self.new_side)
                if ours is self.old
                else (self.new_side, self.old_side)
            )
            # a name written small in one fact is the name the other writes ("Sarah's shift")
            named = any(t.kind is TermKind.NAME and t.surface.lower() == owner for t in their_side)
            if any(term.surface.lower() == owner and (_someone(term) or named) for term in side):
                return f"whose differs: ours / {owner}'s"
        return ""

    def _matched(self) -> list[tuple[Term, Term]]:
        """Each term of the new fact with each term of the old that agrees with it."""
        return [
            (term, other)
            for term in self.new_side
            for other in self.old_side
            if agrees(term, other)
        ]

    def _sequence(self) -> str:
        """ "Mia has swimming and then piano" / "... piano and then swimming": two terms on
        either side of one "then", "before" or "after" in both facts, changing places, the rest
        alike. The same word in both: "before work and after dinner" said the other way round
        is one fact."""
        if significant(self.new_only) or significant(self.old_only):
            return ""
        # A term said twice has no one place to change ("walks the dog before work and walks
        # the dog after work")
        matched = [
            (term, other)
            for term, other in self._matched()
            if _said_once(term, self.new_side) and _said_once(other, self.old_side)
        ]
        for index, (first, first_old) in enumerate(matched):
            for second, second_old in matched[index + 1 :]:
                if first is second or first_old is second_old or agrees(first, second):
                    continue
                if (first.position - second.position) * (
                    first_old.position - second_old.position
                ) >= 0:
                    continue
                shared = _around(self.new, first, second) & _around(self.old, first_old, second_old)
                if shared:
                    return (
                        f"order differs: {first.surface} and {second.surface} change places "
                        f"around '{min(shared)}'"
                    )
        return ""

    def _nothing_else(self, but: frozenset[str] = frozenset()) -> bool:
        """Whether the two facts say nothing of weight the other does not, ``but`` words."""
        rest = [term for term in (*self.new_only, *self.old_only) if term.text not in but]
        return not significant(rest)

    def _never_or_once(self) -> str:
        """ "I used to like jazz" / "I never liked jazz", "We no longer have a dog" / "we never
        had a dog": both deny it now, but one says it held once and the other that it never
        did."""
        if significant(self.new_only) or significant(self.old_only):
            return ""
        # "never" of the past ("I never liked jazz", "I've never smoked"), not of now ("mum
        # never drives at night now", which "no longer" says too)
        if not small_words.never_against_once(self.new, self.old, _never_of_the_past):
            return ""
        said_once = self.new if lexicon.gives_up(self.new.change) else self.old
        return f"negation differs: never / {said_once.change}"

    @staticmethod
    def _negation(negating: Reading, other: Reading) -> str:
        """ "I don't drink alcohol" against "I have wine": all of one negation is affirmed."""
        if other.negated and not negating.implying:
            return ""
        clauses: dict[int, list[Term]] = {}
        for term in negating.negated:
            if not is_generic(term):
                clauses.setdefault(term.clause, []).append(term)
        stated = [term for term in negating.terms if term.text not in negating.implying]
        if not all(covered(term, other.content) for term in stated):
            return ""
        affirmed = [
            term
            for term in other.terms
            if term.text not in other.implying and term.slot not in TIME_PREPOSITIONS
        ]
        for clause in clauses.values():
            if all(covered(term, affirmed) for term in clause):
                said = " ".join(term.surface for term in clause)
                implied = clause[0].text in negating.implying
                return f"negation differs: {said}" if implied else f"negation differs: not {said}"
        return ""

    def _feeling(self) -> str:
        """ "I love hiking in the mountains" / "I hate hiking": opposite feelings about one thing
        (one side may say more about it)."""
        if self.new.sentiment * self.old.sentiment >= 0:
            return ""
        if self.shared_keyed and not (significant(self.new_only) and significant(self.old_only)):
            return "feeling differs: likes / dislikes"
        return ""

    def _swapped_roles(self) -> str:
        """ "Alice owes Bob" / "Bob owes Alice", "Tom is older than Sam" / "Sam is older than Tom":
        the same words with two of one sort (two names, two relatives, two of a kind of thing,
        two numbers or times) in each other's places. Who does what to whom differs, so they are
        never one fact.

        A place is a side of a third word both facts say: "Bob" stands where "Alice" stood
        before "owes". Words moved together keep their places ("Tom's mum is Helen" / "Helen is
        Tom's mum", "Mia is 9 and Leo is 7" / "Leo is 7 and Mia is 9"); a relation that is the
        same both ways is no swap ("Tom is married to Kate")."""
        if significant(self.new_only) or significant(self.old_only):
            return ""
        if _symmetric(self.new) or _symmetric(self.old):
            return ""
        ordered = self.new.ordered or self.old.ordered
        if not ordered and _clauses_reordered(self.new, self.old):
            return ""  # "Ben drives the Honda and Ann drives the Ford", said the other way
        matched = self._matched()
        for index, (first, first_old) in enumerate(matched):
            if not (_bears_a_role(first) or _bears_a_role(first_old)):
                continue
            for second, second_old in matched[index + 1 :]:
                if first is second or first_old is second_old or agrees(first, second):
                    continue
                if not (_bears_a_role(second) or _bears_a_role(second_old)):
                    continue
                if not _one_sort((first, first_old), (second, second_old)):
                    continue
                flipped = (first.position - second.position) * (
                    first_old.position - second_old.position
                ) < 0
                if ordered and flipped:
                    # A list said in an order ("pizza first, then pasta"): any two reordered.
                    return f"order differs: {first.surface} and {second.surface} change places"
                beside = _side_by_side(self.new, first, second) or _side_by_side(
                    self.old, first_old, second_old
                )
                if beside or (
                    _one_list(self.new, first, second)
                    and _one_list(self.old, first_old, second_old)
                ):
                    continue  # a list ("a son and a daughter") or a compound ("a Samsung TV")
                if _voice_changed(self.new, self.old, (first, first_old), (second, second_old)):
                    continue  # who does it to whom is weighed as the doer first, below
                if _took_the_place((first, first_old), (second, second_old), matched):
                    return f"roles differ: {first.surface} and {second.surface} change places"
        return ""

    def _doer_and_done_to(self) -> str:
        """ "Sara paid the plumber" / "the plumber paid sara", "Sara hired the builder" / "sara
        was hired by the builder": the same terms, who does it and who it is done to changing
        places (a passive's doer, after "by", counted first). Two terms exchanged, the rest in
        place; not a relation the same both ways."""
        if self.new_only or self.old_only:
            return ""
        new, old = _doer_first(self.new, self.new_side), _doer_first(self.old, self.old_side)
        # A feeling is what is done, though no term says it: "Leo is afraid of the dog", "Mia
        # likes Leo" (who feels it is the subject of both, or both are people; "I like tea and
        # coffee" lists what is felt).
        felt = (
            self.new.sentiment != 0
            and self.new.sentiment == self.old.sentiment
            and len(new) == len(old) == _CLAUSE_TERMS - 1
            and (
                (new[0].in_subject and old[0].in_subject)
                or (_someone(new[0]) and _someone(new[1]))
                or (_someone(old[0]) and _someone(old[1]))
            )
        )
        least = _CLAUSE_TERMS - 1 if felt else _CLAUSE_TERMS
        if len(new) != len(old) or len(new) < least:
            return ""
        moved = [
            i
            for i, (term, other) in enumerate(zip(new, old, strict=True))
            if not agrees(term, other)
        ]
        # The subject and a term after the verb: not two values side by side (a date's day
        # and month, a list), nor a time or a kind of thing
        if len(moved) != 2 or moved[0] != 0 or moved[1] < least - 1:
            return ""
        first, second = moved
        if not (new[first].is_party and new[second].is_party):
            return ""
        between = [*new[first : second + 1], *old[first : second + 1]]
        symmetric = _symmetric(self.new) or _symmetric(self.old)
        if symmetric and (
            any(t.text in lexicon.SYMMETRIC or t.slot in lexicon.SYMMETRIC for t in between)
            or any(_NEXT_TO.search(reading.said.lower()) for reading in (self.new, self.old))
        ):
            return ""  # "Tom works with Ann" is "Ann works with Tom", as "sits next to" is
        if agrees(new[first], old[second]) and agrees(new[second], old[first]):
            return f"roles differ: {new[first].surface} and {new[second].surface} change places"
        return ""

    def _held_and_party_traded(self) -> str:
        """ "Tom helps my sister" / "my sister helps Tom", "Mia was bitten by my dog" / "my dog
        was bitten by Mia": who the fact is about and someone else trading places around what is
        done (a passive's doer, after "by", counted first); both may hold. Not a relation the
        same both ways, nor a fact that does nothing ("Tom is my sister's friend")."""
        held = self.new.subject
        if not held.holder or held.holder != self.old.subject.holder or not held.tokens:
            return ""
        if not self.old.subject.tokens or significant((*self.new_only, *self.old_only)):
            return ""
        if _symmetric_deed(self.new) or _symmetric_deed(self.old):
            return ""
        for party, party_old in self._matched():
            if party.at in held.tokens or party_old.at in self.old.subject.tokens:
                continue  # who it is about, not another party
            if _whose(self.new, party) or _whose(self.old, party_old):
                continue  # "Tom's son": the son has the role, weighed as whose it is
            if _listed_with_held(self.new, party) or _listed_with_held(self.old, party_old):
                continue  # "My mum and Anna go to the same church": both do it
            someone = all(_someone(t) for t in (party, party_old))
            if not someone or not (
                _does_or_feels(self.new, party) and _does_or_feels(self.old, party_old)
            ):
                continue
            if _held_does_it(self.new, party) != _held_does_it(self.old, party_old):
                return f"roles differ: {held.surface} and {party.surface} trade places"
        return ""

    def _bare_negation(self) -> str:
        """ "Carlos is my boss" / "Carlos is not my boss": one denies what the other says, and
        the negation falls on who the fact is about, so no content term carries it."""
        if self.new.bare_negation == self.old.bare_negation:
            return ""
        if self.shared and not significant(self.new_only) and not significant(self.old_only):
            denying = self.new if self.new.bare_negation else self.old
            return f"negation differs: {denying.text}"
        return ""

    def _speaker_role(self) -> str:
        """ "I owe Ben £20" / "Ben owes me £20": the same words, the speaker doing in one and
        done to in the other, and the other party on the other side of what is done (not in a
        relation the same both ways: "I work with Ben" / "Ben works with me")."""
        roles = {self.new.speaker_role, self.old.speaker_role}
        if roles != {"subject", "object"} or not self.shared:
            return ""
        if _speaker_passive(self.new) or _speaker_passive(self.old):
            return ""  # "Anna hired me" / "I was hired by Anna": see _speaker_deed
        if significant(self.new_only) or significant(self.old_only):
            return ""
        if _symmetric(self.new) or _symmetric(self.old):
            return ""
        matched = [(t, o) for t in self.new_side for o in self.old_side if agrees(t, o)]
        for party, party_old in matched:
            # A name written small in one and with a capital that only opens the sentence in
            # the other ("Kate rings us" / "we ring kate") is still a name in both.
            named = _capital(party, party_old) or all(
                _small_name(t) or t.kind is TermKind.NAME for t in (party, party_old)
            )
            if not (named or party.text in _RELATIVES):
                continue  # a known word written small is what is done ("owes"), not who
            for other, other_old in matched:
                here = party.position - other.position
                if other is not party and here * (party_old.position - other_old.position) < 0:
                    return f"roles differ: the speaker and {party.surface} change places"
            # No other word between them ("I replaced Mark" / "Mark replaced me", "replaced"
            # being no term): the speaker's own pronoun is the other side.
            speaker, speaker_old = _speaker_at(self.new), _speaker_at(self.old)
            if (party.at - speaker) * (party_old.at - speaker_old) < 0:
                return f"roles differ: the speaker and {party.surface} change places"
        return ""

    def _alike(self) -> bool:
        """Whether the facts share what they say and neither says more of weight."""
        return (
            bool(self.shared) and not significant(self.new_only) and not significant(self.old_only)
        )

    def _called_otherwise(self) -> str:
        """ "The kids call my mum Nana" / "The kids call my mum Granny": what someone is called
        (the word after whom a "call" names) is its word as said, though both name a
        grandmother."""
        if "call" not in {term.text for term in self.new.terms + self.old.terms}:
            return ""
        for term, other in self._matched():
            if term.text != other.text or term.text not in _RELATIVES:
                continue
            if term.surface.lower() == other.surface.lower():
                continue
            if all(
                _a_name_given(said, reading)
                for said, reading in ((term, self.new), (other, self.old))
            ):
                return f"called otherwise: {term.surface} / {other.surface}"
        return ""

    def _persons_swapped(self) -> str:
        """ "My wife says I snore" / "my wife says she snores", "My parents think we should
        move" / "... they should move": the same words, another person named by a pronoun."""
        new, old = self.new.persons, self.old.persons
        if not new or not old or new == old or len(new) != len(old) or not self._alike():
            return ""
        return f"who differs: {', '.join(new)} / {', '.join(old)}"

    def _speaker_deed(self) -> str:
        """ "I was hired by Anna" / "I hired Anna", "Mark was replaced by me" / "I was replaced by
        Mark": the same words, the speaker doing it in one and done to in the other, once a
        passive is read as who did it."""
        if not self._alike():
            return ""
        if _symmetric(self.new) or _symmetric(self.old):
            return ""
        deeds = {_speaker_doing(self.new), _speaker_doing(self.old)}
        if deeds == {True, False} and (_speaker_passive(self.new) or _speaker_passive(self.old)):
            return "roles differ: the speaker does it in one and has it done in the other"
        return ""

    def _passive_turned(self) -> str:
        """ "Rex was chased by my neighbour's dog" / "rex chased my neighbour's dog": the same
        words, the one who did it (after "by") standing after the deed in the active fact, where
        the one it was done to stood ("my neighbour's dog chased rex" says it again)."""
        if self.new.passive == self.old.passive or not self._alike():
            return ""
        passive, active = (self.new, self.old) if self.new.passive else (self.old, self.new)
        tokens = passive.said_tokens
        by = tokens.index("by")
        be = max((i for i, word in enumerate(tokens[:by]) if word in markers.BE), default=-1)
        after = [term for term in passive.terms if term.at > by]
        # the deed straight after "was", and the doer straight after "by" ("by my neighbour")
        if be < 0 or not after or after[0].at > by + 2:
            return ""
        # (not a passive of its own: "i got hired anna hired me")
        deed_at = _active_deed_at(active.said_tokens, markers.verb_base(tokens[be + 1]))
        doer = next((term for term in active.terms if agrees(after[0], term)), None)
        if deed_at < 0 or doer is None or doer.at < deed_at:
            return ""
        return f"roles differ: {after[0].surface} does it in one and has it done in the other"

    def _receiver_turned(self) -> str:
        """ "£500 was lent to my sister" / "my sister lent £500", "the rent is paid to my mum" /
        "my mum pays the rent": a passive with no "by" names whom it was done to, for or from;
        the same person before the same deed in the active fact is who does it."""
        if not self._alike():
            return ""
        for passive, active in ((self.new, self.old), (self.old, self.new)):
            tokens = passive.said_tokens
            done_at = next(
                (
                    i
                    for i in range(1, len(tokens))
                    if tokens[i - 1] in markers.BE and markers.participle(tokens[i])
                ),
                -1,
            )
            if done_at < 0 or "by" in tokens:
                continue
            deed_at = _active_deed_at(active.said_tokens, markers.verb_base(tokens[done_at]))
            if deed_at < 1:
                continue  # the deed not said actively, or with no one before it
            for term in passive.terms:
                if term.slot not in _RECEIVING_SLOTS or term.at <= done_at:
                    continue
                doer = next((t for t in active.terms if agrees(term, t) and not t.slot), None)
                if doer is not None and doer.at < deed_at:
                    return (
                        f"roles differ: {term.surface} has it done {term.slot} them in one "
                        "and does it in the other"
                    )
        return ""

    def _done_to(self) -> str:
        """ "Dave owes me £50" / "dave owes him fifty pounds": the same words, another person
        done to, named only by a pronoun. Not the same people in other places ("we go with
        them" / "they go with us")."""
        new, old = self.new, self.old
        if not new.done_to or not old.done_to:
            return ""
        done_to, done_to_before = _done_to(new, old), _done_to(old, new)
        if not done_to or not done_to_before or done_to == done_to_before:
            return ""
        if new.persons == old.persons or not self._alike():
            return ""
        return f"done to differs: {', '.join(done_to)} / {', '.join(done_to_before)}"

    def _how_many(self) -> str:
        """ "My brother plays in a band" / "my brothers play in a band": the same words, one
        person or thing against several. Only nouns a determiner or an owner marks as such ("my
        brothers", "the tickets", "Jack's coaches"): a verb's "-s" says nothing of how many."""
        if not self._alike():
            return ""
        for term, other in self._matched():
            said = sorted(
                ((*_noun_said(term, self.new), self.new), (*_noun_said(other, self.old), self.old)),
                key=lambda noun: len(noun[0]),
            )
            (one, one_at, one_reading), (many, many_at, many_reading) = said
            if not one or not _plural_of(one, many):
                continue
            after_one = _token_at(one_reading, one_at + 1)
            after_many = _token_at(many_reading, many_at + 1)
            # A transcript's "'s" without its apostrophe: "the thermostats in the hallway" (is),
            # "my nans prescription" (whose), "my husbands a bus driver" (is).
            if after_one in ("is", "'s") and after_many not in _PLURAL_VERBS:
                continue
            if after_many in ("a", "an", "the"):
                continue
            return f"how many differs: {term.surface} / {other.surface}"
        return ""

    def _partner_or_place(self) -> str:
        """ "my mum lives with victoria" / "my mum lives in victoria": one word straight after
        "with" in one fact (who with) and after "in", "near" or "to" in the other (where). Not
        "at" nor "on": a firm or a service is both ("a job interview with/at Google"); nor "to"
        after a verb of talking ("speak to Mum" / "speak with Mum")."""
        for term, other in self._matched():
            slots = {term.slot, other.slot}
            if "with" not in slots or not slots & _PLACE_SLOTS or len(slots) != 2:
                continue
            straight = all(
                _token_at(reading, said.at - 1) == said.slot
                for reading, said in ((self.new, term), (self.old, other))
            )
            talking = any(
                said.slot == "to" and _token_at(reading, said.at - 2) in _TALKING
                for reading, said in ((self.new, term), (self.old, other))
            )
            if straight and not talking:
                return f"role differs: {term.slot} {term.surface} / {other.slot} {other.surface}"
        return ""

    def _modifiers_moved(self) -> str:
        """ "the front door key is on the back door hook" / "the back door key is on the front
        door hook", "the old bike is in the new shed" / "the new bike is in the old shed": the
        same words, two words before two nouns trading them. (A noun and its modifier changing
        places is left alone: "my eggs runny" is "runny eggs", "milk chocolate" is not
        "chocolate milk", and only a word's part of speech tells them apart.)"""
        if significant(self.new_only) or significant(self.old_only):
            return ""
        new, old = _attachments(self.new), _attachments(self.old)
        lost, gained = new - old, old - new
        for modifier, head in lost:
            for other_modifier, other_head in lost:
                traded = {(other_modifier, head), (modifier, other_head)}
                if modifier != other_modifier and head != other_head and traded <= gained:
                    return (
                        f"what goes with what differs: {modifier} {head}, {other_modifier} "
                        f"{other_head} / {other_modifier} {head}, {modifier} {other_head}"
                    )
        return ""

    def _sides_swapped(self) -> str:
        """ "The fuse box is above the gas meter" / "the gas meter is above the fuse box", "Tom
        does more of the cooking than I do" / "I do more of the cooking than Tom", "I owe the
        window cleaner" / "the window cleaner owes me", "I take the bus there and walk back" /
        "I walk there and take the bus back": one word that says which side is which, and things
        (the speaker too) crossing it both ways, however many words name them."""
        if not self._alike() or _said_words(self.new) != _said_words(self.old):
            return ""  # "Max is older than Lily" / "lily is younger than max": said the other way
        exchanging = all(_EXCHANGING & set(r.said_tokens) for r in (self.new, self.old))
        tokens = [_alike_said(word) for word in self.new.said_tokens]
        tokens_old = [_alike_said(word) for word in self.old.said_tokens]
        for pivot in _PIVOTS + (("with", "for") if exchanging else ()):
            if tokens.count(pivot) != 1 or tokens_old.count(pivot) != 1:
                continue  # no side to cross without the word once in each
            if pivot in _TOWARDS and (_symmetric(self.new) or _symmetric(self.old)):
                continue  # "Jo is married to Ann's brother": the same both ways
            new_before, new_after = _sides(self.new, tokens, pivot)
            old_before, old_after = _sides(self.old, tokens_old, pivot)
            crossed = (new_before - old_before) & (old_after - new_after)
            back = (new_after - old_after) & (old_before - new_before)
            if crossed and back:
                return f"sides differ around '{pivot}': {min(crossed)} / {min(back)}"
        return ""

    def _tense(self) -> str:
        """ "Rachel is my wife" / "rachel was my wife", "Grandad smokes" / "grandad smoked": the
        same words, a state said to hold and said to have held (or to come)."""
        tenses = {self.new.tense, self.old.tense}
        new_perfect = _perfect_said(self.new)
        perfects = {new_perfect, _perfect_said(self.old)}
        if perfects == {"had", "have"} and not self.new_only and not self.old_only:
            return "tense differs: had / have"  # "I had lived in Leeds" / "I have lived ..."
        if perfects == {"have", ""} and not self.new_only and not self.old_only:
            # "Mum has lived in a care home for two years" / "Mum lived in ... for two years":
            # a present perfect that lasts a while holds still; the past one is over. (Since
            # when is no such sign: "has been vegan since 2019" / "went vegan in 2019".)
            lasting, other = (self.new, self.old) if new_perfect else (self.old, self.new)
            if other.tense == "past" and "for" in lasting.said_tokens:
                return "tense differs: still so / over"
        if "" in tenses or len(tenses) == 1 or not self.shared:
            return ""
        if tenses == {"present", "future"} and any(
            _planned(reading) or _meant_deeds(reading.said_tokens)
            for reading in (self.new, self.old)
        ):
            return ""  # "I'm bringing a salad", "I'm going to bring a salad": as "I will bring"
        changes = (self.new.change.lower(), self.old.change.lower())
        said_by_one = changes[0] != changes[1]  # "a new car" in both says nothing of when
        if said_by_one and any(set(c.split()) - _NO_WHEN for c in changes if c):
            return ""  # "I switched to Firefox": the change word says when, not the tense
        rest = [
            term
            for term in (*self.new_only, *self.old_only)
            if term.text not in lexicon.PAST_MARKERS
        ]
        if significant(rest):
            return ""
        return f"tense differs: {self.new.tense} / {self.old.tense}"

    def _literal(self) -> str:
        """ "The Wi-Fi password is dogs" / "... is dog": a value that is a string to type or say
        letter for letter (a password, a code, an address), compared as written, not as a word;
        its case and symbols only when both facts were typed, as speech has neither ("BlueFox88"
        said is "bluefox88")."""
        if not (self._literal_attribute(self.new) and self._literal_attribute(self.old)):
            return ""
        if significant(self.new_only) or significant(self.old_only):
            return ""
        new_typed, old_typed = _typed_value(self.new.text), _typed_value(self.old.text)
        if _NOTE.match(self.new.text) or _NOTE.match(self.old.text):
            differ = _letters(new_typed) != _letters(old_typed)  # a note's words are no value
        else:
            # in the order said: "blue cat 42" is not "cat blue 42", "07700 900123" not "900123
            # 07700"
            new_values = [_as_written(t) for t in _in_order(self.new_side) if not t.in_subject]
            old_values = [_as_written(t) for t in _in_order(self.old_side) if not t.in_subject]
            differ = bool(new_values and old_values) and new_values != old_values
        # Typed on both sides (a transcript is all small letters, with no symbols), its case
        # and symbols are part of it: "BlueFrog42" / "bluefrog42", "1234#" / "1234*".
        if not (self.new.text.islower() or self.old.text.islower()):
            differ = differ or new_typed.replace(" ", "") != old_typed.replace(" ", "")
        return f"value differs as written: {new_typed} / {old_typed}" if differ else ""

    @staticmethod
    def _literal_attribute(reading: Reading) -> bool:
        """Whether the fact gives a password, a code, an address ... ("The PIN is 4321", or a
        note, "Door code: 1234#")."""
        note = _NOTE.match(reading.text)
        if note is not None:
            named = _WORDS.findall(note[1].lower())
            return bool(named) and named[-1] in lexicon.LITERAL_ATTRIBUTES
        return reading.functional and any(
            term.in_subject and _letters(term.surface) in lexicon.LITERAL_ATTRIBUTES
            for term in reading.terms
        )

    def _frequency(self) -> str:
        """ "Dad always locks the back door" / "Dad sometimes locks ...": the same deed, done
        as often as two different words say, and nothing else differs."""
        new, old = self.new.frequency, self.old.frequency
        if not new or not old or lexicon.FREQUENCIES[new] == lexicon.FREQUENCIES[old]:
            return ""
        rest = [
            term
            for term in (*self.new_only, *self.old_only)
            if term.surface.lower() not in lexicon.FREQUENCIES
        ]
        if self.shared_keyed and not significant(rest):
            return f"how often differs: {new} / {old}"
        return ""

    def _value(self) -> str:
        """A number, time, name or exclusive value differs while the rest of the fact agrees."""
        for label, new_terms, old_terms in self.differences:
            if not self._only_difference(label, new_terms, old_terms):
                continue
            if label == "name" and not self._single_valued():
                continue
            if label == "name" and not any(term.certain for term in new_terms + old_terms):
                continue
            if label == "name" and not slots_meet(new_terms, old_terms):
                continue  # "work at Google" / "work in Shoreditch": employer and place
            return f"{label} differs: {surfaces(new_terms)} / {surfaces(old_terms)}"
        return ""

    def _only_difference(
        self, label: str, new_terms: Sequence[Term], old_terms: Sequence[Term]
    ) -> bool:
        """The rest of the two facts agrees: nothing else differs, or one side only adds to what
        both share ("I work from home" / "I work in the office every day")."""
        new_rest = self._rest(self.new_only, new_terms, self.old)
        old_rest = self._rest(self.old_only, old_terms, self.new)
        if new_rest and old_rest:
            return False
        if new_rest or old_rest:
            # One side adds words: the values must still fill the same slot ("two cars" is no
            # year "in 2030").
            same_slot = {term.slot for term in new_terms} & {term.slot for term in old_terms}
            return self.shared_keyed and (label not in _SLOTTED or bool(same_slot))
        # Names need something shared to be values of one attribute ("Sam" / "Samsung"); two
        # facts about one relative share the relative ("My husband is Mark" / "...is Luke").
        kinds = _kinds(new_terms) & _kinds(old_terms)  # "Postgres" / "SQLite": two databases
        return label != "name" or self.shared_keyed or bool(self.relatives) or bool(kinds)

    def _rest(self, only: Sequence[Term], differing: Sequence[Term], other: Reading) -> list[Term]:
        """What else one side says. Broad words do not count, except "name" when the other side
        is no "X is Y" ("My son is named Raj" / "My son attends Oakwood": other attributes),
        and the kind of favourite when both name one ("favourite hobby" / "favourite film")."""
        favourites = self._both_say("favourite")
        return [
            term
            for term in only
            if term not in differing
            and (
                not is_generic(term)
                or (term.text == "name" and not other.functional)
                or (favourites and term.text != "favourite")
            )
        ]

    def _both_say(self, word: str) -> bool:
        return any(term.text == word for term in self.new.terms) and any(
            term.text == word for term in self.old.terms
        )

    def _single_valued(self) -> bool:
        """Whether the shared part names an attribute with one value at a time."""
        wishes = self.new.attitude is Attitude.WISH and self.old.attitude is Attitude.WISH
        return bool(
            self._shared_attribute()
            or self.new.functional
            or self.old.functional
            or wishes
            or self._change_word()
        )

    def _shared_attribute(self) -> str:
        """A single-valued attribute both facts name ("live", or "car" for "drive" / "Honda")."""
        for side, other in ((self.new_side, self.old_side), (self.old_side, self.new_side)):
            for term in side:
                if term.text in lexicon.FUNCTIONAL and covered(term, other):
                    return term.text
        return ""

    def _valued_attribute(self, any_word: bool = False) -> str:
        """A shared attribute that the differing words follow in both facts ("study chemistry"),
        so they are its values and not other verbs ("start work" / "finish work").

        With ``any_word``, any word both facts share will do (after a change word: "I switched
        my password manager to ...")."""
        for term, match in self._followed_matches():
            if any_word:
                if all(map(self._plain_shared, (term, match))):
                    return term.text
            elif term.text in lexicon.FUNCTIONAL or match.text in lexicon.FUNCTIONAL:
                return term.text if term.text in lexicon.FUNCTIONAL else match.text
        return ""

    def _plain_shared(self, term: Term) -> bool:
        """A word that is no value, no broad word and not who the facts are about."""
        return (
            term.kind is TermKind.WORD and not is_generic(term) and term.text not in self.relatives
        )

    def _followed_matches(self) -> Iterator[tuple[Term, Term]]:
        """Each term of the new fact with each term of the old one that agrees with it, where
        the differing words of both facts come after the two: the pairs that may name what the
        differing words are values of. Every such pair, so the answer does not depend on which
        fact is the new one."""
        for term in self.new_side:
            if not all(word.position > term.position for word in self.new_words):
                continue
            for match in self.old_side:
                after = all(word.position > match.position for word in self.old_words)
                if after and agrees(term, match):
                    yield term, match

    def _substitution(self) -> str:
        """ "I'm studying chemistry" / "I'm studying physics": one value of one attribute."""
        new, old = self.new_words, self.old_words
        if not new or not old or max(len(new), len(old)) > MAX_SUBSTITUTED_WORDS:
            return ""
        if self.differences:
            return ""  # values differ too ("MOT due in November" / "insurance renews in march")
        if not {term.slot for term in new} & {term.slot for term in old}:
            return ""
        if any(term.in_subject for term in new + old):
            return ""  # "blood type" / "blood pressure": different attributes, not values
        attribute = self._valued_attribute() or self._described_thing()
        about_other = bool(self.relatives or self.new.subject.named or self.old.subject.named)
        copula = self.new.functional and self.old.functional and about_other
        changed = self._change_word() and self._valued_attribute(any_word=True)
        if not (attribute or copula or changed or self._alternatives()):
            return ""
        label = f"{attribute} differs" if attribute else "value differs"
        return f"{label}: {surfaces(new)} / {surfaces(old)}"

    def _stated_value(self) -> str:
        """ "My favourite editor is Vim" / "...is Helix", "My dog's name is Rex" / "...is max":
        two "X is Y" facts (or facts describing a relative they introduce: "I have a cat named
        Luna") that state a value of the same single-valued attribute.

        The frame holds one value, so the values need no type: a lexicon term, a name and an
        unknown word ("Vim" / "Helix", "blue" / "teal", "Sushi" / "pizza") are two values all the
        same. Each fact differs in its value (a few words at most, none after a preposition) and
        in nothing else.
        """
        if not all(
            reading.functional or reading.subject.introduced for reading in (self.new, self.old)
        ):
            return ""
        new, old = self._stated(self.new_only), self._stated(self.old_only)
        if not new or not old or any(term.slot for term in new + old):
            return ""
        if not (self._whole_part(new, self.new_side) and self._whole_part(old, self.old_side)):
            return ""
        attribute = self._stated_attribute(new, old)
        return f"{attribute} differs: {surfaces(new)} / {surfaces(old)}" if attribute else ""

    def _stated(self, only: Sequence[Term]) -> tuple[Term, ...]:
        """What one side says and the other does not, when it is a value: a few words, names or
        group members, and nothing else (no number, no broad word such as "favourite")."""
        if len(only) > MAX_SUBSTITUTED_WORDS:
            return ()
        if any(term.kind in _UNKEYED or is_generic(term) for term in only):
            return ()
        if any(term.text in self.relatives for term in only):
            return ()
        return tuple(only)

    def _whole_part(self, values: Sequence[Term], side: Sequence[Term]) -> bool:
        """Whether the values make one part of an "X is Y" fact: all of the subject, with the
        rest naming what they are of ("Vim is my favourite editor", "Lisbon is where I live"),
        or all in the rest ("My favourite editor is Vim"). A word that differs in a subject with
        more in it, or before a rest that says more, names what the fact is about ("My favourite
        dog / car is called Max", "My boat / car is called Wave"), not a value."""
        if not any(value.in_subject for value in values):
            return True
        if not all(value.in_subject for value in values):
            return False
        subject = [term for term in side if term.in_subject]
        rest = [term for term in side if not term.in_subject and term.text not in self.relatives]
        names_attribute = any(term.possessed for term in rest) or all(
            term.text in lexicon.FUNCTIONAL or is_generic(term) for term in rest
        )
        return len(subject) == len(values) and names_attribute

    def _stated_attribute(self, new: Sequence[Term], old: Sequence[Term]) -> str:
        """The single-valued attribute both facts give a value: a word of lexicon.FUNCTIONAL that
        both say, placed as what the values are of ("my favourite editor" before "is Vim", or
        after the copula in "Vim is my favourite editor").

        A broad attribute (a favourite, a name) takes any value. One that names a kind of thing
        ("my phone") is given a value by what says which thing it is, a name or a known kind of
        it; other words describe it ("My car is a Volvo" / "My car is red" / "My car is old")."""
        for term in self.new_side:
            if term.text in self.relatives or not _attribute_of(term, new):
                continue
            for match in self.old_side:
                if match.text in self.relatives or not _attribute_of(match, old):
                    continue
                if not agrees(term, match):
                    continue
                for word in (term, match):
                    if word.text in lexicon.FUNCTIONAL and (
                        is_generic(word)
                        or all(_identifies(value, word.text) for value in (*new, *old))
                    ):
                        return word.text
        return ""

    def _described_thing(self) -> str:
        """ "I like my eggs runny" / "...hard-boiled": both describe the same "my X"."""
        for term, match in self._followed_matches():
            if term.possessed and match.possessed:
                return term.text
        return ""

    def _alternatives(self) -> bool:
        """Two of one kind of thing where only one can hold: "I prefer tea" / "I prefer coffee",
        "I'm a nurse" / "I'm a firefighter"."""
        preferences = self.new.preferring and self.old.preferring
        identities = self.new.identity and self.old.identity
        if not (preferences or identities):
            return False
        new_kinds = {parent for term in self.new_words for parent in lexicon.ancestors(term.text)}
        old_kinds = {parent for term in self.old_words for parent in lexicon.ancestors(term.text)}
        return bool(new_kinds & old_kinds)

    def _change_word(self) -> str:
        if bool(self.new.change) == bool(self.old.change):
            return ""
        return self.new.change or self.old.change

    # Merges ----------------------------------------------------------------------------------

    def same(self) -> bool:
        """Nothing differs on either side, something is shared, and both say it the same way."""
        new, old = self.new, self.old
        if not self._alike():
            return False
        if self.new_only and self.old_only:
            return False  # "thriller novels" / "thriller films": broad words that differ
        if bool(new.negated) != bool(old.negated):
            return False
        orders_agree = new.order is None or old.order is None or self._orders_equal()
        return (
            orders_agree
            and _attitudes_agree(new, old)
            and not self._direction_clash()
            and not self._two_facts_alike()
            and self._markers_agree()
            and self._slots_agree()
            and self._times_agree()
            and self._places_agree()
            and not self._worded_apart
        )

    @cached_property
    def _worded_apart(self) -> str:
        """Why two facts of the same words are two all the same: a small word or form that says
        another thing (no likeness an embedder finds makes them one)."""
        new, old = self.new, self.old
        if (new.corrected or old.corrected) and new.plain != old.plain:
            return "said differently: what is taken back midway"
        if _named_or_described(new, old):
            return "said differently: a name against a description"
        if _striving(new) != _striving(old):
            return "said differently: a try, or a deed meant, against the deed"
        if _digits_reordered(new, old):
            return "said differently: the same digits in another order"
        if _in_place_of(new, old) or _in_place_of(old, new):
            return "said differently: one thing in place of another"
        if not self._owners_agree():
            return "whose differs: someone's own against one of many"
        if not self._counts_agree():
            return "said differently: a place in a row against how many"
        if not _joined_alike(new, old):
            return "said differently: the clauses joined by other words"
        if _alone_or_together(new, old):
            return "said differently: alone against together"
        if _over(new) != _over(old):
            return f"said differently: {_over(new) or '-'} / {_over(old) or '-'}"
        if _compound_reversed(new, old) or _compound_reversed(old, new):
            return "said differently: two words naming one thing, the other way round"
        denied = [_DENIED_FEELING.search(reading.plain) for reading in (new, old)]
        if bool(denied[0]) != bool(denied[1]):
            return "feeling differs: one denied, not its opposite"
        if self._plural_value():
            return "said differently: one thing named against several"
        if _done_to_or_doing(new, old):
            return "said differently: done to in one fact, doing it in the other"
        if traded := self._held_and_party_traded():
            return traded
        for check, why in small_words.CHECKS:
            if check(new, old):
                return f"said differently: {why}"
        return ""

    def _names_apart(self, term: Term, other: Term) -> bool:
        """Whether two matched words, one with an "s" more, are two people's names: a name
        (no relative, no animal) on one side at least, the longer before a verb or at the end
        ("carlos is cooking"), not a transcript's whose without its apostrophe ("dads
        favourite")."""
        if TermKind.NAME not in (term.kind, other.kind):
            return False
        if any(t.text in _RELATIVES or t.text in _ANIMALS for t in (term, other)):
            return False
        longer, reading = (term, self.new) if len(term.surface) > len(other.surface) else (
            other, self.old)  # fmt: skip
        shorter, other_reading = (other, self.old) if longer is term else (term, self.new)
        if shorter.surface.lower().endswith("'s"):
            return False  # "at Sarah's" / "at sarahs": a transcript drops the apostrophe
        after = _token_at(reading, longer.at + 1)
        contracted = after not in ("is", "are", "'s")
        if contracted and _token_at(other_reading, shorter.at + 1) in ("is", "'s"):
            return False  # "Tom is at school" / "toms at school": "toms" is "Tom's"
        if (
            _spelled(longer) in other_reading.plain.split()
            or _spelled(shorter) in reading.plain.split()
        ):
            return False  # each said in both ("Rose waters the roses"): matched across
        family = _token_at(reading, longer.at - 1) == "the"  # "with the evans"
        return family or after in _AFTER_A_NAME or after in PREPOSITIONS

    def _plural_value(self) -> bool:
        """ "My favourite film is Alien" / "... is Aliens", "we're watching Ghosts" / "... ghost":
        a thing named at the end of both facts, in the singular in one and the plural in the
        other; or a person's name with an "s" more ("Carlo" / "carlos")."""
        for term, other in self._matched():
            one, many = _spelled(term), _spelled(other)
            if not (_plural_of(one, many) or _plural_of(many, one)):
                continue
            if self._names_apart(term, other):
                return True  # "Carlo" / "carlos", "William" / "the williams": two people
            if _a_value_named(self.new, term) and _a_value_named(self.old, other):
                return True
        return False

    def _owners_agree(self) -> bool:
        """ "I was bitten by a dog" / "I was bitten by my dog": who did it, said with "a" in one
        fact, is not the speaker's own in the other."""
        for term, other in self._matched():
            if term.slot != "by" or other.slot != "by":
                continue  # "has a ladder" / "his ladder": the subject's own, however said
            articles = {_token_at(self.new, term.at - 1), _token_at(self.old, other.at - 1)}
            if len(articles & _INDEFINITE) == 1 and len(articles & _OWNING) == 1:
                return False
        return True

    def _counts_agree(self) -> bool:
        """ "This is my third cat" / "i have three cats": a number before a thing, in its place
        in a row in one fact and how many in the other (dates, "the third of May", and "every
        fourth week" aside); or after it, a label ("season two" / "2 seasons")."""
        for term, other in self._matched():
            if term.kind is not TermKind.NUMBER or other.kind is not TermKind.NUMBER:
                continue
            if _label_and_count(self.new, term, self.old, other):
                return False
            if _ordinal(term.surface) == _ordinal(other.surface):
                continue
            things = (_token_at(self.new, term.at + 1), _token_at(self.old, other.at + 1))
            before = {_token_at(self.new, term.at - 1), _token_at(self.old, other.at - 1)}
            if "every" not in before and all(_a_thing(thing) for thing in things):
                return False
        return True

    def _times_agree(self) -> bool:
        """Whether each time both facts name stands in the same part of them: "until Tuesday"
        is not "by Tuesday" nor "on Tuesday", "for a week" is not "in a week"."""
        return not any(
            frozenset((term.slot, other.slot)) in _TIME_SLOT_CLASHES
            and _timeish(term)
            and agrees(term, other)
            for term in self.new_side
            for other in self.old_side
        )

    def _places_agree(self) -> bool:
        """Whether each thing both facts name is placed alike: "in the safe" is not "by the
        safe", nor "on the car" "in the car" ("at the hospital" is "in the hospital"). One
        clause each: a preposition's reach past "and" is not read."""
        if any(len(_CLAUSE_BREAK.split(reading.text)) > 1 for reading in (self.new, self.old)):
            return True
        # "on Church Street" is "in Church Street", "on my bed" "in my bed"
        in_or_on = any(term.text in _IN_OR_ON for term in (*self.new_side, *self.old_side))
        alike = _PLACED_ALIKE | ({frozenset(("in", "on"))} if in_or_on else set())
        return not any(
            term.slot != other.slot
            and (
                (
                    {term.slot, other.slot} <= _PLACE_WORDS
                    and frozenset((term.slot, other.slot)) not in alike
                )
                or frozenset((term.slot, other.slot)) in _WAYS_APART
            )
            and not _timeish(term)
            and term.text not in _NO_PLACES
            and agrees(term, other)
            for term in self.new_side
            for other in self.old_side
        )

    def _slots_agree(self) -> bool:
        """Whether each person both facts name plays the same part: "works with Ann" is not
        "works for Ann", nor "lives near Ann"."""

        def parts(side: Sequence[Term]) -> set[str]:
            return {t.slot for t in side if _someone(t)}

        # A name written small in one fact ("about springsteen") is its match's person.
        matched = any(
            frozenset((term.slot, other.slot)) in _PARTS_APART
            and (_someone(term) or _someone(other))
            for term, other in self._matched()
        )
        return not matched and not any(
            frozenset((new, old)) in _PARTS_APART
            for new in parts(self.new_side)
            for old in parts(self.old_side)
        )

    def _orders_equal(self) -> bool:
        new, old = self.new.order, self.old.order
        assert new is not None and old is not None
        return agrees(new[0], old[0]) and agrees(new[1], old[1])

    def _markers(self) -> str:
        """ "We may have the party" / "we must have the party", "The red car is mine" / "...
        is his", "Tom is about to retire" / "tom has retired": the same words, a small word
        that says another thing (see markers)."""
        if not self._alike():
            return ""
        new, old = self.new, self.old
        if new.modality and old.modality and not new.modality & old.modality:
            return f"modality differs: {_listed(new.modality)} / {_listed(old.modality)}"
        if new.owners and old.owners and not new.owners & old.owners:
            return (
                f"owner differs: {', '.join(sorted(new.owners))} / {', '.join(sorted(old.owners))}"
            )
        if frozenset((new.aspect, old.aspect)) in markers.CLASHING_ASPECTS:
            return f"aspect differs: {new.aspect} / {old.aspect}"
        if new.quantity and old.quantity and new.quantity != old.quantity:
            return f"quantity differs: {new.quantity} / {old.quantity}"
        if new.scope and old.scope and new.scope != old.scope:
            return f"'only' bounds another part: the {new.scope} / the {old.scope}"
        if new.joiner and old.joiner and new.joiner != old.joiner and not new.negated + old.negated:
            return f"a choice against a list: {new.joiner} / {old.joiner}"
        if new.complement and old.complement and new.complement != old.complement:
            return f"what follows differs: {new.complement} / {old.complement}"
        if new.excess != old.excess:
            return "'too' much for it in one"
        if new.choice and old.choice and new.choice != old.choice:
            return f"choice differs: {new.choice} / {old.choice}"
        if spans := _span_and_list(new, old):
            return spans
        if new.titles and old.titles and not new.titles & old.titles:
            return f"title differs: {_listed(new.titles)} / {_listed(old.titles)}"
        if new.everyone and old.everyone and new.everyone != old.everyone:
            return f"'everyone' is another part: the {new.everyone} / the {old.everyone}"
        if new.last_spans and old.last_spans and new.last_spans != old.last_spans:
            return f"when differs: last {_listed(new.last_spans)} / last {_listed(old.last_spans)}"
        return ""

    def _two_facts_alike(self) -> str:
        """ "Mum is a carer" / "mum has a carer", "I'm on call this weekend" / "... every
        weekend": the same words saying two facts that may both be true, never one."""
        return (
            _being_and_having(self.new, self.old)
            or _being_and_having(self.old, self.new)
            or _occasions_differ(self.new, self.old)
            or _becoming_and_having(self.new, self.old)
            or _becoming_and_having(self.old, self.new)
        )

    def _markers_agree(self) -> bool:
        """Whether the small words that are no content say the same (one may leave one out,
        but for a modal: "Tom might drive" is not "Tom drives")."""
        new, old = self.new, self.old
        owners_agree = not (new.owners and old.owners) or bool(new.owners & old.owners)
        aspects_agree = frozenset((new.aspect, old.aspect)) not in markers.CLASHING_ASPECTS
        # "I can speak Spanish" says "I speak Spanish"; "might" never says it is so.
        modalities_agree = new.modality == old.modality or {new.modality, old.modality} == {
            frozenset(),
            frozenset({"able"}),
        }
        # "the kids" are all of them; "some of the kids" are not
        quantities = {new.quantity, old.quantity}
        # "none of us smoke" is "we don't smoke"
        quantities_agree = (
            quantities <= {"", "all"} or quantities <= {"", "none"} or len(quantities) == 1
        )
        return modalities_agree and owners_agree and aspects_agree and quantities_agree

    def _bounds(self) -> str:
        """ "closed until Monday" / "closed since Monday": one time, a start in one fact and an
        end in the other; "made by Gran" / "made for Gran": one person, who did it in one."""
        for term in self.new_side:
            for other in self.old_side:
                if not agrees(term, other):
                    continue
                said = f"{term.slot} {term.surface} / {other.slot} {other.surface}"
                sides = {_TIME_BOUNDS.get(term.slot), _TIME_BOUNDS.get(other.slot)}
                if sides == {"start", "end"}:
                    return f"bound differs: {said}"
                if {term.slot, other.slot} == {"to", "by"} and term.kind is TermKind.NUMBER:
                    return f"change differs: {said}"  # "grew to 12" / "grew by twelve"
                if self._doer_in_one(term, other):
                    return f"role differs: {said}"
        return ""

    def _partner_or_done_to(self) -> str:
        """ "Max plays for Hartley" / "max plays Hartley": the same terms in the same order,
        one of them what is done in one fact (straight after the verb) and whom it is done for,
        with or against in the other: his team, or the other side."""
        if self.new_only or self.old_only or len(self.new_side) != len(self.old_side):
            return ""
        if self.new.functional or self.old.functional:
            return ""  # "X is Y": what follows "is" is no deed's ("a jumper with trousers")
        pairs = list(zip(self.new_side, self.old_side, strict=True))
        if not all(agrees(term, other) for term, other in pairs):
            return ""
        for index, (term, other) in enumerate(pairs):
            if not index or term.slot == other.slot or term.clause:
                continue
            # Only after a verb the word turns around ("voted for Labour" is "voted Labour").
            verb = pairs[index - 1][0].surface.lower()
            if verb in _TURNING_VERBS and _done_to_in_one(term, other):
                return f"role differs: {term.slot} {term.surface} / {other.slot} {other.surface}"
        return ""

    def _doer_in_one(self, term: Term, other: Term) -> bool:
        """Whether one term is who did it in one fact (a passive's "by Gran") and stands after
        another word in the other ("for Gran", "to Tom")."""
        for doing, done, reading in ((term, other, self.new), (other, term, self.old)):
            if doing.slot == "by" and reading.passive and done.slot in _ROLE_SLOTS:
                return True
        return False

    def _direction_clash(self) -> bool:
        """ "flying to Tokyo" / "flying from Tokyo", "leaves for York" / "leaves York": the same
        place, opposite directions."""
        for term in self.new_side:
            for other in self.old_side:
                slots = {term.slot, other.slot}
                # After a change word "to" names the new value and "from" the old one: "moved
                # to Friday" (read without its "to") / "moved from Friday".
                changed = slots == {"", "from"} and bool(self.new.change or self.old.change)
                # after "leave" or "depart", "for" names where to and the bare place where from
                bound = (term.slot == "for" and _left_from(self.old, other)) or (
                    other.slot == "for" and _left_from(self.new, term)
                )
                opposite = changed or bound or any(slots == pair for pair in _OPPOSITE_SLOTS)
                if opposite and agrees(term, other):
                    return True
        return False

    def same_reason(self) -> str:
        restated = f", restated with '{self._change_word()}'" if self._change_word() else ""
        return f"same content{restated}"

    # Distinct, with what a cosine may add ----------------------------------------------------

    def distinct_reason(self) -> str:
        if not self.shared:
            return "nothing in common"
        if self._direction_clash():
            return "direction differs"
        if not _attitudes_agree(self.new, self.old):
            return f"said differently: {self.new.attitude} / {self.old.attitude}"
        if alike := self._two_facts_alike():
            return alike
        if apart := self._worded_apart:
            return apart
        return f"different content: {surfaces(self.new_only)} / {surfaces(self.old_only)}"

    def hint(self) -> str:
        """A typed difference (a value, a negation, a feeling) that a related cosine turns into a
        conflict. Plain word swaps are no hint: "I call my mom / my dad" is related and not in
        dispute."""
        if self.differences:
            label, new_terms, old_terms = self.differences[0]
            return f"{label} differs: {surfaces(new_terms)} / {surfaces(old_terms)}"
        if self.new.sentiment * self.old.sentiment < 0:
            return "feeling differs"
        if bool(self.new.negated) != bool(self.old.negated):
            return "negation differs"
        return ""

    def merge_veto(self) -> str:
        """Why a high cosine alone must not merge this pair."""
        if values(self.new_only) or values(self.old_only):
            return "a value differs"
        if self.new.negated or self.old.negated:
            return "negation"
        if self.new.sentiment * self.old.sentiment < 0:
            return "feeling differs"
        if (self.new.order is None) != (self.old.order is None) or (
            self.new.order is not None and not self._orders_equal()
        ):
            return "order differs"
        if self._change_word():
            return f"change word '{self._change_word()}'"
        if not _attitudes_agree(self.new, self.old) or self._direction_clash():
            return "said differently"
        if alike := self._two_facts_alike():
            return alike
        if apart := self._worded_apart:
            return apart
        if any(map(_known_thing, self.new_only)) and any(map(_known_thing, self.old_only)):
            return "different things"  # "my mom" / "my dad": related, never one fact
        return ""


def _voice_changed(
    new: Reading, old: Reading, first: tuple[Term, Term], second: tuple[Term, Term]
) -> bool:
    """Whether two terms (each in the new fact matched with its match in the old) change places
    only as a passive said actively does: the one it is done to first in the passive and its
    doer after "by", the doer first in the other ("Liam is looked after by Nana" / "Nana looks
    after Liam")."""
    if new.passive == old.passive:
        return False
    side = 0 if new.passive else 1
    (done, done_active), (doer, doer_active) = (
        (first[side], first[1 - side]),
        (second[side], second[1 - side]),
    )
    if done.slot == "by":
        (done, done_active), (doer, doer_active) = (doer, doer_active), (done, done_active)
    # The passive's words in the order said: a relative it is about stands first among its
    # terms wherever it was said ("The dog is looked after by my mum").
    return (
        doer.slot == "by"
        and not done.slot
        and done.at < doer.at
        and doer_active.position < done_active.position
    )


def _done_to_in_one(term: Term, other: Term) -> bool:
    """Whether one term is what is done (straight after the verb) and the other is whom it is
    done for, with or against: "Max plays for Hartley" / "max plays Hartley" (his team against
    the other side), "runs the running club" / "runs with the running club"."""
    return any(
        not done.slot and done.position > 0 and not done.in_subject and beside.slot in _PARTNER
        for done, beside in ((term, other), (other, term))
    )


def _whose_things(reading: Reading) -> dict[str, str]:
    """Each owner a fact names with the (first) thing it owns ("our car", "pete's garage")."""
    found: dict[str, str] = {}
    for owner, thing in _owned_in_turn(reading):
        found.setdefault(owner, thing)
    return found


def _owned_in_turn(reading: Reading) -> list[tuple[str, str]]:
    """Each owner and thing owned in the order said ("our car", "pete's garage", "their skip");
    "our" for the household's."""
    return [
        ("our" if owned[1] else owned[2] or f"{owned[3]}'s", owned[4])
        for owned in _OWNED_THING.finditer(reading.said.lower())
    ]


def _owners_traded(new: Reading, old: Reading) -> bool:
    """ "My car hit Tom's car" / "Tom's car hit my car": the same things with the same owners,
    whose stands where changing; not a list ("my car and Tom's car") nor a relation the same
    both ways ("my choir sang with Sue's choir")."""
    now, before = _owned_in_turn(new), _owned_in_turn(old)
    if len(now) < _TRADED or now == before or sorted(now) != sorted(before):
        return False
    if [thing for _, thing in now] != [thing for _, thing in before]:
        return False  # the things said in another order, each still its owner's
    readings = (new, old)
    if new.passive != old.passive:
        return False  # "Tom's dog was bitten by my dog" says "my dog bit Tom's dog" again
    return not any(
        _symmetric(r) or _OWNED_LIST.search(r.said.lower()) or _ALIKE_BOTH_WAYS.search(r.plain)
        for r in readings
    )


_ALIKE_BOTH_WAYS = re.compile(r"\bthe same \w+(?: \w+)? as\b|\blooks? like\b|\bas \w+ as\b")
"""Words of a relation that holds both ways: "in the same class as", "looks like", "as tall
as" (not "bigger than", "doesn't like")."""


_TRADED = 2
_OWNED_THING = re.compile(r"\b(?:(my|our)|(his|her|their|your)|(\w+)'s)\s+(\w+)")
_OWNED_LIST = re.compile(
    r"\b(?:my|our|his|her|their|your|\w+'s)\s+\w+\s*(?:,|\band\b|\bor\b|&)\s*"
    r"(?:my|our|his|her|their|your|\w+'s)\s"
)
"""Things of two owners listed: "my car and Tom's car", "Tom's, my ..."."""

_OPENING_OWNER = re.compile(r"\W*(?:(?:my|our|the|your)\s+)?\w+(?:\s+\w+)?'s\b")
"""A fact that opens with whose it is ("My best friend's name is ...")."""

_NEXT_TO = re.compile(r"\bnext (?:to|door)\b")
"""Beside one another: a place that holds both ways, its words read as no term."""

_TURNING_VERBS = frozenset(
    "play plays played playing run runs ran running race races raced racing fight fights fought "
    "fighting compete competes competed competing box boxes boxed boxing pay pays paid paying "
    "drive drives drove driven driving work works worked working write writes wrote written "
    "writing".split()
)
"""Verbs whose object is another than whom they are done for or with: "plays Hartley" / "plays
for Hartley", "runs the club" / "runs with the club", "pays Tom" / "pays for Tom"."""
_PARTNER = frozenset(("for", "with", "against"))
"""Words before whom a deed is done for, with or against."""


def _took_the_place(
    first: tuple[Term, Term], second: tuple[Term, Term], matched: Sequence[tuple[Term, Term]]
) -> bool:
    """Whether one of two terms now stands where the other stood (each a term in the new fact
    matched with its match in the old): beside a third term both facts say, on the same side of
    it, where it did not stand before; or in the other's part of the fact ("The cat is scared
    of the dog" / "The dog is scared of the cat"), unless it moved there with a neighbour (a
    clause or a phrase moved whole: "Tom's mum is Helen")."""

    def part(term: Term) -> tuple[str, bool]:
        return term.slot, term.in_subject

    exchanged = part(first[0]) == part(second[1]) and part(second[0]) == part(first[1])
    if exchanged and part(first[0]) != part(first[1]):
        together = (first[0], second[0], first[1], second[1])
        if not any(_kept_beside(pair, matched, together) for pair in (first, second)):
            return True
    for mover, stayer in ((first, second), (second, first)):
        for anchor, anchor_old in matched:
            if anchor in (first[0], second[0]) or anchor_old in (first[1], second[1]):
                continue
            side = mover[0].position - anchor.position
            if abs(side) != 1:
                continue
            if stayer[1].position - anchor_old.position == side and (
                mover[1].position - anchor_old.position != side
            ):
                return True
    return False


_CLAUSE_BREAK = re.compile(
    r";|(?<!\d),|,(?!\d)|(?<!hundred )(?<!thousand )\b(?:and|but)\b"
    r"(?! a half\b(?!-)| a quarter\b(?!-)| three quarters\b)",
    re.IGNORECASE,
)
"""Where a clause ends: not in a number ("1,450", "four hundred and fifty", "a cup and a
half")."""


def _listed(words: frozenset[str]) -> str:
    return ", ".join(sorted(words))


def _never_of_the_past(reading: Reading) -> bool:
    """ "I never liked jazz", "I've never smoked": "never" of what held, not of now."""
    return "never" in reading.said_tokens and (
        reading.tense == "past" or markers.perfect(reading.said_tokens)
    )


def _kept_or_given_up(new: Reading, old: Reading) -> str:
    """ "I sold the bike with the lock" / "... without the lock": one giving up ("sold", "gave
    away") in both, a thing given up in one and kept in the other."""
    changes = {reading.change.lower() for reading in (new, old)}
    if len(changes) != 1 or not lexicon.gives_up(new.change):
        return ""
    kept = [{term.text for term in reading.terms} for reading in (new, old)]
    gone = [{term.text for term in reading.negated} for reading in (new, old)]
    moved = (kept[0] & gone[1]) | (gone[0] & kept[1])
    return f"negation differs: {_listed(frozenset(moved))} kept in one" if moved else ""


def _active_deed_at(said: Sequence[str], deed: str) -> int:
    """Where the deed (a verb's base) is said actively, or -1: not said, or said as a passive
    ("got hired")."""
    at = next((i for i, word in enumerate(said) if markers.verb_base(word) == deed), -1)
    return -1 if at > 0 and said[at - 1] in markers.BE else at


def _perfect_said(reading: Reading) -> str:
    """ "had" for a past perfect ("had lived"), "have" for a present one ("have lived")."""
    said = reading.said_tokens
    if markers.past_perfect(said):
        return "had"
    # "mum's been" is read "mum is been", never a copula before "been"
    return "have" if markers.perfect(said) or ("is", "been") in pairwise(said) else ""


def _lists_paired_otherwise(new: Reading, old: Reading) -> str:
    """ "Tom, Ann and Joe are 8, 10 and 3 respectively" / "... 10, 8 and 3 ...", "tom ann and
    joe do dishes laundry and cooking" / "... laundry dishes and cooking": the same lists, one in
    another order, so that what goes with what changes; or one list in another order where the
    order is what it says ("in that order"). Two lists turned round together pair alike."""
    lists = [_lists(reading) for reading in (new, old)]
    if len(lists[0]) != len(lists[1]) or not lists[0]:
        return ""
    if any(Counter(one) != Counter(other) for one, other in zip(*lists, strict=True)):
        return ""
    if lists[0] == lists[1]:
        return ""
    if len(lists[0]) == 1:
        return "order differs: the list said in another order" if new.ordered else ""
    if len({len(items) for items in lists[0]}) > 1:
        return ""  # lists of other lengths pair nothing by place
    said = set(new.said_tokens)
    # ages or days, one to each ("8, 10 and 3", "Mon, Wed, Fri: swim, run, cycle"), or chores
    numbers = any(all(item[:1].isdigit() for item in items) for items in lists[0])
    days = any(
        all(set(lexicon.groups_of(item)) & {"weekday", "month"} for item in items)
        for items in lists[0]
    )
    paired = "respectively" in said or ":" in said or said & _PAIRING_VERBS
    if not (numbers or days or paired):
        return ""  # "Tom and Ann like cats and dogs", "... have swimming and ballet": each both
    paired = [{tuple(items) for items in zip(*found, strict=True)} for found in lists]
    return "pairs differ: the lists matched otherwise" if paired[0] != paired[1] else ""


@lru_cache(maxsize=4096)  # asked for each pair of terms a role check weighs
def _lists(reading: Reading) -> tuple[tuple[str, ...], ...]:
    """The lists in a fact, each its terms in order: terms with only commas, "and", "or" or an
    article between them ("tom ann and joe", "the dishes, the laundry and the cooking")."""
    said = reading.said_tokens
    found: list[list[str]] = []
    joined: list[bool] = []  # whether a list has a comma or an "and" of its own
    last: Term | None = None
    for term in sorted(reading.terms, key=lambda term: term.at):
        if term.text == "respectively":
            continue
        between = set(said[last.at + 1 : term.at]) if last is not None else {""}
        # side by side with nothing between, only things of one kind ("tom ann"; not "came 1")
        listed = between <= _LISTING and (bool(between) or last.kind is term.kind)
        if found and listed:
            found[-1].append(term.text)
            joined[-1] = joined[-1] or bool(between & _JOINING)
        else:
            found.append([term.text])
            joined.append(False)
        last = term
    return tuple(tuple(items) for items, join in zip(found, joined, strict=True) if join)


_PAIRING_VERBS = frozenset("do does did is are was were".split())
"""Verbs that give each of one list its own of the other ("Tom and Ann are a doctor and a
teacher", "tom ann and joe do dishes laundry and cooking")."""


def _one_list(reading: Reading, first: Term, second: Term) -> bool:
    """Whether two terms are items of one list said in no order ("English, French and German";
    not "Tom, Ann and Joe, oldest to youngest", "ages 8, 10 and 12", "my top three")."""
    if _RANKED & set(reading.said_tokens) or TermKind.NUMBER in (first.kind, second.kind):
        return False
    return any(first.text in items and second.text in items for items in _lists(reading))


_RANKED = frozenset(
    "first top preference preferences choice choices podium rota youngest oldest eldest ranked "
    "ranking".split()
)


_JOINING = frozenset((",", "and", "or", "&"))
_LISTING = _JOINING | {"the", "a", "an"}


def _planned_or_done(new: Reading, old: Reading) -> str:
    """ "I'm going to quit smoking" / "I quit smoking", "i'm gonna set up the router" / "I set up
    the router": a deed said as meant in one fact and as done (or done now) in the other, by the
    same word ("quit" has one form for both)."""
    for planning, doing in ((new, old), (old, new)):
        meant = _meant_deeds(planning.said_tokens)
        done = {
            word
            for before, word in pairwise(("", *doing.said_tokens))
            if word in meant
            and before not in _MEANING
            and before not in PREPOSITIONS
            and before not in _DOING_A_THING
        }
        ahead = _AHEAD & set(doing.said_tokens)  # "I retire next year": planned too
        if meant and done and not ahead and not _meant_deeds(doing.said_tokens):
            return f"tense differs: going to {min(done)} / {min(done)}"
    return ""


def _meant_deeds(words: Sequence[str]) -> frozenset[str]:
    """The words after "going to" or "about to" ("quit" in "I'm going to quit")."""
    return frozenset(
        following
        for first, second, following, after in zip(
            words, words[1:], words[2:], [*words[3:], ""], strict=False
        )
        if second == "to"
        and first in ("going", "about")
        and following not in STOP_WORDS
        and after != "'s"  # "going to Ali's": a place
    )


_AHEAD = frozenset(
    "next tomorrow tonight soon later monday tuesday wednesday thursday friday saturday sunday "
    "january february march april may june july august september october november december "
    "weekend".split()
)
"""Words that set a deed ahead, making the present a plan ("I see the doctor on Monday")."""

_DOING_A_THING = frozenset("do does doing go goes went attend attends attended".split())
"""Words before an activity named, not done ("I do yoga", "I go to yoga"); not "have", which
is as often a deed done ("I have quit smoking")."""

_WHEN_MEANT = frozenset("next last month week year day his her their my our".split())
"""Words a deed meant and one done may differ by and stay one deed ("going to quit next month"
/ "quit last month")."""

_MEANING = frozenset(
    "to will would gonna can could should might must a an the my our his her their".split()
)
"""Words before a deed that say it is not done ("will start", "want to quit"), or that make
the word a thing ("the read")."""


def _compared_otherwise(new: Reading, old: Reading) -> str:
    """ "I like jazz more than I used to" / "... less than I used to", "I sleep better than I
    did" / "worse than I did": a comparison with nothing ranked after it (so no order is read),
    the one way in one fact and the other way in the other."""
    if new.order is not None or old.order is not None:
        return ""
    said = [
        [
            word
            for before, word in pairwise(("", *reading.said_tokens))
            if word in _COMPARATIVES and before != "not"  # "not more than five minutes away"
        ]
        for reading in (new, old)
    ]
    ways = [[_COMPARATIVES[word] for word in words] for words in said]
    if not ways[0] or len(ways[0]) != len(ways[1]) or ways[0] == ways[1]:
        return ""
    return f"comparison differs: {_as_phrase(said[0])} / {_as_phrase(said[1])}"


def _as_phrase(words: Sequence[str]) -> str:
    return " ".join(words).replace("-", " ")


_NO_WHEN = lexicon.PAST_MARKERS | {"new", "month", "week"}
"""Change words that say nothing of when: "Jen is my brother's new girlfriend" is now, and
"Jen was his girlfriend" then. "Last week" and "last month" date what was so, as "last year"
does: "I had a cold last month" is then, and "I have a cold" now."""

_COMPARATIVES = {"more-than": True, "better-than": True, "less-than": False, "worse-than": False}
"""The comparisons that say which way ("more than", "less than"), by the way they say."""


def _clauses_reordered(new: Reading, old: Reading) -> bool:
    """Whether two facts say the same clauses in another order, each clause whole."""
    said = [sorted(clause) for clause in _clause_terms(new, old)]
    return len(said[0]) >= 2 and said[0] == said[1]


def _clauses_traded(new: Reading, old: Reading) -> str:
    """ "The front door is green and the back door is red" / "... red ... green", "Gran comes
    to us for Christmas and we go to her for Easter" / the other way: a term leaving one clause
    for another, each clause keeping a term of its own ("front door", "Christmas"). A list
    reordered keeps none ("tea and coffee"); clauses said whole in another order are one fact."""
    if _clauses_reordered(new, old):
        return ""
    clauses = _clause_terms(new, old)
    if len(clauses[0]) < 2 or len(clauses[0]) != len(clauses[1]):
        return ""
    gained, lost = [], []
    for new_clause, old_clause in zip(*clauses, strict=True):
        said, said_before = Counter(new_clause), Counter(old_clause)
        if not said & said_before:
            return ""  # a clause with nothing of its own kept
        gained.append(said - said_before)
        lost.append(said_before - said)
    moved = {
        term
        for left, lost_here in enumerate(lost)
        for joined, gained_there in enumerate(gained)
        if left != joined
        for term in lost_here & gained_there
    }
    return f"clauses trade terms: {_listed(frozenset(moved))}" if moved else ""


def _denied_in_turn(new: Reading, old: Reading) -> str:
    """ "The walls are painted, the ceiling isn't" / "the ceiling's painted but the walls
    aren't": each fact affirms one clause and denies another, and what one affirms the other
    denies, both ways ("the ceiling isn't painted yet, but the walls are" moves only "painted",
    and says the same)."""
    sides = [_affirmed_and_denied(reading) for reading in (new, old)]
    if sides[0] is None or sides[1] is None:
        return ""
    (affirmed, denied), (affirmed_before, denied_before) = sides[0], sides[1]
    now_affirmed, now_denied = affirmed & denied_before, denied & affirmed_before
    if not (now_affirmed and now_denied):
        return ""
    return f"negation differs: {_listed(now_affirmed)} / not {_listed(now_denied)}"


def _affirmed_and_denied(reading: Reading) -> tuple[frozenset[str], frozenset[str]] | None:
    """The terms only in a fact's affirmed clauses and those only in its denied ones, when it has
    clauses of both."""
    affirmed: set[str] = set()
    denied: set[str] = set()
    for piece in _CLAUSE_BREAK.split(reading.text):
        clause = read(piece) if piece.strip() else None
        if clause is None or not clause.content:
            continue
        negating = any(word in lexicon.NEGATIONS for word in clause.said_tokens)
        (denied if negating else affirmed).update(term.text for term in clause.content)
    if not (affirmed and denied):
        return None
    return frozenset(affirmed - denied), frozenset(denied - affirmed)


def _clause_terms(new: Reading, old: Reading) -> list[list[tuple[str, ...]]]:
    """Each fact's clauses (split at commas, "and", "but"), each read on its own for its terms."""
    return [
        [
            tuple(term.text for term in read(piece).terms)
            for piece in _CLAUSE_BREAK.split(reading.text)
            if piece.strip()
        ]
        for reading in (new, old)
    ]


_CLAUSE_TERMS = 3
"""Who, what is done, and to whom: fewer terms are no clause to swap within."""


def _doer_first(reading: Reading, side: Sequence[Term]) -> list[Term]:
    """The terms that say who does what to whom, in that order: a passive's doer (after "by")
    first and the one it is done to in its place; times and places left out."""
    terms = [term for term in side if term.slot not in TIME_PREPOSITIONS]
    doers = [index for index, term in enumerate(terms) if term.slot == "by"]
    if not (reading.passive and doers and doers[0] > 0):
        return terms
    doer = terms.pop(doers[0])
    done_to = terms.pop(0)
    # The one it is done to goes after the verb, where an active fact has it, whatever stands
    # between the verb and "by": "Ella is driven to school by Jo" is "Jo drives Ella to school".
    verb = 1 if terms and markers.participle(terms[0].surface.split()[0].lower()) else 0
    return [doer, *terms[:verb], done_to, *terms[verb:]]


def _kept_beside(
    pair: tuple[Term, Term], matched: Sequence[tuple[Term, Term]], apart: Sequence[Term]
) -> bool:
    """Whether a term has the same neighbour on the same side in both facts."""
    for anchor, anchor_old in matched:
        if anchor in apart or anchor_old in apart:
            continue
        side = pair[0].position - anchor.position
        if abs(side) == 1 and pair[1].position - anchor_old.position == side:
            return True
    return False


def _possessors(reading: Reading) -> set[str]:
    """Whose the people a fact names are: a name or a relative before "'s" and a thing ("Ann's
    sister", "dad's cooking"), and "his", "her" or "their" before a relative ("his mum"). Not
    the household's own ("my mum's birthday"), nor "'s" for "is" ("ben's a nurse", "tom's
    sara's boss"), nor the other side of a relation the same both ways ("Tom is Hugo's
    friend")."""
    lowered = reading.said.lower()
    named = {
        lexicon.RELATIONS.get(found[1], found[1])
        for found in _OWNED.finditer(lowered)
        if found[1] not in _NOT_OWNERS
        and not lowered[: found.start()].rstrip().endswith(("my", "our", "your"))
        and found[2] not in _AFTER_IS
        and not (reading.functional and found[2] in lexicon.SYMMETRIC)
        # "tom's coming" opening a fact is "is coming"; "likes mia's cooking" is hers
        and not (found[2].endswith(("ing", "ed")) and not lowered[: found.start()].strip())
    }
    pronouns = {
        pronoun
        for pronoun, following in _PRONOUN_OWNED.findall(lowered)
        if following in _RELATIVE_WORDS
    }
    return named | pronouns


_OWNED = re.compile(r"\b(\w+)'s\s+(?=(\w+))")
_SOMEONE_THERE = re.compile(
    r"^\s*(\w+)(?:'s| is) (?:in|at|on|by|with|near|upstairs|downstairs|outside|inside|out|home)\b"
)
"""Someone somewhere: "sam's in the car", "mum's upstairs"."""
_PRONOUN_OWNED = re.compile(r"\b(his|her|their)\s+(\w+)")
_NOT_OWNERS = frozenset("it that what there he she who where here let how".split())
_AFTER_IS = frozenset(
    "a an the not no on at in by from with off out over up down been got gone called named "
    "very so too really always never now still just also".split()
)
"""Words after a "'s" that is "is" or "has": "ben's a nurse", "mum's on holiday"."""
_RELATIVE_WORDS = frozenset(lexicon.RELATIONS) | frozenset(lexicon.RELATIONS.values())


def _being_and_having(being: Reading, having: Reading) -> str:
    """ "Mum is a carer" / "mum has a carer", "I'm a maths tutor" / "I have a maths tutor",
    "Luna is a collie" / "luna has a collie": the same one being someone (a person by their
    work or relation, or an animal) in one fact and having one in the other. Not a thing of the
    speaker's that is one ("My phone is an iPhone" / "I have an iPhone"), nor a rank one both
    is and has ("a brown belt")."""
    found = _BEING.search(being.said)
    if found is None:
        return ""
    said = found[1].split()
    for role in (said[:2], said[:1]):  # "a maths tutor", "a nurse at ..."
        # Written small (a make or a name is no role: "The boiler is a Worcester Bosch"), and
        # its head a person or an animal.
        head = role[-1].lower()
        if not ((role[-1].islower() or head in _TRADES) and _one_to_be_or_have(head)):
            continue  # (a trade in capitals is still one: "a GP")
        named = " ".join(role).lower()
        goes_on = rf"\ban? {named}\b(.*)$"
        has = rf"^(.*?)\b(?:has|had|have|gets|got)(?: got)? {goes_on}"
        held = re.search(has, having.said.lower())
        if held is None or _holder(held[1]) != _holder(being.said[: found.start()]):
            continue  # another holder: "My phone is an iPhone" / "I have an iPhone"
        rest = _WORDS.findall(held[2])
        kept = re.search(goes_on, being.said.lower())
        # The having side's thing ends at the role ("a student card" is no student), or both
        # go on alike ("... every morning").
        if not rest or rest[0] in _AFTER_ROLE or (kept and rest == _WORDS.findall(kept[1])):
            return f"being against having: a {named}"
    return ""


def _becoming_and_having(becoming: Reading, other: Reading) -> str:
    """ "I want to be a teacher" / "I want a teacher", "I'm training as an electrician" / "I'm
    training an electrician": someone to be or to become in one fact (after "to be", "to
    become" or "as") and the one done to or with in the other; not the other being one ("I'm a
    teacher", "im a nurse", "my husbands a bus driver") or saying it the same way."""
    said = other.said.lower()
    if _BECOMING.search(said):
        return ""
    for found in _BECOMING.finditer(becoming.said.lower()):
        words = found[1].split()
        role = next((word for word in words if _one_to_be_or_have(word)), None)
        if role is None or words[0] in STOP_WORDS:
            continue  # "has to be at the dentist": where, not who
        if any(role in being["said"].split() for being in _being_as_said(said)):
            return ""  # "I work as a nurse" / "I'm a nurse": the same
        if re.search(rf"\b{re.escape(role)}(?:e?s)?\b", said):
            return f"to be one against one done to: {role}"
    return ""


_BECOMING = re.compile(r"\b(?:to be|to become|as)(?: an?)? ((?:\w+ ){0,2}\w+)")
"""Someone to be, and the words after: "as a cleaner for", "to be a maths teacher"."""


def _holder(text: str) -> list[str]:
    """Who a fact before its verb says is or has something, without a verb's contraction: "dad"
    of "dad's got", "i" of "I've got" and of "I'm"."""
    return [word for word in _WORDS.findall(text.lower()) if word not in _CONTRACTED]


_CONTRACTED = frozenset("s ve d ll re m".split())


def _one_to_be_or_have(word: str) -> bool:
    """A word for someone one can be or have: a relative, one by their work ("carer", "tutor",
    "nurse"), or an animal ("a collie")."""
    return (
        word in _RELATIVE_WORDS
        or word in _TRADES
        or word in _ANIMALS
        or word.endswith(_AGENT_ENDINGS)
    )


_TRADES = frozenset(
    "nurse nanny childminder lodger tenant vet cook chef coach mum dad student pupil client "
    "patient apprentice assistant intern trainee gp physio midwife surgeon consultant "
    "paramedic".split()
)
_AGENT_ENDINGS = ("er", "or", "ist", "ian")


def _striving(reading: Reading) -> bool:
    """ "I tried to fix the dishwasher", "I was going to cancel Netflix", "I want to like jazz": a
    try, a deed meant and not done, or a wish to feel, is not the deed or the feeling ("I fixed
    the dishwasher", "I like jazz"); "I tried sushi" is."""
    return _STRIVING.search(reading.plain) is not None


_STRIVING = re.compile(
    r"\b(?:try|tries|tried|trying|attempts?|attempted|attempting) (?:to|\w+ing)\b"
    r"|\b(?:wants?|wanted|wanna|wish|hope|'d (?:like|love)|would (?:like|love)) (?:to )?"
    r"(?:like|love|enjoy)\b"
    r"|\b(?:was|were) (?:going to|gonna|about to)\b|\b(?:would|'d) have\b"
)

_ANIMALS = frozenset(
    "dog cat pet puppy kitten rabbit hamster fish horse bird tortoise collie spaniel labrador "
    "terrier tabby".split()
)
_AFTER_ROLE = frozenset("at for who called with from in on to and but now again".split())
"""Words that may follow a role ("has a tutor for maths") where a noun would make it a thing."""

_BEING = re.compile(r"(?:\b(?:is|was|am|are|were)|'m) an? ((?:\w+ )?\w+)\b(?! person)", re.I)
_BEING_AS_SAID = re.compile(
    r"(?:\b(?:is|was|am|are|were|im)|'m|'s|\b(?P<kin>\w+)s) an? (?P<said>(?:\w+ )?\w+)\b"
)


def _being_as_said(text: str) -> Iterator[re.Match[str]]:
    """Being someone, in a transcript's words too: "im a nurse", and a relative's "'s" without
    its apostrophe ("my husbands a bus driver"; not a verb's "s": "wants a doctor")."""
    for found in _BEING_AS_SAID.finditer(text):
        if found["kin"] is None or found["kin"] in lexicon.RELATIONS:
            yield found


def _occasions_differ(new: Reading, old: Reading) -> str:
    """ "This weekend" in one fact, "every weekend" (or "some weekends") in the other."""
    for how, time in new.occasions:
        for other, when in old.occasions:
            if when == time and other != how:
                return f"which occasions differ: {how} / {other} {time}"
    return ""


def _relatives_reordered(new: Reading, old: Reading) -> str:
    """ "Emma's friend's mum" / "Emma's mum's friend": the same people in a chain of whose, in
    another order, are another person."""
    chains = [_CHAIN.findall(reading.text.lower()) for reading in (new, old)]
    for chain in chains[0]:
        for other in chains[1]:
            said, said_before = chain.split("'s "), other.split("'s ")
            if said == said_before or sorted(said) != sorted(said_before):
                continue
            # two words, both relatives ("my aunt's son"): "swimming's Tuesday" is "is"
            if len(said) > _PAIR or all(word in _RELATIVE_WORDS for word in said):
                return f"whose person differs: {chain} / {other}"
    return ""


_PAIR = 2


def _role_of_role(new: Reading, old: Reading) -> str:
    """ "Lucy is my boss" / "Lucy is my boss's boss": one role said of itself in one fact (the
    boss of the speaker's boss, "my bosses boss" as a transcript writes it), and no chain of
    whose in the other, another person."""
    texts = [reading.text.lower() for reading in (new, old)]
    doubled = [_DOUBLED.search(text) for text in texts]
    if bool(doubled[0]) == bool(doubled[1]):
        return ""
    said = next(match for match in doubled if match)
    other = texts[1] if doubled[0] else texts[0]
    if any(found[1] == said[1] for found in _WHOSE.finditer(other)):
        return ""  # "my boss's boss" / "my boss's manager": the role's own, said otherwise
    return f"whose differs: {said[1]} / {said[0]}"


def _named_or_described(new: Reading, old: Reading) -> bool:
    """ "My cat is called Ginger" / "my cat is ginger", "My pony is called Star" / "my pony is a
    star": a name in one fact, and in the other the same word said of it small, a description.
    (Written with a capital, "my son is Tom", it is the name said plainly.)"""
    names = [_NAMING.search(reading.text) for reading in (new, old)]
    if bool(names[0]) == bool(names[1]):
        return False
    named = next(found[1] for found in names if found)
    naming = new if names[0] else old
    if naming.subject.relative and naming.subject.relative not in _PETS:
        return False  # a person's name is seldom a word that describes them ("my boss is priya")
    plain = (old if names[0] else new).text.replace("\u2019", "'")
    described = re.search(
        rf"(?:\b(?:is|are|was)|'s)\s+(?:(?:a|an|my|our|the)\s+)?({named})\b", plain, re.I
    )
    return described is not None and not described[1][0].isupper()


def _digits_reordered(new: Reading, old: Reading) -> bool:
    """ "My phone number is 07700 900123" / "... 900123 07700": numbers said one after another
    are one value, its groups in their order."""
    runs = [[run for run in _number_runs(reading) if len(run) > 1] for reading in (new, old)]
    groups = [sorted(tuple(sorted(run)) for run in side) for side in runs]
    return bool(runs[0]) and groups[0] == groups[1] and runs[0] != runs[1]


def _number_runs(reading: Reading) -> list[tuple[str, ...]]:
    """The numbers of a fact, those said one straight after another in one run."""
    runs: list[list[str]] = []
    previous = False
    for word in reading.said_tokens:
        number = word[:1].isdigit()
        if number and previous:
            runs[-1].append(word)
        elif number:
            runs.append([word])
        previous = number
    return [tuple(run) for run in runs]


def _in_place_of(reading: Reading, other: Reading) -> bool:
    """ "wine instead of beer" / "wine and beer", "the quiz instead of Pete" / "the quiz with
    Pete": one thing in place of another, and in the other fact no choice at all ("rather than",
    "over" say it too)."""
    return bool(_INSTEAD.search(reading.text)) and not _CHOSEN.search(other.text)


_INSTEAD = re.compile(r"\b(?:instead of|in place of)\b", re.I)
_CHOSEN = re.compile(r"\b(?:instead of|in place of|rather than|over|than)\b", re.I)

_PETS = frozenset(("dog", "cat", "pet"))
"""Relatives that are animals, whose names may be words that describe them ("Lucky")."""
_NAMING = re.compile(
    r"\b(?:called|named|nicknamed|goes by|go by|known as|name is|name's)\s+(\w+)", re.I
)
"""What names a thing or person, and the name after it."""

_OWNER = r"\b(\w{3,})(?:'s|s'|es|s) "
"""A word as whose, as typed or as a transcript writes it: "boss's", "bosses"."""
_DOUBLED = re.compile(_OWNER + r"\1\b")
"""A role's own role: "boss's boss", "bosses boss"."""
_WHOSE = re.compile(_OWNER + r"\w")
"""A chain of whose, and the first in it: "boss" of "boss's manager"."""

_CHAIN = re.compile(r"\b\w+(?:'s \w+)+")
"""A chain of whose: "jack's friend's mum", "my aunt's son"."""


def _whose_role(speaking: Reading, owning: Reading, matched: Sequence[tuple[Term, Term]]) -> str:
    """ "I'm Tom's next of kin" / "Tom is my next of kin": the speaker holds another party's
    role in one fact ("Tom's") and owns the role in the other, where that party holds it."""
    if speaking.speaker_role != "subject" or "speaker" in speaking.owners:
        return ""
    if "speaker" not in owning.owners or owning.speaker_role == "subject":
        return ""
    if len(speaking.terms) != len(owning.terms) or len(matched) != len(speaking.terms):
        return ""  # the same terms, each said once, in both
    for said, owned in matched:
        whose = re.search(rf"\b{re.escape(said.surface)}'s\b", speaking.text, re.IGNORECASE)
        party = owned.kind is TermKind.NAME or owned.text in _RELATIVES
        if party and whose and not said.in_subject:
            return f"roles differ: the speaker and {owned.surface} change places"
    return ""


def _said_once(term: Term, side: Sequence[Term]) -> bool:
    return sum(1 for other in side if agrees(term, other)) == 1


def _around(reading: Reading, first: Term, second: Term) -> set[str]:
    """The sequence words ("then", "before") that stand between two terms of a reading."""
    low, high = sorted((first.position, second.position))
    return {word for word, at in reading.sequence if low < at <= high}


def _does_or_feels(reading: Reading, party: Term) -> bool:
    """Whether a fact says something done or felt besides who by and to whom."""
    said = set(reading.said_tokens)
    if reading.passive or (reading.sentiment != 0 and not said & lexicon.RANKING):
        return True
    if any(  # "Dave took over from my husband", "Karen is covering for my wife"
        word in lexicon.IRREGULAR_PAST or (word.endswith(("ing", "ed")) and len(word) > 4)
        for at, word in enumerate(reading.said_tokens)
        if at not in reading.subject.tokens and at != party.at
    ):
        return True
    # "Heat is my brother's favourite film": what a thing is, nothing done
    return not COPULAS & said and any(
        term is not party and term.at not in reading.subject.tokens and term.kind is TermKind.WORD
        for term in reading.terms
    )


_RECIPROCAL = frozenset(
    markers.verb_base(word)
    for word in "meet know see play fight argue chat talk speak agree compete race across "
    "opposite doors".split()
)
"""Deeds done with each other, and places across from each other ("My sister met Tom" is "Tom
met my sister"; "lives across the road from Tom")."""


def _whose(reading: Reading, term: Term) -> bool:
    """Whether a term says whose something is ("Tom" in "Tom's son"; a "'s" at the end may
    have been read as "is")."""
    if reading.said_tokens[term.at + 1 : term.at + 2] == ("'s",):
        return True
    return re.search(rf"\b{re.escape(term.surface)}['\u2019]s\b", reading.text, re.I) is not None


def _symmetric_deed(reading: Reading) -> bool:
    """Whether a fact says a relation that holds both ways beside who it is about ("works with
    my sister"; "the neighbour's dog" is no relation said)."""
    said = reading.said_tokens
    return any(
        (word in lexicon.SYMMETRIC and at not in reading.subject.tokens)
        or markers.verb_base(word) in _RECIPROCAL
        or word.startswith("resembl")
        or (word == "like" and at and said[at - 1].startswith("look"))  # "looks like"
        for at, word in enumerate(said)
    )


def _held_does_it(reading: Reading, party: Term) -> bool:
    """Whether who the fact is about does it to ``party``: said before them, or after them as
    a passive's doer; not when the party gives it ("gets help from Tom")."""
    if party.slot == "by" or (party.slot == "from" and _RECEIVING & set(reading.said_tokens)):
        return False  # "was bitten by Mia", "gets help from Tom": the party does it
    return (min(reading.subject.tokens) < party.at) != reading.passive


_RECEIVING = frozenset("get gets got getting receive receives received".split())


def _listed_with_held(reading: Reading, party: Term) -> bool:
    """Whether a party is listed with who the fact is about ("my mum and Anna"), only "and" or a
    comma between them."""
    held = reading.subject.tokens
    start, end = sorted((party.at, min(held) if party.at < min(held) else max(held)))
    between = set(reading.said_tokens[start + 1 : end])
    return bool(between) and between <= {"and", ",", "&"}


def _symmetric(reading: Reading) -> bool:
    """Says a relation that holds both ways ("married to", "works with", "sits next to", "lives
    next door"); not one ranked among others ("Tom is Hugo's best friend" says nothing of
    Hugo's best), nor "next week"."""
    words = _WORDS.findall(reading.text.lower())
    return any(
        word in lexicon.SYMMETRIC
        and not (index and words[index - 1] in lexicon.RANKING)
        and not (word == "with" and _one_way_with(words[:index]))
        and (word != "next" or words[index + 1 : index + 2] in (["door"], ["to"]))
        for index, word in enumerate(words)
    )


def _one_way_with(before: Sequence[str]) -> bool:
    """Whether "with" (after the words ``before``) follows a deed that goes one way: a guest
    staying with a host ("Kate is staying with Mum", "moving in with us"), a thing left with a
    keeper ("leaving the car with Steve"). Not "lives with", "left with Tom", "stays in touch
    with": those hold both ways."""
    if before and before[-1] in _STAYING:
        return True
    if before[-2:-1] and before[-1] == "in" and before[-2] in _MOVING:
        return True
    # A thing between the leaving and "with": "leaving the spare key with Pete".
    return any(word in _LEAVING for word in before[-_THING_WORDS - 1 : -1])


_STAYING = frozenset(
    "stay stays stayed staying stopping lodge lodges lodged lodging boarding".split()
)
_MOVING = frozenset("move moves moved moving".split())
_RECEIVING_SLOTS = frozenset(("to", "for", "from"))
_LEAVING = frozenset("leave leaves leaving left drop drops dropped dropping".split())
_THING_WORDS = 3
"""Words a thing left with someone may take ("the spare key")."""


def _bears_a_role(term: Term) -> bool:
    """A name (or a word no lexicon knows, as a name written small is), a relative, a kind of
    thing, a number or a time: what can do, owe or be something to another, or fill a slot."""
    return term.kind in _ROLE_KINDS or term.maybe_name or _known_thing(term) or _small_name(term)


def _as_written(term: Term) -> str:
    """A value as typed: a number as its digits (however it was said), a word letter for letter."""
    return term.text if term.kind in _UNKEYED else _letters(term.surface)


def _in_order(terms: Sequence[Term]) -> list[Term]:
    return sorted(terms, key=lambda term: term.at)


def _typed_value(text: str) -> str:
    """The value of an "X is Y" fact or an "X: Y" note as written, without the full stop that
    ends the sentence ("jo.smith@outlook.com", "1234#")."""
    note = _NOTE.match(text)
    value = note[2] if note is not None else re.split(r"\b(?:is|are)\b|'s\b|'re\b", text)[-1]
    return undashed_digits(value.strip().rstrip(".?").strip())


_NOTE = re.compile(r"^\s*([^:]*[^:\d\s])\s*:\s*(\S.*)$", re.DOTALL)
"""A note, "Door code: 1234#": the attribute, a colon that is no clock time's, the value."""


def _letters(surface: str) -> str:
    return "".join(char for char in surface.lower() if char.isalnum())


def _span_and_list(first: Reading, second: Reading) -> str:
    """A span between two days or dates in one fact ("Monday to Friday", "Mon-Fri", "from 3 to
    10 August") and a list of days in the other ("monday and friday"): the whole span, or two
    days."""
    for spanning, listing in ((first, second), (second, first)):
        span = _SPAN.search(spanning.text)
        if span and not _SPAN.search(listing.text) and _DAYS_LISTED.search(listing.text):
            return f"a span against single days: {span[0]}"
    return ""


_DAY = (
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?"
    r"|(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)s?"
)
_POINT = rf"(?:{_DAY}|\d{{1,2}}(?:st|nd|rd|th)?|[a-z]+(?:st|nd|rd|th))"
_SPAN = re.compile(
    rf"\b{_POINT}\s*(?:-|\u2013|\s(?:to|till|until|through|thru)\s)\s*(?:the\s+)?{_POINT}\b",
    re.IGNORECASE,
)
"""Two days or dates with "to", "till", "through" or a dash between them."""
_DAYS_LISTED = re.compile(
    rf"\b{_POINT}\s*(?:,|\s(?:and|or|&))\s*(?:the\s+)?{_POINT}\b", re.IGNORECASE
)
"""Two days or dates with "and", "or" or a comma between them."""


def _timeish(term: Term) -> bool:
    """A time, a number, a day or a month, or a length of time ("a week")."""
    return (
        term.kind in _UNKEYED
        or bool({"weekday", "month", "daypart"} & set(term.groups))
        or term.text in _PERIODS
    )


def _side_by_side(reading: Reading, first: Term, second: Term) -> bool:
    """Next to each other in one part of a fact, with nothing between them that tells them apart
    (a list, "a son and a daughter"; a compound, "a Samsung TV"); two people not with a verb
    between them that is no term ("Emma takes Jack", "Dad takes jack")."""
    people = _someone(first) and _someone(second)
    numbers = first.kind is second.kind is TermKind.NUMBER
    return (
        abs(first.position - second.position) == 1
        and first.slot == second.slot
        and first.in_subject == second.in_subject
        and (not people or _written_together(reading.text, first.surface, second.surface))
        and (not numbers or _a_list_of_numbers(reading, first, second))
        and not _clause_between(reading, first, second)
    )


def _clause_between(reading: Reading, first: Term, second: Term) -> bool:
    """Whether another clause begins between two terms as said: "tea and coffee" is a list,
    "tea and I like coffee" two clauses ("I" and "like" are no terms)."""
    low, high = sorted((first.at, second.at))
    return any(word in _CLAUSE_SUBJECTS for word in reading.said_tokens[low + 1 : high])


_CLAUSE_SUBJECTS = frozenset("i we he she they you".split())


def _a_list_of_numbers(reading: Reading, first: Term, second: Term) -> bool:
    """Two numbers said as one list ("3 and 4", "3, 4"), not a label and a count with a verb
    between ("bed 3 has 12 leeks") nor a count of a measure ("3 four-foot benches")."""
    low, high = sorted((first, second), key=lambda term: term.at)
    tokens = reading.said_tokens
    if any(word not in _BETWEEN_LISTED_NUMBERS for word in tokens[low.at + 1 : high.at]):
        return False
    following = tokens[high.at + 1] if high.at + 1 < len(tokens) else ""
    return not (high.at == low.at + 1 and following in _MEASURES)


_BETWEEN_LISTED_NUMBERS = frozenset(("and", "or", "&", ",", "a", "an", "the", "by", "x"))
_MEASURES = frozenset(
    "foot feet inch inches metre metres meter meters cm mm litre litres liter liters ml kilo "
    "kilos kg gram grams pound pounds ounce ounces hour hours minute minutes second seconds day "
    "days week weeks month months year years mile miles km seater bed bedroom storey".split()
)
"""Words a number measures, so a number before it counts things of that size."""


def _compound_reversed(new: Reading, old: Reading) -> bool:
    """ "milk chocolate" / "chocolate milk": two words side by side naming one thing, side by
    side the other way round in the other fact, and not this way round. A word of a group (a
    colour, a size) counts only where one fact makes it a name ("our hen Brown" / "our brown
    hen"): after a noun it is as often said of it ("keep your answers short")."""

    def side_by_side(reading: Reading) -> dict[tuple[str, str], bool]:
        words = [term for term in reading.terms if _a_noun_maybe(term)]
        return {
            (first.text, then.text): _a_group_named(first) or _a_group_named(then)
            for first, then in pairwise(words)
            if then.at == first.at + 1
        }

    pairs, other = side_by_side(new), side_by_side(old)
    return any(
        (then, first) in other
        and (first, then) not in other
        and (not _a_group_word(new, first, then) or named or other[then, first])
        for (first, then), named in pairs.items()
    )


def _a_group_word(reading: Reading, *texts: str) -> bool:
    """Whether any of ``texts`` is a word of an exclusive group in ``reading``."""
    return any(term.kind is TermKind.GROUP and term.text in texts for term in reading.terms)


def _a_group_named(term: Term) -> bool:
    """A word of a group said as a name, capitalised after the first word ("hen Brown")."""
    return term.kind is TermKind.GROUP and term.at > 0 and term.surface[:1].isupper()


def _over(reading: Reading) -> str:
    """ "Sam is into football", "Sam is over football", "Tom is through with smoking": a liking
    begun or ended, said with a small word after "is" ("really into" is read as a liking)."""
    found = _OVER.search(reading.text)
    if found is None:
        return ""
    into = found[1].lower() == "into"
    if into and ("really" in found[0].lower() or _HOW_FAR.match(reading.text[found.end() :])):
        return ""  # "really into": a liking; "into his third year": how far along, as "in"
    return found[1].lower()


_HOW_FAR = re.compile(r"\s+(?:his|her|my|our|their|its|the|week|month|year|day|\d)", re.I)


_OVER = re.compile(
    r"(?:\b(?:is|are|am|was|were)|'s|'m|'re)\s+(?:really\s+|so\s+|well\s+)?"
    r"(into|over|through with)\b",
    re.I,
)


def _a_noun_maybe(term: Term) -> bool:
    """A word that may name a thing: not a word like "runny", "fully" nor "upstairs", which
    describe one on either side of it ("runny eggs", "eggs runny")."""
    word = term.surface.lower()
    return (
        term.kind in (TermKind.WORD, TermKind.GROUP)
        and not word.endswith(("ly", "y"))
        and word not in _PLACE_ADVERBS
    )


_PLACE_ADVERBS = frozenset(
    "upstairs downstairs inside outside indoors outdoors home abroad overseas nearby".split()
)


def _planned(reading: Reading) -> bool:
    """A plan said as under way: "I'm bringing a salad", "we're going to Tom's" (not "Tom is
    working at Tesco", which says what holds now)."""
    return reading.aspect == "progressive" and any(word in _PLANS for word in reading.said_tokens)


_PLANS = frozenset(
    "bringing going coming taking visiting meeting seeing flying leaving hosting".split()
)


def _done_to_or_doing(new: Reading, old: Reading) -> bool:
    """ "Tom was chosen as captain" / "Tom chose the captain", "My bike was stolen" / "I stole a
    bike": one fact a passive that names no doer, the other the same deed said actively, and
    what was done to not the same: said before the deed in both (done to in one, doing it in the
    other), missing from the active, or "my" thing against "a" thing. "The smoke alarm battery
    was changed" / "we changed the smoke alarm battery" says it again."""
    if Attitude.WISH in (new.attitude, old.attitude):
        return False  # "Wake me up at 6:30" / "I want to be woken at 6:30"
    for passive, active in ((new, old), (old, new)):
        said, doing = passive.said_tokens, active.said_tokens
        be = markers.doerless_passive(said)
        if be < 1 or passive.passive or active.passive or markers.doerless_passive(doing) >= 0:
            continue
        participle = said[be + 1]
        if participle in markers.BE or participle in _HELD_STATES or _symmetric(passive):
            continue  # "tom's been learning", "got divorced" (they divorced)
        deed = markers.verb_base(participle)
        at = next(
            (
                i
                for i, word in enumerate(doing)
                if markers.verb_base(word) == deed and _token_at(active, i - 1) not in _DETERMINERS
            ),
            -1,
        )  # a deed, not a thing ("goes in for a service", "a packed lunch")
        if at < 0 or any(word in _CAUSING or word in _BE_SAID for word in doing[:at]):
            continue  # "we had the roof replaced", "our landlord's actually called"
        done_to = said[be - 1]
        after = doing[at + 1 :]
        if done_to not in after:
            return True  # "I was paid late" / "I paid late", "Tom was chosen" / "Tom chose"
        whose = {said[0], after[0]} if after else set()
        if whose & _INDEFINITE and whose & _OWNING and deed not in _MAKING:
            return True  # "My bike was stolen" / "I stole a bike"; "we built a shed" made it
    return False


_BE_SAID = markers.BE | {"'s", "'re", "'m"}
_MAKING = frozenset(
    markers.verb_base(word) for word in "build buy plant install fit make get adopt".split()
)
"""Deeds that make a thing one's own: "our shed was built" is the one "we built a shed"."""
_HELD_STATES = frozenset("married remarried divorced engaged separated retired".split())
"""Participles that say a state two hold together or one reached, as the active does."""
_CAUSING = frozenset("had have has having got get gets getting".split())


def _label_and_count(new: Reading, number: Term, old: Reading, other: Term) -> bool:
    """ "season two" / "2 seasons": one number after the thing it labels in one fact, before
    the same thing it counts in the other."""
    for label, at, count, count_at in (
        (new, number.at, old, other.at),
        (old, other.at, new, number.at),
    ):
        named = _token_at(label, at - 1)
        counted = _token_at(count, count_at + 1)
        if named and counted and named != counted and stem(named) == stem(counted):
            return True
    return False


def _spelled(term: Term) -> str:
    """A term as written, small, without a "'s" of whose ("Tom's": "tom")."""
    return re.sub(r"'s?$", "", term.surface.lower())


def _a_value_named(reading: Reading, term: Term) -> bool:
    """Whether ``term`` is a thing named at the end of a fact ("is Alien", "watching ghost"):
    its last word, a word or a name, after anything but who does it ("I cook") or "a" ("hates
    a bath" is "hates baths")."""
    before = _token_at(reading, term.at - 1)
    # "is Alien", "the Lions", "needs new tyres"; not a thing of a kind felt about ("loves
    # pizzas" is "loves pizza")
    felt = lexicon.lookup(lexicon.SENTIMENT, before, stem(before)) is not None
    named = term.kind is TermKind.NAME or before in ("the", *COPULAS) or not felt
    return (
        named
        and term.kind in (TermKind.WORD, TermKind.NAME)
        and term.at == len(reading.said_tokens) - 1
        and not (term.kind is TermKind.WORD and term.surface.lower() in _MEASURES)
        and before not in _NOT_NAMING
        and not before.isdigit()
    )


_AFTER_A_NAME = frozenset(("", "is", "are", "was", "were", "has", "have", "and", "will"))
"""Words after a name that is a person's or a family's ("Carlos is", "the Williams are")."""
_NOT_NAMING = frozenset("i we you he she they user a an all every any some of no many".split())
"""Words before a last word that make it no thing named: who does it ("I cook"), a thing of a
kind ("hates a bath", "all nuts", "every kind of nut")."""


def _alone_or_together(new: Reading, old: Reading) -> bool:
    """ "I do bedtime on my own" / "we both do bedtime", "We both help Tom with homework" / "i
    help tom with homework": done alone in one fact and shared in the other."""
    alone = [_alone(reading.plain) for reading in (new, old)]
    if alone[0] != alone[1]:
        return True
    shared = [bool(_SHARED.search(reading.text)) for reading in (new, old)]
    if shared[0] == shared[1]:
        return False
    return "i" in (old if shared[0] else new).said_tokens


def _alone(text: str) -> bool:
    """Done alone: "on my own" (not "on my own land"), "by myself", "alone"."""
    for found in _ALONE.finditer(text):
        following = text[found.end() :].split(maxsplit=1)
        if not found[0].startswith("on ") or not following or following[0] in STOP_WORDS:
            return True
    return False


_ALONE = re.compile(
    r"\b(?:on (?:my|our|his|her|their) own|by (?:myself|ourselves|himself|herself|themselves)"
    r"|alone)\b"
)
_SHARED = re.compile(r"\b(?:we both|both of us|us both|we all|all of us|together)\b", re.I)


def _joined_the_other_way(new: Reading, old: Reading) -> str:
    """ "We moved because Dad got a new job" / "Dad got a new job because we moved": the same two
    clauses either side of one joining word, each where the other stood."""
    sides = [_either_side_of_join(reading) for reading in (new, old)]
    if sides[0] is None or sides[1] is None:
        return ""
    (join, before, after), (join_before, before_old, after_old) = sides[0], sides[1]
    if join != join_before or before == after:
        return ""
    # who does both, said on one side of each ("My son is being bullied so he's anxious")
    kept = (before & before_old, after & after_old)
    before, after = before - kept[0], after - kept[1]
    before_old, after_old = before_old - kept[0], after_old - kept[1]
    if not before or not after or (before, after) != (after_old, before_old):
        return ""
    return f"roles differ: the two sides of '{join}' change places"


def _either_side_of_join(reading: Reading) -> tuple[str, frozenset[str], frozenset[str]] | None:
    """The one joining word in a fact and the words of weight before and after it."""
    tokens = reading.said_tokens
    joins = [index for index, word in enumerate(tokens) if word in _JOINS]
    if len(joins) != 1 or joins[0] == 0:
        return None
    at = joins[0]

    def weighty(words: Sequence[str]) -> frozenset[str]:
        return frozenset(markers.verb_base(word) for word in words if word not in STOP_WORDS)

    before, after = weighty(tokens[:at]), weighty(tokens[at + 1 :])
    if tokens[at] == "so":
        return _JOINS["so"], after, before  # the effect after "so", as before "because"
    return _JOINS[tokens[at]], before, after


def _joined_alike(new: Reading, old: Reading) -> bool:
    """ "The dog barks when the postman comes" / "... until the postman comes": two clauses
    joined by words that say another thing of how the one bears on the other."""
    joins = [{_JOINS[w] for w in reading.said_tokens if w in _JOINS} for reading in (new, old)]
    return not (joins[0] and joins[1] and joins[0] != joins[1])


_DENIED_FEELING = re.compile(
    r"\b(?:don'?t|do not|doesn'?t|does not|didn'?t|did not|never|not)\s+(?:really\s+)?"
    r"(?:hate|hates|dislike|dislikes|detest|loathe|mind|minds|love|loves|adore|adores)\b",
    re.I,
)
"""A feeling denied, which is not its opposite: "I don't hate sushi" is no "I love sushi"
("don't like", said as often as "dislike", is read as it)."""

_JOINS = {
    **dict.fromkeys(("when", "whenever", "if", "while", "because", "since"), "when"),
    **dict.fromkeys(("until", "till", "til"), "until"),
    "unless": "unless",
    "so": "when",  # "A so B" is "B because A": its sides are read turned round
}
"""Words joining two clauses, by what they say of how one bears on the other ("because it
rains" is "when it rains" near enough; "until" and "unless" are not)."""


def _ordinal(surface: str) -> bool:
    """ "3rd", "third", "twentieth": a place in a row, not how many."""
    word = surface.lower()
    return bool(_ORDINAL_DIGITS.fullmatch(word)) or word in _ORDINAL_WORDS or word.endswith("ieth")


def _a_thing(word: str) -> bool:
    """A word after a number naming what is counted, not a month nor "of" (a date)."""
    return (
        word.isalpha() and word not in STOP_WORDS and not lexicon.groups_of(word) and word != "of"
    )


_ORDINAL_DIGITS = re.compile(r"\d+(?:st|nd|rd|th)")
_ORDINAL_WORDS = frozenset(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split()
)
_INDEFINITE = frozenset(("a", "an"))
_OWNING = frozenset("my our your his her their".split())
_DETERMINERS = frozenset("the a an my our your his her their this that these those 's".split())


_PLURAL_VERBS = frozenset("are were have do".split())


def _noun_said(term: Term, reading: Reading) -> tuple[str, int]:
    """A word term's noun as written and its token's index, when a determiner or an owner
    before it says it is one ("my brothers", "the tickets", "Jack's coach"); "" otherwise."""
    words = term.surface.lower().split()
    if term.kind is TermKind.WORD:
        if len(words) >= 2 and words[0] in _DETERMINERS:  # a subject: "my son's friends"
            tokens = reading.said_tokens
            at = next((i for i in range(term.at, len(tokens)) if tokens[i] == words[-1]), -1)
            return (words[-1], at) if at >= 0 else ("", 0)
        if len(words) == 1 and _token_at(reading, term.at - 1) in _DETERMINERS:
            return words[0], term.at
    return "", 0


def _token_at(reading: Reading, index: int) -> str:
    tokens = reading.said_tokens
    return tokens[index] if 0 <= index < len(tokens) else ""


_MODIFYING = frozenset((TermKind.WORD, TermKind.GROUP))


def _attachments(reading: Reading) -> frozenset[tuple[str, str]]:
    """Each word term said straight before others, with the last of them (its head): "front"
    and "door" to "key" in "the front door key"."""
    pairs: set[tuple[str, str]] = set()
    run: list[Term] = []
    for term in [*sorted(reading.terms, key=lambda t: t.at), None]:
        modifying = term is not None and term.kind in _MODIFYING
        if modifying and (not run or term.at == run[-1].at + 1):
            run.append(term)
            continue
        pairs.update((word.text, run[-1].text) for word in run[:-1])
        run = [term] if modifying else []
    return frozenset(pairs)


_IRREGULAR_PLURALS = {"child": "children"}  # "my child" / "my children", a relative


def _plural_of(one: str, many: str) -> bool:
    """Whether ``many`` is the plural of ``one`` ("brother" / "brothers", "baby" / "babies")."""
    if one.endswith(("s", "'")) or not one.isalpha():
        return False
    if many in (one + "s", one + "es") or many == _IRREGULAR_PLURALS.get(one.split("-")[-1]):
        return True
    return one.endswith("y") and many == one[:-1] + "ies"


def _someone(term: Term) -> bool:
    """A name (written small where a name stands, too) or a relative."""
    return term.kind is TermKind.NAME or term.text in _RELATIVES or term.maybe_name


def _written_together(text: str, first: str, second: str) -> bool:
    """Whether two words stand together in a text, with at most "and", "or", "&", a comma or an
    article between them; True when the text does not hold both as written (a term read from
    other words: "allergic" from "allergy")."""
    words = [re.escape(first), re.escape(second)]
    if not all(re.search(rf"\b{word}\b", text, re.IGNORECASE) for word in words):
        return True
    between = r"(?:'s)?(?:\s*,)?(?:\s+(?:and|or|&))?(?:\s+(?:the|a|an))?\s*"
    together = rf"\b{words[0]}{between}{words[1]}\b|\b{words[1]}{between}{words[0]}\b"
    return re.search(together, text, re.IGNORECASE) is not None


def _one_sort(first_pair: tuple[Term, Term], second_pair: tuple[Term, Term]) -> bool:
    """Two names, two relatives, two numbers, two times, or two things of one kind (a cat and a
    dog; paper and glass), neither a kind of the other (a ThinkPad is a laptop); each a term
    matched with its match in the other fact."""
    first, second = first_pair[0], second_pair[0]
    if first.text in lexicon.ancestors(second.text) or second.text in lexicon.ancestors(first.text):
        return False
    if first.kind in _UNKEYED or second.kind in _UNKEYED:
        return first.kind is second.kind
    relatives = first.text in _RELATIVES and second.text in _RELATIVES
    kinds = bool(set(first.groups) & set(second.groups)) or bool(
        lexicon.ancestors(first.text) & lexicon.ancestors(second.text)
    )
    return _named(first_pair, second_pair) or relatives or kinds


def _named(first: tuple[Term, Term], second: tuple[Term, Term]) -> bool:
    """Two names, each a term matched with its match in the other fact, written alike: with a
    capital in either fact ("Tom" / "tom" against "Ann" / "ann"), or small in both and unknown
    to the lexicon ("tom" / "ann"; not "band" against "Radiohead")."""
    style = _name_style(*first)
    return style is not None and style == _name_style(*second)


def _name_style(term: Term, match: Term) -> str | None:
    """How a name is written in the two facts: "capital" in either (the other may write it
    small, a word the lexicon knows: "the Golf" / "the golf"), "small" in both, or None."""
    kinds = (term.kind, match.kind)
    if TermKind.NAME in kinds or term.maybe_name or match.maybe_name:
        return "capital" if all(kind in (TermKind.NAME, TermKind.WORD) for kind in kinds) else None
    return "small" if _small_name(term) and _small_name(match) else None


def _small_name(term: Term) -> bool:
    """A word written small that may be a name: the lexicon does not know it and it bears no
    inflection ("kate", "ben"; not "visiting" or "owes")."""
    surface = term.surface.lower()
    return (
        term.kind is TermKind.WORD
        and not surface.endswith(_INFLECTIONS)
        and not is_known(surface)
        and not is_known(term.text)
    )


_INFLECTIONS = ("s", "ed", "ing")


def _capital(*matched: Term) -> bool:
    """A name, by its capital where a capital says so, in any of the facts it is matched in."""
    return any((t.kind is TermKind.NAME and t.certain) or t.maybe_name for t in matched)


_WORDS = re.compile(r"[a-z]+")

_ROLE_KINDS = (TermKind.NAME, TermKind.NUMBER, TermKind.TIME)


def _denied_state(denying: Reading, other: Reading) -> str:
    """ "Leo is not allergic to peanuts" against "Leo is allergic to peanuts": a state that implies
    negations (allergic, vegetarian) is itself negated in one fact and said in the other, about
    the same things. Both facts hold negations, one explicit and one implied, so without this
    they read alike and merged."""
    states = [
        term for term in other.terms if term.text in other.implying and not _implied(term, other)
    ]
    denied = [term for term in states if covered(term, denying.negated)]
    if not denied or any(covered(term, denying.terms) for term in denied):
        return ""
    said = [term for term in other.terms if not is_generic(term)]
    others = [term for term in denying.content if not is_generic(term)]
    if all(covered(term, denying.content) for term in said) and all(
        covered(term, other.content) for term in others
    ):
        return f"negation differs: not {surfaces(denied)}"
    return ""


def _denied_there(saying: Reading, denying: Reading) -> str:
    """ "Mia likes pears but not apples" against "Mia likes apples but not pears": all of what
    one fact denies outright ("not", not a negation a state implies) the other says, and says
    nothing against. Both facts may hold negations, so this is no two-negatives case."""
    clauses: dict[int, list[Term]] = {}
    for term in denying.negated:
        if term.text not in denying.implying and not is_generic(term):
            clauses.setdefault(term.clause, []).append(term)
    denied_by_saying = [term for term in saying.negated if term.text not in saying.implying]
    contrasts = all(_contrasted(reading.plain) for reading in (denying, saying))
    # "before breakfast" says when, not that breakfast is eaten. What a state excludes ("allergic
    # to milk") is denied only by a "not" under such a state ("allergic to eggs but not milk").
    said = [
        term
        for term in saying.terms
        if term.slot not in TIME_PREPOSITIONS
        and (denying.implying or term.text not in saying.implying)
    ]
    for clause in clauses.values():
        # A head the denying fact also says is shared, not denied: "the side door, not the
        # front door" denies "front". So is what two contrasts both deny after the word each
        # denies: in "leo not mia does the bins" the "not" reaches "bins" too, as in "mia not
        # leo does the bins", which denies Leo.
        denied = [
            term
            for place, term in enumerate(clause)
            if not covered(term, denying.terms)
            and not (place and contrasts and covered(term, denied_by_saying))
        ]
        affirmed = [
            term for term in denied if covered(term, said) and not covered(term, denied_by_saying)
        ]
        # "doesn't eat chicken or beef", "neither milk nor juice" deny each one: one affirmed
        # is enough ("eats chicken but not beef"); "not chicken and beef" denies them together,
        # and "not sure if Tom or Jack" denies neither.
        each = denying.joiner == "or" and not _UNSURE & set(denying.said_tokens)
        if denied and (affirmed == denied or (affirmed and each)):
            words = " ".join(term.surface for term in affirmed)
            return f"negation differs: {words} / not {words}"
    return ""


_UNSURE = frozenset("sure certain decided know whether unsure undecided".split())


def _contrasted(plain: str) -> bool:
    """Whether a fact sets one thing against another with a bare "not" between them ("leo not
    mia does the bins", "it's thursday not wednesday"), not a verb's "not" ("doesn't lock")."""
    return any(before not in STOP_WORDS for before in _CONTRAST.findall(plain))


_CONTRAST = re.compile(
    r"\b([a-z0-9']+),? (?:not (?!only\b)[a-z0-9]|never (?![a-z]+(?:s|ed|ing)\b)[a-z0-9])"
)
"""One thing set against another ("leo not mia", "thursday never wednesday"); not "never" before
a verb ("leo never walks the dog")."""


def _implied(term: Term, reading: Reading) -> bool:
    """A negation a state implies ("meat" for "vegetarian"), not the state itself."""
    return any(term.text == negated.text for negated in reading.negated)


def _attribute_of(attribute: Term, values: Sequence[Term]) -> bool:
    """Whether a word stands where what the values are of stands: before them ("My favourite
    editor is Vim"), or across the copula from values in the subject ("Vim is my favourite
    editor")."""
    if attribute.kind in _UNKEYED or attribute in values:
        return False
    return all(
        not attribute.in_subject if value.in_subject else attribute.position < value.position
        for value in values
    )


def _identifies(value: Term, attribute: str) -> bool:
    """Whether a value says which thing of the attribute's kind it is: a name the lexicon does
    not know otherwise, or a kind of the thing it knows (Vim is an editor, an iPhone a phone)."""
    if attribute in value.groups or attribute in lexicon.ancestors(value.text):
        return True
    return value.kind is TermKind.NAME and not value.groups and not lexicon.ancestors(value.text)


def _kinds(terms: Sequence[Term]) -> frozenset[str]:
    """What the terms are kinds of, by the lexicon (a database, an editor)."""
    return frozenset(parent for term in terms for parent in lexicon.ancestors(term.text))


def _ranking(order: tuple[Term, Term]) -> str:
    return f"{order[0].surface} over {order[1].surface}"


def _known_thing(term: Term) -> bool:
    """A word the lexicon knows as one thing among others: a relative, a kind of something."""
    return term.text in _RELATIVES or bool(term.groups) or bool(lexicon.ancestors(term.text))


_RELATIVES = frozenset(lexicon.RELATIONS.values())


def _left_from(reading: Reading, term: Term) -> bool:
    """Whether ``term`` is the place left ("leaves York"): bare, after a verb of leaving, in a
    fact that names no place left for."""
    return (
        not term.slot
        and any(t.text in _DEPARTING and t.at < term.at for t in reading.terms)
        and not any(t.slot == "for" for t in reading.terms)
    )


_DEPARTING = frozenset(("leave", "depart"))
_OPPOSITE_SLOTS = ({"to", "from"}, {"into", "from"})
_PARTS_APART = frozenset(
    frozenset(pair)
    for pair in (
        ("with", "for"), ("with", "near"), ("for", "near"), ("by", "for"), ("for", "from"),
        ("by", "about"), ("to", "about"), ("from", "about"), ("with", "about"), ("for", "about"),
        ("of", "from"), ("of", "by"), ("to", "by"), ("for", "through"), ("with", "through"),
    )
)  # fmt: skip
"""What a person after each of two words is to the fact differs: with, for, near, by; a book
"by" someone is not one "about" them."""
_TIME_BOUNDS = {"since": "start", "from": "start", "until": "end", "till": "end"}
_TIME_SLOT_CLASHES = frozenset(
    frozenset(pair)
    for pair in (
        ("until", "by"), ("till", "by"), ("until", "on"), ("till", "on"), ("by", "on"),
        ("by", "from"),
        ("for", "in"), ("for", "until"), ("for", "till"),
    )
)  # fmt: skip
"""Words before one time that say different things of it: an end, a deadline, a day, a length
("for a week"), a wait ("in a week")."""
_PLACE_WORDS = frozenset("in on at by over near through behind beside".split())
"""Words before a place that say where in relation to it."""
_WAYS_APART = frozenset(
    frozenset((towards, along))
    for towards in ("to", "into", "towards", "toward")
    for along in ("via", "through", "around", "round", "across", "past", "along", "over")
)
"""Going to a place, and going by way of it: "flying to Dubai" is not "via Dubai", "sailing
around the island" not "to" it."""
_NO_PLACES = frozenset("weekend weekends degre degree degrees".split())
"""Words after "at" or "on" that are no place: "at weekends", "on 19 degrees"."""
_IN_OR_ON = frozenset("street road lane avenue close crescent drive ward isle island bed".split())
"""Places one is "in" or "on" alike: "in Church Street", "on the ward", "in bed"."""
_PLACED_ALIKE = frozenset(
    frozenset(pair)
    for pair in (("in", "at"), ("by", "at"), ("by", "near"), ("by", "beside"), ("near", "beside"))
)
_PERIODS = frozenset("minut hour day week fortnight month year".split())
_ROLE_SLOTS = frozenset(("for", "to", "about", "from", "with"))
"""Words before a person who is not the doer of a passive ("made for Gran", "sent to Tom")."""

_SLOTTED = frozenset(("number", "time", "name"))

_UNKEYED = (TermKind.NUMBER, TermKind.TIME)


def _attitudes_agree(new: Reading, old: Reading) -> bool:
    """A state is no wish ("I want a Tesla" / "I drive a Tesla"); a liking is close to a wish
    ("I prefer metric units" / "Metric units, please"), but enjoying things is not wanting one
    ("Sophie likes rabbits" / "Sophie wants a rabbit")."""
    attitudes = {new.attitude, old.attitude}
    if len(attitudes) == 1:
        return True
    if attitudes != {Attitude.FEELING, Attitude.WISH} or min(new.sentiment, old.sentiment) < 0:
        return False
    wish, feeling = (new, old) if new.attitude is Attitude.WISH else (old, new)
    return not (_WANTING & set(wish.said_tokens) and _enjoys(feeling.said_tokens))


def _enjoys(said: Sequence[str]) -> bool:
    """A liking of things said with "like", "love" or "enjoy", not a wish said so ("would
    really like")."""
    return any(
        word in _ENJOYING and not {"would", "'d"} & set(said[max(0, at - 2) : at])
        for at, word in enumerate(said)
    )


_WANTING = frozenset(("want", "wants", "wanted"))
_ENJOYING = frozenset("like likes love loves enjoy enjoys adore adores".split())
