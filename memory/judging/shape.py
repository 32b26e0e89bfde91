"""What shape of statement a fact is: "X is Y", "I am a ...", or a request to the assistant.

These read the tokens of one fact and nothing else.
"""

from __future__ import annotations

from itertools import pairwise

from memory.judging import lexicon
from memory.judging.subject import FIRST_PERSON
from memory.judging.terms import canonical
from memory.judging.words import COPULAS, STOP_WORDS, SUBJECT_PRONOUNS, Token, TokenKind, stem

# The speaker as the one who is or does something (not "my", which may introduce a thing).
_SPEAKER = frozenset("i we me us".split())
# Second words of a request to the assistant: "Call me...", "Keep your answers short".
_ADDRESSED = frozenset("me your us".split())


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
    """ "I am a nurse", "my partner is a nurse": the speaker, then a form of "be"; or the
    first "be" of the fact, then an article."""
    words = [token.text for token in tokens if token.kind is TokenKind.WORD]
    if any(first in SUBJECT_PRONOUNS and second in COPULAS for first, second in pairwise(words)):
        return True
    copula = next((index for index, word in enumerate(words) if word in COPULAS), None)
    return copula is not None and words[copula + 1 : copula + 2] in (["a"], ["an"])


def is_request(tokens: list[Token]) -> bool:
    """An instruction to the assistant: "Keep your answers short", "Don't call me before 9"."""
    words = [token for token in tokens if token.kind is TokenKind.WORD and token.text != "please"]
    if not words:
        return False
    first = words[0]
    second = words[1].text if len(words) > 1 else ""
    starts_like_verb = first.text not in FIRST_PERSON and (
        canonical(first.text) in lexicon.LIGHT_VERBS or first.text in ("no", "never", "always")
    )
    return starts_like_verb or (first.text not in FIRST_PERSON and second in _ADDRESSED)
