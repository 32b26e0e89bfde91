"""Content terms: what a word of a fact becomes once read, and its canonical spelling."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache

from memory.judging import lexicon
from memory.judging.words import stem

# Words the lexicon spells out; their inflections are read back to them ("lives" -> "live").
_KNOWN_FORMS = (
    frozenset(lexicon.HYPERNYMS)
    | frozenset(parent for parents in lexicon.HYPERNYMS.values() for parent in parents)
    | frozenset(lexicon.EXCLUSIVE_GROUPS)
    | frozenset(lexicon.SYNONYMS.values())
    | frozenset(lexicon.IRREGULAR.values())
    | frozenset(lexicon.IMPLIED_NEGATIONS)
    | frozenset(word for words in lexicon.IMPLIED_NEGATIONS.values() for word in words)
    | lexicon.EXCLUDING
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
    maybe_name: bool = False
    """A word written small where a name stands ("in leeds"): a name against a name."""
    groups: tuple[str, ...] = ()
    clause: int = 0
    """Negated terms: which negation they fall under (each implied negation has its own)."""
    possessed: bool = False
    """Said as "my X" (a thing of the speaker's, not a relative)."""
    in_subject: bool = False
    """Part of X in an "X is Y" statement ("blood type" in "My blood type is A")."""
    position: int = 0
    """Order of the term in its fact."""
    at: int = field(default=0, compare=False)
    """Index of its token in the fact (``Reading.said_tokens``): what stands between two terms."""

    @property
    def is_value(self) -> bool:
        """Whether the term fills a slot (a name, number, time or group member) and is no word."""
        return self.kind is not TermKind.WORD

    @property
    def is_party(self) -> bool:
        """Whether the term can be a side of a relation, who or what does or is compared (a
        name or a word), not a number, a time or a group member."""
        return self.kind in (TermKind.NAME, TermKind.WORD)


@lru_cache(maxsize=16384)
def canonical(word: str) -> str:
    """A lowercase word's canonical form: its synonym, the lexicon word it inflects, or its stem.

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


def is_known(word: str) -> bool:
    """Whether the lexicon knows the word, so a capital on it at a sentence start is no name."""
    return word in _KNOWN


def groups(word: str) -> tuple[str, ...]:
    """Exclusive groups of a word, or of what it is a kind of (a Pixel is an Android phone)."""
    own = lexicon.groups_of(word)
    inherited = [group for parent in lexicon.ancestors(word) for group in lexicon.groups_of(parent)]
    slotless = [group for group in inherited if group not in lexicon.SLOT_GROUPS]
    return tuple(dict.fromkeys((*own, *slotless)))
