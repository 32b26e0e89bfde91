"""How a fact holds: planned or done, still so or over, a wish or a liking, more or less than
before, on one occasion or every one."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from memory.judging import lexicon, markers
from memory.judging.names_and_numbers import word_list
from memory.judging.reading import Attitude, Reading
from memory.judging.words import PREPOSITIONS, STOP_WORDS


def never_of_the_past(reading: Reading) -> bool:
    """ "I never liked jazz", "I've never smoked": "never" of what held, not of now."""
    return "never" in reading.said_tokens and (
        reading.tense == "past" or markers.perfect(reading.said_tokens)
    )


def kept_or_given_up(new: Reading, old: Reading) -> str:
    """ "I sold the bike with the lock" / "... without the lock": one giving up ("sold", "gave
    away") in both, a thing given up in one and kept in the other."""
    changes = {reading.change.lower() for reading in (new, old)}
    if len(changes) != 1 or not lexicon.gives_up(new.change):
        return ""
    kept = [{term.text for term in reading.terms} for reading in (new, old)]
    gone = [{term.text for term in reading.negated} for reading in (new, old)]
    moved = (kept[0] & gone[1]) | (gone[0] & kept[1])
    return f"negation differs: {word_list(frozenset(moved))} kept in one" if moved else ""


def perfect_said(reading: Reading) -> str:
    """ "had" for a past perfect ("had lived"), "have" for a present one ("have lived")."""
    said = reading.said_tokens
    if markers.past_perfect(said):
        return "had"
    # "mum's been" is read "mum is been", never a copula before "been"
    return "have" if markers.perfect(said) or ("is", "been") in pairwise(said) else ""


def planned_or_done(new: Reading, old: Reading) -> str:
    """ "I'm going to quit smoking" / "I quit smoking", "i'm gonna set up the router" / "I set up
    the router": a deed said as meant in one fact and as done (or done now) in the other, by the
    same word ("quit" has one form for both)."""
    for planning, doing in ((new, old), (old, new)):
        meant = meant_deeds(planning.said_tokens)
        done = {
            word
            for before, word in pairwise(("", *doing.said_tokens))
            if word in meant
            and before not in _MEANING
            and before not in PREPOSITIONS
            and before not in _DOING_A_THING
        }
        ahead = _AHEAD & set(doing.said_tokens)  # "I retire next year": planned too
        if meant and done and not ahead and not meant_deeds(doing.said_tokens):
            return f"tense differs: going to {min(done)} / {min(done)}"
    return ""


def meant_deeds(words: Sequence[str]) -> frozenset[str]:
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
WHEN_MEANT = frozenset("next last month week year day his her their my our".split())
"""Words a deed meant and one done may differ by and stay one deed ("going to quit next month"
/ "quit last month")."""
_MEANING = frozenset(
    "to will would gonna can could should might must a an the my our his her their".split()
)
"""Words before a deed that say it is not done ("will start", "want to quit"), or that make
the word a thing ("the read")."""


def compared_otherwise(new: Reading, old: Reading) -> str:
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


NO_WHEN = lexicon.PAST_MARKERS | {"new", "month", "week"}
"""Change words that say nothing of when: "Jen is my brother's new girlfriend" is now, and
"Jen was his girlfriend" then. "Last week" and "last month" date what was so, as "last year"
does: "I had a cold last month" is then, and "I have a cold" now."""
_COMPARATIVES = {"more-than": True, "better-than": True, "less-than": False, "worse-than": False}
"""The comparisons that say which way ("more than", "less than"), by the way they say."""


def occasions_differ(new: Reading, old: Reading) -> str:
    """ "This weekend" in one fact, "every weekend" (or "some weekends") in the other."""
    for how, time in new.occasions:
        for other, when in old.occasions:
            if when == time and other != how:
                return f"which occasions differ: {how} / {other} {time}"
    return ""


def over(reading: Reading) -> str:
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


def planned(reading: Reading) -> bool:
    """A plan said as under way: "I'm bringing a salad", "we're going to Tom's" (not "Tom is
    working at Tesco", which says what holds now)."""
    return reading.aspect == "progressive" and any(word in _PLANS for word in reading.said_tokens)


_PLANS = frozenset(
    "bringing going coming taking visiting meeting seeing flying leaving hosting".split()
)


def attitudes_agree(new: Reading, old: Reading) -> bool:
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
    """A liking of things said with "like", "love", "enjoy" or "prefer", not a wish said so ("would
    really like")."""
    return any(
        word in _ENJOYING and not {"would", "'d"} & set(said[max(0, at - 2) : at])
        for at, word in enumerate(said)
    )


_WANTING = frozenset(("want", "wants", "wanted"))
_ENJOYING = frozenset("like likes love loves enjoy enjoys adore adores prefer prefers".split())
