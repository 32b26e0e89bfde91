"""Small words that make two alike facts two: checks over the words of two readings.

The judge compares content terms; function words are no terms, so "lives with us" and "lives
near us", "a book by Springsteen" and "a book about Springsteen", "My favourite film is Her" and
"... is It" read alike. Each check here looks at the small words one fact says and the other
does not, where they change what the fact says. Each is pure: two readings in, a yes or no out.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from itertools import pairwise, takewhile

from memory.judging import lexicon, markers
from memory.judging.reading import Attitude, Reading
from memory.judging.terms import TermKind
from memory.judging.words import PREPOSITIONS, STOP_WORDS, stem

_READINGS_KEPT = 4096
"""Facts whose small words are kept read: a new fact is judged against many stored ones, each
read once."""


@lru_cache(maxsize=_READINGS_KEPT * 4)
def _found(pattern: re.Pattern[str], plain: str) -> bool:
    """Whether ``pattern`` is found in a fact's plain words, asked once per fact and pattern."""
    return pattern.search(plain) is not None


def speaker_in_group(new: Reading, old: Reading) -> bool:
    """ "My husband loves ABBA" / "My husband and I both love ABBA", "me and my brother support
    Leeds": the speaker one of who does it in one fact, and not named in the other ("Kevin and I
    share an office" is "I share an office with Kevin")."""
    grouped = [_found(_WITH_THE_SPEAKER, reading.plain) for reading in (new, old)]
    if grouped[0] == grouped[1]:
        return False
    alone = old if grouped[0] else new
    return not {"i", "we", "me", "us"} & set(alone.said_tokens)


_WITH_THE_SPEAKER = re.compile(
    r"\b(?:and|&) (?:i|me|us|myself)\b|\b(?:me|us|myself) and\b|\bi and\b|\bso do i\b"
    r"|\bas do i\b|\bme too\b"
)


def speaker_done_to(new: Reading, old: Reading) -> bool:
    """ "My husband got me into cricket" / "my husband got into cricket": the speaker done to in
    one fact, and nobody in the other. Not "from me" nor "with us", a place or a partner, and
    not in a request ("Call me Liz")."""
    if Attitude.WISH in (new.attitude, old.attitude):
        return False
    done_to = [_speaker_object(reading.plain) for reading in (new, old)]
    if done_to[0] == done_to[1] or {new.speaker_role, old.speaker_role} != {"object", ""}:
        return False
    # "Tom helps me with my homework" / "tom helps with my homework": the speaker still there
    other = (old if done_to[0] else new).plain.split()
    return not {"my", "our", "mine", "ours"} & set(other[_SUBJECT_WORDS:])


_SUBJECT_WORDS = 2


@lru_cache(maxsize=_READINGS_KEPT)
def _speaker_object(plain: str) -> bool:
    """Whether the speaker is done to: "me", "us", or a model's "the user ... them"."""
    words = plain.split()
    speaker = {"me", "us", "them"} if _THE_USER.search(plain) else {"me", "us"}
    return any(
        word in speaker
        and (not index or words[index - 1] not in PREPOSITIONS | {"and"})
        and words[index + 1 : index + 2] != ["and"]  # "us and the Smiths go camping"
        for index, word in enumerate(words)
    )


_THE_USER = re.compile(r"\buser\b")


def whose_relative(new: Reading, old: Reading) -> bool:
    """ "My sister bought her son a ticket" / "... bought my son a ticket": one relative, whose
    said by another possessive."""
    if any(_found(_THE_USER, reading.plain) for reading in (new, old)):
        return False  # a model's "her" or "their" may be the user's, or another's: unknown
    return _owners_differ(_POSSESSED, new, old)


def _owners_differ(owning: re.Pattern[str], new: Reading, old: Reading) -> bool:
    """Whether one thing ``owning`` finds in both facts has another owner in each ("my" and
    "our" one household's)."""
    mine, theirs = _owned(owning, new.plain), _owned(owning, old.plain)
    return any(mine[thing] != theirs[thing] for thing in mine.keys() & theirs.keys())


@lru_cache(maxsize=_READINGS_KEPT * 2)
def _owned(owning: re.Pattern[str], plain: str) -> dict[str, str]:
    """Each thing ``owning`` finds in a fact (one of a plural), with its first owner."""
    found: dict[str, str] = {}
    for owner, thing in owning.findall(plain):
        singular = thing[:-1] if thing.endswith("s") and thing not in _PLURAL_ALWAYS else thing
        found.setdefault(singular, "my" if owner == "our" and owning is _POSSESSED else owner)
    return found


_PLURAL_ALWAYS = frozenset(("savings",))


_KIN = "|".join(
    re.escape(word)
    for word in sorted({*lexicon.RELATIONS, *lexicon.RELATIONS.values()}, key=len, reverse=True)
)
_POSSESSED = re.compile(rf"\b(my|our|his|her|their)\s+({_KIN})\b")
"""A possessive before a relative the lexicon knows ("her son", "my mum")."""


def someone_or_their_own(new: Reading, old: Reading) -> bool:
    """ "Tom's dad works with Anna's dad" / "tom's dad works with anna", "my friend works for my
    friend's father" / "... for my father": someone's relative or thing in one fact, where the
    other names the one whose it is alone, a word said once less."""
    for one, other in ((new, old), (old, new)):
        words, others = _kin_words(one.said_tokens), _kin_words(other.said_tokens)
        for owner, mark, owned in zip(words, words[1:], words[2:], strict=False):
            if mark != "'s" or not _said_alone(others, owner):
                continue
            if owned not in others and owned in _PEOPLE_OF_SOMEONE:
                return True  # "my sister's ex lives at 22 Rose Avenue" / "my sister lives ..."
            if owned not in others:
                continue
            if any(whose in _PRONOUN_OWNERS and word == owned for whose, word in pairwise(others)):
                continue  # "works with her husband": the same one, said by a pronoun
            if words.count(owned) > others.count(owned) or words.count(owner) > others.count(owner):
                return True
    return False


_PRONOUN_OWNERS = frozenset(("his", "her", "their"))
_PEOPLE_OF_SOMEONE = frozenset(
    lexicon.RELATIONS.get(word, word)
    for word in "ex lodger carer pa assistant tenant cleaner nanny tutor flatmate secretary".split()
)
"""Who someone has, named by one word after their "'s" ("my sister's ex", "my dad's carer")."""


def _kin_words(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """A fact's words, a relative by one name ("dad" and "father" alike)."""
    return tuple(lexicon.RELATIONS.get(word, word) for word in tokens)


def _said_alone(words: tuple[str, ...], owner: str) -> bool:
    """Whether ``owner`` is said in ``words`` other than as whose something is."""
    return any(
        word == owner and (at + 1 == len(words) or words[at + 1] != "'s")
        for at, word in enumerate(words)
    )


def shared_or_own_money(new: Reading, old: Reading) -> bool:
    """ "The council tax comes out of our account" / "... out of my account", "Our savings are
    £10,000" / "my savings are ...": money a household shares against one person's own (a dog
    or a son said "ours" or "mine" is the same one; an account is not)."""
    return _owners_differ(_MONEY_OWNED, new, old)


_MONEY_OWNED = re.compile(
    r"\b(my|our)\s+(?:\w+\s+)?(accounts?|savings|loans?|debts?|money|income|salary|"
    r"pension|overdraft|credit cards?|budget|isa)\b"
)


def some_or_none_denied(new: Reading, old: Reading) -> bool:
    """ "I don't always take the bus" / "I never take the bus", "The kids don't all have phones"
    / "the kids don't have any phones": a negation of part (not always, not all) against one of
    the whole (never, none)."""
    said = [" ".join(reading.said_tokens) for reading in (new, old)]
    part = [_found(_DENIED_IN_PART, words) for words in said]
    whole = [_found(_DENIED_WHOLLY, words) for words in said]
    return part[0] != part[1] and (whole[1] if part[0] else whole[0])


_DENIED_IN_PART = re.compile(
    r"\bnot (?:always|usually|normally|generally|often|all|both)\b"
    r"|\bnot (?:\w+ ){0,4}?(?<!\bat )(?:every|all)\b"  # "don't go every Sunday", not "at all"
)
_DENIED_WHOLLY = re.compile(
    r"\b(?:never|none|neither|nobody|no one)\b|\balways (?:do |does |did )?not\b"
    r"|\bnot (?:\w+ )?any\b"
)


def never_or_once(new: Reading, old: Reading) -> bool:
    """ "I never eat meat" / "I used to eat meat", "grandma never drives" / "grandma stopped
    driving": a habit denied now against one that held once; both may hold, and the once is
    not to be lost ("never ... now" / "no longer" says the same)."""
    return never_against_once(new, old, lambda reading: _never_now(reading.said_tokens))


def never_against_once(new: Reading, old: Reading, never: Callable[[Reading], bool]) -> bool:
    """Whether one fact says ``never`` and the other that a state was left ("used to", "no
    longer", "quit"), and not both of either."""
    said = [never(reading) for reading in (new, old)]
    once = [lexicon.gives_up(reading.change) for reading in (new, old)]
    return said[0] != said[1] and once[0] != once[1] and said[0] == once[1]


def _never_now(words: tuple[str, ...]) -> bool:
    return "never" in words and not _NOW_WORDS & set(words)


_NOW_WORDS = frozenset(("now", "anymore", "nowadays", "these-days"))


def speaker_and_another_own_in_turn(new: Reading, old: Reading) -> bool:
    """ "My car was lent to Tom" / "Tom's car was lent to me", "Tom's shed is bigger than mine"
    / "my shed is bigger than Tom's": one thing the speaker's in one fact and another's in the
    other, each named alone where the other owns it."""
    for one, other in ((new, old), (old, new)):
        mine, theirs = _whose_each(one.said_tokens), _whose_each(other.said_tokens)
        for thing, owner in mine.items():
            if owner != "speaker" or theirs.get(thing, "speaker") == "speaker":
                continue
            if theirs[thing] in one.said_tokens and _SPEAKER_ALONE & set(other.said_tokens):
                return True
    return False


def _whose_each(words: tuple[str, ...]) -> dict[str, str]:
    """Each thing said with its owner: "speaker" for "my", a name for "Tom's"."""
    owned: dict[str, str] = {}
    for owner, mark, thing in zip(words, words[1:], words[2:], strict=False):
        if mark == "'s" and owner not in STOP_WORDS:
            owned.setdefault(thing, owner)
    for owner, thing in pairwise(words):
        if owner in ("my", "our"):
            owned.setdefault(thing, "speaker")
    return owned


_SPEAKER_ALONE = frozenset(("me", "mine", "i", "us", "ours"))


def whose_feeling(new: Reading, old: Reading) -> bool:
    """ "I'm scared of the dog" / "the dog is scared", "I'm worried about Mum" / "mum is
    worried": the speaker's feeling about someone, against that someone's own."""
    for one, other in ((new, old), (old, new)):
        felt = _FELT_ABOUT.search(" ".join(one.said_tokens))
        if felt is None or _SPEAKER_WORDS & set(other.said_tokens):
            continue
        said_other = " ".join(other.said_tokens)
        if re.search(rf"\b(?:is|are|feels?) (?:\w+ )?{felt[1]}\b", said_other):
            return True
    return False


_FEELINGS = (
    "scared|afraid|worried|angry|cross|upset|nervous|excited|sorry|grateful|disappointed|"
    "anxious|frightened|proud|jealous|annoyed"
)
_FELT_ABOUT = re.compile(rf"\bi (?:am|feel) (?:\w+ )?({_FEELINGS}) (?:of|about|with|for|in|to)\b")
_SPEAKER_WORDS = frozenset("i me my mine we us our ours".split())


def speaker_or_everyone(new: Reading, old: Reading) -> bool:
    """ "Don't wake me before 8" / "don't wake anyone before 8", "Speak quietly to me" / "... to
    everyone": the speaker in one fact where the other says everyone, or no one."""
    said = [reading.said_tokens for reading in (new, old)]
    # done to everyone: not "Everyone in the house is vegetarian" / "we're all vegetarian"
    everyone = [any(word in _EVERYONE for word in words[1:]) for words in said]
    if everyone[0] == everyone[1]:
        return False
    other, everyone_said = (said[1], said[0]) if everyone[0] else (said[0], said[1])
    if {"me", "us"} & set(everyone_said):
        return False  # "tell me if anyone rings": the speaker in both
    return any(
        word in ("me", "us") and before != "of"  # not "all of us"
        for before, word in pairwise(("", *other))
    )


_EVERYONE = frozenset("anyone anybody everyone everybody nobody no-one someone".split())


def let_one_or_the_other(new: Reading, old: Reading) -> bool:
    """ "Let my mum call me" / "let me call my mum", "Don't let the kids wake me" / "don't let me
    wake the kids": a request to let (make, have) someone do it to the speaker, against one
    for the speaker to do it to them."""
    places = [_speaker_first(reading.said_tokens) for reading in (new, old)]
    return None not in places and places[0] != places[1]


def _speaker_first(words: tuple[str, ...]) -> bool | None:
    """In a request opened by "let", "make" or "have", whether "me" comes straight after it
    (the speaker does it), or None for another fact."""
    opening = [word for word in words[:4] if word not in ("do", "not", "please", "never")]
    if not opening or opening[0] not in _LETTING or "me" not in words:
        return None
    if opening[0] != "let" and opening[2:3] and opening[2] in ("a", "an", "the", "some"):
        return None  # "make me a coffee", "get me a taxi": for the speaker, not by them
    return opening[1:2] == ["me"]


_LETTING = frozenset(("let", "make", "have", "get"))


def focus_moved(new: Reading, old: Reading) -> bool:
    """ "Anna drinks only coffee in the morning" / "anna drinks coffee only in the morning",
    "Tom works even on Sundays" / "even Tom works on Sundays": a word that bounds what follows
    it ("only", "just", "even"), before another part."""
    for word in _FOCUS:
        if _before_the_deed(new, word) or _before_the_deed(old, word):
            continue  # "my grandma only speaks Punjabi": it bounds the deed, whatever follows
        bounded = [_bounded_by(reading.said_tokens, word) for reading in (new, old)]
        if bounded[0] and bounded[1] and bounded[0] != bounded[1]:
            return True
    return False


def _before_the_deed(reading: Reading, focus: str) -> bool:
    """Whether a focus word stands straight after who does it ("I only eat", "Mia only
    drinks"), where speech puts it whatever it bounds."""
    words = reading.said_tokens
    if focus not in words:
        return False
    before = words[: words.index(focus)]
    if not before:
        return False
    if len(before) == 1 or before[-1] in _BEFORE_A_DEED:  # "tom only eats", "is only open"
        return True  # "the shop is only open", "my mum can only drive"
    # "I only eat", "Our cat Milo only eats", "at weekends the kids only watch": nothing but who
    # does it, and when, before the word
    names = {term.text for term in reading.terms if term.kind is TermKind.NAME or term.maybe_name}
    return not any(
        word not in STOP_WORDS
        and word not in names
        and lexicon.lookup(lexicon.RELATIONS, word, word.rstrip("s")) is None
        and word not in lexicon.RANKING
        and not lexicon.groups_of(word.rstrip("s"))
        and word.rstrip("s") not in _PETS
        for word in before
    )


_BEFORE_A_DEED = frozenset("is are was were can could will would must should have has".split())
_PETS = frozenset("cat dog rabbit hamster pony horse puppy kitten".split())


_FOCUS = ("only", "just", "solely", "exclusively", "even")


def _bounded_by(words: tuple[str, ...], focus: str) -> str:
    """The first word of weight after the one ``focus`` word in a fact ("" if none or two)."""
    if words.count(focus) != 1:
        return ""
    after = words[words.index(focus) + 1 :]
    return next((word for word in after if word not in STOP_WORDS and word not in PREPOSITIONS), "")


def would_or_does(new: Reading, old: Reading) -> bool:
    """ "I'd walk the dog every morning" / "I walk the dog every morning", "My dad would take us
    fishing" / "my dad takes us fishing": a deed done by habit once (or if), against one done
    now; not a wish ("I'd like tea"), nor against the past ("we went to Wales every summer")."""
    said = [_would_do(reading.said_tokens) for reading in (new, old)]
    if said[0] == said[1]:
        return False
    return (old if said[0] else new).tense == "present"


def _would_do(words: tuple[str, ...]) -> bool:
    if "if" in words:
        return False  # "if it rains we would take the bus": a condition, not a habit once
    return any(
        word == "would" and following not in _WOULD_WISH and following not in lexicon.FREQUENCIES
        for word, following in pairwise(words)
    )


_WOULD_WISH = frozenset(
    "like love prefer rather hate mind be have not never really also always recommend say "
    "suggest think guess imagine bet".split()
)
"""Words after "would" that make a wish or a state of the fact ("would like", "would be"),
which the judge reads elsewhere."""


def pronoun_placed_otherwise(new: Reading, old: Reading) -> bool:
    """ "My grandma lives with us" / "... near us": the same person named by a pronoun, placed
    by another word ("by", "near" and "beside" say one place)."""
    mine, theirs = _placed_pronouns(new.plain), _placed_pronouns(old.plain)
    return any(
        mine[pronoun] != theirs[pronoun] and not {mine[pronoun], theirs[pronoun]} <= _BESIDE
        for pronoun in mine.keys() & theirs.keys()
    )


@lru_cache(maxsize=_READINGS_KEPT)
def _placed_pronouns(plain: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for word, pronoun in _PLACED_PRONOUN.findall(plain):
        found.setdefault(pronoun, word)
    return found


_PLACED_PRONOUN = re.compile(
    r"\b(with|without|near|beside|by|next to|opposite|behind|for|from|to|against)\s+"
    r"(us|me|them|him|her|you)\b"
)
_BESIDE = frozenset(("by", "near", "beside", "next to"))


def generations_differ(new: Reading, old: Reading) -> bool:
    """ "my great-grandfather" / "my great-great-grandfather": how many generations back."""
    return _greats(new.text) != _greats(old.text)


@lru_cache(maxsize=_READINGS_KEPT)
def _greats(text: str) -> int:
    return len(_GREAT.findall(text.lower()))


_GREAT = re.compile(r"\bgreat(?=[\s-]+(?:great|grand|gran|nan|aunt|uncle|niece|nephew))")


def vaguely_many(new: Reading, old: Reading) -> bool:
    """ "I own a hundred records" / "i own hundreds of records", "We've saved thousands" / "...
    a thousand": a number, against many."""
    return _found(_MANY, new.plain) != _found(_MANY, old.plain)


_MANY = re.compile(r"\b(?:hundreds|thousands|dozens|millions|scores|tens)(?: of)?\b")


def small_word_values(new: Reading, old: Reading) -> bool:
    """ "My favourite film is Her" / "... is It", "my favourite band is The Who" / "... is the
    band", "I'm watching This Is Us" / "... Us": a value made of small words (a title), which no
    term says, another in the other fact."""
    values = [_value_after_copula(reading.plain) for reading in (new, old)]
    small = [all(word in _TITLE_WORDS for word in value) for value in values]
    if all(values) and any(small) and values[0] != values[1]:
        return True
    titled = [_titled_small_words(reading.text) for reading in (new, old)]
    return all(titled) and titled[0] != titled[1]


def what_to_know(new: Reading, old: Reading) -> bool:
    """ "Grandpa knows when to use his inhaler" / "... how to use his inhaler", "Tom knows who to
    call" / "... how to call", "knows why he must" / "knows when he must": what someone knows,
    learns or is told, said by its question word. "How to" says no more than the deed itself
    ("knows how to swim", "can swim"); "whom" is "who", "which bus" is "what bus", "what time"
    is "when"."""
    asked = [_asked(reading.said_tokens) - {"how"} for reading in (new, old)]
    return asked[0] != asked[1]


@lru_cache(maxsize=_READINGS_KEPT)
def _asked(said: tuple[str, ...]) -> frozenset[str]:
    """The question words of what a fact says is known, learned or told."""
    plain = " ".join(w for w in said if w[:1].isalnum() and w not in _SPOKEN_FILLERS)
    plain = _WHAT_TIME.sub("when", plain)
    found = _ASKED_AFTER_KNOWING.findall(plain) + _ASKED_BEFORE_TO.findall(plain)
    return frozenset(_SAME_QUESTION.get(word, word) for word in found)


_QUESTION_WORDS = (
    r"(how often|how long|how much|how many|how|when|where|what|which|who|whom|why|whether)"
)
_ASKED_AFTER_KNOWING = re.compile(
    r"\b(?:knows?|knew|known|learn\w*|understands?|understood|remembers?|forg[eo]t\w*|"
    r"(?:is|are|am|not) sure|ask\w*|told|tells?|explain\w*|show\w*|teach\w*|taught|"
    rf"decides?|decided|checks?|checked|wonders?|wondered)(?: \w+ly)? {_QUESTION_WORDS}\b"
)
_ASKED_BEFORE_TO = re.compile(
    r"\b(?:knows?|knew|learn\w*|ask\w*|told|tells?|show\w*|teach\w*|taught|decides?|decided)"
    rf"(?: \w+){{0,2}}? {_QUESTION_WORDS} to\b"
)
"""Told or shown what to do, someone between ("Tom told Mia when to feed the cat")."""
_WHAT_TIME = re.compile(r"\bwhat time\b")
_SAME_QUESTION = {"whom": "who", "which": "what"}


def placed_otherwise(new: Reading, old: Reading) -> bool:
    """ "Under the bed is the suitcase" / "the bed is under the suitcase", "the spare key is under
    the mat by the back door" / "... by the mat under the back door", "the room above the kitchen
    is Tom's" / "the room above Tom's is the kitchen": the same things and the same words of
    place, a word of place before another thing. Where a thing is, is said by the word before
    it, which no term says."""
    placed = [_placed(reading.said_tokens) for reading in (new, old)]
    if not placed[0] or placed[0] == placed[1]:
        return False
    if Counter(place for place, _ in placed[0]) != Counter(place for place, _ in placed[1]):
        return False
    words = [{_thing(word) for word in reading.said_tokens} for reading in (new, old)]
    matched = [
        (things, other)
        for place, things in placed[0]
        for other_place, other in placed[1]
        if place == other_place
    ]
    # No word of place before the same thing in both, and one before another said in both.
    return not any(things & other for things, other in matched) and any(
        things <= words[1] and other <= words[0] for things, other in matched
    )


@lru_cache(maxsize=_READINGS_KEPT)
def _placed(said: tuple[str, ...]) -> frozenset[tuple[str, frozenset[str]]]:
    """Each word of place with the words of the thing it places ("under" and "bed" in "under the
    bed", "under" and "boot", "floor" in "under the boot floor"), read from the words as said,
    marks and all (a note's colon ends a thing: "Under the bed: ...")."""
    words = _PLACE_PHRASE.sub(lambda found: found[0].replace(" ", "-"), " ".join(said)).split()
    # "in" and "on" alone also say when ("in 2015", "on Mondays"); with another word of place
    # they place things in a chain ("in the drawer next to the bed"). Those that say the same
    # either way round ("Mia sits next to Leo", "lives with") place nothing on their own.
    chained = sum(word in _PLACE_WORDS or word in _PLACE_WORDS_TOO for word in words) >= 2
    known = _PLACE_WORDS | _CONTAINING if chained else _PLACE_WORDS
    placed = set()
    for index, word in enumerate(words):
        if word not in known or (index and words[index - 1] in _DETERMINING):
            continue  # "the under stairs cupboard" names a cupboard
        after = words[index + 1 :]
        start = next((i for i, w in enumerate(after) if w not in STOP_WORDS), len(after))
        thing = [w for w in takewhile(_in_a_thing, after[start:]) if not w[:1].isdigit()]
        if thing:
            placed.add((word, frozenset(map(_thing, thing))))
    return frozenset(placed)


def _in_a_thing(word: str) -> bool:
    """Whether a word may be part of the name of a thing placed: no small word, no mark, and
    no verb that follows a place ("the box under the bed has the photos")."""
    return (
        word[:1].isalnum()
        and word not in STOP_WORDS
        and word not in _AFTER_A_PLACE
        and word not in _PLACE_WORDS
        and word not in _PLACE_WORDS_TOO
    )


_AFTER_A_PLACE = frozenset(
    "has have had holds hold keeps keep kept sits sit stands stand hangs hang goes go lives live "
    "sleeps sleep contains contain stores store there upstairs downstairs".split()
)


def _thing(word: str) -> str:
    """A word as the thing it names: "Tom's" is Tom, "beds" bed."""
    return stem(word.removesuffix("'s"))


_PLACE_PHRASE = re.compile(
    r"\b(?:in front of|on top of|(?:to the )?(?:left|right)(?:-hand)? of|(?:up|down)stairs from|"
    r"(?:north|south|east|west) of|by way of)\b"
)
_PLACE_WORDS = frozenset(
    "under below beneath underneath above over behind beyond past outside inside in-front-of "
    "on-top-of left-of right-of to-the-left-of to-the-right-of left-hand-of right-hand-of "
    "to-the-left-hand-of to-the-right-hand-of upstairs-from downstairs-from north-of south-of "
    "east-of west-of via by-way-of".split()
)
"""Words that place one thing on one side of another. Not those that say the two are together
("next to", "with", "between", "opposite": the same said either way round), nor "in", "on" and
"at", which also say when."""
_CONTAINING = frozenset("in on at to".split())
_PLACE_WORDS_TOO = _CONTAINING | frozenset("by with beside next-to near opposite".split())
"""Words of place that make a chain of two or more (see ``_placed``)."""


def deed_of_a_rule(new: Reading, old: Reading) -> bool:
    """ "Leo is allowed to have the iPad" / "... to use the ipad", "Tom is allowed to keep the
    kitten" / "... to take the kitten", "has to take his insulin" / "has to get his insulin":
    what a rule, an ability or a duty is about is its verb, even one that says little in a plain
    fact ("I have an iPhone", "I use Postgres"). A few say one deed ("eat" or "have", "make" or
    "do" a bed, "take" or "put" the bins out); a thing that has to go back is taken back. "Take"
    and "have" are two ("take the car", "have the car"), though a pill is both."""
    deeds = [_RULED_DEED.findall(reading.plain) for reading in (new, old)]
    verbs = [{v for v in found if v in _LIGHT_DEEDS} for found in deeds]
    if not all(verbs):
        return False
    return not any(
        one == other or frozenset((one, other)) in _ALIKE_DEEDS
        for one in verbs[0]
        for other in verbs[1]
    )


_RULED_DEED = re.compile(
    r"\b(?:(?:allowed|permitted|able|has|have|had|needs?|ought|supposed|learning|how|got|gets|"
    r"get) to|can|could|cannot|may|might|must|should|lets? [a-z]+)"
    r"(?: not| never)?(?: just| only| also| still| always| usually| really)? (\w+)"
)
_LIGHT_DEEDS = lexicon.LIGHT_VERBS - frozenset(
    "be would should could can will shall may might must want need tend try go".split()
)
_ALIKE_DEEDS = frozenset(
    frozenset(pair.split())
    for pair in ("eat have", "drink have", "consume have", "make do", "take put")
)  # fmt: skip


def done_otherwise(new: Reading, old: Reading) -> bool:
    """ "Sam eats about 300 grams of pasta" / "Sam makes about 300 grams of pasta", "We get four
    pints of milk" / "We drink four pints of milk": both facts say what the same doer does with
    verbs that say little on their own ("I have an iPhone"), and no verb of one is one of the
    other's. Some such verbs are one deed in most sentences ("take" or "get" the bus, "use" or
    "take" an inhaler, "keep" or "put" the keys somewhere): those are taken as one, and a
    needless question (two facts kept) is the price where a pair is one deed only sometimes."""
    verbs = [_light_deeds(reading.said_tokens) for reading in (new, old)]
    doers = [_doer(list(reading.said_tokens)) for reading in (new, old)]
    if not all(verbs) or not all(doers) or doers[0] != doers[1]:
        return False  # "I put my salary into our account" / "our account gets my salary"
    return not any(
        one == other or frozenset((one, other)) in _ALIKE_DEEDS | _ALIKE_PLAIN_DEEDS
        for one in verbs[0]
        for other in verbs[1]
    )


@lru_cache(maxsize=_READINGS_KEPT)
def _light_deeds(said: tuple[str, ...]) -> frozenset[str]:
    """The fact's verbs that say little on their own, in their plain form ("eats" -> "eat",
    "got" -> "get"); none when it says "do" or "have", as often an auxiliary as a deed."""
    plain = _GETS_THROUGH.sub("consume", " ".join(said)).split()
    deeds = {_DEED_FORMS.get(word, word) for word in plain} & _LIGHT_DEEDS
    return frozenset() if deeds & {"do", "have"} else frozenset(deeds)


_ALIKE_PLAIN_DEEDS = frozenset(
    frozenset(pair.split())
    for pair in ("take get", "take have", "take drink", "take eat", "get have", "use take",
                 "keep put", "consume eat", "consume drink")
)  # fmt: skip
"""Said of a plain habit, these are one deed: "I take the bus" / "i get the bus", "Dad takes
his coffee black" / "drinks his coffee black", "use" or "take" an inhaler, "keep" or "put" the
keys in the bowl, "get through" (consume) a loaf or eat it."""
_GETS_THROUGH = re.compile(r"\b(?:get|gets|got|getting) through\b")
_DEED_FORMS = {
    "eats": "eat", "ate": "eat", "eating": "eat", "eaten": "eat",
    "drinks": "drink", "drank": "drink", "drinking": "drink",
    "makes": "make", "made": "make", "making": "make",
    "gets": "get", "got": "get", "getting": "get", "gotten": "get",
    "takes": "take", "took": "take", "taking": "take", "taken": "take",
    "keeps": "keep", "kept": "keep", "keeping": "keep",
    "uses": "use", "used": "use", "using": "use",
    "puts": "put", "putting": "put",
    "owns": "own", "owned": "own", "owning": "own",
    "has": "have", "had": "have", "having": "have",
    "does": "do", "did": "do", "doing": "do", "done": "do",
}  # fmt: skip


def amounts_paired_otherwise(new: Reading, old: Reading) -> bool:
    """ "Mix one part vinegar with three parts oil" / "... one part oil with three parts
    vinegar", "Tom eats two sausages with one egg" / "... one sausage with two eggs": the same
    amounts and things, each amount before another thing."""
    paired = [_amount_things(reading.said_tokens) for reading in (new, old)]
    if len(paired[0]) < 2 or paired[0] == paired[1]:
        return False
    numbers = [sorted(n for n, _ in found) for found in paired]
    things = [{t for _, t in found} for found in paired]
    return numbers[0] == numbers[1] and things[0] == things[1]


@lru_cache(maxsize=_READINGS_KEPT)
def _amount_things(said: tuple[str, ...]) -> frozenset[tuple[str, str]]:
    """Each number with the first thing after it ("3" and "oil" in "three parts oil")."""
    found = set()
    for index, word in enumerate(said):
        if not word[:1].isdigit():
            continue
        after = [w for w in said[index + 1 : index + 5] if w[:1].isalpha()]
        thing = next((w for w in after if w not in STOP_WORDS and w not in _MEASURE_WORDS), None)
        if thing is not None:
            found.add((word, _thing(thing)))
    return frozenset(found)


_MEASURE_WORDS = frozenset(
    "part parts cup cups slice slices piece pieces pint pints litre litres liter liters gram "
    "grams g kg kilo kilos ml spoon spoons teaspoon teaspoons tablespoon tablespoons tsp tbsp "
    "pinch handful bag bags tin tins can cans jar jars bottle bottles pack packs dozen lot lots "
    "bit bits".split()
)


def then_and_now_traded(new: Reading, old: Reading) -> bool:
    """ "Tom used to walk the dog; Emily does it now" / "Emily used to walk the dog; Tom does it
    now", "We used to change the sheets weekly, now fortnightly" / "... fortnightly, now
    weekly": what was and what is, traded between the two clauses."""
    parts = [_then_and_now(reading.said_tokens) for reading in (new, old)]
    if not all(parts):
        return False
    (then, now), (then_other, now_other) = parts[0], parts[1]
    moved_back, moved_on = then & now_other - then_other, now & then_other - now_other
    return bool(moved_back and moved_on)


@lru_cache(maxsize=_READINGS_KEPT)
def _then_and_now(said: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str]] | None:
    """The words of a fact's "used to" (or "no longer") clause and of the clause after it, when
    it opens with the one and goes on to the other."""
    start = next(
        (
            i
            for i, word in enumerate(said)
            if word == "used-to" or (word == "longer" and i and said[i - 1] == "no")
        ),
        None,
    )
    if start is None:
        return None
    at = next((i for i in range(start, len(said)) if said[i] in _CLAUSE_BREAKS), None)
    if at is None:
        return None
    words = [
        {_thing(w) for w in part if w[:1].isalnum() and w not in _NOT_THEN_OR_NOW}
        for part in (said[:at], said[at + 1 :])
    ]
    return (frozenset(words[0]), frozenset(words[1])) if all(words) else None


_CLAUSE_BREAKS = frozenset((",", ";", "but", ".", "now"))
_NOT_THEN_OR_NOW = STOP_WORDS | {"used-to", "no", "longer", "now"}


def driver_traded(new: Reading, old: Reading) -> bool:
    """ "Priya drives to work with Tariq" / "Tariq drives to work with Priya", "Pete drives
    Grandad to the hospital" / "Grandad drives to the hospital with Pete": who drives and who
    rides, traded (going somewhere "with" someone is the same either way round; driving is
    not)."""
    pairs = [_driver_and_rider(reading.said_tokens) for reading in (new, old)]
    return all(pairs) and pairs[0] == pairs[1][::-1] and pairs[0][0] != pairs[0][1]


@lru_cache(maxsize=_READINGS_KEPT)
def _driver_and_rider(said: tuple[str, ...]) -> tuple[str, str] | tuple[()]:
    """Who drives (or gives the lift) and who rides, by the fact's first words."""
    at = next((i for i, w in enumerate(said) if w in _DRIVING), None)
    if at is None:
        return ()
    driver = _doer(list(said[:at]))
    after = [w for w in said[at + 1 :] if w[:1].isalnum()]
    if "with" in after:
        rider = _doer(after[after.index("with") + 1 :])
    else:
        rider = _doer(after[:1]) if after and after[0] not in PREPOSITIONS else ""
    return (driver, rider) if driver and rider else ()


_DRIVING = frozenset("drive drives drove driving driven".split())


_ANIMALS = frozenset(("cat", "dog"))


def driven_or_their_car(new: Reading, old: Reading) -> bool:
    """ "Dave drives me to work" / "Dave drives my car to work": a person driven somewhere,
    against someone's car driven there ("car" is read as what driving is about, so no term
    tells the two apart)."""
    said = [_DRIVEN.search(reading.plain) for reading in (new, old)]
    if not all(said):
        return False
    objects = [found[1] for found in said]  # type: ignore[index]
    cars = [bool(_A_CAR.match(found)) for found in objects]
    if cars[0] == cars[1]:
        return False
    person = old if cars[0] else new  # "drives me to school in her car" says the car too
    return not {"car", "van"} & set(person.plain.split())


_DRIVEN = re.compile(
    r"\bdr[io]v\w* ((?:my|our|his|her|their|[a-z]+'s) (?:car|van)|me|us|him|her|them)\b"
)
_A_CAR = re.compile(r".* (?:car|van)$")


def two_of_one_kind(new: Reading, old: Reading) -> bool:
    """ "Amy feeds the cat and the kitten" / "Amy feeds the cat", "Tom feeds the cat and the
    puppy" / "... the cat and the dog": two words the judge reads as one (a kitten is a cat)
    named side by side in one fact only, so they are two there."""
    pairs = [_two_of_one_kind(reading.said_tokens) for reading in (new, old)]
    return pairs[0] != pairs[1]


@lru_cache(maxsize=_READINGS_KEPT)
def _two_of_one_kind(said: tuple[str, ...]) -> frozenset[frozenset[str]]:
    """Pairs of words of one relation or animal, said both in one fact."""
    kinds: dict[str, set[str]] = {}
    for word in said:
        kind = lexicon.RELATIONS.get(word)
        if kind in _ANIMALS:  # "my mum, er, my mother" is one person said twice
            kinds.setdefault(kind, set()).add(word.removesuffix("s"))
    return frozenset(frozenset(words) for words in kinds.values() if len(words) > 1)


def kin_titled_or_theirs(new: Reading, old: Reading) -> bool:
    """ "Uncle Bob lives in Leeds" / "Bob's uncle lives in Leeds", "Aunt Sue" / "Sue's aunt": a
    relative's word before a name makes it a title of that person, after the name's "'s" it is
    another person, that one's relative."""
    titled = [set(_KIN_TITLED.findall(reading.plain)) for reading in (new, old)]
    theirs = [
        {(name, kin) for name, kin in _KIN_OF.findall(reading.plain)} for reading in (new, old)
    ]
    return bool(titled[0] & {(k, n) for n, k in theirs[1]}) or bool(
        titled[1] & {(k, n) for n, k in theirs[0]}
    )


_KIN_TITLES = (
    r"(aunt|auntie|aunty|uncle|cousin|nana|nan|gran|granny|grandma|grandpa|grandad|granddad|"
    r"gramps|sister|brother)"
)
_KIN_TITLED = re.compile(
    rf"(?<!'s )(?<!\bmy )(?<!\bour )\b{_KIN_TITLES} (?!is\b|was\b|and\b)([a-z]+)\b"
)
_KIN_OF = re.compile(rf"\b([a-z]+)'s {_KIN_TITLES}\b")


def named_or_whose(new: Reading, old: Reading) -> bool:
    """ "Jack the dog is called Max" / "Jack's dog is called Max", "Rose the rabbit" / "Rose's
    rabbit": a name set beside what it names, against the thing a person of that name has."""
    beside = [set(_NAMED_BESIDE.findall(reading.text)) for reading in (new, old)]
    whose = [set(_NAMED_WHOSE.findall(reading.plain)) for reading in (new, old)]
    named = [
        {(name.lower(), thing) for name, thing in found if not _a_date(name.lower())}
        for found in beside
    ]
    return bool(named[0] & whose[1]) or bool(named[1] & whose[0])


_NAMED_BESIDE = re.compile(r"(?:^|(?:and|,) )([A-Z][a-z]+),? the ([a-z]+)\b")
_NAMED_WHOSE = re.compile(r"\b([a-z]+)'s ([a-z]+)\b")


def owner_or_place_of_a_name(new: Reading, old: Reading) -> bool:
    """ "Rose's garden" / "the rose garden", "Holly's tree" / "the holly tree", "April's
    birthday is on the 9th" / "... on 9th April": a name that owns a thing in one fact only,
    and a thing or a month of that word in the other only. (A place owns things as a person
    does: "Manchester's weather" is the weather in Manchester; a shop's name is no thing:
    "The Tesco delivery".)"""
    owners = [_named_owners(reading.text) for reading in (new, old)]
    placed = [_placed_words(reading.text) for reading in (new, old)]
    return bool((owners[0] - owners[1]) & (placed[1] - placed[0])) or bool(
        (owners[1] - owners[0]) & (placed[0] - placed[1])
    )


@lru_cache(maxsize=_READINGS_KEPT)
def _named_owners(text: str) -> frozenset[str]:
    """Names, written as names, that own a thing by their "'s" with no word before them that
    makes them a thing ("Rose's garden", not "the robin's nest" nor "my sister's flat"; a
    transcript's "'s" is as often "is")."""
    words = text.replace("\u2019", "'").split()
    return frozenset(
        word[:-2].lower()
        for index, word in enumerate(words)
        if word.endswith("'s")
        and word[:1].isupper()
        and word[:-2].isalpha()
        and index + 1 < len(words)
        and words[index + 1][:1].islower()
        and (not index or words[index - 1].lower() not in _DETERMINING)
        and word[:-2].lower() not in _PEOPLE_WORDS
        and "weekday" not in lexicon.groups_of(word[:-2].lower())
    )


@lru_cache(maxsize=_READINGS_KEPT)
def _placed_words(text: str) -> frozenset[str]:
    """Words written small that an article stands before, naming a kind of the thing after
    them ("the rose garden", "a holly tree"), and months after a date ("9th April", "the 5th
    of June")."""
    words = re.findall(r"[\w']+", text.replace("\u2019", "'"))
    found = set()
    for index in range(1, len(words) - 1):
        before, word, after = words[index - 1].lower(), words[index], words[index + 1]
        word = word.removesuffix("'s")  # "the robin's nest"
        if (
            before in ("the", "a", "an")
            and word.isalpha()
            and word.islower()
            and after.isalpha()
            and after.lower() not in STOP_WORDS
        ):
            found.add(word)
    for index in range(1, len(words)):
        before, word = words[index - 1].lower(), words[index].lower()
        if "month" in lexicon.groups_of(word) and (before[:1].isdigit() or before == "of"):
            found.add(word)
    return frozenset(found)


_PEOPLE_WORDS = frozenset({*lexicon.RELATIONS, *lexicon.RELATIONS.values(), "user", "i"})


def _a_date(word: str) -> bool:
    """Whether a word names a day or a month ("Monday the bins go out" names no one)."""
    return bool({"weekday", "month"} & set(lexicon.groups_of(word)))


def names_in_another_order(new: Reading, old: Reading) -> bool:
    """ "My plumber is James Thomas" / "... Thomas James", "Jean-Paul" / "Paul-Jean", "A.J. Smith"
    / "J.A. Smith": one person's names, or initials, said in another order: another person."""
    runs = [_name_runs(reading.text) for reading in (new, old)]
    return any(
        sorted(one) == sorted(other) and one != other for one in runs[0] for other in runs[1]
    )


@lru_cache(maxsize=_READINGS_KEPT)
def _name_runs(text: str) -> tuple[tuple[str, ...], ...]:
    """Runs of two or more capitalised names, hyphened names and initials, in order."""
    runs = [
        tuple(stem(word.lower()) for word in run.split() if word.lower() not in STOP_WORDS)
        for run in _NAME_RUN.findall(text)
    ]
    runs += [tuple(found.split("-")) for found in _HYPHENED_NAME.findall(text)]
    runs += [tuple(found.replace(".", "")) for found in _INITIALS.findall(text)]
    return tuple(run for run in runs if len(set(run)) > 1)


_NAME_RUN = re.compile(r"\b(?:[A-Z][a-z]+ )+[A-Z][a-z]+\b")
_HYPHENED_NAME = re.compile(r"\b[A-Z][a-z]+-[A-Z][a-z]+\b")
_INITIALS = re.compile(r"\b(?:[A-Z]\.){2,}")


def owner_and_owned_traded(new: Reading, old: Reading) -> bool:
    """ "Tom owns Rex" / "Rex owns Tom": who owns whom, traded (a verb of having says little in a
    plain fact, so no term tells the two apart)."""
    owned = [set(_OWNS.findall(reading.plain)) for reading in (new, old)]
    return any((b, a) in owned[1] for a, b in owned[0] if a != b)


_OWNS = re.compile(r"\b([a-z]+) (?:owns|owned|possesses) (?:the |a |an )?([a-z]+)\b")


def measured_against_another(new: Reading, old: Reading) -> bool:
    """ "Tom is older than Sam" / "... than Sam's class", "Ava is the oldest" / "Ava is the
    oldest in her class": what a comparison is made against, or the group a "most" is of, said
    by a word no term says ("class", "kind", "lot")."""
    against = [_compared_with(reading.said_tokens, reading.text) for reading in (new, old)]
    if all(against) and against[0][0] == against[1][0] and against[0][1] != against[1][1]:
        return True  # the same comparison ("older" both): "younger than" is another way round
    scopes = [_superlative_scope(reading.plain) for reading in (new, old)]
    return None not in scopes and scopes[0] != scopes[1]


@lru_cache(maxsize=_READINGS_KEPT)
def _compared_with(said: tuple[str, ...], text: str) -> tuple[str, str] | None:
    """The comparison and the thing after "than": ("older", "sam") in "older than Sam is now",
    ("older", "class") in "older than Sam's class" (the speaker however said: "than me", "than I
    am"; a relative by any of its words: "his dad", "his father")."""
    at = next((i for i, w in enumerate(said) if w == "than" and i), None)
    if at is None and "same" in said:  # "the same age as Sam"
        at = next((i for i, w in enumerate(said) if w == "as" and i), None)
    if at is None:
        return None
    after = [w for w in said[at + 1 :] if w not in _DETERMINING and w not in PREPOSITIONS]
    if not after:
        return None
    owned = _OWNED_AFTER_THAN.search(text.lower().replace("\u2019", "'"))
    if owned and owned[1] not in STOP_WORDS:
        return said[at - 1], _compared(owned[1])  # "than Sam's class"
    first = after[0]
    if first in _THE_SPEAKER:
        return said[at - 1], "i"
    return said[at - 1], _compared(first)


def _compared(word: str) -> str:
    """A word compared with, one for all its forms ("dad" and "father", "anyone" and
    "everyone")."""
    return _ANYONE_ALIKE.get(word, lexicon.RELATIONS.get(word, stem(word)))


_THE_SPEAKER = frozenset("i me we us myself".split())
_OWNED_AFTER_THAN = re.compile(
    r"\b(?:than|as) (?:the |my |our |your |his |her |their )?[a-z]+'s ([a-z]+)"
)
_ANYONE_ALIKE = dict.fromkeys("anyone everyone anybody everybody".split(), "everyone")


@lru_cache(maxsize=_READINGS_KEPT)
def _superlative_scope(plain: str) -> str | None:
    """What a fact's "most" or "more than" is of, when a word no term says names it ("class" in
    "the oldest in her class", "older than Mia in her class", "of its kind"; "" for "the
    oldest"), or None when it ranks nothing."""
    found = _SUPERLATIVE.search(plain) or _COMPARATIVE.search(plain)
    if found is None or found[1] in _NOT_SUPERLATIVES:
        return None
    heads = set()
    for scope in _SCOPE.finditer(plain):  # before it or after: "of the three, Sophie's the ..."
        words = [
            w for w in scope[1].split() if w not in STOP_WORDS | _COUNTS and not w[:1].isdigit()
        ]
        # Only a group no term says ("class", "kind", "lot", "set"): "in her year" is a term.
        if words and stem(words[0]) in _UNSAID_GROUPS:
            heads.add(stem(words[0]))
    return " ".join(sorted(heads))


_UNSAID_GROUPS = frozenset(stem(word) for word in lexicon.GENERIC | lexicon.LIGHT_VERBS)
_COUNTS = frozenset("two three four five six seven eight nine ten both all".split())
_SUPERLATIVE = re.compile(
    r"\bthe (?:second |third |2nd |3rd )?(?:most |least )?(\w+est|best|worst|middle)\b"
)
_COMPARATIVE = re.compile(r"\b(\w+) than\b")
_NOT_SUPERLATIVES = frozenset(
    "guest west rest chest nest test pest vest quest request contest interest forest harvest "
    "honest modest biggest-ever".split()
)
_SCOPE = re.compile(
    r"\b(?:in|of|among) (?:the |a |an |my |our |your |his |her |its |their |[a-z]+'s )?"
    r"((?:[a-z0-9]+ ){0,2}[a-z]+)"
)


def are_or_have_kin(new: Reading, old: Reading) -> bool:
    """ "Mia and Noah are twins" / "mia and noah have twins": being someone's kin, against
    having kin of one's own."""
    said = [_BE_OR_HAVE_KIN.findall(reading.plain) for reading in (new, old)]
    kinds = [{(verb in _BE, kin) for verb, kin in found} for found in said]
    return any((not being, kin) in kinds[1] for being, kin in kinds[0])


_BE = frozenset("is are am was were be been".split())
_BE_OR_HAVE_KIN = re.compile(
    r"\b(is|are|am|was|were|be|been|have|has|had) (?:both |all |(?:a |an )?(?:pair of |set of )?)?"
    r"(twins|triplets|siblings|sisters|brothers|cousins|partners|parents|grandparents)\b"
)


def doers_traded_in_time(new: Reading, old: Reading) -> bool:
    """ "We eat after Gran goes to bed" / "Gran eats after we go to bed", "The kids watch TV while
    we cook" / "We watch TV while the kids cook": who does the one thing and who the other,
    traded across a word of time."""
    doers = [_doers_in_time(reading.said_tokens) for reading in (new, old)]
    return all(doers) and doers[0] == doers[1][::-1] and doers[0][0] != doers[0][1]


@lru_cache(maxsize=_READINGS_KEPT)
def _doers_in_time(said: tuple[str, ...]) -> tuple[str, ...]:
    """Who does the thing before a word of time and who the thing after it ("we", "gran"), when
    the fact is one clause on each side of it."""
    words = _AS_SOON_AS.sub(
        "when", " ".join(w for w in said if w[:1].isalnum() and w not in _SPOKEN_FILLERS)
    ).split()
    at = next(
        (
            i
            for i, w in enumerate(words)
            if w in _WORDS_OF_TIME
            # "once" is read as the number: "we eat once the kids are in bed"
            or (w == "1" and words[i + 1 : i + 2] and words[i + 1] in _CLAUSE_OPENERS)
        ),
        None,
    )
    if not at:
        return ()
    doers = [_doer(words[:at]), _doer(words[at + 1 :])]
    return tuple(doers) if all(doers) else ()


def _doer(words: list[str]) -> str:
    """A clause's first word that names who does it ("we", "kids" in "the kids tidy up")."""
    for word in words:
        if word in _DETERMINING:
            continue
        if word in _THE_SPEAKER or word in ("you", "they", "he", "she"):
            return "i" if word in _THE_SPEAKER else word
        return "" if word in STOP_WORDS else stem(word)
    return ""


_WORDS_OF_TIME = frozenset("before after while once until till when whenever".split())
_AS_SOON_AS = re.compile(r"\bsoon as\b")  # its first "as" may be read into "work as"
_CLAUSE_OPENERS = frozenset("the my our your his her their i we you he she they".split())


def owners_paired_otherwise(new: Reading, old: Reading) -> bool:
    """ "I give the baby her bottle before my shower" / "... before her shower", "I give Ella
    her medicine before her tea" / "... my medicine before her tea": the same owners and things,
    each owner before another thing."""
    if any(_A_MODELS_USER.search(reading.text) for reading in (new, old)):
        return False  # whose a model's "her" is, the user's or another's, is not told here
    owned = [
        _owner_things(reading.said_tokens, "their" not in reading.owners) for reading in (new, old)
    ]
    if not all(owned) or owned[0] == owned[1]:
        return False
    things = [{thing for _, thing in found} for found in owned]
    return things[0] == things[1]


@lru_cache(maxsize=_READINGS_KEPT)
def _owner_things(said: tuple[str, ...], theirs_mine: bool) -> frozenset[tuple[str, str]]:
    """Each owner word with the thing after it ("her" and "bottle" in "her bottle"); a model's
    "their" as the user's when the reading took it so (``theirs_mine``)."""
    owners = {**_OWNER_WORDS, "their": "my"} if theirs_mine else _OWNER_WORDS
    return frozenset(
        (owners[owner], stem(thing))
        for owner, thing in pairwise(said)
        if owner in owners and thing[:1].isalpha() and thing not in STOP_WORDS
    )


_A_MODELS_USER = re.compile(r"\buser\b", re.IGNORECASE)
_OWNER_WORDS = {"my": "my", "our": "my", "your": "your", "his": "theirs", "her": "theirs",
                "their": "their", "its": "theirs"}  # fmt: skip
"""Owners by who they are: "his", "her" and "its" alike (a pet or a baby is any of them)."""


_TITLE_WORDS = frozenset(
    "her him it its us them me you they we she he this that these those who what the a an "
    "can our your their my his".split()
)
"""Small words a title may be made of ("Her", "It", "The Who", "This Is Us"); not a name
that is also a word ("Will", "May") nor a place or a time ("here", "now")."""
_SPOKEN_FILLERS = frozenset("um uh er erm hmm like".split())


@lru_cache(maxsize=_READINGS_KEPT)
def _value_after_copula(plain: str) -> tuple[str, ...]:
    """The words after a fact's last "is" or "are", without an article before them ("The The"
    keeps its second)."""
    words = [word.strip("'\"") for word in plain.split()]
    words = [word for word in words if word and word not in _SPOKEN_FILLERS]
    at = max((i for i, word in enumerate(words) if word in ("is", "are")), default=-1)
    if at < 0:
        return ()
    value = words[at + 1 :]
    return tuple(value[1:] if value[:1] in (["a"], ["an"], ["the"]) else value)


@lru_cache(maxsize=_READINGS_KEPT)
def _titled_small_words(text: str) -> Counter[str]:
    """Small words written with a capital after a fact's first word ("This Is Us"), a title's."""
    if text.isupper():
        return Counter()  # written all in capitals: a capital says nothing
    words = re.findall(r"[A-Za-z']+", text)
    return Counter(
        word.lower() for word in words[1:] if word[:1].isupper() and word.lower() in _TITLE_WORDS
    )


def modifiers_traded(new: Reading, old: Reading) -> bool:
    """ "My old bike is in the new shed" / "my new bike is in the old shed": two words said
    before two things, each before the other's thing in the other fact ("new" and "old" name
    no value of their own, so no term says them)."""
    mine, theirs = _said_before(new.plain), _said_before(old.plain)
    return any(
        first != second
        and thing != other_thing
        and (second, thing) in theirs
        and (first, other_thing) in theirs
        and (first, thing) not in theirs
        for first, thing in mine
        for second, other_thing in mine
    )


@lru_cache(maxsize=_READINGS_KEPT)
def _said_before(plain: str) -> frozenset[tuple[str, str]]:
    """Each word said before a thing after a determiner or an owner ("the old bike", "Tom's new
    phone"), neither a small word."""
    words = ["", *plain.split()]
    return frozenset(
        {
            (first, then)
            for before, (first, then) in zip(words, pairwise(words[1:]), strict=False)
            if (before in _DETERMINING or before.endswith("'s"))
            and first not in STOP_WORDS
            and then not in STOP_WORDS
        }
    )


_DETERMINING = frozenset("the a an my our your his her their this that these those".split())


def thing_or_its_lessons(new: Reading, old: Reading) -> bool:
    """ "My son wants a guitar" / "... guitar lessons", "Dave has my drill" / "... my drill
    bits": a thing in one fact, and lessons in it or parts of it in the other (broad words,
    which alone would say nothing more: "I do piano" / "I have piano lessons")."""
    things = [set(_THING.findall(reading.plain)) for reading in (new, old)]
    kinds = [set(_OF_A_THING.findall(reading.plain)) for reading in (new, old)]
    return bool(things[0] & (kinds[1] - kinds[0]) or things[1] & (kinds[0] - kinds[1]))


_AFTER_A_THING = r"(?:lessons?|class(?:es)?|sessions?|bits|course)"
_THING = re.compile(rf"\b(?:a|an|the|my|our|his|her|their) (\w+)\b(?! {_AFTER_A_THING}\b)")
_OF_A_THING = re.compile(rf"\b(\w+)(?: \w+ing)? {_AFTER_A_THING}\b")
"""A thing lessons are in ("guitar lessons", "horse riding lessons")."""


def each_or_together(new: Reading, old: Reading) -> bool:
    """ "I bought each of the kids a book" / "i bought the kids a book", "Our tickets cost £500
    each" / "... £500": one each, against one for all (not "each morning")."""
    return _found(_EACH_ONE, new.plain) != _found(_EACH_ONE, old.plain)


_TIMES = (
    r"(?:day|week|month|year|morning|afternoon|evening|night|weekend|time|other|hour|minute|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|summer|winter|spring|autumn|"
    r"term|season|quarter|fortnight|christmas|birthday|weekday|payday|bin day|january|"
    r"february|march|april|may|june|july|august|september|october|november|december)s?"
)
_EACH_ONE = re.compile(
    rf"\b(?:each|every)\b(?! (?:single |kind of |type of |sort of )?{_TIMES}\b)"
    rf"(?! (?:kind|type|sort)s? of\b)"
    r"|\b(?:apiece|per person|per head|a head|per ticket|a person)\b"
)
"""One each: "each of", "every nephew", "£500 each", "£30 a person"; not a time ("each
morning"), nor all of a kind ("every kind of nut"). Not "both": "Both my parents are retired"
says what "my parents are retired" does."""


def amounts_differ(new: Reading, old: Reading) -> bool:
    """ "Tom still owes me a bit" / "... a lot", "Dave has all of my tools" / "a lot of my
    tools": how much, said in words, another; or a degree in one fact only."""
    amounts = [_amounts(reading.plain) for reading in (new, old)]
    if all(amounts):
        return amounts[0] != amounts[1]
    # "I'm a bit deaf" / "i'm deaf", "I drink a lot of coffee" / "i drink coffee": a degree said
    # in one fact only ("all" in one only is as often said for weight: "we ate all the cake")
    return bool((amounts[0] ^ amounts[1]) & _DEGREES)


@lru_cache(maxsize=_READINGS_KEPT)
def _amounts(plain: str) -> frozenset[str]:
    return frozenset(_AMOUNTS_ALIKE.get(said, said) for said in _AMOUNT.findall(plain))


_DEGREES = frozenset(("a bit", "a lot"))


_AMOUNT = re.compile(r"\b(a bit|a little|a lot|lots|loads|the lot|all of|all the|it all|half)\b")
_AMOUNTS_ALIKE = {
    "a little": "a bit", "lots": "a lot", "loads": "a lot", "all the": "all of",
    "it all": "all of", "the lot": "all of",
}  # fmt: skip


def titles_differ(new: Reading, old: Reading) -> bool:
    """ "Dr Khan owes me £30" / "Mr Khan ...", "Miss Jones" / "Mrs Jones": one name, another
    title before it."""
    mine, theirs = _titled(new.plain), _titled(old.plain)
    return any(mine[name] != theirs[name] for name in mine.keys() & theirs.keys())


def couple_or_one(new: Reading, old: Reading) -> bool:
    """ "Mr and Mrs Patel are coming to dinner" / "mrs patel is coming to dinner": a couple in
    one fact, one of them in the other."""
    return _found(_COUPLE, new.plain) != _found(_COUPLE, old.plain)


_COUPLE = re.compile(r"\b(?:mr|mister) (?:and|&) (?:mrs|missus|ms)\b")


@lru_cache(maxsize=_READINGS_KEPT)
def _titled(plain: str) -> dict[str, str]:
    return {name: _TITLE_SPELLED.get(title, title) for title, name in _TITLE.findall(plain)}


_TITLE = re.compile(
    r"\b(dr|doctor|prof|professor|mr|mister|mrs|missus|ms|(?<!i )(?<!we )(?<!you )miss) (\w+)"
)
"""A title before a name; not the verb "miss" ("I miss Tom")."""
_TITLE_SPELLED = {"doctor": "dr", "professor": "prof", "mister": "mr", "missus": "mrs"}


def once_or_every(new: Reading, old: Reading) -> bool:
    """ "We're going to the cinema on Friday" / "we go to the cinema every friday", "Tom is
    coming Monday" / "tom comes every monday": a day once, a plan under way or this or next
    week's, against the same day every week."""
    for once, every in ((new, old), (old, new)):
        days = set(_ANY_DAY.findall(once.plain)) - set(_EVERY_DAY.findall(once.plain))
        planned = (
            once.aspect in ("progressive", "future")
            or _UNDER_WAY.search(once.plain)  # "we're eating out", read as one phrase
            or _THIS_OR_NEXT.search(once.plain)
        )
        weekly = {*_EVERY_DAY.findall(every.plain), *_DAYS_SAID_MANY.findall(every.plain)}
        if planned and days & weekly:
            return True
    return False


_DAYS = r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_ANY_DAY = re.compile(rf"\b{_DAYS}\b")
_EVERY_DAY = re.compile(rf"\bevery {_DAYS}\b")
_DAYS_SAID_MANY = re.compile(rf"\b{_DAYS}s\b")
_UNDER_WAY = re.compile(r"\b(?:is|are|am|we're|they're|i'm|he's|she's) \w+ing\b")
_THIS_OR_NEXT = re.compile(rf"\b(?:this|next) {_DAYS}\b")


def feelings_traded(new: Reading, old: Reading) -> bool:
    """ "Dad likes the liquid but hates the tablets" / "dad likes the tablets but hates the
    liquid": two things felt about, each with the other's feeling in the other fact."""
    mine, theirs = _felt(new.plain), _felt(old.plain)
    shared = mine.keys() & theirs.keys()
    return len(shared) >= _TRADED_FEELINGS and any(mine[t] != theirs[t] for t in shared)


@lru_cache(maxsize=_READINGS_KEPT)
def _felt(plain: str) -> dict[str, int]:
    """Each thing a fact says a feeling about, with the feeling's sign ("likes the liquid": 1,
    "hates the tablets": -1, "doesn't mind": 0)."""
    found: dict[str, int] = {}
    for feeling, thing in _FEELING_ABOUT.findall(plain):
        found.setdefault(thing, _FEELING_SIGNS[feeling.split()[0]])
    return found


_TRADED_FEELINGS = 2
_FEELING_SIGNS = {
    **dict.fromkeys("like likes love loves enjoy enjoys adore adores prefers prefer".split(), 1),
    **dict.fromkeys("hate hates dislike dislikes can't".split(), -1),
    **dict.fromkeys("doesn't don't".split(), 0),
}
_FEELING_ABOUT = re.compile(
    r"\b(likes?|loves?|enjoys?|adores?|prefers?|hates?|dislikes?|can't stand|(?:doesn't|don't)"
    r" mind)\s+(?:the |his |her |their |my |our |a |an |taking |having )*(\w+)"
)


def done_for_or_by_them(new: Reading, old: Reading) -> bool:
    """ "I do Dad's insulin injections" / "dad does his own insulin injections": the speaker
    does someone's task in one fact, and they do it themselves in the other."""
    for mine, theirs in ((new, old), (old, new)):
        for deed, owner in _SPEAKER_DOES_THEIRS.findall(mine.plain):
            for doer, own_deed in _THEY_DO_THEIR_OWN.findall(theirs.plain):
                if doer == owner and markers.verb_base(deed) == markers.verb_base(own_deed):
                    return True
    return False


_SPEAKER_DOES_THEIRS = re.compile(r"\b(?:i|we) (\w+) (\w+)'s\b")
_THEY_DO_THEIR_OWN = re.compile(r"\b(\w+) (\w+) (?:his|her|their) ")


def someone_kept_or_the_deed(new: Reading, old: Reading) -> bool:
    """ "my mum has a cleaner" / "my mum cleans", "my son has a tutor" / "my son tutors": one
    who does it kept in one fact, the deed done oneself in the other."""
    for keeping, doing in ((new, old), (old, new)):
        words = doing.plain.split()
        for kept in _KEEPS_SOMEONE.findall(keeping.plain):
            root = kept[:-2] if kept.endswith(("er", "or")) else kept
            if kept not in words and any(w.startswith(root) and w != kept for w in words):
                return True
    return False


_KEEPS_SOMEONE = re.compile(
    r"\b(?:has|have|had|got) an? (cleaner|tutor|gardener|babysitter|childminder|driver|trainer|"
    r"carer|decorator|cook|walker|minder|helper|mentor)\b"
)
"""People one keeps to do a deed, whose name is the deed's ("a cleaner" cleans)."""


CHECKS: tuple[tuple[Callable[[Reading, Reading], bool], str], ...] = (
    (speaker_in_group, "the speaker one of a group in one fact only"),
    (speaker_done_to, "the speaker done to in one fact only"),
    (whose_relative, "whose relative, said by another word"),
    (someone_or_their_own, "someone's relative or thing against them"),
    (shared_or_own_money, "money shared against one's own"),
    (some_or_none_denied, "a negation of part against one of the whole"),
    (focus_moved, "'only' or 'even' before another part"),
    (would_or_does, "done by habit once, against done now"),
    (never_or_once, "never now, against once"),
    (speaker_or_everyone, "the speaker against everyone"),
    (whose_feeling, "the speaker's feeling about someone, against theirs"),
    (speaker_and_another_own_in_turn, "the speaker's thing against another's"),
    (let_one_or_the_other, "let someone do it to the speaker, or the speaker to them"),
    (pronoun_placed_otherwise, "someone placed by another word"),
    (generations_differ, "how many generations back"),
    (vaguely_many, "a number against many"),
    (small_word_values, "a value of small words, another"),
    (what_to_know, "what to do, asked by another word"),
    (deed_of_a_rule, "a rule about another deed"),
    (done_otherwise, "another deed, by a verb that says little on its own"),
    (then_and_now_traded, "what was and what is, traded"),
    (two_of_one_kind, "two of one kind named in one fact only"),
    (driver_traded, "who drives and who rides, traded"),
    (driven_or_their_car, "someone driven, against their car"),
    (amounts_paired_otherwise, "each amount before another thing"),
    (placed_otherwise, "each thing placed by another's word"),
    (kin_titled_or_theirs, "a relative's word as a title, against that person's relative"),
    (named_or_whose, "a name beside what it names, against whose it is"),
    (names_in_another_order, "one person's names in another order"),
    (owner_or_place_of_a_name, "a name owning a thing, against a thing of that word"),
    (owner_and_owned_traded, "who owns whom, traded"),
    (measured_against_another, "compared with another thing, or a most of another group"),
    (are_or_have_kin, "being kin against having kin"),
    (doers_traded_in_time, "who does which, traded across a word of time"),
    (owners_paired_otherwise, "each owner before another thing"),
    (modifiers_traded, "two words before two things, traded"),
    (thing_or_its_lessons, "a thing against lessons in it or parts of it"),
    (each_or_together, "one each against one for all"),
    (amounts_differ, "how much, another"),
    (titles_differ, "another title before a name"),
    (couple_or_one, "a couple against one of them"),
    (feelings_traded, "two feelings, each about the other thing"),
    (done_for_or_by_them, "done for someone against by them"),
    (someone_kept_or_the_deed, "someone who does it kept, against the deed"),
    (once_or_every, "a day once against every week"),
)
"""Each check, with why two facts it finds apart are two (the judge's reason)."""
