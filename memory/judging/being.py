"""Being someone against having someone or becoming one: "mum is a carer" / "mum has a carer",
"I want to be a teacher" / "I want a teacher", a pet called a name or described by it."""

from __future__ import annotations

import re
from collections.abc import Iterator

from memory.judging import lexicon
from memory.judging.names_and_numbers import LETTER_RUNS
from memory.judging.reading import Reading
from memory.judging.roles import OWNER_AND_OWNED, RELATIVE_WORDS
from memory.judging.terms import is_known
from memory.judging.words import STOP_WORDS


def being_and_having(being: Reading, having: Reading) -> str:
    """ "Mum is a carer" / "mum has a carer", "I'm a maths tutor" / "I have a maths tutor",
    "Luna is a collie" / "luna has a collie", "I am Dad's carer" / "I have Dad's carer": the
    same one being someone (a person by their work or relation, or an animal) in one fact and
    having one in the other. Not a thing of the speaker's that is one ("My phone is an iPhone"
    / "I have an iPhone"), nor a rank one both is and has ("a brown belt")."""
    found = _BEING.search(being.said)
    if found is None:
        return ""
    said = found["role"].split()
    # "is a carer" / "has a carer", "is Dad's carer" / "has Dad's carer"
    whose = re.escape(found["whose"].lower()) if found["whose"] else "an?"
    for role in (said[:2], said[:1]):  # "a maths tutor", "a nurse at ..."
        # Written small (a make or a name is no role: "The boiler is a Worcester Bosch"), and
        # its head a person or an animal.
        head = role[-1].lower()
        if not ((role[-1].islower() or head in _TRADES) and _one_to_be_or_have(head)):
            continue  # (a trade in capitals is still one: "a GP")
        named = " ".join(role).lower()
        goes_on = rf"\b{whose} {named}\b(.*)$"
        has = rf"^(.*?)\b(?:has|had|have|gets|got)(?: got)? {goes_on}"
        held = re.search(has, having.said.lower())
        if held is None or _holder(held[1]) != _holder(being.said[: found.start()]):
            continue  # another holder: "My phone is an iPhone" / "I have an iPhone"
        rest = LETTER_RUNS.findall(held[2])
        kept = re.search(goes_on, being.said.lower())
        # The having side's thing ends at the role ("a student card" is no student), or both
        # go on alike ("... every morning").
        if not rest or rest[0] in _AFTER_ROLE or (kept and rest == LETTER_RUNS.findall(kept[1])):
            return f"being against having: {found['whose'] or 'a'} {named}"
    return ""


def becoming_and_having(becoming: Reading, other: Reading) -> str:
    """ "I want to be a teacher" / "I want a teacher", "I'm training as an electrician" / "I'm
    training an electrician": someone to be or to become in one fact (after "to be", "to
    become" or "as") and the one done to or with in the other; not the other being one ("I'm a
    teacher", "im a nurse", "my husbands a bus driver") or saying it the same way."""
    said = other.said.lower()
    if _BECOMING.search(said):
        return ""
    for found in _BECOMING.finditer(becoming.said.lower()):
        words = found[1].split()
        role = next((word for word in words if _one_to_be_or_have(word)), None)
        if role is None or words[0] in STOP_WORDS:
            continue  # "has to be at the dentist": where, not who
        if any(role in being["said"].split() for being in _being_as_said(said)):
            return ""  # "I work as a nurse" / "I'm a nurse": the same
        if re.search(rf"\b{re.escape(role)}(?:e?s)?\b", said):
            return f"to be one against one done to: {role}"
    return ""


def whose_or_both(whose: Reading, other: Reading) -> str:
    """ "Kate is my sister's carer" / "Kate is my sister and carer", "User's dad's GP" /
    "User's dad: GP", "Jack's mum is 40" / "Jack and mum are 40": someone's role, after their
    "'s", in one fact; the same relative (or name) and role side by side (after "and", a comma
    or a note's colon) in the other, both said of one."""
    said = other.said.lower()
    for found in OWNER_AND_OWNED.finditer(whose.said.lower()):
        relative, role = found[1], found[2]
        # kept: "my sister's carer", "Jack's mum"
        if not (_one_to_be_or_have(relative) or _a_name(relative)) or not _one_to_be_or_have(role):
            continue
        if re.search(rf"\b{re.escape(relative)}(?:,| and|:)(?: an?)? {re.escape(role)}\b", said):
            return f"whose or both: {relative}'s {role} / {relative} and {role}"
    return ""


_BECOMING = re.compile(r"\b(?:to be|to become|as)(?: an?)? ((?:\w+ ){0,2}\w+)")
"""Someone to be, and the words after: "as a cleaner for", "to be a maths teacher"."""


def _holder(text: str) -> list[str]:
    """Who a fact before its verb says is or has something, without a verb's contraction: "dad"
    of "dad's got", "i" of "I've got" and of "I'm"."""
    return [word for word in LETTER_RUNS.findall(text.lower()) if word not in _CONTRACTED]


_CONTRACTED = frozenset("s ve d ll re m".split())


def _a_name(word: str) -> bool:
    """A word no lexicon knows and no function word: a name, written small too ("jack")."""
    return word.isalpha() and word not in STOP_WORDS and not is_known(word)


def _one_to_be_or_have(word: str) -> bool:
    """A word for someone one can be or have: a relative, one by their work ("carer", "tutor",
    "nurse"), or an animal ("a collie")."""
    return (
        word in RELATIVE_WORDS
        or word in _TRADES
        or word in lexicon.ANIMALS
        or word.endswith(_AGENT_ENDINGS)
    )


_TRADES = frozenset(
    "nurse nanny childminder lodger tenant vet cook chef coach mum dad student pupil client "
    "patient apprentice assistant intern trainee gp physio midwife surgeon consultant "
    "paramedic".split()
)
_AGENT_ENDINGS = ("er", "or", "ist", "ian")


def striving(reading: Reading) -> bool:
    """ "I tried to fix the dishwasher", "I was going to cancel Netflix", "I want to like jazz": a
    try, a deed meant and not done, or a wish to feel, is not the deed or the feeling ("I fixed
    the dishwasher", "I like jazz"); "I tried sushi" is."""
    return _STRIVING.search(reading.plain) is not None


_STRIVING = re.compile(
    r"\b(?:try|tries|tried|trying|attempts?|attempted|attempting) (?:to|\w+ing)\b"
    r"|\b(?:wants?|wanted|wanna|wish|hope|'d (?:like|love)|would (?:like|love)) (?:to )?"
    r"(?:like|love|enjoy)\b"
    r"|\b(?:was|were) (?:going to|gonna|about to)\b|\b(?:would|'d) have\b"
)
_AFTER_ROLE = frozenset("at for who called with from in on to and but now again".split())
"""Words that may follow a role ("has a tutor for maths") where a noun would make it a thing."""
_BEING = re.compile(
    r"(?:\b(?:is|was|am|are|were)|'m) (?:an?|(?P<whose>(?:(?:my|our|your|his|her|their) )?\w+'s)) "
    r"(?P<role>(?:\w+ )?\w+)\b(?! person)",
    re.I,
)
_BEING_AS_SAID = re.compile(
    r"(?:\b(?:is|was|am|are|were|im)|'m|'s|\b(?P<kin>\w+)s) an? (?P<said>(?:\w+ )?\w+)\b"
)


def _being_as_said(text: str) -> Iterator[re.Match[str]]:
    """Being someone, in a transcript's words too: "im a nurse", and a relative's "'s" without
    its apostrophe ("my husbands a bus driver"; not a verb's "s": "wants a doctor")."""
    for found in _BEING_AS_SAID.finditer(text):
        if found["kin"] is None or found["kin"] in lexicon.RELATIONS:
            yield found


def named_or_described(new: Reading, old: Reading) -> bool:
    """ "My cat is called Ginger" / "my cat is ginger", "My pony is called Star" / "my pony is a
    star": a name in one fact, and in the other the same word said of it small, a description.
    (Written with a capital, "my son is Tom", it is the name said plainly.)"""
    names = [_NAMING.search(reading.text) for reading in (new, old)]
    if bool(names[0]) == bool(names[1]):
        return False
    named = next(found[1] for found in names if found)
    naming = new if names[0] else old
    if naming.subject.relative and naming.subject.relative not in _PETS:
        return False  # a person's name is seldom a word that describes them ("my boss is priya")
    plain = (old if names[0] else new).text.replace("\u2019", "'")
    described = re.search(
        rf"(?:\b(?:is|are|was)|'s)\s+(?:(?:a|an|my|our|the)\s+)?({named})\b", plain, re.I
    )
    return described is not None and not described[1][0].isupper()


_PETS = frozenset(("dog", "cat", "pet"))
"""Relatives that are animals, whose names may be words that describe them ("Lucky")."""
_NAMING = re.compile(
    r"\b(?:called|named|nicknamed|goes by|go by|known as|name is|name's)\s+(\w+)", re.I
)
"""What names a thing or person, and the name after it."""
