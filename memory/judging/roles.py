"""Who does what to whom, and whose: the doer and the one done to, said actively or as a passive,
relations that hold both ways, owners and their things."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from memory.judging import lexicon, markers
from memory.judging.matching import agrees
from memory.judging.names_and_numbers import (
    DETERMINERS,
    INDEFINITE,
    LETTER_RUNS,
    OWNING,
    RELATIVES,
    ROLE_KINDS,
    known_thing,
    small_name,
    token_at,
)
from memory.judging.reading import OBJECT_PRONOUNS, Attitude, Reading
from memory.judging.subject import verb_ending
from memory.judging.terms import Term, TermKind, canonical
from memory.judging.words import (
    COPULAS,
    PREPOSITIONS,
    SUBJECT_PRONOUNS,
    TIME_PREPOSITIONS,
    stem,
)

_SETTING_SLOTS = frozenset("in at on during until since".split())
"""Prepositions before where or when something is, not who takes part ("by", "with", "from",
"near": "Mark lives near us" / "we live near Mark")."""

_DEED_WORDS = frozenset(
    "has have had does did will would can could paid lent sent heard found told held built".split()
)
"""Auxiliaries, and pasts that are neither "-ed" nor in the lexicon's irregular verbs."""


_SPEAKER_PRONOUNS = frozenset(("i", "we", "me", "us"))


def a_name_given(term: Term, reading: Reading) -> bool:
    """Whether a term stands where "call" puts a name: straight after whom it is given to
    ("call my mum Nana", "calls me Grandad"), or after "as" or a "be" and "called" ("to be called
    Mama", "address her as Mum")."""
    before = token_at(reading, term.at - 1)
    named_after = before == "as" or (
        before == "called" and token_at(reading, term.at - 2) in _BE_SAID
    )  # "to be called Mama", not "Mum called Gran" on the phone
    return (
        named_after
        or before in OBJECT_PRONOUNS
        or lexicon.lookup(lexicon.RELATIONS, before, stem(before)) is not None
    )


def assistant_done_to(reading: Reading) -> bool:
    """Whether a fact has something done to the assistant ("The kids speak English to you",
    "Don't let Ben tease you"), not asked of it ("Speak English to the kids", "Could you
    speak up", "when you talk to my gran"): a "you" after "to", "at" or "with", before a
    preposition or ending a clause (not "good for you", said of anyone)."""
    tokens = reading.said_tokens
    return any(
        word in ("you", "yourself")
        and (
            token_at(reading, index - 1) in _TOWARDS_YOU
            or token_at(reading, index + 1) in PREPOSITIONS  # "asks you about her day"
            or not token_at(reading, index + 1).isalpha()
        )
        and token_at(reading, index - 1) != "for"
        for index, word in enumerate(tokens)
    )


_TOWARDS_YOU = frozenset(("to", "at", "with"))
"""Words before a "you" something is done to."""


def letting(reading: Reading) -> bool:
    """Whether an instruction lets someone do a thing ("Don't let Tom swear"), not does it
    (nor lets someone or something somewhere: "Let the cleaner in", "Don't let the dog into
    the kitchen")."""
    tokens = reading.said_tokens
    return any(
        word == "let"
        and token_at(reading, index - 1) in ("", "not", "never", "always", "please")
        and not _LET_WHERE & set(tokens[index + 1 : index + 1 + _LET_IN_WORDS])
        for index, word in enumerate(tokens)
    )


_LET_IN_WORDS = 4
"""Words from "let" to where ("let the cleaner in")."""
_LET_WHERE = PREPOSITIONS | {"in", "out", "into", "inside", "outside", "upstairs", "downstairs"}
"""Words that say where someone or something is let."""


def pronouns_done_to(reading: Reading, other: Reading) -> tuple[str, ...]:
    """Who a fact's object pronouns name, without a "her" that says whose: before a word the
    other fact says after "the", "a" or an owner ("lent me her car" / "lent me the car")."""
    tokens, theirs = reading.said_tokens, other.said_tokens
    owned = {then for first, then in pairwise(theirs) if first in DETERMINERS}
    whose = sum(
        1 for first, then in pairwise(tokens) if first == "her" and then in owned and then.isalpha()
    )
    done_to = list(reading.done_to)
    for _ in range(min(whose, done_to.count("her"))):
        done_to.remove("her")
    return tuple(done_to)


def speaker_at(reading: Reading) -> int:
    """The index of the first pronoun that names the speaker (a fact with a role has one)."""
    return next((i for i, word in enumerate(reading.said_tokens) if word in _SPEAKER_PRONOUNS), 0)


def either_side_of(
    reading: Reading, tokens: Sequence[str], pivot: str
) -> tuple[frozenset[str], frozenset[str]]:
    """What a fact says before and after its ``pivot`` word, found in ``tokens`` (its said
    tokens, a verb's forms as one): its terms, and the speaker where a pronoun names them."""
    at = tokens.index(pivot)
    said = [(term.at, term.text) for term in reading.terms]
    said += [(i, "speaker") for i, word in enumerate(tokens) if word in _SPEAKER_PRONOUNS]
    before = frozenset(text for index, text in said if index < at)
    after = frozenset(text for index, text in said if index > at)
    return before, after


def speaker_doing(reading: Reading) -> bool | None:
    """Whether the speaker does what the fact says (None when no pronoun tells): "I" in an
    active fact and "me" after a passive's "by" are who does it. A passive elsewhere in the
    fact ("I sold the car that was built by Tom") is not the speaker's."""
    if not reading.speaker_role:
        return None
    return (reading.speaker_role == "subject") != speaker_passive(reading)


def speaker_passive(reading: Reading) -> bool:
    """A passive of the speaker's: "I was hired by", "I'm managed by", "... by me"."""
    if not reading.passive:
        return False
    pairs = list(pairwise(reading.said_tokens))
    return any(first in ("i", "we") and then in _PASSIVE_BE for first, then in pairs) or any(
        first == "by" and then in ("me", "us") for first, then in pairs
    )


_PASSIVE_BE = frozenset("am is are was were got get been".split())


def doer_against_setting(doing: Reading, other: Reading) -> str:
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
    if doer is None or doer.text in RELATIVES or doer.kind is TermKind.NUMBER:
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


def voice_changed(
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


def done_to_in_one(term: Term, other: Term) -> bool:
    """Whether one term is what is done (straight after the verb) and the other is whom it is
    done for, with or against: "Max plays for Hartley" / "max plays Hartley" (his team against
    the other side), "runs the running club" / "runs with the running club"."""
    return any(
        not done.slot and done.position > 0 and not done.in_subject and beside.slot in _PARTNER
        for done, beside in ((term, other), (other, term))
    )


def whose_things(reading: Reading) -> dict[str, str]:
    """Each owner a fact names with the (first) thing it owns ("our car", "pete's garage")."""
    found: dict[str, str] = {}
    for owner, thing in owned_in_turn(reading):
        found.setdefault(owner, thing)
    return found


def owned_in_turn(reading: Reading) -> list[tuple[str, str]]:
    """Each owner and thing owned in the order said ("our car", "pete's garage", "their skip");
    "our" for the household's."""
    return [
        ("our" if owned[1] else owned[2] or f"{owned[3]}'s", owned[4])
        for owned in _OWNED_THING.finditer(reading.said.lower())
    ]


def owners_traded(new: Reading, old: Reading) -> bool:
    """ "My car hit Tom's car" / "Tom's car hit my car": the same things with the same owners,
    whose stands where changing; not a list ("my car and Tom's car") nor a relation the same
    both ways ("my choir sang with Sue's choir")."""
    now, before = owned_in_turn(new), owned_in_turn(old)
    if len(now) < _TRADED or now == before or sorted(now) != sorted(before):
        return False
    if [thing for _, thing in now] != [thing for _, thing in before]:
        return False  # the things said in another order, each still its owner's
    readings = (new, old)
    if new.passive != old.passive:
        return False  # "Tom's dog was bitten by my dog" says "my dog bit Tom's dog" again
    return not any(
        holds_both_ways(r) or _OWNED_LIST.search(r.said.lower()) or _ALIKE_BOTH_WAYS.search(r.plain)
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
OPENING_OWNER = re.compile(r"\W*(?:(?:my|our|the|your)\s+)?\w+(?:\s+\w+)?'s\b")
"""A fact that opens with whose it is ("My best friend's name is ...")."""

_PARTNER = frozenset(("for", "with", "against"))
"""Words before whom a deed is done for, with or against."""


def took_the_place(
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


def active_deed_at(said: Sequence[str], deed: str) -> int:
    """Where the deed (a verb's base) is said actively, or -1: not said, or said as a passive
    ("got hired")."""
    at = next((i for i, word in enumerate(said) if markers.verb_base(word) == deed), -1)
    return -1 if at > 0 and said[at - 1] in markers.BE else at


def doer_first(reading: Reading, side: Sequence[Term]) -> list[Term]:
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


def possessors(reading: Reading) -> set[str]:
    """Whose the people a fact names are: a name or a relative before "'s" and a thing ("Ann's
    sister", "dad's cooking"), and "his", "her" or "their" before a relative ("his mum"). Not
    the household's own ("my mum's birthday"), nor "'s" for "is" ("ben's a nurse", "tom's
    sara's boss"), nor the other side of a relation the same both ways ("Tom is Hugo's
    friend")."""
    lowered = reading.said.lower()
    named = {
        lexicon.RELATIONS.get(found[1], found[1])
        for found in OWNER_AND_OWNED.finditer(lowered)
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
        if following in RELATIVE_WORDS
    }
    return named | pronouns


OWNER_AND_OWNED = re.compile(r"\b(\w+)(?:'s|(?<=s)')\s+(?=(\w+))")
"""A word's "'s" (or a plural's "'") of whose and the word after it: "sister's carer", "the
Patels' drill"."""
SOMEONE_THERE = re.compile(
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
RELATIVE_WORDS = frozenset(lexicon.RELATIONS) | frozenset(lexicon.RELATIONS.values())


def relatives_reordered(new: Reading, old: Reading) -> str:
    """ "Emma's friend's mum" / "Emma's mum's friend": the same people in a chain of whose, in
    another order, are another person."""
    chains = [_CHAIN.findall(reading.text.lower()) for reading in (new, old)]
    for chain in chains[0]:
        for other in chains[1]:
            said, said_before = chain.split("'s "), other.split("'s ")
            if said == said_before or sorted(said) != sorted(said_before):
                continue
            # two words, both relatives ("my aunt's son"): "swimming's Tuesday" is "is"
            if len(said) > _PAIR or all(word in RELATIVE_WORDS for word in said):
                return f"whose person differs: {chain} / {other}"
    return ""


_PAIR = 2


def role_of_role(new: Reading, old: Reading) -> str:
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


_OWNER = r"\b(\w{3,})(?:'s|s'|es|s) "
"""A word as whose, as typed or as a transcript writes it: "boss's", "bosses"."""
_DOUBLED = re.compile(_OWNER + r"\1\b")
"""A role's own role: "boss's boss", "bosses boss"."""
_WHOSE = re.compile(_OWNER + r"\w")
"""A chain of whose, and the first in it: "boss" of "boss's manager"."""
_CHAIN = re.compile(r"\b\w+(?:'s \w+)+")
"""A chain of whose: "jack's friend's mum", "my aunt's son"."""


def whose_role(speaking: Reading, owning: Reading, matched: Sequence[tuple[Term, Term]]) -> str:
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
        party = owned.kind is TermKind.NAME or owned.text in RELATIVES
        if party and whose and not said.in_subject:
            return f"roles differ: the speaker and {owned.surface} change places"
    return ""


def said_once_in(term: Term, side: Sequence[Term]) -> bool:
    """Whether ``side`` says ``term`` once, not twice."""
    return sum(1 for other in side if agrees(term, other)) == 1


def sequence_between(reading: Reading, first: Term, second: Term) -> set[str]:
    """The sequence words ("then", "before") that stand between two terms of a reading."""
    low, high = sorted((first.position, second.position))
    return {word for word, at in reading.sequence if low < at <= high}


def does_or_feels(reading: Reading, party: Term) -> bool:
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


def says_whose(reading: Reading, term: Term) -> bool:
    """Whether a term says whose something is ("Tom" in "Tom's son"; a "'s" at the end may
    have been read as "is")."""
    if reading.said_tokens[term.at + 1 : term.at + 2] == ("'s",):
        return True
    return re.search(rf"\b{re.escape(term.surface)}['\u2019]s\b", reading.text, re.I) is not None


def symmetric_deed(reading: Reading) -> bool:
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


def held_does_it(reading: Reading, party: Term) -> bool:
    """Whether who the fact is about does it to ``party``: said before them, or after them as
    a passive's doer; not when the party gives it ("gets help from Tom")."""
    if party.slot == "by" or (party.slot == "from" and _RECEIVING & set(reading.said_tokens)):
        return False  # "was bitten by Mia", "gets help from Tom": the party does it
    return (min(reading.subject.tokens) < party.at) != reading.passive


_RECEIVING = frozenset("get gets got getting receive receives received".split())


def listed_with_held(reading: Reading, party: Term) -> bool:
    """Whether a party is listed with who the fact is about ("my mum and Anna"), only "and" or a
    comma between them."""
    held = reading.subject.tokens
    start, end = sorted((party.at, min(held) if party.at < min(held) else max(held)))
    between = set(reading.said_tokens[start + 1 : end])
    return bool(between) and between <= {"and", ",", "&"}


def holds_both_ways(reading: Reading) -> bool:
    """Says a relation that holds both ways ("married to", "works with", "sits next to", "lives
    next door"); not one ranked among others ("Tom is Hugo's best friend" says nothing of
    Hugo's best), nor "next week"."""
    words = LETTER_RUNS.findall(reading.text.lower())
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
    if _felt_towards(before):
        return True
    if before and _a_time_shared_out(before[-1]):
        return True  # "Mondays with me, Tuesdays with Sarah": whose each time is
    if before[-2:-1] and before[-1] == "in" and before[-2] in _MOVING:
        return True
    # A thing between the leaving and "with": "leaving the spare key with Pete".
    return any(word in _LEAVING for word in before[-_THING_WORDS - 1 : -1])


def _felt_towards(before: Sequence[str]) -> bool:
    """Whether "with" (after the words ``before``) follows how someone feels about or treats
    another, after a "be" ("Tom is angry with Mia", "the dog is rough with the kids", "Mum's
    really fed up with Dad"); not a state two share ("is friends with", "is away with")."""
    near = before[-_FEELING_WORDS - 1 :]
    be = max((index for index, word in enumerate(near) if word in _BE_WRITTEN), default=None)
    how = near[be + 1 :] if be is not None else []
    return any(word in lexicon.FEELINGS_TOWARDS or word in lexicon.MANNERS_TOWARDS for word in how)


def _a_time_shared_out(word: str) -> bool:
    """A day or a part of the year or week that a schedule gives to someone ("weekends with
    dad", "odd years with me", "week b with sarah")."""
    groups = lexicon.groups_of(canonical(word))
    return word in _SHARED_OUT_TIMES or bool(set(groups) & _SHARED_OUT_GROUPS)


_SHARED_OUT_TIMES = frozenset(
    "week weeks weekend weekends weekday weekdays year years half term time holidays a b eve day "
    "easter christmas birthdays".split()
)
"""Words for a stretch of time a schedule shares out."""
_SHARED_OUT_GROUPS = frozenset(("weekday", "daypart", "month", "season"))
_FEELING_WORDS = 3
"""Words a feeling or manner before "with" may take ("really fed up")."""
_BE_WRITTEN = COPULAS | {"s", "re", "m", "get", "gets", "got", "getting"}
"""Forms of "be" as a text's letter runs have them ("mia's": "mia", "s"), and "get"."""
_STAYING = frozenset(
    "stay stays stayed staying stopping lodge lodges lodged lodging boarding".split()
)
_MOVING = frozenset("move moves moved moving".split())
RECEIVING_SLOTS = frozenset(("to", "for", "from"))
_LEAVING = frozenset("leave leaves leaving left drop drops dropped dropping".split())
_THING_WORDS = 3
"""Words a thing left with someone may take ("the spare key")."""


def bears_a_role(term: Term) -> bool:
    """A name (or a word no lexicon knows, as a name written small is), a relative, a kind of
    thing, a number or a time: what can do, owe or be something to another, or fill a slot."""
    return term.kind in ROLE_KINDS or term.maybe_name or known_thing(term) or small_name(term)


def done_to_or_doing(new: Reading, old: Reading) -> bool:
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
        if participle in markers.BE or participle in _HELD_STATES or holds_both_ways(passive):
            continue  # "tom's been learning", "got divorced" (they divorced)
        deed = markers.verb_base(participle)
        at = next(
            (
                i
                for i, word in enumerate(doing)
                if markers.verb_base(word) == deed and token_at(active, i - 1) not in DETERMINERS
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
        if whose & INDEFINITE and whose & OWNING and deed not in _MAKING:
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


def left_from(reading: Reading, term: Term) -> bool:
    """Whether ``term`` is the place left ("leaves York"): bare, after a verb of leaving, in a
    fact that names no place left for."""
    return (
        not term.slot
        and any(t.text in _DEPARTING and t.at < term.at for t in reading.terms)
        and not any(t.slot == "for" for t in reading.terms)
    )


_DEPARTING = frozenset(("leave", "depart"))
