"""Who a fact is about: one Subject value per statement, read once from its tokens.

Everything that compares two facts asks this value (the holder, a relative the speaker
introduces, a third person the fact may name), never the tokens again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from memory.judging import lexicon
from memory.judging.matching import agrees_text, related
from memory.judging.terms import Term, TermKind, canonical, is_known
from memory.judging.words import COPULAS, STOP_WORDS, SUBJECT_PRONOUNS, Token, TokenKind, stem

SELF = ""
"""The holder of a fact about the speaker."""

POSSESSIVE_PRONOUNS = frozenset(("my", "our"))
THIRD_PERSON = frozenset(("he", "she", "they"))
FIRST_PERSON = frozenset("i we me us my our mine ours myself".split())
_ARTICLES = frozenset(("a", "an", "one"))
_AUXILIARIES = frozenset("has have had does did will would can could should must".split())
_NO_NAMES = (
    lexicon.NEGATIONS
    | frozenset(lexicon.FREQUENCIES)
    | frozenset("still already ever hardly barely scarcely finally recently once twice".split())
)
"""Words that stand where a name may (after "my mum") and say how or when instead."""
# Words after "I have a sister" that go on to describe her rather than the speaker.
_INTRODUCING = frozenset("called named who whose that which".split())


@dataclass(frozen=True)
class Subject:
    """Who one fact is about."""

    holder: str = SELF
    """SELF, or a relation such as "sister", "older brother", "brother's wife"."""
    surface: str = "I"
    """The holder as written ("my sister"), for explanations; "I" for the speaker."""
    tokens: frozenset[int] = frozenset()
    """Positions of the tokens that said who (they are not content)."""
    introduced: str = ""
    """A relative the speaker introduces and goes on to describe ("I have a cat named Luna"):
    such a fact is about the speaker (who has a cat) and about the relative at once."""
    named: str = ""
    """A capitalised first word that may name a third person ("Tom is a doctor")."""
    name: str = ""
    """The holder's own name, said beside the relation ("my friend Alice", "sam my partner")."""

    @property
    def relative(self) -> str:
        """The relative the fact is about ("wife" for "my brother's wife"), "" for the speaker."""
        return self.holder.rsplit("'s ", 1)[-1].rsplit(" ", 1)[-1] if self.holder else ""

    def differs(
        self, other: Subject, content: Sequence[Term], other_content: Sequence[Term]
    ) -> str:
        """Why this fact and another are about different people ("" when about the same one).

        ``content`` and ``other_content`` are what each fact says: a relative one fact introduces,
        or a person it may name, must be mentioned by the other for both to be about them.
        """
        mine, theirs = self.name or self.named, other.name or other.named
        if mine and theirs and (self.name or other.name):
            # Two people with names: the same name is the same person, unless both say how
            # they are related and differ ("my friend Tom" / "my brother Tom").
            apart = not agrees_text(mine, theirs) or (
                self.holder and other.holder and self.holder != other.holder
            )
            return f"different subject: {self.surface} / {other.surface}" if apart else ""
        introduced = (
            self.introduced == other.holder != SELF or other.introduced == self.holder != SELF
        )
        if self.holder != other.holder and not introduced:
            return f"different subject: {self.surface} / {other.surface}"
        for first, second, said in ((self, other, other_content), (other, self, content)):
            if first.introduced and first.holder == second.holder and not second.introduced:
                # "I have a brother who lives in Paris" is about the brother, unless the other
                # fact mentions him too ("I don't have any pets" does mention a dog).
                relative = Term(first.introduced.rsplit(" ", 1)[-1], "", TermKind.WORD)
                if not any(related(relative, term) for term in said):
                    return f"different subject: {first.introduced} / {second.surface}"
        for first, second, own, said in (
            (self, other, content, other_content),
            (other, self, other_content, content),
        ):
            # A fact about nobody named must say the name as often as this one: "Rose waters
            # the roses" says "rose" twice, "I water the roses" once (the roses, not Rose).
            needed = 1 if second.named or second.name else _mentions(first.named, own)
            if first.named and _mentions(first.named, said) < needed:
                return f"different subject: {first.named} / {second.surface}"
        return ""


SPEAKER = Subject()


def _mentions(name: str, terms: Iterable[Term]) -> int:
    """How many of the terms say the name (or a kind of thing it is)."""
    return sum(
        1 for term in terms if agrees_text(name, term.text) or name in lexicon.ancestors(term.text)
    )


def relation(token: Token) -> str | None:
    """The canonical relative a word names ("mum" -> "mother"), or None."""
    if token.kind is not TokenKind.WORD:
        return None
    return lexicon.lookup(lexicon.RELATIONS, token.text, stem(token.text))


def subject_of(tokens: Sequence[Token]) -> Subject:
    """Who a fact is about: the first of "I", "he/she/they" or "my <relative>"; else the speaker
    (a fact with no subject, such as "Database is Postgres", is the speaker's)."""
    holder = _fronted(tokens) or SPEAKER
    for index, token in enumerate(tokens if holder is SPEAKER else ()):
        if token.kind is not TokenKind.WORD:
            continue
        if token.text in SUBJECT_PRONOUNS:
            break
        if token.text in THIRD_PERSON:
            holder = Subject(token.text, token.surface, frozenset((index,)))
            break
        if token.text in POSSESSIVE_PRONOUNS or _the_relatives(tokens, index):
            holder = _possessed(tokens, index)
            break
    if holder.holder and not holder.name:
        holder = _with_name(tokens, holder)
    return Subject(
        holder.holder,
        holder.surface,
        holder.tokens,
        _introduced(tokens),
        "" if holder.name else _named(tokens),
        holder.name,
    )


def _the_relatives(tokens: Sequence[Token], index: int) -> bool:
    """ "the dog's vet", "the kids' school": "the" before a relative's possessive is "our"."""
    if tokens[index].text != "the" or index + 2 >= len(tokens):
        return False
    return (
        relation(tokens[index + 1]) is not None and tokens[index + 2].kind is TokenKind.POSSESSIVE
    )


def _name_like(token: Token | None) -> bool:
    """A word that can be a person's name: no word the lexicon knows, no function word."""
    return (
        token is not None
        and token.kind is TokenKind.WORD
        and token.text.isalpha()
        and token.text not in STOP_WORDS
        and token.text not in _NO_NAMES  # "my mum never eats meat": no mum called Never
        and not is_known(token.text)
        and token.text not in lexicon.RELATIONS  # "Pete" is a name, though "pet" is kin
        and (token.capitalised or relation(token) is None)
        and not lexicon.groups_of(canonical(token.text))
    )


def _verb_like(token: Token | None) -> bool:
    """What follows a name that is the subject: "'s", "is", "has", "lives", "moved"."""
    if token is None:
        return False
    if token.kind is TokenKind.POSSESSIVE:
        return True
    word = token.text
    return token.kind is TokenKind.WORD and (
        word in COPULAS
        or word in _AUXILIARIES
        or word in lexicon.CHANGES
        or word in lexicon.NEGATING_CHANGES
        or verb_ending(word)
    )


def verb_ending(word: str, past_from: int = 5) -> bool:
    """ "lives", "moved": a verb's ending, which a name written small rarely has; a past in
    "-ed" counts from ``past_from`` letters ("used" is one from four, not from five)."""
    present = word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3
    return present or (word.endswith("ed") and len(word) >= past_from)


def _with_name(tokens: Sequence[Token], holder: Subject) -> Subject:
    """ "my friend Alice lives ...", "my friend tom's phone": the name after the relation."""
    end = max(holder.tokens) + 1
    candidate = tokens[end] if end < len(tokens) else None
    following = tokens[end + 1] if end + 1 < len(tokens) else None
    if candidate is None or not _name_like(candidate):
        return holder
    written_as_name = candidate.capitalised and not candidate.initial
    # Written small, a word after "my dentist" is what it is for ("my dentist appointment").
    service = holder.relative in lexicon.SERVICE_RELATIONS
    no_name_before_a_verb = verb_ending(candidate.text) or not _verb_like(following)
    if not written_as_name and (service or no_name_before_a_verb):
        return holder
    taken = {end}
    if following is not None and following.kind is TokenKind.POSSESSIVE:
        taken.add(end + 1)
    return Subject(
        holder.holder,
        f"{holder.surface} {candidate.surface}",
        holder.tokens | frozenset(taken),
        name=candidate.text,
    )


def _fronted(tokens: Sequence[Token]) -> Subject | None:
    """ "sam my partner is a nurse", "Priya, my coworker, sits ...", "patel next door": a name
    first, then who the person is to the speaker."""
    words = [index for index, token in enumerate(tokens) if token.kind is not TokenKind.BREAK]
    if len(words) < 3 or not _name_like(tokens[words[0]]):
        return None
    first, after = words[0], words[1]
    if tokens[after].text in POSSESSIVE_PRONOUNS:
        path = _possessed(tokens, after)
    elif (kin := relation(tokens[after])) is not None:
        path = Subject(kin, tokens[after].surface, frozenset((after,)))
    else:
        return None
    if not path.holder:
        return None
    name = tokens[first]
    return Subject(
        path.holder,
        f"{name.surface} ({path.surface})",
        path.tokens | frozenset(range(first, max(path.tokens) + 1)),
        name=name.text,
    )


def _introduced(tokens: Sequence[Token]) -> str:
    """The relative in "I have a cat named Luna" or "I have a brother who lives in Paris"."""
    words = [token for token in tokens if token.kind is TokenKind.WORD]
    for index, token in enumerate(words[:-2]):
        if token.text not in SUBJECT_PRONOUNS:
            continue
        if lexicon.IRREGULAR.get(words[index + 1].text, words[index + 1].text) != "have":
            return ""
        position = index + 2
        modifiers: list[str] = []
        while position < len(words) and (
            words[position].text in _ARTICLES or words[position].text in lexicon.RELATION_MODIFIERS
        ):
            if words[position].text in lexicon.RELATION_MODIFIERS:
                modifiers.append(lexicon.RELATION_MODIFIERS[words[position].text])
            position += 1
        kin = relation(words[position]) if position < len(words) else None
        following = words[position + 1].text if position + 1 < len(words) else ""
        if kin is None or following not in _INTRODUCING:
            return ""
        return " ".join((*modifiers, kin))
    return ""


def _possessed(tokens: Sequence[Token], start: int) -> Subject:
    """Read "my [older] brother['s wife]": a relation is the holder, a thing stays the speaker's."""
    path: list[str] = []
    position = start + 1
    while True:
        modifiers: list[str] = []
        while position < len(tokens) and tokens[position].text in lexicon.RELATION_MODIFIERS:
            modifiers.append(lexicon.RELATION_MODIFIERS[tokens[position].text])
            position += 1
        kin = relation(tokens[position]) if position < len(tokens) else None
        if kin is None:
            break
        path.append(" ".join((*modifiers, kin)))
        position += 1
        if position < len(tokens) and tokens[position].kind is TokenKind.POSSESSIVE:
            position += 1
            continue
        break
    if not path:
        return SPEAKER
    surface = "".join(
        token.surface if token.kind is TokenKind.POSSESSIVE or not index else f" {token.surface}"
        for index, token in enumerate(tokens[start:position])
    )
    return Subject("'s ".join(path), surface, frozenset(range(start, position)))


def _named(tokens: Sequence[Token]) -> str:
    """A first word followed by a verb in a fact with no first person in it, that is a name:
    capitalised and no word the lexicon knows, or said again later as the word it also is."""
    words = [token for token in tokens if token.kind is not TokenKind.BREAK]
    if len(words) < 2 or any(token.text in FIRST_PERSON for token in words):
        return ""
    first, second = words[0], words[1]
    if first.text in STOP_WORDS or first.text in lexicon.NEGATIONS or relation(first) is not None:
        return ""
    # A name that is also a word is told by being said again as the word: "Bill pays the gas
    # bill", "rose waters the roses", "mark marks the pitch".
    said_again = (
        not lexicon.ancestors(first.text)
        and any(  # "milk goes in the milk jug"
            stem(token.text) == stem(first.text) for token in words[1:]
        )
    )
    if not (first.capitalised and not is_known(first.text)) and not said_again:
        return ""
    verb_like = (
        second.kind is TokenKind.POSSESSIVE
        or second.text in COPULAS
        or (second.text.endswith("s") and second.text not in STOP_WORDS)
    )
    return canonical(first.text) if verb_like else ""
