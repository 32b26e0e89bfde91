"""Reading a fact: who it is about, its content terms, what is negated, felt, ranked or changed.

A reading is a flat, comparable summary of one short fact; ``comparison`` compares two of
them. Only general English patterns are read; nothing here knows any particular fact.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache
from itertools import pairwise

from memory.judging import lexicon, markers, shape
from memory.judging.spoken import hear
from memory.judging.subject import SELF, Subject, subject_of
from memory.judging.terms import Term, TermKind, canonical, is_known
from memory.judging.walker import Walker
from memory.judging.words import (
    PREPOSITIONS,
    STOP_WORDS,
    SUBJECT_PRONOUNS,
    Token,
    TokenKind,
    as_said,
    stem,
    tokenize,
    word_tokens,
)


class Attitude(StrEnum):
    """Whether a fact states how things are, a feeling about them, or a wish or request."""

    STATE = "state"
    FEELING = "feeling"
    WISH = "wish"


@dataclass(frozen=True)
class Reading:
    """What one fact says, ready to compare with another."""

    text: str
    subject: Subject
    """Who the fact is about, read once."""
    terms: tuple[Term, ...]
    """Content said positively."""
    negated: tuple[Term, ...]
    """Content inside a negation ("alcohol" in "I don't drink alcohol")."""
    sentiment: int = 0
    """+1 likes, -1 dislikes, 0 says nothing about feelings."""
    attitude: Attitude = Attitude.STATE
    preferring: bool = False
    """Says "prefer" or "would rather": one choice among alternatives."""
    order: tuple[Term, Term] | None = None
    """A ranking, preferred first ("tabs over spaces")."""
    change: str = ""
    """A word saying the state changed ("moved", "now"), as written."""
    functional: bool = False
    """An "X is Y" statement about a thing or a person other than the speaker: one value only."""
    identity: bool = False
    """Says what the speaker is ("I'm a nurse", "I work as a nurse")."""
    implying: frozenset[str] = frozenset()
    """Terms that stand for negations ("vegetarian": no meat); see lexicon.IMPLIED_NEGATIONS."""
    frequency: str = ""
    """How often, as written ("always", "sometimes"); see lexicon.FREQUENCIES."""
    bare_negation: bool = False
    """Denies without negating any content ("Carlos is not my boss"); see Walker."""
    corrected: bool = False
    """The speaker takes back what they began to say, further on ("i hate it no i love it"):
    the words before the correction are not all meant, so it restates nothing word for word."""
    tense: str = ""
    """ "past", "present" or "future" when the fact's verb says so plainly ("was", "smoked",
    "will"); "" when it cannot be told (two clauses, "has lived")."""
    ordered: bool = False
    """Lists things in an order ("pizza, then pasta"), so a list reordered says another thing."""
    sequence: tuple[tuple[str, int], ...] = ()
    """Each "then", "before" or "after", with the position of the term that follows it."""
    speaker_role: str = ""
    """Where the speaker stands when a pronoun says so: "subject" ("I owe Ben"), "object" ("Ben
    owes me"), or "" (both, or neither). A pronoun is no content term, so only its case tells."""
    modality: frozenset[str] = frozenset()
    """What its modal verbs say ("possible" for "may", "required" for "must"); see markers."""
    owners: frozenset[str] = frozenset()
    """Whose the things named are, by possessive words ("speaker" for "my", "his")."""
    aspect: str = ""
    """ "future", "perfect" or "progressive" when the fact says so ("about to", "has")."""
    quantity: str = ""
    """How many of a group: "all", "some", "most" ... when a quantifier says so."""
    said_tokens: tuple[str, ...] = ()
    """Every token's text, function words too, as the terms' ``at`` index them."""
    last_spans: frozenset[str] = frozenset()
    """The spans "last" names ("week" of "last week"); see markers.last_spans."""
    occasions: frozenset[tuple[str, str]] = frozenset()
    """Times named as one occasion or as each of them ("this weekend", "every weekend"); see
    markers.occasions."""
    passive: bool = False
    """Says who did it after "by" ("was hired by Sara"); see markers.passive."""
    said: str = ""
    """The text as it means it (``words.as_said``): "'s" for "is" written so, and the like."""
    plain: str = ""
    """The words as compared letter for letter: small, straight apostrophes, no stops."""
    scope: str = ""
    """What "only" bounds: "doer" or "deed"; see markers.scope."""
    everyone: str = ""
    """Where "everyone" stands: "doer" or "deed"; see markers.everyone."""
    joiner: str = ""
    """ "or" for a choice, "and" for a list; see markers.joiner."""
    complement: str = ""
    """ "to" or "ing" after "stop", "forget" ...; see markers.complement."""
    excess: bool = False
    """Says "too" much for something; see markers.excess."""
    choice: str = ""
    """ "one" for "either ... or", "each" for "both ... and"; see markers.choice."""
    titles: frozenset[str] = frozenset()
    """Who the titles before names say the people are ("man" for "Mr"); see markers.titles."""
    persons: tuple[str, ...] = ()
    """Who its personal pronouns name, subject and object alike ("I", "me", "we" and "us" are
    "speaker"), sorted: a pronoun is no content term, so only this tells "owes me" from "owes
    him"."""
    done_to: tuple[str, ...] = ()
    """Who its object pronouns name ("me", "him", "them"), sorted; see ``persons``."""

    @property
    def content(self) -> tuple[Term, ...]:
        """Every content term, positive and negated."""
        return self.terms + self.negated


@lru_cache(maxsize=8192)
def read(text: str) -> Reading:
    """Read one fact. Pure and cached: the same text always gives the same reading."""
    heard = _sides_squared(
        _counts_of_times(_kinds_of_person(_apply_phrases(hear(_split_hyphens(tokenize(text))))))
    )
    tokens = _titled(_naming_calls(_senses(heard)))
    subject = subject_of(tokens)
    copula = shape.subject_copula(tokens, subject.tokens)
    walker = Walker(tokens, subject, copula)
    if subject.holder != SELF:
        # The relative is part of what the fact says: "My cat is called Luna" names a cat.
        at = min(subject.tokens, default=0)
        # "by my mum", "a present to my sister": the relative's part in the fact, as the
        # word before a name says it ("by Mum", "to Jo")
        before = tokens[at - 1].text if at else ""
        slot = before if before in PREPOSITIONS else ""
        walker.terms.append(Term(subject.relative, subject.surface, TermKind.WORD, slot, at=at))
    walker.walk()
    walker.imply()
    request = shape.is_request(tokens)
    words = [token.text for token in tokens if token.kind in (TokenKind.WORD, TokenKind.NUMBER)]
    if walker.wishing or request:
        attitude = Attitude.WISH
    elif walker.sentiment:
        attitude = Attitude.FEELING
    else:
        attitude = Attitude.STATE
    terms = _converse(walker.terms)
    works_as = any(term.text == "works-as" for term in terms)
    return Reading(
        text=text,
        subject=subject,
        terms=tuple(terms),
        negated=tuple(walker.negated),
        sentiment=walker.sentiment,
        attitude=attitude,
        preferring=walker.preferring,
        order=walker.order,
        sequence=tuple(walker.sequence),
        change=walker.change,
        functional=copula >= 0,
        identity=shape.is_identity(tokens) or works_as,
        implying=frozenset(walker.implying),
        bare_negation=walker.bare_negation,
        corrected=walker.corrected,
        speaker_role=_speaker_role(tokens),
        tense="" if request else _tense(tokens, subject.tokens, walker.change),  # none asked
        ordered=any(token.text in _ORDER_WORDS for token in tokens)
        or bool(_JOINED.search(text) or _ROUTE.search(text)),
        frequency=next((t.text for t in tokens if t.text in lexicon.FREQUENCIES), ""),
        modality=markers.modality(words),
        owners=_owners(text, words),
        aspect=markers.aspect(words),
        quantity=markers.quantity(words),
        said_tokens=tuple(token.text for token in tokens),
        occasions=markers.occasions(re.findall(r"[a-z]+", text.lower())),  # before phrases
        last_spans=markers.last_spans(re.findall(r"[a-z]+", text.lower())),
        passive=markers.passive([_as_said_first(token) for token in tokens]),
        said=as_said(text),
        plain=" ".join(re.findall(r"[\w']+", text.lower().replace("\u2019", "'"))),
        scope=markers.scope(words),
        everyone=markers.everyone(words),
        choice=markers.choice(words),
        joiner=markers.joiner(words),
        complement=markers.complement(words),
        excess=markers.excess(words),
        titles=markers.titles([token.text for token in heard]),  # read before names drop them
        persons=_persons(text, tokens, _PERSONS),
        done_to=_persons(text, tokens, _DONE_TO),
    )


def _as_said_first(token: Token) -> str:
    """A token's word, or a phrase's first word as said: "looked" of "looked after", whose
    canonical "look-after" hides the participle that makes a passive."""
    if " " in token.surface:
        return token.surface.split(" ")[0].lower()
    return token.text


def _senses(tokens: list[Token]) -> list[Token]:
    """Words whose sense their neighbours tell: "left" where it is a direction ("turn left then
    right", "my left knee") is the side, not the past of "leave" (a fact that also says "right"
    is about directions); a unit letter after a number ("1.8 m") is the unit; "till" is
    "until"."""
    words = [token.text if token.kind is TokenKind.WORD else "" for token in tokens]
    sides = "right" in words
    result = []
    for index, token in enumerate(tokens):
        before = words[index - 1] if index else ""
        after = words[index + 1] if index + 1 < len(words) else ""
        if words[index] == "left" and (
            before in lexicon.DIRECTION_BEFORE
            or after in lexicon.DIRECTION_AFTER
            or (sides and before in ("", "and", "or", "then"))
        ):
            token = replace(token, text="left-hand")
        elif words[index] in lexicon.UNIT_LETTERS and index and _number(tokens[index - 1]):
            token = replace(token, text=lexicon.UNIT_LETTERS[words[index]])
        elif words[index] in ("till", "til") and before not in ("the", "a"):
            token = replace(token, text="until")  # "the till" is where the money is
        elif words[index] == "just" and index == 0:
            token = replace(token, text="only")  # "just Tom walks the dog"
        elif words[index] in ("too", "also") and _clause_end(tokens, index):
            token = replace(token, text="as-well")  # "Tom walks the dog too"; not "too hot"
        elif _hedging(words[index], before, after):
            # "I'm mostly vegan", "a near native speaker": a degree of the state, not how often
            # nor where ("I'm near Leeds", "is near Tesco")
            token = replace(token, text=_HEDGES[words[index]])
        result.append(token)
    return result


_HEDGES = {"mostly": "largely", "near": "nearly"}
_BEFORE_A_STATE = frozenset("am is are was were be a an i'm".split())
_NEAR_STATES = frozenset(
    "native fluent perfect total complete vegan vegetarian blind deaf certain impossible "
    "identical constant normal full empty new".split()
)
"""States "near" hedges when said without its hyphen ("a near native speaker"); before
anything else it says where ("near Tesco")."""


def _hedging(word: str, before: str, after: str) -> bool:
    """Whether ``word`` hedges the state after it: "mostly" after "is" or "a" before a word of
    content ("I'm mostly vegan"), "near" before a state ("near native", "near perfect")."""
    if word == "near":
        return after in _NEAR_STATES
    return (
        word == "mostly"
        and before in _BEFORE_A_STATE
        and after.isalpha()
        and after not in STOP_WORDS
    )


def _converse(terms: Sequence[Term]) -> list[Term]:
    """ "Ben is younger than Ann" read as "Ann is older than Ben": one comparison between two
    named sides, said the other way round, its sides changing places so the readings compare.
    Not when a side is the speaker, or a measure stands between ("two years younger")."""
    result = list(terms)
    comparisons = [i for i, term in enumerate(result) if term.text.startswith("than-")]
    if comparisons != [1] or len(result) != _COMPARED_TERMS:
        return result
    converse = lexicon.CONVERSES.get(result[1].text.removeprefix("than-"))
    first, second = result[0], result[2]
    sides = first.is_party and second.is_party
    if converse is None or not sides:
        return result
    return [
        replace(second, position=first.position, in_subject=first.in_subject),
        replace(result[1], text=f"than-{converse}"),
        replace(first, position=second.position, in_subject=second.in_subject),
    ]


_COMPARED_TERMS = 3


def _clause_end(tokens: Sequence[Token], index: int) -> bool:
    """Whether the token at ``index`` is the last of its clause."""
    return index + 1 == len(tokens) or tokens[index + 1].kind is TokenKind.BREAK


def _number(token: Token) -> bool:
    return token.kind is TokenKind.NUMBER


def _split_hyphens(tokens: Sequence[Token]) -> list[Token]:
    """Split hyphenated words the lexicon does not know ("ex-wife", "part-time")."""
    split: list[Token] = []
    for token in tokens:
        if token.kind is not TokenKind.WORD or "-" not in token.text or is_known(token.text):
            split.append(token)
            continue
        for index, part in enumerate(token.surface.split("-")):
            # Each part is a word of its own: "five-a-side" says the number 5; "near-" hedges
            # what follows ("near-native", "near-fluent"), as "nearly" does; "-style" says
            # like it, not it ("kosher-style food" is not kosher).
            part = "nearly" if index == 0 and part.lower() == "near" else part
            part = "style-of" if index and part.lower() == "style" else part
            split.extend(word_tokens(part, token.initial and not index))
    return split


def _kinds_of_person(tokens: list[Token]) -> list[Token]:
    """ "a cat person", "a morning person": one word, a taste or a habit, not the thing itself
    ("She is a cat person" says nothing of a cat of hers)."""
    result: list[Token] = []
    for token in tokens:
        before = result[-1] if result else None
        if token.text in ("person", "people") and before is not None and before.text in _TASTES:
            result[-1] = replace(
                before, text=f"{before.text}-person", surface=f"{before.surface} {token.surface}"
            )
            continue
        result.append(token)
    return result


_TASTES = frozenset(
    "cat dog morning night people animal beach coffee tea car city country book sport sports "
    "football outdoor outdoors summer winter".split()
)
"""What a "... person" likes: "a cat person", "a morning person" (not "a kind person")."""


def _sides_squared(tokens: list[Token]) -> list[Token]:
    """ "10 metres square" is a square of 10 metres a side (100 square metres): "square" after
    a unit is another word than before one ("10 square metres"), and neither is the shape."""

    def unit(index: int) -> bool:
        return 0 <= index < len(tokens) and "unit" in lexicon.groups_of(
            canonical(tokens[index].text)
        )

    result = []
    for index, token in enumerate(tokens):
        if token.text == "square" and unit(index - 1):
            surface = f"{tokens[index - 1].surface} {token.surface}"
            token = Token("square-sided", surface, TokenKind.WORD)
        elif token.text == "square" and unit(index + 1):
            token = Token("square-area", token.surface, TokenKind.WORD)
        result.append(token)
    return result


def _counts_of_times(tokens: list[Token]) -> list[Token]:
    """ "3 times", "twice": one number of times ("3x"), never a count of things ("I take
    tablets twice" is not "I take two tablets"), still a number against another."""
    result: list[Token] = []
    for token in tokens:
        before = result[-1] if result else None
        if (
            token.text in ("time", "times")
            and before is not None
            and before.kind is TokenKind.NUMBER
        ):
            result[-1] = Token(
                f"{before.text}x", f"{before.surface} {token.surface}", TokenKind.NUMBER
            )
            continue
        result.append(token)
    return result


def _apply_phrases(tokens: list[Token]) -> list[Token]:
    """Replace multi-word expressions ("can't stand", "night owl") with their single tokens."""
    forms = [_forms(token) for token in tokens]
    result: list[Token] = []
    index = 0
    while index < len(tokens):
        phrase = _phrase_at(forms, index)
        if phrase is None:
            result.append(tokens[index])
            index += 1
            continue
        window = tokens[index : index + len(phrase)]
        surface = " ".join(token.surface for token in window)
        result.extend(
            Token(word, surface, TokenKind.WORD, initial=window[0].initial)
            for word in lexicon.PHRASES[phrase]
        )
        index += len(phrase)
    return result


def _phrase_at(forms: list[frozenset[str]], index: int) -> tuple[str, ...] | None:
    """The longest phrase starting at ``index``, each word matched as written or by its base."""
    candidates = [phrase for first in forms[index] for phrase in _PHRASES_BY_FIRST.get(first, ())]
    for phrase in sorted(candidates, key=len, reverse=True):
        end = index + len(phrase)
        if end <= len(forms) and all(
            word in forms[index + offset] for offset, word in enumerate(phrase)
        ):
            return phrase
    return None


def _forms(token: Token) -> frozenset[str]:
    """A word token as written, as its irregular base and as its stem; nothing for others."""
    if token.kind is not TokenKind.WORD:
        return frozenset()
    return _word_forms(token.text)


@lru_cache(maxsize=16384)
def _word_forms(word: str) -> frozenset[str]:
    base = lexicon.IRREGULAR.get(word, word)
    return frozenset((word, base, stem(base)))


def _by_first_word(phrases: Iterable[tuple[str, ...]]) -> dict[str, tuple[tuple[str, ...], ...]]:
    table: dict[str, list[tuple[str, ...]]] = {}
    for phrase in phrases:
        table.setdefault(phrase[0], []).append(phrase)
    return {first: tuple(group) for first, group in table.items()}


_PHRASES_BY_FIRST = _by_first_word(lexicon.PHRASES)


_OBJECT_PRONOUNS = frozenset(("me", "us"))


_ORDER_WORDS = frozenset("then order followed respectively route combination sequence via".split())
"""Words that make a list's order part of what it says ("8, 10 and 3 respectively")."""
_ROUTE = re.compile(
    r"\b(?:driv\w*|drove|go|goes|going|went|walk\w*|cycl\w*|travel\w*|fl(?:y|ies|ew|ying)|"
    r"pass\w*|runs?|ran|running|takes? (?:me|us)|took (?:me|us))\s+(?:back\s+)?through\b",
    re.IGNORECASE,
)
"""A way gone along, in the order said ("we drive through Leeds, York and Hull")."""
_JOINED = re.compile(r"\d\s?[-:\u2013]\s?\d")
"""Numbers joined by a dash or a colon keep their order: a score "2-1", a ratio "3:1"."""
_PRESENT_COPULAS = frozenset(("am", "is", "are"))
_PAST_COPULAS = frozenset(("was", "were"))
_COPULAS = _PRESENT_COPULAS | _PAST_COPULAS
_STILL_PERFECT = frozenset(("been", "used-to"))
_WANTED_SO = frozenset("prefer prefers want wants like likes need needs".split())
"""Present verbs whose thing may be followed by a participle saying how: "likes eggs fried"."""
_NOT_NOW_BEFORE_HAVE = frozenset(
    "will would 'd shall should could might may must can to rather".split()
)
_HAVING = frozenset(("have", "has", "'s"))
"""Words before "got" (perhaps with one between) that make it a having now, not a perfect:
"I've got a cold", "she has got two sons", "mum's actually got five brothers"."""
_NO_VERB_BEFORE = frozenset(
    "get gets getting be being a an the my our your his her their its this that for during".split()
)
"""Before a participle or an adjective that is no past: "the plants get watered", "a registered
nurse"; or a noun spelled as one ("for lent", a transcript's Lent)."""


def _present_form(token: Token) -> bool:
    """A verb in the present third person after a word ending in "-ed": the "-ed" word was a
    name ("uncle alfred lives in york")."""
    word = token.text
    return (
        token.kind is TokenKind.WORD
        and word.endswith("s")
        and not word.endswith("ss")
        and (word not in STOP_WORDS or word in ("is", "has", "does"))
    )


_TIMELESS = frozenset(("born", "called", "named", "known", "based", "grow-up"))
"""Words whose past says nothing of now ("I was born on March 3rd", "where I grew up")."""


_CALLED = frozenset(("called", "known"))
"""Timeless but straight after a copula, which then tells the tense: a name that "was" is no
longer ("the hamster was called Nibbles" / "... is called Nibbles")."""


def _tense(tokens: Sequence[Token], subject: frozenset[int], change: str = "") -> str:
    """The tense of a one-clause fact, told by its copula, "will", or a verb in the past (the
    change word among them: "I changed jobs")."""
    word_tokens = [token for token in tokens if token.kind is TokenKind.WORD]
    words = [token.text for token in word_tokens]
    if markers.past_perfect(words):
        return "past"
    said = [token.text for token in tokens]
    if any(
        got == "got" and _HAVING & set(said[max(0, index - 2) : index])
        for index, got in enumerate(said)
    ):
        return "present"  # "I've got a cold", "mum's actually got five brothers": had now
    if "had" in words and not _perfect(words):
        return "past"  # "We had a dog", "we had a dog called Rex"
    comma = next((i for i, token in enumerate(tokens) if token.text == ","), len(tokens))
    if (
        not _perfect(words)
        and not any(_past_form(token) for token in tokens[comma:])
        and any(
            word in ("have", "has")
            and (not index or words[index - 1] not in _NOT_NOW_BEFORE_HAVE)
            and not _past_form(token)
            for index, (word, token) in enumerate(zip(words, word_tokens, strict=True))
        )
    ):
        # "we have a dog called Rex", "I have a haircut booked": the having is now, whatever
        # is said of the thing had (not "will have", "would rather have", nor a having said in
        # the past: "I suffered from insomnia"), unless a clause of its own says what was ("ben
        # has my book, i lent it to him")
        return "present"
    if _perfect(words) or any(
        word in _TIMELESS and not (word in _CALLED and before in _COPULAS)
        for before, word in pairwise(["", *words])
    ):
        return ""
    # A "'s" read as "is" may be whose ("Kim was Dave's boss"): the tense is the other verb's.
    copulas = {token.text for token in tokens if token.text in _COPULAS and token.surface != "'s"}
    if copulas:
        if copulas <= _PRESENT_COPULAS:
            return "present"
        return "past" if copulas <= _PAST_COPULAS else ""
    if "will" in words:
        return "future"
    if any(token.text == "is" for token in tokens):
        return "present"  # "the flight's on Friday"
    if change.lower().endswith("ed") or change.lower() in lexicon.IRREGULAR_PAST:
        return "past"
    wanting = next((i for i, t in enumerate(tokens) if t.text in _WANTED_SO), len(tokens))
    past = any(
        index not in subject
        and _past_form(token)
        and not (index and tokens[index - 1].text in _NO_VERB_BEFORE)
        and index < wanting  # "I prefer parcels left next door": how it is wanted, not a past
        and not (
            index + 1 < len(tokens)
            and _present_form(tokens[index + 1])
            and not _verb(_first_said(token))
            and " " not in token.surface  # a phrase's verb: "suffered from migraines"
            and _first_said(token) not in lexicon.IRREGULAR_PAST  # "taught maths", "kept hens"
        )
        for index, token in enumerate(tokens)
    )
    return "past" if past else "present"


def _perfect(words: Sequence[str]) -> bool:
    """A perfect or a "used to" ("I have lived", "she'd been"), which says nothing of now."""
    return any(word in _STILL_PERFECT for word in words) or markers.perfect(words)


def _verb(word: str) -> bool:
    """An "-ed" word that is a verb the lexicon knows in the past ("needed", "loved"), not a
    name ("alfred")."""
    return is_known(word[:-2]) or is_known(word[:-1])


def _past_form(token: Token) -> bool:
    """A verb in the simple past: an irregular one, or a word ending in "-ed" that is no name
    and no "-eed" word ("smoked", "worked"; not "Alfred", "breed"); "got" and "did" too, small
    words though they are ("Tom got his black belt", "I did my first triathlon")."""
    if token.kind is not TokenKind.WORD or token.capitalised:
        return False
    if token.text in STOP_WORDS and token.text not in _SMALL_PASTS:
        return False
    word = _first_said(token)
    regular = word.endswith("ed") and not word.endswith("eed") and len(word) > 4
    return word in lexicon.IRREGULAR_PAST or regular


_SMALL_PASTS = frozenset(("got", "did"))


def _first_said(token: Token) -> str:
    """A token's first word as said: a phrase's ("worked as" is "works-as")."""
    return token.surface.split()[0].lower()


def _speaker_role(tokens: Sequence[Token]) -> str:
    words = {token.text for token in tokens if token.kind is TokenKind.WORD}
    subject, object_ = bool(words & SUBJECT_PRONOUNS), bool(words & _OBJECT_PRONOUNS)
    return "subject" if subject and not object_ else "object" if object_ and not subject else ""


# The speaker's household is one side ("owes me" / "owes us"), as whose things are ("my" / "our").
_DONE_TO = {
    "me": "speaker", "us": "speaker", "you": "you", "him": "him", "her": "her", "them": "them"
}  # fmt: skip
OBJECT_PRONOUNS = frozenset(_DONE_TO)
"""Pronouns for whom something is done ("owes me", "taught her")."""
_PERSONS = _DONE_TO | {"i": "speaker", "we": "speaker", "he": "him", "she": "her", "they": "them"}
_THE_USER = re.compile(r"\bthe user\b", re.IGNORECASE)


def _persons(text: str, tokens: Sequence[Token], pronouns: dict[str, str]) -> tuple[str, ...]:
    """Who the pronouns among ``tokens`` name, sorted. A model's "the user" is the speaker, and
    so is its "them". "her" may be whose ("lent me her car"): comparison tells, against the
    other fact."""
    user = bool(_THE_USER.search(text))
    persons = [pronouns[token.text] for token in tokens if token.text in pronouns]
    return tuple(sorted("speaker" if user and person == "them" else person for person in persons))


def _owners(text: str, words: Sequence[str]) -> frozenset[str]:
    """Whose the things a fact names are; a model's "their" after "the user" is the speaker's
    ("The user cancelled their Prime subscription")."""
    owners = markers.owners(words)
    if "their" in owners and _THE_USER.search(text) and _theirs_the_users(words):
        return owners - {"their"} | {"speaker"}
    return owners


def _theirs_the_users(words: Sequence[str]) -> bool:
    """Whether a model's "their" is the user's: the nearest before it who could own it is the
    user ("The user takes 2 sugars in their coffee", "the user's parents lent them money for
    their first car"), not people named in the plural ("The user helps the neighbours with their
    garden")."""
    said = list(words)
    at = next((at for at, word in enumerate(said) if word in ("their", "theirs")), len(said))
    for word in reversed(said[:at]):
        if word in ("them", "i", "user", "my"):
            return True
        if word in _PEOPLE or word in lexicon.RELATIONS or word[:-1] in lexicon.RELATIONS:
            return False  # "The user's daughter drives their car": hers, perhaps
    return True


_PEOPLE = frozenset("children kids people men women in-laws neighbours neighbors folks".split())


_SPELLED_TITLES = frozenset(("doctor", "professor"))
_SPOKEN_TITLES = frozenset(("missus", "mister"))


def _titled(tokens: list[Token]) -> list[Token]:
    """ "Mrs Patel", "doctor okafor": a title says the next word is a name, whatever its case;
    the title itself is no content ("Dr Okafor" is "doctor okafor")."""
    result: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        after = tokens[index + 2] if index + 2 < len(tokens) else None
        named = (
            following is not None
            and following.kind is TokenKind.WORD
            and following.text.isalpha()
            and not is_known(following.text)
            # "Tom's missus works at": his wife; "missus patel", "mister evans is": a name
            and not (
                token.text in _SPOKEN_TITLES
                and following.text.endswith("s")
                and after is not None
                and (after.text in PREPOSITIONS or after.text in ("a", "an", "the"))
            )
        )
        spelled = token.text in _SPELLED_TITLES and (
            (following is not None and following.capitalised)
            or after is None
            or after.kind is TokenKind.BREAK
        )
        if token.kind is TokenKind.WORD and named and (token.text in lexicon.TITLES or spelled):
            assert following is not None
            result.append(replace(following, capitalised=True, initial=False))
            index += 2
            continue
        result.append(token)
        index += 1
    return result


def _naming_calls(tokens: list[Token]) -> list[Token]:
    """ "Call me Sam" names the speaker ("named"); "call me before 9am" is a phone call."""
    named = list(tokens)
    for index in range(len(named) - 2):
        call, me, name = named[index : index + 3]
        if call.text == "call" and me.text == "me" and name.capitalised and not name.initial:
            named[index] = Token("named", call.surface, TokenKind.WORD, initial=call.initial)
    return named
