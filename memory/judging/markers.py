"""Small words that change what a fact says without being content: a modal ("may", "must"), whose
a thing is ("mine", "his"), and where a change stands in time ("is about to retire", "has
retired"). Each is read from a fact's words as a plain value, so two facts that differ only in it
are never one fact.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from memory.judging import lexicon
from memory.judging.words import stem

_MODALS = {
    "may": "possible",
    "might": "possible",
    "could": "possible",
    "can": "able",
    "should": "advised",
    "ought": "advised",
    "must": "required",
    "need": "required",  # "the car needs new tyres" is not "the car has new tyres"
    "needs": "required",
}
"""Modal verbs by what they say: "may" and "might" one thing, "must" another."""
_REQUIRING = frozenset(("have", "has", "had", "need", "needs", "got"))
"""Before "to", these say "must": "has to", "needs to", "got to"."""
_BEFORE_MONTH = frozenset("in of since until from by during early late mid next last this".split())
"""Before "may", these make it the month ("in may", "early may")."""
_OWNERS = {
    "my": "speaker",
    "mine": "speaker",
    "our": "speaker",
    "ours": "speaker",
    "his": "his",
    "her": "her",
    "hers": "her",
    "their": "their",
    "theirs": "their",
    "your": "your",
    "yours": "your",
}
"""Possessive words by whose the thing is; "my" and "our" are the household's alike."""
_QUANTIFIERS = {
    "all": "all",
    "every": "all",
    "each": "all",
    "both": "all",
    "some": "some",
    "several": "some",
    "most": "most",
    "many": "many",
    "few": "few",
    "none": "none",
    "neither": "none",
}
_TIMES = frozenset(
    "day days night nights morning mornings evening evenings week weeks weekend weekends time "
    "times month months year years".split()
)
"""After a quantifier, how often ("some days I work from home"), not how many."""
_GROUP_AFTER = frozenset("of the my our your his her their these those".split())
_FUTURE = (("about", "to"), ("going", "to"), ("gonna",))
_PERFECT_AUXILIARIES = frozenset(("have", "has", "had"))
_BETWEEN = frozenset("just already always never not recently finally also".split())


def modality(words: Sequence[str]) -> frozenset[str]:
    """What the fact's modals say ("possible", "able", "advised", "required"); "may" as a month
    ("in May", "May 3rd") is none."""
    said = set()
    for index, (word, following) in enumerate(_with_next(words)):
        before = words[index - 1] if index else ""
        dated = before in _BEFORE_MONTH or before[:1].isdigit() or following[:1].isdigit()
        if word == "may" and dated:
            continue
        if word in ("need", "needs") and _an_amount(words[index + 1 : index + 4]):
            continue  # an amount it takes: "the pool needs 300 litres", "a dozen eggs"
        # "does not have to", "doesn't really have to", "no need to", "needs no watering"
        before_that = words[index - 2] if index > 1 else ""
        denied = (
            following in _DENIALS
            or before in _DENIALS
            or (before in _SOFTENERS and before_that in _DENIALS)
        )
        if word == "must" and denied:
            said.add("forbidden")
        elif word in _MODALS and not (denied and word in _REQUIRING):
            said.add(_MODALS[word])
        elif word in _REQUIRING and (following == "to" or word.startswith("need")):
            said.add("optional" if denied else "required")
    return frozenset(said)


_DENIALS = frozenset(("not", "never", "no"))
"""A requirement denied: "must not" forbids, "need not" ("needn't") and "does not have to" leave
it open, so "mustn't take ibuprofen" and "doesn't have to take ibuprofen" are two rules."""
_SOFTENERS = frozenset("really actually even necessarily strictly".split())
"""Words between a denial and what it denies ("doesn't really have to")."""


def _an_amount(after: Sequence[str]) -> bool:
    """Whether the words after "need" give an amount of something ("300 litres"), not a
    number of things ("two new tyres", "a dozen eggs")."""
    words = [word for word in after if word not in ("a", "an")]
    return len(words) >= 2 and words[0][:1].isdigit() and words[1] in _MEASURES


_MEASURES = frozenset(
    "litre litres liter liters ml millilitre millilitres kg kilo kilos gram grams g cup cups "
    "hour hours minute minutes dozen pint pints spoon spoons teaspoon teaspoons tablespoon "
    "tablespoons".split()
)


def quantity(words: Sequence[str]) -> str:
    """How many of a group a fact is about, when a quantifier says it of the group ("all",
    "some", "most"): the first quantifier before a group ("some of the kids", "all the plants",
    "allergic to some nuts"), not before a time ("every day", "every Sunday")."""
    for index, (word, following) in enumerate(_with_next(words)):
        # "every Sunday", "some mornings": when, not how many
        when = following[:-1] if following.endswith("s") else following
        if (
            word in _QUANTIFIERS
            and following
            and following not in _TIMES
            and when not in _OCCASIONS
        ):
            before = list(words[max(0, index - 2) : index])
            if word == "few" and before[-1:] == ["a"]:
                return "many" if before[:1] == ["quite"] else "some"  # "a few", "quite a few"
            if before[-1:] == ["not"] and _QUANTIFIERS[word] == "all":
                return "not all"  # "not all the kids", "the kids don't all have phones"
            return _QUANTIFIERS[word]
    return ""


def owners(words: Sequence[str]) -> frozenset[str]:
    """Whose the things a fact names are, by its possessive words ("speaker", "his", ...); not
    whose a person is ("our neighbour Gary", "his ladder" are one household's)."""
    return frozenset(
        _OWNERS[word]
        for index, word in enumerate(words)
        if word in _OWNERS and not _whose_person(words[index + 1 : index + 3])
    )


def _whose_person(after: Sequence[str]) -> bool:
    """Whether the words after a possessive name a person ("his dentist", "our neighbour
    Gary"), not a meeting with one ("his dentist appointment")."""
    if not after or not _relative_word(after[0]):
        return False
    return len(after) < 2 or after[1] not in _MEETINGS


_MEETINGS = frozenset(
    "appointment appointments class classes lesson lessons session sessions visit visits "
    "check-up checkup exam booking".split()
)
"""What one has with a person, and is one's own: "his dentist appointment"."""


def _with_next(words: Sequence[str]) -> list[tuple[str, str]]:
    """Each word with the one after it ("" after the last)."""
    return [
        (word, words[index + 1] if index + 1 < len(words) else "")
        for index, word in enumerate(words)
    ]


def _relative_word(word: str) -> bool:
    return word in lexicon.RELATIONS or word in lexicon.RELATIONS.values()


def aspect(words: Sequence[str]) -> str:
    """ "future" for a change to come ("is about to retire", "is going to fix"), "perfect" for
    one done ("has retired"), "progressive" for one under way ("is retiring"), or ""."""
    for index, word in enumerate(words):
        pair = tuple(words[index : index + 2])
        if pair in _FUTURE or (word,) in _FUTURE:
            return "future"
        if word in _PERFECT_AUXILIARIES:
            following = _after_auxiliary(words, index)
            if following[:1] == ["been"] and following[1:2] and following[1].endswith("ing"):
                return "progressive"  # "has been learning" is under way
            if following and participle(following[0]):
                return "perfect"
    for index, word in enumerate(words[:-1]):
        if word in ("is", "are", "am") and words[index + 1].endswith("ing"):
            return "progressive"
    return ""


def choice(words: Sequence[str]) -> str:
    """ "one" for "either ... or" (one of them), "each" for "both ... and", or ""."""
    if "either" in words and "or" in words:
        return "one"
    if "both" in words and "and" in words:
        return "each"
    return ""


def joiner(words: Sequence[str]) -> str:
    """ "or" when the fact offers a choice ("Tom or Ben picks Sam up"), "and" when it lists
    ("Tom and Ben"), or "" (both, or neither)."""
    said = {word for word in words if word in ("and", "or")}
    return next(iter(said)) if len(said) == 1 else ""


def complement(words: Sequence[str]) -> str:
    """What follows "stop", "forget", "remember", "quit" or "regret": "to" for a thing meant
    ("stopped to smoke"), "ing" for a thing done ("stopped smoking"), or ""."""
    for word, following in _with_next(words):
        if word in _TAKING_COMPLEMENT:
            if following == "to":
                return "to"
            if following.endswith("ing"):
                return "ing"
    return ""


_TAKING_COMPLEMENT = frozenset(
    "stop stops stopped quit quits forget forgets forgot remember remembers remembered regret "
    "regrets regretted".split()
)


def excess(words: Sequence[str]) -> bool:
    """Whether the fact says "too" much for something ("too young to stay home alone", "too big
    for the garage"), not "too" as "as well"."""
    return any(
        word == "too" and index + 2 < len(words) and words[index + 2] in ("to", "for")
        for index, word in enumerate(words)
    )


def occasions(words: Sequence[str]) -> frozenset[tuple[str, str]]:
    """The times a fact names as one occasion ("this weekend", "next Friday"), as every one of
    them ("every weekend", "each Friday") or as some ("some mornings", "most days"): pairs of
    how ("one", "each" or "some") and the time."""
    found = set()
    for word, following in _with_next(words):
        how = _OCCASION_WORDS.get(word)
        time = following[:-1] if following.endswith("s") else following
        if how and time in _OCCASIONS:
            found.add((how, time))
    return frozenset(found)


def last_spans(words: Sequence[str]) -> frozenset[str]:
    """The spans "last" names ("week" of "last week", "for the last year"): read before the
    phrase that makes "last week" "recently", which says no more how long ago."""
    return frozenset(
        following for word, following in _with_next(words) if word == "last" and following in _SPANS
    )


_SPANS = frozenset("week fortnight month year decade".split())


_OCCASION_WORDS = {
    **dict.fromkeys(("this", "next", "last", "that"), "one"),
    **dict.fromkeys(("every", "each"), "each"),
    **dict.fromkeys(("some", "most", "few", "occasional"), "some"),
}
_OCCASIONS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday weekend week month year morning "
    "afternoon evening night summer winter spring autumn term christmas easter holiday".split()
)


def titles(words: Sequence[str]) -> frozenset[str]:
    """Who a title before a name says the person is ("Mr Patel": "man", "Mrs Patel", "Ms",
    "Miss": "woman"); "Dr" and "Prof" say neither."""
    return frozenset(
        lexicon.TITLES[word]
        for word, following in _with_next(words)
        if lexicon.TITLES.get(word) and following
    )


def scope(words: Sequence[str]) -> str:
    """What "only" bounds: "doer" when it opens the fact ("only Dad drinks coffee": nobody
    else does), "deed" when it comes later ("Dad only drinks coffee": he drinks nothing else),
    or "" without it."""
    return _where(words, ("only", "just"), later=("only",))


def everyone(words: Sequence[str]) -> str:
    """Where "everyone" stands: "doer" when it opens the fact ("everyone likes Leo"), "deed"
    later ("Leo likes everyone"), or "" without it."""
    return _where(words, _EVERYONE, later=_EVERYONE)


def _where(words: Sequence[str], opening: Iterable[str], later: Iterable[str]) -> str:
    if words and words[0] in opening:
        return "doer"
    return "deed" if any(word in later for word in words[1:]) else ""


_EVERYONE = frozenset("everyone everybody anyone anybody".split())


def passive(words: Sequence[str]) -> bool:
    """Whether the fact says who did it after "by", with a form of "be" before a participle
    ("the builder was hired by Sara", "the email was sent by Tom"): its first term is then the
    one it was done to. Not where "by" places a thing ("kept by the back door")."""
    if "by" not in words:
        return False
    return any(
        word in BE
        and following not in _PLACING
        and (following.endswith(_PASSIVE_ENDINGS) or following in lexicon.IRREGULAR)
        for word, following in _with_next(words)
    )


def doerless_passive(words: Sequence[str]) -> int:
    """Where a passive that names no doer says "is" ("my water bill is paid quarterly"), -1 if
    the fact is none: what is done to stands first, where an active fact has who does it."""
    if "by" in words:
        return -1
    return next(
        (
            index
            for index, (word, following) in enumerate(_with_next(words))
            if word in BE and following not in _PLACING and participle(following)
        ),
        -1,
    )


_PASSIVE_ENDINGS = ("ed", "en", "t")
_PLACING = frozenset(
    "kept left parked stored hung placed put found located situated hidden buried".split()
)
"""Participles after which "by" says where, not who."""


def perfect(words: Sequence[str]) -> bool:
    """Whether a form of "have" comes before a participle ("has retired", "have just eaten",
    "she'd gone"); not "have" as a verb of its own ("we had a dog", "we have chicken")."""
    return any(
        participle(next(iter(_after_auxiliary(words, index)), ""))
        for index, word in enumerate(words)
        if word in _PERFECT_AUXILIARIES
    )


def past_perfect(words: Sequence[str]) -> bool:
    """Whether "had" comes before a participle ("Kim had been Dave's boss"): a state that held
    before, unlike "have had" ("I've had the car since 2019")."""
    return any(
        word == "had"
        and (not index or words[index - 1] not in _PERFECT_AUXILIARIES)
        and participle(next(iter(_after_auxiliary(words, index)), ""))
        for index, word in enumerate(words)
    )


def _after_auxiliary(words: Sequence[str], index: int) -> list[str]:
    """The words after the auxiliary at ``index``, without the adverbs that may stand between it
    and its participle ("has just left")."""
    return [word for word in words[index + 1 :] if word not in _BETWEEN]


def participle(word: str) -> bool:
    """A past participle: "-ed" ("retired"), or an irregular one ("gone", "been", "broken"); not
    any word in "-en" ("chicken", "garden")."""
    return (len(word) > _SHORTEST_REGULAR and word.endswith("ed")) or word in lexicon.IRREGULAR


_SHORTEST_REGULAR = 3


BE = frozenset("am is are was were been being be get gets got".split())
"""Forms of "be", and "get" as a passive says it ("got bitten")."""


CLASHING_ASPECTS = (frozenset(("future", "perfect")), frozenset(("progressive", "perfect")))
"""Aspects that say different things of one change: about to retire, and retired."""


def verb_base(word: str) -> str:
    """A verb's stem, an irregular one's from its base ("taken", "takes": "take")."""
    return stem(lexicon.lookup(lexicon.IRREGULAR, word, stem(word)) or word)
