"""Names, numbers and values as a fact writes them: which words name someone, how a name is
written, a number's place in a list or its count, a value as typed."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory.judging import lexicon
from memory.judging.reading import Reading
from memory.judging.terms import Term, TermKind, is_known
from memory.judging.words import (
    COPULAS,
    STOP_WORDS,
    stem,
    undashed_digits,
)


def digits_reordered(new: Reading, old: Reading) -> bool:
    """ "My phone number is 07700 900123" / "... 900123 07700": numbers said one after another
    are one value, its groups in their order."""
    runs = [[run for run in _number_runs(reading) if len(run) > 1] for reading in (new, old)]
    groups = [sorted(tuple(sorted(run)) for run in side) for side in runs]
    return bool(runs[0]) and groups[0] == groups[1] and runs[0] != runs[1]


def _number_runs(reading: Reading) -> list[tuple[str, ...]]:
    """The numbers of a fact, those said one straight after another in one run."""
    runs: list[list[str]] = []
    previous = False
    for word in reading.said_tokens:
        number = word[:1].isdigit()
        if number and previous:
            runs[-1].append(word)
        elif number:
            runs.append([word])
        previous = number
    return [tuple(run) for run in runs]


def in_place_of(reading: Reading, other: Reading) -> bool:
    """ "wine instead of beer" / "wine and beer", "the quiz instead of Pete" / "the quiz with
    Pete": one thing in place of another, and in the other fact no choice at all ("rather than",
    "over" say it too)."""
    return bool(_INSTEAD.search(reading.text)) and not _CHOSEN.search(other.text)


_INSTEAD = re.compile(r"\b(?:instead of|in place of)\b", re.I)
_CHOSEN = re.compile(r"\b(?:instead of|in place of|rather than|over|than)\b", re.I)


def as_written(term: Term) -> str:
    """A value as typed: a number as its digits (however it was said), a word letter for letter."""
    return term.text if term.kind in UNKEYED else letters_and_digits(term.surface)


def in_order(terms: Sequence[Term]) -> list[Term]:
    """Terms in the order the fact says them."""
    return sorted(terms, key=lambda term: term.at)


def typed_value(text: str) -> str:
    """The value of an "X is Y" fact or an "X: Y" note as written, without the full stop that
    ends the sentence ("jo.smith@outlook.com", "1234#")."""
    note = NOTE_FORM.match(text)
    value = note[2] if note is not None else re.split(r"\b(?:is|are)\b|'s\b|'re\b", text)[-1]
    return undashed_digits(value.strip().rstrip(".?").strip())


NOTE_FORM = re.compile(r"^\s*([^:]*[^:\d\s])\s*:\s*(\S.*)$", re.DOTALL)
"""A note, "Door code: 1234#": the attribute, a colon that is no clock time's, the value."""


def letters_and_digits(surface: str) -> str:
    """A word's letters and digits, small, without its marks ("O'Neill": "oneill")."""
    return "".join(char for char in surface.lower() if char.isalnum())


MEASURES = frozenset(
    "foot feet inch inches metre metres meter meters cm mm litre litres liter liters ml kilo "
    "kilos kg gram grams pound pounds ounce ounces hour hours minute minutes second seconds day "
    "days week weeks month months year years mile miles km seater bed bedroom storey".split()
)
"""Words a number measures, so a number before it counts things of that size."""


def label_and_count(new: Reading, number: Term, old: Reading, other: Term) -> bool:
    """ "season two" / "2 seasons", "a room for two" / "two rooms": one number after the thing
    it labels (or whom it is for) in one fact, before the same thing it counts in the other."""
    for label, at, count, count_at in (
        (new, number.at, old, other.at),
        (old, other.at, new, number.at),
    ):
        named = token_at(label, at - 1)
        if named == "for":
            named = token_at(label, at - 2)
        counted = token_at(count, count_at + 1)
        if named and counted and named != counted and stem(named) == stem(counted):
            return True
    return False


def spelled(term: Term) -> str:
    """A term as written, small, without a "'s" of whose ("Tom's": "tom")."""
    return re.sub(r"'s?$", "", term.surface.lower())


def a_value_named(reading: Reading, term: Term) -> bool:
    """Whether ``term`` is a thing named at the end of a fact ("is Alien", "watching ghost"):
    its last word, a word or a name, after anything but who does it ("I cook") or "a" ("hates
    a bath" is "hates baths")."""
    before = token_at(reading, term.at - 1)
    # "is Alien", "the Lions", "needs new tyres"; not a thing of a kind felt about ("loves
    # pizzas" is "loves pizza")
    felt = lexicon.lookup(lexicon.SENTIMENT, before, stem(before)) is not None
    named = term.kind is TermKind.NAME or before in ("the", *COPULAS) or not felt
    return (
        named
        and term.kind in (TermKind.WORD, TermKind.NAME)
        and term.at == len(reading.said_tokens) - 1
        and not (term.kind is TermKind.WORD and term.surface.lower() in MEASURES)
        and before not in _NOT_NAMING
        and not before.isdigit()
    )


AFTER_A_NAME = frozenset(("", "is", "are", "was", "were", "has", "have", "and", "will"))
"""Words after a name that is a person's or a family's ("Carlos is", "the Williams are")."""
_NOT_NAMING = frozenset("i we you he she they user a an all every any some of no many".split())
"""Words before a last word that make it no thing named: who does it ("I cook"), a thing of a
kind ("hates a bath", "all nuts", "every kind of nut")."""


def ordinal(surface: str) -> bool:
    """ "3rd", "third", "twentieth": a place in a row, not how many."""
    word = surface.lower()
    return bool(_ORDINAL_DIGITS.fullmatch(word)) or word in _ORDINAL_WORDS or word.endswith("ieth")


def a_thing(word: str) -> bool:
    """A word after a number naming what is counted, not a month nor "of" (a date)."""
    return (
        word.isalpha() and word not in STOP_WORDS and not lexicon.groups_of(word) and word != "of"
    )


_ORDINAL_DIGITS = re.compile(r"\d+(?:st|nd|rd|th)")
_ORDINAL_WORDS = frozenset(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split()
)
INDEFINITE = frozenset(("a", "an"))
OWNING = frozenset("my our your his her their".split())
DETERMINERS = frozenset("the a an my our your his her their this that these those 's".split())


_COUNTING = DETERMINERS | {"both"}
"""Words before a noun that say whether it is one or several ("both grandmas")."""


def noun_said(term: Term, reading: Reading) -> tuple[str, int]:
    """A word term's noun as written and its token's index, when a determiner or an owner
    before it says it is one ("my brothers", "the tickets", "Jack's coach", "both grandmas"),
    or it is one relative said as a name ("Grandma is hosting"); "" otherwise."""
    words = term.surface.lower().split()
    if term.kind is TermKind.WORD:
        if len(words) >= 2 and words[0] in DETERMINERS:  # a subject: "my son's friends"
            tokens = reading.said_tokens
            at = next((i for i in range(term.at, len(tokens)) if tokens[i] == words[-1]), -1)
            return (words[-1], at) if at >= 0 else ("", 0)
        before = token_at(reading, term.at - 1)
        # A relative said as a name is written so, or begins the fact ("grandma is hosting").
        named = (
            term.text in RELATIVES
            and term.text not in lexicon.ANIMALS
            and (term.surface[:1].isupper() or term.at == 0)
        )
        if len(words) == 1 and (before in _COUNTING or (named and not said_plural(words[0]))):
            return words[0], term.at
    return "", 0


def token_at(reading: Reading, index: int) -> str:
    """The said token at ``index``, or "" past either end."""
    tokens = reading.said_tokens
    return tokens[index] if 0 <= index < len(tokens) else ""


_MODIFYING = frozenset((TermKind.WORD, TermKind.GROUP))


def attachments(reading: Reading) -> frozenset[tuple[str, str]]:
    """Each word term said straight before others, with the last of them (its head): "front"
    and "door" to "key" in "the front door key"."""
    pairs: set[tuple[str, str]] = set()
    run: list[Term] = []
    for term in [*sorted(reading.terms, key=lambda t: t.at), None]:
        modifying = term is not None and term.kind in _MODIFYING
        if modifying and (not run or term.at == run[-1].at + 1):
            run.append(term)
            continue
        pairs.update((word.text, run[-1].text) for word in run[:-1])
        run = [term] if modifying else []
    return frozenset(pairs)


_IRREGULAR_PLURALS = {"child": "children"}  # "my child" / "my children", a relative


def plural_of(one: str, many: str) -> bool:
    """Whether ``many`` is the plural of ``one`` ("brother" / "brothers", "baby" / "babies")."""
    if one.endswith(("s", "'")) or not one.isalpha():
        return False
    if many in (one + "s", one + "es") or many == _IRREGULAR_PLURALS.get(one.split("-")[-1]):
        return True
    return one.endswith("y") and many == one[:-1] + "ies"


def said_plural(noun: str) -> bool:
    """Whether a noun of someone or an animal is said in the plural ("kittens", "puppies",
    "children"; not "boss")."""
    if noun in _IRREGULAR_PLURALS.values():
        return True
    return noun.endswith("s") and not noun.endswith(("ss", "'s"))


def names_someone(term: Term) -> bool:
    """A name (written small where a name stands, too) or a relative."""
    return term.kind is TermKind.NAME or term.text in RELATIVES or term.maybe_name


def written_together(text: str, first: str, second: str) -> bool:
    """Whether two words stand together in a text, with at most "and", "or", "&", a comma or an
    article between them; True when the text does not hold both as written (a term read from
    other words: "allergic" from "allergy")."""
    words = [re.escape(first), re.escape(second)]
    if not all(re.search(rf"\b{word}\b", text, re.IGNORECASE) for word in words):
        return True
    between = r"(?:'s)?(?:\s*,)?(?:\s+(?:and|or|&))?(?:\s+(?:the|a|an))?\s*"
    together = rf"\b{words[0]}{between}{words[1]}\b|\b{words[1]}{between}{words[0]}\b"
    return re.search(together, text, re.IGNORECASE) is not None


def one_sort(first_pair: tuple[Term, Term], second_pair: tuple[Term, Term]) -> bool:
    """Two names, two relatives, two numbers, two times, or two things of one kind (a cat and a
    dog; paper and glass), neither a kind of the other (a ThinkPad is a laptop); each a term
    matched with its match in the other fact."""
    first, second = first_pair[0], second_pair[0]
    if first.text in lexicon.ancestors(second.text) or second.text in lexicon.ancestors(first.text):
        return False
    if first.kind in UNKEYED or second.kind in UNKEYED:
        return first.kind is second.kind
    relatives = first.text in RELATIVES and second.text in RELATIVES
    kinds = bool(set(first.groups) & set(second.groups)) or bool(
        lexicon.ancestors(first.text) & lexicon.ancestors(second.text)
    )
    return _named(first_pair, second_pair) or relatives or kinds


def _named(first: tuple[Term, Term], second: tuple[Term, Term]) -> bool:
    """Two names, each a term matched with its match in the other fact, written alike: with a
    capital in either fact ("Tom" / "tom" against "Ann" / "ann"), or small in both and unknown
    to the lexicon ("tom" / "ann"; not "band" against "Radiohead")."""
    style = _name_style(*first)
    return style is not None and style == _name_style(*second)


def _name_style(term: Term, match: Term) -> str | None:
    """How a name is written in the two facts: "capital" in either (the other may write it
    small, a word the lexicon knows: "the Golf" / "the golf"), "small" in both, or None."""
    kinds = (term.kind, match.kind)
    if TermKind.NAME in kinds or term.maybe_name or match.maybe_name:
        return "capital" if all(kind in (TermKind.NAME, TermKind.WORD) for kind in kinds) else None
    return "small" if small_name(term) and small_name(match) else None


def small_name(term: Term) -> bool:
    """A word written small that may be a name: the lexicon does not know it and it bears no
    inflection ("kate", "ben"; not "visiting" or "owes")."""
    surface = term.surface.lower()
    return (
        term.kind is TermKind.WORD
        and not surface.endswith(_INFLECTIONS)
        and not is_known(surface)
        and not is_known(term.text)
    )


_INFLECTIONS = ("s", "ed", "ing")


def capital(*matched: Term) -> bool:
    """A name, by its capital where a capital says so, in any of the facts it is matched in."""
    return any((t.kind is TermKind.NAME and t.certain) or t.maybe_name for t in matched)


LETTER_RUNS = re.compile(r"[a-z]+")
ROLE_KINDS = (TermKind.NAME, TermKind.NUMBER, TermKind.TIME)


def attribute_of(attribute: Term, values: Sequence[Term]) -> bool:
    """Whether a word stands where what the values are of stands: before them ("My favourite
    editor is Vim"), or across the copula from values in the subject ("Vim is my favourite
    editor")."""
    if attribute.kind in UNKEYED or attribute in values:
        return False
    return all(
        not attribute.in_subject if value.in_subject else attribute.position < value.position
        for value in values
    )


def identifies(value: Term, attribute: str) -> bool:
    """Whether a value says which thing of the attribute's kind it is: a name the lexicon does
    not know otherwise, or a kind of the thing it knows (Vim is an editor, an iPhone a phone)."""
    if attribute in value.groups or attribute in lexicon.ancestors(value.text):
        return True
    return value.kind is TermKind.NAME and not value.groups and not lexicon.ancestors(value.text)


def kinds_of(terms: Sequence[Term]) -> frozenset[str]:
    """What the terms are kinds of, by the lexicon (a database, an editor)."""
    return frozenset(parent for term in terms for parent in lexicon.ancestors(term.text))


def known_thing(term: Term) -> bool:
    """A word the lexicon knows as one thing among others: a relative, a kind of something."""
    return term.text in RELATIVES or bool(term.groups) or bool(lexicon.ancestors(term.text))


RELATIVES = frozenset(lexicon.RELATIONS.values())

PERIODS = frozenset("minut hour day week fortnight month year".split())

UNKEYED = (TermKind.NUMBER, TermKind.TIME)


def word_list(words: frozenset[str]) -> str:
    """Words as a reason lists them: in order, with commas."""
    return ", ".join(sorted(words))
