"""The small words of English, and words compared by their stem. Pure.

Function words are a closed class (pronouns, determiners, auxiliaries, prepositions,
conjunctions, fillers), so they are listed here in full. The stop-word lists on the package index
were tried and do not fit: they also hold content words ("home", "work", "keys", "computer",
numbers), which a fact must not lose. Stems come from the Snowball English stemmer.
"""

from __future__ import annotations

import functools
import re
from difflib import SequenceMatcher
from typing import Any

import snowballstemmer

FUNCTION_WORDS = frozenset(
    """
    i me my mine myself we us our ours ourselves you your yours yourself yourselves he him his
    himself she her hers herself it its itself they them their theirs themselves
    a an the this that these those some any each every all both either another other such
    is are am was were be been being 's 're 'm 've 'd 'll
    have has had having do does did doing done
    will would shall should can could may might must
    i'm i've i'll i'd you're you've you'll you'd he's she's it's we're we've we'll they're
    they've that's there's what's who's let's
    to of in on at by for with from into onto about as than then so too very just also really
    actually quite basically literally
    and or but if because while when where what which who whom whose how why there here
    um uh er erm hmm oh ok okay yeah yes gonna wanna gotta
    called named
    """.split()
)
"""Words that carry no fact of their own: "my favourite editor is then" says nothing about which."""

NEGATIONS = frozenset(
    """
    no not never nothing nobody nowhere none neither nor
    don't doesn't didn't isn't aren't wasn't weren't haven't hasn't hadn't won't wouldn't
    can't cannot couldn't shouldn't mustn't dont doesnt didnt isnt arent wasnt cant wont
    """.split()
)
"""Words that turn a statement round: they count as content, on both sides of a comparison."""

QUESTION_START = re.compile(
    r"(?:what|what's|who|where|when|why|how|which|can|could|would|will|do|does|did|is|are|"
    r"should|tell me|please)\b",
    re.I,
)
"""How a question or a request begins; a transcript may lack its question mark."""

_WORD = re.compile(r"[\w]+(?:'[\w]+)?")
_FUZZY_MIN_STEM = 5
_FUZZY_RATIO = 0.85
"""Spelling variants ("favourite" / "favorite") match; short words and numbers must be exact."""


def words(text: str) -> list[str]:
    """The words of ``text``, lower case, curly apostrophes made straight."""
    return _WORD.findall(text.casefold().replace("\u2019", "'"))


def is_question(sentence: str) -> bool:
    """True for a question or a request, with its question mark or without."""
    sentence = sentence.strip()
    return sentence.endswith("?") or QUESTION_START.match(sentence) is not None


def is_function_word(word: str) -> bool:
    """True for a word that states nothing by itself (negations state something)."""
    return word.casefold() in FUNCTION_WORDS


def content_words(tokens: list[str]) -> list[str]:
    """The words of a statement that carry its facts (negations included)."""
    return [token for token in tokens if token not in FUNCTION_WORDS]


@functools.cache
def stem(word: str) -> str:
    """The Snowball stem of a word without its possessive ("sister's" -> "sister")."""
    word = word.removesuffix("'s").removesuffix("'")
    return _stemmer().stemWord(word)


def same_word(a: str, b: str) -> bool:
    """The same word, inflected or spelt another way ("lives" / "living", "colour" / "color")."""
    stem_a, stem_b = stem(a), stem(b)
    if stem_a == stem_b:
        return True
    if min(len(stem_a), len(stem_b)) < _FUZZY_MIN_STEM or not (a + b).isalpha():
        return False
    return SequenceMatcher(None, stem_a, stem_b).ratio() >= _FUZZY_RATIO


@functools.cache
def _stemmer() -> Any:
    return snowballstemmer.stemmer("english")
