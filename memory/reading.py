"""Reading a fact: who it is about, its content terms, what is negated, felt, ranked or changed.

A reading is a flat, comparable summary of one short fact; ``memory.similarity`` compares two of
them. Only general English patterns are read; nothing here knows any particular fact.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache

from memory import lexicon
from memory.words import (
    COPULAS,
    PREPOSITIONS,
    STOP_WORDS,
    SUBJECT_PRONOUNS,
    Token,
    TokenKind,
    stem,
    tokenize,
)

SELF = ""
"""The holder of a fact about the speaker."""

# Words that end a clause, and with it a negation's reach.
_CLAUSE_ENDS = frozenset("but although though because while whereas except so".split())
_POSSESSIVE_PRONOUNS = frozenset(("my", "our"))
_THIRD_PERSON = frozenset(("he", "she", "they"))
_FIRST_PERSON = frozenset("i we me us my our mine ours myself".split())
_SPEAKER = frozenset("i we me us".split())
# Words the lexicon spells out; their inflections are read back to them ("lives" -> "live").
_KNOWN_FORMS = (
    frozenset(lexicon.HYPERNYMS)
    | frozenset(parent for parents in lexicon.HYPERNYMS.values() for parent in parents)
    | frozenset(lexicon.EXCLUSIVE_GROUPS)
    | frozenset(lexicon.SYNONYMS.values())
    | frozenset(lexicon.IRREGULAR.values())
    | lexicon.FUNCTIONAL
    | lexicon.GENERIC
    | lexicon.LIGHT_VERBS
)
_BY_STEM = {stem(word): word for word in sorted(_KNOWN_FORMS, key=len, reverse=True)}
# Words whose meaning the lexicon knows, so a capital on them at a sentence start is no name.
_KNOWN = (
    _KNOWN_FORMS
    | lexicon.words_in((lexicon.SYNONYMS, lexicon.IRREGULAR, lexicon.SENTIMENT))
    | lexicon.CHANGES
)
_LIVE = "live"
_LEAVE_FOR = frozenset(("to", "back", "abroad", "away", "in", "into", "out"))


class TermKind(StrEnum):
    """What a content term is."""

    WORD = "word"
    NAME = "name"
    NUMBER = "number"
    TIME = "time"
    GROUP = "group"
    """A member of an exclusive group (a weekday, an operating system, short/long)."""


@dataclass(frozen=True)
class Term:
    """One content word of a fact, in canonical form."""

    text: str
    surface: str
    kind: TermKind
    slot: str = ""
    """The preposition before it in its clause ("in" for Lisbon in "I live in Lisbon")."""
    certain: bool = True
    """For names: False when the only sign is a capital at the start of a sentence."""
    groups: tuple[str, ...] = ()

    @property
    def is_value(self) -> bool:
        """Whether the term fills a slot (a name, number, time or group member) and is no word."""
        return self.kind is not TermKind.WORD


@dataclass(frozen=True)
class Reading:
    """What one fact says, ready to compare with another."""

    text: str
    holder: str
    """Who the fact is about: SELF, or a relation such as "sister" or "older brother"."""
    holder_surface: str
    terms: tuple[Term, ...]
    """Content said positively."""
    negated: tuple[Term, ...]
    """Content inside a negation ("alcohol" in "I don't drink alcohol")."""
    sentiment: int = 0
    """+1 likes, -1 dislikes, 0 says nothing about feelings."""
    order: tuple[str, str] | None = None
    """A ranking, preferred first ("tabs over spaces")."""
    change: str = ""
    """A word saying the state changed ("moved", "now"), as written."""
    functional: bool = False
    """An "X is Y" statement about a thing or a person other than the speaker: one value only."""
    maybe_subject: str = ""
    """A capitalised first word that may name a third person ("Tom is a doctor")."""
    consumed: frozenset[int] = field(default=frozenset(), repr=False)

    @property
    def content(self) -> tuple[Term, ...]:
        """Every content term, positive and negated."""
        return self.terms + self.negated


def canonical(word: str) -> str:
    """The canonical form of a lowercase word: its synonym, the lexicon word it inflects, or its stem.

    "lives" gives "live" and "wines" gives "wine" (words the lexicon knows keep their spelling, so
    they compare with its tables); other words give their stem ("practices" gives "practic").
    """
    base = lexicon.IRREGULAR.get(word, word)
    synonym = lexicon.SYNONYMS.get(word) or lexicon.SYNONYMS.get(base)
    if synonym:
        return synonym
    if base in _KNOWN_FORMS:
        return base
    stemmed = stem(base)
    known = _BY_STEM.get(stemmed) if stemmed != base else None
    return lexicon.SYNONYMS.get(stemmed) or known or stemmed


@lru_cache(maxsize=8192)
def read(text: str) -> Reading:
    """Read one fact. Pure and cached: the same text always gives the same reading."""
    tokens = _apply_phrases(_split_hyphens(tokenize(text)))
    holder, holder_surface, consumed = _holder(tokens)
    walker = _Walker(tokens, consumed)
    walker.walk()
    return Reading(
        text=text,
        holder=holder,
        holder_surface=holder_surface,
        terms=tuple(walker.terms),
        negated=tuple(walker.negated),
        sentiment=walker.sentiment,
        order=walker.order,
        change=walker.change,
        functional=_is_functional(tokens, consumed),
        maybe_subject=_maybe_subject(tokens),
        consumed=frozenset(consumed),
    )


def _base(token: Token) -> str:
    word = lexicon.IRREGULAR.get(token.text, token.text)
    return stem(word)


def _split_hyphens(tokens: tuple[Token, ...]) -> list[Token]:
    """Split hyphenated words the lexicon does not know ("ex-wife", "part-time")."""
    split: list[Token] = []
    for token in tokens:
        if token.kind is not TokenKind.WORD or "-" not in token.text or token.text in _KNOWN:
            split.append(token)
            continue
        for index, part in enumerate(token.text.split("-")):
            split.append(
                Token(part, part, TokenKind.WORD, token.capitalised, token.initial and not index)
            )
    return split


def _apply_phrases(tokens: list[Token]) -> list[Token]:
    """Replace multi-word expressions ("can't stand", "night owl") with their single tokens."""
    longest = max(len(phrase) for phrase in lexicon.PHRASES)
    result: list[Token] = []
    index = 0
    while index < len(tokens):
        for size in range(longest, 1, -1):
            window = tokens[index : index + size]
            key = _phrase_key(window)
            if len(window) == size and key is not None:
                surface = " ".join(token.surface for token in window)
                initial = window[0].initial
                result.extend(
                    Token(word, surface, TokenKind.WORD, initial=initial)
                    for word in lexicon.PHRASES[key]
                )
                index += size
                break
        else:
            result.append(tokens[index])
            index += 1
    return result


def _phrase_key(window: list[Token]) -> tuple[str, ...] | None:
    """The phrase the window spells, matching each word as written or by its base form."""
    if not window or any(token.kind is not TokenKind.WORD for token in window):
        return None
    for choice in _choices(window):
        if choice in lexicon.PHRASES:
            return choice
    return None


def _choices(window: list[Token]) -> list[tuple[str, ...]]:
    """Every spelling of the window, each word as written or as its base form."""
    choices: list[tuple[str, ...]] = [()]
    for token in window:
        forms = {token.text, _base(token), lexicon.IRREGULAR.get(token.text, token.text)}
        choices = [choice + (form,) for choice in choices for form in forms]
    return choices


def _relation(token: Token) -> str | None:
    if token.kind is not TokenKind.WORD:
        return None
    return lexicon.lookup(lexicon.RELATIONS, token.text, stem(token.text))


def _holder(tokens: list[Token]) -> tuple[str, str, set[int]]:
    """Who the fact is about, its words as written, and the token positions that said so."""
    for index, token in enumerate(tokens):
        if token.kind is not TokenKind.WORD:
            continue
        if token.text in SUBJECT_PRONOUNS:
            return SELF, "I", set()
        if token.text in _THIRD_PERSON:
            return token.text, token.surface, {index}
        if token.text in _POSSESSIVE_PRONOUNS:
            return _possessed_holder(tokens, index)
    return SELF, "I", set()


def _possessed_holder(tokens: list[Token], start: int) -> tuple[str, str, set[int]]:
    """Read "my [older] brother['s wife]": a relation is the holder, a thing stays the speaker's."""
    path: list[str] = []
    position = start + 1
    while True:
        modifiers: list[str] = []
        while position < len(tokens) and tokens[position].text in lexicon.RELATION_MODIFIERS:
            modifiers.append(lexicon.RELATION_MODIFIERS[tokens[position].text])
            position += 1
        relation = _relation(tokens[position]) if position < len(tokens) else None
        if relation is None:
            break
        path.append(" ".join((*modifiers, relation)))
        position += 1
        if position < len(tokens) and tokens[position].kind is TokenKind.POSSESSIVE:
            position += 1
            continue
        break
    if not path:
        return SELF, "I", set()
    surface = " ".join(token.surface for token in tokens[start:position])
    return "'s ".join(path), surface, set(range(start, position))


def _is_functional(tokens: list[Token], consumed: set[int]) -> bool:
    """An "X is Y" statement whose subject is not the speaker: X has one value at a time."""
    for index, token in enumerate(tokens):
        if token.kind is not TokenKind.WORD:
            continue
        if token.text in _SPEAKER:
            return False
        if token.text in COPULAS and token.text != "am":
            before = tokens[:index]
            return bool(consumed) or any(
                other.kind is TokenKind.WORD and other.text not in STOP_WORDS for other in before
            )
    return False


def _maybe_subject(tokens: list[Token]) -> str:
    """A capitalised first word followed by a verb in a fact with no first person in it."""
    words = [token for token in tokens if token.kind is not TokenKind.BREAK]
    if len(words) < 2 or any(token.text in _FIRST_PERSON for token in words):
        return ""
    first, second = words[0], words[1]
    if not first.capitalised or first.text in STOP_WORDS or _relation(first) is not None:
        return ""
    verb_like = (
        second.kind is TokenKind.POSSESSIVE
        or second.text in COPULAS
        or (second.text.endswith("s") and second.text not in STOP_WORDS)
    )
    return canonical(first.text) if verb_like else ""


class _Walker:
    """One pass over the tokens, collecting terms with their negation, feeling and ranking."""

    def __init__(self, tokens: list[Token], consumed: set[int]) -> None:
        self.tokens = tokens
        self.consumed = consumed
        self.terms: list[Term] = []
        self.negated: list[Term] = []
        self.sentiment = 0
        self.order: tuple[str, str] | None = None
        self.change = ""
        self._slot = ""
        self._negating = False
        self._negation_fresh = False
        self._preferring = False
        self._pending_order: tuple[str, bool] | None = None
        self._last_content: Term | None = None

    def walk(self) -> None:
        for index, token in enumerate(self.tokens):
            if index in self.consumed or token.kind is TokenKind.POSSESSIVE:
                continue
            if token.kind is TokenKind.BREAK or token.text in _CLAUSE_ENDS:
                self._end_clause()
            elif token.kind is TokenKind.TIME:
                self._add(Term(token.text, token.surface, TermKind.TIME, self._slot))
            elif token.kind is TokenKind.NUMBER:
                self._add(self._number(token))
            else:
                self._word(index, token)

    def _end_clause(self) -> None:
        self._slot = ""
        self._negating = False
        self._pending_order = None
        self._last_content = None

    def _number(self, token: Token) -> Term:
        # "at 7" is a clock time, and compares with "at 7am".
        if self._slot == "at" and token.text.isdigit() and 1 <= int(token.text) <= 12:
            return Term(f"{token.text}:00", token.surface, TermKind.TIME, self._slot)
        return Term(token.text, token.surface, TermKind.NUMBER, self._slot)

    def _word(self, index: int, token: Token) -> None:
        word = token.text
        if word in lexicon.ORDER_MARKERS:
            self._order_marker(index, word)
        elif word in PREPOSITIONS:
            if word == "to" and self._preferring and self._last_content is not None:
                self._pending_order = (self._last_content.text, True)
            self._slot = word
        elif word in lexicon.NEGATIONS:
            self._negate()
            if word == "without":
                self._slot = "with"
        elif word in lexicon.NEGATING_CHANGES:
            self._negate()
            self.change = token.surface
        elif word in lexicon.CHANGES and not (token.capitalised and not token.initial):
            self.change = token.surface
            if word == "moved" and self._moved_home(index):
                self._add(Term(_LIVE, token.surface, TermKind.WORD))
        elif (feeling := lexicon.lookup(lexicon.SENTIMENT, word, stem(word))) is not None:
            self._feel(feeling, canonical(word))
        elif word not in STOP_WORDS:
            self._content(token)

    def _negate(self) -> None:
        self._negating = True
        self._negation_fresh = True

    def _feel(self, feeling: int, word: str) -> None:
        # "don't like" is a dislike, not a negated like: the negation is spent on the feeling.
        if self._negating and self._negation_fresh:
            feeling = -feeling
            self._negating = False
        self.sentiment = feeling
        self._preferring = word.startswith("prefer")

    def _order_marker(self, index: int, word: str) -> None:
        following = self.tokens[index + 1] if index + 1 < len(self.tokens) else None
        if self._last_content is None or following is None or following.kind is not TokenKind.WORD:
            return
        self._pending_order = (self._last_content.text, lexicon.ORDER_MARKERS[word])

    def _moved_home(self, index: int) -> bool:
        """ "I moved to Porto": a person moving says where they live; a meeting moving does not."""
        before = self.tokens[index - 1] if index else None
        after = self.tokens[index + 1] if index + 1 < len(self.tokens) else None
        by_person = before is not None and (
            before.text in SUBJECT_PRONOUNS or before.text in _THIRD_PERSON or index - 1 in self.consumed
        )
        return by_person and after is not None and after.text in _LEAVE_FOR

    def _content(self, token: Token) -> None:
        word = canonical(token.text)
        if word in lexicon.LIGHT_VERBS and not (token.capitalised and not token.initial):
            return
        groups = lexicon.groups_of(word)
        if word in lexicon.AMBIGUOUS_MONTHS and not token.capitalised:
            groups = ()
        if groups:
            term = Term(word, token.surface, TermKind.GROUP, self._slot, groups=groups)
        elif token.capitalised and not (token.initial and token.text in _KNOWN):
            term = Term(word, token.surface, TermKind.NAME, self._slot, certain=not token.initial)
        else:
            term = Term(word, token.surface, TermKind.WORD, self._slot)
        self._add(term)

    def _add(self, term: Term) -> None:
        if self._negating:
            self.negated.append(term)
        else:
            self.terms.append(term)
        self._negation_fresh = False
        if self._pending_order is not None and term.kind in (TermKind.WORD, TermKind.NAME):
            left, left_first = self._pending_order
            self.order = (left, term.text) if left_first else (term.text, left)
            self._pending_order = None
        self._last_content = term
