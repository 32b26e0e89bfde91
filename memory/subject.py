"""Who a fact is about, and what shape of statement it is ("X is Y", "I am a ...", a request).

All of these read the tokens of one fact and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from memory import lexicon
from memory.terms import canonical, is_known
from memory.words import COPULAS, STOP_WORDS, SUBJECT_PRONOUNS, Token, TokenKind, stem

SELF = ""
"""The holder of a fact about the speaker."""

POSSESSIVE_PRONOUNS = frozenset(("my", "our"))
THIRD_PERSON = frozenset(("he", "she", "they"))
_FIRST_PERSON = frozenset("i we me us my our mine ours myself".split())
# The speaker as the one who is or does something (not "my", which may introduce a thing).
_SPEAKER = frozenset("i we me us".split())
# Second words of a request to the assistant: "Call me...", "Keep your answers short".
_ADDRESSED = frozenset("me your us".split())
_ARTICLES = frozenset(("a", "an", "one"))
# Words after "I have a sister" that go on to describe her rather than the speaker.
_INTRODUCING = frozenset("called named who whose that which".split())


@dataclass(frozen=True)
class Holder:
    """Who a fact is about."""

    name: str
    """SELF, or a relation such as "sister", "older brother", "brother's wife"."""
    surface: str
    """As written ("my sister"), for explanations; "I" for the speaker."""
    tokens: frozenset[int]
    """Positions of the tokens that said who (they are not content)."""


_SPEAKER_HOLDER = Holder(SELF, "I", frozenset())


def relation(token: Token) -> str | None:
    """The canonical relative a word names ("mum" -> "mother"), or None."""
    if token.kind is not TokenKind.WORD:
        return None
    return lexicon.lookup(lexicon.RELATIONS, token.text, stem(token.text))


def holder(tokens: list[Token]) -> Holder:
    """Who the fact is about: the first of "I", "he/she/they" or "my <relative>"; else the
    speaker (a fact with no subject, such as "Database is Postgres", is the speaker's)."""
    for index, token in enumerate(tokens):
        if token.kind is not TokenKind.WORD:
            continue
        if token.text in SUBJECT_PRONOUNS:
            return _SPEAKER_HOLDER
        if token.text in THIRD_PERSON:
            return Holder(token.text, token.surface, frozenset((index,)))
        if token.text in POSSESSIVE_PRONOUNS:
            return _possessed_holder(tokens, index)
    return _SPEAKER_HOLDER


def introduced(tokens: list[Token]) -> str:
    """The relative in "I have a cat named Luna" or "I have a brother who lives in Paris".

    Such a fact is about the speaker (who has a cat) and about the relative (named Luna) at once.
    """
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


def _possessed_holder(tokens: list[Token], start: int) -> Holder:
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
        return _SPEAKER_HOLDER
    surface = "".join(
        token.surface if token.kind is TokenKind.POSSESSIVE or not index else f" {token.surface}"
        for index, token in enumerate(tokens[start:position])
    )
    return Holder("'s ".join(path), surface, frozenset(range(start, position)))


def subject_copula(tokens: list[Token], consumed: frozenset[int]) -> int:
    """Where "is" falls in an "X is Y" statement whose X is not the speaker, else -1.

    Such an X has one value at a time: "My phone is an iPhone", "My brother is called Tom".
    """
    for index, token in enumerate(tokens):
        if token.kind is not TokenKind.WORD:
            continue
        if token.text in _SPEAKER:
            return -1
        if token.text in COPULAS and token.text != "am":
            following = tokens[index + 1] if index + 1 < len(tokens) else None
            if following is not None and _progressive(following):
                return -1  # "My sister is flying to Paris": a verb, not "X is Y"
            before = tokens[:index]
            subject = bool(consumed) or any(
                other.kind is TokenKind.WORD and other.text not in STOP_WORDS for other in before
            )
            return index if subject else -1
    return -1


def _progressive(token: Token) -> bool:
    """ "is flying", "is getting married": a verb after "is", read from the words as written."""
    written = token.surface.split()[0].lower() if token.surface else token.text
    return (
        token.kind is TokenKind.WORD
        and written.endswith("ing")
        and stem(written) != written
        and canonical(written) not in lexicon.GROUP_WORDS
    )


def is_identity(tokens: list[Token]) -> bool:
    """ "I am a nurse": the speaker, then a form of "be"."""
    words = [token.text for token in tokens if token.kind is TokenKind.WORD]
    return any(first in SUBJECT_PRONOUNS and second in COPULAS for first, second in pairwise(words))


def is_request(tokens: list[Token]) -> bool:
    """An instruction to the assistant: "Keep your answers short", "Don't call me before 9"."""
    words = [token for token in tokens if token.kind is TokenKind.WORD and token.text != "please"]
    if not words:
        return False
    first = words[0]
    second = words[1].text if len(words) > 1 else ""
    starts_like_verb = first.text not in _FIRST_PERSON and (
        canonical(first.text) in lexicon.LIGHT_VERBS or first.text in ("no", "never", "always")
    )
    return starts_like_verb or (first.text not in _FIRST_PERSON and second in _ADDRESSED)


def maybe_subject(tokens: list[Token]) -> str:
    """A capitalised first word followed by a verb in a fact with no first person in it."""
    words = [token for token in tokens if token.kind is not TokenKind.BREAK]
    if len(words) < 2 or any(token.text in _FIRST_PERSON for token in words):
        return ""
    first, second = words[0], words[1]
    if not first.capitalised or first.text in STOP_WORDS or is_known(first.text):
        return ""
    if first.text in lexicon.NEGATIONS or relation(first) is not None:
        return ""
    verb_like = (
        second.kind is TokenKind.POSSESSIVE
        or second.text in COPULAS
        or (second.text.endswith("s") and second.text not in STOP_WORDS)
    )
    return canonical(first.text) if verb_like else ""
