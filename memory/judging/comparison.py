"""Comparing two readings: the lexical decision, and what a cosine may and may not add to it.

Errors are not equal: a wrong merge loses the user's words, so anything that differs (a number, a
name, a negation, an order, a change word, the subject) vetoes a merge; between the same and a
conflict the comparison says conflict, and between the same and distinct, distinct.

The checks run in order in ``_Pair``; what they read of a fact lives beside it, by what it is
about: ``roles`` (who does what to whom, and whose), ``being`` (being someone, having or becoming
one), ``clauses`` (lists, clauses, joins and spans), ``stances`` (planned or done, still so or
over, wished or liked) and ``names_and_numbers`` (names, numbers and values as written).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import takewhile

from memory.judging import converse, lexicon, markers, small_words
from memory.judging.being import (
    becoming_and_having,
    being_and_having,
    named_or_described,
    striving,
    whose_or_both,
)
from memory.judging.clauses import (
    CLAUSE_BREAK,
    CLAUSE_TERMS,
    a_broad_thing_of,
    alone_or_together,
    clauses_reordered,
    clauses_traded,
    compound_reversed,
    denied_in_turn,
    joined_alike,
    joined_the_other_way,
    lists_paired_otherwise,
    one_list,
    said_side_by_side,
    span_and_list,
    timeish,
    word_list,
)
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
from memory.judging.names_and_numbers import (
    AFTER_A_NAME,
    DETERMINERS,
    INDEFINITE,
    LETTER_RUNS,
    NOTE_FORM,
    OWNING,
    RELATIVES,
    UNKEYED,
    a_thing,
    a_value_named,
    as_written,
    attachments,
    attribute_of,
    capital,
    digits_reordered,
    identifies,
    in_order,
    in_place_of,
    kinds_of,
    known_thing,
    label_and_count,
    letters_and_digits,
    names_someone,
    noun_said,
    one_sort,
    ordinal,
    plural_of,
    said_plural,
    small_name,
    spelled,
    token_at,
    typed_value,
)
from memory.judging.reading import Attitude, Reading
from memory.judging.roles import (
    OPENING_OWNER,
    RECEIVING_SLOTS,
    SOMEONE_THERE,
    a_name_given,
    active_deed_at,
    assistant_done_to,
    bears_a_role,
    doer_against_setting,
    doer_first,
    does_or_feels,
    done_to_in_one,
    done_to_or_doing,
    either_side_of,
    held_does_it,
    holds_both_ways,
    left_from,
    letting,
    listed_with_held,
    owned_in_turn,
    owners_traded,
    possessors,
    pronouns_done_to,
    relatives_reordered,
    role_of_role,
    said_once_in,
    says_whose,
    sequence_between,
    speaker_at,
    speaker_doing,
    speaker_passive,
    symmetric_deed,
    took_the_place,
    voice_changed,
    whose_role,
    whose_things,
)
from memory.judging.stances import (
    NO_WHEN,
    WHEN_MEANT,
    attitudes_agree,
    compared_otherwise,
    kept_or_given_up,
    meant_deeds,
    never_of_the_past,
    occasions_differ,
    over,
    perfect_said,
    planned,
    planned_or_done,
)
from memory.judging.terms import Term, TermKind
from memory.judging.words import (
    COPULAS,
    PREPOSITIONS,
    STOP_WORDS,
    TIME_PREPOSITIONS,
    stem,
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
        or doer_against_setting(new, old)
        or doer_against_setting(old, new)
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


_PLACE_SLOTS = frozenset(("in", "near", "to"))
_TALKING = frozenset(
    "speak spoke speaking talk talked talking chat chatted chatting write wrote writing listen "
    "listened listening say said explain explained reply replied read sing sang wave waved".split()
)
"""Verbs after which "to" names whom, as "with" does ("speak to Mum", "speak with Mum")."""

_FELT_ONE_WAY = {
    "hate": "hated", "dislike": "disliked", "despise": "despised", "detest": "detested",
    "loathe": "loathed", "abhor": "abhorred", "adore": "adored",
}  # fmt: skip
"""Verbs of a feeling from the one before them for the one after ("the parrot hates Uncle
Bob"), with their "-s" and past forms said alike."""
_PIVOTS = (
    "than", "above", "below", "under", "underneath", "beneath", "behind", "owe", "top", "love",
    "jealous", "afraid", "scared", "frightened", "proud", "fond", "north", "south", "east",
    "west", "past", "there", "to", "into", "onto", "too", *_FELT_ONE_WAY,
)  # fmt: skip
"""Words with one side before and another after that are not the same both ways ("I back up
my laptop to the NAS")."""
_REPORTING = ("say", "said", "think", "thought", "reckon", "believe", "believed")
"""Words with who says or thinks it before and what of whom after: turned round, two claims
that may both hold ("Mum says I snore" / "I say Mum snores")."""
_TOWARDS = frozenset(("to", "into", "onto"))
_EXCHANGING = frozenset(
    "replace replaced replaces replacing trade traded trades trading exchange exchanged".split()
)
"""Verbs whose "with" or "for" parts the old thing from the new ("replaced butter with
margarine")."""
_SAID_ALIKE = {
    "owes": "owe", "owed": "owe", "loves": "love", "loved": "love", "me": "i", "us": "we",
    "does": "do", "says": "say", "thinks": "think", "reckons": "reckon", "believes": "believe",
    **{f"{verb}s": verb for verb in _FELT_ONE_WAY},
    **{past: verb for verb, past in _FELT_ONE_WAY.items()},
}  # fmt: skip
_SAID_ANYWAY = COPULAS | {"'s", "a", "an", "the", "my", "our", "do", "did"}
"""Words a transcript drops or contracts ("the back door key's older", "than I do")."""


_NAMING = frozenset("call calls called address addressed refer referred".split())
"""Words that give someone a name to be called by."""


def _felt_for(reading: Reading, term: Term) -> bool:
    """Whether a term follows a feeling and its slot, straight or after its "the" or owner:
    "scared of the dog", "mad at Mia" (not "the password of the wifi")."""
    at = term.at - 1
    if token_at(reading, at) in DETERMINERS:
        at -= 1
    return (
        bool(term.slot)
        and token_at(reading, at) == term.slot
        and token_at(reading, at - 1) in lexicon.FEELINGS_TOWARDS
    )


_AS_A_RULE = lexicon.FREQUENCIES["usually"]
"""How often a deed said with no word of how often is done: as a rule."""


def _hedged(reading: Reading) -> frozenset[str]:
    """The hedges a fact says: "kind of religious", "kosher-style" (like it, not it)."""
    return _HEDGES.intersection(reading.said_tokens)


_HEDGES = frozenset(("kind-of", "style-of"))
"""Words (as read) that say a thing only partly or like it."""


def _at_theirs(reading: Reading, term: Term, other_slot: str) -> bool:
    """Whether ``term`` is someone at whose home the fact is ("at Tom's", "at uncle Jim's",
    "at Mum and Dad's") and the other fact's word before them says another part
    (``_APART_FROM_AT_THEIRS``)."""
    if term.slot != "at" or other_slot not in _APART_FROM_AT_THEIRS:
        return False
    after = reading.said_tokens[term.at + 1 : term.at + 1 + _NAME_WORDS]
    return "'s" in takewhile(lambda word: word not in _NO_OWNER_BETWEEN, after)


_NAME_WORDS = 4
"""Words from someone to the "'s" of their home: "uncle jim's", "mum and dad's"."""
_NO_OWNER_BETWEEN = PREPOSITIONS | {".", ",", ";", "!", "?"}
"""Words no owner's name runs across to its "'s"."""


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
    """A said word as ``either_side_of`` compares it: "more than" is "than", "owes" is "owe"."""
    return "than" if word.endswith("-than") else _SAID_ALIKE.get(word, word)


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
            term.kind not in UNKEYED and term.text not in self.relatives and term not in only
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
            or compared_otherwise(self.new, self.old)
            or (self._nothing_else() and lists_paired_otherwise(self.new, self.old))
            or self._sequence()
            or clauses_traded(self.new, self.old)
            or denied_in_turn(self.new, self.old)
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
            or kept_or_given_up(self.new, self.old)
            or (self._nothing_else(but=WHEN_MEANT) and planned_or_done(self.new, self.old))
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
            or relatives_reordered(self.new, self.old)
            or joined_the_other_way(self.new, self.old)
            or (self._alike() and role_of_role(self.new, self.old))
            or self._owner_moved()
            or whose_role(self.new, self.old, self._matched())
            or whose_role(self.old, self.new, [(o, t) for t, o in self._matched()])
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
        new, old = possessors(self.new), possessors(self.old)
        # As many on each side: "Tom's mother's name" says no more than "tom's mum is called"
        if new and len(new) == len(old) and new != old:
            return f"whose differs: {word_list(frozenset(new))} / {word_list(frozenset(old))}"
        # "Sam's car is in the garage" / "sam's in the car": whose it is, against who is there
        for owners, other in ((new, self.old), (old, self.new)):
            there = SOMEONE_THERE.match(other.said.lower())
            if there and lexicon.RELATIONS.get(there[1], there[1]) in owners:
                return f"whose differs: {there[1]}'s / {there[1]} is"
        # "Pete waters our plants" / "we water pete's plants": ours in one, and his in the
        # other, where he is who does it
        # "Our car is in Pete's garage" / "Pete's car is in our garage": the same owners and
        # things, each owning the other's
        owned_now, owned_before = whose_things(self.new), whose_things(self.old)
        if (
            len(owned_now) > 1
            and owned_now.keys() == owned_before.keys()
            and owned_now != owned_before
            and sorted(owned_now.values()) == sorted(owned_before.values())
        ):
            said = ", ".join(f"{owner} {thing}" for owner, thing in owned_now.items())
            return f"whose differs: {said}"
        if owners_traded(self.new, self.old):
            said = ", ".join(f"{owner} {thing}" for owner, thing in owned_in_turn(self.new))
            return f"whose differs: {said}, the other way round"
        pairs = ((new, self.new, self.old, old), (old, self.old, self.new, new))
        for owners, theirs, ours, ours_owners in pairs:
            if len(owners) != 1 or "speaker" not in ours.owners or ours_owners:
                continue
            (owner,) = owners
            if OPENING_OWNER.match(theirs.said.lower()):
                continue  # whose the fact is about, or "'s" for "is": "biscuit's our dog"
            side, their_side = (
                (self.old_side, self.new_side)
                if ours is self.old
                else (self.new_side, self.old_side)
            )
            # a name written small in one fact is the name the other writes ("Sarah's shift")
            named = any(t.kind is TermKind.NAME and t.surface.lower() == owner for t in their_side)
            if any(
                term.surface.lower() == owner and (names_someone(term) or named) for term in side
            ):
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
            if said_once_in(term, self.new_side) and said_once_in(other, self.old_side)
        ]
        for index, (first, first_old) in enumerate(matched):
            for second, second_old in matched[index + 1 :]:
                if first is second or first_old is second_old or agrees(first, second):
                    continue
                if (first.position - second.position) * (
                    first_old.position - second_old.position
                ) >= 0:
                    continue
                shared = sequence_between(self.new, first, second) & sequence_between(
                    self.old, first_old, second_old
                )
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
        if not small_words.never_against_once(self.new, self.old, never_of_the_past):
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
        if holds_both_ways(self.new) or holds_both_ways(self.old):
            return ""
        ordered = self.new.ordered or self.old.ordered
        if not ordered and clauses_reordered(self.new, self.old):
            return ""  # "Ben drives the Honda and Ann drives the Ford", said the other way
        matched = self._matched()
        for index, (first, first_old) in enumerate(matched):
            if not (bears_a_role(first) or bears_a_role(first_old)):
                continue
            for second, second_old in matched[index + 1 :]:
                if first is second or first_old is second_old or agrees(first, second):
                    continue
                if not (bears_a_role(second) or bears_a_role(second_old)):
                    continue
                if not one_sort((first, first_old), (second, second_old)):
                    continue
                flipped = (first.position - second.position) * (
                    first_old.position - second_old.position
                ) < 0
                if ordered and flipped:
                    # A list said in an order ("pizza first, then pasta"): any two reordered.
                    return f"order differs: {first.surface} and {second.surface} change places"
                beside = said_side_by_side(self.new, first, second) or said_side_by_side(
                    self.old, first_old, second_old
                )
                if beside or (
                    one_list(self.new, first, second) and one_list(self.old, first_old, second_old)
                ):
                    continue  # a list ("a son and a daughter") or a compound ("a Samsung TV")
                if voice_changed(self.new, self.old, (first, first_old), (second, second_old)):
                    continue  # who does it to whom is weighed as the doer first, below
                if took_the_place((first, first_old), (second, second_old), matched):
                    return f"roles differ: {first.surface} and {second.surface} change places"
        return ""

    def _doer_and_done_to(self) -> str:
        """ "Sara paid the plumber" / "the plumber paid sara", "Sara hired the builder" / "sara
        was hired by the builder": the same terms, who does it and who it is done to changing
        places (a passive's doer, after "by", counted first). Two terms exchanged, the rest in
        place; not a relation the same both ways."""
        if self.new_only or self.old_only:
            return ""
        new, old = doer_first(self.new, self.new_side), doer_first(self.old, self.old_side)
        # A feeling is what is done, though no term says it: "Leo is afraid of the dog", "Mia
        # likes Leo" (who feels it is the subject of both, or both are people; "I like tea and
        # coffee" lists what is felt).
        felt = (
            self.new.sentiment != 0
            and self.new.sentiment == self.old.sentiment
            and len(new) == len(old) == CLAUSE_TERMS - 1
            and (
                (new[0].in_subject and old[0].in_subject)
                or (names_someone(new[0]) and names_someone(new[1]))
                or (names_someone(old[0]) and names_someone(old[1]))
            )
        )
        least = CLAUSE_TERMS - 1 if felt else CLAUSE_TERMS
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
        symmetric = holds_both_ways(self.new) or holds_both_ways(self.old)
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
        if symmetric_deed(self.new) or symmetric_deed(self.old):
            return ""
        for party, party_old in self._matched():
            if party.at in held.tokens or party_old.at in self.old.subject.tokens:
                continue  # who it is about, not another party
            if says_whose(self.new, party) or says_whose(self.old, party_old):
                continue  # "Tom's son": the son has the role, weighed as whose it is
            if listed_with_held(self.new, party) or listed_with_held(self.old, party_old):
                continue  # "My mum and Anna go to the same church": both do it
            someone = all(names_someone(t) for t in (party, party_old))
            if not someone or not (
                does_or_feels(self.new, party) and does_or_feels(self.old, party_old)
            ):
                continue
            if held_does_it(self.new, party) != held_does_it(self.old, party_old):
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
        if speaker_passive(self.new) or speaker_passive(self.old):
            return ""  # "Anna hired me" / "I was hired by Anna": see _speaker_deed
        if significant(self.new_only) or significant(self.old_only):
            return ""
        if holds_both_ways(self.new) or holds_both_ways(self.old):
            return ""
        matched = [(t, o) for t in self.new_side for o in self.old_side if agrees(t, o)]
        for party, party_old in matched:
            # A name written small in one and with a capital that only opens the sentence in
            # the other ("Kate rings us" / "we ring kate") is still a name in both.
            named = capital(party, party_old) or all(
                small_name(t) or t.kind is TermKind.NAME for t in (party, party_old)
            )
            if not (named or party.text in RELATIVES):
                continue  # a known word written small is what is done ("owes"), not who
            for other, other_old in matched:
                here = party.position - other.position
                if other is not party and here * (party_old.position - other_old.position) < 0:
                    return f"roles differ: the speaker and {party.surface} change places"
            # No other word between them ("I replaced Mark" / "Mark replaced me", "replaced"
            # being no term): the speaker's own pronoun is the other side.
            speaker, speaker_old = speaker_at(self.new), speaker_at(self.old)
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
        grandmother; an instruction too ("Call my grandmother Nana", whose "call" no term
        keeps), and a name given after "called" or "as" ("wants to be called Mama", "address
        my mother as Mum")."""
        if not _NAMING & {*self.new.said_tokens, *self.old.said_tokens}:
            return ""
        for term, other in self._matched():
            if term.text != other.text or term.text not in RELATIVES:
                continue
            if term.surface.lower() == other.surface.lower():
                continue
            if all(
                a_name_given(said, reading)
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
        if holds_both_ways(self.new) or holds_both_ways(self.old):
            return ""
        deeds = {speaker_doing(self.new), speaker_doing(self.old)}
        if deeds == {True, False} and (speaker_passive(self.new) or speaker_passive(self.old)):
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
        deed_at = active_deed_at(active.said_tokens, markers.verb_base(tokens[be + 1]))
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
            deed_at = active_deed_at(active.said_tokens, markers.verb_base(tokens[done_at]))
            if deed_at < 1:
                continue  # the deed not said actively, or with no one before it
            for term in passive.terms:
                if term.slot not in RECEIVING_SLOTS or term.at <= done_at:
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
        done_to, done_to_before = pronouns_done_to(new, old), pronouns_done_to(old, new)
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
                ((*noun_said(term, self.new), self.new), (*noun_said(other, self.old), self.old)),
                key=lambda noun: len(noun[0]),
            )
            (one, one_at, one_reading), (many, many_at, many_reading) = said
            if not one or not (plural_of(one, many) or self._counted_apart(term, one, many)):
                continue
            after_one = token_at(one_reading, one_at + 1)
            after_many = token_at(many_reading, many_at + 1)
            # A transcript's "'s" without its apostrophe: "the thermostats in the hallway" (is),
            # "my nans prescription" (whose), "my husbands a bus driver" (is).
            if after_one in ("is", "'s") and after_many not in _PLURAL_VERBS:
                continue
            if after_many in ("a", "an", "the"):
                continue
            return f"how many differs: {term.surface} / {other.surface}"
        return ""

    @staticmethod
    def _counted_apart(term: Term, one: str, many: str) -> bool:
        """Two words the lexicon reads as one animal or relative ("kitten" and "cat", "mum" and
        "mother"), one said in the plural and the other not: "the kittens" / "the cat" are not
        one animal."""
        if one == many or not (term.text in lexicon.ANIMALS or term.text in RELATIVES):
            return False
        return said_plural(one) != said_plural(many)

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
                token_at(reading, said.at - 1) == said.slot
                for reading, said in ((self.new, term), (self.old, other))
            )
            talking = any(
                said.slot == "to" and token_at(reading, said.at - 2) in _TALKING
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
        new, old = attachments(self.new), attachments(self.old)
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
        exchanging = all(_EXCHANGING & set(r.said_tokens) for r in (self.new, self.old))
        return self._crossed(_PIVOTS + (("with", "for") if exchanging else ()))

    def _reported_turned(self) -> str:
        """ "Mum says I snore" / "I say Mum snores", "Dad thinks Amy is late" / "Amy thinks Dad
        is late": who says or thinks it and of whom, the other way round."""
        return self._crossed(_REPORTING)

    def _crossed(self, pivots: Sequence[str]) -> str:
        """Things (the speaker too) crossing one of the ``pivots`` both ways, the words
        otherwise alike."""
        if not self._alike() or _said_words(self.new) != _said_words(self.old):
            return ""  # "Max is older than Lily" / "lily is younger than max": said the other way
        tokens = [_alike_said(word) for word in self.new.said_tokens]
        tokens_old = [_alike_said(word) for word in self.old.said_tokens]
        for pivot in pivots:
            if tokens.count(pivot) != 1 or tokens_old.count(pivot) != 1:
                continue  # no side to cross without the word once in each
            if pivot in _TOWARDS and (holds_both_ways(self.new) or holds_both_ways(self.old)):
                continue  # "Jo is married to Ann's brother": the same both ways
            new_before, new_after = either_side_of(self.new, tokens, pivot)
            old_before, old_after = either_side_of(self.old, tokens_old, pivot)
            crossed = (new_before - old_before) & (old_after - new_after)
            back = (new_after - old_after) & (old_before - new_before)
            if crossed and back:
                return f"sides differ around '{pivot}': {min(crossed)} / {min(back)}"
        return ""

    def _tense(self) -> str:
        """ "Rachel is my wife" / "rachel was my wife", "Grandad smokes" / "grandad smoked": the
        same words, a state said to hold and said to have held (or to come)."""
        tenses = {self.new.tense, self.old.tense}
        new_perfect = perfect_said(self.new)
        perfects = {new_perfect, perfect_said(self.old)}
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
            planned(reading) or meant_deeds(reading.said_tokens) for reading in (self.new, self.old)
        ):
            return ""  # "I'm bringing a salad", "I'm going to bring a salad": as "I will bring"
        changes = (self.new.change.lower(), self.old.change.lower())
        said_by_one = changes[0] != changes[1]  # "a new car" in both says nothing of when
        if said_by_one and any(set(c.split()) - NO_WHEN for c in changes if c):
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
        new_typed, old_typed = typed_value(self.new.text), typed_value(self.old.text)
        if NOTE_FORM.match(self.new.text) or NOTE_FORM.match(self.old.text):
            # a note's words are no value
            differ = letters_and_digits(new_typed) != letters_and_digits(old_typed)
        else:
            # in the order said: "blue cat 42" is not "cat blue 42", "07700 900123" not "900123
            # 07700"
            new_values = [as_written(t) for t in in_order(self.new_side) if not t.in_subject]
            old_values = [as_written(t) for t in in_order(self.old_side) if not t.in_subject]
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
        note = NOTE_FORM.match(reading.text)
        if note is not None:
            named = LETTER_RUNS.findall(note[1].lower())
            return bool(named) and named[-1] in lexicon.LITERAL_ATTRIBUTES
        return reading.functional and any(
            term.in_subject and letters_and_digits(term.surface) in lexicon.LITERAL_ATTRIBUTES
            for term in reading.terms
        )

    def _frequency(self) -> str:
        """ "Dad always locks the back door" / "Dad sometimes locks ...": the same deed, done
        as often as two different words say (or one and none: "Sarah collects the kids on
        Sundays" / "... sometimes collects ..."), and nothing else differs."""
        new, old = self.new.frequency, self.old.frequency
        if not new and not old:
            return ""
        if not new or not old:
            # A deed said with no word of how often is its rule: "usually" or "always" say
            # no more, "sometimes" says less ("Sarah collects the kids on Sundays").
            if lexicon.FREQUENCIES[new or old] >= _AS_A_RULE:
                return ""
        elif lexicon.FREQUENCIES[new] == lexicon.FREQUENCIES[old]:
            return ""
        rest = [
            term
            for term in (*self.new_only, *self.old_only)
            if term.surface.lower() not in lexicon.FREQUENCIES
        ]
        if self.shared_keyed and not significant(rest):
            return f"how often differs: {new or '-'} / {old or '-'}"
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
        kinds = kinds_of(new_terms) & kinds_of(old_terms)  # "Postgres" / "SQLite": two databases
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
        if any(term.kind in UNKEYED or is_generic(term) for term in only):
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
            if term.text in self.relatives or not attribute_of(term, new):
                continue
            for match in self.old_side:
                if match.text in self.relatives or not attribute_of(match, old):
                    continue
                if not agrees(term, match):
                    continue
                for word in (term, match):
                    if word.text in lexicon.FUNCTIONAL and (
                        is_generic(word)
                        or all(identifies(value, word.text) for value in (*new, *old))
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
            and attitudes_agree(new, old)
            and not self._direction_clash()
            and not self._two_facts_alike()
            and self._markers_agree()
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
        if named_or_described(new, old):
            return "said differently: a name against a description"
        if striving(new) != striving(old):
            return "said differently: a try, or a deed meant, against the deed"
        if digits_reordered(new, old):
            return "said differently: the same digits in another order"
        if in_place_of(new, old) or in_place_of(old, new):
            return "said differently: one thing in place of another"
        if not self._owners_agree():
            return "whose differs: someone's own against one of many"
        if not self._counts_agree():
            return "said differently: a place in a row, a label or whom for, against how many"
        if not self._slots_agree():
            return (
                "said differently: someone or something in another part (with, for, of, at theirs)"
            )
        if assistant_done_to(new) != assistant_done_to(old) or letting(new) != letting(old):
            return "said differently: the assistant doing it, letting it be done or done to"
        if not joined_alike(new, old):
            return "said differently: the clauses joined by other words"
        if alone_or_together(new, old):
            return "said differently: alone against together"
        if _hedged(new) != _hedged(old):
            return "said differently: hedged, or like a thing, against it"
        if over(new) != over(old):
            return f"said differently: {over(new) or '-'} / {over(old) or '-'}"
        if compound_reversed(new, old) or compound_reversed(old, new):
            return "said differently: two words naming one thing, the other way round"
        if a_broad_thing_of(new, old) or a_broad_thing_of(old, new):
            return "said differently: a thing of someone's against them"
        if turned := self._reported_turned():
            return f"said differently: {turned}"
        denied = [_DENIED_FEELING.search(reading.plain) for reading in (new, old)]
        if bool(denied[0]) != bool(denied[1]):
            return "feeling differs: one denied, not its opposite"
        if self._plural_value():
            return "said differently: one thing named against several"
        if done_to_or_doing(new, old):
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
        if any(t.text in RELATIVES or t.text in lexicon.ANIMALS for t in (term, other)):
            return False
        longer, reading = (term, self.new) if len(term.surface) > len(other.surface) else (
            other, self.old)  # fmt: skip
        shorter, other_reading = (other, self.old) if longer is term else (term, self.new)
        if shorter.surface.lower().endswith("'s"):
            return False  # "at Sarah's" / "at sarahs": a transcript drops the apostrophe
        after = token_at(reading, longer.at + 1)
        contracted = after not in ("is", "are", "'s")
        if contracted and token_at(other_reading, shorter.at + 1) in ("is", "'s"):
            return False  # "Tom is at school" / "toms at school": "toms" is "Tom's"
        if (
            spelled(longer) in other_reading.plain.split()
            or spelled(shorter) in reading.plain.split()
        ):
            return False  # each said in both ("Rose waters the roses"): matched across
        family = token_at(reading, longer.at - 1) == "the"  # "with the evans"
        return family or after in AFTER_A_NAME or after in PREPOSITIONS

    def _plural_value(self) -> bool:
        """ "My favourite film is Alien" / "... is Aliens", "we're watching Ghosts" / "... ghost":
        a thing named at the end of both facts, in the singular in one and the plural in the
        other; or a person's name with an "s" more ("Carlo" / "carlos")."""
        for term, other in self._matched():
            one, many = spelled(term), spelled(other)
            if not (plural_of(one, many) or plural_of(many, one)):
                continue
            if self._names_apart(term, other):
                return True  # "Carlo" / "carlos", "William" / "the williams": two people
            if a_value_named(self.new, term) and a_value_named(self.old, other):
                return True
        return False

    def _owners_agree(self) -> bool:
        """ "I was bitten by a dog" / "I was bitten by my dog": who did it, said with "a" in one
        fact, is not the speaker's own in the other."""
        for term, other in self._matched():
            if term.slot != "by" or other.slot != "by":
                continue  # "has a ladder" / "his ladder": the subject's own, however said
            articles = {token_at(self.new, term.at - 1), token_at(self.old, other.at - 1)}
            if len(articles & INDEFINITE) == 1 and len(articles & OWNING) == 1:
                return False
        return True

    def _counts_agree(self) -> bool:
        """ "This is my third cat" / "i have three cats": a number before a thing, in its place
        in a row in one fact and how many in the other (dates, "the third of May", and "every
        fourth week" aside); or after it, a label ("season two" / "2 seasons")."""
        for term, other in self._matched():
            if term.kind is not TermKind.NUMBER or other.kind is not TermKind.NUMBER:
                continue
            if label_and_count(self.new, term, self.old, other):
                return False
            if ordinal(term.surface) == ordinal(other.surface):
                continue
            things = (token_at(self.new, term.at + 1), token_at(self.old, other.at + 1))
            before = {token_at(self.new, term.at - 1), token_at(self.old, other.at - 1)}
            if "every" not in before and all(a_thing(thing) for thing in things):
                return False
        return True

    def _times_agree(self) -> bool:
        """Whether each time both facts name stands in the same part of them: "until Tuesday"
        is not "by Tuesday" nor "on Tuesday", "for a week" is not "in a week"."""
        return not any(
            frozenset((term.slot, other.slot)) in _TIME_SLOT_CLASHES
            and timeish(term)
            and agrees(term, other)
            for term in self.new_side
            for other in self.old_side
        )

    def _places_agree(self) -> bool:
        """Whether each thing both facts name is placed alike: "in the safe" is not "by the
        safe", nor "on the car" "in the car" ("at the hospital" is "in the hospital"). One
        clause each: a preposition's reach past "and" is not read."""
        if any(len(CLAUSE_BREAK.split(reading.text)) > 1 for reading in (self.new, self.old)):
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
            and not timeish(term)
            and term.text not in _NO_PLACES
            and agrees(term, other)
            for term in self.new_side
            for other in self.old_side
        )

    def _slots_agree(self) -> bool:
        """Whether each person both facts name plays the same part ("works with Ann" is not
        "works for Ann", nor "lives near Ann", nor "at Ann's" "for Ann"), and each thing after
        a feeling ("scared of the dog" is not "scared for the dog")."""

        def parts(side: Sequence[Term]) -> set[str]:
            return {t.slot for t in side if names_someone(t)}

        # A name written small in one fact ("about springsteen") is its match's person.
        matched = any(
            (
                (
                    frozenset((term.slot, other.slot)) in _PARTS_APART
                    or _at_theirs(self.new, term, other.slot)
                    or _at_theirs(self.old, other, term.slot)
                )
                and (names_someone(term) or names_someone(other))
            )
            or (
                frozenset((term.slot, other.slot)) in _FELT_PARTS_APART
                and _felt_for(self.new, term)
                and _felt_for(self.old, other)
            )
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
            return f"modality differs: {word_list(new.modality)} / {word_list(old.modality)}"
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
        if spans := span_and_list(new, old):
            return spans
        if new.titles and old.titles and not new.titles & old.titles:
            return f"title differs: {word_list(new.titles)} / {word_list(old.titles)}"
        if new.everyone and old.everyone and new.everyone != old.everyone:
            return f"'everyone' is another part: the {new.everyone} / the {old.everyone}"
        if new.last_spans and old.last_spans and new.last_spans != old.last_spans:
            return (
                f"when differs: last {word_list(new.last_spans)} / last {word_list(old.last_spans)}"
            )
        return ""

    def _two_facts_alike(self) -> str:
        """ "Mum is a carer" / "mum has a carer", "I'm on call this weekend" / "... every
        weekend": the same words saying two facts that may both be true, never one."""
        return (
            being_and_having(self.new, self.old)
            or being_and_having(self.old, self.new)
            or occasions_differ(self.new, self.old)
            or becoming_and_having(self.new, self.old)
            or becoming_and_having(self.old, self.new)
            or whose_or_both(self.new, self.old)
            or whose_or_both(self.old, self.new)
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
            if verb in _TURNING_VERBS and done_to_in_one(term, other):
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
                bound = (term.slot == "for" and left_from(self.old, other)) or (
                    other.slot == "for" and left_from(self.new, term)
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
        if not attitudes_agree(self.new, self.old):
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
        if not attitudes_agree(self.new, self.old) or self._direction_clash():
            return "said differently"
        if alike := self._two_facts_alike():
            return alike
        if apart := self._worded_apart:
            return apart
        if any(map(known_thing, self.new_only)) and any(map(known_thing, self.old_only)):
            return "different things"  # "my mom" / "my dad": related, never one fact
        return ""


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

_DENIED_FEELING = re.compile(
    r"\b(?:don'?t|do not|doesn'?t|does not|didn'?t|did not|never|not)\s+(?:really\s+)?"
    r"(?:hate|hates|dislike|dislikes|detest|loathe|mind|minds|love|loves|adore|adores)\b",
    re.I,
)
"""A feeling denied, which is not its opposite: "I don't hate sushi" is no "I love sushi"
("don't like", said as often as "dislike", is read as it)."""

_PLURAL_VERBS = frozenset("are were have do".split())


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


def _ranking(order: tuple[Term, Term]) -> str:
    return f"{order[0].surface} over {order[1].surface}"


_OPPOSITE_SLOTS = ({"to", "from"}, {"into", "from"})
_PARTS_APART = frozenset(
    frozenset(pair)
    for pair in (
        ("with", "for"), ("with", "near"), ("for", "near"), ("by", "for"), ("for", "from"),
        ("by", "about"), ("to", "about"), ("from", "about"), ("with", "about"), ("for", "about"),
        ("of", "from"), ("of", "by"), ("to", "by"), ("for", "through"), ("with", "through"),
        ("on", "for"), ("of", "for"),
    )
)  # fmt: skip
"""What a person after each of two words is to the fact differs: with, for, near, by; a book
"by" someone is not one "about" them, nor a dinner "on" them (who pays) one "for" them."""
_FELT_PARTS_APART = frozenset(
    frozenset(pair) for pair in (("of", "for"), ("at", "about"), ("around", "for"))
)
"""Words after a feeling that say another part of anyone or anything: scared "of" the dog or
"for" it, mad "at" Mia or "about" her, nervous "around" Dad or "for" him."""
_APART_FROM_AT_THEIRS = frozenset(("for", "by", "of"))
"""Words before a person that say another part than being at their home: a party "at Tom's"
is not one "for Tom" (though one works "at" a firm or "for" it)."""
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
_PLACE_WORDS = frozenset("in on at by near through across".split())
"""Words before a place that say where in relation to it."""
_WAYS_APART = frozenset(
    frozenset((towards, along))
    for towards in ("to", "into")
    for along in ("via", "through", "around", "across")
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

_ROLE_SLOTS = frozenset(("for", "to", "about", "from", "with"))
"""Words before a person who is not the doer of a passive ("made for Gran", "sent to Tom")."""
_SLOTTED = frozenset(("number", "time", "name"))
