"""How a fact is put together: its lists, clauses and joins, spans between days, words side by
side, done alone or together."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import pairwise

from memory.judging import lexicon, markers
from memory.judging.matching import is_generic
from memory.judging.names_and_numbers import (
    MEASURES,
    PERIODS,
    RELATIVES,
    UNKEYED,
    names_someone,
    token_at,
    word_list,
    written_together,
)
from memory.judging.reading import Reading, read
from memory.judging.terms import Term, TermKind
from memory.judging.words import STOP_WORDS

CLAUSE_BREAK = re.compile(
    r";|(?<!\d),|,(?!\d)|(?<!hundred )(?<!thousand )\b(?:and|but)\b"
    r"(?! a half\b(?!-)| a quarter\b(?!-)| three quarters\b)",
    re.IGNORECASE,
)
"""Where a clause ends: not in a number ("1,450", "four hundred and fifty", "a cup and a
half")."""


def lists_paired_otherwise(new: Reading, old: Reading) -> str:
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


def one_list(reading: Reading, first: Term, second: Term) -> bool:
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


def clauses_reordered(new: Reading, old: Reading) -> bool:
    """Whether two facts say the same clauses in another order, each clause whole."""
    said = [sorted(clause) for clause in _clause_terms(new, old)]
    return len(said[0]) >= 2 and said[0] == said[1]


def clauses_traded(new: Reading, old: Reading) -> str:
    """ "The front door is green and the back door is red" / "... red ... green", "Gran comes
    to us for Christmas and we go to her for Easter" / the other way: a term leaving one clause
    for another, each clause keeping a term of its own ("front door", "Christmas"). A list
    reordered keeps none ("tea and coffee"); clauses said whole in another order are one fact."""
    if clauses_reordered(new, old):
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
    return f"clauses trade terms: {word_list(frozenset(moved))}" if moved else ""


def denied_in_turn(new: Reading, old: Reading) -> str:
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
    return f"negation differs: {word_list(now_affirmed)} / not {word_list(now_denied)}"


def _affirmed_and_denied(reading: Reading) -> tuple[frozenset[str], frozenset[str]] | None:
    """The terms only in a fact's affirmed clauses and those only in its denied ones, when it has
    clauses of both."""
    affirmed: set[str] = set()
    denied: set[str] = set()
    for piece in CLAUSE_BREAK.split(reading.text):
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
            for piece in CLAUSE_BREAK.split(reading.text)
            if piece.strip()
        ]
        for reading in (new, old)
    ]


CLAUSE_TERMS = 3
"""Who, what is done, and to whom: fewer terms are no clause to swap within."""


def span_and_list(first: Reading, second: Reading) -> str:
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


def timeish(term: Term) -> bool:
    """A time, a number, a day or a month, or a length of time ("a week")."""
    return (
        term.kind in UNKEYED
        or bool({"weekday", "month", "daypart"} & set(term.groups))
        or term.text in PERIODS
    )


def said_side_by_side(reading: Reading, first: Term, second: Term) -> bool:
    """Next to each other in one part of a fact, with nothing between them that tells them apart
    (a list, "a son and a daughter"; a compound, "a Samsung TV"); two people not with a verb
    between them that is no term ("Emma takes Jack", "Dad takes jack")."""
    people = names_someone(first) and names_someone(second)
    numbers = first.kind is second.kind is TermKind.NUMBER
    return (
        abs(first.position - second.position) == 1
        and first.slot == second.slot
        and first.in_subject == second.in_subject
        and (not people or written_together(reading.text, first.surface, second.surface))
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
    return not (high.at == low.at + 1 and following in MEASURES)


_BETWEEN_LISTED_NUMBERS = frozenset(("and", "or", "&", ",", "a", "an", "the", "by", "x"))


def compound_reversed(new: Reading, old: Reading) -> bool:
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


_BROAD_THINGS = frozenset(
    "food stuff thing things dish dishes drink drinks name names class classes lesson lessons "
    "session sessions bit bits".split()
)
"""Broad words (``lexicon.GENERIC``), as said, that name a thing after a noun ("dog food", "baby
class"); not a verb ("Dad supports", "a dog called Biscuit", "my son works as"), nor a place
("at my sister's place" is "at my sister's")."""


def a_broad_thing_of(reading: Reading, other: Reading) -> bool:
    """ "the rabbit food" / "the rabbit", "the dog's things" / "the dog": a broad word
    ("food", "stuff", "things") said straight after an animal or a relative that both facts name
    (or after their "'s"), and only in this one: the thing is theirs, not them."""
    theirs = {term.text for term in other.terms}
    return any(
        (
            then.at == first.at + 1
            or (then.at == first.at + 2 and token_at(reading, then.at - 1) == "'s")
        )
        and is_generic(then)
        and then.surface.lower() in _BROAD_THINGS
        and then.text not in theirs
        and first.text in theirs
        and (first.text in lexicon.ANIMALS or first.text in RELATIVES)
        for first, then in pairwise(sorted(reading.terms, key=lambda term: term.at))
    )


def _a_group_word(reading: Reading, *texts: str) -> bool:
    """Whether any of ``texts`` is a word of an exclusive group in ``reading``."""
    return any(term.kind is TermKind.GROUP and term.text in texts for term in reading.terms)


def _a_group_named(term: Term) -> bool:
    """A word of a group said as a name, capitalised after the first word ("hen Brown")."""
    return term.kind is TermKind.GROUP and term.at > 0 and term.surface[:1].isupper()


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


def alone_or_together(new: Reading, old: Reading) -> bool:
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


def joined_the_other_way(new: Reading, old: Reading) -> str:
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


def joined_alike(new: Reading, old: Reading) -> bool:
    """ "The dog barks when the postman comes" / "... until the postman comes": two clauses
    joined by words that say another thing of how the one bears on the other."""
    joins = [{_JOINS[w] for w in reading.said_tokens if w in _JOINS} for reading in (new, old)]
    return not (joins[0] and joins[1] and joins[0] != joins[1])


_JOINS = {
    **dict.fromkeys(("when", "whenever", "if", "while", "because", "since"), "when"),
    **dict.fromkeys(("until", "till", "til"), "until"),
    "unless": "unless",
    "so": "when",  # "A so B" is "B because A": its sides are read turned round
}
"""Words joining two clauses, by what they say of how one bears on the other ("because it
rains" is "when it rains" near enough; "until" and "unless" are not)."""
